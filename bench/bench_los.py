"""LOS benchmarks on the bundled four-board scenario (about 1,300 hexes) and a 16-board map.

Figures are reported as ratios against peers measured in the same run: the
naive floating-point lerp kernel (``bench/naive_lerp.py``, the usual way to
trace LOS, which also gets some pairs wrong) and the per-check cost of the
reference VASL engine (40-130 us, a published figure, not measured here).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import numba
import numpy as np
import pytest

import kernel
from bench.grid_maps import write_board_grid
from bench.conftest import FIGURES, RATIOS, TIMINGS, measure, ratio
from bench.naive_lerp import lerp_los_matrix
from kernel import BLOCKED, field_of_fire
from tests.comparisons import COMPARISONS

ROOT = Path(__file__).resolve().parent.parent
los_matrix = COMPARISONS["los_matrix"].kernel
EXACT = "los_matrix exact, default scenario"
PER_PAIR = "los_matrix exact, default scenario: per-pair kernel alone"
LERP = "los_matrix naive lerp baseline, default scenario"


@pytest.fixture(scope="module")
def sixteen_boards(tmp_path_factory):
    return kernel.load(write_board_grid(tmp_path_factory.mktemp("sixteen"), 4, first_number=81,
                                        title="sixteen boards"))


def test_los_matrix_exact(benchmark, default_board):
    n = len(default_board)
    seconds = measure(benchmark, EXACT, lambda: los_matrix(default_board))
    FIGURES[f"matrix size: hexes (threads: {numba.get_num_threads()})"] = (float(n), "hexes")
    pairs = n * (n - 1) // 2
    FIGURES["exact: ns per evaluated pair (symmetry: N(N-1)/2 pairs)"] = (seconds / pairs * 1e9, "ns")
    FIGURES["exact: ns per matrix entry (N^2 entries)"] = (seconds / (n * n) * 1e9, "ns")


def per_pair_matrix(board):
    """The full matrix through the per-pair kernel (each pair of the upper triangle walked on its own, then
    mirrored, on all threads): the reference the per-source matrix of ASL maps is compared with."""
    from kernel.line_of_sight._hex import pairs as _kernels
    from kernel.line_of_sight.counters import counter_tables
    from kernel.line_of_sight.inputs import kernel_board_tables, ruleset_code, template_tuple

    hexes = np.arange(len(board), dtype=np.int32)
    out = np.empty((len(board), len(board)), np.int8)
    _kernels.los_matrix_kernel(ruleset_code(board), hexes, np.zeros(len(board), np.int64), template_tuple(board),
                               kernel_board_tables(board), counter_tables(board, None), out)
    _kernels.mirror_lower(out)
    return out


def test_los_matrix_per_pair_peer(benchmark, default_board):
    """The per-source matrix against the per-pair kernel in the same run (target: at most half its time)."""
    assert np.array_equal(per_pair_matrix(default_board), los_matrix(default_board))
    measure(benchmark, PER_PAIR, lambda: per_pair_matrix(default_board))
    if EXACT in TIMINGS:
        RATIOS.append((EXACT, PER_PAIR, "los_matrix: per-source / per-pair kernel, same run (target <= 0.5)", None))


def test_los_matrix_naive_lerp(benchmark, default_board):
    measure(benchmark, LERP, lambda: lerp_los_matrix(default_board))
    exact = los_matrix(default_board)
    lerp = lerp_los_matrix(default_board)
    upper = np.triu_indices(len(default_board), 1)
    wrong = exact[upper] != lerp[upper]
    visibility = (exact[upper] == BLOCKED) != (lerp[upper] == BLOCKED)
    FIGURES["lerp: pairs with a wrong result"] = (float(wrong.sum()), f"of {wrong.size} ({100 * wrong.mean():.2f} %)")
    FIGURES["lerp: pairs with wrong visibility"] = (float(visibility.sum()), f"({100 * visibility.mean():.2f} %)")
    assert wrong.any(), "the sampling baseline is expected to differ from the exact kernel somewhere"


def test_matrix_ratio_to_lerp_is_not_grossly_worse():
    RATIOS.append((EXACT, LERP, "exact matrix / naive lerp (target <= 1.5)", 2.0))
    assert ratio(EXACT, LERP) < 2.0


def test_field_of_fire_default(benchmark, default_board):
    measure(benchmark, "field_of_fire, one source, default", lambda: field_of_fire(default_board, "71I4"), rounds=20)


ONE_LOS = "los(), one pair with its explanation, default (target <= 15 us)"
ONE_PAIR_BATCH = "los_pairs() with one pair, default"


def test_one_los(benchmark, default_board):
    measure(benchmark, ONE_LOS, lambda: kernel.los(default_board, "71I4", "71Q5"), rounds=200)


def test_one_pair_batch(benchmark, default_board):
    a, b = np.array([default_board.index("71I4")]), np.array([default_board.index("71Q5")])
    measure(benchmark, ONE_PAIR_BATCH, lambda: kernel.los_pairs(default_board, a, b), rounds=200)
    RATIOS.append((ONE_LOS, ONE_PAIR_BATCH, "one los() / los_pairs() with one pair", None))


def test_field_of_fire_sixteen_boards(benchmark, sixteen_boards):
    n = len(sixteen_boards)
    measure(benchmark, f"field_of_fire, one source, 16 boards ({n} hexes)",
            lambda: field_of_fire(sixteen_boards, sixteen_boards.names[n // 2]), rounds=10)


def test_field_of_fire_sixteen_boards_four_sources(benchmark, sixteen_boards):
    n = len(sixteen_boards)
    sources = list(sixteen_boards.names[n // 5: n: n // 4][:4])
    measure(benchmark, "field_of_fire, four sources, 16 boards",
            lambda: field_of_fire(sixteen_boards, sources), rounds=5)


def test_vasl_reference_cost_per_check(default_board):
    """Per-pair cost against the 40-130 us per check quoted for the VASL engine."""
    if EXACT not in TIMINGS:
        pytest.skip("needs the exact matrix timing of this run")
    n = len(default_board)
    per_pair = TIMINGS[EXACT] / (n * (n - 1) // 2)
    FIGURES["speed-up over VASL's 40 us per check (per evaluated pair)"] = (40e-6 / per_pair, "x")
    assert per_pair < 40e-6


def _startup(cache_dir: str) -> float:
    code = textwrap.dedent("""
        import time
        start = time.perf_counter()
        import kernel
        from kernel import los_matrix
        from kernel import movement_field
        board = kernel.load("71")
        los_matrix(board)
        movement_field(board, "71I4", unit="infantry")
        print(time.perf_counter() - start)
    """)
    environment = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, HEXKERNEL_NUMBA_CACHE="1")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment,
                            cwd=ROOT, check=True)
    return float(result.stdout.strip().splitlines()[-1])


def test_compile_time_first_call_and_cached_startup():
    """First call compiles every kernel used; a second process loads them from the cache."""
    with tempfile.TemporaryDirectory() as cache_dir:
        first = _startup(cache_dir)
        cached = _startup(cache_dir)
    TIMINGS["start-up + first LOS matrix and field, cold (compiling)"] = first
    TIMINGS["start-up + first LOS matrix and field, cached"] = cached
    assert cached < first
