"""Batch jobs without a cluster: the job file's schema and errors, the blocks, the output folder and its markers."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import kernel
from kernel.batch import sources, storage
from kernel.batch.blocks import array_shapes, counters_for, los_block, movement_block
from kernel.batch.spec import BatchJobError, job_from_text, read_job
from tests.reference.vantage_reference import reference_vantage

GOOD = """
[job]
compute = ["visibility", "movement"]
block_rows = 32
units = ["infantry"]
allowance = 4
[[maps]]
source = "71"
name = "first"
counters = { smoke = { "71I9" = 3 }, vehicles = ["71J9"], units = [] }
[[maps]]
random = { ruleset = "ccn", columns = 9, rows = 7, seed = 2, count = 3, terrain_density = 0.5 }
"""


def test_a_good_job_parses():
    job = job_from_text(GOOD, "job.toml")
    assert [m.name for m in job.maps] == ["first", "random-ccn-9x7-seed2", "random-ccn-9x7-seed3",
                                         "random-ccn-9x7-seed4"]
    assert job.compute == ("visibility", "movement") and job.block_rows == 32
    assert job.units == ("infantry",) and job.allowance == 4.0
    assert job.maps[0].counters == {"smoke": {"71I9": 3}, "vehicles": ["71J9"], "units": []}
    assert job.maps[3].random == {"ruleset": "ccn", "columns": 9, "rows": 7, "terrain_density": 0.5, "seed": 4}


def test_json_and_toml_give_the_same_job(tmp_path):
    data = {"job": {"compute": ["hindrance"], "block_rows": 8},
            "maps": [{"source": "72"}, {"random": {"columns": 5, "rows": 5, "seed": 1}}]}
    (tmp_path / "a.json").write_text(json.dumps(data))
    (tmp_path / "a.toml").write_text('[job]\ncompute = ["hindrance"]\nblock_rows = 8\n[[maps]]\nsource = "72"\n'
                                     '[[maps]]\nrandom = { columns = 5, rows = 5, seed = 1 }\n')
    assert read_job(tmp_path / "a.json").digest == read_job(tmp_path / "a.toml").digest


def test_a_source_path_is_taken_from_the_job_files_folder(tmp_path):
    board = kernel.data_dir() / "boards" / "71.board"
    (tmp_path / "copy.board").write_bytes(board.read_bytes())
    (tmp_path / "job.toml").write_text('[[maps]]\nsource = "copy.board"\n')
    entry = read_job(tmp_path / "job.toml").maps[0]
    assert entry.name == "copy" and entry.source == str(tmp_path / "copy.board")
    assert len(sources.load_entry(entry)) == len(kernel.load("71"))


def test_the_job_digest_changes_with_each_setting():
    base = job_from_text(GOOD, "job.toml").digest
    for old, new in (("block_rows = 32", "block_rows = 16"), ('name = "first"', 'name = "first"\nunits = ["leader"]'),
                     ('units = ["infantry"]', 'units = ["cavalry"]'),
                     ("allowance = 4", "allowance = 6"), ("seed = 2", "seed = 3"), ('"71I9" = 3', '"71I9" = 2'),
                     ("allowance = 4", "allowance = 4\nmodel = 'depiction'")):
        assert job_from_text(GOOD.replace(old, new), "job.toml").digest != base, old


BAD = [
    ("[[maps]\n", "job.toml: not valid TOML"),
    ("maps = 3\n", r"'maps' is 3: expected a non-empty list"),
    ("title = 1\n[[maps]]\nsource='71'\n", r"unknown top-level key 'title'"),
    ("job = 1\n[[maps]]\nsource='71'\n", r"'job' is 1: expected a table"),
    ("[job]\nspeed = 1\n[[maps]]\nsource='71'\n", r"unknown key 'job.speed'"),
    ("[job]\ncompute = ['colour']\n[[maps]]\nsource='71'\n", r"'job.compute' is \['colour'\]: expected"),
    ("[job]\ncompute = []\n[[maps]]\nsource='71'\n", r"'job.compute' is \[\]: expected a non-empty list"),
    ("[job]\nblock_rows = 0\n[[maps]]\nsource='71'\n", r"'job.block_rows' is 0: expected a positive integer"),
    ("[job]\nblock_rows = true\n[[maps]]\nsource='71'\n", r"'job.block_rows' is True"),
    ("[job]\nunits = 'infantry'\n[[maps]]\nsource='71'\n", r"'job.units' is 'infantry': expected a list"),
    ("[job]\nallowance = -1\n[[maps]]\nsource='71'\n", r"'job.allowance' is -1: expected a positive number"),
    ("[job]\nmodel = 'pixel'\n[[maps]]\nsource='71'\n", r"'job.model' is 'pixel': expected one of hex, depiction, vasl"),
    ("maps = [3]\n", r"'maps\[0\]' is 3: expected a table"),
    ("[[maps]]\nsource='71'\nsize = 2\n", r"unknown key 'maps\[0\].size'"),
    ("[[maps]]\nname = 'x'\n", r"'maps\[0\]' has neither 'source' and 'random'"),
    ("[[maps]]\nsource = '71'\nrandom = {}\n", r"'maps\[0\]' has both 'source' and 'random'"),
    ("[[maps]]\nsource = ''\n", r"'maps\[0\].source' is '': expected a file"),
    ("[[maps]]\nsource = '71'\nname = 'a b'\n", r"'maps\[0\].name' is 'a b': expected letters"),
    ("[[maps]]\nrandom = 3\n", r"'maps\[0\].random' is 3: expected a table"),
    ("[[maps]]\nrandom = { count = 0 }\n", r"'maps\[0\].random.count' is 0: expected a positive integer"),
    ("[[maps]]\nname = 'r'\nrandom = { count = 2 }\n", r"has a name and count = 2"),
    ("[[maps]]\nrandom = { colour = 2 }\n", r"unknown key 'maps\[0\].random.colour'"),
    ("[[maps]]\nrandom = { columns = 'x' }\n", r"'maps\[0\].random.columns' is 'x': expected int"),
    ("[[maps]]\nsource = '71'\n[[maps]]\nsource = '71'\n", r"two maps are named '71'"),
    ("[[maps]]\nsource = '71'\nunits = 'infantry'\n", r"'maps\[0\].units' is 'infantry': expected a list"),
    ("[[maps]]\nsource = '71'\ncounters = { fog = 1 }\n", r"unknown key 'maps\[0\].counters.fog'"),
    ("[[maps]]\nsource = '71'\ncounters = { smoke = ['71I9'] }\n", r"'maps\[0\].counters.smoke' is \['71I9'\]"),
    ("[[maps]]\nsource = '71'\ncounters = { vehicles = '71I9' }\n", r"'maps\[0\].counters.vehicles' is '71I9'"),
]


@pytest.mark.parametrize("text, message", BAD, ids=[f"bad-{k}" for k in range(len(BAD))])
def test_a_bad_job_names_the_file_and_key(text, message):
    with pytest.raises(BatchJobError, match=message):
        job_from_text(text, "job.toml")


def test_bad_json_and_a_non_table(tmp_path):
    with pytest.raises(BatchJobError, match=r"x.json: not valid JSON"):
        job_from_text("{", "x.json")
    with pytest.raises(BatchJobError, match=r"x.json: the top level is list: expected a table"):
        job_from_text("[]", "x.json")
    with pytest.raises(BatchJobError, match=r"missing.toml: cannot read the job file"):
        read_job(tmp_path / "missing.toml")


def test_source_digests_follow_the_content(tmp_path):
    a = kernel.batch.spec.MapEntry("a", random={"columns": 5, "rows": 4, "seed": 1})
    b = kernel.batch.spec.MapEntry("a", random={"columns": 5, "rows": 4, "seed": 2})
    assert sources.source_digest(a) != sources.source_digest(b)
    path = tmp_path / "m.board"
    path.write_bytes((kernel.data_dir() / "boards" / "71.board").read_bytes())
    entry = kernel.batch.spec.MapEntry("m", source=str(path))
    before = sources.source_digest(entry)
    path.write_bytes(path.read_bytes() + b"\n")
    assert sources.source_digest(entry) != before
    assert sources.board_digest(kernel.load("71")) != sources.board_digest(kernel.load("72"))


def test_the_worker_cache_compiles_once_and_keeps_a_few():
    sources.clear_cache()
    entries = [kernel.batch.spec.MapEntry(f"r{s}", random={"columns": 4, "rows": 3, "seed": s}) for s in range(3)]
    first = sources.cached_board(entries[0], "key0")
    assert sources.cached_board(entries[0], "key0") is first
    for k in (1, 2):
        sources.cached_board(entries[k], f"key{k}")
    assert sources.cached_board(entries[0], "key0") is not first  # evicted after CACHE_SIZE newer maps
    sources.clear_cache()


@pytest.mark.parametrize("ruleset, seed", [("asl", 11), ("valor-victory", 12), ("ccn", 13)],
                         ids=lambda v: f"seed{v}" if isinstance(v, int) else v)
def test_los_blocks_match_the_whole_matrix_and_the_vantage_reference(ruleset, seed):
    board = kernel.random_board(ruleset, 6, 5, seed=seed)
    matrix = kernel.los_matrix(board)
    pieces = [los_block(board, first, min(7, 30 - first), None, ("visibility", "hindrance", "vantage"))
              for first in range(0, 30, 7)]
    assert (np.concatenate([p["hindrance"] for p in pieces]) == matrix).all()
    assert (np.concatenate([p["visibility"] for p in pieces]) == kernel.visibility_bits(board)).all()
    vantage = np.concatenate([p["vantage"] for p in pieces])
    assert vantage.tolist() == reference_vantage(board)
    assert vantage[:, 0].sum() > 0  # the map is not all blocked


def test_the_model_changes_the_blocks():
    board = kernel.load("71")
    job = job_from_text("[job]\nmodel = 'depiction'\n[[maps]]\nsource = '71'\n", "job.toml")
    assert job.model == "depiction" and job_from_text("[[maps]]\nsource = '71'\n", "job.toml").model is None
    with warnings.catch_warnings():   # the bundled map has no drawn art: the depiction model reads its hexes
        warnings.simplefilter("ignore", kernel.DepictionWarning)
        drawn = los_block(board, 0, len(board), None, ("hindrance",), job.model)["hindrance"]
    assert (drawn == kernel.los_matrix(board, model="depiction")).all()
    assert (drawn != los_block(board, 0, len(board), None, ("hindrance",))["hindrance"]).any()


def test_counters_change_the_blocks():
    board = kernel.load("71")
    counters = counters_for(board, {"smoke": {"71I9": 3}, "vehicles": ["71J9"], "units": []})
    assert counters_for(board, {"smoke": {}, "vehicles": [], "units": []}) is None
    plain = los_block(board, 0, len(board), None, ("hindrance",))["hindrance"]
    smoky = los_block(board, 0, len(board), counters, ("hindrance",))["hindrance"]
    assert (smoky == kernel.los_matrix(board, counters=counters)).all() and (smoky != plain).any()
    moves = movement_block(board, "infantry", 5, 9, counters, None)
    assert (moves == kernel.movement_matrix(board, range(5, 14), unit="infantry", counters=counters)).all()
    assert (moves != movement_block(board, "infantry", 5, 9, None, None)).any()
    assert (movement_block(board, "infantry", 5, 9, None, 2) != movement_block(board, "infantry", 5, 9, None,
                                                                               None)).any()


def test_los_matrix_rows_checks_its_range():
    board = kernel.load("71")
    with pytest.raises(ValueError, match=r"first_row is -1: expected a non-negative integer"):
        kernel.los_matrix_rows(board, -1, 2)
    with pytest.raises(ValueError, match=r"row_count is 1.5: expected a non-negative integer"):
        kernel.los_matrix_rows(board, 0, 1.5)
    with pytest.raises(ValueError, match=rf"rows 340..349 asked of a matrix with {len(board)} rows"):
        kernel.los_matrix_rows(board, 340, 10)
    assert kernel.los_matrix_rows(board, 3, 0).shape == (0, len(board))


def _prepared(tmp_path, hexes=10, rows=4):
    folder = tmp_path / "maps" / "m"
    shapes = array_shapes(["vantage"], hexes, [])
    storage.prepare_map(folder, {"hexes": hexes, "block_rows": rows,
                                 "arrays": {k: {"shape": list(s), "dtype": d} for k, (s, d) in shapes.items()}})
    return folder


def test_a_block_without_its_marker_is_not_read_as_valid(tmp_path):
    import zarr

    folder = _prepared(tmp_path)
    data = np.arange(30, dtype=np.int32).reshape(10, 3)
    storage.write_block(folder, "vantage", 0, 0, data[0:4])
    storage.write_block(folder, "vantage", 2, 8, data[8:10])
    # a task killed after writing its chunk and before its marker
    zarr.open_array(str(folder / storage.ARRAYS / "vantage"), mode="r+")[4:8] = data[4:8]
    assert sorted(storage.completed_blocks(folder, "vantage")) == [0, 2]
    with pytest.raises(ValueError, match=r"has 1 of 3 blocks unfinished \(first: block 1, rows 4..\)"):
        kernel.batch_result(tmp_path, "m", "vantage")
    storage.write_block(folder, "vantage", 1, 4, data[4:8])
    assert (kernel.batch_result(tmp_path, "m", "vantage") == data).all()
    assert not list(folder.rglob("*.tmp"))


def test_a_changed_block_fails_its_checksum(tmp_path):
    import zarr

    folder = _prepared(tmp_path)
    data = np.ones((10, 3), np.int32)
    for k, first in enumerate(range(0, 10, 4)):
        storage.write_block(folder, "vantage", k, first, data[first:first + 4])
    zarr.open_array(str(folder / storage.ARRAYS / "vantage"), mode="r+")[5, 1] = 7
    with pytest.raises(ValueError, match=r"block 1 of 'vantage' of map 'm' \(rows 4..\) is damaged: its bytes do not give its digest"):
        kernel.batch_result(tmp_path, "m", "vantage")
    assert kernel.batch_result(tmp_path, "m", "vantage", verify=False)[5, 1] == 7


def test_batch_result_names_what_is_missing(tmp_path):
    _prepared(tmp_path)
    with pytest.raises(ValueError, match=r"no map.json: expected a map folder"):
        kernel.batch_result(tmp_path, "other", "vantage")
    with pytest.raises(ValueError, match=r"no array 'visibility': expected one of vantage"):
        kernel.batch_result(tmp_path, "m", "visibility")


def test_templates_built_in_chunks_are_the_same(monkeypatch):
    from kernel.line_of_sight._templates import tracer

    board = kernel.random_board("asl", 14, 9, seed=41)
    whole = tracer.TraceTemplates(board)
    monkeypatch.setattr(tracer, "BUILD_CHUNK_ENTRIES", 50)  # hundreds of chunks, some of one template
    chunked = tracer.TraceTemplates(board)
    for name in ("start", "dcol", "dy", "kind", "cross", "ranges", "entry_sides", "offset", "packed"):
        a, b = getattr(whole, name), getattr(chunked, name)
        assert a.dtype == b.dtype and a.shape == b.shape and (a == b).all(), name
