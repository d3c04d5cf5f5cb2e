"""A smoke test of an installed hexkernel wheel, run by ``make test`` from a fresh virtual environment.

``python tests/wheel_smoke.py core`` checks the core install (numpy and
numba only): the package is the installed one, not the source tree; the
bundled data (every ruleset, board, overlay and scenario) and the page
template are there; no extra's package is installed; each feature that
needs an extra raises an ImportError naming it. ``python tests/wheel_smoke.py
extras DEMO_DIR`` then checks, with every extra installed, the files that
``hexkernel demo --out DEMO_DIR`` wrote, a picture and ``movement_graph``.
Each check prints one line; any failure ends the run with status 1.
"""

from __future__ import annotations

import importlib.util
import json
import sys
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


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "core":
        core()
    elif mode == "extras" and len(sys.argv) == 3:
        extras(sys.argv[2])
    else:
        raise SystemExit("usage: wheel_smoke.py core | extras DEMO_DIR")
    print(f"wheel smoke test ({mode}): {len(CHECKS)} checks passed")
