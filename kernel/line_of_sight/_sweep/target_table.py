"""The targets of a per-source kernel call as one table, read once per call rather than once per source
(private; see :mod:`kernel.line_of_sight._sweep.rows`).

Memory: 32 bytes per target.
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit
from kernel.line_of_sight._hex.rules import end_smoke, location_height2

# Rows of the targets' table (:func:`target_table`) and its flags.
T_HEIGHT, T_COLUMN, T_Y, T_FLAGS = range(4)
TARGET_SMOKE = 1  # SMOKE in the target's own hex reaches its Location
TARGET_DEPRESSION = 2  # a ground-level Location in a depression


@jit
def target_table(targets, target_levels, col, yv, hex_info, depression_group):
    """``(table, lowest)``: per target ``j`` (int64, rows ``T_*``) its height in half levels, column, exact
    y and flags (``TARGET_SMOKE``, ``TARGET_DEPRESSION``), read once per call of a kernel rather than
    once per source; ``lowest``: the least height."""
    n = targets.shape[0]
    table = np.empty((4, n), np.int64)
    lowest = np.int64(1 << 30)
    for j in range(n):
        b = targets[j]
        lb2 = location_height2(b, target_levels[j], hex_info)
        table[T_HEIGHT, j] = lb2
        table[T_COLUMN, j] = col[b]
        table[T_Y, j] = yv[b]
        flags = TARGET_SMOKE if end_smoke(b, lb2, hex_info) > 0 else 0
        if target_levels[j] == 0 and depression_group[b] >= 0:
            flags |= TARGET_DEPRESSION
        table[T_FLAGS, j] = flags
        lowest = min(lowest, lb2)
    return table, lowest
