"""All numba compilation options of hexkernel, in one place.

Every kernel is compiled through :func:`jit` (serial) or :func:`jit_parallel`
(``prange`` loops over independent rows).  Neither uses ``fastmath``: movement
costs use ``inf`` for "unreachable" and fastmath's no-inf/no-NaN assumption
would silently break them.

On-disk caching is opt-in per kernel (``cache=True`` below is only applied by
the wrappers here) and can be switched off for the whole package with the
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
import os
import sys
from pathlib import Path

import numba

#: Whether kernels cache their machine code on disk.
CACHE: bool = os.environ.get("HEXKERNEL_NUMBA_CACHE", "1") != "0"


def kernel_sources() -> list[Path]:
    """The package's source files that compile kernels (a line starting ``@jit``), this module and the dtypes."""
    package = Path(__file__).resolve().parent
    found = [package / "_jit.py", package / "_dtypes.py"]
    for path in sorted(package.rglob("*.py")):
        if path not in found and any(line.startswith("@jit") for line in path.read_text(encoding="utf-8").splitlines()):
            found.append(path)
    return found


def cache_fingerprint() -> str:
    """A digest of :func:`kernel_sources` (paths and contents), numba's and Python's versions."""
    digest = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    package = Path(__file__).resolve().parent
    for path in kernel_sources():
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """Where the machine code of this exact kernel source is cached."""
    root = os.environ.get("HEXKERNEL_CACHE_DIR")
    if not root:
        root = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                            "hexkernel")
    return Path(root) / f"numba-{cache_fingerprint()}"


if CACHE and not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(cache_dir())

_COMMON = {"nogil": True, "cache": CACHE, "error_model": "numpy", "boundscheck": False}


def jit(function):
    """Compile ``function`` as a serial nopython kernel with the project options."""
    return numba.njit(**_COMMON)(function)


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
    return numba.njit(inline="always", **_COMMON)(function)


def jit_parallel(function):
    """Compile ``function`` as a parallel nopython kernel (``numba.prange`` rows)."""
    return numba.njit(parallel=True, **_COMMON)(function)


def thread_count() -> int:
    """Number of threads the parallel kernels use from the calling thread (numba's current setting).

    Examples
    --------
    >>> import kernel
    >>> 1 <= kernel.thread_count() <= kernel.max_threads()
    True
    """
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
