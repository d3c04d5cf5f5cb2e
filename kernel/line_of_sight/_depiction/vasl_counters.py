"""Counters as VASL's engine reads them (``model="vasl"``): SMOKE in the viewer's own hex, and vehicles.

**Vehicles and wrecks** count (+1 each) only when both ends and the vehicle's Location are at one
level and both ends see the vehicle's Location (VASL checks the two LOS to it; no continuous-slope
exception).  The walk reads the latter from two kinds of columns that :func:`vehicle_columns` appends
to its per-hex counters table: ``VEHICLE_SLOT`` (the hex's vehicle slot, -1: none) and, per slot
``s``, ``SIGHT + s`` (1 where the hex's ground Location sees that vehicle's hex, in the ``vasl``
model with the same SMOKE and no vehicles).

**SMOKE between the ends** counts when both ends are within it (at or above its base, below its top:
two levels above the base), or when an obstacle as high as its top would make the lower end blind
(VASL's blind-hex bound, A6.4); a LOS at or above its top otherwise passes over it
(``steps.vasl_smoke``).

**SMOKE in the viewer's own hex**: one more than its DRM.

The walk is symmetric (one walk per unordered pair, :mod:`.walk`) and counts SMOKE in an end's own hex
at its DRM for either end (A24, as the hex model does).  VASL's engine adds one more when the viewer's
Location is within the SMOKE of its own hex (10Q9 -> 10H4 with +2 SMOKE in 10Q9: +3), and not for the
target: a direction of the LOS, so it is applied here, after the walk, per ordered pair, on the
results the wrappers of :mod:`kernel.line_of_sight.depiction` return.  Plain numpy (no kernel).
"""

from __future__ import annotations

import numpy as np

from kernel._dtypes import MAX_MATRIX_DRM, HEX_INDEX
from kernel.line_of_sight._depiction.steps import COUNTERS, LOG_CLASS, LOG_COLUMNS, LOG_DRM, LOG_EFFECT, LOG_HEX
from kernel.line_of_sight._depiction.steps import LOG_LAST_PIXEL, LOG_REASON, SIGHT, VEHICLE_SLOT
from kernel.line_of_sight._hex.rules import (
    BLOCK, BLOCKED, H_COLUMNS, H_SMOKE, H_SMOKE_BASE, H_SMOKE_TOP, H_VEHICLE, NONE,
)
from kernel.line_of_sight._hex.rules import R_HINDRANCE, R_NONE

#: What VASL's engine adds to the DRM of SMOKE in the viewer's own hex when the viewer is within it.
VIEWER_SMOKE_EXTRA = 1


def vehicle_sight(tables, info, ground_level):
    """``sight_rows`` of :func:`vehicle_columns` for a walk's ``tables`` (without the counters part) and counters
    table ``info``: per vehicle hex, whether each hex's ground Location sees it (the ``vasl`` walk, the same
    SMOKE, no vehicles)."""
    def sight_rows(vehicle_hexes):
        from kernel.line_of_sight._depiction import walk as D

        without = info.copy()
        without[:, H_VEHICLE] = 0
        bare = tables._replace(counter_info=vehicle_columns(without, False, None),
                               has_counters=bool((info[:, H_SMOKE] > 0).any()))
        n = info.shape[0]
        every = np.arange(n, dtype=HEX_INDEX)
        levels2 = 2 * np.asarray(ground_level, np.int64)
        rows = np.empty((1, n), np.int8)
        out = np.empty((len(vehicle_hexes), n), np.bool_)
        for k, v in enumerate(vehicle_hexes):
            D.depiction_rows_kernel(every, levels2, int(v), False, bare, rows)
            out[k] = rows[0] != BLOCKED
        return out
    return sight_rows


def vehicle_columns(info, per_range: bool, sight_rows) -> np.ndarray:
    """``info`` (a walk's per-hex counters table, ``H_COLUMNS`` wide) with the vehicle columns appended.

    ``sight_rows(hexes_with_vehicles)`` gives, per such hex, whether each hex sees it (bool, one row per
    vehicle hex); asked only with ``per_range`` (VASL's reading) and vehicles on the map.
    """
    vehicle_hexes = np.flatnonzero(info[:, H_VEHICLE] > 0) if per_range else np.zeros(0, np.int64)
    out = np.zeros((info.shape[0], SIGHT + len(vehicle_hexes)), info.dtype)
    out[:, :H_COLUMNS] = info
    out[:, VEHICLE_SLOT] = -1
    if len(vehicle_hexes):
        out[vehicle_hexes, VEHICLE_SLOT] = np.arange(len(vehicle_hexes))
        out[:, SIGHT:] = np.asarray(sight_rows(vehicle_hexes)).T
    return out


def viewer_extra(hexes, levels2, counter_info) -> np.ndarray:
    """Per viewer Location, the DRM VASL adds for SMOKE in its own hex (int64; 0 where it is not within SMOKE).

    ``levels2`` are the Locations' heights in half levels; ``counter_info`` the walk's per-hex table
    (``H_SMOKE``, ``H_SMOKE_BASE``, ``H_SMOKE_TOP``).  Within: at or above its base, below its top (the walk's ``end_smoke``).
    """
    hexes = np.asarray(hexes, np.int64)
    smoke = counter_info[hexes, H_SMOKE].astype(np.int64)
    levels2 = np.asarray(levels2, np.int64)
    within = (smoke > 0) & (levels2 < counter_info[hexes, H_SMOKE_TOP]) & (levels2 >= counter_info[hexes, H_SMOKE_BASE])
    return np.where(within, VIEWER_SMOKE_EXTRA, 0).astype(np.int64)


def add_to_rows(out, row_extra, row_hexes, column_hexes, cap) -> None:
    """Add ``row_extra[r]`` to the clear entries of row ``r`` of a hindrance matrix ``out`` (int8, in place),
    except a Location against its own hex; an entry that reaches ``cap`` becomes ``BLOCKED``."""
    rows = np.flatnonzero(row_extra)
    if rows.size == 0:
        return
    part = out[rows].astype(np.int64)
    clear = (part != BLOCKED) & (np.asarray(row_hexes)[rows, None] != np.asarray(column_hexes)[None, :])
    raised = np.where(clear, part + row_extra[rows, None], part)
    raised = np.where(clear & (raised >= cap), BLOCKED, np.minimum(raised, MAX_MATRIX_DRM))
    out[rows] = raised.astype(out.dtype)


def add_to_pairs(extra, hex_a, hex_b, blocked, hindrance, at, reason, cap) -> None:
    """Add ``extra[k]`` (the viewer's) to the clear pairs ``a[k] -> b[k]`` of different hexes, in place; a pair
    that reaches ``cap`` is blocked by hindrance at the viewer's hex."""
    pick = (extra > 0) & ~blocked & (np.asarray(hex_a) != np.asarray(hex_b))
    if not pick.any():
        return
    hindrance[pick] += extra[pick].astype(hindrance.dtype)
    capped = pick & (hindrance >= cap)
    blocked[capped] = True
    at[capped] = np.asarray(hex_a)[capped]
    reason[capped] = R_HINDRANCE


def add_to_recorded(extra: int, a: int, blocked: bool, total: int, reason: int, at: int, log, cap):
    """One recorded LOS with the viewer's extra DRM: ``(blocked, total, reason, at, log)``, the extra as a
    counters step of the viewer's hex (first in the log: it is the viewer's own SMOKE)."""
    if extra <= 0 or blocked:
        return blocked, total, reason, at, log
    total += extra
    blocks = total >= cap
    row = np.zeros((1, LOG_COLUMNS), np.int64)
    row[0, LOG_HEX] = a
    row[0, LOG_CLASS] = COUNTERS
    row[0, LOG_DRM] = extra
    row[0, LOG_EFFECT] = BLOCK if blocks else NONE
    row[0, LOG_REASON] = R_HINDRANCE if blocks else R_NONE
    row[0, LOG_LAST_PIXEL] = -2
    if blocks:
        blocked, reason, at = True, R_HINDRANCE, a
    return blocked, total, reason, at, np.concatenate([row, log])
