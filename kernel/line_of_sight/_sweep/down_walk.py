"""The lines from a source down to its targets, read off the source's down codes (private; see :mod:`.rows`).

:func:`walk_down` walks each target's line from both ends in turn (blocks
lie near the source, blind hexes near the target, so a blocked line ends
sooner), over interior hexes, plain vertices and plain hexside runs only;
where it meets a vertex with a wall or an inherent obstacle, or a run whose
rules need the hex before it, it walks the line again from the source's
end, every entry.

Both walks are written out in the one loop over the targets, each step in
each walk: as functions, inlined at numba IR level or called, the steps and
the walks bind their arrays per step or per target, and numba's reference
counts on each binding cost more than the walk (the fields of fire ran 4 to
8 times slower).
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit, jit_inline
from kernel.line_of_sight._hex.rules import (
    BLOCK, BLOCKED, ENTRY_SIDE_BIT, H_GROUND2, NONE, asl_hex_effect, asl_run_effect, asl_run_wall_blocks,
    asl_vertex_wall_blocks, depression_bank,
)
from kernel.line_of_sight._sweep.down_codes import (
    DRM_MASK, ON_MAP_BIT, RUN_COMPLEX, SIDES_SHIFT, SLOPE_BIT, TOP_OFFSET, TOP_SHIFT, VERTEX_COMPLEX,
)
from kernel.line_of_sight._sweep.target_table import T_FLAGS, T_HEIGHT, TARGET_DEPRESSION
from kernel.line_of_sight._templates.tracer import HEXSIDE, INTERIOR, VERTEX

SIDES_FIELD = 63 << SIDES_SHIFT  # (of a code: the hex's featured hexsides, walls and hedges among them)


@jit_inline
def run_walls_near(codes, packed, base_a, cell, cell_y, before_cell, e, last):
    """Whether a hex whose walls or hedges ``asl_run_wall_blocks`` reads for the run x|y at entries ``e``,
    ``e + 1`` (x, y, the interior hexes before and after it) has a featured hexside: where none has, no
    wall blocks the run, and the call is left out."""
    sides = codes[cell] | codes[cell_y] | codes[before_cell]
    if e + 2 <= last and (packed[e + 2] >> 3) & 3 == INTERIOR:
        sides |= codes[base_a + (packed[e + 2] >> 5)]
    return sides & SIDES_FIELD != 0


@jit
def walk_down(a, la2, down, targets, target_info, tpl, board_tables, hex_info, codes, vcodes, blind, cell_step,
              pending, waiting, out):
    """``out[j]`` for the targets ``j`` in ``down``, below source ``a`` at ``la2`` half levels, from its
    down codes ``codes``, ``vcodes``, ``blind`` (:func:`~kernel.line_of_sight._sweep.down_codes.down_codes`):
    the LOS's hindrance DRM (not saturated) or BLOCKED; a target the codes cannot judge goes into
    ``pending`` after its first ``waiting`` entries instead.  Returns the new count of ``pending``."""
    grid, base, start, packed, ranges, max_dc, max_dy = tpl
    col, yv, hs_obst, hs_hind, cap, units_block, neighbours, depression_group = board_tables
    heights, target_flags = target_info[T_HEIGHT], target_info[T_FLAGS]
    # the run's flags as run-time booleans, not literals: its rule steps compile once for this walk and the
    # per-pair walk (the source is the higher end; lines down, never at one level or on a continuous slope)
    higher_is_a = np.bool_(True)
    same = slope = np.bool_(False)
    base_a = base[a]
    width = 2 * max_dy + 1
    for i in range(down.shape[0]):
        j = down[i]
        b = targets[j]
        lb2 = heights[j]
        t = (col[b] - col[a] + max_dc) * width + (yv[b] - yv[a] + max_dy)
        first = start[t]
        last = start[t + 1] - 1
        # a target at ground level in a depression sees out only across its banks (A6.3)
        group_b = depression_group[b] if target_flags[j] & TARGET_DEPRESSION else -1
        ground_b = hex_info[b, H_GROUND2]
        # state: 0 seen (total: its DRM before the cap), 1 blocked, 2 for the per-pair evaluator.  A block
        # found while every hex crossed so far lies on a continuous slope from a (slope_ok) is "soft": a
        # block unless the whole line is a continuous slope, where the per-pair evaluator decides.
        state = -1
        total = 0
        slope_ok = SLOPE_BIT
        on_map = 0
        soft = False
        # from both ends in turn (blocks near the source, blind hexes near the target): interior hexes
        # and plain vertices only
        near = first + 1
        far = last - 1
        turn = 0
        stopped = False
        while near <= far:
            if turn == 0:
                e = near
                near += 1
            else:
                e = far
                far -= 1
            turn ^= 1
            entry = packed[e]
            k = (entry >> 3) & 3
            cell = base_a + (entry >> 5)
            if k == INTERIOR:
                code = codes[cell]
                slope_ok &= code
                on_map |= code
                if code < 0:
                    kind = code & DRM_MASK
                    if kind == 0:
                        state = 1
                        break
                    if kind == DRM_MASK:
                        stopped = True
                        break
                    soft = True  # SOFT_BLOCK
                else:
                    if code & (ENTRY_SIDE_BIT[entry & 7] << SIDES_SHIFT):
                        # a featured hexside crossed from the hex before (cross d: the step from it)
                        d = (entry & 7) - 1
                        previous = grid[cell - cell_step[d]]
                        if previous >= 0 and previous != a and hs_obst[previous, d] > 0 and hs_obst[previous, d] + max(
                                hex_info[previous, H_GROUND2], hex_info[grid[cell], H_GROUND2]) >= la2:
                            state = 1
                            break
                    if (code >> TOP_SHIFT) - TOP_OFFSET > lb2:
                        r_t = ranges[e, 1]
                        if (blind[cell, 0] > lb2 and r_t <= max(0, (blind[cell, 1] - lb2) // 2)) or (
                                blind[cell, 2] > lb2 and r_t <= max(1, (blind[cell, 3] - lb2) // 2)):
                            soft = True
                    total += code & DRM_MASK
                    if group_b >= 0 and code & ON_MAP_BIT and depression_bank(grid[cell], group_b, ground_b, neighbours,
                                                                             depression_group, hex_info):
                        state = 1
                        break
                if soft and slope_ok == 0:
                    state = 1
                    break
            elif k == VERTEX:
                v = vcodes[cell]
                if v & VERTEX_COMPLEX:
                    # an inherent obstacle, or a wall line through the vertex: the hexes around it decide
                    if e - 1 != first and (packed[e - 1] >> 3) & 3 != INTERIOR:
                        stopped = True
                        break
                    entered = (packed[e + 1] >> 3) & 3 == INTERIOR
                    before = base_a + (packed[e - 1] >> 5)
                    h = grid[cell]
                    effect, reason = asl_hex_effect(h, la2, lb2, False, False, ranges[e, 0], ranges[e, 1],
                                                    hex_info, True)
                    if effect == NONE and entered and (codes[before] | codes[base_a + (packed[e + 1] >> 5)]) & \
                            SIDES_FIELD and asl_vertex_wall_blocks(grid[before], grid[base_a + (packed[e + 1] >> 5)],
                                                                   h, a, b, col, yv, hs_obst, hex_info, la2, False,
                                                                   False):
                        effect = BLOCK
                    if effect != NONE:
                        soft = True
                        if slope_ok == 0:
                            state = 1
                            break
                total += v & DRM_MASK
            else:
                # a hexside run x|y (entries x, y as the forward walk pairs them) of plain hexes: it blocks
                # where both sides block (A6.1), with no DRM
                if turn == 1 and entry & 7 != 0 and e < far:  # x, reached from the source's end
                    cell_y = base_a + (packed[e + 1] >> 5)
                    e_y = e + 1
                    near += 1
                elif turn == 0 and e - 1 >= near and entry & 7 == 0 and (packed[e - 1] >> 3) & 3 == HEXSIDE and \
                        packed[e - 1] & 7 != 0:
                    cell_y = cell  # y, reached from the target's end
                    e_y = e
                    e -= 1
                    cell = base_a + (packed[e] >> 5)
                    far -= 1
                else:
                    stopped = True
                    break
                code = codes[cell]
                code_y = codes[cell_y]
                slope_ok &= code & code_y
                on_map |= code | code_y
                if (vcodes[cell] | vcodes[cell_y]) & RUN_COMPLEX or (code | DRM_MASK) == code or (
                        code_y | DRM_MASK) == code_y:
                    # the rules of the run itself, with the interior hex before it (walls through its vertices)
                    if e - 1 != first and (packed[e - 1] >> 3) & 3 != INTERIOR:
                        stopped = True
                        break
                    before = base_a + (packed[e - 1] >> 5)
                    x = grid[cell]
                    y = grid[cell_y]
                    effect, reason, drm = asl_run_effect(x, y, e, ranges, higher_is_a, la2, lb2, same, slope, hex_info)
                    if effect != BLOCK and run_walls_near(codes, packed, base_a, cell, cell_y, before, e, last) and \
                            asl_run_wall_blocks(x, y, (packed[e] & 7) - 1, e, last, packed, grid, base_a, before,
                                                ranges, a, b, col, yv, hs_obst, hex_info, la2, same, slope) >= 0:
                        effect = BLOCK
                    total += drm
                    if effect != NONE:
                        soft = True
                elif code & code_y & ON_MAP_BIT and (code < 0 or (blind[cell, 0] > lb2 and ranges[e, 1] <= max(
                        0, (blind[cell, 1] - lb2) // 2))) and (code_y < 0 or (blind[cell_y, 0] > lb2 and ranges[
                            e_y, 1] <= max(0, (blind[cell_y, 1] - lb2) // 2))):
                    soft = True
                x = grid[cell]
                y = grid[cell_y]
                if group_b >= 0 and (
                        (x >= 0 and depression_bank(x, group_b, ground_b, neighbours, depression_group, hex_info))
                        or (y >= 0 and depression_bank(y, group_b, ground_b, neighbours, depression_group, hex_info))):
                    state = 1
                    break
                if soft and slope_ok == 0:
                    state = 1
                    break
        if state < 0 and not stopped:
            state = 2 if slope_ok != 0 and on_map & ON_MAP_BIT != 0 else (1 if soft else 0)
        if state < 0:
            # from the source's end, every entry (a vertex with a wall or an inherent obstacle, a run)
            total = 0
            slope_ok = SLOPE_BIT
            on_map = 0
            soft = False
            previous_cell = base_a
            e = first + 1
            while e < last:
                entry = packed[e]
                k = (entry >> 3) & 3
                cell = base_a + (entry >> 5)
                effect = NONE
                if k == INTERIOR:
                    code = codes[cell]
                    slope_ok &= code
                    on_map |= code
                    if code < 0:
                        kind = code & DRM_MASK
                        if kind == 0 or kind == DRM_MASK:
                            state = 1 if kind == 0 else 2
                            break
                        effect = BLOCK
                    else:
                        if code & (ENTRY_SIDE_BIT[entry & 7] << SIDES_SHIFT):
                            previous = grid[previous_cell]
                            d = (entry & 7) - 1
                            wall = hs_obst[previous, d] if previous >= 0 and previous != a else 0
                            if wall > 0 and wall + max(hex_info[previous, H_GROUND2],
                                                       hex_info[grid[cell], H_GROUND2]) >= la2:
                                state = 1
                                break
                        if (code >> TOP_SHIFT) - TOP_OFFSET > lb2:
                            r_t = ranges[e, 1]
                            if (blind[cell, 0] > lb2 and r_t <= max(0, (blind[cell, 1] - lb2) // 2)) or (
                                    blind[cell, 2] > lb2 and r_t <= max(1, (blind[cell, 3] - lb2) // 2)):
                                effect = BLOCK
                        total += code & DRM_MASK
                        if group_b >= 0 and code & ON_MAP_BIT and depression_bank(
                                grid[cell], group_b, ground_b, neighbours, depression_group, hex_info):
                            state = 1
                            break
                    previous_cell = cell
                    e += 1
                elif k == VERTEX:
                    v = vcodes[cell]
                    if v & VERTEX_COMPLEX:
                        h = grid[cell]
                        effect, reason = asl_hex_effect(h, la2, lb2, False, False, ranges[e, 0], ranges[e, 1],
                                                        hex_info, True)
                        if effect == NONE and (packed[e + 1] >> 3) & 3 == INTERIOR:
                            entered = grid[base_a + (packed[e + 1] >> 5)]
                            if (codes[previous_cell] | codes[base_a + (packed[e + 1] >> 5)]) & SIDES_FIELD and \
                                    asl_vertex_wall_blocks(grid[previous_cell], entered, h, a, b, col, yv, hs_obst,
                                                           hex_info, la2, False, False):
                                effect = BLOCK
                    total += v & DRM_MASK
                    e += 1
                else:
                    # a hexside run x|y: entries e and e + 1
                    x = grid[cell]
                    cell_y = base_a + (packed[e + 1] >> 5)
                    y = grid[cell_y]
                    slope_ok &= codes[cell] & codes[cell_y]
                    on_map |= codes[cell] | codes[cell_y]
                    effect, reason, drm = asl_run_effect(x, y, e, ranges, higher_is_a, la2, lb2, same, slope, hex_info)
                    if effect != BLOCK and run_walls_near(codes, packed, base_a, cell, cell_y, previous_cell, e,
                                                          last) and \
                            asl_run_wall_blocks(x, y, (entry & 7) - 1, e, last, packed, grid, base_a, previous_cell,
                                                ranges, a, b, col, yv, hs_obst, hex_info, la2, same, slope) >= 0:
                        effect = BLOCK
                    total += drm
                    if group_b >= 0 and ((x >= 0 and depression_bank(x, group_b, ground_b, neighbours, depression_group,
                                                                     hex_info))
                                         or (y >= 0 and depression_bank(y, group_b, ground_b, neighbours,
                                                                        depression_group, hex_info))):
                        state = 1
                        break
                    e += 2
                if effect != NONE:
                    soft = True
                if soft and slope_ok == 0:
                    state = 1
                    break
            if state < 0:
                state = 2 if slope_ok != 0 and on_map & ON_MAP_BIT != 0 else (1 if soft else 0)
        if state == 2:
            pending[waiting] = j
            waiting += 1
        elif state == 1 or (cap > 0 and total >= cap):
            out[j] = BLOCKED
        else:
            out[j] = total
    return waiting
