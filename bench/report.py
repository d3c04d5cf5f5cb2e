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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
README = ROOT / "README.md"
START, END = "<!-- benchmarks -->", "<!-- /benchmarks -->"

#: Ratio label (as the benchmarks name it) -> how the README's table words it; in this order.
README_RATIOS = {
    "exact matrix / naive lerp (target <= 1.5)": "exact LOS matrix / a naive floating-point lerp kernel (default scenario)",
    "los_matrix: per-source / per-pair kernel, same run (target <= 0.5)":
        "exact LOS matrix / the same matrix through the per-pair kernel",
    "field_of_fire, one source (71I4), 1 thread: per-source / per-pair kernel, same run":
        "one field of fire / the same row through the per-pair kernel",
    "tcod time / field_of_fire time, same cell count (target >= 1/3)":
        "tcod's shadow casting (square grid, no rules) / one field of fire, as many cells",
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


FIRST_RUN_START, FIRST_RUN_END = "<!-- first-run -->", "<!-- /first-run -->"


def compile_seconds(costs: dict) -> tuple[float, int, dict[str, float]]:
    """``(total, compiles, seconds by kernel)`` of a ``python -m bench.compile_costs --json`` file (exclusive
    seconds, numba's events)."""
    by_kernel: dict[str, float] = {}
    for row in costs["rows"]:
        by_kernel[row["kernel"]] = by_kernel.get(row["kernel"], 0.0) + row["exclusive_s"]
    return sum(by_kernel.values()), len(costs["rows"]), by_kernel


def first_run_section(first_run: dict, before: dict | None = None, costs: dict | None = None,
                      costs_before: dict | None = None) -> list[str]:
    """The "First run" section, between :data:`FIRST_RUN_START` and :data:`FIRST_RUN_END`: ``python -m
    bench.first_run``'s figures, those of the code before a change (``before``, the same command on a clone of
    it) beside them, and the compile cost per kernel of ``python -m bench.compile_costs`` (``costs``, and
    ``costs_before``).

    Examples
    --------
    >>> figures = {"warm_parallel_s": [40.0], "warm_one_process_s": [70.0], "cores": 2, "date": "2026-11-26"}
    >>> lines = first_run_section(figures, before={**figures, "warm_parallel_s": [150.0]})
    >>> [line for line in lines if line.startswith("| `hexkernel warm`")]
    ['| `hexkernel warm` from an empty cache, 2 worker processes | 150.0 s | 40.0 s | ≤ 30 s |']
    """
    def cell(figures, key, unit=" s", pick=min):
        if not figures or key not in figures:
            return ""
        value = figures[key]
        return f"{pick(value) if isinstance(value, list) else value:.{0 if unit == ' s CPU' else 1}f}{unit}"

    rows = [("`hexkernel warm` from an empty cache, {cores} worker processes", "warm_parallel_s", " s", "≤ 30 s"),
            ("the same in one process (`--workers 1`)", "warm_one_process_s", " s", ""),
            ("CPU seconds (user + system) of the warm in worker processes", "warm_parallel_cpu_s", " s CPU", ""),
            ("CPU seconds of the warm in one process", "warm_one_process_cpu_s", " s CPU", ""),
            ("`make demo` in a fresh clone, the install from the package index included", "make_demo_s", " s",
             "≤ 90 s")]
    out = [FIRST_RUN_START, "## First run", "",
           f"Measured {first_run.get('date', '')} with `python -m bench.first_run --rounds 1 --make-demo --json "
           "first-run.json`, then `python -m bench.report --first-run first-run.json`. On a shared machine the wall "
           "seconds grow with the other work; the CPU seconds (all the warm's processes) are the steadier figures."]
    if before:
        out += [f"The column before: the same command on a clone of the code before the compile work "
                f"({before.get('date', '')}), `--first-run-before`."]
    out += ["", "| what | " + ("before | after | target |" if before else "figure | target |"),
            "| --- | " + ("---: | ---: | --- |" if before else "---: | --- |")]
    for words, key, unit, target in rows:
        if key in first_run or (before and key in before):
            cells = ([cell(before, key, unit)] if before else []) + [cell(first_run, key, unit)]
            out.append(f"| {words.format(cores=first_run.get('cores', ''))} | {' | '.join(cells)} | {target} |")
    if "reference_compile_s" in first_run:
        def ratio(figures):
            if not figures or "reference_compile_s" not in figures:
                return ""
            return f"{min(figures['warm_parallel_s']) / min(figures['reference_compile_s']):.1f} ×"

        out.append(f"| the reference numba kernel's compile, same run (`bench/reference_compile.py`) | "
                   + (f"{cell(before, 'reference_compile_s', ' s', min) if before else ''} | " if before else "")
                   + f"{cell(first_run, 'reference_compile_s', ' s', min)} |  |")
        out.append("| `hexkernel warm` / the reference kernel's compile | "
                   + (f"{ratio(before)} | " if before else "") + f"{ratio(first_run)} | ≤ 12 × |")
    if costs:
        total, compiles, by_kernel = compile_seconds(costs)
        out += ["", "Compile cost by numba's own accounting (`python -m bench.compile_costs --json FILE`, every warm "
                "step in one process, the cache off; exclusive seconds, CPU of one core on a shared machine: compare "
                "the shares), `--compile-costs` / `--compile-costs-before`:", ""]
        if costs_before:
            total_b, compiles_b, by_kernel_b = compile_seconds(costs_before)
            out += ["| kernel | before | after |", "| --- | ---: | ---: |",
                    f"| all ({compiles_b} / {compiles} compiles) | {total_b:.1f} s | {total:.1f} s |"]
            if "cpu_s" in costs_before or "cpu_s" in costs:
                out.append("| CPU seconds of the whole run | " + " | ".join(
                    f"{figures['cpu_s']:.1f} s" if "cpu_s" in figures else "" for figures in (costs_before, costs))
                    + " |")
            for name in sorted(by_kernel_b, key=lambda k: -by_kernel_b[k])[:12]:
                out.append(f"| {name} | {by_kernel_b[name]:.1f} s ({100 * by_kernel_b[name] / total_b:.0f} %) | "
                           f"{by_kernel.get(name, 0.0):.1f} s ({100 * by_kernel.get(name, 0.0) / total:.0f} %) |")
        else:
            out += ["| kernel | seconds |", "| --- | ---: |", f"| all ({compiles} compiles) | {total:.1f} s |"]
            out += [f"| {name} | {seconds:.1f} s |" for name, seconds in
                    sorted(by_kernel.items(), key=lambda item: -item[1])[:12]]
    out += [FIRST_RUN_END, ""]
    return out


def replace_first_run(text: str, section: list[str]) -> str:
    r"""``text`` (a written ``docs/benchmarks.md``) with its first-run section replaced by ``section``, or put
    before its ratios where it has none.

    Examples
    --------
    >>> replace_first_run("# B\n\n## Ratios against peers\n", [FIRST_RUN_START, "new", FIRST_RUN_END, ""])
    '# B\n\n<!-- first-run -->\nnew\n<!-- /first-run -->\n\n## Ratios against peers\n'
    """
    block = "\n".join(section).rstrip("\n") + "\n\n"
    pattern = re.compile(re.escape(FIRST_RUN_START) + r".*?" + re.escape(FIRST_RUN_END) + r"\n*", re.S)
    if pattern.search(text):
        return pattern.sub(lambda _: block, text)
    anchor = text.index("## Ratios against peers")
    return text[:anchor] + block + text[anchor:]


def keep_portable_code(old: str, new: str) -> str:
    r"""``new`` with the portable-code section of ``old`` (``python -m bench.portable_code --write``) kept.

    Examples
    --------
    >>> keep_portable_code("<!-- portable-code -->\nfigures\n<!-- /portable-code -->\n", "# B\n\n## Ratios against peers\n")
    '# B\n\n<!-- portable-code -->\nfigures\n<!-- /portable-code -->\n\n## Ratios against peers\n'
    """
    from bench.portable_code import END as PORTABLE_END, START as PORTABLE_START, replace_section

    found = re.search(re.escape(PORTABLE_START) + r".*?" + re.escape(PORTABLE_END), old, re.S)
    return replace_section(new, found.group(0).split("\n")) if found else new


def document(run: dict, where: str, first_run: dict | None, command: str, note: str, before: dict | None = None,
             costs: dict | None = None, costs_before: dict | None = None) -> str:
    out = ["# Benchmarks", "",
           f"Measured on {where}, {run.get('date', '')}, with `{command}` (this file and the README's",
           "table are written by it). Ratios compare two measurements of the same run, so they hold when the",
           "machine is busy; absolute times do not. Each timing is the best of its rounds." + (f" {note}" if note else ""),
           ""]
    if first_run:
        out += first_run_section(first_run, before, costs, costs_before)
    out += ["## Ratios against peers", "", "| ratio | value | CI fails above |", "| --- | ---: | ---: |"]
    out += [f"| {row['label']} | {row['value']:.2f} × | {row['limit'] if row['limit'] else ''} |" for row in run["ratios"]]
    out += ["", "## Timings", "", "| what | best |", "| --- | ---: |"]
    out += [f"| {name} | {format_seconds(value)} |" for name, value in run["timings"].items()]
    out += ["", "## Other figures", "", "| what | value |", "| --- | ---: |"]
    out += [f"| {name} | {value:,.1f} {unit} |" for name, (value, unit) in run["figures"].items()]
    out += ["", "## Measured apart", "",
            "* compile cost of each kernel, by numba's own accounting: `python -m bench.compile_costs`;",
            "* the interactive page in a real browser: `python -m bench.page_load`;",
            "* the floor of a per-source walk shared by one source's lines: `python -m bench.shared_walk_floor`;",
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
    parser.add_argument("--first-run-before", metavar="FILE",
                        help="the same JSON measured on the code before a change, shown beside --first-run")
    parser.add_argument("--compile-costs", metavar="FILE", help="the JSON of python -m bench.compile_costs --json")
    parser.add_argument("--compile-costs-before", metavar="FILE", help="the same, of the code before a change")
    parser.add_argument("--first-run-only", action="store_true",
                        help="rewrite only the first-run section of docs/benchmarks.md (no benchmark run)")
    parser.add_argument("--note", default="", help="a sentence on the conditions (e.g. whether the machine was idle)")
    args = parser.parse_args(argv)

    def read(path):
        return json.loads(Path(path).read_text(encoding="utf-8")) if path else None

    extra = {"before": read(args.first_run_before), "costs": read(args.compile_costs),
             "costs_before": read(args.compile_costs_before)}
    if args.first_run_only:
        if not args.first_run:
            raise SystemExit("--first-run-only needs --first-run FILE")
        DOC.write_text(replace_first_run(DOC.read_text(encoding="utf-8"),
                                         first_run_section(read(args.first_run), **extra)), encoding="utf-8")
        print(f"wrote the first-run section of {DOC.relative_to(ROOT)}")
        return
    run = json.loads(Path(args.source).read_text()) if args.source else run_benchmarks(args.full)
    if args.save:
        Path(args.save).write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
    first_run = json.loads(Path(args.first_run).read_text()) if args.first_run else None
    command = "python -m bench.report" + (" --full" if args.full else "")
    where = machine()
    written = document(run, where, first_run, command, args.note, **extra)
    DOC.write_text(keep_portable_code(DOC.read_text(encoding="utf-8") if DOC.exists() else "", written),
                   encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END), re.S)
    if not pattern.search(readme):
        raise SystemExit(f"README.md has no {START} ... {END} markers")
    README.write_text(pattern.sub(lambda _: f"{START}\n{readme_table(run, where)}\n{END}", readme), encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)} and the README's table")


if __name__ == "__main__":
    sys.exit(main())
