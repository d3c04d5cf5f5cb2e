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
reads one int32 per crossed hex.  The line is walked from both ends in turn
(blocks near the source, blind hexes near the target, so a blocked line
ends sooner), and again from the source's end when it meets a vertex with a
wall or inherent obstacle, or a hexside run, where the rules need the hexes
before it (:mod:`kernel.line_of_sight._sweep.down_walk`).

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

:func:`source_row` is its steps in turn, each called once per row:
:func:`row_plan` (which of the three ways serve the row),
:func:`at_level_states` (the tree walk), :func:`row_codes` (the down
codes), :func:`~kernel.line_of_sight._sweep.down_walk.walk_down` (the lines
down, all targets in one call: called per target, a walk would bind its
arrays per target) and :func:`evaluate_pending` (the per-pair evaluator for
the rest).

Scratch per parallel work item: 24 bytes per cell of the trace templates'
padded grid, 32 bytes per target, 8 bytes per hex and the tree walk's
stack (32 bytes per entry of the longest template).
"""

from __future__ import annotations

import numba
import numpy as np

from kernel._jit import jit, jit_parallel
from kernel.line_of_sight._sweep.down_codes import SLOPE_BIT, down_codes, hex_range
from kernel.line_of_sight._sweep.down_walk import walk_down
from kernel.line_of_sight._hex.pairs import evaluate_pairs, pair_buffers
from kernel.line_of_sight._hex.rules import BLOCKED, RULESET_ASL, end_smoke, location_height2
from kernel.line_of_sight._sweep.target_table import T_COLUMN, T_FLAGS, T_HEIGHT, T_Y, TARGET_SMOKE, target_table
from kernel.line_of_sight._templates.tree import NO_RANGE_LIMIT
from kernel.line_of_sight._sweep.tree_walk import HARD as STATE_HARD, level_states

#: The per-source codes serve a source when at least half its targets lie this many levels below it
#: (else every pair goes per pair).
MIN_LEVELS_BELOW = 1
#: ``skip_from`` of a row with no target left out.
NO_SKIP = 1 << 40
NOT_IN_TREE = STATE_HARD - 2  # (a state) a line the tree does not hold: to the source itself or a hex next to it
# (no inner entry), or beyond the tree's range limit


@jit
def row_plan(ruleset, a, level_a, la2, lo, hi, heights, skip_from, lowest, hex_info, depression_group, nodes,
             level_row, level_min):
    """``(usable, code_row, skipped)`` of source ``a`` at ``level_a`` (``la2`` half levels) and targets
    ``lo .. hi - 1`` of heights ``heights``: whether its down codes serve the targets below it, the row
    of the same-level codes for the tree walk of the targets at its level (-1: none), and the number of
    targets ``skip_from`` half levels high or higher (left out)."""
    plain_source = ruleset == RULESET_ASL and end_smoke(a, la2, hex_info) == 0 and not (
        level_a == 0 and depression_group[a] >= 0)
    well_below = 0
    at_level = 0
    skipped = 0
    for j in range(lo, hi):
        well_below += heights[j] <= la2 - 2 * MIN_LEVELS_BELOW
        at_level += heights[j] == la2
        skipped += heights[j] >= skip_from
    wanted = hi - lo - skipped
    # the codes pay where most targets lie below the source (at ground level most pairs are same-level ones)
    usable = plain_source and la2 > lowest and 2 * well_below >= wanted
    # LOS at the source's level: the same-level codes, through the templates' tree, whose walk visits
    # every node outside the shadows of blocks: it pays where most targets share the source's level (a
    # hill source's few same-level targets, seen far across lower ground, go per pair)
    code_row = -1
    if plain_source and 2 * at_level >= wanted and nodes.shape[0] > 0 and 0 <= la2 - level_min < level_row.shape[0]:
        code_row = level_row[la2 - level_min]
    return usable, code_row, skipped


@jit
def at_level_states(a, la2, lo, hi, targets, target_info, tpl, board_tables, counters, trie, code_row):
    """Per hex, the state of the LOS from source ``a`` at ``la2`` half levels to the targets ``lo .. hi - 1``
    at its level, by one walk of the templates' prefix tree over the same-level codes of row ``code_row``
    (:func:`~kernel.line_of_sight._sweep.tree_walk.level_states`); NOT_IN_TREE for the lines the tree
    does not hold."""
    grid, base, start, packed, ranges, max_dc, max_dy = tpl
    col, yv, hs_obst, hs_hind, cap, units_block, neighbours, depression_group = board_tables
    hex_info, fast_grid, same_code, level_row, level_min = counters
    nodes, entries, tree_targets, depth, range_limit = trie
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
    states = np.full(hex_info.shape[0], STATE_HARD, np.int64)
    states[a] = NOT_IN_TREE  # (the lines with no inner entry)
    for d in range(neighbours.shape[1]):
        if neighbours[a, d] >= 0:
            states[neighbours[a, d]] = NOT_IN_TREE
    if range_limit < NO_RANGE_LIMIT:  # a tree of the shorter lines only
        for j in range(lo, hi):
            if hex_range(columns[j] - col[a], ys[j] - yv[a]) > range_limit:
                states[targets[j]] = NOT_IN_TREE
    level_states(a, la2, box, nodes, entries, tree_targets, grid, base[a], ranges, col, yv, hs_obst, hex_info,
                 same_code[code_row], fast_grid, np.empty((depth, 4), np.int64), states)
    return states


@jit
def row_codes(a, la2, grid, base, col, yv, hex_info, fast_grid):
    """``(codes, vcodes, blind)``: source ``a``'s down codes at ``la2`` half levels, per cell of the
    templates' grid (:func:`~kernel.line_of_sight._sweep.down_codes.down_codes`)."""
    codes = np.full(grid.shape[0], SLOPE_BIT, np.int32)
    vcodes = np.zeros(grid.shape[0], np.int32)
    blind = np.empty((grid.shape[0], 4), np.int32)
    down_codes(a, la2, base, col, yv, hex_info, fast_grid, codes, vcodes, blind)
    return codes, vcodes, blind


@jit
def source_row(ruleset, a, level_a, lo, hi, targets, target_levels, target_info, tpl, board_tables, counters, cell_step,
               trie, lowest, skip_from, out):
    """``out[j]`` for targets ``lo .. hi - 1`` of source ``a`` at ``level_a``: the LOS's hindrance DRM
    (not saturated), or BLOCKED; targets ``skip_from`` half levels high or higher are left out (``out``
    not written).  ``target_info``: the targets' table (:func:`target_table`); ``trie``: the templates'
    prefix tree (``nodes, entries, targets, depth, range_limit``, :mod:`kernel.line_of_sight._templates.tree`);
    ``lowest``: the lowest target's height in half levels.

    Each target is served by the tree walk's state (at the source's level), by the walks of the down
    codes (below it), or else by the per-pair evaluator, called once for all of those."""
    grid, base, start, packed, ranges, max_dc, max_dy = tpl
    col, yv, hs_obst, hs_hind, cap, units_block, neighbours, depression_group = board_tables
    hex_info, fast_grid, same_code, level_row, level_min = counters
    la2 = location_height2(a, level_a, hex_info)
    heights, target_flags = target_info[T_HEIGHT], target_info[T_FLAGS]
    usable, code_row, skipped = row_plan(ruleset, a, level_a, la2, lo, hi, heights, skip_from, lowest, hex_info,
                                         depression_group, trie[0], level_row, level_min)
    states = np.empty(0, np.int64)
    if code_row >= 0:
        states = at_level_states(a, la2, lo, hi, targets, target_info, tpl, board_tables, counters, trie, code_row)
    count = hi - lo
    pending = np.empty(count, np.int64)  # targets for the per-pair evaluator
    # an int64, not the literal 0: numba's type inference would compile walk_down once more for the literal
    waiting = np.int64(0)
    down = np.empty(count if usable else 0, np.int64)  # targets for the walks of the down codes
    below = 0
    looped = usable or code_row >= 0 or skipped > 0
    for j in range(lo, hi if looped else lo):
        lb2 = heights[j]
        if lb2 >= skip_from:
            continue
        if lb2 == la2 and code_row >= 0 and target_flags[j] == 0:
            state = states[targets[j]]
            if state >= 0:
                out[j] = BLOCKED if cap > 0 and state >= cap else state
                continue
            if state == STATE_HARD:
                out[j] = BLOCKED
                continue
        if not usable or lb2 >= la2 or target_flags[j] & TARGET_SMOKE:
            pending[waiting] = j
            waiting += 1
        else:
            down[below] = j
            below += 1
    if below > 0:
        codes, vcodes, blind = row_codes(a, la2, grid, base, col, yv, hex_info, fast_grid)
        waiting = walk_down(a, la2, down[:below], targets, target_info, tpl, board_tables, hex_info, codes, vcodes,
                            blind, cell_step, pending, waiting, out)
    if waiting > 0 or not looped:
        evaluate_pending(ruleset, a, level_a, lo, hi, looped, pending[:waiting], targets, target_levels, tpl,
                         board_tables, counters, out)


@jit
def evaluate_pending(ruleset, a, level_a, lo, hi, looped, pending, targets, target_levels, tpl, board_tables, counters,
                     out):
    """``out[j]`` through the per-pair evaluator for the targets ``j`` in ``pending`` of source ``a`` at
    ``level_a`` (for every target ``lo .. hi - 1``, without copies, where not ``looped``)."""
    # both calls below pass slices of the same kinds (one set of argument types: one compiled evaluator)
    source = np.empty(1, targets.dtype)
    source[0] = a
    source_level = np.empty(1, target_levels.dtype)
    source_level[0] = level_a
    if not looped:  # every pair per pair (another rule set, an end smoke): no copies
        count = hi - lo
        records, blocked, total_b, at, reason, blind_b, slope = pair_buffers(count)
        evaluate_pairs(ruleset, False, False, source[0:1], source_level[0:1], 0, targets[lo:hi], target_levels[lo:hi],
                       1, tpl, board_tables, counters, records, blocked, total_b, at, reason, blind_b, slope)
        for j in range(count):
            out[lo + j] = BLOCKED if blocked[j] else total_b[j]
        return
    waiting = pending.shape[0]
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
