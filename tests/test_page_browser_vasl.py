"""The interactive page of a VASL board with its art in headless Chromium: the depiction view draws the
art, answers by it and marks the pixels its walk judged (boards 4 and 45 of ``../shared/vasl``; skipped
without them).  The browser and the default map's page come from :mod:`tests.browser_page`.
"""

from __future__ import annotations

import numpy as np
import pytest

import kernel
from tests.browser_page import (  # noqa: F401 (fixtures)
    board, browser, click, keep_screenshot, overlay, page, page_file, set_mode,
)
from tests.shared_data import vasl_folder


VASL_BOARD_4 = vasl_folder() / "bd04"
ART_COUNTERS = {"smoke": {"4M5": 2}, "vehicles": ["4P4"], "units": ["4L5"]}


@pytest.fixture(scope="module")
def board_4():
    import warnings

    if not VASL_BOARD_4.is_dir():
        pytest.skip("VASL board data (../shared/vasl) not present")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return kernel.load(str(VASL_BOARD_4))


@pytest.fixture(scope="module")
def art_page_file(board_4, tmp_path_factory):
    path = tmp_path_factory.mktemp("art") / "board4.html"
    kernel.map_page(board_4, path, counters=kernel.Counters.from_dict(board_4, ART_COUNTERS), max_allowance=4)
    return path



@pytest.mark.parametrize("pair", [("4L5", "4Z0"), ("4A1", "4GG10"), ("4P3", "4T6")])
def test_the_depiction_view_draws_the_art_and_answers_by_the_art(page, page_file, art_page_file, board_4, pair):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    counters = kernel.Counters.from_dict(board_4, ART_COUNTERS)
    ready = "return document.body.dataset.tables === '1'"
    page.get(art_page_file.as_uri())
    try:
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))
        assert page.find_element(By.ID, "models").is_displayed()
        assert page.find_element(By.ID, "art-image").get_attribute("href").startswith("data:image/png;base64,")
        assert page.find_element(By.ID, "model-depiction").is_selected()   # a map with art: the depiction view first
        assert page.find_element(By.ID, "art-image").is_displayed()
        a, b = pair
        set_mode(page, "fire")
        click(page, a)
        fire = kernel.field_of_fire(board_4, [a], counters=counters, model="depiction")
        states = overlay(page)[0]
        assert states == np.where(~fire.visible, "blocked", np.where(fire.hindrance > 0, "hindered", "clear")).tolist()
        assert "depiction model" in page.find_element(By.ID, "status").text
        click(page, b, shift=True)
        text = page.find_element(By.ID, "panel").text
        result = kernel.los(board_4, a, b, counters=counters, model="depiction")
        assert text.splitlines()[0] == result.explain().splitlines()[0]      # "(asl, depiction model)"
        assert "depiction model" in page.find_element(By.ID, "los-heading").text
        keep_screenshot(page, f"depiction-{a}-{b}.png")
        fills = page.execute_script("return new Set([...document.querySelectorAll('polygon.hex')]"
                                    ".map(e => getComputedStyle(e).fillOpacity)).size")
        assert fills == 1 and page.find_element(By.ID, "art-image").is_displayed()
        page.find_element(By.ID, "model-hex").click()    # back to the hex model: its answers, no art
        hexes = kernel.field_of_fire(board_4, [a], counters=counters, model="hex")
        assert overlay(page)[0] == np.where(~hexes.visible, "blocked",
                                            np.where(hexes.hindrance > 0, "hindered", "clear")).tolist()
        assert page.find_element(By.ID, "panel").text.splitlines()[0] == \
            kernel.los(board_4, a, b, counters=counters, model="hex").explain().splitlines()[0]
        assert not page.find_element(By.ID, "art-image").is_displayed()
    finally:
        page.get(page_file.as_uri())
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))


def test_the_art_shows_in_the_depiction_view(page, page_file, art_page_file, tmp_path):
    """A screenshot of the depiction view: the board's woods (green) and grain (yellow) are on screen."""
    from matplotlib.image import imread
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from kernel.render.art_layer import art_colour

    def rgb(colour):
        return [int(colour[i:i + 2], 16) for i in (1, 3, 5)]

    ready = "return document.body.dataset.tables === '1'"
    page.get(art_page_file.as_uri())
    try:
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))
        page.find_element(By.ID, "model-depiction").click()
        path = tmp_path / "art.png"
        assert page.save_screenshot(str(path))
        keep_screenshot(page, "depiction-board-4.png")
        pixels = (imread(path)[..., :3] * 255).astype(int)
        woods, grain = ((np.abs(pixels - rgb(art_colour(name))).max(axis=-1) < 12).mean() for name in ("woods", "grain"))
        assert woods > 0.03 and grain > 0.005, (woods, grain)
        legend = page.find_element(By.ID, "legend").text
        assert "woods (art)" in legend and "open ground (art)" in legend, legend
    finally:
        page.get(page_file.as_uri())
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))


def judged_runs_of(result):
    """The runs of art pixels with an effect in a depiction LOS, as the page writes them."""
    from kernel.render.los_trace import _RUN

    out = []
    for step in result.steps:
        found = _RUN.fullmatch(step.kind)
        if step.effect_text == "no effect" or not (found or step.kind == "counters"):
            continue
        effect = step.effect if step.effect != "none" else f"hindrance +{step.hindrance}"
        pixels = f"{found['x0']},{found['y0']}-{found['x1']},{found['y1']}" if found else None
        out.append((step.hex, found["what"] if found else "counters", effect, pixels))
    return out


@pytest.mark.parametrize("pair", [("4A1", "4Z10"), ("4Z10", "4A1"), ("4CC7", "4K3"), ("4P10", "4D9"), ("4FF7", "4Y7"),
                                  ("4K3", "4R6"), ("4L5", "4Z0")])
def test_the_depiction_view_marks_the_art_pixels_the_walk_judged(page, page_file, art_page_file, board_4, pair):
    """The shown depiction LOS draws the runs of art pixels that blocked it or added hindrance, where
    ``hexkernel los --depiction --explain`` puts them, and lists them in the LOS panel; the hex view
    draws none."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    counters = kernel.Counters.from_dict(board_4, ART_COUNTERS)
    ready = "return document.body.dataset.tables === '1'"
    runs = "return [...document.querySelectorAll('#layer-marks line.run')].map(e => [e.dataset.run, e.dataset.pixels])"
    page.get(art_page_file.as_uri())
    try:
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))
        a, b = pair
        set_mode(page, "fire")
        page.find_element(By.ID, "model-depiction").click()
        click(page, a)
        click(page, b, shift=True)
        result = kernel.los(board_4, a, b, counters=counters, model="depiction")
        want = judged_runs_of(result)
        if pair != ("4L5", "4Z0"):
            assert want, "a pair the art decides"
        else:   # the art decides nothing here (nothing drawn); the SMOKE and the vehicle add the hindrance
            assert result.visible and want and all(pixels is None for *_, pixels in want)
        assert [tuple(r) for r in page.execute_script(runs)] == [(f"{h} {what} {effect}", pixels)
                                                                 for h, what, effect, pixels in want if pixels]
        text = page.find_element(By.ID, "panel").text
        assert ("steps that decided this LOS" in text) == bool(want)
        for h, what, effect, pixels in want:
            line = f"  {h} {what} art, pixels {pixels}: {effect}" if pixels else f"  {h} counters (SMOKE, vehicles): {effect}"
            assert line in text.splitlines(), text
        if want:
            keep_screenshot(page, f"depiction-runs-{a}-{b}.png")
        page.find_element(By.ID, "model-hex").click()
        assert page.execute_script(runs) == []
    finally:
        page.get(page_file.as_uri())
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))


def test_the_depiction_view_lists_inherent_terrain_beside_a_hexside_run(page, page_file, tmp_path):
    """45C7 -> 45E7 runs along the hexside 45D6/45D7: the orchard counts +1 whatever its art (B.6). The panel
    lists that step as ``explain()`` names it, and the map draws no pixel run for it (it has none)."""
    import warnings

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    folder = VASL_BOARD_4.parent / "bd45"
    if not folder.is_dir():
        pytest.skip("VASL board 45 (../shared/vasl) not present")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        board = kernel.load(str(folder))
        path = tmp_path / "board45.html"
        kernel.map_page(board, path, max_allowance=1)
        result = kernel.los(board, "45C7", "45E7", model="depiction")
    [step] = [s for s in result.steps if s.hindrance and " art at level " not in s.kind]
    ready = "return document.body.dataset.tables === '1'"
    page.get(path.as_uri())
    try:
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))
        set_mode(page, "fire")
        page.find_element(By.ID, "model-depiction").click()
        click(page, "45C7")
        click(page, "45E7", shift=True)
        text = page.find_element(By.ID, "panel").text
        assert f"  {step.hex} {step.kind}: hindrance +1" in text.splitlines(), text
        assert "counters (SMOKE, vehicles)" not in text
        assert page.execute_script("return document.querySelectorAll('#layer-marks line.run').length") == 0
        keep_screenshot(page, "depiction-hexside-run-45C7-45E7.png")
    finally:
        page.get(page_file.as_uri())
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))

