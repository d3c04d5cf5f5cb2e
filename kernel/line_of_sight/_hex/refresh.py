"""numba kernels that refresh a held LOS matrix after counters changed (private; see
:mod:`kernel.line_of_sight.incremental`).

A pair's LOS can change only when a changed hex lies on its trace (its ends
included: SMOKE in an end's own hex counts).  The trace of ``a -> b`` is the
template of the displacement ``b - a`` laid at ``a``, so hex ``h`` lies on it
when ``cell(h) - cell(a)`` is one of that template's entry offsets.  The
inverse index (``inverse_start``, ``inverse_template``, over offsets from
``offset_min``) lists, per offset, the templates holding it; ``target_offset``
is each template's last entry (the target's cell offset), ``target_dc``,
``target_dy`` its displacement: a template whose target would lie beyond the
grid (column ``0..col_max``, y ``0..y_max``) is skipped before any lookup, so
every index read is valid.
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit
from kernel.line_of_sight._hex.pairs import evaluate_pairs, pair_buffers
from kernel.line_of_sight._hex.rules import BLOCKED


@jit
def _candidates(r, hexes, cells, changed_cells, inverse_start, inverse_template, offset_min, target_offset,
                target_dc, target_dy, col, yv, col_max, y_max, grid, location_start, location_rows, upper, seen, out_rows):
    """Rows ``c`` of the Locations whose LOS with Location ``r`` may have changed (``c > r`` when
    ``upper``, else ``c < r``), each once, into ``out_rows``; returns how many.  ``seen`` (uint8,
    one per row, zero for rows not yet listed) marks the rows listed."""
    count = 0
    base = cells[hexes[r]]
    n_offsets = inverse_start.shape[0] - 1
    for k in range(changed_cells.shape[0]):
        o = changed_cells[k] - base - offset_min
        if o < 0 or o >= n_offsets:
            continue
        for i in range(inverse_start[o], inverse_start[o + 1]):
            t = inverse_template[i]
            col_b = col[hexes[r]] + target_dc[t]
            y_b = yv[hexes[r]] + target_dy[t]
            if col_b < 0 or col_b > col_max or y_b < 0 or y_b > y_max:
                continue  # the displacement leads off the grid: no hex there
            j = grid[base + target_offset[t]]
            if j < 0:
                continue
            for m in range(location_start[j], location_start[j + 1]):
                c = location_rows[m]
                if (upper and c > r) or ((not upper) and c < r):
                    if seen[c] == 0:
                        seen[c] = 1
                        out_rows[count] = c
                        count += 1
    return count


@jit
def _evaluate_row(model, r, rows, hexes, levels, tpl, board_tables, counters, out):
    """Pairs ``(r, rows[k])`` into ``out[r, rows[k]]``: hindrance (saturated at 127) or BLOCKED."""
    count = rows.shape[0]
    hex_b = np.empty(count, hexes.dtype)
    level_b = np.empty(count, levels.dtype)
    for k in range(count):
        hex_b[k] = hexes[rows[k]]
        level_b[k] = levels[rows[k]]
    records, blocked, total, at, reason, blind, slope = pair_buffers(count)
    evaluate_pairs(model, False, False, hexes[r:r + 1], levels[r:r + 1], 0, hex_b, level_b, 1, tpl,
                   board_tables, counters, records, blocked, total, at, reason, blind, slope)
    for k in range(count):
        if blocked[k]:
            out[r, rows[k]] = BLOCKED
        else:
            out[r, rows[k]] = total[k] if total[k] < 127 else 127


@jit
def refresh_kernel(model, symmetric, hexes, levels, cells, changed_cells, inverse_start, inverse_template,
                   offset_min, target_offset, target_dc, target_dy, col_max, y_max, location_start, location_rows, tpl,
                   board_tables, counters, out):
    """Recompute, in matrix ``out`` over Locations (``hexes``, ``levels``), every pair whose trace
    meets a hex of ``changed_cells``; returns the number of pairs evaluated.

    With ``symmetric`` (ASL, CCN) row ``r`` evaluates its pairs ``c > r`` and
    :func:`mirror_kernel` then copies them below the diagonal; otherwise
    every ordered pair is evaluated.  Iteration ``r`` writes only row ``r``.

    Serial on purpose (a plain loop over rows): a refresh is about
    a millisecond of work, and as two parallel regions it stalled for tens
    of milliseconds whenever a neighbour process held a core (measured in
    ``bench/bench_game_loop.py``).
    """
    n = hexes.shape[0]
    grid = tpl[0]
    col = board_tables[0]
    yv = board_tables[1]
    evaluated = np.zeros(n, np.int64)
    for r in range(n):
        seen = np.zeros(n, np.uint8)
        rows = np.empty(n, np.int64)
        count = _candidates(r, hexes, cells, changed_cells, inverse_start, inverse_template, offset_min,
                            target_offset, target_dc, target_dy, col, yv, col_max, y_max, grid,
                            location_start, location_rows, True, seen, rows)
        if not symmetric:
            count += _candidates(r, hexes, cells, changed_cells, inverse_start, inverse_template, offset_min,
                                 target_offset, target_dc, target_dy, col, yv, col_max, y_max, grid,
                                 location_start, location_rows, False, seen, rows[count:])
        if count == 0:
            continue
        _evaluate_row(model, r, rows[:count], hexes, levels, tpl, board_tables, counters, out)
        evaluated[r] = count
    return evaluated.sum()


@jit
def mirror_kernel(hexes, cells, changed_cells, inverse_start, inverse_template, offset_min, target_offset, target_dc,
                  target_dy, col, yv, col_max, y_max, grid, location_start, location_rows, out):
    """After :func:`refresh_kernel` (symmetric): copy each refreshed pair ``(c, r)``, ``c < r``,
    into ``out[r, c]``; iteration ``r`` writes only row ``r``."""
    n = hexes.shape[0]
    for r in range(n):
        seen = np.zeros(n, np.uint8)
        rows = np.empty(n, np.int64)
        count = _candidates(r, hexes, cells, changed_cells, inverse_start, inverse_template, offset_min,
                            target_offset, target_dc, target_dy, col, yv, col_max, y_max, grid,
                            location_start, location_rows, False, seen, rows)
        for k in range(count):
            out[r, rows[k]] = out[rows[k], r]
