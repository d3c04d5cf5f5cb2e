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
    assert kernel.set_thread_count(None) == previous  # None: the default, chosen per call
    assert kernel.set_thread_count(None) is None
    assert 1 <= kernel.thread_count() <= kernel.max_threads()
    assert np.array_equal(one_thread, kernel.los_matrix(board))  # same answer with the default
    kernel.set_thread_count(previous)


@pytest.mark.parametrize("count", [0, -1, 10_000, 1.5, True, "2"])
def test_set_thread_count_rejects_bad_counts(count):
    with pytest.raises(ValueError, match=rf"thread count is {count!r}: expected an integer from 1 to \d+ \(the cores "
                                         r"numba may use\), or None \(chosen per call\)"):
        kernel.set_thread_count(count)


@pytest.fixture
def default_setting():
    """No thread setting on this thread (the default, chosen per call), the previous one restored after."""
    previous = kernel.set_thread_count(None)
    yield
    kernel.set_thread_count(previous)


def fake_loadavg(monkeypatch, tmp_path, running: int):
    """``/proc/loadavg`` as if ``running`` tasks ran now, this one included (read again at once)."""
    from kernel import _threads

    path = tmp_path / "loadavg"
    path.write_text(f"0.50 0.40 0.30 {running}/321 4567\n")
    monkeypatch.setattr(_threads, "LOADAVG", str(path))
    monkeypatch.setattr(_threads, "_load", [-1.0, 0])


def test_the_default_runs_small_calls_on_the_calling_thread(default_setting, monkeypatch, tmp_path):
    from kernel._threads import SMALL_CALL_US, threads_for

    fake_loadavg(monkeypatch, tmp_path, 1)  # nothing else runs: every core is free
    assert threads_for(SMALL_CALL_US / 2) == 1
    assert threads_for(None) == min(kernel.max_threads(), len(os.sched_getaffinity(0)))
    assert threads_for(2 * SMALL_CALL_US) == min(2, threads_for(None))  # no more threads than shares of work
    previous = kernel.set_thread_count(kernel.max_threads())  # a setting wins, small calls included
    try:
        assert threads_for(1.0) == kernel.max_threads()
    finally:
        kernel.set_thread_count(previous)


def test_the_default_leaves_the_cores_other_work_holds(default_setting, monkeypatch, tmp_path):
    from kernel import _threads

    cores = min(kernel.max_threads(), len(os.sched_getaffinity(0)))
    fake_loadavg(monkeypatch, tmp_path, 2)  # one other task runs
    assert _threads.busy_cores() == 1 and _threads.free_cores() == max(1, cores - 1)
    assert _threads.threads_for(_threads.CONTENDED_CALL_US / 2) == max(1, cores - 1)
    assert kernel.thread_count() == (cores if cores <= 2 else cores - 1)  # a large call: the free ones, or all
    fake_loadavg(monkeypatch, tmp_path, 1000)  # a machine far busier than its cores: the caller alone,
    assert _threads.threads_for(_threads.CONTENDED_CALL_US / 2) == 1
    assert _threads.threads_for(_threads.CONTENDED_CALL_US) == cores  # but a long call takes its share
    assert kernel.thread_count() == cores
    monkeypatch.setattr(_threads, "LOADAVG", str(tmp_path / "missing"))  # not Linux: every core counts as free
    monkeypatch.setattr(_threads, "_load", [-1.0, 0])
    assert _threads.free_cores() == cores


def test_the_reading_of_busy_cores_is_kept_for_a_while(default_setting, monkeypatch, tmp_path):
    from kernel import _threads

    fake_loadavg(monkeypatch, tmp_path, 3)
    assert _threads.busy_cores() == 2
    (tmp_path / "loadavg").write_text("0.50 0.40 0.30 1/321 4567\n")
    assert _threads.busy_cores() == 2  # read again only after LOAD_SECONDS
    monkeypatch.setattr(_threads, "LOAD_SECONDS", 0.0)
    assert _threads.busy_cores() == 0


@pytest.mark.filterwarnings("ignore:Cannot cache compiled function")
def test_numba_s_own_loops_get_the_count_of_each_call(default_setting, monkeypatch, tmp_path):
    """A kernel of numba's own parallel loops hands numba the call's thread count (numba keeps one per
    calling thread): the setting, else the free cores."""
    import numba

    from kernel._jit import jit_parallel

    @jit_parallel
    def threads_seen(out):
        for i in numba.prange(out.shape[0]):
            out[i] = numba.get_num_threads()

    out = np.zeros(4, np.int64)
    previous = kernel.set_thread_count(1)
    try:
        threads_seen(out)
        assert (out == 1).all()
    finally:
        kernel.set_thread_count(previous)
    fake_loadavg(monkeypatch, tmp_path, 1)
    threads_seen(out)
    assert (out == min(kernel.max_threads(), len(os.sched_getaffinity(0)))).all()
    threads_seen.run(1, out)
    assert (out == 1).all()


def test_environment_variable_sets_the_process_default():
    code = "import kernel, kernel._jit; print(kernel.thread_count())"
    env = {**os.environ, "HEXKERNEL_THREADS": "1"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert result.stdout.strip() == "1"
    env["HEXKERNEL_THREADS"] = "many"
    result = subprocess.run([sys.executable, "-c", "import kernel._jit"], capture_output=True, text=True, env=env)
    assert result.returncode != 0 and "HEXKERNEL_THREADS is 'many': expected an integer from 1 to" in result.stderr


@pytest.mark.parametrize("count, threads, min_part", [(0, 2, 1), (1, 2, 1), (10, 1, 1), (10, 2, 1), (10, 3, 4),
                                                      (1000, 2, 256), (7, 8, 1)])
def test_run_parts_covers_every_item_once(count, threads, min_part):
    from kernel._threads import run_parts

    seen = []
    run_parts(lambda lo, hi: seen.extend(range(lo, hi)), count, threads=threads, min_part=min_part)
    assert sorted(seen) == list(range(count))


def test_run_parts_threads_and_min_part_change_the_parts():
    import threading

    from kernel._threads import run_parts

    def parts(threads, min_part):
        found = []
        run_parts(lambda lo, hi: found.append((lo, hi, threading.get_ident())), 64, threads=threads,
                  min_part=min_part)
        return found

    assert parts(1, 1) == [(0, 64, threading.get_ident())]   # one thread: the whole range, on the caller
    assert len(parts(2, 1)) == 8 and len(parts(2, 32)) == 2   # PARTS_PER_THREAD per thread, at least min_part each


def test_run_parts_raises_a_part_s_error_after_the_others_finished():
    from kernel._threads import run_parts

    finished = []

    def part(lo, hi):
        if lo == 0:
            raise RuntimeError(f"part {lo}..{hi} failed")
        finished.append(lo)

    with pytest.raises(RuntimeError, match=r"part 0\.\.\d+ failed"):
        run_parts(part, 100, threads=2)


def test_jit_parallel_needs_split_or_count():
    from kernel._jit import jit_parallel

    with pytest.raises(ValueError, match=r"jit_parallel is given split=\(\) and count=None: expected exactly one"):
        jit_parallel()
    with pytest.raises(ValueError, match=r"jit_parallel is given split=\('out',\) and count=<function"):
        jit_parallel(split=("out",), count=lambda out: 1)


def test_pairs_blocks_and_depiction_on_several_threads_equal_one_thread():
    """Every kernel split into parts answers the same on one thread and on several (parts of 1..n items)."""
    import warnings

    board = kernel.random_board("asl", 12, 10, seed=5)
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, len(board), 700), rng.integers(0, len(board), 700)

    def answers():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", kernel.DepictionWarning)
            pairs = kernel.los_pairs(board, a, b)
            return [pairs.hindrance, pairs.blocked_at, pairs.visible,
                    *(rows for _, rows in kernel.los_matrix_blocks(board, block_rows=50)),
                    kernel.los_matrix(board, model="depiction"), kernel.los_pairs(board, a, b, model="depiction").hindrance,
                    *(rows for _, rows in kernel.los_matrix_blocks(board, block_rows=50, model="depiction")),
                    kernel.movement_matrix(board, unit="infantry")]

    previous = kernel.set_thread_count(1)
    try:
        one = answers()
        kernel.set_thread_count(max(2, kernel.max_threads()) if kernel.max_threads() > 1 else 1)
        several = answers()
    finally:
        kernel.set_thread_count(previous)
    assert all(np.array_equal(x, y) for x, y in zip(one, several))


def _parts_seen(count):
    from kernel._threads import run_parts

    seen = []
    run_parts(lambda lo, hi: seen.extend(range(lo, hi)), count, threads=2)
    return sorted(seen)


def test_a_forked_child_runs_parts_without_the_parent_s_pool():
    """The parent's pool threads do not exist in a forked child: the child starts its own (numba's own
    OpenMP loops are not fork-safe, so this uses a plain Python part)."""
    import multiprocessing

    assert _parts_seen(100) == list(range(100))   # the parent's pool has started
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_parts_seen, (100,)) == list(range(100))


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGINT") or os.name == "nt", reason="POSIX signals")
def test_a_ctrl_c_while_the_caller_waits_lets_no_part_outlive_the_call():
    """A Ctrl-C that reached the caller while it waited for the pool's parts was raised at once, with a part
    still running on the pool: a caller that caught it, or a command that exited on it (numba's finalizers
    freeing what the part ran), met a kernel still running."""
    import signal
    import threading
    import time

    from kernel._threads import run_parts

    running, finished = [], []

    def part(lo, hi):
        if threading.current_thread() is threading.main_thread():
            time.sleep(0.02)                  # the caller's parts end first: it then waits for the pool's
            return
        running.append(lo)
        time.sleep(0.6)
        finished.append(lo)

    timer = threading.Timer(0.4, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_parts(part, 8, threads=2)
        assert running and sorted(finished) == sorted(running)   # every part started had ended
    finally:
        timer.cancel()
