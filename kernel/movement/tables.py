"""Per unit class (and, in CCN, units), every movement cost of the map precomputed once (numpy, vectorised): :class:`MovementTables`.

SMOKE is not part of the tables: it enters the search as per-hex data
(:mod:`kernel.movement.counters`), so placing SMOKE rebuilds nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

import numpy as np

from kernel._cache import BoardCache
from kernel.movement import _kernels as K
from kernel.movement.inputs import MAX_ALLOWANCE, check_allowance, checked_mask
from kernel.movement.state_graph import build_state_graph


#: Sentinel of an unreachable hex in :func:`movement_matrix` (uint16).
UNREACHABLE = K.UNREACHABLE


#: Each board's movement tables (a few per board: per unit class, allowance and blocking units).
MOVEMENT_CACHE = BoardCache("movement")


FLAG_STOP = K.FLAG_STOP


FLAG_ALL = K.FLAG_ALL


@dataclass
class MovementTables:
    """Precomputed edge costs of one unit class on one board (with the units, where they block movement).

    ``cot`` and ``leave_cost`` are without SMOKE; ``smoke_half`` is what SMOKE
    adds to a COT (half MF) and ``state_hex`` the hex of each state, from
    which the kernels' per-state SMOKE costs are made.

    See Also
    --------
    kernel.movement_tables : builds them.
    kernel.movement_field : the Dijkstra over them.

    Examples
    --------
    >>> import kernel
    >>> tables = kernel.movement_tables(kernel.load("default"), unit="infantry")
    >>> tables.n_states > tables.n_locations > 0
    True
    """

    unit: str
    kernel_tables: tuple  # kernel.movement._kernels.KernelTables: what the search kernels read
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
    smoke_half: int  # SMOKE's addition to a COT, half MF (B.2)
    state_hex: np.ndarray  # int64 hex of each state
    state_start: np.ndarray  # states of hex h, other than Bypass: 2 * location_offset[h] .. 2 * location_offset[h + 1]

    def __repr__(self) -> str:
        return (f"<MovementTables {self.unit}: {len(self.edge_bounds) // 2} states ({self.n_locations} Locations, "
                f"{self.n_bypass} Bypass positions), {len(self.edges)} edges>")

    @property
    def n_states(self) -> int:
        return 2 * self.n_locations + self.n_bypass

    @property
    def bypass_hex(self) -> np.ndarray:
        """int32 hex of each Bypass position (Bypass id order)."""
        return self.kernel_tables.bypass_hex

    @property
    def bypass_dir(self) -> np.ndarray:
        """int32 hexside (0-5) along which each Bypass position runs."""
        return self.kernel_tables.bypass_dir

    @property
    def bypass_id(self) -> np.ndarray:
        """int32 (N, 6): the Bypass id of each hex and hexside, -1 where there is none."""
        return self.kernel_tables.bypass_id

    @property
    def location_offset(self) -> np.ndarray:
        """int64 (N + 1,): the first Location of each hex (as ``Board.location_offset``)."""
        return self.kernel_tables.location_offset


def _combine(board, unit_index, mask_terrain):
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
    return cost, all_mf, stop


def movement_tables(board, *, unit: str | None = None, allowance=None, counters=None) -> MovementTables:
    """Edge costs for the unit class ``unit`` on ``board`` (see ``docs/movement-semantics.md``).

    Tables depend on the unit class, the allowance and, where occupied hexes
    block movement (CCN), the units of ``counters`` (a
    :class:`~kernel.Counters` or :class:`~kernel.GameState`), but not on the
    start nor on SMOKE, so they are kept per board (a few per board) and
    reused.  ``unit`` defaults to the ruleset's first class, ``allowance``
    as in :func:`~kernel.movement_field`.

    Raises
    ------
    ValueError
        Unknown unit class, bad allowance or counters.

    See Also
    --------
    kernel.movement_field : uses these tables (built once per board, unit class and counters).
    kernel.movement_graph : the same edges as a scipy sparse matrix.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> tables = kernel.movement_tables(board, unit="infantry")
    >>> type(tables).__name__
    'MovementTables'
    """
    from kernel.movement.counters import counter_masks

    check_allowance(allowance)
    unit = unit if unit is not None else board.ruleset.unit_classes[0]
    return tables_for(board, unit, counter_masks(board, counters)[1], allowance)


def tables_for(board, unit: str, units, allowance) -> MovementTables:
    """:func:`movement_tables` for a checked unit class, allowance and units mask (bool per hex, or None)."""
    rs = board.ruleset
    rs.unit_index(unit)
    n = len(board)
    if units is None:
        key = (unit, allowance, b"")
    else:
        units = checked_mask(units, n, "units")
        blocks = bool(rs.rules["occupied_hexes_block_movement"])
        key = (unit, allowance, units.tobytes() if blocks and units.any() else b"")
    cache = MOVEMENT_CACHE.entries(board).setdefault("tables", {})
    if key not in cache:
        units = checked_mask(units, n, "units")
        if len(cache) >= 8:
            cache.pop(next(iter(cache)))
        cache[key] = _build_movement_tables(board, unit, units, allowance)
    return cache[key]


def _build_movement_tables(board, unit, units, allowance) -> MovementTables:
    rs = board.ruleset
    unit_index = rs.unit_index(unit)
    n = len(board)
    deck_terrain = sum(1 << t for t in range(len(rs.terrain_names)) if rs.terrain_deck[t])
    all_terrain = ((1 << len(rs.terrain_names)) - 1) & ~deck_terrain  # a deck is not a feature beneath it
    bypass_terrain = sum(1 << t for t in range(len(rs.terrain_names)) if rs.terrain_bypass[t])
    cot, cot_all, cot_stop = _combine(board, unit_index, all_terrain)
    other, other_all, _ = _combine(board, unit_index, all_terrain & ~bypass_terrain)
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
        road_base = float(rules["road_cost"])
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
    deck_base = np.full(q.shape, float(rules["road_cost"]) if unit in rules["road_classes"] else
                        float(rules["open_cost"]))
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
    edge_bounds, target, weight, smoke_code = build_state_graph(tables, allowance_half, ground, mode == "double")
    # Dial's queue needs more buckets than the largest edge weight, SMOKE included
    smoke_half = int(_half(np.array([float(rules["smoke_cost"])]))[0])
    largest = max(largest, int(K.smoke_weights(weight, smoke_code, np.full(weight.shape, smoke_half)).max(initial=0)))
    bypass_start = np.zeros(n + 1, np.int64)
    np.cumsum((bypass_id >= 0).sum(axis=1), out=bypass_start[1:])  # ids run hex by hex (assigned above)
    exit_hexes = np.flatnonzero(np.isfinite(leave_cost)).astype(np.int64)
    n_locations = int(board.location_offset[-1])
    state_hex = np.concatenate([np.repeat(board.location_hex.astype(np.int64), 2), bypass_hex.astype(np.int64)])
    return MovementTables(unit, tables, n_locations, n_bypass, cot, cot_all, cot_stop,
                          leave_cost, allowance_all, allowance_half, largest + 1, edge_bounds,
                          K.pack_edges(target, weight, smoke_code), bypass_start, exit_hexes, smoke_half, state_hex,
                          2 * board.location_offset.astype(np.int64))


def _half(costs: np.ndarray) -> np.ndarray:
    """MF costs (multiples of 1/2, ``inf`` impossible) as int64 half-MF steps (``INF_HALF``).

    One step that costs more than :data:`~kernel.movement.inputs.MAX_ALLOWANCE`
    MF (a climb of many levels at doubled cost) is more than any unit may
    spend: it is impossible (``INF_HALF``), which also keeps Dial's queue, one
    bucket per half MF of the largest step, small.
    """
    costs = np.asarray(costs, dtype=np.float64)
    costs = np.where(costs > MAX_ALLOWANCE, np.inf, costs)
    doubled = np.where(np.isfinite(costs), 2.0 * costs, 0.0)
    if not np.array_equal(doubled, np.rint(doubled)):
        raise ValueError("a movement cost is not a multiple of 1/2 MF: the ruleset tables should make this impossible")
    return np.ascontiguousarray(np.where(np.isfinite(costs), doubled, K.INF_HALF).astype(np.int64))
