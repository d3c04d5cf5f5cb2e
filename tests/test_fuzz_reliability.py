"""Fuzz suite: batch job files, scheduler addresses, tampered batch outputs, output paths and ruleset files.

Each input is either accepted or refused with its documented one-line error
(:class:`~kernel.batch.spec.BatchJobError`, :class:`~kernel.batch.run.BatchClusterError`,
``ValueError`` from :func:`kernel.batch_result`, :class:`~kernel.cli.errors.UserError`,
:class:`~kernel.maps.rulesets.RulesetError`); never another exception, never a
hang, and what is accepted is within the documented limits (a tampered output
is read only when it still holds exactly what the run wrote).  Short mode in
``make test``; ``HEXKERNEL_FUZZ=long`` runs 20 times as many inputs.
"""

from __future__ import annotations

import json
import math
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import kernel
from kernel._limits import MAX_MAP_HEXES
from kernel.batch import storage
from kernel.batch.run import BatchClusterError, scheduler_endpoint
from kernel.batch.spec import MAX_JOB_MAPS, BatchJobError, job_from_text
from kernel.cli.errors import UserError
from kernel.cli.outputs import Outputs
from kernel.maps.rulesets import RulesetError, load_ruleset
from tests.fuzzing import fuzz, tried

NUMBERS = st.one_of(st.integers(-5, 70), st.sampled_from([0, 1, 2 ** 62, 10 ** 9, 10 ** 30, -1]),
                    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.text(max_size=5))
RANDOM = st.fixed_dictionaries({}, optional={
    "count": NUMBERS, "columns": NUMBERS, "rows": NUMBERS, "seed": NUMBERS, "hills": NUMBERS,
    "max_level": NUMBERS, "terrain_density": NUMBERS, "hexside_density": NUMBERS, "cliffs": NUMBERS,
    "ruleset": st.sampled_from(["asl", "ccn", "nope", 3]), "layout": st.sampled_from(["rectangular", "x"])})
SOURCE = st.sampled_from(["71", "72", ".", "..", "../", "/", "a/b.board", "", "x y", "-", "../../etc"])
MAP = st.one_of(st.fixed_dictionaries({"source": SOURCE}, optional={"name": st.sampled_from(
                    ["a", ".", "..", "a/b", "", "ok-1", "x" * 300])}),
                st.fixed_dictionaries({"random": RANDOM}), st.just({}), st.just(3))
JOB = st.fixed_dictionaries({"maps": st.lists(MAP, max_size=3)}, optional={"job": st.fixed_dictionaries({}, optional={
    "allowance": NUMBERS, "block_rows": NUMBERS, "compute": st.sampled_from([["visibility"], ["movement"], [], "x"]),
    "units": st.sampled_from([["infantry"], "infantry", [3]])})})


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, (int, str)):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"


def _as_toml(job: dict) -> str:
    lines = [f"{k} = {_toml_value(v)}" for k, v in job.get("job", {}).items()]
    lines = (["[job]"] + lines if lines else []) + [f"maps = {_toml_value(job['maps'])}"]
    return "\n".join(lines) + "\n"


@fuzz(200)
@given(job=JOB, as_json=st.booleans(), prefix=st.sampled_from(["", "[" * 50, "\x00\xff", "x = " + "[" * 9 + "]" * 9]))
def test_fuzz_batch_job_files(tmp_path, job, as_json, prefix):
    name = str(tmp_path / ("job.json" if as_json else "job.toml"))
    text = prefix + (json.dumps(job) if as_json else _as_toml(job))
    try:
        parsed = job_from_text(text, name)
    except BatchJobError as error:
        assert str(error).startswith(name) and "\n" not in str(error)
        tried("batch job files", False)
        return
    tried("batch job files", True)
    assert 1 <= parsed.block_rows <= MAX_MAP_HEXES and 1 <= len(parsed.maps) <= MAX_JOB_MAPS
    assert parsed.allowance is None or 0 < parsed.allowance <= 1000
    for entry in parsed.maps:
        folder = (tmp_path / "out" / "maps" / entry.name).resolve()
        assert folder.parent == (tmp_path / "out" / "maps").resolve() and entry.name not in (".", "..")
        if entry.random is not None:
            assert 1 <= entry.random["columns"] <= 52 and 1 <= entry.random["rows"] <= 200


@fuzz(300)
@given(address=st.one_of(st.text(max_size=40), st.builds(lambda s, h, p: f"{s}{h}:{p}",
                                                        st.sampled_from(["tcp://", "tls://", "ucx://", "", "inproc://"]),
                                                        st.sampled_from(["127.0.0.1", "", "[::1]", "a b", "host"]),
                                                        st.one_of(st.integers(-5, 10 ** 7).map(str), st.text(max_size=6)))))
def test_fuzz_scheduler_addresses(address):
    try:
        host, port = scheduler_endpoint(address)
    except BatchClusterError as error:
        assert "\n" not in str(error) and "expected" in str(error)
        tried("scheduler addresses", False)
        return
    tried("scheduler addresses", True)
    assert host and 1 <= port <= 65535 and not any(c.isspace() for c in host)


@pytest.fixture(scope="module")
def finished_output(tmp_path_factory):
    distributed = pytest.importorskip("distributed")
    base = tmp_path_factory.mktemp("fuzz-batch")
    job = base / "job.toml"
    job.write_text("[job]\ncompute = ['hindrance', 'vantage']\nblock_rows = 96\n[[maps]]\nsource = '71'\n")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  dashboard_address=None, silence_logs=50) as local:
        kernel.run_batch(job, base / "out", scheduler=local.scheduler_address)
    return base / "out", {a: kernel.batch_result(base / "out", "71", a) for a in ("hindrance", "vantage")}


TAMPER_VALUES = st.one_of(st.integers(-10, 400), st.sampled_from([0, -1, 10 ** 12, 2 ** 63, None, "int8", "uint8",
                                                                 "int32", [], {}, [96, 3], [1, 1], 3.5, True]))


@fuzz(120)
@given(target=st.sampled_from(["map.json", "hindrance", "vantage", "manifest.json"]), key=st.sampled_from(
    ["hexes", "block_rows", "data_type", "shape", "chunk", "arrays", "creation", "fill_value"]), value=TAMPER_VALUES,
    array=st.sampled_from(["hindrance", "vantage"]))
def test_fuzz_tampered_batch_outputs(tmp_path, finished_output, target, key, value, array):
    out, expected = finished_output
    copy = tmp_path / "out"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(out, copy)
    path = {"map.json": copy / "maps" / "71" / "map.json", "manifest.json": copy / "manifest.json"}.get(
        target, copy / "maps" / "71" / "arrays.zarr" / target / "zarr.json")
    data = json.loads(path.read_text())
    if key == "chunk" and "chunk_grid" in data:
        data["chunk_grid"]["configuration"]["chunk_shape"] = value
    elif key == "arrays" and "arrays" in data and isinstance(data["arrays"], dict):
        data["arrays"][array] = value if target != "manifest.json" else {"shape": value, "dtype": "int8"}
    else:
        data[key] = value
    path.write_text(json.dumps(data))
    try:
        result = kernel.batch_result(copy, "71", array)
    except ValueError as error:
        assert "\n" not in str(error) and "expected" in str(error)
        tried("tampered batch outputs", False)
        return
    tried("tampered batch outputs", True)
    assert result.dtype == expected[array].dtype and (result == expected[array]).all()


@fuzz(150)
@given(kind=st.sampled_from(["missing", "regular", "symlink", "dangling", "directory", "fifo", "device",
                             "no-folder"]),
       force=st.booleans(), suffix=st.sampled_from([".json", ".png", ""]))
def test_fuzz_output_paths(tmp_path, kind, force, suffix):
    for child in tmp_path.iterdir():
        shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
    path = tmp_path / f"out{suffix}"
    (tmp_path / "real").write_text("keep")
    if kind == "regular":
        path.write_text("old")
    elif kind == "symlink":
        path.symlink_to(tmp_path / "real")
    elif kind == "dangling":
        path.symlink_to(tmp_path / "nowhere")
    elif kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path = Path("/dev/null")
    elif kind == "no-folder":
        path = tmp_path / "none" / "out.json"
    try:
        with Outputs(force=force) as outputs:
            outputs.claim("--json-out", str(path), (".json",) if suffix == ".json" else ())
            Path(outputs.stage(str(path))).write_text("new")
            outputs.commit()
    except UserError as error:
        assert "\n" not in str(error)
        tried("output paths", False)
    else:
        tried("output paths", True)
        assert kind in ("missing", "regular") and path.is_file() and not path.is_symlink()
        assert path.read_text() == "new" and (kind == "missing" or force)
    assert (tmp_path / "real").read_text() == "keep"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


RULESET = (kernel.data_dir() / "rulesets" / "asl.toml").read_text()


@fuzz(150)
@given(cut=st.integers(0, len(RULESET)), insert=st.sampled_from(["", "[", "{", "\x00", "=", "\n[terrain.x]\n",
                                                                  "[" * 40, "x = 1e999\n", "\ufeff", "]]"]),
       depth=st.integers(0, 30))
def test_fuzz_ruleset_files(tmp_path, cut, insert, depth):
    path = tmp_path / f"r{cut}-{depth}.toml"
    path.write_text(RULESET[:cut] + insert + "[" * depth + "]" * depth + RULESET[cut:], encoding="utf-8")
    try:
        ruleset = load_ruleset(path)
    except RulesetError as error:
        assert str(error).startswith(str(path)) and "\n" not in str(error).strip()
        tried("ruleset files", False)
        return
    tried("ruleset files", True)
    assert len(ruleset.terrain_names) > 0
