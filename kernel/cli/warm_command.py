"""``hexkernel warm``: compile every kernel once, in parallel processes, so that a fresh process starts at cached speed.

The work is a list of *steps* (:func:`warm_steps`), each a small call of the
public functions, the CLI commands, the demo or the interactive page. The
steps are shared out among worker processes (one per core) by their usual
compile cost, each worker compiles its steps' kernels into the on-disk cache,
and the parent then runs every step once more: that pass only loads the
cached machine code, and it compiles whatever a worker left out (two workers
writing the same kernel's cache index at once can lose one of its entries),
so the cache is complete when ``warm`` returns.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings

from kernel.cli.common import emit

#: The steps that compile the same kernels, each group with its usual share of the compile time (from
#: ``python -m bench.compile_costs`` and the seconds of each step in a warm's workers): a group goes to one worker
#: whole, so that no kernel is compiled twice. The hex model's steps share one specialisation of the pair
#: evaluator and every plain (not inlined) rule step it calls; ``los`` and ``can_see`` compile another
#: specialisation but the same rule steps, so they join that group (in a worker of their own they compiled the
#: rule steps a second time); the demo and the page use them all. The depiction model's recorded walk (``los``)
#: compiles nothing its matrix and pairs use but the art, so it is a group of its own, and so are the movement
#: kernels, used by no other step but the demo's and the held matrix's. With two workers the hex model's group
#: goes to one, the three others to the other (the weights are the seconds of each group in a warm's workers on
#: the 2-core machine; the hex model's group, indivisible, is the longer: moving any of its steps to the other
#: worker compiles the pair evaluator and its rule steps there too).
#: A step in no group is a group of its own, of weight 1.
STEP_GROUPS: list[tuple[float, tuple[str, ...]]] = [
    (58.0, ("los_matrix", "los_matrix_blocks", "visibility_bits", "field_of_fire", "fields_of_fire and threat_map",
             "HeldLOSMatrix refresh", "los_matrix (Valor & Victory)", "los_pairs", "los", "can_see",
             "concealed_movement", "commands: los, fire, move, vantage, matrix (board 71)",
             "demo and interactive page (board 71)")),
    (32.0, ("depiction model: los_matrix, los_matrix_blocks", "depiction model: los_pairs")),
    (6.0, ("depiction model: los, the page's judged pixel runs",)),
    (6.0, ("movement_field", "reachable", "movement_matrix")),
]


def register(commands) -> None:
    """Add the ``warm`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    warm = commands.add_parser(
        "warm", help="compile every kernel once (after install), so first calls run at cached speed",
        description="Compile every numba kernel that the public functions, the commands, the demo and the "
                    "interactive page use, in parallel processes, and keep the machine code in the cache folder, "
                    "so that the first call of every public function in a fresh process costs what a cached call "
                    "costs.")
    warm.add_argument("--workers", type=int, default=None, metavar="N",
                      help="worker processes (default: one per core; 0 or 1: compile in this process)")
    warm.add_argument("--json", action="store_true", help="print the report as JSON")
    # a worker process of warm_kernels: run the steps named, print {step: seconds} as JSON
    warm.add_argument("--worker", nargs="+", default=None, metavar="STEP", help=argparse.SUPPRESS)
    warm.set_defaults(run=command_warm)


def warm_steps(run_command) -> list[tuple[str, object]]:
    """Every step of ``warm``: ``(name, call)``, each a small call that runs kernels.

    Parameters
    ----------
    run_command : callable
        Runs one ``hexkernel`` command line (a list of arguments) and returns
        its exit status: :func:`kernel.cli.app.main`, handed in by the caller
        (the commands sit above this module).

    Returns
    -------
    list of (str, callable)
        In a fixed order; a step depends on no other.
    """
    import kernel
    from kernel.line_of_sight.depiction import judged_runs
    from kernel.line_of_sight.single import trace

    board = kernel.random_board("asl", 8, 6, seed=0)
    first, last = board.names[0], board.names[-1]

    def depiction(what):
        def call():  # the random board has no art: the model's warning is expected here
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", kernel.DepictionWarning)
                if what == "matrix":
                    kernel.los_matrix(board, model="depiction")
                    list(kernel.los_matrix_blocks(board, block_rows=16, model="depiction"))
                elif what == "pairs":
                    kernel.los_pairs(board, [0, 1], [len(board) - 1, 2], model="depiction")
                else:
                    kernel.los(board, first, last, model="depiction")
                    judged_runs(board, [0], [len(board) - 1])   # the interactive page of a map with art
        return call

    return [
        ("los", lambda: (kernel.los(board, first, last), trace(board, first, last))),  # trace: for the LOS picture
        ("los_matrix", lambda: kernel.los_matrix(board)),
        ("los_matrix_blocks", lambda: list(kernel.los_matrix_blocks(board, block_rows=16))),
        ("visibility_bits", lambda: kernel.visibility_bits(board)),
        ("los_pairs", lambda: kernel.los_pairs(board, [0, 1], [len(board) - 1, 2])),
        ("field_of_fire", lambda: kernel.field_of_fire(board, [first])),
        ("movement_field", lambda: kernel.movement_field(board, first, unit="infantry")),
        ("reachable", lambda: kernel.reachable(board, first, unit="infantry", allowance=4)),
        ("movement_matrix", lambda: kernel.movement_matrix(board, unit="infantry")),
        ("can_see", lambda: kernel.can_see(board, first, last)),
        ("fields_of_fire and threat_map", lambda: kernel.threat_map(board, [first, last])),
        ("concealed_movement", lambda: kernel.concealed_movement(board, first, [last], unit="infantry", allowance=4)),
        ("HeldLOSMatrix refresh", lambda: _refresh_once(kernel, board)),
        ("depiction model: los_matrix, los_matrix_blocks", depiction("matrix")),
        ("depiction model: los_pairs", depiction("pairs")),
        ("depiction model: los, the page's judged pixel runs", depiction("los")),
        ("los_matrix (Valor & Victory)", lambda: kernel.los_matrix(kernel.random_board("valor-victory", 6, 5, seed=0))),
        ("commands: los, fire, move, vantage, matrix (board 71)", lambda: _commands(run_command)),
        ("bundled maps: art and trace templates on disk", _bundled_maps),
        ("demo and interactive page (board 71)", lambda: _demo_and_page(run_command)),
    ]


def _bundled_maps() -> None:
    """The art and trace templates of the bundled scenario and of board 71 (the demo's and the page's), kept
    on disk: a fresh process's first depiction-model call on them reads them back."""
    import kernel
    from kernel.line_of_sight.inputs import template_tuple
    from kernel.maps.art import board_art

    for name in ("default", "71"):
        board = kernel.load(name)
        board_art(board)
        template_tuple(board)


def _refresh_once(kernel, board) -> None:
    """A held LOS matrix refreshed after one SMOKE placed (the incremental kernels), and a movement
    field with the state before and after another (its SMOKE costs updated in place)."""
    state = kernel.GameState(board)
    held = kernel.HeldLOSMatrix(board, state)
    state.place_smoke(0, 2)
    held.refresh()
    kernel.movement_field(board, 1, counters=state)
    state.place_smoke(1, 2)
    kernel.movement_field(board, 1, counters=state)


def _run_commands(run_command, *argvs: list[str]) -> None:
    """Run ``hexkernel`` command lines in this process through ``run_command``, their output thrown away."""
    import contextlib
    import io

    for argv in argvs:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            status = run_command(argv)
        if status not in (0, None):
            raise RuntimeError(f"hexkernel {' '.join(argv)} ended with status {status}")


def _commands(run_command) -> None:
    """The commands that run kernels, as a user calls them, with and without a counters file."""
    with tempfile.TemporaryDirectory(prefix="hexkernel-warm-") as folder:
        counters = os.path.join(folder, "counters.json")
        with open(counters, "w", encoding="utf-8") as handle:
            json.dump({"smoke": {"71J5": 3}, "vehicles": ["71K5"], "units": ["71L5"]}, handle)
        common = ["--map", "71", "--json"]
        _run_commands(run_command, ["los", "71I4", "71M6", "--explain", *common],
                      ["los", "71P5h1", "71I9", *common],
                      ["fire", "--from", "71I4", "--counters", counters, *common],
                      ["fire", "--from", "71P5", "--level", "1", *common],
                      ["move", "--from", "71I4", "--allowance", "4", "--to", "71E4", *common],
                      ["move", "--from", "71I4", "--allowance", "4", "--counters", counters, *common],
                      ["vantage", "--top", "3", *common],
                      ["matrix", "--out", os.path.join(folder, "m.npy"), "--quiet", *common],
                      ["matrix", "--out", os.path.join(folder, "c.npy"), "--quiet", "--counters", counters, *common])


def _demo_and_page(run_command) -> None:
    """``hexkernel demo`` (its interactive page included) and ``hexkernel page`` with counters, on board 71."""
    with tempfile.TemporaryDirectory(prefix="hexkernel-warm-") as folder:
        counters = os.path.join(folder, "counters.json")
        with open(counters, "w", encoding="utf-8") as handle:
            json.dump({"smoke": {"71J5": 3}, "vehicles": ["71K5"], "units": ["71L5"]}, handle)
        _run_commands(run_command,
                      ["demo", "--map", "71", "--out", os.path.join(folder, "demo"), "--no-pictures", "--quiet",
                       "--json"],
                      ["page", "--map", "71", "--counters", counters, "--max-allowance", "2",
                       "--out", os.path.join(folder, "map.html")])


def run_steps(run_command, names: list[str] | None = None) -> list[tuple[str, float]]:
    """Run the steps named (default: all) in this process; ``(name, seconds)`` for each (``run_command`` as
    in :func:`warm_steps`).

    The arrays kept on disk (a map's art, the trace templates) are computed anew, not read, so that the
    kernels computing them are compiled (and the files brought up to date) whatever the disk cache held."""
    from kernel import _disk_cache

    done = []
    reading, _disk_cache.READ = _disk_cache.READ, False
    try:
        for name, call in warm_steps(run_command):
            if names is None or name in names:
                start = time.perf_counter()
                call()
                done.append((name, time.perf_counter() - start))
    finally:
        _disk_cache.READ = reading
    return done


def share_out(names: list[str], workers: int) -> list[list[str]]:
    """The step names for ``workers`` processes: the :data:`STEP_GROUPS` whole, heaviest first, each to the
    least loaded worker; workers left without a group are not started.

    Examples
    --------
    >>> [len(steps) for steps in share_out([name for _, group in STEP_GROUPS for name in group], 2)]
    [13, 6]
    >>> share_out(["a", "b", "c"], 2)
    [['a', 'c'], ['b']]
    """
    grouped = {name for _, group in STEP_GROUPS for name in group}
    groups = [(weight, [name for name in group if name in names]) for weight, group in STEP_GROUPS]
    groups += [(1.0, [name]) for name in names if name not in grouped]
    shares: list[list[str]] = [[] for _ in range(max(1, workers))]
    loads = [0.0] * len(shares)
    for weight, group in sorted((item for item in groups if item[1]), key=lambda item: -item[0]):
        lightest = loads.index(min(loads))
        shares[lightest] += group
        loads[lightest] += weight
    return [share for share in shares if share]


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def cache_is_cold() -> bool:
    """Whether this installation's kernels have nothing in the on-disk cache yet (then workers pay off): no
    index file of numba's in the cache folder of this exact kernel source (or the cache is off)."""
    from kernel._numba_cache import CACHE, cache_dir

    if not CACHE:
        return True
    return not any(name.endswith(".nbi") for _, _, names in os.walk(cache_dir()) for name in names)


def warm_kernels(run_command, workers: int | None = None) -> dict:
    """Compile every kernel of :func:`warm_steps` into the cache, in ``workers`` processes, then check.

    Parameters
    ----------
    run_command : callable
        As in :func:`warm_steps` (:func:`kernel.cli.app.main`).
    workers : int, optional
        Worker processes (default :func:`default_workers`); 0 or 1 compiles
        everything in this process. With a warm cache (:func:`cache_is_cold`
        false) no workers start: this process loads the cached code, and
        compiles the little that may be missing.

    Returns
    -------
    dict
        ``workers``: each worker's ``{step: seconds}``; ``check``: the
        parent's pass over every step (loading the cached code) as
        ``{step: seconds}``; ``seconds``: the whole warm's wall time.

    A wheel's portable machine code (:mod:`kernel._shipped_kernels`) is not
    used meanwhile: the kernels compile for this CPU, and that code, in the
    cache folder, is what later processes load.
    """
    from kernel import _compile_notice, _shipped_kernels

    started = time.perf_counter()
    # compile code tuned to this CPU, not load a wheel's portable code (its workers inherit the setting); the
    # compiles are the point: no first-compile notice
    switch = os.environ.get(_shipped_kernels.SWITCH)
    os.environ[_shipped_kernels.SWITCH] = "0"
    _shipped_kernels.forget()
    _compile_notice.quiet()
    try:
        return _warm(started, run_command, workers)
    finally:
        if switch is None:
            os.environ.pop(_shipped_kernels.SWITCH)
        else:
            os.environ[_shipped_kernels.SWITCH] = switch
        _shipped_kernels.forget()
        _compile_notice.quiet(False)


def _warm(started: float, run_command, workers: int | None) -> dict:
    names = [name for name, _ in warm_steps(run_command)]
    workers = default_workers() if workers is None else workers
    groups = share_out(names, workers) if workers > 1 and cache_is_cold() else []
    reports = []
    if groups:   # each worker's output goes to files: a full pipe would stall it while another is read
        with tempfile.TemporaryDirectory(prefix="hexkernel-warm-") as folder:
            started_workers = []
            for number, group in enumerate(groups):
                out, err = (open(os.path.join(folder, f"{number}.{kind}"), "w+", encoding="utf-8")
                            for kind in ("out", "err"))
                started_workers.append((subprocess.Popen([sys.executable, "-m", "kernel.cli", "warm", "--worker", *group],
                                                         stdout=out, stderr=err, text=True), out, err))
            for process, out, err in started_workers:
                status = process.wait()
                out.seek(0)
                err.seek(0)
                text, errors = out.read(), err.read()
                out.close()
                err.close()
                if status != 0:
                    raise RuntimeError(f"a warm worker failed (status {status}):\n{errors.strip()[-4000:]}")
                reports.append(json.loads(text.strip().splitlines()[-1]))
    check = dict(run_steps(run_command))
    return {"workers": reports, "check": check, "seconds": time.perf_counter() - started}


def command_warm(args) -> None:
    """Run ``hexkernel warm``: compile (or load) every kernel and say where the cache is.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from kernel._numba_cache import CACHE, cache_dir

    if args.worker:   # a worker of a warm: the compiles are the point, no first-compile notice
        from kernel import _compile_notice

        _compile_notice.quiet()
        print(json.dumps(dict(run_steps(args.main, args.worker))))
        return
    report = warm_kernels(args.main, args.workers if CACHE else 0)   # without the cache, workers would compile in vain
    folder = str(cache_dir()) if CACHE else None
    worker_seconds: dict[str, float] = {}
    for steps in report["workers"]:
        worker_seconds.update(steps)
    payload = {"cache": folder, "seconds_total": round(report["seconds"], 3), "workers": len(report["workers"]),
               "seconds": {what: round(worker_seconds.get(what, seconds), 3)
                           for what, seconds in report["check"].items()},
               "check_seconds": {what: round(seconds, 3) for what, seconds in report["check"].items()}}

    def text():
        where = f"machine code cached in {folder}" if folder else "caching is off (HEXKERNEL_NUMBA_CACHE=0)"
        lines = [f"hexkernel warm: {len(payload['seconds'])} steps in {report['seconds']:.1f} s "
                 f"({payload['workers'] or 'no'} worker processes); {where}"]
        lines += [f"  {what:<56} {seconds:7.2f} s" for what, seconds in payload["seconds"].items()]
        return lines

    emit(args, payload, text)
