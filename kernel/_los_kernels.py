"""numba kernels of the LOS rules (private; see :mod:`kernel.los` for the API).

The rules are those of ``docs/los-semantics.md``; section numbers below refer
to it.  Kernels assume clean inputs: every array has the dtype and length the
wrappers in :mod:`kernel.los` give it, and hex indices are valid.

One evaluator, :func:`evaluate`, walks the trace template of a pair and returns
its status; the bulk kernels call it per pair and the single-LOS API calls it
with ``record=True`` to collect the per-step effects for ``explain()``.
"""

from __future__ import annotations

import numba
import numpy as np

from kernel._jit import jit, jit_inline, jit_parallel
from kernel.trace import HEXSIDE, INTERIOR, VERTEX

# Effects of a step, ordered.
NONE, BLIND, BLOCK = 0, 1, 2
# Reasons (kernel.los.REASONS holds their names).
R_NONE, R_HILL, R_OBSTACLE, R_HEXSIDE, R_BLIND, R_HINDRANCE, R_UNIT = 0, 1, 2, 3, 4, 5, 6
# Record kinds for explain(): step kinds.
S_INTERIOR, S_RUN, S_VERTEX, S_CROSSING = 0, 1, 2, 3
# LOS models.
MODEL_ASL, MODEL_VV, MODEL_CCN = 0, 1, 2

#: Matrix sentinel for a blocked pair.
BLOCKED = -1


@jit_inline
def _asl_hex_effect(h, S2, T2, same, slope, r_s, r_t, ground2, obst_h, inherent_only, obst_inh):
    """(effect, reason) of hex h in an ASL LOS (section 2, 'Effect of a hex')."""
    G = ground2[h]
    oh = obst_h[h]
    if inherent_only:
        if not obst_inh[h]:
            return NONE, R_NONE
    if slope:
        if oh > 0:
            return BLOCK, R_OBSTACLE
        return NONE, R_NONE
    effect = NONE
    reason = R_NONE
    if not inherent_only:
        if G > S2:
            return BLOCK, R_HILL
        if not same and G > T2:
            bound = (2 * G + 2 * (r_s // 5) - S2 - T2) // 2
            if bound < 0:
                bound = 0
            if r_t <= bound:
                effect = BLIND
                reason = R_BLIND
    if oh > 0:
        O = G + oh
        if same:
            if O > S2:
                return BLOCK, R_OBSTACLE
        else:
            if O >= S2:
                return BLOCK, R_OBSTACLE
            if O > T2 and effect == NONE:
                bound = (2 * O + 2 * (r_s // 5) - S2 - T2 + 2) // 2
                if bound < 1:
                    bound = 1
                if r_t <= bound:
                    effect = BLIND
                    reason = R_BLIND
    return effect, reason


@jit_inline
def _applies(top, G, S2, same, slope):
    """Whether a hindrance source whose top is ``top`` counts (section 2)."""
    if slope:
        return True
    if same:
        return top > S2 and G <= S2
    return top >= S2


@jit_inline
def _asl_hex_hindrance(h, S2, T2, same, slope, inherent_only, ground2, hind, hind_top, hind_inh,
                       smoke, smoke_top, vehicle):
    """(terrain, smoke, vehicle) DRMs of hex h that apply; inherent sources only if asked."""
    G = ground2[h]
    terrain = 0
    if hind[h] > 0 and (hind_inh[h] or not inherent_only) and _applies(hind_top[h], G, S2, same, slope):
        terrain = hind[h]
    s = 0
    if smoke[h] > 0 and _applies(smoke_top[h], G, S2, same, slope):
        s = smoke[h]
    v = 0
    if vehicle[h] and ((S2 == T2 and G == S2) or slope):
        v = 1
    return terrain, s, v


@jit_inline
def _range(r_a, r_b, higher_is_a):
    if higher_is_a:
        return r_a, r_b
    return r_b, r_a


@jit_inline
def evaluate(model, a, b, level_a, level_b, full, record, tpl, board_tables, counters,
             rec_hex, rec_kind, rec_effect, rec_reason, rec_drm):
    """Evaluate one LOS; returns (blocked, hindrance, blocked_at, reason, blind, slope, n_records).

    ``tpl`` = (grid_flat, base, start, packed, range_a, range_b, max_dc, max_dy), with
    ``packed[e] = offset << 5 | kind << 3 | (cross + 1)`` (see kernel.trace);
    ``board_tables`` = (col, y, ground2, obst_h, obst_inh, hind, hind_top, hind_inh,
    hs_obst, hs_hind, cap, units_block, hs_any); ``counters`` = (smoke, smoke_top,
    vehicle, units, inert) where ``inert[h]`` is the hex's ground (half levels)
    when nothing in it or on its hexsides can affect a LOS, else 32767: such a
    hex is skipped whenever it is not above the lower end.
    With ``full`` false it returns at the first block (hindrance then partial).
    """
    grid, base, start, packed, range_a, range_b, max_dc, max_dy = tpl
    col, yv, ground2, obst_h, obst_inh, hind, hind_top, hind_inh, hs_obst, hs_hind, cap, units_block, hs_any = board_tables
    smoke, smoke_top, vehicle, units, inert = counters
    n_rec = 0
    if a == b:
        return False, 0, -1, R_NONE, False, False, 0
    ca = col[a]
    ya = yv[a]
    base_a = base[a]
    t = (col[b] - ca + max_dc) * (2 * max_dy + 1) + (yv[b] - ya + max_dy)
    first = start[t]
    last = start[t + 1] - 1
    la2 = ground2[a] + 2 * level_a
    lb2 = ground2[b] + 2 * level_b
    higher_is_a = la2 >= lb2
    S2 = la2 if higher_is_a else lb2
    T2 = lb2 if higher_is_a else la2
    same = S2 == T2

    # Continuous slope (B.5): every crossed hex descends one level per hex of range.
    slope = False
    if model == MODEL_ASL and not same:
        slope = True
        crossed = 0
        for e in range(first + 1, last):
            entry = packed[e]
            if (entry >> 3) & 3 == VERTEX:
                continue
            h = grid[base_a + (entry >> 5)]
            if h < 0:
                continue
            r_s, r_t = _range(range_a[e], range_b[e], higher_is_a)
            if S2 - ground2[h] != 2 * r_s:
                slope = False
                break
            crossed += 1
        if crossed == 0:
            slope = False

    lo2 = T2
    hi2 = S2
    # V&V 10.7: the first crossed hex at level 1 of a ground <-> Level 2 LOS is a slope hex
    slope_hex = -1
    if model == MODEL_VV and lo2 == 0 and hi2 == 4:
        for e in range(first + 1, last):
            entry = packed[e]
            if (entry >> 3) & 3 == VERTEX:
                continue
            h = grid[base_a + (entry >> 5)]
            if h >= 0 and ground2[h] == 2:
                slope_hex = h
                break
    total = 0
    blocked = False
    blocked_at = -1
    reason = R_NONE
    blind = False
    hard_block = False  # a step blocks outright (not a blind-hex effect)
    previous = a
    e = first + 1
    while e < last:
        entry = packed[e]
        k = (entry >> 3) & 3
        h = grid[base_a + (entry >> 5)]
        if not record and h >= 0 and inert[h] <= lo2:
            # fast path: nothing in this hex or on its hexsides can matter
            if k == INTERIOR:
                previous = h
                e += 1
                continue
            elif k == VERTEX:
                e += 1
                continue
            else:
                y2 = grid[base_a + (packed[e + 1] >> 5)]
                if y2 < 0 or inert[y2] <= lo2:
                    e += 2
                    continue
        step_effect = NONE
        step_reason = R_NONE
        step_drm = 0
        step_hex = h
        step_kind = S_INTERIOR
        advance = 1
        if k == INTERIOR:
            # the hexside crossed on the way in, if any (section 1 'crossings')
            d = (entry & 7) - 1
            if d >= 0 and previous >= 0 and h >= 0 and previous != a and hs_any[previous, d]:
                x_effect = NONE
                x_drm = 0
                if model == MODEL_ASL:
                    oh = hs_obst[previous, d]
                    if oh > 0:
                        base = ground2[previous] if ground2[previous] > ground2[h] else ground2[h]
                        O = base + oh
                        if slope or (same and O > S2) or ((not same) and O >= S2):
                            x_effect = BLOCK
                elif model == MODEL_VV:
                    if hs_obst[previous, d] > 0:
                        x_effect = BLOCK
                    x_drm = hs_hind[previous, d]
                if x_effect == BLOCK:
                    hard_block = True
                if x_effect != NONE or x_drm != 0:
                    total += x_drm
                    if record:
                        rec_hex[n_rec] = h
                        rec_kind[n_rec] = S_CROSSING
                        rec_effect[n_rec] = x_effect
                        rec_reason[n_rec] = R_HEXSIDE if x_effect != NONE else R_HINDRANCE
                        rec_drm[n_rec] = x_drm
                        n_rec += 1
                    if not blocked and (x_effect == BLOCK or (cap > 0 and total >= cap)):
                        blocked = True
                        blocked_at = h
                        reason = R_HEXSIDE if x_effect == BLOCK else R_HINDRANCE
                        if not full:
                            return blocked, total, blocked_at, reason, blind, slope, n_rec
            previous = h
            if h >= 0:
                if model == MODEL_ASL:
                    r_s, r_t = _range(range_a[e], range_b[e], higher_is_a)
                    step_effect, step_reason = _asl_hex_effect(h, S2, T2, same, slope, r_s, r_t, ground2, obst_h, False, obst_inh)
                    if step_effect != NONE and not full and not blocked:
                        return True, total, h, step_reason, step_effect == BLIND, slope, n_rec
                    ht, hsm, hv = _asl_hex_hindrance(h, S2, T2, same, slope, False, ground2, hind, hind_top, hind_inh, smoke, smoke_top, vehicle)
                    step_drm = ht + hsm + hv
                else:
                    step_effect, step_reason = _simple_hex_effect(h, lo2, hi2, ground2, obst_h, units, units_block, slope_hex)
                    if model == MODEL_VV:
                        step_drm = hind[h]
        elif k == VERTEX:
            step_kind = S_VERTEX
            if h >= 0 and model == MODEL_ASL:
                r_s, r_t = _range(range_a[e], range_b[e], higher_is_a)
                step_effect, step_reason = _asl_hex_effect(h, S2, T2, same, slope, r_s, r_t, ground2, obst_h, True, obst_inh)
                ht, hsm, hv = _asl_hex_hindrance(h, S2, T2, same, slope, True, ground2, hind, hind_top, hind_inh, smoke, smoke_top, vehicle)
                step_drm = ht + hsm + hv
        else:
            # a hexside run X|Y: entries e and e + 1
            step_kind = S_RUN
            advance = 2
            x = h
            y = grid[base_a + (packed[e + 1] >> 5)]
            step_hex = x if x >= 0 else y
            run_dir = (entry & 7) - 1
            if model == MODEL_ASL:
                ex = NONE
                rx = R_NONE
                ey = NONE
                ry = R_NONE
                ix = NONE
                iy = NONE
                rix = R_NONE
                riy = R_NONE
                tx = 0
                sx = 0
                vx = 0
                ty = 0
                sy = 0
                vy = 0
                x_inh = False
                y_inh = False
                if x >= 0:
                    r_s, r_t = _range(range_a[e], range_b[e], higher_is_a)
                    ex, rx = _asl_hex_effect(x, S2, T2, same, slope, r_s, r_t, ground2, obst_h, False, obst_inh)
                    ix, rix = _asl_hex_effect(x, S2, T2, same, slope, r_s, r_t, ground2, obst_h, True, obst_inh)
                    tx, sx, vx = _asl_hex_hindrance(x, S2, T2, same, slope, False, ground2, hind, hind_top, hind_inh, smoke, smoke_top, vehicle)
                    x_inh = hind_inh[x]
                if y >= 0:
                    r_s, r_t = _range(range_a[e + 1], range_b[e + 1], higher_is_a)
                    ey, ry = _asl_hex_effect(y, S2, T2, same, slope, r_s, r_t, ground2, obst_h, False, obst_inh)
                    iy, riy = _asl_hex_effect(y, S2, T2, same, slope, r_s, r_t, ground2, obst_h, True, obst_inh)
                    ty, sy, vy = _asl_hex_hindrance(y, S2, T2, same, slope, False, ground2, hind, hind_top, hind_inh, smoke, smoke_top, vehicle)
                    y_inh = hind_inh[y]
                # A6.1: both sides needed; B.6: inherent counts from one side
                step_effect = ex if ex <= ey else ey
                if y < 0 or x < 0:
                    step_effect = NONE
                if ix > step_effect:
                    step_effect = ix
                if iy > step_effect:
                    step_effect = iy
                if step_effect != NONE:
                    # the reason of the first side whose own effect reaches the run's
                    if x >= 0 and ex >= step_effect:
                        step_reason = rx
                    else:
                        step_reason = ry
                    if step_effect == BLIND:
                        step_reason = R_BLIND
                # hindrance along the hexside, counted once (B.6): per source,
                # max(min(X, Y), inherent X, inherent Y)
                terrain = tx if tx < ty else ty
                if x_inh and tx > terrain:
                    terrain = tx
                if y_inh and ty > terrain:
                    terrain = ty
                step_drm = terrain + (sx if sx > sy else sy) + (1 if (vx + vy) > 0 else 0)
            else:
                bx = False
                by = False
                hx = False
                hy = False
                rx = R_NONE
                ry = R_NONE
                if x >= 0:
                    ef, rx = _simple_hex_effect(x, lo2, hi2, ground2, obst_h, units, units_block, slope_hex)
                    bx = ef == BLOCK
                    hx = model == MODEL_VV and hind[x] > 0
                if y >= 0:
                    ef, ry = _simple_hex_effect(y, lo2, hi2, ground2, obst_h, units, units_block, slope_hex)
                    by = ef == BLOCK
                    hy = model == MODEL_VV and hind[y] > 0
                if bx and by:
                    step_effect = BLOCK
                    step_reason = rx
                elif ((bx or hx) and hy) or ((by or hy) and hx):
                    step_drm = 1
                if model == MODEL_VV and run_dir >= 0:
                    side = x if x >= 0 else y
                    side_dir = run_dir if x >= 0 else (run_dir + 3) % 6
                    if side >= 0:
                        if hs_obst[side, side_dir] > 0 and step_effect == NONE:
                            step_effect = BLOCK
                            step_reason = R_HEXSIDE
                        step_drm += hs_hind[side, side_dir]
        total += step_drm
        if step_effect == BLOCK:
            hard_block = True
        if record and (step_effect != NONE or step_drm != 0 or step_kind != S_VERTEX):
            if step_hex >= 0:
                rec_hex[n_rec] = step_hex
                rec_kind[n_rec] = step_kind
                rec_effect[n_rec] = step_effect
                rec_reason[n_rec] = step_reason
                rec_drm[n_rec] = step_drm
                n_rec += 1
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
                return blocked, total, blocked_at, reason, blind, slope, n_rec
        e += advance
    # blind (section 5): blocked, and blind-hex effects are all that block it
    blind = blocked and not hard_block and not (cap > 0 and total >= cap)
    return blocked, total, blocked_at, reason, blind, slope, n_rec


@jit_inline
def _simple_hex_effect(h, lo2, hi2, ground2, obst_h, units, units_block, slope_hex):
    """(effect, reason) of hex h for V&V (section 3) and CCN (section 4)."""
    G = ground2[h]
    if G > hi2:
        return BLOCK, R_HILL
    if G > lo2 and h != slope_hex:
        return BLOCK, R_HILL
    if obst_h[h] > 0:
        return BLOCK, R_OBSTACLE
    if units_block and units[h]:
        return BLOCK, R_UNIT
    return NONE, R_NONE


@jit_inline
def _matrix_value(model, i, j, hexes, levels, tpl, board_tables, counters, dummy_i, dummy_b, dummy_h):
    """Matrix entry of Locations i -> j: total hindrance (saturated at 127) or BLOCKED."""
    blocked, total, at, reason, blind, slope, nr = evaluate(
        model, hexes[i], hexes[j], levels[i], levels[j], False, False, tpl, board_tables,
        counters, dummy_i, dummy_b, dummy_b, dummy_b, dummy_h)
    if blocked:
        return BLOCKED
    return total if total < 127 else 127


@jit
def _matrix_row(model, row, hexes, levels, tpl, board_tables, counters, out, dummy_i, dummy_b, dummy_h):
    out[row, row] = 0
    for j in range(row + 1, hexes.shape[0]):
        out[row, j] = _matrix_value(model, row, j, hexes, levels, tpl, board_tables, counters, dummy_i, dummy_b, dummy_h)


@jit_parallel
def los_matrix_kernel(model, hexes, levels, tpl, board_tables, counters, out):
    """Upper triangle of the N x N matrix over Locations (hindrance or BLOCKED).

    Iteration k owns rows k and n-1-k (balanced work) and writes only those
    rows; :func:`mirror_lower` then fills the lower triangle.
    """
    n = hexes.shape[0]
    for k in numba.prange((n + 1) // 2):
        dummy_i = np.zeros(1, np.int32)
        dummy_b = np.zeros(1, np.int8)
        dummy_h = np.zeros(1, np.int16)
        _matrix_row(model, k, hexes, levels, tpl, board_tables, counters, out, dummy_i, dummy_b, dummy_h)
        if n - 1 - k != k:
            _matrix_row(model, n - 1 - k, hexes, levels, tpl, board_tables, counters, out, dummy_i, dummy_b, dummy_h)


@jit_parallel
def mirror_lower(out):
    """Copy the upper triangle into the lower one; each row writes only itself."""
    n = out.shape[0]
    for i in numba.prange(n):
        for j in range(i):
            out[i, j] = out[j, i]


@jit_parallel
def los_pairs_kernel(model, hex_a, hex_b, level_a, level_b, tpl, board_tables, counters,
                     out_blocked, out_hindrance, out_at, out_reason, out_blind, out_slope):
    """Batch of independent pairs; each iteration writes only its own slot."""
    dummy_i = np.zeros(1, np.int32)
    dummy_b = np.zeros(1, np.int8)
    dummy_h = np.zeros(1, np.int16)
    for p in numba.prange(hex_a.shape[0]):
        blocked, total, at, reason, blind, slope, nr = evaluate(
            model, hex_a[p], hex_b[p], level_a[p], level_b[p], True, False, tpl, board_tables, counters,
            dummy_i, dummy_b, dummy_b, dummy_b, dummy_h)
        out_blocked[p] = blocked
        out_hindrance[p] = total
        out_at[p] = at
        out_reason[p] = reason
        out_blind[p] = blind
        out_slope[p] = slope


@jit_parallel
def los_rows_kernel(model, hexes, levels, row_start, tpl, board_tables, counters, out):
    """Rows ``row_start .. row_start + out.shape[0]`` of the full matrix (block-wise output)."""
    n = hexes.shape[0]
    for r in numba.prange(out.shape[0]):
        dummy_i = np.zeros(1, np.int32)
        dummy_b = np.zeros(1, np.int8)
        dummy_h = np.zeros(1, np.int16)
        i = row_start + r
        for j in range(n):
            if i == j:
                out[r, j] = 0
            else:
                out[r, j] = _matrix_value(model, i, j, hexes, levels, tpl, board_tables, counters,
                                          dummy_i, dummy_b, dummy_h)


@jit_parallel
def field_of_fire_kernel(model, sources, source_levels, targets, target_levels, tpl, board_tables, counters,
                         out_visible, out_hindrance, out_source):
    """Best LOS from any source to each target; iteration j writes only target j.

    The best source is the visible one with the least hindrance (ties: the
    first source listed).
    """
    for j in numba.prange(targets.shape[0]):
        dummy_i = np.zeros(1, np.int32)
        dummy_b = np.zeros(1, np.int8)
        dummy_h = np.zeros(1, np.int16)
        best = -1
        best_total = 0
        for s in range(sources.shape[0]):
            blocked, total, at, reason, blind, slope, nr = evaluate(
                model, sources[s], targets[j], source_levels[s], target_levels[j], False, False, tpl,
                board_tables, counters, dummy_i, dummy_b, dummy_b, dummy_b, dummy_h)
            if not blocked and (best < 0 or total < best_total):
                best = s
                best_total = total
        out_visible[j] = best >= 0
        out_hindrance[j] = best_total if best >= 0 else BLOCKED
        out_source[j] = best
