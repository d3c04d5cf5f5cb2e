"""The shared-walk floor (:mod:`bench.shared_walk_floor`) computes what it claims: one prefix per distinct
prefix of the source's lines (whole, or up to their blocks), and each line's total of the codes of the hexes
it crosses."""

from __future__ import annotations

import numpy as np
import pytest

import kernel
from bench.shared_walk_floor import (
    add_per_prefix, add_per_prefix_all, hindrance_codes, main, source_lists, wanted_templates,
)
from kernel.line_of_sight.inputs import template_tuple


@pytest.fixture(scope="module")
def board():
    return kernel.load("71")


def naive_lines(board, a, first_target=0, shadows=False):
    """Per target hex after ``first_target``: its line's inner entries, read straight off the templates (with
    ``shadows``, up to the first entry in the hex where single LOS queries say the line is blocked)."""
    grid, base, start, packed, ranges, max_dc, max_dy = template_tuple(board)
    lines = {}
    for b, t in zip([b for b in range(len(board)) if b != a], wanted_templates(board, a)):
        inner = [int(e) for e in packed[start[t] + 1:start[t + 1] - 1]]
        if b < first_target or not inner:
            continue
        stop = kernel.los(board, a, b).blocked_at if shadows else None
        if stop is not None and stop >= 0:
            hexes = [int(grid[base[a] + (e >> 5)]) for e in inner]
            inner = inner[:hexes.index(stop) + 1] if stop in hexes else []
        lines[b] = inner
    return lines


@pytest.mark.parametrize("shadows", [False, True], ids=["whole-lines", "to-the-blocks"])
@pytest.mark.parametrize("name", ["71A1", "71I5", "71GG10"])
def test_one_prefix_per_distinct_prefix_and_each_line_total(board, name, shadows):
    a = board.index(name)
    base = template_tuple(board).base
    parent, offset, end_node, target_hex = source_lists(board, a, shadows=shadows)
    lines = naive_lines(board, a, shadows=shadows)
    prefixes = {tuple(entries[:k]) for entries in lines.values() for k in range(1, len(entries) + 1)}
    assert len(parent) - 1 == len(prefixes)
    assert sorted(target_hex.tolist()) == sorted(lines)
    code = np.random.default_rng(a).integers(0, 5, template_tuple(board).grid_flat.shape[0]).astype(np.int32)
    out = np.full(len(board), -1, np.int32)
    add_per_prefix(base[a], parent, offset, code, end_node, target_hex, np.empty(len(parent), np.int32), out)
    for b, entries in lines.items():
        assert out[b] == sum(int(code[base[a] + (e >> 5)]) for e in entries), board.names[b]


def test_every_source_at_once_gives_the_rows_after_each_source(board):
    base = template_tuple(board).base
    sources = [board.index(name) for name in ("71A1", "71I5", "71GG10")]
    lists = [source_lists(board, a, a + 1) for a in sources]
    node_start = np.cumsum([0] + [len(p) for p, _, _, _ in lists]).astype(np.int64)
    target_start = np.cumsum([0] + [len(t) for _, _, _, t in lists]).astype(np.int64)
    arrays = [np.concatenate([item[k] for item in lists]) for k in range(4)]
    code = hindrance_codes(board)
    out = np.full((len(sources), len(board)), -1, np.int32)
    add_per_prefix_all(node_start, target_start, base[sources].astype(np.int64), arrays[0], arrays[1], code, arrays[2],
                       arrays[3], np.empty(len(arrays[0]), np.int32), out)
    for row, a in enumerate(sources):
        lines = naive_lines(board, a, a + 1, shadows=True)
        assert set(np.flatnonzero(out[row] >= 0).tolist()) == set(lines)
        for b, entries in lines.items():
            assert out[row, b] == sum(int(code[base[a] + (e >> 5)]) for e in entries)


def test_the_command_prints_its_figures(board, capsys):
    assert main(["--board", "71", "--source", "71I5"]) == 0
    printed = capsys.readouterr().out
    assert "distinct prefixes" in printed and "floor" in printed and "los_matrix" in printed
