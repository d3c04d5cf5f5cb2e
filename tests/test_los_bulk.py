"""Bulk LOS APIs: matrices, blocks, bit-packed form, batches, fields of fire.

The bulk kernels take a fast path (inert hexes skipped, early exit) that the
single-LOS API does not, so they are checked against the reference directly.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

import kernel
from kernel import (
    BLOCKED, Counters, field_of_fire, los, los_matrix, los_matrix_blocks, los_pairs, random_board,
    visibility_bits,
)
from tests.comparisons import COMPARISONS


def _counter_dict(counters):
    return {"smoke": counters.smoke, "smoke_height": counters.smoke_height,
            "vehicles": counters.vehicles, "units": counters.units}


@pytest.mark.parametrize("seed", (0, 1), ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("ruleset", ["asl", "valor-victory", "ccn"])
def test_matrix_matches_reference(ruleset, seed):
    board = random_board(ruleset, 12, 9, seed=seed)
    rng = np.random.default_rng(seed)
    n = len(board)
    counters = None
    if seed == 1:
        counters = Counters(smoke=np.where(rng.random(n) < 0.08, 2, 0), smoke_height=np.full(n, 2),
                            vehicles=rng.random(n) < 0.05, units=rng.random(n) < 0.05)
    comparison = COMPARISONS["los_matrix"]
    matrix = comparison.kernel(board, counters=counters)
    mismatches = []
    for a, b in zip(rng.integers(0, n, 600), rng.integers(0, n, 600)):
        ref = comparison.reference(board, int(a), int(b), counters=_counter_dict(counters) if counters else None)
        expected = ref["hindrance"] if ref["visible"] else BLOCKED
        if a == b:
            expected = 0
        if matrix[a, b] != min(expected, 127):
            mismatches.append((board.name(a), board.name(b), int(matrix[a, b]), expected))
    assert not mismatches, mismatches[:3]
    assert (matrix == BLOCKED).any() and (matrix > 0).any() if ruleset != "ccn" else (matrix == BLOCKED).any()


@pytest.mark.parametrize("seed", (1, 3, 4, 5, 6, 7, 10), ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("ruleset", ["asl", "valor-victory", "ccn"])
def test_matrix_equals_the_full_walk_on_every_pair(ruleset, seed):
    """The matrix stops at the first block, reads same-level hexes from a
    precomputed table and evaluates each pair in one direction only;
    los_pairs walks every step of every ordered pair.  They agree on all
    pairs, Locations at several levels and counters included (V&V seeds 1,
    5, 6, 7 and 10 have ground <-> Level 2 lines along hexsides between two
    level-1 hexes, where a viewer-dependent slope hex once made the answer
    depend on the direction)."""
    board = random_board(ruleset, 12, 9, seed=seed)
    rng = np.random.default_rng(seed)
    n = len(board)
    counters = Counters(smoke=np.where(rng.random(n) < 0.08, rng.integers(2, 4, n), 0),
                        smoke_height=rng.integers(1, 3, n), vehicles=rng.random(n) < 0.05,
                        units=rng.random(n) < 0.05)
    # Top Locations: upper building levels and bridge decks (level 1).
    top = board.building_levels.astype(int) + board.bridge_deck
    upper = np.flatnonzero(top > 0)
    hexes = np.concatenate([np.arange(n), upper])
    levels = np.concatenate([np.zeros(n, int), top[upper]])
    for state in (None, counters):
        matrix = los_matrix(board, hexes, levels=levels, counters=state)
        a, b = np.meshgrid(np.arange(len(hexes)), np.arange(len(hexes)), indexing="ij")
        a, b = a.ravel(), b.ravel()
        full = los_pairs(board, hexes[a], hexes[b], levels=levels[a], target_levels=levels[b], counters=state)
        expected = np.where(full.visible, np.minimum(full.hindrance, 127), BLOCKED).reshape(matrix.shape)
        np.fill_diagonal(expected, 0)
        differ = np.argwhere(matrix != expected)
        assert len(differ) == 0, (len(differ), [(board.name(int(hexes[i])), int(levels[i]), board.name(int(hexes[j])),
                                                  int(levels[j]), int(matrix[i, j]), int(expected[i, j]))
                                                 for i, j in differ[:3]])
        assert (matrix == BLOCKED).any()


def test_matrix_is_symmetric_with_zero_diagonal_and_sentinel():
    board = kernel.load("default")
    matrix = los_matrix(board)
    assert matrix.dtype == np.int8 and matrix.shape == (len(board), len(board))
    assert np.array_equal(matrix, matrix.T)
    assert (np.diag(matrix) == 0).all()
    assert set(np.unique(matrix)) >= {BLOCKED, 0, 1}
    assert matrix.min() == BLOCKED


def test_parallel_matrix_equals_serial():
    board = random_board("asl", 16, 10, seed=3)
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        serial = los_matrix(board)
        numba.set_num_threads(max(2, previous))
        parallel = los_matrix(board)
    finally:
        numba.set_num_threads(previous)
    assert np.array_equal(serial, parallel)


def test_blocks_and_bits_equal_the_matrix():
    board = random_board("asl", 14, 10, seed=4)
    matrix = los_matrix(board)
    rows = np.concatenate([block for _, block in los_matrix_blocks(board, block_rows=37)])
    assert np.array_equal(rows, matrix)
    bits = visibility_bits(board, block_rows=50)
    assert bits.shape == (len(board), (len(board) + 7) // 8)
    assert np.array_equal(np.unpackbits(bits, axis=1)[:, :len(board)].astype(bool), matrix != BLOCKED)


def test_matrix_over_upper_locations():
    board = kernel.load("default")
    top = board.building_levels.astype(int) + board.bridge_deck
    upper = np.flatnonzero(top > 0)
    hexes = np.concatenate([upper, upper])
    levels = np.concatenate([np.zeros(len(upper), int), top[upper]])
    matrix = los_matrix(board, hexes, levels=levels)
    for i in range(len(hexes)):
        for j in range(0, len(hexes), 3):
            single = los(board, int(hexes[i]), int(hexes[j]), level=int(levels[i]), target_level=int(levels[j]))
            assert matrix[i, j] == (min(single.hindrance, 127) if single.visible else BLOCKED) or i == j


@pytest.mark.parametrize("model", ["hex", "depiction"])
def test_pairs_equal_single_queries(model):
    """``los_pairs`` and ``los`` give one pair the same answer in every field they share, of the same
    types: ``blocked_at`` an index and ``reason`` a code in both, with ``blocked_at_name`` and
    ``reason_name`` their names."""
    import warnings

    board = kernel.load("default")
    rng = np.random.default_rng(7)
    a = rng.integers(0, len(board), 300)
    b = np.clip(a + rng.integers(-60, 60, 300), 0, len(board) - 1)   # mostly short LOS (slopes, blind hexes)
    b[::4] = rng.integers(0, len(board), 75)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the depiction model on a map without art
        result = los_pairs(board, a, b, model=model)
        singles = [los(board, int(a[k]), int(b[k]), model=model) for k in range(0, 300, 3)]
    names, reasons = result.blocked_at_name, result.reason_name
    assert (~result.visible).sum() > 50 and result.continuous_slope.any() and result.blind.any()
    for k, single in zip(range(0, 300, 3), singles):
        assert result.visible[k] == single.visible
        assert result.hindrance[k] == single.hindrance
        assert result.blind[k] == single.blind
        assert result.continuous_slope[k] == single.continuous_slope
        assert names[k] == single.blocked_at_name and result.blocked_at[k] == single.blocked_at
        assert reasons[k] == single.reason_name and result.reason[k] == single.reason
        assert type(single.blocked_at) is int and type(single.reason) is int
        assert (result.range[k], result.cover[k]) == (single.range, single.cover)


def test_field_of_fire_single_and_several_sources():
    board = kernel.load("default")
    matrix = los_matrix(board)
    one = field_of_fire(board, "71I4")
    row = matrix[board.index("71I4")]
    assert np.array_equal(one.visible, row != BLOCKED)
    assert np.array_equal(one.hindrance, np.where(row != BLOCKED, row, BLOCKED))
    sources = ["71I4", "72M6", "73Q5"]
    several = field_of_fire(board, sources)
    rows = matrix[board.indices(sources)]
    best = np.where(rows == BLOCKED, 999, rows.astype(np.int32)).min(axis=0)
    assert np.array_equal(several.visible, (rows != BLOCKED).any(axis=0))
    assert np.array_equal(several.hindrance[several.visible], best[several.visible])
    assert several.visible.sum() >= one.visible.sum()


def test_field_of_fire_cover_equals_single_los_cover():
    board = kernel.load("default")
    fire = field_of_fire(board, "71I4", unit="infantry")
    for target in np.flatnonzero(fire.visible)[::9]:
        assert fire.cover[target] == los(board, "71I4", int(target), unit="infantry").cover


def test_counters_change_the_matrix():
    board = random_board("asl", 10, 8, seed=2, terrain_density=0.0, hexside_density=0.0, max_level=0)
    plain = los_matrix(board)
    smoky = los_matrix(board, counters=Counters.on(board, smoke={"E4": 3}))
    assert (plain >= 0).all()
    assert (smoky > plain).any()


@pytest.mark.parametrize("call, error, match", [
    (lambda b: los_matrix(b, counters=Counters(smoke=np.zeros(5))), ValueError, r"counters.smoke has shape \(5,\)"),
    (lambda b: los(b, "71I4", "71I6", level=2), ValueError, "level is 2 in 71I4"),
    (lambda b: los(b, "71I4", "71I6", target_level=-1), ValueError, "target_level is -1"),
    (lambda b: los(b, "71I4", "99A1"), KeyError, "'99A1' is not on this map"),
    (lambda b: los(b, "71I4", "71I6", counters={"smoke": 1}), TypeError, "counters must be a kernel.Counters"),
    (lambda b: next(los_matrix_blocks(b, block_rows=0)), ValueError, "block_rows is 0"),
    (lambda b: field_of_fire(b, []), ValueError, "no sources given"),
    (lambda b: los_pairs(b, [1, 2], [3]), ValueError, "sources has 2 hexes and targets 1: expected equal lengths"),
    (lambda b: los(b, "71I4", "71I6", unit="cavalry"), ValueError, "unknown unit class 'cavalry'"),
    (lambda b: los_pairs(b, [1], [2], target_levels=2), ValueError, r"target_levels\[0\] is 2 in 71A3: expected 0\.\.0"),
    (lambda b: field_of_fire(b, ["71I4"], levels=3), ValueError, r"levels\[0\] is 3 in 71I4: expected 0\.\.0"),
    (lambda b: los(b, "71P5h1", "71I4", level=2), ValueError, "level=2 contradicts the Location '71P5h1'"),
    (lambda b: los(b, "Bridge/71I4", "71I6"), ValueError, "'Bridge/71I4': 71I4 has no bridge"),
    (lambda b: los_matrix(b, [1], levels=[1]), ValueError, r"levels\[0\] is 1 in 71A2: expected 0\.\.0"),
])
def test_bad_input_gets_a_clear_error(call, error, match):
    board = kernel.load("default")
    with pytest.raises(error, match=match):
        call(board)


@pytest.mark.parametrize("ruleset", ["asl", "valor-victory", "ccn"])
def test_los_is_reciprocal_between_ground_locations(ruleset):
    """Each direction is evaluated on its own (the matrix only computes one): same answer both ways."""
    board = random_board(ruleset, 14, 10, seed=9)
    rng = np.random.default_rng(9)
    a = rng.integers(0, len(board), 3000)
    b = rng.integers(0, len(board), 3000)
    forward = los_pairs(board, a, b)
    backward = los_pairs(board, b, a)
    assert np.array_equal(forward.visible, backward.visible)
    if ruleset == "valor-victory":
        # 10.10: the target's wall or hedge counts, the firer's own does not, so the hindrance of
        # a pair may differ by direction, by at most the two end hexsides' +1 each
        difference = forward.hindrance[forward.visible] - backward.hindrance[backward.visible]
        assert np.abs(difference).max() <= 2 and (difference != 0).any()
    else:
        assert np.array_equal(forward.hindrance[forward.visible], backward.hindrance[backward.visible])
    assert np.array_equal(forward.blind, backward.blind)
    assert np.array_equal(forward.continuous_slope, backward.continuous_slope)


@pytest.mark.parametrize("ruleset", ["asl", "valor-victory", "ccn"])
def test_los_pairs_gives_range_and_cover_like_single_los(ruleset):
    """Bulk results carry what one LOS carries: range in hexes and the target's cover.

    The range is checked against a breadth-first walk over the board's neighbour table."""
    from collections import deque

    from kernel import los

    board = random_board(ruleset, 10, 8, seed=4)
    rng = np.random.default_rng(4)
    a = rng.integers(0, len(board), 60)
    b = rng.integers(0, len(board), 60)
    unit = board.ruleset.unit_classes[-1]
    result = los_pairs(board, a, b, unit=unit)
    for k in range(60):
        single = los(board, int(a[k]), int(b[k]), unit=unit)
        assert int(result.cover[k]) == single.cover
        seen = {int(a[k]): 0}
        queue = deque([int(a[k])])
        while queue:
            h = queue.popleft()
            for n in board.neighbours[h]:
                if n >= 0 and int(n) not in seen:
                    seen[int(n)] = seen[h] + 1
                    queue.append(int(n))
        assert int(result.range[k]) == seen[int(b[k])]


def test_los_pairs_cover_depends_on_the_unit_class():
    """CCN towns cover infantry +2 and cavalry +3: the ``unit`` of ``los_pairs`` changes ``cover``."""
    board = random_board("ccn", 10, 8, seed=4)
    rng = np.random.default_rng(4)
    a = rng.integers(0, len(board), 400)
    b = rng.integers(0, len(board), 400)
    infantry = los_pairs(board, a, b, unit="infantry").cover
    cavalry = los_pairs(board, a, b, unit="cavalry").cover
    assert (cavalry > infantry).any() and not (cavalry < infantry).any()
    with pytest.raises(ValueError, match="unit class 'dragoons'"):
        los_pairs(board, a, b, unit="dragoons")


@pytest.mark.parametrize("ruleset", ["asl", "valor-victory", "ccn"])
def test_single_pair_cover_and_range_equal_the_bulk_ones(ruleset):
    """``los()`` and ``los_pairs`` give each pair the same cover and range, Locations above ground
    included, for every unit class."""
    board = random_board(ruleset, 10, 8, seed=6)
    rng = np.random.default_rng(6)
    a = rng.integers(0, len(board), 200)
    b = rng.integers(0, len(board), 200)
    level_a = np.array([rng.integers(0, board.top_level[h] + 1) for h in a])
    level_b = np.array([rng.integers(0, board.top_level[h] + 1) for h in b])
    for unit in board.ruleset.unit_classes:
        bulk = los_pairs(board, a, b, levels=level_a, target_levels=level_b, unit=unit)
        one = [los(board, int(a[k]), int(b[k]), level=int(level_a[k]), target_level=int(level_b[k]), unit=unit)
               for k in range(200)]
        assert bulk.cover.tolist() == [r.cover for r in one]
        assert bulk.range.tolist() == [board.distance(int(a[k]), int(b[k])) for k in range(200)]
