"""The command line, run as users run it: ``python -m kernel.cli ...`` in a subprocess.

Each subprocess pays for numba's start-up, so the commands are few and each
checks several things (text, JSON against the Python API, pictures).
"""

from __future__ import annotations

import json
import math
import shlex
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import kernel
from kernel.cli import build_parser, main
from kernel import Counters, field_of_fire, los, los_matrix, movement_field

ROOT = Path(__file__).resolve().parent.parent
A4_100_DPI = (1169, 827)


def hexkernel(*args, cwd, expect=0):
    """Run the CLI in a fresh process; returns the CompletedProcess."""
    process = subprocess.run([sys.executable, "-m", "kernel.cli", *map(str, args)], cwd=cwd, capture_output=True,
                             text=True, timeout=600)
    assert process.returncode == expect, (process.returncode, process.stdout[-2000:], process.stderr[-2000:])
    return process


def png_size(path) -> tuple[int, int]:
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def check_svg(path) -> None:
    data = Path(path).read_bytes()
    assert data.startswith(b"<?xml") and b"<svg" in data[:1000] and len(data) > 10_000


def cost_list(costs):
    return [None if not math.isfinite(c) else c for c in costs]


@pytest.fixture(scope="module")
def default():
    return kernel.load("default")


# ---------------------------------------------------------------------------
# commands
# ---------------------------------------------------------------------------

def test_info_text_json_and_pictures(tmp_path):
    process = hexkernel("info", "--map", "71", "--json-out", "info.json", "--png", "map.png", "--svg", "map.svg",
                        "--dpi", 100, cwd=tmp_path)
    assert process.stdout.startswith("Hexkernel board 71")
    assert "hexes: 346" in process.stdout
    assert json.loads((tmp_path / "info.json").read_text()) == json.loads(json.dumps(kernel.load("71").summary()))
    assert png_size(tmp_path / "map.png") == (A4_100_DPI[0], 635)   # A4 wide, as high as the map needs
    check_svg(tmp_path / "map.svg")


def test_los_matches_the_api(tmp_path, default):
    process = hexkernel("los", "71P5h2", "71I9", "--explain", "--json-out", "los.json", "--png", "los.png",
                        "--dpi", 100, cwd=tmp_path)
    result = los(default, "71P5h2", "71I9")
    from kernel.line_of_sight.report import los_report

    assert process.stdout.strip() == los_report(default, result) == result.explain()
    every = hexkernel("los", "71P5h2", "71I9", "--all-steps", cwd=tmp_path).stdout
    assert every.strip() == los_report(default, result, all_steps=True) == result.explain(all_steps=True)
    assert len(every.splitlines()) == len(result.steps) + 2   # + the verdict and the ends' lines
    assert json.loads((tmp_path / "los.json").read_text()) == {"map": default.title, **result.to_dict()}
    assert png_size(tmp_path / "los.png") == A4_100_DPI


def test_fire_with_counters_matches_the_api(tmp_path, default):
    counters = {"smoke": {"71M6": 3}, "vehicles": ["71N7"], "units": []}
    (tmp_path / "counters.json").write_text(json.dumps(counters))
    process = hexkernel("fire", "--from", "71O6h1", "--counters", "counters.json", "--json", "--svg", "fire.svg",
                        cwd=tmp_path)
    payload = json.loads(process.stdout)
    fire = field_of_fire(default, "71O6", levels=1, counters=Counters.on(default, **counters))
    assert payload["sources"] == ["71O6h1"] and payload["levels"] == [1]
    assert payload["hexes"] == list(default.names)
    assert payload["visible"] == fire.visible.tolist()
    assert payload["hindrance"] == fire.hindrance.tolist()
    assert payload["source"] == fire.source.tolist()
    assert payload["cover"] == fire.cover.tolist()
    assert payload["summary"]["visible"] == int(fire.visible.sum())
    assert payload["summary"]["hindered"] == int((fire.visible & (fire.hindrance > 0)).sum()) > 0
    # the counters change the answer (the SMOKE hex is seen through +3, or not at all)
    plain = field_of_fire(default, "71O6", levels=1)
    assert payload["hindrance"] != plain.hindrance.tolist()
    check_svg(tmp_path / "fire.svg")


def test_move_matches_the_api(tmp_path, default):
    process = hexkernel("move", "--from", "71I4", "--unit", "infantry", "--allowance", 4, "--to", "71E4",
                        "--json-out", "move.json", "--png", "move.png", "--dpi", 100, cwd=tmp_path)
    field = movement_field(default, "71I4", unit="infantry", allowance=4)
    payload = json.loads((tmp_path / "move.json").read_text())
    assert payload["cost"] == cost_list(field.cost)
    assert payload["reachable"] == [n for n, c in zip(default.names, field.cost) if c <= 4]
    # the path ends at the hex asked for; the Bypass position it takes is inside it
    assert payload["path"] == field.path_to("71E4") == ["71I4", "71H3", "71G4", "71F3-71F4", "71E4"]
    assert payload["path_cost"] == field.cost_at("71E4") == 4
    assert f"{len(payload['reachable'])} hexes reachable" in process.stdout
    assert "path to 71E4 (4 MF): 71I4 71H3 71G4 71F3-71F4(Bypass) 71E4" in process.stdout
    assert png_size(tmp_path / "move.png") == (A4_100_DPI[1], A4_100_DPI[0])  # a portrait zoom on the area


def listed_costs(text: str) -> tuple[dict, dict]:
    """The hexes of a ``move`` text by what it lists: ``({hex: cost entering it}, {hex: Bypass cost})``."""
    entered, bypass, current = {}, {}, None
    for line in text.splitlines()[1:]:
        if line.startswith("  Bypass"):
            current = bypass
            continue
        head, _, names = line.partition(" MF: ")
        if names and line.startswith("   "):
            current = entered if current is None else current
            for name in names.split(" ... ")[0].split():
                current[name] = float(head)
    return entered, bypass


def test_move_shows_bypass_as_bypass_with_the_picture_s_numbers(tmp_path, default):
    """A hex whose Bypass cost is less than entering it was listed under the Bypass cost, as if entered (the
    stone buildings 3M2 and 3N1 of board 3 under "1 MF" where cost_at gives 2), and the picture wrote the
    unlimited field's least cost where the text gave the Location's (3U6: 10 against 11 MF). The text lists
    each hex at the cost of entering it and, apart, the Bypass costs; the picture writes the same numbers."""
    from kernel.render.movement_map import hex_numbers

    process = hexkernel("move", "--from", "71I4", "--allowance", 4, "--to", "71M6", "--json-out", "move.json",
                        cwd=tmp_path)
    field = movement_field(default, "71I4", unit="infantry", allowance=4)
    full = movement_field(default, "71I4", unit="infantry")
    entered, bypass = listed_costs(process.stdout)
    cheaper = {default.names[h]: float(field.bypass_cost[h]) for h in range(len(default))
               if field.bypass_cost[h] < field.location_cost[h] and field.bypass_cost[h] <= 4}
    assert cheaper and bypass == cheaper and "  Bypass (A4.3): along a hexside of the hex, without entering it" \
        in process.stdout
    assert entered == {default.names[h]: field.cost_at(h) for h in range(len(default)) if field.cost_at(h) <= 4}
    assert entered["71K3"] == 3 and bypass["71K3"] == 2   # entered at 3 MF, passed along its hexside at 2
    shown, shown_bypass = hex_numbers(field, full)
    for name, cost in entered.items():
        assert shown[default.index(name)] == cost
    for name, cost in bypass.items():
        assert shown_bypass[default.index(name)] == cost
    assert np.isnan(shown_bypass[[default.index(name) for name in entered if name not in bypass]]).all()
    m6 = default.index("71M6")   # beyond the allowance: text and picture give the cost of entering it
    assert f"71M6 is not reachable within 4 MF (it costs {full.cost_at('71M6'):g} MF)" in process.stdout
    assert shown[m6] == full.cost_at("71M6") > full.cost[m6]
    payload = json.loads((tmp_path / "move.json").read_text())
    assert payload["location_cost"] == cost_list(field.location_cost)
    assert payload["bypass_cost"] == cost_list(field.bypass_cost)


def test_move_to_takes_a_location(tmp_path, default):
    """--to 3M2h2 was refused (give the hex), though path_to takes that Location."""
    process = hexkernel("move", "--from", "71P5", "--allowance", 6, "--to", "71P5h2", "--json-out", "move.json",
                        "--png", "move.png", "--dpi", 60, cwd=tmp_path)
    field = movement_field(default, "71P5", unit="infantry", allowance=6)
    payload = json.loads((tmp_path / "move.json").read_text())
    assert payload["to"] == "71P5h2" and payload["path"] == field.path_to("71P5h2") == ["71P5", "71P5h1", "71P5h2"]
    assert payload["path_cost"] == field.cost_at("71P5h2")
    assert f"path to 71P5h2 ({field.cost_at('71P5h2'):g} MF): 71P5 71P5h1 71P5h2" in process.stdout
    far = hexkernel("move", "--from", "71I4", "--allowance", 1, "--to", "71P5h2", cwd=tmp_path).stdout
    assert "71P5h2 is not reachable within 1 MF (it costs" in far


def test_move_from_an_upper_location(tmp_path, default):
    """--from takes a Location above ground (here the first level of the building 71P5)."""
    hexkernel("move", "--from", "71P5h1", "--allowance", 4, "--json-out", "move.json", cwd=tmp_path)
    payload = json.loads((tmp_path / "move.json").read_text())
    field = movement_field(default, "71P5h1", unit="infantry", allowance=4)
    ground = movement_field(default, "71P5", unit="infantry", allowance=4)
    assert payload["cost"] == cost_list(field.cost) and payload["start"] == ["71P5h1"]
    assert field.state_cost[2 * (int(default.location_offset[default.index("71P5")]) + 1)] == 0
    assert payload["cost"] != cost_list(ground.cost)  # climbing down first costs the building's COT


def test_matrix_writes_a_loadable_npy(tmp_path, default):
    process = hexkernel("matrix", "--out", "los.npy", "--block-rows", 500, "--json", cwd=tmp_path)
    matrix = np.load(tmp_path / "los.npy")
    expected = los_matrix(default)
    assert matrix.dtype == np.int8 and matrix.shape == (len(default), len(default))
    np.testing.assert_array_equal(matrix, expected)
    payload = json.loads(process.stdout)
    assert payload["shape"] == [len(default), len(default)]
    assert payload["visible_pairs"] == int((expected != -1).sum()) - len(default)
    assert "100%" in process.stderr  # the progress bar (1332 hexes: a large map)


# ---------------------------------------------------------------------------
# user mistakes: exit code 2, one line, no traceback
# ---------------------------------------------------------------------------

BAD_BOARD = """[board]
id = 9
ruleset = asl
columns = 3
rows = ten
"""

MISTAKES = [
    (["info", "--map", "no-such-map"], "unknown map 'no-such-map'"),
    (["info", "--map", "bad.board"], "bad.board:5: rows is 'ten'"),
    (["los", "71I4", "71ZZ99"], "hex '71ZZ99' is not on this map"),
    (["los", "71I4h2", "71I9"], "level 2 does not exist"),
    (["move", "--from", "71I4", "--allowance", "lots"], "argument --allowance: 'lots' is not a number"),
    (["move", "--from", "71I4", "--unit", "tank"], "unknown unit class 'tank'"),
    (["fire", "--from", "71I4", "--counters", "broken.json"], "not valid JSON"),
    (["fire", "--from", "71I4", "--counters", "wrong-hex.json"], "smoke: hex '71ZZ1' is not on this map"),
    (["matrix", "--out", "missing/los.npy"], "folder 'missing' does not exist"),
    (["fire"], "the following arguments are required: --from"),
]


@pytest.mark.parametrize(("args", "message"), MISTAKES, ids=[" ".join(a) for a, _ in MISTAKES])
def test_user_mistakes_exit_2_with_one_line(tmp_path, args, message):
    (tmp_path / "bad.board").write_text(BAD_BOARD)
    (tmp_path / "broken.json").write_text('{"smoke": {"71I9": 3}')
    (tmp_path / "wrong-hex.json").write_text('{"smoke": {"71ZZ1": 3}}')
    process = hexkernel(*args, cwd=tmp_path, expect=2)
    lines = process.stderr.strip().splitlines()
    assert len(lines) == 1, process.stderr
    assert message in lines[0]
    assert lines[0].startswith("hexkernel")
    assert "Traceback" not in process.stderr and process.stdout == ""


# ---------------------------------------------------------------------------
# in-process: help on every command, the demo
# ---------------------------------------------------------------------------

def test_every_command_has_help(capsys):
    commands = build_parser()._subparsers._group_actions[0].choices
    assert set(commands) == {"info", "los", "fire", "move", "matrix", "demo", "import-vasl", "warm", "page",
                             "vantage", "batch"}
    for command in commands:
        with pytest.raises(SystemExit) as stop:
            main([command, "--help"])
        assert stop.value.code == 0
        assert f"usage: hexkernel {command}" in capsys.readouterr().out


def test_demo_writes_pictures_json_and_a_summary(tmp_path, capsys):
    assert main(["demo", "--map", "71", "--out", str(tmp_path / "out"), "--formats", "png", "--quiet"]) == 0
    printed = capsys.readouterr().out
    for step in ("LOS matrix 346 x 346", "field of fire from 71I4", "movement of infantry from 71I4", "pictures",
                 "total"):
        assert step in printed
    out = tmp_path / "out"
    summary = json.loads((out / "summary.json").read_text())
    assert [s["step"] for s in summary["steps"]][0] == "load and compile the map"
    assert (out / "map.html").read_text().startswith("<!DOCTYPE html>")
    for name in ("board", "los_matrix", "fire", "move", "los"):
        width, height = png_size(out / f"{name}.png")  # A4 at 200 dpi in one dimension, at most A4 in the other
        assert (width == 2338 and height <= 1654) or (height == 2338 and width <= 1654) or \
            (height == 1654 and width <= 2338)
    board = kernel.load("71")
    np.testing.assert_array_equal(np.load(out / "los_matrix.npy"), los_matrix(board))
    fire = json.loads((out / "fire.json").read_text())
    assert fire["visible"] == field_of_fire(board, "71I4").visible.tolist()


def test_warm_compiles_every_kernel_and_names_the_cache(capsys):
    """``hexkernel warm`` (run by the set-up) calls every kernel once and says where the code is cached."""
    import json

    from kernel._numba_cache import cache_dir

    assert main(["warm", "--json"]) in (0, None)
    report = json.loads(capsys.readouterr().out)
    assert report["cache"] == str(cache_dir())
    assert {"los_matrix", "los_pairs", "field_of_fire", "movement_field", "movement_matrix"} <= set(report["seconds"])


SCRIPT = ("import atexit, sys; from pathlib import Path; atexit.register(Path(sys.argv[1]).write_text, 'ran'); "
          "sys.argv = ['hexkernel', *sys.argv[2:]]; from kernel.cli.entry import script; script()")


@pytest.mark.parametrize("piped_into_head", [False, True])
def test_the_console_script_writes_everything_before_its_quick_exit(tmp_path, piped_into_head):
    """The ``hexkernel`` script leaves without the interpreter's teardown: its stdout, its picture and its
    JSON file are whole, the atexit handlers ran, and the exit status is main()'s (0, 2 for a mistake)."""
    marker, picture, out = tmp_path / "atexit", tmp_path / "los.png", tmp_path / "los.json"
    command = [sys.executable, "-c", SCRIPT, str(marker), "los", "71I4", "72M6", "--json", "--png", str(picture),
               "--json-out", str(out)]
    if piped_into_head:   # the reader stops after one line: the script still ends cleanly
        process = subprocess.run(["bash", "-o", "pipefail", "-c", shlex.join(command) + " | head -c 10"],
                                 capture_output=True, text=True, timeout=600)
        assert process.stdout == '{\n  "map":' and process.returncode == 0, process.stderr
    else:
        process = subprocess.run(command, capture_output=True, text=True, timeout=600)
        assert process.returncode == 0, process.stderr
        assert json.loads(process.stdout) == json.loads(out.read_text())
        assert json.loads(process.stdout)["blocked_at_name"] == "72G6"
    assert png_size(picture) == (2338, 1654) and picture.read_bytes()[-8:-4] == b"IEND"
    assert marker.read_text() == "ran"
    mistake = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "again"), "los", "71I4", "99Z9"],
                             capture_output=True, text=True, timeout=600)
    assert mistake.returncode == 2 and "error:" in mistake.stderr and (tmp_path / "again").read_text() == "ran"
