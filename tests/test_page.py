"""The interactive map page without a browser: its embedded tables, its parameters and ``hexkernel page``.

The embedded tables are decoded here as the page's script decodes them
(base64, gzip, little-endian) and compared with the API; the browser tests
(``test_page_browser*.py``) check what the page then shows.
"""

from __future__ import annotations

import base64
import gzip
import io
import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import kernel
from kernel.cli import main
from kernel.render.page_data import NO_BLOCKING_HEX, NOT_REACHABLE, page_data
from kernel.render.page_paths import FULL_PATH
from tests.shared_data import vasl_folder


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
    assert with_counters["counters"] == {"smoke": [[small.index("71I9"), 3, 0]], "vehicles": [small.index("71J9")],
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


# ---- what the page adds for analysts: steps, paths, the depiction view ------------------------------------

def best_path_hexes(field, hex_index):
    """The hexes of the cheapest path to a hex's cheapest state (what the page's numbers give), a hex once."""
    state, hexes = field.best_state(hex_index), []
    states = [state]
    while field.predecessor[states[-1]] >= 0:
        states.append(int(field.predecessor[states[-1]]))
    for s in reversed(states):
        name = field.state_name(s)
        h = field.board.index(name.split("-")[0]) if "-" in name else field.board.location(name)[0]
        if not hexes or hexes[-1] != h:
            hexes.append(h)
    return hexes


def chased_path(data, n, start, target, allowance):
    """The page script's pathTo, in Python: the pointer tree of the largest allowance, full paths where listed."""
    paths = data["paths"]
    parent = unpack(paths["parent"], np.uint8, (n, n))
    neighbours = unpack(paths["neighbours"], np.int16, (n, 6))
    keys = unpack(paths["full_keys"], np.uint32)
    lengths = unpack(paths["full_lengths"], np.uint16)
    flat = unpack(paths["full_hexes"], np.uint16)
    full = {int(k): flat[int(lengths[:i].sum()):int(lengths[:i + 1].sum())].tolist() for i, k in enumerate(keys)}
    tables = [unpack(t, np.uint8, (n, n)) for t in data["move"]["tables"]]
    if tables[allowance - 1][start, target] == NOT_REACHABLE:
        return None
    if tables[allowance - 1][start, target] != tables[-1][start, target]:
        return [start, target]
    back = [target]
    while back[-1] != start:
        d = int(parent[start, back[-1]])
        if d == FULL_PATH:
            return full[start * n + back[-1]] + back[-2::-1]
        back.append(int(neighbours[back[-1], d]))
    return back[::-1]


@pytest.mark.parametrize("start", ["71I4", "71P5", "71A1"])
def test_path_tree_gives_the_cheapest_paths(small, data, start):
    n, s = len(small), small.index(start)
    field = kernel.movement_field(small, start, allowance=data["move"]["max"])
    reached = np.flatnonzero(field.cost <= data["move"]["max"])
    assert reached.size > 5
    listed = unpack(data["paths"]["parent"], np.uint8, (n, n))[s]
    assert (listed[reached[reached != s]] != 255).all() and (listed[field.cost > data["move"]["max"]] == 255).all()
    for t in reached.tolist():
        assert chased_path(data, n, s, t, data["move"]["max"]) == best_path_hexes(field, t), small.names[t]


@pytest.mark.parametrize("allowance", [1, 2])
def test_paths_of_a_smaller_allowance_cost_what_the_page_writes(small, data, allowance):
    """The tree is the largest allowance's; under a smaller one every drawn path is a chain of neighbours
    from the start whose last hex costs what movement_field gives for that allowance."""
    n = len(small)
    for start in ["71I4", "71K9"]:
        s = small.index(start)
        field = kernel.movement_field(small, start, allowance=allowance)
        for t in np.flatnonzero(field.cost <= allowance).tolist():
            path = chased_path(data, n, s, t, allowance)
            assert path[0] == s and path[-1] == t
            assert all(b in small.neighbours[a] for a, b in zip(path, path[1:])), (start, small.names[t])
            if len(path) > 2:   # more than one step: the same path as the allowance's own search
                assert path == best_path_hexes(field, t), (start, small.names[t])


def test_steps_are_the_recorded_walk(small, data):
    from kernel.render.page_steps import BLIND_STEP

    n = len(small)
    steps = data["los"]["steps"]
    counts = unpack(steps["counts"], np.uint8, (n, n)).ravel()
    hexes, values = unpack(steps["hexes"], np.uint16), unpack(steps["values"], np.int8)
    starts = np.concatenate([[0], np.cumsum(counts.astype(np.int64))])
    matrix = kernel.los_matrix(small)
    rng = np.random.default_rng(3)
    hindered = np.argwhere(matrix > 0)
    blind = [(a, b) for a, b in np.argwhere(matrix < 0)[rng.choice((matrix < 0).sum(), 3000, replace=False)]
             if kernel.los(small, int(a), int(b)).reason_name == "blind hex"]
    assert len(hindered) > 100 and len(blind) > 10
    for a, b in [*hindered[rng.choice(len(hindered), 60, replace=False)], *blind[:40]]:
        result = kernel.los(small, int(a), int(b))
        k = a * n + b
        got = list(zip([small.names[h] for h in hexes[starts[k]:starts[k + 1]]], values[starts[k]:starts[k + 1]].tolist()))
        if result.visible:
            want = [(s.hex, s.hindrance) for s in result.steps if s.hindrance > 0]
        else:
            want = [(s.hex, BLIND_STEP) for s in result.steps if s.effect == "blind"]
        assert got == want and want, (small.names[a], small.names[b])
    assert counts[(matrix == 0).ravel()].sum() == 0   # clear pairs: nothing recorded


def per_pair_steps(board, counters, visible_hindered, blind):
    """The page's steps as they were first recorded: one recorded_kernel call per pair, filtered in Python."""
    from kernel.line_of_sight._hex.queries import recorded_kernel
    from kernel.line_of_sight.counters import counter_tables, query_tables
    from kernel.render.page_steps import BLIND_STEP

    n = len(board)
    _, _, _, no_counters, arguments = query_tables(board, 0)
    on_map = no_counters if counters is None else counter_tables(board, counters, bulk=False)
    counts, hexes, values = np.zeros(n * n, np.uint8), [], []
    for key in np.flatnonzero((visible_hindered | blind).ravel()).tolist():
        a, b = divmod(key, n)
        records = recorded_kernel(a, 0, b, 0, *arguments, *on_map)[6].tolist()
        if visible_hindered[a, b]:
            kept = [(h, min(drm, 127)) for h, _, _, _, drm in records if drm > 0]
        else:
            kept = [(h, BLIND_STEP) for h, _, effect, _, _ in records if effect == 1]
        kept = kept[:255]
        hexes += [h for h, _ in kept]
        values += [v for _, v in kept]
        counts[key] = len(kept)
    return counts.reshape(n, n), np.array(hexes, np.uint16), np.array(values, np.int8)


@pytest.mark.parametrize("with_counters", [False, True])
def test_steps_in_one_kernel_call_are_those_of_one_call_per_pair(small, with_counters):
    """los_steps walks all its pairs in one kernel call: the same entries, in the same order, as the recorded
    walk of each pair on its own (a sample of hindered and blind pairs, with and without SMOKE and units)."""
    from kernel.render.page_steps import los_steps

    n = len(small)
    counters = kernel.Counters.on(small, smoke={"71I9": 3, "71N5": 2}, units=["71K5"]) if with_counters else None
    matrix = kernel.los_matrix(small, counters=counters)
    rng = np.random.default_rng(5)
    sample = rng.random((n, n)) < 0.03
    hindered = (matrix > 0) & sample
    blind = (matrix < 0) & sample & ~hindered
    assert hindered.sum() > 50 and blind.sum() > 50
    got = los_steps(small, counters, hindered, blind)
    want = per_pair_steps(small, counters, hindered, blind)
    assert got["values"].size > 100 and (got["values"] > 0).any() and (got["values"] < 0).any()
    for name, expected in zip(("counts", "hexes", "values"), want):
        assert got[name].dtype == expected.dtype
        np.testing.assert_array_equal(got[name], expected, err_msg=name)


def test_blocked_hindrance_kept_as_one_triangle_only_where_symmetric(small):
    counters = kernel.Counters.from_dict(small, {"smoke": {"71I9": 3}})
    n = len(small)
    for options, symmetric in [({}, True), ({"counters": counters}, None)]:
        tables = page_data(small, max_allowance=1, **options)["los"]
        stored = unpack(tables["blocked_hindrance"], np.int8, (n, n))
        result = kernel.los_pairs(small, np.arange(n), np.arange(n), product=True, **options)
        full = np.where(result.visible, 0, np.minimum(result.hindrance, 127)).reshape(n, n)
        if tables["blocked_hindrance_symmetric"]:
            assert np.array_equal(full, full.T)
            np.testing.assert_array_equal(stored, np.triu(full))
        else:
            np.testing.assert_array_equal(stored, full)
        if symmetric is not None:
            assert tables["blocked_hindrance_symmetric"] == symmetric


def test_the_page_fills_the_reports_own_a64_templates(data):
    from kernel.line_of_sight import report

    assert data["blind_text"]["OBSTACLE_BLIND_FORMULA"] == report.OBSTACLE_BLIND_FORMULA
    assert data["blind_text"]["CREST_BLIND_FORMULA"] == report.CREST_BLIND_FORMULA
    assert set(data["blind_text"]) == {"BLIND_ENDS_TEXT", "OBSTACLE_BLIND_FORMULA", "CREST_BLIND_FORMULA",
                                       "BLIND_VERDICT", "NOT_BLIND_VERDICT"}


def test_a_map_without_art_has_no_depiction_view(data):
    assert data["art"] is None and "los_depiction" not in data


VASL = vasl_folder()


@pytest.fixture(scope="module")
def board_4():
    if not (VASL / "bd04").is_dir():
        pytest.skip("VASL board data (../shared/vasl) not present")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return kernel.load(str(VASL / "bd04"))


def test_depiction_tables_on_a_board_with_art(board_4):
    n = len(board_4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = page_data(board_4, max_allowance=2)
        want = kernel.los_matrix(board_4, model="depiction")
        pairs = kernel.los_pairs(board_4, np.arange(n), np.arange(n), product=True, model="depiction")
    depiction, hex_model = data["los_depiction"], data["los"]
    assert depiction["model"] == "depiction" and hex_model["model"] == "hex" and "steps" not in depiction
    np.testing.assert_array_equal(unpack(depiction["matrix"], np.int8, (n, n)), want)
    assert not np.array_equal(want, kernel.los_matrix(board_4, model="hex"))   # the model changes the tables
    detail = unpack(depiction["detail"], np.uint8, (n, n)).ravel()
    np.testing.assert_array_equal(detail & 7, pairs.reason.ravel())
    blocked_at = unpack(depiction["blocked_at"], np.uint16, (n, n)).ravel()
    np.testing.assert_array_equal(blocked_at, np.where(pairs.blocked_at >= 0, pairs.blocked_at, NO_BLOCKING_HEX).ravel())


def test_the_art_background_is_the_boards_art_in_terrain_colours(board_4):
    from matplotlib.image import imread

    from kernel._dtypes import LEVEL_BIAS
    from kernel.render.art_layer import art_colour, art_level_colour
    from kernel.render.page_art import art_background

    background = art_background(board_4)
    assert background["image"].startswith("data:image/png;base64,")
    legend = {e["label"]: e["colour"] for e in background["legend"]}
    assert legend["woods (art)"] == art_colour("woods") and legend["open ground (art)"] == art_level_colour(0)
    pixels = imread(io.BytesIO(base64.b64decode(background["image"].split(",", 1)[1])), format="png")
    art = kernel.board_art(board_4)
    assert pixels.shape[:2] == art.pixels.shape == (background["height"], background["width"])
    rs = board_4.ruleset
    for name in ("woods", "grain", "wooden-building"):
        bit = 1 << rs.terrain_names.index(name)
        only = np.flatnonzero(art.class_terrain == bit)   # classes holding this terrain alone
        assert only.size, name
        y, x = np.argwhere(np.isin(art.pixels >> 8, only))[0]
        rgb = tuple(int(round(v * 255)) for v in pixels[y, x, :3])
        want = art_colour(name).lstrip("#")   # the pictures' colour of the art
        assert rgb == tuple(int(want[i:i + 2], 16) for i in (0, 2, 4)), name
    open_ground = np.argwhere((art.pixels >> 8) == 0)[0]
    level = int(art.pixels[tuple(open_ground)] & 0xFF) - LEVEL_BIAS
    want = art_level_colour(level).lstrip("#")
    assert tuple(int(round(v * 255)) for v in pixels[tuple(open_ground)][:3]) == tuple(int(want[i:i + 2], 16) for i in (0, 2, 4))


VASL_BOARD_4 = vasl_folder() / "bd04"


@pytest.mark.skipif(not VASL_BOARD_4.is_dir(), reason="needs the VASL boards beside the repository (../shared)")
def test_judged_pixel_runs_are_those_los_explains():
    """The depiction tables' runs of art pixels, for a sample of pairs both ways, are the steps with an effect
    that ``kernel.los(..., model="depiction")`` records, in its order; pairs the art does not decide hold none."""
    from kernel.render.los_trace import _RUN
    from kernel.line_of_sight.depiction import HEXSIDE_RUN_STEP
    from kernel.render.page_steps import COUNTERS_CLASS, HEXSIDE_RUN_CLASS

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        board = kernel.load(str(VASL_BOARD_4))
    counters = kernel.Counters.from_dict(board, {"smoke": {"4M5": 2}, "vehicles": ["4P4"]})
    data = page_data(board, counters=counters, max_allowance=1)
    runs = data["los_depiction"]["runs"]
    assert "runs" not in data["los"] and "steps" not in data["los_depiction"]
    n = len(board)
    counts = unpack(runs["counts"], np.uint8, (n, n)).ravel()
    starts = np.concatenate([[0], np.cumsum(counts.astype(np.int64))])
    hexes, classes = unpack(runs["hexes"], np.uint16), unpack(runs["classes"], np.uint8)
    pixels, values = unpack(runs["pixels"], np.uint16).reshape(-1, 4), unpack(runs["values"], np.int8)
    assert runs["pixel_bytes"] == 2 and counts.reshape(n, n)[np.tril_indices(n)].sum() == 0
    matrix = unpack(data["los_depiction"]["matrix"], np.int8, (n, n))
    rng = np.random.default_rng(7)
    decided = counted_counters = 0
    for a, b in rng.choice(n, (150, 2)):
        if a == b:
            continue
        result = kernel.los(board, int(a), int(b), counters=counters, model="depiction")
        k = min(a, b) * n + max(a, b)
        got = [(board.names[hexes[e]], "counters" if classes[e] == COUNTERS_CLASS else (
                    runs["hexside_run_name"] if classes[e] == HEXSIDE_RUN_CLASS else runs["class_names"][classes[e]]),
                "blocks" if values[e] == -1 else ("blind" if values[e] == -2 else f"hindrance +{values[e]}"),
                tuple(pixels[e].tolist())) for e in range(starts[k], starts[k + 1])]
        want = []
        for s in result.steps:
            found = _RUN.fullmatch(s.kind)
            if s.effect_text != "no effect" and (found or s.kind in ("counters", HEXSIDE_RUN_STEP)):
                box = tuple(int(found[c]) for c in ("x0", "y0", "x1", "y1")) if found else (0, 0, 0, 0)
                want.append((s.hex, found["what"] if found else s.kind,
                             s.effect if s.effect != "none" else f"hindrance +{s.hindrance}", box))
        assert got == want, (board.names[a], board.names[b])
        assert (matrix[a, b] == 0) <= (not got)
        decided += bool(got)
        counted_counters += any(what == "counters" for _, what, _, _ in got)
    assert decided > 30 and counted_counters > 0
