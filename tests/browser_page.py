"""The headless Chromium of the page's browser tests: the browser, the default map's page, and how a
user acts on it (click, shift-click, hover, the slider, the mode buttons), shared by ``test_page_browser*.py``.

Import the fixtures into a test module (``from tests.browser_page import page, ...``): each module gets
its own browser.  Outside CI the tests skip, with the reason, where Chromium, chromedriver or selenium
is missing; in CI (``CI`` set) they fail instead, so they cannot silently stop running.
"""

from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest

import kernel

COUNTERS = {"smoke": {"71I9": 3, "72M6": 2, "71P5h1": 1}, "vehicles": ["71J9", "71P5"], "units": ["71K9", "71P5"]}
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
    return kernel.Counters.from_dict(board, COUNTERS)


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


def set_allowance(driver, allowance):
    """Move the movement allowance slider to ``allowance`` MF with the keyboard, as a user would."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    slider = driver.find_element(By.ID, "allowance")
    slider.send_keys(Keys.HOME)
    for _ in range(allowance - 1):
        slider.send_keys(Keys.RIGHT)


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



def hover(driver, name):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, f'polygon.hex[data-hex="{name}"]')).perform()



def keep_screenshot(driver, name):
    folder = os.environ.get("HEXKERNEL_KEEP_SCREENSHOTS")
    if folder:
        driver.save_screenshot(os.path.join(folder, name))

