"""Counters on the map (SMOKE, vehicles, units) and the per-call hex tables built from them for the kernels."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernel._dtypes import HINDRANCE, LEVEL
from kernel.line_of_sight import _rules as rules
from kernel.line_of_sight.inputs import board_arrays, model_code
from kernel.line_of_sight.tracer import templates


@dataclass
class Counters:
    """Dynamic counters on the map, as per-hex arrays (no recompilation needed).

    Parameters
    ----------
    smoke : array of int, optional
        SMOKE hindrance DRM per hex (0 = none; ASL SMOKE is +2 or +3).
    smoke_height : array of int, optional
        Height of the SMOKE in levels above the hex's ground (default 2).
    vehicles : array of bool, optional
        A vehicle or wreck in the hex (ASL: +1 hindrance at the same level).
    units : array of bool, optional
        A unit or leader in the hex (CCN: blocks LOS and movement).

    Use :meth:`on` to build one from hex names.
    """

    smoke: np.ndarray | None = None
    smoke_height: np.ndarray | None = None
    vehicles: np.ndarray | None = None
    units: np.ndarray | None = None

    @classmethod
    def on(cls, board, *, smoke=None, vehicles=(), units=(), smoke_height=2):
        """Counters from hex names: ``smoke={"2I9": 3}``, ``vehicles=["2J9"]``.

        >>> import kernel
        >>> board = kernel.load("71")
        >>> int(Counters.on(board, smoke={"71I9": 3}).smoke.sum())
        3
        """
        n = len(board)
        smoke_array = np.zeros(n, HINDRANCE)
        for name, drm in (smoke or {}).items():
            smoke_array[board.index(name)] = drm
        vehicle_array = np.zeros(n, np.bool_)
        vehicle_array[board.indices(list(vehicles))] = True
        unit_array = np.zeros(n, np.bool_)
        unit_array[board.indices(list(units))] = True
        return cls(smoke_array, np.full(n, smoke_height, LEVEL), vehicle_array, unit_array)


def checked_array(value, n, dtype, name, default):
    if value is None:
        return np.full(n, default, dtype=dtype)
    array = np.asarray(value)
    if array.shape != (n,):
        raise ValueError(f"counters.{name} has shape {array.shape}: expected ({n},), one value per hex")
    if dtype is not np.bool_ and array.dtype.kind not in "iub":
        raise ValueError(f"counters.{name} has dtype {array.dtype}: expected integers")
    if dtype is not np.bool_ and array.size and array.min() < 0:
        raise ValueError(f"counters.{name} has a negative value {array.min()}: expected values >= 0")
    return np.ascontiguousarray(array, dtype=dtype)


def counter_tables(board, counters, *, bulk: bool = True):
    """The kernels' per-call tables for ``counters`` (cached when there are none).

    ``bulk=False`` is for one recorded LOS (``los``), which reads neither
    fast-path table: they are left as one-element stand-ins instead of being
    built over the whole grid.
    """
    if counters is None:
        key = "_los_no_counters"
        cached = board.__dict__.get(key)
        if cached is None:
            cached = with_inert(board, counter_arrays(board, Counters()))
            board.__dict__[key] = cached
        return cached
    arrays = counter_arrays(board, counters)
    if not bulk:
        return (hex_info_table(board, arrays), np.zeros(1, np.int32), np.zeros((1, 1), np.int16),
                np.full(1, -1, np.int32), 0)
    return with_inert(board, arrays)


def counter_arrays(board, counters):
    """Validated per-hex counter arrays: (smoke, smoke_top in half levels, vehicles, units)."""
    if not isinstance(counters, Counters):
        raise TypeError(f"counters must be a kernel.Counters, not {type(counters).__name__}")
    n = len(board)
    smoke = checked_array(counters.smoke, n, HINDRANCE, "smoke", 0)
    height = checked_array(counters.smoke_height, n, HINDRANCE, "smoke_height", 2)
    ground2 = 2 * board.ground_level.astype(HINDRANCE)
    smoke_top = (ground2 + 2 * height).astype(HINDRANCE)
    vehicles = checked_array(counters.vehicles, n, np.bool_, "vehicles", False)
    units = checked_array(counters.units, n, np.bool_, "units", False)
    return smoke, smoke_top, vehicles, units


def with_inert(board, counters):
    """``counters`` plus the kernels' fast-path table ``fast_grid``.

    ``fast_grid`` (int32) follows the trace templates' padded grid layout
    (``grid_flat``).  Per cell it holds ``content << 8 | sides`` where
    ``content`` is the hex's ground in half levels when nothing *in* the hex
    can affect a LOS (no obstacle, hindrance, SMOKE, vehicle or unit) and
    32767 when something can, and bit ``d`` of ``sides`` is set when hexside
    ``d`` of the hex holds a LOS feature.  Off the map the value is -2**30.
    A hex whose content is inert and not above the lower end of a LOS is
    skipped by the kernels without looking it up, unless the LOS crosses into
    it through a featured hexside.  (A hexside's features are held by both of
    its hexes, so the crossing is seen from the hex entered.)
    """
    smoke, smoke_top, vehicles, units = counters
    hexside_any = board_arrays(board)[12]
    busy = (board.obstacle_height > 0) | (board.hindrance > 0) | (smoke > 0) | vehicles | units
    content = np.where(busy, 32767, 2 * board.ground_level).astype(np.int32)
    sides = (hexside_any.astype(np.int32) << np.arange(6, dtype=np.int32)).sum(axis=1).astype(np.int32)
    key = (content << 8) | sides
    grid = templates(board).grid_flat
    on_map = grid >= 0
    fast_grid = np.where(on_map, key[np.maximum(grid, 0)], np.int32(-(1 << 30))).astype(np.int32)
    same_code, level_row, level_min = same_level_codes(board, counters, sides, grid)
    return (hex_info_table(board, counters), fast_grid, same_code, level_row, level_min)


def hex_info_table(board, counters):
    """Everything the kernels read about a hex, one row per hex (int16, columns ``rules.H_*``)."""
    smoke, smoke_top, vehicles, units = counters
    tables = board_arrays(board)
    info = np.zeros((len(board), rules.H_COLUMNS), LEVEL)
    info[:, rules.H_GROUND2] = tables[2]
    info[:, rules.H_OBSTACLE] = tables[3]
    info[:, rules.H_OBSTACLE_INHERENT] = tables[4]
    info[:, rules.H_HINDRANCE] = tables[5]
    info[:, rules.H_HINDRANCE_TOP] = tables[6]
    info[:, rules.H_HINDRANCE_INHERENT] = tables[7]
    info[:, rules.H_SMOKE] = smoke
    info[:, rules.H_SMOKE_TOP] = smoke_top
    info[:, rules.H_VEHICLE] = vehicles
    info[:, rules.H_UNITS] = units
    info[:, rules.H_OBSTACLE_ABOVE] = tables[13]
    return info


def same_level_codes(board, counters, sides, grid):
    """The kernels' table for LOS between Locations at one level, ``S2`` half levels.

    Such a LOS has no blind hexes or slopes, so the effect of a hex whose
    interior it crosses depends only on the hex and ``S2``: the kernels read it
    from ``same_code[level_row[S2 - level_min], cell]`` = ``code << 6 | sides``
    (``sides`` as in ``fast_grid``: a crossing through a featured hexside
    still takes the full path).  ``code`` is the hindrance DRM the hex adds
    (0-500), or one of ``CODE_HILL``, ``CODE_OBSTACLE``, ``CODE_UNIT``: the hex
    blocks.  Rows exist for every level a Location of the board can have.
    """
    smoke, smoke_top, vehicles, units = counters
    tables = board_arrays(board)
    ground2, obstacle, hindrance, hindrance_top = tables[2], tables[3], tables[5], tables[6]
    location_levels = ground2[board.location_hex] + 2 * board.location_level.astype(np.int64)
    values = np.unique(location_levels)
    level_min = int(values[0])
    level_row = np.full(int(values[-1]) - level_min + 1, -1, np.int32)
    level_row[values - level_min] = np.arange(len(values), dtype=np.int32)
    model = model_code(board)
    same_code = np.empty((len(values), len(grid)), np.int16)
    for row, S2 in enumerate(values):
        if model == rules.MODEL_ASL:  # docs/los-semantics.md section 2, both ends at S2
            drm = np.where((hindrance > 0) & (hindrance_top > S2) & (ground2 <= S2), hindrance, 0).astype(np.int64)
            drm += np.where((smoke > 0) & (smoke_top > S2) & (ground2 <= S2), smoke, 0)
            drm += (vehicles & (ground2 == S2)).astype(np.int64)
            unit_blocks = np.zeros(len(board), np.bool_)
        else:  # sections 3 and 4
            drm = hindrance.astype(np.int64) if model == rules.MODEL_VV else np.zeros(len(board), np.int64)
            unit_blocks = units & bool(tables[11])
        code = np.minimum(drm, rules.CODE_MAX_DRM)
        if model == rules.MODEL_ASL:
            code = np.where((obstacle > 0) & (ground2 + obstacle > S2), rules.CODE_OBSTACLE, code)
        else:
            code = np.where(unit_blocks, rules.CODE_UNIT, code)
            code = np.where(obstacle > 0, rules.CODE_OBSTACLE, code)
        code = np.where(ground2 > S2, rules.CODE_HILL, code)
        per_hex = (code << 6) | sides
        same_code[row] = np.where(grid >= 0, per_hex[np.maximum(grid, 0)], 0)
    return same_code, level_row, level_min
