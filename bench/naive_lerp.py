"""Baseline: the usual floating-point "lerp" LOS kernel, for speed and accuracy comparison.

This is how many hex engines trace LOS: sample ``range + 1`` points evenly
along the centre-to-centre line in cube coordinates, nudge them by a small
epsilon so points on a hexside fall to one side, round each to a hex, and
apply the ASL rules to the sampled hexes as if the line crossed their
interiors (the hex rules of ``docs/los-semantics.md`` section 2, height
advantage and orchards included; no hexside runs, vertex touches,
continuous slopes or depression banks; walls are checked between
consecutive samples).  It is compiled with the same numba options and reads
the same board arrays as the exact kernel, so the timing comparison in
``bench/bench_los.py`` is like for like; its results differ from the exact
kernel on the pairs where sampling misses or invents a hex.
"""

from __future__ import annotations

import numba
import numpy as np

from kernel._jit import jit, jit_parallel

BLOCKED = -1
EPSILON = (1e-6, 2e-6, -3e-6)


@jit
def _cube_round(fq, fr, fs):
    q = np.round(fq)
    r = np.round(fr)
    s = np.round(fs)
    dq = abs(q - fq)
    dr = abs(r - fr)
    ds = abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return int(q), int(r)


@jit
def _pair(i, j, q, r, grid, q_min, r_min, ground2, obst_h, obst_above, hind, hind_top, hs_obst, neighbours, cap):
    n = max(abs(q[j] - q[i]), abs(r[j] - r[i]), abs((q[j] + r[j]) - (q[i] + r[i])))
    S2 = max(ground2[i], ground2[j])
    T2 = min(ground2[i], ground2[j])
    higher_is_i = ground2[i] >= ground2[j]
    same = S2 == T2
    total = 0
    previous = i
    for k in range(1, n):
        t = k / n
        fq = q[i] + (q[j] - q[i]) * t + EPSILON[0]
        fr = r[i] + (r[j] - r[i]) * t + EPSILON[1]
        fs = -fq - fr + EPSILON[2]
        hq, hr = _cube_round(fq, fr, fs)
        h = grid[hq - q_min, hr - r_min]
        if h < 0 or h == i or h == j:
            continue
        # wall between consecutive samples (not on the ends' own hexsides)
        if previous != i:
            for d in range(6):
                if neighbours[previous, d] == h and hs_obst[previous, d] > 0:
                    base = max(ground2[previous], ground2[h])
                    if (same and base + hs_obst[previous, d] > S2) or (not same and base + hs_obst[previous, d] >= S2):
                        return BLOCKED
        previous = h
        G = ground2[h]
        if G > S2 or (not same and G == S2):  # A6.2: above both ends, or height advantage
            return BLOCKED
        r_s = k if higher_is_i else n - k
        r_t = n - r_s
        if not same and G > T2:
            if r_t <= max((2 * G + 2 * (r_s // 5) - S2 - T2) // 2, 0):
                return BLOCKED
        height = obst_h[h]
        if not same and S2 > G and obst_above[h] > height:  # B14.2: orchards from higher ground
            height = obst_above[h]
        if height > 0:
            O = G + height
            if (same and O > S2) or (not same and O >= S2):
                return BLOCKED
            if not same and T2 < O < S2:
                if r_t <= max((2 * O + 2 * (r_s // 5) - S2 - T2 + 2) // 2, 1):
                    return BLOCKED
        if hind[h] > 0:
            top = hind_top[h]
            if (same and top > S2 and G <= S2) or (not same and top >= S2):
                total += hind[h]
                if cap > 0 and total >= cap:
                    return BLOCKED
    return total


@jit
def _lerp_row(row, q, r, grid, q_min, r_min, ground2, obst_h, obst_above, hind, hind_top, hs_obst, neighbours, cap, out):
    out[row, row] = 0
    for j in range(row + 1, q.shape[0]):
        value = _pair(row, j, q, r, grid, q_min, r_min, ground2, obst_h, obst_above, hind, hind_top, hs_obst, neighbours, cap)
        out[row, j] = value if value < 127 else 127


@jit_parallel
def lerp_matrix_kernel(q, r, grid, q_min, r_min, ground2, obst_h, obst_above, hind, hind_top, hs_obst, neighbours, cap, out):
    """Upper triangle by balanced row pairs, then mirrored: the exact kernel's layout."""
    n = q.shape[0]
    for k in numba.prange((n + 1) // 2):
        k = np.int64(k)
        _lerp_row(k, q, r, grid, q_min, r_min, ground2, obst_h, obst_above, hind, hind_top, hs_obst, neighbours, cap, out)
        if n - 1 - k != k:
            _lerp_row(n - 1 - k, q, r, grid, q_min, r_min, ground2, obst_h, obst_above, hind, hind_top, hs_obst, neighbours, cap, out)
    for i in numba.prange(n):
        for j in range(i):
            out[i, j] = out[j, i]


def lerp_los_matrix(board) -> np.ndarray:
    """Ground-level LOS matrix of an ASL board by lerp sampling (int8, BLOCKED = -1)."""
    q = board.col.astype(np.int64)
    r = ((board.y.astype(np.int64) - q - 1) // 2)
    q_min, r_min = int(q.min()), int(r.min())
    grid = np.full((int(q.max()) - q_min + 1, int(r.max()) - r_min + 1), -1, np.int64)
    grid[q - q_min, r - r_min] = np.arange(len(board))
    ground2 = (2 * board.ground_level).astype(np.int64)
    hind_top = ground2 + board.hindrance_height
    hs_obst = np.zeros((len(board), 6), np.int64)
    rs = board.ruleset
    for k, height in enumerate(rs.hexside_height):
        if rs.hexside_los_role[k] == 2:
            has = (board.hexside & np.uint16(1 << k)) != 0
            hs_obst = np.where(has, np.maximum(hs_obst, height), hs_obst)
    out = np.empty((len(board), len(board)), np.int8)
    lerp_matrix_kernel(q, r, grid, q_min, r_min, ground2, board.obstacle_height.astype(np.int64),
                       board.obstacle_from_above.astype(np.int64), board.hindrance.astype(np.int64), hind_top.astype(np.int64), hs_obst,
                       board.neighbours.astype(np.int64), int(rs.rules["hindrance_cap"]), out)
    return out
