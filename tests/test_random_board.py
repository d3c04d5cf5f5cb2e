"""Seeded random boards (kernel.maps.random_maps): determinism, sizes, densities, errors."""

from __future__ import annotations

import re

import numpy as np
import pytest

from kernel import Board, data_dir, random_board

RULESETS = ("asl", "valor-victory", "ccn")
LAYOUTS = ("rectangular", "geomorphic", "staggered")
COMPARED = ("terrain", "ground_level", "building_levels", "hexside", "touches", "hindrance", "x", "y")


def same(a: Board, b: Board) -> bool:
    return a.names == b.names and all(np.array_equal(getattr(a, k), getattr(b, k)) for k in COMPARED)


def expected_count(layout: str, columns: int, rows: int) -> int:
    odd = columns // 2   # columns B, D, ...
    if layout == "geomorphic":
        return columns * rows + odd            # odd columns also hold the half hex 0
    if layout == "staggered":
        return columns * rows - odd            # odd columns hold 1..rows-1
    return columns * rows


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_board(ruleset):
    a = random_board(ruleset, 10, 8, seed=11)
    b = random_board(ruleset, 10, 8, seed=11)
    assert a is not b and same(a, b)
    assert a.title == b.title == f"random {ruleset} board 10x8 seed 11"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_different_seeds_differ(ruleset):
    boards = [random_board(ruleset, 10, 8, seed=seed) for seed in range(4)]
    for i in range(len(boards)):
        for j in range(i + 1, len(boards)):
            assert not np.array_equal(boards[i].terrain, boards[j].terrain)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_size_and_layout(ruleset, layout):
    board = random_board(ruleset, 7, 5, seed=2, layout=layout)
    assert board.ruleset.name == ruleset
    assert len(board) == expected_count(layout, 7, 5)
    assert int(board.col.max()) == 6
    prefix = "1" if layout == "geomorphic" else ""   # geomorphic boards carry their number
    names = {name[len(prefix):] for name in board.names}
    assert all(name.startswith(prefix) for name in board.names)
    assert "G5" in names and "A1" in names
    assert ("B0" in names) == (layout == "geomorphic")
    assert ("B5" in names) == (layout != "staggered")
    assert "H1" not in names and "A6" not in names


def test_default_size():
    board = random_board()
    assert len(board) == 20 * 12 and board.ruleset.name == "asl"


def test_one_by_one():
    board = random_board("asl", 1, 1, seed=5)
    assert len(board) == 1 and board.names == ("A1",)
    assert (board.neighbours == -1).all()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_zero_terrain_density(ruleset):
    board = random_board(ruleset, 12, 8, seed=1, terrain_density=0.0)
    assert not board.terrain.any()
    assert not board.building_levels.any() and not board.obstacle_height.any()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_full_terrain_density(ruleset):
    board = random_board(ruleset, 12, 8, seed=1, terrain_density=1.0)
    assert (board.terrain != 0).all()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_zero_hexside_density(ruleset):
    board = random_board(ruleset, 12, 8, seed=1, hexside_density=0.0)
    assert not board.hexside.any()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_full_hexside_density(ruleset):
    board = random_board(ruleset, 12, 8, seed=1, hexside_density=1.0)
    inside = board.neighbours >= 0
    assert (board.hexside[inside] != 0).all()
    assert not board.hexside[~inside].any()    # map-edge hexsides get nothing


@pytest.mark.parametrize("ruleset", RULESETS)
def test_hexsides_symmetric(ruleset):
    board = random_board(ruleset, 12, 8, seed=4, hexside_density=0.5)
    for d in range(6):
        inside = board.neighbours[:, d] >= 0
        assert (board.hexside[inside, d] == board.hexside[board.neighbours[inside, d], (d + 3) % 6]).all()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_max_level_zero_is_flat(ruleset):
    board = random_board(ruleset, 12, 8, seed=3, max_level=0)
    assert not board.ground_level.any()


def test_max_level_zero_with_hills_is_flat():
    board = random_board("asl", 12, 8, seed=3, max_level=0, hills=4)
    assert not board.ground_level.any()


@pytest.mark.parametrize("ruleset, default_max", [("asl", 3), ("valor-victory", 2), ("ccn", 1)])
def test_levels_bounded(ruleset, default_max):
    for seed in range(3):
        board = random_board(ruleset, 16, 10, seed=seed, hills=6)
        assert int(board.ground_level.max()) <= default_max
        assert int(board.ground_level.min()) >= (-1 if ruleset == "asl" else 0)
        assert int(board.ground_level.max()) >= 1
    board = random_board(ruleset, 16, 10, seed=0, hills=6, max_level=5)
    assert int(board.ground_level.max()) <= 5


def test_hill_slopes_are_continuous():
    board = random_board("valor-victory", 16, 10, seed=8, hills=3)
    for d in range(6):
        inside = board.neighbours[:, d] >= 0
        step = board.ground_level[inside].astype(int) - board.ground_level[board.neighbours[inside, d]]
        assert np.abs(step).max() <= 1


def test_cliffs_make_neighbours_two_levels_apart():
    board = random_board("valor-victory", 16, 10, seed=8, hills=3, cliffs=1.0)
    steps = [np.abs(board.ground_level[board.neighbours[:, d] >= 0].astype(int)
                    - board.ground_level[board.neighbours[board.neighbours[:, d] >= 0, d]]).max() for d in range(6)]
    assert max(steps) == 2


BASE = dict(ruleset="asl", columns=12, rows=10, seed=7)
VARIANTS = [
    ("ruleset", dict(ruleset="valor-victory")),
    ("columns", dict(columns=13)),
    ("rows", dict(rows=11)),
    ("seed", dict(seed=8)),
    ("layout", dict(layout="geomorphic")),
    ("terrain_density", dict(terrain_density=0.8)),
    ("hexside_density", dict(hexside_density=0.3)),
    ("max_level", dict(max_level=1)),
    ("hills", dict(hills=5)),
    ("cliffs", dict(cliffs=1.0)),
    ("switches", dict(switches={"orchards_in_season": False})),
]


@pytest.fixture(scope="module")
def base_board():
    return random_board(**BASE)


@pytest.mark.parametrize("change", [v[1] for v in VARIANTS], ids=[v[0] for v in VARIANTS])
def test_every_parameter_changes_the_output(base_board, change):
    other = random_board(**{**BASE, **change})
    if "switches" in change:
        # Same map, but orchards are no longer hindrances.
        assert np.array_equal(other.terrain, base_board.terrain)
        rs = base_board.ruleset
        alone = [h for h in np.flatnonzero(base_board.has_terrain("orchard"))  # no other hindrance there
                 if all(t == "orchard" or rs.terrain_hindrance[rs.terrain_index(t)] == 0 for t in base_board.terrain_of(h))]
        assert alone
        assert (base_board.hindrance[alone] == 1).all() and (other.hindrance[alone] == 0).all()
        assert other.ruleset.switches["orchards_in_season"] is False
        return
    assert not same(base_board, other)


def test_ruleset_by_path():
    board = random_board(str(data_dir() / "rulesets" / "asl.toml"), 6, 4, seed=1)
    assert board.ruleset.name == "asl" and len(board) == 24


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(columns=0), "board size 0x12: expected at least 1x1"),
        (dict(rows=0), "board size 20x0: expected at least 1x1"),
        (dict(columns=-3, rows=-1), "board size -3x-1: expected at least 1x1"),
        (dict(columns=53), "columns is 53: expected at most 52 (A..ZZ)"),
        (dict(terrain_density=1.5), "terrain_density is 1.5: expected a probability in 0..1"),
        (dict(terrain_density=-0.1), "terrain_density is -0.1: expected a probability in 0..1"),
        (dict(hexside_density=2), "hexside_density is 2: expected a probability in 0..1"),
        (dict(cliffs=-0.5), "cliffs is -0.5: expected a probability in 0..1"),
        (dict(layout="hexagonal"), "layout is 'hexagonal': expected one of geomorphic, rectangular, staggered"),
        (dict(max_level=-1), "max_level is -1: expected 0 or more"),
        (dict(rows=1000), "rows is 1000: expected at most 200"),
        (dict(max_level=40000), "max_level is 40000: expected at most 100"),
        (dict(hills=10**9), "hills is 1000000000: expected 0..240 (at most one summit per hex)"),
        (dict(hills=-1), "hills is -1: expected 0..240"),
        (dict(rows=12.5), "rows is 12.5: expected an integer"),
        (dict(columns=True), "columns is True: expected an integer"),
    ],
    ids=["zero-columns", "zero-rows", "negative-size", "too-many-columns", "terrain-density-high",
         "terrain-density-negative", "hexside-density-high", "cliffs-negative", "layout", "max-level",
         "too-many-rows", "max-level-high", "too-many-hills", "negative-hills", "float-rows", "bool-columns"],
)
def test_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        random_board(**kwargs)


def test_unknown_ruleset_and_switch():
    with pytest.raises(ValueError, match=r"unknown ruleset 'chess'"):
        random_board("chess")
    with pytest.raises(ValueError, match=r"unknown switch 'winter'"):
        random_board("asl", switches={"winter": True})
