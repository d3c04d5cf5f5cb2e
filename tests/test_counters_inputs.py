"""Counters arrays are checked, not cast: None, strings and floats are no bools; counters placed by hex name on
one board are refused on another (as a GameState of another board is)."""

from __future__ import annotations

import numpy as np
import pytest

import kernel


@pytest.fixture(scope="module")
def board():
    return kernel.load("71")


@pytest.mark.parametrize("values, message", [
    (lambda n: np.array([None] * n), r"counters.units has dtype object: expected bool \(or integers 0 and 1\)"),
    (lambda n: np.array(["yes"] * n), r"counters.units has dtype <U3: expected bool"),
    (lambda n: np.full(n, 0.5), r"counters.units has dtype float64: expected bool"),
    (lambda n: np.full(n, 2), r"counters.units is 2 in 71A1: expected bool \(or 0 and 1\)"),
    (lambda n: np.full(n, -1), r"counters.units is -1 in 71A1: expected bool"),
], ids=["none", "strings", "floats", "two", "minus-one"])
def test_unit_masks_must_be_bool(board, values, message):
    with pytest.raises(ValueError, match=message):
        kernel.GameState(board, kernel.Counters(units=values(len(board))))


@pytest.mark.parametrize("values, message", [
    (lambda n: np.array([None] * n), r"counters.vehicles has dtype object: expected integers"),
    (lambda n: np.array(["yes"] * n), r"counters.vehicles has dtype <U3: expected integers"),
    (lambda n: np.full(n, 0.5), r"counters.vehicles has dtype float64: expected integers"),
    (lambda n: np.full(n, -1), r"counters.vehicles is -1 in 71A1: expected 0..100"),
    (lambda n: np.full(n, 101), r"counters.vehicles is 101 in 71A1: expected 0..100"),
], ids=["none", "strings", "floats", "minus-one", "too-many"])
def test_vehicle_counts_must_be_counts(board, values, message):
    with pytest.raises(ValueError, match=message):
        kernel.los_matrix(board, counters=kernel.Counters(vehicles=values(len(board))))
    with pytest.raises(ValueError, match=message):
        kernel.GameState(board, kernel.Counters(vehicles=values(len(board))))


def test_a_hex_named_too_often_is_refused(board):
    with pytest.raises(ValueError, match=r"vehicles: 71J9 is named 101 times: expected at most 100 vehicles in a hex"):
        kernel.Counters.on(board, vehicles=["71J9"] * 101)
    state = kernel.GameState(board, kernel.Counters.on(board, vehicles=["71J9"] * 100))
    with pytest.raises(ValueError, match=r"71J9 holds 100 vehicles: expected at most 100"):
        state.place_vehicle("71J9")


def test_zero_one_integers_are_bools(board):
    mask = np.zeros(len(board), np.int64)
    mask[board.index("71J9")] = 1
    as_int = kernel.los_matrix(board, counters=kernel.Counters(vehicles=mask))
    as_bool = kernel.los_matrix(board, counters=kernel.Counters(vehicles=mask.astype(bool)))
    assert (as_int == as_bool).all()


def test_counters_placed_on_one_board_are_refused_on_another(board):
    other = kernel.load("72")
    assert len(other) == len(board)
    counters = kernel.Counters.on(board, smoke={"71I9": 3})
    with pytest.raises(ValueError, match=r"counters were placed by hex name on another board \(.*\): expected "
                                         r"counters made for this board"):
        kernel.los_matrix(other, counters=counters)
    # the same map loaded again is the same board
    again = kernel.Counters.on(kernel.load("71"), smoke={"71I9": 3})
    assert (kernel.los_matrix(board, counters=again) == kernel.los_matrix(board, counters=counters)).all()
    state = kernel.GameState(board, counters)
    assert (kernel.los_matrix(board, counters=state.counters()) == kernel.los_matrix(board, counters=counters)).all()
    with pytest.raises(ValueError, match=r"placed by hex name on another board"):
        kernel.los_matrix(other, counters=state.counters())
