"""The interactive map page without a browser: its embedded tables, its parameters and ``hexkernel page``.

The embedded tables are decoded here as the page's script decodes them
(base64, gzip, little-endian) and compared with the API; the browser tests
(``test_page_browser.py``) check what the page then shows.
"""

from __future__ import annotations

import base64
import gzip
import json
import subprocess
import sys

import numpy as np
import pytest

import kernel
from kernel.cli import main
from kernel.render.page_data import NO_BLOCKING_HEX, NOT_REACHABLE, page_data


def unpack(text, dtype, shape=None):
    array = np.frombuffer(gzip.decompress(base64.b64decode(text)), dtype=np.dtype(dtype).newbyteorder("<"))
    return array.reshape(shape) if shape else array


def embedded(path):
    text = path.read_text(encoding="utf-8")
    start = text.index('<script id="hk-data" type="application/json">') + len('<script id="hk-data" type="application/json">')
    return json.loads(text[start:text.index("</script>", start)])


@pytest.fixture(scope="module")
def small():
    return kernel.load("71")


@pytest.fixture(scope="module")
def data(small):
    return page_data(small, max_allowance=3)


def test_field_of_fire_tables_are_the_los_matrix(small, data):
    n = len(small)
    np.testing.assert_array_equal(unpack(data["los"]["matrix"], np.int8, (n, n)), kernel.los_matrix(small))
    upper = data["los"]["upper"]
    assert upper, "board 71 has upper building levels"
    for entry in upper:
        fire = kernel.field_of_fire(small, [entry["hex"]], levels=[entry["level"]])
        row = unpack(entry["row"], np.int8)
        np.testing.assert_array_equal(row, np.where(fire.visible, fire.hindrance, kernel.BLOCKED))


@pytest.mark.parametrize("seed", [11, 12])
def test_pair_tables_match_los(small, data, seed):
    n = len(small)
    blocked_at = unpack(data["los"]["blocked_at"], np.uint16, (n, n))
    detail = unpack(data["los"]["detail"], np.uint8, (n, n))
    cover = unpack(data["los"]["cover"], np.int8, (n, n))
    rng = np.random.default_rng(seed)
    for a, b in rng.integers(0, n, size=(40, 2)):
        result = kernel.los(small, int(a), int(b))
        assert blocked_at[a, b] == (result.blocked_at if result.blocked_at >= 0 else NO_BLOCKING_HEX)
        assert data["los"]["reasons"][detail[a, b] & 7] == result.reason_name
        assert bool(detail[a, b] & 8) == result.continuous_slope
        assert bool(detail[a, b] & 16) == result.blind
        assert cover[a, b] == result.cover


def test_movement_tables_are_per_allowance(small, data):
    n = len(small)
    assert data["move"]["max"] == 3 and len(data["move"]["tables"]) == 3
    start = small.index("71I4")
    for allowance, table in enumerate(data["move"]["tables"], start=1):
        half = unpack(table, np.uint8, (n, n))[start]
        cost = kernel.movement_field(small, "71I4", allowance=allowance).cost
        reach = cost <= allowance
        np.testing.assert_array_equal(half == NOT_REACHABLE, ~reach)
        np.testing.assert_array_equal(half[reach] / 2, cost[reach])


def test_counters_change_the_tables_and_are_drawn(small, data):
    with_counters = page_data(small, counters=kernel.Counters.from_dict(small, {"smoke": {"71I9": 3}, "vehicles": ["71J9"]}),
                              max_allowance=3)
    assert with_counters["counters"] == {"smoke": [[small.index("71I9"), 3]], "vehicles": [small.index("71J9")],
                                         "units": []}
    assert with_counters["los"]["matrix"] != data["los"]["matrix"]
    assert with_counters["move"]["tables"] != data["move"]["tables"]   # SMOKE adds to the movement cost


def test_unit_changes_the_movement_tables(small, data):
    other = "truck"
    assert page_data(small, unit=other, max_allowance=3)["move"]["tables"] != data["move"]["tables"]


def test_map_drawing_has_every_hex(small, data):
    drawing = data["map"]
    assert drawing["names"] == list(small.names) and len(drawing["x"]) == len(small)
    assert any(entry["label"] == "woods" for entry in drawing["legend"])


@pytest.mark.parametrize(("options", "message"), [
    ({"max_allowance": 0}, r"max_allowance is 0: expected an integer 1\.\.127"),
    ({"max_allowance": 200}, r"max_allowance is 200"),
    ({"unit": "tank"}, r"unit class 'tank' is not in ruleset 'asl'"),
])
def test_page_data_rejects_bad_options(small, options, message):
    with pytest.raises(ValueError, match=message):
        page_data(small, **options)


def test_title_changes_the_page(small, tmp_path):
    text = kernel.map_page_html(small, max_allowance=1, title="Hill <71>")
    assert "<title>Hill &lt;71&gt;</title>" in text


def test_page_command_writes_the_page(tmp_path, capsys):
    counters = tmp_path / "counters.json"
    counters.write_text('{"smoke": {"71I9": 3}, "vehicles": ["71J9"]}')
    out = tmp_path / "map.html"
    assert main(["page", "--map", "71", "--out", str(out), "--counters", str(counters), "--max-allowance", "2"]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    data = embedded(out)
    assert data["n"] == 346 and data["move"]["max"] == 2 and len(data["counters"]["smoke"]) == 1
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.parametrize(("args", "message"), [
    (["--out", "map.txt"], "--out map.txt: expected a file name ending in .html"),
    (["--out", "missing/map.html"], "folder 'missing' does not exist"),
    (["--out", "map.html", "--max-allowance", "500"], "--max-allowance 500: expected 1..127 MF"),
    (["--out", "map.html", "--unit", "tank"], "unknown unit class 'tank'"),
    (["--out", "map.html", "--counters", "nothing.json"], "counters file nothing.json"),
])
def test_page_command_mistakes_exit_2_with_one_line(tmp_path, args, message):
    process = subprocess.run([sys.executable, "-m", "kernel.cli", "page", "--map", "71", *args], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300)
    assert process.returncode == 2, process.stderr
    lines = process.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in process.stderr
    assert not (tmp_path / "map.html").exists()
