"""The threads that run the parallel kernels, and the thread setting the public API reads and sets.

A kernel split into parts (:func:`kernel._jit.jit_parallel`) runs its parts on the calling thread and a pool of
``max_threads() - 1`` threads, started on first use. Parts are claimed one at a time, so a thread slowed by other
work takes fewer, and the caller works through the parts itself too: a call finishes even while the pool's threads
are busy with another call's parts (or absent, after a ``fork``).

How many threads a call uses (:func:`threads_for`): the setting where one is made
(:func:`set_thread_count` on the calling thread, ``HEXKERNEL_THREADS`` for the process); by default it is
chosen per call from the work's size and the cores free now.  A call whose work is estimated under
:data:`SMALL_CALL_US` microseconds runs on the calling thread alone (waking a helper costs more than it
saves).  A larger one uses the cores this process may run on (``os.sched_getaffinity``) less those that
other work holds now (where that leaves the caller's alone, a call of :data:`CONTENDED_CALL_US` or more
still takes every core: it outlasts the scheduler's time slices, and its parts go to whichever thread
runs): the runnable tasks of the machine but the caller, the fourth field of
``/proc/loadavg`` (read at most every :data:`LOAD_SECONDS`).  That count sees a process that starts
keeping a core busy at once, where the idle time of ``/proc/stat`` needs a sampling interval of tens of
milliseconds (and reads only "every core busy" on a loaded machine) and ``os.getloadavg`` is a one-minute
average that takes minutes to follow (``python -m bench.core_signals`` prints all three).  Without
``/proc/loadavg`` (not Linux) every core counts as free.  A helper thread waiting for a core that another
process holds makes the caller wait for the part it claimed, so a call takes a helper only where a core
is free for it.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numba
from numba.np.ufunc import parallel as _numba_parallel

from kernel._signals import deferred_signals

#: Parts per thread: more parts than threads let a thread that runs faster (or alone) take more.
PARTS_PER_THREAD = 4

#: By default a call estimated under this many microseconds of work (on one thread) runs on the calling thread.
SMALL_CALL_US = 50.0

#: Where other work holds every core but the caller's, a call estimated at this many microseconds or more still
#: runs on every core: it outlasts the scheduler's time slices, so each of its threads gets its share of the
#: machine, and a part no helper has claimed is done by the caller.
CONTENDED_CALL_US = 2000.0

#: How long (seconds) a reading of the cores other work holds is used before it is read again.
LOAD_SECONDS = 0.05

#: Per calling thread: ``count``, its :func:`set_thread_count` setting (absent: the process's); ``numba``, the
#: thread count last given to numba's own parallel loops from it (absent: numba's default).
_local = threading.local()
#: ``HEXKERNEL_THREADS``: the setting of every thread that made none (None: chosen per call).
_process_count: int | None = None
#: Where the runnable tasks are read (Linux).
LOADAVG = "/proc/loadavg"
_load = [-1.0, 0]  # when the cores in use were last read (time.monotonic), and how many other tasks ran then

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


def cores() -> int:
    """The cores this process may run on (``os.sched_getaffinity``; ``os.cpu_count()`` where it is missing)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def busy_cores() -> int:
    """How many tasks other than the calling thread the machine runs now (``/proc/loadavg``'s runnable count
    less one; 0 where it cannot be read), read at most every :data:`LOAD_SECONDS`."""
    now = time.monotonic()
    if now - _load[0] >= LOAD_SECONDS:
        _load[0], _load[1] = now, max(0, _runnable() - 1)
    return _load[1]


_loadavg = [None, None]  # the path and the file descriptor kept open on it (a read of /proc/loadavg, 2 us)


def _runnable() -> int:
    """The runnable tasks of the machine (1, the caller alone, where :data:`LOADAVG` cannot be read)."""
    try:
        if _loadavg[0] != LOADAVG or _loadavg[1] is None:
            if _loadavg[1] is not None:
                os.close(_loadavg[1])
            _loadavg[0], _loadavg[1] = LOADAVG, None
            _loadavg[1] = os.open(LOADAVG, os.O_RDONLY)
        return int(os.pread(_loadavg[1], 128, 0).split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return 1


def free_cores() -> int:
    """The cores free for this process's kernels now, the caller's own included: at least 1, at most
    :func:`max_threads` (see the module docstring).

    Examples
    --------
    >>> 1 <= free_cores() <= max_threads()
    True
    """
    return max(1, min(max_threads(), cores()) - busy_cores())


def setting() -> int | None:
    """The thread setting of the calling thread (:func:`set_thread_count`, else ``HEXKERNEL_THREADS``), or
    None: chosen per call."""
    return getattr(_local, "count", _process_count)


def threads_for(work_us: float | None = None) -> int:
    """The threads a call of about ``work_us`` microseconds of one-thread work uses (None: a large call).

    The setting where there is one; else 1 for a call under :data:`SMALL_CALL_US`, and for a larger one
    the :func:`free_cores` (every core where none is free but the caller's and the call is of
    :data:`CONTENDED_CALL_US` or more), no more than the work has of :data:`SMALL_CALL_US` shares.

    Examples
    --------
    >>> import kernel
    >>> previous = kernel.set_thread_count(None)   # the default: chosen per call
    >>> threads_for(1.0)   # a small call: the calling thread alone
    1
    >>> 1 <= threads_for() <= max_threads()
    True
    >>> _ = kernel.set_thread_count(previous)
    """
    count = getattr(_local, "count", _process_count)
    if count is not None:
        return count
    if work_us is not None and work_us < SMALL_CALL_US:
        return 1
    free = free_cores()
    if free == 1 and (work_us is None or work_us >= CONTENDED_CALL_US):
        free = max(1, min(max_threads(), cores()))
    if work_us is not None:
        free = min(free, max(1, int(work_us // SMALL_CALL_US)))
    return free


def numba_threads(count: int) -> None:
    """Give numba's own parallel loops ``count`` threads on the calling thread, without a call into numba where
    that is already its setting (numba's threads are not started while its default holds)."""
    current = getattr(_local, "numba", None)
    if current is None:
        if count == numba.config.NUMBA_NUM_THREADS and not getattr(_numba_parallel, "_is_initialized", True):
            return  # numba's default, its threads not started: the parallel loop starts them itself
        current = numba.get_num_threads()
    if count != current:
        numba.set_num_threads(count)
    _local.numba = count


def thread_count() -> int:
    """Number of threads a large call of the parallel kernels uses now from the calling thread.

    The setting (:func:`set_thread_count`, ``HEXKERNEL_THREADS``) where one
    is made; by default the cores free now (:func:`free_cores`), and a small
    call uses one thread whatever the cores (:func:`threads_for`).

    See Also
    --------
    kernel.set_thread_count : fix the count.
    kernel.max_threads : its upper bound.

    Examples
    --------
    >>> import kernel
    >>> 1 <= kernel.thread_count() <= kernel.max_threads()
    True
    """
    return threads_for(None)


def max_threads() -> int:
    """The most threads the parallel kernels can use: numba's pool size (``NUMBA_NUM_THREADS``, by default
    the machine's cores), fixed when numba starts.

    See Also
    --------
    kernel.thread_count : the threads a large call uses now.
    kernel.set_thread_count : choose the count, up to this.

    Examples
    --------
    >>> import kernel
    >>> limit = kernel.max_threads()
    >>> limit >= 1, kernel.thread_count() <= limit
    (True, True)
    >>> try:
    ...     kernel.set_thread_count(limit + 1)
    ... except ValueError as error:
    ...     print(f"expected an integer from 1 to {limit}" in str(error))
    True
    """
    return numba.config.NUMBA_NUM_THREADS


def set_thread_count(count: int | None) -> int | None:
    """Let the parallel kernels (matrices, batches, fields of fire, movement matrices) use ``count`` threads.

    The setting holds for the calling thread until changed;
    ``HEXKERNEL_THREADS`` sets it for the whole process at import.  Without
    a setting (the default, or ``count=None``) each call chooses: a small
    call runs on the calling thread, a larger one on the cores free at that
    moment (:func:`threads_for`), so a machine shared with other work does
    not make a call wait for a core another process holds.  A setting is for
    a measurement or a machine whose cores the process owns.

    Parameters
    ----------
    count : int or None
        1 .. :func:`max_threads`; None: back to the default, chosen per call.

    Returns
    -------
    int or None
        The previous setting (None: the default), to restore it later.

    Raises
    ------
    ValueError
        ``count`` is not None or an integer in that range.

    See Also
    --------
    kernel.thread_count : the count in force now.
    kernel.max_threads : the largest count allowed.
    kernel.los_matrix : one of the parallel kernels it governs.

    Examples
    --------
    >>> import kernel
    >>> previous = kernel.set_thread_count(1)
    >>> kernel.thread_count()
    1
    >>> _ = kernel.set_thread_count(previous)
    """
    top = max_threads()
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= top):
        raise ValueError(f"thread count is {count!r}: expected an integer from 1 to {top} (the cores numba may use), "
                         "or None (chosen per call)")
    previous = setting()
    _local.count = count
    return previous


def _threads_from_environment() -> None:
    global _process_count
    value = os.environ.get("HEXKERNEL_THREADS")
    if value:
        try:
            count = int(value)
        except ValueError:
            count = None
        if count is None or not 1 <= count <= max_threads():
            raise ValueError(f"HEXKERNEL_THREADS is {value!r}: expected an integer from 1 to {max_threads()}")
        _process_count = count


_threads_from_environment()
