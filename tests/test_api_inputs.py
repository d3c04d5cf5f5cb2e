"""One validation path for hexes, Locations and levels, shared by every public function that takes them.

Every one goes through :mod:`kernel.maps.locations`, so it accepts a hex
name, a Location name, an index and an array of either, and the same
mistake gets the same error from each.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import kernel
from kernel import (field_of_fire, los, los_matrix, los_matrix_blocks, los_pairs, movement_field, movement_matrix,
                    visibility_bits)
from kernel.maps.locations import hex_array, level_array, location_arrays


@pytest.fixture(scope="module")
def board():
    return kernel.load("default")


#: Every entry point, called with a bad level ``v`` for the Location 71I4 (a hill hex with no upper levels).
LEVEL_CALLS = {
    "los": lambda b, v: los(b, "71I4", "71I6", level=v),
    "los_pairs": lambda b, v: los_pairs(b, ["71I4"], ["71I6"], levels=v),
    "los_pairs-array": lambda b, v: los_pairs(b, ["71I4"], ["71I6"], levels=np.array([v])),
    "los_matrix": lambda b, v: los_matrix(b, ["71I4", "71I6"], levels=np.array([v, 0])),
    "los_matrix_blocks": lambda b, v: next(los_matrix_blocks(b, ["71I4", "71I6"], levels=[v, 0])),
    "visibility_bits": lambda b, v: visibility_bits(b, ["71I4"], levels=[v]),
    "fields_of_fire": lambda b, v: kernel.fields_of_fire(b, ["71I4"], levels=v),
    "movement_field": lambda b, v: movement_field(b, ["71I4"], levels=v),
    "field_of_fire": lambda b, v: field_of_fire(b, ["71I4"], levels=v),
    "field_of_fire-list": lambda b, v: field_of_fire(b, ["71I4"], levels=[v]),
}


@pytest.mark.parametrize("call", LEVEL_CALLS.values(), ids=LEVEL_CALLS.keys())
@pytest.mark.parametrize("level", [0.5, float("nan"), 1.0, np.float32(0.0)], ids=["half", "nan", "float-one", "f32"])
def test_fractional_nan_and_float_levels_are_refused_everywhere(board, call, level):
    with pytest.raises(TypeError, match="expected an integer Location level|expected integer Location levels"):
        call(board, level)


@pytest.mark.parametrize("call", LEVEL_CALLS.values(), ids=LEVEL_CALLS.keys())
@pytest.mark.parametrize("level", [1, -1, 40000, 2**70], ids=["one", "minus-one", "40000", "huge"])
def test_levels_that_are_not_a_location_of_the_hex_are_refused_everywhere(board, call, level):
    with pytest.raises(ValueError, match=r"(is|holds) -?\d+.*expected( a Location level)? 0\.\.0|expected( a)? Location level"):
        call(board, level)


@pytest.mark.parametrize("call", LEVEL_CALLS.values(), ids=LEVEL_CALLS.keys())
def test_the_ground_level_as_a_numpy_integer_is_accepted_everywhere(board, call):
    call(board, np.int16(0))


def test_a_tuple_of_two_hexes_is_two_hexes_not_a_hex_and_a_level(board):
    matrix = los_matrix(board, (5, 0))
    assert matrix.shape == (2, 2)
    assert np.array_equal(matrix, los_matrix(board, [5, 0]))
    assert np.array_equal(matrix, los_matrix(board)[np.ix_([5, 0], [5, 0])])


def test_two_dimensional_and_wrongly_typed_index_arrays_are_refused(board):
    two_d = np.array([[1, 2]])
    for call in (lambda: los_pairs(board, two_d, two_d), lambda: los_matrix(board, two_d),
                 lambda: field_of_fire(board, two_d), lambda: movement_field(board, two_d),
                 lambda: movement_matrix(board, sources=two_d)):
        with pytest.raises(ValueError, match=re.escape("has shape (1, 2): expected a one-dimensional array of hexes")):
            call()
    with pytest.raises(TypeError, match="has dtype float64: expected integer hex indices or hex names"):
        los_pairs(board, np.array([1.0]), np.array([2.0]))
    with pytest.raises(TypeError, match=r"sources holds True: expected hex names like '71I9' or integer indices"):
        los_pairs(board, [True], [1])
    with pytest.raises(TypeError, match="sources is a set: expected a hex or a list of hexes"):
        field_of_fire(board, {1, 2})
    with pytest.raises(ValueError, match=re.escape("levels has shape (2,): expected (1,), one level per hex")):
        los_matrix(board, [1], levels=[0, 0])


def test_board_location_and_state_name_refuse_what_they_cannot_name(board):
    with pytest.raises(TypeError, match="Location must be a name like '1E4h1', not int"):
        board.location(5)
    field = movement_field(board, "71I4")
    with pytest.raises(IndexError, match=r"state is -1: expected a state id 0\.\.\d+"):
        field.state_name(-1)
    with pytest.raises(IndexError, match=r"state is \d+: expected a state id"):
        field.state_name(len(field.state_cost))
    with pytest.raises(TypeError, match="state is 1.5: expected an integer state id"):
        field.state_name(1.5)
    assert field.state_name(0) == board.names[0]


def test_target_levels_are_checked_and_never_overflow(board):
    with pytest.raises(ValueError, match=r"a field of fire: target_levels is 40000: expected 0\.\.20"):
        field_of_fire(board, "71I4", target_levels=40000)
    with pytest.raises(TypeError, match="target_levels is 0.5: expected an integer level"):
        field_of_fire(board, "71I4", target_levels=0.5)
    deep = field_of_fire(board, "71I4", target_levels=20)
    capped = field_of_fire(board, "71I4", target_levels=2)   # every hex of the default map has at most 2 upper levels
    assert np.array_equal(deep.visible, capped.visible)


def test_the_shared_helpers_directly(board):
    assert hex_array(board, np.array([3, 1], np.int64), "h").tolist() == [3, 1]
    assert hex_array(board, np.array(["71I4"]), "h").tolist() == [board.index("71I4")]
    hexes = hex_array(board, ["71P5"], "h")
    assert level_array(board, np.array([2], np.uint8), hexes, "lv").tolist() == [2]
    with pytest.raises(TypeError, match="lv has dtype bool: expected integer Location levels"):
        level_array(board, np.array([True]), hexes, "lv")
    with pytest.raises(ValueError, match=re.escape("lv[0] is 4 in 71P5: expected 0..3, a Location level of that hex")):
        level_array(board, [4], hexes, "lv")
    h, lv = location_arrays(board, ["71P5h2", "71I4"])
    assert h.tolist() == [board.index("71P5"), board.index("71I4")] and lv.tolist() == [2, 0]
    with pytest.raises(TypeError, match="viewer is 1.5: expected a hex or Location name"):
        kernel.los(board, 1.5, 2)


def test_one_location_takes_one_level_not_an_array(board):
    # found by the fuzz suite: los() accepted an array as the viewer's level
    with pytest.raises(TypeError, match=re.escape("level is array([0]): expected an integer Location level")):
        los(board, 0, 1, level=np.array([0]))


# --- every public function that takes hexes or Locations: a hex name, a Location name, an index, an array, a bad value

def _state(board):
    state = kernel.GameState(board)
    state.place_unit("72M6", side="axis")
    return state


#: name -> call(board, given): ``given`` is what the function gets where it takes hexes or Locations (one, or a
#: one-element sequence where it takes many).  The test below gives each of them the same five values.
EVERY_PUBLIC_FUNCTION = {
    "los (viewer)": lambda b, g: kernel.los(b, _one(g), "71I6"),
    "los (target)": lambda b, g: kernel.los(b, "71I6", _one(g)),
    "can_see (viewer)": lambda b, g: kernel.can_see(b, _one(g), "71I6"),
    "can_see (target)": lambda b, g: kernel.can_see(b, "71I6", _one(g)),
    "los_pairs (sources)": lambda b, g: kernel.los_pairs(b, g, ["71I6"] * len(g)),
    "los_pairs (targets)": lambda b, g: kernel.los_pairs(b, ["71I6"] * len(g), g),
    "los_pairs product": lambda b, g: kernel.los_pairs(b, g, ["71I6", "71I7"], product=True),
    "los_matrix": lambda b, g: kernel.los_matrix(b, g),
    "los_matrix_blocks": lambda b, g: next(kernel.los_matrix_blocks(b, g)),
    "los_matrix_rows": lambda b, g: kernel.los_matrix_rows(b, 0, 1, g),
    "visibility_bits": lambda b, g: kernel.visibility_bits(b, g),
    "field_of_fire": lambda b, g: kernel.field_of_fire(b, g),
    "coverage (targets)": lambda b, g: kernel.coverage(b, g),
    "fields_of_fire": lambda b, g: kernel.fields_of_fire(b, g),
    "threat_map": lambda b, g: kernel.threat_map(b, g),
    "HeldLOSMatrix": lambda b, g: kernel.HeldLOSMatrix(b, kernel.GameState(b), g),
    "movement_field": lambda b, g: kernel.movement_field(b, g, allowance=2),
    "movement_field (entry_hexes)": lambda b, g: kernel.movement_field(b, None, entry_hexes=_hexes(g), allowance=2),
    "MovementField.path_to": lambda b, g: kernel.movement_field(b, "71I6", allowance=2).path_to(_one(g)),
    "MovementField.cost_at": lambda b, g: kernel.movement_field(b, "71I6", allowance=2).cost_at(_one(g)),
    "reachable": lambda b, g: kernel.reachable(b, g, allowance=2),
    "movement_matrix": lambda b, g: kernel.movement_matrix(b, _hexes(g), allowance=2),
    "movement_graph": lambda b, g: kernel.movement_graph(b, g, allowance=2),
    "concealed_movement (sources)": lambda b, g: kernel.concealed_movement(b, g, ["72M6"], allowance=2),
    "concealed_movement (watchers)": lambda b, g: kernel.concealed_movement(b, "71I6", g, allowance=2),
    "GameState.place_smoke": lambda b, g: kernel.GameState(b).place_smoke(_hex(g), 3),
    "GameState.place_unit": lambda b, g: kernel.GameState(b).place_unit(_hex(g), side="allies"),
    "GameState.move_unit": lambda b, g: _state(b).move_unit("72M6", _hex(g)),
    "Counters.on": lambda b, g: kernel.Counters.on(b, vehicles=_hexes(g)),
    "board.index": lambda b, g: b.index(_hex(g)),
    "board.distance": lambda b, g: b.distance(_hex(g), "71I6"),
}

#: What the five kinds of value are, as the calls above get them: a Location name gives the Location's hex where a
#: function takes only hexes (``_hex``), and a bad value is refused by each.
GIVEN = {"hex name": ["71P5"], "Location name": ["71P5h1"], "index": [7], "array": np.array([7, 9]),
         "bad value": [1.5]}


def _one(given):
    return given[0]


def _hex(given):
    """A function that takes a hex (not a Location): the Location name's hex."""
    value = given[0]
    return value.split("h")[0] if isinstance(value, str) else value


def _hexes(given):
    return [_hex([v]) for v in given] if not isinstance(given, np.ndarray) else given


@pytest.mark.parametrize("kind", GIVEN)
@pytest.mark.parametrize("call", EVERY_PUBLIC_FUNCTION.values(), ids=EVERY_PUBLIC_FUNCTION.keys())
def test_every_public_function_takes_names_locations_indices_and_arrays(board, call, kind):
    given = GIVEN[kind]
    if kind == "bad value":
        with pytest.raises(TypeError, match=r"1\.5"):
            call(board, given)
    else:
        call(board, given)


def test_every_public_function_that_takes_hexes_is_listed():
    """The table above names every public function whose parameters are hexes or Locations."""
    import inspect

    roles = {"viewer", "target", "sources", "targets", "watchers", "entry_hexes"}
    takes_hexes = sorted(name for name in kernel.__all__ if callable(getattr(kernel, name))
                         and not inspect.isclass(getattr(kernel, name))
                         and roles & set(inspect.signature(getattr(kernel, name)).parameters))
    listed = {key.split(" ")[0] for key in EVERY_PUBLIC_FUNCTION}
    assert [name for name in takes_hexes if name not in listed] == []


def test_a_location_name_carries_its_level_everywhere(board):
    """``"71P5h1"`` and ``("71P5", level 1)`` are one Location, in every function that takes Locations."""
    upper = board.location("71P5h1")
    assert kernel.los(board, "71P5h1", "71I6") == kernel.los(board, "71P5", "71I6", level=1)
    assert np.array_equal(kernel.field_of_fire(board, "71P5h1").hindrance,
                          kernel.field_of_fire(board, "71P5", levels=1).hindrance)
    assert np.array_equal(kernel.fields_of_fire(board, ["71P5h1"]).hindrance,
                          kernel.fields_of_fire(board, [upper[0]], levels=[1]).hindrance)
    assert kernel.los_pairs(board, ["71P5h1"], ["71I6"]).to_dict() == \
        kernel.los_pairs(board, [upper[0]], ["71I6"], levels=1).to_dict()
    with pytest.raises(ValueError, match=r"levels\[0\]=2 contradicts the Location '71P5h1'"):
        kernel.field_of_fire(board, ["71P5h1"], levels=2)


def test_arrays_of_location_names_are_locations(board):
    hexes, levels = location_arrays(board, np.array(["71P5h1", "71I4", "71P5h2"]))
    assert hexes.tolist() == [board.index("71P5"), board.index("71I4"), board.index("71P5")]
    assert levels.tolist() == [1, 0, 2]
    fire = kernel.fields_of_fire(board, np.array(["71P5h1", "71I4"], dtype=object))
    assert fire.levels.tolist() == [1, 0]


@pytest.mark.parametrize("call", [
    lambda b: kernel.Counters.on(b, vehicles=["71P5h1"]),
    lambda b: b.index("71P5h1"),
    lambda b: kernel.movement_field(b, "71I4", entry_hexes=["71P5h1"]),
], ids=["Counters.on", "board.index", "entry_hexes"])
def test_where_a_hex_is_meant_a_location_is_refused_by_name(board, call):
    with pytest.raises(ValueError, match=re.escape("'71P5h1' is a Location (level 1 of 71P5): expected a hex here, "
                                                   "like '71P5'")):
        call(board)


def test_smoke_takes_a_location(board):
    """SMOKE is in a Location (A24): place_smoke and Counters.on take one (tests/test_smoke_locations.py)."""
    state = kernel.GameState(board)
    state.place_smoke("71P5h1", 3)
    assert int(state.smoke_base[board.index("71P5")]) == 1
    assert int(kernel.Counters.on(board, smoke={"71P5h1": 3}).smoke_base[board.index("71P5")]) == 1


def test_movement_matrix_takes_ground_locations_as_its_sources(board):
    assert np.array_equal(movement_matrix(board, ["71P5h0", 5], unit="infantry", allowance=2),
                          movement_matrix(board, ["71P5", 5], unit="infantry", allowance=2))
    with pytest.raises(ValueError, match=r"movement_matrix: sources\[1\] is 71P5h1: expected hexes"):
        movement_matrix(board, [5, "71P5h1"], unit="infantry")
