"""numba kernels of the depiction LOS model: the LOS read off a map's drawn art, pixel by pixel (private).

See :mod:`kernel.line_of_sight.depiction` for the API and the rules.  A LOS
between hexes ``a < b`` (always walked from the smaller index, so the matrix
is symmetric by construction) visits the pixels
``rint(A + i / n * (B - A))``, ``i = 1 .. n - 1``, of the segment between the
two centre dots ``A`` and ``B`` (``n = ceil(max(|dx|, |dy|))``).  A pixel
belongs to the hex whose centre dot is nearest (ties: smaller lattice x, then
y), exactly as :func:`kernel.maps.art.pixel_hexes`.  Pixels of the two ends'
hexes never count.  Every other pixel is judged as a hex of its own at its own
ground level, with the rule steps of :mod:`kernel.line_of_sight._rules`
(``asl_hex_effect``, ``asl_hex_hindrance``) reading one row of
``pixel_info`` (laid out like ``hex_info``: a row per pixel class and
elevation), ranges counted in hexes from the pixel's hex.  A wall or hedge
pixel (``class_wall`` > 0) is an obstacle half a level above its ground that
makes no blind hexes and is ignored when the hexside of its hex nearest it
touches either end's hex: one of the end's own hexsides or one running out
from one of its vertices (B9.2 as VASL's engine applies it).  SMOKE and vehicles (``counter_info``, laid out like
``hex_info``, read only when ``has_counters``) count once per hex the walk
meets, with the hex's ground level.  Hindrance counts once per hex holding an applicable
hindrance pixel (its first such pixel's DRM); ``cap`` blocks.  With
``per_range`` (VASL's reading, for comparisons only) it counts once per range
from the higher end instead.
"""

from __future__ import annotations

import numba
import numpy as np

from kernel._jit import jit, jit_inline, jit_parallel
from kernel.line_of_sight._rules import (
    BLOCKED, NONE, R_HEXSIDE, R_HINDRANCE, R_NONE, asl_hex_effect, asl_hex_hindrance, ranges_from_higher,
)

#: Pixels per lattice unit (kernel.maps.art.UNIT_X / UNIT_Y).
UNIT_X = 18.75
UNIT_Y = 32.25
#: A hexside whose midpoint lies this near a hex's centre dot touches that hex: its own hexsides'
#: midpoints lie 32.3 px away, those running out from its vertices 56 px, every other one 85 px or more.
TOUCH_RADIUS = 70.0
#: A pixel this close to a centre dot (half the distance between neighbouring centre dots, 32.25 px,
#: less the 0.75 px a rounded pixel may lie off the segment) is in that dot's hex.
INNER_RADIUS = 31.5
#: Squared: a pixel nearer than this to a hex's centre dot (32.25 px, half the least distance between
#: two centre dots, squared) lies in that hex.
INNER_RADIUS2 = 32.25 * 32.25
#: The map's pixel words (kernel.maps.art.MapArt.pixels, ``pixels[y, x]``): class << 8 | level + LEVEL_BIAS.
LEVEL_BIAS = 128
#: Most hindrance hexes one walk remembers (the wrapper checks that the cap is below it).
MAX_HINDRANCE_HEXES = 64

# The steps between neighbouring centre dots N, NE, SE in pixels (a hexside's midpoint lies half way).
_STEP_X = np.array([0.0, 3.0 * UNIT_X, 3.0 * UNIT_X])
_STEP_Y = np.array([-2.0 * UNIT_Y, -UNIT_Y, UNIT_Y])


@jit_inline
def hex_range(h1, h2, lat_x, lat_y):
    """Range in hexes between hexes h1 and h2 (lattice centres)."""
    dc = abs(lat_x[h1] - lat_x[h2]) // 3
    dy = abs(lat_y[h1] - lat_y[h2])
    extra = (dy - dc) // 2
    return dc + (extra if extra > 0 else 0)


@jit_inline
def pixel_hex(px, py, cell_index, lat_x, lat_y):
    """The hex whose centre dot is nearest pixel (px, py) (ties: smaller lattice x, then y); -1 for none."""
    max_col = cell_index.shape[0] - 3
    max_row = cell_index.shape[1] - 3
    first = int(np.floor(px / (3.0 * UNIT_X)))
    best = -1
    best_d = np.inf
    for dc in range(2):
        col = first + dc
        if col < 0:
            col = 0
        if col > max_col:
            col = max_col
        parity = (col + 1) % 2
        low = int(np.floor((py / UNIT_Y - parity) / 2.0))
        for dr in range(2):
            yc = 2 * (low + dr) + parity
            row = (yc - 1 + col % 2) // 2
            if row < -1:
                row = -1
            if row > max_row + 1:
                row = max_row + 1
            h = cell_index[col + 1, row + 1]
            if h < 0:
                continue
            ddx = px - 3.0 * col * UNIT_X
            ddy = py - yc * UNIT_Y
            d = ddx * ddx + ddy * ddy
            if d < best_d or (d == best_d and (lat_x[h] < lat_x[best] or (
                    lat_x[h] == lat_x[best] and lat_y[h] < lat_y[best]))):
                best = h
                best_d = d
    return best


@jit_inline
def hexside_touches_end(px, py, h, a, b, lat_x, lat_y):
    """Whether the hexside of hex ``h`` nearest pixel (px, py) touches hex ``a``'s or hex ``b``'s
    hexagon: is one of its hexsides or runs out from one of its vertices (its midpoint lies
    within ``TOUCH_RADIUS`` of that hex's centre dot)."""
    cx = lat_x[h] * UNIT_X
    cy = lat_y[h] * UNIT_Y
    best_d = np.inf
    mx = cx
    my = cy
    for k in range(3):
        for sign in (-0.5, 0.5):
            x = cx + sign * _STEP_X[k]
            y = cy + sign * _STEP_Y[k]
            d = (px - x) * (px - x) + (py - y) * (py - y)
            if d < best_d:
                best_d = d
                mx = x
                my = y
    for end in (a, b):
        ex = mx - lat_x[end] * UNIT_X
        ey = my - lat_y[end] * UNIT_Y
        if ex * ex + ey * ey < TOUCH_RADIUS * TOUCH_RADIUS:
            return True
    return False


@jit_inline
def mid_slope(steps, ax, ay, dx, dy, a, b, high, S2, width, height, pixels, cell_index, lat_x, lat_y):
    """False when the middle pixel of the walk rules out a continuous slope (a cheap first test)."""
    i = steps // 2
    t = i / steps
    x = min(max(int(np.rint(ax + t * dx)), 0), width - 1)
    y = min(max(int(np.rint(ay + t * dy)), 0), height - 1)
    h = pixel_hex(float(x), float(y), cell_index, lat_x, lat_y)
    if h < 0 or h == a or h == b:
        return True
    return S2 - 2 * ((pixels[y, x] & 0xFF) - LEVEL_BIAS) == 2 * hex_range(high, h, lat_x, lat_y)


@jit
def depiction_pair(a, la2, b, lb2, lat_x, lat_y, cell_index, pixels, pixel_info,
                   n_levels, level_min, class_wall, cap, per_range, counter_info, has_counters, counted):
    """(blocked, hindrance, reason, hex where blocked) of the LOS between a at la2 and b at lb2 half levels."""
    if a == b:
        return False, 0, R_NONE, -1
    if a > b:
        a, b = b, a
        la2, lb2 = lb2, la2
    width = pixels.shape[1]
    height = pixels.shape[0]
    ax = lat_x[a] * UNIT_X
    ay = lat_y[a] * UNIT_Y
    dx = lat_x[b] * UNIT_X - ax
    dy = lat_y[b] * UNIT_Y - ay
    steps = int(np.ceil(max(abs(dx), abs(dy))))
    # pixels nearer an end's centre dot than INNER_RADIUS (rounding included) lie in that end's hex
    inner = int(np.floor(INNER_RADIUS * steps / np.sqrt(dx * dx + dy * dy)))
    i_first = inner if inner > 1 else 1
    i_last = steps - inner if steps - inner < steps - 1 else steps - 1
    higher_is_a = la2 >= lb2
    S2 = la2 if higher_is_a else lb2
    T2 = lb2 if higher_is_a else la2
    same = S2 == T2
    high = a if higher_is_a else b

    # Continuous slope (B.5): every pixel outside the ends' hexes S2 - 2 * r_s half levels high.
    slope = False
    if not same and mid_slope(steps, ax, ay, dx, dy, a, b, high, S2, width, height, pixels, cell_index, lat_x, lat_y):
        slope = True
        crossed = 0
        for i in range(i_first, i_last + 1):
            t = i / steps
            x = min(max(int(np.rint(ax + t * dx)), 0), width - 1)
            y = min(max(int(np.rint(ay + t * dy)), 0), height - 1)
            h = pixel_hex(float(x), float(y), cell_index, lat_x, lat_y)
            if h < 0 or h == a or h == b:
                continue
            if S2 - 2 * ((pixels[y, x] & 0xFF) - LEVEL_BIAS) != 2 * hex_range(high, h, lat_x, lat_y):
                slope = False
                break
            crossed += 1
        if crossed == 0:
            slope = False

    total = 0
    n_counted = 0
    cached_hex = -1
    cached_x = 0.0
    cached_y = 0.0
    range_a = 0
    range_b = 0
    last_hex = -1
    last_row = -1
    last_counter_hex = -1
    n_counter_hexes = 0
    for i in range(i_first, i_last + 1):
        t = i / steps
        x = min(max(int(np.rint(ax + t * dx)), 0), width - 1)
        y = min(max(int(np.rint(ay + t * dy)), 0), height - 1)
        word = pixels[y, x]
        open_ground = word < 256 and (slope or 2 * (word - LEVEL_BIAS) <= T2)
        if open_ground and not has_counters:
            continue  # open ground not above the lower end: nothing here can matter
        c = word >> 8
        g = (word & 0xFF) - LEVEL_BIAS
        # the hex of the last pixel looked up, while this pixel lies inside its inscribed circle
        if cached_hex >= 0:
            ddx = x - cached_x
            ddy = y - cached_y
            if ddx * ddx + ddy * ddy >= INNER_RADIUS2:
                cached_hex = -1
        if cached_hex < 0:
            cached_hex = pixel_hex(float(x), float(y), cell_index, lat_x, lat_y)
            if cached_hex >= 0:
                cached_x = lat_x[cached_hex] * UNIT_X
                cached_y = lat_y[cached_hex] * UNIT_Y
                range_a = hex_range(a, cached_hex, lat_x, lat_y)
                range_b = hex_range(cached_hex, b, lat_x, lat_y)
            else:
                continue
        h = cached_hex
        if h == a or h == b:
            continue
        if has_counters and h != last_counter_hex:
            # SMOKE and vehicles are counters of a hex: they count once, when the walk first meets the hex
            last_counter_hex = h
            ignore, smoke, vehicle = asl_hex_hindrance(h, S2, T2, same, slope, False, counter_info)
            if smoke + vehicle > 0:
                seen = False
                for k in range(MAX_HINDRANCE_HEXES, MAX_HINDRANCE_HEXES + n_counter_hexes):
                    if counted[k] == h:
                        seen = True
                        break
                if not seen:
                    counted[MAX_HINDRANCE_HEXES + n_counter_hexes] = h
                    n_counter_hexes += 1
                    total += smoke + vehicle
                    if cap > 0 and total >= cap:
                        return True, total, R_HINDRANCE, h
        if open_ground:
            continue
        row = c * n_levels + g - level_min
        wall = class_wall[c]
        if wall > 0:
            row = g - level_min  # the ground under the wall
            if not hexside_touches_end(float(x), float(y), h, a, b, lat_x, lat_y):
                top = 2 * g + wall
                if slope or (same and top > S2) or ((not same) and top >= S2):
                    return True, total, R_HEXSIDE, h
        if h == last_hex and row == last_row:
            continue  # the same terrain at the same level in the same hex as the pixel before: no news
        r_s, r_t = ranges_from_higher(range_a, range_b, higher_is_a)
        effect, reason = asl_hex_effect(row, S2, T2, same, slope, r_s, r_t, pixel_info, False)
        if effect != NONE:
            return True, total, reason, h
        terrain, smoke, vehicle = asl_hex_hindrance(row, S2, T2, same, slope, False, pixel_info)
        if terrain > 0:
            key = r_s if per_range else h
            seen = False
            for k in range(n_counted):
                if counted[k] == key:
                    seen = True
                    break
            if not seen:
                counted[n_counted] = key
                n_counted += 1
                total += terrain
                if cap > 0 and total >= cap:
                    return True, total, R_HINDRANCE, h
        last_hex = h
        last_row = row
    return False, total, R_NONE, -1


@jit
def _matrix_row(row, first, last, hexes, levels2, tables, out, out_row, counted):
    (lat_x, lat_y, cell_index, pixels, pixel_info, n_levels, level_min, class_wall, cap, per_range, counter_info,
     has_counters) = tables
    a = hexes[row]
    for j in range(first, last):
        blocked, total, reason, at = depiction_pair(a, levels2[row], hexes[j], levels2[j], lat_x, lat_y, cell_index,
                                                    pixels, pixel_info, n_levels,
                                                    level_min, class_wall, cap, per_range, counter_info,
                                                    has_counters, counted)
        if blocked:
            out[out_row, j] = BLOCKED
        else:
            out[out_row, j] = total if total < 127 else 127


@jit_parallel
def depiction_matrix_kernel(hexes, levels2, tables, out):
    """Upper triangle of the depiction matrix; iteration k owns rows k and n-1-k (then mirror the lower)."""
    n = hexes.shape[0]
    for k in numba.prange((n + 1) // 2):
        counted = np.empty(2 * MAX_HINDRANCE_HEXES, np.int64)
        out[k, k] = 0
        _matrix_row(k, k + 1, n, hexes, levels2, tables, out, k, counted)
        other = n - 1 - k
        if other != k:
            out[other, other] = 0
            _matrix_row(other, other + 1, n, hexes, levels2, tables, out, other, counted)


@jit_parallel
def depiction_rows_kernel(hexes, levels2, row_start, tables, out):
    """Rows ``row_start .. row_start + out.shape[0]`` of the depiction matrix."""
    n = hexes.shape[0]
    for r in numba.prange(out.shape[0]):
        counted = np.empty(2 * MAX_HINDRANCE_HEXES, np.int64)
        _matrix_row(row_start + r, 0, n, hexes, levels2, tables, out, r, counted)


#: Pairs per parallel chunk of :func:`depiction_pairs_kernel`.
CHUNK = 256


@jit_parallel
def depiction_pairs_kernel(hex_a, levels2_a, hex_b, levels2_b, tables, out_blocked, out_hindrance, out_at,
                           out_reason):
    """Batch of independent pairs, in chunks; each chunk writes only its own slice."""
    (lat_x, lat_y, cell_index, pixels, pixel_info, n_levels, level_min, class_wall, cap, per_range, counter_info,
     has_counters) = tables
    n = hex_a.shape[0]
    for c in numba.prange((n + CHUNK - 1) // CHUNK):
        counted = np.empty(2 * MAX_HINDRANCE_HEXES, np.int64)
        for p in range(c * CHUNK, min(n, c * CHUNK + CHUNK)):
            blocked, total, reason, at = depiction_pair(
                hex_a[p], levels2_a[p], hex_b[p], levels2_b[p], lat_x, lat_y, cell_index, pixels,
                pixel_info, n_levels, level_min, class_wall, cap, per_range, counter_info, has_counters, counted)
            out_blocked[p] = blocked
            out_hindrance[p] = total
            out_at[p] = at
            out_reason[p] = reason
