"""The map page of a saved game (``hexkernel page --map game.vsav``) in a real browser (headless Chromium, Selenium):
its units listed, a click on one showing the field of fire from its Location, as :func:`kernel.field_of_fire` gives
it.

Skips where Chromium, chromedriver or selenium is missing, fails instead in CI (``CI`` set).
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import kernel
from kernel.importers.vasl.save_writer import SaveBoard, SavePiece, write_saved_game
from tests.browser_page import browser  # noqa: F401 (a fixture)
from tests.vasl_saves import map_pixel, write_boards


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = write_boards(tmp_path_factory.mktemp("vasl") / "boards", names=("05",))
    level = SavePiece("Building Level 2", *map_pixel("C3"), "", counter_type="common")
    leader = SavePiece("8-1", *map_pixel("C3"), "ge", piece_id="11")
    pieces = [SavePiece("4-6-7 1sq", *map_pixel("I9"), "ge", piece_id="12"), level, leader,
              SavePiece("6-2-8 Esq", *map_pixel("W4"), "ru", piece_id="21"),
              SavePiece("White +3 Smoke", *map_pixel("K6"), "", counter_type="common", piece_id="31")]
    save = write_saved_game(tmp_path_factory.mktemp("save") / "game.vsav", [SaveBoard(0, 0, "05", "1.0")], pieces,
                            [[level, leader]])
    return save, folder


@pytest.fixture(scope="module")
def game(files):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        return kernel.read_saved_game(*files)


@pytest.fixture(scope="module")
def page(browser, files, tmp_path_factory):
    from selenium.webdriver.support.ui import WebDriverWait

    from kernel.cli import main

    save, folder = files
    path = tmp_path_factory.mktemp("page") / "game.html"   # the page as a user makes it: hexkernel page
    assert main(["page", "--map", str(save), "--vasl-boards", str(folder), "--out", str(path),
                 "--max-allowance", "2"]) == 0
    browser.get(path.as_uri())
    WebDriverWait(browser, 60).until(lambda d: d.execute_script("return document.body.dataset.tables === '1'"))
    return browser


def test_the_units_are_listed_and_their_counters_named(page):
    from selenium.webdriver.common.by import By

    buttons = [b.get_attribute("textContent") for b in page.find_elements(By.CSS_SELECTOR, "#unit-list button.unit")]
    assert buttons == ["5I9      4-6-7 1sq (axis)", "5C3h2    8-1 (axis)", "5W4      6-2-8 Esq (allies)"]
    lines = [d.get_attribute("textContent") for d in page.find_elements(By.CSS_SELECTOR, "#counter-list .counter-line")]
    assert "5K6      White +3 Smoke (smoke)" in lines
    titles = page.execute_script("return [...document.querySelectorAll('#layer-counters g.cnt title')]"
                                 ".map(t => t.textContent)")
    assert "8-1 (axis) 5C3h2\nBuilding Level 2 (location counter) 5C3" in titles   # a hex's pieces, one a line


def test_a_click_on_a_unit_shows_its_field_of_fire(page, game):
    from selenium.webdriver.common.by import By

    page.find_element(By.CSS_SELECTOR, '#unit-list button[data-unit="1"]').click()
    status = page.find_element(By.ID, "status").text
    # a map of VASL boards: the depiction model first, as every call on it without model=
    assert status.startswith("8-1 (axis) at 5C3h2: field of fire (depiction model: read off the board's art) "
                             "from 5C3h2")
    states = page.execute_script("return [...document.querySelectorAll('#layer-overlay polygon')]"
                                 ".map(e => e.dataset.state)")
    fire = kernel.field_of_fire(game.board, "5C3h2", counters=game.state)
    expected = np.where(~fire.visible, "blocked", np.where(fire.hindrance > 0, "hindered", "clear"))
    assert states == expected.tolist()
    assert page.find_element(By.ID, "level").get_attribute("value") == "2"
    if os.environ.get("HEXKERNEL_PAGE_SCREENSHOT"):
        page.save_screenshot(os.environ["HEXKERNEL_PAGE_SCREENSHOT"])
