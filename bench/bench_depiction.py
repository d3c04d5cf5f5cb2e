"""Depiction LOS benchmarks: one VASL board and a 2 x 2 map of VASL boards, against the hex
model's matrix of the same map and the slow Python reference, all measured in this run.

Skipped cleanly when ``../shared/vasl`` is absent.  Figures per pair are per thread: seconds x threads
/ pairs; the matrix evaluates each unordered pair once (symmetry), so "per ordered pair" is the
matrix time over N(N-1) entries and "per unordered pair" over N(N-1)/2 walks.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import numpy as np
import pytest

import kernel
from bench.conftest import FIGURES, RATIOS, TIMINGS, measure, one_thread
from tests.comparisons import COMPARISONS
from tests.shared_data import needs, vasl_folder

#: What is timed is what tests/test_depiction.py checks against the reference.
DEPICTION = COMPARISONS["los_matrix[depiction]"]

VASL = vasl_folder()
pytestmark = needs("vasl", "bd02")

ONE = "depiction matrix, VASL board 2"
ONE_SERIAL = "depiction matrix, VASL board 2, 1 thread"
ONE_HEX = "hex-model matrix, VASL board 2"
ONE_HEX_SERIAL = "hex-model matrix, VASL board 2, 1 thread"
FOUR = "depiction matrix, VASL boards 1-4 (2x2)"
FOUR_HEX = "hex-model matrix, VASL boards 1-4 (2x2)"
REFERENCE_PAIRS = 60


def _quiet_load(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return kernel.load(path)


@pytest.fixture(scope="module")
def board_two():
    return _quiet_load(VASL / "bd02")


@pytest.fixture(scope="module")
def four_boards(tmp_path_factory):
    path = tmp_path_factory.mktemp("four") / "four.scenario"
    path.write_text("[scenario]\ntitle = VASL boards 1-4\nruleset = asl\n\n[boards]\n"
                    + "".join(f"{row} {col} {VASL / f'bd0{1 + 2 * row + col}'}\n" for row in (0, 1) for col in (0, 1)))
    board = _quiet_load(path)
    kernel.board_art(board)   # the art is built once per board, outside the timings
    return board


def _per_pair(name: str, seconds: float, n: int) -> None:
    threads = kernel.thread_count()
    FIGURES[f"{name}: ns/ordered pair x {threads} thr"] = (seconds * threads / (n * (n - 1)) * 1e9, "ns")
    FIGURES[f"{name}: ns/unordered pair x {threads} thr"] = (seconds * threads / (n * (n - 1) / 2) * 1e9, "ns")


def test_depiction_matrix_one_board(benchmark, board_two):
    seconds = measure(benchmark, ONE, lambda: DEPICTION.kernel(board_two))
    _per_pair(ONE, seconds, len(board_two))
    FIGURES["art of VASL board 2 (2 bytes per pixel)"] = (kernel.board_art(board_two).nbytes / 1e6, "MB")


def test_depiction_matrix_one_board_one_thread(benchmark, board_two):
    seconds = measure(benchmark, ONE_SERIAL, one_thread(lambda: DEPICTION.kernel(board_two)), rounds=3)
    n = len(board_two)
    FIGURES["depiction, 1 thread: ns per ordered pair"] = (seconds / (n * (n - 1)) * 1e9, "ns")
    FIGURES["depiction, 1 thread: ns per unordered pair"] = (seconds / (n * (n - 1) / 2) * 1e9, "ns")


def test_hex_matrix_one_board(benchmark, board_two):
    seconds = measure(benchmark, ONE_HEX, lambda: kernel.los_matrix(board_two, model="hex"))
    _per_pair(ONE_HEX, seconds, len(board_two))
    RATIOS.append((ONE, ONE_HEX, "depiction / hex model, one VASL board", None))


def test_hex_matrix_one_board_one_thread(benchmark, board_two):
    measure(benchmark, ONE_HEX_SERIAL, one_thread(lambda: kernel.los_matrix(board_two, model="hex")), rounds=3)
    RATIOS.append((ONE_SERIAL, ONE_HEX_SERIAL, "depiction / hex model, one VASL board, 1 thread", None))


def test_python_reference_one_board(board_two):
    reference = DEPICTION.reference(board_two, kernel.board_art(board_two))
    rng = np.random.default_rng(5)
    pairs = rng.integers(0, len(board_two), (REFERENCE_PAIRS, 2))
    start = time.perf_counter()
    for a, b in pairs:
        reference.walk(int(a), int(b))
    per_walk = (time.perf_counter() - start) / REFERENCE_PAIRS
    FIGURES["Python reference: us per walk"] = (per_walk * 1e6, "us")
    if ONE_SERIAL in TIMINGS:
        n = len(board_two)
        kernel_walk = TIMINGS[ONE_SERIAL] / (n * (n - 1) / 2)
        FIGURES["Python reference / kernel (1 thread), per walk"] = (per_walk / kernel_walk, "x")


def test_depiction_matrix_four_boards(benchmark, four_boards):
    seconds = measure(benchmark, FOUR, lambda: DEPICTION.kernel(four_boards), rounds=2)
    _per_pair(FOUR, seconds, len(four_boards))
    FIGURES["art of the 2x2 map (2 bytes per pixel)"] = (kernel.board_art(four_boards).nbytes / 1e6, "MB")


def test_hex_matrix_four_boards(benchmark, four_boards):
    measure(benchmark, FOUR_HEX, lambda: kernel.los_matrix(four_boards, model="hex"), rounds=2)
    RATIOS.append((FOUR, FOUR_HEX, "depiction / hex model, 2x2 VASL map", None))
