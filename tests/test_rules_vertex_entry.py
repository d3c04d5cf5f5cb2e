"""V&V 10.10: a target's wall/hedge reached at a vertex after a hexside run.

A LOS running exactly along a hexside reaches the target's hex at the run's
far vertex, where two of the target's hexsides meet; a wall or hedge on
either is crossed into the target's hex and gives its +1 to a firer that is
not adjacent to it (docs/los-semantics.md, V&V). Golden cases go through
``los`` of ``tests/test_los_reference.py``, which checks that the kernel
agrees with the reference; the seeded cases compare every ordered pair.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import kernel
from kernel.line_of_sight.single import los as kernel_los
from tests.board_text import make_board
from tests.reference.los_reference import reference_los
from tests.test_los_reference import assert_visible, los


def vv_board(tmp_path, hexsides):
    return make_board(tmp_path, {}, hexsides, ruleset="valor-victory")


@pytest.mark.parametrize(
    "hexsides, firer, target, expected",
    [
        # B3 -> D3 runs along C3|C4 and enters D3 at the vertex of C3, C4, D3
        pytest.param({"C3-D3": ["hedge"]}, "B3", "D3", 1, id="hedge-on-one-entry-hexside"),
        pytest.param({"C4-D3": ["wall"]}, "B3", "D3", 1, id="wall-on-the-other-entry-hexside"),
        pytest.param({"C3-D3": ["hedge"], "C4-D3": ["hedge"]}, "B3", "D3", 1, id="both-count-once"),
        # the same hedges are the firer's own when D3 fires (10.10: ignored)
        pytest.param({"C3-D3": ["hedge"], "C4-D3": ["hedge"]}, "D3", "B3", 0, id="firer-own-hedges-ignored"),
        # along the run's hedge and into the target's: +1 each
        pytest.param({"C3-C4": ["hedge"], "C3-D3": ["hedge"]}, "B3", "D3", 2, id="along-and-into-plus2"),
        # a longer spine: B3 -> F3 enters F3 at the vertex of E3, E4, F3
        pytest.param({"E3-F3": ["hedge"]}, "B3", "F3", 1, id="longer-spine-plus1"),
        # a hedge of the target not at the entry vertex: not crossed
        pytest.param({"D3-D4": ["hedge"]}, "B3", "D3", 0, id="hedge-away-from-entry-clear"),
    ],
)
def test_vv_target_hedge_at_run_vertex(tmp_path, hexsides, firer, target, expected):
    board = vv_board(tmp_path, hexsides)
    assert_visible(los(board, firer, target), hindrance=expected)


def test_vv_target_hedge_at_run_vertex_is_explained(tmp_path):
    board = vv_board(tmp_path, {"C3-D3": ["hedge"]})
    result = kernel.los(board, "B3", "D3")
    crossing = [step for step in result.steps if step.kind == "hexside crossing"]
    assert [(step.hex, step.hindrance, step.rule) for step in crossing] == [("D3", 1, "10.8-10.10 hindrance")]
    assert "10.10" in result.explain()


@pytest.mark.parametrize("seed", (3, 11, 29))
def test_vv_hexside_runs_kernel_matches_reference(seed):
    # seeded random V&V maps, dense in walls and hedges: every ordered pair
    # whose LOS runs along a hexside (dy == 0 or |dx| == |dy|), the kernel's
    # hindrance and visibility against the reference's
    board = kernel.random_board("valor-victory", 10, 8, seed=seed, hexside_density=0.4, max_level=2)
    rng = random.Random(seed)
    x, y = np.asarray(board.x), np.asarray(board.y)
    pairs = [(a, b) for a in range(len(board)) for b in range(len(board))
             if a != b and (y[a] == y[b] or abs(x[a] - x[b]) == abs(y[a] - y[b]))]
    checked = vertex_hedges = 0
    for a, b in rng.sample(pairs, min(250, len(pairs))):
        slow = reference_los(board, a, b)
        fast = kernel_los(board, a, b)
        assert (fast.visible, fast.hindrance) == (slow["visible"], slow["hindrance"]), (board.names[a], board.names[b])
        checked += 1
        vertex_hedges += any(step.kind == "hexside crossing" and step.hex == board.names[b] for step in fast.steps)
    assert checked > 100 and vertex_hedges > 0
