"""VASL's reading of A6.8 Example 2 for the depiction reference (``per_range``, ``model="vasl"``): a LOS
from a building Location must leave its building before it enters another hex over building art.

Written from ``docs/vasl-agreement.md`` ("Leaving the building") and ``docs/los-semantics.md`` (section 6),
independently of the kernels: it imports nothing from ``kernel``.  The rules' reading (``model="depiction"``)
keeps the ends' hexes out of every LOS and has no such rule.

* It is the viewer's rule: VASL's engine tests it walking from the viewer, so it may block one way only.
* It applies to a LOS from a Location of a building hex, one whose centre dot is building terrain (the art's
  class at the first pixel of VASL's trace, the viewer's truncated centre dot), other than a rooftop (no
  building Location), to a Location at another height (half levels, a rooftop half a level lower).
* Building terrain is a ruleset terrain with ``multi_level`` set: the buildings, and the rowhouse walls
  between their hexes (B23.71; VASL's terrain table files both under its building category).
* Along VASL's pixels from the viewer (:meth:`ReferenceDepiction.vasl_pixels`), the LOS is inside its
  building until its first pixel that is no building terrain, in the viewer's own hex too: from there on it
  is never blocked so.  While it is inside, a pixel of another hex blocks there, unless the viewer is higher
  than that hex's building: its ground plus its upper levels, at least one (a single storey).  A pixel's hex
  is found as the per-range walk finds it: inside the viewer's extended border the viewer's, else inside the
  target's the target's, else the nearest hex of the exact trace (ties to the lower hex), at the pixel's
  corner.  So the rule holds between adjacent hexes of one building, and at any range where the trace
  crosses a further hex still over the building's art.
"""

from __future__ import annotations

import numpy as np


def building_classes(ruleset, class_terrain) -> np.ndarray:
    """Per pixel class (its terrain bit set, ``class_terrain``), whether it holds building terrain: a terrain
    whose ruleset ``terrain_multi_level`` flag is set."""
    multi = [t for t in range(len(ruleset.terrain_names)) if ruleset.terrain_multi_level[t]]
    return np.array([any(int(mask) >> t & 1 for t in multi) for mask in class_terrain], bool)


def is_rooftop(board, h: int, level: int) -> bool:
    """Whether Location (h, level) is a rooftop: the level above the top level of a building hex that has one."""
    return level > 0 and bool(board.rooftop[h]) and level == int(board.building_levels[h]) + 1


def building_top2(board, h: int) -> int:
    """The top of hex ``h``'s building in half levels, as this rule reads it: twice its ground plus its upper
    levels, at least one."""
    return 2 * (int(board.ground_level[h]) + max(int(board.building_levels[h]), 1))


def must_leave_building_at(ref, viewer: int, level_v: int, target: int, level_t: int) -> int:
    """The hex at which VASL's reading blocks the LOS from Location (viewer, level_v) to (target, level_t)
    because it enters another hex over building art before it leaves the viewer's building, or -1.

    ``ref`` is the board's :class:`ReferenceDepiction` (its art classes, ``building``, heights, VASL's
    pixels, the ends' extended borders and the exact trace)."""
    board = ref.board
    height_v = ref.height2(viewer, level_v)
    if viewer == target or is_rooftop(board, viewer, level_v) or height_v == ref.height2(target, level_t):
        return -1
    trace = ref.trace_hexes(viewer, target)
    for px, py in ref.vasl_pixels(viewer, target):   # from the viewer's truncated centre dot
        if not ref.building[int(ref.art_class[px, py])]:
            return -1   # out of the building (at the first pixel: the viewer's hex centre is no building)
        if ref.in_extended_border(viewer, px, py):
            hx = viewer
        elif ref.in_extended_border(target, px, py):
            hx = target
        else:
            hx = ref.trace_hex_of(px, py, trace, lower_on_tie=True)
        if hx != viewer and height_v <= building_top2(board, hx):
            return hx   # another hex entered over building art, the viewer no higher than its building
    return -1
