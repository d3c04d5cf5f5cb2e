"""The speed of the wheel's portable machine code against code tuned to this CPU, per benchmark row.

``python -m bench.portable_code`` runs the kernels' benchmarks (``pytest
bench/FILE``, short mode, as ``make test``) once per CPU target, file and
round: ``tuned`` (numba's default, this machine's CPU: what ``hexkernel
warm`` compiles) and each portable target (``NUMBA_CPU_NAME`` with no extra
features, as the wheel's build sets it: ``generic``, ``x86-64-v2``,
``x86-64-v3``). Each target has a kernel cache of its own, compiled by
``hexkernel warm`` before its first round, so that the benchmarks load that
target's code; the targets take turns file by file, so that a change in the
machine's load falls on all of them, and the kernels run on one thread
(``HEXKERNEL_THREADS=1``: the code's speed, not the scheduler's on a shared
machine). The files are those whose rows time kernels (:data:`FILES`); the
pictures, batch jobs, imports and fresh processes are left out.

Per row, the best time of each target over the rounds, and its ratio to the
tuned code's; the rows a portable target runs more than 15 % slower are
named. ``--json FILE`` keeps the figures; ``--write`` puts the table into
``docs/benchmarks.md`` (between its ``portable-code`` markers, which
``python -m bench.report`` keeps); ``--from FILE`` writes it from kept figures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- portable-code -->", "<!-- /portable-code -->"
TARGETS = ("tuned", "generic", "x86-64-v2", "x86-64-v3")
#: A portable target's row counts as a loss above this ratio to the tuned code.
LOSS = 1.15
#: Rows that run no kernel of the package (tcod, scipy, networkx): their ratios show how far the machine's load
#: alone moved a row between the targets' runs.
CONTROLS = ("tcod", "scipy", "networkx")
#: The benchmark files whose rows time kernels.
FILES = ("bench/bench_los.py", "bench/bench_fields.py", "bench/bench_movement.py", "bench/bench_game_loop.py",
         "bench/bench_depiction.py")


def target_environment(target: str, cache: Path) -> dict[str, str]:
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "NUMBA_CACHE_DIR")}
    environment.update({"HEXKERNEL_CACHE_DIR": str(cache), "HEXKERNEL_SHIPPED_KERNELS": "0", "HEXKERNEL_THREADS": "1"})
    if target != "tuned":
        environment.update({"NUMBA_CPU_NAME": target, "NUMBA_CPU_FEATURES": ""})
    return environment


def measure(targets: tuple[str, ...], rounds: int, caches: str | None = None) -> dict:
    """Every target's best timing per row over ``rounds`` rounds (see the module docstring); ``caches`` keeps
    each target's kernel cache in ``caches/<target>`` (a target warmed there once is not warmed again)."""
    best: dict[str, dict[str, float]] = {target: {} for target in targets}
    warm_seconds = {}
    with tempfile.TemporaryDirectory(prefix="hexkernel-portable-") as scratch:
        folder = caches or scratch
        for target in targets:
            marker = Path(folder) / target / ".warmed"
            if marker.exists():
                continue
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "kernel.cli", "warm"], cwd=ROOT, check=True, capture_output=True,
                           env=target_environment(target, Path(folder) / target))
            warm_seconds[target] = round(time.perf_counter() - start, 1)
            marker.touch()
            print(f"{target}: warmed in {warm_seconds[target]} s", flush=True)
        for number in range(rounds):
            for path in FILES:
                for target in targets:
                    out = Path(scratch) / f"{target}-{number}.json"
                    environment = target_environment(target, Path(folder) / target)
                    subprocess.run([sys.executable, "-m", "pytest", path, "-q", "-p", "no:cacheprovider"], cwd=ROOT,
                                   env={**environment, "HEXKERNEL_BENCH_JSON": str(out)}, check=True,
                                   capture_output=True)
                    if not out.exists():   # every row of the file skipped (no ../shared)
                        continue
                    for row, seconds in json.loads(out.read_text(encoding="utf-8"))["timings"].items():
                        best[target][row] = min(seconds, best[target].get(row, float("inf")))
                    out.unlink()
                print(f"round {number + 1}, {path}: done", flush=True)
    return {"date": time.strftime("%Y-%m-%d"), "rounds": rounds, "targets": list(targets), "best": best,
            "warm_seconds": warm_seconds, "load": os.getloadavg()[0]}


def section(figures: dict, shipped: str) -> list[str]:
    """The markdown section of the figures; ``shipped`` is the wheel's target."""
    from bench.report import format_seconds

    targets = [target for target in figures["targets"] if target != "tuned"]
    tuned = figures["best"]["tuned"]
    rows = [row for row in tuned if all(row in figures["best"][target] for target in targets)]
    out = [START, "## Portable machine code (the wheel's) against tuned code", "",
           f"Measured {figures['date']} with `python -m bench.portable_code --rounds {figures['rounds']} --write`: "
           "the benchmarks once per CPU target and round, each target's kernels from a cache of its own (numba's "
           "`NUMBA_CPU_NAME`, no extra features; *tuned* is this machine's CPU, what `hexkernel warm` compiles); "
           "the best time of each over the rounds, and its ratio to the tuned code's (above 1: slower); the files "
           "taking turns, the kernels on one thread (rows named *all threads* ran on one too). "
           f"The wheel ships `{shipped}`. Pictures, batch jobs and start-up are left out.", ""]
    controls = [figures["best"][target][row] / tuned[row] for target in targets for row in rows
                if any(word in row for word in CONTROLS)]
    if controls:
        spread = max(controls) / min(controls)
        out += ["The rows that run no kernel of the package (tcod, scipy, networkx), whose code is the same for "
                f"every target, came out at {min(controls):.2f} × to {max(controls):.2f} × of the tuned run: differences "
                "within that band are the machine's other work, not the code's."
                + (" That band is wider than the 15 % at stake: rerun on an idle machine before these ratios pick the "
                   "target." if spread > LOSS else ""), ""]
    for target in targets:
        ratios = [tuned and figures["best"][target][row] / tuned[row] for row in rows]
        losers = [row for row, ratio in zip(rows, ratios) if ratio > LOSS]
        worst = max(ratios) if ratios else float("nan")
        out.append(f"* `{target}`: {len(losers)} of {len(rows)} rows more than {round((LOSS - 1) * 100)} % slower "
                   f"(worst {worst:.2f} ×)" + (": " + "; ".join(losers) if losers else "") + ".")
    out += ["", "| row | tuned | " + " | ".join(targets) + " |", "| --- | ---: | " + " | ".join("---:" for _ in targets)
            + " |"]
    for row in rows:
        cells = [f"{figures['best'][target][row] / tuned[row]:.2f} ×" for target in targets]
        out.append(f"| {row} | {format_seconds(tuned[row])} | " + " | ".join(cells) + " |")
    out += [END, ""]
    return out


def replace_section(text: str, block: list[str]) -> str:
    r"""``text`` with its portable-code section replaced by ``block``, or put before its ratios.

    Examples
    --------
    >>> replace_section("# B\n\n## Ratios against peers\n", [START, "new", END, ""])
    '# B\n\n<!-- portable-code -->\nnew\n<!-- /portable-code -->\n\n## Ratios against peers\n'
    """
    joined = "\n".join(block).rstrip("\n") + "\n\n"
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END) + r"\n*", re.S)
    if pattern.search(text):
        return pattern.sub(lambda _: joined, text)
    anchor = text.index("## Ratios against peers")
    return text[:anchor] + joined + text[anchor:]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--targets", default=",".join(TARGETS), help="comma-separated, 'tuned' first")
    parser.add_argument("--json", metavar="FILE", help="keep the figures")
    parser.add_argument("--caches", metavar="FOLDER", help="keep each target's kernel cache in FOLDER/TARGET")
    parser.add_argument("--from", dest="source", metavar="FILE", help="kept figures instead of a new run")
    parser.add_argument("--write", action="store_true", help="write the section of docs/benchmarks.md")
    args = parser.parse_args(argv)
    if args.source:
        figures = json.loads(Path(args.source).read_text(encoding="utf-8"))
    else:
        targets = tuple(args.targets.split(","))
        if targets[0] != "tuned":
            raise SystemExit(f"--targets is {args.targets!r}: expected 'tuned' first (the ratios' peer)")
        figures = measure(targets, args.rounds, args.caches)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    from kernel._shipped_kernels import TARGET

    block = section(figures, TARGET["NUMBA_CPU_NAME"])
    print("\n".join(block))
    if args.write:
        DOC.write_text(replace_section(DOC.read_text(encoding="utf-8"), block), encoding="utf-8")


if __name__ == "__main__":
    main()
