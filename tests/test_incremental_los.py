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
    for turn in range(6):
        every_kind_of_change(board, state, rng, 3)   # SMOKE at upper Locations among them
        if state.smoke[hexes[-1]]:  # SMOKE in an end's hex, in and out: at its ground, then at its Location
            state.remove_smoke(int(hexes[-1]))
        else:
            state.place_smoke(board.location_name(int(hexes[-1]), int(levels[-1]) * (turn % 4 == 2)), 3)
        held.refresh()
        assert np.array_equal(held.matrix, los_matrix(board, hexes, levels=levels, counters=state))


def test_only_pairs_through_the_changed_hex_are_recomputed():
    board = kernel.load("default")
    state = GameState(board)
    held = HeldLOSMatrix(board, state)
    j5 = board.index("71J5")
    state.place_smoke("71J5", 3)
    recomputed = held.refresh()
    assert 0 < recomputed < len(board) ** 2 // 100
    # SMOKE placed only adds hindrance: the pairs already blocked are not evaluated, every other pair with 71J5
    # as an end is
    before = los_matrix(board)
    assert recomputed >= int((before[j5] != kernel.BLOCKED).sum()) - 1
    state.remove_smoke("71J5")  # taking it away may unblock pairs: every pair through it is evaluated
    assert held.refresh() > recomputed
    assert np.array_equal(held.matrix, before)


def every_kind_of_change(board, state, rng, count):
    """``count`` random changes of every kind a GameState has, moves and changes undone included."""
    n = len(board)
    for _ in range(count):
        h = int(rng.integers(n))
        kind = int(rng.integers(11))
        smoke, vehicles, units = (np.flatnonzero(a) for a in (state.smoke, state.vehicles, state.units))
        if kind == 0 and not state.smoke[h]:
            state.place_smoke(h, int(rng.integers(1, 4)), int(rng.integers(0, 3)))
        elif kind == 1 and smoke.size:
            state.remove_smoke(int(rng.choice(smoke)))
        elif kind == 2 and smoke.size and not state.smoke[h]:
            state.move_smoke(int(rng.choice(smoke)), h)
        elif kind == 3:
            state.place_vehicle(h)
        elif kind == 4 and vehicles.size:
            state.move_vehicle(int(rng.choice(vehicles)), h)
        elif kind == 5 and vehicles.size:
            state.remove_vehicle(int(rng.choice(vehicles)))
        elif kind == 6:
            state.place_unit(h, side="axis")
        elif kind == 7 and units.size:
            state.move_unit(int(rng.choice(units)), h)
        elif kind == 8 and units.size:
            g = int(rng.choice(units))
            state.move_unit(g, h)
            state.move_unit(h, g)  # there and back: nothing changed for the tables
        elif kind == 9 and ((board.top_level > 0) & (state.smoke == 0)).any():   # SMOKE at an upper Location
            g = int(rng.choice(np.flatnonzero((board.top_level > 0) & (state.smoke == 0))))
            level = int(rng.integers(1, int(board.top_level[g]) + 1))
            state.place_smoke(board.location_name(g, level), int(rng.integers(1, 4)), int(rng.integers(0, 3)))
        elif kind == 10 and smoke.size:   # SMOKE moved to another Location of its own hex
            g = int(rng.choice(smoke))
            state.move_smoke(g, board.location_name(g, int(rng.integers(0, int(board.top_level[g]) + 1))))


@pytest.mark.parametrize("seed", range(3), ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("ruleset", ["asl", "valor-victory", "ccn"])
def test_refresh_equals_a_fresh_matrix_after_every_kind_of_change(ruleset, seed):
    board = random_board(ruleset, 14, 10, seed=20 + seed)
    rng = np.random.default_rng(200 + seed)
    state = GameState(board)
    held = HeldLOSMatrix(board, state)
    for turn in range(8):
        every_kind_of_change(board, state, rng, int(rng.integers(1, 6)))
        held.refresh()
        assert np.array_equal(held.matrix, los_matrix(board, counters=state)), turn


@pytest.mark.parametrize("ruleset, blocking", [("asl", False), ("valor-victory", False), ("ccn", True)])
def test_unit_moves_recompute_nothing_where_units_do_not_block(ruleset, blocking):
    """The ruleset's data says whether units block LOS (units_block_los): where they do not, a turn of unit
    moves recomputes no pair and rewrites no prepared table."""
    board = random_board(ruleset, 14, 10, seed=5)
    assert bool(board.ruleset.rules["units_block_los"]) is blocking
    state = GameState(board, sides=("allies", "axis"))
    rng = np.random.default_rng(5)
    units = [int(h) for h in rng.choice(len(board), 8, replace=False)]
    for h in units:
        state.place_unit(h, side="allies")
    held = HeldLOSMatrix(board, state)
    kernel.field_of_fire(board, 0, counters=state)  # the state's prepared tables, built
    tables = [array.copy() for array in kernel.line_of_sight.counters.prepared_tables(board, state)[:3]]
    for turn in range(3):
        for k, h in enumerate(units):
            free = np.flatnonzero(~state.units)
            units[k] = int(rng.choice(free))
            state.move_unit(h, units[k])
        recomputed = held.refresh()
        assert (recomputed > 0) is blocking, turn
        assert np.array_equal(held.matrix, los_matrix(board, counters=state))
    prepared = kernel.line_of_sight.counters.prepared_tables(board, state)[:3]
    assert all(np.array_equal(a, b) for a, b in zip(tables, prepared)) is not blocking
    if not blocking:
        assert held.pairs_recomputed == 0 and held.rebuilds == 0 and held.refreshes == 3


def test_a_counter_put_back_recomputes_nothing():
    board = kernel.load("default")
    state = GameState(board)
    state.place_smoke("71J5", 3)
    state.place_vehicle("71K5")
    held = HeldLOSMatrix(board, state)
    state.move_smoke("71J5", "71J6")
    state.move_smoke("71J6", "71J5")
    state.move_vehicle("71K5", "71K6")
    state.move_vehicle("71K6", "71K5")
    assert held.refresh() == 0
    assert np.array_equal(held.matrix, los_matrix(board, counters=state))


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
    """So many changed hexes that their pairs cost more than a new matrix: the refresh computes one
    (and counts every entry); one change later it goes pair by pair again."""
    board = random_board("asl", 16, 12, seed=3)
    state = GameState(board)
    held = HeldLOSMatrix(board, state)
    for h in range(0, len(board), 3):
        state.place_smoke(h, 2)
    assert held.refresh() == len(board) ** 2 and held.rebuilds == 1
    assert np.array_equal(held.matrix, los_matrix(board, counters=state))
    state.remove_smoke(0)
    assert 0 < held.refresh() < len(board) ** 2 and held.rebuilds == 1
    assert np.array_equal(held.matrix, los_matrix(board, counters=state))


def test_the_rebuild_threshold_decides(monkeypatch):
    """The costs decide between the pairs and a new matrix: a listing so dear that no pair is worth it makes
    every refresh a new matrix, and pairs so dear that the listing stops at the first makes it too."""
    from kernel.line_of_sight import incremental

    board = random_board("asl", 12, 10, seed=4)
    state = GameState(board)
    held = HeldLOSMatrix(board, state)
    state.place_smoke(5, 3)
    monkeypatch.setattr(incremental, "VISIT_COST", 1e9)
    assert held.refresh() == len(board) ** 2 and held.rebuilds == 1
    assert np.array_equal(held.matrix, los_matrix(board, counters=state))
    monkeypatch.setattr(incremental, "VISIT_COST", 0.0)
    monkeypatch.setattr(incremental, "LISTED_SHARE", {True: 0.0, False: 0.0})
    monkeypatch.setattr(incremental, "PAIR_COST", {model: len(board) ** 2 for model in incremental.PAIR_COST})
    state.remove_smoke(5)
    assert held.refresh() == len(board) ** 2 and held.rebuilds == 2
    assert np.array_equal(held.matrix, los_matrix(board, counters=state))
