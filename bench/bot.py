"""A bot's turns as a user writes them from the README: README calls only, seeded, on the default map.

Each side has ``UNITS`` infantry units.  A turn is one side's: it reads
the enemies' threat map once (``threat_map(..., enemies_of=side)``), checks
which of its units see which enemies (``los_pairs(..., product=True)``),
computes its units' fields of fire (``fields_of_fire``), then moves its
units.  A unit that sees an enemy stays to fire, unless two enemies see it:
then it steps back to the least watched hex its ``movement_field`` (2 MF)
reaches.  Every other unit takes the ``concealed_movement`` (4 MF,
``exposure_penalty=2``, the turn's threat map) to the hex nearest its
nearest enemy (``board.distance`` on arrays): a hidden one if that brings it
closer, else any it reaches, and looks up ``field.path_to`` there.  In two
turns of every four the side throws SMOKE beside a unit that sees an enemy
(at most three SMOKE counters stay on the map).  Last, the
``HeldLOSMatrix`` of the game is refreshed, and the bot counts the enemy
hexes the side sees in it.

Run as a script (``python bench/bot.py``) it imports only ``kernel`` and
numpy, so the same bot can time another checkout of the package (put its
folder on ``PYTHONPATH``); ``bench/bench_game_loop.py`` runs it in the
benchmarks.  ``--threads`` sets ``kernel.set_thread_count`` (``default``:
leave the package's default), ``--busy`` keeps one core busy with another
process while it runs.  It prints one JSON line: the best milliseconds per
turn over the rounds, a refresh after one unit's move (and the pairs it
recomputed) and a fresh ``los_matrix``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import numpy as np

import kernel

SEED = 41
UNITS = 8
TURNS = 20
ALLOWANCE = 4
PENALTY = 2
SIDES = ("allies", "axis")


def starting_state(board, seed: int = SEED):
    """A :class:`kernel.GameState` with ``UNITS`` units a side, the allies in the west third of the map and the
    axis in the east third (hexes an infantry unit can leave), seeded."""
    rng = np.random.default_rng(seed)
    open_hexes = np.flatnonzero(kernel.reachable(board, "71I4", unit="infantry"))
    col = board.col[open_hexes]
    low, high = np.quantile(col, [1 / 3, 2 / 3])
    state = kernel.GameState(board)
    for side, pool in zip(SIDES, (open_hexes[col <= low], open_hexes[col >= high])):
        for h in rng.choice(pool, UNITS, replace=False).tolist():
            state.place_unit(h, side=side)
    return state


def turn(board, state, side: str, number: int, smoke: list, held=None) -> dict:
    """One side's turn (module docstring); returns what the bot saw (so the work is used)."""
    enemy = SIDES[1 - SIDES.index(side)]
    mine, enemies = state.units_of(side), state.units_of(enemy)
    threat = kernel.threat_map(board, counters=state, enemies_of=side)
    seen = kernel.los_pairs(board, mine, enemies, product=True, counters=state).visible   # K x M
    fire = kernel.fields_of_fire(board, mine, counters=state)
    moved = hidden_moves = 0
    for k, h in enumerate(mine.tolist()):
        distance = board.distance(np.full(len(enemies), h), enemies)
        nearest, now = int(enemies[np.argmin(distance)]), int(distance.min())
        if seen[k].any():  # a firer: it stays, unless two or more enemies see it: then it steps back
            if threat.count[h] < 2:
                continue
            field = kernel.movement_field(board, h, unit="infantry", allowance=ALLOWANCE // 2, counters=state)
            options = np.flatnonzero(field.cost <= ALLOWANCE // 2)
            target = int(options[np.argmin(threat.count[options])])
        else:  # advance on the nearest enemy: unseen where that brings it closer, else in the open
            move = kernel.concealed_movement(board, h, threat, unit="infantry", allowance=ALLOWANCE,
                                             counters=state, exposure_penalty=PENALTY)
            options = np.flatnonzero(move.hidden)
            closer = options[board.distance(options, np.full(options.size, nearest)) < now]
            if closer.size:
                options = closer
                hidden_moves += 1
            else:
                options = np.flatnonzero(move.reachable)
            target = int(options[np.argmin(board.distance(options, np.full(options.size, nearest)))])
            if move.field.path_to(target) is None:
                continue
        if target != h and not state.units[target]:
            state.move_unit(h, target, side=side)
            moved += 1
    if number % 4 < 2:  # SMOKE in front of a unit that sees an enemy, in its neighbour nearest the enemy
        firers = np.flatnonzero(seen.any(axis=1))
        if firers.size:
            k = int(firers[0])
            target = int(enemies[int(np.flatnonzero(seen[k])[0])])
            around = np.asarray(board.adjacent(int(mine[k])))   # the neighbour nearest the enemy
            spot = int(around[np.argmin(board.distance(around, np.full(around.size, target)))])
            if not state.smoke[spot]:
                state.place_smoke(spot, 2)
                smoke.append(spot)
        if len(smoke) > 3:
            state.remove_smoke(smoke.pop(0))
    watched = 0
    if held is not None:
        held.refresh()
        mine, enemies = state.units_of(side), state.units_of(enemy)
        watched = int((held.matrix[np.ix_(mine, enemies)] != kernel.BLOCKED).sum())
    return {"moved": moved, "hidden moves": hidden_moves, "seen pairs": int(seen.sum()),
            "field": int(fire.visible.sum()), "watched": watched}


def play(board, turns: int = TURNS, *, held: bool = True, seed: int = SEED) -> dict:
    """``turns`` turns of the bot (sides alternating) from a fresh state; returns the sums of what it saw."""
    state = starting_state(board, seed)
    matrix = kernel.HeldLOSMatrix(board, state) if held else None
    smoke: list = []
    totals: dict = {}
    for number in range(turns):
        seen = turn(board, state, SIDES[number % 2], number, smoke, matrix)
        for key, value in seen.items():
            totals[key] = totals.get(key, 0) + value
    totals["state version"] = state.version
    return totals


def time_turns(board, turns: int, rounds: int, *, held: bool = True) -> float:
    """Best seconds per turn over ``rounds`` games of ``turns`` turns (the held matrix built before the clock
    starts: a bot builds it once a game)."""
    best = float("inf")
    for _ in range(rounds):
        state = starting_state(board)
        matrix = kernel.HeldLOSMatrix(board, state) if held else None
        smoke: list = []
        start = time.perf_counter()
        for number in range(turns):
            turn(board, state, SIDES[number % 2], number, smoke, matrix)
        best = min(best, (time.perf_counter() - start) / turns)
    return best


def busy_core():
    """A process that keeps one core busy until killed."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", default="default", help="1, 2, ... or 'default' (the package's own)")
    parser.add_argument("--busy", action="store_true", help="keep one core busy with another process")
    parser.add_argument("--turns", type=int, default=TURNS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-held", action="store_true", help="without the held matrix")
    args = parser.parse_args(argv)
    board = kernel.load("default")
    if args.threads != "default":
        kernel.set_thread_count(int(args.threads))
    summary = play(board, 2, held=not args.no_held)   # warm-up: every kernel loaded, every cache built
    spinner = busy_core() if args.busy else None
    try:
        if spinner is not None:
            time.sleep(0.2)
        seconds = time_turns(board, args.turns, args.rounds, held=not args.no_held)
        state = starting_state(board)
        held = kernel.HeldLOSMatrix(board, state)
        state.move_unit(int(state.units_of("allies")[0]), int(state.units_of("allies")[0]) + 1)
        start = time.perf_counter()
        recomputed = held.refresh()
        refresh_units = time.perf_counter() - start
        start = time.perf_counter()
        kernel.los_matrix(board, counters=state)
        matrix = time.perf_counter() - start
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait()
    print(json.dumps({"threads": args.threads, "busy": args.busy, "held": not args.no_held,
                      "turn_ms": round(1e3 * seconds, 3), "refresh_after_unit_move_ms": round(1e3 * refresh_units, 3),
                      "pairs_recomputed": int(recomputed), "los_matrix_ms": round(1e3 * matrix, 3),
                      "summary": summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
