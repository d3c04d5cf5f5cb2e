"""The command line on a VASL saved game: ``--map game.vsav --vasl-boards DIR`` on every command.

``info`` lists the boards, what is not applied, the counters and the units
per side; ``fire --from`` and ``los`` take a unit's name; ``vantage --side``
ranks the Locations by the other side's units they see (checked here against
``kernel.can_see`` pair by pair); ``page`` embeds the units and counters.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import kernel
from kernel.cli import main
from kernel.importers.vasl.save_writer import SaveBoard, SavePiece, write_saved_game
from tests.vasl_saves import map_pixel, write_boards


def unit(name, hex_name, nationality, **options):
    return SavePiece(name, *map_pixel(hex_name), nationality, **options)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = write_boards(tmp_path_factory.mktemp("vasl") / "boards", names=("05",))
    level = SavePiece("Building Level 1", *map_pixel("C3"), "", counter_type="common")
    leader, upper = unit("8-1", "C3", "ge", piece_id="11"), unit("4-6-7 1sq", "C3", "ge", piece_id="12")
    deck = SavePiece("Building Level 1", *map_pixel("R5"), "", counter_type="common")
    russian = unit("6-2-8 Esq", "R5", "ru", piece_id="21")
    pieces = [unit("4-6-7 1sq", "I9", "ge", piece_id="13"), level, leader, upper, deck, russian,
              unit("4-4-7 1sq", "W4", "ru", piece_id="22"), unit("T-34 M43", "M6", "ru", hindrance=True, piece_id="23"),
              SavePiece("White +3 Smoke", *map_pixel("K6"), "", counter_type="common", piece_id="31"),
              SavePiece("LMG", *map_pixel("I9"), "ge", counter_type="common", piece_id="32"),
              SavePiece("9-2", 100, 100, "ge", piece_id="41")]
    save = write_saved_game(tmp_path_factory.mktemp("save") / "game.vsav", [SaveBoard(0, 0, "05", "1.0")], pieces,
                            [[level, leader, upper], [deck, russian]])
    return save, folder


@pytest.fixture(scope="module")
def game(files):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        return kernel.read_saved_game(*files)


def run(capsys, *args, expect=0):
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert status == expect, (status, out[-1500:], err[-1500:])
    return out, err


def test_info_lists_boards_counters_and_units_per_side(files, capsys):
    save, folder = files
    out, _ = run(capsys, "info", "--map", save, "--vasl-boards", folder, "--json")
    saved = json.loads(out)["saved_game"]
    assert [b["vasl_board"] for b in saved["boards"]] == ["05"] and saved["not_applied"] == []
    kinds = {(c["name"], c["kind"], c["location"]) for c in saved["counters"]}
    assert {("White +3 Smoke", "smoke", "5K6"), ("LMG", "counter", "5I9"), ("T-34 M43", "vehicle", "5M6")} <= kinds
    assert sorted((u["name"], u["location"]) for u in saved["units"]["axis"]) == [
        ("4-6-7 1sq", "5C3h1"), ("4-6-7 1sq", "5I9"), ("8-1", "5C3h1")]
    assert sorted(u["location"] for u in saved["units"]["allies"]) == ["5M6", "5R5h1", "5W4"]
    assert [p["name"] for p in saved["off_board"]] == ["9-2"]
    text, _ = run(capsys, "info", "--map", save, "--vasl-boards", folder)
    assert "units of axis: 3" in text and "5C3h1    leader    8-1 (#11)" in text
    assert "not applied: nothing" in text and "units of axis: 1: 9-2" in text


def test_fire_from_a_unit_name(files, game, capsys):
    save, folder = files
    out, _ = run(capsys, "fire", "--map", save, "--vasl-boards", folder, "--from", "8-1", "--json")
    payload = json.loads(out)
    assert payload["sources"] == ["5C3h1"]
    expected = kernel.field_of_fire(game.board, "5C3h1", counters=game.state)
    assert payload["visible"] == expected.visible.tolist() and payload["hindrance"] == expected.hindrance.tolist()
    assert payload["counters"]["smoke"] == {"5K6": 3}
    for reference in ("4-6-7 1sq@5I9", "#13"):
        out, _ = run(capsys, "fire", "--map", save, "--vasl-boards", folder, "--from", reference, "--json")
        assert json.loads(out)["sources"] == ["5I9"]
    out, _ = run(capsys, "fire", "--map", save, "--vasl-boards", folder, "--from", "T-34 M43", "--json")
    assert json.loads(out)["sources"] == ["5M6"]   # a name's first words name the unit


@pytest.mark.parametrize("arguments, message", [
    (["--from", "4-6-7 1sq"], r"--from: '4-6-7 1sq' names 2 units at 2 Locations: 4-6-7 1sq@5I9 \(#13\), "
                              r"4-6-7 1sq@5C3h1 \(#12\): expected NAME@LOCATION or #ID"),
    (["--from", "8-1", "--level", "0"], r"--level 0 contradicts the unit '8-1' at 5C3h1"),
    (["--from", "9-9"], r"--from: .*nor a unit of the save \(e.g. '4-6-7 1sq', '8-1'"),
    (["--from", "8-1", "--counters", "x.json"], r"--counters x.json with a saved game: its counters are the save's"),
])
def test_fire_refuses_what_names_no_one_unit(files, capsys, arguments, message):
    import re

    save, folder = files
    _, err = run(capsys, "fire", "--map", save, "--vasl-boards", folder, *arguments, expect=2)
    assert re.search(message, err), err


def test_los_between_two_units(files, game, capsys):
    save, folder = files
    out, _ = run(capsys, "los", "--map", save, "--vasl-boards", folder, "8-1", "6-2-8 Esq", "--json")
    expected = kernel.los(game.board, "5C3h1", "5R5h1", counters=game.state).to_dict()
    assert {k: v for k, v in json.loads(out).items() if k != "map"} == expected


def test_move_and_matrix_on_a_save(files, game, capsys, tmp_path):
    save, folder = files
    out, _ = run(capsys, "move", "--map", save, "--vasl-boards", folder, "--from", "8-1", "--allowance", "4", "--json")
    payload = json.loads(out)
    field = kernel.movement_field(game.board, "5C3h1", unit="infantry", allowance=4, counters=game.state)
    assert payload["start"] == ["5C3h1"]
    assert payload["cost"] == [None if not np.isfinite(c) else float(c) for c in field.cost]
    run(capsys, "matrix", "--map", save, "--vasl-boards", folder, "--out", tmp_path / "m.npy", "--quiet")
    assert np.array_equal(np.load(tmp_path / "m.npy"), kernel.los_matrix(game.board, counters=game.state))


def test_vantage_side_ranks_by_the_other_sides_units_seen(files, game, capsys):
    save, folder = files
    out, _ = run(capsys, "vantage", "--map", save, "--vasl-boards", folder, "--side", "axis", "--top", "5", "--json")
    payload = json.loads(out)
    board, state = game.board, game.state
    enemies = [(u.hex, u.level) for u in game.units if u.side == "allies"]
    assert payload["enemy_units"] == len(enemies) == 3
    for item in payload["best"]:
        h, level = board.location(item["location"])
        seen = sum(kernel.can_see(board, h, t, level=level, target_level=tl, counters=state) for t, tl in enemies)
        assert item["units_seen"] == seen
    counts = payload["units_seen_ground_level"]
    for h in range(0, len(board), 5):   # every fifth hex's count, pair by pair
        assert counts[h] == sum(kernel.can_see(board, h, t, target_level=tl, counters=state) for t, tl in enemies)
    assert payload["best"][0]["units_seen"] >= max(counts) > 0
    assert [b["units_seen"] for b in payload["best"]] == sorted((b["units_seen"] for b in payload["best"]), reverse=True)
    _, err = run(capsys, "vantage", "--map", save, "--vasl-boards", folder, "--side", "finns", expect=2)
    assert "--side 'finns': expected one of the save's sides (allies, axis)" in err
    _, err = run(capsys, "vantage", "--map", "71", "--side", "axis", expect=2)
    assert "--side needs units with sides: a saved game" in err


def test_page_embeds_the_units_and_counters(files, capsys, tmp_path):
    save, folder = files
    out_file = tmp_path / "game.html"
    run(capsys, "page", "--map", save, "--vasl-boards", folder, "--out", out_file, "--max-allowance", "2")
    text = out_file.read_text()
    data = json.loads(text[text.index('type="application/json">') + 24:text.index("</script>")])
    units = {(u["name"], u["location"], u["side"]) for u in data["pieces"]["units"]}
    assert ("8-1", "5C3h1", "axis") in units and ("6-2-8 Esq", "5R5h1", "allies") in units
    assert {("White +3 Smoke", "5K6")} <= {(c["name"], c["location"]) for c in data["pieces"]["counters"]}
    assert data["counters"]["smoke"] == [[data["map"]["names"].index("5K6"), 3, 0]]


def test_strict_on_the_command_line(files, capsys, tmp_path):
    save, folder = files
    cropped = write_saved_game(tmp_path / "crop.vsav", [SaveBoard(0, 0, "05", "1.0", crop=(0, 0, 900, 645))],
                               [unit("9-2", "C3", "ge")])
    _, err = run(capsys, "info", "--map", cropped, "--vasl-boards", folder)
    assert "note: " in err and "cropped to 900x645" in err
    _, err = run(capsys, "info", "--map", cropped, "--vasl-boards", folder, "--strict", expect=2)
    assert err.count("\n") == 1 and "(strict: expected a save whose every part applies)" in err


def test_info_names_a_counter_that_is_not_applied(files, capsys, tmp_path):
    """A rubble counter and a second SMOKE in one hex are not applied: info's 'not applied' says so."""
    _, folder = files
    pieces = [SavePiece("Stone Rubble", *map_pixel("G7"), "", counter_type="common", piece_id="1"),
              SavePiece("White +3 Smoke", *map_pixel("K6"), "", counter_type="common", piece_id="2"),
              SavePiece("White +2 WP", *map_pixel("K6"), "", counter_type="common", piece_id="3")]
    save = write_saved_game(tmp_path / "parts.vsav", [SaveBoard(0, 0, "05", "1.0")], pieces)
    out, _ = run(capsys, "info", "--map", save, "--vasl-boards", folder, "--json")
    assert json.loads(out)["saved_game"]["not_applied"] == [
        "piece 1 ('Stone Rubble') in 5G7: not applied: the map keeps the board's terrain in its hex",
        "piece 3 ('White +2 WP') in 5K6: not placed: a second SMOKE counter in its hex"]
    text, _ = run(capsys, "info", "--map", save, "--vasl-boards", folder)
    assert "not applied: piece 1 ('Stone Rubble') in 5G7" in text and "not applied: nothing" not in text
