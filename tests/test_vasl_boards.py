"""Every VASL board of ``../shared/vasl`` imports (skipped when that folder is absent).

A user's VASL boards folder holds all of these boards; each one is imported
from its folder (one test per board, the folder name in the test id) and
checked for the facts any board must have: its number, 346 hexes of a 33x10
geomorphic board, ground levels within the elevations its pixels hold, every
pixel code in the terrain table, and no VASL terrain falling back to Open
Ground beyond the ones listed in :data:`FALLBACKS`. Board archives are built
here from the same folders, as VASL keeps them (the terrain table beside the
archive) and with the table inside.
"""

from __future__ import annotations

import re
import shutil
import warnings
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import numpy as np
import pytest

import kernel
from kernel.importers.vasl.files import read_board_files
from kernel.importers.vasl.terrain_map import KIND_TERRAIN, KIND_UNKNOWN, KIND_UNMAPPED, TERRAIN_CODES, terrain_lookup
from kernel.maps.rulesets import load_ruleset
from tests.shared_data import needs, vasl_folder

REPO = Path(__file__).resolve().parents[1]
VASL = vasl_folder()
FOLDERS = sorted(path.name for path in VASL.glob("bd*") if (path / "LOSData").is_file()) if VASL.is_dir() else []
needs_vasl = needs("vasl")

#: VASL terrain with no asl equivalent that the shared boards use (docs/vasl-agreement.md): a hex it
#: decides is imported as Open Ground, and either way a warning names it and the hexes.
FALLBACKS = {29: "Lumberyard"}
#: VASL terrain drawn only in the art (asl.toml's art_only) that the shared boards use: rowhouse walls
#: (B23.71), thin bars between building hexes, obstacles of the depiction models; a warning names the hexes.
ART_ONLY = {77: "Rowhouse Wall, 1 Level"}
#: Boards whose name is not a board number 1..999: imported under this number.
BOARD_IDS = {"bd00": "100"}


@needs_vasl
def test_the_shared_folder_holds_every_board():
    assert len(FOLDERS) == 42 and {"bd00", "bd12"} <= set(FOLDERS)


@needs_vasl
def test_every_terrain_type_of_vasls_table_is_listed_by_code():
    """Each terrainType of VASL's SharedBoardMetadata.xml has an entry of the same code and name (mapped,
    or None: Open Ground with a warning)."""
    root = ET.parse(VASL / "SharedBoardMetadata.xml").getroot()
    table = {int(element.get("typeCode")): element.get("name") for element in root.iter("terrainType")}
    assert {code: name for code, (name, _) in TERRAIN_CODES.items()} == table
    assert sum(name == "Scrub" for name in table.values()) == 2


def warned_codes(caught, marker, pattern):
    """The VASL terrain codes named by the caught warnings holding ``marker``; each must match ``pattern``."""
    codes = set()
    for warning in caught:
        message = str(warning.message)
        if marker in message:
            assert re.search(pattern, message), message
            codes.add(int(re.search(r"VASL terrain (\d+)", message).group(1)))
    return codes


@needs_vasl
@pytest.mark.parametrize("folder", FOLDERS)
def test_every_shared_board_imports(folder):
    path = VASL / folder
    board_id = BOARD_IDS.get(folder)
    if board_id is not None:
        with pytest.raises(ValueError, match=r"expected a board number 1..999.*board_id="):
            kernel.read_vasl_board(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", kernel.VaslImportWarning)
        spec = kernel.read_vasl_board(path, board_id=board_id)
    assert spec.id == (board_id or str(int(folder[2:])))
    assert (spec.ruleset, spec.layout, spec.columns, spec.rows) == ("asl", "geomorphic", 33, 10)
    assert set(spec.hexes) == set(spec.cells()) and len(spec.hexes) == 346
    files = read_board_files(path)
    elevation = files.los_data.elevation
    levels = [h.level for h in spec.hexes.values()]
    assert int(elevation.min()) <= min(levels) and max(levels) <= int(elevation.max()), folder
    ruleset = load_ruleset("asl")
    assert all(name in ruleset.terrain_names for h in spec.hexes.values() for name in h.terrain)
    lookup = terrain_lookup(files.terrain_table, ruleset)
    codes = {int(code) for code in np.unique(files.los_data.terrain)}
    assert not [code for code in codes if lookup.kind[code] == KIND_UNKNOWN]
    unmapped = {code: lookup.names[code] for code in codes if lookup.kind[code] == KIND_UNMAPPED}
    assert unmapped.items() <= FALLBACKS.items()
    warned = warned_codes(caught, "no asl equivalent",
                          r"VASL terrain \d+ .*(imported as Open Ground in|its pixels in) [A-Z]+\d+")
    assert warned == set(unmapped)          # every VASL terrain drawn with no asl equivalent is named
    art_only = {code: lookup.names[code] for code in codes if lookup.kind[code] == KIND_TERRAIN
                and ruleset.terrain_art_only[lookup.feature[code]]}
    assert art_only.items() <= ART_ONLY.items()
    drawn = warned_codes(caught, "drawn only in the board's art",
                         r"its pixels in [A-Z]+\d+.* are obstacles of model='depiction'")
    assert drawn == set(art_only)
    assert not any(name == "rowhouse-wall" for h in spec.hexes.values() for name in h.terrain)


def test_rowhouse_walls_are_obstacles_as_high_as_the_stone_building_of_their_levels():
    """B23.71: VASL's Rowhouse Wall codes become the art-only rowhouse-wall terrain with the levels of their
    name, an obstacle as high as the stone building of the same levels (levels=N: 2N + 1 half levels)."""
    from kernel.maps.board import terrain_los_values

    ruleset = load_ruleset("asl")
    wall, stone = ruleset.terrain_index("rowhouse-wall"), ruleset.terrain_index("stone-building")
    assert ruleset.terrain_art_only[wall] and not ruleset.terrain_art_only[stone]
    for code, levels in zip(range(76, 81), range(5)):
        name, mapping = TERRAIN_CODES[code]
        assert name.startswith("Rowhouse Wall") and (mapping.kind, mapping.name, mapping.levels) == (
            "terrain", "rowhouse-wall", levels)
    levels = np.arange(5)
    walls = terrain_los_values(ruleset, np.full(5, 1 << wall, np.uint32), levels)[0]
    stones = terrain_los_values(ruleset, np.full(5, 1 << stone, np.uint32), levels)[0]
    assert walls.tolist() == stones.tolist() == [2, 3, 5, 7, 9]


@needs_vasl
def test_board_12_market_place_is_a_stone_building_with_its_upper_level_and_rooftop():
    """VASL gives its market place 12R7 a Location R7 Level 1 and a rooftop (engine-levels data)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        spec = kernel.read_vasl_board(VASL / "bd12")
    r7 = (kernel.parse_hex("R7").column_index, 7)
    assert spec.hexes[r7].terrain == ("stone-building",) and spec.hexes[r7].building_levels == 1
    assert spec.hexes[r7].rooftop is True


@pytest.fixture(scope="module")
def board_2_from_its_folder():
    if not VASL.is_dir():
        pytest.skip("VASL board data (../shared/vasl) not present")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        return kernel.read_vasl_board(VASL / "bd02")


@needs_vasl
@pytest.mark.parametrize("table", ["beside", "inside"])
def test_board_archives_built_from_a_shared_board(tmp_path, table, board_2_from_its_folder, capsys):
    """The archive VASL keeps (LOSData and BoardMetadata.xml, the terrain table beside it), or one holding
    the table too, loads by path and with import-vasl, as the folder does."""
    from kernel.cli import main

    archive = tmp_path / "bd02.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for member in ("LOSData", "BoardMetadata.xml"):
            zf.write(VASL / "bd02" / member, member)
        if table == "inside":
            zf.write(VASL / "SharedBoardMetadata.xml", "SharedBoardMetadata.xml")
    if table == "beside":
        shutil.copy(VASL / "SharedBoardMetadata.xml", tmp_path)
    expected = board_2_from_its_folder
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        from_archive = kernel.read_vasl_board(archive)
        if table == "beside":
            board = kernel.load(archive)
            assert len(board) == 346 and board.terrain_of("2I9") == ["woods", "wooden-building"]
    assert from_archive.hexes == expected.hexes and from_archive.hexsides == expected.hexsides
    assert from_archive.art.classes == expected.art.classes
    assert np.array_equal(from_archive.art.terrain, expected.art.terrain)
    out = tmp_path / "2.board"
    assert main(["import-vasl", str(archive), "--out", str(out)]) == 0
    assert f"board 2: 346 hexes and {len(expected.hexsides)} hexsides written to {out}" in capsys.readouterr().out
    assert kernel.read_board_file(out).hexes.keys() == expected.hexes.keys()
