"""numba kernels of per-source fields of fire, of LOS matrices through the per-source rows, of the single boolean
LOS query and of one recorded LOS (private; see :mod:`kernel.line_of_sight.fields`,
:mod:`kernel.line_of_sight.bulk` and :func:`kernel.line_of_sight.single.can_see`)."""

from __future__ import annotations

import numba
import numpy as np

from kernel._jit import jit, jit_inline, jit_parallel
from kernel.line_of_sight._kernels import CHUNK, evaluate_pairs, pair_buffers
from kernel.line_of_sight._rules import BLIND as BLIND_EFFECT, BLOCKED
from kernel.line_of_sight._source_kernels import NO_SKIP, source_row
from kernel.line_of_sight._target_table import T_HEIGHT, target_table


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


def _matrix_items(model, hexes, levels, row_start, lifted, tpl, board_tables, counters, cell_step, trie, out):
    """Items of :func:`source_matrix_kernel`: a pair of rows each for the upper triangle, else a row each."""
    return (out.shape[0] + 1) // 2 if lifted < NO_SKIP else out.shape[0]


@jit
def lifted_height(heights):
    """The least height (half levels) above the commonest one among ``heights``: the rows of Locations this
    high or higher take the pairs with every lower Location in an upper-triangle matrix (their lines down
    take the per-source codes, where the lower end's rows would take the per-pair evaluator).

    Examples
    --------
    >>> import numpy as np
    >>> int(lifted_height(np.array([0, 0, 2, 0, -2, 4], np.int64)))
    1
    """
    if heights.shape[0] == 0:
        return np.int64(0)
    low = high = heights[0]
    for h in heights:  # (loops, not numpy's reductions: their error paths add compile time)
        low, high = min(low, h), max(high, h)
    counts = np.zeros(high - low + 1, np.int64)
    for h in heights:
        counts[h - low] += 1
    commonest = 0
    for k in range(counts.shape[0]):
        if counts[k] > counts[commonest]:
            commonest = k
    return np.int64(commonest + low + 1)


@jit
def spread_stride(items):
    """A stride coprime with ``items`` (so ``item * stride % items`` visits each item once), near an eighth
    of them.

    Examples
    --------
    >>> [int(spread_stride(n)) for n in (1, 7, 64, 666)]
    [1, 1, 9, 83]
    """
    stride = max(1, items // 8)
    while True:
        a, b = stride, items
        while b:
            a, b = b, a % b
        if a == 1:
            return stride
        stride += 1


# run in parts by the package's threads (the rows' work is in source_row): numba's parfor lowering of this
# kernel costs about as much compile as source_row itself
@jit_parallel(count=_matrix_items)
def source_matrix_kernel(lo_item, hi_item, model, hexes, levels, row_start, lifted, tpl, board_tables, counters,
                         cell_step, trie, out):
    """Rows ``row_start ..`` of the LOS matrix over the Locations ``hexes`` at ``levels``, one per row of
    ``out`` (int8: hindrance saturated at 127, or BLOCKED; diagonal 0), from the per-source rows
    (:func:`~kernel.line_of_sight._source_kernels.source_row`, the same numbers as the per-pair rows).

    ``lifted``: ``NO_SKIP`` for whole rows; else the matrix is computed once per pair, for
    :func:`mirror_computed` to fill the rest (ASL LOS is symmetric): row ``i`` takes the Locations after it,
    but a Location at least ``lifted`` high (:func:`lifted_height` of their heights) takes every pair with a
    lower one, before or after it (its row's entries left of the diagonal), and work item k takes rows k and
    ``rows - 1 - k`` (balanced work).  Each item writes only its own rows; a call runs items
    ``lo_item .. hi_item - 1``."""
    n = hexes.shape[0]
    # int64 arguments throughout: the same compiled source_row as fields of fire
    target_info, lowest = target_table(hexes, levels, board_tables[0], board_tables[1], counters[0], board_tables[7])
    heights = target_info[T_HEIGHT]
    upper = lifted < NO_SKIP
    rows = out.shape[0]
    buffer = np.empty(n, np.int32)
    picked = np.empty(n, np.int64)  # a lifted row's targets: their columns
    picked_hexes = np.empty(n, hexes.dtype)
    picked_levels = np.empty(n, levels.dtype)
    picked_info = np.empty((target_info.shape[0], n), np.int64)
    items = (rows + 1) // 2 if upper else rows
    stride = spread_stride(items)
    for item in range(lo_item, hi_item):
        first = (item * stride) % items  # (neighbouring rows, whose work is alike, spread over the parts)
        for side in range(2 if upper else 1):
            r = first if side == 0 else rows - 1 - first
            if side == 1 and r == first:
                break
            i = row_start + r
            if heights[i] >= lifted:
                count = 0
                for j in range(n):
                    if (j > i and heights[j] <= heights[i]) or (j < i and heights[j] < heights[i]):
                        picked[count] = j
                        count += 1
                for k in range(count):
                    picked_hexes[k] = hexes[picked[k]]
                    picked_levels[k] = levels[picked[k]]
                    for q in range(target_info.shape[0]):  # (no slice assignment: its shape check compiles)
                        picked_info[q, k] = target_info[q, picked[k]]
                source_row(model, hexes[i], levels[i], np.int64(0), np.int64(count), picked_hexes, picked_levels,
                           picked_info, tpl, board_tables, counters, cell_step, trie, lowest, np.int64(NO_SKIP),
                           buffer)
                for k in range(count):
                    out[r, picked[k]] = BLOCKED if buffer[k] == BLOCKED else min(buffer[k], 127)
            else:
                lo = i + 1 if upper else np.int64(0)
                source_row(model, hexes[i], levels[i], lo, np.int64(n), hexes, levels, target_info, tpl, board_tables,
                           counters, cell_step, trie, lowest, lifted, buffer)
                for j in range(lo, n):
                    if heights[j] < lifted:
                        out[r, j] = BLOCKED if buffer[j] == BLOCKED else min(buffer[j], 127)
            out[r, i] = 0


@jit_parallel(count=lambda heights, lifted, out: out.shape[0], min_part=32)
def mirror_computed(lo, hi, heights, lifted, out):
    """Fill rows ``lo .. hi - 1`` of an upper-triangle matrix of :func:`source_matrix_kernel` (Locations of
    ``heights``, rows of Locations at least ``lifted`` high holding their pairs with lower ones): each
    entry its row did not compute is copied from the row that did; each row writes only itself."""
    high = np.empty(heights.shape[0], np.int64)
    count = 0
    for j in range(heights.shape[0]):
        if heights[j] >= lifted:
            high[count] = j
            count += 1
    for i in range(lo, hi):
        h = heights[i]
        if h < lifted:
            for j in range(i):
                out[i, j] = out[j, i]
        else:
            for j in range(i):
                if heights[j] >= h:
                    out[i, j] = out[j, i]
        for j in high[:count]:
            if j > i and heights[j] > h:
                out[i, j] = out[j, i]


@jit_inline
def walk_one_pair(full_record, records, scratch, a, level_a, b, level_b, model, tpl, board_tables, counters):
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
    count = evaluate_pairs(model, flag, flag, scratch[0:1], scratch[2:3], 0, scratch[1:2],
                           scratch[3:4], 0, tpl, board_tables, counters, records, scratch[4:5], scratch[5:6],
                           scratch[6:7], scratch[7:8], scratch[8:9], scratch[9:10])
    return count


#: int32 entries of :func:`walk_one_pair`'s scratch: the two ends and levels, the six outputs.
SCRATCH = 10


@jit
def visible_kernel(a, level_a, b, level_b, model, grid, base, start, packed, ranges, max_dc, max_dy, col, y, hs_obst,
                   hs_hind, cap, units_block, neighbours, depression, hex_info, fast_grid, same_code, level_row,
                   level_min):
    """Whether ``b`` at ``level_b`` is visible from ``a`` at ``level_a`` (the walk stops at the first block).

    The tables come as separate arguments, not as the tuples of
    :func:`evaluate_pairs` (numba types a tuple of arrays argument by
    argument in Python, a plain array in C: for one pair that was a fifth of
    the call)."""
    scratch = np.empty(SCRATCH, np.int32)
    # nothing is recorded: the records argument is the scratch seen as a table, never written
    walk_one_pair(False, scratch.reshape((2, SCRATCH // 2)), scratch, a, level_a, b, level_b, model,
                  (grid, base, start, packed, ranges, max_dc, max_dy),
                  (col, y, hs_obst, hs_hind, cap, units_block, neighbours, depression),
                  (hex_info, fast_grid, same_code, level_row, level_min))
    return scratch[4] == 0


@jit
def recorded_kernel(a, level_a, b, level_b, model, grid, base, start, packed, ranges, max_dc, max_dy, col, y, hs_obst,
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
    count = walk_one_pair(True, records, scratch, a, level_a, b, level_b, model,
                          (grid, base, start, packed, ranges, max_dc, max_dy),
                          (col, y, hs_obst, hs_hind, cap, units_block, neighbours, depression),
                          (hex_info, fast_grid, same_code, level_row, level_min))
    return scratch[4] != 0, scratch[5], scratch[6], scratch[7], scratch[8] != 0, scratch[9] != 0, records[:count]


@jit
def listed_steps_kernel(keys, hindered, n, model, grid, base, start, packed, ranges, max_dc, max_dy, col, y, hs_obst,
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
        count = walk_one_pair(True, records, scratch, keys[k] // n, 0, keys[k] % n, 0, model,
                              (grid, base, start, packed, ranges, max_dc, max_dy),
                              (col, y, hs_obst, hs_hind, cap, units_block, neighbours, depression),
                              (hex_info, fast_grid, same_code, level_row, level_min))
        kept = 0
        for r in range(count):
            if kept == 255:
                break
            if hindered[k]:
                if records[r, 4] <= 0:
                    continue
                value = min(records[r, 4], 127)
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
