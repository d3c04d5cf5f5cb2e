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

from kernel._jit import jit, jit_inline
from kernel.grid.pixels import UNIT_X, UNIT_Y
from kernel.line_of_sight._depiction.pixel_geometry import hex_range, hexside_run_across
from kernel.line_of_sight._depiction.steps import hex_counters_drm
from kernel.line_of_sight._hex.rules import NONE, R_NONE, asl_hex_effect, asl_hex_hindrance, ranges_from_higher


#: In VASL's reading the walk's ``hex_terrain`` holds a hex's terrain bits below this bit and, from it, one more
#: than the pixel class of its inherent terrain (0: none; :func:`hex_terrain_vasl`).
INHERENT_CLASS_SHIFT = 32


def inherent_classes(hex_terrain, class_terrain, class_levels, inherent_mask):
    """``(terrain, levels)`` of the pixel classes VASL's reading adds so that each hex's inherent terrain
    (``hex_terrain & inherent_mask``) has a class of exactly that terrain: one for each such terrain that the
    art shows only together with other terrain (an orchard drawn as orchard and brush: judged as the orchard
    alone), with the building levels of the class that shows it with the fewest other terrain bits."""
    terrain_dtype = np.asarray(class_terrain).dtype
    hex_terrain = np.asarray(hex_terrain, np.int64)
    class_terrain = np.asarray(class_terrain, np.int64)
    bits = hex_terrain & int(inherent_mask)
    terrain, levels = [], []
    for want in np.unique(bits[bits != 0]):
        if (class_terrain == want).any():
            continue
        shows = np.flatnonzero((class_terrain & int(inherent_mask)) == want)
        if shows.size:
            extra = [bin(int(class_terrain[c]) & ~int(want)).count("1") for c in shows]
            terrain.append(int(want))
            levels.append(int(np.asarray(class_levels)[shows[int(np.argmin(extra))]]))
    return np.array(terrain, terrain_dtype), np.array(levels, np.asarray(class_levels).dtype)


def hex_terrain_vasl(hex_terrain, class_terrain, inherent_mask) -> np.ndarray:
    """Each hex's terrain bits (int64) with, from ``INHERENT_CLASS_SHIFT``, one more than the pixel class of
    exactly its inherent terrain (``hex_terrain & inherent_mask``; :func:`inherent_classes` adds the classes
    the art lacks); 0 where the hex has none or no class is that terrain."""
    hex_terrain = np.asarray(hex_terrain, np.int64)
    if int(hex_terrain.max(initial=0)) >> INHERENT_CLASS_SHIFT:
        raise ValueError(f"terrain mask {int(hex_terrain.max()):#x}: expected below bit {INHERENT_CLASS_SHIFT}")
    class_terrain = np.asarray(class_terrain, np.int64)
    bits = hex_terrain & int(inherent_mask)
    out = hex_terrain.copy()
    for want in np.unique(bits[bits != 0]):
        exact = np.flatnonzero(class_terrain == want)
        if exact.size:
            out[bits == want] |= np.int64(int(exact[0]) + 1) << INHERENT_CLASS_SHIFT
    return out


@jit
def run_inherent(h, g, a, b, ddx, ddy, S2, T2, same, r_s, r_t, neighbours, lat_x, lat_y, pixel_info, n_levels,
                 level_min, hex_terrain):
    """A walked pixel of hex ``h`` at ground level ``g`` on a LOS along the hexside of ``h`` (VASL's reading): the
    two hexes beside that hexside judged as their inherent terrain (:func:`hex_terrain_vasl`) with the
    ranges ``r_s``, ``r_t`` from the higher and the lower end: ``(effect, reason, terrain DRM, hex, art_hex)``,
    the hex the one that blocks or, when none does, the one whose DRM (the larger of theirs) is given (-1:
    none), and ``art_hex`` the hex whose terrain the art under the pixel is judged as: VASL judges the pixel's
    own terrain only as a hex beside the hexside that has no inherent terrain (an end's hex is not judged),
    so where ``h`` is of inherent terrain that is the hex across, or none (-1: the art there is no terrain)
    where that one is of inherent terrain too or an end's.  Nothing where the LOS runs along none of ``h``'s
    hexsides (``h`` at an even range from the viewer; ``art_hex`` is ``h``)."""
    q = hexside_run_across(h, a, ddx, ddy, neighbours, lat_x, lat_y)
    if q < 0:
        return NONE, R_NONE, 0, -1, h
    art_hex = h
    if (hex_terrain[h] >> INHERENT_CLASS_SHIFT) > 0:
        art_hex = -1 if q == a or q == b or (hex_terrain[q] >> INHERENT_CLASS_SHIFT) > 0 else q
    drm = 0
    drm_hex = -1
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
            return effect, reason, 0, hx, art_hex
        terrain = asl_hex_hindrance(row, S2, T2, same, False, False, pixel_info)[0]
        if terrain > drm:
            drm = terrain
            drm_hex = hx
    return NONE, R_NONE, drm, drm_hex, art_hex


@jit
def run_counters(h, a, b, ddx, ddy, S2, T2, same, higher_is_a, neighbours, lat_x, lat_y, counter_info, counted,
                 n_counter_hexes):
    """A walked pixel of hex ``h`` on a LOS along the hexside of ``h`` (VASL's reading): the SMOKE and vehicles of
    the hex across that hexside, counted as the walk counts those of ``h`` (per range, :func:`.steps.hex_counters_drm`):
    ``(DRM added, keys counted, that hex)``; nothing where the hex across is an end's or there is none."""
    q = hexside_run_across(h, a, ddx, ddy, neighbours, lat_x, lat_y)
    if q < 0 or q == a or q == b:
        return 0, n_counter_hexes, -1
    r_s, r_t = ranges_from_higher(hex_range(a, q, lat_x, lat_y), hex_range(q, b, lat_x, lat_y), higher_is_a)
    added, n_counter_hexes = hex_counters_drm(q, a, b, S2, T2, same, np.bool_(False), np.bool_(True), r_s, r_t,
                                              counter_info, counted, n_counter_hexes)
    return added, n_counter_hexes, q


#: VASL's hex: 56.25 px wide between column centres (a hexside 2/3 of that long) and 64.5 px high; its
#: "extended" border is the hexagon's vertices truncated to whole pixels and moved one pixel outwards.
_HEXSIDE = 37.5
_HALF_HEIGHT = 32.25
#: A pixel this far or farther from a centre dot lies outside that hex's extended border.
_EXTENDED_REACH = _HEXSIDE + 2.0
#: The hexagon's vertices from its centre dot, clockwise from the top left, and the pixel each moves outwards.
_VERTEX_X = np.array([-_HEXSIDE / 2.0, _HEXSIDE / 2.0, _HEXSIDE, _HEXSIDE / 2.0, -_HEXSIDE / 2.0, -_HEXSIDE])
_VERTEX_Y = np.array([-_HALF_HEIGHT, -_HALF_HEIGHT, 0.0, _HALF_HEIGHT, _HALF_HEIGHT, 0.0])
_OUTWARD_X = np.array([-1, 1, 1, 1, -1, -1], np.int64)
_OUTWARD_Y = np.array([-1, -1, 0, 1, 1, 0], np.int64)


@jit
def in_extended_border(x, y, h, lat_x, lat_y):
    """Whether pixel ``(x, y)`` lies in hex ``h``'s extended border as VASL's engine tests it: the polygon of its
    vertices truncated and moved a pixel outwards, tested as ``java.awt.Polygon.contains`` tests a point
    (crossings of a ray to the right; a point on a left or top edge inside, on a right or bottom edge outside)."""
    cx = lat_x[h] * UNIT_X
    cy = lat_y[h] * UNIT_Y
    ex = x - cx
    ey = y - cy
    if ex * ex + ey * ey >= _EXTENDED_REACH * _EXTENDED_REACH:
        return False
    # the bounding box first (java.awt.Rectangle.contains: right and bottom edges outside)
    if x < _border_x(cx, 5) or x >= _border_x(cx, 2) or y < _border_y(cy, 0) or y >= _border_y(cy, 3):
        return False
    hits = 0
    lastx = _border_x(cx, 5)
    lasty = _border_y(cy, 5)
    for i in range(6):
        curx = _border_x(cx, i)
        cury = _border_y(cy, i)
        if cury != lasty:
            if curx < lastx:
                skip = x >= lastx
                leftx = curx
            else:
                skip = x >= curx
                leftx = lastx
            if not skip:
                if cury < lasty:
                    inside_y = cury <= y < lasty
                    test1 = x - curx
                    test2 = y - cury
                else:
                    inside_y = lasty <= y < cury
                    test1 = x - lastx
                    test2 = y - lasty
                if inside_y:
                    if x < leftx:
                        hits += 1
                    elif test1 < test2 / (lasty - cury) * (lastx - curx):
                        hits += 1
        lastx = curx
        lasty = cury
    return (hits & 1) != 0


@jit_inline
def _border_x(cx, i):
    """The x of vertex ``i`` (clockwise from the top left) of the extended border of the hex centred at ``cx``."""
    return int(cx + _VERTEX_X[i]) + _OUTWARD_X[i]


@jit_inline
def _border_y(cy, i):
    """The y of vertex ``i`` of the extended border of the hex centred at ``cy``."""
    return int(cy + _VERTEX_Y[i]) + _OUTWARD_Y[i]


@jit
def vasl_end_hex(x, y, a, b, lat_x, lat_y):
    """The end whose hex VASL's engine reads pixel ``(x, y)`` as (:func:`in_extended_border`, ``a`` first), or -1."""
    if in_extended_border(x, y, a, lat_x, lat_y):
        return a
    if in_extended_border(x, y, b, lat_x, lat_y):
        return b
    return -1
