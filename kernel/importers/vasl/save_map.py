"""The map of a VASL saved game: its bd record's boards found, imported, composed, and laid out as VASL does.

:func:`save_map` finds every board of the save's ``bd`` record in the user's
folder of VASL boards (:func:`~kernel.importers.vasl.save_layout.find_board`),
imports it (once per board and code version: the import is kept on disk,
:mod:`kernel.importers.vasl.board_store`), and composes the boards as the
save lays them out: each at its column and row, rotated 180 degrees where its
name starts with ``r``.  What the project cannot apply is named, never
dropped unsaid: an overlay (``OVR``), an SSR terrain change (``SSR``), a crop
rectangle (the map keeps the whole board; the pieces are still placed by the
cropped layout), a board whose version differs from the save's.  Each is a
:class:`VaslSaveWarning`, or with ``strict=True`` an error.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from kernel.grid.columns import board_problem
from kernel.grid.pixels import COLUMN_PITCH, UNIT_Y
from kernel.importers.vasl.board_store import board_spec
from kernel.importers.vasl.files import VaslImportWarning, read_board_files
from kernel.importers.vasl.save_layout import PlacedBoard, find_board, lay_out
from kernel.importers.vasl.save_stream import BoardRecord, SavedGameError
from kernel.maps.board import Board, compile_scenario
from kernel.maps.specs import BoardFileError, BoardPlacement, ScenarioSpec

#: The environment variable naming the folder of VASL boards when none is given.
BOARDS_VARIABLE = "HEXKERNEL_VASL_BOARDS"
#: Board numbers given to boards whose VASL name is not a number 1..999 (00, RB) or that repeat one.
SPARE_NUMBERS = range(901, 1000)


class VaslSaveWarning(VaslImportWarning):
    """Part of a VASL saved game that hexkernel cannot apply (an overlay, an SSR change, a crop, ...).

    See Also
    --------
    kernel.read_saved_game : warns with it (``strict=True`` refuses the save instead).
    kernel.SavedGame : its ``refused`` lists what was not applied.
    kernel.VaslImportWarning : its base, a VASL board's part not imported.

    Examples
    --------
    Triggering it needs VASL board data; it is a :class:`~kernel.VaslImportWarning`, so one filter covers both:

    >>> import kernel
    >>> issubclass(kernel.VaslSaveWarning, kernel.VaslImportWarning), issubclass(kernel.VaslSaveWarning, UserWarning)
    (True, True)
    """


@dataclass
class SaveMap:
    """A save's compiled map, its boards as placed, and what of the bd record was not applied."""

    board: Board
    boards: list[PlacedBoard]
    folder: Path
    #: One line per overlay, SSR change, crop or version difference that the map does not show.
    refused: list[str] = field(default_factory=list)
    #: Board VASL name -> the board number its hex names carry, where they differ ("00" -> "901").
    renumbered: dict[str, str] = field(default_factory=dict)


def boards_folder(boards, where: str) -> Path:
    """The folder of VASL boards: ``boards``, else ``$HEXKERNEL_VASL_BOARDS``.

    Raises
    ------
    SavedGameError
        Neither is given.
    FileNotFoundError
        The folder does not exist (or is not a folder).
    """
    given = boards if boards is not None else os.environ.get(BOARDS_VARIABLE) or None
    if given is None:
        raise SavedGameError(f"{where}: no folder of VASL boards: pass boards=DIR (hexkernel --vasl-boards DIR, or "
                             f"set {BOARDS_VARIABLE}), the folder holding the save's boards (bd02, bd04, ...)")
    folder = Path(given)
    if not folder.is_dir():
        raise FileNotFoundError(f"{where}: the VASL boards folder {str(folder)!r} does not exist or is not a folder")
    return folder


def save_map(records: list[BoardRecord], folder: Path, source: str, where: str, *, strict: bool = False,
             switches: dict | None = None) -> SaveMap:
    """Find, import, compose and lay out the boards of a save (module docstring).

    Raises
    ------
    SavedGameError
        No board in the record, a board that cannot be imported or the
        boards do not fit together (each message names the board), or, with
        ``strict``, anything the map cannot apply.
    FileNotFoundError
        A board is not in ``folder``.
    """
    if not records:
        raise SavedGameError(f"{where}: the bd record names no board: expected a save of a game set up on at least "
                             "one board")
    placed, placements, refused, renumbered = [], [], [], {}
    used = set()
    for record in records:
        path = find_board(folder, record, where)
        label = f"{where}: board {record.board_name!r} ({path})"
        try:
            files = read_board_files(path)
        except (ValueError, FileNotFoundError) as error:
            raise SavedGameError(f"{label}: {error}") from None
        _check_crop(record, files.los_data.grid_width, files.los_data.grid_height, where)
        number = _number(record.board_name, used)
        if number != files.metadata.board_id:
            renumbered[record.board_name] = number
        used.add(number)
        if record.version is not None and record.version != (files.metadata.version or None):
            refused.append(f"board {record.board_name}: the save was made with version {record.version}, the folder "
                           f"{str(folder)!r} holds version {files.metadata.version or 'unknown'} ({path})")
        try:
            spec = board_spec(files, number)
        except (ValueError, FileNotFoundError) as error:
            raise SavedGameError(f"{label}: {error}") from None
        placed.append(PlacedBoard(record, path, number, files.los_data.width, files.los_data.height,
                                  files.los_data.grid_width, files.los_data.grid_height))
        placements.append(BoardPlacement(spec, record.row, record.column, record.rotated, number, record.index + 1))
        refused += _not_applied(record)
    lay_out(placed)
    names = ", ".join(p.number for p in placed)
    scenario = ScenarioSpec(source=source, title=f"{Path(source).name} (VASL save, board{'s' if len(placed) > 1 else ''}"
                                                 f" {names})", ruleset="asl", boards=placements, overlays=[],
                            switches=dict(switches or {}))
    try:
        board = compile_scenario(scenario)
    except BoardFileError as error:
        raise SavedGameError(f"{where}: the bd record's boards do not make one map: {error}") from None
    for message in refused:
        if strict:
            raise SavedGameError(f"{where}: {message} (strict: expected a save whose every part applies)")
        warnings.warn(f"{where}: {message}", VaslSaveWarning, stacklevel=3)
    for name, number in renumbered.items():
        warnings.warn(f"{where}: board {name}: its hexes are named {number}A1 ... (hex names need a board number "
                      "1..999 that no other board of the map has)", VaslSaveWarning, stacklevel=3)
    return SaveMap(board, placed, folder, refused, renumbered)


def _check_crop(record: BoardRecord, width: int, height: int, where: str) -> None:
    """Refuse a crop rectangle that is not inside the board's picture of ``width`` x ``height`` pixels (half
    a hex of slack past its right and bottom edges, where VASL's own crops of edge hex rows may end)."""
    if record.crop is None:
        return
    x, y, w, h = record.crop
    label = (f"{where}: bd record, board {record.index + 1} ({record.name}): crop {x} {y} {w} {h}")
    picture = f"the board's picture of {width} x {height} pixels: expected a rectangle inside it"
    if x >= width or y >= height:
        raise SavedGameError(f"{label} starts beyond {picture}")
    if x + w > width + COLUMN_PITCH / 2 or y + h > height + UNIT_Y:
        raise SavedGameError(f"{label} reaches beyond {picture}")


def _number(name: str, used: set[str]) -> str:
    """The board number of a board's hex names: its VASL name without leading zeros when that is a board
    number not used yet, else the first free number of :data:`SPARE_NUMBERS`."""
    if name.isascii() and name.isdigit() and len(name) <= 3:
        number = str(int(name))
        if not board_problem(number) and number not in used:
            return number
    return next(str(n) for n in SPARE_NUMBERS if str(n) not in used)


def _not_applied(record: BoardRecord) -> list[str]:
    """What of one board's record the map does not show: overlays, SSR changes, a crop."""
    out = []
    for overlay in record.overlays:
        out.append(f"board {record.board_name}: overlay {overlay.name} on {overlay.first}-{overlay.second} is not "
                   "applied (hexkernel reads no VASL overlay archive): the map shows the board without it")
    if record.ssr:
        out.append(f"board {record.board_name}: SSR terrain change{'s' if len(record.ssr) > 1 else ''} "
                   f"{', '.join(record.ssr)} not applied (hexkernel applies no VASL SSR): the map shows the board's "
                   "own terrain")
    if record.crop is not None:
        x, y, w, h = record.crop
        out.append(f"board {record.board_name}: cropped to {w}x{h} pixels at {x},{y} in the save; the map holds the "
                   "whole board (its pieces are placed by the cropped layout)")
    return out
