"""Location-level movement results: costs and paths to one Location, paths as index arrays.

Checked against the separately written networkx reference on seeded random
boards with multi-level buildings (the seed is in the test id).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from kernel import load, movement_field, random_board
from tests.reference.movement_reference import loc, path_cost, reference_movement
from tests.test_movement_kernel import as_reference_node

SEEDS = [3, 11]


@pytest.mark.parametrize("seed", SEEDS, ids=lambda s: f"seed{s}")
def test_cost_and_path_to_every_upper_location_match_the_reference(seed):
    board = random_board("asl", 12, 9, seed=seed)
    start = board.names[int(np.flatnonzero(board.ground_level == board.ground_level.min())[0])]
    field = movement_field(board, start, unit="infantry")
    reference = reference_movement(board, [start], "infantry")
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
            assert path_cost(board, nodes, "infantry", starts=[start]) == want, (name, path)
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
