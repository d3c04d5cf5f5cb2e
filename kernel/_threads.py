"""The threads that run the parallel kernels, and the thread setting the public API reads and sets.

A kernel split into parts (:func:`kernel._jit.jit_parallel`) runs its parts on the calling thread and a pool of
``max_threads() - 1`` threads, started on first use. Parts are claimed one at a time, so a thread slowed by other
work takes fewer, and the caller works through the parts itself too: a call finishes even while the pool's threads
are busy with another call's parts (or absent, after a ``fork``).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numba
from numba.np.ufunc import parallel as _numba_parallel

from kernel._signals import deferred_signals

#: Parts per thread: more parts than threads let a thread that runs faster (or alone) take more.
PARTS_PER_THREAD = 4

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _helpers() -> ThreadPoolExecutor:
    """The pool, started on first use with a thread for every core numba may use but the caller's."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=max(1, numba.config.NUMBA_NUM_THREADS - 1),
                                       thread_name_prefix="hexkernel-kernel")
        return _pool


def _forget_pool() -> None:
    """After a ``fork`` the child has none of the pool's threads: it starts its own pool when it needs one."""
    global _pool, _pool_lock
    _pool = None
    _pool_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


class _Parts:
    """The parts of one call: each claimed once, by whichever thread comes first; none claimed once one failed
    or the call was stopped."""

    def __init__(self, call, bounds: list[int]):
        self.call = call
        self.bounds = bounds
        self.lock = threading.Lock()
        self.idle = threading.Condition(self.lock)
        self.claimed = 0
        self.running: dict[int, int] = {}   # thread id -> the part it runs
        self.error: BaseException | None = None

    def work(self) -> None:
        me = threading.get_ident()
        while True:
            with self.lock:
                if self.error is not None or self.claimed >= len(self.bounds) - 1:
                    return
                part = self.claimed
                self.claimed += 1
                self.running[me] = part
            try:
                self.call(self.bounds[part], self.bounds[part + 1])
            except BaseException as error:  # handed to the caller, which raises it
                with self.lock:
                    self.error = self.error or error
            finally:
                with self.lock:
                    self.running.pop(me, None)
                    self.idle.notify_all()

    def wait(self, stop: BaseException | None = None) -> None:
        """Return once no thread runs a part; with ``stop``, no part is claimed any more (the caller's own part,
        which the stop cut short, no longer counts)."""
        with self.lock:
            if stop is not None:
                self.error = self.error or stop
                self.running.pop(threading.get_ident(), None)
            while self.running:
                self.idle.wait()


def run_parts(call, count: int, *, threads: int, min_part: int = 1) -> None:
    """``call(lo, hi)`` for parts ``[lo, hi)`` covering ``range(count)``, on ``threads`` threads at once.

    Parameters
    ----------
    call : callable
        Runs the items ``lo .. hi - 1``; parts never overlap, and a part
        must write only its own items' outputs.
    count : int
        Number of items.
    threads : int
        Threads to use, the calling one included (1: ``call(0, count)`` on
        the calling thread).
    min_part : int
        The fewest items worth a part of their own (a part's start costs
        a few microseconds of Python).

    Raises
    ------
    BaseException
        The first exception a part raised, once every part started has
        finished (the other parts are skipped).  A Ctrl-C (or any exception)
        in the calling thread stops the parts not yet started and is raised
        once the running ones have finished (with further signals held): no
        part outlives the call, so a caller that catches the interrupt, or a
        process that exits on it, never has a kernel still running on the
        pool (at exit, numba's finalizers free what such a kernel runs).

    Examples
    --------
    >>> seen = []
    >>> run_parts(lambda lo, hi: seen.append((lo, hi)), 10, threads=2, min_part=5)
    >>> sorted(seen)
    [(0, 5), (5, 10)]
    """
    parts = min(threads * PARTS_PER_THREAD, count // max(1, min_part))
    if threads <= 1 or parts <= 1:
        if count > 0:
            call(0, count)
        return
    state = _Parts(call, [count * part // parts for part in range(parts + 1)])
    try:
        pool = _pool or _helpers()
        for _ in range(min(threads, parts) - 1):
            pool.submit(state.work)
        state.work()
        state.wait()
    except BaseException as stop:
        with deferred_signals(deliver=False):   # the first stop is the one raised
            state.wait(stop)
        raise
    if state.error is not None:
        raise state.error


def thread_count() -> int:
    """Number of threads the parallel kernels use from the calling thread (numba's current setting).

    Examples
    --------
    >>> import kernel
    >>> 1 <= kernel.thread_count() <= kernel.max_threads()
    True
    """
    if not getattr(_numba_parallel, "_is_initialized", True):
        # numba's threads are not started, so its setting was never changed (numba.set_num_threads starts them):
        # its default, every thread (numba's documented default), without starting its threading layer (a
        # fresh process's time, and threads the kernels here never use: they run on a pool of their own)
        return numba.config.NUMBA_NUM_THREADS
    return numba.get_num_threads()


def max_threads() -> int:
    """The most threads the parallel kernels can use: numba's pool size (``NUMBA_NUM_THREADS``, by default
    the machine's cores), fixed when numba starts."""
    return numba.config.NUMBA_NUM_THREADS


def set_thread_count(count: int) -> int:
    """Let the parallel kernels (matrices, batches, fields of fire, movement matrices) use ``count`` threads.

    The setting holds for the calling thread until changed (numba keeps it
    per thread); ``HEXKERNEL_THREADS`` sets it for the whole process at
    import.  The default is every core (:func:`max_threads`); a game engine
    that shares the machine with other work can give the kernels fewer.

    Parameters
    ----------
    count : int
        1 .. :func:`max_threads`.

    Returns
    -------
    int
        The previous setting, to restore it later.

    Raises
    ------
    ValueError
        ``count`` is not an integer in that range.

    Examples
    --------
    >>> import kernel
    >>> previous = kernel.set_thread_count(1)
    >>> kernel.thread_count()
    1
    >>> _ = kernel.set_thread_count(previous)
    """
    top = max_threads()
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= top:
        raise ValueError(f"thread count is {count!r}: expected an integer from 1 to {top} (the cores numba may use)")
    previous = numba.get_num_threads()
    numba.set_num_threads(count)
    return previous


def _threads_from_environment() -> None:
    value = os.environ.get("HEXKERNEL_THREADS")
    if value:
        try:
            count = int(value)
        except ValueError:
            count = None
        if count is None or not 1 <= count <= max_threads():
            raise ValueError(f"HEXKERNEL_THREADS is {value!r}: expected an integer from 1 to {max_threads()}")
        numba.set_num_threads(count)


_threads_from_environment()
