"""Per-source fields of fire (private; see :mod:`kernel.line_of_sight.fields`).

:func:`source_fields_kernel` answers what :func:`~kernel.line_of_sight._hex.queries.fields_kernel`
answers (per source and target: blocked, or the hindrance DRM), with the same
numbers, faster where the source is above its targets or at their level.

For one source at ``S2`` half levels, the effect of a hex on a LOS down to
any lower target, when that LOS is not a continuous slope, depends on the
hex alone except for its blind-hex test (ASL; ``docs/los-semantics.md``
section 2): it blocks outright (hill ground at or above ``S2``, an
obstacle reaching ``S2``), or adds a fixed hindrance DRM and may be a blind
hex for targets close enough below it.
:func:`~kernel.line_of_sight._sweep.down_codes.down_codes` writes these per grid
cell once per source (int32 ``codes``, with the blind-hex bounds
in ``blind``, the vertex touches in ``vcodes``); each target's line then
reads one int32 per crossed hex.  The line is walked from the target's end
(blind hexes lie near the target, so a blocked line ends sooner), and
again from the source's end when it meets a vertex with a wall or inherent
obstacle, or a hexside run, where the rules need the hexes before it.

Targets at the source's own level, when they are at least half the
targets (a source at ground level on most maps), are served by one walk of
the templates' prefix tree (:mod:`kernel.line_of_sight._templates.tree`)
over the same-level codes of the counters' tables: lines sharing their
first hexes share that work, and no line in the shadow of a block is
walked.  The tree leaves undecided the lines along a hexside or through a
vertex beside a featured hexside (walls).

For the field of fire only "blocked" and the total DRM matter, and both
are independent of the order of the steps (every DRM is >= 0, the
hindrance cap is compared with the total at the end).  Every other pair
goes to the per-pair evaluator
(:func:`~kernel.line_of_sight._hex.pairs.evaluate_pairs`) in one call per
source: other rule sets, targets above the source, targets at its level
the tree leaves undecided (or of a source with fewer than half its targets
at its level), SMOKE in an end's hex, an end in a depression, a possible
continuous slope (every hex crossed one level lower per hex of range; B.5)
meeting a blind hex or a hex the slope would change, a hex with a DRM too
large for its code.

The wall and hedge rules of a vertex or a hexside run (B9:
``asl_vertex_wall_blocks``, ``asl_run_wall_blocks``) read only the
hexsides of the hexes around it; where none of those has a featured hexside
(the codes' sides field) no wall can block there, and the walks leave the
call out.

Scratch per parallel work item: 24 bytes per cell of the trace templates'
padded grid, 24 bytes per target, 8 bytes per hex and the tree walk's
stack (32 bytes per entry of the longest template).
"""

from __future__ import annotations

import numba
import numpy as np

from kernel._jit import jit, jit_inline, jit_parallel
from kernel.line_of_sight._sweep.down_codes import (
    DRM_MASK, ON_MAP_BIT, RUN_COMPLEX, SIDES_SHIFT, SLOPE_BIT, TOP_OFFSET, TOP_SHIFT, VERTEX_COMPLEX, down_codes,
    hex_range,
)
from kernel.line_of_sight._hex.pairs import evaluate_pairs, pair_buffers
from kernel.line_of_sight._hex.rules import (
    BLOCK, BLOCKED, ENTRY_SIDE_BIT, H_GROUND2, RULESET_ASL, NONE, asl_hex_effect, asl_run_effect, asl_run_wall_blocks,
    asl_vertex_wall_blocks, depression_bank, end_smoke, location_height2,
)
from kernel.line_of_sight._sweep.target_table import T_COLUMN, T_FLAGS, T_HEIGHT, T_Y, TARGET_DEPRESSION, TARGET_SMOKE, \
    target_table
from kernel.line_of_sight._templates.tree import NO_RANGE_LIMIT
from kernel.line_of_sight._sweep.tree_walk import HARD as STATE_HARD, level_states
from kernel.line_of_sight._templates.tracer import HEXSIDE, INTERIOR, VERTEX

#: The per-source codes serve a source when at least half its targets lie this many levels below it
#: (else every pair goes per pair).
MIN_LEVELS_BELOW = 1
#: ``skip_from`` of a row with no target left out.
NO_SKIP = 1 << 40
SIDES_FIELD = 63 << SIDES_SHIFT  # (of a code: the hex's featured hexsides, walls and hedges among them)
NOT_IN_TREE = STATE_HARD - 2  # (a state) a line the tree does not hold: to the source itself or a hex next to it
# (no inner entry), or beyond the tree's range limit


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
def source_row(ruleset, a, level_a, lo, hi, targets, target_levels, target_info, tpl, board_tables, counters, cell_step,
               trie, lowest, skip_from, out):
    """``out[j]`` for targets ``lo .. hi - 1`` of source ``a`` at ``level_a``: the LOS's hindrance DRM
    (not saturated), or BLOCKED; targets ``skip_from`` half levels high or higher are left out (``out``
    not written).  ``target_info``: the targets' table (:func:`target_table`); ``trie``: the templates'
    prefix tree (``nodes, entries, targets, depth, range_limit``, :mod:`kernel.line_of_sight._templates.tree`);
    ``lowest``: the lowest target's height in half levels."""
    grid, base, start, packed, ranges, max_dc, max_dy = tpl
    col, yv, hs_obst, hs_hind, cap, units_block, neighbours, depression_group = board_tables
    hex_info, fast_grid, same_code, level_row, level_min = counters
    nodes, entries, tree_targets, depth, range_limit = trie
    # the run's flags as run-time booleans, not literals: its rule steps compile once for this walk and the
    # per-pair walk (the source is the higher end; lines down, never at one level or on a continuous slope)
    higher_is_a = np.bool_(True)
    same = slope = np.bool_(False)
    la2 = location_height2(a, level_a, hex_info)
    count = hi - lo
    pending = np.empty(count, np.int64)  # targets for the per-pair evaluator
    waiting = 0
    plain_source = ruleset == RULESET_ASL and end_smoke(a, la2, hex_info) == 0 and not (
        level_a == 0 and depression_group[a] >= 0)
    heights, target_flags = target_info[T_HEIGHT], target_info[T_FLAGS]
    well_below = 0
    at_level = 0
    skipped = 0
    for j in range(lo, hi):
        well_below += heights[j] <= la2 - 2 * MIN_LEVELS_BELOW
        at_level += heights[j] == la2
        skipped += heights[j] >= skip_from
    wanted = count - skipped
    # the codes pay where most targets lie below the source (at ground level most pairs are same-level ones)
    usable = plain_source and la2 > lowest and 2 * well_below >= wanted
    # LOS at the source's level: the same-level codes, through the templates' tree, whose walk visits
    # every node outside the shadows of blocks: it pays where most targets share the source's level (a
    # hill source's few same-level targets, seen far across lower ground, go per pair)
    code_row = -1
    if plain_source and 2 * at_level >= wanted and nodes.shape[0] > 0 and 0 <= la2 - level_min < level_row.shape[0]:
        code_row = level_row[la2 - level_min]
    base_a = base[a]
    width = 2 * max_dy + 1
    at_level_states = np.empty(0, np.int64)
    if code_row >= 0:
        # the targets' column and exact-y offsets, as the tree's template boxes (bounds in locals, not an array)
        dc_lo = dy_lo = np.int64(1 << 30)
        dc_hi = dy_hi = np.int64(-(1 << 30))
        columns, ys = target_info[T_COLUMN], target_info[T_Y]
        for j in range(lo, hi):
            dc_lo, dc_hi = min(dc_lo, columns[j]), max(dc_hi, columns[j])
            dy_lo, dy_hi = min(dy_lo, ys[j]), max(dy_hi, ys[j])
        box = np.empty(4, np.int64)
        box[0], box[1] = dc_lo - col[a] + max_dc, dc_hi - col[a] + max_dc
        box[2], box[3] = dy_lo - yv[a] + max_dy, dy_hi - yv[a] + max_dy
        at_level_states = np.full(hex_info.shape[0], STATE_HARD, np.int64)
        at_level_states[a] = NOT_IN_TREE  # (the lines with no inner entry)
        for d in range(neighbours.shape[1]):
            if neighbours[a, d] >= 0:
                at_level_states[neighbours[a, d]] = NOT_IN_TREE
        if range_limit < NO_RANGE_LIMIT:  # a tree of the shorter lines only
            for j in range(lo, hi):
                if hex_range(columns[j] - col[a], ys[j] - yv[a]) > range_limit:
                    at_level_states[targets[j]] = NOT_IN_TREE
        level_states(a, la2, box, nodes, entries, tree_targets, grid, base_a, ranges, col, yv, hs_obst, hex_info,
                     same_code[code_row], fast_grid, np.empty((depth, 4), np.int64), at_level_states)
    prepared = False
    codes = np.empty(0, np.int32)
    vcodes = np.empty(0, np.int32)
    blind = np.empty((0, 4), np.int32)
    looped = usable or code_row >= 0 or skipped > 0
    for j in range(lo, hi if looped else lo):
        b = targets[j]
        lb2 = heights[j]
        if lb2 >= skip_from:
            continue
        if lb2 == la2 and code_row >= 0 and target_flags[j] == 0:
            state = at_level_states[b]
            if state >= 0:
                out[j] = BLOCKED if cap > 0 and state >= cap else state
                continue
            if state == STATE_HARD:
                out[j] = BLOCKED
                continue
        if not usable or lb2 >= la2 or target_flags[j] & TARGET_SMOKE:
            pending[waiting] = j
            waiting += 1
            continue
        if not prepared:
            codes = np.full(grid.shape[0], SLOPE_BIT, np.int32)
            vcodes = np.zeros(grid.shape[0], np.int32)
            blind = np.empty((grid.shape[0], 4), np.int32)
            down_codes(a, la2, base, col, yv, hex_info, fast_grid, codes, vcodes, blind)
            prepared = True
        t = (col[b] - col[a] + max_dc) * width + (yv[b] - yv[a] + max_dy)
        first = start[t]
        last = start[t + 1] - 1
        # a target at ground level in a depression sees out only across its banks (A6.3)
        group_b = depression_group[b] if target_flags[j] & TARGET_DEPRESSION else -1
        ground_b = hex_info[b, H_GROUND2]
        # The walk, written out here (as a function, binding its arrays per target cost more than the walk).
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
    if waiting == 0 and looped:
        return
    # both calls below pass slices of the same kinds (one set of argument types: one compiled evaluator)
    source = np.empty(1, targets.dtype)
    source[0] = a
    source_level = np.empty(1, target_levels.dtype)
    source_level[0] = level_a
    if not looped:  # every pair per pair (another rule set, an end smoke): no copies
        records, blocked, total_b, at, reason, blind_b, slope = pair_buffers(count)
        evaluate_pairs(ruleset, False, False, source[0:1], source_level[0:1], 0, targets[lo:hi], target_levels[lo:hi],
                       1, tpl, board_tables, counters, records, blocked, total_b, at, reason, blind_b, slope)
        for j in range(count):
            out[lo + j] = BLOCKED if blocked[j] else total_b[j]
        return
    records, blocked, total_b, at, reason, blind_b, slope = pair_buffers(waiting)
    hexes = np.empty(waiting, targets.dtype)
    levels = np.empty(waiting, target_levels.dtype)
    for i in range(waiting):
        hexes[i] = targets[pending[i]]
        levels[i] = target_levels[pending[i]]
    evaluate_pairs(ruleset, False, False, source[0:1], source_level[0:1], 0, hexes[0:waiting], levels[0:waiting], 1,
                   tpl, board_tables, counters, records, blocked, total_b, at, reason, blind_b, slope)
    for i in range(waiting):
        out[pending[i]] = BLOCKED if blocked[i] else total_b[i]


# numba's own parallel loop: run in parts as a serial kernel it compiles faster but runs slower on one source
@jit_parallel
def source_fields_kernel(ruleset, sources, source_levels, targets, target_levels, tpl, board_tables, counters,
                         cell_step, trie, parts, out):
    """``out[k, j]``: the LOS from source ``k`` to target ``j``, its hindrance DRM (not saturated) or
    BLOCKED.  Work items are (source, one of ``parts`` slices of the targets); each writes only its
    own slice of row k."""
    n = targets.shape[0]
    target_info, lowest = target_table(targets, target_levels, board_tables.col, board_tables.y,
                                       counters.hex_info, board_tables.depression_group)
    size = (n + parts - 1) // parts
    for item in numba.prange(sources.shape[0] * parts):
        k = item // parts
        lo = (item % parts) * size
        hi = min(n, lo + size)
        if lo < hi:
            source_row(ruleset, sources[k], source_levels[k], lo, hi, targets, target_levels, target_info, tpl,
                       board_tables, counters, cell_step, trie, lowest, np.int64(NO_SKIP), out[k])
