"""A game bot's turn loop as a benchmark, and the game-loop figures it asks for, all in one run.

The loop (seeded, the bundled four-board scenario): 10 infantry units a
side; each turn one side moves its 10 units (a movement field each, within
4 MF, with the counters), places and removes SMOKE and vehicle counters,
checks LOS from each of its units to each enemy (one ``los_pairs`` call,
``product=True``: 10 x 10 pairs) and computes its 10 fields of fire (one ``fields_of_fire`` call).
200 turns under ``make bench``, 20 in short mode (``make test``).

Reported: the time per turn, and the fraction of it spent outside the
kernels, from a second run of the same game (at least 100 turns: the share
of 20 turns, 14 ms, was noisy) in which every kernel call (numba's dispatch
included) is timed; the counters ratios (a call with a
prepared :class:`~kernel.GameState` against the same call without counters),
a SMOKE placed plus a held matrix refreshed against a full ``los_matrix``,
movement with SMOKE against without, and ``can_see`` against ``los`` (these
single calls with one kernel thread; the loop and the refresh with one
thread and with every thread).
"""

from __future__ import annotations

import time
from functools import partial

import numpy as np
import pytest

import kernel
from bench.conftest import FIGURES, RATIOS, TIMINGS, measure
from kernel import GameState, HeldLOSMatrix, can_see, fields_of_fire, los, los_matrix, los_pairs, movement_field

SEED = 14
UNITS = 10
ALLOWANCE = 4
TURN = "bot loop: one turn"


def starting_positions(board, rng):
    """Two sides of ``UNITS`` distinct ground hexes an infantry unit can move from (seeded)."""
    open_hexes = np.flatnonzero(np.isfinite(kernel.movement_tables(board, unit="infantry").cot))
    chosen = rng.choice(open_hexes, 2 * UNITS, replace=False).tolist()
    return [chosen[:UNITS], chosen[UNITS:]]


def play(board, turns: int, seed: int = SEED) -> dict:
    """Play ``turns`` turns of the bot loop; returns a summary (checked by the test, so the work is used)."""
    rng = np.random.default_rng(seed)
    sides = starting_positions(board, rng)
    state = GameState(board)
    for side in sides:
        for h in side:
            state.place_unit(int(h))
    smoke_hexes, vehicle_hexes = [], []
    seen_pairs = 0
    for turn in range(turns):
        mine, enemy = sides[turn % 2], sides[1 - turn % 2]
        draws = rng.random(UNITS).tolist()  # the turn's random choices, drawn at once (a bot's own cost)
        for k, h in enumerate(mine):  # 1. move each unit somewhere it can reach
            field = movement_field(board, h, unit="infantry", allowance=ALLOWANCE, counters=state)
            options = np.flatnonzero(field.cost <= ALLOWANCE)
            target = int(options[int(draws[k] * options.size)])
            if target != h:
                state.move_unit(h, target)
                mine[k] = target
        smoke, drm, vehicle = (int(x) for x in rng.integers((0, 2, 0), (UNITS, 4, len(board))))
        smoke = mine[smoke]  # 2. counters: a SMOKE grenade, a vehicle, old ones go
        if not state.smoke[smoke]:
            state.place_smoke(smoke, drm)
            smoke_hexes.append(smoke)
        if len(smoke_hexes) > 4:
            state.remove_smoke(smoke_hexes.pop(0))
        state.place_vehicle(vehicle)
        vehicle_hexes.append(vehicle)
        if len(vehicle_hexes) > 3:
            state.remove_vehicle(vehicle_hexes.pop(0))
        pairs = los_pairs(board, mine, enemy, product=True, counters=state)  # 3. (UNITS x UNITS)
        seen_pairs += int(pairs.visible.sum())
        fields_of_fire(board, mine, counters=state)  # 4. each unit's own field of fire
    return {"seen pairs": seen_pairs, "state version": state.version}


KERNELS = [
    ("kernel.movement._kernels", "field_kernel"),
    ("kernel.line_of_sight._hex.pairs", "los_pairs_kernel"),
    ("kernel.line_of_sight._hex.pairs", "evaluate_pairs"),  # los_pairs of one chunk runs it directly
    ("kernel.line_of_sight._hex.queries", "fields_kernel"),
    ("kernel.line_of_sight._sweep.rows", "source_fields_kernel"),  # fields_of_fire and threat maps
    ("kernel.line_of_sight._hex.counter_cells", "write_counter_cells"),  # a GameState's LOS tables brought up to date
    ("kernel.movement._kernels", "write_state_smoke"),  # and its movement SMOKE costs
    ("kernel.line_of_sight._hex.cover", "cover_and_range"),  # the bulk results' cover and range
]


def time_in_kernels(board, turns: int) -> tuple[float, float]:
    """(total seconds, seconds inside kernel calls) of one instrumented run of ``turns`` turns."""
    import importlib

    spent = [0.0]
    originals = []
    for module_name, name in KERNELS:
        module = importlib.import_module(module_name)
        original = getattr(module, name)
        originals.append((module, name, original))

        def timed(*args, _original=original):
            start = time.perf_counter()
            try:
                return _original(*args)
            finally:
                spent[0] += time.perf_counter() - start

        setattr(module, name, timed)
    try:
        start = time.perf_counter()
        play(board, turns)
        total = time.perf_counter() - start
    finally:
        for module, name, original in originals:
            setattr(module, name, original)
    return total, spent[0]


@pytest.mark.parametrize("threads", ["1 thread", "all threads"])
def test_bot_loop(benchmark, default_board, threads):
    """The loop with one kernel thread (what a bot sharing the machine should use: parallel kernels
    wait on each other's threads when a neighbour process holds a core) and with every thread."""
    turns = 20 if benchmark.disabled else 200
    previous = kernel.set_thread_count(1 if threads == "1 thread" else kernel.max_threads())
    try:
        summary = play(default_board, 2)  # warm-up, and the loop does its work: units see each other
        assert summary["state version"] > 2 * UNITS
        seconds = measure(benchmark, f"bot loop: {turns} turns, {threads}", lambda: play(default_board, turns),
                          rounds=2)
        total, inside = time_in_kernels(default_board, max(turns, 100))  # a share of 20 turns (14 ms) was noisy
    finally:
        kernel.set_thread_count(previous)
    TIMINGS[f"{TURN}, {threads}"] = seconds / turns
    FIGURES[f"bot loop, {threads}: time outside the kernels (target <= 30 %)"] = (100 * (1 - inside / total), "%")
    FIGURES[f"bot loop, {threads}: per turn (target <= 3 ms)"] = (1e3 * seconds / turns, "ms")


@pytest.fixture(scope="module")
def game(default_board):
    """A game in progress: 20 units and a few SMOKE and vehicle counters, prepared."""
    board = default_board
    rng = np.random.default_rng(SEED)
    state = GameState(board)
    for h in np.concatenate(starting_positions(board, rng)):
        state.place_unit(int(h))
    for h in rng.choice(len(board), 4, replace=False):
        state.place_smoke(int(h), 3)
    state.place_smoke("71J5", 2)  # on the way of the benchmark's movement field (71I4, 4 MF)
    for h in rng.choice(len(board), 3, replace=False):
        state.place_vehicle(int(h))
    return board, state, rng


PAIRS, PAIRS_STATE = "los_pairs, 100 pairs, no counters", "los_pairs, 100 pairs, prepared GameState"
FIRE, FIRE_STATE = "field_of_fire, one source, no counters", "field_of_fire, one source, prepared GameState"
MOVE, MOVE_STATE = "movement_field 4 MF, no counters", "movement_field 4 MF, GameState with SMOKE"
FULL, REFRESH = "los_matrix, full, with the GameState", "place one SMOKE + refresh held 1,332 x 1,332 matrix"
ONE, CAN_SEE = "los(), one pair, 71I4 -> 71Q5", "can_see(), one pair by index (target <= 3 us)"

#: name -> (call on (board, state, pairs), rounds); pytest-benchmark times one call per test (for the names
#: in ITERATIONS the entry returns the call to time)
CALLS = {
    PAIRS: (lambda board, state, pairs: los_pairs(board, *pairs), 50),
    PAIRS_STATE: (lambda board, state, pairs: los_pairs(board, *pairs, counters=state), 50),
    FIRE: (lambda board, state, pairs: kernel.field_of_fire(board, "71I4"), 30),
    FIRE_STATE: (lambda board, state, pairs: kernel.field_of_fire(board, "71I4", counters=state), 30),
    MOVE: (lambda board, state, pairs: movement_field(board, "71I4", unit="infantry", allowance=ALLOWANCE), 50),
    MOVE_STATE: (lambda board, state, pairs: movement_field(board, "71I4", unit="infantry", allowance=ALLOWANCE, counters=state), 50),
    ONE: (lambda board, state, pairs: partial(los, board, "71I4", "71Q5"), 50),
    CAN_SEE: (lambda board, state, pairs: partial(can_see, board, 16, 1000, counters=state), 50),
}
#: calls timed together per round (the single queries: a few microseconds each, where one round of one
#: call would time the timer too); the call itself is what the entry builds, without a lambda around it
ITERATIONS = {ONE: 100, CAN_SEE: 1000}


@pytest.mark.parametrize("name", list(CALLS))
def test_game_loop_call(benchmark, game, name):
    """One kernel thread, so that a neighbour process holding a core (which stalls a parallel
    call for a time slice) does not decide the ratios between calls doing the same work."""
    board, state, rng = game
    pairs = tuple(np.random.default_rng(SEED).integers(len(board), size=(2, 100)))
    call, rounds = CALLS[name]
    previous = kernel.set_thread_count(1)
    try:
        if name in ITERATIONS:
            measure(benchmark, name, call(board, state, pairs), rounds=rounds, iterations=ITERATIONS[name])
        else:
            measure(benchmark, name, lambda: call(board, state, pairs), rounds=rounds)
    finally:
        kernel.set_thread_count(previous)


@pytest.fixture(params=["1 thread", "all threads"])
def threads(request):
    """Run a test with one kernel thread, then with every thread."""
    previous = kernel.set_thread_count(1 if request.param == "1 thread" else kernel.max_threads())
    yield request.param
    kernel.set_thread_count(previous)


def test_full_matrix(benchmark, game, threads):
    board, state, _ = game
    measure(benchmark, f"{FULL}, {threads}", lambda: los_matrix(board, counters=state), rounds=5)


def test_refresh_after_one_smoke(benchmark, game, threads):
    board, state, rng = game
    held = HeldLOSMatrix(board, state)
    spots = [int(h) for h in rng.choice(np.flatnonzero(state.smoke == 0), 64, replace=False)]
    count = [0]

    def place_and_refresh():
        h = spots[count[0] % len(spots)]
        if state.smoke[h]:
            state.remove_smoke(h)
        else:
            state.place_smoke(h, 3)
        count[0] += 1
        return held.refresh()

    measure(benchmark, f"{REFRESH}, {threads}", place_and_refresh, rounds=20)
    assert np.array_equal(held.matrix, los_matrix(board, counters=state))


def test_game_loop_ratios(game):
    board, state, _ = game
    assert can_see(board, 16, 1000, counters=state) == los(board, 16, 1000, counters=state).visible
    RATIOS.append((PAIRS_STATE, PAIRS, "los_pairs prepared counters / none (target <= 1.2)", None))
    RATIOS.append((FIRE_STATE, FIRE, "field_of_fire prepared counters / none (target <= 1.2)", None))
    RATIOS.append((MOVE_STATE, MOVE, "movement_field with SMOKE / without (target <= 1.5)", None))
    for threads in ("1 thread", "all threads"):
        RATIOS.append((f"{REFRESH}, {threads}", f"{FULL}, {threads}",
                       f"one SMOKE + refresh / full los_matrix, {threads} (target <= 0.10)", None))
    RATIOS.append((CAN_SEE, ONE, "can_see / los, one pair", None))
