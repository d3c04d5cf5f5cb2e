"""Write ``docs/benchmarks.md`` and the README's benchmark table from one benchmark run: ``python -m bench.report``.

Runs the benchmarks (``pytest bench``; short mode by default, ``--full`` as
``make bench``) with ``HEXKERNEL_BENCH_JSON`` set, so that the run writes
its timings, figures and ratios (``bench/conftest.py``), then writes:

* ``docs/benchmarks.md``: where and when it was measured (once), every ratio
  against its peer, every timing and figure of the run, and the first-run
  figures of ``python -m bench.first_run --json FILE`` when given
  ``--first-run FILE``;
* the README's table between the ``<!-- benchmarks -->`` markers: the
  ratios against peers of :data:`README_RATIOS`.

``--from FILE`` reuses a saved run (the JSON) instead of running the
benchmarks; ``--save FILE`` keeps this run's JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
README = ROOT / "README.md"
START, END = "<!-- benchmarks -->", "<!-- /benchmarks -->"

#: Ratio label (as the benchmarks name it) -> how the README's table words it; in this order.
README_RATIOS = {
    "exact matrix / naive lerp (target <= 1.5)": "exact LOS matrix / a naive floating-point lerp kernel (default scenario)",
    "scipy / kernel, one field (target >= 5)": "scipy's dijkstra / our movement field, the same graph",
    "networkx / kernel, one field (target >= 100)": "networkx / our movement field, the same graph",
    "depiction / hex model, one VASL board": "depiction model / hex model, LOS matrix of one VASL board",
    "can_see / los, one pair": "`can_see` / `los`, one pair",
    "start-up + import kernel / start-up + import numpy": "a fresh `import kernel` / a fresh `import numpy`",
    "slowest first call / import numba, fresh processes": "slowest first call after `warm` / a fresh `import numba`",
    "board picture: names as Text / as one glyph path": "board picture, names as matplotlib texts / as one glyph path",
}


def machine() -> str:
    """The processor's name and the cores, from /proc/cpuinfo where there is one."""
    name = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{name}, {len(os.sched_getaffinity(0))} cores, Linux {platform.release()}, Python {platform.python_version()}"


def run_benchmarks(full: bool) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "bench.json"
        command = [sys.executable, "-m", "pytest", "bench", "-q"]
        if full:
            command += ["--benchmark-enable", "--benchmark-min-rounds=3"]
        subprocess.run(command, cwd=ROOT, check=True, env={**os.environ, "HEXKERNEL_BENCH_JSON": str(target)})
        return json.loads(target.read_text(encoding="utf-8"))


def format_seconds(value: float) -> str:
    """A duration in the unit that reads best: ``format_seconds(2.5e-6)`` is ``'2.5 µs'``."""
    if value < 1e-3:
        return f"{value * 1e6:.1f} µs"
    if value < 1:
        return f"{value * 1e3:.2f} ms"
    return f"{value:.2f} s"


def readme_table(run: dict, where: str) -> str:
    ratios = {row["label"]: row for row in run["ratios"]}
    lines = [f"Measured on {where}, {run.get('date', '')}; every figure, and how to measure it again:",
             "[docs/benchmarks.md](docs/benchmarks.md).", "", "| ratio (same run) | value |", "| --- | ---: |"]
    for label, words in README_RATIOS.items():
        if label in ratios:
            lines.append(f"| {words} | {ratios[label]['value']:.2f} × |")
    return "\n".join(lines)


def document(run: dict, where: str, first_run: dict | None, command: str, note: str) -> str:
    out = ["# Benchmarks", "",
           f"Measured on {where}, {run.get('date', '')}, with `{command}` (this file and the README's",
           "table are written by it). Ratios compare two measurements of the same run, so they hold when the",
           "machine is busy; absolute times do not. Each timing is the best of its rounds." + (f" {note}" if note else ""),
           ""]
    if first_run:
        parallel, serial = min(first_run["warm_parallel_s"]), min(first_run["warm_one_process_s"])
        out += ["## First run", "",
                f"Measured {first_run.get('date', '')} with `python -m bench.first_run --rounds 2 --make-demo --json "
                "first-run.json`, then `python -m bench.report --first-run first-run.json`:", "",
                "| what | figure | target |", "| --- | ---: | --- |",
                f"| `hexkernel warm` from an empty cache, {first_run['cores']} worker processes | {parallel:.1f} s | ≤ 30 s |",
                f"| the same in one process (`--workers 1`) | {serial:.1f} s ({parallel / serial:.2f} × parallel / one) | |"]
        if "warm_parallel_cpu_s" in first_run:
            out.append(f"| CPU seconds of the two (user + system, all processes) | "
                       f"{min(first_run['warm_parallel_cpu_s']):.0f} s / {min(first_run['warm_one_process_cpu_s']):.0f} s | |")
        if "make_demo_s" in first_run:
            out.append(f"| `make demo` in a fresh clone, the install from the package index included | "
                       f"{first_run['make_demo_s']:.1f} s | ≤ 90 s |")
        out.append("")
    out += ["## Ratios against peers", "", "| ratio | value | CI fails above |", "| --- | ---: | ---: |"]
    out += [f"| {row['label']} | {row['value']:.2f} × | {row['limit'] if row['limit'] else ''} |" for row in run["ratios"]]
    out += ["", "## Timings", "", "| what | best |", "| --- | ---: |"]
    out += [f"| {name} | {format_seconds(value)} |" for name, value in run["timings"].items()]
    out += ["", "## Other figures", "", "| what | value |", "| --- | ---: |"]
    out += [f"| {name} | {value:,.1f} {unit} |" for name, (value, unit) in run["figures"].items()]
    out += ["", "## Measured apart", "",
            "* compile cost of each kernel, by numba's own accounting: `python -m bench.compile_costs`;",
            "* the interactive page in a real browser: `python -m bench.page_load`;",
            "* a 64-board map: `python -m bench.large_map`; batch jobs on a local cluster: `python -m bench.batch_scaling`",
            "  ([batch-jobs.md](batch-jobs.md));",
            "* agreement with VASL's LOS engine: `python -m bench.vasl_engine` ([vasl-agreement.md](vasl-agreement.md)).",
            ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="full pytest-benchmark rounds (as make bench)")
    parser.add_argument("--from", dest="source", metavar="FILE", help="a saved run's JSON instead of a new run")
    parser.add_argument("--save", metavar="FILE", help="keep this run's JSON")
    parser.add_argument("--first-run", metavar="FILE", help="the JSON of python -m bench.first_run")
    parser.add_argument("--note", default="", help="a sentence on the conditions (e.g. whether the machine was idle)")
    args = parser.parse_args(argv)
    run = json.loads(Path(args.source).read_text()) if args.source else run_benchmarks(args.full)
    if args.save:
        Path(args.save).write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
    first_run = json.loads(Path(args.first_run).read_text()) if args.first_run else None
    command = "python -m bench.report" + (" --full" if args.full else "")
    where = machine()
    DOC.write_text(document(run, where, first_run, command, args.note), encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END), re.S)
    if not pattern.search(readme):
        raise SystemExit(f"README.md has no {START} ... {END} markers")
    README.write_text(pattern.sub(lambda _: f"{START}\n{readme_table(run, where)}\n{END}", readme), encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)} and the README's table")


if __name__ == "__main__":
    sys.exit(main())
