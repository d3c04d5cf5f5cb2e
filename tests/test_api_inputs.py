"""One validation path for hexes, Locations and levels, shared by every entry point.

``los``, ``los_pairs``, ``los_matrix``, ``los_matrix_blocks``, ``visibility_bits``,
``field_of_fire`` and the movement functions all go through
:mod:`kernel.maps.locations`, so the same mistake gets the same error from each.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import kernel
from kernel import (field_of_fire, los, los_matrix, los_matrix_blocks, los_pairs, movement_field, movement_matrix,
                    visibility_bits)
from kernel.maps.locations import hex_array, level_array, locations


@pytest.fixture(scope="module")
def board():
    return kernel.load("default")


#: Every entry point, called with a bad level ``v`` for the Location 71I4 (a hill hex with no upper levels).
LEVEL_CALLS = {
    "los": lambda b, v: los(b, "71I4", "71I6", level_a=v),
    "los_pairs": lambda b, v: los_pairs(b, ["71I4"], ["71I6"], level_a=v),
    "los_pairs-array": lambda b, v: los_pairs(b, ["71I4"], ["71I6"], level_a=np.array([v])),
    "los_matrix": lambda b, v: los_matrix(b, (["71I4", "71I6"], np.array([v, 0]))),
    "los_matrix_blocks": lambda b, v: next(los_matrix_blocks(b, (["71I4", "71I6"], [v, 0]))),
    "visibility_bits": lambda b, v: visibility_bits(b, (["71I4"], [v])),
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
    with pytest.raises(TypeError, match=r"a holds True: expected hex names like '71I9' or integer indices"):
        los_pairs(board, [True], [1])
    with pytest.raises(TypeError, match="sources is a set: expected a hex or a list of hexes"):
        field_of_fire(board, {1, 2})
    with pytest.raises(ValueError, match=re.escape("locations: level has shape (2,): expected (1,), one level per hex")):
        los_matrix(board, ([1], [0, 0]))


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


def test_target_level_is_checked_and_never_overflows(board):
    with pytest.raises(ValueError, match=r"field_of_fire: target_level is 40000: expected 0\.\.20"):
        field_of_fire(board, "71I4", target_level=40000)
    with pytest.raises(TypeError, match="target_level is 0.5: expected an integer level"):
        field_of_fire(board, "71I4", target_level=0.5)
    deep = field_of_fire(board, "71I4", target_level=20)
    capped = field_of_fire(board, "71I4", target_level=2)   # every hex of the default map has at most 2 upper levels
    assert np.array_equal(deep.visible, capped.visible)


def test_the_shared_helpers_directly(board):
    assert hex_array(board, np.array([3, 1], np.int64), "h").tolist() == [3, 1]
    assert hex_array(board, np.array(["71I4"]), "h").tolist() == [board.index("71I4")]
    hexes = hex_array(board, ["71P5"], "h")
    assert level_array(board, np.array([2], np.uint8), hexes, "lv").tolist() == [2]
    with pytest.raises(TypeError, match="lv has dtype bool: expected integer Location levels"):
        level_array(board, np.array([True]), hexes, "lv")
    with pytest.raises(ValueError, match=re.escape("lv[0] is 3 in 71P5: expected 0..2, a Location level of that hex")):
        level_array(board, [3], hexes, "lv")
    h, lv = locations(board, ["71P5h2", "71I4"])
    assert h.tolist() == [board.index("71P5"), board.index("71I4")] and lv.tolist() == [2, 0]
    with pytest.raises(TypeError, match="hex is 1.5: expected a hex or Location name"):
        kernel.los(board, 1.5, 2)


def test_one_location_takes_one_level_not_an_array(board):
    # found by the fuzz suite: los() accepted level_a=np.array([0])
    with pytest.raises(TypeError, match=re.escape("level_a is array([0]): expected an integer Location level")):
        los(board, 0, 1, level_a=np.array([0]))
