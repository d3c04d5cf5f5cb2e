"""The board file loader (kernel.maps.text_format) and the compiled Board (kernel.maps.board).

Small board and overlay files are written into ``tmp_path``; every error path
of ``read_board_file`` is checked for a message that names the file, the line
(marked ``# <<<`` in the test text) and the value expected
(docs/board-format.md: "the loader ... reports file:line: what is wrong, what
was expected").
"""

from __future__ import annotations

import re
import textwrap

import numpy as np
import pytest

import kernel
from kernel._dtypes import COORD, HEX_INDEX, HEXSIDE_MASK, HINDRANCE, LEVEL, NO_HEX, TERRAIN_MASK
from kernel import Board, BoardFileError, HexSpec, read_board_file
from kernel.maps.composition import Composition, GlobalHex
from kernel import load_ruleset

# A 5 x 3 geomorphic ASL board: columns A C E hold 1..3, B D hold 0..3 (17 hexes).
HEADER = """\
[board]
id = 9
ruleset = asl
layout = geomorphic
columns = 5
rows = 3
title = Tiny test board
"""

VALID = HEADER + """\
default_level = 0

[hexes]
# HEX LEVEL TERRAIN OPTIONS
B1  0   woods
B2  0   woods
C2  1   woods stone-building levels=2     # building-woods hex, two upper levels
D1  0   woods touch=0,5                  # explicit touch
E2  2   .                                # open ground on a level-2 hill
A1  -1  stream
E3  0   grain orchard
D3  0   woods touch=none
D0  0   woods touch=all

[hexsides]
B2-C2   wall
C2:S    hedge road
A1:SW   wall
E3:3    hedge                            # numeric direction, edge hexside
"""

OVERLAY_HEADER = """\
[board]
kind = overlay
id = ovx
ruleset = asl
layout = rectangular
columns = 3
rows = 3
"""


def write(tmp_path, text: str, name: str = "test.board"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def marked_line(text: str) -> int:
    """Line number (1-based) of the line marked ``# <<<``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if "# <<<" in line:
            return number
    raise AssertionError("no line marked '# <<<'")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = write(tmp_path_factory.mktemp("tiny"), VALID)
    return kernel.load(path)


# ---------------------------------------------------------------- valid board


def test_valid_board_spec(tmp_path):
    spec = read_board_file(write(tmp_path, VALID))
    assert (spec.id, spec.kind, spec.ruleset, spec.layout, spec.orientation) == ("9", "board", "asl", "geomorphic", "flat")
    assert (spec.columns, spec.rows, spec.title, spec.default_level) == (5, 3, "Tiny test board", 0)
    assert len(list(spec.cells())) == 17
    c2_line = 1 + [line.split()[0] if line.strip() else "" for line in VALID.splitlines()].index("C2")
    assert spec.hexes[(2, 2)] == HexSpec(1, ("woods", "stone-building"), 2, None, c2_line)
    assert spec.hexes[(3, 1)].touch == 0b100001
    assert spec.hexes[(3, 3)].touch == 0
    assert spec.hexes[(3, 0)].touch == 0b111111
    # B2-C2 is stored once, under the smaller cell (B2) and its direction NE.
    assert spec.hexsides[((1, 2), 1)] == ("wall",)
    assert spec.hexsides[((2, 2), 3)] == ("hedge", "road")
    assert spec.hexsides[((0, 1), 4)] == ("wall",)


def test_valid_board_compiles(tiny):
    assert len(tiny) == 17
    assert tiny.title == "Tiny test board"
    assert tiny.names[:4] == ("9A1", "9A2", "9A3", "9B0")   # column-major, board number in names


@pytest.mark.parametrize(
    "hex_name, terrain",
    [
        ("9B1", ["woods"]),
        ("9C2", ["woods", "stone-building"]),
        ("9E2", []),
        ("9A1", ["stream"]),
        ("9E3", ["grain", "orchard"]),
        ("9C1", []),   # not listed: Open Ground
    ],
    ids=["woods", "building-woods", "dot-is-open", "stream", "two-features", "unlisted"],
)
def test_terrain_bits(tiny, hex_name, terrain):
    rs = tiny.ruleset
    assert tiny.terrain_of(hex_name) == terrain
    expected = sum(1 << rs.terrain_index(t) for t in terrain)
    assert int(tiny.terrain[tiny.index(hex_name)]) == expected


@pytest.mark.parametrize(
    "hex_name, ground, building, obstacle",
    [("9C2", 1, 2, 5), ("9E2", 2, 0, 0), ("9A1", -1, 0, 0), ("9B1", 0, 0, 2), ("9C1", 0, 0, 0)],
    ids=["building-levels", "hill", "depression", "woods", "open"],
)
def test_levels(tiny, hex_name, ground, building, obstacle):
    i = tiny.index(hex_name)
    assert int(tiny.ground_level[i]) == ground
    assert int(tiny.building_levels[i]) == building
    assert int(tiny.obstacle_height[i]) == obstacle   # half levels: N + 1/2 levels for a building (B.1)


def test_building_levels_make_locations(tiny):
    i = tiny.index("9C2")
    start, stop = tiny.location_offset[i], tiny.location_offset[i + 1]
    assert stop - start == 3
    assert tiny.location_level[start:stop].tolist() == [0, 1, 2]
    assert tiny.location("9C2h2") == (i, 2)
    assert tiny.location("9C2") == (i, 0)
    assert int(tiny.location_offset[-1]) == 17 + 2


@pytest.mark.parametrize(
    "a, direction, b, features",
    [
        ("9B2", 1, "9C2", ["wall"]),
        ("9C2", 3, "9C3", ["hedge", "road"]),
    ],
    ids=["wall-by-pair", "hedge-road-by-direction"],
)
def test_hexside_features_on_both_hexes(tiny, a, direction, b, features):
    ia, ib = tiny.index(a), tiny.index(b)
    assert tiny.neighbours[ia, direction] == ib
    assert tiny.neighbours[ib, (direction + 3) % 6] == ia
    assert tiny.hexside_features(a, direction) == features
    assert tiny.hexside_features(b, (direction + 3) % 6) == features
    assert tiny.hexside[ia, direction] == tiny.hexside[ib, (direction + 3) % 6] != 0


def test_edge_hexsides_on_one_hex(tiny):
    i = tiny.index("9A1")
    assert tiny.neighbours[i, 4] == NO_HEX
    assert tiny.hexside_features("9A1", 4) == ["wall"]
    assert tiny.hexside_features("9E3", 3) == ["hedge"]
    # Every other hexside is bare.
    assert int((tiny.hexside != 0).sum()) == 2 + 2 + 1 + 1


@pytest.mark.parametrize(
    "hex_name, touches",
    [
        ("9B1", 0b001100),   # woods in B2 (S) and C2 (SE): default touch
        ("9B2", 0b000011),   # woods in B1 (N) and C2 (NE)
        ("9C2", 0b110010),   # building-woods: woods in D1 (NE), B2 (SW), B1 (NW)
        ("9D1", 0b100001),   # explicit touch=0,5 replaces the default (C2 to the SW)
        ("9D3", 0),          # touch=none
        ("9D0", 0b111111),   # touch=all
        ("9E2", 0),          # no obstacle: nothing to touch
        ("9E3", 0),          # hindrances are not bypassed obstacles
    ],
    ids=["woods-S-SE", "woods-N-NE", "building-woods", "explicit", "none", "all", "open", "hindrance"],
)
def test_touches(tiny, hex_name, touches):
    assert int(tiny.touches[tiny.index(hex_name)]) == touches


def test_bypassable(tiny):
    assert bool(tiny.bypassable[tiny.index("9B1")])
    assert not bool(tiny.bypassable[tiny.index("9E3")])


def test_overlay_file_spec(tmp_path):
    path = write(tmp_path, OVERLAY_HEADER + "anchors = B2 B3\n[hexes]\nB2 - woods\nA1 1 .\n", "x.overlay")
    spec = read_board_file(path)
    assert spec.kind == "overlay" and spec.id == "ovx"
    assert spec.anchors == ((1, 2), (1, 3))
    assert spec.hexes[(1, 2)].level is None   # '-' keeps the covered hex's level
    assert spec.hexes[(0, 1)].level == 1


@pytest.mark.parametrize(
    "layout, expected",
    [("geomorphic", 17), ("rectangular", 15), ("staggered", 13)],
    ids=["geomorphic", "rectangular", "staggered"],
)
def test_layout_hex_counts(tmp_path, layout, expected):
    text = HEADER.replace("layout = geomorphic", f"layout = {layout}")
    board = kernel.load(write(tmp_path, text))
    assert len(board) == expected


# ---------------------------------------------------------------- error paths

# (id, text with the bad line marked '# <<<', message fragment after 'file:line: ')
LINE_ERRORS = [
    ("unknown-terrain", HEADER + "[hexes]\nB1 0 jungle  # <<<\n",
     "hex B1: unknown terrain 'jungle' for ruleset 'asl': expected one of grain, brush, woods"),
    ("art-only-terrain", HEADER + "[hexes]\nB1 0 rowhouse-wall  # <<<\n",
     "hex B1: terrain 'rowhouse-wall' is drawn only in a map's art (art_only in ruleset 'asl'): expected a terrain"),
    ("terrain-twice", HEADER + "[hexes]\nB1 0 woods woods  # <<<\n", "hex B1: terrain 'woods' listed twice"),
    ("duplicate-hex", HEADER + "[hexes]\nB1 0 woods\nB1 1 .  # <<<\n", "hex B1 is listed twice (first on line 9)"),
    ("hex-number-too-high", HEADER + "[hexes]\nB4 0 woods  # <<<\n",
     "hex 'B4' is off this 5x3 board: column B holds hexes 0..3"),
    ("hex-number-zero-in-short-column", HEADER + "[hexes]\nA0 0 woods  # <<<\n",
     "hex 'A0' is off this 5x3 board: column A holds hexes 1..3"),
    ("hex-column-off-board", HEADER + "[hexes]\nF1 0 woods  # <<<\n",
     "hex 'F1' is off this 5x3 board: columns are A..E"),
    ("hex-with-board-number", HEADER + "[hexes]\n9B1 0 woods  # <<<\n",
     "hex '9B1': expected a hex of this board without board number, like 'I9'"),
    ("invalid-coordinate", HEADER + "[hexes]\nb1 0 woods  # <<<\n", "invalid grid coordinate 'b1'"),
    ("malformed-hex-line", HEADER + "[hexes]\nB1 0  # <<<\n",
     "'B1 0': expected 'HEX LEVEL TERRAIN... [options]'"),
    ("bad-level", HEADER + "[hexes]\nB1 high woods  # <<<\n", "level of B1 is 'high': expected an integer"),
    ("dash-level-on-a-board", HEADER + "[hexes]\nB1 - woods  # <<<\n", "level of B1 is '-': expected an integer"),
    ("unknown-option", HEADER + "[hexes]\nB1 0 woods height=2  # <<<\n",
     "hex B1: unknown option 'height': expected levels=N, touch=0,1,..., rooftop=yes|no or stairway=yes|no"),
    ("rooftop-value", HEADER + "[hexes]\nB1 0 stone-building levels=1 rooftop=maybe  # <<<\n",
     "hex B1: rooftop='maybe': expected rooftop=yes or rooftop=no"),
    ("stairway-value", HEADER + "[hexes]\nB1 0 stone-building levels=2 stairway=1  # <<<\n",
     "hex B1: stairway='1': expected stairway=yes or stairway=no"),
    ("rooftop-without-levels", HEADER + "[hexes]\nB1 0 stone-building rooftop=yes  # <<<\n",
     "hex B1: rooftop=yes without upper levels: expected levels=N (N >= 1)"),
    ("negative-building-levels", HEADER + "[hexes]\nB1 0 stone-building levels=-1  # <<<\n",
     "levels of B1 is -1: expected at least 0"),
    ("non-integer-building-levels", HEADER + "[hexes]\nB1 0 stone-building levels=two  # <<<\n",
     "levels of B1 is 'two': expected an integer"),
    ("touch-out-of-range", HEADER + "[hexes]\nB1 0 woods touch=0,6  # <<<\n",
     "hex B1: touch='0,6': expected hexside numbers 0..5 separated by commas, 'none' or 'all'"),
    ("touch-names", HEADER + "[hexes]\nB1 0 woods touch=N,NE  # <<<\n", "hex B1: touch='N,NE': expected hexside numbers 0..5"),
    ("touch-empty", HEADER + "[hexes]\nB1 0 woods touch=  # <<<\n", "hex B1: touch='': expected hexside numbers 0..5"),
    ("unknown-hexside-feature", HEADER + "[hexsides]\nB2-C2 moat  # <<<\n",
     "hexside B2-C2: unknown hexside feature 'moat' for ruleset 'asl': expected one of wall, hedge"),
    ("hexside-feature-twice", HEADER + "[hexsides]\nB2-C2 wall wall  # <<<\n", "hexside B2-C2: a feature is listed twice"),
    ("hexside-twice-reversed", HEADER + "[hexsides]\nB2-C2 wall\nC2-B2 hedge  # <<<\n",
     "hexside C2-B2 is listed twice"),
    ("hexside-twice-by-direction", HEADER + "[hexsides]\nB2-C2 wall\nB2:NE hedge  # <<<\n",
     "hexside B2:NE is listed twice"),
    ("hexside-twice-from-other-hex", HEADER + "[hexsides]\nC2:SW wall\nB2:1 hedge  # <<<\n",
     "hexside B2:1 is listed twice"),
    ("malformed-hexside-line", HEADER + "[hexsides]\nB2-C2  # <<<\n",
     "'B2-C2': expected 'HEX-HEX FEATURE...' or 'HEX:DIR FEATURE...'"),
    ("non-adjacent-hexside", HEADER + "[hexsides]\nB1-B3 wall  # <<<\n", "hexside 'B1-B3': B1 and B3 are not adjacent"),
    ("three-hex-hexside", HEADER + "[hexsides]\nB1-B2-B3 wall  # <<<\n",
     "hexside 'B1-B2-B3': expected two adjacent hexes like 'I9-I10' or 'I9:S'"),
    ("bad-direction", HEADER + "[hexsides]\nB1:UP wall  # <<<\n",
     "hexside 'B1:UP': direction 'UP': expected 0..5 or one of N, NE, SE, S, SW, NW"),
    ("direction-six", HEADER + "[hexsides]\nB1:6 wall  # <<<\n", "direction '6': expected 0..5"),
    ("hexside-off-board", HEADER + "[hexsides]\nF1-F2 wall  # <<<\n", "hex 'F1' is off this 5x3 board: columns are A..E"),
    ("unknown-section", HEADER + "[terrain]  # <<<\nB1 0 woods\n",
     "unknown section [terrain]: expected one of [board], [hexes], [hexsides]"),
    ("duplicate-section", HEADER + "[hexes]\nB1 0 woods\n[hexes]  # <<<\n", "section [hexes] appears twice"),
    ("unclosed-section", HEADER + "[hexes  # <<<\n", "section header '[hexes' has no closing ']'"),
    ("line-before-section", "id = 9  # <<<\n" + HEADER, "'id = 9' comes before any [section] header"),
    ("key-twice", HEADER + "rows = 4  # <<<\n", "key 'rows' given twice (first on line 6)"),
    ("unknown-key", HEADER + "colour = red  # <<<\n", "unknown key 'colour': expected one of anchors, columns"),
    ("not-key-value", HEADER + "default_level 0  # <<<\n", "'default_level 0': expected 'key = value'"),
    ("bad-kind", HEADER + "kind = map  # <<<\n", "kind is 'map': expected 'board' or 'overlay'"),
    ("unknown-ruleset", HEADER.replace("ruleset = asl", "ruleset = chess  # <<<"), "unknown ruleset 'chess': expected one of asl, ccn"),
    ("bad-layout", HEADER.replace("layout = geomorphic", "layout = hex  # <<<"),
     "layout is 'hex': expected one of geomorphic, rectangular, staggered"),
    ("bad-orientation", HEADER + "orientation = round  # <<<\n", "orientation is 'round': expected one of flat, pointy"),
    ("board-id-not-digits", HEADER.replace("id = 9", "id = nine  # <<<"),
     "board id is 'nine': expected a board number 1..999 without leading zeros"),
    ("columns-not-integer", HEADER.replace("columns = 5", "columns = five  # <<<"), "columns is 'five': expected an integer"),
    ("columns-zero", HEADER.replace("columns = 5", "columns = 0  # <<<"), "columns is 0: expected at least 1"),
    ("rows-zero", HEADER.replace("rows = 3", "rows = 0  # <<<"), "rows is 0: expected at least 1"),
    ("too-many-columns", HEADER.replace("columns = 5", "columns = 53  # <<<"), "columns is 53: expected at most 52 (A..ZZ)"),
    ("bad-default-level", HEADER + "default_level = flat  # <<<\n", "default_level is 'flat': expected an integer"),
    ("overlay-one-anchor", OVERLAY_HEADER + "anchors = B2  # <<<\n", "anchors is 'B2': expected two adjacent hexes like 'B2 B3'"),
    ("overlay-anchors-not-adjacent", OVERLAY_HEADER + "anchors = A1 C3  # <<<\n", "anchors A1 and C3 are not adjacent"),
    ("overlay-anchor-off", OVERLAY_HEADER + "anchors = B2 B4  # <<<\n",
     "hex 'B4' is off this 3x3 board: column B holds hexes 1..3"),
]


@pytest.mark.parametrize("text, fragment", [case[1:] for case in LINE_ERRORS], ids=[case[0] for case in LINE_ERRORS])
def test_board_file_errors_name_file_and_line(tmp_path, text, fragment):
    path = write(tmp_path, text)
    line = marked_line(text)
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:{line}: ") + ".*" + re.escape(fragment)):
        read_board_file(path)


# Errors about the file as a whole name the file (there is no one line to blame).
FILE_ERRORS = [
    ("missing-board-section", "[hexes]\nB1 0 woods\n", "missing the [board] section"),
    ("empty-file", "", "missing the [board] section"),
    ("missing-id", HEADER.replace("id = 9\n", ""), "[board] lacks the required key 'id'"),
    ("missing-ruleset", HEADER.replace("ruleset = asl\n", ""), "[board] lacks the required key 'ruleset'"),
    ("missing-columns", HEADER.replace("columns = 5\n", ""), "[board] lacks the required key 'columns'"),
    ("missing-rows", HEADER.replace("rows = 3\n", ""), "[board] lacks the required key 'rows'"),
    ("overlay-without-anchors", OVERLAY_HEADER, "an overlay needs 'anchors = HEX1 HEX2' (its hexes marked 1 and 2)"),
]


@pytest.mark.parametrize("text, fragment", [case[1:] for case in FILE_ERRORS], ids=[case[0] for case in FILE_ERRORS])
def test_board_file_errors_name_file(tmp_path, text, fragment):
    path = write(tmp_path, text)
    with pytest.raises(BoardFileError, match=re.escape(f"{path}: {fragment}")):
        read_board_file(path)


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.board"
    path.write_bytes(HEADER.encode() + b"title = caf\xe9\n")
    with pytest.raises(BoardFileError, match=re.escape(f"{path}: not UTF-8 text") + r".*at byte \d+"):
        read_board_file(path)


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere.board"
    with pytest.raises(FileNotFoundError, match=re.escape(f"file {str(path)!r} does not exist")):
        read_board_file(path)


def test_errors_never_return_half_built_boards(tmp_path):
    # The bad line comes after valid ones: still an error, no partial result.
    text = VALID + "B0-B1 wall\nB1-C9 wall  # <<<\n"
    path = write(tmp_path, text)
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:{marked_line(text)}: hex 'C9' is off")):
        read_board_file(path)


# ---------------------------------------------------------------- kernel.load

BUNDLED = {
    "71": ("asl", 346),
    "72": ("asl", 346),
    "vv1": ("valor-victory", 308),
    "ccn1": ("ccn", 113),
    "default": ("asl", 1332),
    "vv-village": ("valor-victory", 308),
    "ccn-ridge": ("ccn", 113),
}


@pytest.fixture(scope="module")
def bundled():
    return {name: kernel.load(name) for name in BUNDLED}


@pytest.mark.parametrize("name", list(BUNDLED), ids=list(BUNDLED))
def test_load_bundled(bundled, name):
    board = bundled[name]
    ruleset, count = BUNDLED[name]
    assert isinstance(board, Board)
    assert board.ruleset.name == ruleset
    assert len(board) == count == len(board.names)
    assert repr(board).startswith("<Board ") and f"{count} hexes" in repr(board)


@pytest.mark.parametrize("name", list(BUNDLED), ids=list(BUNDLED))
def test_index_name_round_trip(bundled, name):
    board = bundled[name]
    for i, hex_name in enumerate(board.names):
        assert board.index(hex_name) == i
        assert board.name(i) == hex_name
        assert board.index(i) == i
        assert board.index(np.int64(i)) == i
    assert board.indices(list(board.names)).tolist() == list(range(len(board)))
    assert board.indices(np.arange(len(board))).dtype == HEX_INDEX


def test_hex_names_follow_layout(bundled):
    assert bundled["71"].names[0] == "71A1" and "71B0" in bundled["71"].names and "71GG10" in bundled["71"].names
    assert bundled["vv1"].names[0] == "A1" and "V14" in bundled["vv1"].names   # rectangular: no board number
    assert "B13" not in bundled["ccn1"].names and "B12" in bundled["ccn1"].names   # staggered short column


def test_index_unknown_hex(bundled):
    with pytest.raises(KeyError, match=r"hex '71Z99' is not on this map \(Hexkernel board 71 .*346 hexes"):
        bundled["71"].index("71Z99")


def test_index_errors(bundled):
    board = bundled["71"]
    with pytest.raises(ValueError, match="invalid grid coordinate 'zz'"):
        board.index("zz")
    with pytest.raises(IndexError, match=r"hex index 346 out of range: expected 0\.\.345"):
        board.index(346)
    with pytest.raises(IndexError, match=r"hex index -1 out of range: expected 0\.\.345"):
        board.index(-1)
    with pytest.raises(TypeError, match="hex is 1.5: expected a name like '2I9' or an index, not a float"):
        board.index(1.5)
    with pytest.raises(TypeError, match="hex is True: .* not a bool"):
        board.index(True)
    with pytest.raises(IndexError, match=r"hex index 400 out of range: expected 0\.\.345"):
        board.indices(np.array([0, 400, 3]))
    with pytest.raises(IndexError, match=r"hex index 346 out of range: expected 0\.\.345"):
        board.name(346)


@pytest.mark.parametrize(
    "text, message",
    [
        ("71P5h4", "Location '71P5h4': level 4 does not exist: 71P5 has levels 0..2 and its rooftop 71P5roof "
                   "(level 3)"),
        ("71A1h1", "Location '71A1h1': level 1 does not exist: 71A1 has levels 0..0"),
        ("71P5h-1", "Location '71P5h-1': level -1 does not exist"),
        ("71P5-71P6", "'71P5-71P6' is not a Location: expected a hex with an optional level, like '1E4h1'"),
        ("71A1roof", "Location '71A1roof': 71A1 has no rooftop: it has levels 0..0"),
    ],
    ids=["above-top-level", "no-building", "cellar", "bypass-not-location", "rooftop-of-open-ground"],
)
def test_location_errors(bundled, text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        bundled["71"].location(text)


def test_load_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"no board 'nope': expected a file path or a bundled board name \(71, 72"):
        kernel.load("nope")
    overlay = write(tmp_path, OVERLAY_HEADER + "anchors = B2 B3\n", "x.overlay")
    with pytest.raises(BoardFileError, match=re.escape(f"{overlay}: is an overlay (kind = overlay): expected a board or scenario")):
        kernel.load(overlay)
    with pytest.raises(BoardFileError, match=r"71\.board: .*unknown switch 'winter'"):
        kernel.load("71", winter=True)


def test_load_switch_keyword(bundled):
    board = kernel.load("71", orchards_in_season=False)
    assert board.ruleset.switches["orchards_in_season"] is False
    orchards = board.has_terrain("orchard")
    assert orchards.any()
    assert (board.hindrance[orchards] == 0).all()
    assert (bundled["71"].hindrance[orchards] == 1).all()


def test_duplicate_hex_names_refused():
    ruleset = load_ruleset("asl")
    spec = HexSpec(0, (), 0, None, 0)
    hexes = {(0, 1): GlobalHex(0, 1, "1A1", "1", spec), (0, 3): GlobalHex(0, 3, "1A1", "1", spec)}
    with pytest.raises(BoardFileError, match=re.escape("here.scenario: hex names ['1A1'] occur more than once: renumber a board with 'as NUMBER'")):
        Board(ruleset, Composition(hexes), "dup", "here.scenario")


def test_art_only_terrain_in_a_hex_spec_refused():
    ruleset = load_ruleset("asl")
    spec = HexSpec(0, ("rowhouse-wall",), 0, None, 0)
    hexes = {(0, 1): GlobalHex(0, 1, "1A1", "1", spec)}
    with pytest.raises(BoardFileError, match=re.escape(
            "here.scenario: hex 1A1: terrain 'rowhouse-wall' is drawn only in a map's art (art_only in ruleset "
            "'asl'): expected a terrain a hex can hold")):
        Board(ruleset, Composition(hexes), "art", "here.scenario")


# ---------------------------------------------------------------- compiled arrays

DTYPES = {
    "x": COORD, "y": COORD, "col": COORD, "row": COORD,
    "neighbours": HEX_INDEX, "cell_index": HEX_INDEX,
    "terrain": TERRAIN_MASK, "ground_level": LEVEL, "building_levels": LEVEL,
    "obstacle_height": LEVEL, "obstacle_inherent": np.bool_,
    "hindrance": HINDRANCE, "hindrance_height": LEVEL, "hindrance_inherent": np.bool_,
    "hexside": HEXSIDE_MASK, "touches": np.uint8, "merged": np.bool_, "bypassable": np.bool_,
    "location_offset": np.int32, "location_hex": HEX_INDEX, "location_level": LEVEL,
}


@pytest.mark.parametrize("name", list(BUNDLED), ids=list(BUNDLED))
def test_array_dtypes_shapes_and_read_only(bundled, name):
    board = bundled[name]
    n = len(board)
    arrays = board.arrays()
    assert set(DTYPES) <= set(arrays)
    for key, dtype in DTYPES.items():
        array = arrays[key]
        assert array.dtype == np.dtype(dtype), key
        assert not array.flags.writeable, key
        if key in ("neighbours", "hexside"):
            assert array.shape == (n, 6)
        elif key == "location_offset":
            assert array.shape == (n + 1,)
        elif key == "cell_index":
            assert array.ndim == 2
        elif key not in ("location_hex", "location_level"):
            assert array.shape == (n,), key
    with pytest.raises(ValueError, match="read-only"):
        board.terrain[0] = 1


@pytest.mark.parametrize("name", list(BUNDLED), ids=list(BUNDLED))
def test_bytes_per_hex(bundled, name):
    board = bundled[name]
    assert board.nbytes / len(board) < 120
    assert board.summary()["bytes_per_hex"] < 120


@pytest.mark.parametrize("name", list(BUNDLED), ids=list(BUNDLED))
def test_neighbours_and_cell_index_consistent(bundled, name):
    board = bundled[name]
    n = len(board)
    assert (board.cell_index[board.col + 1, board.row + 1] == np.arange(n)).all()
    for d in range(6):
        other = board.neighbours[:, d]
        inside = other >= 0
        assert (board.neighbours[other[inside], (d + 3) % 6] == np.flatnonzero(inside)).all()
    # Both hexes sharing a hexside hold the same features.
    for d in range(6):
        other = board.neighbours[:, d]
        inside = other >= 0
        assert (board.hexside[inside, d] == board.hexside[other[inside], (d + 3) % 6]).all()


def test_a_bridge_deck_and_building_levels_in_one_hex_is_an_error(tmp_path):
    """The deck is the hex's Location h1, so a bridge hex has no upper building levels."""
    path = write(tmp_path, HEADER + "default_level = 0\n\n[hexes]\nB2 -1 gully bridge wooden-building levels=1\n")
    with pytest.raises(BoardFileError, match=re.escape(f"{path}: hex 9B2 has a bridge deck and 1 building levels: "
                                                       "expected at most one of them")):
        kernel.load(path)


def test_bridge_deck_adds_a_location(tmp_path):
    path = write(tmp_path, HEADER + "default_level = 0\n\n[hexes]\nB2 -1 gully bridge\n")
    board = kernel.load(path)
    hex_index = board.index("9B2")
    assert board.bridge_deck.sum() == 1 and board.bridge_deck[hex_index]
    assert board.top_level[hex_index] == 1 and board.building_levels[hex_index] == 0
    assert board.location("9B2h1") == (hex_index, 1) and board.location("Bridge/9B2") == (hex_index, 0)
    assert int(board.location_offset[-1]) == len(board) + 1
    with pytest.raises(ValueError, match=r"'Bridge/9B1': 9B1 has no bridge"):
        board.location("Bridge/9B1")
    with pytest.raises(ValueError, match=r"level 2 does not exist: 9B2 has levels 0\.\.1"):
        board.location("9B2h2")


@pytest.mark.parametrize("seed", [1, 7], ids=lambda s: f"seed{s}")
def test_distance_and_adjacent_match_a_walk_over_the_neighbour_table(seed):
    """``Board.distance`` and ``Board.adjacent`` (the geometry an engine needs)."""
    from collections import deque

    from kernel import random_board

    board = random_board("asl", 9, 7, seed=seed)
    rng = np.random.default_rng(seed)
    for start in rng.integers(0, len(board), 5):
        walked = {int(start): 0}
        queue = deque([int(start)])
        while queue:
            h = queue.popleft()
            for n in board.adjacent(h):
                assert board.distance(h, n) == 1
                if n not in walked:
                    walked[n] = walked[h] + 1
                    queue.append(n)
        others = np.array(sorted(walked))
        assert board.distance(np.full(len(others), start), others).tolist() == [walked[h] for h in others]


def test_distance_broadcasts_as_numpy_does():
    """One hex against many and a column against a row (every pair), as the vectorised hex_distance gives
    them (a bot needs the range from each of its options to an enemy: one call, not one per option)."""
    from kernel import hex_distance, load

    board = load("default")
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, len(board), 40), rng.integers(0, len(board), 30)

    def expected(x, y):
        return hex_distance(board.col[x], board.row[x], board.col[y], board.row[y])

    assert np.array_equal(board.distance(a, int(b[0])), expected(a, b[0]))
    assert np.array_equal(board.distance(int(b[0]), a), expected(a, b[0]))
    assert np.array_equal(board.distance(a[:, None], b), expected(a[:, None], b[None, :]))
    assert board.distance(a[:, None], b).shape == (40, 30) and board.distance(a, b[:1]).shape == (40,)
    assert np.array_equal(board.distance([board.names[h] for h in a[:5]], "72M6"), expected(a[:5], board.index("72M6")))
    assert board.distance(int(a[0]), int(b[0])) == int(expected(a[0], b[0])) and type(board.distance(1, 2)) is int
    assert board.distance(a, b[:1]).dtype == np.int32 and board.distance([], []).shape == (0,)


def test_distance_errors():
    from kernel import load

    board = load("71")
    with pytest.raises(ValueError, match=re.escape("distance: a has shape (2,) and b (3,): expected shapes that "
                                                   "broadcast (equal, one hex against many, or (K, 1) against (M,))")):
        board.distance(["71I4", "71I5"], ["71I6", "71I7", "71I8"])
    with pytest.raises(KeyError, match="hex '71ZZ1' is not on this map"):
        board.distance("71ZZ1", "71I4")
    with pytest.raises(IndexError, match=r"distance: b: hex index 9999 out of range: expected 0\.\.345"):
        board.distance(np.array([1, 2]), np.array([3, 9999]))
    with pytest.raises(TypeError, match="distance: a has dtype float64: expected hex names or indices"):
        board.distance(np.array([1.5]), 3)
    with pytest.raises(TypeError, match="distance: a is None: expected a hex"):
        board.distance(None, 3)
