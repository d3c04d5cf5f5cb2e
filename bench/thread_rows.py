"""The game loop's calls at one thread and at the default thread setting, idle and with one core busy.

Every row is a call of the README (``bench/bot.py``'s bot included), timed
in one process under four conditions: ``kernel.set_thread_count(1)`` or the
package's default, each on the machine as it is ("idle": no process of this
bench besides this one) and while another process keeps one core busy (a
``while True: pass`` child).  Like ``bench/bot.py`` it imports only
``kernel`` and numpy, so the same rows time another checkout of the package
(its folder first on ``PYTHONPATH``); ``bench/bench_threads.py`` runs it in
the benchmarks::

    python bench/thread_rows.py [--rounds N] [--rows NAME ...]

It prints one JSON object: per condition, per row, the best seconds of one
call over the rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

import kernel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bot  # noqa: E402  (the README's bot, beside this file)

CONDITIONS = ("1 thread, idle", "default, idle", "1 thread, one core busy", "default, one core busy")


def game(board):
    """The bot's game after four turns (units of both sides on the map, SMOKE), its held matrix and state."""
    state = bot.starting_state(board)
    held = kernel.HeldLOSMatrix(board, state)
    smoke: list = []
    for number in range(4):
        bot.turn(board, state, bot.SIDES[number % 2], number, smoke, held)
    return state, held


def rows(board) -> dict:
    """Row name -> (a call to time, calls per round).  Each call does what its name says, on the bot's game."""
    state, held = game(board)
    rng = np.random.default_rng(41)
    mine, enemies = state.units_of("allies"), state.units_of("axis")
    ten = [int(h) for h in rng.choice(len(board), 10, replace=False)]
    pairs = rng.integers(len(board), size=(2, 100))
    threat = kernel.threat_map(board, counters=state, enemies_of="allies")
    spots = [int(h) for h in rng.choice(np.flatnonzero(state.smoke == 0), 4, replace=False)]

    def timed_refresh() -> float:
        start = time.perf_counter()
        held.refresh()
        return time.perf_counter() - start

    def smoke_refresh():   # at each of four hexes a SMOKE placed, refreshed, removed, refreshed: the mean refresh
        total = 0.0
        for h in spots:
            state.place_smoke(h, 3)
            total += timed_refresh()
            state.remove_smoke(h)
            total += timed_refresh()
        return total / (2 * len(spots))

    def unit_refresh():   # each allied unit moved to a free neighbour and back: the mean refresh
        moves = []
        for h in state.units_of("allies").tolist():
            free = [int(n) for n in board.neighbours[h] if n >= 0 and not state.units[n]]
            if free:
                state.move_unit(h, free[0], side="allies")
                moves.append((h, free[0]))
        there = timed_refresh()
        for h, to in moves[::-1]:
            state.move_unit(to, h, side="allies")
        return (there + timed_refresh()) / 2

    def bot_turn():   # the bot's 20 turns from its start (the held matrix built before the clock): per turn
        return bot.time_turns(board, bot.TURNS, 1)

    return {
        "bot turn (README calls, held matrix refreshed), 20 turns": (bot_turn, 1),
        "HeldLOSMatrix.refresh after unit moves only (8 units)": (unit_refresh, 1),
        "HeldLOSMatrix.refresh after one SMOKE placed or removed": (smoke_refresh, 1),
        "los_matrix with the GameState": (lambda: kernel.los_matrix(board, counters=state), 1),
        "los_pairs, 8 x 8 units, product=True": (
            lambda: kernel.los_pairs(board, mine, enemies, product=True, counters=state), 20),
        "los_pairs, 100 pairs": (lambda: kernel.los_pairs(board, *pairs, counters=state), 20),
        "field_of_fire from 71I4 (level-3 hill)": (lambda: kernel.field_of_fire(board, "71I4", counters=state), 5),
        "field_of_fire from 71A5 (ground)": (lambda: kernel.field_of_fire(board, "71A5", counters=state), 5),
        "fields_of_fire, 10 sources": (lambda: kernel.fields_of_fire(board, ten, counters=state), 2),
        "threat_map of the 8 axis units": (
            lambda: kernel.threat_map(board, counters=state, enemies_of="allies"), 2),
        "movement_field 4 MF": (
            lambda: kernel.movement_field(board, int(mine[0]), unit="infantry", allowance=4, counters=state), 20),
        "concealed_movement 4 MF, threat map given, exposure_penalty 2": (
            lambda: kernel.concealed_movement(board, int(mine[0]), threat, unit="infantry", allowance=4,
                                              counters=state, exposure_penalty=2), 10),
        "can_see, one pair": (lambda: kernel.can_see(board, int(mine[0]), int(enemies[0]), counters=state), 200),
        "movement_matrix, 8 sources": (lambda: kernel.movement_matrix(board, mine, unit="infantry", allowance=4), 2),
    }


def best_seconds(call, per_round: int, rounds: int) -> float:
    """Best seconds of one call over ``rounds`` rounds of ``per_round`` calls (a call that returns a float
    timed itself: that float)."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        timed = 0.0
        for _ in range(per_round):
            result = call()
            if isinstance(result, float):
                timed += result
        elapsed = timed if timed else time.perf_counter() - start
        best = min(best, elapsed / per_round)
    return best


def set_default_threads() -> None:
    """The package's default thread setting (a checkout without ``set_thread_count(None)``: its numba
    default, every core)."""
    try:
        kernel.set_thread_count(None)
    except ValueError:
        kernel.set_thread_count(kernel.max_threads())


def measure(board, names=None, rounds: int = 15) -> dict:
    """Seconds per row and condition, conditions interleaved round by round (so that a neighbour's work
    falls on all four alike)."""
    made = rows(board)
    chosen = {name: value for name, value in made.items() if names is None or name in names}
    result = {condition: {name: float("inf") for name in chosen} for condition in CONDITIONS}
    for call, per_round in chosen.values():   # warm-up: every kernel loaded
        call()
    for _ in range(rounds):
        for condition in CONDITIONS:
            if condition.startswith("1 thread"):
                kernel.set_thread_count(1)
            else:
                set_default_threads()
            spinner = bot.busy_core() if condition.endswith("busy") else None
            try:
                if spinner is not None:
                    time.sleep(0.05)
                for name, (call, per_round) in chosen.items():
                    result[condition][name] = min(result[condition][name], best_seconds(call, per_round, 1))
            finally:
                if spinner is not None:
                    spinner.kill()
                    spinner.wait()
    set_default_threads()
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--rows", nargs="+", default=None, metavar="NAME", help="only these rows")
    args = parser.parse_args(argv)
    print(json.dumps(measure(kernel.load("default"), args.rows, args.rounds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
