"""numba kernels of the hex model's per-pair queries: fields of fire pair by pair (the reference of the
per-source sweep), the single boolean LOS query, one recorded LOS and the steps the interactive page lists
(private; see :mod:`kernel.line_of_sight.single`, :mod:`kernel.line_of_sight.fields` and
:mod:`kernel.line_of_sight.report`)."""

from __future__ import annotations

import numba
import numpy as np

from kernel._jit import jit, jit_inline, jit_parallel
from kernel.line_of_sight._hex.pairs import CHUNK, evaluate_pairs, pair_buffers
from kernel.line_of_sight._hex.rules import BLIND as BLIND_EFFECT, BLOCKED
from kernel.line_of_sight.counters import CounterTables
from kernel.line_of_sight.inputs import KernelBoardTables, TemplateTables
from kernel._dtypes import MAX_MATRIX_DRM


@jit_parallel
def fields_kernel(ruleset, sources, source_levels, targets, target_levels, tpl, board_tables, counters, out):
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
        evaluate_pairs(ruleset, False, False, sources[k:k + 1], source_levels[k:k + 1], 0, targets[lo:hi],
                       target_levels[lo:hi], 1, tpl, board_tables, counters, records, blocked, total, at, reason,
                       blind, slope)
        for j in range(count):
            if blocked[j]:
                out[k, lo + j] = BLOCKED
            else:
                out[k, lo + j] = total[j] if total[j] < MAX_MATRIX_DRM else MAX_MATRIX_DRM


@jit_inline
def walk_one_pair(full_record, records, scratch, a, level_a, b, level_b, ruleset, tpl, board_tables, counters):
    """One pair through :func:`evaluate_pairs` (``full`` and ``record`` both ``full_record``); returns
    the record count and leaves the pair's outputs in ``scratch[4:10]`` (int32, ``SCRATCH`` entries):
    blocked, hindrance, blocked_at, reason, blind, slope.  The inputs and outputs are one-element
    slices of that one array (one allocation per query: six small arrays cost a fifth of a
    ``can_see``)."""
    scratch[0] = a
    scratch[1] = b
    scratch[2] = level_a
    scratch[3] = level_b
    # a run-time flag, not a constant (numba compiles a function again for each constant argument): can_see and
    # the recorded LOS share one compiled evaluator, where the bulk kernels keep theirs with constant flags
    # (as run-time flags there, the matrix and los_pairs ran 5-10 % slower)
    flag = np.bool_(full_record)
    count = evaluate_pairs(ruleset, flag, flag, scratch[0:1], scratch[2:3], 0, scratch[1:2],
                           scratch[3:4], 0, tpl, board_tables, counters, records, scratch[4:5], scratch[5:6],
                           scratch[6:7], scratch[7:8], scratch[8:9], scratch[9:10])
    return count


#: int32 entries of :func:`walk_one_pair`'s scratch: the two ends and levels, the six outputs.
SCRATCH = 10


@jit
def visible_kernel(a, level_a, b, level_b, ruleset, grid, base, start, packed, ranges, max_dc, max_dy, col, y, hs_obst,
                   hs_hind, cap, units_block, neighbours, depression, hex_info, fast_grid, same_code, level_row,
                   level_min):
    """Whether ``b`` at ``level_b`` is visible from ``a`` at ``level_a`` (the walk stops at the first block).

    The tables come as separate arguments, bundled here into the named
    tuples :func:`evaluate_pairs` takes (numba types a tuple of arrays
    argument by argument in Python, a plain array in C: for one pair that
    was a fifth of the call)."""
    scratch = np.empty(SCRATCH, np.int32)
    # nothing is recorded: the records argument is the scratch seen as a table, never written
    walk_one_pair(False, scratch.reshape((2, SCRATCH // 2)), scratch, a, level_a, b, level_b, ruleset,
                  TemplateTables(grid, base, start, packed, ranges, max_dc, max_dy),
                  KernelBoardTables(col, y, hs_obst, hs_hind, cap, units_block, neighbours, depression),
                  CounterTables(hex_info, fast_grid, same_code, level_row, level_min))
    return scratch[4] == 0


@jit
def recorded_kernel(a, level_a, b, level_b, ruleset, grid, base, start, packed, ranges, max_dc, max_dy, col, y, hs_obst,
                    hs_hind, cap, units_block, neighbours, depression, hex_info, fast_grid, same_code, level_row,
                    level_min):
    """One LOS with its steps: ``(blocked, hindrance, blocked_at, reason, blind, slope, records)``,
    ``records`` (int32, rows of hex, step kind, effect, reason, DRM) holding every step with an
    effect.  Flat arguments as in :func:`visible_kernel`."""
    width = 2 * max_dy + 1
    t = (col[b] - col[a] + max_dc) * width + (y[b] - y[a] + max_dy)
    # at most one step record and one crossing record per template entry of this pair, and SMOKE in either end's hex
    records = np.zeros((2 * (start[t + 1] - start[t]) + 3, 5), np.int32)
    scratch = np.empty(SCRATCH, np.int32)
    count = walk_one_pair(True, records, scratch, a, level_a, b, level_b, ruleset,
                          TemplateTables(grid, base, start, packed, ranges, max_dc, max_dy),
                          KernelBoardTables(col, y, hs_obst, hs_hind, cap, units_block, neighbours, depression),
                          CounterTables(hex_info, fast_grid, same_code, level_row, level_min))
    return scratch[4] != 0, scratch[5], scratch[6], scratch[7], scratch[8] != 0, scratch[9] != 0, records[:count]


@jit
def listed_steps_kernel(keys, hindered, n, ruleset, grid, base, start, packed, ranges, max_dc, max_dy, col, y, hs_obst,
                        hs_hind, cap, units_block, neighbours, depression, hex_info, fast_grid, same_code, level_row,
                        level_min):
    """The steps the interactive page lists for many ground-level pairs, in one call: pair ``k`` is viewer
    ``keys[k] // n``, target ``keys[k] % n``; for ``hindered[k]`` its steps that add hindrance ``(hex, DRM
    saturated at 127)``, else its blind steps ``(hex, -1)``, at most 255 per pair, in walking order.
    Returns ``(counts, hexes, values)``: uint8 per pair, then the entries of all pairs in order.  The
    walk is :func:`recorded_kernel`'s, pair after pair (flat arguments as in :func:`visible_kernel`)."""
    longest = 0
    for t in range(start.shape[0] - 1):
        longest = max(longest, start[t + 1] - start[t])
    records = np.zeros((2 * longest + 3, 5), np.int32)   # recorded_kernel's bound for the longest template
    scratch = np.empty(SCRATCH, np.int32)
    counts = np.zeros(keys.shape[0], np.uint8)
    hexes = np.empty(max(16, 2 * keys.shape[0]), np.int32)
    values = np.empty(hexes.shape[0], np.int8)
    used = 0
    for k in range(keys.shape[0]):
        count = walk_one_pair(True, records, scratch, keys[k] // n, 0, keys[k] % n, 0, ruleset,
                              TemplateTables(grid, base, start, packed, ranges, max_dc, max_dy),
                              KernelBoardTables(col, y, hs_obst, hs_hind, cap, units_block, neighbours, depression),
                              CounterTables(hex_info, fast_grid, same_code, level_row, level_min))
        kept = 0
        for r in range(count):
            if kept == 255:
                break
            if hindered[k]:
                if records[r, 4] <= 0:
                    continue
                value = min(records[r, 4], MAX_MATRIX_DRM)
            else:
                if records[r, 2] != BLIND_EFFECT:
                    continue
                value = -1
            if used == hexes.shape[0]:   # grow both by half
                grown = np.empty(hexes.shape[0] + hexes.shape[0] // 2, np.int32)
                grown_values = np.empty(grown.shape[0], np.int8)
                for q in range(used):   # element by element: a slice assignment compiles numba's shape-error text
                    grown[q] = hexes[q]
                    grown_values[q] = values[q]
                hexes = grown
                values = grown_values
            hexes[used] = records[r, 0]
            values[used] = value
            used += 1
            kept += 1
        counts[k] = kept
    return counts, hexes[:used], values[:used]
