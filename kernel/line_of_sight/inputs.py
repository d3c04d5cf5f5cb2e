"""Checking and converting LOS inputs once (hexes, Locations, levels), and the board tables the kernels read."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernel._cache import BoardCache
from kernel._dtypes import HEX_INDEX, HINDRANCE, LEVEL
from kernel.line_of_sight._hex import cover as K_cover
from kernel.line_of_sight._hex import rules
from kernel.line_of_sight._templates.tracer import templates
from kernel._limits import MAX_BUILDING_LEVELS, check_range
from kernel.maps.locations import every_hex_or, level_array
from kernel.maps.rulesets import LOS_HINDRANCE, LOS_OBSTACLE


#: The LOS layer's derived tables of each board (kernel tables, cover tables, ...).
LOS_CACHE = BoardCache("line of sight")


#: The kernels' code of each ruleset's LOS rules (``Ruleset.los_model``).
RULESET_CODES = {"asl": rules.RULESET_ASL, "valor-victory": rules.RULESET_VV, "ccn": rules.RULESET_CCN}


class BoardArrays(NamedTuple):
    """A board's per-hex LOS arrays (:func:`board_arrays`); levels in half levels."""

    col: np.ndarray                 # lattice column (int64)
    y: np.ndarray                   # lattice y (int64)
    ground2: np.ndarray             # ground level
    obstacle: np.ndarray            # obstacle height above the ground
    obstacle_inherent: np.ndarray   # the obstacle is the whole hex (bool)
    hindrance: np.ndarray           # hindrance DRM of the hex's terrain
    hindrance_top: np.ndarray       # top of the hindrance
    hindrance_inherent: np.ndarray  # the hindrance is the whole hex (bool)
    hexside_obstacle: np.ndarray    # (N, 6): obstacle height of each hexside
    hexside_hindrance: np.ndarray   # (N, 6): hindrance DRM of each hexside
    hindrance_cap: int              # the total hindrance that blocks
    units_block: bool               # units block LOS (CCN)
    hexside_any: np.ndarray         # (N, 6): a LOS feature on the hexside (bool)
    obstacle_from_above: np.ndarray # height from which the obstacle no longer blocks


class KernelBoardTables(NamedTuple):
    """The part of :class:`BoardArrays` the kernels take as one argument (``board_tables``), with the
    neighbours and the depression groups."""

    col: np.ndarray
    y: np.ndarray
    hexside_obstacle: np.ndarray
    hexside_hindrance: np.ndarray
    hindrance_cap: int
    units_block: bool
    neighbours: np.ndarray          # (N, 6) int32, NO_HEX off the map
    depression_group: np.ndarray    # int32, -1: no depression terrain (:func:`depression_groups`)


class TemplateTables(NamedTuple):
    """The trace templates as the kernels take them (``tpl``; :mod:`kernel.line_of_sight._templates`)."""

    grid_flat: np.ndarray
    base: np.ndarray
    start: np.ndarray
    packed: np.ndarray
    ranges: np.ndarray
    max_dc: int
    max_dy: int



def board_arrays(board):
    cached = LOS_CACHE.entries(board).get("_los_tables")
    if cached is not None:
        return cached
    rs = board.ruleset
    ground2 = (2 * board.ground_level).astype(LEVEL)
    hind_top = (ground2 + board.hindrance_height).astype(LEVEL)
    n = len(board)
    hs_obst = np.zeros((n, 6), LEVEL)
    hs_hind = np.zeros((n, 6), HINDRANCE)
    for k in range(len(rs.hexside_names)):
        has = (board.hexside & np.uint16(1 << k)) != 0
        if rs.hexside_los_role[k] == LOS_OBSTACLE:
            hs_obst = np.where(has, np.maximum(hs_obst, rs.hexside_height[k]), hs_obst).astype(LEVEL)
        elif rs.hexside_los_role[k] == LOS_HINDRANCE:
            hs_hind = np.where(has, np.maximum(hs_hind, rs.hexside_hindrance[k]), hs_hind).astype(HINDRANCE)
    tables = BoardArrays(
        board.col.astype(np.int64), board.y.astype(np.int64), ground2, board.obstacle_height.astype(LEVEL),
        board.obstacle_inherent, board.hindrance.astype(HINDRANCE), hind_top, board.hindrance_inherent,
        np.ascontiguousarray(hs_obst), np.ascontiguousarray(hs_hind), int(rs.rules["hindrance_cap"]),
        bool(rs.rules["units_block_los"]), ((hs_obst > 0) | (hs_hind > 0)), board.obstacle_from_above.astype(LEVEL),
    )
    LOS_CACHE.entries(board)["_los_tables"] = tables
    return tables


def kernel_board_tables(board):
    """The part of :func:`board_arrays` the kernels take as separate arguments (cached on the board)."""
    cached = LOS_CACHE.entries(board).get("_los_kernel_board_tables")
    if cached is None:
        arrays = board_arrays(board)
        cached = KernelBoardTables(arrays.col, arrays.y, arrays.hexside_obstacle, arrays.hexside_hindrance,
                                   arrays.hindrance_cap, arrays.units_block,
                                   np.ascontiguousarray(board.neighbours, dtype=HEX_INDEX), depression_groups(board))
        LOS_CACHE.entries(board)["_los_kernel_board_tables"] = cached
    return cached


def depression_groups(board) -> np.ndarray:
    """Per hex, the id of its depression (A6.3): the connected hexes of depression terrain at one
    ground level; -1 for a hex with no depression terrain.  (int32, cached on the board)"""
    cached = LOS_CACHE.entries(board).get("_depression_groups")
    if cached is not None:
        return cached
    rs = board.ruleset
    mask = 0
    for t in np.flatnonzero(rs.terrain_depression):
        mask |= 1 << int(t)
    in_depression = (board.terrain & np.uint32(mask)) != 0
    groups = np.full(len(board), -1, HEX_INDEX)
    count = 0
    for start in np.flatnonzero(in_depression):
        if groups[start] >= 0:
            continue
        groups[start] = count
        todo = [int(start)]
        while todo:
            h = todo.pop()
            for n in board.neighbours[h]:
                if n >= 0 and in_depression[n] and groups[n] < 0 and board.ground_level[n] == board.ground_level[h]:
                    groups[n] = count
                    todo.append(int(n))
        count += 1
    LOS_CACHE.entries(board)["_depression_groups"] = groups
    return groups


def template_tuple(board):
    """The trace templates as the kernels take them (cached on the board)."""
    cached = LOS_CACHE.entries(board).get("_los_template_tuple")
    if cached is None:
        tpl = templates(board)
        cached = TemplateTables(tpl.grid_flat, tpl.base, tpl.start, tpl.packed, tpl.ranges, tpl.max_dc, tpl.max_dy)
        LOS_CACHE.entries(board)["_los_template_tuple"] = cached
    return cached


def cell_steps(board) -> np.ndarray:
    """Per direction d, the offset in the trace templates' padded grid (``grid_flat``) from a hex's cell
    to its neighbour's across hexside d (int64, cached on the board)."""
    cached = LOS_CACHE.entries(board).get("_los_cell_steps")
    if cached is None:
        width = templates(board).grid.shape[1]
        cached = (rules.STEP_COL * width + rules.STEP_Y).astype(np.int64)
        LOS_CACHE.entries(board)["_los_cell_steps"] = cached
    return cached


def ruleset_code(board) -> int:
    """The kernels' code of ``board``'s LOS rules (:data:`RULESET_CODES`)."""
    return RULESET_CODES[board.ruleset.los_model]


def checked_level(board, hex_index: int, level, what: str) -> int:
    """One Location level of hex ``hex_index``, checked (see :mod:`kernel.maps.locations`)."""
    return int(level_array(board, level, np.array([hex_index], HEX_INDEX), what, indexed=False)[0])


def hex_cover(board, unit_index: int) -> np.ndarray:
    key = ("hex_cover", unit_index)
    cached = LOS_CACHE.entries(board).get(key)
    if cached is None:
        table = board.ruleset.terrain_cover[unit_index]
        add_up = board.ruleset.rules["cover_combine"] == "sum"   # ASL A2.4: cumulative TEM
        cached = np.zeros(len(board), np.int16)
        for t, value in enumerate(table):
            if value:
                has = (board.terrain & np.uint32(1 << t)) != 0
                combined = cached + value if add_up else np.maximum(cached, value)
                cached = np.where(has, combined, cached).astype(np.int16)
        side = np.zeros((len(board), 6), np.int16)
        for k, value in enumerate(board.ruleset.hexside_cover[unit_index]):
            if value:
                has = (board.hexside & np.uint16(1 << k)) != 0
                side = np.where(has, np.maximum(side, value), side).astype(np.int16)
        cached = (cached, side)
        LOS_CACHE.entries(board)[key] = cached
    return cached


def cover_tables(board, unit_index: int):
    """The board's arguments of :func:`kernel.line_of_sight._hex.cover.cover_and_range` for a
    firing unit class (cached on the board)."""
    key = ("cover_tables", unit_index)
    cached = LOS_CACHE.entries(board).get(key)
    if cached is None:
        per_hex, side_cover = hex_cover(board, unit_index)
        tpl = templates(board)
        rules = board.ruleset.rules
        ccn = board.ruleset.los_model == "ccn"
        cached = (per_hex, np.ascontiguousarray(side_cover), np.ascontiguousarray(board.bridge_deck, np.bool_),
                  board.col.astype(np.int64), board.y.astype(np.int64), board.ground_level.astype(np.int64),
                  np.ascontiguousarray(tpl.entry_sides, np.uint8), int(tpl.max_dc), int(tpl.max_dy), int(tpl.width),
                  int(rules["uphill_cover"][unit_index]) if ccn else 0,
                  int(rules["downhill_cover"][unit_index]) if ccn else 0)
        LOS_CACHE.entries(board)[key] = cached
    return cached


def cover_and_ranges(board, sources, source_levels, targets, target_levels, unit_index, tables=None):
    """``(cover int16, range int32)`` of each target against its source, per section 2-4 (the
    arrays and scalars are broadcast to one length; hexes and levels already checked; ``tables``:
    :func:`cover_tables` of the class, when the caller has them)."""
    n = np.broadcast(sources, source_levels, targets, target_levels).size
    pairs = [_pair_array(value, n, dtype) for value, dtype in ((sources, HEX_INDEX), (source_levels, np.int64),
                                                                (targets, HEX_INDEX), (target_levels, np.int64))]
    cover = np.empty(n, np.int16)
    ranges = np.empty(n, np.int32)
    tables = cover_tables(board, unit_index) if tables is None else tables
    K_cover.cover_and_range(ruleset_code(board), *pairs, *tables, cover, ranges)
    return cover, ranges


def _pair_array(value, n: int, dtype) -> np.ndarray:
    """``value`` (an array of length ``n`` or a scalar) as a contiguous array of ``n`` ``dtype``."""
    if isinstance(value, np.ndarray) and value.shape == (n,):
        return np.ascontiguousarray(value, dtype)
    return np.ascontiguousarray(np.broadcast_to(np.asarray(value, dtype), (n,)))


def cover_of(board, sources, source_levels, targets, target_levels, unit_index):
    """Cover of each target against each (broadcast) source, per section 2-4 (int16)."""
    return cover_and_ranges(board, sources, source_levels, targets, target_levels, unit_index)[0]


def cover_and_range_one(board, source: int, source_level: int, target: int, target_level: int,
                        unit_index: int, tables=None) -> tuple[int, int]:
    """:func:`cover_of` and the range in hexes for one pair, as Python ints (``tables`` as in
    :func:`cover_and_ranges`)."""
    cover = np.empty(1, np.int16)
    hexes = np.empty(1, np.int32)
    K_cover.cover_and_range(ruleset_code(board), np.array([source], HEX_INDEX), np.array([source_level], np.int64),
                            np.array([target], HEX_INDEX), np.array([target_level], np.int64),
                            *(cover_tables(board, unit_index) if tables is None else tables), cover, hexes)
    return int(cover[0]), int(hexes[0])


def source_arrays(board, sources, levels=0):
    """``(hexes int32, levels int64)`` of a matrix's Locations: :func:`kernel.maps.locations.every_hex_or`
    (``None``: every hex at ground level), contiguous for the kernels."""
    hexes, levels = every_hex_or(board, sources, levels)
    return np.ascontiguousarray(hexes, dtype=HEX_INDEX), np.ascontiguousarray(levels, dtype=np.int64)


def target_level_array(board, target_levels) -> np.ndarray:
    """int64 level of every hex of the map as a target (fields of fire, threat maps).

    An integer ``L >= 0`` is level ``L`` where a hex has it and the hex's
    top level elsewhere (0: every hex at ground level; kept per board, the
    kernels only read it); an array gives one Location level per hex,
    checked against its hex.
    """
    if type(target_levels) is int and target_levels == 0:
        cached = LOS_CACHE.entries(board).get("ground_levels")
        if cached is None:
            cached = LOS_CACHE.entries(board)["ground_levels"] = np.zeros(len(board), np.int64)
        return cached
    if isinstance(target_levels, (list, tuple, np.ndarray)):
        return level_array(board, target_levels, every_hex(board), "target_levels")
    if isinstance(target_levels, (bool, np.bool_)) or not isinstance(target_levels, (int, np.integer)):
        raise TypeError(f"target_levels is {target_levels!r}: expected an integer level (or one per hex)")
    check_range(int(target_levels), 0, MAX_BUILDING_LEVELS, "target_levels", "a field of fire")
    return np.minimum(int(target_levels), board.top_level).astype(np.int64)


def every_hex(board) -> np.ndarray:
    """``arange(N)`` as hex indices (kept per board; the kernels only read it)."""
    cached = LOS_CACHE.entries(board).get("every_hex")
    if cached is None:
        cached = LOS_CACHE.entries(board)["every_hex"] = np.arange(len(board), dtype=HEX_INDEX)
    return cached
