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
    add_step_drm, count_hindrance, hex_counters_drm, hexside_run_terrain, log_counters, log_run, scratch_size,
    slope_holds_all, slope_pixel_holds, walked_pixel,
)
from kernel.line_of_sight._depiction.pixel_geometry import (
    INNER_RADIUS, INNER_RADIUS2, VASL_ROW_TIE, hex_range, hexside_run_across, hexside_run_key, hexside_touches_end,
    near_open_far_vertex, vasl_trace, vertex_touch, walk_hex, walk_pixel,
)
from kernel.line_of_sight._hex.rules import (
    BLOCK, BLOCKED, H_GROUND2, H_HINDRANCE_INHERENT, H_OBSTACLE, NONE, R_HEXSIDE, R_HILL, R_HINDRANCE, R_NONE,
    R_OBSTACLE, asl_hex_effect, asl_hex_hindrance, depression_bank, ranges_from_higher,
)
from kernel.line_of_sight._depiction.vasl_runs import run_counters, run_inherent, vasl_end_hex
from kernel.maps._art_kernels import pixel_point


@jit
def depiction_walk(record, log, a, la2, b, lb2, lat_x, lat_y, cell_index, neighbours, depression_group,
                   pixels, pixel_info, n_levels, level_min, class_wall, class_inherent, hex_terrain, far_open,
                   class_own, hex_own, squares, cap, per_range, counter_info, has_counters,
                   counted):
    """The depiction LOS between a at la2 and b at lb2 half levels: ``(blocked, hindrance, reason, hex where
    blocked, continuous slope, log rows written)``.  With ``record`` the steps go to ``log`` (rows of
    ``LOG_COLUMNS``; at least twice the walk's pixels plus two rows), else ``log`` is never touched."""
    n_log = np.int64(0)   # not a literal: the steps it is passed to compile once for it, as for a count
    if a == b:
        return False, 0, R_NONE, -1, False, n_log
    if a > b:
        a, b = b, a
        la2, lb2 = lb2, la2
    width = pixels.shape[1]
    height = pixels.shape[0]
    ax = lat_x[a] * UNIT_X
    ay = lat_y[a] * UNIT_Y
    dx = lat_x[b] * UNIT_X - ax
    dy = lat_y[b] * UNIT_Y - ay
    ddx = lat_x[b] - lat_x[a]
    ddy = lat_y[b] - lat_y[a]
    steps = int(np.ceil(max(abs(dx), abs(dy))))
    # pixels nearer an end's centre dot than INNER_RADIUS (rounding included) lie in that end's hex
    inner = int(np.floor(INNER_RADIUS * steps / np.sqrt(dx * dx + dy * dy)))
    i_first = inner if inner > 1 else 1
    i_last = steps - inner if steps - inner < steps - 1 else steps - 1
    if hex_own[a]:
        i_first = 1   # walls between two hexes drawn in an end's hex (class_own) lie within INNER_RADIUS
    if hex_own[b]:
        i_last = steps - 1
    full_range = hex_range(a, b, lat_x, lat_y)
    if per_range:
        # VASL's reading walks VASL's own pixels (its trace, ``vasl_trace``), every one of them: those of
        # the ends' hexes are skipped by their hex
        n_vasl = vasl_trace(ax, ay, dx, dy, width, height, counted, COUNTED_SIZE)
        i_first = 0
        i_last = n_vasl - 1
        middle = n_vasl // 2
        off = 0.0   # VASL's engine finds a pixel's hex at its integer corner
    else:
        middle = steps // 2
        off = 0.5 if squares else 0.0   # drawn art: pixel (x, y) covers [x, x + 1) x [y, y + 1) (kernel.maps.art)
    higher_is_a = la2 >= lb2
    S2 = la2 if higher_is_a else lb2
    T2 = lb2 if higher_is_a else la2
    same = S2 == T2
    high = a if higher_is_a else b
    # an end at level 0 of a depression hex is IN its depression: the banks around it block (A6.3)
    # (ground levels read only for an end in a depression hex: most pairs have none)
    group_a = -1
    group_b = -1
    ground_a2 = 0
    ground_b2 = 0
    bank_floor2 = 1 << 30   # open ground at or below this many half levels is no bank of such a depression
    if depression_group[a] >= 0:
        ground_a2 = counter_info[a, H_GROUND2]
        if la2 == ground_a2:
            group_a = depression_group[a]
            bank_floor2 = ground_a2
    if depression_group[b] >= 0:
        ground_b2 = counter_info[b, H_GROUND2]
        if lb2 == ground_b2:
            group_b = depression_group[b]
            if ground_b2 < bank_floor2:
                bank_floor2 = ground_b2
    if per_range and (S2 + 1) // 2 - (T2 + 1) // 2 >= full_range:
        # VASL: a lower end in its depression is seen from as many levels higher as the range, or more (A6.3),
        # whether or not the higher end is in a depression of its own
        if higher_is_a:
            group_b = -1
        else:
            group_a = -1

    # Continuous slope (B.5): every pixel outside the ends' hexes S2 - 2 * r_s half levels high; the
    # middle pixel first (a cheap test that rules most LOS out)
    slope = False
    if not same:
        if per_range:
            x = counted[COUNTED_SIZE + 2 * middle]
            y = counted[COUNTED_SIZE + 2 * middle + 1]
        else:
            x, y = walk_pixel(middle, steps, ax, ay, dx, dy, width, height, squares)
        holds, _ = slope_pixel_holds(x, y, off, a, b, ddx, ddy, high, S2, pixels, cell_index, neighbours, lat_x, lat_y)
        if holds:
            # the rest of the walk's pixels (the middle one holds on few pairs)
            slope = slope_holds_all(i_first, i_last, per_range != 0, counted, steps, ax, ay, dx, dy, width, height,
                                    squares, off, a, b, ddx, ddy, high, S2, pixels, cell_index, neighbours, lat_x,
                                    lat_y)

    judge_slope = slope and not per_range   # VASL: a continuous slope is reported, never judged
    total = np.int64(0)   # (as n_log)
    # SMOKE in the first end's own hex (A24), before the walk
    if has_counters:
        total, blocks, n_log = add_end_smoke(a, la2, total, cap, np.bool_(record), log, n_log, counter_info)
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
    along_hexsides = (not per_range) and (ddy == 0 or abs(ddx) == abs(ddy))   # 0 or +-60 degrees: B.6 below
    # VASL: a rooftop (odd half levels) is no building Location; next to it the other end's walls never count
    own_ignored = per_range and full_range == 1 and ((la2 | lb2) & 1) == 1
    vasl_run = per_range and (ddy == 0 or abs(ddx) == abs(ddy))   # VASL's reading of the same (.vasl_runs)
    last_run_hex = -1
    last_run_g = -1 << 20
    run_art_hex = -1   # (VASL's reading) the hex the art under the run's pixel is judged as (.vasl_runs)
    for i in range(i_first, i_last + 1):
        x, y = walked_pixel(i, per_range, counted, steps, ax, ay, dx, dy, width, height, squares)
        word = pixels[y, x]
        # open ground not above the lower end (under a continuous slope: no higher than a depression's
        # ground, where an end is in one): nothing here can matter but a hex's counters
        open_ground = word < 256 and (2 * (word - LEVEL_BIAS) <= T2 or (
            judge_slope and 2 * (word - LEVEL_BIAS) <= bank_floor2))
        if open_ground and not has_counters and not along_hexsides and not vasl_run:
            continue
        c = word >> 8
        g = (word & 0xFF) - LEVEL_BIAS
        qx, qy = pixel_point(x, y, width, height, off)   # as the rasteriser
        if per_range:
            qy += VASL_ROW_TIE   # VASL's engine: a pixel on the hexside between two hexes of a column is the lower's
        # the hex of the last pixel looked up, while this pixel lies inside its inscribed circle
        if cached_hex >= 0:
            ex = qx - cached_x
            ey = qy - cached_y
            if ex * ex + ey * ey >= INNER_RADIUS2:
                cached_hex = -1
        if cached_hex < 0:
            cached_hex = walk_hex(qx, qy, a, ddx, ddy, cell_index, neighbours, lat_x, lat_y)
            if cached_hex >= 0:
                cached_x = lat_x[cached_hex] * UNIT_X
                cached_y = lat_y[cached_hex] * UNIT_Y
                range_a = hex_range(a, cached_hex, lat_x, lat_y)
                range_b = hex_range(cached_hex, b, lat_x, lat_y)
            else:
                continue
        h = cached_hex
        if per_range and h != a and h != b:
            end = vasl_end_hex(x, y, a, b, lat_x, lat_y)   # VASL: an end's hex reaches a pixel past its hexsides
            if end >= 0:
                h = end
        if h == a or h == b:
            # an end's own hex: its art never counts (a building's outline does not block a LOS out of it),
            # but a wall between two hexes (class_own: a rowhouse's, B23.71) blocks the LOS crossing it when
            # the end in that hex is below its top
            if class_own[c] != 0 and not own_ignored and (
                    2 * g + pixel_info[c * n_levels + g - level_min, H_OBSTACLE] > (la2 if h == a else lb2)):
                if record:
                    n_log = log_run(log, n_log, h, c, g, x, y, i, BLOCK, R_OBSTACLE)[1]
                return True, total, R_OBSTACLE, h, slope, n_log
            continue
        if has_counters and h != last_counter_hex:
            # SMOKE and vehicles are counters of a hex: they count once, when the walk first meets the hex
            last_counter_hex = h
            r_s, r_t = ranges_from_higher(range_a, range_b, higher_is_a)
            # (run-time flags: one compiled hex_counters_drm for every walk and for vasl_runs)
            added, n_counter_hexes = hex_counters_drm(h, a, b, S2, T2, same, np.bool_(judge_slope),
                                                      np.bool_(per_range), r_s, r_t, counter_info, counted,
                                                      n_counter_hexes)
            if added > 0:
                total, blocks, n_log = add_step_drm(total, added, cap, record, log, n_log, h, COUNTERS)
                run = -1
                if blocks:
                    return True, total, R_HINDRANCE, h, slope, n_log
        if along_hexsides and h != last_run_hex:
            # B.6: inherent terrain is its whole hex, entered by a LOS along its hexside (one count per pair)
            last_run_hex = h
            n_counted, added = hexside_run_terrain(h, a, b, ddx, ddy, S2, T2, same, judge_slope, neighbours, lat_x,
                                                   lat_y, counter_info, counted, n_counted)
            if added > 0:
                total, blocks, n_log = add_step_drm(total, added, cap, record, log, n_log, h, HEXSIDE_RUN)
                run = -1
                if blocks:
                    return True, total, R_HINDRANCE, h, slope, n_log
        if vasl_run and (h != last_run_hex or g != last_run_g):
            # VASL: the hexes beside the hexside the LOS runs along, each judged as its inherent terrain
            last_run_hex = h
            last_run_g = g
            if has_counters:
                # VASL: the counters of the hex across that hexside count too (once per range, the walk's h above)
                added, n_counter_hexes, at = run_counters(h, a, b, ddx, ddy, S2, T2, same, higher_is_a, neighbours,
                                                          lat_x, lat_y, counter_info, counted, n_counter_hexes)
                if added > 0:
                    total, blocks, n_log = add_step_drm(total, added, cap, record, log, n_log, at, COUNTERS)
                    run = -1
                    if blocks:
                        return True, total, R_HINDRANCE, at, slope, n_log
            r_s, r_t = ranges_from_higher(range_a, range_b, higher_is_a)
            effect, reason, terrain, at, run_art_hex = run_inherent(h, g, a, b, ddx, ddy, S2, T2, same, r_s, r_t,
                                                                neighbours, lat_x, lat_y, pixel_info, n_levels,
                                                                level_min, hex_terrain)
            if effect != NONE:
                if record:
                    n_log = log_counters(log, n_log, at, 0, effect, reason, HEXSIDE_RUN)
                return True, total, reason, at, slope, n_log
            if terrain > 0 and range_a < full_range and range_b < full_range:
                n_counted, added = count_hindrance(counted, n_counted, r_s, terrain)
                if added > 0:
                    total += added
                    blocks = total >= cap
                    if record:
                        n_log = log_counters(log, n_log, at, added, BLOCK if blocks else NONE,
                                             R_HINDRANCE if blocks else R_NONE, HEXSIDE_RUN)
                        run = -1
                    if blocks:
                        return True, total, R_HINDRANCE, at, slope, n_log
        if open_ground:
            continue
        if record:
            # one step per run of consecutive judged pixels of one hex, class and elevation
            if run >= 0 and log[run, LOG_HEX] == h and log[run, LOG_CLASS] == c and log[run, LOG_LEVEL] == g \
                    and log[run, LOG_LAST_PIXEL] == i - 1:
                log[run, LOG_X1] = x
                log[run, LOG_Y1] = y
                log[run, LOG_LAST_PIXEL] = i
            else:
                run, n_log = log_run(log, n_log, h, c, g, x, y, i, NONE, R_NONE)
        row = c * n_levels + g - level_min
        # the hex the art is judged as: its own, or in VASL's reading of a run the hex across or none (.vasl_runs)
        art_hex = run_art_hex if vasl_run else h
        if art_hex < 0 or (class_inherent[c] != 0 and (hex_terrain[art_hex] & class_inherent[c]) == 0):
            row = g - level_min   # inherent terrain drawn past its hex: that hex's ground, not its terrain (B.6)
        wall = class_wall[c]
        if wall > 0:
            row = g - level_min  # the ground under the wall
            if not hexside_touches_end(qx, qy, h, a, b, lat_x, lat_y) and not near_open_far_vertex(
                    qx, qy, a, b, far_open, lat_x, lat_y):
                top = 2 * g + wall
                if judge_slope or (same and top > S2) or ((not same) and top >= S2):
                    if record:
                        log[run, LOG_EFFECT] = BLOCK
                        log[run, LOG_REASON] = R_HEXSIDE
                    return True, total, R_HEXSIDE, h, slope, n_log
        if h == last_hex and row == last_row:
            continue  # the same terrain at the same level in the same hex as the pixel before: no news
        r_s, r_t = ranges_from_higher(range_a, range_b, higher_is_a)
        effect, reason = asl_hex_effect(row, S2, T2, same, judge_slope, r_s, r_t, pixel_info, False)
        if reason == R_HILL and r_s == 1 and 2 * g == S2 and not same and counter_info[h, H_GROUND2] < S2 and (
                (group_b if higher_is_a else group_a) < 0):
            # B10.2 EXC: ground at the higher end's level drawn in an adjacent lower hex is the crest
            # line the LOS leaves its own hex across, not a height advantage; only an obstacle there
            # blocks (not toward a lower end IN a depression: A6.3 decides there)
            # (VASL's reading along a hexside: the pixel is also the hex across it, and where that hex's own
            # ground is at the higher end's level it is no crest line there: blocked at that hex)
            across = hexside_run_across(h, a, ddx, ddy, neighbours, lat_x, lat_y) if vasl_run else -1
            if across >= 0 and across != a and across != b and counter_info[across, H_GROUND2] >= S2:
                h = across
            elif pixel_info[row, H_OBSTACLE] > 0:
                reason = R_OBSTACLE
            else:
                effect, reason = NONE, R_NONE
        if effect != BLOCK and (group_a >= 0 or group_b >= 0) and (
                (2 * g > ground_a2 and depression_bank(h, group_a, ground_a2, neighbours, depression_group,
                                                       counter_info))
                or (2 * g > ground_b2 and depression_bank(h, group_b, ground_b2, neighbours, depression_group,
                                                          counter_info))):
            effect, reason = BLOCK, R_HILL   # bank ground of an end's depression
        if effect != NONE:
            if record:
                log[run, LOG_EFFECT] = effect
                log[run, LOG_REASON] = reason
            return True, total, reason, h, slope, n_log
        terrain, smoke, vehicle = asl_hex_hindrance(row, S2, T2, same, judge_slope, False, pixel_info)
        if terrain > 0 and per_range and (range_a >= full_range or range_b >= full_range):
            terrain = 0   # VASL's engine: a hindrance hex only nearer both ends than they are to each other
        if terrain > 0 and not per_range and pixel_info[row, H_HINDRANCE_INHERENT] == 0 and vertex_touch(
                h, a, ddx, ddy, lat_x, lat_y):
            # B.6: only inherent terrain hinders a LOS that touches its hex at a vertex alone; the pixels the
            # walk gives such a hex lie off the segment by their rounding: it crosses none of its art
            terrain = 0
        if terrain > 0:
            # once per hex (per range with per_range), the two beside a hexside the LOS runs along as one (B.6)
            key = r_s if per_range else hexside_run_key(h, a, ddx, ddy, neighbours, lat_x, lat_y)
            n_counted, added = count_hindrance(counted, n_counted, key, terrain)
            if added > 0:
                total += added
                blocks = total >= cap
                if record:
                    log[run, LOG_DRM] += added
                    if blocks:
                        log[run, LOG_EFFECT] = BLOCK
                        log[run, LOG_REASON] = R_HINDRANCE
                if blocks:
                    return True, total, R_HINDRANCE, h, slope, n_log
        last_hex = h
        last_row = row
    # SMOKE in the other end's own hex (A24), after the walk
    if has_counters:
        total, blocks, n_log = add_end_smoke(b, lb2, total, cap, np.bool_(record), log, n_log, counter_info)
        if blocks:
            return True, total, R_HINDRANCE, b, slope, n_log
    return False, total, R_NONE, -1, slope, n_log


@jit_inline
def depiction_pair(a, la2, b, lb2, lat_x, lat_y, cell_index, neighbours, depression_group, pixels,
                   pixel_info, n_levels, level_min, class_wall, class_inherent, hex_terrain, far_open, class_own,
                   hex_own, squares, cap, per_range,
                   counter_info, has_counters, counted, log):
    """(blocked, hindrance, reason, hex where blocked, continuous slope) of the LOS between a at la2 and b at
    lb2 half levels (:func:`depiction_walk`, nothing recorded; ``counted`` is a scratch array of
    :func:`scratch_size`, ``log`` any 2-D int64 array, never written: ``counted.reshape((-1, 1))`` made once
    per row or chunk, not per pair)."""
    # the walk is a compiled function of its own (each IR-inlined copy cost 10-20 s of compiling), given
    # ``per_range`` as a constant: its choice of pixels is made once per pair, not per pixel (25-30 % faster)
    a, b = np.int64(a), np.int64(b)  # as the recorded walk gets them: the helpers the walks call compile once
    if per_range:
        blocked, total, reason, at, slope, n_log = depiction_walk(
            False, log, a, la2, b, lb2, lat_x, lat_y, cell_index, neighbours, depression_group, pixels,
            pixel_info, n_levels, level_min, class_wall, class_inherent, hex_terrain, far_open, class_own, hex_own,
            squares, cap, True, counter_info,
            has_counters, counted)
    else:
        blocked, total, reason, at, slope, n_log = depiction_walk(
            False, log, a, la2, b, lb2, lat_x, lat_y, cell_index, neighbours, depression_group, pixels,
            pixel_info, n_levels, level_min, class_wall, class_inherent, hex_terrain, far_open, class_own, hex_own,
            squares, cap, False, counter_info,
            has_counters, counted)
    return blocked, total, reason, at, slope


@jit
def depiction_recorded(a, la2, b, lb2, tables):
    """One depiction LOS with its steps: ``(blocked, hindrance, reason, hex where blocked, continuous slope,
    log)``, ``log`` (int64, ``LOG_COLUMNS`` columns) holding the steps in walking order."""
    (lat_x, lat_y, cell_index, neighbours, depression_group, pixels, pixel_info, n_levels, level_min,
     class_wall, class_inherent, hex_terrain, far_open, class_own, hex_own, squares, cap, per_range, counter_info,
     has_counters) = tables
    dx = (lat_x[b] - lat_x[a]) * UNIT_X
    dy = (lat_y[b] - lat_y[a]) * UNIT_Y
    steps = int(np.ceil(max(abs(dx), abs(dy))))
    # at most one run and one counters step per pixel (VASL's trace: 2 steps + 4 pixels), and both ends' SMOKE
    log = np.zeros((4 * steps + 10, LOG_COLUMNS), np.int64)
    counted = np.empty(scratch_size(pixels), np.int64)
    blocked, total, reason, at, slope, n_log = depiction_walk(
        True, log, a, la2, b, lb2, lat_x, lat_y, cell_index, neighbours, depression_group, pixels,
        pixel_info, n_levels, level_min, class_wall, class_inherent, hex_terrain, far_open, class_own, hex_own,
        squares, cap, per_range, counter_info, has_counters, counted)
    return blocked, total, reason, at, slope, log[:n_log]


@jit
def _matrix_row(row, first, last, hexes, levels2, tables, out, out_row, counted):
    (lat_x, lat_y, cell_index, neighbours, depression_group, pixels, pixel_info, n_levels, level_min,
     class_wall, class_inherent, hex_terrain, far_open, class_own, hex_own, squares, cap, per_range, counter_info,
     has_counters) = tables
    a = hexes[row]
    log = counted.reshape((-1, 1))  # never written: nothing is recorded
    for j in range(first, last):
        blocked, total, reason, at, slope = depiction_pair(
            a, levels2[row], hexes[j], levels2[j], lat_x, lat_y, cell_index, neighbours, depression_group,
            pixels, pixel_info, n_levels, level_min, class_wall, class_inherent, hex_terrain, far_open, class_own,
            hex_own, squares, cap, per_range,
            counter_info, has_counters, counted, log)
        if blocked:
            out[out_row, j] = BLOCKED
        else:
            out[out_row, j] = total if total < MAX_MATRIX_DRM else MAX_MATRIX_DRM


# numba's own parallel loops here and in depiction_pairs_kernel: as serial kernels run in parts they compile
# faster but run slower, on one thread too
@jit_parallel
def depiction_rows_kernel(hexes, levels2, row_start, upper, tables, out):
    """Rows ``row_start .. row_start + out.shape[0]`` of the depiction matrix, one per row of ``out``.

    With ``upper`` only the entries right of the diagonal (and the diagonal) are written (the caller
    mirrors them: the walk is symmetric by construction) and iteration k owns rows k and ``rows - 1 - k``
    (balanced work); else iteration r owns row r. The matrix and its blocks share this one compiled kernel."""
    n = hexes.shape[0]
    rows = out.shape[0]
    items = (rows + 1) // 2 if upper else rows
    for item in numba.prange(items):
        counted = np.empty(scratch_size(tables.pixels), np.int64)
        for side in range(2 if upper else 1):
            # every row index passed as int64 (prange's index is unsigned): one compiled _matrix_row for all calls
            r = np.int64(item) if side == 0 else rows - 1 - np.int64(item)
            if side == 1 and r == item:
                break
            i = row_start + r
            first = i + 1 if upper else np.int64(0)
            if upper:
                out[r, i] = 0
            _matrix_row(i, first, n, hexes, levels2, tables, out, r, counted)


def depiction_matrix_kernel(hexes, levels2, tables, out):
    """Upper triangle of the depiction matrix (:func:`depiction_rows_kernel` over every row; then mirror the
    lower)."""
    depiction_rows_kernel(hexes, levels2, 0, True, tables, out)


#: Pairs per parallel chunk of :func:`depiction_pairs_kernel`.
CHUNK = 256


@jit_parallel
def depiction_pairs_kernel(hex_a, levels2_a, hex_b, levels2_b, tables, out_blocked, out_hindrance, out_at,
                           out_reason, out_slope):
    """Batch of independent pairs, in chunks; each chunk writes only its own slice."""
    (lat_x, lat_y, cell_index, neighbours, depression_group, pixels, pixel_info, n_levels, level_min,
     class_wall, class_inherent, hex_terrain, far_open, class_own, hex_own, squares, cap, per_range, counter_info,
     has_counters) = tables
    n = hex_a.shape[0]
    for c in numba.prange((n + CHUNK - 1) // CHUNK):
        counted = np.empty(scratch_size(pixels), np.int64)
        log = counted.reshape((-1, 1))  # never written: nothing is recorded
        for p in range(c * CHUNK, min(n, c * CHUNK + CHUNK)):
            blocked, total, reason, at, slope = depiction_pair(
                hex_a[p], levels2_a[p], hex_b[p], levels2_b[p], lat_x, lat_y, cell_index, neighbours,
                depression_group, pixels, pixel_info, n_levels, level_min, class_wall, class_inherent, hex_terrain,
                far_open, class_own, hex_own, squares, cap, per_range, counter_info,
                has_counters, counted, log)
            out_blocked[p] = blocked
            out_hindrance[p] = total
            out_at[p] = at
            out_reason[p] = reason
            out_slope[p] = slope
