"""numba kernels of the LOS rules (private; see :mod:`kernel.line_of_sight.single` and :mod:`kernel.line_of_sight.bulk` for the API).

The rules are those of ``docs/los-semantics.md``; section numbers below refer
to it.  Kernels assume clean inputs: every array has the dtype and length the
wrappers in :mod:`kernel.line_of_sight.single` and :mod:`kernel.line_of_sight.bulk` give it, and hex indices are valid.

One evaluator, :func:`evaluate_pairs`, walks the trace templates of a list of
pairs (one end may stay fixed: a matrix row, a field-of-fire source) and
writes each pair's status; the bulk kernels call it per row or per chunk, and
the single-LOS API calls it for one pair with ``record=True`` to collect the
per-step effects for ``explain()``.  The rule steps it applies to each hex,
crossing and hexside run live in :mod:`kernel.line_of_sight._hex.rules`; those of
a hex's interior are inlined here by numba, those of a vertex are called
(:func:`asl_vertex_step`: few steps reach them, and inlined they cost a share
of every specialisation's compile).
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit, jit_inline, jit_parallel
from kernel.line_of_sight._hex.rules import (
    BLIND, BLOCK, BLOCKED, CODE_HILL, CODE_MAX_DRM, CODE_OBSTACLE, ENTRY_SIDE_BIT, H_GROUND2, H_HINDRANCE,
    RULESET_ASL, RULESET_VV, NONE, R_HEXSIDE, R_HILL, R_HINDRANCE, R_NONE, R_OBSTACLE, R_UNIT, S_CROSSING, S_INTERIOR,
    S_RUN, S_VERTEX, asl_continuous_slope, asl_hex_effect, asl_hex_hindrance, asl_run_effect, asl_run_wall_blocks,
    asl_vertex_wall_blocks, depression_bank, end_smoke, location_height2, ranges_from_higher, record_step,
    simple_hex_effect, simple_run_effect, vv_slope_hexes,
)
from kernel.line_of_sight._templates.tracer import HEXSIDE, INTERIOR, VERTEX
from kernel._dtypes import MAX_MATRIX_DRM


@jit_inline
def pair_order(la2, lb2):
    """``(higher_is_a, S2, T2, same)`` of a pair whose ends are ``la2`` and ``lb2`` half levels high: whether
    end a is the higher, the higher and the lower height, whether they are one."""
    higher_is_a = la2 >= lb2
    S2 = la2 if higher_is_a else lb2
    T2 = lb2 if higher_is_a else la2
    return higher_is_a, S2, T2, S2 == T2


@jit_inline
def crossing_effect(ruleset, height, hindrance, ground_from, ground_into, S2, same, slope):
    """``(effect, DRM)`` of a hexside with a LOS feature (obstacle ``height``, ``hindrance``) crossed from
    a hex of ground ``ground_from`` into one of ``ground_into`` (section 2-3 'crossings'): an ASL wall or
    hedge blocks where it reaches the LOS (its top the higher ground plus its height, B9); a V&V wall
    blocks, a hedge adds its DRM.  It takes values, not arrays: inlined, a function binding arrays pays
    their reference counts at each call (this step so written made the whole matrix about 10 % slower)."""
    if ruleset == RULESET_ASL:
        if height > 0 and (slope or (same and max(ground_from, ground_into) + height > S2) or (
                (not same) and max(ground_from, ground_into) + height >= S2)):
            return BLOCK, 0
        return NONE, 0
    if ruleset == RULESET_VV:
        return (BLOCK if height > 0 else NONE), hindrance
    return NONE, 0


@jit_inline
def same_level_reason(code):
    """The reason of a same-level code (``same_code``) that blocks: hill, obstacle or unit."""
    return R_HILL if code == CODE_HILL else (R_OBSTACLE if code == CODE_OBSTACLE else R_UNIT)


@jit
def evaluate_pairs(ruleset, full, record, hex_a, level_a, step_a, hex_b, level_b, step_b, tpl, board_tables, counters,
                   records, out_blocked, out_total, out_at, out_reason, out_blind, out_slope):
    """Evaluate the LOS of pairs ``p = 0 .. len(out_blocked) - 1``; returns the number of records.

    Pair ``p`` runs from hex ``hex_a[p * step_a]`` at Location level
    ``level_a[p * step_a]`` to ``hex_b[p * step_b]`` / ``level_b[p * step_b]``;
    a step of 0 holds that end fixed (one row of a matrix, one source of a
    field of fire).  Writes ``out_blocked``, ``out_total`` (hindrance DRM),
    ``out_at`` (hex where first blocked, -1), ``out_reason``, ``out_blind``
    and ``out_slope`` (continuous slope) at ``p``.  With ``full`` false a pair
    ends at its first block (its hindrance then partial).  With ``record``
    true (one pair) ``records`` (int32, rows of hex, step kind, effect,
    reason, DRM) receives every step with an effect, and must have a row for
    every step and crossing of the pair's template.

    The tables are the tuples of ``kernel.line_of_sight.inputs.template_tuple``,
    ``kernel_board_tables`` and ``counter_tables``, unpacked here once per
    call: the pair loop below is written out in this function, so no array
    is re-bound per pair or step (numba updates reference counts on every
    binding, also of an argument of a function inlined at IR level: the
    loop's steps as such functions taking the tables' arrays made the
    matrix and the pairs about 2.5 to 3 times slower, as called functions
    4 to 7 times).  Its own steps below take values, not arrays
    (:func:`pair_order`, :func:`crossing_effect`, :func:`same_level_reason`).

    * templates: ``grid`` (grid_flat), ``base``, ``start``, ``packed`` with
      ``packed[e] = offset << 5 | kind << 3 | (cross + 1)``, ``ranges[e]`` =
      (range from a, range from b), ``max_dc``, ``max_dy`` (see kernel.line_of_sight._templates.tracer);
    * board: ``col``, ``yv``, hexside obstacle heights and hindrances
      ``hs_obst``/``hs_hind`` (N, 6), the hindrance ``cap`` and ``units_block``;
    * per call: ``hex_info`` (N, H_COLUMNS) with the hex's ground, obstacle,
      hindrance, SMOKE, vehicle and unit columns ``H_*``; ``fast_grid`` (laid
      out like ``grid``, see ``kernel.line_of_sight.counters.with_inert``), which lets the loop
      skip, without looking the hex up, a hex whose content is inert and not
      above the lower end unless the LOS crosses into it through a hexside
      with a LOS feature; ``same_code``, ``level_row``, ``level_min``
      (``kernel.line_of_sight.counters.same_level_codes``), the whole effect of a crossed hex
      interior when both ends are at one level and the first block ends the
      walk.
    """
    grid, base, start, packed, ranges, max_dc, max_dy = tpl
    col, yv, hs_obst, hs_hind, cap, units_block, neighbours, depression_group = board_tables
    hex_info, fast_grid, same_code, level_row, level_min = counters
    n_rec = 0
    for p in range(out_blocked.shape[0]):
        a = hex_a[p * step_a]
        level_a_p = level_a[p * step_a]
        b = hex_b[p * step_b]
        level_b_p = level_b[p * step_b]
        if a == b:
            out_blocked[p] = False
            out_total[p] = 0
            out_at[p] = -1
            out_reason[p] = R_NONE
            out_blind[p] = False
            out_slope[p] = False
            continue
        ca = col[a]
        ya = yv[a]
        base_a = base[a]
        t = (col[b] - ca + max_dc) * (2 * max_dy + 1) + (yv[b] - ya + max_dy)
        first = start[t]
        last = start[t + 1] - 1
        la2 = location_height2(a, level_a_p, hex_info)
        lb2 = location_height2(b, level_b_p, hex_info)
        higher_is_a, S2, T2, same = pair_order(la2, lb2)
        # an end at ground level IN a depression sees out only across its crest (A6.3)
        group_a = depression_group[a] if level_a_p == 0 and ruleset == RULESET_ASL else -1
        group_b = depression_group[b] if level_b_p == 0 and ruleset == RULESET_ASL else -1
        in_depression = group_a >= 0 or group_b >= 0

        # Continuous slope (B.5): every crossed hex descends one level per hex of range.
        slope = False
        if ruleset == RULESET_ASL and not same:
            slope = asl_continuous_slope(first, last, packed, grid, base_a, ranges, higher_is_a, S2, hex_info)

        lo2 = T2
        hi2 = S2
        slope_hex = -1
        slope_hex2 = -1
        if ruleset == RULESET_VV and lo2 == 0 and hi2 == 4:
            slope_hex, slope_hex2 = vv_slope_hexes(first, last, packed, grid, base_a, higher_is_a, hex_info)
        total = 0
        blocked = False
        blocked_at = -1
        reason = R_NONE
        blind = False
        hard_block = False  # a step blocks outright (not a blind-hex effect)
        finished = False  # the first block ended the walk (``full`` false)
        e = first + 1
        # SMOKE in an end's own hex (ASL A24: fire into or out of a SMOKE hex), when the end's
        # Location is within it; the viewer's counts first, the target's last (section 2)
        smoke_b = 0
        if ruleset == RULESET_ASL:
            smoke_b = end_smoke(b, lb2, hex_info)
            smoke_a = end_smoke(a, la2, hex_info)
            if smoke_a > 0:
                total = smoke_a
                if record:
                    n_rec = record_step(records, n_rec, a, S_INTERIOR, NONE, R_NONE, smoke_a)
                if cap > 0 and total >= cap:
                    blocked, blocked_at, reason = True, a, R_HINDRANCE
                    if not full:
                        finished = True
                        e = last  # no walk
        # both ends at one level, first block ends it: crossed interiors from same_code
        code_row = -1
        if not full and not record and same and 0 <= S2 - level_min < level_row.shape[0]:
            code_row = level_row[S2 - level_min]
        previous_cell = base_a  # cell of the last hex whose interior was crossed
        fast_limit = (lo2 << 8) | 255  # content inert and not above the lower end
        while e < last:
            entry = packed[e]
            k = (entry >> 3) & 3
            cell = base_a + (entry >> 5)
            if code_row >= 0 and k == INTERIOR:
                code = same_code[code_row, cell]
                if code & ENTRY_SIDE_BIT[entry & 7] == 0:  # not entered through a featured hexside
                    code >>= 6
                    if code != 0:
                        if code > CODE_MAX_DRM:
                            reason = same_level_reason(code)
                            blocked, blocked_at, finished = True, grid[cell], True
                            break
                        total += code
                        if cap > 0 and total >= cap:
                            blocked, blocked_at, reason, finished = True, grid[cell], R_HINDRANCE, True
                            break
                    previous_cell = cell
                    e += 1
                    continue
            elif not record:
                key = fast_grid[cell]
                if key <= fast_limit:
                    # fast path: nothing in this hex can matter (or it is off the map)
                    if k == INTERIOR:
                        if key & ENTRY_SIDE_BIT[entry & 7] == 0:  # nor the hexside crossed into it
                            previous_cell = cell
                            e += 1
                            continue
                    elif k == VERTEX:
                        if key & 63 == 0 or ruleset != RULESET_ASL:  # (ASL: no wall line through the vertex)
                            e += 1
                            continue
                    elif key & 63 == 0:
                        key_y = fast_grid[base_a + (packed[e + 1] >> 5)]
                        if key_y <= fast_limit and key_y & 63 == 0:
                            e += 2
                            continue
            h = grid[cell]
            step_effect = NONE
            step_reason = R_NONE
            step_drm = 0
            step_hex = h
            step_kind = S_INTERIOR
            advance = 1
            if k == INTERIOR:
                # the hexside crossed on the way in, if any (section 1 'crossings')
                d = (entry & 7) - 1
                previous = grid[previous_cell]
                if d >= 0 and previous >= 0 and h >= 0 and previous != a and (hs_obst[previous, d] > 0 or hs_hind[previous, d] > 0):
                    x_effect, x_drm = crossing_effect(ruleset, hs_obst[previous, d], hs_hind[previous, d],
                                                      hex_info[previous, H_GROUND2], hex_info[h, H_GROUND2], S2, same,
                                                      slope)
                    if x_effect == BLOCK:
                        hard_block = True
                    if x_effect != NONE or x_drm != 0:
                        total += x_drm
                        if record:
                            n_rec = record_step(records, n_rec, h, S_CROSSING, x_effect,
                                                R_HEXSIDE if x_effect != NONE else R_HINDRANCE, x_drm)
                        if not blocked and (x_effect == BLOCK or (cap > 0 and total >= cap)):
                            blocked = True
                            blocked_at = h
                            reason = R_HEXSIDE if x_effect == BLOCK else R_HINDRANCE
                            if not full:
                                finished = True
                                break
                previous_cell = cell
                if h >= 0:
                    if ruleset == RULESET_ASL:
                        r_s, r_t = ranges_from_higher(ranges[e, 0], ranges[e, 1], higher_is_a)
                        step_effect, step_reason = asl_hex_effect(h, S2, T2, same, slope, r_s, r_t, hex_info, False)
                        if step_effect != BLOCK and in_depression and (
                                depression_bank(h, group_a, hex_info[a, H_GROUND2], neighbours, depression_group, hex_info)
                                or depression_bank(h, group_b, hex_info[b, H_GROUND2], neighbours, depression_group,
                                                   hex_info)):
                            step_effect, step_reason = BLOCK, R_HILL
                        if step_effect != NONE and not full and not blocked:
                            blocked, blocked_at, reason, blind, finished = True, h, step_reason, step_effect == BLIND, True
                            break
                        ht, hsm, hv = asl_hex_hindrance(h, S2, T2, same, slope, False, hex_info)
                        step_drm = ht + hsm + hv
                    else:
                        step_effect, step_reason = simple_hex_effect(h, lo2, hi2, hex_info, units_block, slope_hex, slope_hex2)
                        if ruleset == RULESET_VV:
                            step_drm = hex_info[h, H_HINDRANCE]
            elif k == VERTEX:
                step_kind = S_VERTEX
                if h >= 0 and ruleset == RULESET_ASL:
                    step_effect, step_reason, step_drm, step_hex = asl_vertex_step(
                        h, e, packed, grid, base_a, previous_cell, ranges, higher_is_a, a, b, col, yv, hs_obst,
                        hex_info, S2, T2, same, slope)
            else:
                # a hexside run X|Y: entries e and e + 1
                step_kind = S_RUN
                advance = 2
                x = h
                y = grid[base_a + (packed[e + 1] >> 5)]
                step_hex = x if x >= 0 else y
                run_dir = (entry & 7) - 1
                if ruleset == RULESET_ASL:
                    step_effect, step_reason, step_drm = asl_run_effect(x, y, e, ranges, higher_is_a, S2, T2, same,
                                                                        slope, hex_info)
                    if step_effect != BLOCK and in_depression:
                        for side in (x, y):
                            if side >= 0 and (
                                    depression_bank(side, group_a, hex_info[a, H_GROUND2], neighbours,
                                                    depression_group, hex_info)
                                    or depression_bank(side, group_b, hex_info[b, H_GROUND2], neighbours,
                                                       depression_group, hex_info)):
                                step_effect, step_reason = BLOCK, R_HILL
                                break
                    if step_effect != BLOCK:
                        wall_hex = asl_run_wall_blocks(x, y, run_dir, e, last, packed, grid, base_a, previous_cell,
                                                       ranges, a, b, col, yv, hs_obst, hex_info, S2, same, slope)
                        if wall_hex >= 0:
                            step_effect, step_reason, step_hex = BLOCK, R_HEXSIDE, wall_hex
                else:
                    step_effect, step_reason, step_drm = simple_run_effect(
                        ruleset, x, y, run_dir, lo2, hi2, hex_info, units_block, slope_hex, slope_hex2, hs_obst, hs_hind)
            total += step_drm
            if step_effect == BLOCK:
                hard_block = True
            if record and (step_effect != NONE or step_drm != 0 or step_kind != S_VERTEX):
                if step_hex >= 0:
                    n_rec = record_step(records, n_rec, step_hex, step_kind, step_effect, step_reason, step_drm)
            if not blocked:
                if step_effect != NONE:
                    blocked = True
                    blocked_at = step_hex
                    reason = step_reason
                    blind = step_effect == BLIND
                elif cap > 0 and total >= cap:
                    blocked = True
                    blocked_at = step_hex
                    reason = R_HINDRANCE
                if blocked and not full:
                    finished = True
                    break
            e += advance
        if smoke_b > 0 and not finished:
            total += smoke_b
            if record:
                n_rec = record_step(records, n_rec, b, S_INTERIOR, NONE, R_NONE, smoke_b)
            if not blocked and cap > 0 and total >= cap:
                blocked, blocked_at, reason = True, b, R_HINDRANCE
        if ruleset == RULESET_VV and not finished:
            # V&V 10.10 (section 3): only the firer (end a) ignores its own wall or hedge; the
            # one crossed into the target's hex still adds its DRM
            d = (packed[last] & 7) - 1
            previous = grid[previous_cell]
            x_drm = 0
            if d >= 0 and previous >= 0 and previous != a:
                x_drm = hs_hind[previous, d]
            elif d < 0 and last - first >= 3 and (packed[last - 1] >> 3) & 3 == HEXSIDE:
                # reached at the far vertex of a run X|Y: the target's hexsides with X and Y meet
                # there, and the LOS enters across them (either one's wall/hedge counts, once)
                x = grid[base_a + (packed[last - 2] >> 5)]
                y = grid[base_a + (packed[last - 1] >> 5)]
                for side_d in range(6):
                    n = neighbours[b, side_d]
                    if n >= 0 and n != a and (n == x or n == y) and hs_hind[b, side_d] > x_drm:
                        x_drm = hs_hind[b, side_d]
            if x_drm > 0:
                total += x_drm
                if record:
                    n_rec = record_step(records, n_rec, b, S_CROSSING, NONE, R_HINDRANCE, x_drm)
        if not finished:
            # blind (section 5): blocked, and blind-hex effects are all that block it
            blind = blocked and not hard_block and not (cap > 0 and total >= cap)
        out_blocked[p] = blocked
        out_total[p] = total
        out_at[p] = blocked_at
        out_reason[p] = reason
        out_blind[p] = blind
        out_slope[p] = slope
    return n_rec


@jit
def asl_vertex_step(h, e, packed, grid, base_a, previous_cell, ranges, higher_is_a, a, b, col, yv, hs_obst, hex_info,
                    S2, T2, same, slope):
    """(effect, reason, hindrance DRM, hex where it blocks) of an ASL LOS through a vertex of hex h, template
    entry ``e`` (section 1 'vertices'): the hex's inherent terrain, and a wall crossed at that vertex into the
    hex the next entry enters.

    A function of :func:`evaluate_pairs` called, not written out there: few steps reach it (an inert hex's vertex
    is skipped before), and its rule steps, inlined into every specialisation of the evaluator, cost a share of
    each one's compile.
    """
    r_s, r_t = ranges_from_higher(ranges[e, 0], ranges[e, 1], higher_is_a)
    effect, reason = asl_hex_effect(h, S2, T2, same, slope, r_s, r_t, hex_info, True)
    terrain, smoke, vehicle = asl_hex_hindrance(h, S2, T2, same, slope, True, hex_info)
    at = h
    if effect != BLOCK and (packed[e + 1] >> 3) & 3 == INTERIOR:
        entered = grid[base_a + (packed[e + 1] >> 5)]  # a wall crossed here blocks at this hex
        if asl_vertex_wall_blocks(grid[previous_cell], entered, h, a, b, col, yv, hs_obst, hex_info, S2, same, slope):
            effect, reason, at = BLOCK, R_HEXSIDE, entered
    return effect, reason, terrain + smoke + vehicle, at


@jit
def _matrix_row(ruleset, row, first, last, hexes, levels, tpl, board_tables, counters, out, out_row, buffers):
    """Entries ``first .. last - 1`` of matrix row ``row`` into ``out[out_row]``:
    total hindrance (saturated at 127) or BLOCKED.  ``buffers`` are one
    thread's scratch outputs, at least ``last - first`` long."""
    records, blocked, total, at, reason, blind, slope = buffers
    count = last - first
    evaluate_pairs(ruleset, False, False, hexes[row:row + 1], levels[row:row + 1], 0, hexes[first:last],
                   levels[first:last], 1, tpl, board_tables, counters, records, blocked[:count], total[:count],
                   at[:count], reason[:count], blind[:count], slope[:count])
    for j in range(count):
        if blocked[j]:
            out[out_row, first + j] = BLOCKED
        else:
            out[out_row, first + j] = total[j] if total[j] < MAX_MATRIX_DRM else MAX_MATRIX_DRM


@jit
def pair_buffers(n):
    """One thread's scratch outputs of :func:`evaluate_pairs` for up to n pairs."""
    return (np.zeros((1, 5), np.int32), np.empty(n, np.bool_), np.empty(n, np.int32), np.empty(n, np.int32),
            np.empty(n, np.int8), np.empty(n, np.bool_), np.empty(n, np.bool_))


@jit_parallel(count=lambda ruleset, hexes, *rest: (hexes.shape[0] + 1) // 2,
              work=lambda ruleset, hexes, *rest: 0.05 * hexes.shape[0] ** 2)
def los_matrix_kernel(lo, hi, ruleset, hexes, levels, tpl, board_tables, counters, out):
    """Upper triangle of the N x N matrix over Locations (hindrance or BLOCKED).

    Item k owns rows k and n-1-k (balanced work) and writes only those
    rows; :func:`mirror_lower` then fills the lower triangle.
    """
    n = hexes.shape[0]
    buffers = pair_buffers(n)
    for k in range(lo, hi):
        out[k, k] = 0
        row = np.int64(k)
        _matrix_row(ruleset, row, row + 1, n, hexes, levels, tpl, board_tables, counters, out, row, buffers)
        other = n - 1 - row
        if other != row:
            out[other, other] = 0
            _matrix_row(ruleset, other, other + 1, n, hexes, levels, tpl, board_tables, counters, out, other, buffers)


@jit_parallel(count=lambda out: out.shape[0], min_part=32, work=lambda out: 0.001 * out.size)
def mirror_lower(lo, hi, out):
    """Copy the upper triangle into the lower one; each row writes only itself."""
    for i in range(lo, hi):
        for j in range(i):
            out[i, j] = out[j, i]


#: Pairs per parallel chunk of :func:`los_pairs_kernel`.
CHUNK = 256


@jit_parallel(split=("hex_a", "hex_b", "level_a", "level_b", "out_blocked", "out_hindrance", "out_at", "out_reason",
                     "out_blind", "out_slope"), min_part=CHUNK, work=lambda ruleset, hex_a, *rest: 0.3 * hex_a.shape[0])
def los_pairs_kernel(ruleset, hex_a, hex_b, level_a, level_b, tpl, board_tables, counters,
                     out_blocked, out_hindrance, out_at, out_reason, out_blind, out_slope):
    """Batch of independent pairs, in chunks; each part of the pairs writes only its own slice."""
    n = hex_a.shape[0]
    records = np.zeros((1, 5), np.int32)
    for c in range((n + CHUNK - 1) // CHUNK):
        lo = c * CHUNK
        hi = min(n, lo + CHUNK)
        evaluate_pairs(ruleset, True, False, hex_a[lo:hi], level_a[lo:hi], 1, hex_b[lo:hi], level_b[lo:hi], 1,
                       tpl, board_tables, counters, records, out_blocked[lo:hi], out_hindrance[lo:hi],
                       out_at[lo:hi], out_reason[lo:hi], out_blind[lo:hi], out_slope[lo:hi])


#: :func:`los_pairs_kernel`'s work on the calling thread (at most one chunk of pairs: a call from the wrapper that
#: cuts nothing into parts): its serial kernel itself, so that both share one compiled kernel and evaluator (a
#: kernel of its own with the same body would be one more compile).
los_pairs_serial = los_pairs_kernel.serial


@jit_parallel(split=("out",), offset="row_start", work=lambda *arguments: 0.15 * arguments[-1].size)
def los_rows_kernel(ruleset, hexes, levels, row_start, tpl, board_tables, counters, out):
    """Rows ``row_start .. row_start + out.shape[0]`` of the full matrix (block-wise output)."""
    n = hexes.shape[0]
    buffers = pair_buffers(n)
    for r in range(out.shape[0]):
        i = np.int64(row_start + r)
        out[r, i] = 0
        _matrix_row(ruleset, i, np.int64(0), i, hexes, levels, tpl, board_tables, counters, out, np.int64(r), buffers)
        _matrix_row(ruleset, i, i + 1, n, hexes, levels, tpl, board_tables, counters, out, np.int64(r), buffers)
