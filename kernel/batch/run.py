"""Running a batch job on a dask cluster: the task graph, the resume check and the manifest.

Two rounds of tasks: one ``describe`` task per map (compile it on a worker,
count its hexes, check its units and counters), then one task per map, row
block and kind of work (``los``: the visibility, hindrance and vantage rows
of the block together; ``movement-UNIT``: its movement matrix rows).  Each
block task compiles its map at most once per worker process
(:func:`kernel.batch.sources.cached_board`), writes its arrays' blocks and
their completion markers itself (:mod:`kernel.batch.storage`) and returns
only a few numbers, so the client never holds a map's results.  A block
whose markers all exist is not submitted again, so a rerun resumes; a task
lost with a dead worker is run again by dask on another worker and writes
the same bytes.

dask is imported only when a job runs (``import kernel`` stays light).
"""

from __future__ import annotations

import json
import logging
import os
import platform
import time
from contextlib import contextmanager
from pathlib import Path

from kernel.batch import sources, storage
from kernel.batch.blocks import LOS_ARRAYS, array_shapes, counters_for, los_block, movement_block
from kernel.batch.spec import BatchJob, BatchJobError, read_job

#: Seconds to wait for an existing scheduler (``scheduler=``) before giving up.
CONNECT_TIMEOUT = 10


class BatchClusterError(RuntimeError):
    """The dask scheduler named by the user cannot be reached."""


def describe_map(entry, source_digest: str, units, compute) -> dict:
    """Task: compile a map on a worker and say what the job needs of it (hexes, digest, unit classes).

    A map that cannot be loaded, an unknown unit class or a counter on an
    unknown hex comes back as ``{"error": message}`` rather than as an
    exception, so that the client reports it in one line.
    """
    try:
        board = sources.cached_board(entry, source_digest)
        counters_for(board, entry.counters)
    except (ValueError, KeyError, OSError) as error:
        return {"error": str(error).strip("'\"") or type(error).__name__}
    known = list(board.ruleset.unit_classes)
    chosen = list(entry.units) or list(units) or known[:1]
    unknown = [u for u in chosen if u not in known]
    if "movement" in compute and unknown:
        return {"error": f"unit class {unknown[0]!r} is not in ruleset {board.ruleset.name!r}: expected one of "
                         f"{', '.join(known)}"}
    return {"hexes": len(board), "board_digest": _board_digest(board), "ruleset": board.ruleset.name,
            "units": chosen if "movement" in compute else []}


def _board_digest(board) -> str:
    digest = board.__dict__.get("_batch_digest")
    if digest is None:
        digest = board.__dict__["_batch_digest"] = sources.board_digest(board)
    return digest


def run_block(entry, source_digest: str, board_digest: str, folder: str, kind: str, block: int, first: int,
              count: int, wanted, allowance, threads: int) -> dict:
    """Task: compute one block of one map for one kind of work and write its arrays; returns timings.

    Arrays whose markers already exist are not written again (a task run a
    second time after its worker died mid-way).
    """
    from kernel._jit import max_threads, set_thread_count

    start = time.perf_counter()
    todo = [name for name in wanted if not storage.marker_path(Path(folder), name, block).exists()]
    if not todo:
        return {"block": block, "kind": kind, "seconds": 0.0, "bytes": 0, "skipped": True}
    board = sources.cached_board(entry, source_digest)
    if _board_digest(board) != board_digest:
        raise RuntimeError(f"map {entry.name!r} compiled on this worker has digest {_board_digest(board)[:12]}: "
                           f"expected {board_digest[:12]} (did its files change during the job?)")
    previous = set_thread_count(max(1, min(threads, max_threads())))
    try:
        counters = counters_for(board, entry.counters)
        if kind == "los":
            arrays = los_block(board, first, count, counters, todo)
        else:
            unit = kind.removeprefix("movement-")
            arrays = {kind: movement_block(board, unit, first, count, counters, allowance)}
    finally:
        set_thread_count(previous)
    written = 0
    for name in todo:
        storage.write_block(Path(folder), name, block, first, arrays[name])
        written += arrays[name].nbytes
    return {"block": block, "kind": kind, "seconds": time.perf_counter() - start, "bytes": written,
            "skipped": False}


@contextmanager
def cluster_client(scheduler: str | None = None, workers: int | None = None, connect_timeout: float = CONNECT_TIMEOUT):
    """A dask client: on the existing cluster at ``scheduler``, or on an embedded local cluster.

    The local cluster has ``workers`` worker processes (default: one per
    core) of one thread each; it is closed on leaving the block.
    """
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=connect_timeout)
        except (OSError, TimeoutError, ValueError) as error:
            reason = " ".join(str(error).split()) or type(error).__name__
            raise BatchClusterError(f"cannot reach the dask scheduler at {scheduler!r} ({reason}): expected a "
                                    "running scheduler (leave out the address for a local cluster)") from None
        with client:
            yield client
        return
    count = workers or os.cpu_count() or 1
    with LocalCluster(n_workers=count, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        yield client


def run_batch(job, out, *, scheduler: str | None = None, workers: int | None = None, progress: bool = False,
              threads_per_task: int = 1, connect_timeout: float = CONNECT_TIMEOUT) -> dict:
    """Run a batch job (or resume it) and write its results under ``out``.

    Parameters
    ----------
    job : BatchJob, str or pathlib.Path
        A parsed job (:func:`kernel.read_batch_job`) or the path of its file.
    out : str or pathlib.Path
        The output folder (layout in ``docs/batch-jobs.md``); it must be
        visible to every worker at the same path.  A folder holding this
        job's unfinished results is resumed; one holding another job's is
        refused.
    scheduler : str, optional
        Address of an existing dask scheduler (``tcp://host:8786``), used as
        it is; default: an embedded local cluster.
    workers : int, optional
        Worker processes of the embedded cluster (default: one per core).
    progress : bool
        Show dask's progress bar on stdout.
    threads_per_task : int
        numba threads each task may use (default 1: the workers are the parallelism).
    connect_timeout : float
        Seconds to wait for ``scheduler`` before giving up.

    Returns
    -------
    dict
        ``maps``, ``blocks`` (all blocks of all arrays' work), ``computed``
        (run by this call), ``skipped`` (found finished), ``seconds``,
        ``bytes`` (of the blocks written) and ``task_seconds`` (their summed
        compute time).

    Raises
    ------
    BatchJobError
        A bad job file, a map that cannot be loaded, or ``out`` holding another job.
    BatchClusterError
        ``scheduler`` cannot be reached.

    Examples
    --------
    ``kernel.run_batch("job.toml", "results")`` and then
    ``kernel.batch_result("results", "71", "visibility")``; the test suite
    (``tests/test_batch*.py``) runs jobs on a real two-worker cluster.
    """
    job = job if isinstance(job, BatchJob) else read_job(job)
    out = Path(out).resolve()
    manifest_path = out / storage.MANIFEST
    if manifest_path.is_file():
        previous = json.loads(manifest_path.read_text(encoding="utf-8"))
        if previous.get("job_digest") != job.digest:
            raise BatchJobError(f"{out} holds the results of another job ({previous.get('job', '?')}): expected "
                                "an empty folder or this job's unfinished results")
    start = time.perf_counter()
    with cluster_client(scheduler, workers, connect_timeout) as client:
        return _run(client, job, out, progress, threads_per_task, start)


def _run(client, job: BatchJob, out: Path, progress: bool, threads: int, start: float) -> dict:
    from distributed import progress as progress_bar

    digests = [sources.source_digest(entry) for entry in job.maps]
    described = [client.submit(describe_map, entry, digest, job.units, job.compute,
                               key=f"describe-{entry.name}-{digest[:12]}")
                 for entry, digest in zip(job.maps, digests)]
    if progress:
        progress_bar(described)
    infos = client.gather(described)
    for entry, info in zip(job.maps, infos):
        if "error" in info:
            raise BatchJobError(f"{job.path}: map {entry.name!r}: {info['error']}")
    folders = []
    for entry, digest, info in zip(job.maps, digests, infos):
        folders.append(_prepare(out / "maps" / entry.name, job, entry, digest, info))
    _write_manifest(out, job, infos, "running")
    futures = []
    total = 0
    for entry, digest, info, folder in zip(job.maps, digests, infos, folders):
        arrays = array_shapes(job.compute, info["hexes"], info["units"])
        kinds = {"los": [a for a in arrays if a in LOS_ARRAYS]}
        kinds.update({f"movement-{u}": [f"movement-{u}"] for u in info["units"]})
        done = {name: storage.completed_blocks(folder, name) for name in arrays}
        for block, first in enumerate(range(0, info["hexes"], job.block_rows)):
            count = min(job.block_rows, info["hexes"] - first)
            for kind, names in kinds.items():
                if not names:
                    continue
                total += 1
                todo = [name for name in names if block not in done[name]]
                if todo:
                    futures.append(client.submit(
                        run_block, entry, digest, info["board_digest"], str(folder), kind, block, first, count,
                        todo, job.allowance, threads, key=f"block-{entry.name}-{kind}-{block}-{digest[:12]}"))
    if progress and futures:
        progress_bar(futures)
    results = client.gather(futures)
    _write_manifest(out, job, infos, "complete")
    return {"maps": len(job.maps), "blocks": total, "computed": len(futures), "skipped": total - len(futures),
            "seconds": time.perf_counter() - start, "bytes": sum(r["bytes"] for r in results),
            "task_seconds": sum(r["seconds"] for r in results)}


def _prepare(folder: Path, job: BatchJob, entry, digest: str, info: dict) -> Path:
    arrays = array_shapes(job.compute, info["hexes"], info["units"])
    wanted = {"name": entry.name, "entry": entry.describe(), "source_digest": digest,
              "board_digest": info["board_digest"], "ruleset": info["ruleset"], "hexes": info["hexes"],
              "block_rows": job.block_rows,
              "arrays": {name: {"shape": list(shape), "dtype": dtype} for name, (shape, dtype) in arrays.items()}}
    existing = storage.read_map_info(folder)
    if existing is None:
        storage.prepare_map(folder, wanted)
    elif existing != wanted:
        changed = sorted(k for k in wanted if existing.get(k) != wanted[k])
        raise BatchJobError(f"{folder}: the results there are of another version of map {entry.name!r} "
                            f"({', '.join(changed)} differ): expected the same map (use a new output folder)")
    return folder


def _write_manifest(out: Path, job: BatchJob, infos, status: str) -> None:
    maps = {}
    for entry, info in zip(job.maps, infos):
        folder = out / "maps" / entry.name
        map_info = storage.read_map_info(folder)
        arrays = {}
        for name, spec in map_info["arrays"].items():
            done = storage.completed_blocks(folder, name)
            arrays[name] = {**spec, "chunks": [job.block_rows, spec["shape"][1]],
                            "block_sha256": [done[k]["sha256"] if k in done else None
                                             for k in range(-(-info["hexes"] // job.block_rows))]}
        maps[entry.name] = {"folder": f"maps/{entry.name}", "hexes": info["hexes"], "ruleset": info["ruleset"],
                            "source_digest": map_info["source_digest"], "board_digest": info["board_digest"],
                            "arrays": arrays}
    suffix = ".json" if job.path.endswith(".json") else ".toml"
    storage.atomic_write_text(out / f"job{suffix}", job.text)
    manifest = {"status": status, "job": job.path, "job_digest": job.digest, "job_file": f"job{suffix}",
                "compute": list(job.compute), "block_rows": job.block_rows, "versions": _versions(), "maps": maps}
    storage.atomic_write_text(out / storage.MANIFEST, json.dumps(manifest, indent=1))


def _versions() -> dict:
    import dask
    import distributed
    import numba
    import numpy
    import zarr

    from kernel import __version__

    return {"hexkernel": __version__, "python": platform.python_version(), "numpy": numpy.__version__,
            "numba": numba.__version__, "dask": dask.__version__, "distributed": distributed.__version__,
            "zarr": zarr.__version__}
