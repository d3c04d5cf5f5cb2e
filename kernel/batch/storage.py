"""The output folder of a batch job: one zarr group per map, atomic block writes, completion markers.

Layout (``docs/batch-jobs.md``)::

    OUT/manifest.json               the job, versions, every map and the sha256 of every block
    OUT/job.toml (or job.json)      the job file as it was run
    OUT/maps/NAME/map.json          the map: source, digests, hexes, block rows, arrays
    OUT/maps/NAME/arrays.zarr/      a zarr group, one array per output, chunked by the row blocks
    OUT/maps/NAME/done/ARRAY/K.json completion marker of block K of ARRAY: its rows and sha256

A block counts as written only when its marker exists.  The chunk is written
first (zarr writes a chunk to a temporary file and renames it), the marker
after it, also by temporary file and rename, so a task killed at any moment
leaves either a complete block with its marker, or no marker: the next run
writes that block again, and :func:`batch_result` refuses to read an array
with a block that has none.

Examples
--------
>>> import tempfile, numpy as np
>>> folder = Path(tempfile.mkdtemp())
>>> prepare_map(folder, {"hexes": 5, "block_rows": 2,
...                      "arrays": {"vantage": {"shape": [5, 3], "dtype": "int32"}}})
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
from pathlib import Path

import numpy as np

from kernel._extras import require

MANIFEST = "manifest.json"
MAP_INFO = "map.json"
ARRAYS = "arrays.zarr"
MARKERS = "done"


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
    """The ``map.json`` of a map folder, or None when the folder was never prepared."""
    path = Path(folder) / MAP_INFO
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def prepare_map(folder: Path, info: dict) -> None:
    """Create a map's zarr arrays (chunked by ``info["block_rows"]`` rows), then its ``map.json``.

    ``info`` holds ``hexes``, ``block_rows`` and ``arrays`` (name -> shape and
    dtype), and whatever else the manifest should repeat (source, digests).
    ``map.json`` is written last, so a folder without it is started afresh.
    """
    import zarr

    folder = Path(folder)
    group = zarr.open_group(str(folder / ARRAYS), mode="w")
    for name, spec in info["arrays"].items():
        shape = tuple(spec["shape"])
        group.create_array(name, shape=shape, chunks=(info["block_rows"], shape[1]), dtype=spec["dtype"],
                           fill_value=0)
    (folder / MARKERS).mkdir(parents=True, exist_ok=True)
    atomic_write_text(folder / MAP_INFO, json.dumps(info, indent=1, sort_keys=True))


def marker_path(folder: Path, array: str, block: int) -> Path:
    return Path(folder) / MARKERS / array / f"{block}.json"


def completed_blocks(folder: Path, array: str) -> dict[int, dict]:
    """The blocks of ``array`` whose markers exist: block index -> marker (rows, sha256)."""
    done = {}
    place = Path(folder) / MARKERS / array
    if place.is_dir():
        for path in place.glob("*.json"):
            if path.stem.isdigit():
                done[int(path.stem)] = json.loads(path.read_text(encoding="utf-8"))
    return done


def write_block(folder: Path, array: str, block: int, first_row: int, data: np.ndarray) -> str:
    """Write rows ``first_row ..`` of ``array`` (exactly one chunk), then its completion marker; returns
    the block's sha256."""
    import zarr

    target = zarr.open_array(str(Path(folder) / ARRAYS / array), mode="r+")
    target[first_row:first_row + data.shape[0]] = data
    checksum = block_checksum(data)
    atomic_write_text(marker_path(folder, array, block),
                      json.dumps({"rows": [first_row, first_row + int(data.shape[0])], "sha256": checksum}))
    return checksum


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
    hexes, rows = info["hexes"], info["block_rows"]
    blocks = -(-hexes // rows)
    done = completed_blocks(folder, array)
    missing = [k for k in range(blocks) if k not in done]
    if missing:
        raise ValueError(f"{folder}: array {array!r} has {len(missing)} of {blocks} blocks unfinished (first: "
                         f"block {missing[0]}, rows {missing[0] * rows}..): expected a finished job (rerun it to "
                         "resume)")
    data = zarr.open_array(str(folder / ARRAYS / array), mode="r")[...]
    if verify:
        for k in range(blocks):
            if block_checksum(data[k * rows:(k + 1) * rows]) != done[k]["sha256"]:
                raise ValueError(f"{folder}: block {k} of {array!r} (rows {k * rows}..) does not match its "
                                 f"checksum {done[k]['sha256'][:12]}..: expected the bytes its task wrote")
    return data
