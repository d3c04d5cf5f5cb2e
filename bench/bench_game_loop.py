"""A game bot's turns as a benchmark, and the game-loop figures it asks for, all in one run.

The bot is the README's (``bench/bot.py``: README calls only, 8 infantry
units a side, 20 turns from a seeded start, each turn a threat map,
``los_pairs(..., product=True)``, fields of fire, concealed moves and
movement fields, SMOKE, a ``HeldLOSMatrix`` refreshed).  Timed with one
kernel thread and with the default thread setting; ``bench/bench_threads.py``
times it, and every call of this file, idle and with one core busy too.

Reported: the time per turn, and the fraction of it spent outside the
kernels, from a second run of the same game in which every kernel call
(numba's dispatch included) is timed; the counters ratios (a call with a
prepared :class:`~kernel.GameState` against the same call without counters),
a SMOKE placed plus a held matrix refreshed against a full ``los_matrix``,
movement with SMOKE against without, and ``can_see`` against ``los`` (these
single calls with one kernel thread).
"""

from __future__ import annotations

import os
import sys
import time
from functools import partial

import numpy as np
import pytest

import kernel
from bench.conftest import FIGURES, RATIOS, TIMINGS, measure
from kernel import GameState, HeldLOSMatrix, can_see, los, los_matrix, los_pairs, movement_field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bot  # noqa: E402  (bench/bot.py: the README's bot; bench/ is on the path of its own tests)

SEED = 14
UNITS = 10
ALLOWANCE = 4
TURN = "README bot: one turn"


def starting_positions(board, rng):
    """Two sides of ``UNITS`` distinct ground hexes an infantry unit can move from (seeded)."""
    open_hexes = np.flatnonzero(np.isfinite(kernel.movement_tables(board, unit="infantry").cot))
    chosen = rng.choice(open_hexes, 2 * UNITS, replace=False).tolist()
    return [chosen[:UNITS], chosen[UNITS:]]


#: The kernels a bot turn runs, as the modules that call them look them up (module, name).
KERNELS = [
    ("kernel.movement._kernels", "field_kernel"),
    ("kernel.movement.fields", "within_allowance_kernel"),  # the concealed moves' priced searches
    ("kernel.line_of_sight._hex.pairs", "los_pairs_serial"),  # los_pairs of one chunk
    ("kernel.line_of_sight._hex.pairs", "los_pairs_kernel"),
    ("kernel.line_of_sight._sweep.run", "source_fields_kernel"),  # fields_of_fire and threat maps
    ("kernel.line_of_sight._hex.refresh", "refresh_kernel"),  # the held matrix
    ("kernel.line_of_sight._hex.counter_cells", "write_counter_cells"),  # a GameState's LOS tables brought up to date
    ("kernel.movement._kernels", "write_state_smoke"),  # and its movement SMOKE costs
    ("kernel.line_of_sight._hex.cover", "cover_and_range"),  # the bulk results' cover and range
]


class Timed:
    """A kernel whose calls (and ``run(threads, ...)`` calls) add their seconds to ``spent[0]``."""

    def __init__(self, original, spent):
        self.original, self.spent = original, spent

    def __call__(self, *args):
        start = time.perf_counter()
        try:
            return self.original(*args)
        finally:
            self.spent[0] += time.perf_counter() - start

    def run(self, threads, *args):
        start = time.perf_counter()
        try:
            return self.original.run(threads, *args)
        finally:
            self.spent[0] += time.perf_counter() - start

    def __getattr__(self, name):
        return getattr(self.original, name)


def time_in_kernels(board, turns: int) -> tuple[float, float]:
    """(total seconds, seconds inside kernel calls) of one instrumented game of ``turns`` turns."""
    import importlib

    spent = [0.0]
    originals = []
    for module_name, name in KERNELS:
        module = importlib.import_module(module_name)
        original = getattr(module, name)
        originals.append((module, name, original))

        setattr(module, name, Timed(original, spent))
    try:
        total = bot.time_turns(board, turns, 1) * turns
    finally:
        for module, name, original in originals:
            setattr(module, name, original)
    return total, spent[0]


@pytest.mark.parametrize("threads", ["1 thread", "default"])
def test_bot_loop(benchmark, default_board, threads):
    """The README's bot with one kernel thread and with the default thread setting."""
    rounds = 2 if benchmark.disabled else 5
    previous = kernel.set_thread_count(1 if threads == "1 thread" else None)
    try:
        summary = bot.play(default_board, 2)  # warm-up, and the bot does its work: units move, fields are seen
        assert summary["moved"] > 0 and summary["field"] > 0 and summary["state version"] > 2 * bot.UNITS
        seconds = measure(benchmark, f"README bot: {bot.TURNS} turns, {threads}",
                          lambda: bot.time_turns(default_board, bot.TURNS, 1) * bot.TURNS, rounds=rounds)
        total, inside = time_in_kernels(default_board, bot.TURNS)
    finally:
        kernel.set_thread_count(previous)
    TIMINGS[f"{TURN}, {threads}"] = seconds / bot.TURNS
    FIGURES[f"README bot, {threads}: time outside the kernels"] = (100 * (1 - inside / total), "%")
    FIGURES[f"README bot, {threads}: per turn (target <= 5 ms)"] = (1e3 * seconds / bot.TURNS, "ms")


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


@pytest.fixture(params=["1 thread", "default"])
def threads(request):
    """Run a test with one kernel thread, then with the default thread setting."""
    previous = kernel.set_thread_count(1 if request.param == "1 thread" else None)
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
    for threads in ("1 thread", "default"):
        RATIOS.append((f"{REFRESH}, {threads}", f"{FULL}, {threads}",
                       f"one SMOKE + refresh / full los_matrix, {threads} (target <= 0.10)", None))
    RATIOS.append((CAN_SEE, ONE, "can_see / los, one pair", None))
