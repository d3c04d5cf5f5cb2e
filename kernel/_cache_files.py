"""numba's on-disk cache of one kernel, made safe against damaged files and folders it cannot write.

numba's own ``FunctionCache`` raises whatever unpickling raises when an
index or data file is cut, emptied or overwritten (``UnpicklingError``,
``EOFError``, ...), and keeps raising it in every later process; loads a data
file that another signature's or kernel's entry points at (files swapped),
which then fails at the call with a ``TypeError``; when the cache folder
cannot be written (read-only, or a regular file in its place) it falls back
to the ``__pycache__`` folders of the installed package itself; and an
``OSError`` while saving (a full disk) ends the call that compiled.

:class:`CheckedFunctionCache` keeps numba's file format and differs in just
these points: a file that cannot be read back, or that holds another kernel
or signature than its index entry names, is a miss, with one warning
(:class:`DamagedCacheWarning`) naming the file, and the kernel compiles again
(its save then replaces the entry); the cache folder is only ever the one
numba is configured with (``numba.config.CACHE_DIR``); a save that fails is
skipped, with one warning per process (:class:`UnwritableCacheWarning`): the
cache only saves time. A miss in the cache folder then looks for the machine
code of an installed wheel (:mod:`kernel._shipped_kernels`).
"""

from __future__ import annotations

import os
import threading
import warnings

from numba.core import config, sigutils
from numba.core.caching import (CompileResultCacheImpl, FunctionCache, IndexDataCacheFile,
                                UserProvidedCacheLocator)


class DamagedCacheWarning(UserWarning):
    """A file of the kernel cache could not be read back (or held another kernel's code): the kernel
    compiles again and replaces it."""


class UnwritableCacheWarning(UserWarning):
    """The kernel cache's folder cannot be written: kernels compile in every process until it can."""


_warned: set[str] = set()
_warned_lock = threading.Lock()


def _warn_once(kind: str, category, message: str) -> None:
    with _warned_lock:
        if kind in _warned:
            return
        _warned.add(kind)
    warnings.warn(message, category, stacklevel=2)


def _damaged(path: str, what: str) -> None:
    what = " ".join(str(what).split())   # one line: an unpickler's message may hold line breaks
    _warn_once(f"damaged {path}", DamagedCacheWarning,
               f"the kernel cache file {path} is damaged ({what}): compiling that kernel again")


class _ConfiguredFolderLocator(UserProvidedCacheLocator):
    """numba's configured cache folder (``numba.config.CACHE_DIR``) whether or not it can be written now: never
    the package's own ``__pycache__`` (numba's next locator when the folder cannot be written)."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if not config.CACHE_DIR or not os.path.exists(py_file):
            return None
        return cls(py_func, py_file)


class _CompileResultsInConfiguredFolder(CompileResultCacheImpl):
    _locator_classes = [_ConfiguredFolderLocator]


class _CheckedIndexDataCacheFile(IndexDataCacheFile):
    """numba's index and data files, a file that cannot be read back being a miss (warned once)."""

    def _load_index(self):
        try:
            return super()._load_index()
        except OSError:
            return {}
        except Exception as error:   # unpickling a cut, emptied or random file raises nearly anything
            _damaged(self._index_path, f"{type(error).__name__}: {error}"[:200])
            return {}

    def _load_data(self, name):
        try:
            return super()._load_data(name)
        except OSError:
            raise
        except Exception as error:
            _damaged(self._data_path(name), f"{type(error).__name__}: {error}"[:200])
            return None


class CheckedFunctionCache(FunctionCache):
    """numba's ``FunctionCache`` with the checks of this module (see its docstring)."""

    _impl_class = _CompileResultsInConfiguredFolder

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file = _CheckedIndexDataCacheFile(cache_path=self._cache_path,
                                                      filename_base=self._impl.filename_base,
                                                      source_stamp=self._cache_file._source_stamp)

    def _load_overload(self, sig, target_context):
        if not self._enabled:
            return None
        key = self._index_key(sig, target_context.codegen())
        cres = self.rebuild_checked(self._cache_file.load(key), sig, target_context, self._cache_file._index_path)
        if cres is None:
            from kernel import _shipped_kernels

            cres = _shipped_kernels.load(self, sig, target_context)
        return cres

    def rebuild_checked(self, payload, sig, target_context, where: str):
        """The compile result of a data file's ``payload`` if it is this kernel's for ``sig``, else ``None``."""
        if payload is None:
            return None
        function = self._py_func
        try:
            fndesc, signature = payload[1], payload[3]
            same = (fndesc.modname == function.__module__ and fndesc.qualname == function.__qualname__
                    and tuple(signature.args) == tuple(sigutils.normalize_signature(sig)[0]))
        except Exception:   # not a compile result's payload at all
            same = False
        if not same:
            _damaged(where, f"an entry holds the code of another kernel or signature than "
                            f"{function.__qualname__}{tuple(sigutils.normalize_signature(sig)[0])}")
            return None
        try:
            return self._impl.rebuild(target_context, payload)
        except Exception as error:
            _damaged(where, f"{type(error).__name__}: {error}"[:200])
            return None

    def _save_overload(self, sig, data):
        try:
            super()._save_overload(sig, data)
        except OSError as error:
            _warn_once("unwritable", UnwritableCacheWarning,
                       f"cannot write the kernel cache in {config.CACHE_DIR} ({error.strerror or error}): "
                       "kernels compile again in every process; set HEXKERNEL_CACHE_DIR to a writable folder")
