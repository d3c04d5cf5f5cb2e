"""Movement: Dijkstra movement fields, reachability, paths and all-sources matrices.

The state graph and costs are those of ``docs/movement-semantics.md``:
Locations (ground and building levels) in a *moving* or *stopped* mode, plus
Bypass positions along obstacle hexsides for the ruleset's bypass classes.
Per unit class and counters, :func:`movement_tables` precomputes every edge
cost once (numpy, vectorised); the numba Dijkstra of
:mod:`kernel.movement._kernels` only reads those tables.

Output conventions
------------------
* ``MovementField.cost``: float64 MF/MP per hex, ``inf`` = unreachable.
* :func:`movement_matrix`: ``uint16`` half-MF steps, :data:`UNREACHABLE`
  (65535) where a hex cannot be reached.

Examples
--------
>>> import kernel
>>> board = kernel.load("default")
>>> field = movement_field(board, "71I4", unit="infantry")
>>> float(field.cost[board.index("71I4")])
0.0
>>> field.path_to("71I6")[0]
'71I4'
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kernel.movement import _kernels as K
from kernel._dtypes import HEX_INDEX

#: Sentinel of an unreachable hex in :func:`movement_matrix` (uint16).
UNREACHABLE = K.UNREACHABLE
FLAG_STOP = K.FLAG_STOP
FLAG_ALL = K.FLAG_ALL


@dataclass
class MovementTables:
    """Precomputed edge costs of one unit class on one board (with counters)."""

    unit: str
    tables: tuple
    n_locations: int
    n_bypass: int
    cot: np.ndarray
    cot_all: np.ndarray
    cot_stop: np.ndarray
    leave_cost: np.ndarray
    allowance_all: float
    allowance_half: int
    n_buckets: int
    edge_bounds: np.ndarray  # per state: ordinary edges, then all-MF edges (kernel.movement._kernels)
    edges: np.ndarray  # uint64: packed target and weight (kernel.movement._kernels.pack_edges)
    bypass_start: np.ndarray  # Bypass ids of hex h: bypass_start[h]:bypass_start[h + 1]
    exit_hexes: np.ndarray  # hexes the map can be left from (finite leave_cost, A2.6), ascending

    @property
    def n_states(self) -> int:
        return 2 * self.n_locations + self.n_bypass



def _combine(board, unit_index, mask_terrain, smoke):
    """COT per hex over the terrain features selected by ``mask_terrain`` (bit set)."""
    rs = board.ruleset
    combine = rs.rules["cost_combine"]
    n = len(board)
    terrain = board.terrain & np.uint32(mask_terrain)
    cost = np.zeros(n, np.float64)
    any_feature = np.zeros(n, np.bool_)
    all_mf = np.zeros(n, np.bool_)
    stop = np.zeros(n, np.bool_)
    for t in range(len(rs.terrain_names)):
        if not mask_terrain >> t & 1:
            continue
        has = (terrain & np.uint32(1 << t)) != 0
        value = rs.terrain_move[unit_index, t]
        if rs.terrain_move_all[unit_index, t]:
            all_mf |= has
            value = 0.0
        if combine == "sum":
            cost = np.where(has, cost + value, cost)
        else:
            cost = np.where(has, np.maximum(cost, value), cost)
        any_feature |= has
        stop |= has & bool(rs.terrain_stop_on_entry[t])
    cost = np.where(any_feature, cost, float(rs.rules["open_cost"]))
    cost = cost + np.where(smoke, float(rs.rules["smoke_cost"]), 0.0)
    return cost, all_mf, stop


def movement_tables(board, unit: str, *, smoke=None, units=None, allowance=None) -> MovementTables:
    """Edge costs for ``unit`` on ``board`` (see ``docs/movement-semantics.md``).

    Tables depend on the unit class, the counters and the allowance but not on
    the start, so they are kept on the board (a few per board) and reused.

    Raises
    ------
    ValueError
        Unknown unit class, or counters of the wrong shape.
    """
    rs = board.ruleset
    rs.unit_index(unit)
    n = len(board)
    if smoke is None and units is None:
        key = (unit, allowance, b"", b"")
    else:
        smoke = _mask(smoke, n, "smoke")
        units = _mask(units, n, "units")
        key = (unit, allowance, smoke.tobytes() if smoke.any() else b"", units.tobytes() if units.any() else b"")
    cache = board.__dict__.setdefault("_movement_tables", {})
    if key not in cache:
        smoke = _mask(smoke, n, "smoke")
        units = _mask(units, n, "units")
        if len(cache) >= 8:
            cache.pop(next(iter(cache)))
        cache[key] = _build_movement_tables(board, unit, smoke, units, allowance)
    return cache[key]


def _build_movement_tables(board, unit, smoke, units, allowance) -> MovementTables:
    rs = board.ruleset
    unit_index = rs.unit_index(unit)
    n = len(board)
    deck_terrain = sum(1 << t for t in range(len(rs.terrain_names)) if rs.terrain_deck[t])
    all_terrain = ((1 << len(rs.terrain_names)) - 1) & ~deck_terrain  # a deck is not a feature beneath it
    bypass_terrain = sum(1 << t for t in range(len(rs.terrain_names)) if rs.terrain_bypass[t])
    cot, cot_all, cot_stop = _combine(board, unit_index, all_terrain, smoke)
    other, other_all, _ = _combine(board, unit_index, all_terrain & ~bypass_terrain, smoke)
    rules = rs.rules
    allowance_all = float(allowance) if allowance is not None else float(rules["default_allowance"][unit])
    ground = board.ground_level.astype(np.int64)
    neighbours = board.neighbours

    # hexside costs per (hex, direction)
    hexside_cost = np.zeros((n, 6), np.float64)
    hexside_stop = np.zeros((n, 6), np.bool_)
    road = np.zeros((n, 6), np.bool_)
    for k in range(len(rs.hexside_names)):
        has = (board.hexside & np.uint16(1 << k)) != 0
        hexside_cost = np.where(has, hexside_cost + rs.hexside_move[unit_index, k], hexside_cost)
        hexside_stop |= has & bool(rs.hexside_stop_on_cross[k])
        if rs.hexside_road[k]:
            road |= has
    road_feature = road.copy()  # the physical road, for the bridge rule
    if unit not in rules["road_classes"]:
        road[:] = False  # no road movement rate for this class

    valid = neighbours >= 0
    q = np.where(valid, neighbours, 0)
    mode = rules["elevation_cost"]
    climb_rule = int(rules["whole_allowance_climb"])

    def climb(base, up):
        """Step 5: the elevation rule for a climb of ``up`` levels; (cost, steep)."""
        if mode == "double":
            base = np.where(up > 0, base * np.power(2.0, np.maximum(up, 0)), base)
        elif mode == "plus-one":
            base = np.where(up > 0, base + up, base)
        steep = (np.abs(up) >= climb_rule) if climb_rule > 0 else np.zeros(up.shape, np.bool_)
        if unit in rules["no_climb_classes"]:
            base = np.where(steep, math.inf, base)
        return base, steep

    def enter(up, road):
        """``enter(P -> Q)`` per (P, direction) for a climb of ``up`` levels: (cost, flags)."""
        # a road replaces the COT value and the hexside cost, but never lifts a
        # prohibition (of the hex or of a hexside feature) nor an all-MF feature
        road_base = float(rules["road_cost"]) + np.where(smoke[q], float(rules["smoke_cost"]), 0.0)
        base = np.where(road & np.isfinite(cot[q]), road_base, cot[q])
        side = np.where(road & np.isfinite(hexside_cost), 0.0, hexside_cost)
        base, steep = climb(base, up)
        all_flag = cot_all[q].copy()
        if unit in rules["whole_allowance_classes"]:
            all_flag = all_flag | steep
        if unit in rules["bridge_road_only_classes"]:
            bridge_terrain = sum(1 << t for t in range(len(rs.terrain_names)) if rs.terrain_bridge[t])
            is_bridge = (board.terrain & np.uint32(bridge_terrain)) != 0
            base = np.where(is_bridge[q] & ~road_feature, math.inf, base)
        if rules["occupied_hexes_block_movement"]:
            base = np.where(units[q], math.inf, base)
        cost = np.where(valid, base + side, math.inf)
        cost = np.where(np.isnan(cost), math.inf, cost)
        flags = (np.where(cot_stop[q] | hexside_stop | all_flag, FLAG_STOP, 0) | np.where(all_flag, FLAG_ALL, 0))
        return cost, np.where(valid, flags, 0).astype(np.int8)

    # in a bridge hex the road runs on the deck: not beneath it (item 6)
    deck = board.bridge_deck
    enter_cost, enter_flags = enter(ground[q] - ground[:, None], road & ~deck[:, None] & ~deck[q])

    # bridge decks (item 6 of the edges): only across a road hexside, at the
    # road (or Open Ground) cost, never all-MF, never stopped
    deck_base = (float(rules["road_cost"]) if unit in rules["road_classes"] else float(rules["open_cost"])) \
        + np.where(smoke[q], float(rules["smoke_cost"]), 0.0)
    deck_side = np.where(road & np.isfinite(hexside_cost), 0.0, hexside_cost)
    onto = valid & road_feature & deck[q]
    if rules["occupied_hexes_block_movement"]:
        onto &= ~units[q]
    deck_in = np.where(onto, climb(deck_base, ground[q] + 1 - ground[:, None])[0] + deck_side, math.inf)
    deck_across = np.where(onto & deck[:, None], climb(deck_base, ground[q] - ground[:, None])[0] + deck_side, math.inf)
    off_cost, off_flags = enter(ground[q] - (ground[:, None] + 1), road & ~deck[q])
    deck_out = np.where(valid & road_feature & deck[:, None], off_cost, math.inf)
    deck_out_flags = np.where(np.isfinite(deck_out), off_flags, 0).astype(np.int8)
    deck_in = np.where(np.isnan(deck_in), math.inf, deck_in)
    deck_across = np.where(np.isnan(deck_across), math.inf, deck_across)
    deck_location = np.where(deck, board.location_offset[:-1].astype(np.int64) + 1, -1)

    # climbing within a building: the hex's COT (no elevation, no hexside); in
    # an all-MF hex the climb is an all-MF move (first move only, ends stopped)
    climb_cost = np.where(np.isfinite(cot), cot, math.inf)
    climb_all = cot_all.copy()

    # Bypass positions (A4.3)
    bypass_id = np.full((n, 6), -1, np.int32)
    if unit in rs.bypass_classes:
        touched = ((board.touches[:, None] >> np.arange(6)) & 1).astype(bool)
        ok = board.bypassable[:, None] & ~touched & valid & np.isfinite(other)[:, None] & ~other_all[:, None]
        bypass_id[ok] = np.arange(int(ok.sum()), dtype=np.int32)
    n_bypass = int((bypass_id >= 0).sum())
    bypass_hex, bypass_dir = np.nonzero(bypass_id >= 0)
    order = np.argsort(bypass_id[bypass_hex, bypass_dir])
    bypass_hex = bypass_hex[order].astype(np.int32)
    bypass_dir = bypass_dir[order].astype(np.int32)
    # entering h's bypass from the neighbour across hexside e of h
    from_ground = ground[q]  # ground of the neighbour across e
    up_in = ground[:, None] - from_ground
    bypass_base = np.broadcast_to(other[:, None], (n, 6)).astype(np.float64)
    if mode == "double":
        bypass_base = np.where(up_in > 0, bypass_base * np.power(2.0, np.maximum(up_in, 0)), bypass_base)
    elif mode == "plus-one":
        bypass_base = np.where(up_in > 0, bypass_base + up_in, bypass_base)
    has_bypass = (bypass_id >= 0).any(axis=1)
    bypass_in = np.where(valid & has_bypass[:, None], bypass_base + hexside_cost, math.inf)
    bypass_in = np.where(np.isnan(bypass_in), math.inf, bypass_in)
    bypass_along = np.where(has_bypass, other, math.inf)

    # leaving the map (A2.6): the COT of a mirror image of the edge hex
    edge_side = np.where(~valid, hexside_cost, math.inf).min(axis=1)
    leave_cost = cot + edge_side  # an all-MF hex: the allowance, first move only (see movement_field)

    enter_half = _half(enter_cost)
    climb_half = _half(climb_cost)
    bypass_in_half = _half(bypass_in)
    bypass_along_half = _half(bypass_along)
    deck_in_half, deck_across_half, deck_out_half = _half(deck_in), _half(deck_across), _half(deck_out)
    allowance_half = int(_half(np.array([allowance_all]))[0])
    finite = [a[a < K.INF_HALF] for a in (enter_half, climb_half, bypass_in_half, bypass_along_half, _half(cot),
                                          deck_in_half, deck_across_half, deck_out_half)]
    largest = max([allowance_half] + [int(a.max()) for a in finite if a.size])
    tables = K.KernelTables(
        np.ascontiguousarray(neighbours, dtype=np.int64), board.location_offset.astype(np.int64),
        board.location_hex.astype(np.int64), board.location_level.astype(np.int64),
        board.building_levels.astype(np.int64), enter_half, np.ascontiguousarray(enter_flags),
        climb_half, climb_all, np.ascontiguousarray(bypass_id), bypass_hex, bypass_dir,
        bypass_in_half, bypass_along_half, int(board.location_offset[-1]),
        deck_location, deck_in_half, deck_across_half, deck_out_half, deck_out_flags,
    )
    edge_bounds, target, weight = _state_graph(tables, allowance_half)
    # Dial's queue needs more buckets than the largest edge weight
    largest = max(largest, int(weight.max(initial=0)))
    bypass_start = np.zeros(n + 1, np.int64)
    np.cumsum((bypass_id >= 0).sum(axis=1), out=bypass_start[1:])  # ids run hex by hex (assigned above)
    exit_hexes = np.flatnonzero(np.isfinite(leave_cost)).astype(np.int64)
    return MovementTables(unit, tables, int(board.location_offset[-1]), n_bypass, cot, cot_all, cot_stop,
                          leave_cost, allowance_all, allowance_half, largest + 1, edge_bounds,
                          K.pack_edges(target, weight), bypass_start, exit_hexes)


def _state_graph(tables, allowance_half: int):
    """The expanded state graph of ``docs/movement-semantics.md`` as CSR arrays.

    Returns ``(edge_bounds, target, weight)``: the ordinary out-edges of
    state ``s`` are ``edge_bounds[2s]:edge_bounds[2s+1]`` and its all-MF
    edges (legal only as the first move; they weigh the allowance)
    ``edge_bounds[2s+1]:edge_bounds[2s+2]``, with weights in half MF.
    Stopped states have no out-edges.  Built with numpy, once per unit class
    and counters.
    """
    (neighbours, location_offset, location_hex, location_level, building_levels, enter_cost, enter_flags,
     climb_cost, climb_all, bypass_id, bypass_hex, bypass_dir, bypass_in, bypass_along, n_locations,
     deck_location, deck_in, deck_across, deck_out, deck_out_flags) = tables
    n = neighbours.shape[0]
    n_loc_states = 2 * n_locations
    ground = 2 * location_offset[:-1]            # moving ground state of each hex
    INF = K.INF_HALF
    sources, targets, weights, firsts = [], [], [], []

    def add(src, dst, w, first):
        keep = w < INF
        sources.append(src[keep])
        targets.append(dst[keep])
        weights.append(w[keep])
        firsts.append(np.broadcast_to(first, keep.shape)[keep])

    hexes = np.repeat(np.arange(n), 6)
    dirs = np.tile(np.arange(6), n)
    q = neighbours[hexes, dirs]
    valid = q >= 0
    hexes, dirs, q = hexes[valid], dirs[valid], q[valid]
    step = enter_cost[hexes, dirs]
    flags = enter_flags[hexes, dirs]
    all_mf = (flags & K.FLAG_ALL) != 0
    stop = ((flags & K.FLAG_STOP) != 0).astype(np.int64)
    # 1. entering a neighbour (an all-MF move weighs the allowance, first move only)
    add(ground[hexes], ground[q] + stop, np.where(all_mf & (step < INF), allowance_half, step), all_mf)
    # 2. climbing within a building
    locations = np.arange(n_locations)
    h_of = location_hex
    climb = np.where(climb_all[h_of], allowance_half, climb_cost[h_of])
    climb = np.where(climb_cost[h_of] < INF, climb, INF)
    stop_climb = climb_all[h_of].astype(np.int64)
    up = location_level < building_levels[h_of]
    down = (location_level > 0) & (location_level <= building_levels[h_of])  # not off a bridge deck
    add(2 * locations[up], 2 * (locations[up] + 1) + stop_climb[up], climb[up], climb_all[h_of][up])
    add(2 * locations[down], 2 * (locations[down] - 1) + stop_climb[down], climb[down], climb_all[h_of][down])
    # 3. Bypass entry from the hexes touching a Bypass hexside
    for j in (-1, 0, 1):
        e = (dirs + 3) % 6                      # hexside of q facing the mover
        b = bypass_id[q, (e + j) % 6]
        ok = b >= 0
        add(ground[hexes[ok]], n_loc_states + b[ok], bypass_in[q[ok], e[ok]], False)
    # 4. Bypass along to the next hexside and 5. Bypass exit
    for j in (-1, 1):
        other = bypass_id[bypass_hex, (bypass_dir + j) % 6]
        ok = other >= 0
        add(n_loc_states + np.flatnonzero(ok), n_loc_states + other[ok], bypass_along[bypass_hex[ok]], False)
    for j in (-1, 0, 1):
        d = (bypass_dir + j) % 6
        q_exit = neighbours[bypass_hex, d]
        ok = q_exit >= 0
        ids = np.flatnonzero(ok)
        step = enter_cost[bypass_hex[ok], d[ok]]
        flags = enter_flags[bypass_hex[ok], d[ok]]
        step = np.where((flags & K.FLAG_ALL) != 0, INF, step)
        add(n_loc_states + ids, ground[q_exit[ok]] + ((flags & K.FLAG_STOP) != 0), step, False)

    # 6. bridge decks: onto a deck (from ground or from a deck) and off it, across road hexsides
    p_hexes = np.repeat(np.arange(n), 6)
    p_dirs = np.tile(np.arange(6), n)
    q_all = neighbours[p_hexes, p_dirs]
    ok = q_all >= 0
    p_hexes, p_dirs, q_all = p_hexes[ok], p_dirs[ok], q_all[ok]
    to_deck = deck_location[q_all]
    has = to_deck >= 0
    add(ground[p_hexes[has]], 2 * to_deck[has], deck_in[p_hexes[has], p_dirs[has]], False)
    from_deck = deck_location[p_hexes]
    both = has & (from_deck >= 0)
    add(2 * from_deck[both], 2 * to_deck[both], deck_across[p_hexes[both], p_dirs[both]], False)
    leave = from_deck >= 0
    step = deck_out[p_hexes[leave], p_dirs[leave]]
    flags = deck_out_flags[p_hexes[leave], p_dirs[leave]]
    all_mf = (flags & K.FLAG_ALL) != 0
    add(2 * from_deck[leave], ground[q_all[leave]] + ((flags & K.FLAG_STOP) != 0).astype(np.int64),
        np.where(all_mf & (step < INF), allowance_half, step), all_mf)

    src = np.concatenate(sources).astype(np.int64)
    first_only = np.concatenate(firsts).astype(np.bool_)
    order = np.lexsort((first_only, src))  # by state, its all-MF edges last
    n_states = n_loc_states + len(bypass_hex)
    edge_bounds = np.zeros(2 * n_states + 1, np.int64)
    ranges = np.zeros(2 * n_states, np.int64)  # edge counts: ordinary and all-MF, state by state
    ranges[0::2] = np.bincount(src[~first_only], minlength=n_states)
    ranges[1::2] = np.bincount(src[first_only], minlength=n_states)
    np.cumsum(ranges, out=edge_bounds[1:])
    return (edge_bounds, np.concatenate(targets).astype(np.int64)[order],
            np.concatenate(weights).astype(np.int64)[order])


def _half(costs: np.ndarray) -> np.ndarray:
    """MF costs (multiples of 1/2, ``inf`` impossible) as int64 half-MF steps (``INF_HALF``)."""
    costs = np.asarray(costs, dtype=np.float64)
    doubled = np.where(np.isfinite(costs), 2.0 * costs, 0.0)
    if not np.array_equal(doubled, np.rint(doubled)):
        raise ValueError("a movement cost is not a multiple of 1/2 MF: the ruleset tables should make this impossible")
    return np.ascontiguousarray(np.where(np.isfinite(costs), doubled, K.INF_HALF).astype(np.int64))


#: Largest movement allowance accepted (MF/MP).  Dial's queue holds one bucket
#: per half MF of the largest edge weight, and an all-MF move weighs the
#: whole allowance, so the bound keeps that array small.
MAX_ALLOWANCE = 1000


def _check_allowance(allowance) -> None:
    if allowance is None:
        return
    if isinstance(allowance, bool) or not isinstance(allowance, (int, float, np.integer, np.floating)) or not allowance >= 0:
        raise ValueError(f"allowance is {allowance!r}: expected a non-negative number of MF/MP")
    if allowance > MAX_ALLOWANCE:
        raise ValueError(f"allowance is {allowance!r}: expected at most {MAX_ALLOWANCE} MF/MP")
    if 2 * float(allowance) != int(2 * float(allowance)):
        raise ValueError(f"allowance is {allowance!r}: expected a multiple of 1/2 MF/MP")


def _mask(value, n, name):
    if value is None:
        return np.zeros(n, np.bool_)
    array = np.asarray(value)
    if array.shape != (n,):
        raise ValueError(f"{name} has shape {array.shape}: expected ({n},), one value per hex")
    return array.astype(bool)


#: No entry from off the map (an empty array the field kernel only reads).
_NO_ENTRIES = np.zeros(0, np.int64)


def _start_locations(board, start):
    """(hexes, levels) int64 arrays of start hexes or Locations (``"2I9h1"``: a deck or upper level)."""
    if isinstance(start, str) and not board.names_a_location(start):  # the common case, kept short
        return np.array([board.index(start)], np.int64), np.zeros(1, np.int64)
    items = [start] if isinstance(start, (str, int, np.integer)) else start
    if items is not None and not isinstance(items, np.ndarray) and any(board.names_a_location(i) for i in items):
        pairs = [board.location(i) if isinstance(i, str) else (board.index(i), 0) for i in items]
        return np.array([p[0] for p in pairs], np.int64), np.array([p[1] for p in pairs], np.int64)
    hexes = _hex_list(board, start, "start")
    return hexes, np.zeros(len(hexes), np.int64)


def _hex_list(board, hexes, what):
    """int64 indices of one hex or a sequence of hexes (names or indices)."""
    if hexes is None:
        return np.zeros(0, np.int64)
    if isinstance(hexes, (str, int, np.integer)):
        return np.array([board.index(hexes)], np.int64)
    return board.indices(list(hexes) if not isinstance(hexes, np.ndarray) else hexes).astype(np.int64)


@dataclass
class MovementField:
    """The result of :func:`movement_field`.

    Attributes
    ----------
    cost : float64 array (N,)
        Least cost to each hex (its ground Location, a Bypass position or,
        in a bridge hex, its deck), ``inf`` where unreachable.
    state_cost : float64 array
        Least cost to every state (see :meth:`state_name`).
    exit_cost : float
        Least cost to leave the map (A2.6), ``inf`` if impossible.
    """

    board: object
    unit: str
    cost: np.ndarray
    state_cost: np.ndarray
    predecessor: np.ndarray
    exit_cost: float
    exit_hex: int
    tables: MovementTables

    def state_name(self, state: int) -> str:
        """Name of a state: a Location (``71I9``, ``71I9h1``, ``+stopped``) or a Bypass (``71F3-71E3``)."""
        board = self.board
        n_loc = self.tables.n_locations
        if state < 2 * n_loc:
            loc = state >> 1
            return board.location_name(int(board.location_hex[loc]), int(board.location_level[loc]))
        b = state - 2 * n_loc
        h = int(self.tables.tables.bypass_hex[b])
        d = int(self.tables.tables.bypass_dir[b])
        return f"{board.names[h]}-{board.names[board.neighbours[h, d]]}"

    def start_states(self) -> list[int]:
        """State ids of the Locations the field starts from (moving, at cost 0)."""
        moving_locations = self.state_cost[:2 * self.tables.n_locations:2]
        return [2 * int(loc) for loc in np.flatnonzero(moving_locations == 0)]

    def best_state(self, hex_) -> int:
        """State of least cost among a hex's ground Location, Bypass positions and bridge deck."""
        h = self.board.index(hex_)
        loc = int(self.board.location_offset[h])
        candidates = [2 * loc, 2 * loc + 1]
        if self.board.bridge_deck[h]:
            candidates += [2 * loc + 2, 2 * loc + 3]
        bypass_id = self.tables.tables.bypass_id
        candidates += [2 * self.tables.n_locations + int(b) for b in bypass_id[h] if b >= 0]
        return min(candidates, key=lambda s: self.state_cost[s])

    def path_states(self, hex_) -> list[int]:
        """State ids of the cheapest path to a hex (empty if unreachable)."""
        state = self.best_state(hex_)
        if not np.isfinite(self.state_cost[state]):
            return []
        path = [state]
        while self.predecessor[path[-1]] >= 0:
            path.append(int(self.predecessor[path[-1]]))
        return path[::-1]

    def path_to(self, hex_) -> list[str]:
        """The cheapest path to a hex as Location and Bypass names (empty if unreachable).

        A Bypass position is written ``hex-hex`` (A2.2: the first hex is the
        one the unit is in, along its hexside with the second).  Where several
        paths cost the same, one of them is given; which one is not part of
        the contract (it may change between versions).
        """
        return [self.state_name(s) for s in self.path_states(hex_)]

    def reachable(self, allowance: float) -> np.ndarray:
        """Boolean array of the hexes whose cost is within ``allowance``."""
        return self.cost <= allowance


def movement_field(board, start, unit: str | None = None, allowance: float | None = None, *,
                   smoke=None, units=None, entry_hexes=None) -> MovementField:
    """Least movement cost from one or several start hexes to every hex and state.

    Parameters
    ----------
    board : Board
    start : hex or sequence of hexes, or None
        Start hexes (names or indices): the unit is at ground level, moving,
        at cost 0 (an all-MF move is allowed as its first move).  A start
        Location such as ``"2I9h1"`` (on a bridge deck or an upper building
        level) starts there instead.
    unit : str, optional
        Unit class (default: the ruleset's first, e.g. ``"infantry"``).
    allowance : float, optional
        Movement allowance, a multiple of 1/2 up to :data:`MAX_ALLOWANCE`:
        states costlier than it are not expanded, and all-MF moves cost it
        (default: the class's ``default_allowance`` for all-MF moves and no
        limit).
    smoke, units : bool arrays (N,), optional
        SMOKE per hex (adds to the COT, B.2); units per hex (CCN: occupied
        hexes cannot be entered).
    entry_hexes : hex or sequence, optional
        Hexes entered from off the map (A2.5): each starts at its own entry
        cost.  ``board_edge_hexes(board, side)`` lists a side's hexes.

    Raises
    ------
    ValueError
        No start and no entry hex, unknown unit class, negative allowance.
    """
    unit = unit if unit is not None else board.ruleset.unit_classes[0]
    _check_allowance(allowance)
    starts, start_levels = _start_locations(board, start)
    if starts.size == 0 and entry_hexes is None:
        raise ValueError("movement_field: no start hex and no entry hex given: expected at least one")
    tables = movement_tables(board, unit, smoke=smoke, units=units, allowance=allowance)
    location_offset = tables.tables.location_offset
    entry_states = entry_half = _NO_ENTRIES
    if entry_hexes is not None:
        entries = _hex_list(board, entry_hexes, "entry_hexes")
        if starts.size == 0 and entries.size == 0:
            raise ValueError("movement_field: no start hex and no entry hex given: expected at least one")
        blocks = bool(board.ruleset.rules["occupied_hexes_block_movement"]) and units is not None
        occupied = _mask(units, len(board), "units") if blocks else None
        states, costs = [], []
        for e in entries:
            if occupied is not None and occupied[e]:
                continue  # entering from off the map is an entry: not into an occupied hex
            cost = tables.allowance_all if tables.cot_all[e] else float(tables.cot[e])
            if not np.isfinite(cost):
                continue
            stopped = bool(tables.cot_stop[e] or tables.cot_all[e])
            states.append(2 * int(location_offset[e]) + (1 if stopped else 0))
            costs.append(int(round(2 * cost)))
        entry_states, entry_half = np.array(states, np.int64), np.array(costs, np.int64)
    limit = int(2 * allowance) if allowance is not None else K.INF_HALF  # a multiple of 1/2 (checked)
    state_cost, cost, pred, exit_cost, exit_hex = K.field_kernel(
        tables.edge_bounds, tables.edges, tables.n_buckets, limit, starts, start_levels, entry_states, entry_half,
        location_offset, tables.bypass_start, tables.tables.deck_location, tables.n_locations, tables.exit_hexes,
        tables.leave_cost, tables.cot_all, tables.allowance_all)
    return MovementField(board, unit, cost, state_cost, pred, exit_cost, exit_hex, tables)


def reachable(board, start, unit: str | None = None, allowance: float = 4, **options) -> np.ndarray:
    """Boolean array: hexes a unit can reach from ``start`` within ``allowance``.

    Honours stop-on-entry, all-MF moves (only as the first move, costing the
    whole allowance) and every rule of :func:`movement_field`.

    >>> import kernel
    >>> board = kernel.load("default")
    >>> mask = reachable(board, "71I4", "infantry", 4)
    >>> bool(mask[board.index("71I4")]), int(mask.sum()) > 1
    (True, True)
    """
    if allowance is None:
        raise ValueError("reachable needs an allowance: expected a number of MF/MP")
    return movement_field(board, start, unit, allowance, **options).cost <= allowance


def movement_matrix(board, unit: str | None = None, allowance: float | None = None, *, sources=None,
                    smoke=None, units=None) -> np.ndarray:
    """Movement cost from every source hex (default: all) to every hex, in parallel.

    Returns
    -------
    numpy.ndarray of uint16, shape (len(sources), N)
        Costs in half-MF steps (``cost * 2``); :data:`UNREACHABLE` (65535)
        where a hex cannot be reached (or lies beyond ``allowance``).
    """
    unit = unit if unit is not None else board.ruleset.unit_classes[0]
    _check_allowance(allowance)
    source_hexes = np.arange(len(board), dtype=np.int64) if sources is None else _hex_list(board, sources, "sources").astype(np.int64)
    tables = movement_tables(board, unit, smoke=smoke, units=units, allowance=allowance)
    out = np.empty((len(source_hexes), len(board)), np.uint16)
    limit = int(2 * allowance) if allowance is not None else K.INF_HALF
    K.movement_matrix_kernel(tables.edge_bounds, tables.edges, tables.tables.location_offset, tables.bypass_start,
                             tables.tables.deck_location, tables.n_locations, tables.n_buckets, limit, source_hexes,
                             out)
    return out


def board_edge_hexes(board, side: str) -> np.ndarray:
    """Indices of the hexes along one map edge: ``"N"``, ``"S"``, ``"W"`` or ``"E"``.

    A hex is on an edge when a hexside facing that way leads off the map.
    """
    directions = {"N": (0,), "S": (3,), "W": (4, 5), "E": (1, 2)}
    if side not in directions:
        raise ValueError(f"side is {side!r}: expected one of N, S, W, E")
    off = np.zeros(len(board), np.bool_)
    for d in directions[side]:
        off |= board.neighbours[:, d] < 0
    return np.flatnonzero(off).astype(HEX_INDEX)


def movement_graph(board, start, unit: str | None = None, allowance: float | None = None, **options):
    """The expanded state graph the kernel walks, as a ``scipy.sparse.csr_matrix`` in MF.

    For peers such as scipy: all-MF moves are kept only out of the start
    states (they are legal only as the first move), so a plain shortest-path
    search from a start state gives the kernel's costs.  Returns
    ``(csr, start_states)``.  scipy is imported lazily (test/bench extra).
    """
    from scipy.sparse import csr_matrix

    unit = unit if unit is not None else board.ruleset.unit_classes[0]
    tables = movement_tables(board, unit, allowance=allowance, **options)
    hexes, levels = _start_locations(board, start)
    starts = sorted({2 * (int(board.location_offset[h]) + int(level)) for h, level in zip(hexes, levels)})
    counts = np.diff(tables.edge_bounds)  # ordinary then all-MF edges, state by state
    source = np.repeat(np.repeat(np.arange(tables.n_states), 2), counts)
    first_only = np.repeat(np.tile([False, True], tables.n_states), counts)
    target, weight = K.unpack_edges(tables.edges)
    keep = ~first_only | np.isin(source, starts)
    weights = weight[keep] / 2.0
    weights = np.where(weights == 0, 1e-12, weights)  # scipy drops explicit zero weights
    csr = csr_matrix((weights, (source[keep], target[keep])), shape=(tables.n_states, tables.n_states))
    return csr, starts
