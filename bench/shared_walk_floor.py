"""The floor of a walk shared by one source's lines: the least an exact per-source kernel that shares the
lines' first hexes could cost, against what the kernels cost.

Run on demand (a few seconds; not part of CI)::

    .venv/bin/python -m bench.shared_walk_floor [--board default] [--source 71I4]

Exact centre-to-centre LOS from one source reads, for every target, the
hexes its trace template crosses, up to the first block.  Lines to neighbouring targets cross the
same hexes first, and a kernel can share that work through the templates'
prefix tree (:mod:`kernel.line_of_sight._templates.tree`): one step per
distinct prefix of the lines, where the per-target walks take one step per
template entry.  This module builds, for the source and before any timing,
the list of exactly the prefixes its lines to the wanted targets have (in
pre-order, each with its parent), cut where each line is blocked (a walk
stops there: the hexes in the shadow of a block cost nothing), and times a
loop that does nothing but one addition per prefix (the hindrance DRM of
the hex it ends in, with no rule, no test of a block, no check of the map's
edges) and one read per target: the cost of the sharing itself, below any
kernel that walks the shared prefixes.  Next to it, on one thread and in
the same run:

* the per-source codes a source above its targets needs (``down_codes``,
  one pass over the hexes);
* the public :func:`kernel.field_of_fire`, and the per-pair kernel's row;
* for the whole matrix (every source's lines to the hexes after it, as
  :func:`kernel.los_matrix` computes them): the same floor over every
  source on all threads, against ``los_matrix`` on all threads.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import kernel
from kernel._jit import jit, jit_parallel, thread_count
from kernel.line_of_sight._templates import tree as T
from kernel.line_of_sight._hex.rules import H_GROUND2, H_HINDRANCE
from kernel.line_of_sight.counters import counter_tables
from kernel.line_of_sight.inputs import LOS_CACHE, kernel_board_tables, template_tuple


@jit
def prefix_list(a, first_target, blocked_at, nodes, targets, grid, base, start, packed, col, yv, max_dc, max_dy):
    """The prefixes of the lines from hex ``a`` to the hexes ``first_target ..`` that a walk stopping at
    each line's block must reach, from the plain tree (``build_trie``): ``(parent, offset, end_node,
    target_hex)``, with a root at index 0 (parent 0, offset 0) and every prefix after its parent.
    ``blocked_at[h]``: the hex where the LOS to hex ``h`` is blocked (-1: visible); a line is cut after
    its first entry in that hex (at its first entry where that hex is not among its entries, so that
    the count stays a floor).  ``end_node[k]``: the last prefix of the line to ``target_hex[k]`` (lines
    with no inner entry, to the hexes next to ``a``, left out)."""
    n = nodes.shape[0]
    dc_lo = dy_lo = np.int64(1 << 30)
    dc_hi = dy_hi = np.int64(-(1 << 30))
    for h in range(col.shape[0]):
        dc_lo, dc_hi = min(dc_lo, col[h] - col[a] + max_dc), max(dc_hi, col[h] - col[a] + max_dc)
        dy_lo, dy_hi = min(dy_lo, yv[h] - yv[a] + max_dy), max(dy_hi, yv[h] - yv[a] + max_dy)
    width = 2 * max_dy + 1
    parent_of = np.full(n, -1, np.int64)
    cut = np.full(targets.shape[0], -1, np.int64)
    last = np.full(n + 1, -1, np.int64)  # the last node met at each depth
    kept = np.zeros(n, np.bool_)
    wanted = 0
    for i in range(n):
        d = nodes[i, T.N_DEPTH]
        parent_of[i] = last[d - 1] if d > 0 else -1
        last[d] = i
        for j in range(nodes[i, T.N_TPL], nodes[i, T.N_TPL] + nodes[i, T.N_OWN]):
            if dc_lo <= targets[j, 0] <= dc_hi and dy_lo <= targets[j, 1] <= dy_hi:
                h = grid[base[a] + targets[j, 2]]
                if h >= first_target and h != a:
                    wanted += 1
                    cut[j] = line_cut(i, (targets[j, 0] * width + targets[j, 1]), blocked_at[h], nodes, parent_of,
                                      start, packed, grid, base[a])
                    p = cut[j]
                    while p >= 0 and not kept[p]:  # the line's prefixes, up to one already kept
                        kept[p] = True
                        p = parent_of[p]
    index = np.full(n, -1, np.int64)
    count = 1
    for i in range(n):
        if kept[i]:
            index[i] = count
            count += 1
    parent = np.zeros(count, np.int32)
    offset = np.zeros(count, np.int32)
    end_node = np.empty(wanted, np.int32)
    target_hex = np.empty(wanted, np.int32)
    k = 0
    for i in range(n):
        if kept[i]:
            parent[index[i]] = index[parent_of[i]] if parent_of[i] >= 0 else 0
            offset[index[i]] = nodes[i, T.N_ENTRY] >> 5
        for j in range(nodes[i, T.N_TPL], nodes[i, T.N_TPL] + nodes[i, T.N_OWN]):
            if dc_lo <= targets[j, 0] <= dc_hi and dy_lo <= targets[j, 1] <= dy_hi:
                h = grid[base[a] + targets[j, 2]]
                if h >= first_target and h != a:
                    end_node[k] = index[cut[j]] if cut[j] >= 0 else 0
                    target_hex[k] = h
                    k += 1
    return parent, offset, end_node, target_hex


@jit
def line_cut(node, t, stop, nodes, parent_of, start, packed, grid, base_a):
    """The prefix where a walk of template ``t`` (ending at ``node``) stops: at its first entry in hex
    ``stop``, at its first entry where ``stop`` is a hex it does not enter, ``node`` where ``stop`` is
    -1; -1 for none (the line stops before its first inner entry)."""
    if stop < 0:
        return node
    depth = -1
    for e in range(start[t] + 1, start[t + 1] - 1):
        if grid[base_a + (packed[e] >> 5)] == stop:
            depth = e - start[t] - 1
            break
    if depth < 0:
        return -1
    while nodes[node, T.N_DEPTH] > depth:
        node = parent_of[node]
    return node


@jit
def add_per_prefix(base_a, parent, offset, code, end_node, target_hex, state, out):
    """The floor: ``state[i] = state[parent[i]] + code[cell of prefix i]`` (root: 0), then each target's
    line total into ``out[target_hex]``."""
    state[0] = 0
    for i in range(1, parent.shape[0]):
        state[i] = state[parent[i]] + code[base_a + offset[i]]
    for k in range(end_node.shape[0]):
        out[target_hex[k]] = state[end_node[k]]


def _sources(node_start, *other):
    return node_start.shape[0] - 1


@jit_parallel(count=_sources)
def add_per_prefix_all(lo, hi, node_start, target_start, base_of, parent, offset, code, end_node, target_hex, state,
                       out):
    """:func:`add_per_prefix` for sources ``lo .. hi - 1`` (lists concatenated; row ``s`` of ``out``)."""
    for s in range(lo, hi):
        n0, n1 = node_start[s], node_start[s + 1]
        t0, t1 = target_start[s], target_start[s + 1]
        add_per_prefix(base_of[s], parent[n0:n1], offset[n0:n1], code, end_node[t0:t1], target_hex[t0:t1],
                       state[n0:n1], out[s])


def hindrance_codes(board) -> np.ndarray:
    """Per cell of the templates' grid: the hindrance DRM of its hex (0 off the map)."""
    grid = template_tuple(board).grid_flat
    info = counter_tables(board, None).hex_info
    return np.where(grid >= 0, info[np.maximum(grid, 0), H_HINDRANCE], 0).astype(np.int32)


def source_lists(board, a: int, first_target: int = 0, *, shadows: bool = True):
    """:func:`prefix_list` of hex ``a`` on ``board`` (the plain tree built here); with ``shadows`` the lines
    are cut at their blocks (the LOS from :func:`kernel.los_pairs`), else walked whole."""
    grid, base, start, packed, ranges, max_dc, max_dy = template_tuple(board)
    col, yv = kernel_board_tables(board)[:2]
    nodes, targets = tree(board)
    blocked_at = np.full(len(board), -1, np.int64)
    if shadows:
        others = np.arange(first_target, len(board))
        blocked_at[others] = kernel.los_pairs(board, np.full(len(others), a), others).blocked_at
        blocked_at[a] = -1
    return prefix_list(a, first_target, blocked_at, nodes, targets, grid, base, start, packed, col, yv, max_dc,
                       max_dy)


def tree(board):
    """The templates' plain prefix tree (``build_trie``), built once per board (in the board's LOS cache)."""
    cache = LOS_CACHE.entries(board)
    if "_bench_plain_trie" not in cache:
        _, _, start, packed, _, _, max_dy = template_tuple(board)
        cache["_bench_plain_trie"] = T.build_trie(start, packed, max_dy, np.diff(start) > 2)
    return cache["_bench_plain_trie"]


def best_of(function, repeats: int) -> float:
    """Least seconds of ``repeats`` calls (after one untimed call)."""
    function()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="default", help="board or scenario to load (default: default)")
    parser.add_argument("--source", default="71I4", help="the source hex of the one-field figures")
    args = parser.parse_args(argv)
    board = kernel.load(args.board)
    a = board.index(args.source)
    grid, base, start, packed, ranges, max_dc, max_dy = template_tuple(board)
    code = hindrance_codes(board)
    whole = source_lists(board, a, shadows=False)
    parent, offset, end_node, target_hex = source_lists(board, a)
    entries = sum(max(0, int(start[t + 1] - start[t]) - 2) for t in wanted_templates(board, a))
    print(f"{args.board}, {len(board)} hexes, source {args.source}: {len(target_hex)} lines with inner entries, "
          f"{entries} inner entries, {len(whole[0]) - 1} distinct prefixes, {len(parent) - 1} of them before "
          f"the lines' blocks")
    state = np.empty(len(parent), np.int32)
    out = np.zeros(len(board), np.int32)
    previous = kernel.set_thread_count(1)
    try:
        floor = best_of(lambda: add_per_prefix(base[a], parent, offset, code, end_node, target_hex, state, out), 500)
        from kernel.line_of_sight._sweep.down_codes import down_codes

        col, yv = kernel_board_tables(board)[:2]
        info, fast_grid = counter_tables(board, None)[:2]
        codes = np.empty(grid.shape[0], np.int32)
        vcodes = np.empty(grid.shape[0], np.int32)
        blind = np.empty((grid.shape[0], 4), np.int32)
        S2 = int(info[a, H_GROUND2])
        down = best_of(lambda: down_codes(a, S2, base, col, yv, info, fast_grid, codes, vcodes, blind), 500)
        public = best_of(lambda: kernel.field_of_fire(board, a), 300)
        from kernel.line_of_sight._sweep.run import source_rows
        from kernel.line_of_sight.inputs import target_level_array

        one, zero = np.array([a], np.int32), np.zeros(1, np.int64)
        levels = target_level_array(board, 0)
        row = best_of(lambda: source_rows(board, one, zero, levels, None), 300)
        from bench.bench_fields import per_pair_rows

        per_pair = best_of(lambda: per_pair_rows(board, [a]), 100)
    finally:
        kernel.set_thread_count(previous)
    print("one source, 1 thread (best of several calls):")
    print(f"  floor: one addition per distinct prefix before the blocks and one read per target: {floor * 1e6:.1f} us")
    print(f"  the per-source codes of a source above its targets (down_codes): {down * 1e6:.1f} us")
    print(f"  field_of_fire (public call): {public * 1e6:.1f} us, of which the per-source kernel's row "
          f"{row * 1e6:.1f} us; the per-pair kernel's row: {per_pair * 1e6:.1f} us")
    matrix_floor, matrix, prefixes = matrix_figures(board, code)
    print(f"the matrix's lines (each source to the hexes after it), {thread_count()} threads: {prefixes} distinct "
          f"prefixes before the blocks; floor {matrix_floor * 1e3:.2f} ms; los_matrix {matrix * 1e3:.2f} ms")
    return 0


def wanted_templates(board, a: int) -> list[int]:
    """The templates of the lines from ``a`` to every other hex (their index in the template tables)."""
    grid, base, start, packed, ranges, max_dc, max_dy = template_tuple(board)
    col, yv = kernel_board_tables(board)[:2]
    width = 2 * max_dy + 1
    return [int((col[b] - col[a] + max_dc) * width + (yv[b] - yv[a] + max_dy)) for b in range(len(board)) if b != a]


def matrix_figures(board, code) -> tuple[float, float, int]:
    """``(floor seconds, los_matrix seconds, prefixes)`` over every source's lines to the hexes after it."""
    base = template_tuple(board)[1]
    lists = [source_lists(board, a, a + 1) for a in range(len(board))]
    node_start = np.cumsum([0] + [len(p) for p, _, _, _ in lists]).astype(np.int64)
    target_start = np.cumsum([0] + [len(t) for _, _, _, t in lists]).astype(np.int64)
    parent, offset, end_node, target_hex = (np.concatenate([item[k] for item in lists]) for k in range(4))
    state = np.empty(len(parent), np.int32)
    out = np.zeros((len(board), len(board)), np.int32)
    base_of = base[:len(board)].astype(np.int64)
    floor = best_of(lambda: add_per_prefix_all(node_start, target_start, base_of, parent, offset, code, end_node,
                                               target_hex, state, out), 5)
    matrix = best_of(lambda: kernel.los_matrix(board), 5)
    return floor, matrix, int(len(parent) - len(lists))


if __name__ == "__main__":
    sys.exit(main())
