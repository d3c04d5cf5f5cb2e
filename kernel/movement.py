"""Movement: Dijkstra movement fields, reachability, paths and all-sources matrices.

The state graph and costs are those of ``docs/movement-semantics.md``:
Locations (ground and building levels) in a *moving* or *stopped* mode, plus
Bypass positions along obstacle hexsides for the ruleset's bypass classes.
Per unit class and counters, :func:`movement_tables` precomputes every edge
cost once (numpy, vectorised); the numba Dijkstra of
:mod:`kernel._movement_kernels` only reads those tables.

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

from kernel import _movement_kernels as K
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

    Raises
    ------
    ValueError
        Unknown unit class, or counters of the wrong shape.
    """
    rs = board.ruleset
    unit_index = rs.unit_index(unit)
    n = len(board)
    smoke = _mask(smoke, n, "smoke")
    units = _mask(units, n, "units")
    all_terrain = (1 << len(rs.terrain_names)) - 1
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
    up = ground[q] - ground[:, None]
    # a road replaces the COT value and the hexside cost, but never lifts a
    # prohibition (of the hex or of a hexside feature) nor an all-MF feature
    road_base = float(rules["road_cost"]) + np.where(smoke[q], float(rules["smoke_cost"]), 0.0)
    base = np.where(road & np.isfinite(cot[q]), road_base, cot[q])
    side = np.where(road & np.isfinite(hexside_cost), 0.0, hexside_cost)
    all_flag = cot_all[q].copy()
    mode = rules["elevation_cost"]
    climbing = up > 0
    if mode == "double":
        base = np.where(climbing, base * np.power(2.0, np.maximum(up, 0)), base)
    elif mode == "plus-one":
        base = np.where(climbing, base + up, base)
    climb_rule = int(rules["whole_allowance_climb"])
    if climb_rule > 0:
        steep = np.abs(up) >= climb_rule
        if unit in rules["no_climb_classes"]:
            base = np.where(steep, math.inf, base)
        if unit in rules["whole_allowance_classes"]:
            all_flag = all_flag | steep
    if unit in rules["bridge_road_only_classes"]:
        bridge_terrain = sum(1 << t for t in range(len(rs.terrain_names)) if rs.terrain_bridge[t])
        is_bridge = (board.terrain & np.uint32(bridge_terrain)) != 0
        base = np.where(is_bridge[q] & ~road_feature, math.inf, base)
    if rules["occupied_hexes_block_movement"]:
        base = np.where(units[q], math.inf, base)
    enter_cost = np.where(valid, base + side, math.inf)
    enter_cost = np.where(np.isnan(enter_cost), math.inf, enter_cost)
    flags = (np.where(cot_stop[q] | hexside_stop | all_flag, FLAG_STOP, 0) | np.where(all_flag, FLAG_ALL, 0))
    enter_flags = np.where(valid, flags, 0).astype(np.int8)

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

    tables = K.KernelTables(
        np.ascontiguousarray(neighbours, dtype=np.int64), board.location_offset.astype(np.int64),
        board.location_hex.astype(np.int64), board.location_level.astype(np.int64),
        board.building_levels.astype(np.int64), np.ascontiguousarray(enter_cost), np.ascontiguousarray(enter_flags),
        np.ascontiguousarray(climb_cost), climb_all, np.ascontiguousarray(bypass_id), bypass_hex, bypass_dir,
        np.ascontiguousarray(bypass_in), np.ascontiguousarray(bypass_along), int(board.location_offset[-1]),
    )
    return MovementTables(unit, tables, int(board.location_offset[-1]), n_bypass, cot, cot_all, cot_stop,
                          leave_cost, allowance_all)


def _mask(value, n, name):
    if value is None:
        return np.zeros(n, np.bool_)
    array = np.asarray(value)
    if array.shape != (n,):
        raise ValueError(f"{name} has shape {array.shape}: expected ({n},), one value per hex")
    return array.astype(bool)


def _hex_list(board, hexes, what):
    if hexes is None:
        return np.zeros(0, HEX_INDEX)
    if isinstance(hexes, (str, int, np.integer)):
        hexes = [hexes]
    return board.indices(list(hexes) if not isinstance(hexes, np.ndarray) else hexes)


@dataclass
class MovementField:
    """The result of :func:`movement_field`.

    Attributes
    ----------
    cost : float64 array (N,)
        Least cost to each hex (ground Location or a Bypass position), ``inf``
        where unreachable.
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
            h = int(board.location_hex[loc])
            level = int(board.location_level[loc])
            return board.names[h] + (f"h{level}" if level else "")
        b = state - 2 * n_loc
        h = int(self.tables.tables.bypass_hex[b])
        d = int(self.tables.tables.bypass_dir[b])
        return f"{board.names[h]}-{board.names[board.neighbours[h, d]]}"

    def best_state(self, hex_) -> int:
        """State of least cost among a hex's ground Location and Bypass positions."""
        h = self.board.index(hex_)
        loc = int(self.board.location_offset[h])
        candidates = [2 * loc, 2 * loc + 1]
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
        one the unit is in, along its hexside with the second).
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
        Start hexes (names or indices); the unit is at ground level, moving,
        at cost 0 (an all-MF move is allowed as its first move).
    unit : str, optional
        Unit class (default: the ruleset's first, e.g. ``"infantry"``).
    allowance : float, optional
        Movement allowance: states costlier than it are not expanded, and
        all-MF moves cost it (default: the class's ``default_allowance`` for
        all-MF moves and no limit).
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
    if allowance is not None and (isinstance(allowance, bool) or not isinstance(allowance, (int, float)) or allowance < 0):
        raise ValueError(f"allowance is {allowance!r}: expected a non-negative number of MF/MP")
    starts = _hex_list(board, start, "start")
    entries = _hex_list(board, entry_hexes, "entry_hexes")
    if starts.size == 0 and entries.size == 0:
        raise ValueError("movement_field: no start hex and no entry hex given: expected at least one")
    tables = movement_tables(board, unit, smoke=smoke, units=units, allowance=allowance)
    start_states = [2 * int(board.location_offset[s]) for s in starts]
    start_costs = [0.0] * len(starts)
    first = [True] * len(starts)
    occupied = _mask(units, len(board), "units") & bool(board.ruleset.rules["occupied_hexes_block_movement"])
    for e in entries:
        if occupied[e]:
            continue  # entering from off the map is an entry: not into an occupied hex
        cost = tables.allowance_all if tables.cot_all[e] else float(tables.cot[e])
        if not np.isfinite(cost):
            continue
        stopped = bool(tables.cot_stop[e] or tables.cot_all[e])
        start_states.append(2 * int(board.location_offset[e]) + (1 if stopped else 0))
        start_costs.append(cost)
        first.append(False)
    n_states = tables.n_states
    dist = np.empty(n_states, np.float64)
    pred = np.empty(n_states, np.int32)
    heap_cost = np.empty(n_states * 12 + 16, np.float64)
    heap_state = np.empty(n_states * 12 + 16, np.int32)
    limit = float(allowance) if allowance is not None else math.inf
    K.dijkstra(tables.tables, np.array(start_states, np.int64), np.array(start_costs, np.float64),
               np.array(first, np.bool_), tables.allowance_all, limit, dist, pred, heap_cost, heap_state)
    if allowance is not None:
        dist = np.where(dist <= limit, dist, math.inf)
    cost = np.empty(len(board), np.float64)
    K.hex_costs(dist, board.location_offset.astype(np.int64), tables.tables.bypass_id, tables.n_locations, cost)
    moving_ground = dist[2 * board.location_offset[:-1].astype(np.int64)]
    leave = moving_ground + np.where(tables.cot_all, math.inf, tables.leave_cost)
    if len(starts):
        # leaving from an all-MF hex is an all-MF move: only as the first move
        edge = np.isfinite(tables.leave_cost[starts]) & tables.cot_all[starts]
        leave[starts[edge]] = np.minimum(leave[starts[edge]], tables.allowance_all)
    exit_hex = int(np.argmin(leave)) if np.isfinite(leave).any() else -1
    exit_cost = float(leave[exit_hex]) if exit_hex >= 0 else math.inf
    return MovementField(board, unit, cost, dist, pred, exit_cost, exit_hex, tables)


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
    if allowance is not None and (isinstance(allowance, bool) or not isinstance(allowance, (int, float)) or allowance < 0):
        raise ValueError(f"allowance is {allowance!r}: expected a non-negative number of MF/MP")
    source_hexes = np.arange(len(board), dtype=np.int64) if sources is None else _hex_list(board, sources, "sources").astype(np.int64)
    tables = movement_tables(board, unit, smoke=smoke, units=units, allowance=allowance)
    first_state = 2 * board.location_offset[:-1].astype(np.int64)
    out = np.empty((len(source_hexes), len(board)), np.uint16)
    limit = float(allowance) if allowance is not None else math.inf
    K.movement_matrix_kernel(tables.tables, tables.n_states, tables.allowance_all, limit, first_state,
                             source_hexes, out)
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
    """The expanded state graph as a ``scipy.sparse.csr_matrix`` (for peers such as scipy).

    Edge weights are the same costs the kernel uses; all-MF moves appear only
    out of the start states (they are legal only as the first move).  Returns
    ``(csr, start_states)``.  scipy is imported lazily (test/bench extra).
    """
    from scipy.sparse import csr_matrix

    unit = unit if unit is not None else board.ruleset.unit_classes[0]
    tables = movement_tables(board, unit, allowance=allowance, **options)
    (neighbours, location_offset, location_hex, location_level, building_levels, enter_cost, enter_flags,
     climb_cost, climb_all, bypass_id, bypass_hex, bypass_dir, bypass_in, bypass_along, n_locations) = tables.tables
    starts = {2 * int(location_offset[s]) for s in _hex_list(board, start, "start")}
    rows, cols, weights = [], [], []
    n_loc_states = 2 * n_locations

    def add(a, b, w):
        if np.isfinite(w):
            rows.append(a)
            cols.append(b)
            weights.append(max(w, 1e-12))  # scipy drops explicit zero weights

    for loc in range(n_locations):
        h = int(location_hex[loc])
        level = int(location_level[loc])
        state = 2 * loc
        if climb_cost[h] < math.inf:
            step, stop = climb_cost[h], 0
            if climb_all[h]:
                step, stop = (tables.allowance_all if state in starts else math.inf), 1
            if level > 0:
                add(state, state - 2 + stop, step)
            if level < building_levels[h]:
                add(state, state + 2 + stop, step)
        if level:
            continue
        for d in range(6):
            q = int(neighbours[h, d])
            if q < 0:
                continue
            step = enter_cost[h, d]
            flags = int(enter_flags[h, d])
            if flags & FLAG_ALL:
                step = tables.allowance_all if state in starts else math.inf
            target = 2 * int(location_offset[q]) + (1 if flags & FLAG_STOP else 0)
            add(state, target, step)
            e = (d + 3) % 6
            if bypass_in[q, e] < math.inf:
                for j in (-1, 0, 1):
                    b = int(bypass_id[q, (e + j) % 6])
                    if b >= 0:
                        add(state, n_loc_states + b, bypass_in[q, e])
    for b in range(len(bypass_hex)):
        h = int(bypass_hex[b])
        d0 = int(bypass_dir[b])
        for j in (-1, 1):
            other = int(bypass_id[h, (d0 + j) % 6])
            if other >= 0:
                add(n_loc_states + b, n_loc_states + other, bypass_along[h])
        for j in (-1, 0, 1):
            d = (d0 + j) % 6
            q = int(neighbours[h, d])
            if q >= 0 and not enter_flags[h, d] & FLAG_ALL:
                target = 2 * int(location_offset[q]) + (1 if enter_flags[h, d] & FLAG_STOP else 0)
                add(n_loc_states + b, target, enter_cost[h, d])
    n = tables.n_states
    csr = csr_matrix((np.array(weights), (np.array(rows), np.array(cols))), shape=(n, n))
    return csr, sorted(starts)
