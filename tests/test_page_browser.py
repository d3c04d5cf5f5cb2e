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
from tests.browser_page import (  # noqa: F401 (fixtures)
    COUNTERS, MAX_ALLOWANCE, board, browser, click, counters, hover, overlay, page, page_file,
    set_allowance, set_mode,
)


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

    if isinstance(case, tuple):
        start, allowance = case
    else:
        start = random_hexes(board, case, 1)[0]
        allowance = int(np.random.default_rng(case).integers(1, MAX_ALLOWANCE + 1))
    set_mode(page, "move")
    click(page, start)
    set_allowance(page, allowance)
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

    drawn = page.find_elements(By.CSS_SELECTOR, '[data-counter="smoke"]')
    smoke = sorted(e.get_attribute("data-location") for e in drawn)
    vehicles = [e.get_attribute("data-hex") for e in page.find_elements(By.CSS_SELECTOR, '[data-counter="vehicle"]')]
    assert smoke == sorted(COUNTERS["smoke"]) and vehicles == COUNTERS["vehicles"]
    # SMOKE at an upper Location names it beside its disc, and only there
    levels = {e.get_attribute("data-location"): [t.text for t in e.find_elements(By.CSS_SELECTOR, ".smoke-level")]
              for e in drawn}
    assert levels == {"71I9": [], "72M6": [], "71P5h1": ["h1"]}
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


# ---- markers, layers, steps, paths and the depiction view --------------------------------------------------

def boxes(driver, selector):
    """[hex name, x0, y0, x1, y1] of the SVG elements a selector finds, in map units."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter(e => e.getBBox().width > 0).map(e => {"
        "const b = e.getBBox(); return [e.dataset.hex || e.dataset.badge || e.closest('[data-hex]')?.dataset.hex,"
        " b.x, b.y, b.x + b.width, b.y + b.height]; })", selector)


def overlapping(first, second):
    by_hex = {}
    for name, *box in second:
        by_hex.setdefault(name, []).append(box)
    return [(name, box, other) for name, *box in first for other in by_hex.get(name, [])
            if box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]]


def test_unit_vehicle_smoke_and_the_los_target_look_different(page, board):
    set_mode(page, "fire")
    click(page, "71I4")
    click(page, "71K9", shift=True)      # a hex with a unit counter: the target mark must not look like it
    look = page.execute_script(
        "const f = s => [...document.querySelectorAll(s)].map(e => getComputedStyle(e).fill);"
        "return {unit: f('[data-counter=unit] > rect:first-child'), vehicle: f('[data-counter=vehicle] > rect:first-child'),"
        " smoke: f('[data-counter=smoke] > circle'), building: f('rect[data-building]'),"
        " target: [...document.querySelectorAll('#target-mark > *')].map(e => e.tagName),"
        " targetStroke: getComputedStyle(document.querySelector('#target-mark > circle')).stroke};")
    assert len(look["unit"]) == 2 and len(look["vehicle"]) == 2 and len(look["smoke"]) == 3
    unit, vehicle, smoke = set(look["unit"]), set(look["vehicle"]), set(look["smoke"])
    assert len(unit) == len(vehicle) == len(smoke) == 1 and len(unit | vehicle | smoke) == 3
    assert not (unit | vehicle) & set(look["building"]), "a counter drawn in a building's colour"
    assert "rect" not in look["target"] and look["target"].count("line") == 4   # a reticle, not a square
    assert look["targetStroke"] not in unit | vehicle


@pytest.mark.parametrize("mode", ["fire", "move"])
def test_badges_counters_and_numbers_do_not_overlap(page, board, mode):
    """Level badges, SMOKE discs, unit and vehicle counters keep clear of the number written in their hex
    (in 71P5: a level-2 building, SMOKE, a unit and a vehicle)."""
    set_mode(page, mode)
    click(page, "71N5")
    values = boxes(page, "#layer-values text")
    assert "71P5" in {name for name, *_ in values} or mode == "fire"
    for selector in ("[data-badge]", "[data-counter=smoke] > circle", "[data-counter=unit] > rect:first-child",
                     "[data-counter=vehicle] > rect:first-child"):
        marks = boxes(page, selector)
        assert marks, selector
        assert not overlapping(marks, values), selector
    assert not overlapping(boxes(page, "[data-counter=smoke] > circle"), boxes(page, "[data-counter] > rect:first-child"))


def test_no_layer_of_one_view_stays_in_the_other(page, board):
    from selenium.webdriver.common.by import By

    def present(*ids):
        return [i for i in ids if page.find_elements(By.ID, i)]

    set_mode(page, "fire")
    click(page, "71I4")
    click(page, "71I9", shift=True)
    assert present("los-line", "target-mark", "blocking-mark") == ["los-line", "target-mark", "blocking-mark"]
    set_mode(page, "move")
    assert present("los-line", "target-mark", "blocking-mark") == []
    assert not page.find_elements(By.CSS_SELECTOR, "#layer-marks .los")
    assert not page.find_element(By.ID, "los-section").is_displayed()
    assert page.find_element(By.ID, "path-section").is_displayed()
    hover(page, "71I6")
    assert present("path-line") == ["path-line"]
    set_mode(page, "fire")
    assert present("path-line") == [] and not page.find_element(By.ID, "path-section").is_displayed()
    assert present("los-line", "target-mark") == ["los-line", "target-mark"]   # the LOS still selected, drawn anew
    assert page.execute_script("return document.querySelectorAll('#target-mark').length") == 1


def test_the_los_panel_names_blind_hexes_with_their_a64_arithmetic(page, board, counters):
    from selenium.webdriver.common.by import By

    from kernel.line_of_sight.report import blind_arithmetic

    set_mode(page, "fire")
    click(page, "71I4")
    click(page, "72M6", shift=True)
    text = page.find_element(By.ID, "panel").text
    result = kernel.los(board, "71I4", "72M6", counters=counters)
    blind = [s.hex for s in result.steps if s.effect == "blind"]
    assert len(blind) >= 2
    assert f"blind hexes (A6.4): {', '.join(blind)}" in text
    for name in blind:
        first, second = blind_arithmetic(board, result, name).split("\n")
        assert f"A6.4: {first}\n  {second}" in text
    rings = page.execute_script("return [...document.querySelectorAll('[data-blind]')].map(e => e.dataset.blind)")
    assert rings == blind


@pytest.mark.parametrize("seed", [8, 9])
def test_the_los_panel_lists_the_hindrance_steps(page, board, counters, seed):
    from selenium.webdriver.common.by import By

    viewer = random_hexes(board, seed, 1)[0]
    fire = kernel.field_of_fire(board, [viewer], counters=counters)
    hindered = np.flatnonzero(fire.visible & (fire.hindrance > 0))
    assert hindered.size, viewer
    target = board.names[int(np.random.default_rng(seed).choice(hindered))]
    set_mode(page, "fire")
    click(page, viewer)
    click(page, target, shift=True)
    text = page.find_element(By.ID, "panel").text
    steps = [s for s in kernel.los(board, viewer, target, counters=counters).steps if s.hindrance > 0]
    assert steps
    assert "hindrance steps: " + ", ".join(f"{s.hex} +{s.hindrance}" for s in steps) in text
    rings = page.execute_script("return [...document.querySelectorAll('[data-hindrance]')].map(e => e.dataset.hindrance)")
    assert rings == [s.hex for s in steps]


@pytest.mark.parametrize("case", [pytest.param(("71K5", "71N5", 4), id="golden-71K5-71N5"),
                                  pytest.param(("72M6", "72I4", MAX_ALLOWANCE), id="golden-72M6-72I4")]
                         + [pytest.param(s, id=f"seed{s}") for s in (10, 11)])
def test_the_movement_view_shows_the_path_to_the_hovered_or_clicked_hex(page, board, counters, case):
    from selenium.webdriver.common.by import By

    from tests.test_page import best_path_hexes

    if isinstance(case, tuple):
        start, target, allowance = case
    else:
        start, allowance = random_hexes(board, case, 1)[0], MAX_ALLOWANCE
        field = kernel.movement_field(board, start, allowance=allowance, counters=counters)
        far = np.flatnonzero((field.cost <= allowance) & (field.cost >= 2))
        target = board.names[int(np.random.default_rng(case).choice(far))]
    field = kernel.movement_field(board, start, allowance=allowance, counters=counters)
    want = " ".join(board.names[h] for h in best_path_hexes(field, board.index(target)))
    assert len(want.split()) >= 3
    set_mode(page, "move")
    click(page, start)
    set_allowance(page, allowance)
    hover(page, target)
    line = page.find_element(By.ID, "path-line")
    assert line.get_attribute("data-path") == want
    assert f"{start} -> {target} with {allowance} MF: {field.cost[board.index(target)]:g} MF" in \
        page.find_element(By.ID, "path-panel").text
    click(page, target, shift=True)   # pinned: hovering elsewhere keeps it
    hover(page, start)
    assert page.find_element(By.ID, "path-line").get_attribute("data-path") == want


COMMENT_OPENER = "a<!--<script>b"


def test_names_holding_a_comment_and_a_script_tag_leave_the_page_working(page, page_file, tmp_path):
    """A terrain, unit class, ruleset name or title holding '<!--<script>' left the page at "loading..."
    for ever: inside the page's <script>, '<!--' then '<script' made the parser read past '</script>'."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    quoted = json.dumps
    text = (kernel.data_dir() / "rulesets" / "asl.toml").read_text()
    for old, new in (('name = "asl"', f"name = {quoted('asl' + COMMENT_OPENER)}"),
                     ('title = "Advanced Squad Leader"', f"title = {quoted('title ' + COMMENT_OPENER)}"),
                     ('unit_classes = ["infantry",', f"unit_classes = [{quoted('unit ' + COMMENT_OPENER)}, \"infantry\","),
                     ("default_allowance = { infantry = 4,",
                      f"default_allowance = {{ {quoted('unit ' + COMMENT_OPENER)} = 4, infantry = 4,"),
                     ("[terrain.orchard]", f"[terrain.{quoted('orchard ' + COMMENT_OPENER)}]")):
        assert old in text
        text = text.replace(old, new)
    ruleset = tmp_path / "comment.toml"
    ruleset.write_text(text)
    board = kernel.random_board(str(ruleset), 10, 8, seed=1, terrain_density=1.0)
    path = tmp_path / "comment.html"
    kernel.map_page(board, path, max_allowance=2)
    ready = "return document.body.dataset.tables === '1'"
    page.get(path.as_uri())
    try:
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))
        assert f"orchard {COMMENT_OPENER}" in page.find_element(By.ID, "legend").text.splitlines()
        assert f"unit {COMMENT_OPENER}" in page.find_element(By.TAG_NAME, "body").get_attribute("innerHTML") \
            .replace("&lt;", "<").replace("&gt;", ">")
        # the page's own scripts only (the names hold no '<' any more: none can open or hide an element)
        assert page.execute_script("return document.scripts.length") == path.read_text().count("<script") == 2
    finally:
        page.get(page_file.as_uri())
        WebDriverWait(page, 60).until(lambda d: d.execute_script(ready))
