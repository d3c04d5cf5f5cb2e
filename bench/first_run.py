"""A new user's first run: ``hexkernel warm`` from an empty cache, and ``make demo`` from a fresh clone.

``python -m bench.first_run`` times ``hexkernel warm`` in a fresh process
with an empty kernel cache (a new temporary ``HEXKERNEL_CACHE_DIR`` each
time), in parallel processes (the default: one per core) and in one process
(``--workers 1``), alternately, ``--rounds`` times each; the ratio of the two
is what the parallel warm saves on this machine whatever its load. Between
them it times the compile of a reference numba kernel in a fresh process
(:mod:`bench.reference_compile`), the anchor of the warm's ratio target. With
``--make-demo`` it also clones the repository into a temporary folder and
times ``make demo`` there: the virtual environment, the install from the
package index, ``hexkernel warm`` and the demo. ``--json FILE`` writes the
figures for ``python -m bench.report``.

The figures depend on the machine's load; the header line gives the load
average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed_warm(workers: int | None) -> tuple[float, float]:
    """Wall and CPU seconds (its processes' user + system) of ``hexkernel warm`` in a fresh process with an
    empty cache. On a machine shared with other work the CPU seconds are the steadier figure: Linux shares
    the cores between sessions, so a busy machine gives the workers together no more than one process."""
    with tempfile.TemporaryDirectory(prefix="hexkernel-cache-") as cache:
        env = {**os.environ, "HEXKERNEL_CACHE_DIR": cache, "HEXKERNEL_NUMBA_CACHE": "1"}
        env.pop("NUMBA_CACHE_DIR", None)
        command = [sys.executable, "-m", "kernel.cli", "warm"] + ([] if workers is None else
                                                                    ["--workers", str(workers)])
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, env=env, capture_output=True, cwd=ROOT)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def timed_make_demo() -> float:
    """Seconds of ``make demo`` in a fresh clone (the install from the package index included)."""
    with tempfile.TemporaryDirectory(prefix="hexkernel-clone-") as folder:
        clone = Path(folder) / "hexkernel"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        with tempfile.TemporaryDirectory(prefix="hexkernel-cache-") as cache:
            env = {**os.environ, "HEXKERNEL_CACHE_DIR": cache}
            env.pop("NUMBA_CACHE_DIR", None)
            start = time.perf_counter()
            subprocess.run(["make", "demo"], check=True, cwd=clone, env=env, capture_output=True)
            seconds = time.perf_counter() - start
        if not (clone / "out" / "summary.json").is_file():
            raise RuntimeError("make demo wrote no out/summary.json")
        return seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="runs of each warm (default %(default)s)")
    parser.add_argument("--make-demo", action="store_true", help="also time make demo in a fresh clone")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    from bench.reference_compile import timed_reference_compile

    parallel, serial, parallel_cpu, serial_cpu, reference = [], [], [], [], []
    for _ in range(args.rounds):   # alternately, so that a change of load hits both
        for walls, cpus, workers in ((parallel, parallel_cpu, None), (serial, serial_cpu, 1)):
            reference.append(timed_reference_compile())
            wall, cpu = timed_warm(workers)
            walls.append(wall)
            cpus.append(cpu)
    figures = {"warm_parallel_s": parallel, "warm_one_process_s": serial, "warm_parallel_cpu_s": parallel_cpu,
               "warm_one_process_cpu_s": serial_cpu, "reference_compile_s": reference,
               "cores": len(os.sched_getaffinity(0)), "machine": platform.processor() or platform.machine()}
    if args.make_demo:
        figures["make_demo_s"] = timed_make_demo()
    figures["load_average"] = [load_before, os.getloadavg()[0]]
    figures["date"] = time.strftime("%Y-%m-%d")
    print(f"hexkernel warm from an empty cache, {figures['cores']} cores: parallel "
          f"{', '.join(f'{s:.1f}' for s in parallel)} s; one process {', '.join(f'{s:.1f}' for s in serial)} s; "
          f"ratio {min(parallel) / min(serial):.2f}; CPU seconds {', '.join(f'{s:.0f}' for s in parallel_cpu)} / "
          f"{', '.join(f'{s:.0f}' for s in serial_cpu)}; the reference kernel's compile "
          f"{', '.join(f'{s:.2f}' for s in reference)} s (warm / reference {min(parallel) / min(reference):.1f})")
    if args.make_demo:
        print(f"make demo in a fresh clone: {figures['make_demo_s']:.1f} s")
    print(f"load average before / after: {load_before:.1f} / {os.getloadavg()[0]:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
