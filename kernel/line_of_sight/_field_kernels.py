"""numba kernels of per-source fields of fire and of the single boolean LOS query (private; see
:mod:`kernel.line_of_sight.fields` and :func:`kernel.line_of_sight.single.can_see`)."""

from __future__ import annotations

import numba
import numpy as np

from kernel._jit import jit, jit_parallel
from kernel.line_of_sight._kernels import CHUNK, evaluate_pairs, pair_buffers
from kernel.line_of_sight._rules import BLOCKED


@jit_parallel
def fields_kernel(model, sources, source_levels, targets, target_levels, tpl, board_tables, counters, out):
    """``out[k, j]``: the LOS from source ``k`` to target ``j``, hindrance (saturated at 127) or
    BLOCKED.  Work items are (source, chunk of targets); each writes only its own slice of row k."""
    n = targets.shape[0]
    chunks = (n + CHUNK - 1) // CHUNK
    for item in numba.prange(sources.shape[0] * chunks):
        k = item // chunks
        lo = (item % chunks) * CHUNK
        hi = min(n, lo + CHUNK)
        count = hi - lo
        records, blocked, total, at, reason, blind, slope = pair_buffers(count)
        evaluate_pairs(model, False, False, sources[k:k + 1], source_levels[k:k + 1], 0, targets[lo:hi],
                       target_levels[lo:hi], 1, tpl, board_tables, counters, records, blocked, total, at, reason,
                       blind, slope)
        for j in range(count):
            if blocked[j]:
                out[k, lo + j] = BLOCKED
            else:
                out[k, lo + j] = total[j] if total[j] < 127 else 127


@jit
def visible_kernel(model, a, level_a, b, level_b, tpl, board_tables, counters):
    """Whether ``b`` at ``level_b`` is visible from ``a`` at ``level_a`` (the walk stops at the first block)."""
    hex_a = np.full(1, a, np.int32)
    hex_b = np.full(1, b, np.int32)
    levels_a = np.full(1, level_a, np.int64)
    levels_b = np.full(1, level_b, np.int64)
    records, blocked, total, at, reason, blind, slope = pair_buffers(1)
    evaluate_pairs(model, False, False, hex_a, levels_a, 0, hex_b, levels_b, 0, tpl, board_tables, counters, records,
                   blocked, total, at, reason, blind, slope)
    return not blocked[0]
