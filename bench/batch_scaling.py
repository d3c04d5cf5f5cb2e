"""The batch-job figures of the README: the 64-board map and 200 random maps, local cluster against one process.

Run on demand (minutes; not part of CI)::

    .venv/bin/python -m bench.batch_scaling [--maps 200] [--block-rows 512] [--workers 2] [--skip-large]

Each measurement starts from a fresh process, so both sides pay for loading
numba, compiling the map and building its trace templates:

* one process: a child process loads the map and runs
  ``kernel.visibility_bits`` on every core (numba threads); it reports its
  time and peak resident memory;
* cluster: a local dask cluster of ``--workers`` worker processes of one
  thread each (started before the timing; its start is reported apart) runs
  the same job through ``kernel.run_batch``; the workers report their peak
  resident memory, and the bits are compared with the one-process result.

Both sides also report CPU time (user + system; the one-process child's
whole life, against the workers' CPU during the job plus the client's,
whose process also runs the local cluster's scheduler): on a shared machine
the wall-clock ratio moves with the other load, the CPU ratio much less.

For the random maps (``random_board("asl", 52, 26)``: 1,352 hexes, about a
2 x 2 board map), the one-process side loads and computes the maps one by
one in a child process; the cluster side is one job.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import kernel
from bench.grid_maps import write_board_grid


def write_sixty_four(folder: Path) -> Path:
    """The 8 x 8 map of ``bench/large_map.py`` (boards 71 and 72, every other row rotated) as a scenario file."""
    return write_board_grid(folder, 8, first_number=100, title="sixty-four boards")


def peak_rss_gb() -> float:
    """This process's peak resident memory (Linux: ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e9


def cpu_seconds() -> float:
    """User + system CPU time of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def child_large(scenario: str, out: str) -> None:
    start = time.perf_counter()
    board = kernel.load(scenario)
    loaded = time.perf_counter()
    bits = kernel.visibility_bits(board, block_rows=512)
    done = time.perf_counter()
    np.save(out, bits)
    print(json.dumps({"hexes": len(board), "load_s": loaded - start, "visibility_s": done - loaded,
                      "total_s": done - start, "peak_rss_gb": peak_rss_gb(), "threads": kernel.thread_count(),
                      "cpu_s": cpu_seconds()}))


def child_maps(count: int) -> None:
    start = time.perf_counter()
    for seed in range(count):
        kernel.visibility_bits(kernel.random_board("asl", 52, 26, seed=seed))
    print(json.dumps({"maps": count, "total_s": time.perf_counter() - start, "peak_rss_gb": peak_rss_gb(),
                      "cpu_s": cpu_seconds()}))


def _child(*args: str) -> dict:
    result = subprocess.run([sys.executable, "-m", "bench.batch_scaling", *args], capture_output=True, text=True,
                            check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def _on_cluster(workers: int, job_text: str, folder: Path, name: str, threads_per_task: int = 1) -> dict:
    import distributed

    start = time.perf_counter()
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        started = time.perf_counter() - start
        job = folder / f"{name}.toml"
        job.write_text(job_text)
        worker_cpu = sum(client.run(cpu_seconds).values())
        client_cpu = cpu_seconds()  # the client's process also runs the local cluster's scheduler
        summary = kernel.run_batch(job, folder / name, scheduler=cluster.scheduler_address,
                                   threads_per_task=threads_per_task)
        client_cpu = cpu_seconds() - client_cpu
        worker_cpu = sum(client.run(cpu_seconds).values()) - worker_cpu
        memory = client.run(peak_rss_gb)
    stored = sum(p.stat().st_size for p in (folder / name / "maps").rglob("*") if p.is_file()
                 and "arrays.zarr" in p.parts and p.name != "zarr.json")
    return {**summary, "cluster_start_s": started, "worker_peak_rss_gb": sorted(memory.values()),
            "stored_bytes": stored, "worker_cpu_s": worker_cpu, "client_cpu_s": client_cpu}


def _cpu_line(single: dict, batch: dict) -> str:
    total = batch["worker_cpu_s"] + batch["client_cpu_s"]
    return (f"CPU time: one process {single['cpu_s']:.1f} s; cluster {total:.1f} s (workers "
            f"{batch['worker_cpu_s']:.1f} s after their start-up, client and scheduler {batch['client_cpu_s']:.1f} s)"
            f" = {total / single['cpu_s']:.3f} x")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", type=int, default=200)
    parser.add_argument("--block-rows", type=int, default=512)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--threads-per-task", type=int, default=1,
                        help="numba threads per task (with --workers 1: one worker using every core)")
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--skip-maps", action="store_true")
    parser.add_argument("--child-large", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--child-maps", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_large:
        child_large(*args.child_large)
        return 0
    if args.child_maps:
        child_maps(args.child_maps)
        return 0
    figures = {}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if not args.skip_large:
            scenario = write_sixty_four(folder)
            single = _child("--child-large", str(scenario), str(folder / "bits.npy"))
            print(f"64-board map, one process ({single['threads']} threads): {single['hexes']} hexes, load "
                  f"{single['load_s']:.1f} s + visibility_bits {single['visibility_s']:.1f} s = "
                  f"{single['total_s']:.1f} s, peak RSS {single['peak_rss_gb']:.2f} GB", flush=True)
            text = (f"[job]\ncompute = ['visibility']\nblock_rows = {args.block_rows}\n[[maps]]\n"
                    f"source = '{scenario}'\nname = 'sixty-four'\n")
            batch = _on_cluster(args.workers, text, folder, "large", args.threads_per_task)
            same = bool((kernel.batch_result(folder / "large", "sixty-four", "visibility")
                         == np.load(folder / "bits.npy")).all())
            blocks = batch["computed"]
            print(f"64-board map, local cluster ({args.workers} workers x {args.threads_per_task} threads, started in "
                  f"{batch['cluster_start_s']:.1f} s): job {batch['seconds']:.1f} s = "
                  f"{batch['seconds'] / single['total_s']:.3f} x one process; {blocks} blocks of {args.block_rows} "
                  f"rows, {batch['task_seconds'] / blocks:.2f} s (writing {batch['write_seconds'] / blocks * 1e3:.0f} ms) "
                  f"and {batch['bytes'] / blocks / 1e6:.2f} MB "
                  f"({batch['stored_bytes'] / blocks / 1e6:.3f} MB stored) per block; worker peak RSS "
                  f"{', '.join(f'{m:.2f}' for m in batch['worker_peak_rss_gb'])} GB; bits identical: {same}",
                  flush=True)
            print("  " + _cpu_line(single, batch), flush=True)
            figures["large"] = {"single": single, "batch": batch, "identical": same}
        if not args.skip_maps:
            single = _child("--child-maps", str(args.maps))
            print(f"{args.maps} random 52 x 26 maps, one process: {single['total_s']:.1f} s = "
                  f"{args.maps / single['total_s']:.2f} maps/s", flush=True)
            text = (f"[job]\ncompute = ['visibility']\nblock_rows = 2048\n[[maps]]\n"
                    f"random = {{ ruleset = 'asl', columns = 52, rows = 26, seed = 0, count = {args.maps} }}\n")
            batch = _on_cluster(args.workers, text, folder, "maps", args.threads_per_task)
            print(f"{args.maps} random 52 x 26 maps, one job on the local cluster ({args.workers} workers): "
                  f"{batch['seconds']:.1f} s = {args.maps / batch['seconds']:.2f} maps/s "
                  f"({batch['seconds'] / single['total_s']:.3f} x one process); "
                  f"{batch['task_seconds'] / args.maps * 1e3:.0f} ms of block work (writing "
                  f"{batch['write_seconds'] / args.maps * 1e3:.0f} ms) and "
                  f"{batch['bytes'] / args.maps / 1e3:.0f} kB ({batch['stored_bytes'] / args.maps / 1e3:.0f} kB "
                  f"stored) per map; worker peak RSS "
                  f"{', '.join(f'{m:.2f}' for m in batch['worker_peak_rss_gb'])} GB", flush=True)
            print("  " + _cpu_line(single, batch), flush=True)
            figures["maps"] = {"single": single, "batch": batch}
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
