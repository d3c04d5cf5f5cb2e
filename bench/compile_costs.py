"""What each numba kernel costs to compile, by numba's own accounting: ``python -m bench.compile_costs``.

Runs the calls of ``hexkernel warm`` (:func:`kernel.cli.warm_command.warm_steps`)
one after the other in this process with the on-disk cache off, and records
numba's ``numba:compile`` events: each compiled dispatcher and signature, the
seconds of its compile *excluding* the kernels it compiled on the way (a
kernel calling another, not inlined, compiles it first), and the seconds
inclusive. Loading from a cache is not a compile and fires no event, which is
why the cache is switched off here. The sum of the exclusive seconds is the
CPU a serial warm spends compiling on an idle machine; the wall time of each
warm step and the CPU seconds of the whole run (the steadier total on a
shared machine) are printed too.

Compile seconds depend on the machine's load like any timing; the shares of
the total (the last column) are what to compare between runs on a shared
machine.

Options: ``--json FILE`` also writes the table as JSON; ``--steps a,b``
runs only the warm steps whose name contains one of the given words;
``--passes N`` also prints, for the N costliest kernels, where each compile
went by numba's compiler passes (``pipeline_times`` of each compiled
version, summed per pass, nested compiles included in the pass that
triggered them, usually type inference): IR-level inlining
(``inline_inlinables``), SSA reconstruction, type inference, lowering and
LLVM (``native_lowering``, ``native_parfor_lowering``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict


def dispatcher_name(dispatcher) -> str:
    function = dispatcher.py_func
    return f"{function.__module__.removeprefix('kernel.')}.{function.__qualname__}"


def compile_costs(step_filter: list[str] | None = None) -> tuple[list[dict], list[tuple[str, float]]]:
    """``(rows, steps)``: one row per compiled dispatcher and signature, and each warm step's wall seconds."""
    from numba.core import event

    from kernel.cli.app import main
    from kernel.cli.warm_command import warm_steps

    steps = []
    with event.install_recorder("numba:compile") as recorder:
        for name, call in warm_steps(main):
            if step_filter and not any(word in name for word in step_filter):
                continue
            start = time.perf_counter()
            call()
            steps.append((name, time.perf_counter() - start))
    inclusive: dict[tuple[str, str], float] = defaultdict(float)
    exclusive: dict[tuple[str, str], float] = defaultdict(float)
    stack: list[list] = []  # [key, start, seconds spent in nested compiles]
    for stamp, item in recorder.buffer:
        key = (dispatcher_name(item.data["dispatcher"]), str(tuple(item.data["args"])))
        if item.is_start:
            stack.append([key, stamp, 0.0])
        else:
            key_started, started, nested = stack.pop()
            assert key_started == key, (key_started, key)
            seconds = stamp - started
            inclusive[key] += seconds
            exclusive[key] += seconds - nested
            if stack:
                stack[-1][2] += seconds
    rows = [{"kernel": kernel, "signature": signature, "exclusive_s": round(exclusive[(kernel, signature)], 3),
             "inclusive_s": round(inclusive[(kernel, signature)], 3)} for kernel, signature in inclusive]
    rows.sort(key=lambda row: -row["exclusive_s"])
    return rows, steps


def pass_seconds(kernel_names: list[str]) -> dict[str, dict[str, float]]:
    """Per kernel named (as :func:`dispatcher_name`), numba's compiler pass seconds summed over its compiled
    versions in this process, costliest first."""
    from numba.core.registry import CPUDispatcher

    found: dict[str, dict[str, float]] = {}
    for module in [module for name, module in list(sys.modules.items()) if name.startswith("kernel.")]:
        for value in vars(module).values():
            value = getattr(value, "compiled", value)  # a kernel run on several threads: its dispatcher
            if not isinstance(value, CPUDispatcher) or dispatcher_name(value) not in kernel_names:
                continue
            totals = found.setdefault(dispatcher_name(value), defaultdict(float))
            if totals:
                continue  # the same dispatcher imported into another module
            for compiled in value.overloads.values():
                for timings in compiled.metadata.get("pipeline_times", {}).values():
                    for name, timing in timings.items():
                        totals[name.split("_", 1)[-1]] += timing.init + timing.run + timing.finalize
    return {name: dict(sorted(totals.items(), key=lambda item: -item[1])) for name, totals in found.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    parser.add_argument("--steps", help="comma-separated words: only the warm steps whose name contains one")
    parser.add_argument("--passes", type=int, default=0, metavar="N",
                        help="also print the compiler passes' seconds of the N costliest kernels")
    args = parser.parse_args(argv)
    from kernel import _numba_cache

    if _numba_cache.CACHE:
        raise SystemExit("the cache must be off before kernel._numba_cache is imported: run python -m "
                         "bench.compile_costs")
    started, cpu_started = time.perf_counter(), time.process_time()
    rows, steps = compile_costs(args.steps.split(",") if args.steps else None)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    total = sum(row["exclusive_s"] for row in rows) or 1.0
    per_kernel: dict[str, list] = defaultdict(lambda: [0, 0.0])
    for row in rows:
        per_kernel[row["kernel"]][0] += 1
        per_kernel[row["kernel"]][1] += row["exclusive_s"]
    print(f"{len(rows)} compiles of {len(per_kernel)} kernels: {total:.1f} s compiling "
          f"(exclusive, numba's events), {wall:.1f} s wall and {cpu:.1f} s CPU of this process for the warm steps; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'kernel':<62} {'sigs':>4} {'seconds':>8} {'share':>6}")
    for kernel, (count, seconds) in sorted(per_kernel.items(), key=lambda item: -item[1][1]):
        print(f"{kernel:<62} {count:>4} {seconds:8.2f} {100 * seconds / total:5.1f}%")
    if args.passes:
        costliest = [kernel for kernel, _ in sorted(per_kernel.items(), key=lambda item: -item[1][1])][:args.passes]
        passes = pass_seconds(costliest)
        print("\ncompiler passes (seconds over each kernel's compiled versions, nested compiles included):")
        for kernel in costliest:
            top = list(passes.get(kernel, {}).items())[:6]
            print(f"  {kernel:<60} " + ", ".join(f"{name} {seconds:.2f}" for name, seconds in top))
    print("\nwarm steps (wall seconds, compiling included):")
    for name, seconds in steps:
        print(f"  {name:<60} {seconds:7.2f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"rows": rows, "steps": steps, "wall_s": wall, "cpu_s": cpu, "load_average": os.getloadavg()[0]},
                      handle, indent=1)


if __name__ == "__main__":
    os.environ["HEXKERNEL_NUMBA_CACHE"] = "0"  # before kernel._jit is imported: every kernel compiles here
    sys.exit(main())
