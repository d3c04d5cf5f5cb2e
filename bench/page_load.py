"""The interactive page's figures of the README: its size and how soon it answers clicks.

Run on demand (about a minute; needs Chromium and chromedriver)::

    .venv/bin/python -m bench.page_load

For the bundled four-board map and, where ``../shared`` holds it, VASL board 4
with its art and a few counters (the depiction view's page) it writes the
page (``hexkernel page``), reports its size
and the time to build it, then opens it from disk in headless Chromium three
times and reports how long after the navigation started the page was ready
for field-of-fire clicks (``window.hexkernelPage.readyMs``: the HTML parsed,
the map drawn, the LOS matrix inflated) and for LOS and movement
(``tablesMs``: every other table inflated), and the time of one
field-of-fire click.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

import kernel
from bench.vasl_engine import vasl_folder

#: The counters of the board-4 page (as the page's browser tests use them).
BOARD_4_COUNTERS = {"smoke": {"4M5": 2}, "vehicles": ["4P4"], "units": ["4L5"]}


def board_4_with_art():
    """VASL board 4 with its art and :data:`BOARD_4_COUNTERS`, or None without ``../shared``."""
    import warnings

    folder = vasl_folder() / "bd04"
    if not folder.is_dir():
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        board = kernel.load_vasl_board(folder)
    return board, kernel.Counters.from_dict(board, BOARD_4_COUNTERS)


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1600,1000"):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))


def measure(driver, path: Path, first_hex: str, runs: int = 3):
    from selenium.webdriver.support.ui import WebDriverWait

    ready, tables, click = [], [], []
    for _ in range(runs):
        driver.get("about:blank")
        driver.get(path.as_uri())
        WebDriverWait(driver, 120).until(lambda d: d.execute_script("return document.body.dataset.ready === '1'"))
        ready.append(driver.execute_script("return window.hexkernelPage.readyMs"))
        WebDriverWait(driver, 120).until(lambda d: d.execute_script("return document.body.dataset.tables === '1'"))
        tables.append(driver.execute_script("return window.hexkernelPage.tablesMs"))
        click.append(driver.execute_script(
            "const e = document.querySelector('polygon.hex[data-hex=\"' + arguments[0] + '\"]');"
            "const t = performance.now(); e.dispatchEvent(new MouseEvent('click', {bubbles: true}));"
            "return performance.now() - t;", first_hex))
    return ready, tables, click


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        maps = [("default (4 boards)", kernel.load("default"), None, "71I4")]
        vasl = board_4_with_art()
        if vasl is None:
            print("VASL board 4: skipped (no ../shared/vasl/bd04)")
        else:
            maps.append(("VASL board 4 with its art", *vasl, "4L5"))
        driver = browser()
        try:
            for label, board, counters, first in maps:
                path = folder / f"{len(board)}.html"
                started = time.perf_counter()
                size = kernel.map_page(board, path, counters=counters)
                build = time.perf_counter() - started
                ready, tables, click = measure(driver, path, first)
                print(f"{label}: {len(board)} hexes, page {size / 1e6:.2f} MB, built in {build:.1f} s; "
                      f"fields of fire ready {min(ready):.0f}-{max(ready):.0f} ms after navigation, LOS and movement "
                      f"{min(tables):.0f}-{max(tables):.0f} ms; "
                      f"one field-of-fire click {min(click):.0f}-{max(click):.0f} ms")
        finally:
            driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
