"""Where a VASL save's boards lie on its main map, and which board hex a pixel of that map falls in.

VASL's board picker lays the boards out as a grid of columns and rows (the
``bd`` record): a board's left edge is the sum of the widths of the boards
left of it in its row, its top the sum of the heights of the boards above it
in its column, both after the map's margin of
:data:`~kernel.importers.vasl.save_rules.EDGE_BUFFER` pixels.  A board's size
is its picture's (its ``LOSData`` grid: 1800 x 645 pixels for a standard
board), or its crop rectangle's, times its magnification (``ZOOM``).

:func:`hex_at` turns a map pixel into the board it lies on and the board
hex (column, number) that holds it (:func:`nearest_cell`), in that board's own pixels: as
VASL does it, the pixel is moved to the board's corner, turned about the
board's centre when the board lies rotated, divided by the magnification and
moved by the crop rectangle's corner.  A pixel outside every board (the
margins, the setup areas) lies on no board.

:func:`find_board` finds a board's files in the user's folder of VASL boards,
as VASL keeps them: ``bdNN`` (a folder or an archive) or ``bdNN.zip``.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

from kernel.importers.vasl.pixels import COLUMN_PITCH, UNIT_X, UNIT_Y, pixel_centre
from kernel.importers.vasl.save_rules import EDGE_BUFFER
from kernel.importers.vasl.save_stream import BoardRecord


def find_board(folder: Path, record: BoardRecord, where: str) -> Path:
    """The path of a save's board in the folder of VASL boards: ``bd<name>``, else ``bd<name>.zip``
    (any case).

    Raises
    ------
    FileNotFoundError
        Neither is in ``folder`` (the message names both and the folder).
    """
    wanted = [f"bd{record.board_name}", f"bd{record.board_name}.zip"]
    for name in wanted:
        if (folder / name).exists():
            return folder / name
    try:
        with os.scandir(folder) as entries:
            by_lower = {}
            for count, entry in enumerate(entries):
                if count > 100_000:
                    break
                by_lower.setdefault(entry.name.lower(), entry.name)
    except OSError:
        by_lower = {}
    for name in wanted:
        if name.lower() in by_lower:
            return folder / by_lower[name.lower()]
    raise FileNotFoundError(
        f"{where}: board {record.board_name!r} (bd record, board {record.index + 1}) is not in the VASL boards "
        f"folder {str(folder)!r}: looked for {wanted[0]} and {wanted[1]} (a VASL board folder or archive)")


@dataclass
class PlacedBoard:
    """One board of a save's map: its record, files, hex names' board number and its rectangle on the map."""

    record: BoardRecord
    path: Path
    number: str                 # the board number of its hex names ("2")
    columns: int
    rows: int
    width: int                  # its picture's pixels (uncropped, unmagnified)
    height: int
    left: int = 0               # its rectangle on the main map, in map pixels
    top: int = 0
    shown_width: int = 0
    shown_height: int = 0

    def contains(self, x: int, y: int) -> bool:
        """Whether map pixel ``(x, y)`` lies on this board's rectangle."""
        return self.left <= x < self.left + self.shown_width and self.top <= y < self.top + self.shown_height


def lay_out(boards: list[PlacedBoard]) -> None:
    """Set each board's rectangle as VASL's map places it (module docstring)."""
    for board in boards:
        record = board.record
        width, height = board.width, board.height
        if record.crop is not None:
            x, y, w, h = record.crop
            width = w if w > 0 else width - x
            height = h if h > 0 else height - y
        board.shown_width = max(int(round(width * record.zoom)), 0)
        board.shown_height = max(int(round(height * record.zoom)), 0)
    widths = {(b.record.column, b.record.row): b.shown_width for b in boards}
    heights = {(b.record.column, b.record.row): b.shown_height for b in boards}
    for board in boards:
        column, row = board.record.column, board.record.row
        board.left = EDGE_BUFFER + sum(widths.get((c, row), 0) for c in range(column))
        board.top = EDGE_BUFFER + sum(heights.get((column, r), 0) for r in range(row))


def local_pixel(board: PlacedBoard, x: int, y: int) -> tuple[float, float]:
    """Map pixel ``(x, y)`` in the board's own pixels (uncropped, unrotated, unmagnified)."""
    px, py = x - board.left, y - board.top
    if board.record.rotated:
        px, py = board.shown_width - px, board.shown_height - py
    zoom = board.record.zoom
    if zoom != 1.0:
        px, py = round(px / zoom), round(py / zoom)
    if board.record.crop is not None:
        px, py = px + board.record.crop[0], py + board.record.crop[1]
    return float(px), float(py)


def nearest_cell(columns: int, rows: int, px: float, py: float) -> tuple[int, int]:
    """The cell ``(column, number)`` of a geomorphic board holding its pixel ``(px, py)``, as VASL's LOS map
    finds a piece's hex: the hex whose hexagon holds the pixel, edges included (corners ``(cx +- 37.5, cy)``
    and ``(cx +- 18.75, cy +- 32.25)``: VASL's hexes, which tile the board), the nearest centre of two or
    three on a hexside or vertex, then the lower column, then the lower number.

    >>> nearest_cell(33, 10, 450.0, 548.0), nearest_cell(33, 10, 0.0, 0.0), nearest_cell(33, 10, 57.0, 2.0)
    ((8, 9), (0, 1), (1, 0))
    """
    best = None
    first = math.floor(px / COLUMN_PITCH)
    for column in (first - 1, first, first + 1, first + 2):
        if not 0 <= column < columns:
            continue
        odd = column % 2
        low, high = (0 if odd else 1), rows
        guess = round((py / UNIT_Y + 1 - odd) / 2)
        for number in (guess - 1, guess, guess + 1):
            if not low <= number <= high:
                continue
            cx, cy = pixel_centre(column, number)
            dx, dy = abs(px - cx), abs(py - cy)
            inside = dy <= UNIT_Y and UNIT_Y * dx + UNIT_X * dy <= 2 * UNIT_X * UNIT_Y
            key = (not inside, dx * dx + dy * dy, column, number)
            if best is None or key < best:
                best = key
    if best is None:  # a point beyond the board's cells (cannot happen for a pixel on the board): clamp
        column = min(max(first, 0), columns - 1)
        odd = column % 2
        return column, min(max(round((py / UNIT_Y + 1 - odd) / 2), 0 if odd else 1), rows)
    return best[2], best[3]


def hex_at(boards: list[PlacedBoard], x: int, y: int) -> tuple[PlacedBoard, int, int] | None:
    """The board and its cell ``(column, number)`` holding map pixel ``(x, y)``, or None off every board.

    As VASL's map, the first board whose rectangle holds the pixel; a pixel
    on the right or bottom edge of the map's last board (where the centres of
    its edge half hexes lie) is that board's.
    """
    for closed in (False, True):
        for board in boards:
            inside = board.contains(x, y) if not closed else (
                board.left <= x <= board.left + board.shown_width and board.top <= y <= board.top + board.shown_height)
            if inside:
                px, py = local_pixel(board, x, y)
                column, number = nearest_cell(board.columns, board.rows, px, py)
                return board, column, number
    return None
