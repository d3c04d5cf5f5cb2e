"""A batch array's blocks on disk: the zarr v3 metadata a run writes, each block's chunk file written
atomically and read back within bounds, and the digest that binds a block to its map, array and place.

Every array of a batch output is a zarr v3 array (``zarr.open_array`` reads
it) with metadata this module writes and pins: a regular grid of
``(block_rows, columns)`` chunks, the default chunk key encoding (block
``K``'s chunk is the file ``c/K/0``), the ``bytes`` codec (little endian)
and ``zstd`` at level 0, fill value 0.  So a reader knows, before it opens a
chunk file, what the file must be: a regular file (never a symbolic link, a
device or a FIFO), compressed to at most :func:`max_chunk_bytes`, that
inflates to exactly one chunk's bytes (the inflation is told its output
size: a file claiming more is refused, not allocated).

:func:`block_digest` is the sha256 of a block's bytes together with the name
and board digest of its map, its array, its block index and first row: the
same bytes at another place (a chunk swapped with its neighbour, a map
folder copied over another) have another digest.

Examples
--------
>>> import tempfile, numpy as np
>>> folder = Path(tempfile.mkdtemp()) / "hindrance"
>>> write_metadata(folder, array_metadata((5, 5), 2, "int8"))
>>> write_chunk(folder, 2, np.full((1, 5), -1, np.int8), 2)
>>> read_chunk(folder, 2, (5, 5), 2, "int8").tolist()
[[-1, -1, -1, -1, -1]]
>>> block_digest("71", "d", "hindrance", 2, 4, np.full((1, 5), -1, np.int8)) != \\
...     block_digest("71", "d", "hindrance", 1, 2, np.full((1, 5), -1, np.int8))
True
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import stat
from pathlib import Path

import numpy as np

#: The zstd level of every chunk (zarr's default).
ZSTD_LEVEL = 0
METADATA = "zarr.json"


class BatchOutputError(ValueError):
    """An output folder that is in use by another run, or whose files are not what the run wrote."""


class DamagedBlock(Exception):
    """Internal: why a block's chunk cannot be what its run wrote (the caller names the map and block)."""


def array_metadata(shape, block_rows: int, dtype: str) -> dict:
    """The ``zarr.json`` of an array of ``shape`` (rows, columns) and ``dtype``, chunked by ``block_rows``
    rows, as a run writes it (and as zarr 3 writes such an array by default)."""
    serializer = {"name": "bytes"}
    if np.dtype(dtype).itemsize > 1:
        serializer["configuration"] = {"endian": "little"}
    return {"shape": [int(shape[0]), int(shape[1])], "data_type": str(dtype),
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [int(block_rows), int(shape[1])]}},
            "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}}, "fill_value": 0,
            "codecs": [serializer, {"name": "zstd", "configuration": {"level": ZSTD_LEVEL, "checksum": False}}],
            "attributes": {}, "zarr_format": 3, "node_type": "array", "storage_transformers": []}


def group_metadata() -> dict:
    """The ``zarr.json`` of the group holding a map's arrays."""
    return {"attributes": {}, "zarr_format": 3, "node_type": "group"}


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a new temporary file in the same folder, fsync and a rename (which
    replaces a symbolic link at ``path``, never writes through it); nothing is left when it fails."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
        with open(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_metadata(folder: Path, metadata: dict) -> None:
    """``folder/zarr.json`` holding ``metadata`` (the folder is made when missing)."""
    real_folder(folder)
    atomic_write_bytes(Path(folder) / METADATA, json.dumps(metadata, indent=2).encode())


def real_folder(folder: Path) -> Path:
    """``folder`` as a real folder: a symbolic link or file there is removed first, then it is made."""
    folder = Path(folder)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        folder.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def chunk_path(folder: Path, block: int) -> Path:
    """The chunk file of block ``block`` of the array in ``folder``."""
    return Path(folder) / "c" / str(int(block)) / "0"


def max_chunk_bytes(block_rows: int, columns: int, dtype: str) -> int:
    """The largest compressed chunk zstd can make of one chunk's bytes (its documented worst-case bound)."""
    raw = block_rows * columns * np.dtype(dtype).itemsize
    return raw + (raw >> 8) + 1024


def write_chunk(folder: Path, block: int, data: np.ndarray, block_rows: int) -> None:
    """Write block ``block``'s rows (``data``, at most ``block_rows`` of them) as its chunk file, padded to
    a whole chunk with the fill value as zarr expects; a link in the chunk's path is replaced."""
    from numcodecs import zstd

    data = np.ascontiguousarray(data)
    chunk = np.zeros((block_rows, data.shape[1]), data.dtype.newbyteorder("<"))
    chunk[:data.shape[0]] = data
    path = chunk_path(folder, block)
    real_folder(path.parent.parent)
    real_folder(path.parent)
    atomic_write_bytes(path, zstd.compress(chunk.tobytes(), ZSTD_LEVEL))


def read_chunk(folder: Path, block: int, shape, block_rows: int, dtype: str) -> np.ndarray:
    """The rows of block ``block`` from its chunk file, read within bounds; else a :class:`DamagedBlock`
    saying why (a link or a file that is not regular anywhere on its path, a size beyond a chunk's bound,
    bytes that do not inflate to exactly one chunk)."""
    from numcodecs import zstd

    rows, columns = int(shape[0]), int(shape[1])
    first = block * block_rows
    count = min(block_rows, rows - first)
    path = chunk_path(folder, block)
    for part in (Path(folder), path.parent.parent, path.parent, path):
        try:
            mode = os.lstat(part).st_mode
        except FileNotFoundError:
            raise DamagedBlock(f"its chunk file {_relative(path, folder)} is missing") from None
        if stat.S_ISLNK(mode):
            raise DamagedBlock(f"{_relative(part, folder)} is a symbolic link: expected the file the run wrote")
        if part != path and not stat.S_ISDIR(mode):
            raise DamagedBlock(f"{_relative(part, folder)} is not a folder")
    if not stat.S_ISREG(mode):
        raise DamagedBlock(f"its chunk file {_relative(path, folder)} is not a regular file")
    bound = max_chunk_bytes(block_rows, columns, dtype)
    with open(path, "rb") as handle:
        raw = handle.read(bound + 1)
    if len(raw) > bound:
        raise DamagedBlock(f"its chunk file is larger than a chunk can be ({bound} bytes)")
    out = bytearray(block_rows * columns * np.dtype(dtype).itemsize)
    try:
        zstd.decompress(raw, out)
    except Exception as error:   # numcodecs reports corrupt, truncated and oversized frames alike
        raise DamagedBlock(f"its chunk does not inflate to one chunk ({' '.join(str(error).split())[:80]})") \
            from None
    return np.frombuffer(out, np.dtype(dtype).newbyteorder("<")).reshape(block_rows, columns)[:count] \
        .astype(dtype, copy=False)


def _relative(path: Path, folder: Path) -> str:
    try:
        return str(Path(path).relative_to(Path(folder).parent))
    except ValueError:
        return str(path)


def block_digest(map_name: str, board_digest: str, array: str, block: int, first_row: int,
                 data: np.ndarray) -> str:
    """sha256 of a block's rows (C order) with its identity: map name, board digest, array, block index,
    first row, shape and dtype."""
    data = np.ascontiguousarray(data)
    identity = json.dumps(["hexkernel batch block", map_name, board_digest, array, int(block), int(first_row),
                           list(data.shape), str(data.dtype)])
    digest = hashlib.sha256(identity.encode() + b"\0")
    digest.update(data.tobytes())
    return digest.hexdigest()
