"""The kernels' tables of the counters on the map (SMOKE, vehicles, units): built per call from a
:class:`~kernel.maps.counters.Counters`, prepared once and updated in place from a
:class:`~kernel.maps.counters.GameState`."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernel._dtypes import HINDRANCE, LEVEL
from kernel.line_of_sight._hex import rules
from kernel.line_of_sight._hex import counter_cells as K_counters
from kernel.line_of_sight.inputs import (
    LOS_CACHE, board_arrays, cover_tables, kernel_board_tables, ruleset_code, template_tuple,
)
from kernel.line_of_sight._templates.tracer import templates
from kernel.maps.counters import Counters, GameState, counter_values, smoke_base_values
from kernel.maps.smoke_locations import smoke_extent2

__all__ = ["CounterTables", "Counters", "GameState", "counter_tables", "los_kinds", "prepared_tables"]


class CounterTables(NamedTuple):
    """The kernels' per-call tables of the counters on the map (``counters``; :func:`with_inert`)."""

    hex_info: np.ndarray    # (N, H_COLUMNS) int16: everything the kernels read about a hex
    fast_grid: np.ndarray   # int32 per cell of the templates' grid: content << 8 | featured hexsides
    same_code: np.ndarray   # int16 (levels, cells): a hex's effect on a LOS between Locations at one level
    level_row: np.ndarray   # int32: row of same_code of each level, from level_min
    level_min: int


def los_kinds(board) -> tuple:
    """The kinds of :class:`GameState` change (:data:`~kernel.maps.counters.CHANGE_KINDS`) that can alter a LOS
    on ``board``: SMOKE and vehicles, and units where the ruleset's ``units_block_los`` says they block
    (CCN); a unit moved or placed in ASL or V&V changes no LOS and no table here (cached)."""
    cached = LOS_CACHE.entries(board).get("_los_kinds")
    if cached is None:
        cached = ("smoke", "vehicles", "units") if board_arrays(board).units_block else ("smoke", "vehicles")
        LOS_CACHE.entries(board)["_los_kinds"] = cached
    return cached


def counter_tables(board, counters, *, bulk: bool = True):
    """The kernels' tables for ``counters`` (cached when there are none, kept up to date on a
    :class:`GameState`).

    ``bulk=False`` is for one recorded LOS (``los``), which reads neither
    fast-path table: for a plain :class:`Counters` they are left as
    one-element stand-ins instead of being built over the whole grid.
    """
    if counters is None:
        key = "_los_no_counters"
        cached = LOS_CACHE.entries(board).get(key)
        if cached is None:
            cached = with_inert(board, counter_values(board, Counters()), np.zeros(len(board), LEVEL))
            LOS_CACHE.entries(board)[key] = cached
        return cached
    if isinstance(counters, GameState):
        return prepared_tables(board, counters)
    if not bulk:
        return CounterTables(hex_info_table(board, counter_arrays(board, counters)), np.zeros(1, np.int32),
                             np.zeros((1, 1), np.int16), np.full(1, -1, np.int32), 0)
    return with_inert(board, counter_values(board, counters), smoke_base_values(board, counters))


def query_tables(board, unit_index: int) -> tuple:
    """What one query of ``board`` (a ``los``, a ``los_pairs``) reads that depends only on the board
    and the firing class, in one lookup of the board's cache: ``(templates, board tables, cover
    tables, tables of no counters, visible_kernel's board arguments)``."""
    entries = LOS_CACHE.entries(board)
    found = entries.get(("query", unit_index))
    if found is None:
        tpl, board_tables = template_tuple(board), kernel_board_tables(board)
        found = entries[("query", unit_index)] = (tpl, board_tables, cover_tables(board, unit_index),
                                                  counter_tables(board, None), (ruleset_code(board),) + tpl + board_tables)
    return found


def prepared_tables(board, state: GameState):
    """The kernel tables of a :class:`GameState`, built on first use and then brought up to date
    by rewriting the entries of the hexes changed since (one kernel call over the changed hexes,
    nothing over the whole map), of the changes that can alter a LOS only (:func:`los_kinds`: a unit's
    move rewrites nothing where units do not block).  Rewriting every hex is what building the
    tables costs, so the update never costs more than a new build."""
    prepared = state.prepared.get("los")
    if prepared is None or prepared[0] is not board:
        tables = with_inert(board, counter_values(board, state), state._base)  # (checks the state's board)
        state.prepared["los"] = [board, state.version, tables]
        return tables
    _, version, tables = prepared
    if version != state.version:
        changed = state.changed_since(version, los_kinds(board))
        if changed.size:
            update_tables(board, state, tables, changed)
        prepared[1] = state.version
    return tables


def update_tables(board, state, tables, hexes):
    """Rewrite the entries of ``hexes`` in prepared tables from the state's current counters."""
    write_cells(board, tables, hexes, state._smoke, state._height, state._base, state._vehicles, state._units)


def write_cells(board, tables, hexes, smoke, smoke_height, smoke_base, vehicles, units):
    """Write the counters of ``hexes`` (smoke DRM, height and base level int16, vehicle and unit counts
    int32, one per hex of the map) into ``tables`` in place, in one kernel call."""
    hex_info, fast_grid, same_code, _, _ = tables
    K_counters.write_counter_cells(ruleset_code(board), np.asarray(hexes, np.int64), smoke, smoke_height, smoke_base,
                        vehicles, units,
                        bool(board_arrays(board).units_block), hexside_bits(board), hex_cells(board), level_values(board)[0],
                        hex_info, fast_grid, same_code)


def hex_cells(board) -> np.ndarray:
    """Cell of each hex in the trace templates' padded grid (``grid_flat``), cached on the board."""
    cached = LOS_CACHE.entries(board).get("_los_hex_cells")
    if cached is None:
        grid = templates(board).grid_flat
        cells = np.flatnonzero(grid >= 0)
        cached = np.full(len(board), -1, np.int64)
        cached[grid[cells]] = cells
        if (cached < 0).any():
            raise RuntimeError("a hex has no cell in the trace templates' grid")
        LOS_CACHE.entries(board)["_los_hex_cells"] = cached
    return cached


def counter_arrays(board, counters):
    """Validated per-hex counter arrays for the kernels: (smoke, smoke_top in half levels, vehicles, units,
    smoke_base in half levels), the SMOKE's heights as :func:`write_counter_cells` writes them."""
    smoke, height, vehicles, units = counter_values(board, counters)
    bottom, top = smoke_extent2(board, smoke_base_values(board, counters), height)   # a rooftop half a level lower
    return smoke, top.astype(HINDRANCE), vehicles, units, bottom.astype(HINDRANCE)


def with_inert(board, values, smoke_base):
    """Counters ``values`` (:func:`~kernel.maps.counters.counter_values`: SMOKE DRM, SMOKE height,
    vehicles, units per hex) and ``smoke_base`` (the SMOKE's Location level per hex) as the kernels'
    per-call tables
    ``(hex_info, fast_grid, same_code, level_row, level_min)``.

    ``hex_info`` (:func:`hex_info_table`) holds everything the kernels read
    about a hex.  ``fast_grid`` (int32) follows the trace templates' padded
    grid layout (``grid_flat``).  Per cell it holds ``content << 8 | sides``
    where ``content`` is the hex's ground in half levels when nothing *in*
    the hex can affect a LOS (no obstacle, hindrance, SMOKE, vehicle, nor a
    unit where units block LOS) and 32767 when something can, and bit ``d``
    of ``sides`` is set when hexside ``d`` of the hex holds a LOS feature.
    Off the map the value is -2**30.  A hex whose content is inert and not
    above the lower end of a LOS is skipped by the kernels without looking it
    up, unless the LOS crosses into it through a featured hexside.  (A
    hexside's features are held by both of its hexes, so the crossing is seen
    from the hex entered.)

    ``same_code`` (int16, one row per level a Location of the board can
    have, see :func:`level_values`; one column per grid cell) serves LOS
    between Locations at one level, ``S2`` half levels.  Such a LOS has no
    blind hexes or slopes, so the effect of a hex whose interior it crosses
    depends only on the hex and ``S2``: the kernels read it from
    ``same_code[level_row[S2 - level_min], cell]`` = ``code << 6 | sides``
    (``sides`` as in ``fast_grid``: a crossing through a featured hexside
    still takes the full path).  ``code`` is the hindrance DRM the hex adds
    (0-500), or one of ``CODE_HILL``, ``CODE_OBSTACLE``, ``CODE_UNIT``: the
    hex blocks.

    The counters' entries of all three are written by
    :func:`kernel.line_of_sight._hex.counter_cells.write_counter_cells`, the
    same kernel that updates a :class:`GameState`'s prepared tables.
    """
    smoke, height, vehicles, units = values
    grid = templates(board).grid_flat
    levels, level_row, level_min = level_values(board)
    # the board's columns; the counters' columns are the kernel's to write, with the rest
    tables = CounterTables(hex_info_table(board, (0, 0, 0, 0, 0)), np.full(len(grid), -(1 << 30), np.int32),
                           np.zeros((len(levels), len(grid)), np.int16), level_row, level_min)
    write_cells(board, tables, np.arange(len(board)), smoke.astype(HINDRANCE), height.astype(HINDRANCE),
                np.asarray(smoke_base).astype(HINDRANCE), vehicles.astype(np.int32), units.astype(np.int32))
    return tables


def hexside_bits(board) -> np.ndarray:
    """Per hex, bit ``d`` set when its hexside ``d`` holds a LOS feature (int32, cached)."""
    cached = LOS_CACHE.entries(board).get("_los_hexside_bits")
    if cached is None:
        hexside_any = board_arrays(board).hexside_any
        cached = (hexside_any.astype(np.int32) << np.arange(6, dtype=np.int32)).sum(axis=1).astype(np.int32)
        LOS_CACHE.entries(board)["_los_hexside_bits"] = cached
    return cached


def hex_info_table(board, counters):
    """Everything the kernels read about a hex, one row per hex (int16, columns ``rules.H_*``)."""
    smoke, smoke_top, vehicles, units, smoke_base = counters
    tables = board_arrays(board)
    info = np.zeros((len(board), rules.H_COLUMNS), LEVEL)
    info[:, rules.H_GROUND2] = tables.ground2
    info[:, rules.H_OBSTACLE] = tables.obstacle
    info[:, rules.H_OBSTACLE_INHERENT] = tables.obstacle_inherent
    info[:, rules.H_HINDRANCE] = tables.hindrance
    info[:, rules.H_HINDRANCE_TOP] = tables.hindrance_top
    info[:, rules.H_HINDRANCE_INHERENT] = tables.hindrance_inherent
    info[:, rules.H_SMOKE] = smoke
    info[:, rules.H_SMOKE_TOP] = smoke_top
    info[:, rules.H_SMOKE_BASE] = smoke_base
    info[:, rules.H_VEHICLE] = vehicles
    info[:, rules.H_UNITS] = units
    info[:, rules.H_OBSTACLE_ABOVE] = tables.obstacle_from_above
    if board.ruleset.los_model == "asl":   # a rooftop sees from half a level above its top level
        info[:, rules.H_ROOFTOP] = np.where(board.rooftop, board.top_level, 0)
    return info


def level_values(board):
    """The levels (half levels) a Location of the board can have, and the row of each in
    ``same_code``: ``(values, level_row, level_min)`` (cached)."""
    cached = LOS_CACHE.entries(board).get("_los_level_values")
    if cached is None:
        ground2 = board_arrays(board).ground2
        location_levels = ground2[board.location_hex] + 2 * board.location_level.astype(np.int64)
        if board.ruleset.los_model == "asl":   # rooftops half a level lower (hex_info_table)
            hexes = board.location_hex
            location_levels -= (board.rooftop[hexes] & (board.location_level == board.top_level[hexes])
                                & (board.location_level > 0))
        low = int(location_levels.min())   # the distinct levels, sorted (np.unique's hashing costs ms more)
        values = np.flatnonzero(np.bincount(location_levels - low)).astype(location_levels.dtype) + low
        level_min = int(values[0])
        level_row = np.full(int(values[-1]) - level_min + 1, -1, np.int32)
        level_row[values - level_min] = np.arange(len(values), dtype=np.int32)
        cached = (values, level_row, level_min)
        LOS_CACHE.entries(board)["_los_level_values"] = cached
    return cached
