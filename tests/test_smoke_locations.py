"""SMOKE in an upper Location (A24; docs/los-semantics.md, "SMOKE"): golden cases worked out by hand
from the rule text in all three LOS models, the base level's effect, the errors, the data round trip,
and seeded random SMOKE at upper Locations against the two references."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kernel
from kernel import Counters, GameState, los, los_matrix, los_pairs
from tests.board_text import make_board
from tests.comparisons import depiction_counters
from tests.reference.depiction_reference import ReferenceDepiction
from tests.reference.los_reference import reference_los

MODELS = ("hex", "depiction", "vasl")


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    """Column C: C1 and C5 two-level stone buildings (Locations h1, h2), C3 a one-level one (h1), all
    single-hex (no rooftops); E3 a level-0 bridge (deck E3h1) on a road E2 - E3 - E4; the rest open ground."""
    return make_board(tmp_path_factory.mktemp("smoke"),
                      {"C1": (0, ["stone-building"], "levels=2"), "C3": (0, ["stone-building"], "levels=1"),
                       "C5": (0, ["stone-building"], "levels=2"), "E3": (0, ["bridge"])},
                      {"E2-E3": ["road"], "E3-E4": ["road"]})


def quiet_los(board, viewer, target, smoke=None, model="hex"):
    counters = None if smoke is None else Counters.on(board, smoke=smoke)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.DepictionWarning)   # no drawn art: rasterised hexes
        return los(board, viewer, target, counters=counters, model=model)


def reference(board, viewer, target, smoke):
    (a, level_a), (b, level_b) = board.location(viewer), board.location(target)
    counters = Counters.on(board, smoke=smoke)
    plain = {"smoke": counters.smoke, "smoke_height": counters.smoke_height, "smoke_base": counters.smoke_base}
    return reference_los(board, a, b, level_a, level_b, plain)


# Hand-checked: C1h2 -> C5h2 is a LOS at level 2 over C3's one-level building (1.5 < 2: clear).  SMOKE at
# C3h1 lies from level 1 to 3: level 2 is within it, +3.  SMOKE at C3's ground lies from 0 to 2: the LOS is
# at its top, not in it (A24, two levels high), +0.  C1h2 -> C5h1 (levels 2 and 1) is hindered by both: its
# higher end is within each (ground SMOKE: 0 < 2 <= 2; at C3h1: 1 < 2 <= 3).  E1 -> E5 at the ground under
# E3's bridge: SMOKE on the deck E3h1 (levels 1 to 3) is above the LOS, which passes beneath it; SMOKE
# beneath the bridge (Bridge/E3, level 0) hinders it.
@pytest.mark.parametrize("viewer, target, smoke, added", [
    ("C1h2", "C5h2", {"C3h1": 3}, 3),
    ("C1h2", "C5h2", {"C3": 3}, 0),
    ("C1h2", "C5h1", {"C3h1": 3}, 3),
    ("C1h2", "C5h1", {"C3": 2}, 2),
    ("E1", "E5", {"E3h1": 3}, 0),
    ("E1", "E5", {"Bridge/E3": 3}, 3),
], ids=["level2-in-upper", "level2-over-ground", "2to1-upper", "2to1-ground", "beneath-deck", "under-bridge"])
@pytest.mark.parametrize("model", MODELS)
def test_smoke_between_the_ends(board, model, viewer, target, smoke, added):
    clear = quiet_los(board, viewer, target, model=model)
    result = quiet_los(board, viewer, target, smoke, model=model)
    assert clear.visible and result.visible
    assert result.hindrance == clear.hindrance + added
    assert reference(board, viewer, target, smoke)["hindrance"] == result.hindrance or model != "hex"


# Hand-checked, the ends' own hexes (A24: fire out of or into a SMOKE Location): SMOKE at C1h1 fills
# levels 1 to 3 of C1, so C1's ground Location is beneath it (+0), C1h1 and C1h2 are in it (+2).
@pytest.mark.parametrize("viewer, added", [("C1", 0), ("C1h1", 2), ("C1h2", 2)])
def test_an_end_beneath_or_in_upper_smoke(board, viewer, added):
    smoke = {"C1h1": 2}
    clear = quiet_los(board, viewer, "A1")
    result = quiet_los(board, viewer, "A1", smoke)
    assert result.visible and result.hindrance == clear.hindrance + added
    assert reference(board, viewer, "A1", smoke)["hindrance"] == result.hindrance
    target = quiet_los(board, "A1", viewer, smoke)
    assert target.hindrance == quiet_los(board, "A1", viewer).hindrance + added


@pytest.mark.parametrize("model", ("depiction", "vasl"))
def test_a_ground_end_is_beneath_upper_smoke_in_every_model(board, model):
    assert quiet_los(board, "C1", "A1", {"C1h1": 3}, model).hindrance == quiet_los(board, "C1", "A1",
                                                                                   model=model).hindrance


def test_the_base_level_changes_the_answers(board):
    """The same SMOKE DRM and height in one hex, at its ground or at level 1: the outputs differ."""
    n = len(board)
    c3 = board.index("C3")
    smoke = np.zeros(n, np.int64)
    smoke[c3] = 3
    base = np.zeros(n, np.int64)
    ground = Counters(smoke=smoke)
    upper = Counters(smoke=smoke, smoke_base=np.where(np.arange(n) == c3, 1, base))
    hexes = [board.index(name) for name in ("C1", "C5")]
    levels = [2, 2]
    assert int(los_matrix(board, hexes, levels=levels, counters=ground)[0, 1]) == 0
    assert int(los_matrix(board, hexes, levels=levels, counters=upper)[0, 1]) == 3
    pairs = los_pairs(board, [hexes[0]], [hexes[1]], levels=2, target_levels=2, counters=upper)
    assert int(pairs.hindrance[0]) == 3
    fire = kernel.field_of_fire(board, [hexes[0]], levels=2, target_levels=2, counters=upper)
    assert int(fire.hindrance[hexes[1]]) == 3
    assert int(kernel.field_of_fire(board, [hexes[0]], levels=2, target_levels=2,
                                    counters=ground).hindrance[hexes[1]]) == 0


def test_explain_names_the_smokes_location(board):
    text = quiet_los(board, "C1h2", "C5h2", {"C3h1": 3}).explain()
    assert "SMOKE +3 at C3h1, levels 1 to 3 of the hex" in text
    assert "SMOKE +3 at C3h1" in quiet_los(board, "C1h2", "C5h2", {"C3h1": 3}, "depiction").explain()


def test_round_trip_and_game_state(board):
    counters = Counters.on(board, smoke={"C3h1": 3, "E3": 2})
    data = counters.to_dict(board)
    assert data["smoke"] == {"C3h1": 3, "E3": 2}
    again = Counters.from_dict(board, data)
    assert np.array_equal(again.smoke_base, counters.smoke_base) and again.to_dict(board) == data
    state = GameState(board, counters)
    assert int(state.smoke_base[board.index("C3")]) == 1 and state.counters().to_dict(board) == data
    assert los(board, "C1h2", "C5h2", counters=state).hindrance == 3
    state.move_smoke("C3h1", "C3")   # down to the ground of its hex: level 2 is at its top
    assert los(board, "C1h2", "C5h2", counters=state).hindrance == 0
    state.remove_smoke("C3")
    state.place_smoke("C3h1", 2)
    assert los(board, "C1h2", "C5h2", counters=state).hindrance == 2


def test_a_held_matrix_follows_smoke_moved_between_locations(board):
    state = GameState(board)
    state.place_smoke("C3h1", 3)
    held = kernel.HeldLOSMatrix(board, state, [board.index("C1"), board.index("C5")], levels=[2, 2])
    assert int(held.matrix[0, 1]) == 3
    state.move_smoke("C3h1", "C3")
    held.refresh()
    assert int(held.matrix[0, 1]) == 0


@pytest.mark.parametrize("call, match", [
    (lambda b: Counters.on(b, smoke={"C3h2": 3}), r"level 2 does not exist: C3 has levels 0\.\.1"),
    (lambda b: Counters.on(b, smoke={"C3roof": 3}), r"C3 has no rooftop: it has levels 0\.\.1"),
    (lambda b: Counters.on(b, smoke={"C3": 2, "C3h1": 3}), r"second SMOKE in C3 \(also at C3\): expected one SMOKE"),
    (lambda b: Counters.from_dict(b, {"smoke": {"C3h1": 3, "C3": 2}}), r"names C3 again: .*one SMOKE per hex"),
    (lambda b: GameState(b).place_smoke("A1h1", 3), r"place_smoke\('A1h1'\): .*A1 has levels 0\.\.0"),
    (lambda b: GameState(b, Counters.on(b, smoke={"C3": 2})).move_smoke("C3", "C1h3"),
     r"move_smoke\('C3', 'C1h3'\): .*level 3 does not exist: C1 has levels 0\.\.2"),
    (lambda b: los(b, "C1", "C5", counters=Counters(smoke=np.where(np.arange(len(b)) == b.index("C3"), 3, 0),
                                                      smoke_base=np.where(np.arange(len(b)) == b.index("C3"), 2, 0))),
     r"counters\.smoke_base is 2 in C3: expected a level of one of its Locations \(C3 has levels 0\.\.1\)"),
    (lambda b: los(b, "C1", "C5", counters=Counters(smoke_base=np.zeros(3, np.int64))),
     r"counters\.smoke_base has shape \(3,\): expected"),
    (lambda b: los(b, "C1", "C5", counters=Counters(smoke_base=np.zeros(len(b)))),
     r"counters\.smoke_base has dtype float64: expected integers"),
], ids=["no-level", "no-rooftop", "two-in-a-hex", "file-two-in-a-hex", "state-no-level", "move-no-level",
        "array-level", "array-shape", "array-dtype"])
def test_errors_name_the_hex_and_its_levels(board, call, match):
    with pytest.raises((ValueError, KeyError), match=match):
        call(board)


# --- seeded random SMOKE at upper Locations: the kernels against the references --------------------------

@pytest.fixture(scope="module")
def random_case(tmp_path_factory):
    """A seeded 10 x 8 board of hills, woods, grain and buildings of 1-2 upper levels (neighbouring
    building hexes have rooftops), and SMOKE in many of its Locations."""
    rng = np.random.default_rng(77)
    hexes = {}
    for column in "ABCDEFGHIJ":
        for row in range(1, 9):
            pick = rng.random()
            level = int(rng.integers(0, 3)) if rng.random() < 0.3 else 0
            if pick < 0.35:
                hexes[f"{column}{row}"] = (level, ["stone-building"], f"levels={int(rng.integers(1, 3))}")
            elif pick < 0.5:
                hexes[f"{column}{row}"] = (level, ["woods"])
            elif pick < 0.6:
                hexes[f"{column}{row}"] = (level, ["grain"])
            elif level:
                hexes[f"{column}{row}"] = (level, [])
    board = make_board(tmp_path_factory.mktemp("random-smoke"), hexes, columns=10, rows=8)
    n = len(board)
    upper = np.flatnonzero(board.top_level > 0)
    smoke = np.where(rng.random(n) < 0.15, rng.integers(2, 4, n), 0)
    smoke[upper] = np.where(rng.random(len(upper)) < 0.6, rng.integers(2, 4, len(upper)), 0)
    base = np.where(smoke > 0, np.floor(rng.random(n) * (board.top_level + 1)), 0).astype(np.int64)
    counters = Counters(smoke=smoke, smoke_height=rng.integers(1, 3, n), smoke_base=base,
                        vehicles=np.zeros(n, bool))
    return board, counters, rng


def random_locations(board, rng, count):
    hexes = rng.integers(0, len(board), count)
    levels = np.floor(rng.random(count) * (board.top_level[hexes] + 1)).astype(np.int64)
    return hexes, levels


def test_random_board_has_smoke_at_upper_locations(random_case):
    board, counters, _ = random_case
    assert int(((counters.smoke > 0) & (counters.smoke_base > 0)).sum()) >= 8
    assert int(((counters.smoke > 0) & board.rooftop & (counters.smoke_base == board.top_level)).sum()) >= 1


def test_random_hex_model_matches_the_reference(random_case):
    board, counters, rng = random_case
    plain = {"smoke": counters.smoke, "smoke_height": counters.smoke_height, "smoke_base": counters.smoke_base}
    a, la = random_locations(board, rng, 150)
    b, lb = random_locations(board, rng, 150)
    bad = []
    for i, li, j, lj in zip(a.tolist(), la.tolist(), b.tolist(), lb.tolist()):
        fast = los(board, i, j, level=li, target_level=lj, counters=counters)
        slow = reference_los(board, i, j, li, lj, plain)
        if (fast.visible, fast.hindrance) != (slow["visible"], slow["hindrance"]):
            bad.append((board.location_name(i, li), board.location_name(j, lj), fast.hindrance, slow["hindrance"]))
    pairs = los_pairs(board, a, b, levels=la, target_levels=lb, counters=counters)
    single = [los(board, i, j, level=li, target_level=lj, counters=counters)
              for i, li, j, lj in zip(a.tolist(), la.tolist(), b.tolist(), lb.tolist())]
    assert not bad, bad[:5]
    assert pairs.visible.tolist() == [r.visible for r in single]
    assert [int(h) for h, v in zip(pairs.hindrance, pairs.visible) if v] == [r.hindrance for r in single if r.visible]


def test_random_matrix_and_field_of_fire_match_single_los(random_case):
    board, counters, rng = random_case
    hexes, levels = random_locations(board, rng, 14)
    matrix = los_matrix(board, hexes, levels=levels, counters=counters)
    for r, (i, li) in enumerate(zip(hexes.tolist(), levels.tolist())):
        for c, (j, lj) in enumerate(zip(hexes.tolist(), levels.tolist())):
            if i == j:
                continue
            one = los(board, i, j, level=li, target_level=lj, counters=counters)
            assert int(matrix[r, c]) == (min(one.hindrance, 127) if one.visible else kernel.BLOCKED), (r, c)
    source, level = int(hexes[0]), int(levels[0])
    fire = kernel.field_of_fire(board, [source], levels=level, counters=counters)
    for j in range(len(board)):
        if j != source:
            one = los(board, source, j, level=level, counters=counters)
            assert bool(fire.visible[j]) == one.visible, board.names[j]
            if one.visible:
                assert int(fire.hindrance[j]) == one.hindrance, board.names[j]


@pytest.mark.parametrize("model", ("depiction", "vasl"))
def test_random_depiction_models_match_the_reference(random_case, model):
    board, counters, rng = random_case
    a, la = random_locations(board, rng, 80)
    b, lb = random_locations(board, rng, 80)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.DepictionWarning)
        result = los_pairs(board, a, b, levels=la, target_levels=lb, counters=counters, model=model)
        walker = ReferenceDepiction(board, kernel.board_art(board))
    on_map = depiction_counters(board, counters)
    bad = []
    for k, (i, li, j, lj) in enumerate(zip(a.tolist(), la.tolist(), b.tolist(), lb.tolist())):
        if i == j:
            continue
        blocked, hindrance = walker.walk(i, j, li, lj, per_range=model == "vasl", counters=on_map)
        fast = (bool(result.visible[k]), int(result.hindrance[k]) if result.visible[k] else None)
        slow = (not blocked, None if blocked else hindrance)
        if fast != slow:
            bad.append((board.location_name(i, li), board.location_name(j, lj), fast, slow))
    assert not bad, bad[:5]
