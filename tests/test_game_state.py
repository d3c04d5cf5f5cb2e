"""One counters model for LOS and movement: GameState, its checks, its prepared tables."""

from __future__ import annotations

import re

import numpy as np
import pytest

import kernel
from kernel import Counters, GameState, field_of_fire, los, los_matrix, los_pairs, movement_field, random_board
from kernel.maps.counters import MAX_SMOKE_DRM, MAX_SMOKE_HEIGHT
from kernel.movement.tables import MOVEMENT_CACHE


@pytest.fixture(scope="module")
def board():
    return kernel.load("default")


def random_changes(board, state, rng, count):
    """``count`` random counter changes of every kind."""
    n = len(board)
    for _ in range(count):
        h = int(rng.integers(n))
        kind = int(rng.integers(4))
        if kind == 0:
            if state.smoke[h]:
                state.remove_smoke(h)
            else:
                state.place_smoke(h, int(rng.integers(1, 4)), int(rng.integers(1, 3)))
        elif kind == 1:
            state.place_vehicle(h)
        elif kind == 2:
            movers = np.flatnonzero(state.vehicles)
            if movers.size:
                state.move_vehicle(int(rng.choice(movers)), h)
        else:
            if state.units[h]:
                state.remove_unit(h)
            else:
                state.place_unit(h)


# --- the state itself -----------------------------------------------------------------------------

def test_changes_show_in_the_arrays_and_the_log(board):
    state = GameState(board)
    j5, k5, k6 = board.index("71J5"), board.index("71K5"), board.index("71K6")
    state.place_smoke("71J5", 3, height=1)
    state.place_vehicle("71K5")
    state.place_vehicle("71K5")  # two in one hex: one removal leaves one
    assert int(state.vehicle_counts[k5]) == 2 and state.version == 3  # each vehicle counts: every one logged
    state.remove_vehicle("71K5")
    assert state.vehicles[k5] and int(state.vehicle_counts[k5]) == 1 and state.version == 4
    state.move_vehicle("71K5", "71K6")
    assert not state.vehicles[k5] and state.vehicles[k6]
    assert int(state.smoke[j5]) == 3 and int(state.smoke_height[j5]) == 1
    assert state.changed_since(0).tolist() == sorted([j5, k5, k6])
    assert state.changed_since(state.version).size == 0
    state.move_smoke("71J5", "71K6")
    assert int(state.smoke[j5]) == 0 and int(state.smoke[k6]) == 3 and int(state.smoke_height[k6]) == 1
    state.place_unit("71I4")
    state.move_unit("71I4", "71I5")
    assert state.units[board.index("71I5")] and not state.units[board.index("71I4")]
    state.remove_unit("71I5")
    assert not state.units.any()
    copy = state.counters()
    assert np.array_equal(copy.smoke, state.smoke) and copy.smoke is not state.smoke


def test_arrays_cannot_be_written_past_the_log(board):
    state = GameState(board)
    with pytest.raises(ValueError, match="read-only"):
        state.smoke[0] = 3


@pytest.mark.parametrize("drm", [40000, 65539, -1, MAX_SMOKE_DRM + 1])
def test_smoke_drm_outside_its_range_is_refused_not_wrapped(board, drm):
    state = GameState(board)
    with pytest.raises(ValueError, match=rf"SMOKE DRM in 71J5 is {drm}: expected 0\.\.{MAX_SMOKE_DRM}"):
        state.place_smoke("71J5", drm)
    assert state.version == 0 and not state.smoke.any()  # nothing changed


def test_the_smoke_log_holds_smoke_changes_only(board):
    state = GameState(board)
    j5, k6 = board.index("71J5"), board.index("71K6")
    state.place_unit("71I4")
    state.move_unit("71I4", "71I5")
    state.place_vehicle("71K5")
    assert state.version == 4 and state.smoke_version == 0
    state.place_smoke("71J5", 2)
    state.move_smoke("71J5", "71K6")
    assert state.smoke_version == 3 and state.smoke_changed_since(0).tolist() == sorted([j5, k6])
    assert state.smoke_changed_since(2).tolist() == [k6] and state.smoke_changed_since(3).size == 0


@pytest.mark.parametrize("call, error, match", [
    (lambda s: s.place_smoke("71J5", 0), ValueError, r"SMOKE DRM in 71J5 is 0: expected 1\.\.100 \(use remove_smoke"),
    (lambda s: s.place_smoke("71J5", 2.5), TypeError, r"SMOKE DRM in 71J5 is 2\.5: expected an integer 0\.\.100"),
    (lambda s: s.place_smoke("71J5", 2, height=MAX_SMOKE_HEIGHT + 1), ValueError,
     rf"SMOKE height in 71J5 is {MAX_SMOKE_HEIGHT + 1}: expected 0\.\.{MAX_SMOKE_HEIGHT}"),
    (lambda s: s.remove_smoke("71J5"), ValueError, "no SMOKE in 71J5 to remove"),
    (lambda s: s.move_smoke("71J5", "71J6"), ValueError, "no SMOKE in 71J5 to move"),
    (lambda s: s.remove_vehicle("71K5"), ValueError, "no vehicle in 71K5 to remove"),
    (lambda s: s.move_unit("71K5", "71K6"), ValueError, re.escape("move_unit('71K5', '71K6'): no unit in 71K5 to move")),
    (lambda s: s.move_unit("71K5", "99A1"), KeyError, re.escape("move_unit('71K5', '99A1'): hex '99A1' is not on this map")),
    (lambda s: s.remove_unit("71K5"), ValueError, re.escape("remove_unit('71K5'): no unit in 71K5 to remove")),
    (lambda s: s.place_unit("71K5", side=""), TypeError, "place_unit: side is '': expected a side's name"),
    (lambda s: s.move_vehicle("71K5", "71K6"), ValueError, re.escape("move_vehicle('71K5', '71K6'): no vehicle in 71K5 to move")),
    (lambda s: s.move_smoke("71K5", "71K6"), ValueError, re.escape("move_smoke('71K5', '71K6'): no SMOKE in 71K5 to move")),
    (lambda s: s.changed_since(5), ValueError, r"version is 5: expected 0\.\.0, a version this state has had"),
    (lambda s: s.changed_since(0, ["smoke", "unit"]), ValueError,
     "changed_since: kind 'unit' is not a kind of change: expected one of smoke, vehicles, units"),
    (lambda s: s.smoke_changed_since(1), ValueError,
     r"smoke_version is 1: expected 0\.\.0, a SMOKE version this state has had"),
    (lambda s: s.place_vehicle("71Z99"), KeyError, "71Z99"),
])
def test_bad_changes_get_a_clear_error(board, call, error, match):
    with pytest.raises(error, match=match):
        call(GameState(board))


@pytest.mark.parametrize("field, value, match", [
    ("smoke", 40000, r"counters\.smoke is 40000 in 71J5: expected 0\.\.100"),
    ("smoke", 65539, r"counters\.smoke is 65539 in 71J5: expected 0\.\.100"),
    ("smoke_height", 1000, r"counters\.smoke_height is 1000 in 71J5: expected 0\.\.100"),
])
def test_counters_arrays_outside_their_range_are_refused(board, field, value, match):
    array = np.zeros(len(board), np.int64)
    array[board.index("71J5")] = value
    with pytest.raises(ValueError, match=match):
        los_matrix(board, counters=Counters(**{field: array}))
    with pytest.raises(ValueError, match=match):
        GameState(board, Counters(**{field: array}))


def test_counters_on_checks_its_values(board):
    with pytest.raises(ValueError, match=r"smoke\['71J5'\] is 40000: expected 0\.\.100"):
        Counters.on(board, smoke={"71J5": 40000})
    with pytest.raises(ValueError, match=r"smoke_height is 200: expected 0\.\.100"):
        Counters.on(board, smoke={"71J5": 3}, smoke_height=200)


def test_a_state_of_another_board_or_another_type_is_refused(board):
    other = kernel.load("71")
    with pytest.raises(ValueError, match="counters is a GameState of another board: expected one made for this board"):
        los(board, "71I4", "71L5", counters=GameState(other))
    with pytest.raises(TypeError, match="counters must be a kernel.Counters or kernel.GameState, not dict"):
        los(board, "71I4", "71L5", counters={"smoke": {}})


# --- the same answers as from scratch --------------------------------------------------------------

@pytest.mark.parametrize("seed", range(3), ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("ruleset", ["asl", "valor-victory", "ccn"])
def test_prepared_state_gives_what_fresh_counters_give(ruleset, seed):
    board = random_board(ruleset, 14, 10, seed=seed)
    rng = np.random.default_rng(seed)
    state = GameState(board)
    los_matrix(board, counters=state)  # prepared now: the changes below are applied in place
    unit = board.ruleset.unit_classes[0]
    movement_field(board, 0, unit=unit, counters=state)
    n = len(board)
    for _ in range(4):
        random_changes(board, state, rng, 6)
        fresh = state.counters()
        assert np.array_equal(los_matrix(board, counters=state), los_matrix(board, counters=fresh))
        a, b = rng.integers(n, size=50), rng.integers(n, size=50)
        prepared, plain = los_pairs(board, a, b, counters=state), los_pairs(board, a, b, counters=fresh)
        assert np.array_equal(prepared.hindrance, plain.hindrance) and np.array_equal(prepared.visible, plain.visible)
        sources = rng.integers(n, size=3)
        assert np.array_equal(field_of_fire(board, sources, counters=state).hindrance,
                              field_of_fire(board, sources, counters=fresh).hindrance)
        assert los(board, int(a[0]), int(b[0]), counters=state) == los(board, int(a[0]), int(b[0]), counters=fresh)
        start = int(rng.integers(n))
        with_state = movement_field(board, start, unit=unit, counters=state)
        with_counters = movement_field(board, start, unit=unit, counters=fresh)
        assert np.array_equal(with_state.state_cost, with_counters.state_cost)


def test_movement_takes_counters_and_no_masks(board):
    state = GameState(board)
    state.place_smoke("71J4", 2)
    field = movement_field(board, "71I4", unit="infantry", allowance=4, counters=state)
    plain = movement_field(board, "71I4", unit="infantry", allowance=4, counters=state.counters())
    assert np.array_equal(field.cost, plain.cost)
    assert field.cost_at("71J4") == movement_field(board, "71I4", unit="infantry", allowance=4).cost_at("71J4") + 1  # B.2
    assert np.array_equal(kernel.reachable(board, "71I4", unit="infantry", allowance=4, counters=state), field.cost <= 4)
    assert np.array_equal(kernel.movement_matrix(board, unit="infantry", allowance=4, sources=["71I4"], counters=state)[0],
                          np.where(np.isfinite(field.cost), 2 * field.cost, kernel.UNREACHABLE))
    for function in (movement_field, kernel.reachable, kernel.movement_graph):
        with pytest.raises(TypeError, match="unexpected keyword argument 'smoke'"):
            function(board, "71I4", unit="infantry", smoke=np.zeros(len(board), bool))
    with pytest.raises(TypeError, match="unexpected keyword argument 'units'"):
        kernel.movement_matrix(board, unit="infantry", units=np.zeros(len(board), bool))
    with pytest.raises(TypeError, match="counters must be a kernel.Counters or kernel.GameState, not dict"):
        movement_field(board, "71I4", counters={"smoke": {"71J4": 2}})


def test_smoke_does_not_rebuild_the_movement_graph(board):
    cache = MOVEMENT_CACHE.entries(board).setdefault("tables", {})
    movement_field(board, "71I4", unit="infantry", allowance=4)
    before = dict(cache)
    state = GameState(board)
    for name in ("71J4", "71J5", "71K5"):
        state.place_smoke(name, 2)
        movement_field(board, "71I4", unit="infantry", allowance=4, counters=state)
    assert cache.keys() == before.keys() and all(cache[k] is before[k] for k in before)  # no new graph


def test_a_change_rewrites_the_prepared_tables_in_place(board):
    """Prepared once: after a change the same arrays are updated, and only the changed hex's entries move."""
    from kernel.line_of_sight.counters import counter_tables, hex_cells

    state = GameState(board)
    tables = counter_tables(board, state)
    before = [array.copy() for array in tables[:3]]
    state.place_smoke("71J5", 3)
    after = counter_tables(board, state)
    assert all(new is old for new, old in zip(after, tables))  # not rebuilt
    h = board.index("71J5")
    changed_rows = np.flatnonzero((after[0] != before[0]).any(axis=1))
    changed_cells = np.flatnonzero(after[1] != before[1])
    changed_columns = np.flatnonzero((after[2] != before[2]).any(axis=0))
    assert changed_rows.tolist() == [h]
    assert set(changed_cells) | set(changed_columns) <= {int(hex_cells(board)[h])}
    assert changed_cells.size == 1  # the hex is no longer inert for the fast path


# --- units with a side, one SMOKE per hex, counters files ------------------------------------------

def test_units_carry_a_side(board):
    state = GameState(board)
    state.place_unit("71I4", side="allies")
    state.place_unit("71I4", side="axis")
    state.place_unit("72M6", side="axis")
    state.place_unit("71Q5")  # no side: nobody's enemy
    index = board.index
    assert state.sides == ("allies", "axis")
    assert state.units_of("axis").tolist() == sorted([index("71I4"), index("72M6")])
    assert state.units_of("allies").tolist() == [index("71I4")]
    assert state.units_not_of("allies").tolist() == sorted([index("71I4"), index("72M6")])
    assert state.units_not_of("axis").tolist() == [index("71I4")]
    assert state.units_in("71I4") == {"allies": 1, "axis": 1}
    with pytest.raises(ValueError, match=re.escape("move_unit('71I4', '71I5'): 71I4 holds 1 unit of side 'allies', "
                                                   "1 unit of side 'axis': expected side= to say which to move")):
        state.move_unit("71I4", "71I5")
    with pytest.raises(ValueError, match=re.escape("move_unit('72M6', '72M7'): no unit of side 'allies' in 72M6 to "
                                                   "move (it holds 1 unit of side 'axis')")):
        state.move_unit("72M6", "72M7", side="allies")
    version = state.version
    state.move_unit("71I4", "71I5", side="axis")
    assert state.units_in("71I4") == {"allies": 1} and state.units_in("71I5") == {"axis": 1}
    assert state.version == version + 1  # 71I4 keeps a unit: only 71I5 changed for the kernels
    state.move_unit("72M6", "72M7")  # one side there: no side= needed
    assert state.units_of("axis").tolist() == sorted([index("71I5"), index("72M7")])
    state.remove_unit("71Q5")
    assert not state.units[index("71Q5")] and state.units_in("71Q5") == {}
    assert int(state.units.sum()) == 3


def test_threat_map_and_concealment_take_the_other_side(board):
    state = GameState(board)
    for name, side in (("71I4", "allies"), ("72M6", "axis"), ("71Q5", "axis")):
        state.place_unit(name, side=side)
    by_side = kernel.threat_map(board, counters=state, enemies_of="allies")
    by_hex = kernel.threat_map(board, ["72M6", "71Q5"], counters=state)
    assert np.array_equal(by_side.count, by_hex.count) and np.array_equal(by_side.hindrance, by_hex.hindrance)
    assert not np.array_equal(by_side.count, kernel.threat_map(board, counters=state, enemies_of="axis").count)
    hidden = kernel.concealed_movement(board, "71I4", counters=state, enemies_of="allies", unit="infantry",
                                       allowance=4)
    plain = kernel.concealed_movement(board, "71I4", ["72M6", "71Q5"], counters=state, unit="infantry", allowance=4)
    assert np.array_equal(hidden.hidden, plain.hidden) and np.array_equal(hidden.field.cost, plain.field.cost)
    neutral = GameState(board, sides=("neutral",))  # a declared side with no units: every side is its enemy
    for name, side in (("71I4", "allies"), ("72M6", "axis"), ("71Q5", "axis")):
        neutral.place_unit(name, side=side)
    assert kernel.threat_map(board, counters=neutral, enemies_of="neutral").sources.size == 3
    lonely = GameState(board)
    lonely.place_unit("71I4", side="allies")
    assert not kernel.threat_map(board, counters=lonely, enemies_of="allies").seen.any()


UNKNOWN_SIDE = ("side 'allied' is not a side of this game: expected one of 'allies', 'axis' "
                "(declare the sides with GameState(board, sides=...) or place a unit of the side)")


@pytest.mark.parametrize("call, message", [
    (lambda b, s: s.units_of("allied"), "units_of: " + UNKNOWN_SIDE),
    (lambda b, s: s.units_not_of("allied"), "units_not_of: " + UNKNOWN_SIDE),
    (lambda b, s: kernel.threat_map(b, counters=s, enemies_of="allied"), "threat_map: enemies_of: " + UNKNOWN_SIDE),
    (lambda b, s: kernel.concealed_movement(b, "71I4", counters=s, enemies_of="allied", unit="infantry"),
     "concealed_movement: enemies_of: " + UNKNOWN_SIDE),
    (lambda b, s: GameState(b).units_of("axis"), "units_of: side 'axis' is not a side of this game: expected one "
     "of none yet"),
])
def test_an_unknown_side_is_an_error_that_lists_the_sides(board, call, message):
    """A misspelt side is not a side without units: the error lists the sides the state knows."""
    state = GameState(board)
    state.place_unit("71I4", side="allies")
    state.place_unit("72M6", side="axis")
    with pytest.raises(ValueError, match=re.escape(message)):
        call(board, state)


def test_declared_sides_are_known_before_their_units(board):
    state = GameState(board, sides=["allies", "axis"])
    assert state.sides == ("allies", "axis") and state.units_of("axis").size == 0
    assert not kernel.threat_map(board, counters=state, enemies_of="allies").seen.any()
    state.place_unit("71I4", side="russians")  # placing a unit makes its side known
    assert state.sides == ("allies", "axis", "russians")
    with pytest.raises(TypeError, match=re.escape("sides is 'axis': expected a sequence of side names")):
        GameState(board, sides="axis")
    with pytest.raises(TypeError, match=re.escape("GameState: side is '': expected a side's name")):
        GameState(board, sides=[""])


def test_a_second_smoke_on_a_hex_is_an_error(board):
    state = GameState(board)
    state.place_smoke("71J5", 3)
    with pytest.raises(ValueError, match=re.escape("place_smoke('71J5'): 71J5 already holds SMOKE (DRM 3): "
                                                   "expected a hex without SMOKE")):
        state.place_smoke("71J5", 2)
    state.place_smoke("71K5", 2)
    with pytest.raises(ValueError, match=re.escape("move_smoke('71J5', '71K5'): 71K5 already holds SMOKE")):
        state.move_smoke("71J5", "71K5")
    assert int(state.smoke[board.index("71J5")]) == 3 and int(state.smoke[board.index("71K5")]) == 2
    assert state.version == 2  # the refused changes changed nothing


def test_counters_from_dict_is_the_counters_files_parser(board):
    data = {"smoke": {"71J5": 3, "71K5": 2}, "smoke_height": {"71J5": 1, "71K5": 4}, "vehicles": ["71K6"],
            "units": ["71I4"]}
    counters = Counters.from_dict(board, data)
    assert counters.to_dict(board) == data
    assert Counters.from_dict(board, counters.to_dict(board)).to_dict(board) == data
    same = Counters.on(board, smoke={"71J5": 3}, vehicles=["71K6"], units=["71I4"], smoke_height=2)
    assert Counters.from_dict(board, {"smoke": {"71J5": 3}, "vehicles": ["71K6"], "units": ["71I4"]}).to_dict(board) \
        == same.to_dict(board)
    assert np.array_equal(los_matrix(board, counters=counters), los_matrix(board, counters=Counters(
        counters.smoke, counters.smoke_height, counters.vehicles, counters.units)))


@pytest.mark.parametrize("data, error, match", [
    ([], TypeError, "counters: expected an object like"),
    ({"fog": {}}, ValueError, "counters: unknown key 'fog': expected smoke, smoke_height, vehicles, units"),
    ({"smoke": {"71J5": 101}}, ValueError, r"counters: smoke DRM of 71J5 is 101: expected an integer 0\.\.100"),
    ({"smoke": {"71J5": True}}, ValueError, r"smoke DRM of 71J5 is True"),
    ({"smoke": ["71J5"]}, TypeError, "counters: smoke: expected an object of hex: DRM"),
    ({"smoke_height": 101}, ValueError, r"counters: smoke_height is 101: expected an integer number of levels 0\.\.100"),
    ({"smoke_height": {"71J5": -1}}, ValueError, r"smoke_height of 71J5 is -1"),
    ({"vehicles": "71J5"}, TypeError, "counters: vehicles: expected a list of hex names"),
    ({"units": [5]}, TypeError, "counters: units: 5 is not a hex name"),
    ({"units": ["99A1"]}, KeyError, "counters: units: hex '99A1' is not on this map"),
])
def test_counters_from_dict_refuses_what_no_counters_file_holds(board, data, error, match):
    with pytest.raises(error, match=match):
        Counters.from_dict(board, data)


def test_changes_are_logged_by_kind(board):
    state = GameState(board)
    i4, i5, j5, k5 = (board.index(name) for name in ("71I4", "71I5", "71J5", "71K5"))
    state.place_unit("71I4", side="axis")
    state.move_unit("71I4", "71I5")
    state.place_smoke("71J5", 2)
    state.place_vehicle("71K5")
    assert state.changed_since(0).tolist() == sorted([i4, i5, j5, k5])
    assert state.changed_since(0, "units").tolist() == sorted([i4, i5])
    assert state.changed_since(0, ("smoke", "vehicles")).tolist() == sorted([j5, k5])
    assert state.changed_since(2, ["vehicles"]).tolist() == [k5]  # a list of kinds too
    assert state.changed_since(3, "units").size == 0
