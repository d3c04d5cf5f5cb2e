"""The per-source fields kernel answers exactly what the per-pair kernel answers, for fields of fire and
for the ASL matrices (``los_matrix``, its blocks and rows, ``visibility_bits``).

``fields_of_fire``, ``threat_map`` and ``field_of_fire`` run
:mod:`kernel.line_of_sight._sweep.rows`; the per-pair
``_hex.queries.fields_kernel`` stays the reference.  Compared on the
bundled maps, on seeded random maps of all three rule sets (with and without
counters, Locations above ground, several target levels; the seed is in the
test id) and on VASL boards when ``../shared/vasl`` is present.  The
templates' prefix tree that serves same-level targets is checked against
the templates it is built from.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import kernel
from kernel import Counters, random_board
from kernel.line_of_sight._hex import queries as per_pair
from kernel.line_of_sight._sweep import matrix, tree_walk
from kernel.line_of_sight._templates import tree
from kernel.line_of_sight._sweep.run import source_rows, template_trie
from kernel.line_of_sight.counters import counter_tables
from kernel.line_of_sight.inputs import (
    cell_steps, every_hex, kernel_board_tables, ruleset_code, target_level_array, template_tuple,
)
from tests.shared_data import needs, vasl_folder

VASL = vasl_folder()
needs_vasl = needs("vasl")


def reference_rows(board, hexes, levels, target_levels, counters):
    """The per-pair kernel's rows (hindrance saturated at 127, or BLOCKED)."""
    out = np.empty((len(hexes), len(board)), np.int8)
    per_pair.fields_kernel(ruleset_code(board), hexes, levels, every_hex(board), target_levels, template_tuple(board),
                           kernel_board_tables(board), counter_tables(board, counters), out)
    return out.astype(np.int32)


def assert_same_rows(board, hexes, levels=None, target_levels=0, counters=None):
    hexes = np.asarray(hexes, np.int32)
    levels = np.zeros(len(hexes), np.int64) if levels is None else np.asarray(levels, np.int64)
    targets = target_level_array(board, target_levels)
    expected = reference_rows(board, hexes, levels, targets, counters)
    got = np.minimum(source_rows(board, hexes, levels, targets, counters), 127)
    bad = np.argwhere(got != expected)
    assert bad.size == 0, [(board.name(int(hexes[k])), board.name(int(j)), int(got[k, j]), int(expected[k, j]))
                           for k, j in bad[:5]]
    return expected


def coded_sources(board, hexes, levels=None) -> int:
    """How many of the sources the per-source codes serve (the rest go per pair): at least half the
    map MIN_LEVELS_BELOW levels or more below them (no SMOKE, no depression at the source assumed)."""
    from kernel.line_of_sight._sweep.rows import MIN_LEVELS_BELOW

    height = board.ground_level.astype(int)
    levels = np.zeros(len(hexes), int) if levels is None else np.asarray(levels)
    source_height = height[np.asarray(hexes)] + levels
    return int(sum(2 * (height <= h - MIN_LEVELS_BELOW).sum() >= len(board) for h in source_height))


def random_counters(board, rng):
    n = len(board)
    return Counters(smoke=np.where(rng.random(n) < 0.08, rng.integers(1, 4, n), 0),
                    smoke_height=rng.integers(1, 3, n), vehicles=rng.random(n) < 0.05, units=rng.random(n) < 0.05)


def test_every_source_of_the_default_map():
    board = kernel.load("default")
    assert coded_sources(board, np.arange(len(board))) >= 140
    rows = assert_same_rows(board, np.arange(len(board)))
    # the hill source of the bench sees part of the map and is blocked from the rest
    hill = rows[board.index("71I4")]
    assert (hill == kernel.BLOCKED).any() and (hill >= 0).sum() > 100


@pytest.mark.parametrize("seed", range(4), ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("with_counters", [False, True], ids=["no-counters", "counters"])
@pytest.mark.parametrize("ruleset", ["asl", "valor-victory", "ccn"])
def test_random_maps(ruleset, with_counters, seed):
    board = random_board(ruleset, 16, 12, seed=seed, max_level=3 if ruleset == "asl" else None, cliffs=0.05)
    rng = np.random.default_rng(seed)
    counters = random_counters(board, rng) if with_counters else None
    n = len(board)
    sources = rng.choice(n, min(n, 60), replace=False)
    # sources at ground level, then the same hexes at their top Location level (buildings)
    assert_same_rows(board, sources, counters=counters)
    top = np.asarray(target_level_array(board, 9), np.int64)[sources]
    assert_same_rows(board, sources, levels=top, counters=counters)
    assert_same_rows(board, sources[:20], target_levels=1, counters=counters)


@pytest.mark.parametrize("seed", range(3), ids=lambda s: f"seed{s}")
def test_high_sources_on_hilly_asl_maps(seed):
    """Sources on hilltops over many lower targets: the lines the per-source codes decide."""
    board = random_board("asl", 18, 14, seed=100 + seed, max_level=4, hills=6, hexside_density=0.15)
    rng = np.random.default_rng(seed)
    ground = board.ground_level
    high = np.flatnonzero(ground >= max(1, ground.max() - 1))
    sources = rng.choice(high, min(len(high), 40), replace=False)
    assert coded_sources(board, sources) >= len(sources) // 2  # the lines the codes decide are compared
    for counters in (None, random_counters(board, rng)):
        rows = assert_same_rows(board, sources, counters=counters)
        assert (rows >= 0).any() and (rows == kernel.BLOCKED).any()


def test_public_functions_use_it():
    board = kernel.load("default")
    sources = [board.index(h) for h in ("71I4", "72M6", "71C3")]
    expected = reference_rows(board, np.asarray(sources, np.int32), np.zeros(3, np.int64),
                              target_level_array(board, 0), None)
    assert np.array_equal(kernel.fields_of_fire(board, sources).hindrance, expected)
    threat = kernel.threat_map(board, sources)
    visible = expected != kernel.BLOCKED
    assert np.array_equal(threat.count, visible.sum(axis=0))
    fire = kernel.field_of_fire(board, sources)
    least = np.where(visible, expected, 1 << 20).min(axis=0)
    assert np.array_equal(fire.visible, visible.any(axis=0))
    assert np.array_equal(fire.hindrance[fire.visible], least[fire.visible])
    first = np.argmax(visible & (expected == least), axis=0)
    assert np.array_equal(fire.source, np.where(fire.visible, first, -1))
    single = kernel.field_of_fire(board, "71I4")  # one source: its row as it is
    assert np.array_equal(single.hindrance, expected[0]) and np.array_equal(single.visible, visible[0])
    assert np.array_equal(single.source, np.where(visible[0], 0, -1))


def test_field_of_fire_takes_sources_in_blocks(monkeypatch):
    """More sources than one block: the same best source and hindrance as one block."""
    from kernel.line_of_sight import fields

    board = random_board("asl", 12, 9, seed=5, max_level=3)
    sources = list(range(0, len(board), 2))
    whole = kernel.field_of_fire(board, sources)
    monkeypatch.setattr(fields, "SOURCE_BLOCK", 7)
    blocks = kernel.field_of_fire(board, sources)
    assert np.array_equal(whole.hindrance, blocks.hindrance) and np.array_equal(whole.source, blocks.source)


@pytest.mark.parametrize("threads", [1, 2])
def test_parallel_equals_serial(threads):
    board = kernel.load("default")
    previous = kernel.set_thread_count(min(threads, kernel.max_threads()))
    try:
        one = kernel.fields_of_fire(board, "71I4").hindrance
    finally:
        kernel.set_thread_count(previous)
    assert np.array_equal(one, kernel.fields_of_fire(board, "71I4").hindrance)


def test_source_parts():
    """Slices only where threads would idle: one source on 2 threads in 2, 3 sources in 2, 10 in 1."""
    from kernel.line_of_sight._sweep.run import source_parts

    assert [source_parts(k, 2, 1332) for k in (1, 2, 3, 4, 10)] == [2, 2, 2, 1, 1]
    assert source_parts(1, 1, 1332) == 1 and source_parts(1, 16, 1332) == 6 and source_parts(1, 16, 300) == 2


@pytest.mark.parametrize("parts", [2, 5])
def test_rows_in_slices_equal_whole_rows(parts):
    """Each source's row cut into slices of the targets (each slice sets up its own codes and tree walk)."""
    from kernel.line_of_sight._sweep import rows as _source_kernels

    board = kernel.load("default")
    hexes = np.array([board.index(name) for name in ("71I4", "72M6", "71A1")], np.int32)
    levels = np.zeros(len(hexes), np.int64)
    rows = []
    for count in (1, parts):
        out = np.empty((len(hexes), len(board)), np.int32)
        _source_kernels.source_fields_kernel(ruleset_code(board), hexes, levels, every_hex(board),
                                             target_level_array(board, 0), template_tuple(board),
                                             kernel_board_tables(board), counter_tables(board, None),
                                             cell_steps(board), template_trie(board), count, out)
        rows.append(out)
    assert np.array_equal(rows[0], rows[1]) and (rows[0] == kernel.BLOCKED).any()


@needs_vasl
@pytest.mark.parametrize("folder", ["bd04", "bd02", "bd10"])
def test_vasl_boards(folder):
    board = vasl_board(folder)
    assert_same_rows(board, np.arange(len(board)))


def vasl_board(folder):
    """A VASL board of ``../shared/vasl`` (its import warnings silenced), or a skip where it is absent."""
    if not (VASL / folder).is_dir():
        pytest.skip(f"{folder} not in ../shared/vasl")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        return kernel.load(str(VASL / folder))


def test_the_tree_holds_every_template_once():
    """Each node's path from the root is the inner entries of every template ending at it; subtrees are
    the pre-order ranges; the boxes hold their templates' offsets."""
    board = kernel.load("default")
    grid, base, start, packed, ranges, max_dc, max_dy = template_tuple(board)
    nodes, targets = tree.build_trie(start, packed, max_dy, np.diff(start) > 2)
    depth = int(nodes[:, tree.N_DEPTH].max()) + 1
    width = 2 * max_dy + 1
    path = []
    seen = np.zeros(len(start) - 1, int)
    for i in range(len(nodes)):
        d = int(nodes[i, tree.N_DEPTH])
        path[d:] = [int(nodes[i, tree.N_ENTRY])]
        assert d < depth and nodes[i, tree.N_END] > i
        inside = nodes[i + 1:nodes[i, tree.N_END], tree.N_DEPTH]
        assert (inside > d).all()
        first = int(nodes[i, tree.N_TPL])
        for j in range(first, first + int(nodes[i, tree.N_OWN])):
            dc, dy, offset = (int(v) for v in targets[j])
            t = dc * width + dy
            seen[t] += 1
            assert packed[start[t + 1] - 1] >> 5 == offset
            assert packed[start[t] + 1:start[t + 1] - 1].tolist() == path
            assert nodes[i, tree.N_DC_LO] <= dc <= nodes[i, tree.N_DC_HI]
            assert nodes[i, tree.N_DY_LO] <= dy <= nodes[i, tree.N_DY_HI]
    inner = np.diff(start) > 2
    assert (seen[inner] == 1).all() and (seen[~inner] == 0).all()
    assert len(nodes) < (np.diff(start)[inner] - 2).sum() / 2  # lines share prefixes


@pytest.mark.parametrize("ruleset", [None, "asl", "valor-victory", "ccn"], ids=lambda r: r or "default")
def test_only_the_source_and_its_neighbours_have_lines_with_no_inner_entry(ruleset):
    """The per-source kernel marks the source and its neighbours (``neighbours``) as the hexes the tree holds
    no line to: the templates of two entries or fewer are exactly those of range 0 and 1."""
    from kernel.line_of_sight._sweep.down_codes import hex_range

    board = kernel.load("default") if ruleset is None else random_board(ruleset, 14, 11, seed=5)
    grid, base, start, packed, ranges, max_dc, max_dy = template_tuple(board)
    col, yv, *_, neighbours, _ = kernel_board_tables(board)
    width = 2 * max_dy + 1
    length = np.diff(start)
    for t in np.flatnonzero(length > 0):
        near = hex_range(t // width - max_dc, t % width - max_dy) <= 1
        assert (length[t] <= 2) == near, (t // width - max_dc, t % width - max_dy, int(length[t]))
    for a in range(len(board)):
        for b in neighbours[a][neighbours[a] >= 0]:
            assert hex_range(col[b] - col[a], yv[b] - yv[a]) == 1
        assert (neighbours[a] >= 0).sum() == sum(hex_range(col[b] - col[a], yv[b] - yv[a]) == 1
                                                 for b in range(len(board)))


def test_the_compressed_tree_holds_the_same_paths():
    """Each compressed node is a chain of the tree's nodes (one child each, no template but at the last):
    its path from the root, its entries, end at the same templates; subtrees stay pre-order ranges."""
    board = kernel.load("default")
    grid, base, start, packed, ranges, max_dc, max_dy = template_tuple(board)
    nodes, entries, targets, depth, _ = template_trie(board)
    plain, plain_targets = tree.build_trie(start, packed, max_dy, np.diff(start) > 2)
    assert np.array_equal(targets, plain_targets) and np.array_equal(entries, plain[:, tree.N_ENTRY])
    assert len(nodes) < len(plain) / 5 and nodes[:, tree.N_COUNT].sum() == len(plain)
    width = 2 * max_dy + 1
    path = []  # the open nodes: (their subtree's end, their entries)
    for c in range(len(nodes)):
        while path and path[-1][0] <= c:
            path.pop()
        first, count = int(nodes[c, tree.N_FIRST]), int(nodes[c, tree.N_COUNT])
        path.append((int(nodes[c, tree.N_END]), entries[first:first + count].tolist()))
        entered = sum((chain for end, chain in path), [])
        # (the depth: its first entry's in the plain tree, its last entry's below depth)
        assert nodes[c, tree.N_DEPTH] == len(entered) - count and len(entered) <= depth
        assert nodes[c, tree.N_END] > c
        for j in range(int(nodes[c, tree.N_TPL]), int(nodes[c, tree.N_TPL] + nodes[c, tree.N_OWN])):
            t = int(targets[j, 0]) * width + int(targets[j, 1])
            assert packed[start[t] + 1:start[t + 1] - 1].tolist() == entered


def test_the_tree_decides_most_targets_of_a_ground_source():
    """From a ground-level source of the default map the tree's walk decides nine in ten same-level
    targets (the rest: hexside runs beside walls and hedges), and every row stays the per-pair one."""
    board = kernel.load("default")
    grid, base, start, packed, ranges, max_dc, max_dy = template_tuple(board)
    tables = kernel_board_tables(board)
    col, yv, hs_obst = tables.col, tables.y, tables.hexside_obstacle
    hex_info, fast_grid, same_code, level_row, level_min = counter_tables(board, None)
    nodes, entries, targets, depth, _ = template_trie(board)
    a = board.index("71V7")
    box = np.array([col.min() - col[a] + max_dc, col.max() - col[a] + max_dc, yv.min() - yv[a] + max_dy,
                    yv.max() - yv[a] + max_dy], np.int64)
    states = np.full(len(board), tree_walk.HARD, np.int64)
    visited = tree_walk.level_states(a, 0, box, nodes, entries, targets, grid, base[a], ranges, col, yv, hs_obst,
                                hex_info, same_code[level_row[-level_min]], fast_grid, np.empty((depth, 4), np.int64),
                                states)
    at_level = board.ground_level == 0
    assert (states[at_level] == tree_walk.UNDECIDED).sum() < 0.1 * at_level.sum()
    assert visited < 0.2 * len(entries)  # the shadows of blocks are not walked
    row = assert_same_rows(board, [a])[0]
    # (the source and its neighbours have no inner entry, no state; the hindrance cap is 6)
    decided = at_level & (states != tree_walk.UNDECIDED)
    decided[a] = False
    decided[board.neighbours[a][board.neighbours[a] >= 0]] = False
    blocked = (states == tree_walk.HARD) | (states >= 6)
    assert np.array_equal(row[decided] == kernel.BLOCKED, blocked[decided])
    assert np.array_equal(row[decided & ~blocked], states[decided & ~blocked])


def test_without_the_tree(monkeypatch):
    """Templates over ``MAX_ENTRIES`` entries get no tree; every pair then goes as before, same rows."""
    from kernel.line_of_sight.inputs import LOS_CACHE

    board = random_board("asl", 12, 10, seed=7, max_level=2, hexside_density=0.2)
    assert len(template_trie(board)[0]) > 0
    monkeypatch.setattr(tree, "MAX_ENTRIES", 0)
    del LOS_CACHE.entries(board)["_los_template_trie"]
    assert len(template_trie(board)[0]) == 0
    assert_same_rows(board, np.arange(len(board)), counters=random_counters(board, np.random.default_rng(7)))


def test_a_tree_of_the_shorter_lines(monkeypatch):
    """Templates over ``MAX_ENTRIES`` entries: the tree holds the lines up to a range limit, the longer ones
    go as without the tree; same rows and matrices."""
    from kernel.line_of_sight.inputs import LOS_CACHE

    board = random_board("asl", 18, 12, seed=8, max_level=2, hexside_density=0.2)
    start = template_tuple(board).start
    monkeypatch.setattr(tree, "MAX_ENTRIES", int(start[-1]) // 3)
    LOS_CACHE.entries(board).pop("_los_template_trie", None)
    nodes, entries, targets, depth, range_limit = template_trie(board)
    assert 2 <= range_limit < tree.NO_RANGE_LIMIT and 0 < len(targets) < (np.diff(start) > 2).sum()
    counters = random_counters(board, np.random.default_rng(8))
    assert_same_rows(board, np.arange(len(board)), counters=counters)
    assert_same_matrices(board, counters=counters)


@pytest.mark.parametrize("seed", range(4), ids=lambda s: f"seed{s}")
def test_ground_sources_among_walls(seed):
    """Ground-level sources on flat ASL maps dense with walls, hedges and counters: the lines the tree
    decides, through vertices and along hexsides beside featured hexsides."""
    board = random_board("asl", 16, 12, seed=200 + seed, max_level=1, hills=1, hexside_density=0.35)
    rng = np.random.default_rng(seed)
    assert (board.ground_level == 0).mean() > 0.5
    for counters in (None, random_counters(board, rng)):
        rows = assert_same_rows(board, np.arange(len(board)), counters=counters)
        assert (rows > 0).any() and (rows == kernel.BLOCKED).any()


def reference_matrix(board, hexes, levels, counters=None):
    """The per-pair kernels' matrix (the upper triangle mirrored; every ordered pair for V&V)."""
    from kernel.line_of_sight._hex import pairs

    out = np.empty((len(hexes), len(hexes)), np.int8)
    tables = (template_tuple(board), kernel_board_tables(board), counter_tables(board, counters))
    if board.ruleset.los_model == "valor-victory":
        pairs.los_rows_kernel(ruleset_code(board), hexes, levels, 0, *tables, out)
    else:
        pairs.los_matrix_kernel(ruleset_code(board), hexes, levels, *tables, out)
        pairs.mirror_lower(out)
    return out


def assert_same_matrices(board, hexes=None, levels=None, counters=None):
    """los_matrix, its blocks, its rows and the visibility bits against the per-pair kernels' matrix."""
    hexes = np.arange(len(board), dtype=np.int32) if hexes is None else np.asarray(hexes, np.int32)
    levels = np.zeros(len(hexes), np.int64) if levels is None else np.asarray(levels, np.int64)
    expected = reference_matrix(board, hexes, levels, counters)
    got = kernel.los_matrix(board, hexes, levels=levels, counters=counters, model="hex")
    bad = np.argwhere(got != expected)
    assert bad.size == 0, [(board.name(int(hexes[i])), board.name(int(hexes[j])), int(got[i, j]), int(expected[i, j]))
                           for i, j in bad[:5]]
    blocks = np.concatenate([rows for _, rows in kernel.los_matrix_blocks(board, hexes, levels=levels, model="hex",
                                                                          counters=counters, block_rows=37)])
    assert np.array_equal(blocks, expected)
    middle = len(hexes) // 3
    assert np.array_equal(kernel.los_matrix_rows(board, middle, 5, hexes, levels=levels, counters=counters, model="hex"),
                          expected[middle:middle + 5])
    bits = kernel.visibility_bits(board, hexes, levels=levels, counters=counters, block_rows=50, model="hex")
    assert np.array_equal(bits, np.packbits(expected != kernel.BLOCKED, axis=1))
    return expected


def test_matrix_of_the_default_map():
    matrix = assert_same_matrices(kernel.load("default"))
    assert (matrix == kernel.BLOCKED).any() and (matrix > 0).any()


@pytest.mark.parametrize("seed", range(3), ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("with_counters", [False, True], ids=["no-counters", "counters"])
@pytest.mark.parametrize("ruleset", ["asl", "valor-victory", "ccn"])
def test_matrices_of_random_maps(ruleset, with_counters, seed):
    """Every hex at ground level, then every hex at its top Location (buildings, hills below them)."""
    board = random_board(ruleset, 14, 10, seed=300 + seed, max_level=3 if ruleset == "asl" else None,
                         hexside_density=0.15, cliffs=0.05)
    rng = np.random.default_rng(seed)
    counters = random_counters(board, rng) if with_counters else None
    assert_same_matrices(board, counters=counters)
    hexes = np.arange(len(board), dtype=np.int32)
    assert_same_matrices(board, hexes, np.asarray(target_level_array(board, 9), np.int64), counters)


@pytest.mark.parametrize("seed", range(2), ids=lambda s: f"seed{s}")
def test_the_upper_matrix_computes_each_pair_once_from_the_higher_end_when_lifted(seed):
    """Before the mirror, exactly one entry of each pair is written: the lower-indexed row's, unless the other
    Location is at least ``lifted_height`` high and higher (then its row's, left of the diagonal)."""
    board = random_board("asl", 14, 10, seed=400 + seed, max_level=3, hills=4)
    hexes = np.arange(len(board), dtype=np.int32)
    levels = np.zeros(len(board), np.int64)
    unset = 99
    out = np.full((len(board), len(board)), unset, np.int8)
    heights = counter_tables(board, None).hex_info[:, 0].astype(np.int64)
    lifted = matrix.lifted_height(heights)
    assert lifted == np.bincount(heights - heights.min()).argmax() + heights.min() + 1
    matrix.source_matrix_kernel(ruleset_code(board), hexes, levels, 0, lifted, template_tuple(board),
                                kernel_board_tables(board), counter_tables(board, None), cell_steps(board),
                                template_trie(board), out)
    i, j = np.triu_indices(len(board), 1)
    from_higher = (heights[j] > heights[i]) & (heights[j] >= lifted)
    assert from_higher.sum() > 0
    assert (out[j[from_higher], i[from_higher]] != unset).all() and (out[i[from_higher], j[from_higher]] == unset).all()
    assert (out[i[~from_higher], j[~from_higher]] != unset).all()
    assert (out[j[~from_higher], i[~from_higher]] == unset).all()
    expected = reference_matrix(board, hexes, levels)
    computed = out != unset
    assert np.array_equal(out[computed], expected[computed])


@pytest.mark.parametrize("threads", [1, 2])
def test_matrix_parallel_equals_serial(threads):
    board = random_board("asl", 16, 12, seed=11, max_level=3, hexside_density=0.15)
    previous = kernel.set_thread_count(min(threads, kernel.max_threads()))
    try:
        one = kernel.los_matrix(board)
        bits = kernel.visibility_bits(board, block_rows=40)
    finally:
        kernel.set_thread_count(previous)
    assert np.array_equal(one, kernel.los_matrix(board))
    assert np.array_equal(bits, kernel.visibility_bits(board, block_rows=40))


@needs_vasl
@pytest.mark.parametrize("folder", ["bd02", "bd04"])
def test_vasl_matrices(folder):
    assert_same_matrices(vasl_board(folder))
