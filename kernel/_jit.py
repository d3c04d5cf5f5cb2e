"""All numba compilation options of hexkernel, in one place.

Every kernel is compiled through :func:`jit` (serial) or :func:`jit_parallel`
(a serial kernel over independent rows, run on several threads by
:func:`run_parts` on a pool of threads).  Neither uses ``fastmath``: movement
costs use ``inf`` for "unreachable" and fastmath's no-inf/no-NaN assumption
would silently break them.

On-disk caching is opt-in per kernel (only the wrappers here give a kernel its
cache, :class:`_CacheLoadedWithoutRefresh`) and can be switched off for the whole package with the
environment variable ``HEXKERNEL_NUMBA_CACHE=0``.  No kernel that takes another
jitted function as an argument is compiled through these wrappers.

numba checks only the source file of the cached function itself, not the
files of the functions it inlines or calls (the rule steps of
``line_of_sight/_rules.py`` are inlined into ``line_of_sight/_kernels.py``),
so an edited rule would silently keep running its old machine code.  The
cache therefore lives in a folder named by a fingerprint of every source file
that compiles kernels (and of the numba and Python versions):
``$HEXKERNEL_CACHE_DIR`` (default ``$XDG_CACHE_HOME/hexkernel`` or
``~/.cache/hexkernel``) ``/numba-<fingerprint>``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numba
from numba.core.caching import FunctionCache
from numba.core.runtime import rtsys
from numba.np.ufunc import parallel as _numba_parallel

from kernel._disk_cache import cache_root, enabled, package_files


def _defer_blas_check() -> None:
    """Spare every process the import of ``scipy.linalg`` that numba's ``numba.np.arraymath``
    makes when it is imported (on the first compile, or on loading a kernel whose machine code refers to
    it), unless BLAS is really used.

    numba's ``numba.np.arraymath`` asks at its import whether BLAS may back ``np.dot`` by importing
    ``scipy.linalg.cython_blas`` (``numba.np.linalg.ensure_blas``); no kernel here calls BLAS. For that one
    question the answer is taken from whether scipy is installed, without importing it, and numba's own
    ``ensure_blas`` is put back at once: a kernel that does use BLAS (``np.dot`` and ``np.linalg`` in user
    code) still imports and checks scipy when it is compiled. Nothing is changed once numba's target is set up.

    Called once, before the first kernel is loaded or compiled (:class:`_CacheLoadedWithoutRefresh`), or at
    import when the cache is off: ``numba.np.linalg`` imports numba's array modules, which
    loading a kernel imports anyway.
    """
    if _blas_check_deferred:
        return
    _blas_check_deferred.append(True)
    if "numba.np.arraymath" in sys.modules:
        return
    import numba.np.linalg as linalg

    original = getattr(linalg, "ensure_blas", None)
    if original is None:
        return

    def ensure_blas_once():
        linalg.ensure_blas = original
        arraymath = sys.modules.get("numba.np.arraymath")
        if arraymath is not None and getattr(arraymath, "ensure_blas", None) is ensure_blas_once:
            arraymath.ensure_blas = original
        if importlib.util.find_spec("scipy") is None:
            raise ImportError("scipy 0.16+ is required for linear algebra")

    linalg.ensure_blas = ensure_blas_once


#: Whether :func:`_defer_blas_check` ran (once per process).
_blas_check_deferred: list[bool] = []

#: Whether kernels cache their machine code on disk (read once, at import; the arrays' cache reads the same setting).
CACHE: bool = enabled()


def _kernel_files() -> list[tuple[Path, bytes]]:
    """The files of :func:`kernel_sources` with their bytes (from the package's one reading of its sources)."""
    package = Path(__file__).resolve().parent
    files = dict(package_files())
    first = [package / "_jit.py", package / "_dtypes.py"]
    found = [(path, files[path]) for path in first]
    found += [(path, content) for path, content in files.items()
              if path not in first and (content.startswith(b"@jit") or b"\n@jit" in content)]
    return found


def kernel_sources() -> list[Path]:
    """The package's source files that compile kernels (a line starting ``@jit``), this module and the dtypes."""
    return [path for path, _ in _kernel_files()]


def cache_fingerprint() -> str:
    """A digest of :func:`kernel_sources` (paths and contents), numba's and Python's versions."""
    digest = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    package = Path(__file__).resolve().parent
    for path, content in _kernel_files():
        digest.update(str(path.relative_to(package)).encode())
        digest.update(content)
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """Where the machine code of this exact kernel source is cached."""
    return cache_root() / f"numba-{cache_fingerprint()}"


if CACHE and not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(cache_dir())
if not CACHE:
    _defer_blas_check()

_COMMON = {"nogil": True, "cache": False, "error_model": "numpy", "boundscheck": False}


class _CacheLoadedWithoutRefresh(FunctionCache):
    """numba's on-disk cache of one kernel, which loads cached machine code without setting up numba's
    whole CPU target first.

    numba's own ``Cache.load_overload`` refreshes the target context before it reads the cache: it imports
    and installs every typing and lowering registry of numba (a large share of a public function's first call
    in a fresh process), which only compiling needs. Loading machine code needs the codegen (made with the
    context) and numba's runtime (NRT), which the cached code links against: this
    initialises the runtime (after :func:`_defer_blas_check`) and reads the cache as numba does. A compile
    (a cache miss) sets the whole target up itself (numba's compiler refreshes both contexts first), so
    nothing else changes; the machine code and its results are the same. ``tests/test_jit.py`` fails if
    numba's ``load_overload`` or ``enable_caching`` no longer match what this replaces.
    """

    def load_overload(self, sig, target_context):
        _defer_blas_check()
        rtsys.initialize(target_context)
        # the one registry module that adds symbols machine code may link against (the string hash secrets);
        # numba's array modules, which the first load unpickles anyway, import it too
        import numba.cpython.hashing  # noqa: F401
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)


def _cached(dispatcher):
    """``dispatcher`` with its on-disk cache (:data:`CACHE`): a :class:`_CacheLoadedWithoutRefresh`."""
    if CACHE and hasattr(dispatcher, "py_func"):
        dispatcher._cache = _CacheLoadedWithoutRefresh(dispatcher.py_func)
    return dispatcher


def jit(function):
    """Compile ``function`` as a serial nopython kernel with the project options."""
    return _cached(numba.njit(**_COMMON)(function))


def jit_inline(function):
    """Compile ``function`` to be inlined into its (jitted) callers at numba IR level.

    For per-pair evaluators called from bulk loops: passing a few dozen array
    arguments per call otherwise costs more than the work itself.

    Inlining at IR level is paid at every call site at compile time: numba
    translates the helper's bytecode again and deep-copies its IR for each
    site, and the caller's grown IR makes its SSA reconstruction and
    lowering slower (``python -m bench.compile_costs --passes`` shows the
    passes). Helpers called once per pair, per hex or rarely are compiled
    with :func:`jit` instead (LLVM may still inline them); keep this for
    small helpers on a per-pixel or per-step hot path, measured both ways.
    """
    return _cached(numba.njit(inline="always", **_COMMON)(function))


# The threads that run the parallel kernels: a kernel split into parts (:func:`jit_parallel`) runs its parts on the
# calling thread and a pool of ``max_threads() - 1`` threads, started on first use. Parts are claimed one at a time,
# so a thread slowed by other work takes fewer, and the caller works through the parts itself too: a call finishes
# even while the pool's threads are busy with another call's parts (or absent, after a ``fork``).

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
    """The parts of one call: each claimed once, by whichever thread comes first."""

    def __init__(self, call, bounds: list[int]):
        self.call = call
        self.bounds = bounds
        self.lock = threading.Lock()
        self.claimed = 0
        self.finished = 0
        self.done = threading.Event()
        self.error: BaseException | None = None

    def work(self) -> None:
        parts = len(self.bounds) - 1
        while True:
            with self.lock:
                part = self.claimed
                if part >= parts:
                    return
                self.claimed += 1
            try:
                if self.error is None:
                    self.call(self.bounds[part], self.bounds[part + 1])
            except BaseException as error:  # handed to the caller, which raises it
                self.error = self.error or error
            finally:
                with self.lock:
                    self.finished += 1
                    if self.finished == parts:
                        self.done.set()


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
        finished (the other parts are skipped).

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
    pool = _pool or _helpers()
    for _ in range(min(threads, parts) - 1):
        pool.submit(state.work)
    state.work()
    state.done.wait()
    if state.error is not None:
        raise state.error


class ParallelKernel:
    """A serial ``nogil`` kernel run over parts of its items on several threads (see :func:`jit_parallel`).

    Called with the serial kernel's arguments (less ``lo, hi`` for a kernel
    over a span); :attr:`serial` is the compiled dispatcher.
    """

    def __init__(self, function, split: tuple[str, ...], offset: str | None, count, min_part: int):
        names = list(inspect.signature(function).parameters)
        self.serial = jit(function)
        self.py_func = function
        self.__name__, self.__qualname__, self.__doc__ = function.__name__, function.__qualname__, function.__doc__
        self.__module__ = function.__module__
        self._count = count
        self._split = [names.index(name) for name in split]
        self._offset = names.index(offset) if offset is not None else None
        self._min_part = min_part

    def __call__(self, *args):
        serial = self.serial
        if self._count is not None:
            run_parts(lambda lo, hi: serial(lo, hi, *args), self._count(*args), threads=thread_count(),
                               min_part=self._min_part)
            return
        split, offset = self._split, self._offset

        def part(lo, hi):
            if lo == 0 and hi == len(args[split[0]]):
                serial(*args)
                return
            sliced = list(args)
            for index in split:
                sliced[index] = args[index][lo:hi]
            if offset is not None:
                sliced[offset] = args[offset] + lo
            serial(*sliced)

        run_parts(part, len(args[split[0]]), threads=thread_count(), min_part=self._min_part)


def jit_parallel(function=None, *, split: tuple[str, ...] = (), offset: str | None = None, count=None,
                 min_part: int = 1):
    """Compile a kernel whose items (rows, pairs, sources) are independent, to run on :func:`thread_count` threads.

    The function is compiled as a serial ``nogil`` kernel (a ``numba.prange``
    in it is a plain ``range``), and each call is cut into parts run at once
    by :func:`run_parts`, each part writing only its own
    items' outputs. numba's parallel loops would do the same, but their
    compile (numba's parfor lowering) costs seconds more per kernel.

    Two ways to name the items:

    * ``split``: the parameters that hold one entry (or row) per item,
      sliced to each part's items; ``offset`` (optional) names an integer
      parameter, the index of the first item, to which the part's start is
      added (a block of matrix rows).
    * ``count``: the function's first two parameters are ``lo, hi``, the
      part's item range, and ``count(*other_arguments)`` is the number of
      items (for items that are not slices of the arguments: balanced pairs
      of matrix rows).

    ``min_part`` is the fewest items worth a part of their own.

    Used bare (``@jit_parallel``), it compiles the function with numba's
    own parallel loops (``numba.prange``, ``parallel=True``), which read the
    same thread setting: for a kernel not yet written over a span.

    Raises
    ------
    ValueError
        Neither or both of ``split`` and ``count`` are given (without ``function``).

    Examples
    --------
    A kernel over a span: ``mirror_lower(lo, hi, out)`` copies rows
    ``lo .. hi - 1`` of the upper triangle into the lower one.

    >>> import numpy as np
    >>> from kernel.line_of_sight._kernels import mirror_lower
    >>> out = np.triu(np.arange(1, 10, dtype=np.int8).reshape(3, 3))
    >>> mirror_lower(out)
    >>> out.tolist()
    [[1, 2, 3], [2, 5, 6], [3, 6, 9]]
    """
    if function is not None:
        return _cached(numba.njit(parallel=True, **_COMMON)(function))
    if (count is None) == (not split):
        raise ValueError(f"jit_parallel is given split={split!r} and count={count!r}: expected exactly one of them "
                         "(the sliced parameters, or the item count of a kernel over lo, hi)")

    def decorate(function):
        return ParallelKernel(function, split, offset, count, min_part)

    return decorate


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
