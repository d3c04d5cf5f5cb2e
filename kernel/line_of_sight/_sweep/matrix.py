"""numba kernels of LOS matrices through the per-source rows: each pair computed once, from its higher end
where one end is above the commonest height, then mirrored (private; see :mod:`kernel.line_of_sight.bulk`)."""

from __future__ import annotations

import numpy as np

from kernel._jit import jit, jit_parallel
from kernel.line_of_sight._hex.rules import BLOCKED
from kernel.line_of_sight._sweep.rows import NO_SKIP, source_row
from kernel.line_of_sight._sweep.target_table import T_HEIGHT, target_table
from kernel._dtypes import MAX_MATRIX_DRM


def _matrix_items(ruleset, hexes, levels, row_start, lifted, tpl, board_tables, counters, cell_step, trie, out):
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
@jit_parallel(count=_matrix_items, work=lambda *arguments: 0.04 * arguments[-1].size)
def source_matrix_kernel(lo_item, hi_item, ruleset, hexes, levels, row_start, lifted, tpl, board_tables, counters,
                         cell_step, trie, out):
    """Rows ``row_start ..`` of the LOS matrix over the Locations ``hexes`` at ``levels``, one per row of
    ``out`` (int8: hindrance saturated at 127, or BLOCKED; diagonal 0), from the per-source rows
    (:func:`~kernel.line_of_sight._sweep.rows.source_row`, the same numbers as the per-pair rows).

    ``lifted``: ``NO_SKIP`` for whole rows; else the matrix is computed once per pair, for
    :func:`mirror_computed` to fill the rest (ASL LOS is symmetric): row ``i`` takes the Locations after it,
    but a Location at least ``lifted`` high (:func:`lifted_height` of their heights) takes every pair with a
    lower one, before or after it (its row's entries left of the diagonal), and work item k takes rows k and
    ``rows - 1 - k`` (balanced work).  Each item writes only its own rows; a call runs items
    ``lo_item .. hi_item - 1``."""
    n = hexes.shape[0]
    # int64 arguments throughout: the same compiled source_row as fields of fire
    target_info, lowest = target_table(hexes, levels, board_tables.col, board_tables.y, counters.hex_info,
                                 board_tables.depression_group)
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
                source_row(ruleset, hexes[i], levels[i], np.int64(0), np.int64(count), picked_hexes, picked_levels,
                           picked_info, tpl, board_tables, counters, cell_step, trie, lowest, np.int64(NO_SKIP),
                           buffer)
                for k in range(count):
                    out[r, picked[k]] = BLOCKED if buffer[k] == BLOCKED else min(buffer[k], MAX_MATRIX_DRM)
            else:
                lo = i + 1 if upper else np.int64(0)
                source_row(ruleset, hexes[i], levels[i], lo, np.int64(n), hexes, levels, target_info, tpl, board_tables,
                           counters, cell_step, trie, lowest, lifted, buffer)
                for j in range(lo, n):
                    if heights[j] < lifted:
                        out[r, j] = BLOCKED if buffer[j] == BLOCKED else min(buffer[j], MAX_MATRIX_DRM)
            out[r, i] = 0


@jit_parallel(count=lambda heights, lifted, out: out.shape[0], min_part=32,
              work=lambda heights, lifted, out: 0.001 * out.size)
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
