"""Tests of the LOS reference implementation (the oracle) against hand-checked cases.

Every expectation below was worked out by hand from docs/los-semantics.md and
the rules digest (../shared/rules/README.md from the project root), not read off the oracle.

Geometry reminder (``layout = rectangular``): hex ``n`` of column ``c``
(A = 0) has its centre at ``x = 3c``, ``y = 2(n - 1) + 1 + (c mod 2)``, so
column B sits half a hex lower than A and C.  A column line (``A1 -> A5``)
crosses only interiors; a horizontal line two columns across (``B3 -> D3``)
runs along the hexside C3|C4; ``A1 -> B5`` passes exactly through the vertex
shared by A2, A3 and B2 (B2 touched at a vertex).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from kernel import Counters
from kernel.line_of_sight.single import los as kernel_los
from kernel import random_board
from kernel.line_of_sight._templates.tracer import trace as kernel_trace
from tests.board_text import board_from_text, board_text, make_board
from tests.reference.los_reference import (
    hex_range, obstacle_heights, reference_los, reference_steps, reference_trace, trace_contacts,
)


def named(board, trace):
    return [(board.names[h], kind) for h, kind in trace]


def los(board, a, b, **kwargs):
    """The reference result of a golden case, after checking that the kernel agrees on it.

    Every hand-checked case below therefore also tests ``kernel.los``.
    """
    result = reference_los(board, board.index(a), board.index(b), **kwargs)
    counters = kwargs.get("counters")
    fast = kernel_los(
        board, board.index(a), board.index(b), level=kwargs.get("level_a", 0), target_level=kwargs.get("level_b", 0),
        counters=Counters(**counters) if counters else None,
        unit=board.ruleset.unit_classes[kwargs.get("unit_class", 0)] if isinstance(kwargs.get("unit_class", 0), int)
        else kwargs["unit_class"],
    )
    got = {"visible": fast.visible, "hindrance": fast.hindrance,
           "blocked_at": fast.blocked_at, "reason": fast.reason_name,
           "blind": fast.blind, "continuous_slope": fast.continuous_slope, "cover": fast.cover}
    assert got == {key: result[key] for key in got}, f"kernel {got} != reference {result}"
    assert kernel_trace(board, a, b) == reference_trace(board, board.index(a), board.index(b))
    return result


def counters_for(board, **named_values):
    """counters dict: ``smoke={"A3": 2}``, ``vehicles={"A3": True}``..."""
    out = {}
    for key, values in named_values.items():
        dtype = np.bool_ if key in ("vehicles", "units") else np.int16
        array = np.zeros(len(board), dtype=dtype)
        for name, value in values.items():
            array[board.index(name)] = value
        out[key] = array
    return out


def assert_blocked(result, board, at, reason, blind=False):
    assert result["visible"] is False
    assert result["blocked_at"] == board.index(at), board.names[result["blocked_at"]]
    assert result["reason"] == reason
    assert result["blind"] is blind


def assert_visible(result, hindrance=None):
    assert result["visible"] is True, result
    assert result["blocked_at"] == -1
    assert result["reason"] is None
    assert result["blind"] is False
    if hindrance is not None:
        assert result["hindrance"] == hindrance


# ============================================================================
# Board helper
# ============================================================================


def test_board_text_builds_the_board(tmp_path):
    board = make_board(tmp_path, {"C3": (1, ["woods", "stone-building"]), "D4": (0, "grain")}, {"C3-C4": ["wall"]})
    assert len(board) == 12 * 8
    c3 = board.index("C3")
    assert board.ground_level[c3] == 1
    assert board.terrain_of(c3) == ["woods", "stone-building"]
    assert (int(board.x[c3]), int(board.y[c3])) == (6, 5)
    assert board.hexside_features(c3, 3) == ["wall"]     # S hexside of C3
    text = board_text({"A1": (2, [])}, ruleset="ccn", columns=3, rows=3)
    assert "A1 2 ." in text
    assert len(board_from_text(text, tmp_path)) == 9


def test_hex_range(tmp_path):
    board = make_board(tmp_path, {})
    assert hex_range(board, board.index("A1"), board.index("A5")) == 4
    assert hex_range(board, board.index("B3"), board.index("D3")) == 2
    assert hex_range(board, board.index("A1"), board.index("B1")) == 1
    assert hex_range(board, board.index("A1"), board.index("L1")) == 11


# ============================================================================
# §1 Trace
# ============================================================================


@pytest.fixture
def empty(tmp_path):
    return make_board(tmp_path, {})


def test_trace_symmetry_on_many_pairs(empty):
    rng = random.Random(20240229)
    n = len(empty)
    pairs = [tuple(rng.sample(range(n), 2)) for _ in range(40)]
    special = [("B3", "F3"), ("A1", "B5"), ("A1", "A8"), ("A1", "E4"), ("L1", "A8"), ("C1", "I4")]
    pairs += [(empty.index(p), empty.index(q)) for p, q in special]
    kinds_seen = set()
    for a, b in pairs:
        forward = reference_trace(empty, a, b)
        backward = reference_trace(empty, b, a)
        assert backward == forward[::-1], (empty.names[a], empty.names[b])
        assert forward[0] == (a, "interior") and forward[-1] == (b, "interior")
        assert len({h for h, _ in forward}) == len(forward)
        kinds_seen |= {k for _, k in forward}
    assert kinds_seen == {"interior", "hexside", "vertex"}


def test_trace_covers_the_segment_and_hexsides_only_on_hexspines(empty):
    # On a convex board the met hexes cover [0, 1] without gaps, and hexside
    # contacts occur exactly for lines parallel to a hexside: D = (k, 0) or
    # (k, +-k) in lattice units (0 and +-60 degrees).
    rng = random.Random(7)
    n = len(empty)
    for _ in range(150):
        a, b = rng.sample(range(n), 2)
        contacts = trace_contacts(empty, a, b)
        reach = contacts[0].t_out
        for c in contacts[1:]:
            assert c.t_in <= reach, (empty.names[a], empty.names[b])
            reach = max(reach, c.t_out)
        assert reach >= 1
        dx, dy = int(empty.x[b] - empty.x[a]), int(empty.y[b] - empty.y[a])
        hexspine = dy == 0 or abs(dx) == abs(dy)
        assert any(c.kind == "hexside" for c in contacts) == hexspine, (empty.names[a], empty.names[b])


def test_trace_column_line_is_all_interior(empty):
    trace = reference_trace(empty, empty.index("A2"), empty.index("A7"))
    assert named(empty, trace) == [(f"A{i}", "interior") for i in range(2, 8)]


def test_trace_column_line_steps_alternate_with_crossings(empty):
    steps = reference_steps(empty, empty.index("A1"), empty.index("A4"))
    described = [(s.kind, [empty.names[h] for h in s.hexes]) for s in steps]
    assert described == [
        ("crossing", ["A1", "A2"]), ("interior", ["A2"]), ("crossing", ["A2", "A3"]),
        ("interior", ["A3"]), ("crossing", ["A3", "A4"]),
    ]


@pytest.mark.parametrize(
    "a, b, expected",
    [
        pytest.param("B3", "D3", [("B3", "interior"), ("C3", "hexside"), ("C4", "hexside"), ("D3", "interior")],
                     id="two-columns-one-run-no-interior-between"),
        pytest.param("D3", "B3", [("D3", "interior"), ("C4", "hexside"), ("C3", "hexside"), ("B3", "interior")],
                     id="two-columns-reversed-run-sides-swap"),
        pytest.param("B3", "F3", [("B3", "interior"), ("C3", "hexside"), ("C4", "hexside"), ("D3", "interior"),
                                  ("E3", "hexside"), ("E4", "hexside"), ("F3", "interior")],
                     id="four-columns-runs-alternate-with-interiors"),
    ],
)
def test_trace_horizontal_line_has_hexside_runs(empty, a, b, expected):
    assert named(empty, reference_trace(empty, empty.index(a), empty.index(b))) == expected


def test_trace_horizontal_run_is_one_step_without_crossings(empty):
    steps = reference_steps(empty, empty.index("B3"), empty.index("D3"))
    assert [(s.kind, [empty.names[h] for h in s.hexes]) for s in steps] == [("run", ["C3", "C4"])]


def test_trace_through_vertices(empty):
    trace = reference_trace(empty, empty.index("A1"), empty.index("B5"))
    assert named(empty, trace) == [
        ("A1", "interior"), ("A2", "interior"), ("B2", "vertex"), ("A3", "interior"),
        ("B3", "interior"), ("A4", "vertex"), ("B4", "interior"), ("B5", "interior"),
    ]


def test_vertex_step_comes_before_the_crossing_at_the_same_point(empty):
    steps = reference_steps(empty, empty.index("A1"), empty.index("B5"))
    described = [(s.kind, [empty.names[h] for h in s.hexes]) for s in steps]
    i = described.index(("vertex", ["B2"]))
    assert described[i + 1] == ("crossing", ["A2", "A3"])
    assert steps[i].position == steps[i + 1].position == pytest.approx(1 / 3)


@pytest.mark.parametrize("a, b", [("A1", "A2"), ("A1", "B1"), ("C3", "D3"), ("C3", "B2")],
                         ids=["north-south", "to-south-east", "to-south-east-even-col", "to-north-west"])
def test_trace_adjacent_hexes(empty, a, b):
    ia, ib = empty.index(a), empty.index(b)
    assert reference_trace(empty, ia, ib) == [(ia, "interior"), (ib, "interior")]


def test_trace_same_hex(empty):
    c3 = empty.index("C3")
    assert reference_trace(empty, c3, c3) == [(c3, "interior")]
    result = reference_los(empty, c3, c3)
    assert_visible(result, hindrance=0)


# ============================================================================
# Digest section 8: worked examples about LOS (ASL)
# ============================================================================


@pytest.mark.parametrize("terrain", ["grain", "orchard", "brush"])
def test_b10_six_same_level_hindrances_block(tmp_path, terrain):
    board = make_board(tmp_path, {f"A{i}": (0, terrain) for i in range(2, 8)})
    result = los(board, "A1", "A8")
    assert_blocked(result, board, "A7", "hindrance")
    assert result["hindrance"] == 6


@pytest.mark.parametrize("terrain", ["grain", "orchard", "brush"])
def test_b10_five_same_level_hindrances_do_not_block(tmp_path, terrain):
    board = make_board(tmp_path, {f"A{i}": (0, terrain) for i in range(2, 7)})
    assert_visible(los(board, "A1", "A7"), hindrance=5)


@pytest.mark.parametrize(
    "c3, c4, expected",
    [
        pytest.param("orchard", "orchard", 1, id="B6-two-orchards-count-once"),
        pytest.param("orchard", None, 1, id="inherent-counts-from-one-side"),
        pytest.param(None, "graveyard", 1, id="inherent-graveyard-other-side"),
        pytest.param("grain", "grain", 1, id="non-inherent-both-sides-smaller"),
        pytest.param("grain", None, 0, id="non-inherent-one-side-nothing"),
        pytest.param("orchard", "grain", 1, id="inherent-and-non-inherent"),
    ],
)
def test_b6_hindrance_along_a_hexside(tmp_path, c3, c4, expected):
    hexes = {}
    if c3:
        hexes["C3"] = (0, c3)
    if c4:
        hexes["C4"] = (0, c4)
    board = make_board(tmp_path, hexes)
    assert_visible(los(board, "B3", "D3"), hindrance=expected)


@pytest.fixture
def tall(tmp_path):
    """4 x 16 board for long column lines."""
    def build(hexes):
        return make_board(tmp_path, hexes, columns=4, rows=16)
    return build


def test_a64_level2_viewer_woods_4_hexes_away_one_blind_hex(tall):
    board = tall({"A1": (2, []), "A5": (0, "woods")})
    behind = los(board, "A1", "A6")
    assert_blocked(behind, board, "A5", "blind hex", blind=True)
    assert_visible(los(board, "A1", "A7"), hindrance=0)
    # the woods hex itself is seen
    assert_visible(los(board, "A1", "A5"))


def test_a64_level3_viewer_woods_10_hexes_away_two_blind_hexes(tall):
    board = tall({"A1": (3, []), "A11": (0, "woods")})
    for target in ("A12", "A13"):
        assert_blocked(los(board, "A1", target), board, "A11", "blind hex", blind=True)
    assert_visible(los(board, "A1", "A14"))


def test_a64_blind_is_symmetric_from_the_low_end(tall):
    board = tall({"A1": (2, []), "A5": (0, "woods")})
    result = los(board, "A6", "A1")
    assert_blocked(result, board, "A5", "blind hex", blind=True)


# ============================================================================
# §2 ASL rule clauses
# ============================================================================


@pytest.mark.parametrize("terrain", ["woods", "stone-building", "wooden-building", "rubble"])
def test_asl_obstacle_in_interior_blocks(tmp_path, terrain):
    board = make_board(tmp_path, {"A3": (0, terrain)})
    assert_blocked(los(board, "A1", "A5"), board, "A3", "obstacle")
    # an obstacle in an end hex never blocks
    assert_visible(los(board, "A1", "A3"))
    assert_visible(los(board, "A3", "A5"))


@pytest.mark.parametrize(
    "c3, c4, blocked",
    [
        pytest.param("woods", None, False, id="woods-one-side-clear-A6.1"),
        pytest.param(None, "stone-building", False, id="building-other-side-clear"),
        pytest.param("woods", "woods", True, id="woods-both-sides-block"),
        pytest.param("woods", "stone-building", True, id="obstacles-both-sides-block"),
        pytest.param("rubble", None, True, id="inherent-rubble-one-side-blocks-B6"),
        pytest.param(None, "rubble", True, id="inherent-rubble-other-side-blocks"),
    ],
)
def test_asl_obstacles_along_a_hexside_run(tmp_path, c3, c4, blocked):
    hexes = {}
    if c3:
        hexes["C3"] = (0, c3)
    if c4:
        hexes["C4"] = (0, c4)
    board = make_board(tmp_path, hexes)
    result = los(board, "B3", "D3")
    if blocked:
        # a run is reported at its first side in trace order (C3)
        assert_blocked(result, board, "C3", "obstacle")
    else:
        assert_visible(result, hindrance=0)


@pytest.mark.parametrize(
    "terrain, blocked",
    [
        pytest.param("rubble", True, id="inherent-rubble-at-vertex-blocks"),
        pytest.param("woods", False, id="woods-at-vertex-clear"),
        pytest.param("stone-building", False, id="building-at-vertex-clear"),
    ],
)
def test_asl_obstacle_touched_at_a_vertex(tmp_path, terrain, blocked):
    board = make_board(tmp_path, {"B2": (0, terrain)})
    result = los(board, "A1", "B5")
    if blocked:
        assert_blocked(result, board, "B2", "obstacle")
    else:
        assert_visible(result)


@pytest.mark.parametrize(
    "terrain, expected",
    [
        pytest.param("orchard", 1, id="inherent-orchard-at-vertex-counts"),
        pytest.param("grain", 0, id="grain-at-vertex-ignored"),
    ],
)
def test_asl_hindrance_touched_at_a_vertex(tmp_path, terrain, expected):
    board = make_board(tmp_path, {"B2": (0, terrain)})
    assert_visible(los(board, "A1", "B5"), hindrance=expected)


@pytest.mark.parametrize(
    "hexside, feature, blocked",
    [
        pytest.param("A2-A3", "wall", True, id="wall-between-blocks-same-level"),
        pytest.param("A2-A3", "hedge", True, id="hedge-between-blocks-same-level"),
        pytest.param("A1-A2", "wall", False, id="wall-on-viewer-hexside-ignored-B9.2"),
        pytest.param("A4-A5", "wall", False, id="wall-on-target-hexside-ignored-B9.2"),
        pytest.param("A1:SE", "wall", False, id="wall-not-crossed"),
    ],
)
def test_asl_wall_crossing_same_level(tmp_path, hexside, feature, blocked):
    board = make_board(tmp_path, {}, {hexside: [feature]})
    result = los(board, "A1", "A5")
    if blocked:
        assert_blocked(result, board, "A3", "hexside")
    else:
        assert_visible(result, hindrance=0)


def test_asl_wall_crossed_through_a_vertex_blocks(tmp_path):
    # A1 -> B5 passes from A2 into A3 through the vertex they share with B2.
    board = make_board(tmp_path, {}, {"A2-A3": ["wall"]})
    assert_blocked(los(board, "A1", "B5"), board, "A3", "hexside")


@pytest.mark.parametrize(
    "feature, blocked",
    [
        pytest.param("wall", False, id="half-level-wall-below-level1-viewer"),
        pytest.param("bocage", True, id="one-level-bocage-height-advantage"),
    ],
)
def test_asl_hexside_obstacle_different_levels(tmp_path, feature, blocked):
    board = make_board(tmp_path, {"A1": (1, [])}, {"A2-A3": [feature]})
    result = los(board, "A1", "A5")
    assert result["continuous_slope"] is False
    if blocked:
        assert_blocked(result, board, "A3", "hexside")
    else:
        assert_visible(result)


def test_asl_wall_along_a_run_has_no_effect(tmp_path):
    # B3 -> D3 runs along C3|C4, a hexspine that touches both ends' hexes:
    # the wall along it does not block (B9, see test_b9_wall_along_a_hexspine).
    board = make_board(tmp_path, {}, {"C3-C4": ["wall"]})
    assert_visible(los(board, "B3", "D3"), hindrance=0)


@pytest.mark.parametrize(
    "hexes, blocked",
    [
        pytest.param({"A3": (1, [])}, True, id="level1-hill-between-level0-ends-blocks"),
        pytest.param({"A1": (1, []), "A3": (2, [])}, True, id="level2-hill-above-level1-and-0-blocks"),
        pytest.param({"A1": (1, []), "A3": (1, []), "A5": (1, [])}, False, id="plateau-same-level-clear"),
    ],
)
def test_asl_hill_higher_than_both_ends(tmp_path, hexes, blocked):
    board = make_board(tmp_path, hexes)
    result = los(board, "A1", "A5")
    if blocked:
        assert_blocked(result, board, "A3", "hill")
    else:
        assert_visible(result)


def test_asl_hill_along_a_run_one_side_does_not_block(tmp_path):
    board = make_board(tmp_path, {"C3": (1, [])})
    assert_visible(los(board, "B3", "D3"))
    board = make_board(tmp_path, {"C3": (1, []), "C4": (1, [])})
    assert_blocked(los(board, "B3", "D3"), board, "C3", "hill")


@pytest.mark.parametrize(
    "hexes, level_a, blocked",
    [
        pytest.param({"A1": (1, []), "A3": (0, "woods")}, 0, True, id="level1-hill-viewer-woods-O-equals-S-blocks"),
        pytest.param({"A1": (0, ["stone-building"], "levels=1"), "A3": (0, "woods")}, 1, True,
                     id="level1-location-viewer-woods-blocks"),
        pytest.param({"A1": (1, []), "A3": (0, "woods"), "A5": (1, [])}, 0, False,
                     id="both-ends-level1-woods-below-clear"),
        pytest.param({"A1": (2, []), "A3": (0, "woods")}, 0, False, id="level2-viewer-woods-not-blind-at-rT2"),
    ],
)
def test_asl_height_advantage(tmp_path, hexes, level_a, blocked):
    board = make_board(tmp_path, hexes)
    result = los(board, "A1", "A5", level_a=level_a)
    if blocked:
        assert_blocked(result, board, "A3", "obstacle")
    else:
        assert_visible(result)


def test_asl_bare_crest_blind_hexes(tall):
    # A6.2 height advantage, B10.2): viewer on level 3, hill hex A2
    # at level 3.  Hill ground at the higher end's level, crossed between a
    # higher and a lower end, blocks: A2 is not a bare crest that only makes
    # blind hexes (it used to give max(2*3 + 0 - 3 - 0, 0) = 3 blind hexes,
    # A3-A5, and A6 visible); every target behind it is blocked.
    board = tall({"A1": (3, []), "A2": (3, [])})
    for target in ("A3", "A4", "A5", "A6", "A9"):
        result = los(board, "A1", target)
        assert result["continuous_slope"] is False
        assert_blocked(result, board, "A2", "hill")
    # A crest below the viewer's level is still a bare crest: viewer on level
    # 3, A3 at level 2 (A2 at 0, so no continuous slope): bound
    # max(2*2 + 0 - 3 - 0, 0) = 1 blind hex behind it.
    board = tall({"A1": (3, []), "A3": (2, [])})
    assert_blocked(los(board, "A1", "A4"), board, "A3", "blind hex", blind=True)
    assert_visible(los(board, "A1", "A5"))


@pytest.mark.parametrize(
    "hexes, expected",
    [
        pytest.param({"A3": (0, "grain")}, 1, id="grain-same-level-hinders"),
        pytest.param({"A1": (1, []), "A3": (0, "grain")}, 0, id="grain-below-level1-viewer-ignored"),
        pytest.param({"A1": (1, []), "A3": (1, "grain"), "A5": (1, [])}, 1, id="grain-same-level-on-hill"),
    ],
)
def test_asl_half_level_hindrance(tmp_path, hexes, expected):
    board = make_board(tmp_path, hexes)
    result = los(board, "A1", "A5")
    assert result["continuous_slope"] is False
    assert_visible(result, hindrance=expected)


@pytest.mark.parametrize(
    "a2_level, slope, expected",
    [
        pytest.param(2, True, 1, id="continuous-slope-grain-counts"),
        pytest.param(1, False, 0, id="broken-slope-grain-ignored"),
    ],
)
def test_asl_continuous_slope(tmp_path, a2_level, slope, expected):
    board = make_board(tmp_path, {"A1": (3, []), "A2": (a2_level, []), "A3": (1, "grain")})
    result = los(board, "A1", "A4")
    assert result["continuous_slope"] is slope
    assert_visible(result, hindrance=expected)


def test_asl_continuous_slope_from_the_low_end_too(tmp_path):
    board = make_board(tmp_path, {"A1": (3, []), "A2": (2, []), "A3": (1, "grain")})
    result = los(board, "A4", "A1")
    assert result["continuous_slope"] is True
    assert_visible(result, hindrance=1)


def test_asl_continuous_slope_walls_block(tmp_path):
    board = make_board(tmp_path, {"A1": (3, []), "A2": (2, []), "A3": (1, [])}, {"A2-A3": ["wall"]})
    result = los(board, "A1", "A4")
    assert result["continuous_slope"] is True
    assert_blocked(result, board, "A3", "hexside")


def test_asl_no_continuous_slope_at_same_level(tmp_path):
    board = make_board(tmp_path, {})
    assert los(board, "A1", "A5")["continuous_slope"] is False


@pytest.mark.parametrize(
    "hexes, smoke_height, expected",
    [
        pytest.param({}, None, 2, id="smoke-same-level-adds-its-drm"),
        pytest.param({"A1": (3, [])}, None, 0, id="smoke-below-level3-viewer-ignored"),
        pytest.param({"A1": (3, [])}, 3, 2, id="tall-smoke-reaches-level3-viewer"),
    ],
)
def test_asl_smoke(tmp_path, hexes, smoke_height, expected):
    board = make_board(tmp_path, hexes)
    values = {"smoke": {"A3": 2}}
    if smoke_height is not None:
        values["smoke_height"] = {"A3": smoke_height}
    result = los(board, "A1", "A5", counters=counters_for(board, **values))
    assert_visible(result, hindrance=expected)


def test_asl_smoke_at_a_vertex_is_inherent(tmp_path):
    board = make_board(tmp_path, {})
    assert_visible(los(board, "A1", "B5", counters=counters_for(board, smoke={"B2": 3})), hindrance=3)


def test_asl_smoke_adds_to_the_hindrance_cap(tmp_path):
    board = make_board(tmp_path, {"A2": (0, "grain"), "A3": (0, "grain"), "A4": (0, "grain")})
    result = los(board, "A1", "A7", counters=counters_for(board, smoke={"A5": 3}))
    assert_blocked(result, board, "A5", "hindrance")
    assert result["hindrance"] == 6


@pytest.mark.parametrize(
    "level_a, expected",
    [
        pytest.param(0, 1, id="vehicle-same-level-plus1"),
        pytest.param(1, 0, id="vehicle-viewer-above-ignored"),
    ],
)
def test_asl_vehicle(tmp_path, level_a, expected):
    board = make_board(tmp_path, {"A1": (0, ["wooden-building"], "levels=1")})
    result = los(board, "A1", "A5", level_a=level_a, counters=counters_for(board, vehicles={"A3": True}))
    assert result["continuous_slope"] is False
    assert_visible(result, hindrance=expected)


def test_asl_hindrance_total_counts_all_steps(tmp_path):
    board = make_board(tmp_path, {"A2": (0, "woods"), "A3": (0, "grain"), "A4": (0, "orchard")})
    result = los(board, "A1", "A5")
    assert_blocked(result, board, "A2", "obstacle")
    assert result["hindrance"] == 2


@pytest.mark.parametrize(
    "target_terrain, hexsides, expected",
    [
        pytest.param(["woods", "wooden-building"], {}, 3, id="wooden-building-in-woods-A2.4-2I9"),
        pytest.param(["woods", "stone-building"], {}, 4, id="stone-building-in-woods-cumulative"),
        pytest.param(["woods"], {}, 1, id="woods"),
        pytest.param([], {"A4-A5": ["wall"]}, 2, id="wall-on-entry-hexside"),
        pytest.param([], {"A4-A5": ["hedge"]}, 1, id="hedge-on-entry-hexside"),
        pytest.param([], {"A5-A6": ["wall"]}, 0, id="wall-on-far-hexside-no-cover"),
        pytest.param(["woods", "stone-building"], {"A4-A5": ["wall"]}, 4, id="larger-of-terrain-and-wall"),
        pytest.param(["woods"], {"A4-A5": ["wall"]}, 2, id="wall-better-than-woods"),
    ],
)
def test_asl_cover(tmp_path, target_terrain, hexsides, expected):
    board = make_board(tmp_path, {"A5": (0, target_terrain)}, hexsides)
    result = los(board, "A1", "A5", unit_class="infantry")
    assert_visible(result)
    assert result["cover"] == expected


def test_asl_cover_entry_at_a_vertex_uses_both_hexsides(tmp_path):
    # B3 -> D3 enters D3 at its west vertex, shared by its SW (C4-D3) and NW (C3-D3) hexsides.
    board = make_board(tmp_path, {}, {"C4-D3": ["wall"]})
    assert los(board, "B3", "D3")["cover"] == 2
    board = make_board(tmp_path, {}, {"C3-D3": ["hedge"]})
    assert los(board, "B3", "D3")["cover"] == 1


# ============================================================================
# Rules fidelity (digest §3).  Each case below was clear and is now
# blocked, or the other way round; the old answer is given in the comments.
# ============================================================================


@pytest.mark.parametrize(
    "hexes, a, b, level_a, blocked_at",
    [
        # Old: A2 (level 1 = S) was a bare crest, bound max(2*1 + 0 - 1 - 0, 0) = 1
        # blind hex, so A4 at rT = 2 was visible.
        pytest.param({"A1": (1, []), "A2": (1, [])}, "A1", "A4", 0, "A2", id="viewer-on-level1-plateau"),
        pytest.param({"A1": (1, []), "A2": (1, [])}, "A4", "A1", 0, "A2", id="viewer-below-the-plateau"),
        # The higher end at level 1 of a building on ground 0; A3 a level-1 hill
        # (old: 1 blind hex, A5 at rT = 2 visible).
        pytest.param({"A1": (0, ["stone-building"], "levels=1"), "A3": (1, [])}, "A1", "A5", 1, "A3",
                     id="viewer-on-building-level1-hill-at-its-level"),
        # Both sides of a run at the higher end's level (old: crest bound 1, F3 at rT = 3 visible).
        pytest.param({"B3": (1, []), "C3": (1, []), "C4": (1, [])}, "B3", "F3", 0, "C3", id="hill-both-sides-of-a-run"),
        # A6.1: hill ground on one side of a run only does not block.
        pytest.param({"B3": (1, []), "C3": (1, [])}, "B3", "F3", 0, None, id="hill-one-side-of-a-run-clear"),
    ],
)
def test_a62_hill_at_the_higher_ends_level_blocks(tmp_path, hexes, a, b, level_a, blocked_at):
    # A6.2 height advantage, B10.2: a crossed hill hex whose ground equals the
    # higher end's level S, with S > T, blocks (only the higher end's own hex
    # is exempt: the higher unit sees down across a crest line as its LOS
    # leaves its own hex and never recrosses one of the same level).
    board = make_board(tmp_path, hexes)
    result = los(board, a, b, level_a=level_a)
    assert result["continuous_slope"] is False
    if blocked_at is None:
        assert_visible(result, hindrance=0)
    else:
        assert_blocked(result, board, blocked_at, "hill")


def test_building_obstacle_height_is_n_and_a_half_levels(tmp_path):
    # Digest §3 "Elevation": woods, single-storey buildings 1 level; a building
    # with N upper levels N + 1/2 (1½, 2½, 3½).  In half levels: 2, 3, 5, 7.
    # The reference computes this from the terrain and building levels itself.
    board = make_board(tmp_path, {
        "A1": (0, "stone-building"), "A2": (0, ["stone-building"], "levels=1"),
        "A3": (0, ["wooden-building"], "levels=2"), "A4": (0, ["stone-building"], "levels=3"),
        "A5": (0, ["woods", "wooden-building"], "levels=1"), "A6": (0, "woods"), "A7": (0, "rubble"),
        "A8": (0, "orchard"),
    })
    heights = [obstacle_heights(board, board.index(f"A{i}")) for i in range(1, 9)]
    assert heights == [(2, 0), (3, 0), (5, 0), (7, 0), (3, 0), (2, 0), (2, 2), (0, 0)]


@pytest.mark.parametrize("levels", [1, 2, 3], ids=lambda n: f"{n}-upper-levels")
def test_building_with_upper_levels_is_n_and_a_half_high(tall, levels):
    # Viewer on a hill at level N + 1, target at 0, a building with N upper
    # levels in A3 (2 hexes away): its top N + 1/2 is below the viewer, so it
    # makes blind hexes, bound max(2(N + 1/2) + 0 - (N + 1) - 0 + 1, 1) = N + 1,
    # instead of blocking by height advantage (old: 1 + N levels = S blocked
    # every target behind it, reason "obstacle").
    board = tall({"A1": (levels + 1, []), "A3": (0, ["stone-building"], f"levels={levels}")})
    for target in range(4, 4 + levels + 1):
        assert_blocked(los(board, "A1", f"A{target}"), board, "A3", "blind hex", blind=True)
    assert_visible(los(board, "A1", f"A{4 + levels + 1}"), hindrance=0)


def test_building_heights_between_upper_level_locations(tmp_path):
    # Viewer at level 2 of a building, target at level 1 of another, a building
    # with one upper level (1½ levels) between: T < 1½ < S, bound
    # max(2*1.5 + 0 - 2 - 1 + 1, 1) = 1 blind hex, the target at rT = 2 is seen
    # (old: 2 levels = S, blocked).
    board = make_board(tmp_path, {
        "A1": (0, ["stone-building"], "levels=2"), "A3": (0, ["wooden-building"], "levels=1"),
        "A5": (0, ["stone-building"], "levels=1"),
    })
    assert_visible(los(board, "A1", "A5", level_a=2, level_b=1), hindrance=0)
    assert_visible(los(board, "A5", "A1", level_a=1, level_b=2), hindrance=0)


# B3 -> H3 runs along C3|C4, E3|E4 and G3|G4 with D3 and F3 crossed between
# them; A1 -> E7 (at 60 degrees) runs along B1|A2, C3|B3, D4|C5 and E6|D6.
@pytest.mark.parametrize(
    "hexsides, a, b, blocked_at",
    [
        # The hexspine touches neither end's hex: blocked (old: clear, walls along a run ignored).
        pytest.param({"E3-E4": ["wall"]}, "B3", "H3", "E3", id="wall-touching-neither-end-blocks"),
        pytest.param({"E3-E4": ["hedge"]}, "B3", "H3", "E3", id="hedge-touching-neither-end-blocks"),
        pytest.param({"B3-C3": ["wall"]}, "A1", "E7", "C3", id="wall-at-60-degrees-touching-neither-end-blocks"),
        # Touching one end's hex, the opposite vertex without walls on all three hexspines: clear.
        pytest.param({"C3-C4": ["wall"]}, "B3", "F3", None, id="wall-touching-the-viewer-clear"),
        pytest.param({"E3-E4": ["wall"]}, "B3", "F3", None, id="wall-touching-the-target-clear"),
        pytest.param({"A2-B1": ["wall"]}, "A1", "E7", None, id="wall-at-60-degrees-touching-the-viewer-clear"),
        pytest.param({"C3-C4": ["wall"], "C3-D3": ["wall"]}, "B3", "F3", None,
                     id="two-of-three-hexspines-at-the-opposite-vertex-clear"),
        # ... with walls/hedges on all three hexspines of the opposite vertex: blocked (old: clear).
        pytest.param({"C3-C4": ["wall"], "C3-D3": ["wall"], "C4-D3": ["hedge"]}, "B3", "F3", "C3",
                     id="touching-the-viewer-three-walls-at-the-opposite-vertex-blocks"),
        pytest.param({"E3-E4": ["wall"], "D3-E3": ["wall"], "D3-E4": ["wall"]}, "B3", "F3", "E3",
                     id="touching-the-target-three-walls-at-the-opposite-vertex-blocks"),
    ],
)
def test_b9_wall_along_a_hexspine(tmp_path, hexsides, a, b, blocked_at):
    # B9 (digest §3 "Half-level terrain"): a LOS running exactly along a wall or
    # hedge hexside is blocked by it when that hexspine touches neither end's
    # hex, or touches one and the opposite vertex has walls/hedges on all three
    # of its hexspines.
    board = make_board(tmp_path, {}, hexsides)
    result = los(board, a, b)
    if blocked_at is None:
        assert_visible(result, hindrance=0)
    else:
        assert_blocked(result, board, blocked_at, "hexside")


@pytest.mark.parametrize(
    "hexsides, a, b, blocked_at",
    [
        # The hexspine LOS enters D3 at its west vertex between the walls C3|D3
        # and C4|D3, which lie on both sides of it: it crosses the wall there
        # (old: clear, no hexside crossed).  Reported at the hex beyond the vertex.
        pytest.param({"C3-D3": ["wall"], "C4-D3": ["wall"]}, "B3", "F3", "D3", id="entering-a-hex-between-two-walls"),
        pytest.param({"C3-D3": ["hedge"], "C4-D3": ["hedge"]}, "F3", "B3", "C4", id="leaving-a-hex-between-two-hedges"),
        pytest.param({"D3-E3": ["wall"], "D3-E4": ["wall"]}, "B3", "H3", "E3", id="leaving-d3-between-two-walls"),
        # The wall line bends at the vertex on one side of the LOS: not crossed.
        pytest.param({"C3-D3": ["wall"], "C3-C4": ["wall"]}, "B3", "F3", None, id="wall-line-on-one-side-clear"),
        pytest.param({"A2-B2": ["wall"], "A3-B2": ["wall"]}, "A1", "B5", None, id="wall-round-a-touched-vertex-clear"),
        # The walls are hexsides of the target's hex: ignored (B9.2).
        pytest.param({"C3-D3": ["wall"], "C4-D3": ["wall"]}, "B3", "D3", None, id="walls-of-the-target-hex-ignored"),
        # Through the vertex between two interiors: the crossed hexside, as before.
        pytest.param({"A2-A3": ["wall"], "A3-B2": ["wall"]}, "A1", "B5", "A3", id="wall-line-through-a-vertex-blocks"),
    ],
)
def test_b9_wall_crossed_at_a_vertex(tmp_path, hexsides, a, b, blocked_at):
    # B9 (digest §3): a LOS that passes through a vertex where the wall/hedge
    # line continues on both sides of it crosses the wall there.
    board = make_board(tmp_path, {}, hexsides)
    result = los(board, a, b)
    if blocked_at is None:
        assert_visible(result, hindrance=0)
    else:
        assert_blocked(result, board, blocked_at, "hexside")


@pytest.mark.parametrize(
    "hexes, a, b, blocked_at, reason, hindrance",
    [
        # Viewer on a level-1 hill, orchard on ground 0 between, target at 0:
        # the orchard's top equals the viewer's level, above the target: it
        # blocks by height advantage (old: +1 hindrance, visible).
        pytest.param({"A1": (1, []), "A3": (0, "orchard")}, "A1", "A5", "A3", "obstacle", None,
                     id="orchard-top-equals-viewer-level-blocks"),
        pytest.param({"A1": (1, []), "A3": (0, "orchard")}, "A5", "A1", "A3", "obstacle", None,
                     id="orchard-top-equals-viewer-level-blocks-from-below"),
        # Orchards are inherent terrain (B.6): a vertex touch counts too
        # (A1 -> B5 touches B2 at a vertex; old: +1, visible).
        pytest.param({"A1": (1, []), "B2": (0, "orchard")}, "A1", "B5", "B2", "obstacle", None,
                     id="orchard-touched-at-a-vertex-from-higher-ground-B6"),
        # Same level: an inherent +1 hindrance, no obstacle (unchanged).
        pytest.param({"A3": (0, "orchard")}, "A1", "A5", None, None, 1, id="same-level-plus1"),
        # Continuous slope: same-level rules, +1 (unchanged).
        pytest.param({"A1": (3, []), "A2": (2, []), "A3": (1, "orchard")}, "A1", "A4", None, None, 1,
                     id="continuous-slope-plus1"),
    ],
)
def test_b142_orchard_in_season(tmp_path, hexes, a, b, blocked_at, reason, hindrance):
    # B14.2: in season an orchard is a one-level obstacle to a LOS from higher
    # ground that crosses it, as well as an inherent +1 hindrance at its own level.
    board = make_board(tmp_path, hexes)
    result = los(board, a, b)
    if blocked_at is None:
        assert_visible(result, hindrance=hindrance)
    else:
        assert_blocked(result, board, blocked_at, reason)


def test_b142_orchard_blind_hex_like_the_a64_woods_example(tall):
    # The digest's A6.4 worked example with an orchard for the woods: viewer at
    # level 2, target at 0, orchard on ground level 4 hexes from the viewer:
    # the hex right behind it is blind (old: visible, the orchard's +1 does not
    # reach level 2), the second one is not.
    board = tall({"A1": (2, []), "A5": (0, "orchard")})
    assert_blocked(los(board, "A1", "A6"), board, "A5", "blind hex", blind=True)
    assert_blocked(los(board, "A6", "A1"), board, "A5", "blind hex", blind=True)
    assert_visible(los(board, "A1", "A7"), hindrance=0)
    assert_visible(los(board, "A1", "A5"), hindrance=0)


@pytest.mark.parametrize("terrain", ["stream", "gully"])
@pytest.mark.parametrize("a, b, blocked_at", [("B3", "D3", "C3"), ("D3", "B3", "C4")], ids=["forward", "backward"])
def test_a63_depression_bank_along_a_hexside(tmp_path, terrain, a, b, blocked_at):
    # A6.3, B19-B20: B3, C4 and D3 are depression hexes at level -1, C3 a
    # level-0 bank.  B3 <-> D3 runs along the hexside C3|C4 between the
    # depression and its bank: the bank blocks from one side (old: an obstacle
    # on one side of a run only, clear).  A run is reported at its first side
    # in trace order, with the reason of the side that blocks ("hill").
    board = make_board(tmp_path, {"B3": (-1, terrain), "C3": (0, []), "C4": (-1, terrain), "D3": (-1, terrain)})
    assert_blocked(los(board, a, b), board, blocked_at, "hill")


@pytest.mark.parametrize("a, b", [("A1", "A4"), ("A4", "A1")], ids=["from-the-gully", "into-the-gully"])
def test_a63_depression_sees_out_only_across_its_crest(tmp_path, a, b):
    # A1 a gully at level -1, A2 its level-0 bank, A3 lower ground at -1, A4 a
    # level-1 hill.  The LOS between A1 (IN the depression) and A4 crosses the
    # bank: blocked at A2 (old: A2 a bare crest between -1 and 1 with bound
    # max(0 + 0 - 1 + 1, 0) = 0, clear).
    board = make_board(tmp_path, {"A1": (-1, "gully"), "A2": (0, []), "A3": (-1, []), "A4": (1, [])})
    result = los(board, a, b)
    assert result["continuous_slope"] is False
    assert_blocked(result, board, "A2", "hill")


def test_a63_depression_sees_along_itself_and_onto_its_bank(tmp_path):
    board = make_board(tmp_path, {"A1": (-1, "gully"), "A2": (-1, "gully"), "A3": (-1, "gully"), "B1": (0, [])})
    assert_visible(los(board, "A1", "A3"), hindrance=0)      # along the depression
    assert_visible(los(board, "A1", "B1"), hindrance=0)      # onto an adjacent bank hex
    assert_visible(los(board, "B1", "A1"), hindrance=0)


# ============================================================================
# §3 Valor & Victory
# ============================================================================


def vv_board(tmp_path, hexes, hexsides=None, **kwargs):
    return make_board(tmp_path, hexes, hexsides, ruleset="valor-victory", **kwargs)


def test_vv_hindrances_never_block(tmp_path):
    board = vv_board(tmp_path, {f"A{i}": (0, "orchard") for i in range(2, 9)}, columns=4, rows=10)
    assert_visible(los(board, "A1", "A9"), hindrance=7)


@pytest.mark.parametrize(
    "c3, c4, hexside, blocked, expected",
    [
        pytest.param("woods", "building", None, True, None, id="both-sides-blocking-blocked"),
        pytest.param("orchard", "crops", None, False, 1, id="hindrance-and-hindrance-plus1"),
        pytest.param("woods", "orchard", None, False, 1, id="blocking-and-hindrance-plus1"),
        pytest.param("woods", None, None, False, 0, id="blocking-and-open-clear"),
        pytest.param(None, "orchard", None, False, 0, id="hindrance-and-open-clear"),
        pytest.param(None, None, "wall", False, 1, id="along-wall-plus1"),
        pytest.param("orchard", "orchard", "hedge", False, 2, id="hindrances-along-hedge-plus2"),
        pytest.param(None, None, "hedgerow", True, None, id="along-hedgerow-blocked"),
    ],
)
def test_vv_hexside_run(tmp_path, c3, c4, hexside, blocked, expected):
    hexes = {}
    if c3:
        hexes["C3"] = (0, c3)
    if c4:
        hexes["C4"] = (0, c4)
    board = vv_board(tmp_path, hexes, {"C3-C4": [hexside]} if hexside else None)
    result = los(board, "B3", "D3")
    if blocked:
        assert_blocked(result, board, "C3", "hexside" if hexside else "obstacle")
    else:
        assert_visible(result, hindrance=expected)


def test_vv_run_along_wall_next_to_firer_still_counts(tmp_path):
    # the run C3|C4 starts at the viewer B3's vertex; V&V applies the +1 anyway
    board = vv_board(tmp_path, {}, {"C3-C4": ["wall"]})
    assert_visible(los(board, "B3", "F3"), hindrance=1)


@pytest.mark.parametrize(
    "slope_hexes, blocked_at",
    [
        pytest.param(["A3"], None, id="ground-to-level2-one-slope-hex-visible"),
        # counted from the Level 2 end A5, the slope hex is A4 and A3 blocks
        # as a hill, whichever end is the viewer
        pytest.param(["A3", "A4"], "A3", id="ground-to-level2-two-level1-hexes-blocked"),
    ],
)
def test_vv_slope_hex(tmp_path, slope_hexes, blocked_at):
    hexes = {"A5": (2, [])}
    hexes.update({h: (1, []) for h in slope_hexes})
    board = vv_board(tmp_path, hexes)
    for a, b in (("A1", "A5"), ("A5", "A1")):
        result = los(board, a, b)
        if blocked_at is None:
            assert_visible(result)
        else:
            assert_blocked(result, board, blocked_at, "hill")


@pytest.mark.parametrize(
    "c3, c4, expected",
    [
        # both sides of the run C3|C4 are at level 1: both are slope hexes,
        # so only C3's jungle blocks and the run is blocking | open.
        pytest.param((1, "jungle"), (1, []), 0, id="both-sides-slope-jungle-and-open-visible"),
        pytest.param((1, "jungle"), (1, "orchard"), 1, id="both-sides-slope-jungle-and-orchard-plus1"),
        pytest.param((1, "jungle"), (1, "woods"), None, id="both-sides-slope-both-obstacles-blocked"),
    ],
)
def test_vv_slope_hexes_on_both_sides_of_a_run(tmp_path, c3, c4, expected):
    # B3 (level 0) <-> D3 (level 2) runs along the hexside C3|C4.
    board = vv_board(tmp_path, {"B3": (0, []), "C3": c3, "C4": c4, "D3": (2, [])})
    for a, b in (("B3", "D3"), ("D3", "B3")):
        result = los(board, a, b)
        if expected is None:
            first = "C3" if a == "B3" else "C4"          # the side reported first
            assert_blocked(result, board, first, "obstacle")
        else:
            assert_visible(result, hindrance=expected)


def test_vv_slope_run_on_random_board_e6_f7():
    # Worked by hand from §3 on random_board("valor-victory", 12, 9, seed=1):
    # E6 (level 0) <-> F7 (level 2) runs along the hexside F6|E7 (a single
    # run step, no feature on it).  F6 (water) and E7 (jungle) are both at
    # level 1, so from the Level 2 end F7 the first step (the run) holds two
    # level-1 hexes: both are slope hexes and neither blocks as a hill.  F6 is
    # then open (water: no obstacle, no hindrance) and E7 blocking (jungle):
    # blocking | open = clear, +0.  Visible both ways.  Cover: the target's
    # terrain (F7: none -> 0; E6: jungle -> 2).
    board = random_board("valor-victory", 12, 9, seed=1)
    e6, f6, e7, f7 = (board.index(n) for n in ("E6", "F6", "E7", "F7"))
    assert [int(board.ground_level[h]) for h in (e6, f6, e7, f7)] == [0, 1, 1, 2]
    assert board.terrain_of(f6) == ["water"] and board.terrain_of(e7) == ["jungle"]
    assert board.terrain_of(f7) == [] and board.terrain_of(e6) == ["jungle"]
    assert kernel_trace(board, "E6", "F7") == [(e6, "interior"), (f6, "hexside"), (e7, "hexside"), (f7, "interior")]
    assert board.hexside_features(f6, board_direction(board, f6, e7)) == []
    forward = los(board, "E6", "F7")
    assert_visible(forward, hindrance=0)
    assert forward["cover"] == 0
    backward = los(board, "F7", "E6")
    assert_visible(backward, hindrance=0)
    assert backward["cover"] == 2


def board_direction(board, p, q):
    """Hexside number of hex ``p`` shared with its neighbour ``q``."""
    return [int(n) for n in board.neighbours[p]].index(q)


@pytest.mark.parametrize("seed", (1, 5, 6, 7, 10), ids=lambda s: f"seed{s}")
def test_vv_ground_to_level2_is_reciprocal(seed):
    # §3: slope hexes are counted from the Level 2 end, so a ground <-> Level 2
    # LOS has the same visibility both ways, and the same hindrance unless a
    # wall/hedge lies on a hexside of an end hex: 10.10 ignores the firer's own
    # wall/hedge but not the target's, so that +1 depends on the direction
    # (reference only).
    board = random_board("valor-victory", 12, 9, seed=seed)
    roles = board.ruleset.hexside_los_role
    hindrance_bits = sum(1 << k for k in range(len(roles)) if int(roles[k]) == 1)

    def wall_or_hedge_round(h):
        return any(int(board.hexside[h, d]) & hindrance_bits for d in range(6))

    levels = [int(g) for g in board.ground_level]
    ground = [h for h, g in enumerate(levels) if g == 0]
    level2 = [h for h, g in enumerate(levels) if g == 2]
    pairs = [(a, b) for a in ground for b in level2] + [(b, a) for a in ground for b in level2]
    assert pairs
    differ = []
    for a, b in pairs:
        there, back = reference_los(board, a, b), reference_los(board, b, a)
        same_hindrance = wall_or_hedge_round(a) or wall_or_hedge_round(b) or there["hindrance"] == back["hindrance"]
        if there["visible"] != back["visible"] or not same_hindrance:
            differ.append((board.names[a], board.names[b], there, back))
    assert not differ, f"{len(differ)} of {len(pairs)} ordered pairs differ, first: {differ[0]}"


@pytest.mark.parametrize(
    "hexes, blocked",
    [
        pytest.param({"A3": (1, [])}, True, id="hill-between-ground-ends-blocks"),
        pytest.param({"A1": (1, []), "A3": (1, []), "A5": (1, [])}, False, id="same-level-plateau-clear"),
        pytest.param({"A1": (1, []), "A3": (2, [])}, True, id="higher-hill-blocks"),
    ],
)
def test_vv_hills(tmp_path, hexes, blocked):
    board = vv_board(tmp_path, hexes)
    result = los(board, "A1", "A5")
    if blocked:
        assert_blocked(result, board, "A3", "hill")
    else:
        assert_visible(result)


def test_vv_obstacle_blocks_and_end_hexes_do_not(tmp_path):
    board = vv_board(tmp_path, {"A3": (0, "jungle"), "A1": (0, "woods"), "A5": (0, "building")})
    assert_blocked(los(board, "A1", "A5"), board, "A3", "obstacle")
    assert_visible(los(board, "A1", "A3"))


@pytest.mark.parametrize(
    "hexside, feature, blocked, expected",
    [
        pytest.param("A1-A2", "wall", False, 0, id="wall-next-to-firer-ignored"),
        # 10.10: only the firer's own hedge is ignored; the hedge crossed into
        # the target's hex still gives +1 (it used to be ignored).
        pytest.param("A4-A5", "hedge", False, 1, id="hedge-next-to-target-plus1"),
        pytest.param("A2-A3", "wall", False, 1, id="wall-between-plus1"),
        pytest.param("A2-A3", "hedgerow", True, None, id="hedgerow-between-blocked"),
        pytest.param("A1-A2", "hedgerow", False, 0, id="hedgerow-of-firer-hex-clear"),
    ],
)
def test_vv_hexside_crossing(tmp_path, hexside, feature, blocked, expected):
    board = vv_board(tmp_path, {}, {hexside: [feature]})
    result = los(board, "A1", "A5")
    if blocked:
        assert_blocked(result, board, "A3", "hexside")
    else:
        assert_visible(result, hindrance=expected)


def test_vv_hedge_at_the_target_still_counts(tmp_path):
    # 10.10: a firing unit ignores its own adjacent wall/hedge; a target behind
    # a hedge (the hexside crossed into the target's hex) still gives +1 (old:
    # both ignored, 0 either way).
    board = vv_board(tmp_path, {}, {"A4-A5": ["hedge"]})
    assert_visible(los(board, "A1", "A5"), hindrance=1)
    assert_visible(los(board, "A5", "A1"), hindrance=0)
    board = vv_board(tmp_path, {}, {"A1-A2": ["wall"], "A4-A5": ["hedge"]})
    assert_visible(los(board, "A1", "A5"), hindrance=1)
    assert_visible(los(board, "A5", "A1"), hindrance=1)
    # adjacent ends: the hexside between them is the firer's own
    board = vv_board(tmp_path, {}, {"A1-A2": ["hedge"]})
    assert_visible(los(board, "A1", "A2"), hindrance=0)


def test_vv_vertex_touch_has_no_effect(tmp_path):
    board = vv_board(tmp_path, {"B2": (0, "woods"), "A4": (0, "orchard")})
    assert_visible(los(board, "A1", "B5"), hindrance=0)


@pytest.mark.parametrize("terrain, expected", [("building", 3), ("woods", 2), ("gully", 1), ("orchard", 0)])
def test_vv_cover_is_target_terrain(tmp_path, terrain, expected):
    board = vv_board(tmp_path, {"A5": (0, terrain)}, {"A4-A5": ["wall"]})
    assert los(board, "A1", "A5")["cover"] == expected


# ============================================================================
# §4 CCN
# ============================================================================


def ccn_board(tmp_path, hexes, hexsides=None, **kwargs):
    return make_board(tmp_path, hexes, hexsides, ruleset="ccn", **kwargs)


def test_ccn_unit_between_blocks(tmp_path):
    board = ccn_board(tmp_path, {})
    result = los(board, "A1", "A5", counters=counters_for(board, units={"A3": True}))
    assert_blocked(result, board, "A3", "unit")
    # units in the end hexes do not block
    assert_visible(los(board, "A1", "A5", counters=counters_for(board, units={"A1": True, "A5": True})))


@pytest.mark.parametrize("terrain", ["forest", "town", "rugged-hill", "orchard"])
def test_ccn_blocking_terrain(tmp_path, terrain):
    board = ccn_board(tmp_path, {"A3": (0, terrain), "A5": (0, terrain)})
    assert_blocked(los(board, "A1", "A5"), board, "A3", "obstacle")
    assert_visible(los(board, "A1", "A3"))     # terrain in the target's hex does not block


@pytest.mark.parametrize("terrain", ["river", "ford", "bridge", "quarry", "marsh"])
def test_ccn_non_blocking_terrain(tmp_path, terrain):
    board = ccn_board(tmp_path, {"A3": (0, terrain)})
    result = los(board, "A1", "A5")
    assert_visible(result, hindrance=0)


def test_ccn_hills(tmp_path):
    board = ccn_board(tmp_path, {"A3": (1, []), "A4": (1, []), "A5": (1, []), "C1": (1, []), "C5": (1, [])})
    assert_visible(los(board, "A1", "A3"))                   # onto the first hill hex
    assert_blocked(los(board, "A1", "A4"), board, "A3", "hill")   # not through it
    assert_blocked(los(board, "A4", "A1"), board, "A3", "hill")
    assert_visible(los(board, "A3", "A5"))                   # one connected hill
    assert_visible(los(board, "C1", "C5"))                   # hill to hill over lower ground


def test_ccn_run_blocked_only_by_both_sides(tmp_path):
    board = ccn_board(tmp_path, {"C3": (0, "forest")})
    assert_visible(los(board, "B3", "D3"))
    board = ccn_board(tmp_path, {"C3": (0, "forest"), "C4": (0, "town")})
    assert_blocked(los(board, "B3", "D3"), board, "C3", "obstacle")
    board = ccn_board(tmp_path, {"C3": (0, "forest")})
    assert_blocked(los(board, "B3", "D3", counters=counters_for(board, units={"C4": True})), board, "C3", "obstacle")


def test_ccn_vertex_touch_has_no_effect(tmp_path):
    board = ccn_board(tmp_path, {"B2": (0, "forest")})
    assert_visible(los(board, "A1", "B5", counters=counters_for(board, units={"A4": True})))


@pytest.mark.parametrize(
    "viewer, target, terrain, unit_class, expected",
    [
        pytest.param("A1", "A3", [], "infantry", 1, id="uphill-infantry-1"),
        pytest.param("A1", "A3", [], "cavalry", 1, id="uphill-cavalry-1"),
        pytest.param("A1", "A3", [], "artillery", 0, id="uphill-artillery-0"),
        pytest.param("A1", "A3", ["forest"], "infantry", 2, id="forest-on-hill-infantry-2"),
        pytest.param("A3", "A1", [], "cavalry", 1, id="downhill-cavalry-1"),
        pytest.param("A3", "A1", [], "infantry", 0, id="downhill-infantry-0"),
        pytest.param("A3", "A4", ["town"], "cavalry", 3, id="same-level-town-cavalry-3"),
    ],
)
def test_ccn_cover(tmp_path, viewer, target, terrain, unit_class, expected):
    hexes = {"A3": (1, []), "A4": (1, [])}
    hexes[target] = (hexes.get(target, (0, []))[0], terrain)
    board = ccn_board(tmp_path, hexes)
    result = los(board, viewer, target, unit_class=unit_class)
    assert_visible(result)
    assert result["cover"] == expected


# ============================================================================
# Results (§5)
# ============================================================================


def test_result_keys_and_types(tmp_path):
    board = make_board(tmp_path, {"A3": (0, "grain")})
    result = los(board, "A1", "A5")
    assert set(result) == {"visible", "hindrance", "blocked_at", "reason", "blind", "continuous_slope", "cover"}
    assert type(result["visible"]) is bool and type(result["hindrance"]) is int
    assert type(result["blocked_at"]) is int and type(result["cover"]) is int
