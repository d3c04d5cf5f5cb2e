"""The public VASL saved games of ``../shared/vasl/saves`` (skipped when that folder is absent).

Facts of each save as read from its decoded stream (``../shared/vasl/saves/README.md``):
``Hill 621 (Scenario E)`` lays boards 2, 4 and 3 in one column and keeps every
unit of both sides in the main map's margins (the scenario's forces, set out
beside the boards to be placed); ``The Streets Of Stalingrad (Scenario C)``
is board 1 with its perimeter markers and labels on the board and its units
in the margins; ``full.vsav`` is board 00 with a British squad, an LMG, a
mortar and a Churchill Crocodile on it; the other saves name no board.
"""

from __future__ import annotations

import json
import warnings
from collections import Counter
from pathlib import Path

import pytest

import kernel
from kernel.cli import main

VASL = Path(__file__).resolve().parent.parent.parent / "shared" / "vasl"
SAVES = VASL / "saves"
HILL, STALINGRAD = SAVES / "Hill 621 (Scenario E).vsav", SAVES / "The Streets Of Stalingrad (Scenario C).vsav"
pytestmark = pytest.mark.skipif(not HILL.is_file(), reason="VASL saved games (../shared/vasl/saves) not present")


def read(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        return kernel.read_saved_game(path, VASL)


@pytest.fixture(scope="module")
def hill():
    return read(HILL)


@pytest.fixture(scope="module")
def stalingrad():
    return read(STALINGRAD)


def test_hill_621_lays_boards_2_4_3_in_one_column(hill):
    assert hill.board.boards == [("2", 0, 0, False), ("4", 1, 0, False), ("3", 2, 0, False)]
    assert len(hill.board) == 3 * 346 - 2 * 16   # two seams of merged half hexes
    assert [(p.record.name, p.record.version) for p in hill.layout.boards] == [("02", "6.4"), ("04", "6.1"),
                                                                               ("03", "6.3")]
    assert hill.refused == []


def test_hill_621_keeps_its_forces_in_the_margins(hill):
    on_map = [p for p in hill.pieces if p.map_name == "Main Map"]
    assert len(hill.pieces) == 165 and len(on_map) == 163
    assert not any(p.on_board for p in hill.pieces) and hill.units == ()
    margin = [p for p in on_map if any("in the map's margin" in n for n in p.notes)]
    assert len(margin) == 163
    sides = Counter(p.side for p in hill.pieces if p.kind in ("unit", "vehicle"))
    assert sides == {"allies": 73, "axis": 35}
    assert all(p.side == "axis" for p in hill.pieces if p.nationality == "German")
    assert all(p.side == "allies" for p in hill.pieces if p.nationality == "Russian")
    names = Counter(p.name for p in hill.off_board)
    assert names["5-2-7 1sq"] == 24 and names["6-2-8 Esq"] == 8   # stacked units of one name stay apart


def test_stalingrad_has_its_markers_on_board_1_and_its_units_aside(stalingrad):
    assert stalingrad.board.boards == [("1", 0, 0, False)]
    on_board = stalingrad.counters
    kinds = Counter(p.name for p in on_board)
    assert kinds["Half-hex Blue perimeter"] == 76 and kinds["Half-hex Black perimeter"] == 44
    assert all(p.kind == "counter" and p.location.startswith("1") for p in on_board)
    assert stalingrad.units == ()
    # infantry and leaders: 26 + 6 German squads and 11 leaders; 21 + 26 + 12 Russian squads, a commissar, 6 leaders
    assert Counter(p.side for p in stalingrad.off_board if p.kind == "unit") == {"axis": 43, "allies": 66}
    assert Counter(p.side for p in stalingrad.off_board if p.kind == "vehicle") == {"axis": 5, "allies": 3}


def test_full_has_british_units_on_board_00():
    with pytest.warns(kernel.VaslSaveWarning, match=r"board 00: its hexes are named 901A1"):
        game = kernel.read_saved_game(SAVES / "full.vsav", VASL)
    assert sorted((u.name, u.location, u.side, u.kind) for u in game.units) == [
        ("6-4-8 Esq", "901C2", "allies", "infantry"), ("Churchill Crocodile vca3 tca3 BU", "901F2", "allies", "vehicle")]
    assert sorted((p.name, p.location) for p in game.counters) == [
        ('81* MTR OML 3.2" ca3', "901E2"), ("Churchill Crocodile vca3 tca3 BU", "901F2"), ("LMG", "901D2")]
    assert bool(game.state.vehicles[game.board.index("901F2")])


@pytest.mark.parametrize("name", ["empty.vsav", "ffs.vsav", "latw.vsav", "reverse-remapped-gpids-650.vsav",
                                  "hip-concealed.vsav"])
def test_saves_without_a_board_are_refused(name):
    with pytest.raises(kernel.SavedGameError, match=rf"{name}!savedGame: the bd record names no board"):
        read(SAVES / name)


@pytest.mark.parametrize("save", [HILL, STALINGRAD])
def test_info_on_the_real_saves(save, capsys):
    assert main(["info", "--map", str(save), "--vasl-boards", str(VASL), "--json"]) == 0
    saved = json.loads(capsys.readouterr().out)["saved_game"]
    assert saved["save"] == str(save) and saved["not_applied"] == []
    assert [b["vasl_board"] for b in saved["boards"]] == (["02", "04", "03"] if save == HILL else ["01"])
    assert len(saved["off_board"]) == (165 if save == HILL else 223)


def test_the_loaded_map_is_the_plain_scenario_of_its_boards(hill, tmp_path):
    scenario = tmp_path / "hill.scenario"
    scenario.write_text("[scenario]\ntitle = Hill 621\nruleset = asl\n[boards]\n"
                        + "".join(f"{row} 0 {VASL / name}\n" for row, name in enumerate(("bd02", "bd04", "bd03"))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        plain = kernel.load(scenario)
    assert plain.names == hill.board.names
    for name in ("terrain", "ground_level", "building_levels", "hexside"):
        assert (getattr(plain, name) == getattr(hill.board, name)).all(), name
