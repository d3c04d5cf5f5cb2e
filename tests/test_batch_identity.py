"""Batch results carry their map's and block's identity: swapped, copied, linked or damaged files are
refused in one line naming the map and the block, chunk files are read within bounds, and a rerun of
the job repairs every case."""

from __future__ import annotations

import json
import os
import shutil
import tracemalloc

import numpy as np
import pytest

import kernel
from kernel.batch import storage
from kernel.batch.chunks import block_digest

distributed = pytest.importorskip("distributed")

#: Two random maps of one size (48 hexes), three blocks of 16 rows per array.
JOB = ("[job]\ncompute = ['visibility', 'hindrance']\nblock_rows = 16\n[[maps]]\n"
       "random = { ruleset = 'asl', columns = 6, rows = 8, seed = 1, count = 2 }\n")
A, B = "random-asl-6x8-seed1", "random-asl-6x8-seed2"
ARRAYS = ("visibility", "hindrance")


@pytest.fixture(scope="module")
def scheduler():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp://",
                                  dashboard_address=None, silence_logs=50) as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def finished(scheduler, tmp_path_factory):
    base = tmp_path_factory.mktemp("identity")
    (base / "job.toml").write_text(JOB)
    kernel.run_batch(base / "job.toml", base / "out", scheduler=scheduler)
    truth = {(name, array): kernel.batch_result(base / "out", name, array) for name in (A, B) for array in ARRAYS}
    assert not np.array_equal(truth[A, "hindrance"], truth[B, "hindrance"])  # the two maps differ
    return base, truth


def _map(out, name):
    return out / "maps" / name


def _chunk(out, name, array="hindrance", block=0):
    return _map(out, name) / storage.ARRAYS / array / "c" / str(block) / "0"


def _swap(first, second):
    temporary = first.with_name(first.name + ".swap")
    os.rename(first, temporary)
    os.rename(second, first)
    os.rename(temporary, second)


def swap_chunks_and_markers(out):
    _swap(_chunk(out, B, block=0), _chunk(out, B, block=1))
    _swap(storage.marker_path(_map(out, B), "hindrance", 0), storage.marker_path(_map(out, B), "hindrance", 1))


def swap_chunks(out):
    _swap(_chunk(out, B, block=0), _chunk(out, B, block=1))


def swap_map_folders(out):
    _swap(_map(out, A), _map(out, B))


def copy_map_over_another(out):
    shutil.rmtree(_map(out, B))
    shutil.copytree(_map(out, A), _map(out, B))


def copy_chunk_and_marker_from_another_map(out):
    shutil.copy(_chunk(out, A), _chunk(out, B))
    shutil.copy(storage.marker_path(_map(out, A), "hindrance", 0), storage.marker_path(_map(out, B), "hindrance", 0))


def link_chunk_to_dev_zero(out):
    _chunk(out, B).unlink()
    _chunk(out, B).symlink_to("/dev/zero")


def link_chunk_to_another_map(out):
    _chunk(out, B).unlink()
    _chunk(out, B).symlink_to(_chunk(out, A))


def link_map_folder_to_another(out):
    shutil.rmtree(_map(out, B))
    _map(out, B).symlink_to(_map(out, A))


def flip_a_byte(out):
    data = bytearray(_chunk(out, B).read_bytes())
    data[len(data) // 2] ^= 0xFF
    _chunk(out, B).write_bytes(bytes(data))


def truncate_chunk(out):
    _chunk(out, B).write_bytes(_chunk(out, B).read_bytes()[:10])


def replace_chunk(out):
    _chunk(out, B).write_bytes(np.random.default_rng(1).bytes(len(_chunk(out, B).read_bytes())))


def delete_chunk(out):
    _chunk(out, B).unlink()


def grow_chunk_sparse(out):
    with open(_chunk(out, B), "r+b") as handle:
        handle.truncate(1 << 30)   # 1 GiB, sparse: no disk used


def zstd_bomb(out):
    from numcodecs import zstd

    _chunk(out, B).write_bytes(zstd.compress(bytes(32 << 20), 3))   # a few kB that inflate to 32 MiB


def _metadata(change):
    def tamper(out):
        path = _map(out, B) / storage.ARRAYS / "hindrance" / "zarr.json"
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))
    return tamper


def delete_zarr_json(out):
    (_map(out, B) / storage.ARRAYS / "hindrance" / "zarr.json").unlink()


BLOCK0 = rf"block 0 of 'hindrance' of map '{B}' \(rows 0..\)"
DAMAGED = BLOCK0 + " is damaged: "
REPAIR = r" \(rerun the job to repair it\)$"
CASES = [
    (swap_chunks_and_markers, BLOCK0 + rf": its marker is of block 1 of 'hindrance' of map '{B}': expected block 0's"
     + REPAIR),
    (swap_chunks, DAMAGED + "its bytes do not give its digest"),
    (swap_map_folders, rf"the folder of map '{B}' holds the results of map '{A}' \(its map.json\): expected map "
     rf"'{B}''s" + REPAIR),
    (copy_map_over_another, rf"the folder of map '{B}' holds the results of map '{A}'"),
    (copy_chunk_and_marker_from_another_map, BLOCK0 + rf": its marker is of block 0 of 'hindrance' of map '{A}'"),
    (link_chunk_to_dev_zero, DAMAGED + r"hindrance/c/0/0 is a symbolic link: expected the file the run wrote" + REPAIR),
    (link_chunk_to_another_map, DAMAGED + r"hindrance/c/0/0 is a symbolic link"),
    (link_map_folder_to_another, rf"maps/{B}: the map folder is a symbolic link: expected the folder the run wrote"),
    (flip_a_byte, DAMAGED + r"its chunk does not inflate to one chunk \(Zstd decompression error"),
    (truncate_chunk, DAMAGED + r"its chunk does not inflate to one chunk"),
    (replace_chunk, DAMAGED + r"its chunk does not inflate to one chunk"),
    (delete_chunk, DAMAGED + r"its chunk file hindrance/c/0/0 is missing" + REPAIR),
    (grow_chunk_sparse, DAMAGED + r"its chunk file is larger than a chunk can be \(\d+ bytes\)" + REPAIR),
    (zstd_bomb, DAMAGED + r"its chunk does not inflate to one chunk"),
    (_metadata(lambda d: d.update(data_type="uint8")), r"hindrance/zarr.json: its data_type differs from what the run "
     rf"wrote: expected the zarr metadata of array 'hindrance' of map '{B}'" + REPAIR),
    (_metadata(lambda d: d["shape"].__setitem__(0, 49)), r"hindrance/zarr.json: its shape differs"),
    (_metadata(lambda d: d.update(codecs=d["codecs"][:1])), r"hindrance/zarr.json: its codecs differs"),
    (delete_zarr_json, r"hindrance/zarr.json: cannot read the zarr metadata \(No such file or directory\)"),
]


@pytest.mark.parametrize("change, message", CASES, ids=[change.__name__ if hasattr(change, "__name__") else str(k)
                                                        for k, (change, _) in enumerate(CASES)])
def test_a_moved_or_damaged_file_is_refused_naming_map_and_block_and_a_rerun_repairs_it(
        finished, scheduler, tmp_path, change, message):
    base, truth = finished
    out = tmp_path / "out"
    shutil.copytree(base / "out", out, symlinks=True)
    change(out)
    tracemalloc.start()
    with pytest.raises(storage.BatchOutputError, match=message):
        kernel.batch_result(out, B, "hindrance")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 16 << 20, peak   # never what a link, a sparse file or a bomb could make it allocate
    summary = kernel.run_batch(base / "job.toml", out, scheduler=scheduler)
    assert 0 < summary["computed"] < summary["blocks"] or change is swap_map_folders
    for name in (A, B):
        for array in ARRAYS:
            assert np.array_equal(kernel.batch_result(out, name, array), truth[name, array]), (name, array)
    assert not list(out.rglob("*.tmp")) and not list(out.rglob("*.partial"))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and None not in manifest["maps"][B]["arrays"]["hindrance"]["block_sha256"]


ZARR_JSON_CHANGES = {
    "dtype": lambda d: d.update(data_type="uint8"),
    "shape": lambda d: d.update(shape=[d["shape"][0] + 1, d["shape"][1]]),
    "chunk-shape": lambda d: d["chunk_grid"]["configuration"].update(chunk_shape=[32, 5]),
    "deleted": None,
}


@pytest.mark.parametrize("change", list(ZARR_JSON_CHANGES))
def test_a_rerun_over_a_changed_zarr_json_recomputes_the_array(finished, scheduler, tmp_path, change):
    """A rerun said 'complete' over a zarr.json of another dtype or shape, and batch_result still refused the
    array."""
    base, truth = finished
    out = tmp_path / "out"
    shutil.copytree(base / "out", out)
    if ZARR_JSON_CHANGES[change] is None:
        delete_zarr_json(out)
    else:
        _metadata(ZARR_JSON_CHANGES[change])(out)
    with pytest.raises(ValueError, match="zarr.json"):
        kernel.batch_result(out, B, "hindrance")
    summary = kernel.run_batch(base / "job.toml", out, scheduler=scheduler)
    assert summary["computed"] == 3   # map B's three blocks (both arrays of a block: one task), recreated
    assert np.array_equal(kernel.batch_result(out, B, "hindrance"), truth[B, "hindrance"])


def test_the_block_digest_binds_map_board_array_block_and_row():
    data = np.arange(12, dtype=np.int8).reshape(3, 4)
    digest = block_digest("m", "d", "hindrance", 1, 3, data)
    others = {block_digest("n", "d", "hindrance", 1, 3, data), block_digest("m", "e", "hindrance", 1, 3, data),
              block_digest("m", "d", "visibility", 1, 3, data), block_digest("m", "d", "hindrance", 2, 3, data),
              block_digest("m", "d", "hindrance", 1, 4, data), block_digest("m", "d", "hindrance", 1, 3, data[:2]),
              block_digest("m", "d", "hindrance", 1, 3, data.astype(np.uint8))}
    assert digest not in others and len(others) == 7
    assert digest == block_digest("m", "d", "hindrance", 1, 3, data.copy())


def test_zarr_reads_the_arrays_a_run_writes(finished):
    zarr = pytest.importorskip("zarr")
    base, truth = finished
    group = zarr.open_group(str(_map(base / "out", B) / storage.ARRAYS), mode="r")
    for array in ARRAYS:
        assert np.array_equal(group[array][...], truth[B, array])
