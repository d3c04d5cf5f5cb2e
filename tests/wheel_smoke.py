"""A smoke test of an installed hexkernel wheel, run by ``make test`` from a fresh virtual environment.

``python tests/wheel_smoke.py core`` checks the core install (numpy and
numba only): the package is the installed one, not the source tree; the
bundled data (every ruleset, board, overlay and scenario) and the page
template are there; no extra's package is installed; each feature that
needs an extra raises an ImportError naming it. ``python tests/wheel_smoke.py
extras DEMO_DIR`` then checks, with every extra installed, the files that
``hexkernel demo --out DEMO_DIR`` wrote, a picture and ``movement_graph``.
``python tests/wheel_smoke.py first-calls wheel|cache|movement-warmed [picture]`` runs in a
fresh process: it times ``import kernel`` with the first
``los()`` together, then the first ``field_of_fire``, ``los_matrix``,
``movement_field`` (and, with ``picture``, ``board_picture``) one by one, and
checks that no kernel was compiled, by numba's own figures: its compile
events (``numba:compile``, listened to from after the first ``los()``) and
every kernel dispatcher's cache-miss counters (every call of the process);
and where the machine code came from: ``wheel``, every kernel from the
wheel's portable code (an empty cache); ``cache``, none (after ``hexkernel
warm``, whose tuned code wins); ``movement-warmed``, every kernel but the
movement kernels (after ``hexkernel warm`` ran only its ``movement_field``
step into an empty cache: the tuned code it compiled wins over the wheel's,
and the rest still comes from the wheel).
The times are printed, one line each, and as JSON on the last line.
Each check prints one line; any failure ends the run with status 1.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path

CHECKS: list[str] = []


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"wheel smoke test failed: {what}")
    CHECKS.append(what)
    print(f"ok  {what}")


def installed_package():
    import kernel

    location = Path(kernel.__file__).resolve().parent
    check("site-packages" in location.parts, f"kernel is imported from the installed wheel ({location.parent.name})")
    return kernel, location


def core() -> None:
    kernel, location = installed_package()
    from kernel.cli.demo_command import DEMO_FILES  # noqa: F401  (the CLI imports without extras)

    data = kernel.data_dir()
    check(data == location / "_data", "the bundled data is the wheel's kernel/_data")
    for folder, suffix in (("rulesets", "toml"), ("boards", "board"), ("overlays", "overlay"), ("scenarios", "scenario")):
        check(any((data / folder).glob(f"*.{suffix}")), f"bundled {folder} are installed")
    for name in ("asl", "valor-victory", "ccn"):
        check(kernel.load_ruleset(name).name == name, f"ruleset {name} loads")
    for scenario in sorted((data / "scenarios").glob("*.scenario")):
        board = kernel.load(str(scenario))
        check(len(board) > 0, f"scenario {scenario.stem} loads ({len(board)} hexes)")
    check(len(kernel.load("default")) == 1332, "the default scenario has its 1,332 hexes")
    template = location / "render" / "page_template.html"
    check(template.is_file() and template.stat().st_size > 1000, "the page template is installed")
    for package in ("matplotlib", "dask", "distributed", "zarr", "scipy", "tqdm", "tornado"):
        check(importlib.util.find_spec(package) is None, f"the core install has no {package}")
    board = kernel.load("71")
    for extra, call in (("plot", lambda: kernel.board_picture(board)),
                        ("batch", lambda: kernel.batch_result(".", "71", "visibility")),
                        ("graph", lambda: kernel.movement_graph(board, "71I4", unit="infantry"))):
        try:
            call()
        except ImportError as error:
            check(f"pip install 'hexkernel[{extra}]'" in str(error), f"without the {extra} extra: {error}")
        else:
            check(False, f"a feature of the {extra} extra ran without it")


def extras(demo: str) -> None:
    kernel, _ = installed_package()
    from kernel.cli.demo_command import DEMO_FILES

    out = Path(demo)
    for name in DEMO_FILES + ("board.png", "fire.png", "move.png", "los.png", "los_matrix.png"):
        check((out / name).is_file() and (out / name).stat().st_size > 0, f"the demo wrote {name}")
    page = (out / "map.html").read_text(encoding="utf-8")
    check("<html" in page.lower() and len(page) > 100_000, f"the demo's page is a whole page ({len(page):,} bytes)")
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    check(bool(summary), "the demo's summary is JSON")
    board = kernel.load("71")
    graph, starts = kernel.movement_graph(board, "71I4", unit="infantry")
    check(graph.shape[0] > len(board) and len(starts) > 0, "movement_graph runs with the graph extra")
    for package in ("matplotlib", "dask", "distributed", "zarr", "scipy"):
        check(importlib.util.find_spec(package) is not None, f"the extras installed {package}")


def kernel_dispatchers():
    """Every numba dispatcher of the package's modules imported in this process (the serial kernels of the
    parallel ones included)."""
    from numba.core.dispatcher import Dispatcher

    found = {}
    for name, module in list(sys.modules.items()):
        if name == "kernel" or name.startswith("kernel."):
            for value in list(vars(module).values()):
                # a kernel, a parallel kernel's serial twin, a numba-parallel kernel's dispatcher (LoopKernel)
                for each in (value, getattr(value, "serial", None), getattr(value, "compiled", None)):
                    if isinstance(each, Dispatcher):
                        found[id(each)] = each
    return list(found.values())


def first_calls(picture: bool, source: str) -> None:
    started = time.perf_counter()
    import kernel

    board = kernel.load("default")
    kernel.los(board, board.names[0], board.names[-1])
    seconds = {"import kernel + first los()": time.perf_counter() - started}
    from numba.core import event

    compiled = []

    class Compiles(event.Listener):
        def on_start(self, happening):
            compiled.append(str(getattr(happening.data.get("dispatcher"), "py_func", "?")))

        def on_end(self, happening):
            pass

    event.register("numba:compile", Compiles())
    calls = [("field_of_fire", lambda: kernel.field_of_fire(board, [board.names[5]])),
             ("los_matrix", lambda: kernel.los_matrix(board)),
             ("movement_field", lambda: kernel.movement_field(board, board.names[5], unit="infantry"))]
    if picture:
        calls.append(("board_picture", lambda: kernel.board_picture(board)))
    for name, call in calls:
        start = time.perf_counter()
        call()
        seconds[f"first {name}"] = time.perf_counter() - start
    dispatchers = kernel_dispatchers()
    misses = {f"{d.py_func.__module__}.{d.py_func.__qualname__}": sum(d._cache_misses.values()) for d in dispatchers}
    hits = sum(sum(d._cache_hits.values()) for d in dispatchers)
    for what, value in seconds.items():
        print(f"     {what:<40} {value:6.3f} s")
    check(len(dispatchers) > 10 and hits > 0, f"{hits} kernels loaded from machine code ({len(dispatchers)} dispatchers)")
    from kernel import _shipped_kernels

    shipped = len(_shipped_kernels.LOADED)
    if source == "wheel":
        check(shipped == hits, f"every kernel came from the wheel's portable machine code ({shipped} of {hits})")
    elif source == "movement-warmed":
        movement = [name for name in _shipped_kernels.LOADED if name.startswith("kernel.movement.")]
        check(0 < shipped < hits and not movement,
              f"the movement kernels came from the cache that 'hexkernel warm' filled, the other {shipped} of {hits} "
              f"from the wheel (movement kernels from the wheel: {movement[:3]})")
    else:
        check(shipped == 0, f"every kernel came from the cache that 'hexkernel warm' filled, none from the wheel "
                            f"({shipped} from the wheel)")
    check(not compiled, f"no numba compile event after the first los() ({compiled[:3]})")
    check(sum(misses.values()) == 0,
          f"no kernel compiled: every dispatcher's cache misses are 0 ({[k for k, v in misses.items() if v][:3]})")
    print(json.dumps({what: round(value, 3) for what, value in seconds.items()}))


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "core":
        core()
    elif mode == "extras" and len(sys.argv) == 3:
        extras(sys.argv[2])
    elif mode == "first-calls" and len(sys.argv) in (3, 4) and sys.argv[2] in ("wheel", "cache", "movement-warmed") \
            and sys.argv[3:] in ([], ["picture"]):
        first_calls(picture=sys.argv[3:] == ["picture"], source=sys.argv[2])
    else:
        raise SystemExit("usage: wheel_smoke.py core | extras DEMO_DIR | first-calls wheel|cache|movement-warmed [picture]")
    print(f"wheel smoke test ({mode}): {len(CHECKS)} checks passed")
