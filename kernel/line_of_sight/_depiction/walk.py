"""numba kernels of the depiction LOS model: the LOS read off a map's drawn art, pixel by pixel (private).

See :mod:`kernel.line_of_sight.depiction` for the API and the rules. A LOS between hexes ``a < b`` (always walked
from the smaller index, so the matrix is symmetric by construction) visits the pixels of ``A + i / n * (B - A)``,
``i = 1 .. n - 1``, on the segment between the centre dots ``A`` and ``B`` (``n = ceil(max(|dx|, |dy|))``): with
drawn art, pixel ``(x, y)`` covers ``[x, x + 1) x [y, y + 1)`` (VASL's), the points rounded down, each pixel judged
at its centre; without, the points rounded, each pixel judged at itself (``pixel_point``, as the rasteriser). A
pixel belongs to a hex of the exact trace (one whose closed hexagon the segment meets): the one whose centre dot is
nearest that point (ties: smaller lattice x, then y), :func:`kernel.maps.art.pixel_hexes` unless that hex misses the
segment (:func:`.pixel_geometry.walk_hex`). The ends' hexes' pixels never count, except those of a class whose
terrain is an obstacle even there (``class_own``: a rowhouse's wall between two hexes, B23.71): they block when
that end lies below their top; ``hex_own`` marks the ends whose pixels near their centre dot are walked. Every other
pixel is judged as a hex of its own at its own ground level, with the rule steps of
:mod:`kernel.line_of_sight._hex.rules` (``asl_hex_effect``, ``asl_hex_hindrance``) reading one row of ``pixel_info``
(laid out like ``hex_info``: a row per pixel class and elevation), ranges counted in hexes from the pixel's hex. A
wall or hedge pixel (``class_wall`` > 0) is an obstacle half a level above its ground that makes no blind hexes and
is ignored when the hexside of its hex nearest it touches either end's hex: one of the end's own hexsides or one
running out from one of its vertices (B9.2 as VASL's engine applies it), or when it lies near the far vertex of such
a walled hexside that is not walled all round (``far_open``, B9). Ground at the higher end's level in a lower hex
next to it is that end's crest line, no height advantage (B10.2 EXC; not toward a lower end in a depression), and
inherent terrain art counts only in a hex of that terrain (``class_inherent``, ``hex_terrain``; B.6). An end at
level 0 of a depression hex is in its depression: the pixels of its banks above its ground block
(``_rules.depression_bank``, over the hexes' ground levels in ``counter_info``). SMOKE and vehicles
(``counter_info``, laid out like ``hex_info``, read only when ``has_counters``) count once per hex the walk meets,
with the hex's ground level; SMOKE in an end's own hex counts as in the hex model (A24): the walk's first end before
the walk, the other after it. Terrain hindrance counts once per hex holding an applicable hindrance pixel, at the
largest such pixel's DRM, the two hexes beside a hexside the LOS runs exactly along counting as one (B.6,
``hexside_run_key``), where their own inherent hindrance (``counter_info``) counts whatever their art (B.6); a hex
the segment touches at a vertex alone hinders only with inherent terrain (B.6, ``vertex_touch``); ``cap`` (at least
1) blocks. With ``per_range`` (VASL's reading) it counts once per range from the higher end instead, and only hexes
nearer both ends than they are to each other; VASL's reading also judges no pixel as under a continuous slope
(the slope is only reported), reads a pixel inside an end's extended border as that end's hex, judges the hexes
beside a hexside the LOS runs along as their inherent terrain (:mod:`.vasl_runs`), ignores the other end's
walls between two hexes (``class_own``) next to a rooftop end, and keeps no lower end in its depression when
the other end is at least as many whole levels higher as the range (A6.3 as VASL applies it).
"""

from __future__ import annotations

import numba
import numpy as np

from kernel._dtypes import MAX_MATRIX_DRM, LEVEL_BIAS
from kernel._jit import jit, jit_inline, jit_parallel
from kernel.grid.pixels import UNIT_X, UNIT_Y
from kernel.line_of_sight._depiction.steps import (  # noqa: F401 (the log's layout is read through this module)
    COUNTED_SIZE, COUNTERS, HEXSIDE_RUN, KEPT_DRM, LOG_CLASS, LOG_COLUMNS, LOG_DRM, LOG_EFFECT, LOG_HEX,
    LOG_LAST_PIXEL, LOG_LEVEL, LOG_REASON, LOG_X0, LOG_X1, LOG_Y0, LOG_Y1, MAX_HINDRANCE_HEXES, add_end_smoke,
    log_run, scratch_size, walked_pixel,
)
from kernel.line_of_sight._depiction.pixel_geometry import VASL_ROW_TIE
from kernel.line_of_sight._depiction.pixel_steps import entered_hex, judge_pixel, own_hex_wall, pixel_hex
from kernel.line_of_sight._depiction.walk_setup import continuous_slope, walk_ends, walk_span
from kernel.line_of_sight._hex.rules import BLOCK, BLOCKED, R_HINDRANCE, R_NONE, R_OBSTACLE
from kernel.line_of_sight._depiction.vasl_runs import vasl_end_hex
from kernel.maps._art_kernels import pixel_point


@jit
def depiction_walk(record, log, a, la2, b, lb2, t, per_range, counted):
    """The depiction LOS between a at la2 and b at lb2 half levels over tables ``t``
    (:class:`~kernel.line_of_sight._depiction.tables.DepictionTables`; ``per_range`` is ``t.per_range``, passed
    apart so that a caller can make it a constant): ``(blocked, hindrance, reason, hex where blocked, continuous
    slope, log rows written)``.  With ``record`` the steps go to ``log`` (rows of ``LOG_COLUMNS``; at least twice
    the walk's pixels plus two rows), else ``log`` is never touched.

    The steps: the segment and its pixels (:func:`.walk_setup.walk_span`), the ends' heights and depressions
    (:func:`.walk_setup.walk_ends`), the continuous slope (:func:`.walk_setup.continuous_slope`), SMOKE in the
    first end's hex, then per walked pixel its hex (:func:`.pixel_steps.pixel_hex`; an end's: only a wall between
    two hexes there counts, :func:`.pixel_steps.own_hex_wall`), the steps of a hex entered
    (:func:`.pixel_steps.entered_hex`) and the pixel judged (:func:`.pixel_steps.judge_pixel`), and last SMOKE in
    the other end's hex."""
    n_log = np.int64(0)   # not a literal: the steps it is passed to compile once for it, as for a count
    if a == b:
        return False, 0, R_NONE, -1, False, n_log
    if a > b:
        a, b = b, a
        la2, lb2 = lb2, la2
    span = walk_span(a, b, t, per_range, counted)
    ends = walk_ends(a, la2, b, lb2, span.full_range, t, per_range)
    slope = False
    if not ends.same:
        slope = continuous_slope(a, b, span, ends, t, per_range, counted)
    judge_slope = slope and not per_range   # VASL: a continuous slope is reported, never judged
    has_counters = t.has_counters
    total = np.int64(0)   # (as n_log)
    # SMOKE in the first end's own hex (A24), before the walk
    if has_counters:
        total, blocks, n_log = add_end_smoke(a, la2, total, t.cap, record, log, n_log, t.counter_info)
        if blocks:
            return True, total, R_HINDRANCE, a, slope, n_log
    n_counted = np.int64(0)   # (as n_log)
    cached_hex = -1
    cached_x = 0.0
    cached_y = 0.0
    range_a = 0
    range_b = 0
    last_hex = -1
    last_row = -1
    last_counter_hex = -1
    n_counter_hexes = np.int64(0)   # (as n_log)
    run = -1   # the log row of the run the last judged pixel extended (record only)
    ddx, ddy = span.ddx, span.ddy
    along_hexsides = (not per_range) and (ddy == 0 or abs(ddx) == abs(ddy))   # 0 or +-60 degrees: B.6
    # VASL: a rooftop (odd half levels) is no building Location; next to it the other end's walls never count
    own_ignored = per_range and span.full_range == 1 and ((la2 | lb2) & 1) == 1
    vasl_run = per_range and (ddy == 0 or abs(ddx) == abs(ddy))   # VASL's reading of the same (.vasl_runs)
    last_run_hex = -1
    last_run_g = -1 << 20
    for i in range(span.i_first, span.i_last + 1):
        x, y = walked_pixel(i, per_range, counted, span.steps, span.ax, span.ay, span.dx, span.dy, span.width,
                            span.height, t.squares)
        word = t.pixels[y, x]
        # open ground not above the lower end (under a continuous slope: no higher than a depression's
        # ground, where an end is in one): nothing here can matter but a hex's counters
        open_ground = word < 256 and (2 * (word - LEVEL_BIAS) <= ends.T2 or (
            judge_slope and 2 * (word - LEVEL_BIAS) <= ends.bank_floor2))
        if open_ground and not has_counters and not along_hexsides and not vasl_run:
            continue
        c = word >> 8
        g = (word & 0xFF) - LEVEL_BIAS
        qx, qy = pixel_point(x, y, span.width, span.height, span.off)   # as the rasteriser
        if per_range:
            qy += VASL_ROW_TIE   # VASL's engine: a pixel on the hexside between two hexes of a column is the lower's
        cached_hex, cached_x, cached_y, range_a, range_b = pixel_hex(qx, qy, a, b, span, t, cached_hex, cached_x,
                                                                     cached_y, range_a, range_b)
        if cached_hex < 0:
            continue
        h = cached_hex
        if per_range and h != a and h != b:
            end = vasl_end_hex(x, y, a, b, t.lat_x, t.lat_y)   # VASL: an end's hex reaches a pixel past its hexsides
            if end >= 0:
                h = end
        if h == a or h == b:
            if own_hex_wall(h, c, g, a, la2, lb2, own_ignored, t):
                if record:
                    n_log = log_run(log, n_log, h, c, g, x, y, i, BLOCK, R_OBSTACLE)[1]
                return True, total, R_OBSTACLE, h, slope, n_log
            continue
        if (has_counters and h != last_counter_hex) or (along_hexsides and h != last_run_hex) or (
                vasl_run and (h != last_run_hex or g != last_run_g)):
            (blocked, reason, at, total, n_log, run, n_counted, n_counter_hexes, last_counter_hex, last_run_hex,
             last_run_g) = entered_hex(h, g, a, b, span, ends, judge_slope, range_a, range_b, along_hexsides,
                                       vasl_run, t, per_range, record, log, n_log, total, run, counted, n_counted,
                                       n_counter_hexes, last_counter_hex, last_run_hex, last_run_g)
            if blocked:
                return True, total, reason, at, slope, n_log
        if open_ground:
            continue
        blocked, reason, total, n_log, run, n_counted, row = judge_pixel(
            i, x, y, qx, qy, h, c, g, a, b, span, ends, judge_slope, range_a, range_b, last_hex, last_row, t,
            per_range, record, log, n_log, run, total, counted, n_counted)
        if blocked:
            return True, total, reason, h, slope, n_log
        last_hex = h
        last_row = row
    # SMOKE in the other end's own hex (A24), after the walk
    if has_counters:
        total, blocks, n_log = add_end_smoke(b, lb2, total, t.cap, record, log, n_log, t.counter_info)
        if blocks:
            return True, total, R_HINDRANCE, b, slope, n_log
    return False, total, R_NONE, -1, slope, n_log


@jit_inline
def depiction_pair(a, la2, b, lb2, t, counted, log):
    """(blocked, hindrance, reason, hex where blocked, continuous slope) of the LOS between a at la2 and b at
    lb2 half levels over tables ``t`` (:func:`depiction_walk`, nothing recorded; ``counted`` is a scratch array
    of :func:`scratch_size`, ``log`` any 2-D int64 array, never written: ``counted.reshape((-1, 1))`` made once
    per row or chunk, not per pair)."""
    # the walk is a compiled function of its own (each IR-inlined copy cost 10-20 s of compiling), given
    # ``per_range`` as a constant: its choice of pixels is made once per pair, not per pixel (25-30 % faster)
    a, b = np.int64(a), np.int64(b)  # as the recorded walk gets them: the helpers the walks call compile once
    if t.per_range:
        blocked, total, reason, at, slope, n_log = depiction_walk(False, log, a, la2, b, lb2, t, True, counted)
    else:
        blocked, total, reason, at, slope, n_log = depiction_walk(False, log, a, la2, b, lb2, t, False, counted)
    return blocked, total, reason, at, slope


@jit
def depiction_recorded(a, la2, b, lb2, t):
    """One depiction LOS with its steps over tables ``t``: ``(blocked, hindrance, reason, hex where blocked,
    continuous slope, log)``, ``log`` (int64, ``LOG_COLUMNS`` columns) holding the steps in walking order."""
    dx = (t.lat_x[b] - t.lat_x[a]) * UNIT_X
    dy = (t.lat_y[b] - t.lat_y[a]) * UNIT_Y
    steps = int(np.ceil(max(abs(dx), abs(dy))))
    # at most one run and one counters step per pixel (VASL's trace: 2 steps + 4 pixels), and both ends' SMOKE
    log = np.zeros((4 * steps + 10, LOG_COLUMNS), np.int64)
    counted = np.empty(scratch_size(t.pixels), np.int64)
    blocked, total, reason, at, slope, n_log = depiction_walk(True, log, a, la2, b, lb2, t, t.per_range, counted)
    return blocked, total, reason, at, slope, log[:n_log]


@jit
def _matrix_row(row, first, last, hexes, levels2, t, out, out_row, counted):
    a = hexes[row]
    log = counted.reshape((-1, 1))  # never written: nothing is recorded
    for j in range(first, last):
        blocked, total, reason, at, slope = depiction_pair(a, levels2[row], hexes[j], levels2[j], t, counted, log)
        if blocked:
            out[out_row, j] = BLOCKED
        else:
            out[out_row, j] = total if total < MAX_MATRIX_DRM else MAX_MATRIX_DRM


# numba's own parallel loops here and in depiction_pairs_kernel: as serial kernels run in parts they compile
# faster but run slower, on one thread too
@jit_parallel
def depiction_rows_kernel(hexes, levels2, row_start, upper, t, out):
    """Rows ``row_start .. row_start + out.shape[0]`` of the depiction matrix over tables ``t``, one per row of
    ``out``.

    With ``upper`` only the entries right of the diagonal (and the diagonal) are written (the caller
    mirrors them: the walk is symmetric by construction) and iteration k owns rows k and ``rows - 1 - k``
    (balanced work); else iteration r owns row r. The matrix and its blocks share this one compiled kernel."""
    n = hexes.shape[0]
    rows = out.shape[0]
    items = (rows + 1) // 2 if upper else rows
    for item in numba.prange(items):
        counted = np.empty(scratch_size(t.pixels), np.int64)
        for side in range(2 if upper else 1):
            # every row index passed as int64 (prange's index is unsigned): one compiled _matrix_row for all calls
            r = np.int64(item) if side == 0 else rows - 1 - np.int64(item)
            if side == 1 and r == item:
                break
            i = row_start + r
            first = i + 1 if upper else np.int64(0)
            if upper:
                out[r, i] = 0
            _matrix_row(i, first, n, hexes, levels2, t, out, r, counted)


def depiction_matrix_kernel(hexes, levels2, t, out):
    """Upper triangle of the depiction matrix (:func:`depiction_rows_kernel` over every row; then mirror the
    lower)."""
    depiction_rows_kernel(hexes, levels2, 0, True, t, out)


#: Pairs per parallel chunk of :func:`depiction_pairs_kernel`.
CHUNK = 256


@jit_parallel
def depiction_pairs_kernel(hex_a, levels2_a, hex_b, levels2_b, t, out_blocked, out_hindrance, out_at,
                           out_reason, out_slope):
    """Batch of independent pairs over tables ``t``, in chunks; each chunk writes only its own slice."""
    n = hex_a.shape[0]
    for c in numba.prange((n + CHUNK - 1) // CHUNK):
        counted = np.empty(scratch_size(t.pixels), np.int64)
        log = counted.reshape((-1, 1))  # never written: nothing is recorded
        for p in range(c * CHUNK, min(n, c * CHUNK + CHUNK)):
            blocked, total, reason, at, slope = depiction_pair(hex_a[p], levels2_a[p], hex_b[p], levels2_b[p], t,
                                                               counted, log)
            out_blocked[p] = blocked
            out_hindrance[p] = total
            out_at[p] = at
            out_reason[p] = reason
            out_slope[p] = slope
