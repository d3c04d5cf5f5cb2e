"""The output folder of a batch job: one zarr group per map, atomic block writes, completion markers.

Layout (``docs/batch-jobs.md``)::

    OUT/manifest.json               the job, versions, every map and the digest of every block
    OUT/job.toml (or job.json)      the job file as it was run
    OUT/maps/NAME/map.json          the map: name, source, digests, hexes, block rows, arrays
    OUT/maps/NAME/arrays.zarr/      a zarr group, one array per output, chunked by the row blocks
    OUT/maps/NAME/done/ARRAY/K.json completion marker of block K of ARRAY: its map, array, block, rows,
                                    digest and creation id
    OUT/.lock                       while a run writes OUT: its process id, host and start time

A block's digest (:func:`kernel.batch.chunks.block_digest`) covers its bytes
and its identity: the map's name and board digest, the array, the block
index and its first row.  A block counts as written only when its marker
exists, names that map, array and block, and carries the creation id of the
map's arrays (a random id that :func:`prepare_map` writes into ``map.json``
each time it creates the arrays afresh).  The chunk is written first (to a
temporary file, fsynced and renamed), the marker after it, the same way, so
a task killed at any moment leaves either a complete block with its marker,
or no marker: the next run writes that block again.

:func:`batch_result` reads a map only when its ``map.json`` names that map
with the manifest's digests, its zarr metadata is exactly what the run
wrote, and every block's marker and stored bytes give that block's digest
(the manifest's too); chunk files are read within bounds (no link, device or
FIFO, no more bytes than a chunk can take).  Anything else is refused in one
line naming the map and the block; a rerun of the job repairs it (it
recomputes such blocks, and recreates a map folder holding another map's
record or changed metadata).

One run at a time writes an output folder: :func:`locked_output` holds the
operating system's lock on ``OUT/.lock`` (which records the owner's pid and
host) for the whole run; a second run is refused in one line naming the
owner, and a lock file whose run ended, however it ended, is free.

Examples
--------
>>> import tempfile, numpy as np
>>> folder = Path(tempfile.mkdtemp()) / "m"
>>> creation = prepare_map(folder, {"name": "m", "board_digest": "d", "hexes": 5, "block_rows": 2,
...                                 "arrays": {"vantage": {"shape": [5, 3], "dtype": "int32"}}})
>>> for k, first in enumerate(range(0, 5, 2)):
...     digest = write_block(folder, "vantage", k, first, np.full((min(2, 5 - first), 3), k, np.int32))
>>> sorted(completed_blocks(folder, "vantage"))
[0, 1, 2]
>>> batch_result(folder.parent, "m", "vantage", out_is_map=True)[:, 0].tolist()
[0, 0, 1, 1, 2]
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import uuid
from pathlib import Path

import numpy as np

from kernel._limits import MAX_MAP_HEXES
from kernel._extras import require
from kernel.batch.chunks import (BatchOutputError, DamagedBlock, array_metadata, atomic_write_bytes, block_digest,
                                 group_metadata, read_chunk, real_folder, write_chunk, write_metadata)
from kernel.batch.lock import LOCK, locked_output

MANIFEST = "manifest.json"
MAP_INFO = "map.json"
ARRAYS = "arrays.zarr"
MARKERS = "done"
#: Bytes of a manifest, ``map.json`` or marker read back (far above any real one).
MAX_RECORD_BYTES = 64 * 1024 * 1024
#: What to do about a block that is not what its run wrote.
REPAIR = "rerun the job to repair it"


def read_record(path: Path, what: str) -> dict:
    """A JSON object written by a run (manifest, ``map.json``, marker), or a BatchOutputError naming the file.

    Only a regular file is read (a symbolic link, device or FIFO is refused unread).
    """
    path = Path(path)
    try:
        mode = os.lstat(path).st_mode
        if not stat.S_ISREG(mode):
            kind = "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file"
            raise BatchOutputError(f"{path}: the {what} is {kind}: expected the file a batch run wrote ({REPAIR})")
        with open(path, "rb") as handle:
            # read(n) allocates n bytes first: no more than the file holds
            size = os.fstat(handle.fileno()).st_size
            raw = handle.read(min(MAX_RECORD_BYTES, size) + 1)
            if size < len(raw) <= MAX_RECORD_BYTES:
                raw += handle.read(MAX_RECORD_BYTES + 1 - len(raw))   # it grew since: the rest, up to the limit
        if len(raw) > MAX_RECORD_BYTES:
            raise ValueError(f"larger than {MAX_RECORD_BYTES} bytes")
        data = json.loads(raw.decode("utf-8"))
    except BatchOutputError:
        raise
    except OSError as error:
        raise BatchOutputError(f"{path}: cannot read the {what} ({error.strerror or error})") from None
    except (ValueError, RecursionError) as error:
        raise BatchOutputError(f"{path}: the {what} is not valid JSON ({' '.join(str(error).split())[:120]}): "
                               "expected the file a batch run wrote (use a new output folder)") from None
    if not isinstance(data, dict):
        raise BatchOutputError(f"{path}: the {what} is a JSON {type(data).__name__}: expected an object")
    return data


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, fsync and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, text.encode("utf-8"))


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
    for key in ("creation", "name", "board_digest"):
        if info.get(key) is not None and not isinstance(info[key], str):
            raise BatchOutputError(f"{where}: {key} is {str(info[key])[:80]}: expected the string a run wrote")
    return info


def _identity(folder: Path, info: dict) -> tuple[str, str]:
    """The map name and board digest a map folder's blocks are bound to (its ``map.json``'s)."""
    return info.get("name") or Path(folder).name, info.get("board_digest") or ""


def reusable_map_info(folder: Path, name: str) -> dict | None:
    """The ``map.json`` of the folder of map ``name`` in this job's output, when a rerun may go on from it;
    None when the folder must be prepared afresh: it is missing or a link, or its record is unreadable or
    another map's (a folder swapped or copied over this one: the job owns every folder under its ``maps``)."""
    if folder.is_symlink():
        folder.unlink()
        return None
    try:
        existing = read_map_info(folder)
    except BatchOutputError:
        return None
    if existing is None or existing.get("name") != name:
        return None
    return existing


def prepare_map(folder: Path, info: dict) -> str:
    """Create a map's zarr arrays (chunked by ``info["block_rows"]`` rows), then its ``map.json``; returns
    the arrays' new creation id.

    ``info`` holds ``name``, ``board_digest``, ``hexes``, ``block_rows`` and
    ``arrays`` (name -> shape and dtype), and whatever else the manifest
    should repeat (source, digests).  Whatever the folder held (old arrays,
    markers, links) is removed first, and ``map.json`` is written last with a
    new ``creation`` id that every marker of these arrays carries, so a
    folder without it is started afresh and no old marker can mark a block
    of the new, empty arrays.
    """
    folder = real_folder(folder)
    (folder / MAP_INFO).unlink(missing_ok=True)
    for part in (MARKERS, ARRAYS):
        _remove(folder / part)
    write_metadata(folder / ARRAYS, group_metadata())
    for name, spec in info["arrays"].items():
        write_metadata(folder / ARRAYS / name, array_metadata(spec["shape"], info["block_rows"], spec["dtype"]))
    (folder / MARKERS).mkdir(parents=True, exist_ok=True)
    creation = uuid.uuid4().hex
    atomic_write_text(folder / MAP_INFO, json.dumps({**info, "creation": creation}, indent=1, sort_keys=True))
    return creation


def _remove(path: Path) -> None:
    """Remove a folder with what it holds, or the link or file at ``path`` (never what a link points to)."""
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        path.unlink()
    else:
        shutil.rmtree(path, ignore_errors=True)


def arrays_intact(folder: Path, info: dict) -> bool:
    """Whether a map folder's group and every array of ``info`` have exactly the zarr metadata a run writes
    (no link on their paths): what a rerun keeps; otherwise it prepares the map again."""
    group = Path(folder) / ARRAYS
    wanted = [(group, group_metadata())] + [
        (group / name, array_metadata(spec["shape"], info["block_rows"], spec["dtype"]))
        for name, spec in info["arrays"].items()]
    for path, metadata in wanted:
        if path.is_symlink() or _metadata_problem(path, metadata) is not None:
            return False
    return not (Path(folder) / MARKERS).is_symlink()


def _metadata_problem(folder: Path, wanted: dict) -> str | None:
    """Why ``folder/zarr.json`` is not ``wanted``, or None."""
    try:
        stored = read_record(folder / "zarr.json", "zarr metadata")
    except BatchOutputError as error:
        return str(error)
    if stored != wanted:
        changed = sorted(key for key in set(stored) | set(wanted) if stored.get(key) != wanted.get(key))
        return (f"{folder / 'zarr.json'}: its {', '.join(changed)} {'differs' if len(changed) == 1 else 'differ'} "
                "from what the run wrote")
    return None


def marker_path(folder: Path, array: str, block: int) -> Path:
    return Path(folder) / MARKERS / array / f"{block}.json"


def creation_id(folder: Path) -> str | None:
    """The creation id of a map folder's arrays (from its ``map.json``), None when it has none."""
    info = read_map_info(folder)
    return None if info is None else info.get("creation")


def _marker_problem(marker: dict, info: dict, folder: Path, array: str, block: int) -> str | None:
    """Why ``marker`` does not mark block ``block`` of ``array`` of the map of ``info``, or None."""
    name, digest = _identity(folder, info)
    if not isinstance(marker.get("sha256"), str) or not isinstance(marker.get("rows"), list):
        return "its marker holds no digest and rows"
    place = (marker.get("map"), marker.get("board_digest"), marker.get("array"), marker.get("block"))
    if place != (name, digest, array, block):
        return (f"its marker is of block {place[3]!r} of {place[2]!r} of map {place[0]!r}"
                + ("" if place[0] != name or place[1] == digest else " (another board digest)"))
    if marker.get("creation") != info.get("creation"):
        return "its marker is of arrays created before"
    first = block * info["block_rows"]
    if marker["rows"] != [first, min(first + info["block_rows"], info["hexes"])]:
        return f"its marker gives rows {marker['rows']!r}"
    return None


def completed_blocks(folder: Path, array: str, creation: str | None = None, info: dict | None = None) \
        -> dict[int, dict]:
    """The blocks of ``array`` whose markers exist and mark them: block index -> marker.

    A marker counts only when it is a JSON object naming this map (name and
    board digest), ``array`` and its own block index and rows, with the
    ``creation`` id of the arrays (``info`` and ``creation`` are read from
    ``map.json`` when not given); an unreadable or foreign marker, or one
    left from arrays created before, marks nothing and its block is
    computed again.
    """
    folder = Path(folder)
    info = read_map_info(folder) if info is None else info
    if info is None:
        return {}
    if creation is not None:
        info = {**info, "creation": creation}
    done = {}
    place = folder / MARKERS / array
    if place.is_dir() and not place.is_symlink():
        for path in place.glob("*.json"):
            if not path.stem.isdigit() or len(path.stem) > 9:
                continue
            try:
                marker = read_record(path, "block marker")
            except BatchOutputError:
                continue
            if _marker_problem(marker, info, folder, array, int(path.stem)) is None:
                done[int(path.stem)] = marker
    return done


def write_block(folder: Path, array: str, block: int, first_row: int, data: np.ndarray,
                info: dict | None = None) -> str:
    """Write rows ``first_row ..`` of ``array`` (exactly one chunk), then its completion marker naming the
    map, array and block with the arrays' creation id (``info`` is read from ``map.json`` when not given);
    returns the block's digest."""
    folder = Path(folder)
    info = read_map_info(folder) if info is None else info
    name, board = _identity(folder, info)
    write_chunk(folder / ARRAYS / array, block, data, info["block_rows"])
    digest = block_digest(name, board, array, block, first_row, data)
    real_folder(folder / MARKERS / array)
    atomic_write_text(marker_path(folder, array, block),
                      json.dumps({"map": name, "board_digest": board, "array": array, "block": int(block),
                                  "rows": [int(first_row), int(first_row) + int(data.shape[0])], "sha256": digest,
                                  "creation": info.get("creation")}))
    return digest


def _stored_block(folder: Path, array: str, info: dict, block: int) -> np.ndarray:
    """Block ``block`` of ``array`` as stored, read within bounds (a :class:`DamagedBlock` otherwise)."""
    spec = info["arrays"][array]
    return read_chunk(Path(folder) / ARRAYS / array, block, spec["shape"], info["block_rows"], spec["dtype"])


def _block_problem(folder: Path, array: str, info: dict, block: int, marker: dict) -> str | None:
    """Why the stored bytes of block ``block`` are not those its marker's digest covers, or None."""
    try:
        data = _stored_block(folder, array, info, block)
    except DamagedBlock as damage:
        return str(damage)
    name, board = _identity(folder, info)
    if block_digest(name, board, array, block, block * info["block_rows"], data) != marker["sha256"]:
        return "its bytes do not give its digest"
    return None


def verified_blocks(folder: Path, array: str, info: dict, done: dict[int, dict]) -> dict[int, dict]:
    """The blocks of ``done`` whose stored bytes still give their markers' digests (the others are dropped).

    What a rerun skips: a block whose marker exists but whose chunk changed,
    went missing or was swapped is computed again.
    """
    if not done or not arrays_intact(folder, info):
        return {}
    return {block: marker for block, marker in done.items()
            if block * info["block_rows"] < info["hexes"]
            and _block_problem(folder, array, info, block, marker) is None}


def block_is_done(folder: Path, array: str, block: int, info: dict) -> bool:
    """Whether block ``block`` of ``array`` has a marker of these arrays and stored bytes that match it."""
    path = marker_path(folder, array, block)
    try:
        marker = read_record(path, "block marker")
    except BatchOutputError:
        return False
    if _marker_problem(marker, info, Path(folder), array, block) is not None:
        return False
    return block in verified_blocks(folder, array, info, {block: marker})


def batch_result(out, map_name: str, array: str, *, verify: bool = True, out_is_map: bool = False) -> np.ndarray:
    """Read one array of one map of a batch job's output folder, checking that every block is the one its run
    wrote for that map.

    Parameters
    ----------
    out : str or pathlib.Path
        The job's output folder (``hexkernel batch ... --out OUT``).
    map_name : str
        The map's name (its folder under ``OUT/maps``).
    array : str
        ``visibility``, ``hindrance``, ``vantage`` or ``movement-UNIT``.
    verify : bool
        Check each block's stored bytes against its digest (which binds them
        to this map, array and block); markers, metadata and bounds are
        checked either way.
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
        job did not finish: run it again to resume), a map folder holding
        another map's results, changed metadata, or a block whose marker or
        bytes are not that block's (swapped, copied, linked or damaged
        files: the message names the map and block; rerunning the job
        repairs them).
    ImportError
        The ``batch`` extra (zarr) is not installed.

    See Also
    --------
    kernel.run_batch : writes the folder it reads.
    kernel.read_batch_job : the job file's maps and arrays.
    kernel.visibility_bits : the ``visibility`` array's bits, computed in this process.

    Examples
    --------
    A zarr reader opens the same arrays: ``zarr.open_group("OUT/maps/NAME/arrays.zarr")["visibility"]``.
    """
    require("batch", "batch results")
    folder = Path(out) / map_name if out_is_map else Path(out) / "maps" / map_name
    if folder.is_symlink():
        raise BatchOutputError(f"{folder}: the map folder is a symbolic link: expected the folder the run wrote "
                               f"({REPAIR})")
    info = read_map_info(folder)
    if info is None:
        raise ValueError(f"{folder}: no map.json: expected a map folder of a batch job's output")
    if array not in info["arrays"]:
        raise ValueError(f"{folder}: no array {array!r}: expected one of {', '.join(sorted(info['arrays']))}")
    if info.get("name", map_name) != map_name:
        raise BatchOutputError(f"{folder}: the folder of map {map_name!r} holds the results of map "
                               f"{info['name']!r} (its map.json): expected map {map_name!r}'s ({REPAIR})")
    recorded = None if out_is_map else _check_against_manifest(Path(out), map_name, array, info, folder)
    spec = info["arrays"][array]
    problem = _metadata_problem(folder / ARRAYS / array,
                                array_metadata(spec["shape"], info["block_rows"], spec["dtype"]))
    if problem is not None:
        raise BatchOutputError(f"{problem}: expected the zarr metadata of array {array!r} of map {map_name!r} "
                               f"({REPAIR})")
    hexes, rows = info["hexes"], info["block_rows"]
    blocks = -(-hexes // rows)
    done = completed_blocks(folder, array, info=info)
    missing = [k for k in range(blocks) if k not in done]
    if missing:
        k = missing[0]
        foreign = _foreign_marker(folder, array, info, k)
        if foreign is not None:
            raise BatchOutputError(f"{folder}: block {k} of {array!r} of map {map_name!r} (rows {k * rows}..): "
                                   f"{foreign}: expected block {k}'s ({REPAIR})")
        raise ValueError(f"{folder}: array {array!r} has {len(missing)} of {blocks} blocks unfinished (first: "
                         f"block {k}, rows {k * rows}..): expected a finished job (rerun it to resume)")
    data = np.empty(spec["shape"], spec["dtype"])
    name, board = _identity(folder, info)
    for k in range(blocks):
        where = f"{folder}: block {k} of {array!r} of map {map_name!r} (rows {k * rows}..)"
        try:
            block = _stored_block(folder, array, info, k)
        except DamagedBlock as damage:
            raise BatchOutputError(f"{where} is damaged: {damage} ({REPAIR})") from None
        if verify:
            digest = block_digest(name, board, array, k, k * rows, block)
            if digest != done[k]["sha256"]:
                raise BatchOutputError(f"{where} is damaged: its bytes do not give its digest "
                                       f"{done[k]['sha256'][:12]}.. ({REPAIR})")
            if recorded is not None and recorded[k] is not None and recorded[k] != digest:
                raise BatchOutputError(f"{where}: its digest {digest[:12]}.. is not the manifest's "
                                       f"{str(recorded[k])[:12]}..: expected the block the job recorded ({REPAIR})")
        data[k * rows:k * rows + block.shape[0]] = block
    return data


def _foreign_marker(folder: Path, array: str, info: dict, block: int) -> str | None:
    """Why the marker file of ``block`` does not mark it when it is another block's, map's or array's (or a
    link); None when there is none, or it is merely unfinished business (unreadable, of arrays created
    before)."""
    path = marker_path(folder, array, block)
    if path.is_symlink():
        return "its marker is a symbolic link"
    try:
        marker = read_record(path, "block marker")
    except BatchOutputError:
        return None
    problem = _marker_problem(marker, info, Path(folder), array, block)
    return problem if problem is not None and problem.startswith("its marker is of block") else None


def _check_against_manifest(out: Path, map_name: str, array: str, info: dict, folder: Path) -> list | None:
    """``map.json``'s digests, hexes, block rows, shape and dtype of ``array`` against the manifest's (the
    truth); returns the manifest's block digests of ``array`` (None without a manifest)."""
    path = out / MANIFEST
    if not path.exists() and not path.is_symlink():
        return None  # a folder of maps without a job's manifest: map.json and the zarr metadata are still checked
    manifest = read_record(path, "manifest")
    entry = (manifest.get("maps") or {}).get(map_name) if isinstance(manifest.get("maps"), dict) else None
    if not isinstance(entry, dict) or not isinstance(entry.get("arrays"), dict) \
            or not isinstance(entry["arrays"].get(array), dict):
        raise BatchOutputError(f"{path}: no entry for array {array!r} of map {map_name!r}: expected the manifest "
                               "of the run that wrote it")
    spec = entry["arrays"][array]
    recorded = {"board_digest": entry.get("board_digest"), "source_digest": entry.get("source_digest"),
                "hexes": entry.get("hexes"), "block_rows": manifest.get("block_rows"), "shape": spec.get("shape"),
                "dtype": spec.get("dtype")}
    stored = {"board_digest": info.get("board_digest"), "source_digest": info.get("source_digest"),
              "hexes": info["hexes"], "block_rows": info["block_rows"], "shape": info["arrays"][array]["shape"],
              "dtype": info["arrays"][array]["dtype"]}
    changed = [key for key in recorded if recorded[key] != stored[key]]
    if changed:
        key = changed[0]
        def short(value):
            return value[:12] + ".." if isinstance(value, str) and len(value) > 16 else value

        raise BatchOutputError(f"{folder / MAP_INFO}: {key} is {short(stored[key])!r}: expected "
                               f"{short(recorded[key])!r} as the manifest records for map {map_name!r} (the "
                               f"map record was changed, or is another map's: {REPAIR})")
    digests = spec.get("block_sha256")
    blocks = -(-info["hexes"] // info["block_rows"])
    return digests if isinstance(digests, list) and len(digests) == blocks else None
