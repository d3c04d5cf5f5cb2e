"""VASL's reading of a LOS that runs exactly along hexsides (``model="vasl"`` only; private, numba; used by
:mod:`kernel.line_of_sight._depiction.walk`).

The facts of VASL's engine this follows: where a LOS runs along a hexside (0 or +-60 degrees), a pixel of its
trace in a hex at an odd range from the viewer is judged as each of the two hexes beside that hexside, and a
hex of inherent terrain (an orchard, an olive grove, a building cluster, ...) is judged as that
terrain there, at the pixel's ground level, whatever is drawn under the pixel: an orchard beside the hexside
is a one-level obstacle to a LOS from above it (a height advantage, A6.2; blind hexes behind it, A6.4) and a
hindrance to a LOS at its level.  The rules' reading (the depiction model) counts such terrain as a
hindrance only (B.6).
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit
from kernel.line_of_sight._depiction.pixel_geometry import hexside_run_across
from kernel.line_of_sight._hex.rules import NONE, R_NONE, asl_hex_effect, asl_hex_hindrance


#: In VASL's reading the walk's ``hex_terrain`` holds a hex's terrain bits below this bit and, from it, one more
#: than the pixel class of its inherent terrain (0: none; :func:`hex_terrain_vasl`).
INHERENT_CLASS_SHIFT = 32


def hex_terrain_vasl(hex_terrain, class_terrain, inherent_mask) -> np.ndarray:
    """Each hex's terrain bits (int64) with, from ``INHERENT_CLASS_SHIFT``, one more than the pixel class that
    shows its inherent terrain (``hex_terrain & inherent_mask``): a class of exactly that terrain, else the
    one with the fewest other terrain bits; 0 where the hex has none or no class shows it."""
    hex_terrain = np.asarray(hex_terrain, np.int64)
    if int(hex_terrain.max(initial=0)) >> INHERENT_CLASS_SHIFT:
        raise ValueError(f"terrain mask {int(hex_terrain.max()):#x}: expected below bit {INHERENT_CLASS_SHIFT}")
    class_terrain = np.asarray(class_terrain, np.int64)
    bits = hex_terrain & int(inherent_mask)
    out = hex_terrain.copy()
    for want in np.unique(bits[bits != 0]):
        shows = np.flatnonzero((class_terrain & int(inherent_mask)) == want)
        if shows.size == 0:
            continue
        extra = [bin(int(class_terrain[c]) & ~int(want)).count("1") for c in shows]
        best = int(shows[int(np.argmin(extra))])
        out[bits == want] |= np.int64(best + 1) << INHERENT_CLASS_SHIFT
    return out


@jit
def run_inherent(h, g, a, b, ddx, ddy, S2, T2, same, r_s, r_t, neighbours, lat_x, lat_y, pixel_info, n_levels,
                 level_min, hex_terrain):
    """A walked pixel of hex ``h`` at ground level ``g`` on a LOS along the hexside of ``h`` (VASL's reading): the
    two hexes beside that hexside judged as their inherent terrain (:func:`hex_terrain_vasl`) with the
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
        c = (hex_terrain[hx] >> INHERENT_CLASS_SHIFT) - 1
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
