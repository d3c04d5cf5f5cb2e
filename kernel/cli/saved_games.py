"""The command line on a VASL saved game: its map and pieces, units named on the command line, sides.

Every command's ``--map`` may be a ``.vsav`` file, with ``--vasl-boards DIR``
(or ``$HEXKERNEL_VASL_BOARDS``) the folder of the user's VASL boards:
:func:`load_saved_map` reads it (:func:`kernel.read_saved_game`) and keeps
the :class:`~kernel.SavedGame` beside its board, so that the commands'
counters are the save's (:func:`saved_game_of`) and a unit's name may stand
wherever a Location does (:func:`unit_location`):

* ``NAME``: the unit of that name (``"4-6-7 1sq"``; a name's first words do,
  ``"T-34 M43"`` for ``"T-34 M43 vca3 tca3 BU"``; case is ignored), when
  all the units so named share one Location;
* ``NAME@LOCATION``: the one of them at that Location (``"8-1@2I9"``);
* ``#ID``: the unit of the save's piece ``ID``.
"""

from __future__ import annotations

import weakref
from collections import Counter

from kernel.cli.errors import UserError

_GAMES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def is_save(name: str) -> bool:
    """Whether ``--map`` names a VASL saved game."""
    return str(name).lower().endswith(".vsav")


def load_saved_map(name: str, args):
    """The board of a saved game (``--map game.vsav``), its :class:`~kernel.SavedGame` kept for the commands."""
    from kernel import read_saved_game

    game = read_saved_game(name, getattr(args, "vasl_boards", None), strict=getattr(args, "strict", False))
    _GAMES[game.board] = game
    return game.board


def saved_game_of(board):
    """The saved game a board was read from by :func:`load_saved_map` (None for other maps)."""
    return _GAMES.get(board)


def matching_units(game, text: str) -> list:
    """The units of a saved game that ``text`` names (module docstring); ``[]`` when none."""
    units = list(game.units)
    if text.startswith("#"):
        return [unit for unit in units if unit.piece_id == text[1:]]
    name, _, where = text.partition("@")
    name = name.strip().casefold()
    named = [unit for unit in units if unit.name.casefold() == name]
    if not named:
        named = [unit for unit in units if unit.name.casefold().startswith(name + " ")]
    if where:
        wanted = where.strip()
        named = [unit for unit in named if wanted in (unit.location, game.board.names[unit.hex])]
    return named


def unit_location(board, text: str, what: str) -> tuple[int, int] | None:
    """``(hex, level)`` of the unit a saved game's board names by ``text``; None when it names none.

    Raises
    ------
    UserError
        ``text`` names units at more than one Location (the message lists them).
    """
    game = saved_game_of(board)
    if game is None:
        return None
    units = matching_units(game, text)
    if not units:
        return None
    places = {(unit.hex, unit.level) for unit in units}
    if len(places) > 1:
        shown = ", ".join(f"{unit.name}@{unit.location} (#{unit.piece_id})" for unit in units[:8])
        more = f" and {len(units) - 8} more" if len(units) > 8 else ""
        raise UserError(f"{what}: {text!r} names {len(units)} units at {len(places)} Locations: {shown}{more}: "
                        "expected NAME@LOCATION or #ID to say which")
    return next(iter(places))


def names_a_unit(board, text: str) -> bool:
    """Whether ``text`` names a unit of the saved game of ``board`` rather than one of its Locations."""
    game = saved_game_of(board)
    if game is None:
        return False
    try:
        board.location(text)
        return False
    except (KeyError, ValueError):
        return bool(matching_units(game, text))


def unit_names_hint(board) -> str:
    """A few unit names of a saved game's board, for a message ('' for other maps)."""
    game = saved_game_of(board)
    if game is None:
        return ""
    names = list(dict.fromkeys(unit.name for unit in game.units))
    if not names:
        return " (the save has no unit on its boards)"
    return " nor a unit of the save (e.g. " + ", ".join(repr(n) for n in names[:4]) + ")"


def game_counters(board):
    """The saved game's state (SMOKE, vehicles, units) and its counters as JSON, or ``(None, {})``."""
    game = saved_game_of(board)
    if game is None:
        return None, {}
    return game.state, game.state.counters().to_dict(board)


def page_pieces(board) -> dict | None:
    """The units and counters a saved game's page lists (None for other maps)."""
    game = saved_game_of(board)
    if game is None:
        return None
    return {"units": [{"name": u.name, "side": u.side, "hex": u.hex, "level": u.level, "location": u.location}
                      for u in game.units],
            "counters": [{"name": p.name, "kind": p.kind, "hex": p.hex, "location": p.location}
                         for p in game.counters]}


def game_payload(game) -> dict:
    """What ``hexkernel info`` adds for a saved game: its boards, what is not applied, counters, units."""
    boards = [{"vasl_board": p.record.name, "board": p.number, "column": p.record.column, "row": p.record.row,
               "rotated": p.record.rotated, "version": p.record.version, "path": str(p.path),
               "overlays": [o.name for o in p.record.overlays], "ssr": list(p.record.ssr),
               "crop": list(p.record.crop) if p.record.crop else None} for p in game.layout.boards]
    sides: dict[str, list] = {}
    for unit in game.units:
        sides.setdefault(unit.side or "no side", []).append(unit.to_dict())
    return {"save": game.source, "boards_folder": str(game.layout.folder), "boards": boards,
            "not_applied": game.refused, "counters": [p.to_dict() for p in game.counters],
            "units": sides, "off_board": [p.to_dict() for p in game.off_board]}


def game_lines(game) -> list[str]:
    """The text ``hexkernel info`` adds for a saved game."""
    lines = [f"saved game {game.source} (boards from {game.layout.folder}):"]
    for placed in game.layout.boards:
        record = placed.record
        rotated = ", rotated 180" if record.rotated else ""
        lines.append(f"  VASL board {record.board_name} (version {record.version or '?'}) as board {placed.number} at "
                     f"column {record.column}, row {record.row}{rotated}: {placed.path}")
    lines.append("not applied: " + ("; ".join(game.refused) if game.refused else "nothing (no overlay, SSR or crop)"))
    counters = game.counters
    lines.append(f"counters on the boards: {len(counters)}")
    for piece in counters:
        extra = f" +{piece.smoke[0]} height {piece.smoke[1]}" if piece.smoke else ""
        label = f" [{piece.label}]" if piece.label and piece.label != piece.name else ""
        notes = f" ({'; '.join(piece.notes)})" if piece.notes else ""
        lines.append(f"  {piece.location:<8} {piece.kind:<16} {piece.name}{extra}{label}{notes}")
    by_side: dict[str, list] = {}
    for unit in game.units:
        by_side.setdefault(unit.side or "no side", []).append(unit)
    if not by_side:
        lines.append("units on the boards: none")
    notes = {p.piece_id: p.notes for p in game.pieces}
    for side, units in sorted(by_side.items()):
        lines.append(f"units of {side}: {len(units)}")
        for unit in units:
            note = f" ({'; '.join(notes.get(unit.piece_id, []))})" if notes.get(unit.piece_id) else ""
            lines.append(f"  {unit.location:<8} {unit.kind:<9} {unit.name} (#{unit.piece_id}){note}")
    off = game.off_board
    lines.append(f"off the boards (margins, setup areas, other maps): {len(off)} pieces")
    off_units: dict[str, Counter] = {}
    for piece in off:
        if piece.kind in ("unit", "vehicle"):
            off_units.setdefault(piece.side or "no side", Counter())[piece.name] += 1
    for side, counts in sorted(off_units.items()):
        shown = ", ".join(f"{n} x {name}" if n > 1 else name for name, n in counts.most_common())
        lines.append(f"  units of {side}: {sum(counts.values())}: {shown}")
    others = Counter(piece.name for piece in off if piece.kind not in ("unit", "vehicle"))
    if others:
        shown = ", ".join(f"{n} x {name}" if n > 1 else name for name, n in others.most_common())
        lines.append(f"  other pieces: {sum(others.values())}: {shown}")
    return lines


def side_targets(board, side: str):
    """The Locations of the units of every side but ``side`` (hexes, levels, how many units at each).

    Raises
    ------
    UserError
        The map is not a saved game's, or ``side`` is none of its sides.
    """
    import numpy as np

    game = saved_game_of(board)
    if game is None:
        raise UserError("--side needs units with sides: a saved game (--map game.vsav)")
    sides = sorted({unit.side for unit in game.units if unit.side})
    if side not in sides:
        raise UserError(f"--side {side!r}: expected one of the save's sides ({', '.join(sides) or 'none'})")
    places = Counter((unit.hex, unit.level) for unit in game.units if unit.side and unit.side != side)
    if not places:
        raise UserError(f"--side {side!r}: the other sides have no unit on the boards")
    keys = sorted(places)
    return (np.array([h for h, _ in keys], np.int32), np.array([v for _, v in keys], np.int64),
            np.array([places[k] for k in keys], np.int64))
