"""Reading scenario files (``.scenario``): boards in rows and columns, overlays, switches.

Which program's board a scenario line names is decided by the ``read_board``
callable the caller passes; by default only hexkernel's own ``.board`` files
are read.  :func:`kernel.loading.read_scenario` passes one that also knows
VASL boards, so this layer never imports the importers.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kernel._limits import MAX_BOARDS, MAX_MAP_HEXES
from kernel.grid.columns import board_problem
from kernel.maps.board_text import read_board_file
from kernel.maps.specs import BoardFileError, BoardPlacement, BoardSpec, OverlayPlacement, ScenarioSpec
from kernel.maps.text_format import parse_boolean, parse_integer, key_values, read_sections, resolve_file

BoardReader = Callable[[str, Path], BoardSpec]
"""``read_board(name, base)``: the spec of the board a scenario line names, ``base`` its folder."""


def read_text_board(name: str, base: Path) -> BoardSpec:
    """The default :data:`BoardReader`: a ``.board`` file by path or bundled name."""
    return read_board_file(resolve_file(name, base, "board"))


_SCENARIO_KEYS = {"title", "ruleset"}


def read_scenario_file(path: str | Path, read_board: BoardReader = read_text_board) -> ScenarioSpec:
    """Parse a ``.scenario`` file: boards in rows and columns, overlays, switches.

    ``read_board`` reads the board each ``[boards]`` line names (see :data:`BoardReader`).
    """
    path = Path(path)
    sections = read_sections(path, {"scenario": "", "boards": "", "overlays": "", "switches": ""})
    header = key_values(path, sections.get("scenario", []), _SCENARIO_KEYS)
    if "boards" not in sections or not sections["boards"]:
        raise BoardFileError(f"{path}: a scenario needs a [boards] section with at least one board")
    boards: list[BoardPlacement] = []
    hexes = 0
    for number, line in sections["boards"]:
        parts = line.split()
        if len(parts) < 3:
            raise BoardFileError(f"{path}:{number}: {line!r}: expected 'ROW COLUMN BOARD [rotated] [as NUMBER]'")
        row = parse_integer(path, number, "board row", parts[0], 0, MAX_BOARDS - 1)
        column = parse_integer(path, number, "board column", parts[1], 0, MAX_BOARDS - 1)
        if len(boards) >= MAX_BOARDS:
            raise BoardFileError(f"{path}:{number}: board {len(boards) + 1}: expected at most {MAX_BOARDS} boards")
        try:
            board = read_board(parts[2], path.parent)
        except BoardFileError:
            raise
        except ValueError as error:
            raise BoardFileError(f"{path}:{number}: {error}") from None
        except FileNotFoundError as error:
            raise BoardFileError(f"{path}:{number}: {error}") from None
        rotated = False
        board_id = board.id
        rest = parts[3:]
        while rest:
            word = rest.pop(0)
            if word == "rotated":
                rotated = True
            elif word == "as" and rest and rest[0].isascii() and rest[0].isdigit():
                board_id = rest.pop(0)
                if board_problem(board_id):
                    raise BoardFileError(f"{path}:{number}: 'as {board_id}': {board_problem(board_id)}: expected a "
                                         "board number 1..999 without leading zeros")
            else:
                raise BoardFileError(f"{path}:{number}: unexpected {word!r}: expected 'rotated' or 'as NUMBER'")
        for other in boards:
            if (other.row, other.column) == (row, column):
                raise BoardFileError(f"{path}:{number}: position ({row}, {column}) already holds board {other.id} (line {other.line})")
            if other.id == board_id:
                raise BoardFileError(
                    f"{path}:{number}: board number {board_id} is used twice (line {other.line}): use 'as NUMBER' to renumber"
                )
        boards.append(BoardPlacement(board, row, column, rotated, board_id, number))
        hexes += sum(len(board.number_range(c)) for c in range(board.columns))
        if hexes > MAX_MAP_HEXES:
            raise BoardFileError(f"{path}:{number}: the boards up to this line hold {hexes} hexes: expected a map "
                                 f"of at most {MAX_MAP_HEXES}")
    overlays: list[OverlayPlacement] = []
    for number, line in sections.get("overlays", []):
        parts = line.split()
        if len(parts) != 3:
            raise BoardFileError(f"{path}:{number}: {line!r}: expected 'OVERLAY FIRST-HEX SECOND-HEX'")
        try:
            overlay = read_board_file(resolve_file(parts[0], path.parent, "overlay"))
        except FileNotFoundError as error:
            raise BoardFileError(f"{path}:{number}: {error}") from None
        if overlay.kind != "overlay":
            raise BoardFileError(f"{path}:{number}: {parts[0]} is a board, not an overlay (kind = overlay)")
        overlays.append(OverlayPlacement(overlay, parts[1], parts[2], number))
    switches: dict[str, bool] = {}
    for number, line in sections.get("switches", []):
        if "=" not in line:
            raise BoardFileError(f"{path}:{number}: {line!r}: expected 'switch = yes/no'")
        key, value = (part.strip() for part in line.split("=", 1))
        switches[key] = parse_boolean(path, number, f"switch {key}", value)
    rulesets = {placement.board.ruleset for placement in boards}
    ruleset = header["ruleset"][1] if "ruleset" in header else boards[0].board.ruleset
    if rulesets != {ruleset}:
        where = f"{path}:{header['ruleset'][0]}" if "ruleset" in header else f"{path}:{boards[-1].line}"
        raise BoardFileError(f"{where}: boards use rulesets {sorted(rulesets)}: expected all to use {ruleset!r}")
    for placement in overlays:
        if placement.overlay.ruleset != ruleset:
            raise BoardFileError(
                f"{path}:{placement.line}: overlay {placement.overlay.id} uses ruleset "
                f"{placement.overlay.ruleset!r}: expected {ruleset!r} like the boards"
            )
    return ScenarioSpec(
        source=str(path), title=header["title"][1] if "title" in header else path.stem,
        ruleset=ruleset, boards=boards, overlays=overlays, switches=switches,
    )
