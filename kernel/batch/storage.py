"""The output folder of a batch job: one zarr group per map, atomic block writes, completion markers.

Layout (``docs/batch-jobs.md``)::

    OUT/manifest.json               the job, versions, every map and the sha256 of every block
    OUT/job.toml (or job.json)      the job file as it was run
    OUT/maps/NAME/map.json          the map: source, digests, hexes, block rows, arrays
    OUT/maps/NAME/arrays.zarr/      a zarr group, one array per output, chunked by the row blocks
    OUT/maps/NAME/done/ARRAY/K.json completion marker of block K of ARRAY: its rows, sha256 and creation id
    OUT/.lock                       while a run writes OUT: its process id, host and start time

A block counts as written only when its marker exists and carries the
creation id of the map's arrays (a random id that :func:`prepare_map` writes
into ``map.json`` each time it creates the arrays afresh): a marker left from
arrays that were since recreated marks nothing.  The chunk is written
first (zarr writes a chunk to a temporary file and renames it), the marker
after it, also by temporary file and rename, so a task killed at any moment
leaves either a complete block with its marker, or no marker: the next run
writes that block again, and :func:`batch_result` refuses to read an array
with a block that has none.  :func:`batch_result` also checks ``map.json``
and the zarr metadata of the array against the manifest (hexes, block rows,
shape, dtype, chunks) before reading, so a tampered file is refused, not read.

One run at a time writes an output folder: :func:`locked_output` holds the
operating system's lock on ``OUT/.lock`` (which records the owner's pid and
host) for the whole run; a second run is refused in one line naming the
owner, and a lock file whose run ended, however it ended, is free.

Examples
--------
>>> import tempfile, numpy as np
>>> folder = Path(tempfile.mkdtemp())
>>> creation = prepare_map(folder, {"hexes": 5, "block_rows": 2,
...                                 "arrays": {"vantage": {"shape": [5, 3], "dtype": "int32"}}})
>>> for k, first in enumerate(range(0, 5, 2)):
...     checksum = write_block(folder, "vantage", k, first, np.full((min(2, 5 - first), 3), k, np.int32))
>>> sorted(completed_blocks(folder, "vantage"))
[0, 1, 2]
>>> batch_result(folder.parent, folder.name, "vantage", out_is_map=True)[:, 0].tolist()
[0, 0, 1, 1, 2]
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from kernel._limits import MAX_MAP_HEXES
from kernel._extras import require

MANIFEST = "manifest.json"
MAP_INFO = "map.json"
ARRAYS = "arrays.zarr"
MARKERS = "done"
LOCK = ".lock"
#: Bytes of a manifest, ``map.json`` or marker read back (far above any real one).
MAX_RECORD_BYTES = 64 * 1024 * 1024


class BatchOutputError(ValueError):
    """An output folder that is in use by another run, or whose files are not what the run wrote."""


def read_record(path: Path, what: str) -> dict:
    """A JSON object written by a run (manifest, ``map.json``, marker), or a BatchOutputError naming the file."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_RECORD_BYTES + 1)
        if len(raw) > MAX_RECORD_BYTES:
            raise ValueError(f"larger than {MAX_RECORD_BYTES} bytes")
        data = json.loads(raw.decode("utf-8"))
    except OSError as error:
        raise BatchOutputError(f"{path}: cannot read the {what} ({error.strerror or error})") from None
    except (ValueError, RecursionError) as error:
        raise BatchOutputError(f"{path}: the {what} is not valid JSON ({' '.join(str(error).split())[:120]}): "
                               "expected the file a batch run wrote (use a new output folder)") from None
    if not isinstance(data, dict):
        raise BatchOutputError(f"{path}: the {what} is a JSON {type(data).__name__}: expected an object")
    return data


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def block_checksum(data: np.ndarray) -> str:
    """sha256 of a block's bytes in C order."""
    return hashlib.sha256(np.ascontiguousarray(data).tobytes()).hexdigest()


def read_map_info(folder: Path) -> dict | None:
    """The ``map.json`` of a map folder (checked: :func:`check_map_info`), or None when it was never prepared."""
    path = Path(folder) / MAP_INFO
    if not path.exists() and not path.is_symlink():
        return None
    return check_map_info(read_record(path, "map record"), path)


def check_map_info(info: dict, where) -> dict:
    """``info`` when its hexes, block rows, arrays and creation id are well formed, else a BatchOutputError."""
    hexes, rows = info.get("hexes"), info.get("block_rows")
    for key, value in (("hexes", hexes), ("block_rows", rows)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_MAP_HEXES:
            raise BatchOutputError(f"{where}: {key} is {value!r}: expected an integer 1..{MAX_MAP_HEXES}")
    arrays = info.get("arrays")
    if not isinstance(arrays, dict) or not all(isinstance(spec, dict) for spec in arrays.values()):
        raise BatchOutputError(f"{where}: arrays is {str(arrays)[:80]}: expected an object of name: shape and dtype")
    from kernel.batch.blocks import expected_shape

    for name, spec in arrays.items():
        wanted = expected_shape(name, hexes)
        if wanted is None or [spec.get("shape"), spec.get("dtype")] != [list(wanted[0]), wanted[1]]:
            raise BatchOutputError(f"{where}: array {name!r} is {spec.get('shape')!r} {spec.get('dtype')!r}: "
                                   f"expected {list(wanted[0]) if wanted else '?'} {wanted[1] if wanted else '?'} "
                                   f"for {hexes} hexes")
    creation = info.get("creation")
    if creation is not None and not isinstance(creation, str):
        raise BatchOutputError(f"{where}: creation is {creation!r}: expected the id string prepare_map wrote")
    return info


def prepare_map(folder: Path, info: dict) -> str:
    """Create a map's zarr arrays (chunked by ``info["block_rows"]`` rows), then its ``map.json``; returns
    the arrays' new creation id.

    ``info`` holds ``hexes``, ``block_rows`` and ``arrays`` (name -> shape and
    dtype), and whatever else the manifest should repeat (source, digests).
    Markers left in the folder are deleted first, and ``map.json`` is
    written last with a new ``creation`` id that every marker of these arrays
    carries, so a folder without it is started afresh and no old marker can
    mark a block of the new, empty arrays.
    """
    import zarr

    folder = Path(folder)
    shutil.rmtree(folder / MARKERS, ignore_errors=True)
    group = zarr.open_group(str(folder / ARRAYS), mode="w")
    for name, spec in info["arrays"].items():
        shape = tuple(spec["shape"])
        group.create_array(name, shape=shape, chunks=(info["block_rows"], shape[1]), dtype=spec["dtype"],
                           fill_value=0)
    (folder / MARKERS).mkdir(parents=True, exist_ok=True)
    creation = uuid.uuid4().hex
    atomic_write_text(folder / MAP_INFO, json.dumps({**info, "creation": creation}, indent=1, sort_keys=True))
    return creation


def marker_path(folder: Path, array: str, block: int) -> Path:
    return Path(folder) / MARKERS / array / f"{block}.json"


def creation_id(folder: Path) -> str | None:
    """The creation id of a map folder's arrays (from its ``map.json``), None when it has none."""
    info = read_map_info(folder)
    return None if info is None else info.get("creation")


def completed_blocks(folder: Path, array: str, creation: str | None = None) -> dict[int, dict]:
    """The blocks of ``array`` whose markers exist and belong to the arrays: block index -> marker.

    A marker counts only when it is a JSON object with its rows and sha256 and
    the ``creation`` id of the arrays (read from ``map.json`` when not given);
    an unreadable marker, or one left from arrays created before, marks nothing
    and its block is computed again.
    """
    folder = Path(folder)
    creation = creation_id(folder) if creation is None else creation
    done = {}
    place = folder / MARKERS / array
    if place.is_dir():
        for path in place.glob("*.json"):
            if not path.stem.isdigit() or len(path.stem) > 9:
                continue
            try:
                marker = read_record(path, "block marker")
            except BatchOutputError:
                continue
            if marker.get("creation") == creation and isinstance(marker.get("sha256"), str) \
                    and isinstance(marker.get("rows"), list):
                done[int(path.stem)] = marker
    return done


def write_block(folder: Path, array: str, block: int, first_row: int, data: np.ndarray,
                creation: str | None = None) -> str:
    """Write rows ``first_row ..`` of ``array`` (exactly one chunk), then its completion marker with the
    arrays' creation id (read from ``map.json`` when not given); returns the block's sha256."""
    import zarr

    creation = creation_id(folder) if creation is None else creation
    target = zarr.open_array(str(Path(folder) / ARRAYS / array), mode="r+")
    target[first_row:first_row + data.shape[0]] = data
    checksum = block_checksum(data)
    atomic_write_text(marker_path(folder, array, block),
                      json.dumps({"rows": [first_row, first_row + int(data.shape[0])], "sha256": checksum,
                                  "creation": creation}))
    return checksum


def open_checked_array(folder: Path, array: str, info: dict, mode: str = "r"):
    """The zarr array ``array`` of a map folder, once its stored shape, dtype and chunks are those of
    ``info`` (``map.json``, itself checked against the manifest); else a BatchOutputError naming both."""
    import zarr

    spec = info["arrays"][array]
    path = Path(folder) / ARRAYS / array
    try:
        target = zarr.open_array(str(path), mode=mode)
    except Exception as error:  # zarr reports a missing or corrupt array with several exception types
        raise BatchOutputError(f"{path}: cannot open the zarr array ({type(error).__name__}: "
                               f"{' '.join(str(error).split())[:120]}): expected the array a batch run wrote") from None
    stored = (list(target.shape), str(target.dtype), list(target.chunks))
    wanted = (list(spec["shape"]), spec["dtype"], [info["block_rows"], spec["shape"][1]])
    if stored != wanted:
        raise BatchOutputError(f"{path}: the stored array is shape {stored[0]}, dtype {stored[1]}, chunks "
                               f"{stored[2]}: expected shape {wanted[0]}, dtype {wanted[1]}, chunks {wanted[2]} "
                               "(its zarr.json was changed)")
    return target


def verified_blocks(folder: Path, array: str, info: dict, done: dict[int, dict]) -> dict[int, dict]:
    """The blocks of ``done`` whose stored bytes still match their markers' sha256 (the others are dropped).

    What a rerun skips: a block whose marker exists but whose chunk changed or
    went missing is computed again.
    """
    if not done:
        return done
    try:
        data = open_checked_array(folder, array, info)
    except BatchOutputError:
        return {}
    rows = info["block_rows"]
    good = {}
    for block, marker in done.items():
        first = block * rows
        if first < info["hexes"] and block_checksum(data[first:first + rows]) == marker["sha256"]:
            good[block] = marker
    return good


def block_is_done(folder: Path, array: str, block: int, info: dict) -> bool:
    """Whether block ``block`` of ``array`` has a marker of these arrays and stored bytes that match it."""
    path = marker_path(folder, array, block)
    if not path.is_file():
        return False
    try:
        marker = read_record(path, "block marker")
    except BatchOutputError:
        return False
    if marker.get("creation") != info.get("creation") or not isinstance(marker.get("sha256"), str):
        return False
    return block in verified_blocks(folder, array, info, {block: marker})


@contextmanager
def locked_output(out: Path):
    """Hold ``OUT/.lock`` for a run: an advisory lock of the operating system on that file, which
    records this process's pid, host and start time.

    The lock is the kernel's (``flock``), not the file's existence: it is
    released when its holder ends, however it ends, so a lock file left by a
    killed run is free and taken over, and of any number of processes
    starting at once exactly one holds it.  After locking, the holder checks
    that the path still names the file it locked (a holder that finished
    removes the file before it unlocks), else it tries again; so a process
    that opened the file just before it was removed cannot hold a lock beside
    the next one.  A record naming another host is respected even when no
    lock is held on it here (that run may live: its host's locks may not
    reach this one).

    Raises
    ------
    BatchOutputError
        Another run holds the lock (the message names its pid, host and start).
    OSError
        The lock file cannot be created or written (a full or read-only disk).
    """
    out = Path(out)
    lock = out / LOCK
    host = socket.gethostname()
    record = {"pid": os.getpid(), "host": host, "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    descriptor = None
    for _ in range(100):
        descriptor = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
                             | getattr(os, "O_NOFOLLOW", 0), 0o644)
        writing = False
        try:
            if not _try_lock(descriptor):
                raise _in_use(out, lock, _read_lock_record(descriptor))
            if not _names_file(lock, descriptor):
                os.close(descriptor)   # removed (or replaced) by the holder that just finished: try again
                descriptor = None
                continue
            owner = _read_lock_record(descriptor)
            if owner is not None and owner.get("host") != host:
                raise _in_use(out, lock, owner)
            writing = True
            os.ftruncate(descriptor, 0)
            os.pwrite(descriptor, json.dumps(record).encode(), 0)
            os.fsync(descriptor)
            break
        except BaseException:
            if descriptor is not None:
                if writing and _names_file(lock, descriptor):
                    lock.unlink(missing_ok=True)   # taken but not written (a full disk): leave no lock file
                os.close(descriptor)
            raise
    else:
        raise BatchOutputError(f"{lock}: cannot take the lock: expected it to be free")
    try:
        yield
    finally:
        try:
            lock.unlink()   # removed while still locked: see above
        except OSError:
            pass
        os.close(descriptor)


def _try_lock(descriptor: int) -> bool:
    """Take the operating system's exclusive lock on an open file without waiting; False when it is held."""
    try:
        import fcntl
    except ImportError:   # Windows: a lock on the file's first byte
        import msvcrt

        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _names_file(lock: Path, descriptor: int) -> bool:
    """Whether the path ``lock`` still names the file open as ``descriptor``."""
    try:
        named = os.stat(lock, follow_symlinks=False)
    except FileNotFoundError:
        return False
    opened = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)


def _read_lock_record(descriptor: int) -> dict | None:
    """The record in an open lock file; None when it is empty (created, not yet written)."""
    raw = os.pread(descriptor, 4096, 0)
    if not raw.strip():
        return None
    try:
        owner = json.loads(raw.decode("utf-8"))
    except ValueError:
        owner = None
    if not isinstance(owner, dict):
        return {"pid": "?", "host": "?", "started": "? (unreadable lock file)"}
    return owner


def _in_use(out: Path, lock: Path, owner: dict | None) -> BatchOutputError:
    owner = owner or {"pid": "?", "host": "?", "started": "? (starting)"}
    return BatchOutputError(f"{out} is in use by another batch run (pid {owner.get('pid')} on {owner.get('host')}, "
                            f"since {owner.get('started')}): expected one run per output folder (wait for it, or "
                            f"remove {lock} if that run is gone)")


def batch_result(out, map_name: str, array: str, *, verify: bool = True, out_is_map: bool = False) -> np.ndarray:
    """Read one array of one map of a batch job's output folder, checking that every block is complete.

    Parameters
    ----------
    out : str or pathlib.Path
        The job's output folder (``hexkernel batch ... --out OUT``).
    map_name : str
        The map's name (its folder under ``OUT/maps``).
    array : str
        ``visibility``, ``hindrance``, ``vantage`` or ``movement-UNIT``.
    verify : bool
        Check each block's sha256 against its completion marker.
    out_is_map : bool
        ``out`` is the folder holding the map's folder itself (not ``OUT/maps``).

    Returns
    -------
    numpy.ndarray
        The whole array (``docs/batch-jobs.md`` gives each one's shape and dtype).

    Raises
    ------
    ValueError
        No such map or array, a block without its completion marker (the
        job did not finish: run it again to resume), or a checksum mismatch.
    ImportError
        The ``batch`` extra (zarr) is not installed.

    Examples
    --------
    A zarr reader opens the same arrays: ``zarr.open_group("OUT/maps/NAME/arrays.zarr")["visibility"]``.
    """
    require("batch", "batch results")
    import zarr

    folder = Path(out) / map_name if out_is_map else Path(out) / "maps" / map_name
    info = read_map_info(folder)
    if info is None:
        raise ValueError(f"{folder}: no map.json: expected a map folder of a batch job's output")
    if array not in info["arrays"]:
        raise ValueError(f"{folder}: no array {array!r}: expected one of {', '.join(sorted(info['arrays']))}")
    if not out_is_map:
        _check_against_manifest(Path(out), map_name, array, info, folder)
    hexes, rows = info["hexes"], info["block_rows"]
    blocks = -(-hexes // rows)
    done = completed_blocks(folder, array, info.get("creation"))
    missing = [k for k in range(blocks) if k not in done]
    if missing:
        raise ValueError(f"{folder}: array {array!r} has {len(missing)} of {blocks} blocks unfinished (first: "
                         f"block {missing[0]}, rows {missing[0] * rows}..): expected a finished job (rerun it to "
                         "resume)")
    data = open_checked_array(folder, array, info)[...]
    if verify:
        for k in range(blocks):
            if block_checksum(data[k * rows:(k + 1) * rows]) != done[k]["sha256"]:
                raise ValueError(f"{folder}: block {k} of {array!r} (rows {k * rows}..) does not match its "
                                 f"checksum {done[k]['sha256'][:12]}..: expected the bytes its task wrote")
    return data


def _check_against_manifest(out: Path, map_name: str, array: str, info: dict, folder: Path) -> None:
    """``map.json``'s hexes, block rows, shape and dtype of ``array`` against the manifest's (the truth)."""
    path = out / MANIFEST
    if not path.exists() and not path.is_symlink():
        return  # a folder of maps without a job's manifest: map.json and the zarr metadata are still checked
    manifest = read_record(path, "manifest")
    entry = (manifest.get("maps") or {}).get(map_name) if isinstance(manifest.get("maps"), dict) else None
    if not isinstance(entry, dict) or not isinstance(entry.get("arrays"), dict) \
            or not isinstance(entry["arrays"].get(array), dict):
        raise BatchOutputError(f"{path}: no entry for array {array!r} of map {map_name!r}: expected the manifest "
                               "of the run that wrote it")
    spec = entry["arrays"][array]
    recorded = {"hexes": entry.get("hexes"), "block_rows": manifest.get("block_rows"), "shape": spec.get("shape"),
                "dtype": spec.get("dtype")}
    stored = {"hexes": info["hexes"], "block_rows": info["block_rows"], "shape": info["arrays"][array]["shape"],
              "dtype": info["arrays"][array]["dtype"]}
    changed = [key for key in recorded if recorded[key] != stored[key]]
    if changed:
        key = changed[0]
        raise BatchOutputError(f"{folder / MAP_INFO}: {key} is {stored[key]!r}: expected {recorded[key]!r} as the "
                               f"manifest records (the map record was changed)")
