"""All numba compilation options of hexkernel, in one place.

Every kernel is compiled through :func:`jit` (serial) or :func:`jit_parallel`
(a serial kernel over independent rows, run on several threads by
:func:`~kernel._threads.run_parts` on a pool of threads).  Neither uses ``fastmath``: movement
costs use ``inf`` for "unreachable" and fastmath's no-inf/no-NaN assumption
would silently break them.  Each wrapper gives its kernel numba's on-disk cache
(:mod:`kernel._numba_cache`, where the cache lives and how it loads); the
threads are :mod:`kernel._threads`.
"""

from __future__ import annotations

import inspect

import numba

from kernel._numba_cache import cached
from kernel._signals import deferred_signals
from kernel._threads import numba_threads, run_parts, thread_count, threads_for  # noqa: F401 (thread_count: for callers)

_COMMON = {"nogil": True, "cache": False, "error_model": "numpy", "boundscheck": False}


def _cached(dispatcher):
    """``dispatcher`` with its on-disk cache (:func:`kernel._numba_cache.cached`), compiled (or loaded from
    the cache) with Ctrl-C and SIGTERM held (:func:`kernel._signals.deferred_signals`).

    Loading a cached kernel hands its machine code to LLVM through a Python callback; a KeyboardInterrupt
    raised there is only printed (the callback is C's), LLVM gets no code, and the kernel's next call jumps
    nowhere: a segmentation fault, in a caller who caught the interrupt and called again, or in a command
    whose interrupt the callback swallowed. A compile reports its code through such a callback too. So the
    signal waits until the compile or load is whole, then stops the call as usual.
    """
    dispatcher = cached(dispatcher)
    compile_whole = dispatcher.compile

    def compile(signature):
        with deferred_signals():
            return compile_whole(signature)

    dispatcher.compile = compile
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


class ParallelKernel:
    """A serial ``nogil`` kernel run over parts of its items on several threads (see :func:`jit_parallel`).

    Called with the serial kernel's arguments (less ``lo, hi`` for a kernel
    over a span), on :func:`~kernel._threads.threads_for` threads for the
    work ``work(*arguments)`` estimates; :meth:`run` takes the thread count
    chosen by its caller.  :attr:`serial` (also :attr:`compiled`, as
    :class:`LoopKernel` has it) is the compiled dispatcher.
    """

    def __init__(self, function, split: tuple[str, ...], offset: str | None, count, min_part: int, work):
        names = list(inspect.signature(function).parameters)
        self.serial = self.compiled = jit(function)
        self.py_func = function
        self.__name__, self.__qualname__, self.__doc__ = function.__name__, function.__qualname__, function.__doc__
        self.__module__ = function.__module__
        self._count = count
        self._split = [names.index(name) for name in split]
        self._offset = names.index(offset) if offset is not None else None
        self._min_part = min_part
        self._work = work

    def __call__(self, *args):
        self.run(threads_for(self.work(*args)), *args)

    def work(self, *args) -> float | None:
        """The call's work in microseconds on one thread, as the kernel's ``work=`` estimates it from its
        arguments (None: a large call)."""
        return self._work(*args) if self._work is not None else None

    def run(self, threads: int, *args):
        """The kernel on ``threads`` threads (the calling one included)."""
        serial = self.serial
        if self._count is not None:
            run_parts(lambda lo, hi: serial(lo, hi, *args), self._count(*args), threads=threads,
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

        run_parts(part, len(args[split[0]]), threads=threads, min_part=self._min_part)


class LoopKernel:
    """A kernel compiled with numba's own parallel loops (``jit_parallel`` used bare), run on
    :func:`~kernel._threads.threads_for` threads: the count is handed to numba before each call
    (numba keeps one per calling thread).  :meth:`run` takes the count chosen by its caller;
    :attr:`compiled` is the dispatcher, and every other attribute is the dispatcher's."""

    def __init__(self, dispatcher, work):
        self.compiled = dispatcher
        self._work = work
        self.py_func = dispatcher.py_func
        self.__name__, self.__qualname__ = dispatcher.py_func.__name__, dispatcher.py_func.__qualname__
        self.__doc__, self.__module__ = dispatcher.py_func.__doc__, dispatcher.py_func.__module__

    def __call__(self, *args):
        return self.run(threads_for(self._work(*args) if self._work is not None else None), *args)

    def run(self, threads: int, *args):
        """The kernel on ``threads`` of numba's threads."""
        numba_threads(threads)
        return self.compiled(*args)

    def __getattr__(self, name):
        if name == "compiled":  # not set yet (a copy being made): no dispatcher to ask
            raise AttributeError(name)
        return getattr(self.compiled, name)


def jit_parallel(function=None, *, split: tuple[str, ...] = (), offset: str | None = None, count=None,
                 min_part: int = 1, work=None):
    """Compile a kernel whose items (rows, pairs, sources) are independent, to run on several threads.

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

    ``min_part`` is the fewest items worth a part of their own.  ``work``
    (optional) estimates a call's work in microseconds on one thread from
    its arguments: by default (no thread setting) a small call runs on the
    calling thread and a larger one on the cores free
    (:func:`~kernel._threads.threads_for`); without it every call counts as
    large.

    Used bare (``@jit_parallel``), it compiles the function with numba's
    own parallel loops (``numba.prange``, ``parallel=True``), given the
    same thread count per call (:class:`LoopKernel`): for a kernel not yet
    written over a span.

    Raises
    ------
    ValueError
        Neither or both of ``split`` and ``count`` are given (without ``function``).

    Examples
    --------
    A kernel over a span: ``mirror_lower(lo, hi, out)`` copies rows
    ``lo .. hi - 1`` of the upper triangle into the lower one.

    >>> import numpy as np
    >>> from kernel.line_of_sight._hex.pairs import mirror_lower
    >>> out = np.triu(np.arange(1, 10, dtype=np.int8).reshape(3, 3))
    >>> mirror_lower(out)
    >>> out.tolist()
    [[1, 2, 3], [2, 5, 6], [3, 6, 9]]
    """
    if function is not None:
        return LoopKernel(_cached(numba.njit(parallel=True, **_COMMON)(function)), None)
    if (count is None) == (not split):
        raise ValueError(f"jit_parallel is given split={split!r} and count={count!r}: expected exactly one of them "
                         "(the sliced parameters, or the item count of a kernel over lo, hi)")

    def decorate(function):
        return ParallelKernel(function, split, offset, count, min_part, work)

    return decorate
