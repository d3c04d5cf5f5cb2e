"""Loading a map from files: the one place where the text formats and the importers meet.

:func:`load` reads a scenario, a board file or a bundled name and compiles it
into a :class:`~kernel.maps.board.Board`.  Scenario lines may name VASL boards
(a folder with ``LOSData`` or a board archive): :func:`read_scenario` hands the
scenario reader a board reader that knows both kinds, so neither
:mod:`kernel.maps` nor :mod:`kernel.importers` imports the other's callers.
"""

from __future__ import annotations

from pathlib import Path

from kernel.importers.vasl.files import is_vasl_board
from kernel.importers.vasl.save_archive import is_saved_game
from kernel.maps.board import Board, compile_scenario
from kernel.maps.board_text import read_board_file
from kernel.maps.bundled import data_dir
from kernel.maps.scenario_text import read_scenario_file, read_text_board
from kernel.maps.specs import BoardFileError, BoardPlacement, BoardSpec, ScenarioSpec
from kernel.maps.text_format import resolve_file


def read_board_any(name: str, base: Path) -> BoardSpec:
    """The spec of a scenario's board: a VASL board folder or archive, else a ``.board`` file.

    Raises
    ------
    ValueError
        The VASL board is malformed (the message says ``VASL board NAME: ...``).
    FileNotFoundError
        Neither a VASL board nor a board file of that name exists.
    """
    candidates = [Path(name)] if Path(name).is_absolute() else [base / name, Path(name)]
    for candidate in candidates:
        if is_vasl_board(candidate):
            from kernel.importers.vasl.build import read_vasl_board   # the VASL importer: only for VASL boards

            try:
                return read_vasl_board(candidate)
            except (ValueError, FileNotFoundError) as error:
                raise ValueError(f"VASL board {name!r}: {error}") from None
    return read_text_board(name, base)


def read_scenario(path: str | Path) -> ScenarioSpec:
    """Parse a ``.scenario`` file whose boards may be hexkernel or VASL boards.

    See Also
    --------
    kernel.compile_scenario : the parsed scenario compiled into a Board.
    kernel.load : both steps at once.
    kernel.ScenarioSpec : the result's fields.

    Examples
    --------
    >>> import kernel
    >>> spec = kernel.read_scenario(kernel.data_dir() / "scenarios" / "default.scenario")
    >>> spec.title, spec.ruleset, [placement.board.id for placement in spec.boards]
    ('Hexkernel default: four boards', 'asl', ['71', '72', '72', '71'])
    >>> kernel.compile_scenario(spec).names == kernel.load("default").names
    True
    """
    return read_scenario_file(path, read_board=read_board_any)


def load(name_or_path: str | Path, *, board_id: str | int | None = None, boards: str | Path | None = None,
         strict: bool = False, **switches: bool) -> Board:
    """Load and compile a map: a scenario or board file, a VASL saved game, or a bundled name.

    Parameters
    ----------
    name_or_path : str or Path
        ``"default"`` (the bundled four-board ASL scenario), another bundled
        scenario or board name (``"71"``, ``"vv-village"``), a path to a
        ``.scenario`` / ``.board`` file, or a VASL board (a folder holding
        ``LOSData`` or a board archive, such as VASL's ``bd02`` or
        ``bd02.zip``; see :func:`kernel.read_vasl_board`), or a VASL saved
        game (``.vsav``: its boards as the save lays them out; its pieces are
        :func:`kernel.read_saved_game`'s).
    board_id : str or int, optional
        The board number of a single VASL board, for one whose name is not
        a number 1..999 (VASL's ``00``, ``RB``); see
        :func:`kernel.read_vasl_board`. A scenario numbers its boards itself
        (``as NUMBER``).
    boards : str or Path, optional
        For a saved game: the folder of the user's VASL boards (default:
        ``$HEXKERNEL_VASL_BOARDS``).
    strict : bool
        For a saved game: refuse it when part of it cannot be applied
        (overlays, SSR changes, crops, other board versions, a second SMOKE
        counter in a hex, rubble counters) instead of warning.
    **switches : bool
        Ruleset switches overriding the scenario's (``orchards_in_season=False``).

    Raises
    ------
    FileNotFoundError
        No such file or bundled name.
    kernel.BoardFileError
        The file is malformed (the message names file, line and coordinate).
    ValueError
        A VASL board's files are malformed (the message names the file), or
        ``board_id`` is not a board number or is given for a scenario or a
        board file; a saved game cannot be read (a
        :class:`~kernel.importers.vasl.save_stream.SavedGameError` naming the
        file and the part), or ``boards``/``strict`` is given for another map.

    See Also
    --------
    kernel.random_board : a seeded random map instead.
    kernel.read_scenario : parse a scenario without compiling it.
    kernel.Board : the compiled map's arrays.
    kernel.read_saved_game : a save's pieces as well as its map.

    Examples
    --------
    >>> board = load("71")
    >>> len(board)
    346
    """
    path = Path(name_or_path)
    if is_saved_game(path):
        if board_id is not None:
            raise ValueError(f"board_id={board_id!r} with saved game {str(name_or_path)!r}: a save numbers its boards "
                             "itself")
        from kernel.importers.vasl.saved_game import read_saved_game

        return read_saved_game(path, boards, strict=strict, **switches).board
    if boards is not None or strict:
        raise ValueError(f"boards= and strict= with {str(name_or_path)!r}: they are for VASL saved games (.vsav)")
    is_board = path.suffix in (".board", ".overlay")
    if path.suffix == ".scenario" or (not is_board and not path.is_file() and _bundled_scenario(str(name_or_path))):
        if board_id is not None:
            raise ValueError(f"board_id={board_id!r} with scenario {str(name_or_path)!r}: board_id numbers a "
                             "single VASL board; a scenario numbers its boards with 'as NUMBER'")
        scenario = read_scenario(resolve_file(name_or_path, None, "scenario"))
    else:
        if is_vasl_board(path):
            from kernel.importers.vasl.build import read_vasl_board

            spec = read_vasl_board(path, board_id=board_id)
        elif board_id is not None:
            raise ValueError(f"board_id={board_id!r} with {str(name_or_path)!r}: board_id numbers a VASL board "
                             "(a folder holding LOSData or a board archive)")
        else:
            board_path = resolve_file(name_or_path, None, "board")
            spec = read_board_file(board_path)
            if spec.kind != "board":
                raise BoardFileError(f"{board_path}: is an overlay (kind = overlay): expected a board or scenario")
        scenario = ScenarioSpec(
            source=spec.source, title=spec.title or f"board {spec.id}", ruleset=spec.ruleset,
            boards=[BoardPlacement(spec, 0, 0, False, spec.id, 0)], overlays=[], switches={},
        )
    if switches:
        scenario.switches = {**scenario.switches, **switches}
    return compile_scenario(scenario)


def _bundled_scenario(name: str) -> bool:
    return (data_dir() / "scenarios" / f"{name}.scenario").is_file()
