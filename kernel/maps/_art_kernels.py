"""numba kernels of a map's art (private): the hex a pixel lies in, and the rasteriser of the hex model.

Pixels are VASL's: one lattice unit of :mod:`kernel.grid.lattice` is
``UNIT_X`` pixels across and ``UNIT_Y`` down (:mod:`kernel.maps.art`), so the hex at lattice
``(x, y)`` has its centre dot at point ``(x * UNIT_X, y * UNIT_Y)``; pixel ``(x, y)``
is judged at a point of its own (:func:`pixel_point`): itself on a map without drawn
art, the centre of its square ``[x, x + 1) x [y, y + 1)`` on a map with some.  A point lies in the hex whose centre dot is nearest (:func:`pixel_hex`); the
rasteriser (:func:`rasterise_kernel`) gives every pixel its point's hex's class and
ground level, or the class of a hexside feature of that hex within
``HEXSIDE_BAND`` pixels of the hexside nearest its point.  :mod:`kernel.maps.art`
holds the wrappers; the depiction LOS kernels use :func:`pixel_hex` too.
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit_inline, jit_parallel
from kernel.grid.pixels import UNIT_X, UNIT_Y

#: A rasterised hexside feature covers the pixels within this many pixels of the hexside, on both sides.
HEXSIDE_BAND = 2.0

# The three hexside axes (to the N, NE and SE neighbours' centre dots) in pixels: a unit vector along
# each and half the distance between the two centre dots (where the hexside lies).
_AXES = np.array([[0.0, -2.0], [3.0, -1.0], [3.0, 1.0]]) * np.array([UNIT_X, UNIT_Y])
AXIS_HALF = np.hypot(_AXES[:, 0], _AXES[:, 1]) / 2
AXIS_UX = np.ascontiguousarray(_AXES[:, 0] / (2 * AXIS_HALF))
AXIS_UY = np.ascontiguousarray(_AXES[:, 1] / (2 * AXIS_HALF))


@jit_inline
def pixel_hex(px, py, cell_index, lat_x, lat_y):
    """The hex whose centre dot is nearest pixel (px, py) (ties: smaller lattice x, then y); -1 for none.

    ``cell_index`` is :attr:`kernel.maps.board.Board.cell_index` (padded by one cell); the candidates
    are the two columns and two rows around the pixel, clamped to the padded grid.
    """
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
        parity = (col + 1) % 2   # the centre y of column col is congruent to col + 1 (mod 2)
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
def pixel_point(x, y, width, height, half):
    """The point pixel ``(x, y)`` of a ``width`` x ``height`` map is judged at: ``(x + half, y + half)``,
    its centre where the map's pixels are squares (``half`` 0.5: drawn art, pixel ``(x, y)`` covering
    ``[x, x + 1) x [y, y + 1)``), its corner where they are points (0.0); on the map's last column or row,
    the line where the map ends (its last centre dots), always its corner."""
    if x >= width - 1 or y >= height - 1:
        return float(x), float(y)
    return x + half, y + half


@jit_parallel(split=("px", "py", "out"), min_part=4096, work=lambda px, *rest: 0.02 * px.shape[0])
def pixel_hexes_kernel(px, py, cell_index, lat_x, lat_y, out):
    """:func:`pixel_hex` of each pixel ``(px[k], py[k])`` into ``out[k]`` (each item its own entry)."""
    for k in range(px.shape[0]):
        out[k] = pixel_hex(px[k], py[k], cell_index, lat_x, lat_y)


@jit_inline
def nearest_hexside(dx, dy):
    """(direction 0..5, distance in pixels) of the hexside nearest a pixel ``(dx, dy)`` from its hex's centre
    dot, measured along the three axes (first axis on a tie)."""
    best_gap = np.inf
    direction = 0
    for k in range(3):
        along = dx * AXIS_UX[k] + dy * AXIS_UY[k]
        gap = AXIS_HALF[k] - abs(along)
        if gap < best_gap:
            best_gap = gap
            direction = k if along >= 0 else k + 3
    return direction, best_gap


@jit_parallel(count=lambda covered, *rest: covered.shape[0], min_part=16,
              work=lambda covered, *rest: 0.05 * covered.size)
def rasterise_kernel(lo, hi, covered, cell_index, lat_x, lat_y, hex_class, side_class, ground, half, out_class,
                     out_level):
    """Every pixel ``[y, x]`` not ``covered``, at its point (:func:`pixel_point` with ``half``): the class of
    its hex (``hex_class[h]``), or of the hex's LOS
    hexside feature (``side_class[h, d]`` >= 0) within :data:`HEXSIDE_BAND` of the nearest hexside ``d``, and
    its hex's ground level; class 0 and level 0 off the map.  Each row of pixels is one iteration's own."""
    height, width = out_class.shape
    for y in range(lo, hi):
        for x in range(width):
            if covered[y, x]:
                continue
            # beside drawn art pixel (x, y) covers [x, x + 1) x [y, y + 1), as VASL's: it shows its centre
            cx, cy = pixel_point(x, y, width, height, half)
            h = pixel_hex(cx, cy, cell_index, lat_x, lat_y)
            if h < 0:
                out_class[y, x] = 0
                out_level[y, x] = 0
                continue
            c = hex_class[h]
            d, gap = nearest_hexside(cx - lat_x[h] * UNIT_X, cy - lat_y[h] * UNIT_Y)
            if side_class[h, d] >= 0 and gap <= HEXSIDE_BAND:
                c = side_class[h, d]
            out_class[y, x] = c
            out_level[y, x] = ground[h]
