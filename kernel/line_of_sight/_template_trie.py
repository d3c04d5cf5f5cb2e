"""The trace templates as a prefix tree, walked once per source for its LOS at its own level (private;
see :mod:`kernel.line_of_sight._source_kernels`).

Lines from one source to neighbouring targets cross the same hexes first:
the templates' inner entries (every entry but the two ends, as the
evaluator walks them) share prefixes.  :func:`build_trie` merges equal
prefixes into one node (an entry, packed as in the templates: the cell
offset, the kind of contact and the hexside crossed on the way in) and lays
the nodes out in depth-first pre-order, so that a node's subtree is the
index range ``[i, end[i])`` and the templates ending in it are one range of
the template list.  Each template ends at the node of its last inner entry.
On the default map the 1,331 lines from 71I4 have 39,753 inner entries and
16,230 distinct prefixes.

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

The walk takes the tree compressed (:func:`compress_trie`): a chain of
nodes with one child each and no template ending in them is one node, its
entries walked with the state in hand (on the default map 6,818 nodes for
82,568 entries).

Lines down from a higher source do not take the tree: a walk of the down
codes through it (carrying the DRM, the slope and soft-block flags and the
largest blind-hex bound term plus twice the range, each target decided at
its template's end) looked at 13,290 entries from the default map's 71I4
and, with the decisions, made that row slower than the per-target walks,
which stop at a line's first block or blind hex.

Memory: the compressed tree, built once per board: 4 bytes per node of the
plain tree (at most one per inner template entry), 44 bytes per compressed
node and 12 bytes per template: on the default map 0.69 MB, 0.52 kB per
hex (building it holds the plain tree's 40 bytes per node for a moment:
3.3 MB there).  On a board whose templates hold more than
:data:`MAX_ENTRIES` entries the tree holds the lines up to the longest range
whose templates hold at most that many (:func:`tree_templates`); the longer
lines take the per-source walk or the evaluator.  Per source and parallel work item: 32 bytes per
entry of the longest template (the depth stack) and 8 bytes per hex (the
states).
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit, jit_inline
from kernel.line_of_sight._rules import (
    CODE_MAX_DRM, ENTRY_SIDE_BIT, H_GROUND2, NONE, asl_hex_effect, asl_hex_hindrance, asl_run_effect,
    asl_vertex_wall_blocks, hexside_direction, wall_blocks, walled_vertex,
)
from kernel.line_of_sight.tracer import HEXSIDE, INTERIOR, VERTEX

#: States of a node or target (int32): >= 0 is ``drm | flags``; below 0 blocked outright or undecided.
HARD = -1
UNDECIDED = -2
STATE_DRM = (1 << 20) - 1
STATE_RUN_OPEN = 1 << 21  # the node is the first side of a hexside run
STATE_VERTEX_OPEN = 1 << 22  # the node is a vertex beside a featured hexside
STATE_RUN_AFTER = 1 << 23  # the node ends a hexside run beside a featured hexside: the hex after it decides
RUN_SIDE_SHIFT = 24  # (3 bits, while a run is open: its first entry's hexside bits, the run's direction + 1)
#: The most template entries a tree holds (building it: at most 52 bytes per entry).
MAX_ENTRIES = 4_000_000
#: The range limit of a tree that holds every line.
NO_RANGE_LIMIT = 1 << 40


def tree_templates(start, max_dc, max_dy, limit):
    """``(keep, range_limit)``: the templates a tree holds (bool per template: those with an inner entry
    and a range of at most ``range_limit``) and that limit: the longest range whose templates, with every
    shorter one, hold at most ``limit`` entries (:data:`NO_RANGE_LIMIT` where all of them do).  The range
    of template ``t`` is that of its offset, ``t // (2 max_dy + 1) - max_dc`` columns and
    ``t % (2 max_dy + 1) - max_dy`` exact-y steps (as the tracer's ranges).

    Examples
    --------
    Five offsets in one row, -2..2 columns (ranges 2, 1, 0, 1, 2), of 4, 3, 1, 3 and 4 entries:

    >>> start = np.cumsum([0, 4, 3, 1, 3, 4])
    >>> keep, limit = tree_templates(start, 2, 0, 100)
    >>> int(limit) == NO_RANGE_LIMIT, np.flatnonzero(keep).tolist()
    (True, [0, 1, 3, 4])
    >>> keep, limit = tree_templates(start, 2, 0, 8)
    >>> int(limit), np.flatnonzero(keep).tolist()
    (1, [1, 3])
    """
    length = np.diff(start)
    t = np.arange(length.shape[0])
    i = np.abs(t // (2 * max_dy + 1) - max_dc)
    j = np.abs(t % (2 * max_dy + 1) - max_dy)
    ranges = np.where(i > (i + j) // 2, i, (i + j) // 2)
    if length.sum() <= limit:
        return length > 2, NO_RANGE_LIMIT
    by_range = np.bincount(ranges, weights=length)
    fits = np.flatnonzero(np.cumsum(by_range) <= limit)
    range_limit = int(fits[-1]) if fits.shape[0] else -1
    return (length > 2) & (ranges <= range_limit), range_limit
# columns of the per-node table (of the compressed tree: N_FIRST in place of N_ENTRY, and N_COUNT)
N_ENTRY, N_DEPTH, N_END, N_OWN, N_SUB, N_TPL, N_DC_LO, N_DC_HI, N_DY_LO, N_DY_HI = range(10)
N_COLUMNS = 10
N_FIRST = N_ENTRY
N_COUNT = 10


@jit
def build_trie(start, packed, max_dy, keep):
    """``(nodes, targets)``: the pre-order node table (int32, columns ``N_*``: the entry, its
    depth, its subtree's end, the templates ending at it and in its subtree from ``N_TPL`` on, the box of
    those templates' column and exact-y offsets), the templates in the nodes' order (their column and
    exact-y offsets, as in the box, and the cell offset of their target); of the templates ``keep`` names
    (:func:`tree_templates`), each with an inner entry."""
    n_tpl = start.shape[0] - 1
    width = 2 * max_dy + 1
    total = 1
    for t in range(n_tpl):
        if keep[t] and start[t + 1] - start[t] > 2:
            total += start[t + 1] - start[t] - 2
    key = np.empty(total, np.int32)
    first_child = np.full(total, -1, np.int64)
    sibling = np.full(total, -1, np.int64)
    end_node = np.full(n_tpl, -1, np.int64)
    count = 1  # node 0: the root (no entry)
    for t in range(n_tpl):
        if not keep[t] or start[t + 1] - start[t] <= 2:
            continue  # no inner entry (the per-source walk decides at once), or left out
        node = 0
        for e in range(start[t] + 1, start[t + 1] - 1):
            k = packed[e]
            c = first_child[node]
            while c >= 0 and key[c] != k:
                c = sibling[c]
            if c < 0:
                c = count
                count += 1
                key[c] = k
                sibling[c] = first_child[node]
                first_child[node] = c
            node = c
        end_node[t] = node
    # pre-order (children in the order met), root left out
    order = np.empty(count, np.int64)
    depth_of = np.zeros(count, np.int64)
    parent = np.full(count, -1, np.int64)
    stack = np.empty(count, np.int64)
    top = 0
    c = first_child[0]
    while c >= 0:
        stack[top] = c
        top += 1
        c = sibling[c]
    n = 0
    position = np.full(count, -1, np.int64)
    while top > 0:
        top -= 1
        node = stack[top]
        position[node] = n
        order[n] = node
        n += 1
        c = first_child[node]
        while c >= 0:
            stack[top] = c
            top += 1
            parent[c] = node
            depth_of[c] = depth_of[node] + 1
            c = sibling[c]
    nodes = np.zeros((n, N_COLUMNS), np.int32)
    for i in range(n):
        node = order[i]
        nodes[i, N_ENTRY] = key[node]
        nodes[i, N_DEPTH] = depth_of[node]
        nodes[i, N_END] = 1
        nodes[i, N_DC_LO] = 1 << 30
        nodes[i, N_DC_HI] = -(1 << 30)
        nodes[i, N_DY_LO] = 1 << 30
        nodes[i, N_DY_HI] = -(1 << 30)
    for t in range(n_tpl):
        if end_node[t] > 0:
            nodes[position[end_node[t]], N_OWN] += 1
    # template ranges: own templates first, then the subtree's, in pre-order
    placed = 0
    for i in range(n):
        nodes[i, N_TPL] = placed
        placed += nodes[i, N_OWN]
    targets = np.empty((placed, 3), np.int32)
    filled = np.zeros(n, np.int64)
    for t in range(n_tpl):
        if end_node[t] > 0:
            i = position[end_node[t]]
            dc = t // width
            dy = t % width
            targets[nodes[i, N_TPL] + filled[i], 0] = dc
            targets[nodes[i, N_TPL] + filled[i], 1] = dy
            targets[nodes[i, N_TPL] + filled[i], 2] = packed[start[t + 1] - 1] >> 5
            filled[i] += 1
            nodes[i, N_DC_LO] = min(nodes[i, N_DC_LO], dc)
            nodes[i, N_DC_HI] = max(nodes[i, N_DC_HI], dc)
            nodes[i, N_DY_LO] = min(nodes[i, N_DY_LO], dy)
            nodes[i, N_DY_HI] = max(nodes[i, N_DY_HI], dy)
    for i in range(n):
        nodes[i, N_SUB] = nodes[i, N_OWN]
    for i in range(n - 1, -1, -1):  # children after their parent: sizes, template counts and boxes upwards
        p = parent[order[i]]
        if p > 0:
            j = position[p]
            nodes[j, N_END] += nodes[i, N_END]
            nodes[j, N_SUB] += nodes[i, N_SUB]
            nodes[j, N_DC_LO] = min(nodes[j, N_DC_LO], nodes[i, N_DC_LO])
            nodes[j, N_DC_HI] = max(nodes[j, N_DC_HI], nodes[i, N_DC_HI])
            nodes[j, N_DY_LO] = min(nodes[j, N_DY_LO], nodes[i, N_DY_LO])
            nodes[j, N_DY_HI] = max(nodes[j, N_DY_HI], nodes[i, N_DY_HI])
    for i in range(n):
        nodes[i, N_END] += i
    return nodes, targets


def compress_trie(nodes):
    """``(compressed, entries)``: the tree of :func:`build_trie` with each chain of nodes (a node with one
    child and no template of its own, and that child) merged into one node, in the same pre-order:
    ``entries`` the nodes' entries in pre-order; a compressed node's row that of the last node of its
    chain (its templates, subtree, box), with ``N_FIRST`` and ``N_COUNT`` its entries, ``N_END`` in
    compressed nodes and ``N_DEPTH`` the depth of its first node (its state goes on the walk's stack at
    the depth of its last).  numpy only: no compiled step on a board's first query.

    Examples
    --------
    A node with one child and no template, then that child, where one template ends: one node.

    >>> nodes = np.zeros((2, N_COLUMNS), np.int32)
    >>> nodes[:, N_ENTRY], nodes[:, N_DEPTH], nodes[:, N_END], nodes[:, N_OWN] = [7, 9], [0, 1], [2, 2], [0, 1]
    >>> compressed, entries = compress_trie(nodes)
    >>> compressed[:, [N_FIRST, N_COUNT, N_DEPTH, N_END, N_OWN]].tolist(), entries.tolist()
    ([[0, 2, 0, 1, 1]], [7, 9])
    """
    n = nodes.shape[0]
    index = np.arange(n)
    chained = np.zeros(n, np.bool_)
    chained[1:] = (nodes[:-1, N_OWN] == 0) & (nodes[:-1, N_END] > index[1:]) & (nodes[1:, N_END] == nodes[:-1, N_END])
    first = np.flatnonzero(~chained)
    position = np.append(np.cumsum(~chained) - 1, len(first))  # node (or n) -> its compressed node
    count = np.diff(np.append(first, n))
    compressed = np.zeros((len(first), N_COUNT + 1), np.int32)
    compressed[:, :N_COLUMNS] = nodes[first + count - 1]
    compressed[:, N_FIRST] = first
    compressed[:, N_COUNT] = count
    compressed[:, N_DEPTH] = nodes[first, N_DEPTH]
    compressed[:, N_END] = position[nodes[first, N_END]]
    return compressed, np.ascontiguousarray(nodes[:, N_ENTRY])


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
    tree (:func:`compress_trie`), whose node's entries are walked with the state in hand; ``stack``:
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
