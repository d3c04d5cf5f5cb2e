"""VASL's reading of a LOS that runs exactly along hexsides (``model="vasl"`` only; private, numba; used by
:mod:`kernel.line_of_sight._depiction.walk`).

The facts of VASL's engine this follows: where a LOS runs along a hexside (0 or +-60 degrees), a pixel of its
trace in a hex at an odd range from the viewer is judged as each of the two hexes beside that hexside, and a
hex whose centre is inherent terrain (an orchard, an olive grove, a building cluster, ...) is judged as that
terrain there, at the pixel's ground level, whatever is drawn under the pixel: an orchard beside the hexside
is a one-level obstacle to a LOS from above it (a height advantage, A6.2; blind hexes behind it, A6.4) and a
hindrance to a LOS at its level.  The rules' reading (the depiction model) counts such terrain as a
hindrance only (B.6).
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit
from kernel.grid.pixels import UNIT_X, UNIT_Y
from kernel.line_of_sight._depiction.pixel_geometry import hexside_run_across
from kernel.line_of_sight._hex.rules import NONE, R_NONE, asl_hex_effect, asl_hex_hindrance


@jit
def centre_inherent_class(hx, lat_x, lat_y, pixels, class_inherent, hex_terrain):
    """The pixel class at hex ``hx``'s centre dot when that is the hex's own inherent terrain, else -1."""
    x = min(max(int(lat_x[hx] * UNIT_X), 0), pixels.shape[1] - 1)
    y = min(max(int(lat_y[hx] * UNIT_Y), 0), pixels.shape[0] - 1)
    c = np.int64(pixels[y, x]) >> 8
    if class_inherent[c] == 0 or (hex_terrain[hx] & class_inherent[c]) == 0:
        return -1
    return c


@jit
def run_inherent(h, g, a, b, ddx, ddy, S2, T2, same, r_s, r_t, neighbours, lat_x, lat_y, pixels, pixel_info,
                 n_levels, level_min, class_inherent, hex_terrain):
    """A walked pixel of hex ``h`` at ground level ``g`` on a LOS along the hexside of ``h`` (VASL's reading): the
    two hexes beside that hexside judged as their inherent terrain (:func:`centre_inherent_class`) with the
    ranges ``r_s``, ``r_t`` from the higher and the lower end: ``(effect, reason, terrain DRM, hex)``, the hex
    the one that blocks (or -1) and the DRM the larger of theirs.  Nothing where the LOS runs along none of
    ``h``'s hexsides (``h`` at an even range from the viewer)."""
    q = hexside_run_across(h, a, ddx, ddy, neighbours, lat_x, lat_y)
    if q < 0:
        return NONE, R_NONE, 0, -1
    drm = 0
    for side in range(2):
        hx = h if side == 0 else q
        if hx == a or hx == b:
            continue
        c = centre_inherent_class(hx, lat_x, lat_y, pixels, class_inherent, hex_terrain)
        if c < 0:
            continue
        row = c * n_levels + g - level_min
        effect, reason = asl_hex_effect(row, S2, T2, same, False, r_s, r_t, pixel_info, False)
        if effect != NONE:
            return effect, reason, 0, hx
        terrain = asl_hex_hindrance(row, S2, T2, same, False, False, pixel_info)[0]
        if terrain > drm:
            drm = terrain
    return NONE, R_NONE, drm, -1
