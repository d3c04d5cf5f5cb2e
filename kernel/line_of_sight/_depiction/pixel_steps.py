"""The depiction walk's steps per pixel and per hex it enters (private, numba; used by :mod:`.walk`): which hex a
walked pixel is in, a wall in an end's own hex, the steps of a hex the walk enters (its counters, the inherent
terrain beside a hexside the LOS runs along), and one judged art pixel.

Each is inlined into the walk at numba IR level (:func:`~kernel._jit.jit_inline`: called once in each compiled
walk, it costs no more compiling than the same code written in the walk, and no call per pixel or hex); the
larger steps they call once per hex (:mod:`.steps`, :mod:`.vasl_runs`) stay compiled functions of their own.
Each takes the walk's :class:`.tables.DepictionTables` (``t``), its :class:`.walk_setup.Span` and
:class:`.walk_setup.Ends`, and the walk's running state, which it returns updated.
"""

from __future__ import annotations

from kernel._jit import jit_inline
from kernel.grid.pixels import UNIT_X, UNIT_Y
from kernel.line_of_sight._depiction.pixel_geometry import (
    INNER_RADIUS2, hex_range, hexside_run_key, hexside_touches_end, near_open_far_vertex, vertex_touch, walk_hex,
)
from kernel.line_of_sight._depiction.steps import (
    COUNTERS, HEXSIDE_RUN, LOG_CLASS, LOG_DRM, LOG_EFFECT, LOG_HEX, LOG_LAST_PIXEL, LOG_LEVEL, LOG_REASON, LOG_X1,
    LOG_Y1, add_step_drm, count_hindrance, hex_counters_drm, hexside_run_terrain, log_counters, log_run,
)
from kernel.line_of_sight._depiction.vasl_runs import run_counters, run_inherent
from kernel.line_of_sight._hex.rules import (
    BLOCK, H_GROUND2, H_HINDRANCE_INHERENT, H_OBSTACLE, NONE, R_HEXSIDE, R_HILL, R_HINDRANCE, R_NONE, R_OBSTACLE,
    asl_hex_effect, asl_hex_hindrance, depression_bank, ranges_from_higher,
)


@jit_inline
def pixel_hex(qx, qy, a, b, span, t, cached_hex, cached_x, cached_y, range_a, range_b):
    """The hex of the walked pixel judged at ``(qx, qy)`` (a hex of the exact trace, -1: none), with its centre dot
    and its ranges from the ends: ``(hex, x, y, range_a, range_b)``. The hex of the last pixel looked up
    (``cached_*``) is kept while the pixel lies inside its inscribed circle."""
    if cached_hex >= 0:
        ex = qx - cached_x
        ey = qy - cached_y
        if ex * ex + ey * ey >= INNER_RADIUS2:
            cached_hex = -1
    if cached_hex < 0:
        cached_hex = walk_hex(qx, qy, a, span.ddx, span.ddy, t.cell_index, t.neighbours, t.lat_x, t.lat_y)
        if cached_hex >= 0:
            cached_x = t.lat_x[cached_hex] * UNIT_X
            cached_y = t.lat_y[cached_hex] * UNIT_Y
            range_a = hex_range(a, cached_hex, t.lat_x, t.lat_y)
            range_b = hex_range(cached_hex, b, t.lat_x, t.lat_y)
    return cached_hex, cached_x, cached_y, range_a, range_b


@jit_inline
def own_hex_wall(h, c, g, a, la2, lb2, own_ignored, t):
    """Whether a pixel of class ``c`` at elevation ``g`` in end ``h``'s own hex blocks: an end's art never counts
    (a building's outline does not block a LOS out of it), but a wall between two hexes (``class_own``: a
    rowhouse's, B23.71) blocks the LOS crossing it when the end in that hex is below its top."""
    return t.class_own[c] != 0 and not own_ignored and (
        2 * g + t.pixel_info[c * t.n_levels + g - t.level_min, H_OBSTACLE] > (la2 if h == a else lb2))


@jit_inline
def entered_hex(h, g, a, b, span, ends, judge_slope, range_a, range_b, along_hexsides, vasl_run, t, per_range,
                record, log, n_log, total, run, counted, n_counted, n_counter_hexes, last_counter_hex, last_run_hex,
                last_run_g):
    """The steps of hex ``h`` (pixel elevation ``g``) when the walk enters it: its SMOKE and vehicles (once per
    hex), the inherent terrain beside a hexside the LOS runs along (B.6; once per pair of hexes) and, with
    ``per_range``, VASL's reading of the same. ``(blocked, reason, hex where blocked, total, log rows, run,
    hindrance keys counted, counter keys counted, last_counter_hex, last_run_hex, last_run_g)``."""
    if t.has_counters and h != last_counter_hex:
        # SMOKE and vehicles are counters of a hex: they count once, when the walk first meets the hex
        last_counter_hex = h
        r_s, r_t = ranges_from_higher(range_a, range_b, ends.higher_is_a)
        added, n_counter_hexes = hex_counters_drm(h, a, b, ends.S2, ends.T2, ends.same, judge_slope, per_range, r_s,
                                                  r_t, t.counter_info, counted, n_counter_hexes)
        if added > 0:
            total, blocks, n_log = add_step_drm(total, added, t.cap, record, log, n_log, h, COUNTERS)
            run = -1
            if blocks:
                return (True, R_HINDRANCE, h, total, n_log, run, n_counted, n_counter_hexes, last_counter_hex,
                        last_run_hex, last_run_g)
    if along_hexsides and h != last_run_hex:
        # B.6: inherent terrain is its whole hex, entered by a LOS along its hexside (one count per pair)
        last_run_hex = h
        n_counted, added = hexside_run_terrain(h, a, b, span.ddx, span.ddy, ends.S2, ends.T2, ends.same, judge_slope,
                                               t.neighbours, t.lat_x, t.lat_y, t.counter_info, counted, n_counted)
        if added > 0:
            total, blocks, n_log = add_step_drm(total, added, t.cap, record, log, n_log, h, HEXSIDE_RUN)
            run = -1
            if blocks:
                return (True, R_HINDRANCE, h, total, n_log, run, n_counted, n_counter_hexes, last_counter_hex,
                        last_run_hex, last_run_g)
    if vasl_run and (h != last_run_hex or g != last_run_g):
        # VASL: the hexes beside the hexside the LOS runs along, each judged as its inherent terrain
        last_run_hex = h
        last_run_g = g
        if t.has_counters:
            # VASL: the counters of the hex across that hexside count too (once per range, the walk's h above)
            added, n_counter_hexes, at = run_counters(h, a, b, span.ddx, span.ddy, ends.S2, ends.T2, ends.same,
                                                      ends.higher_is_a, t.neighbours, t.lat_x, t.lat_y,
                                                      t.counter_info, counted, n_counter_hexes)
            if added > 0:
                total, blocks, n_log = add_step_drm(total, added, t.cap, record, log, n_log, at, COUNTERS)
                run = -1
                if blocks:
                    return (True, R_HINDRANCE, at, total, n_log, run, n_counted, n_counter_hexes, last_counter_hex,
                            last_run_hex, last_run_g)
        r_s, r_t = ranges_from_higher(range_a, range_b, ends.higher_is_a)
        effect, reason, terrain, at = run_inherent(h, g, a, b, span.ddx, span.ddy, ends.S2, ends.T2, ends.same, r_s,
                                                   r_t, t.neighbours, t.lat_x, t.lat_y, t.pixel_info, t.n_levels,
                                                   t.level_min, t.hex_terrain)
        if effect != NONE:
            if record:
                n_log = log_counters(log, n_log, at, 0, effect, reason, HEXSIDE_RUN)
            return (True, reason, at, total, n_log, run, n_counted, n_counter_hexes, last_counter_hex, last_run_hex,
                    last_run_g)
        if terrain > 0 and range_a < span.full_range and range_b < span.full_range:
            n_counted, added = count_hindrance(counted, n_counted, r_s, terrain)
            if added > 0:
                total += added
                blocks = total >= t.cap
                if record:
                    n_log = log_counters(log, n_log, at, added, BLOCK if blocks else NONE,
                                         R_HINDRANCE if blocks else R_NONE, HEXSIDE_RUN)
                    run = -1
                if blocks:
                    return (True, R_HINDRANCE, at, total, n_log, run, n_counted, n_counter_hexes, last_counter_hex,
                            last_run_hex, last_run_g)
    return (False, R_NONE, -1, total, n_log, run, n_counted, n_counter_hexes, last_counter_hex, last_run_hex,
            last_run_g)


@jit_inline
def judge_pixel(i, x, y, qx, qy, h, c, g, a, b, span, ends, judge_slope, range_a, range_b, last_hex, last_row, t,
                per_range, record, log, n_log, run, total, counted, n_counted):
    """Judge walked pixel ``i`` (``(x, y)``, judged at ``(qx, qy)``) of class ``c`` at elevation ``g`` in hex ``h``
    (no end's) as a hex of its own: a wall or hedge, an obstacle, blind hex or height advantage, a depression's
    bank, or a hindrance counted once per hex (per range with ``per_range``), each recorded on its run of pixels.
    ``(blocked, reason, total, log rows, run, hindrance keys counted, its pixel_info row)``; the same row in the
    same hex as the pixel before (``last_hex``, ``last_row``) is no news."""
    if record:
        # one step per run of consecutive judged pixels of one hex, class and elevation
        if run >= 0 and log[run, LOG_HEX] == h and log[run, LOG_CLASS] == c and log[run, LOG_LEVEL] == g \
                and log[run, LOG_LAST_PIXEL] == i - 1:
            log[run, LOG_X1] = x
            log[run, LOG_Y1] = y
            log[run, LOG_LAST_PIXEL] = i
        else:
            run, n_log = log_run(log, n_log, h, c, g, x, y, i, NONE, R_NONE)
    row = c * t.n_levels + g - t.level_min
    if t.class_inherent[c] != 0 and (t.hex_terrain[h] & t.class_inherent[c]) == 0:
        row = g - t.level_min   # inherent terrain drawn past its hex: that hex's ground, not its terrain (B.6)
    wall = t.class_wall[c]
    if wall > 0:
        row = g - t.level_min  # the ground under the wall
        if not hexside_touches_end(qx, qy, h, a, b, t.lat_x, t.lat_y) and not near_open_far_vertex(
                qx, qy, a, b, t.far_open, t.lat_x, t.lat_y):
            top = 2 * g + wall
            if judge_slope or (ends.same and top > ends.S2) or ((not ends.same) and top >= ends.S2):
                if record:
                    log[run, LOG_EFFECT] = BLOCK
                    log[run, LOG_REASON] = R_HEXSIDE
                return True, R_HEXSIDE, total, n_log, run, n_counted, row
    if h == last_hex and row == last_row:
        return False, R_NONE, total, n_log, run, n_counted, row   # the same terrain, level and hex: no news
    r_s, r_t = ranges_from_higher(range_a, range_b, ends.higher_is_a)
    effect, reason = asl_hex_effect(row, ends.S2, ends.T2, ends.same, judge_slope, r_s, r_t, t.pixel_info, False)
    if reason == R_HILL and r_s == 1 and 2 * g == ends.S2 and not ends.same and t.counter_info[h, H_GROUND2] < ends.S2 \
            and (ends.group_b if ends.higher_is_a else ends.group_a) < 0:
        # B10.2 EXC: ground at the higher end's level drawn in an adjacent lower hex is the crest
        # line the LOS leaves its own hex across, not a height advantage; only an obstacle there
        # blocks (not toward a lower end IN a depression: A6.3 decides there)
        if t.pixel_info[row, H_OBSTACLE] > 0:
            reason = R_OBSTACLE
        else:
            effect, reason = NONE, R_NONE
    if effect != BLOCK and (ends.group_a >= 0 or ends.group_b >= 0) and (
            (2 * g > ends.ground_a2 and depression_bank(h, ends.group_a, ends.ground_a2, t.neighbours,
                                                        t.depression_group, t.counter_info))
            or (2 * g > ends.ground_b2 and depression_bank(h, ends.group_b, ends.ground_b2, t.neighbours,
                                                           t.depression_group, t.counter_info))):
        effect, reason = BLOCK, R_HILL   # bank ground of an end's depression
    if effect != NONE:
        if record:
            log[run, LOG_EFFECT] = effect
            log[run, LOG_REASON] = reason
        return True, reason, total, n_log, run, n_counted, row
    terrain, smoke, vehicle = asl_hex_hindrance(row, ends.S2, ends.T2, ends.same, judge_slope, False, t.pixel_info)
    if terrain > 0 and per_range and (range_a >= span.full_range or range_b >= span.full_range):
        terrain = 0   # VASL's engine: a hindrance hex only nearer both ends than they are to each other
    if terrain > 0 and not per_range and t.pixel_info[row, H_HINDRANCE_INHERENT] == 0 and vertex_touch(
            h, a, span.ddx, span.ddy, t.lat_x, t.lat_y):
        # B.6: only inherent terrain hinders a LOS that touches its hex at a vertex alone; the pixels the
        # walk gives such a hex lie off the segment by their rounding: it crosses none of its art
        terrain = 0
    if terrain > 0:
        # once per hex (per range with per_range), the two beside a hexside the LOS runs along as one (B.6)
        key = r_s if per_range else hexside_run_key(h, a, span.ddx, span.ddy, t.neighbours, t.lat_x, t.lat_y)
        n_counted, added = count_hindrance(counted, n_counted, key, terrain)
        if added > 0:
            total += added
            blocks = total >= t.cap
            if record:
                log[run, LOG_DRM] += added
                if blocks:
                    log[run, LOG_EFFECT] = BLOCK
                    log[run, LOG_REASON] = R_HINDRANCE
            if blocks:
                return True, R_HINDRANCE, total, n_log, run, n_counted, row
    return False, R_NONE, total, n_log, run, n_counted, row
