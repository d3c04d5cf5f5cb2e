"""SMOKE in the viewer's or the target's own hex (ASL A24: fire into or out of a SMOKE hex;
``los 71I4 71L5`` with +3 SMOKE in 71L5 gave +0), in the kernel and in the reference."""

from __future__ import annotations

import numpy as np
import pytest

import kernel
from kernel import Counters, los, los_matrix, los_pairs
from tests.reference.los_reference import reference_los


@pytest.fixture(scope="module")
def board():
    return kernel.load("default")


def smoke(board, hexes, height=2):
    array = np.zeros(len(board), np.int64)
    for name, drm in hexes.items():
        array[board.index(name)] = drm
    return {"smoke": array, "smoke_height": np.full(len(board), height)}


@pytest.mark.parametrize("hexes, level_a, level_b, expected", [
    ({}, 0, 0, 0),                            # nothing in 71I4-71L5 hinders (hand-checked: open ground)
    ({"71L5": 3}, 0, 0, 3),                   # the case: SMOKE in the target's hex
    ({"71I4": 2}, 0, 0, 2),                   # SMOKE in the viewer's hex
    ({"71I4": 2, "71L5": 3}, 0, 0, 5),        # both: into and out of
], ids=["none", "target-hex", "viewer-hex", "both-ends"])
def test_smoke_in_an_end_hex_hinders(board, hexes, level_a, level_b, expected):
    counters = Counters(**smoke(board, hexes))
    result = los(board, "71I4", "71L5", counters=counters)
    assert result.visible and result.hindrance == expected
    a, b = board.index("71I4"), board.index("71L5")
    assert reference_los(board, a, b, counters=smoke(board, hexes))["hindrance"] == expected
    assert int(los_pairs(board, [a], [b], counters=counters).hindrance[0]) == expected
    assert int(los_matrix(board, [a, b], counters=counters)[0, 1]) == expected


def test_end_smoke_reaching_the_cap_blocks_at_the_end(board):
    counters = Counters(**smoke(board, {"71I4": 3, "71L5": 3}))
    result = los(board, "71I4", "71L5", counters=counters)
    assert not result.visible and result.reason_name == "hindrance" and result.blocked_at_name == "71L5"
    first = los(board, "71I4", "71L5", counters=Counters(**smoke(board, {"71I4": 6})))
    assert not first.visible and first.blocked_at_name == "71I4"
    assert [step.hex for step in result.steps if step.hindrance] == ["71I4", "71L5"]


def test_an_end_above_the_smoke_is_not_in_it(board):
    """SMOKE two levels high in a building hex: level 1 is inside it, level 2 is above its top."""
    # two building levels (h2 a level of the building, not a rooftop, which sees from half a level lower)
    building = next(h for h in range(len(board)) if board.building_levels[h] >= 2 and board.ground_level[h] == 0)
    name = board.names[building]
    target = "71I4" if name != "71I4" else "71L5"
    counters = Counters(**smoke(board, {name: 3}))
    clear = los(board, f"{name}h1", target)
    inside = los(board, f"{name}h1", target, counters=counters)
    above = los(board, f"{name}h2", target, counters=counters)
    above_clear = los(board, f"{name}h2", target)
    assert inside.hindrance == clear.hindrance + 3 or not inside.visible
    assert above.hindrance == above_clear.hindrance and above.visible == above_clear.visible
    ref = reference_los(board, building, board.index(target), level_a=2, counters=smoke(board, {name: 3}))
    assert ref["hindrance"] == above.hindrance
