"""Checks of the VASL grid reference (``tests/reference/vasl_grid_reference.py``).

The reference is checked against facts derived here by hand from VASL's
geometry (listed in the reference's module docstring), against a second,
independently written rule (VASL's own rectangle naming, near hex centres),
and on real VASL saved games from ``../shared/vasl/saves`` (skipped when that
folder is absent).

Hand derivations (one geomorphic board at layout cell (0, 0) and VASL's
400 px map edge, so the board covers map x 400..2199 and y 400..1044):

* the board is 1800 x 645 px: 32 column pitches of 56.25 px between the
  centres of A and GG, 10 hex heights of 64.5 px;
* 2A1: column 0, hex 1, board point (0, 32.25) -> map (400, 432.25), on the
  board's left edge (the rectangle is closed on the left);
* 2B0: column 1 (odd), hex 0, board point (56.25, 0) -> map (456.25, 400) on
  the top edge;
* 2I9: I is column 8 (even), hex 9, board point (8 * 56.25, 32.25 + 8 * 64.5)
  = (450, 548.25) -> map (850, 948.25);
* 2GG10: column 32, hex 10, board point (1800, 612.75) -> map (2200, 1012.75),
  which is outside the board (open on the right): the point (2199, 1012) is
  board point (1799, 612), inside GG10;
* Hill 621 (boards 2, 4, 3 in one column): board 4 starts at y = 400 + 645 =
  1045 and board 3 at 1045 + 645 = 1690, so 4I9 is at (850, 1593.25) and 3I9 at
  (850, 2238.25);
* board 2 rotated: map (850, 948) is board point (450, 548) and the board's
  own point (1800 - 450, 645 - 548) = (1350, 97): column 24 = Y (even), 97 is
  0.25 px from 96.75 = 32.25 + 64.5, the centre of Y2; and Y2 is the
  180-degree turn of I9 (column 32 - 8 = 24, hex 11 - 9 = 2);
* a seam in one layout column: 2B10's centre (56.25, 645) is map (456.25,
  1045), the first row of board 4, whose B0 has the same centre;
* Stalingrad's blue perimeter marker at map (653, 706) is board point
  (253, 306); E5's centre is (225, 290.25): dx = 28, dy = 15.75 and
  32.25 * 28 + 18.75 * 15.75 = 1198.3 <= 37.5 * 32.25 = 1209.375, so it is in
  E5; F5's centre (281.25, 322.5) gives 32.25 * 28.25 + 18.75 * 16.5 = 1220.4,
  outside F5: the marker is in 1E5;
* the four units on board 00 of ``full.vsav`` sit at (512, 496), (568, 528),
  (625, 496) and (681, 528): board points (112, 96), (168, 128), (225, 96),
  (281, 128), within 1.5 px of the centres of C2 (112.5, 96.75), D2 (168.75,
  129), E2 (225, 96.75) and F2 (281.25, 129).
"""

from __future__ import annotations

import math
import random
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from tests.reference.vasl_grid_reference import (
    GEO_IMAGE_HEIGHT,
    GEO_IMAGE_WIDTH,
    HEX_HEIGHT,
    HEX_PITCH_X,
    MAP_EDGE,
    board_grid,
    board_hexes,
    board_label,
    board_origins,
    column_index,
    column_letters,
    geomorphic_board_size,
    hex_at_pixel,
    hex_centre,
    in_hexagon,
    parse_add_piece,
    parse_board_layout,
    read_save,
    save_commands,
)
from tests.shared_data import require, vasl_folder

HILL_621 = "Hill 621 (Scenario E).vsav"
STALINGRAD = "The Streets Of Stalingrad (Scenario C).vsav"

SIZE = geomorphic_board_size
ONE_BOARD = [(0, 0, "02", False)]
ONE_BOARD_ROTATED = [(0, 0, "02", True)]
HILL_621_LAYOUT = [(0, 0, "02", False), (0, 1, "04", False), (0, 2, "03", False)]


def save_path(name: str) -> Path:
    """The saved game ``name`` from ``../shared/vasl/saves``, or skip the test."""
    return require("vasl", "saves", name)


def split_name(name: str) -> tuple[str, int, int]:
    """``"2I9"`` -> ("2", 8, 9): board label, column index, hex number (test-side parser)."""
    i = len(name)
    while name[i - 1].isdigit():
        i -= 1
    j = i
    while j > 0 and name[j - 1].isalpha() and name[j - 1] == name[i - 1]:
        j -= 1
    return name[:j], column_index(name[j:i]), int(name[i:])


def turned(name: str) -> str:
    """The 180-degree turn of a hex of a 33 x 10 board: column 32 - c, hex 11 - n (even c) or 10 - n (odd c)."""
    board, c, n = split_name(name)
    new_n = 11 - n if c % 2 == 0 else 10 - n
    return f"{board}{column_letters(32 - c)}{new_n}"


def vasl_rectangle_name(bx: float, by: float) -> str:
    """VASL's own location name of a board point (``ASLHexGrid.locationName``), written from its facts.

    Grid: dx 56.24, dy 64.51, origin (0, 32); the point is shifted by
    (-origin.x, dy / 2 - origin.y); column floor(x / dx + 0.5); hex
    floor(y / dy) + 1 in even columns, floor(y / dy + 0.5) in odd ones.
    """
    dx, dy, x0, y0 = 56.24, 64.51, 0, 32
    px = bx - x0
    py = by + dy / 2 - y0
    c = math.floor(px / dx + 0.5)
    n = math.floor(py / dy) + 1 if c % 2 == 0 else math.floor(py / dy + 0.5)
    return f"{column_letters(c)}{n}"


# --- board geometry -----------------------------------------------------------------


def test_geomorphic_board_is_1800_by_645_pixels_of_33_by_10_hexes():
    assert geomorphic_board_size("02") == (1800, 645) == (GEO_IMAGE_WIDTH, GEO_IMAGE_HEIGHT)
    assert HEX_PITCH_X == 56.25 and 32 * HEX_PITCH_X == 1800
    assert HEX_HEIGHT == 64.5 and 10 * HEX_HEIGHT == 645
    assert board_grid(1800, 645) == (33, 10)
    hexes = board_hexes()
    assert len(hexes) == 346
    per_column = Counter(c for c, _n, _x, _y in hexes)
    assert per_column[0] == 10 and per_column[1] == 11 and per_column[32] == 10
    numbers = {c: sorted(n for cc, n, _x, _y in hexes if cc == c) for c in (0, 1)}
    assert numbers[0] == list(range(1, 11)) and numbers[1] == list(range(11))


def test_column_letters_double_after_z():
    assert [column_letters(i) for i in range(0, 33, 8)] == ["A", "I", "Q", "Y", "GG"]
    assert column_letters(25) == "Z" and column_letters(26) == "AA" and column_letters(27) == "BB"
    assert all(column_index(column_letters(i)) == i for i in range(60))


def test_board_label_drops_leading_zeros_of_numbers_only():
    assert [board_label(b) for b in ("02", "00", "10", "43", "RB", "DB")] == ["2", "0", "10", "43", "RB", "DB"]


@pytest.mark.parametrize(("name", "centre", "pixel"), [
    ("2A1", (400.0, 432.25), (400, 432)),
    ("2B0", (456.25, 400.0), (456, 400)),
    ("2I9", (850.0, 948.25), (850, 948)),
    ("2GG10", (2200.0, 1012.75), (2199, 1012)),
])
def test_named_hex_centres_derived_by_hand(name, centre, pixel):
    assert hex_centre(ONE_BOARD, name, layout_size=SIZE) == centre
    assert hex_at_pixel(ONE_BOARD, *pixel, layout_size=SIZE) == name


def test_hexagons_have_vasl_corners():
    # corners (+-37.5, 0) and (+-18.75, +-32.25) around the centre, edges included
    for corner in ((37.5, 0), (-37.5, 0), (18.75, 32.25), (-18.75, -32.25)):
        assert in_hexagon(*corner, 0, 0)
    for outside in ((37.6, 0), (0, 32.3), (19, 32.25), (28.2, 16.2)):
        assert not in_hexagon(*outside, 0, 0)


def test_every_point_of_the_board_lies_in_a_hex_at_most_37_5_px_from_its_centre():
    rng = random.Random(20240611)
    for _ in range(2000):
        x = rng.uniform(400, 2200)
        y = rng.uniform(400, 1045)
        name = hex_at_pixel(ONE_BOARD, x, y, layout_size=SIZE)
        cx, cy = hex_centre(ONE_BOARD, name, layout_size=SIZE)
        assert math.hypot(x - cx, y - cy) <= 37.5
        # no other hex centre is nearer by more than rounding: the hexagons are the printed hexes
        nearest = min(math.hypot(x - 400 - hx, y - 400 - hy) for _c, _n, hx, hy in board_hexes())
        assert math.hypot(x - cx, y - cy) <= nearest + 1.0


def test_every_hex_centre_round_trips_except_right_and_bottom_edge_halves():
    none = []
    for c, n, _x, _y in board_hexes():
        name = f"2{column_letters(c)}{n}"
        got = hex_at_pixel(ONE_BOARD, *hex_centre(ONE_BOARD, name, layout_size=SIZE), layout_size=SIZE)
        if got is None:
            none.append((c, n))
        else:
            assert got == name
    # GG (10 hexes) lies on the open right edge, hex 10 of the 16 odd columns on the open bottom edge
    assert sorted(none) == sorted([(32, n) for n in range(1, 11)] + [(c, 10) for c in range(1, 32, 2)])


def test_vasl_rectangle_names_agree_with_hexagons_near_centres():
    rng = random.Random(7)
    hexes = board_hexes()
    for _ in range(2000):
        _c, _n, hx, hy = rng.choice(hexes)
        angle = rng.uniform(0, 2 * math.pi)
        radius = rng.uniform(0, 20)
        bx = hx + radius * math.cos(angle)
        by = hy + radius * math.sin(angle)
        if not (0 <= bx < 1800 and 0 <= by < 645):
            continue
        assert hex_at_pixel(ONE_BOARD, 400 + bx, 400 + by, layout_size=SIZE) == f"2{vasl_rectangle_name(bx, by)}"


def test_hexagon_corners_differ_from_vasl_rectangles():
    # board point (477, 2): in I1's rectangle (column band 450 +- 28.1, rows cut at y = 0 and 64.5)
    # but beyond I1's NE hexside (32.25 * 27 + 18.75 * 30.25 = 1438 > 1209.375); it is in J0,
    # centre (506.25, 0): 32.25 * 29.25 + 18.75 * 2 = 981 <= 1209.375
    assert vasl_rectangle_name(477, 2) == "I1"
    assert hex_at_pixel(ONE_BOARD, 400 + 477, 402, layout_size=SIZE) == "2J0"


# --- rotated boards -------------------------------------------------------------------


def test_rotated_board_gives_the_180_degree_hex():
    assert hex_at_pixel(ONE_BOARD_ROTATED, 850, 948, layout_size=SIZE) == "2Y2" == turned("2I9")
    rng = random.Random(180)
    for _ in range(1000):
        x = rng.uniform(400, 2200)
        y = rng.uniform(400, 1045)
        rotated = hex_at_pixel(ONE_BOARD_ROTATED, x, y, layout_size=SIZE)
        # the turned board names the 180-degree turn of the hex the unturned board has there ...
        assert rotated == turned(hex_at_pixel(ONE_BOARD, x, y, layout_size=SIZE))
        # ... which is the hex the unturned board has at the point mirrored through its centre
        mirrored = (2 * 400 + 1800 - x, 2 * 400 + 645 - y)
        assert rotated == hex_at_pixel(ONE_BOARD, *mirrored, layout_size=SIZE)


def test_rotated_board_round_trips_except_its_left_and_top_edge_names():
    none = []
    for c, n, _x, _y in board_hexes():
        name = f"2{column_letters(c)}{n}"
        got = hex_at_pixel(ONE_BOARD_ROTATED, *hex_centre(ONE_BOARD_ROTATED, name, layout_size=SIZE),
                           layout_size=SIZE)
        if got is None:
            none.append((c, n))
        else:
            assert got == name
    # turned, column A lies on the open right edge and hex 0 of odd columns on the open bottom edge
    assert sorted(none) == sorted([(0, n) for n in range(1, 11)] + [(c, 0) for c in range(1, 32, 2)])


# --- layouts ----------------------------------------------------------------------------


def test_boards_in_one_column_stack_by_height():
    assert board_origins(HILL_621_LAYOUT, layout_size=SIZE) == [
        (400, 400, 1800, 645), (400, 1045, 1800, 645), (400, 1690, 1800, 645)]
    assert hex_at_pixel(HILL_621_LAYOUT, 850, 948, layout_size=SIZE) == "2I9"
    assert hex_at_pixel(HILL_621_LAYOUT, 850, 1593, layout_size=SIZE) == "4I9"
    assert hex_at_pixel(HILL_621_LAYOUT, 850, 2238, layout_size=SIZE) == "3I9"
    assert hex_centre(HILL_621_LAYOUT, "3I9", layout_size=SIZE) == (850.0, 2238.25)
    assert hex_at_pixel(HILL_621_LAYOUT, 850, 2335, layout_size=SIZE) is None  # bottom margin


def test_boards_in_one_row_line_up_by_width():
    layout = [(0, 0, "01", False), (1, 0, "02", False)]
    assert board_origins(layout, layout_size=SIZE)[1] == (2200, 400, 1800, 645)
    assert hex_at_pixel(layout, 2199, 432, layout_size=SIZE) == "1GG1"
    assert hex_at_pixel(layout, 2200, 432, layout_size=SIZE) == "2A1"


def test_empty_layout_cell_adds_no_width():
    # VASSAL's width table holds 0 for an empty cell: a board alone in column 1 starts at the edge
    assert board_origins([(1, 0, "02", False)], layout_size=SIZE) == [(400, 400, 1800, 645)]
    two = [(0, 1, "04", False), (1, 0, "02", False)]
    assert board_origins(two, layout_size=SIZE) == [(400, 400, 1800, 645), (400, 400, 1800, 645)]


def test_seam_pixel_takes_the_name_of_its_own_half():
    # 2B10 and 4B0 share a centre (456.25, 1045): the row above is board 2's half, the row at 1045 board 4's
    assert hex_centre(HILL_621_LAYOUT, "2B10", layout_size=SIZE) == hex_centre(HILL_621_LAYOUT, "4B0",
                                                                             layout_size=SIZE)
    assert hex_at_pixel(HILL_621_LAYOUT, 456, 1044, layout_size=SIZE) == "2B10"
    assert hex_at_pixel(HILL_621_LAYOUT, 456, 1045, layout_size=SIZE) == "4B0"
    # a rotated right-hand board puts its GG column against the left board's GG column
    layout = [(0, 0, "01", False), (1, 0, "02", True)]
    assert hex_centre(layout, "1GG6", layout_size=SIZE) == hex_centre(layout, "2GG5", layout_size=SIZE)
    assert hex_at_pixel(layout, 2199, 755, layout_size=SIZE) == "1GG6"
    assert hex_at_pixel(layout, 2200, 755, layout_size=SIZE) == "2GG5"


def test_layout_size_moves_the_next_board_and_sizes_the_grid():
    layout = [(0, 0, "01", False), (1, 0, "02", False)]

    def narrow(board_number):
        return (900, 645) if board_number == "01" else (1800, 645)

    # map (1310, 432): board 1's point (910, 32), in Q1 (900, 32.25); with board 1 only 900 px wide,
    # board 2 starts at x = 1300 and the point is its (10, 32), in A1
    assert hex_at_pixel(layout, 1310, 432, layout_size=SIZE) == "1Q1"
    assert hex_at_pixel(layout, 1310, 432, layout_size=narrow) == "2A1"
    assert board_grid(900, 645) == (17, 10)


def test_edge_moves_every_board():
    assert hex_at_pixel(ONE_BOARD, 850, 948, layout_size=SIZE) == "2I9"
    assert hex_at_pixel(ONE_BOARD, 450, 548, layout_size=SIZE, edge=(0, 0)) == "2I9"
    assert hex_at_pixel(ONE_BOARD, 850, 948, layout_size=SIZE, edge=(0, 0)) is None
    assert MAP_EDGE == (400, 400)


# --- errors -----------------------------------------------------------------------------------


def test_layout_errors_name_the_entry():
    with pytest.raises(ValueError, match=r"layout entries 0 and 1 both use cell \(column 0, row 0\)"):
        hex_at_pixel([(0, 0, "02", False), (0, 0, "04", False)], 500, 500, layout_size=SIZE)
    with pytest.raises(ValueError, match=r"layout entry 0 must be \(column, row, board_number, rotated\)"):
        hex_at_pixel([(0, 0, "02")], 500, 500, layout_size=SIZE)
    with pytest.raises(ValueError, match=r"layout entry 0 .*row must be an int >= 0, got -1"):
        hex_at_pixel([(0, -1, "02", False)], 500, 500, layout_size=SIZE)
    with pytest.raises(TypeError, match=r"rotated must be a bool, got 'r'"):
        hex_at_pixel([(0, 0, "02", "r")], 500, 500, layout_size=SIZE)
    with pytest.raises(TypeError, match=r"board_number must be a str, got 2"):
        hex_at_pixel([(0, 0, 2, False)], 500, 500, layout_size=SIZE)
    with pytest.raises(ValueError, match=r"board_number must not be empty"):
        hex_at_pixel([(0, 0, "", False)], 500, 500, layout_size=SIZE)


def test_bad_sizes_edges_and_points_are_refused():
    with pytest.raises(ValueError, match=r"layout_size\('02'\) must give \(width_px, height_px\) .*got \(1800,\)"):
        hex_at_pixel(ONE_BOARD, 500, 500, layout_size=lambda b: (1800,))
    with pytest.raises(ValueError, match=r"edge must be \(width_px, height_px\) .*got \(400, -1\)"):
        hex_at_pixel(ONE_BOARD, 500, 500, layout_size=SIZE, edge=(400, -1))
    with pytest.raises(ValueError, match=r"y must be a finite number of pixels, got nan"):
        hex_at_pixel(ONE_BOARD, 500, float("nan"), layout_size=SIZE)
    with pytest.raises(ValueError, match=r"lies in none of its hexes; expected a board size of whole hexes"):
        hex_at_pixel(ONE_BOARD, 500, 400 + 660, layout_size=lambda b: (1800, 670))


def test_hex_centre_errors():
    with pytest.raises(ValueError, match=r"hex name must be board number, column letters and hex number"):
        hex_centre(ONE_BOARD, "I9", layout_size=SIZE)
    with pytest.raises(ValueError, match=r"board '4' is not in the layout \(boards \['2'\]\)"):
        hex_centre(ONE_BOARD, "4I9", layout_size=SIZE)
    with pytest.raises(ValueError, match=r"hex '2A0' is not on board '2'"):
        hex_centre(ONE_BOARD, "2A0", layout_size=SIZE)
    with pytest.raises(ValueError, match=r"board '2' appears 2 times"):
        hex_centre([(0, 0, "02", False), (0, 1, "02", False)], "2I9", layout_size=SIZE)
    with pytest.raises(ValueError, match=r"column letters must repeat one letter"):
        column_index("AB")
    with pytest.raises(ValueError, match=r"column index must be an int >= 0, got -1"):
        column_letters(-1)


# --- saved games: the format -----------------------------------------------------------------


def write_save(path: Path, text: str, key: int = 0x2A, member: str = "savedGame") -> Path:
    """A ``.vsav`` holding ``text``, obfuscated as the format facts say."""
    body = "".join(f"{b ^ key:02x}" for b in text.encode("utf-8"))
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(member, f"!VCSK{key:02x}{body}")
    return path


def test_read_save_decodes_a_written_save(tmp_path):
    commands = [
        "begin_save",
        "bd\t0\t0\t02\tVER\t6.4\tbd\t1\t0\tr04\tVER\t6.1\t",
        "+/1/piece;K;D;img;8-3-8 Esq/x\tMain Map;850;948;7\\",
        "+/2/stack/Main Map;850;948;1",
        "+/3/piece;K;D;img;SPW 251\\/1/x\tnull;0;0;9",
        "+/4/mark;Type\\\tpiece;K;D;ge\\/img;SPW 251\\/1/y\\\tMain Map;2300;500;8",
        "end_save",
    ]
    text = "\x1b".join(commands)
    layout, pieces = read_save(write_save(tmp_path / "game.vsav", text))
    assert layout == [(0, 0, "02", False), (1, 0, "04", True)]
    assert pieces == [("1", "8-3-8 Esq", "Main Map", 850, 948), ("4", "SPW 251/1", "Main Map", 2300, 500)]
    assert hex_at_pixel(layout, 850, 948, layout_size=SIZE) == "2I9"
    assert hex_at_pixel(layout, 2300, 500, layout_size=SIZE) == "4EE9"  # board point (100, 100), turned


def test_parse_board_layout_reads_rotation_and_refuses_crops():
    assert parse_board_layout("bd\t0\t0\tr02\tVER\t6.4\tov1\tA1\tA2\t") == [(0, 0, "02", True)]
    assert parse_board_layout("bd\t") == []
    with pytest.raises(ValueError, match=r"board '02' at cell \(0, 0\) is cropped to \['0', '0', '900', '645'\]"):
        parse_board_layout("bd\t0\t0\t02\t0\t0\t900\t645\tVER\t6.4\t")
    with pytest.raises(ValueError, match=r"board '02' at cell \(0, 0\) is magnified"):
        parse_board_layout("bd\t0\t0\t02\tVER\t6.4\t\tZOOM\t1.5")
    with pytest.raises(ValueError, match=r"board record .*expected column, row and board name"):
        parse_board_layout("bd\tx\t0\t02\tVER\t6.4\t")
    with pytest.raises(ValueError, match=r"not a board layout command"):
        parse_board_layout("INFO\tAxis")


def test_parse_add_piece_keeps_only_pieces_with_a_map_position():
    assert parse_add_piece("+/5/piece;K;D;img;LMG/s\tCasualties;10;20") == ("5", "LMG", "Casualties", 10, 20)
    assert parse_add_piece("+/6/stack/Main Map;594;267") is None
    assert parse_add_piece("+/7/piece;K;D;img;LMG/s\tnull;0;0") is None
    assert parse_add_piece("+/8/piece;K;D;img;LMG/s\tMain Map;x;0") is None
    assert parse_add_piece("OBA/+/0/dead42beef") is None


def test_bad_save_files_are_refused(tmp_path):
    with pytest.raises(ValueError, match=r"no member 'savedGame' in the zip archive"):
        save_commands(write_save(tmp_path / "a.vsav", "begin_save", member="other"))
    bad_header = tmp_path / "b.vsav"
    with zipfile.ZipFile(bad_header, "w") as archive:
        archive.writestr("savedGame", "!XXXX2a00")
    with pytest.raises(ValueError, match=r"savedGame starts '!XXXX2a', expected '!VCSK'"):
        save_commands(bad_header)
    odd = tmp_path / "c.vsav"
    with zipfile.ZipFile(odd, "w") as archive:
        archive.writestr("savedGame", "!VCSK2a123")
    with pytest.raises(ValueError, match=r"body is not pairs of hex digits \(3 characters\)"):
        save_commands(odd)
    bad_key = tmp_path / "e.vsav"
    with zipfile.ZipFile(bad_key, "w") as archive:
        archive.writestr("savedGame", "!VCSKzz00")
    with pytest.raises(ValueError, match=r"key 'zz' after '!VCSK' is not two hex digits"):
        save_commands(bad_key)
    not_zip = tmp_path / "d.vsav"
    not_zip.write_text("hello")
    with pytest.raises(ValueError, match=r"not a zip archive"):
        save_commands(not_zip)


# --- saved games: the real ones -----------------------------------------------------------------


def on_board(layout, pieces):
    """The main-map pieces that fall on a board, with their hex names."""
    named = []
    for piece in pieces:
        if piece[2] == "Main Map":
            name = hex_at_pixel(layout, piece[3], piece[4], layout_size=SIZE)
            if name is not None:
                named.append((piece, name))
    return named


def assert_in_map_extent(layout, pieces, boards_wide, boards_high):
    """Every main-map piece lies within the map: the boards and VASL's 400 px edge all round."""
    width = 2 * 400 + boards_wide * 1800
    height = 2 * 400 + boards_high * 645
    for piece in pieces:
        assert 0 <= piece[3] < width and 0 <= piece[4] < height, piece


def test_hill_621_save_boards_2_4_3_in_one_column():
    layout, pieces = read_save(save_path(HILL_621))
    assert layout == HILL_621_LAYOUT
    assert len(pieces) == 163
    assert {p[2] for p in pieces} == {"Main Map"}
    names = {p[1] for p in pieces}
    assert {"8-3-8 Esq", "SPW 251/1", "T-34 M43", "geLDR"} <= names
    assert_in_map_extent(layout, pieces, 1, 3)
    # this scenario is saved before set-up: every unit and marker waits in the map's margins
    assert on_board(layout, pieces) == []
    assert all(hex_at_pixel(layout, p[3], p[4], layout_size=SIZE) is None for p in pieces)


def test_streets_of_stalingrad_save_board_1():
    layout, pieces = read_save(save_path(STALINGRAD))
    assert layout == [(0, 0, "01", False)]
    assert len(pieces) == 342
    assert {p[2] for p in pieces} == {"Main Map"}
    assert_in_map_extent(layout, pieces, 1, 1)
    named = on_board(layout, pieces)
    assert len(named) == 121
    assert Counter(piece[1] for piece, _name in named) == {
        "Blue perimeter": 76, "Black perimeter": 44, "User-Labeled": 1}
    for piece, name in named:
        board, c, n = split_name(name)
        assert board == "1" and 0 <= c <= 32 and (1 <= n <= 10 if c % 2 == 0 else 0 <= n <= 10)
        cx, cy = hex_centre(layout, name, layout_size=SIZE)
        assert math.hypot(piece[3] - cx, piece[4] - cy) <= 37.5
    by_position = {(piece[3], piece[4]): name for piece, name in named}
    assert by_position[(653, 706)] == "1E5"  # derived by hand in the module docstring


def test_full_save_units_sit_on_hex_centres_of_board_00():
    layout, pieces = read_save(save_path("full.vsav"))
    assert layout == [(0, 0, "00", False)]
    assert len(pieces) == 26
    named = {(piece[1], name) for piece, name in on_board(layout, pieces)}
    assert named == {("6-4-8 Esq", "0C2"), ("LMG", "0D2"), ('81* MTR OML 3.2"', "0E2"),
                     ("Churchill Crocodile", "0F2")}
    for piece, name in on_board(layout, pieces):
        cx, cy = hex_centre(layout, name, layout_size=SIZE)
        # VASL snaps to its own 56.24 x 64.51 px grid and to whole pixels
        assert math.hypot(piece[3] - cx, piece[4] - cy) <= 1.5


def test_empty_save_has_no_boards_and_no_pieces():
    assert read_save(save_path("empty.vsav")) == ([], [])
