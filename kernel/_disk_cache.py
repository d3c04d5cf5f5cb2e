"""Arrays kept on disk between processes, beside numba's machine code (a map's rasterised art).

A fresh process that asks for the depiction model of a map without drawn
art would otherwise rasterise the whole map again (a few tenths of a second
for a bundled scenario). :func:`load` and :func:`save` keep named arrays in
``<cache root>/<kind>/<key>.npz``, the cache root being the folder family of
numba's cache (``$HEXKERNEL_CACHE_DIR``, default ``$XDG_CACHE_HOME/hexkernel``
or ``~/.cache/hexkernel``). The key is a digest of everything the arrays are
computed from (:func:`digest`), the code included, so an entry is never stale:
changed inputs or code give another key, hence another file. Each file holds,
beside its arrays, the sha256 of its key and of every array's name, dtype,
shape and bytes (:func:`content_digest`); a file whose arrays do not give it
(values changed with their shapes kept, a file copied from another key) is a
miss, as is a file that cannot be read (cut short, overwritten, not an
``.npz``): the caller computes the arrays again and its :func:`save`
replaces the file. Files are
written to a temporary name and renamed, so a reader never sees half a file.
``hexkernel warm`` reads none (:data:`READ`): it computes and stores them, and
so compiles the kernels that compute them.

``HEXKERNEL_NUMBA_CACHE=0`` switches this cache off with numba's: nothing is
read or written.

Examples
--------
>>> import numpy as np, tempfile, os
>>> from kernel import _disk_cache
>>> os.environ["HEXKERNEL_CACHE_DIR"] = folder = tempfile.mkdtemp()
>>> key = _disk_cache.digest(["example", np.arange(3)])
>>> _disk_cache.load("example", key, ("values",)) is None    # nothing yet
True
>>> _disk_cache.save("example", key, {"values": np.arange(3)})
>>> _disk_cache.load("example", key, ("values",))["values"].tolist()
[0, 1, 2]
>>> del os.environ["HEXKERNEL_CACHE_DIR"]
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np


#: Whether :func:`load` reads files (``hexkernel warm`` computes every array anew, so that the kernels that
#: compute them are compiled whatever the cache holds, and stores the result).
READ = True


def enabled() -> bool:
    """Whether the on-disk caches are on (``HEXKERNEL_NUMBA_CACHE`` is not ``0``)."""
    return os.environ.get("HEXKERNEL_NUMBA_CACHE", "1") != "0"


def cache_root() -> Path:
    """The folder of every on-disk cache of hexkernel (numba's machine code in ``numba-<fingerprint>``)."""
    root = os.environ.get("HEXKERNEL_CACHE_DIR")
    if not root:
        root = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                            "hexkernel")
    return Path(root)


_package_files: list[tuple[tuple[Path, bytes], ...]] = []
_package_digest: list[bytes] = []


def package_files() -> tuple[tuple[Path, bytes], ...]:
    """Every source file of the package (its path and bytes, in path order), read once per process: the
    package's digest (:func:`package_digest`) and the numba cache's folder name (``kernel._jit``) both
    come from this one reading."""
    if not _package_files:
        package = Path(__file__).resolve().parent
        _package_files.append(tuple((path, path.read_bytes()) for path in sorted(package.rglob("*.py"))))
    return _package_files[0]


def package_digest() -> bytes:
    """A digest of every source file of the package (paths and contents) and of numpy's version, computed
    once per process: part of every key, so that no edit of the code that computes an array (wherever it
    lives in the package) can leave a stale one in use."""
    if not _package_digest:
        hasher = hashlib.sha256(f"numpy {np.__version__}".encode())
        package = Path(__file__).resolve().parent
        for path, content in package_files():
            hasher.update(str(path.relative_to(package)).encode() + b"\0")
            hasher.update(content)
        _package_digest.append(hasher.digest())
    return _package_digest[0]


def digest(parts) -> str:
    """A hex digest of the package's code (:func:`package_digest`) and of ``parts``: arrays (dtype, shape
    and bytes), bytes, and anything else by its ``repr``."""
    hasher = hashlib.sha256(package_digest())
    for part in parts:
        if isinstance(part, np.ndarray):
            hasher.update(f"array {part.dtype.str} {part.shape}".encode())
            hasher.update(np.ascontiguousarray(part).tobytes())
        elif isinstance(part, bytes):
            hasher.update(b"bytes %d " % len(part) + part)
        else:
            hasher.update(f"{type(part).__name__} {part!r}".encode())
        hasher.update(b"\0")
    return hasher.hexdigest()[:32]


#: The member of every cache file that holds :func:`content_digest` of the others.
DIGEST = "content_sha256"


def content_digest(key: str, arrays: dict[str, np.ndarray]) -> str:
    """sha256 of a cache entry's key and of every array's name, dtype, shape and bytes (in name order)."""
    hasher = hashlib.sha256(f"hexkernel cache entry {key}".encode())
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        hasher.update(f"\0{name} {array.dtype.str} {array.shape}\0".encode())
        hasher.update(array.reshape(-1).view(np.uint8))
    return hasher.hexdigest()


def _path(kind: str, key: str) -> Path:
    return cache_root() / kind / f"{key}.npz"


def load(kind: str, key: str, names: tuple[str, ...]) -> dict[str, np.ndarray] | None:
    """The arrays ``names`` saved under ``kind``/``key``; ``None`` when the cache is off, the file is
    missing, cannot be read, lacks one of them, or its arrays do not give its stored content digest (the
    caller then computes and saves them again)."""
    if not enabled() or not READ:
        return None
    path = _path(kind, key)
    try:
        with np.load(path, allow_pickle=False) as stored:
            arrays = {name: stored[name] for name in stored.files if name != DIGEST}
            recorded = str(stored[DIGEST][()]) if DIGEST in stored.files else None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if recorded != content_digest(key, arrays) or not set(names) <= set(arrays):
        return None
    return {name: arrays[name] for name in names}


def save(kind: str, key: str, arrays: dict[str, np.ndarray]) -> None:
    """Keep ``arrays`` under ``kind``/``key`` (nothing when the cache is off; a folder that cannot be
    written is skipped silently: the cache only saves time)."""
    if not enabled():
        return
    path = _path(kind, key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{key}-", suffix=".npz", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                np.savez(out, **arrays, **{DIGEST: np.array(content_digest(key, arrays))})
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        return
