"""The kernels' thread count: a documented setting per process and per calling thread."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import kernel


def test_set_thread_count_changes_the_setting_and_returns_the_previous_one():
    previous = kernel.set_thread_count(1)
    try:
        assert kernel.thread_count() == 1
        board = kernel.load("71")
        one_thread = kernel.los_matrix(board)
    finally:
        assert kernel.set_thread_count(previous) == 1
    assert kernel.thread_count() == previous
    assert np.array_equal(one_thread, kernel.los_matrix(board))  # same answer with every thread


@pytest.mark.parametrize("count", [0, -1, 10_000, 1.5, True, "2"])
def test_set_thread_count_rejects_bad_counts(count):
    with pytest.raises(ValueError, match=rf"thread count is {count!r}: expected an integer from 1 to \d+"):
        kernel.set_thread_count(count)


def test_environment_variable_sets_the_process_default():
    code = "import kernel, kernel._jit; print(kernel.thread_count())"
    env = {**os.environ, "HEXKERNEL_THREADS": "1"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert result.stdout.strip() == "1"
    env["HEXKERNEL_THREADS"] = "many"
    result = subprocess.run([sys.executable, "-c", "import kernel._jit"], capture_output=True, text=True, env=env)
    assert result.returncode != 0 and "HEXKERNEL_THREADS is 'many': expected an integer from 1 to" in result.stderr
