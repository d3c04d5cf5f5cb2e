"""Test scaffolding: build small boards from text (docs/board-format.md).

Not part of the oracle: this module may use ``kernel.maps.board.load``.

Example: ``make_board(tmp_path, {"C3": (0, ["woods"])}, {"C3-C4": ["wall"]})``.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from kernel import Board, load

_COUNTER = itertools.count()


def board_from_text(text: str, tmp_path, name: str | None = None) -> Board:
    """Write ``text`` as a ``.board`` file under ``tmp_path`` and load it."""
    if name is None:
        name = f"board{next(_COUNTER)}"
    path = Path(tmp_path) / f"{name}.board"
    path.write_text(text, encoding="utf-8")
    return load(path)


def board_text(hexes: dict | None = None, hexsides: dict | None = None, *, ruleset: str = "asl",
               columns: int = 12, rows: int = 8, layout: str = "rectangular",
               default_level: int = 0, board_id: str = "1") -> str:
    """Text of a small board file.

    ``hexes`` maps a hex name (``"C3"``) to ``(level, terrain)`` or
    ``(level, terrain, options)``, where ``terrain`` is a list of terrain
    names (or a single name) and ``options`` a string like ``"levels=2"``.
    ``hexsides`` maps ``"C3-C4"`` (or ``"A5:SW"``) to a list of features.
    """
    lines = [
        "[board]",
        f"id = {board_id}",
        f"ruleset = {ruleset}",
        f"layout = {layout}",
        f"columns = {columns}",
        f"rows = {rows}",
        f"default_level = {default_level}",
        "",
        "[hexes]",
    ]
    for name, spec in (hexes or {}).items():
        level, terrain, *rest = spec
        if isinstance(terrain, str):
            terrain = [terrain]
        words = " ".join(terrain) if terrain else "."
        options = " ".join(rest)
        lines.append(f"{name} {level} {words} {options}".rstrip())
    lines += ["", "[hexsides]"]
    for name, features in (hexsides or {}).items():
        if isinstance(features, str):
            features = [features]
        lines.append(f"{name} {' '.join(features)}")
    return "\n".join(lines) + "\n"


def make_board(tmp_path, hexes: dict | None = None, hexsides: dict | None = None, **kwargs) -> Board:
    """A small rectangular board (default: ASL, 12 x 8) from ``{hex: (level, terrain)}``."""
    return board_from_text(board_text(hexes, hexsides, **kwargs), tmp_path)
