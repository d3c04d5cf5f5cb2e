"""The steps of a depiction-model walk: its log's layout, its scratch memory, and the small helpers that judge
a pixel for a continuous slope, count a hindrance once and record a step (private, numba; used by
:mod:`kernel.line_of_sight._depiction.walk`, which re-exports the names below).

The walk's steps that run once per pair or per hex, not per pixel, and only on some pairs (the whole walk
judged for a continuous slope, a hex's counters, the inherent terrain beside a hexside the LOS runs along)
are compiled functions of their own here, called by the walk: inlined, each was compiled again in every
specialisation of the walk (a fifth of its compile).

A recorded walk writes one log row per step (``LOG_*`` columns): a run of judged art pixels of one hex, class
and elevation (:func:`log_run` starts one), or a step that is no art (a hex's counters, ``COUNTERS``; the
inherent terrain beside a hexside the LOS runs along, ``HEXSIDE_RUN``: :func:`log_counters`).
"""

from __future__ import annotations

from kernel._dtypes import LEVEL_BIAS
from kernel._jit import jit, jit_inline
from kernel.line_of_sight._depiction.pixel_geometry import hex_range, hexside_run_across, walk_hex, walk_pixel
from kernel.line_of_sight._hex.rules import (
    BLOCK, H_COLUMNS, H_GROUND2, H_SMOKE, H_SMOKE_BASE, H_SMOKE_TOP, H_VEHICLE, NONE,
)
from kernel.line_of_sight._hex.rules import R_HINDRANCE, R_NONE
from kernel.line_of_sight._hex.rules import asl_hex_hindrance, end_smoke
from kernel.maps._art_kernels import pixel_point

#: Most hindrance hexes one walk remembers (the wrapper checks that the cap, at least 1, is below it: each
#: hex or range remembered adds at least 1).
MAX_HINDRANCE_HEXES = 64
#: A walk's scratch memory (``counted``): the hexes (or ranges) whose terrain hindrance counted, the hexes
#: (with ``per_range``: the ranges and kinds) whose counters counted, the DRM kept for each of the first
#: (from ``KEPT_DRM``) and, with ``per_range``, for each of the second (from ``COUNTER_KEPT``).
COUNTED_SIZE = 4 * MAX_HINDRANCE_HEXES
KEPT_DRM = 2 * MAX_HINDRANCE_HEXES
COUNTER_KEPT = 3 * MAX_HINDRANCE_HEXES
#: Columns of a recorded walk's log (:func:`depiction_recorded`), one row per step: a run of judged
#: pixels of one hex, class and elevation, or a hex's counters (``LOG_CLASS`` = ``COUNTERS``).
(LOG_HEX, LOG_CLASS, LOG_LEVEL, LOG_X0, LOG_Y0, LOG_X1, LOG_Y1, LOG_DRM, LOG_EFFECT, LOG_REASON,
 LOG_LAST_PIXEL) = range(11)
LOG_COLUMNS = 11
#: Columns of the walk's counters table after the ``hex_info`` ones, for VASL's reading of vehicles
#: (:mod:`.vasl_counters`): a hex's vehicle slot (-1: none), then per slot whether the hex sees that vehicle.
VEHICLE_SLOT = H_COLUMNS
SIGHT = H_COLUMNS + 1
#: ``LOG_CLASS`` of a step that is not art: a hex's SMOKE and vehicles (or an end's own SMOKE); the inherent
#: hindrance beside a hexside the LOS runs along (B.6).
COUNTERS, HEXSIDE_RUN = -1, -2

@jit_inline
def scratch_size(pixels):
    """Length of a walk's scratch array (``counted``): ``COUNTED_SIZE``, then room for a VASL trace of the
    map (x and y of at most width + height + 8 pixels)."""
    return COUNTED_SIZE + 2 * (pixels.shape[0] + pixels.shape[1] + 8)


@jit
def slope_pixel_holds(x, y, off, a, b, ddx, ddy, high, S2, pixels, cell_index, neighbours, lat_x, lat_y):
    """(holds, counted) of one walked pixel (judged at ``pixel_point`` with ``off`` > 0, else its corner) for a
    continuous slope: its ground is the higher end's level less its hex's range from it (counted: not an end's)."""
    qx, qy = pixel_point(x, y, pixels.shape[1], pixels.shape[0], off)
    h = walk_hex(qx, qy, a, ddx, ddy, cell_index, neighbours, lat_x, lat_y)
    if h < 0 or h == a or h == b:
        return True, False
    return S2 - 2 * ((pixels[y, x] & 0xFF) - LEVEL_BIAS) == 2 * hex_range(high, h, lat_x, lat_y), True


@jit_inline
def walked_pixel(i, per_range, counted, steps, ax, ay, dx, dy, width, height, squares):
    """Pixel ``i`` of a walk: of VASL's trace in ``counted`` with ``per_range``, else of the rounded segment
    (:func:`~kernel.line_of_sight._depiction.pixel_geometry.walk_pixel`)."""
    if per_range:
        return counted[COUNTED_SIZE + 2 * i], counted[COUNTED_SIZE + 2 * i + 1]
    return walk_pixel(i, steps, ax, ay, dx, dy, width, height, squares)


@jit
def slope_holds_all(i_first, i_last, per_range, counted, steps, ax, ay, dx, dy, width, height, squares, off, a, b,
                    ddx, ddy, high, S2, pixels, cell_index, neighbours, lat_x, lat_y):
    """Whether the walked pixels ``i_first .. i_last`` (VASL's trace in ``counted`` with ``per_range``) all hold
    for a continuous slope (:func:`slope_pixel_holds`), at least one outside the ends' hexes (B.5)."""
    crossed = 0
    for i in range(i_first, i_last + 1):
        x, y = walked_pixel(i, per_range, counted, steps, ax, ay, dx, dy, width, height, squares)
        holds, outside = slope_pixel_holds(x, y, off, a, b, ddx, ddy, high, S2, pixels, cell_index, neighbours,
                                           lat_x, lat_y)
        if not holds:
            return False
        if outside:
            crossed += 1
    return crossed > 0


@jit_inline
def vasl_vehicles(h, a, b, S2, same, counter_info):
    """VASL's reading of the vehicles and wrecks in hex h (:mod:`.vasl_counters`): each +1 when both ends and
    the hex are at one level and both ends see the hex."""
    n = counter_info[h, H_VEHICLE]
    if n <= 0 or not same or counter_info[h, H_GROUND2] != S2:
        return 0
    slot = counter_info[h, VEHICLE_SLOT]
    if slot < 0 or (counter_info[a, SIGHT + slot] > 0 and counter_info[b, SIGHT + slot] > 0):
        return n
    return 0


@jit_inline
def vasl_smoke(h, S2, T2, r_s, r_t, counter_info):
    """VASL's reading of the SMOKE in hex h between the ends (:mod:`.vasl_counters`): its DRM when both ends
    are within it (at or above its base, the height of the Location it is in, below its top), or when it would make the lower end blind as an
    obstacle as high as its top would (A6.4, VASL's bound, ``r_s`` and ``r_t`` the ranges from the higher
    end and to the lower); else a LOS passes over it."""
    drm = counter_info[h, H_SMOKE]
    if drm <= 0:
        return 0
    top = counter_info[h, H_SMOKE_TOP]
    base = counter_info[h, H_SMOKE_BASE]
    if T2 >= base and S2 < top:
        return drm
    # a LOS wholly beneath SMOKE at an upper Location passes under it (at the ground: the ground's rule)
    if S2 != T2 and (S2 > base or base == counter_info[h, H_GROUND2]):
        bound = top + r_s // 5 - (S2 + T2) // 2 + 1
        if r_t <= max(bound, 1):
            return drm
    return 0


@jit_inline
def count_per_range(counted, n_counter_hexes, key, drm):
    """VASL's reading: a counter DRM counted once per ``key`` (its range from the walk's higher end and its kind,
    SMOKE or vehicles), the largest met at that range: ``(keys counted, DRM added)``."""
    for k in range(MAX_HINDRANCE_HEXES, MAX_HINDRANCE_HEXES + n_counter_hexes):
        if counted[k] == key:
            kept = COUNTER_KEPT + k - MAX_HINDRANCE_HEXES
            added = max(drm - counted[kept], 0)
            counted[kept] += added
            return n_counter_hexes, added
    counted[MAX_HINDRANCE_HEXES + n_counter_hexes] = key
    counted[COUNTER_KEPT + n_counter_hexes] = drm
    return n_counter_hexes + 1, drm


@jit
def hex_counters_drm(h, a, b, S2, T2, same, slope, per_range, r_s, r_t, counter_info, counted, n_counter_hexes):
    """SMOKE and vehicle DRM of hex h when a walk meets it: ``(DRM, keys counted)``, the DRM 0 where the
    hex has none or counted before (the hexes counted are listed in ``counted`` from
    ``MAX_HINDRANCE_HEXES``); with ``per_range`` SMOKE and vehicles as VASL counts them (:func:`vasl_smoke`,
    :func:`vasl_vehicles`), each kind once per range ``r_s`` at the largest DRM met there
    (:func:`count_per_range`)."""
    terrain, smoke, vehicle = asl_hex_hindrance(h, S2, T2, same, slope, False, counter_info)
    if per_range:
        smoke = vasl_smoke(h, S2, T2, r_s, r_t, counter_info)
        vehicle = vasl_vehicles(h, a, b, S2, same, counter_info)
        added = 0
        if smoke > 0:
            n_counter_hexes, more = count_per_range(counted, n_counter_hexes, 2 * r_s, smoke)
            added += more
        if vehicle > 0:
            n_counter_hexes, more = count_per_range(counted, n_counter_hexes, 2 * r_s + 1, vehicle)
            added += more
        return added, n_counter_hexes
    if smoke + vehicle > 0:
        for k in range(MAX_HINDRANCE_HEXES, MAX_HINDRANCE_HEXES + n_counter_hexes):
            if counted[k] == h:
                return 0, n_counter_hexes
        counted[MAX_HINDRANCE_HEXES + n_counter_hexes] = h
        return smoke + vehicle, n_counter_hexes + 1
    return 0, n_counter_hexes


@jit
def hexside_run_terrain(h, a, b, ddx, ddy, S2, T2, same, slope, neighbours, lat_x, lat_y, counter_info, counted,
                        n_counted):
    """B.6: the inherent terrain of hex h, or of the hex across the hexside the LOS runs along beside it,
    counted once per such pair of hexes (:func:`count_hindrance`): ``(keys counted, DRM added)``."""
    q = hexside_run_across(h, a, ddx, ddy, neighbours, lat_x, lat_y)
    if q < 0:
        return n_counted, 0
    terrain = asl_hex_hindrance(h, S2, T2, same, slope, True, counter_info)[0]
    if q != a and q != b:
        terrain = max(terrain, asl_hex_hindrance(q, S2, T2, same, slope, True, counter_info)[0])
    if terrain > 0:
        return count_hindrance(counted, n_counted, min(q, h), terrain)
    return n_counted, 0


@jit
def log_counters(log, n_log, h, drm, effect, reason, kind=COUNTERS):
    """Record a hex's counters (SMOKE, vehicles; or ``kind``) as a step of their own; the new count."""
    log[n_log, LOG_HEX] = h
    log[n_log, LOG_CLASS] = kind
    log[n_log, LOG_DRM] = drm
    log[n_log, LOG_EFFECT] = effect
    log[n_log, LOG_REASON] = reason
    log[n_log, LOG_LAST_PIXEL] = -2
    return n_log + 1


@jit_inline
def add_step_drm(total, added, cap, record, log, n_log, at, kind):
    """Add the DRM ``added`` that a step of hex ``at`` (its counters, or ``kind``) gives to the walk's ``total``:
    ``(total, blocks, log rows)``, the step logged when recording, as blocking where the total reaches ``cap``."""
    total += added
    blocks = total >= cap
    if record:
        n_log = log_counters(log, n_log, at, added, BLOCK if blocks else NONE, R_HINDRANCE if blocks else R_NONE,
                             kind)
    return total, blocks, n_log


@jit
def add_end_smoke(end, level2, total, cap, record, log, n_log, counter_info):
    """SMOKE in an end's own hex (A24) added to ``total``: ``(total, whether it reaches the cap, log rows)``;
    recorded as a counters step of that hex."""
    smoke = end_smoke(end, level2, counter_info)
    if smoke == 0:
        return total, False, n_log
    total += smoke
    blocks = total >= cap
    if record:
        n_log = log_counters(log, n_log, end, smoke, BLOCK if blocks else NONE, R_HINDRANCE if blocks else R_NONE)
    return total, blocks, n_log


@jit_inline
def count_hindrance(counted, n_counted, key, terrain):
    """Count a DRM once under ``key`` (hex, hexside run or range), the largest met: (keys counted, DRM added)."""
    for k in range(n_counted):
        if counted[k] == key:
            added = max(terrain - counted[KEPT_DRM + k], 0)
            counted[KEPT_DRM + k] += added
            return n_counted, added
    counted[n_counted] = key
    counted[KEPT_DRM + n_counted] = terrain
    return n_counted + 1, terrain


@jit
def log_run(log, n_log, h, c, g, x, y, i, effect, reason):
    """Start a run of judged art pixels at pixel ``i`` (``(x, y)``) of hex ``h``, class ``c``, elevation ``g``,
    with ``effect`` and ``reason`` and no DRM yet: ``(its row, the new count)``."""
    log[n_log, LOG_HEX] = h
    log[n_log, LOG_CLASS] = c
    log[n_log, LOG_LEVEL] = g
    log[n_log, LOG_X0] = x
    log[n_log, LOG_Y0] = y
    log[n_log, LOG_X1] = x
    log[n_log, LOG_Y1] = y
    log[n_log, LOG_DRM] = 0
    log[n_log, LOG_EFFECT] = effect
    log[n_log, LOG_REASON] = reason
    log[n_log, LOG_LAST_PIXEL] = i
    return n_log, n_log + 1
