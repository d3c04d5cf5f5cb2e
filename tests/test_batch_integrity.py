"""Batch results can never be silently wrong: one run per output folder, markers that belong to their
arrays, reruns that verify what they skip, tampered metadata refused, no partial output folder."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

import kernel
from kernel.batch import sources, storage
from kernel.batch.spec import BatchJobError, MapEntry

distributed = pytest.importorskip("distributed")

JOB = "[job]\ncompute = ['visibility', 'hindrance']\nblock_rows = 64\n[[maps]]\nsource = '71'\n"


@pytest.fixture(scope="module")
def scheduler():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp://",
                                  dashboard_address=None, silence_logs=50) as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def expected():
    board = kernel.load("71")
    return kernel.visibility_bits(board), kernel.los_matrix(board)


def _job(tmp_path, text=JOB):
    path = tmp_path / "job.toml"
    path.write_text(text)
    return path


def _check(out, expected):
    bits, matrix = expected
    assert (kernel.batch_result(out, "71", "visibility") == bits).all()
    assert (kernel.batch_result(out, "71", "hindrance") == matrix).all()


def test_a_second_run_on_a_locked_folder_is_refused(scheduler, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    with storage.locked_output(out):
        record = json.loads((out / storage.LOCK).read_text())
        assert record["pid"] == os.getpid() and record["host"] == socket.gethostname()
        with pytest.raises(storage.BatchOutputError,
                           match=rf"out is in use by another batch run \(pid {os.getpid()} on "
                                 rf"{socket.gethostname()}, since .*\): expected one run per output folder"):
            kernel.run_batch(_job(tmp_path), out, scheduler=scheduler)
    assert not (out / storage.LOCK).exists() and not (out / "manifest.json").exists()
    (out / storage.LOCK).write_text(json.dumps({"pid": 1, "host": "elsewhere", "started": "then"}))
    with pytest.raises(storage.BatchOutputError, match=r"pid 1 on elsewhere, since then"):
        kernel.run_batch(_job(tmp_path), out, scheduler=scheduler)


def test_a_stale_lock_is_taken_over(scheduler, tmp_path, expected):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    out = tmp_path / "out"
    out.mkdir()
    (out / storage.LOCK).write_text(json.dumps({"pid": gone.pid, "host": socket.gethostname(), "started": "x"}))
    kernel.run_batch(_job(tmp_path), out, scheduler=scheduler)
    _check(out, expected)
    assert not (out / storage.LOCK).exists() and not list(out.glob(".lock*"))


def test_a_rerun_recomputes_a_block_whose_bytes_changed(scheduler, tmp_path, expected):
    import zarr

    out = tmp_path / "out"
    kernel.run_batch(_job(tmp_path), out, scheduler=scheduler)
    hindrance = zarr.open_array(str(out / "maps" / "71" / storage.ARRAYS / "hindrance"), mode="r+")
    hindrance[70, :] = 5  # block 1 changed behind the markers' back (another run, a disk fault)
    summary = kernel.run_batch(_job(tmp_path), out, scheduler=scheduler)
    assert summary["computed"] == 1 and summary["skipped"] == summary["blocks"] - 1
    _check(out, expected)


def test_markers_of_recreated_arrays_mark_nothing(scheduler, tmp_path, expected):
    out = tmp_path / "out"
    first = kernel.run_batch(_job(tmp_path), out, scheduler=scheduler)
    creation = json.loads((out / "maps" / "71" / "map.json").read_text())["creation"]
    (out / "maps" / "71" / "map.json").unlink()  # the arrays are recreated, all zeros
    again = kernel.run_batch(_job(tmp_path), out, scheduler=scheduler)
    assert again["computed"] == first["blocks"] and again["skipped"] == 0
    assert json.loads((out / "maps" / "71" / "map.json").read_text())["creation"] != creation
    _check(out, expected)
    # a marker of other arrays (an old creation id) is not taken for done
    marker = storage.marker_path(out / "maps" / "71", "hindrance", 2)
    data = json.loads(marker.read_text())
    marker.write_text(json.dumps({**data, "creation": creation}))
    assert 2 not in storage.completed_blocks(out / "maps" / "71", "hindrance")


def test_a_corrupt_marker_is_recomputed_and_a_corrupt_manifest_is_one_error(scheduler, tmp_path, expected):
    out = tmp_path / "out"
    kernel.run_batch(_job(tmp_path), out, scheduler=scheduler)
    storage.marker_path(out / "maps" / "71", "visibility", 1).write_text("{not json")
    assert kernel.run_batch(_job(tmp_path), out, scheduler=scheduler)["computed"] == 1
    _check(out, expected)
    (out / "manifest.json").write_text("[1, 2")
    with pytest.raises(storage.BatchOutputError, match=r"manifest.json: the manifest is not valid JSON"):
        kernel.run_batch(_job(tmp_path), out, scheduler=scheduler)
    assert (out / "maps" / "71" / "map.json").exists()  # a folder the run did not create is left as it was


@pytest.fixture(scope="module")
def finished(scheduler, tmp_path_factory):
    base = tmp_path_factory.mktemp("finished")
    kernel.run_batch(_job(base), base / "out", scheduler=scheduler)
    return base / "out"


def _tampered(finished, tmp_path, relative, change):
    import shutil

    out = tmp_path / "out"
    shutil.copytree(finished, out)
    path = out / relative
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return out


TAMPERING = [
    ("maps/71/arrays.zarr/hindrance/zarr.json", lambda d: d.update(data_type="uint8"),
     r"hindrance/zarr.json: its data_type differs from what the run wrote: expected the zarr metadata of array "
     r"'hindrance' of map '71' \(rerun the job to repair it\)"),
    ("maps/71/arrays.zarr/hindrance/zarr.json", lambda d: d["chunk_grid"]["configuration"].update(chunk_shape=[32, 5]),
     r"hindrance/zarr.json: its chunk_grid differs from what the run wrote"),
    ("maps/71/map.json", lambda d: d.update(block_rows=-1), r"map.json: block_rows is -1: expected an integer "
                                                            r"1..30000"),
    ("maps/71/map.json", lambda d: d.update(block_rows=0), r"map.json: block_rows is 0: expected an integer"),
    ("maps/71/map.json", lambda d: d.update(hexes=-5), r"map.json: hexes is -5: expected an integer 1..30000"),
    ("maps/71/map.json", lambda d: d.update(hexes=10 ** 12), r"map.json: hexes is 1000000000000: expected"),
    ("maps/71/map.json", lambda d: d.update(block_rows=32), r"map.json: block_rows is 32: expected 64 as the "
                                                            r"manifest records"),
    ("maps/71/map.json", lambda d: d.update(hexes=100, arrays={
        "hindrance": {"shape": [100, 100], "dtype": "int8"}, "visibility": {"shape": [100, 13], "dtype": "uint8"}}),
     r"map.json: hexes is 100: expected \d+ as the manifest records"),
    ("maps/71/map.json", lambda d: d["arrays"]["hindrance"].update(dtype="uint8"),
     r"map.json: array 'hindrance' is \[\d+, \d+\] 'uint8': expected \[\d+, \d+\] int8"),
    ("maps/71/map.json", lambda d: d.update(arrays=3), r"map.json: arrays is 3: expected an object"),
]


@pytest.mark.parametrize("relative, change, message", TAMPERING, ids=[f"tamper-{k}" for k in range(len(TAMPERING))])
def test_tampered_metadata_is_refused_not_read(finished, tmp_path, relative, change, message):
    out = _tampered(finished, tmp_path, relative, change)
    with pytest.raises(ValueError, match=message):
        kernel.batch_result(out, "71", "hindrance")


def test_a_failed_new_run_leaves_no_output_folder(scheduler, tmp_path):
    text = "[job]\ncompute = ['movement']\nunits = ['dragon']\n[[maps]]\nsource = '72'\n[[maps]]\nsource = '71'\n"
    with pytest.raises(BatchJobError, match=r"unit class 'dragon'"):
        kernel.run_batch(_job(tmp_path, text), tmp_path / "new" / "out", scheduler=scheduler)
    assert not (tmp_path / "new" / "out").exists()


def test_workers_are_bounded(tmp_path):
    from kernel.batch.run import max_workers

    with pytest.raises(BatchJobError, match=rf"workers is 1000000: expected 1..{max_workers()} \(4 per core\)"):
        kernel.run_batch(_job(tmp_path), tmp_path / "out", workers=10 ** 6)
    assert not (tmp_path / "out").exists()


def test_a_source_is_hashed_in_chunks_with_the_same_digest(tmp_path, monkeypatch):
    path = tmp_path / "big.bin"
    with open(path, "wb") as handle:
        handle.truncate(48 * 1024 * 1024)
    entry = MapEntry("big", source=str(path))
    tracemalloc.start()
    digest = sources.source_digest(entry)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 8 * 1024 * 1024, peak  # not the file's 48 MB
    assert digest == hashlib.sha256(b"file\0" + bytes(48 * 1024 * 1024)).hexdigest()


def test_an_unreadable_source_names_the_source_not_the_output(tmp_path, monkeypatch):
    path = tmp_path / "m.board"
    path.write_text("x")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(sources, "open", refuse, raising=False)
    with pytest.raises(BatchJobError, match=r"m.board: cannot read the map's source \(Permission denied\)"):
        sources.source_digest(MapEntry("m", source=str(path)))
