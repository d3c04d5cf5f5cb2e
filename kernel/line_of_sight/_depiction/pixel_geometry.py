"""Pixel geometry of the depiction LOS model: which hex a walked pixel belongs to, the pixels a walk visits
(private, numba; used by :mod:`kernel.line_of_sight._depiction.walk`).

Pixels are VASL's: one lattice unit of :mod:`kernel.grid.lattice` is
``UNIT_X`` pixels across and ``UNIT_Y`` down (:mod:`kernel.maps.art`), so hex ``h`` has its
centre dot at ``(lat_x[h] * UNIT_X, lat_y[h] * UNIT_Y)``.  A walked pixel
belongs to a hex of the exact trace (:func:`walk_hex`); the wall and hedge
rule asks whether the hexside nearest a pixel touches an end's hex
(:func:`hexside_touches_end`).
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit, jit_inline
from kernel.maps._art_kernels import pixel_hex
from kernel.grid.pixels import UNIT_X, UNIT_Y

#: Added to a walked pixel's y in VASL's reading: a pixel exactly on the hexside between two hexes of one
#: column (a board's seam, y = 645 on a map of two boards one above the other, and every other such row)
#: belongs to the lower hex, as VASL's engine finds a pixel's hex (its row is ``y // hex height``).
VASL_ROW_TIE = 1e-6

#: A hexside whose midpoint lies this near a hex's centre dot touches that hex: its own hexsides'
#: midpoints lie 32.3 px away, those running out from its vertices 56 px, every other one 85 px or more.
TOUCH_RADIUS = 70.0
#: A pixel this close to a centre dot (half the distance between neighbouring centre dots, 32.25 px,
#: less the 0.75 px a rounded pixel may lie off the segment) is in that dot's hex.
INNER_RADIUS = 31.5
#: Squared: a pixel nearer than this to a hex's centre dot (32.25 px, half the least distance between
#: two centre dots, squared) lies in that hex.
INNER_RADIUS2 = 32.25 * 32.25
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


@jit
def hexside_touches_end(px, py, h, a, b, lat_x, lat_y):
    """Whether the hexside of hex ``h`` nearest pixel (px, py) touches hex ``a``'s or hex ``b``'s
    hexagon: is one of its hexsides or runs out from one of its vertices (its midpoint lies
    within ``TOUCH_RADIUS`` of that hex's centre dot).  Where two hexsides are equally near (a pixel
    level with a vertex), either one touching is enough.  The distances are exact: centre dots,
    midpoints and pixels all lie on multiples of 1/8 pixel."""
    cx = lat_x[h] * UNIT_X
    cy = lat_y[h] * UNIT_Y
    best_d = np.inf
    for k in range(3):
        for sign in (-0.5, 0.5):
            x = cx + sign * _STEP_X[k]
            y = cy + sign * _STEP_Y[k]
            d = (px - x) * (px - x) + (py - y) * (py - y)
            if d < best_d:
                best_d = d
    for k in range(3):
        for sign in (-0.5, 0.5):
            x = cx + sign * _STEP_X[k]
            y = cy + sign * _STEP_Y[k]
            if (px - x) * (px - x) + (py - y) * (py - y) != best_d:
                continue
            for end in (a, b):
                ex = x - lat_x[end] * UNIT_X
                ey = y - lat_y[end] * UNIT_Y
                if ex * ex + ey * ey < TOUCH_RADIUS * TOUCH_RADIUS:
                    return True
    return False


#: A wall or hedge pixel this near the far vertex of a hexside running out from an end's vertex (the
#: end's hexspine) is art drawn past that vertex (walls and hedges are drawn 4-8 px thick, and on past
#: their vertices by a few pixels).
FAR_VERTEX_RADIUS = 6.0
# The far vertices of a hex's hexspines, in lattice units from its centre: twice its vertex between
# neighbour directions k and k + 1 (N, NE, SE, S, SW, NW).
_FAR_X = np.array([2.0, 4.0, 2.0, -2.0, -4.0, -2.0])
_FAR_Y = np.array([-2.0, 0.0, 2.0, 2.0, 0.0, -2.0])


@jit
def near_open_far_vertex(px, py, a, b, far_open, lat_x, lat_y):
    """Whether pixel (px, py) lies within ``FAR_VERTEX_RADIUS`` of the far vertex of one of hex ``a``'s or
    ``b``'s hexspines whose bit is set in ``far_open`` (bit k of ``far_open[end]``: the far vertex between
    neighbour directions k and k + 1 does not have walls or hedges on all three of its hexsides)."""
    for end in (a, b):
        mask = far_open[end]
        if mask == 0:
            continue
        cx = lat_x[end] * UNIT_X
        cy = lat_y[end] * UNIT_Y
        for k in range(6):
            if (mask >> k) & 1:
                ex = px - (cx + _FAR_X[k] * UNIT_X)
                ey = py - (cy + _FAR_Y[k] * UNIT_Y)
                if ex * ex + ey * ey <= FAR_VERTEX_RADIUS * FAR_VERTEX_RADIUS:
                    return True
    return False


@jit_inline
def meets_trace(h, a, ddx, ddy, lat_x, lat_y):
    """Whether hex ``h``'s closed hexagon meets the line through hex ``a``'s centre in lattice direction
    ``(ddx, ddy)``: exact integers, true for a hexside or vertex touch.  The hexagon's vertices are its
    centre plus (+-2, 0), (+-1, +-1), so its extent across the line is max(2|ddy|, |ddx| + |ddy|)."""
    cross = ddx * (lat_y[h] - lat_y[a]) - ddy * (lat_x[h] - lat_x[a])
    reach = max(2 * abs(ddy), abs(ddx) + abs(ddy))
    return abs(cross) <= reach


@jit_inline
def vertex_touch(h, a, ddx, ddy, lat_x, lat_y):
    """Whether the line through hex ``a``'s centre in lattice direction ``(ddx, ddy)`` meets hex ``h``'s
    closed hexagon at a single vertex only: as far from ``h``'s centre as the hexagon reaches across it
    (``meets_trace``'s bound, exact integers) in a direction that runs along no hexside (not 0 or +-60
    degrees, where that distance is a hexside's)."""
    if ddy == 0 or abs(ddx) == abs(ddy):
        return False
    cross = ddx * (lat_y[h] - lat_y[a]) - ddy * (lat_x[h] - lat_x[a])
    return abs(cross) == max(2 * abs(ddy), abs(ddx) + abs(ddy))


@jit_inline
def hexside_run_across(h, a, ddx, ddy, neighbours, lat_x, lat_y):
    """The hex across the hexside of hex ``h`` that the line through hex ``a``'s centre in lattice direction
    ``(ddx, ddy)`` runs exactly along (a hexspine LOS); -1 where it runs along none of ``h``'s hexsides.

    The line runs along a hexside of ``h`` when it lies as far from ``h``'s centre as the hexagon reaches
    across it (``meets_trace``) and is parallel to a hexside (0 or +-60 degrees); the hex across is the
    neighbour as far from the line on the other side."""
    if ddy != 0 and abs(ddx) != abs(ddy):
        return -1
    cross = ddx * (lat_y[h] - lat_y[a]) - ddy * (lat_x[h] - lat_x[a])
    if abs(cross) != max(2 * abs(ddy), abs(ddx) + abs(ddy)):
        return -1
    for k in range(6):
        q = neighbours[h, k]
        if q >= 0 and ddx * (lat_y[q] - lat_y[a]) - ddy * (lat_x[q] - lat_x[a]) == -cross:
            return q
    return -1


@jit_inline
def hexside_run_key(h, a, ddx, ddy, neighbours, lat_x, lat_y):
    """Hex ``h``'s key for counting hindrance: where the line through hex ``a``'s centre in lattice direction
    ``(ddx, ddy)`` runs exactly along one of ``h``'s hexsides (:func:`hexside_run_across`), the smaller
    index of ``h`` and the hex across that hexside, so that the two count as one (B.6, A6.1); else ``h``."""
    q = hexside_run_across(h, a, ddx, ddy, neighbours, lat_x, lat_y)
    return q if 0 <= q < h else h


@jit_inline
def walk_hex(px, py, a, ddx, ddy, cell_index, neighbours, lat_x, lat_y):
    """The hex a walked pixel (px, py) belongs to: of the hexes the segment from ``a`` meets, the one whose
    centre dot is nearest (ties: smaller lattice x, then y); -1 for none.

    The pixel lies within a pixel of the segment, so its nearest centre dot's hex meets the segment
    unless the rounding crossed a hexside near a vertex; then the nearest trace hex is one of that
    hex's neighbours.  (Only pixels strictly between the two ends' hexes are walked, so meeting the line
    is meeting the segment.)"""
    h = pixel_hex(px, py, cell_index, lat_x, lat_y)
    if h < 0 or meets_trace(h, a, ddx, ddy, lat_x, lat_y):
        return h
    return nearest_trace_neighbour(px, py, h, a, ddx, ddy, neighbours, lat_x, lat_y)


@jit
def nearest_trace_neighbour(px, py, h, a, ddx, ddy, neighbours, lat_x, lat_y):
    """:func:`walk_hex` where the hex ``h`` nearest the pixel does not meet the trace: of ``h``'s neighbours
    that do, the one whose centre dot is nearest (ties: smaller lattice x, then y); -1 for none.  A
    function of its own (rarely called), while :func:`walk_hex`'s common case is inlined into the walk:
    the whole of it out of line made the depiction matrix about 10 % slower, inlined whole it doubled the
    walk's compile time."""
    best = -1
    best_d = np.inf
    for k in range(6):
        q = neighbours[h, k]
        if q < 0 or not meets_trace(q, a, ddx, ddy, lat_x, lat_y):
            continue
        ex = px - lat_x[q] * UNIT_X
        ey = py - lat_y[q] * UNIT_Y
        d = ex * ex + ey * ey
        # pixel_hex's tie rule written out again: as one inlined helper of both, the depiction matrix ran
        # about 20 % slower (measured 2026-11-26: 256 -> 312 ns per ordered pair)
        if d < best_d or (d == best_d and (lat_x[q] < lat_x[best] or (
                lat_x[q] == lat_x[best] and lat_y[q] < lat_y[best]))):
            best = q
            best_d = d
    return best


@jit_inline
def walk_pixel(i, steps, ax, ay, dx, dy, width, height, squares):
    """Pixel ``i`` of a walk of ``steps`` from (ax, ay) by (dx, dy), clamped to the map: with ``squares``
    (drawn art, pixel (x, y) covering ``[x, x + 1) x [y, y + 1)``) the pixel holding the point (its
    coordinates rounded down), else the nearest (rounded)."""
    t = i / steps
    if squares:
        x = min(max(int(np.floor(ax + t * dx)), 0), width - 1)
        y = min(max(int(np.floor(ay + t * dy)), 0), height - 1)
    else:
        x = min(max(int(np.rint(ax + t * dx)), 0), width - 1)
        y = min(max(int(np.rint(ay + t * dy)), 0), height - 1)
    return x, y


@jit
def vasl_trace(ax, ay, dx, dy, width, height, out, offset):
    """The pixels VASL's engine visits from the centre dot at (ax, ay) to (ax + dx, ay + dy), written as
    x, y pairs into ``out`` from index ``offset``; their count.  Its trace steps column by column
    from the source's truncated centre to the target's, the row moving ``(ty - sy) / columns`` per
    column, and visits every row between a column's entry and exit rows (truncated): a line a pixel or
    two thick where it crosses a row boundary, one pixel thick elsewhere."""
    sx = int(ax)
    sy = int(ay)
    tx = int(ax + dx)
    ty = int(ay + dy)
    col_dir = -1 if tx < sx else 1
    row_dir = -1 if ty < sy else 1
    columns = abs(tx - sx) + 1
    # the row where column k is entered, sy + k (ty - sy) / columns truncated, in exact integers
    x = sx
    n = 0
    r0 = sy
    for col in range(columns):
        r1 = (sy * columns + (col + 1) * (ty - sy)) // columns
        rows = abs(r1 - r0) + 1
        y = r0
        for _ in range(rows):
            out[offset + 2 * n] = min(max(x, 0), width - 1)
            out[offset + 2 * n + 1] = min(max(y, 0), height - 1)
            n += 1
            y += row_dir
        r0 = r1
        x += col_dir
    return n
