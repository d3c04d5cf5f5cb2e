"""Running a batch job on a dask cluster: the task graph, the resume check and the manifest.

Two rounds of tasks: one ``open_map`` task per map (compile it on a worker,
count its hexes, check its units and counters, prepare its output folder,
and compute the whole map when it fits in one block), then one task per
row block and kind of work of the bigger maps (``los``: the visibility, hindrance and vantage rows
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
import shutil
import time
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path

from kernel._cache import BoardCache
from kernel._signals import deferred_signals
from kernel._extras import require
from kernel.batch import sources, storage
from kernel.batch.blocks import LOS_ARRAYS, array_shapes, counters_for, los_block, movement_block
from kernel.batch.spec import BatchJob, BatchJobError, read_job
from kernel.line_of_sight.depiction import ART_MODELS, default_model

#: Seconds to wait for an existing scheduler (``scheduler=``) before giving up.
CONNECT_TIMEOUT = 10
#: Worker processes of the embedded cluster per core of this machine (``workers=`` is bounded by it).
WORKERS_PER_CORE = 4


def max_workers() -> int:
    """The most worker processes the embedded cluster may start: :data:`WORKERS_PER_CORE` per core."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


class BatchClusterError(RuntimeError):
    """The dask scheduler named by the user cannot be reached."""


def open_map(entry, source_digest: str, folder: str, settings: dict) -> dict:
    """Task: compile a map on a worker, check it, prepare its output folder, and do a one-block map whole.

    ``settings`` holds the job's ``compute``, ``units``, ``block_rows``,
    ``allowance`` and ``threads``.  Returns the map's hexes, board digest,
    ruleset and unit classes, and ``done``: the results of the block tasks
    run here (all of them when the map fits in one block, so that a sweep of
    small maps costs one task and one compile per map).  A map that cannot
    be loaded, an unknown unit class, a counter on an unknown hex or a folder
    holding another map comes back as ``{"error": message}`` rather than as
    an exception, so that the client reports it in one line.
    """
    try:
        board = sources.cached_board(entry, source_digest)
        counters_for(board, entry.counters)
    except (ValueError, KeyError, OSError) as error:
        return {"error": str(error).strip("'\"") or type(error).__name__}
    known = list(board.ruleset.unit_classes)
    compute = settings["compute"]
    chosen = list(entry.units) or list(settings["units"]) or known[:1]
    unknown = [u for u in chosen if u not in known]
    if "movement" in compute and unknown:
        return {"error": f"unit class {unknown[0]!r} is not in ruleset {board.ruleset.name!r}: expected one of "
                         f"{', '.join(known)}"}
    units = chosen if "movement" in compute else []
    hexes, rows = len(board), settings["block_rows"]
    arrays = array_shapes(compute, hexes, units)
    model = settings.get("model") or default_model(board)
    if model in ART_MODELS and board.ruleset.los_model != "asl":
        return {"error": f"job.model {model!r} needs ASL LOS rules: ruleset {board.ruleset.name!r} uses the "
                         f"{board.ruleset.los_model!r} LOS model (expected model = 'hex' for this map)"}
    wanted = {"name": entry.name, "entry": entry.describe(), "source_digest": source_digest,
              "board_digest": _board_digest(board), "ruleset": board.ruleset.name, "hexes": hexes,
              "block_rows": rows, "model": model,
              "arrays": {name: {"shape": list(shape), "dtype": dtype} for name, (shape, dtype) in arrays.items()}}
    existing = storage.reusable_map_info(Path(folder), entry.name)
    if existing is None or not storage.arrays_intact(Path(folder), existing):
        storage.prepare_map(Path(folder), wanted)
    elif {k: v for k, v in existing.items() if k != "creation"} != wanted:
        changed = sorted(k for k in wanted if existing.get(k) != wanted[k])
        return {"error": f"{folder}: the results there are of another version of map {entry.name!r} "
                         f"({', '.join(changed)} differ): expected the same map (use a new output folder)"}
    done = []
    if hexes <= rows:
        for kind, names in work_kinds(arrays, units).items():
            done.append(run_block(entry, source_digest, wanted["board_digest"], folder, kind, 0, 0, hexes, names,
                                  settings["allowance"], settings["threads"]))
    return {"hexes": hexes, "board_digest": wanted["board_digest"], "ruleset": board.ruleset.name, "units": units,
            "model": model, "done": done}


def work_kinds(arrays, units) -> dict[str, list[str]]:
    """The kinds of block task a map needs (``los``, ``movement-UNIT``) and the arrays each writes."""
    kinds = {"los": [a for a in arrays if a in LOS_ARRAYS]}
    kinds.update({f"movement-{u}": [f"movement-{u}"] for u in units})
    return {kind: names for kind, names in kinds.items() if names}


#: Each board's digest (a batch job's identity of its map).
BATCH_CACHE = BoardCache("batch digests")


def _board_digest(board) -> str:
    digest = BATCH_CACHE.entries(board).get("_batch_digest")
    if digest is None:
        digest = BATCH_CACHE.entries(board)["_batch_digest"] = sources.board_digest(board)
    return digest


def run_block(entry, source_digest: str, board_digest: str, folder: str, kind: str, block: int, first: int,
              count: int, wanted, allowance, threads: int) -> dict:
    """Task: compute one block of one map for one kind of work and write its arrays; returns timings.

    Arrays whose block is already done (a marker of these arrays, and stored
    bytes that match it) are not written again (a task run a second time
    after its worker died mid-way).
    """
    from kernel._threads import max_threads, set_thread_count

    start = time.perf_counter()
    info = storage.read_map_info(Path(folder))
    todo = [name for name in wanted if info is None or not storage.block_is_done(Path(folder), name, block, info)]
    if not todo:
        return {"block": block, "kind": kind, "seconds": 0.0, "write_seconds": 0.0, "bytes": 0, "skipped": True}
    board = sources.cached_board(entry, source_digest)
    if _board_digest(board) != board_digest:
        raise RuntimeError(f"map {entry.name!r} compiled on this worker has digest {_board_digest(board)[:12]}: "
                           f"expected {board_digest[:12]} (did its files change during the job?)")
    if info is None:
        raise RuntimeError(f"{folder}: map.json is gone: expected the folder its open_map task prepared")
    previous = set_thread_count(max(1, min(threads, max_threads())))
    try:
        counters = counters_for(board, entry.counters)
        if kind == "los":
            arrays = los_block(board, first, count, counters, todo, info.get("model") or default_model(board))
        else:
            unit = kind.removeprefix("movement-")
            arrays = {kind: movement_block(board, unit, first, count, counters, allowance)}
    finally:
        set_thread_count(previous)
    written = 0
    computed = time.perf_counter()
    for name in todo:
        storage.write_block(Path(folder), name, block, first, arrays[name], info)
        written += arrays[name].nbytes
    end = time.perf_counter()
    return {"block": block, "kind": kind, "seconds": end - start, "write_seconds": end - computed,
            "bytes": written, "skipped": False}


@contextmanager
def cluster_client(scheduler: str | None = None, workers: int | None = None, connect_timeout: float = CONNECT_TIMEOUT):
    """A dask client: on the existing cluster at ``scheduler``, or on an embedded local cluster.

    The local cluster has ``workers`` worker processes (default: one per
    core) of one thread each; it is closed on leaving the block.  Its
    workers' own logs are silenced: a failed task's exception reaches the
    client, which reports it.
    """
    from distributed import Client, LocalCluster

    with ExitStack() as opened:
        # made, and closed, with Ctrl-C held: a cluster whose start or close a signal cut short was closed
        # again by distributed's exit hook, which failed with a traceback (AssertionError: Status.init)
        with deferred_signals():
            if scheduler is not None:
                probe_scheduler(scheduler, connect_timeout)
                client = _connect_within(lambda: Client(scheduler, timeout=connect_timeout), scheduler,
                                         connect_timeout)
            else:
                count = workers or os.cpu_count() or 1
                # no dashboard; the scheduler's own HTTP server (health, metrics) on a free port of this host only
                # (its default, 8787, is taken by any other cluster: a three-line warning, and all interfaces)
                cluster = opened.enter_context(LocalCluster(
                    n_workers=count, threads_per_worker=1, processes=True, dashboard_address=None,
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"}, silence_logs=logging.CRITICAL))
                client = Client(cluster)
            opened.enter_context(client)
        try:
            with _quiet_when_interrupted():
                yield client
        except BaseException:
            with deferred_signals(deliver=False):
                opened.close()
            raise
        with deferred_signals():
            opened.close()


@contextmanager
def _quiet_when_interrupted():
    """On Ctrl-C or SIGTERM, silence asyncio's and dask's loggers before the client and cluster close.

    Closing them with tasks in flight makes asyncio log each pending task's
    cancellation ("Task exception was never retrieved", with a traceback);
    the user asked to stop, and ``hexkernel`` reports that in one line.
    """
    try:
        yield
    except BaseException as error:
        if not isinstance(error, Exception):  # KeyboardInterrupt, SystemExit: not a task's failure
            for name in ("asyncio", "distributed", "tornado", "dask"):
                logging.getLogger(name).setLevel(logging.CRITICAL + 1)
        raise


#: Bytes of the first message a dask scheduler sends (its handshake: a few hundred bytes).
MAX_HANDSHAKE_BYTES = 1 << 20


def _unreachable(scheduler: str, reason: str) -> BatchClusterError:
    return BatchClusterError(f"cannot reach the dask scheduler at {scheduler!r} ({reason}): expected a running "
                             "scheduler (leave out the address for a local cluster)")


def scheduler_endpoint(scheduler: str) -> tuple[str, int]:
    """``(host, port)`` of a scheduler address ``tcp://HOST:PORT`` (or ``HOST:PORT``), else a BatchClusterError.

    >>> scheduler_endpoint("tcp://10.0.0.5:8786"), scheduler_endpoint("[::1]:8786")
    (('10.0.0.5', 8786), ('::1', 8786))
    """
    scheme, _, rest = scheduler.rpartition("://") if "://" in scheduler else ("tcp", "", scheduler)
    if scheme != "tcp":
        raise BatchClusterError(f"the scheduler address {scheduler[:200]!r} uses {scheme[:20]}://: expected "
                                "tcp://HOST:PORT (the only protocol hexkernel connects with)")
    host, _, port = rest.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not host or len(host) > 253 or any(c.isspace() or c in "/@?#" for c in host) or not port.isdigit() \
            or len(port) > 5 or not 1 <= int(port) <= 65535:
        raise BatchClusterError(f"the scheduler address {scheduler[:200]!r} is not tcp://HOST:PORT: expected a "
                                "host name or IP address and a port 1..65535")
    return host, int(port)


def probe_scheduler(scheduler: str, timeout: float) -> None:
    """Check that a dask scheduler answers at ``scheduler`` within ``timeout`` seconds, before dask connects.

    Opens a TCP connection, reads the handshake a scheduler sends first (an
    8-byte length, at most :data:`MAX_HANDSHAKE_BYTES`, then that many bytes)
    and echoes it back, all under one deadline; a listener that never
    answers, or answers with something no scheduler sends, is refused here
    in one line instead of hanging or allocating what it claims.

    Raises
    ------
    BatchClusterError
        A malformed address, a refused or silent connection, or a wrong answer.
    """
    import socket
    import struct

    host, port = scheduler_endpoint(scheduler)
    deadline = time.monotonic() + timeout

    def receive(conn, size):
        data = bytearray()
        while len(data) < size:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            conn.settimeout(left)
            chunk = conn.recv(min(size - len(data), 65536))
            if not chunk:
                raise _unreachable(scheduler, "the connection was closed before the handshake")
            data += chunk
        return bytes(data)

    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            header = receive(conn, 8)
            size = struct.unpack("<Q", header)[0]
            if not 0 < size <= MAX_HANDSHAKE_BYTES:
                raise _unreachable(scheduler, f"it answered with a message of {size} bytes, not a dask handshake "
                                              f"of at most {MAX_HANDSHAKE_BYTES}")
            body = receive(conn, size)
            conn.settimeout(max(0.1, deadline - time.monotonic()))
            conn.sendall(header + body)
    except (TimeoutError, socket.timeout):
        raise _unreachable(scheduler, f"no answer within {timeout:g} s") from None
    except OSError as error:
        raise _unreachable(scheduler, error.strerror or type(error).__name__) from None


def _connect_within(connect, scheduler: str, timeout: float):
    """``connect()`` run in a helper thread and given ``timeout`` seconds more than dask's own timeout; any
    exception dask raises, or no client in time, becomes one BatchClusterError."""
    import threading

    outcome = {}

    def attempt():
        try:
            outcome["client"] = connect()
        except BaseException as error:  # noqa: BLE001 - reported in one line below
            outcome["error"] = error

    thread = threading.Thread(target=attempt, name="hexkernel-connect", daemon=True)
    thread.start()
    thread.join(2 * timeout + 5)
    if thread.is_alive():
        raise _unreachable(scheduler, f"no client connection within {2 * timeout + 5:g} s")
    if "error" in outcome:
        error = outcome["error"]
        if isinstance(error, KeyboardInterrupt):
            raise error
        reason = " ".join(str(error).split())[:200] or type(error).__name__
        raise _unreachable(scheduler, reason)
    return outcome["client"]


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
        ``bytes`` (of the blocks written), ``task_seconds`` (the block tasks'
        summed time) and ``write_seconds`` (of it, writing blocks and markers).

    Raises
    ------
    BatchJobError
        A bad job file, a map that cannot be loaded, or ``out`` holding another job.
    BatchClusterError
        ``scheduler`` cannot be reached.
    OSError
        ``out`` cannot be created or written.
    ImportError
        The ``batch`` extra (dask, distributed, zarr) is not installed.

    See Also
    --------
    kernel.read_batch_job : parse and check a job file first.
    kernel.batch_result : read one array of the output.
    kernel.los_matrix_rows : the rows one block computes, in this process.

    Examples
    --------
    ``kernel.run_batch("job.toml", "results")`` and then
    ``kernel.batch_result("results", "71", "visibility")``; the test suite
    (``tests/test_batch*.py``) runs jobs on a real two-worker cluster.
    """
    require("batch", "batch jobs")
    job = job if isinstance(job, BatchJob) else read_job(job)
    limit = max_workers()
    if workers is not None and not 1 <= workers <= limit:
        raise BatchJobError(f"workers is {workers}: expected 1..{limit} ({WORKERS_PER_CORE} per core)")
    out = Path(out).resolve()
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)  # an OSError here, before any cluster starts
    with ExitStack() as held:
        try:   # refused here when another run holds the folder: nothing is touched
            held.enter_context(storage.locked_output(out))
        except OSError:   # the lock cannot be written (a full disk): a folder made here goes again
            if created:
                with deferred_signals(deliver=False), suppress(OSError):
                    out.rmdir()   # (only while empty: never what another run put there)
            raise
        try:
            manifest_path = out / storage.MANIFEST
            if manifest_path.exists():
                previous = storage.read_record(manifest_path, "manifest")
                if previous.get("job_digest") != job.digest:
                    raise BatchJobError(f"{out} holds the results of another job ({previous.get('job', '?')}): "
                                        "expected an empty folder or this job's unfinished results")
            start = time.perf_counter()
            with cluster_client(scheduler, workers, connect_timeout) as client:
                return _run(client, job, out, progress, threads_per_task, start)
        except BaseException as error:
            # a folder this run made (and holds) is removed when nothing in it is worth keeping: a failure of
            # the job itself, or any stop (an error, a full disk, Ctrl-C) before its first block was complete
            if created and (isinstance(error, (BatchJobError, BatchClusterError, storage.BatchOutputError))
                            or not any(out.glob(f"maps/*/{storage.MARKERS}/*/*.json"))):
                with deferred_signals(deliver=False):
                    shutil.rmtree(out, ignore_errors=True)
            raise


def _run(client, job: BatchJob, out: Path, progress: bool, threads: int, start: float) -> dict:
    from distributed import progress as progress_bar

    settings = {"compute": list(job.compute), "units": list(job.units), "block_rows": job.block_rows,
                "allowance": job.allowance, "threads": threads, "model": job.model}
    digests = [sources.source_digest(entry) for entry in job.maps]
    folders = [out / "maps" / entry.name for entry in job.maps]
    for entry, folder in zip(job.maps, folders):
        if folder.resolve().parent != (out / "maps").resolve() or folder.name != entry.name:
            raise BatchJobError(f"{job.path}: map name {entry.name!r} gives the folder {folder}: expected a folder "
                                f"inside {out / 'maps'}")
    opened = [client.submit(open_map, entry, digest, str(folder), settings, key=f"map-{entry.name}-{digest[:12]}")
              for entry, digest, folder in zip(job.maps, digests, folders)]
    if progress:
        progress_bar(opened)
    infos = client.gather(opened)
    for entry, info in zip(job.maps, infos):
        if "error" in info:
            raise BatchJobError(f"{job.path}: map {entry.name!r}: {info['error']}")
    _write_manifest(out, job, infos, "running")
    results = [result for info in infos for result in info["done"]]
    futures = []
    for entry, digest, info, folder in zip(job.maps, digests, infos, folders):
        if info["done"]:
            continue  # a one-block map: done by its open_map task
        arrays = array_shapes(job.compute, info["hexes"], info["units"])
        map_info = storage.read_map_info(folder)
        finished = {name: storage.verified_blocks(folder, name, map_info,
                                                  storage.completed_blocks(folder, name, info=map_info))
                    for name in arrays}  # a rerun skips only blocks whose bytes give their markers' digests
        for block, first in enumerate(range(0, info["hexes"], job.block_rows)):
            count = min(job.block_rows, info["hexes"] - first)
            for kind, names in work_kinds(arrays, info["units"]).items():
                todo = [name for name in names if block not in finished[name]]
                if not todo:
                    results.append({"block": block, "kind": kind, "seconds": 0.0, "write_seconds": 0.0, "bytes": 0,
                                    "skipped": True})
                    continue
                futures.append(client.submit(
                    run_block, entry, digest, info["board_digest"], str(folder), kind, block, first, count,
                    todo, job.allowance, threads, key=f"block-{entry.name}-{kind}-{block}-{digest[:12]}"))
    if progress and futures:
        progress_bar(futures)
    results += client.gather(futures)
    _write_manifest(out, job, infos, "complete")
    computed = sum(not r["skipped"] for r in results)
    return {"maps": len(job.maps), "blocks": len(results), "computed": computed, "skipped": len(results) - computed,
            "seconds": time.perf_counter() - start, "bytes": sum(r["bytes"] for r in results),
            "task_seconds": sum(r["seconds"] for r in results),
            "write_seconds": sum(r["write_seconds"] for r in results)}


def _write_manifest(out: Path, job: BatchJob, infos, status: str) -> None:
    maps = {}
    for entry, info in zip(job.maps, infos):
        folder = out / "maps" / entry.name
        map_info = storage.read_map_info(folder)
        arrays = {}
        for name, spec in map_info["arrays"].items():
            done = storage.completed_blocks(folder, name, info=map_info)
            arrays[name] = {**spec, "chunks": [job.block_rows, spec["shape"][1]],
                            "block_sha256": [done[k]["sha256"] if k in done else None
                                             for k in range(-(-info["hexes"] // job.block_rows))]}
        maps[entry.name] = {"folder": f"maps/{entry.name}", "hexes": info["hexes"], "ruleset": info["ruleset"],
                            "model": info["model"],
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
