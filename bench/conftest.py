"""Shared benchmark helpers: one measurement path, and the ratio table.

``make test`` (and CI) runs the benchmarks in short mode: pytest-benchmark is
disabled, each timed function runs a few rounds measured here with
``time.perf_counter``, and only gross regressions measured as ratios in the
same run fail.  ``make bench`` runs them fully under pytest-benchmark.
Either way the terminal summary prints every timing and ratio.
"""

from __future__ import annotations

import json
import os
import time

import pytest

import kernel
from bench.report import format_seconds

#: name -> best (minimum) seconds of one call, from this run.
TIMINGS: dict[str, float] = {}
#: name -> (value, unit or note) extra figures, e.g. pairs the lerp kernel gets wrong.
FIGURES: dict[str, tuple[float, str]] = {}
#: (numerator, denominator, label, limit or None) ratios to print (and check where a limit is given).
RATIOS: list[tuple[str, str, str, float | None]] = []


@pytest.fixture(scope="session")
def default_board():
    """The bundled four-board scenario, loaded once for every benchmark."""
    return kernel.load("default")


def measure(benchmark, name: str, function, rounds: int = 5, iterations: int = 1) -> float:
    """Time ``function`` (best of ``rounds``, per call) through pytest-benchmark when enabled.

    ``iterations`` calls are timed together in each round and the time divided
    by their number: for calls of a few microseconds, where the timer's own
    cost would otherwise be part of every figure.
    """
    if benchmark.disabled:
        benchmark(function)  # short mode: the fixture's single call doubles as the warm-up
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            for _ in range(iterations):
                function()
            best = min(best, (time.perf_counter() - start) / iterations)
    else:
        function()  # warm-up: JIT compilation and caches stay out of the figures
        benchmark.pedantic(function, rounds=max(rounds, 10), warmup_rounds=1, iterations=iterations)
        best = benchmark.stats.stats.min
    TIMINGS[name] = best
    return best


def one_thread(function):
    """``function`` run with one kernel thread (the per-thread figures of a shared machine), the setting
    restored after each call."""
    def run():
        previous = kernel.set_thread_count(1)
        try:
            return function()
        finally:
            kernel.set_thread_count(previous)
    return run


def ratio(numerator: str, denominator: str) -> float:
    if numerator not in TIMINGS or denominator not in TIMINGS:
        pytest.skip(f"needs timings of {numerator!r} and {denominator!r} from this run")
    return TIMINGS[numerator] / TIMINGS[denominator]


def results() -> dict:
    """This run's timings, figures and ratios as JSON-ready data (``python -m bench.report`` reads it)."""
    ratios = [{"label": label, "numerator": numerator, "denominator": denominator, "limit": limit,
               "value": TIMINGS[numerator] / TIMINGS[denominator]}
              for numerator, denominator, label, limit in RATIOS if numerator in TIMINGS and denominator in TIMINGS]
    return {"date": time.strftime("%Y-%m-%d"), "timings": TIMINGS, "figures": {name: list(value) for name, value in FIGURES.items()}, "ratios": ratios}


def pytest_terminal_summary(terminalreporter):
    if not TIMINGS and not FIGURES:
        return
    target = os.environ.get("HEXKERNEL_BENCH_JSON")
    if target:   # set by bench/report.py
        with open(target, "w", encoding="utf-8") as handle:
            json.dump(results(), handle, indent=1)
    write = terminalreporter.write_line
    terminalreporter.section("hexkernel benchmarks (best of the rounds of this run)")
    for name, seconds in TIMINGS.items():
        write(f"  {name:<58} {format_seconds(seconds):>12}")
    for name, (value, unit) in FIGURES.items():
        write(f"  {name:<58} {value:12.1f} {unit}")
    if RATIOS:
        write("  ratios (same run):")
        for numerator, denominator, label, limit in RATIOS:
            if numerator in TIMINGS and denominator in TIMINGS:
                value = TIMINGS[numerator] / TIMINGS[denominator]
                check = f"  (CI fails above {limit})" if limit else ""
                write(f"    {label:<56} {value:8.2f}x{check}")
