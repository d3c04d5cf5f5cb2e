"""Location-level movement results: costs and paths to one Location, paths as index arrays.

Checked against the separately written networkx reference on seeded random
boards with multi-level buildings (the seed is in the test id).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from kernel import Counters, GameState, load, movement_field, random_board
from tests.reference.movement_reference import loc, path_cost, reference_movement
from tests.test_movement_kernel import as_reference_node

SEEDS = [3, 11]


def random_smoke(board, seed):
    """SMOKE in every hex with upper Locations and a fifth of the others, each in a random Location of its hex
    (ground, upper level, rooftop), one or two levels high."""
    rng = np.random.default_rng(500 + seed)
    n = len(board)
    smoke = np.where((rng.random(n) < 0.2) | (board.top_level > 0), 2, 0)
    base = np.where(smoke > 0, np.floor(rng.random(n) * (board.top_level + 1)), 0).astype(np.int64)
    return Counters(smoke=smoke, smoke_height=rng.integers(1, 3, n), smoke_base=base)


@pytest.mark.parametrize("with_smoke", [False, True], ids=["bare", "smoke-at-locations"])
@pytest.mark.parametrize("seed", SEEDS, ids=lambda s: f"seed{s}")
def test_cost_and_path_to_every_upper_location_match_the_reference(seed, with_smoke):
    board = random_board("asl", 12, 9, seed=seed)
    start = board.names[int(np.flatnonzero(board.ground_level == board.ground_level.min())[0])]
    counters = random_smoke(board, seed) if with_smoke else None
    field = movement_field(board, start, unit="infantry", counters=counters)
    extent = {} if counters is None else dict(smoke=counters.smoke > 0, smoke_base=counters.smoke_base,
                                              smoke_height=counters.smoke_height)
    reference = reference_movement(board, [start], "infantry", **extent)
    upper = [(int(h), level) for h in np.flatnonzero(board.top_level > 0)
             for level in range(1, int(board.top_level[h]) + 1)]
    assert upper, "the random board should have upper Locations"
    for h, level in upper:
        name = board.location_name(h, level)
        want = min(reference["state_cost"].get(loc(h, level, mode), math.inf) for mode in ("moving", "stopped"))
        assert field.cost_at(name) == want, name
        path = field.path_to(name)
        if math.isfinite(want):
            assert path[-1] == name and path[0] == start
            nodes = [as_reference_node(board, field, s) for s in field.path_states(name)]
            assert path_cost(board, nodes, "infantry", starts=[start], **extent) == want, (name, path)
        else:
            assert path is None


def test_a_location_is_not_its_hex():
    """The upper level of a building costs more than the hex's ground Location (the level changes the answer)."""
    board = load("default")
    field = movement_field(board, "71I4", unit="infantry")
    assert field.cost_at("71P5h1") > field.cost_at("71P5")
    assert field.path_to("71P5h1")[-1] == "71P5h1"
    # a path to a hex ends at its ground Location, never in a Bypass position: 'h0' asks for the same
    assert field.path_to("71P5")[-1] == "71P5" and field.path_to("71P5") == field.path_to("71P5h0")
    assert field.cost_at("71P5h0") == field.cost_at("71P5")
    # the hex's cost counts its Bypass positions: bypassing 71P5 is cheaper than entering it
    bypass = field.best_state("71P5")
    assert "-" in field.state_name(bypass) and field.cost[board.index("71P5")] == field.state_cost[bypass]
    assert field.cost[board.index("71P5")] < field.cost_at("71P5")


def test_a_path_to_a_hex_ends_at_its_location_and_bypasses_stay_inside():
    """The README's example: the path to 71E4 bypasses 71F3 on its way, and ends in 71E4 itself."""
    board = load("default")
    field = movement_field(board, "71I4", unit="infantry", allowance=4)
    reached = 0
    for h in np.flatnonzero(np.isfinite(field.cost)):
        path = field.path_to(int(h))
        if path is None:  # reached only in Bypass (its Location costs more than the allowance)
            assert field.cost_at(int(h)) == math.inf
            continue
        reached += 1
        assert path[-1] == board.names[h] or (board.bridge_deck[h] and path[-1] == board.names[h] + "h1")
        assert field.state_cost[field.path_states(int(h))[-1]] == field.cost_at(int(h))
    assert reached > 20
    assert any("-" in name for name in field.path_to("71E4")[1:-1])


def test_path_array_rows_are_hex_level_and_bypass_side():
    board = load("default")
    field = movement_field(board, "71I4", unit="infantry")
    names = field.path_to("71E4")
    rows = field.path_array("71E4")
    assert rows.dtype == np.int32 and rows.shape == (len(names), 3)
    for name, (h, level, side) in zip(names, rows):
        if side < 0:
            assert board.location_name(int(h), int(level)) == name
        else:  # a Bypass position 'hex-hex' along hexside `side` of `hex`
            assert name == f"{board.names[h]}-{board.names[board.neighbours[h, side]]}" and level == 0
    assert (rows[:, 2] >= 0).any(), "the path to 71E4 bypasses 71F3 (see the README)"
    upper = field.path_array("71P5h1")
    assert tuple(upper[-1]) == (board.index("71P5"), 1, -1)


def test_unreachable_and_bad_locations():
    board = load("default")
    field = movement_field(board, "71I4", unit="infantry", allowance=1)
    far = board.names[int(np.flatnonzero(~np.isfinite(field.cost))[0])]
    assert field.cost_at(far) == math.inf and field.path_to(far) is None and field.path_array(far) is None
    with pytest.raises(ValueError, match=r"Location '71P5h9': level 9 does not exist: 71P5 has levels 0\.\.\d"):
        field.cost_at("71P5h9")
    with pytest.raises(KeyError, match=r"hex '71ZZ9' is not on this map"):
        field.cost_at("71ZZ9")


# Hand-checked on 71P5 (a two-level stone building with a rooftop, 71P5h3): from 71P6 its ground costs 2 MF
# (building), each level up the COT again, 2.  SMOKE adds 1 MF to the COT of each Location inside it (B.2),
# and fills its hex from the Location it is in up smoke_height levels (two here; the rooftop counts half a
# level lower, as it sees): ground SMOKE holds the ground and h1; SMOKE at h1 holds h1, h2 and the rooftop,
# not the ground beneath it; SMOKE at h2 holds h2 and the rooftop.
@pytest.mark.parametrize("smoke, costs", [
    (None, [2, 4, 6, 8]),
    ({"71P5": 2}, [3, 6, 8, 10]),
    ({"71P5h1": 2}, [2, 5, 8, 11]),
    ({"71P5h2": 2}, [2, 4, 7, 10]),
], ids=["none", "ground", "level-1", "level-2"])
def test_smoke_costs_where_its_location_is(smoke, costs):
    board = load("71")
    counters = None if smoke is None else Counters.on(board, smoke=smoke)
    locations = ["71P5", "71P5h1", "71P5h2", "71P5h3"]
    field = movement_field(board, "71P6", unit="infantry", counters=counters)
    assert [field.cost_at(name) for name in locations] == costs
    state = GameState(board, counters)   # the same from a game state's prepared SMOKE costs
    assert [movement_field(board, "71P6", unit="infantry", counters=state).cost_at(name)
            for name in locations] == costs


def test_a_game_state_follows_smoke_moved_between_the_locations_of_a_hex():
    board = load("71")
    state = GameState(board)
    state.place_smoke("71P5", 2)
    assert movement_field(board, "71P6", unit="infantry", counters=state).cost_at("71P5") == 3
    state.move_smoke("71P5", "71P5h1")   # SMOKE rises to level 1: the ground beneath it is free of it
    field = movement_field(board, "71P6", unit="infantry", counters=state)
    assert field.cost_at("71P5") == 2 and field.cost_at("71P5h1") == 5
