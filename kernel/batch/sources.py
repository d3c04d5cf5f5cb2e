"""A job's maps: loading one from its description, its digests, and the per-process board cache.

Every task names its map by a :class:`~kernel.batch.spec.MapEntry` and the
map's *source digest* (the sha256 of what the map is made from: the bytes of
its file or folder, or the arguments of a random map).  A worker process
compiles each map once and keeps it, with its trace templates, in
:data:`_CACHE` keyed by that digest; after compiling it checks the *board
digest* (the sha256 of the compiled board's arrays) against the one the job
recorded, so every block of a map is computed from the same board whichever
worker runs it.

Examples
--------
>>> from kernel.batch.spec import MapEntry
>>> entry = MapEntry("r", random={"ruleset": "asl", "columns": 6, "rows": 4, "seed": 1})
>>> board = cached_board(entry, source_digest(entry))
>>> len(board), board is cached_board(entry, source_digest(entry))
(24, True)
>>> board_digest(board) == board_digest(load_entry(entry))
True
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from pathlib import Path

import numpy as np

#: Compiled boards kept per process (most recent last); a huge map's trace
#: templates are hundreds of MB, so only a few are kept.
CACHE_SIZE = 2
_CACHE: OrderedDict[str, object] = OrderedDict()
_LOCK = threading.Lock()


def load_entry(entry):
    """Compile the map an entry names (a file, folder or bundled name, or a random map)."""
    if entry.random is not None:
        from kernel.maps.random_maps import random_board

        return random_board(**entry.random)
    from kernel.loading import load

    return load(entry.source)


def source_digest(entry) -> str:
    """sha256 of what the map is made from: its file's or folder's bytes, a bundled name, random arguments."""
    digest = hashlib.sha256()
    if entry.random is not None:
        digest.update(b"random\0" + json.dumps(entry.random, sort_keys=True).encode())
        from kernel import __version__

        digest.update(__version__.encode())  # the generator may change between versions
        return digest.hexdigest()
    path = Path(entry.source)
    if path.is_file():
        digest.update(b"file\0")
        _hash_file(digest, path)
    elif path.is_dir():
        for child in sorted(p for p in path.rglob("*") if p.is_file()):
            digest.update(str(child.relative_to(path)).encode() + b"\0")
            _hash_file(digest, child)
    else:
        from kernel import __version__

        digest.update(b"bundled\0" + entry.source.encode() + b"\0" + __version__.encode())
    return digest.hexdigest()


#: Bytes read at a time when hashing a map's files (a VASL folder may hold files of gigabytes).
HASH_CHUNK_BYTES = 1 << 20


def _hash_file(digest, path: Path) -> None:
    """Feed a file's bytes to ``digest`` in chunks of :data:`HASH_CHUNK_BYTES` (memory stays bounded)."""
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(HASH_CHUNK_BYTES):
                digest.update(chunk)
    except OSError as error:
        from kernel.batch.spec import BatchJobError

        raise BatchJobError(f"{path}: cannot read the map's source ({error.strerror or error})") from None


def board_digest(board) -> str:
    """sha256 of a compiled board: its ruleset, hex names and every array (name, dtype, shape, bytes)."""
    digest = hashlib.sha256(board.ruleset.name.encode() + b"\0")
    digest.update("\n".join(board.names).encode())
    for name, array in sorted(board.arrays().items()):
        digest.update(f"{name}:{array.dtype.str}:{array.shape}".encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def cached_board(entry, digest: str):
    """The compiled map of ``entry``, compiled at most once per process while it stays in the cache.

    ``digest`` is the entry's :func:`source_digest` as the client computed
    it: the cache key.  Thread-safe (one lock around the compile, so two
    threads of one worker never compile the same map twice).
    """
    with _LOCK:
        board = _CACHE.get(digest)
        if board is not None:
            _CACHE.move_to_end(digest)
            return board
        board = load_entry(entry)
        _CACHE[digest] = board
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
        return board


def clear_cache() -> None:
    """Forget every cached board of this process."""
    with _LOCK:
        _CACHE.clear()
