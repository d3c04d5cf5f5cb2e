"""numba kernel that writes the counters' entries of the LOS kernels' per-call tables (private;
see :mod:`kernel.line_of_sight.counters`).

One function writes a list of hexes: all of them when the tables are built,
the changed ones when a :class:`~kernel.maps.counters.GameState` is brought up
to date, so the first build and the in-place update cannot drift apart.
"""

from __future__ import annotations

from kernel._jit import jit
from kernel.line_of_sight._hex.rules import (
    CODE_HILL, CODE_MAX_DRM, CODE_OBSTACLE, CODE_UNIT, H_GROUND2, H_HINDRANCE, H_HINDRANCE_TOP, H_OBSTACLE, H_SMOKE,
    H_ROOFTOP, H_SMOKE_BASE, H_SMOKE_TOP, H_UNITS, H_VEHICLE, RULESET_ASL, RULESET_VV,
)

#: ``fast_grid`` content of a hex whose interior can affect a LOS.
BUSY = 32767


@jit
def write_counter_cells(ruleset, hexes, smoke, smoke_height, smoke_base, vehicles, units, units_block, sides, cells,
                        level_values, hex_info, fast_grid, same_code):
    """Write the counters of ``hexes`` into ``hex_info``, ``fast_grid`` and ``same_code`` in place.

    ``smoke`` (SMOKE DRM), ``smoke_height`` (levels), ``smoke_base`` (the level
    of the Location the SMOKE is in, 0 = ground; its rooftop half a level
    lower, as the rooftop's Location), ``vehicles`` and
    ``units`` (counts; > 0: present) are per hex of the whole map; the
    board's own columns of ``hex_info`` (ground, obstacle, hindrance) must
    already be written.  ``sides`` is the hex's featured-hexside bits,
    ``cells`` its cell in the templates' grid, ``level_values`` the half
    levels of ``same_code``'s rows.  The tables' layouts are documented in
    :func:`kernel.line_of_sight.counters.with_inert` and
    :func:`kernel.line_of_sight.counters.same_level_code_columns`.
    """
    for k in range(hexes.shape[0]):
        h = hexes[k]
        ground2 = hex_info[h, H_GROUND2]
        obstacle = hex_info[h, H_OBSTACLE]
        hindrance = hex_info[h, H_HINDRANCE]
        hindrance_top = hex_info[h, H_HINDRANCE_TOP]
        drm_smoke = smoke[h]
        base_level = smoke_base[h]
        smoke_bottom = ground2 + 2 * base_level
        if ruleset == RULESET_ASL and base_level > 0 and base_level == hex_info[h, H_ROOFTOP]:
            smoke_bottom -= 1   # the rooftop's Location (location_height2)
        smoke_top = smoke_bottom + 2 * smoke_height[h]
        vehicle = vehicles[h] > 0   # a count: each vehicle and wreck adds +1
        unit = units[h] > 0
        hex_info[h, H_SMOKE] = drm_smoke
        hex_info[h, H_SMOKE_TOP] = smoke_top
        hex_info[h, H_SMOKE_BASE] = smoke_bottom
        hex_info[h, H_VEHICLE] = vehicles[h]
        hex_info[h, H_UNITS] = 1 if unit else 0
        busy = obstacle > 0 or hindrance > 0 or drm_smoke > 0 or vehicle or (unit and units_block)
        cell = cells[h]
        fast_grid[cell] = ((BUSY if busy else ground2) << 8) | sides[h]
        for row in range(level_values.shape[0]):
            level2 = level_values[row]
            if ruleset == RULESET_ASL:  # docs/los-semantics.md section 2, both ends at level2
                drm = 0
                if hindrance > 0 and hindrance_top > level2 and ground2 <= level2:
                    drm += hindrance
                if drm_smoke > 0 and smoke_top > level2 and smoke_bottom <= level2:
                    drm += drm_smoke
                if vehicle and ground2 == level2:
                    drm += vehicles[h]
                code = min(drm, CODE_MAX_DRM)
                if obstacle > 0 and ground2 + obstacle > level2:
                    code = CODE_OBSTACLE
            else:  # sections 3 and 4: the same at every level but for hills
                code = min(hindrance, CODE_MAX_DRM) if ruleset == RULESET_VV else 0
                if unit and units_block:
                    code = CODE_UNIT
                if obstacle > 0:
                    code = CODE_OBSTACLE
            if ground2 > level2:
                code = CODE_HILL
            same_code[row, cell] = (code << 6) | sides[h]
