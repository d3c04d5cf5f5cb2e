"""Batch jobs on a local dask cluster against the single-process functions, in the same run (short: small maps).

The full figures (the 64-board map, 200 random maps) come from the on-demand
script ``bench/batch_scaling.py``; here the default scenario's visibility
bits and a handful of random maps keep ``make test`` quick.  The cluster has
two worker processes of one thread each; the single-process function uses
numba's threads (every core), so both sides have the same cores.
"""

from __future__ import annotations

import itertools
import shutil

import pytest

import kernel
from bench.conftest import FIGURES, RATIOS, TIMINGS, measure
from kernel.batch.sources import clear_cache

distributed = pytest.importorskip("distributed")

SINGLE = "visibility_bits, default scenario, one process"
BATCH = "batch job: same bits on a 2-worker local cluster"
MAPS_SINGLE = "4 random 52 x 26 maps: load + visibility_bits, one process"
MAPS_BATCH = "4 random 52 x 26 maps as one batch job, 2 workers"
RANDOM_MAPS = 4


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as local:
        yield local.scheduler_address


def _runner(tmp_path, text: str, scheduler: str, *, cold: bool = False):
    """A function running the job into a fresh folder; ``cold``: the workers forget their compiled maps first
    (as the one-process peer, which compiles every map it is given)."""
    job = tmp_path / "job.toml"
    job.write_text(text)
    rounds = itertools.count()

    def run():
        if cold:
            with distributed.Client(scheduler) as client:
                client.run(clear_cache)
        out = tmp_path / f"out{next(rounds)}"
        summary = kernel.run_batch(job, out, scheduler=scheduler)
        assert summary["computed"] == summary["blocks"]  # a fresh folder each round: nothing skipped
        return out

    return run


def test_visibility_single_process(benchmark, default_board):
    # the map is compiled (and its trace templates built) before the timing on both sides
    measure(benchmark, SINGLE, lambda: kernel.visibility_bits(default_board), rounds=3)


def test_visibility_batch(benchmark, cluster, tmp_path, default_board):
    run = _runner(tmp_path, "[job]\nblock_rows = 256\n[[maps]]\nsource = 'default'\n", cluster)
    measure(benchmark, BATCH, run, rounds=3)
    out = run()
    assert (kernel.batch_result(out, "default", "visibility") == kernel.visibility_bits(default_board)).all()
    RATIOS.append((BATCH, SINGLE, "batch job / one process, default scenario's bits (small map: overhead)", None))
    shutil.rmtree(tmp_path)


def test_random_maps_single_process(benchmark):
    def run():
        for seed in range(RANDOM_MAPS):
            kernel.visibility_bits(kernel.random_board("asl", 52, 26, seed=seed))

    measure(benchmark, MAPS_SINGLE, run, rounds=1)


def test_random_maps_batch(benchmark, cluster, tmp_path):
    text = ("[job]\nblock_rows = 2048\n[[maps]]\n"
            f"random = {{ ruleset = 'asl', columns = 52, rows = 26, seed = 0, count = {RANDOM_MAPS} }}\n")
    seconds = measure(benchmark, MAPS_BATCH, _runner(tmp_path, text, cluster, cold=True), rounds=1)
    FIGURES["batch job: random 52 x 26 maps per second, 2 workers"] = (RANDOM_MAPS / seconds, "maps/s")
    if MAPS_SINGLE in TIMINGS:
        RATIOS.append((MAPS_BATCH, MAPS_SINGLE, "batch job / one process, random maps", None))
    shutil.rmtree(tmp_path)
