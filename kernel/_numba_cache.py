"""numba's on-disk cache of the package's kernels: where it lives and how a cached kernel is loaded.

On-disk caching is given per kernel by the wrappers of :mod:`kernel._jit`
(through :func:`cached`, which gives a dispatcher its
:class:`_CacheLoadedWithoutRefresh`) and can be switched off for the whole package with
the environment variable ``HEXKERNEL_NUMBA_CACHE=0``.  No kernel that takes
another jitted function as an argument is cached.

numba checks only the source file of the cached function itself, not the
files of the functions it inlines or calls (the rule steps of
``line_of_sight/_hex/rules.py`` are inlined into ``line_of_sight/_hex/pairs.py``),
so an edited rule would silently keep running its old machine code.  The
cache therefore lives in a folder named by a fingerprint of every source file
that compiles kernels (and of the numba and Python versions):
``$HEXKERNEL_CACHE_DIR`` (default ``$XDG_CACHE_HOME/hexkernel`` or
``~/.cache/hexkernel``) ``/numba-<fingerprint>``.

The first compile of a process says so in one line (:mod:`kernel._compile_notice`, which listens to
numba's compile events from the import of this module on).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from pathlib import Path

import numba
from numba.core.runtime import rtsys

from kernel import _compile_notice
from kernel._cache_files import CheckedFunctionCache
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
    """The package's source files that compile kernels (a line starting ``@jit``), the JIT options and the dtypes."""
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
_compile_notice.install()


class _CacheLoadedWithoutRefresh(CheckedFunctionCache):
    """numba's on-disk cache of one kernel, which loads cached machine code without setting up numba's
    whole CPU target first (its files checked and written as :class:`kernel._cache_files.CheckedFunctionCache`
    says; a miss there loads a wheel's portable code where it matches, :mod:`kernel._shipped_kernels`).

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


def cached(dispatcher):
    """``dispatcher`` with its on-disk cache (:data:`CACHE`): a :class:`_CacheLoadedWithoutRefresh`."""
    if CACHE and hasattr(dispatcher, "py_func"):
        dispatcher._cache = _CacheLoadedWithoutRefresh(dispatcher.py_func)
    return dispatcher
