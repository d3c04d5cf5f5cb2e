"""ASL bridge decks: golden cases worked out by hand from the specification.

The specification: "Bridge decks" in docs/los-semantics.md and
docs/movement-semantics.md (Edges 6).  A bridge hex (terrain ``bridge``,
``deck = true``) has two Locations: level 0 beneath the bridge and level 1 on
the deck, one level above the hex's ground (over a gully at level -1 the deck
is at level 0).  Every case states its arithmetic in a comment, is asserted
against the slow references (tests/reference/) and against the kernels
(``kernel.los``, ``kernel.los_matrix``,
``kernel.movement_field``), and the two must agree.

Geometry (``layout = rectangular``): hex ``n`` of column ``c`` (A = 0) has its
centre at ``x = 3c``, ``y = 2(n - 1) + 1 + (c mod 2)``: columns B, D sit half a
hex lower.  A line along a column (``C2 -> C5``) crosses only the interiors of
the hexes of that column.  The neighbours (N, NE, SE, S, SW, NW) of a hex of
column A, C or E such as C2 are C1, D1, D2, C3, B2, B1; those of a hex of
column B or D such as B2 are B1, C2, C3, B3, A3, A2.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from kernel import BLOCKED, los, los_matrix, movement_field, random_board
from tests.board_text import make_board
from tests.reference.los_reference import reference_los
from tests.reference.los_reference import top_level as reference_top_level
from tests.reference.movement_reference import (
    MOVING,
    IllegalPath,
    build_state_graph,
    loc,
    path_cost,
    reference_movement,
)
from tests.comparisons import mask_counters
from tests.test_movement_kernel import as_reference_node, as_reference_result

INF = math.inf
LOS_KEYS = ("visible", "hindrance", "blocked_at", "reason", "blind", "continuous_slope", "cover")


# --------------------------------------------------------------------------- helpers
def both_los(board, a, b, level_a=0, level_b=0, unit="infantry"):
    """The reference's LOS result, after checking that ``kernel.los`` gives the same."""
    reference = reference_los(board, board.index(a), board.index(b), level_a, level_b, None, unit)
    fast = los(board, a, b, level=level_a, target_level=level_b, unit=unit)
    got = {"visible": fast.visible, "hindrance": fast.hindrance,
           "blocked_at": fast.blocked_at, "reason": fast.reason_name,
           "blind": fast.blind, "continuous_slope": fast.continuous_slope, "cover": fast.cover}
    want = {key: reference[key] for key in LOS_KEYS}
    assert got == want, f"{a}h{level_a} -> {b}h{level_b}: kernel {got} != reference {want}"
    return reference


def visible(result, hindrance=0, cover=None):
    assert result["visible"] is True and result["blocked_at"] == -1 and result["reason"] is None, result
    assert result["blind"] is False and result["hindrance"] == hindrance, result
    if cover is not None:
        assert result["cover"] == cover, result


def blocked(result, board, at, reason, blind=False):
    assert result["visible"] is False, result
    assert result["blocked_at"] == board.index(at), board.names[result["blocked_at"]]
    assert result["reason"] == reason and result["blind"] is blind, result


def both_fields(board, start, unit, **options):
    """Kernel and reference movement from one start (hex or Location name).

    Returns ``(kernel, reference)``, each a dict with ``cost`` (per hex) and
    ``state_cost`` ({reference node: cost}); the field costs must be equal and
    every kernel path must re-cost, step by step, to its field cost.
    """
    masks = {key: options[key] for key in ("smoke", "units") if key in options}
    field = movement_field(board, start, unit=unit, counters=mask_counters(board, **masks),
                           **{key: value for key, value in options.items() if key not in masks})
    kernel_result = as_reference_result(board, field)
    reference = reference_movement(board, [start], unit, **options)
    assert np.array_equal(field.cost, reference["cost"]), (
        f"field costs differ: kernel {dict(zip(board.names, field.cost.tolist()))} "
        f"!= reference {dict(zip(board.names, reference['cost'].tolist()))}")
    for h in np.flatnonzero(np.isfinite(field.cost)):
        states = field.path_states(int(h))  # to the hex's Location (its cost may exceed a Bypass's)
        if states is None:
            assert field.cost_at(int(h)) == INF
            continue
        path = [as_reference_node(board, field, s) for s in states]
        assert path_cost(board, path, unit, starts=[start], **options) == field.cost_at(int(h)) >= field.cost[h], \
            (board.names[h], path)
    return kernel_result, reference


def state(board, result, name, level=0, mode=MOVING):
    return result["state_cost"].get(loc(board.index(name), level, mode), INF)


def field_by_name(board, result):
    return {name: float(result["cost"][i]) for i, name in enumerate(board.names)}


# --------------------------------------------------------------------------- boards
def gully_los_board(tmp_path):
    """A gully (level -1) running B2 - C2 - D2, bridged at C2 by a road C1 - C2 - C3;
    everything else is level-0 Open Ground, no walls or hedges."""
    return make_board(tmp_path, {"B2": (-1, ["gully"]), "C2": (-1, ["gully", "bridge"]), "D2": (-1, ["gully"])},
                      {"C1-C2": ["road"], "C2-C3": ["road"]}, columns=5, rows=6)


def gully_movement_board(tmp_path):
    """3 x 3: a gully (level -1) B1 - B2 - B3 bridged at B2 by a road A2 - B2 - C2."""
    return make_board(tmp_path, {"B1": (-1, ["gully"]), "B2": (-1, ["gully", "bridge"]), "B3": (-1, ["gully"])},
                      {"A2-B2": ["road"], "B2-C2": ["road"]}, columns=3, rows=3)


# --------------------------------------------------------------------------- the board data
def test_bridge_hexes_and_their_locations(tmp_path):
    board = gully_movement_board(tmp_path)
    rs = board.ruleset
    assert bool(rs.terrain_deck[rs.terrain_index("bridge")])
    assert [board.names[h] for h in np.flatnonzero(board.bridge_deck)] == ["B2"]
    # The references find the same bridge hexes from the terrain and the ruleset.
    assert [reference_top_level(board, h) for h in range(len(board))] == [int(b) for b in board.bridge_deck]
    b2 = board.index("B2")
    assert board.building_levels[b2] == 0 and board.ground_level[b2] == -1
    assert board.location("B2h1") == (b2, 1)
    assert board.location("B2") == (b2, 0)


# --------------------------------------------------------------------------- (a) LOS from the deck and beneath it
def test_deck_sees_over_the_gully_rim_that_blinds_the_unit_beneath(tmp_path):
    board = gully_los_board(tmp_path)
    # On the deck (C2 level 1): absolute level -1 + 1 = 0, S2 = T2 = 0 (C5 at
    # ground 0): same level.  C3, C4: G = 0, not > S2 = 0: no effect; no
    # obstacle, no hindrance: visible, hindrance 0; C5 Open Ground: cover 0.
    visible(both_los(board, "C2", "C5", level_a=1), cover=0)
    visible(both_los(board, "C5", "C2", level_b=1), cover=0)
    # Beneath (C2 level 0, in the gully): T2 = 2 x -1 = -2, S2 = 0 (C5), not
    # the same level.  C3 (the rim): G = 0 = S2 > T2: ground at the higher
    # end's level blocks (A6.2 height advantage), and C3 is also a bank of the
    # gully that C2 beneath the deck is in (A6.3): blocked at C3, "hill", not
    # blind.  (An earlier reading made this a bare crest making C2 a blind hex.)
    # From C5 the first such hex met is C4 (also at S).  No continuous slope:
    # S - g(C3) = 0 != rS = 2.
    for a, b, at, kwargs in (("C2", "C5", "C3", {"level_a": 0}), ("C5", "C2", "C4", {"level_b": 0})):
        result = both_los(board, a, b, **kwargs)
        blocked(result, board, at, "hill", blind=False)
        assert result["hindrance"] == 0 and result["continuous_slope"] is False
    # Adjacent to the rim, both see it (no hex between).
    visible(both_los(board, "C2", "C3", level_a=0))
    visible(both_los(board, "C2", "C3", level_a=1))
    # Deck and beneath in one hex: a == b, visible.
    visible(both_los(board, "C2", "C2", level_a=1, level_b=0))


def test_deck_of_a_level_0_bridge_sees_over_a_hedge(tmp_path):
    # A bridge on level-0 ground: its deck is at level 1.  Hedge on C3|C4.
    board = make_board(tmp_path, {"C2": (0, ["bridge"])}, {"C1-C2": ["road"], "C2-C3": ["road"], "C3-C4": ["hedge"]},
                       columns=5, rows=6)
    # Deck: S2 = 2 (level 1), T2 = 0 (C5).  Crossing C3|C4 (neither an end hex):
    # O = 2 max(0, 0) + 1 = 1; different levels: O >= S2? 1 >= 2 no: none.
    # C3, C4: G = 0 = T2: no crest.  Slope: S - g(h) = 1 for both, rS(C3) = 1
    # but rS(C4) = 2: no continuous slope.  Visible.
    result = both_los(board, "C2", "C5", level_a=1)
    visible(result, cover=0)
    assert result["continuous_slope"] is False
    # Beneath: S2 = T2 = 0, same level: O = 1 > 0 blocks at the crossing,
    # blocked_at the hex beyond it, C4, reason "hexside".
    blocked(both_los(board, "C2", "C5", level_a=0), board, "C4", "hexside")
    blocked(both_los(board, "C5", "C2", level_b=0), board, "C3", "hexside")
    visible(both_los(board, "C5", "C2", level_b=1))


# --------------------------------------------------------------------------- (b) cover on the deck and beneath it
@pytest.mark.parametrize("hexsides, beneath, deck", [
    # No wall: beneath, the terrain cover of C5 = shellholes 1 + bridge 0 = 1
    # (ASL adds them up); on the deck, no terrain cover: 0.
    pytest.param({}, 1, 0, id="terrain-cover-beneath-only"),
    # Wall on C4|C5, the hexside where the LOS from C2 enters C5 (cover 2;
    # the crossing is ignored because C5 is an end, B9.2): beneath max(1, 2) = 2,
    # on the deck max(0, 2) = 2 (hexside cover still counts).
    pytest.param({"C4-C5": ["wall"]}, 2, 2, id="wall-cover-on-the-deck-too"),
])
def test_cover_of_a_target_on_the_deck(tmp_path, hexsides, beneath, deck):
    board = make_board(tmp_path, {"C5": (0, ["bridge", "shellholes"])},
                       {"B5-C5": ["road"], "C5-D4": ["road"], **hexsides}, columns=5, rows=6)
    # Viewer C2 at level 0.  Beneath: same level, C3, C4 Open Ground: visible.
    # Deck: S2 = 2 (target), T2 = 0: C3, C4 at G = 0 = T2: no crest; visible.
    visible(both_los(board, "C2", "C5", level_b=0), cover=beneath)
    visible(both_los(board, "C2", "C5", level_b=1), cover=deck)


def test_cover_between_the_deck_and_beneath_in_one_hex(tmp_path):
    # a == b: visible, the cover is the target's terrain cover alone:
    # beneath shellholes 1, on the deck 0.
    board = make_board(tmp_path, {"C5": (0, ["bridge", "shellholes"])}, {"B5-C5": ["road"], "C5-D4": ["road"]},
                       columns=5, rows=6)
    visible(both_los(board, "C5", "C5", level_a=1, level_b=0), cover=1)
    visible(both_los(board, "C5", "C5", level_a=0, level_b=1), cover=0)


# --------------------------------------------------------------------------- (d) the LOS matrix over Locations
def test_los_matrix_over_deck_and_beneath_locations(tmp_path):
    board = gully_los_board(tmp_path)
    names = ["C2", "C2", "C3", "C5"]
    hexes = np.array([board.index(n) for n in names])
    levels = np.array([0, 1, 0, 0])
    matrix = los_matrix(board, hexes, levels=levels)
    # Beneath C2 <-> C5: blind hex at C3 (above): BLOCKED; everything else is
    # visible with no hindrance: deck <-> C5 same level; C2 <-> C3 adjacent;
    # C3 <-> C5 level, C4 open; deck <-> beneath one hex.
    expected = np.array([
        [0, 0, 0, BLOCKED],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [BLOCKED, 0, 0, 0],
    ])
    assert matrix.tolist() == expected.tolist()
    # The whole board: every hex at level 0 plus the deck, against the reference.
    n = len(board)
    c2 = board.index("C2")
    hexes = np.concatenate([np.arange(n), [c2]])
    levels = np.concatenate([np.zeros(n, int), [1]])
    matrix = los_matrix(board, hexes, levels=levels)
    differ = []
    for i in range(len(hexes)):
        for j in range(len(hexes)):
            if i == j:
                continue
            ref = reference_los(board, int(hexes[i]), int(hexes[j]), int(levels[i]), int(levels[j]))
            want = min(ref["hindrance"], 127) if ref["visible"] else BLOCKED
            if matrix[i, j] != want:
                differ.append((board.names[hexes[i]], int(levels[i]), board.names[hexes[j]], int(levels[j]),
                               int(matrix[i, j]), want))
    assert not differ, differ[:5]
    deck_row = matrix[-1]
    beneath_row = matrix[c2]
    assert (deck_row != BLOCKED).sum() > (beneath_row != BLOCKED).sum()


# --------------------------------------------------------------------------- (c) movement
def test_infantry_along_the_road_onto_the_deck(tmp_path):
    board = gully_movement_board(tmp_path)
    kernel_result, reference = both_fields(board, "A2", "infantry")
    for result in (kernel_result, reference):
        # Onto the deck across road A2|B2: road_cost 1 (infantry uses the road
        # rate, H = 0), gully ignored; up = (g(B2) + 1) - g(A2) = 0: 1 MF.
        assert state(board, result, "B2", 1) == 1
        # Beneath B2 from A2: the road runs on the deck, no road rate; COT =
        # gully 2 (the bridge is left out of the COT), downhill: 2 MF.
        assert state(board, result, "B2", 0) == 2
        # Off the deck across road B2|C2 onto C2: road 1, up = 0 - (-1 + 1) = 0:
        # 1 + 1 = 2 (through the gully B1 it is 2 + 1 x 2 = 4, beneath B2 2 + 2 = 4).
        assert state(board, result, "C2") == 2
        # Field costs: B2 = min(deck 1, beneath 2) = 1; A1, A3: 1; B1: gully 2;
        # C1 = C2 + 1 = 3; C3 = C2 + 1 = 3 (beneath B2 then uphill: 2 + 2 = 4);
        # B3 = A3 + gully 2 = 3.
        assert field_by_name(board, result) == {"A1": 1, "A2": 0, "A3": 1, "B1": 2, "B2": 1, "B3": 3,
                                                "C1": 3, "C2": 2, "C3": 3}


def test_beneath_from_a_non_road_side_and_no_deck_across_it(tmp_path):
    board = gully_movement_board(tmp_path)
    kernel_result, reference = both_fields(board, "A3", "infantry")
    for result in (kernel_result, reference):
        # A3|B2 holds no road: beneath B2 costs the gully's COT, 2 (down from
        # level 0 to -1: no doubling).
        assert state(board, result, "B2", 0) == 2
        # The deck is not entered across A3|B2: only by A3 -> A2 (1) and the
        # road A2|B2 (1): 2.
        assert state(board, result, "B2", 1) == 2
        # Out of the gully beneath B2 into C3 (non-road SE side): Open Ground 1,
        # up 1: x 2 = 2 -> 4; A3 -> A2 -> deck -> C2 -> C3 = 1 + 1 + 1 + 1 = 4
        # and A3 -> B3 (gully 2) -> C3 (1 x 2) = 4 too.  C3 = 4.
        assert field_by_name(board, result)["C3"] == 4
    graph = build_state_graph(board, "infantry")
    a2, a3, b1, b2 = (board.index(n) for n in ("A2", "A3", "B1", "B2"))
    assert graph.has_edge(loc(a2), loc(b2, 1))
    assert not graph.has_edge(loc(a3), loc(b2, 1)) and not graph.has_edge(loc(b1), loc(b2, 1))
    assert not graph.has_edge(loc(b2, 1), loc(b2, 0)) and not graph.has_edge(loc(b2, 0), loc(b2, 1))


def test_path_checker_accepts_deck_moves_and_refuses_illegal_ones(tmp_path):
    board = gully_movement_board(tmp_path)
    a2, a3, b2, b3, c2 = (board.index(n) for n in ("A2", "A3", "B2", "B3", "C2"))
    # Along the road over the bridge: 1 + 1.
    assert path_cost(board, [loc(a2), loc(b2, 1), loc(c2)], "infantry") == 2
    # Starting on the deck: off it to A2, 1.
    assert path_cost(board, [loc(b2, 1), loc(a2)], "infantry") == 1
    with pytest.raises(IllegalPath, match="road"):
        path_cost(board, [loc(a3), loc(b2, 1)], "infantry")         # onto the deck across a non-road side
    with pytest.raises(IllegalPath, match="road"):
        path_cost(board, [loc(b2, 1), loc(b3)], "infantry")          # off the deck across a non-road side
    with pytest.raises(IllegalPath, match="beneath"):
        path_cost(board, [loc(a2), loc(b2, 1), loc(b2, 0)], "infantry")  # deck -> beneath
    with pytest.raises(IllegalPath, match="beneath"):
        path_cost(board, [loc(a2), loc(b2, 0), loc(b2, 1)], "infantry")  # beneath -> deck
    with pytest.raises(IllegalPath, match="Location"):
        path_cost(board, [loc(a2), loc(a3, 1)], "infantry")          # no level 1 in an ordinary hex


@pytest.mark.parametrize("unit, options, deck, beneath", [
    # SMOKE in B2: deck (road 1 + SMOKE 1) x 2^0 = 2; beneath gully 2 + SMOKE 1 = 3.
    pytest.param("infantry", {"smoke": "B2"}, 2, 3, id="infantry-smoke-on-the-bridge"),
    # Fully-tracked: road class, deck 1 MP; beneath gully 4 MP (downhill, no road rate).
    pytest.param("fully-tracked", {}, 1, 4, id="fully-tracked"),
])
def test_deck_and_beneath_costs_by_class_and_smoke(tmp_path, unit, options, deck, beneath):
    board = gully_movement_board(tmp_path)
    kwargs = {}
    if "smoke" in options:
        smoke = np.zeros(len(board), dtype=np.int64)
        smoke[board.index(options["smoke"])] = 1
        kwargs["smoke"] = smoke
    for result in both_fields(board, "A2", unit, **kwargs):
        assert state(board, result, "B2", 1) == deck
        assert state(board, result, "B2", 0) == beneath


def test_start_on_the_deck(tmp_path):
    board = gully_movement_board(tmp_path)
    kernel_result, reference = both_fields(board, "B2h1", "infantry")
    for result in (kernel_result, reference):
        assert state(board, result, "B2", 1) == 0
        # Off the deck to A2 or C2 along the road: 1 (up 0 - 0 = 0).  Beneath B2:
        # only by leaving the deck, 1 + gully 2 = 3.  B1: A2 + gully 2 = 3; A1, A3,
        # C1, C3: 2; B3: A3 (2) + gully 2 = 4.  B2's field cost is the deck's, 0.
        assert state(board, result, "B2", 0) == 3
        assert field_by_name(board, result) == {"A1": 2, "A2": 1, "A3": 2, "B1": 3, "B2": 0, "B3": 4,
                                                "C1": 2, "C2": 1, "C3": 2}
    ref = reference_movement(board, [(board.index("B2"), 1)], "infantry")
    assert np.array_equal(ref["cost"], reference["cost"])


def test_level_0_bridge_over_a_stream(tmp_path):
    # 3 x 3: a stream B1 - B2 - B3 (level 0, 3 MF), bridged at B2 by a road A2 - B2 - C2.
    board = make_board(tmp_path, {"B1": (0, ["stream"]), "B2": (0, ["stream", "bridge"]), "B3": (0, ["stream"])},
                       {"A2-B2": ["road"], "B2-C2": ["road"]}, columns=3, rows=3)
    for result in both_fields(board, "A2", "infantry"):
        # Onto the deck (level 1): road 1, up = (0 + 1) - 0 = 1: x 2 = 2.
        assert state(board, result, "B2", 1) == 2
        # Beneath: stream 3 (bridge left out, no road rate), level: 3.
        assert state(board, result, "B2", 0) == 3
        # Off the deck to C2: road 1, up = 0 - 1 = -1: 1 -> 3.  Through B1:
        # 3 + 1 = 4; beneath B2: 3 + 1 = 4.  B2 field cost: min(2, 3) = 2.
        assert state(board, result, "C2") == 3
        assert field_by_name(board, result)["B2"] == 2


def test_deck_to_deck(tmp_path):
    # One row (A1 - B1 - C1 - D1): a bridge over a gully at B1 (deck at level 0)
    # and one over a level-0 stream at C1 (deck at level 1), road all along.
    board = make_board(tmp_path, {"B1": (-1, ["gully", "bridge"]), "C1": (0, ["stream", "bridge"])},
                       {"A1-B1": ["road"], "B1-C1": ["road"], "C1-D1": ["road"]}, columns=4, rows=1)
    for result in both_fields(board, "A1", "infantry"):
        # A1 -> B1 deck: road 1, up = (-1 + 1) - 0 = 0: 1.
        assert state(board, result, "B1", 1) == 1
        # B1 deck -> C1 deck: road 1, up = (0 + 1) - (-1 + 1) = 1: x 2 = 2 -> 3
        # (from beneath B1 instead: 2 + 1 x 2^2 = 6).
        assert state(board, result, "C1", 1) == 3
        # C1 deck -> D1: road 1, up = 0 - (0 + 1) = -1: 1 -> 4.
        assert state(board, result, "D1") == 4
        assert field_by_name(board, result)["C1"] == 3


# --------------------------------------------------------------------------- errors
def _level_error(hex_name):
    """The message names the hex, says 'level' and gives the hex's real range of levels."""
    top = 1 if hex_name == "B2" else 0
    return rf"(?s)(?=.*\b{hex_name}\b)(?=.*level)(?=.*\b0\.\.{top}\b)"


@pytest.mark.parametrize("call, hex_name", [
    pytest.param(lambda b: los(b, "B2", "C2", level=2), "B2", id="los-level-2-on-a-bridge"),
    pytest.param(lambda b: los(b, "C2", "A2", target_level=1), "A2", id="los-level-1-on-ground"),
    pytest.param(lambda b: los_matrix(b, np.array([b.index("B2")]), levels=np.array([2])), "B2",
                 id="matrix-level-2-on-a-bridge"),
    pytest.param(lambda b: los_matrix(b, np.array([b.index("A2")]), levels=np.array([1])), "A2",
                 id="matrix-level-1-on-ground"),
    pytest.param(lambda b: b.location("B2h2"), "B2", id="location-level-2-on-a-bridge"),
    pytest.param(lambda b: b.location("A2h1"), "A2", id="location-level-1-on-ground"),
    pytest.param(lambda b: movement_field(b, "B2h2", unit="infantry"), "B2", id="movement-start-level-2-on-a-bridge"),
    pytest.param(lambda b: movement_field(b, "A2h1", unit="infantry"), "A2", id="movement-start-level-1-on-ground"),
    pytest.param(lambda b: reference_los(b, b.index("B2"), b.index("C2"), level_a=2), "B2",
                 id="reference-los-level-2-on-a-bridge"),
    pytest.param(lambda b: reference_los(b, b.index("C2"), b.index("A2"), level_b=1), "A2",
                 id="reference-los-level-1-on-ground"),
    pytest.param(lambda b: reference_movement(b, ["B2h2"], "infantry"), "B2",
                 id="reference-movement-level-2-on-a-bridge"),
    pytest.param(lambda b: reference_movement(b, [(b.index("A2"), 1)], "infantry"), "A2",
                 id="reference-movement-level-1-on-ground"),
])
def test_a_level_that_is_not_a_location_names_the_hex(tmp_path, call, hex_name):
    board = gully_movement_board(tmp_path)
    with pytest.raises(ValueError, match=_level_error(hex_name)):
        call(board)


# --------------------------------------------------------------------------- seeded random boards, many roads
@pytest.mark.parametrize("seed", range(3), ids=lambda s: f"seed{s}")
def test_random_road_rich_boards_with_bridges_match_the_reference(seed):
    """Random ASL boards dense in hexside features (so roads meet bridge hexes):
    fields from ground hexes and from decks, for three classes, equal the
    reference, and some deck is reached across a road."""
    board = random_board("asl", 11, 8, seed=seed, terrain_density=0.5, hexside_density=0.6)
    decks = np.flatnonzero(board.bridge_deck)
    assert decks.size, "the seed should give a board with bridge hexes"
    rng = np.random.default_rng(seed)
    deck_reached = False
    for unit in ("infantry", "fully-tracked", "truck"):
        for start in (int(rng.integers(len(board))), int(decks[0]), f"{board.names[decks[-1]]}h1"):
            field = movement_field(board, start, unit=unit)
            reference = reference_movement(board, [start], unit)
            assert np.array_equal(field.cost, np.asarray(reference["cost"], float)), (unit, start)
            for h in decks:
                deck_state = 2 * (int(board.location_offset[h]) + 1)
                node = loc(int(h), 1, MOVING)
                assert field.state_cost[deck_state] == reference["state_cost"].get(node, INF), (unit, start, h)
                deck_reached |= bool(np.isfinite(field.state_cost[deck_state])) and start != f"{board.names[h]}h1"
    assert deck_reached, "no deck was reached across a road: the boards do not exercise the deck edges"


def test_vasl_centre_location_is_the_deck_only_over_a_depression(tmp_path):
    # VASL's engine answers for a bridge hex over a gully or stream from the bridge: the
    # comparisons with its results ask for the deck there, and for the ground elsewhere.
    from bench.vasl_centre import centre_level, centre_levels
    board = make_board(tmp_path, {"B2": (-1, ["gully"]), "C2": (-1, ["gully", "bridge"]), "D4": (0, ["bridge"])},
                       {"C1-C2": ["road"], "C2-C3": ["road"], "D3-D4": ["road"], "D4-D5": ["road"]},
                       columns=5, rows=6)
    levels = centre_levels(board)
    assert [board.name(int(h)) for h in np.flatnonzero(levels)] == ["C2"]
    assert levels.dtype == np.int64 and levels.shape == (len(board),)
    assert [centre_level(board, board.index(h)) for h in ("B2", "C2", "D4", "A1")] == [0, 1, 0, 0]
    assert board.location_name(board.index("C2"), int(levels[board.index("C2")])) == "C2h1"
