"""The trace templates as a prefix tree, for walking once per source its LOS at its own level (private;
see :mod:`kernel.line_of_sight._sweep.tree_walk`).

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

The tree is walked by :mod:`kernel.line_of_sight._sweep.tree_walk`.

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

from kernel._jit import jit

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
