"""The interactive map page in a real browser: headless Chromium driven by Selenium.

The page is opened from disk (a ``file://`` URL, no server); the tests click
hexes as a user does and compare what the page shows with the Python API:
the highlighted field of fire with :func:`kernel.field_of_fire`, the LOS
panel with :meth:`kernel.LOSResult.explain`, the movement view with
:func:`kernel.movement_field`.  Outside CI they skip, with the reason, where
Chromium, chromedriver or selenium is missing; in CI (``CI`` set) they fail
instead, so they cannot silently stop running.
"""

from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest

import kernel

COUNTERS = {"smoke": {"71I9": 3, "72M6": 2}, "vehicles": ["71J9"], "units": []}
MAX_ALLOWANCE = 6


def _browser_or_reason():
    try:
        import selenium  # noqa: F401
    except ImportError:
        return None, "the Python package selenium is not installed (pip install -e '.[test]')"
    for program in ("chromium", "chromedriver"):
        if shutil.which(program) is None:
            return None, f"{program} is not on PATH (apt-get install chromium chromium-driver)"
    return True, ""


@pytest.fixture(scope="module")
def board():
    return kernel.load("default")


@pytest.fixture(scope="module")
def counters(board):
    return kernel.Counters.on(board, smoke=COUNTERS["smoke"], vehicles=COUNTERS["vehicles"])


@pytest.fixture(scope="module")
def page_file(board, tmp_path_factory):
    path = tmp_path_factory.mktemp("page") / "map.html"
    kernel.map_page(board, path, counters=kernel.Counters.from_dict(board, COUNTERS), max_allowance=MAX_ALLOWANCE)
    return path


@pytest.fixture(scope="module")
def browser():
    ok, reason = _browser_or_reason()
    if not ok:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests cannot run in CI: {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1600,1000", "--allow-file-access-from-files"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def page(browser, page_file):
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(page_file.as_uri())
    WebDriverWait(browser, 60).until(lambda d: d.execute_script("return document.body.dataset.tables === '1'"))
    return browser


def click(driver, name, *, shift=False):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    hexagon = driver.find_element(By.CSS_SELECTOR, f'polygon.hex[data-hex="{name}"]')
    actions = ActionChains(driver)
    if shift:
        actions.key_down(Keys.SHIFT).click(hexagon).key_up(Keys.SHIFT)
    else:
        actions.click(hexagon)
    actions.perform()


def set_mode(driver, mode):
    from selenium.webdriver.common.by import By

    driver.find_element(By.ID, f"mode-{mode}").click()


def overlay(driver):
    """What the page shows per hex: its state class and the number written in it (None where none)."""
    return driver.execute_script(
        "const s = [...document.querySelectorAll('#layer-overlay polygon')].map(e => e.dataset.state);"
        "const v = [...document.querySelectorAll('#layer-values text')].map(e => e.getAttribute('data-value'));"
        "const n = [...document.querySelectorAll('#layer-overlay polygon')].map(e => e.dataset.hex);"
        "return [s, v, n];")


def random_hexes(board, seed, count):
    rng = np.random.default_rng(seed)
    return [board.names[i] for i in rng.choice(len(board), count, replace=False)]


FIRE_CASES = [pytest.param(["71I4"], id="golden-71I4-hill"), pytest.param(["71J9"], id="golden-71J9-vehicle"),
              *[pytest.param(seed, id=f"seed{seed}") for seed in (1, 2)]]


@pytest.mark.parametrize("firers", FIRE_CASES)
def test_click_shows_the_field_of_fire(page, board, counters, firers):
    names = firers if isinstance(firers, list) else random_hexes(board, firers, 2)
    set_mode(page, "fire")
    for name in names:
        click(page, name)
        states, values, hexes = overlay(page)
        assert hexes == list(board.names)
        fire = kernel.field_of_fire(board, [name], counters=counters)
        want = np.where(~fire.visible, "blocked", np.where(fire.hindrance > 0, "hindered", "clear"))
        assert states == want.tolist(), name
        shown = [int(v) if v is not None else kernel.BLOCKED for v in values]
        assert shown == np.where(fire.visible, fire.hindrance, kernel.BLOCKED).tolist(), name


def test_upper_location_field_of_fire(page, board, counters):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    upper = np.flatnonzero(board.building_levels > 0)
    assert upper.size, "the default map has multi-level buildings"
    name = board.names[int(upper[0])]
    set_mode(page, "fire")
    click(page, name)
    Select(page.find_element(By.ID, "level")).select_by_value("1")
    states, values, _ = overlay(page)
    fire = kernel.field_of_fire(board, [name], levels=[1], counters=counters)
    ground = kernel.field_of_fire(board, [name], levels=[0], counters=counters)
    assert not np.array_equal(fire.visible, ground.visible), "level 1 must see differently from level 0"
    assert states == np.where(~fire.visible, "blocked", np.where(fire.hindrance > 0, "hindered", "clear")).tolist()


LOS_CASES = [("71I4", "72M6"), ("71I4", "71L5"), ("71I4", "71I9"), ("71P5", "71I4"), ("72M6", "71I4")]


@pytest.mark.parametrize("pair", [pytest.param(p, id=f"golden-{p[0]}-{p[1]}") for p in LOS_CASES]
                         + [pytest.param(s, id=f"seed{s}") for s in (3, 4, 5)])
def test_shift_click_shows_the_los(page, board, counters, pair):
    from selenium.webdriver.common.by import By

    a, b = pair if isinstance(pair, tuple) else random_hexes(board, pair, 2)
    set_mode(page, "fire")
    click(page, a)
    click(page, b, shift=True)
    text = page.find_element(By.ID, "panel").text
    result = kernel.los(board, a, b, counters=counters)
    assert text.splitlines()[0] == result.explain().splitlines()[0]
    assert f"range {board.distance(a, b)}" in text
    if result.blocked_at >= 0:
        assert f"blocking hex {result.blocked_at_name}: ground level" in text
        assert page.find_elements(By.ID, "blocking-mark")
    if result.reason_name == "blind hex":   # the A6.4 arithmetic, as los --explain writes it
        from kernel.line_of_sight.report import blind_arithmetic

        first, second = blind_arithmetic(board, result, result.blocked_at_name).split("\n")
        assert f"A6.4: {first}\n  {second}" in text


def test_some_golden_los_is_blocked_and_some_clear(board, counters):
    results = [kernel.los(board, a, b, counters=counters) for a, b in LOS_CASES]
    assert any(r.visible for r in results) and any(not r.visible for r in results)
    assert any(r.reason_name == "blind hex" for r in results)


@pytest.mark.parametrize("case", [pytest.param(("71I4", 4), id="golden-71I4-4MF"),
                                  pytest.param(("72M6", 2), id="golden-72M6-2MF"),
                                  pytest.param(("71J5", MAX_ALLOWANCE), id="golden-71J5-max")]
                         + [pytest.param(s, id=f"seed{s}") for s in (6, 7)])
def test_movement_view_with_the_slider(page, board, case, counters):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    if isinstance(case, tuple):
        start, allowance = case
    else:
        start = random_hexes(board, case, 1)[0]
        allowance = int(np.random.default_rng(case).integers(1, MAX_ALLOWANCE + 1))
    set_mode(page, "move")
    click(page, start)
    slider = page.find_element(By.ID, "allowance")
    slider.send_keys(Keys.HOME)
    for _ in range(allowance - 1):
        slider.send_keys(Keys.RIGHT)
    assert page.find_element(By.ID, "allowance-value").text == str(allowance)
    states, values, _ = overlay(page)
    field = kernel.movement_field(board, start, allowance=allowance, counters=counters)
    reach = np.isfinite(field.cost) & (field.cost <= allowance)
    assert states == np.where(reach, "reach", "beyond").tolist()
    assert [float(v) if v is not None else None for v in values] == \
        [float(c) if r else None for c, r in zip(field.cost, reach)]


def test_the_slider_changes_the_movement_view(page, board):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    set_mode(page, "move")
    click(page, "71I4")
    slider = page.find_element(By.ID, "allowance")
    slider.send_keys(Keys.HOME)
    one = overlay(page)[0].count("reach")
    slider.send_keys(Keys.END)
    assert overlay(page)[0].count("reach") > one


def test_counters_are_drawn(page, board):
    from selenium.webdriver.common.by import By

    smoke = sorted(e.get_attribute("data-hex") for e in page.find_elements(By.CSS_SELECTOR, '[data-counter="smoke"]'))
    vehicles = [e.get_attribute("data-hex") for e in page.find_elements(By.CSS_SELECTOR, '[data-counter="vehicle"]')]
    assert smoke == sorted(COUNTERS["smoke"]) and vehicles == COUNTERS["vehicles"]
    legend = page.find_element(By.ID, "legend").text
    assert "SMOKE counter" in legend and "vehicle" in legend and "MF" in legend


def test_screenshot_shows_the_map(page, board, tmp_path):
    from matplotlib.image import imread

    set_mode(page, "fire")
    click(page, "71I4")
    path = tmp_path / "page.png"
    assert page.save_screenshot(str(path))
    if os.environ.get("HEXKERNEL_KEEP_SCREENSHOT"):
        shutil.copy(path, os.environ["HEXKERNEL_KEEP_SCREENSHOT"])
    pixels = imread(path)[..., :3]
    box = page.execute_script("const r = document.getElementById('map').getBoundingClientRect();"
                              "return [r.left, r.top, r.width, r.height];")
    scale = pixels.shape[1] / page.execute_script("return window.innerWidth")
    left, top, width, height = (int(v * scale) for v in box)
    region = pixels[top:top + height, left:left + width]
    not_white = (region < 0.95).any(axis=-1).mean()
    colours = len(np.unique((region * 15).astype(int).reshape(-1, 3), axis=0))
    assert not_white > 0.5, f"only {not_white:.0%} of the map area is drawn"
    assert colours > 30, f"only {colours} colours in the map area"
    drawn = page.execute_script("return [...document.querySelectorAll('polygon.hex')]"
                                ".filter(e => e.getBBox().width > 0).length")
    assert drawn == len(board)


def test_the_map_opens_with_its_terrain_untinted(page, page_file, board):
    """Before any click no overlay is painted (an overlay without a state once defaulted to SVG's black fill,
    hiding the whole map until the first click), and the hexes show their terrain colours."""
    from selenium.webdriver.support.ui import WebDriverWait

    page.get(page_file.as_uri())  # a fresh load: earlier tests clicked
    WebDriverWait(page, 60).until(lambda d: d.execute_script("return document.body.dataset.tables === '1'"))
    fills = page.execute_script("return [...document.querySelectorAll('polygon.ov')]"
                                ".map(e => getComputedStyle(e).fill)")
    assert len(fills) == len(board) and set(fills) == {"none"}
    hex_fills = page.execute_script("return new Set([...document.querySelectorAll('polygon.hex')]"
                                    ".map(e => getComputedStyle(e).fill)).size")
    assert hex_fills >= 5


def test_page_reports_its_load_time(page):
    load_ms = page.execute_script("return window.hexkernelPage.loadMs")
    assert isinstance(load_ms, (int, float)) and load_ms > 0


@pytest.mark.parametrize("name", ["vv-village", "ccn-ridge"])
def test_other_rulesets_field_of_fire_and_los(page, page_file, tmp_path, name):
    """Valor & Victory (hindrance may differ by direction) and CCN (pointy-topped, drawn transposed)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    board = kernel.load(name)
    path = tmp_path / f"{name}.html"
    kernel.map_page(board, path, max_allowance=2)
    ready = "return document.body.dataset.tables === '1'"
    page.get(path.as_uri())
    try:
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))
        a, b = random_hexes(board, 31, 2)
        click(page, a)
        states, values, _ = overlay(page)
        fire = kernel.field_of_fire(board, [a])
        assert states == np.where(~fire.visible, "blocked", np.where(fire.hindrance > 0, "hindered", "clear")).tolist()
        click(page, b, shift=True)
        panel = page.find_element(By.ID, "panel").text
        assert panel.splitlines()[0] == kernel.los(board, a, b).explain().splitlines()[0]
    finally:   # the other tests share this browser on the default page
        page.get(page_file.as_uri())
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))


HOSTILE = '<img src=x onerror="document.title=&quot;pwned&quot;"><b style="color:red">bold</b>'


def test_hostile_terrain_names_are_shown_as_text_not_run(page, page_file, tmp_path):
    """A ruleset terrain named like HTML (an <img> whose onerror runs script): the legend shows the name as
    text; no element is created from it and the script does not run."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    text = (kernel.data_dir() / "rulesets" / "asl.toml").read_text()
    ruleset = tmp_path / "hostile.toml"
    ruleset.write_text(text.replace("[terrain.orchard]", "[terrain." + json.dumps(HOSTILE) + "]"))
    board = kernel.random_board(str(ruleset), 10, 8, seed=1, terrain_density=1.0)
    path = tmp_path / "hostile.html"
    kernel.map_page(board, path, max_allowance=2)
    ready = "return document.body.dataset.tables === '1'"
    page.get(path.as_uri())
    try:
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))
        legend = page.find_element(By.ID, "legend")
        assert HOSTILE in legend.text.splitlines()
        assert page.execute_script("return document.querySelectorAll('#legend img, #legend b').length") == 0
        assert page.title != "pwned"
    finally:
        page.get(page_file.as_uri())
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))
