"""numba kernel that refreshes a held LOS matrix after counters changed (private; see
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

:func:`refresh_kernel` lists those pairs first, each once, and gives up
(returns -1, before evaluating any) when there are more than the caller's
``cap``: the caller then computes a new matrix, which is cheaper.  A change
that only adds (SMOKE placed or thickened, a vehicle or a blocking unit
placed) can only add hindrance or blocks, so a pair already blocked stays
blocked and is not listed (``skip_blocked``).
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit
from kernel.line_of_sight._hex.pairs import evaluate_pairs, pair_buffers
from kernel.line_of_sight._hex.rules import BLOCKED
from kernel._dtypes import MAX_MATRIX_DRM


@jit
def _list_pairs(symmetric, hexes, cells, changed_cells, inverse_start, inverse_template, offset_min, target_offset,
                target_dc, target_dy, col, yv, col_max, y_max, grid, location_start, location_rows, prior,
                skip_blocked, cap, row_start, columns):
    """Row by row, the Locations ``c`` whose LOS with Location ``r`` may have changed (``c > r`` when
    ``symmetric``, else every ``c != r``), each once: row ``r``'s are ``columns[row_start[r]:row_start[r + 1]]``.
    Returns how many, or -1 as soon as there would be more than ``cap``."""
    n = hexes.shape[0]
    listed = np.full(n, -1, np.int64)  # listed[c] == r: c is already in row r's list
    n_offsets = inverse_start.shape[0] - 1
    count = 0
    for r in range(n):
        row_start[r] = count
        a = hexes[r]
        base = cells[a]
        for k in range(changed_cells.shape[0]):
            o = changed_cells[k] - base - offset_min
            if o < 0 or o >= n_offsets:
                continue
            for i in range(inverse_start[o], inverse_start[o + 1]):
                t = inverse_template[i]
                col_b = col[a] + target_dc[t]
                y_b = yv[a] + target_dy[t]
                if col_b < 0 or col_b > col_max or y_b < 0 or y_b > y_max:
                    continue  # the displacement leads off the grid: no hex there
                j = grid[base + target_offset[t]]
                if j < 0:
                    continue
                for m in range(location_start[j], location_start[j + 1]):
                    c = location_rows[m]
                    if c == r or (symmetric and c < r) or listed[c] == r:
                        continue
                    listed[c] = r
                    if skip_blocked and prior[r, c] == BLOCKED:
                        continue
                    if count == cap:
                        return -1
                    columns[count] = c
                    count += 1
    row_start[n] = count
    return count


@jit
def template_visits(hexes, cells, changed_cells, inverse_start, offset_min):
    """How many templates :func:`_list_pairs` looks at for these changed cells (its work, known before it runs)."""
    n_offsets = inverse_start.shape[0] - 1
    visits = 0
    for r in range(hexes.shape[0]):
        base = cells[hexes[r]]
        for k in range(changed_cells.shape[0]):
            o = changed_cells[k] - base - offset_min
            if 0 <= o < n_offsets:
                visits += inverse_start[o + 1] - inverse_start[o]
    return visits


@jit
def refresh_kernel(ruleset, symmetric, hexes, levels, cells, changed_cells, inverse_start, inverse_template,
                   offset_min, target_offset, target_dc, target_dy, col_max, y_max, location_start, location_rows, tpl,
                   board_tables, counters, skip_blocked, budget, visit_cost, pair_cost, listed_share, out):
    """Recompute, in matrix ``out`` over Locations (``hexes``, ``levels``), every pair whose trace
    meets a hex of ``changed_cells`` (module docstring); returns the number of pairs evaluated, or -1
    (``out`` untouched) where a new matrix is cheaper.

    The costs are in units of a new matrix's time per pair, ``budget`` that of the whole matrix:
    each template looked at while listing the pairs costs ``visit_cost``, each pair evaluated
    ``pair_cost``.  The templates to look at are counted first (:func:`template_visits`): where
    their cost, with the pairs they are expected to list (``listed_share`` of them), is over the
    budget, nothing is listed; else the listing stops as soon as its pairs would cost more than the
    budget left.

    With ``symmetric`` (ASL, CCN) each pair is evaluated once, from the Location listed first, and
    written to both of its entries; otherwise every ordered pair is evaluated.

    Serial on purpose (a plain loop over rows): a refresh of one change is about a millisecond of
    work, and as parallel regions it stalled for tens of milliseconds whenever a neighbour process
    held a core.
    """
    n = hexes.shape[0]
    grid = tpl.grid_flat
    col = board_tables.col
    yv = board_tables.y
    visits = template_visits(hexes, cells, changed_cells, inverse_start, offset_min)
    listing = visits * visit_cost
    if listing + visits * listed_share * pair_cost > budget:
        return -1
    cap = np.int64((budget - listing) / pair_cost)
    row_start = np.empty(n + 1, np.int64)
    columns = np.empty(max(min(cap, n * n), 1), np.int64)
    count = _list_pairs(symmetric, hexes, cells, changed_cells, inverse_start, inverse_template, offset_min,
                        target_offset, target_dc, target_dy, col, yv, col_max, y_max, grid, location_start,
                        location_rows, out, skip_blocked, cap, row_start, columns)
    if count <= 0:
        return count
    records, blocked, total, at, reason, blind, slope = pair_buffers(n)
    hex_b = np.empty(n, hexes.dtype)
    level_b = np.empty(n, levels.dtype)
    for r in range(n):
        first = row_start[r]
        listed = row_start[r + 1] - first
        if listed == 0:
            continue
        for k in range(listed):
            hex_b[k] = hexes[columns[first + k]]
            level_b[k] = levels[columns[first + k]]
        # the arguments' kinds of the matrix rows' call (pairs._matrix_row): one compiled evaluator for both
        evaluate_pairs(ruleset, False, False, hexes[r:r + 1], levels[r:r + 1], 0, hex_b[0:listed], level_b[0:listed],
                       1, tpl, board_tables, counters, records, blocked[:listed], total[:listed], at[:listed],
                       reason[:listed], blind[:listed], slope[:listed])
        for k in range(listed):
            c = columns[first + k]
            value = BLOCKED if blocked[k] else (total[k] if total[k] < MAX_MATRIX_DRM else MAX_MATRIX_DRM)
            out[r, c] = value
            if symmetric:
                out[c, r] = value
    return count
