"""The game loop's calls at one thread and at the default thread setting, idle and with one core busy.

``bench/thread_rows.py`` times every row (the README bot's turn, the held
matrix's refreshes, the matrix, pairs, fields of fire, threat map, movement
and concealed moves) under the four conditions, interleaved round by
round; here they become timings, the ratio of the default to one thread
with one core busy (the default must not lose: target <= 1.1) and idle, and
the figures the game loop's targets name.
"""

from __future__ import annotations

import os
import sys

import pytest

from bench.conftest import FIGURES, RATIOS, TIMINGS

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import thread_rows  # noqa: E402  (bench/thread_rows.py)

BOT = "bot turn (README calls, held matrix refreshed), 20 turns"
UNITS = "HeldLOSMatrix.refresh after unit moves only (8 units)"
SMOKE = "HeldLOSMatrix.refresh after one SMOKE placed or removed"
MATRIX = "los_matrix with the GameState"
HILL, GROUND = "field_of_fire from 71I4 (level-3 hill)", "field_of_fire from 71A5 (ground)"


@pytest.fixture(scope="module")
def measured(default_board, benchmark_disabled):
    return thread_rows.measure(default_board, rounds=3 if benchmark_disabled else 15)


@pytest.fixture(scope="module")
def benchmark_disabled(request):
    """Short mode (``make test``): the benchmarks disabled and not forced on (``make bench``)."""
    config = request.config
    return config.getoption("benchmark_disable") and not config.getoption("benchmark_enable")


def test_rows_at_one_thread_and_the_default(measured):
    for condition, rows in measured.items():
        for name, seconds in rows.items():
            TIMINGS[f"{name}: {condition}"] = seconds
    for name in measured[thread_rows.CONDITIONS[0]]:
        for neighbour in ("idle", "one core busy"):
            target = " (target <= 1.1)" if neighbour != "idle" else ""
            RATIOS.append((f"{name}: default, {neighbour}", f"{name}: 1 thread, {neighbour}",
                           f"{name}: default / 1 thread, {neighbour}{target}", None))
    busy = measured["default, one core busy"]
    FIGURES[f"{BOT}: per turn, default, one core busy (target <= 5 ms)"] = (1e3 * busy[BOT], "ms")
    FIGURES[f"{UNITS}, default, one core busy (target <= 20 us)"] = (1e6 * busy[UNITS], "us")
    for condition in thread_rows.CONDITIONS:
        for refresh in (UNITS, SMOKE):
            RATIOS.append((f"{refresh}: {condition}", f"{MATRIX}: {condition}",
                           f"{refresh} / a new los_matrix, {condition} (target <= 1.1)", None))
    RATIOS.append((f"{HILL}: 1 thread, idle", f"{GROUND}: 1 thread, idle",
                   "field_of_fire 71I4 (hill) / 71A5 (ground), 1 thread (target <= 1.5)", None))
    assert all(seconds > 0 for rows in measured.values() for seconds in rows.values())
