"""All numba compilation options of hexkernel, in one place.

Every kernel is compiled through :func:`jit` (serial) or :func:`jit_parallel`
(``prange`` loops over independent rows).  Neither uses ``fastmath``: movement
costs use ``inf`` for "unreachable" and fastmath's no-inf/no-NaN assumption
would silently break them.

On-disk caching is opt-in per kernel (``cache=True`` below is only applied by
the wrappers here) and can be switched off for the whole package with the
environment variable ``HEXKERNEL_NUMBA_CACHE=0``.  No kernel that takes another
jitted function as an argument is compiled through these wrappers.
"""

from __future__ import annotations

import os

import numba

#: Whether kernels cache their machine code on disk (``__pycache__``).
CACHE: bool = os.environ.get("HEXKERNEL_NUMBA_CACHE", "1") != "0"

_COMMON = {"nogil": True, "cache": CACHE, "error_model": "numpy", "boundscheck": False}


def jit(function):
    """Compile ``function`` as a serial nopython kernel with the project options."""
    return numba.njit(**_COMMON)(function)


def jit_inline(function):
    """Compile ``function`` to be inlined into its (jitted) callers at numba IR level.

    For per-pair evaluators called from bulk loops: passing a few dozen array
    arguments per call otherwise costs more than the work itself.
    """
    return numba.njit(inline="always", **_COMMON)(function)


def jit_parallel(function):
    """Compile ``function`` as a parallel nopython kernel (``numba.prange`` rows)."""
    return numba.njit(parallel=True, **_COMMON)(function)


def thread_count() -> int:
    """Number of threads parallel kernels use (numba's current setting)."""
    return numba.get_num_threads()
