"""Incremental LOS: a held matrix refreshed after counter changes equals a fresh one."""

from __future__ import annotations

import numpy as np
import pytest

import kernel
from kernel import GameState, HeldLOSMatrix, los_matrix, random_board
from tests.test_game_state import random_changes


@pytest.mark.parametrize("seed", range(4), ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("ruleset", ["asl", "valor-victory", "ccn"])
def test_refresh_equals_a_fresh_matrix_on_random_games(ruleset, seed):
    board = random_board(ruleset, 16, 12, seed=seed)
    rng = np.random.default_rng(100 + seed)
    state = GameState(board)
    held = HeldLOSMatrix(board, state)
    n = len(board)
    for turn in range(6):
        random_changes(board, state, rng, int(rng.integers(1, 4)))
        before = held.matrix.copy()
        recomputed = held.refresh()
        fresh = los_matrix(board, counters=state)
        assert np.array_equal(held.matrix, fresh), turn
        assert recomputed < n * n  # not the whole matrix
        assert np.array_equal(before != fresh, held.matrix != before)  # (what changed, changed)
    assert held.refresh() == 0  # nothing changed since


@pytest.mark.parametrize("seed", range(2), ids=lambda s: f"seed{s}")
def test_refresh_over_locations_with_levels(seed):
    board = kernel.load("default")
    rng = np.random.default_rng(seed)
    upper = np.flatnonzero(board.top_level > 0)
    hexes = np.concatenate([rng.choice(len(board), 60, replace=False), upper])
    levels = np.concatenate([np.zeros(60, np.int64), np.minimum(1, board.top_level[upper])])
    state = GameState(board)
    held = HeldLOSMatrix(board, state, hexes, levels=levels)
    for _ in range(3):
        random_changes(board, state, rng, 3)
        if state.smoke[hexes[-1]]:  # SMOKE at an upper Location's hex, in and out
            state.remove_smoke(int(hexes[-1]))
        else:
            state.place_smoke(int(hexes[-1]), 3)
        held.refresh()
        assert np.array_equal(held.matrix, los_matrix(board, hexes, levels=levels, counters=state))


def test_only_pairs_through_the_changed_hex_are_recomputed():
    board = kernel.load("default")
    state = GameState(board)
    held = HeldLOSMatrix(board, state)
    state.place_smoke("71J5", 3)
    recomputed = held.refresh()
    assert 0 < recomputed < len(board) ** 2 // 10
    assert recomputed >= len(board) - 1  # at least every pair with 71J5 as an end


def test_refresh_is_the_same_with_one_thread():
    board = random_board("asl", 16, 12, seed=7)
    results = []
    for threads in (1, kernel.max_threads()):
        previous = kernel.set_thread_count(threads)
        try:
            state = GameState(board)
            held = HeldLOSMatrix(board, state)
            random_changes(board, state, np.random.default_rng(7), 5)
            held.refresh()
            results.append(held.matrix.copy())
        finally:
            kernel.set_thread_count(previous)
    assert np.array_equal(results[0], results[1])


def test_held_matrix_needs_a_game_state():
    board = kernel.load("71")
    with pytest.raises(TypeError, match="state must be a kernel.GameState, not Counters"):
        HeldLOSMatrix(board, kernel.Counters())


def test_many_changes_recompute_the_whole_matrix():
    from kernel.line_of_sight.incremental import FULL_REFRESH_HEXES

    board = random_board("asl", 16, 12, seed=3)
    state = GameState(board)
    held = HeldLOSMatrix(board, state)
    for h in range(FULL_REFRESH_HEXES + 1):
        state.place_smoke(h, 2)
    assert held.refresh() == len(board) ** 2
    assert np.array_equal(held.matrix, los_matrix(board, counters=state))
    state.remove_smoke(0)
    assert held.refresh() < len(board) ** 2  # one change: pair by pair again
    assert np.array_equal(held.matrix, los_matrix(board, counters=state))
