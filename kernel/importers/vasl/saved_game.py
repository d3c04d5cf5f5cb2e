"""A VASL saved game (``.vsav``) read whole: its map, and its pieces as a game state at their Locations.

:func:`read_saved_game` opens the archive (:mod:`~kernel.importers.vasl.save_archive`),
decodes its commands (:mod:`~kernel.importers.vasl.save_stream`), composes
its map from the ``bd`` record (:mod:`~kernel.importers.vasl.save_map`) and
reads every piece (:mod:`~kernel.importers.vasl.save_pieces`).  Each piece
on a board is placed at the hex holding its position, as VASL's LOS map
finds it (:mod:`~kernel.importers.vasl.save_layout`), and given what it is
(:mod:`~kernel.importers.vasl.save_rules`):

* SMOKE (its DRM and height) and vehicles and wrecks go into the state's
  SMOKE and vehicle tables; a unit (infantry, a leader, a vehicle with its
  crew) of the side its nationality fights on (else its owner's) goes into
  its roster by name; SMOKE and units stand at the building level or
  rooftop that a Location counter beneath them in their stack says;
* a Location the map lacks (a roof of a building without one, a level above
  the building's top) gives the highest Location the map has there, and the
  piece says so in its notes;
* pieces off the boards (the map's margins and setup areas, other maps) are
  listed as off-board, not placed; every other piece on a board is a counter
  of the position (support weapons, markers), listed with its hex.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from kernel._limits import MAX_SAVE_PIECES
from kernel.grid.columns import column_letters
from kernel.grid.references import merged_half_hex_names
from kernel.importers.vasl.save_archive import read_save_text
from kernel.importers.vasl.save_layout import hex_at
from kernel.importers.vasl.save_map import SaveMap, VaslSaveWarning, boards_folder, save_map
from kernel.importers.vasl.save_pieces import RawPiece, StackRecord, parse_piece
from kernel.importers.vasl.save_rules import (BOARD_MAP_NAMES, ENTRENCHMENTS, LOCATION_COUNTERS, ROOF, SMOKE_COUNTERS,
                                              TERRAIN_COUNTERS, is_wreck, looks_like_unit, nation_side)
from kernel.importers.vasl.save_stream import SavedGameError, board_records, commands
from kernel.maps.locations import location
from kernel.maps.saved_state import PlacedUnit, SavedGameState


@dataclass
class SavedPiece:
    """One piece of a saved game: what it is, where it lies, and where in the save it came from."""

    piece_id: str
    name: str
    kind: str                       # unit, vehicle, wreck, smoke, location counter, entrenchment, counter
    labels: tuple[str, ...] = ()
    nationality: str | None = None
    side: str | None = None
    owner: str | None = None
    map_name: str = ""
    pixel: tuple[int, int] | None = None
    hex: int = -1                   # its hex on the map (-1: off the boards)
    level: int = 0
    location: str | None = None
    smoke: tuple[int, int] | None = None   # (DRM, height)
    origin: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def on_board(self) -> bool:
        """Whether the piece lies on a board of the map."""
        return self.hex >= 0

    @property
    def label(self) -> str:
        """Its labels' text as one short line (markup removed)."""
        text = " ".join(re.sub(r"<[^>]*>", " ", label) for label in self.labels)
        text = " ".join(text.split())
        return text[:60] + ("..." if len(text) > 60 else "")

    def to_dict(self) -> dict:
        """Plain data (JSON-ready)."""
        return {"piece": self.piece_id, "name": self.name, "kind": self.kind, "label": self.label,
                "nationality": self.nationality, "side": self.side, "owner": self.owner, "map": self.map_name,
                "pixel": list(self.pixel) if self.pixel else None, "location": self.location,
                "smoke": {"drm": self.smoke[0], "height": self.smoke[1]} if self.smoke else None,
                "origin": self.origin, "notes": list(self.notes)}


@dataclass
class SavedGame:
    """What :func:`read_saved_game` read: the map, the state of its pieces, and every piece.

    See Also
    --------
    kernel.read_saved_game : the function that returns one.
    kernel.SavedGameState : its ``state``, with the roster of units.
    kernel.map_page : a page of the map with its ``pieces``.

    Examples
    --------
    Reading one needs VASL boards; its fields are the map and what lies on it:

    >>> import dataclasses, kernel
    >>> [field.name for field in dataclasses.fields(kernel.SavedGame)]
    ['source', 'board', 'state', 'pieces', 'layout']
    >>> [name for name in ("units", "counters", "off_board", "refused") if hasattr(kernel.SavedGame, name)]
    ['units', 'counters', 'off_board', 'refused']
    """

    source: str
    board: object
    state: SavedGameState
    pieces: list[SavedPiece]
    layout: SaveMap

    @property
    def units(self) -> tuple[PlacedUnit, ...]:
        """The units on the map (the state's roster)."""
        return self.state.roster

    @property
    def counters(self) -> list[SavedPiece]:
        """The pieces on the boards that are not units: SMOKE, vehicles' wrecks, markers, support weapons."""
        return [p for p in self.pieces if p.on_board and p.kind not in ("unit",)]

    @property
    def off_board(self) -> list[SavedPiece]:
        """The pieces not on a board (the map's margins and setup areas, other maps)."""
        return [p for p in self.pieces if not p.on_board]

    @property
    def refused(self) -> list[str]:
        """What of the save the map does not apply: overlays, SSR changes, crops, version differences, then the
        pieces not applied (a rubble counter) or not placed (a second SMOKE in a hex)."""
        pieces = [f"piece {p.piece_id} ({p.name!r}) in {p.location}: {note}" for p in self.pieces for note in p.notes
                  if note.startswith(("not applied", "not placed"))]
        return list(self.layout.refused) + pieces


def read_saved_game(path, boards=None, *, strict: bool = False, **switches: bool) -> SavedGame:
    """Read a VASL saved game: its map, as the save lays it out, and its pieces as a :class:`SavedGameState`.

    Parameters
    ----------
    path : str or Path
        The ``.vsav`` file.
    boards : str or Path, optional
        The folder of the user's VASL boards (``bd02``, ``bd04.zip``, ...); default:
        ``$HEXKERNEL_VASL_BOARDS``.
    strict : bool
        Refuse the save when part of it cannot be applied (an overlay, an SSR
        change, a crop, a board of another version, a second SMOKE in a hex,
        a rubble counter) instead of warning.
    **switches : bool
        Ruleset switches of the map (``orchards_in_season=False``).

    Raises
    ------
    FileNotFoundError
        No such save, boards folder or board in it.
    SavedGameError
        The save cannot be read (the message names the file and the part).

    Warns
    -----
    VaslSaveWarning
        Each part of the save that the map does not apply.

    See Also
    --------
    kernel.SavedGame : the result's attributes.
    kernel.load : the map of a save alone.
    kernel.SavedGameError : what a file that is not a save raises.

    Examples
    --------
    A zip archive that is not a save is refused, the message naming what it lacks:

    >>> import kernel, pathlib, tempfile, zipfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "other.vsav"
    ...     with zipfile.ZipFile(path, "w") as archive:
    ...         archive.writestr("notes.txt", "no game here")
    ...     try:
    ...         kernel.read_saved_game(path)
    ...     except kernel.SavedGameError as error:
    ...         print(str(error).split(": ", 1)[1])
    a zip archive without a savedGame member ('notes.txt'): expected a VASL saved game (.vsav)
    """
    path = Path(path)
    where = f"{path}!savedGame"
    text = read_save_text(path)
    folder = boards_folder(boards, str(path))
    stream = commands(text, where)
    del text
    layouts = [command for command in stream if command.startswith("bd\t")]
    if not layouts:
        raise SavedGameError(f"{where}: no bd record: expected the board picker's layout of the save's boards")
    records = board_records(layouts[-1], where)
    layout = save_map(records, folder, str(path), where, strict=strict, switches=switches)
    raws, stacks = _read_pieces(stream, where)
    del stream
    state = SavedGameState(layout.board, source=str(path))
    pieces = _place(raws, stacks, layout, state, where, strict)
    return SavedGame(str(path), layout.board, state, pieces, layout)


def _read_pieces(stream: list[str], where: str) -> tuple[list[RawPiece], list[tuple[str, ...]]]:
    raws: list[RawPiece] = []
    stacks: list[tuple[str, ...]] = []
    count = listed = 0
    for command in stream:
        if not command.startswith("+/"):
            continue
        count += 1
        if count > MAX_SAVE_PIECES:
            raise SavedGameError(f"{where}: more than {MAX_SAVE_PIECES} pieces: expected at most {MAX_SAVE_PIECES}")
        piece = parse_piece(command, count - 1, where)
        if isinstance(piece, StackRecord):
            listed += len(piece.members)
            if listed > MAX_SAVE_PIECES:
                shown = piece.stack_id if piece.stack_id.isprintable() and " " not in piece.stack_id else repr(
                    piece.stack_id)
                raise SavedGameError(f"{where}: piece {shown}: its stack brings the pieces listed in stacks "
                                     f"past {MAX_SAVE_PIECES}: expected at most {MAX_SAVE_PIECES} (a piece lies in "
                                     "one stack)")
            stacks.append(piece.members)
        else:
            raws.append(piece)
    return raws, stacks


def _kind(raw: RawPiece) -> str:
    names = (raw.name, raw.basic_name)
    if any(n in SMOKE_COUNTERS for n in names):
        return "smoke"
    if any(is_wreck(n) for n in names):
        return "wreck"
    if any(n in LOCATION_COUNTERS for n in names):
        return "location counter"
    if any(n in ENTRENCHMENTS for n in names):
        return "entrenchment"
    if any(n in TERRAIN_COUNTERS for n in names):
        return "terrain counter"
    if raw.properties.get("Hindrance") == "true" and (raw.counter_type == "unit" or nation_side(raw.nationality)[1]):
        return "vehicle"
    if raw.counter_type == "unit" or (raw.counter_type == "" and looks_like_unit(raw.name)):
        return "unit"
    return "counter"


def _place(raws: list[RawPiece], stacks: list[tuple[str, ...]], layout: SaveMap, state: SavedGameState, where: str,
           strict: bool) -> list[SavedPiece]:
    board = layout.board
    by_name = dict(merged_half_hex_names(board))
    by_name.update({name: i for i, name in enumerate(board.names)})
    kinds = {raw.piece_id: _kind(raw) for raw in raws}
    names = {raw.piece_id: raw.name for raw in raws}
    in_stacks = _stack_levels(stacks, kinds, names)
    pieces = []
    for raw in raws:
        nationality, side = nation_side(raw.nationality)
        piece = SavedPiece(raw.piece_id, raw.name, kinds[raw.piece_id], raw.labels, nationality,
                           side or raw.owner, raw.owner, raw.map_name,
                           (raw.x, raw.y) if raw.x is not None else None,
                           origin=f"{where}: piece {raw.piece_id} ({raw.name!r}) at pixel {raw.x},{raw.y} of "
                                  f"{raw.map_name!r}")
        if raw.nationality and side is None and piece.kind in ("unit", "vehicle"):
            instead = "its side is its owner's name" if raw.owner else "no side"
            piece.notes.append(f"nationality {raw.nationality!r} is none of VASL's codes that hexkernel knows (ge, ru, "
                               f"...): {instead}")
        if raw.hidden_by:
            piece.notes.append(f"hidden (HIP) by {raw.hidden_by}")
        if raw.concealed:
            piece.notes.append("concealed")
        pieces.append(piece)
        if raw.map_name not in BOARD_MAP_NAMES or raw.x is None:
            piece.notes.append("on no board: " + ("on no map" if raw.map_name == "null" else
                                                  f"on the map {raw.map_name!r}"))
            continue
        found = hex_at(layout.boards, raw.x, raw.y)
        if found is None:
            piece.notes.append(f"on no board: in the map's margin (pixel {raw.x},{raw.y})")
            continue
        placed, column, number = found
        name = f"{placed.number}{column_letters(column)}{number}"
        if name not in by_name:  # cannot happen: every cell of a placed board is a hex of the map
            raise SavedGameError(f"{piece.origin}: hex {name} is not on the map")
        piece.hex = by_name[name]
        asked, under = in_stacks.get(raw.piece_id, (0, None))
        if under:
            piece.notes.append(f"in an entrenchment ({under}), counted at its hex's Location")
        piece.level = _level(board, piece, asked)
        piece.location = board.location_name(piece.hex, piece.level)
        _add_to_state(piece, raw, state, where, strict)
    return pieces


def _stack_levels(stacks: list[tuple[str, ...]], kinds, names) -> dict[str, tuple[int | str, str | None]]:
    """Per piece of a stack: the level the nearest Location counter at or beneath it asks for (0: none) and
    the entrenchment above it, if any (VASL's counters: pieces above a level counter are at its level, pieces
    below an entrenchment in it).  One pass up and one down each stack (bottom first), so a stack of n
    pieces costs n; a piece listed twice in a stack counts where it is first, in two stacks in the last."""
    out: dict[str, tuple[int | str, str | None]] = {}
    for members in stacks:
        asked: list[int | str] = []
        level: int | str = 0
        for member in members:
            if kinds.get(member) == "location counter":
                level = LOCATION_COUNTERS.get(names[member], 0)
            asked.append(level)
        above: list[str | None] = [None] * len(members)
        under: str | None = None
        for position in range(len(members) - 1, -1, -1):
            above[position] = under
            if kinds.get(members[position]) == "entrenchment":
                under = names[members[position]]
        here: dict[str, tuple[int | str, str | None]] = {}
        for position, member in enumerate(members):
            here.setdefault(member, (asked[position], above[position]))
        out.update(here)
    return out


def _level(board, piece: SavedPiece, asked: int | str) -> int:
    """The Location level of a piece in its hex, through the one validation path of every Location: the level
    its stack asks for, or the hex's highest when the map lacks it (noted)."""
    if asked == 0 or piece.kind in ("counter", "location counter", "entrenchment", "terrain counter"):
        return 0
    wanted = int(board.building_levels[piece.hex]) + 1 if asked == ROOF else int(asked)
    try:
        return location(board, piece.hex, wanted, "level")[1]
    except ValueError:
        top = int(board.top_level[piece.hex])
        what = "the roof" if asked == ROOF else f"level {asked}"
        piece.notes.append(f"{what} asked, which {board.names[piece.hex]} of the map lacks (Locations 0..{top}): "
                           f"placed at its highest, {board.location_name(piece.hex, top)}")
        return top


def _add_to_state(piece: SavedPiece, raw: RawPiece, state: SavedGameState, where: str, strict: bool) -> None:
    if piece.kind == "terrain counter":
        _not_applied(piece, f"a rubble counter in {state.board.names[piece.hex]} is not applied (the map keeps the "
                            "board's terrain)", "not applied: the map keeps the board's terrain in its hex", strict)
    elif piece.kind == "smoke":
        drm, height = SMOKE_COUNTERS.get(raw.name) or SMOKE_COUNTERS[raw.basic_name]
        piece.smoke = (drm, height)
        held = int(state.smoke[piece.hex])
        if held:
            _not_applied(piece, f"a second SMOKE counter in {state.board.names[piece.hex]} (which holds +{held}): not "
                                "placed (a hex of the state holds one SMOKE counter)",
                         "not placed: a second SMOKE counter in its hex", strict)
            return
        state.place_smoke(piece.location, drm, height)   # in its Location: the ground, a level or a rooftop
    elif piece.kind in ("vehicle", "wreck"):
        state.place_vehicle(piece.hex)
    if piece.kind in ("unit", "vehicle"):
        kind = "vehicle" if piece.kind == "vehicle" else "leader" if _is_leader(raw.name) else "infantry"
        state.place_unit(piece.hex, piece.side, name=piece.name, level=piece.level, origin=piece.origin,
                         kind=kind, piece_id=piece.piece_id)


def _not_applied(piece: SavedPiece, message: str, note: str, strict: bool) -> None:
    """A piece the state does not apply: an error naming it with ``strict``, else a note on it and a warning."""
    if strict:
        raise SavedGameError(f"{piece.origin}: {message} (strict)")
    piece.notes.append(note)
    warnings.warn(f"{piece.origin}: {message}", VaslSaveWarning, stacklevel=5)


def _is_leader(name: str) -> bool:
    return bool(re.search(r"(^|\s)\d{1,2}-\d(\s|$)", name)) and not re.search(r"\d-\d+-\d", name)
