"""Mapboards (kernel.maps.composition, scenario files of kernel.maps.text_format): ASL A2.1-A2.3, A2.73.

Tiny geomorphic boards (5 columns x 3 rows: columns A C E hold 1..3, B D hold
0..3, 17 hexes) and scenarios are written into ``tmp_path``; the bundled
default scenario is checked at the end.
"""

from __future__ import annotations

import re

import pytest

import kernel
from kernel import read_board_file
from kernel.maps.scenario_text import read_scenario_file
from kernel.maps.specs import BoardFileError, BoardPlacement, ScenarioSpec
from kernel.maps.composition import compose

SINGLE = 17   # hexes of one 5 x 3 geomorphic board


def board_text(board_id, hexes="", hexsides="", columns=5, rows=3, layout="geomorphic", ruleset="asl"):
    return (
        f"[board]\nid = {board_id}\nruleset = {ruleset}\nlayout = {layout}\n"
        f"columns = {columns}\nrows = {rows}\n\n[hexes]\n{hexes}\n\n[hexsides]\n{hexsides}\n"
    )


def write(folder, name, text):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def scenario(folder, boards, overlays="", switches="", header="", name="test.scenario"):
    text = f"[scenario]\ntitle = test\n{header}\n[boards]\n{boards}\n"
    if overlays:
        text += f"[overlays]\n{overlays}\n"
    if switches:
        text += f"[switches]\n{switches}\n"
    return write(folder, name, text)


def marked_line(path) -> int:
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if "# <<<" in line:
            return number
    raise AssertionError("no line marked '# <<<'")


def merged_names(board):
    return {name for name, merged in zip(board.names, board.merged) if merged}


@pytest.fixture
def boards(tmp_path):
    """Plain 5 x 3 boards 1 (one.board) and 2 (two.board)."""
    write(tmp_path, "one.board", board_text(1))
    write(tmp_path, "two.board", board_text(2))
    return tmp_path


# ---------------------------------------------------------------- butting (A2.1)


@pytest.mark.parametrize(
    "layout, expected",
    [
        ("0 0 one.board", SINGLE),
        ("0 0 one.board\n0 1 two.board", 2 * SINGLE - 3),               # one shared column of 3 hexes
        ("0 0 one.board\n1 0 two.board", 2 * SINGLE - 2),               # B and D halves meet
        ("0 0 one.board\n0 1 two.board rotated", 2 * SINGLE - 3),
        ("0 0 one.board\n0 1 two.board\n1 0 one.board as 3\n1 1 two.board as 4", 4 * SINGLE - 3 - 3 - 2 - 2),
    ],
    ids=["single", "side-by-side", "above", "side-by-side-rotated", "two-by-two"],
)
def test_hex_counts(boards, layout, expected):
    board = kernel.load(scenario(boards, layout))
    assert len(board) == expected
    assert int(board.merged.sum()) == (SINGLE * len(layout.splitlines()) - expected)


def test_side_by_side_share_one_column(boards):
    board = kernel.load(scenario(boards, "0 0 one.board\n0 1 two.board"))
    # Board 1's column E and board 2's column A are the same hexes.
    for n in (1, 2, 3):
        assert f"1E{n}" not in board.names
        i = board.index(f"2A{n}")
        assert board.merged[i] and board.board_id[i] == "2"
        assert board.x[i] == 12
    assert board.x.max() == 24


# ---------------------------------------------------------------- naming (A2.2)


@pytest.mark.parametrize(
    "layout, merged, absorbed",
    [
        # (a) upright above upright: only the upper board's X3 is printed (X0 carries none).
        ("0 0 one.board\n1 0 two.board", {"1B3", "1D3"}, {"2B0", "2D0"}),
        # (b) side by side: both printed -> the north-easternmost (eastern) board's A hexes.
        ("0 0 one.board\n0 1 two.board", {"2A1", "2A2", "2A3"}, {"1E1", "1E2", "1E3"}),
        # (c) upright above rotated: both printed -> the northern board's name.
        ("0 0 one.board\n1 0 two.board rotated", {"1B3", "1D3"}, {"2B3", "2D3"}),
        # (d) rotated above upright: neither printed -> the northern board's name, number 0.
        ("0 0 one.board rotated\n1 0 two.board", {"1B0", "1D0"}, {"2B0", "2D0"}),
        # rotated side by side: board 1's printed A column lies on the east edge, meeting 2E.
        ("0 0 one.board rotated\n0 1 two.board rotated", {"2E1", "2E2", "2E3"}, {"1A1", "1A2", "1A3"}),
    ],
    ids=["a-above-upright", "b-side-by-side", "c-upright-above-rotated", "d-rotated-above-upright", "both-rotated"],
)
def test_merged_half_hex_names(boards, layout, merged, absorbed):
    board = kernel.load(scenario(boards, layout))
    assert merged_names(board) == merged
    assert not absorbed & set(board.names)


def test_merged_names_sit_where_the_halves_meet(boards):
    board = kernel.load(scenario(boards, "0 0 one.board rotated\n1 0 two.board"))
    # Board 1 is upside down: its D column lies over board 2's B column.
    assert (int(board.x[board.index("1D0")]), int(board.y[board.index("1D0")])) == (3, 6)
    assert (int(board.x[board.index("1B0")]), int(board.y[board.index("1B0")])) == (9, 6)
    assert board.name(board.neighbours[board.index("1D0"), 3]) == "2B1"


# ---------------------------------------------------------------- terrain of merged halves (A2.3)


@pytest.mark.parametrize(
    "upper, lower, terrain, level",
    [
        ("", "B0 1 woods", ["woods"], 1),                 # open upper (naming) half takes the woods
        ("B3 0 woods", "", ["woods"], 0),                 # woods naming half over an open half
        ("B3 0 grain", "B0 0 .", ["grain"], 0),
        ("", "B0 -1 .", [], 0),                           # level: the higher of the two [reading]
    ],
    ids=["open-over-woods", "woods-over-open", "grain-over-explicit-open", "higher-level"],
)
def test_open_ground_half_takes_other_terrain(tmp_path, upper, lower, terrain, level):
    write(tmp_path, "up.board", board_text(1, upper))
    write(tmp_path, "down.board", board_text(2, lower))
    board = kernel.load(scenario(tmp_path, "0 0 up.board\n1 0 down.board"))
    assert board.terrain_of("1B3") == terrain
    assert int(board.ground_level[board.index("1B3")]) == level


def test_side_by_side_edge_column_terrain(tmp_path):
    write(tmp_path, "west.board", board_text(1, "E2 0 woods"))
    write(tmp_path, "east.board", board_text(2, "A3 0 brush"))
    board = kernel.load(scenario(tmp_path, "0 0 west.board\n0 1 east.board"))
    assert board.terrain_of("2A2") == ["woods"]
    assert board.terrain_of("2A3") == ["brush"]
    assert board.terrain_of("2A1") == []


# ---------------------------------------------------------------- rotation


def test_rotated_board_names_run_backwards(boards):
    board = kernel.load(scenario(boards, "0 0 one.board rotated"))
    a1 = board.index("1A1")
    # A1 lands at the bottom right, E3 at the top left.
    assert board.x[a1] == board.x.max()
    assert board.y[a1] == board.y[board.x == board.x[a1]].max()
    assert board.names[0] == "1E3" and board.names[-1] == "1A1"
    # Down a column on the map the numbers fall.
    c2 = board.index("1C2")
    assert board.name(board.neighbours[c2, 3]) == "1C1"
    assert board.name(board.neighbours[c2, 0]) == "1C3"
    assert board.name(board.neighbours[c2, 1]) == "1B2"   # board-west is map-east


def test_rotated_board_hexsides_rotate(tmp_path):
    write(tmp_path, "walls.board", board_text(1, "", "C2:N wall\nB1:SE hedge\nA2:SW bocage"))
    upright = kernel.load(tmp_path / "walls.board")
    rotated = kernel.load(scenario(tmp_path, "0 0 walls.board rotated"))
    assert upright.hexside_features("1C2", 0) == ["wall"]
    assert rotated.hexside_features("1C2", 3) == ["wall"]       # its N hexside is on the S side of the map
    assert rotated.hexside_features("1C2", 0) == []
    assert rotated.name(rotated.neighbours[rotated.index("1C2"), 3]) == "1C1"
    assert rotated.hexside_features("1C1", 0) == ["wall"]
    assert rotated.hexside_features("1B1", 5) == ["hedge"]      # SE -> NW
    assert rotated.hexside_features("1A2", 1) == ["bocage"]     # SW (off-board edge) -> NE
    assert rotated.neighbours[rotated.index("1A2"), 1] == -1


def test_rotated_board_touch_rotates(tmp_path):
    write(tmp_path, "touch.board", board_text(1, "C2 0 woods touch=0,1"))
    upright = kernel.load(tmp_path / "touch.board")
    rotated = kernel.load(scenario(tmp_path, "0 0 touch.board rotated"))
    assert int(upright.touches[upright.index("1C2")]) == 0b000011
    assert int(rotated.touches[rotated.index("1C2")]) == 0b011000   # N, NE -> S, SW


# ---------------------------------------------------------------- as NUMBER


def test_as_number_renumbers(boards):
    board = kernel.load(scenario(boards, "0 0 one.board as 7\n0 1 one.board as 8"))
    assert "7A1" in board.names and "8E3" in board.names
    assert "1A1" not in board.names
    assert set(board.board_id) == {"7", "8"}
    assert [b[0] for b in board.boards] == ["7", "8"]


def test_board_number_used_twice(boards):
    path = scenario(boards, "0 0 one.board\n0 1 one.board  # <<<")
    with pytest.raises(BoardFileError, match=re.escape(
        f"{path}:{marked_line(path)}: board number 1 is used twice (line {marked_line(path) - 1}): use 'as NUMBER' to renumber"
    )):
        read_scenario_file(path)


def test_renumbered_to_existing_number(boards):
    path = scenario(boards, "0 0 one.board\n0 1 two.board as 1  # <<<")
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:{marked_line(path)}: board number 1 is used twice")):
        read_scenario_file(path)


# ---------------------------------------------------------------- overlays (A2.73)

# A 3 x 3 rectangular overlay (column B sits half a hex lower): hex "1" is B2,
# hex "2" is B3 (south of B2).  Every hex carries a distinct terrain tag.
TAGS = {
    "B2": "stone-building", "B3": "grain", "B1": "woods", "C2": "orchard", "C3": "brush",
    "A3": "rubble", "A2": "crag", "A1": "graveyard", "C1": "marsh",
}
# Direction from B2 to each of its neighbours on the overlay (0 = N, clockwise).
AROUND_B2 = {"B1": 0, "C2": 1, "C3": 2, "B3": 3, "A3": 4, "A2": 5}


def tagged_overlay_text(overlay_id="ova"):
    hexes = "\n".join(
        f"{name} {'0' if name == 'B1' else '-'} {terrain}" for name, terrain in TAGS.items()
    )
    return (
        f"[board]\nkind = overlay\nid = {overlay_id}\nruleset = asl\nlayout = rectangular\n"
        f"columns = 3\nrows = 3\nanchors = B2 B3\n[hexes]\n{hexes}\n"
        "[hexsides]\nB2-B3 wall\nA2:N hedge\n"
    )


@pytest.fixture
def overlay_dir(tmp_path):
    """Board 3 (9 x 7 geomorphic) with terrain, levels and hexsides round E4, and overlays."""
    write(tmp_path, "map.board", board_text(
        3,
        "E4 2 woods\nE3 1 stone-building levels=1\nE5 0 woods\nA1 0 woods\n",
        "E4-E5 hedge\nE3-E4 wall\nE5-E6 wall\nA1-A2 wall\n",
        columns=9, rows=7,
    ))
    write(tmp_path, "ova.overlay", tagged_overlay_text("ova"))
    write(tmp_path, "ovb.overlay", (
        "[board]\nkind = overlay\nid = ovb\nruleset = asl\nlayout = rectangular\ncolumns = 1\nrows = 2\n"
        "anchors = A1 A2\n[hexes]\nA1 - .\nA2 5 water\n"
    ))
    return tmp_path


@pytest.fixture
def base_map(overlay_dir):
    return kernel.load(overlay_dir / "map.board")


@pytest.mark.parametrize("direction", range(6), ids=["N", "NE", "SE", "S", "SW", "NW"])
def test_overlay_orientation(overlay_dir, base_map, direction):
    first = base_map.index("3E4")
    second = int(base_map.neighbours[first, direction])
    second_name = base_map.name(second)
    board = kernel.load(scenario(overlay_dir, "0 0 map.board", f"ova.overlay 3E4 {second_name}"))
    rotation = (direction - 3) % 6   # the overlay's B2 -> B3 runs S (3)

    def near(index, d):
        return int(base_map.neighbours[index, d % 6])

    expected = {"B2": first, "B3": second}
    for name, d in AROUND_B2.items():
        expected[name] = near(first, d + rotation)
    expected["A1"] = near(near(first, 5 + rotation), 0 + rotation)   # A1 is N of A2
    expected["C1"] = near(near(first, 1 + rotation), 0 + rotation)   # C1 is N of C2
    assert expected["B3"] == second
    for name, index in expected.items():
        assert board.terrain_of(index) == [TAGS[name]], (name, board.name(index))
        assert board.overlay[index] == "ova"
    assert sum(o is not None for o in board.overlay) == 9
    # Hexsides turn with the overlay: B2-B3 is the placement hexside; A2's N side turns too.
    assert board.hexside_features(first, direction) == ["wall"]
    assert board.hexside_features(expected["A2"], rotation) == ["hedge"]
    # The board's hedge and walls round E4/E5 lay on covered hexes: gone.  Left: the
    # overlay's two hexsides and the board's far A1-A2 wall, each held by two hexes.
    assert int((board.hexside != 0).sum()) == 3 * 2
    assert board.hexside_features("3A1", 3) == ["wall"]


def test_overlay_replaces_terrain_and_hexsides(overlay_dir, base_map):
    board = kernel.load(scenario(overlay_dir, "0 0 map.board", "ova.overlay 3E4 3E5"))
    assert base_map.terrain_of("3E4") == ["woods"]
    assert board.terrain_of("3E4") == ["stone-building"]
    assert board.terrain_of("3E3") == ["woods"]
    assert int(board.building_levels[board.index("3E3")]) == 0      # building levels replaced too
    assert board.terrain_of("3E5") == ["grain"]
    # All six hexsides of every covered hex are replaced: the board's hedge,
    # wall and the E5-E6 wall on the overlay's rim are gone, only the overlay's remain.
    assert board.hexside_features("3E4", 3) == ["wall"]                # overlay B2-B3
    assert board.hexside_features("3E4", 0) == []                      # board E3-E4 wall
    assert board.hexside_features("3E5", 3) == []                      # board E5-E6 wall
    assert board.hexside_features("3E6", 0) == []
    assert board.hexside_features("3A1", 3) == ["wall"]                # far away: untouched
    assert board.terrain_of("3A1") == ["woods"]
    assert board.overlay[board.index("3A1")] is None


def test_overlay_keeps_levels_with_dash(overlay_dir, base_map):
    board = kernel.load(scenario(overlay_dir, "0 0 map.board", "ova.overlay 3E4 3E5"))
    assert int(base_map.ground_level[base_map.index("3E4")]) == 2
    assert int(board.ground_level[board.index("3E4")]) == 2           # B2 '-': keeps level 2
    assert int(base_map.ground_level[base_map.index("3E3")]) == 1
    assert int(board.ground_level[board.index("3E3")]) == 0           # B1 '0': sets level 0


@pytest.mark.parametrize(
    "order, on_e4, on_e5, owner",
    [
        ("ova.overlay 3E4 3E5\novb.overlay 3E4 3E5", [], ["water"], "ovb"),
        ("ovb.overlay 3E4 3E5\nova.overlay 3E4 3E5", ["stone-building"], ["grain"], "ova"),
    ],
    ids=["second-listed-on-top", "first-listed-covered"],
)
def test_topmost_overlay_wins(overlay_dir, order, on_e4, on_e5, owner):
    board = kernel.load(scenario(overlay_dir, "0 0 map.board", order))
    assert board.terrain_of("3E4") == on_e4
    assert board.terrain_of("3E5") == on_e5
    assert board.overlay[board.index("3E4")] == owner
    assert board.overlay[board.index("3E3")] == "ova"                  # only ova covers E3
    if owner == "ovb":
        assert int(board.ground_level[board.index("3E5")]) == 5
        assert board.hexside_features("3E4", 3) == []                 # ovb has no hexsides


def test_overlay_on_merged_seam(tmp_path):
    write(tmp_path, "one.board", board_text(1))
    write(tmp_path, "two.board", board_text(2))
    write(tmp_path, "ova.overlay", tagged_overlay_text())
    board = kernel.load(scenario(tmp_path, "0 0 one.board\n0 1 two.board", "ova.overlay 2A2 2A3"))
    assert board.terrain_of("2A2") == ["stone-building"]
    assert board.terrain_of("2A3") == ["grain"]
    assert board.terrain_of("1D1") == ["crag"]     # overlay A2 (NW of B2) lands on board 1
    assert board.terrain_of("1D2") == ["rubble"]   # overlay A3 (SW of B2)
    assert board.terrain_of("2B1") == ["orchard"]  # overlay C2 (NE of B2) on board 2


OVERLAY_ERRORS = [
    ("not-adjacent", "ova.overlay 3E4 3E6  # <<<",
     "overlay ova is placed on 3E4 and 3E6, which are not adjacent: expected two adjacent hexes"),
    ("falls-off-map", "ova.overlay 3A1 3A2  # <<<", "overlay ova hex A1 falls off the map when placed on 3A1-3A2"),
    ("falls-off-bottom", "ova.overlay 3E7 3E6  # <<<", "overlay ova hex A1 falls off the map when placed on 3E7-3E6"),
    ("hex-not-on-map", "ova.overlay 3Z9 3Z10  # <<<", "overlay hex '3Z9' is not a hex of this map"),
    ("other-board-number", "ova.overlay 5E4 5E5  # <<<", "overlay hex '5E4' is not a hex of this map"),
    ("invalid-coordinate", "ova.overlay e4 e5  # <<<", "invalid grid coordinate 'e4'"),
]


@pytest.mark.parametrize("line, fragment", [c[1:] for c in OVERLAY_ERRORS], ids=[c[0] for c in OVERLAY_ERRORS])
def test_overlay_placement_errors(overlay_dir, line, fragment):
    path = scenario(overlay_dir, "0 0 map.board", line)
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:{marked_line(path)}: {fragment}")):
        kernel.load(path)


# ---------------------------------------------------------------- scenario file errors

SCENARIO_LINE_ERRORS = [
    ("short-board-line", "0 0  # <<<", "", "'0 0': expected 'ROW COLUMN BOARD [rotated] [as NUMBER]'"),
    ("bad-row", "x 0 one.board  # <<<", "", "board row is 'x': expected an integer"),
    ("negative-column", "0 -1 one.board  # <<<", "", "board column is -1: expected at least 0"),
    ("missing-board", "0 0 nowhere  # <<<", "",
     "no board 'nowhere': expected a file path or a bundled board name (71, 72, ccn1, vv1)"),
    ("unexpected-word", "0 0 one.board upside-down  # <<<", "", "unexpected 'upside-down': expected 'rotated' or 'as NUMBER'"),
    ("as-without-number", "0 0 one.board as  # <<<", "", "unexpected 'as': expected 'rotated' or 'as NUMBER'"),
    ("position-twice", "0 0 one.board\n0 0 two.board  # <<<", "", "position (0, 0) already holds board 1 (line 5)"),
    ("overlay-line", "0 0 one.board", "ova 1C2  # <<<", "'ova 1C2': expected 'OVERLAY FIRST-HEX SECOND-HEX'"),
    ("missing-overlay", "0 0 one.board", "nope 1C2 1C3  # <<<",
     "no overlay 'nope': expected a file path or a bundled overlay name (ov1)"),
    ("board-as-overlay", "0 0 one.board", "two.board 1C2 1C3  # <<<",
     "two.board is a board, not an overlay (kind = overlay)"),
    ("overlay-other-ruleset", "0 0 one.board", "vv.overlay 1C2 1C3  # <<<",
     "overlay ovv uses ruleset 'valor-victory': expected 'asl' like the boards"),
]


@pytest.mark.parametrize(
    "boards_text, overlays, fragment", [c[1:] for c in SCENARIO_LINE_ERRORS], ids=[c[0] for c in SCENARIO_LINE_ERRORS]
)
def test_scenario_line_errors(boards, boards_text, overlays, fragment):
    write(boards, "vv.overlay", (
        "[board]\nkind = overlay\nid = ovv\nruleset = valor-victory\ncolumns = 2\nrows = 2\nanchors = A1 A2\n"
    ))
    path = scenario(boards, boards_text, overlays)
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:{marked_line(path)}: {fragment}")):
        read_scenario_file(path)


def test_scenario_switch_line_errors(boards):
    path = scenario(boards, "0 0 one.board", switches="orchards_in_season  # <<<")
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:{marked_line(path)}: 'orchards_in_season': expected 'switch = yes/no'")):
        read_scenario_file(path)
    path = scenario(boards, "0 0 one.board", switches="orchards_in_season = maybe  # <<<")
    with pytest.raises(BoardFileError, match=re.escape(
        f"{path}:{marked_line(path)}: switch orchards_in_season is 'maybe': expected yes/no (or true/false)"
    )):
        read_scenario_file(path)


def test_scenario_unknown_switch(boards):
    path = scenario(boards, "0 0 one.board", switches="winter = yes")
    with pytest.raises(BoardFileError, match=re.escape(f"{path}: ") + r".*unknown switch 'winter': this ruleset's switches are grain_in_season, orchards_in_season"):
        kernel.load(path)


def test_scenario_header_errors(boards):
    path = write(boards, "h.scenario", "[scenario]\nmap = big  # <<<\n[boards]\n0 0 one.board\n")
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:2: unknown key 'map': expected one of ruleset, title")):
        read_scenario_file(path)
    path = write(boards, "s.scenario", "[scenario]\n[layout]  # <<<\n")
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:2: unknown section [layout]: expected one of [scenario], [boards], [overlays], [switches]")):
        read_scenario_file(path)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("[scenario]\ntitle = empty\n", "a scenario needs a [boards] section with at least one board"),
        ("[scenario]\ntitle = empty\n[boards]\n", "a scenario needs a [boards] section with at least one board"),
        ("[scenario]\nruleset = ccn\n[boards]\n0 0 one.board\n", "boards use rulesets ['asl']: expected all to use 'ccn'"),
        ("[boards]\n0 0 one.board\n0 1 vv.board\n", "boards use rulesets ['asl', 'valor-victory']: expected all to use 'asl'"),
    ],
    ids=["no-boards-section", "empty-boards-section", "header-ruleset-differs", "mixed-rulesets"],
)
def test_scenario_file_errors(boards, text, fragment):
    write(boards, "vv.board", board_text(5, ruleset="valor-victory", layout="rectangular"))
    path = write(boards, "bad.scenario", text)
    with pytest.raises(BoardFileError, match=re.escape(str(path)) + r"(:\d+)?: " + re.escape(fragment)):
        read_scenario_file(path)


# ---------------------------------------------------------------- boards that do not fit

FIT_ERRORS = [
    ("mismatched-size", "0 0 one.board\n0 1 big.board  # <<<", "board 4 is 7x3: expected 5x3 like board 1"),
    ("mismatched-rows", "0 0 one.board\n1 0 tall.board  # <<<", "board 6 is 5x4: expected 5x3 like board 1"),
    ("rectangular-butted", "0 0 rect.board  # <<<\n0 1 one.board",
     "board 5 has layout 'rectangular': only geomorphic boards can be butted or rotated (expected layout = geomorphic)"),
    ("staggered-rotated", "0 0 stag.board rotated  # <<<", "board 7 has layout 'staggered': only geomorphic boards"),
    ("even-columns-butted", "0 0 even.board  # <<<\n0 1 even.board as 9",
     "board 8 has 4 columns: butting or rotating needs an odd column count"),
    ("even-columns-rotated", "0 0 even.board rotated  # <<<",
     "board 8 has 4 columns: butting or rotating needs an odd column count"),
]


@pytest.mark.parametrize("layout, fragment", [c[1:] for c in FIT_ERRORS], ids=[c[0] for c in FIT_ERRORS])
def test_boards_that_do_not_fit(boards, layout, fragment):
    write(boards, "big.board", board_text(4, columns=7))
    write(boards, "tall.board", board_text(6, rows=4))
    write(boards, "rect.board", board_text(5, layout="rectangular"))
    write(boards, "stag.board", board_text(7, layout="staggered"))
    write(boards, "even.board", board_text(8, columns=4))
    path = scenario(boards, layout)
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:{marked_line(path)}: {fragment}")):
        kernel.load(path)


def test_three_boards_on_one_spot_refused(boards):
    # The scenario reader refuses this already; compose() guards it on its own.
    spec = read_board_file(boards / "one.board")
    placements = [BoardPlacement(spec, 0, 0, False, str(n), n) for n in (1, 2, 3)]
    scenario_spec = ScenarioSpec("hand-made", "t", "asl", placements, [], {})
    with pytest.raises(BoardFileError, match=re.escape("hand-made: 3 boards overlap at one hex (1A1)")):
        compose(scenario_spec)


def test_single_rectangular_board_not_named_by_number(tmp_path):
    write(tmp_path, "rect.board", board_text(5, layout="rectangular"))
    board = kernel.load(scenario(tmp_path, "0 0 rect.board"))
    assert board.names[0] == "A1" and len(board) == 15


# ---------------------------------------------------------------- switches


@pytest.mark.parametrize("value, hindrance", [("no", 0), ("yes", 1), ("false", 0), ("on", 1)],
                         ids=["no", "yes", "false", "on"])
def test_orchard_switch_from_scenario(tmp_path, value, hindrance):
    write(tmp_path, "orchard.board", board_text(1, "C2 0 orchard\nB1 0 grain"))
    board = kernel.load(scenario(tmp_path, "0 0 orchard.board", switches=f"orchards_in_season = {value}"))
    i = board.index("1C2")
    assert int(board.hindrance[i]) == hindrance
    assert board.ruleset.switches["orchards_in_season"] is bool(hindrance)
    assert int(board.hindrance[board.index("1B1")]) == 1          # grain unaffected


def test_grain_switch_from_scenario(tmp_path):
    write(tmp_path, "grain.board", board_text(1, "B1 0 grain"))
    board = kernel.load(scenario(tmp_path, "0 0 grain.board", switches="grain_in_season = no"))
    assert int(board.hindrance[board.index("1B1")]) == 0
    assert int(board.hindrance_height[board.index("1B1")]) == 0


# ---------------------------------------------------------------- the bundled default scenario


@pytest.fixture(scope="module")
def default():
    return kernel.load("default")


def test_default_summary(default):
    summary = default.summary()
    assert len(default) == 1332 == summary["hexes"]           # 4 x 346 - 2 x 10 (seams) - 2 x 16 (halves)
    assert summary["merged_half_hexes"] == 52
    assert summary["overlay_hexes"] == 9
    assert summary["locations"] == 1332 + int(default.building_levels.sum()) + int(default.rooftop.sum())   # + rooftops
    assert summary["ruleset"] == "asl"
    assert summary["switches"] == {"orchards_in_season": True, "grain_in_season": True}
    assert summary["boards"] == [
        {"board": "71", "row": 0, "column": 0, "rotated": False},
        {"board": "72", "row": 0, "column": 1, "rotated": False},
        {"board": "73", "row": 1, "column": 0, "rotated": True},
        {"board": "74", "row": 1, "column": 1, "rotated": True},
    ]
    assert sum(summary["ground_levels"].values()) == 1332
    assert summary["terrain"]["woods"] > 0 and summary["terrain"]["orchard"] > 0


@pytest.mark.parametrize(
    "name",
    ["72A1", "72A7", "72A10", "74GG1", "74GG10", "71B10", "71X10", "72P10", "72FF10"],
    ids=["seam-top", "road-seam", "seam-bottom", "lower-seam-top", "lower-seam-bottom",
         "upright-above-rotated", "gully-column", "road-south", "last-half"],
)
def test_default_merged_half_hexes(default, name):
    assert default.merged[default.index(name)]


@pytest.mark.parametrize("name", ["71GG7", "73B10", "74B10", "73A5"],
                         ids=["upper-seam", "upper-left-lower-left", "upper-right-lower-right", "lower-seam"])
def test_default_absorbed_halves_name_their_merged_hex(default, name):
    # the other name of a merged half hex (VASL's) reaches the merged hex; outputs keep the A2.2 name
    assert name not in default.names and default.merged[default.index(name)]


@pytest.mark.parametrize("name", ["72B0", "71B0", "73GG5", "74A5", "74B0"],
                         ids=["top-edge-72", "top-edge-71", "west-edge-73", "east-edge-74", "bottom-edge-74"])
def test_default_unbutted_edge_halves_are_playable(default, name):
    i = default.index(name)
    assert not default.merged[i]
    assert (default.neighbours[i] == -1).any()


def test_default_overlay_hexes(default):
    covered = {name for name, overlay in zip(default.names, default.overlay) if overlay == "ov1"}
    assert covered == {f"73{c}{n}" for c in "QRS" for n in (4, 5, 6)}
    assert default.terrain_of("73R5") == ["stone-building"]   # overlay hex 1 (B2)
    assert default.terrain_of("73R6") == []                   # overlay hex 2 (B3, open)
    # Board 73 is upside down, so the overlay is too: its woods (north of B2) lie south.
    assert default.name(default.neighbours[default.index("73R5"), 3]) == "73R4"
    assert default.terrain_of("73R4") == ["woods"]


def test_default_rotated_board_touch(default):
    # 71K3 has 'touch=0,1'; on the rotated copy (74) it touches S and SW.
    assert int(default.touches[default.index("71K3")]) == 0b000011
    assert int(default.touches[default.index("74K3")]) == 0b011000


def test_default_orchards_out_of_season(default):
    board = kernel.load("default", orchards_in_season=False)
    orchards = board.has_terrain("orchard")
    assert orchards.sum() == default.has_terrain("orchard").sum() > 0
    assert (default.hindrance[orchards] == 1).all()
    assert (board.hindrance[orchards] == 0).all()
