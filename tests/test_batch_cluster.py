"""Batch jobs on a real dask cluster: a local cluster of two worker processes, started and stopped here.

Results are compared bit for bit with the single-process functions; a worker
is killed by its PID mid-job; the client is interrupted and the job rerun;
bad job files and an unreachable scheduler end in one line with exit code 2.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import kernel
from kernel.batch import storage
from kernel.batch.run import BatchClusterError

distributed = pytest.importorskip("distributed")

#: A job with many small blocks, so that a kill or an interrupt lands mid-job.
LONG_JOB = """
[job]
compute = ["visibility", "hindrance"]
block_rows = 8
[[maps]]
random = { ruleset = "asl", columns = 44, rows = 20, seed = 21, count = 2 }
"""


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as local, distributed.Client(local) as client:
        yield local, client


def _write_job(tmp_path, text, name="job.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def _markers(out) -> dict:
    return {p: p.stat().st_mtime_ns for p in (out / "maps").glob("*/done/*/*.json")}


def _cli(*args, **options):
    return subprocess.run([sys.executable, "-m", "kernel.cli", "batch", *map(str, args)], capture_output=True,
                          text=True, timeout=300, **options)


def _long_job_expected():
    expected = {}
    for seed in (21, 22):
        board = kernel.random_board("asl", 44, 20, seed=seed)
        expected[f"random-asl-44x20-seed{seed}"] = (kernel.visibility_bits(board), kernel.los_matrix(board))
    return expected


def _check_long_job(out, expected):
    for name, (bits, matrix) in expected.items():
        assert (kernel.batch_result(out, name, "visibility") == bits).all()
        assert (kernel.batch_result(out, name, "hindrance") == matrix).all()
    assert len(_markers(out)) == 2 * 2 * 110  # maps x arrays x blocks, each once
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


def test_results_are_bit_identical_to_the_single_process_functions(cluster, tmp_path):
    local, _ = cluster
    job = _write_job(tmp_path, """
[job]
compute = ["visibility", "hindrance", "vantage", "movement"]
block_rows = 40
units = ["infantry", "fully-tracked"]
[[maps]]
source = "71"
counters = { smoke = { "71I9" = 3 }, vehicles = ["71J9"] }
[[maps]]
random = { ruleset = "valor-victory", columns = 11, rows = 9, seed = 31 }
units = ["vehicle"]
""")
    summary = kernel.run_batch(job, tmp_path / "out", scheduler=local.scheduler_address)
    assert summary["maps"] == 2 and summary["computed"] == summary["blocks"] == 9 * 3 + 3 * 2
    out = tmp_path / "out"
    board = kernel.load("71")
    smoke = kernel.Counters.on(board, smoke={"71I9": 3}, vehicles=["71J9"])
    assert (kernel.batch_result(out, "71", "visibility") == kernel.visibility_bits(board, counters=smoke)).all()
    hindrance = kernel.batch_result(out, "71", "hindrance")
    assert (hindrance == kernel.los_matrix(board, counters=smoke)).all()
    assert (hindrance != kernel.los_matrix(board)).any()  # the counters were applied
    for unit in ("infantry", "fully-tracked"):
        expected = kernel.movement_matrix(board, unit=unit, counters=smoke)
        assert (kernel.batch_result(out, "71", f"movement-{unit}") == expected).all()
    vantage = kernel.batch_result(out, "71", "vantage")
    seen = (kernel.los_matrix(board, counters=smoke) != kernel.BLOCKED).sum(axis=1) - 1
    assert (vantage[:, 0] == seen).all()
    vv = kernel.random_board("valor-victory", 11, 9, seed=31)
    assert (kernel.batch_result(out, "random-valor-victory-11x9-seed31", "hindrance") == kernel.los_matrix(vv)).all()
    assert (kernel.batch_result(out, "random-valor-victory-11x9-seed31", "movement-vehicle")
            == kernel.movement_matrix(vv, unit="vehicle")).all()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["versions"]["hexkernel"] == kernel.__version__
    assert manifest["maps"]["71"]["arrays"]["visibility"]["chunks"] == [40, (len(board) + 7) // 8]
    assert manifest["maps"]["71"]["model"] == kernel.default_model(board) == "hex"   # each map records its model
    assert json.loads((out / "maps" / "71" / "map.json").read_text())["model"] == "hex"
    assert None not in manifest["maps"]["71"]["arrays"]["hindrance"]["block_sha256"]
    again = kernel.run_batch(job, out, scheduler=local.scheduler_address)
    assert again["computed"] == 0 and again["skipped"] == summary["blocks"]


def test_threads_per_task_and_block_rows_change_the_work_not_the_arrays(cluster, tmp_path):
    local, _ = cluster
    text = "[job]\ncompute = ['visibility']\nblock_rows = {rows}\n[[maps]]\nsource = '72'\n"
    wide = kernel.run_batch(_write_job(tmp_path, text.format(rows=200), "a.toml"), tmp_path / "a",
                            scheduler=local.scheduler_address, threads_per_task=2)
    narrow = kernel.run_batch(_write_job(tmp_path, text.format(rows=50), "b.toml"), tmp_path / "b",
                              scheduler=local.scheduler_address)
    assert (wide["blocks"], narrow["blocks"]) == (2, 7)
    assert (kernel.batch_result(tmp_path / "a", "72", "visibility")
            == kernel.batch_result(tmp_path / "b", "72", "visibility")).all()


def test_a_worker_killed_mid_job_changes_nothing(cluster, tmp_path):
    local, client = cluster
    job = _write_job(tmp_path, LONG_JOB)
    out = tmp_path / "out"
    pids = client.run(os.getpid)
    outcome = {}
    runner = threading.Thread(target=lambda: outcome.update(
        summary=kernel.run_batch(job, out, scheduler=local.scheduler_address)))
    runner.start()
    deadline = time.monotonic() + 120
    while not _markers(out) if out.exists() else True:
        assert time.monotonic() < deadline and runner.is_alive()
        time.sleep(0.005)
    victim = sorted(pids.values())[0]
    os.kill(victim, signal.SIGKILL)
    done_at_kill = len(_markers(out))
    runner.join(timeout=240)
    assert not runner.is_alive()
    assert done_at_kill < 2 * 2 * 110, "the job ended before the kill: make it longer"
    summary = outcome["summary"]
    # blocks the dead worker had finished are run again by dask (their results died with it) and find
    # their markers: skipped, not written twice
    assert summary["blocks"] == 2 * 110 and summary["computed"] + summary["skipped"] == 2 * 110
    assert summary["skipped"] <= done_at_kill
    assert victim not in client.run(os.getpid).values()
    _check_long_job(out, _long_job_expected())


def test_an_interrupted_client_resumes_without_losing_or_repeating_blocks(cluster, tmp_path):
    local, _ = cluster
    job = _write_job(tmp_path, LONG_JOB)
    out = tmp_path / "out"
    first = subprocess.Popen([sys.executable, "-m", "kernel.cli", "batch", str(job), "--out", str(out),
                              "--scheduler", local.scheduler_address, "--quiet"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (out.exists() and _markers(out)):
        assert time.monotonic() < deadline and first.poll() is None
        time.sleep(0.005)
    first.send_signal(signal.SIGINT)
    _, error = first.communicate(timeout=60)
    assert first.returncode == 130 and error.strip().endswith("batch: interrupted"), error
    time.sleep(1.0)  # tasks already running when the client left finish on the cluster
    before = _markers(out)
    assert 0 < len(before) < 2 * 2 * 110
    assert json.loads((out / "manifest.json").read_text())["status"] == "running"
    second = _cli(job, "--out", out, "--scheduler", local.scheduler_address, "--json")
    assert second.returncode == 0, second.stderr
    summary = json.loads(second.stdout)
    finished_before = len({p.parent.parent.parent.name + "/" + p.stem for p in before
                           if all((p.parent.parent / a / p.name).exists() for a in ("visibility", "hindrance"))})
    assert summary["skipped"] == finished_before and summary["computed"] == 2 * 110 - finished_before
    after = _markers(out)
    assert all(after[p] == mtime for p, mtime in before.items())  # finished blocks were not written again
    _check_long_job(out, _long_job_expected())


def test_the_embedded_cluster_is_the_default(tmp_path):
    job = _write_job(tmp_path, "[job]\ncompute = ['vantage']\nblock_rows = 100\n[[maps]]\nsource = '71'\n")
    result = _cli(job, "--out", tmp_path / "out", "--workers", "2")
    assert result.returncode == 0, result.stderr
    assert "1 maps, 4 blocks: 4 computed, 0 already done" in result.stdout
    board = kernel.load("71")
    seen = (kernel.los_matrix(board) != kernel.BLOCKED).sum(axis=1) - 1
    assert (kernel.batch_result(tmp_path / "out", "71", "vantage")[:, 0] == seen).all()


def _one_line_error(result, pattern):
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert pattern in result.stderr, result.stderr


def test_a_bad_job_file_is_one_line_with_exit_code_2(tmp_path):
    bad = _write_job(tmp_path, "[job]\nblock_rows = -3\n[[maps]]\nsource = '71'\n")
    _one_line_error(_cli(bad, "--out", tmp_path / "out"), "'job.block_rows' is -3: expected a positive integer")
    _one_line_error(_cli(tmp_path / "none.toml", "--out", tmp_path / "out"), "none.toml: cannot read the job file")
    _one_line_error(_cli(bad, "--out", tmp_path / "o", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"),
                    "--workers is given with --scheduler")
    _one_line_error(_cli(bad, "--out", tmp_path / "o", "--threads-per-task", "0"), "--threads-per-task")
    assert not (tmp_path / "out").exists()


def test_an_unreachable_scheduler_is_one_line_with_exit_code_2(tmp_path):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    job = _write_job(tmp_path, "[[maps]]\nsource = '71'\n")
    result = _cli(job, "--out", tmp_path / "out", "--scheduler", f"tcp://127.0.0.1:{port}", "--connect-timeout", "2")
    _one_line_error(result, f"cannot reach the dask scheduler at 'tcp://127.0.0.1:{port}'")
    with pytest.raises(BatchClusterError, match=r"cannot reach the dask scheduler at 'tcp://127.0.0.1:"):
        kernel.run_batch(job, tmp_path / "out", scheduler=f"tcp://127.0.0.1:{port}", connect_timeout=1)


def test_map_errors_found_on_a_worker_are_job_errors(cluster, tmp_path):
    local, _ = cluster
    for text, message in (
            ("[job]\ncompute = ['movement']\nunits = ['dragon']\n[[maps]]\nsource = '71'\n",
             r"map '71': unit class 'dragon' is not in ruleset 'asl': expected one of infantry"),
            ("[[maps]]\nsource = '71'\ncounters = { smoke = { '99Z9' = 3 } }\n", r"map '71': .*99Z9"),
            ("[[maps]]\nsource = 'no-such-map'\n", r"map 'no-such-map': "),
            ("[job]\nmodel = 'depiction'\n[[maps]]\nrandom = { ruleset = 'ccn', columns = 5, rows = 5, seed = 1 }\n",
             r"map 'random-ccn-5x5-seed1': job.model 'depiction' needs ASL LOS rules: ruleset 'ccn'")):
        with pytest.raises(kernel.BatchJobError, match=message):
            kernel.run_batch(_write_job(tmp_path, text), tmp_path / "out", scheduler=local.scheduler_address)
        assert not (tmp_path / "out" / "manifest.json").exists()


def test_a_folder_of_another_job_or_map_is_refused(cluster, tmp_path):
    local, _ = cluster
    out = tmp_path / "out"
    kernel.run_batch(_write_job(tmp_path, "[[maps]]\nsource = '71'\n"), out, scheduler=local.scheduler_address)
    with pytest.raises(kernel.BatchJobError, match=r"holds the results of another job"):
        kernel.run_batch(_write_job(tmp_path, "[[maps]]\nsource = '72'\n"), out, scheduler=local.scheduler_address)
    (out / "manifest.json").unlink()  # the job's record gone: the map's own record still guards its folder
    with pytest.raises(kernel.BatchJobError, match=r"another version of map '71' \(block_rows differ\)"):
        kernel.run_batch(_write_job(tmp_path, "[job]\nblock_rows = 10\n[[maps]]\nsource = '71'\n"), out,
                         scheduler=local.scheduler_address)


def test_dask_progress_bar_shows_the_work(cluster, tmp_path, capsys):
    local, _ = cluster
    job = _write_job(tmp_path, "[job]\nblock_rows = 100\n[[maps]]\nsource = '71'\n")
    kernel.run_batch(job, tmp_path / "quiet", scheduler=local.scheduler_address)
    assert "Completed" not in capsys.readouterr().out
    kernel.run_batch(job, tmp_path / "shown", scheduler=local.scheduler_address, progress=True)
    assert "100% Completed" in capsys.readouterr().out


def test_a_worker_refuses_a_map_whose_board_changed(tmp_path):
    from kernel.batch.run import run_block
    from kernel.batch.spec import MapEntry

    entry = MapEntry("r", random={"ruleset": "asl", "columns": 6, "rows": 4, "seed": 1})
    with pytest.raises(RuntimeError, match=r"map 'r' compiled on this worker has digest [0-9a-f]{12}: expected "
                                           r"000000000000 \(did its files change"):
        run_block(entry, "test-key", "0" * 64, str(tmp_path), "los", 0, 0, 24, ["visibility"], None, 1)


def test_an_output_folder_that_cannot_be_made_is_one_line(cluster, tmp_path):
    local, _ = cluster
    (tmp_path / "file").write_text("not a folder")
    job = _write_job(tmp_path, "[[maps]]\nsource = '71'\n")
    result = _cli(job, "--out", tmp_path / "file" / "out", "--scheduler", local.scheduler_address)
    _one_line_error(result, f"{tmp_path / 'file' / 'out'}: ")
