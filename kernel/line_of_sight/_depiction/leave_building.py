"""VASL's reading of A6.8 Example 2 along its pixel trace (``model="vasl"`` only; private, numba): a LOS from a
Location in a building hex must leave the building's art before it enters another hex while still over it, when
its ends are at different heights and the viewer is no higher than the building there.

The facts of VASL's engine this follows: the walk starts "inside" when the viewer's hex centre is building
terrain, and is "outside" from its first pixel that is no building terrain (in the viewer's own hex too); a
building pixel of any other hex met while inside blocks (a pixel's hex as VASL's trace finds it: inside an end's
extended border, the viewer's first, that end's), unless the viewer stands above that hex's building
(its ground plus its upper levels, at least one).  Used by :mod:`.building_ends`.
"""

from __future__ import annotations

import numpy as np

from kernel._dtypes import LEVEL_BIAS
from kernel._jit import jit
from kernel.grid.pixels import UNIT_X, UNIT_Y
from kernel.line_of_sight._depiction.pixel_geometry import VASL_ROW_TIE, vasl_trace, walk_hex
from kernel.line_of_sight._depiction.vasl_runs import vasl_end_hex
from kernel.maps._art_kernels import pixel_point


@jit
def stays_inside(a, b, elev_a, elev_b, lat_x, lat_y, cell_index, neighbours, pixels, class_building,
                 hex_height, scratch):
    """Whether VASL blocks the LOS from hex ``a`` (height ``elev_a`` levels) to hex ``b`` (``elev_b``) because it
    enters another hex over building art before it leaves its building (``scratch``: int64, room for the trace)."""
    if a == b or elev_a == elev_b:
        return False
    width = pixels.shape[1]
    height = pixels.shape[0]
    ax = lat_x[a] * UNIT_X
    ay = lat_y[a] * UNIT_Y
    cx = min(max(int(ax), 0), width - 1)
    cy = min(max(int(ay), 0), height - 1)
    if class_building[np.int64(pixels[cy, cx]) >> 8] == 0:
        return False
    dx = lat_x[b] * UNIT_X - ax
    dy = lat_y[b] * UNIT_Y - ay
    ddx = lat_x[b] - lat_x[a]
    ddy = lat_y[b] - lat_y[a]
    n = vasl_trace(ax, ay, dx, dy, width, height, scratch, 0)
    for i in range(n):
        x = scratch[2 * i]
        y = scratch[2 * i + 1]
        word = np.int64(pixels[y, x])   # signed: the level below stays exact
        if class_building[word >> 8] == 0:
            return False
        h = vasl_end_hex(x, y, a, b, lat_x, lat_y)   # an end's extended border first, the viewer's before
        if h < 0:
            qx, qy = pixel_point(x, y, width, height, 0.0)
            h = walk_hex(qx, qy + VASL_ROW_TIE, a, ddx, ddy, cell_index, neighbours, lat_x, lat_y)
        if h < 0 or h == a:
            continue
        if np.int64(elev_a) <= (word & 0xFF) - LEVEL_BIAS + hex_height[h]:
            return True
    return False


@jit
def stays_inside_pairs(hex_a, elev_a, hex_b, elev_b, lat_x, lat_y, cell_index, neighbours, pixels, class_building,
                       hex_height, out):
    """:func:`stays_inside` of each pair ``k`` into ``out[k]``."""
    scratch = np.zeros(2 * (pixels.shape[0] + pixels.shape[1] + 8), np.int64)
    for k in range(hex_a.shape[0]):
        out[k] = stays_inside(hex_a[k], hex_b[k], elev_a[k], elev_b[k], lat_x, lat_y, cell_index, neighbours, pixels,
                              class_building, hex_height, scratch)
