"""The per-source walk of the templates' prefix tree (:mod:`kernel.line_of_sight._templates.tree`) for a
source's LOS to the targets at its own level (private; see :mod:`kernel.line_of_sight._sweep.rows`).

:func:`level_states` walks the tree for one source and a LOS between two
Locations at one level (ASL; ``docs/los-semantics.md`` section 2: no blind
hexes, no slope, so a hex's effect depends on the hex and that level alone),
carrying per node the state of the line so far: its hindrance DRM, blocked,
or undecided (a wall or hedge on the hexside a line runs along where the run
touches an end's hex, whose rules depend on that end: the evaluator decides
those targets); other walls along a run and wall lines through its vertices
are decided in the tree (the far vertex's at the node after the run).  A blocked node
ends its subtree: its targets keep the blocked state the output starts
with, so the shadow of a block costs nothing; subtrees whose templates all
end outside the targets' box are skipped.

The walk takes the tree compressed
(:func:`~kernel.line_of_sight._templates.tree.compress_trie`): a chain of
nodes with one child each and no template ending in them is one node, its
entries walked with the state in hand (on the default map 6,818 nodes for
82,568 entries).

Lines down from a higher source do not take the tree: a walk of the down
codes through it (carrying the DRM, the slope and soft-block flags and the
largest blind-hex bound term plus twice the range, each target decided at
its template's end) looked at 13,290 entries from the default map's 71I4
and, with the decisions, made that row slower than the per-target walks,
which stop at a line's first block or blind hex.  Written again with one
largest term per class of target height (every inner interior entry's
ranges from the two ends add up to the line's, so the blind-hex test of a
target ``R`` away reads ``2 R + L <= B + 2 r_s``) and the lines with a
hexside run or a vertex of an inherent obstacle left per target, it matched
the per-target walks' time: on that row the 1,049 lines it decides cost
those walks about 0.18 us each, the 53 lines along hexsides (every run
through ``asl_run_effect``) about 2.8 us and the 146 lines touching an
inherent obstacle's vertex about 0.5 us, together half the row.

Per source and parallel work item: 32 bytes per entry of the longest template (the depth stack) and 8 bytes
per hex (the states).
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit, jit_inline
from kernel.line_of_sight._hex.rules import (
    CODE_MAX_DRM, ENTRY_SIDE_BIT, H_GROUND2, NONE, asl_hex_effect, asl_hex_hindrance, asl_run_effect,
    asl_vertex_wall_blocks, hexside_direction, wall_blocks, walled_vertex,
)
from kernel.line_of_sight._templates.tracer import HEXSIDE, INTERIOR, VERTEX
from kernel.line_of_sight._templates.tree import (
    N_COUNT, N_DC_HI, N_DC_LO, N_DEPTH, N_DY_HI, N_DY_LO, N_END, N_FIRST, N_OWN, N_SUB, N_TPL,
)

#: States of a node or target (int32): >= 0 is ``drm | flags``; below 0 blocked outright or undecided.
HARD = -1
UNDECIDED = -2
STATE_DRM = (1 << 20) - 1
STATE_RUN_OPEN = 1 << 21  # the node is the first side of a hexside run
STATE_VERTEX_OPEN = 1 << 22  # the node is a vertex beside a featured hexside
STATE_RUN_AFTER = 1 << 23  # the node ends a hexside run beside a featured hexside: the hex after it decides
RUN_SIDE_SHIFT = 24  # (3 bits, while a run is open: its first entry's hexside bits, the run's direction + 1)


@jit_inline
def template_target(j, box, targets, grid, base_a):
    """The hex the ``j``-th template (in the tree's order) ends at from the hex whose cell is ``base_a``,
    or -1 (off the map or outside the box of offsets)."""
    dc = targets[j, 0]
    dy = targets[j, 1]
    if dc < box[0] or dc > box[1] or dy < box[2] or dy > box[3]:
        return -1
    return grid[base_a + targets[j, 2]]


@jit
def level_states(a, S2, box, nodes, entries, targets, grid, base_a, ranges, col, yv, hs_obst, hex_info, same_row,
                 fast_grid, stack, out):
    """Write ``out[h]``, for every target hex ``h`` whose template ends in a walked subtree, the state of
    its LOS from hex ``a`` to a target at the same level, ``S2`` half levels (``docs/los-semantics.md``
    section 2, as the evaluator's walk to the first block): ``drm`` (>= 0), or UNDECIDED.  ``out``
    must hold HARD beforehand: the targets in the shadow of a block are not written.  Interior hexes
    are read from ``same_row`` (the source level's row of the same-level codes), vertex touches and
    hexside runs from ``fast_grid`` and the hexes' rows; a run along a wall or hedge that touches an
    end's hex is undecided, a vertex or run beside one is decided at the entry after it (whether a wall
    line passes there).  ``box``: the targets' column and exact-y offsets from
    ``a`` (least and greatest of each); subtrees outside it are skipped, and templates outside it not
    written (their cells may lie outside the grid from ``a``).  ``nodes``, ``entries``: the compressed
    tree (:func:`~kernel.line_of_sight._templates.tree.compress_trie`), whose node's entries are walked with the state in hand; ``stack``:
    scratch, four int64 per depth.  Returns the number of entries looked at."""
    n = nodes.shape[0]
    fast_limit = (S2 << 8) | 255
    same = higher = np.bool_(True)
    no_target = np.int32(-1)  # (the tree holds inner entries only: no entry is the target's hex)
    slope = np.bool_(False)
    dc_lo, dc_hi, dy_lo, dy_hi = box[0], box[1], box[2], box[3]
    c = 0
    visited = 0
    state = np.int64(0)
    previous_cell = run_cell = run_y = base_a
    while c < n:
        if nodes[c, N_DC_HI] < dc_lo or nodes[c, N_DC_LO] > dc_hi or nodes[c, N_DY_HI] < dy_lo or \
                nodes[c, N_DY_LO] > dy_hi:
            c = nodes[c, N_END]
            continue
        depth = nodes[c, N_DEPTH]
        if depth == 0:
            state = np.int64(0)
            previous_cell = run_cell = run_y = base_a
        else:
            state = stack[depth - 1, 0]
            previous_cell = stack[depth - 1, 1]
            run_cell = stack[depth - 1, 2]
            run_y = stack[depth - 1, 3]
        first = nodes[c, N_FIRST]
        last = first + nodes[c, N_COUNT] - 1
        depth += last - first  # (the depth of the chain's last node: its state's place on the stack)
        skip = False
        for e in range(first, last + 1):
            visited += 1
            entry = entries[e]
            k = (entry >> 3) & 3
            cell = base_a + (entry >> 5)
            if state & STATE_VERTEX_OPEN:
                # the entry after a vertex beside a featured hexside: a wall line through the vertex (B9) from
                # the interior hex before it into this one blocks (as in the evaluator's vertex step; the wall
                # it needs on that hexside also blocks the crossing into this hex, so no test tells them apart)
                state ^= STATE_VERTEX_OPEN
                if k == INTERIOR and asl_vertex_wall_blocks(grid[previous_cell], grid[cell], grid[run_cell], a,
                                                            no_target, col, yv, hs_obst, hex_info, S2, same, slope):
                    state = HARD
            if state >= 0 and state & STATE_RUN_AFTER:  # (a HARD state has every bit)
                # the hex entered after a run x|y beside a featured hexside: walls on both its hexsides with x and y
                # (a wall line through the run's far vertex, B9) block there (the evaluator's run step)
                state ^= STATE_RUN_AFTER
                if k == INTERIOR and walled_vertex(grid[cell], grid[run_cell], grid[run_y], a, no_target, col, yv,
                                                   hs_obst, hex_info, S2, same, slope):
                    state = HARD
            if state < 0:
                pass
            elif state & STATE_RUN_OPEN and k != HEXSIDE:
                state = UNDECIDED
            elif k == INTERIOR:
                code = np.int64(same_row[cell])
                if code & ENTRY_SIDE_BIT[entry & 7]:
                    # a featured hexside crossed on the way in: an ASL wall or hedge rising above S2 blocks
                    d = (entry & 7) - 1
                    previous = grid[previous_cell]
                    h = grid[cell]
                    if d >= 0 and previous >= 0 and h >= 0 and previous != a and hs_obst[previous, d] > 0 and \
                            hs_obst[previous, d] + max(hex_info[previous, H_GROUND2], hex_info[h, H_GROUND2]) > S2:
                        state = HARD
                code >>= 6
                if state >= 0:
                    if code > CODE_MAX_DRM:
                        state = HARD
                    else:
                        state += code
                previous_cell = cell
            elif k == VERTEX:
                key = fast_grid[cell]
                if key > fast_limit:
                    # inherent obstacles and hindrances only (section 2, 'vertex step')
                    h = grid[cell]
                    effect, reason = asl_hex_effect(h, S2, S2, same, slope, 0, 0, hex_info, True)
                    if effect != NONE:
                        state = HARD
                    else:
                        terrain, smoke, vehicle = asl_hex_hindrance(h, S2, S2, same, slope, True, hex_info)
                        state += terrain + smoke + vehicle
                if key & 63 and state >= 0:
                    state |= STATE_VERTEX_OPEN  # a wall line may pass through it: the next entry decides
                    run_cell = cell
            else:
                # a hexside run x|y (two consecutive entries): without featured hexsides on either side no wall
                # can block it, and its effect depends on the two hexes alone
                key = fast_grid[cell]
                if state & STATE_RUN_OPEN == 0:
                    state |= STATE_RUN_OPEN | ((entry & 7) << RUN_SIDE_SHIFT)
                    run_cell = cell
                else:
                    run_dir = ((state >> RUN_SIDE_SHIFT) & 7) - 1
                    state &= ~(STATE_RUN_OPEN | (7 << RUN_SIDE_SHIFT))
                    x = grid[run_cell]
                    y = grid[cell]
                    if (x >= 0 and fast_grid[run_cell] > fast_limit) or (y >= 0 and key > fast_limit):
                        # (ranges are read for blind hexes only, which a same-level LOS has not: any entry's do)
                        effect, reason, drm = asl_run_effect(x, y, np.int64(0), ranges, higher, S2, S2, same, slope,
                                                             hex_info)
                        if effect != NONE:
                            state = HARD
                        else:
                            state += drm
                    if state >= 0 and x >= 0 and y >= 0 and (fast_grid[run_cell] | key) & 63:
                        # walls or hedges beside the run (B9, the evaluator's asl_run_wall_blocks): one on x|y that
                        # rises above the line blocks it unless the run touches an end's hex (then its far vertex
                        # decides: undecided); a wall line through the near vertex blocks here, one through the far
                        # vertex at the hex entered after it
                        if run_dir < 0:
                            state = UNDECIDED
                        elif hs_obst[x, run_dir] > 0 and wall_blocks(x, run_dir, y, hs_obst, hex_info, S2, same, slope):
                            if hexside_direction(col, yv, a, x) >= 0 and hexside_direction(col, yv, a, y) >= 0:
                                state = UNDECIDED  # (the run starts at the source's vertex)
                            else:
                                # the lines going on are blocked at x; one ending right after the run may touch
                                # the target's hex along it, whose own rules apply: undecided
                                if e == last:
                                    for j in range(nodes[c, N_TPL], nodes[c, N_TPL] + nodes[c, N_OWN]):
                                        h = template_target(j, box, targets, grid, base_a)
                                        if h >= 0:
                                            out[h] = UNDECIDED
                                skip = True
                                break
                        elif walled_vertex(grid[previous_cell], x, y, a, no_target, col, yv, hs_obst, hex_info, S2,
                                           same, slope):
                            state = HARD
                        else:
                            state |= STATE_RUN_AFTER
                            run_y = cell
            if state < 0 or (state & STATE_DRM) > STATE_DRM - 1024:
                if state != HARD:  # (the targets beyond a block keep out's HARD)
                    for j in range(nodes[c, N_TPL], nodes[c, N_TPL] + nodes[c, N_SUB]):
                        h = template_target(j, box, targets, grid, base_a)
                        if h >= 0:
                            out[h] = UNDECIDED
                skip = True
                break
        if skip:
            c = nodes[c, N_END]
            continue
        stack[depth, 0] = state
        stack[depth, 1] = previous_cell
        stack[depth, 2] = run_cell
        stack[depth, 3] = run_y
        # (a template ending at a vertex enters the target's hex after it, whose hexsides never block)
        # (nor one ending right after a run, whose hex after it is the target: B9.2)
        own = state & ~(STATE_VERTEX_OPEN | STATE_RUN_AFTER) if state & STATE_RUN_OPEN == 0 else UNDECIDED
        for j in range(nodes[c, N_TPL], nodes[c, N_TPL] + nodes[c, N_OWN]):
            h = template_target(j, box, targets, grid, base_a)
            if h >= 0:
                out[h] = own
        c += 1
    return visited
