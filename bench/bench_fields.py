"""Per-source LOS questions of a game AI (fields of fire, threat maps), tcod's shadow casting as a
throughput anchor, and a bot loop whose moves are concealed moves.

tcod's symmetric shadow casting (``tcod.map.compute_fov``, square grid, no
elevation, no hindrance) on a grid of as many cells as the default scenario
has hexes gives cells judged per second per core, against one exact
:func:`~kernel.field_of_fire` on one thread; where tcod is not installed
that row is skipped.

Each of the three per-source rows has a peer: the same sources through the
per-pair fields kernel alone (no public call's checks or result objects),
timed in the same run.  The field of fire from 71I4 (a level-3 hilltop, above
nearly all its targets) has a second one: the field of fire from 71A5 (a
ground hex), the ratio of the two the price of high ground.

The concealed bot loop (seeded, default scenario): 8 infantry units a side;
each turn both sides move, each side computing the enemies'
:func:`~kernel.threat_map` once and moving each of its units to a hex its
:func:`~kernel.concealed_movement` (4 MF, that map as the watchers) finds
hidden, where it has one: 16 concealed moves a turn.  Timed with one kernel
thread and with the default thread setting, and both again while another
process keeps one core busy.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import kernel
from bench.conftest import FIGURES, RATIOS, TIMINGS, measure, one_thread

SEED = 24
UNITS = 8
ALLOWANCE = 4
SOURCE = "71I4"
ONE_FIELD = "field_of_fire, one source (71I4), 1 thread"
GROUND_SOURCE = "71A5"
GROUND_FIELD = "field_of_fire, one source on the ground (71A5), 1 thread"


@pytest.fixture(scope="module")
def sources(default_board):
    return [int(h) for h in np.random.default_rng(SEED).choice(len(default_board), 10, replace=False)]


def per_pair_rows(board, hexes):
    """The per-pair fields kernel's rows (the reference the per-source kernel is compared with)."""
    from kernel.line_of_sight._hex import queries
    from kernel.line_of_sight.counters import counter_tables
    from kernel.line_of_sight.inputs import (every_hex, kernel_board_tables, ruleset_code, target_level_array,
                                             template_tuple)

    hexes = np.asarray(hexes, np.int32)
    out = np.empty((len(hexes), len(board)), np.int8)
    queries.fields_kernel(ruleset_code(board), hexes, np.zeros(len(hexes), np.int64), every_hex(board),
                                 target_level_array(board, 0), template_tuple(board), kernel_board_tables(board),
                                 counter_tables(board, None), out)
    return out


ROWS = {
    ONE_FIELD: (lambda b, s: one_thread(lambda: kernel.field_of_fire(b, SOURCE)), 30),
    "fields_of_fire, K = 10 (target <= 0.25 ms)": (lambda b, s: lambda: kernel.fields_of_fire(b, s), 20),
    "threat_map of 10 enemies (target <= 0.3 ms)": (lambda b, s: lambda: kernel.threat_map(b, s), 20),
}
#: The same questions through the per-pair kernel (its rows only, no wrapper), each row's peer.
PER_PAIR = {
    ONE_FIELD: (lambda b, s: one_thread(lambda: per_pair_rows(b, [b.index(SOURCE)])), 30),
    "fields_of_fire, K = 10 (target <= 0.25 ms)": (lambda b, s: lambda: per_pair_rows(b, s), 20),
    "threat_map of 10 enemies (target <= 0.3 ms)": (lambda b, s: lambda: per_pair_rows(b, s), 20),
}


@pytest.mark.parametrize("name", list(ROWS))
def test_per_source_questions(benchmark, default_board, sources, name):
    make, rounds = ROWS[name]
    measure(benchmark, name, make(default_board, sources), rounds=rounds)


@pytest.mark.parametrize("name", list(PER_PAIR))
def test_per_pair_peer(benchmark, default_board, sources, name):
    make, rounds = PER_PAIR[name]
    peer = f"{name}: per-pair kernel alone"
    measure(benchmark, peer, make(default_board, sources), rounds=rounds)
    if name in TIMINGS:
        RATIOS.append((name, peer, f"{name.split(' (target')[0]}: per-source / per-pair kernel, same run", None))


def test_high_ground_against_ground(benchmark, default_board):
    """One field of fire from the ground, for the ratio of the hilltop's to it (both on one thread)."""
    measure(benchmark, GROUND_FIELD, one_thread(lambda: kernel.field_of_fire(default_board, GROUND_SOURCE)),
            rounds=30)
    if ONE_FIELD in TIMINGS:
        RATIOS.append((ONE_FIELD, GROUND_FIELD,
                       "field_of_fire: hilltop 71I4 / ground 71A5, 1 thread, same run (target <= 1.5)", None))


def test_tcod_shadow_casting_anchor(benchmark, default_board):
    """Cells judged per second per core: one field of fire against tcod's field of view from one cell."""
    tcod = pytest.importorskip("tcod")
    from tcod import libtcodpy

    n = len(default_board)
    side = int(np.ceil(np.sqrt(n)))
    transparent = np.random.default_rng(SEED).random((side, side)) > 0.2
    seconds = measure(benchmark, "tcod shadow casting, one field of view", lambda: tcod.map.compute_fov(
        transparent, (side // 2, side // 2), algorithm=libtcodpy.FOV_SYMMETRIC_SHADOWCAST), rounds=200)
    FIGURES["tcod: cells judged per second per core"] = (side * side / seconds, "cells/s")
    ours = TIMINGS.get(ONE_FIELD)
    if ours:
        FIGURES["field_of_fire: cells judged per second per core"] = (n / ours, "cells/s")
        RATIOS.append(("tcod shadow casting, one field of view", ONE_FIELD,
                       "tcod time / field_of_fire time, same cell count (target >= 1/3)", None))


def play_concealed(board, turns: int, seed: int = SEED) -> dict:
    """``turns`` turns of the concealed bot loop; returns a summary (the test checks it)."""
    rng = np.random.default_rng(seed)
    open_hexes = np.flatnonzero(np.isfinite(kernel.movement_tables(board, unit="infantry").cot))
    chosen = rng.choice(open_hexes, 2 * UNITS, replace=False).tolist()
    sides = {"axis": chosen[:UNITS], "allies": chosen[UNITS:]}
    state = kernel.GameState(board)
    for side, hexes in sides.items():
        for h in hexes:
            state.place_unit(int(h), side=side)
    hidden_moves = 0
    for _ in range(turns):
        for side, units in sides.items():
            threat = kernel.threat_map(board, counters=state, enemies_of=side)
            draws = rng.random(UNITS).tolist()
            for k, h in enumerate(units):
                move = kernel.concealed_movement(board, h, threat, unit="infantry", allowance=ALLOWANCE,
                                                 counters=state)
                options = np.flatnonzero(move.hidden)
                if options.size:
                    hidden_moves += 1
                else:
                    options = np.flatnonzero(move.reachable)
                target = int(options[int(draws[k] * options.size)])
                if target != h and not state.units[target]:
                    state.move_unit(h, target)
                    units[k] = target
    return {"hidden moves": hidden_moves, "state version": state.version}


def busy_core():
    """A process that keeps one core busy until killed."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


@pytest.mark.parametrize("neighbour", ["idle", "one core busy"])
@pytest.mark.parametrize("threads", ["1 thread", "default"])
def test_concealed_bot_loop(benchmark, default_board, threads, neighbour):
    turns = 5 if benchmark.disabled else 20
    previous = kernel.set_thread_count(1 if threads == "1 thread" else None)
    spinner = busy_core() if neighbour != "idle" else None
    try:
        summary = play_concealed(default_board, 1)
        assert summary["hidden moves"] > 0 and summary["state version"] > 2 * UNITS
        seconds = measure(benchmark, f"concealed bot loop: {turns} turns, {threads}, {neighbour}",
                          lambda: play_concealed(default_board, turns), rounds=2)
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait()
        kernel.set_thread_count(previous)
    TIMINGS[f"concealed bot turn, {threads}, {neighbour}"] = seconds / turns
    FIGURES[f"concealed bot turn (16 concealed moves), {threads}, {neighbour} (target <= 5 ms)"] = (
        1e3 * seconds / turns, "ms")
