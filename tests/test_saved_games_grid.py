"""Hex by hex: the importer's hex of every piece equals the independent VASL grid reference's.

``tests/reference/vasl_grid_reference.py`` was written apart from the
importer, from VASL's published geometry: it reads a save's layout and its
pieces' map positions itself, and names the hex holding a map pixel.  Its
names are of the half hex a pixel lies on at a seam of two boards; the map
names that hex once (A2.2), so a reference name is looked up through the
map's merged half hexes.  A board without a number of its own (``00``) is
renumbered on the map (``901``): the reference's board label is replaced by
the map's number of the same ``bd`` entry.

Checked on the public saves (every piece with a position on the main map:
in the margins, the reference finds no hex and the importer none either)
and on saves written here with a piece at every hex of two boards, one
rotated, at its centre and at random points of the boards.  Where the two
differ by design (a pixel on the right or bottom edge of the map's last
boards, which the importer gives to the board and the reference to the
margin), the reference's hex one pixel inside is the importer's.
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

import kernel
from kernel.grid.references import merged_half_hex_names
from kernel.importers.vasl.save_writer import SaveBoard, SavePiece, write_saved_game
from tests.reference.vasl_grid_reference import (NAME_PATTERN, board_label, board_origins, geomorphic_board_size,
                                                 hex_at_pixel, hex_centre, read_save)
from tests.vasl_saves import write_boards

VASL = Path(__file__).resolve().parent.parent.parent / "shared" / "vasl"
SAVES = VASL / "saves"
REAL = ["Hill 621 (Scenario E).vsav", "The Streets Of Stalingrad (Scenario C).vsav", "full.vsav"]


def read(path, folder):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        return kernel.read_saved_game(path, folder)


def compare(game, path) -> tuple[int, int]:
    """Check every positioned piece of ``path`` against the reference; returns (pieces on a board, in margins)."""
    layout, positioned = read_save(path)
    board = game.board
    by_name = dict(merged_half_hex_names(board))
    by_name.update({name: i for i, name in enumerate(board.names)})
    numbers = {board_label(entry[2]): placed.number for entry, placed in zip(layout, game.layout.boards)}
    ours = {piece.piece_id: piece for piece in game.pieces}
    on_board = margin = edge = 0
    for piece_id, _name, map_name, x, y in positioned:
        if map_name != "Main Map":
            continue
        mine = ours[piece_id]
        expected = hex_at_pixel(layout, x, y, layout_size=geomorphic_board_size)
        if expected is None and mine.on_board:
            # the importer's one documented difference: the right and bottom edges of the map's last boards (where
            # their edge half hexes' centres lie) are the boards'; the reference's rectangles stop one pixel short
            edges = [(x0 + w, y0 + h) for x0, y0, w, h in board_origins(layout, layout_size=geomorphic_board_size)]
            dx = 1 if any(x == right for right, _ in edges) else 0
            dy = 1 if any(y == bottom for _, bottom in edges) else 0
            assert dx or dy, (piece_id, x, y, mine.location)
            expected = hex_at_pixel(layout, x - dx, y - dy, layout_size=geomorphic_board_size)
            edge += 1
        if expected is None:
            assert not mine.on_board, (piece_id, x, y, mine.location)
            margin += 1
            continue
        match = NAME_PATTERN.match(expected)
        name = numbers[match["board"]] + match["letters"] + match["number"]
        assert mine.hex == by_name[name], (piece_id, x, y, expected, mine.location)
        on_board += 1
    return on_board, margin


@pytest.mark.skipif(not SAVES.is_dir(), reason="VASL saved games (../shared/vasl/saves) not present")
@pytest.mark.parametrize("name", REAL)
def test_the_public_saves_hex_by_hex(name):
    path = SAVES / name
    on_board, margin = compare(read(path, VASL), path)
    assert (on_board, margin) == {"Hill 621 (Scenario E).vsav": (0, 163),
                                  "The Streets Of Stalingrad (Scenario C).vsav": (121, 221),
                                  "full.vsav": (4, 22)}[name]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_boards(tmp_path_factory.mktemp("vasl") / "boards")


LAYOUTS = {"side by side, the right one rotated": [SaveBoard(0, 0, "05", "1.0"),
                                                   SaveBoard(1, 0, "06", "1.0", rotated=True)],
           "one above the other, the top one rotated": [SaveBoard(0, 0, "06", "1.0", rotated=True),
                                                        SaveBoard(0, 1, "05", "1.0")]}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_written_saves_hex_by_hex(folder, tmp_path, layout):
    boards = LAYOUTS[layout]
    entries = [(b.column, b.row, b.name, b.rotated) for b in boards]
    pieces = []
    for board in boards:   # a unit at the centre of every hex of both boards (rounded to whole pixels)
        for column in range(33):
            letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[column % 26] * (column // 26 + 1)
            for number in range(0 if column % 2 else 1, 11):
                x, y = hex_centre(entries, f"{int(board.name)}{letters}{number}", layout_size=geomorphic_board_size)
                pieces.append(SavePiece("4-6-7 1sq", int(round(x)), int(round(y)), "ge"))
    draw = random.Random(layout)
    width = 400 + 1800 * (1 + max(b.column for b in boards)) + 400
    height = 400 + 645 * (1 + max(b.row for b in boards)) + 400
    pieces += [SavePiece("4-6-7 1sq", draw.randrange(width), draw.randrange(height), "ge") for _ in range(1200)]
    path = write_saved_game(tmp_path / "grid.vsav", boards, pieces)
    on_board, margin = compare(read(path, folder), path)
    assert on_board > 2 * 346 and margin > 100
