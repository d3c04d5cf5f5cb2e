"""Mapboards: geomorphic boards butted together, rotated, and overlaid (ASL A2).

:func:`compose` turns a :class:`~kernel.maps.text_format.ScenarioSpec` into global
hexes on one exact lattice (see :mod:`kernel.grid.lattice`), keyed by their centre
``(x, y)``:

* boards in one row butt side by side; their shared edge column is one column
  of hexes (A2.1); rows butt top to bottom;
* a board placed upside down (rotated 180 degrees) keeps its own names, which
  then run backwards (A2.1);
* two edge half hexes that meet are one hex, named by A2.2 and given terrain by
  A2.3 (see ``docs/board-format.md``);
* overlays are placed by two adjacent map hexes in the listed order, rotated
  in 60 degree steps to fit; only the topmost overlay counts (A2.73).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from kernel.maps.specs import BoardFileError, BoardSpec, HexSpec, ScenarioSpec
from kernel.grid.columns import column_letters
from kernel.grid.coordinates import format_coordinate, parse_hex
from kernel.grid.lattice import (
    axial_from_offset,
    direction_between,
    hexside_key,
    offset_from_axial,
    rotate_axial,
)


@dataclass
class GlobalHex:
    """One hex of the composed map (before compilation to arrays)."""

    x: int
    y: int
    name: str
    board: str
    spec: HexSpec
    overlay: str | None = None
    half_count: int = 1   # 2 for hexes merged from two edge half hexes


@dataclass
class Composition:
    """The composed map: hexes by centre, hexside features by hexside key."""

    hexes: dict[tuple[int, int], GlobalHex]
    hexsides: dict[tuple[int, int], set[str]] = field(default_factory=dict)
    named: bool = True   # names carry board numbers (geomorphic ASL boards)


def local_centre(board: BoardSpec, cell: tuple[int, int]) -> tuple[int, int]:
    """Centre of a board's local cell ``(column, number)`` on its own lattice."""
    column, number = cell
    return 3 * column, 2 * number - 1 + column % 2


def _printed(board: BoardSpec, cell: tuple[int, int]) -> bool:
    """Whether a hex carries a printed grid coordinate (top-edge halves do not)."""
    return not (board.layout == "geomorphic" and cell[1] == 0)


def compose(scenario: ScenarioSpec) -> Composition:
    """Place the scenario's boards and overlays on one global lattice.

    Raises
    ------
    BoardFileError
        If boards do not fit together or an overlay falls off the map or is not
        placed by two adjacent hexes; the message names the scenario line.
    """
    source = scenario.source
    multi = len(scenario.boards) > 1
    first = scenario.boards[0].board
    named = first.layout == "geomorphic"
    for placement in scenario.boards:
        board = placement.board
        if (multi or placement.rotated) and board.layout != "geomorphic":
            raise BoardFileError(
                f"{source}:{placement.line}: board {board.id} has layout {board.layout!r}: "
                "only geomorphic boards can be butted or rotated (expected layout = geomorphic)"
            )
        if multi and (board.columns, board.rows) != (first.columns, first.rows):
            raise BoardFileError(
                f"{source}:{placement.line}: board {board.id} is {board.columns}x{board.rows}: expected "
                f"{first.columns}x{first.rows} like board {first.id}"
            )
        if (multi or placement.rotated) and board.columns % 2 == 0:
            raise BoardFileError(
                f"{source}:{placement.line}: board {board.id} has {board.columns} columns: "
                "butting or rotating needs an odd column count"
            )

    halves: dict[tuple[int, int], list] = {}
    hexsides: dict[tuple[int, int], set[str]] = {}
    for placement in scenario.boards:
        board = placement.board
        x0 = placement.column * 3 * (board.columns - 1)
        y0 = placement.row * 2 * board.rows
        width, height = 3 * (board.columns - 1), 2 * board.rows
        for cell in board.cells():
            x, y = local_centre(board, cell)
            if placement.rotated:
                x, y = width - x, height - y
            spec = board.hexes.get(cell) or HexSpec(board.default_level, (), 0, None, 0)
            if placement.rotated and spec.touch is not None:   # touch bits are hexside numbers
                spec = replace(spec, touch=_rotate_touch(spec.touch, 3))
            name = (placement.id if named else "") + f"{column_letters(cell[0])}{cell[1]}"
            halves.setdefault((x0 + x, y0 + y), []).append((placement, cell, spec, name))
        for (cell, direction), features in board.hexsides.items():
            x, y = local_centre(board, cell)
            if placement.rotated:
                x, y, direction = width - x, height - y, (direction + 3) % 6
            key = hexside_key(x0 + x, y0 + y, direction)
            hexsides.setdefault(key, set()).update(features)

    hexes: dict[tuple[int, int], GlobalHex] = {}
    for (x, y), parts in halves.items():
        if len(parts) == 1:
            placement, cell, spec, name = parts[0]
            hexes[(x, y)] = GlobalHex(x, y, name, placement.id, spec)
            continue
        if len(parts) > 2:  # cannot happen on a lattice of butted boards
            raise BoardFileError(f"{source}: {len(parts)} boards overlap at one hex ({parts[0][3]})")
        printed = [part for part in parts if _printed(part[0].board, part[1])]
        if len(printed) == 1:
            designating = printed[0]
        else:  # neither or both printed: the north-easternmost board names it
            designating = min(parts, key=lambda part: (part[0].row, -part[0].column))
        other = parts[1] if designating is parts[0] else parts[0]
        spec = designating[2]
        other_spec = other[2]
        terrain = spec.terrain if spec.terrain else other_spec.terrain   # A2.3
        source_spec = spec if spec.terrain else other_spec
        merged = HexSpec(
            level=max(spec.level, other_spec.level),
            terrain=terrain,
            building_levels=source_spec.building_levels,
            touch=source_spec.touch,
            line=source_spec.line,
            rooftop=source_spec.rooftop,
            stairway=source_spec.stairway,
        )
        hexes[(x, y)] = GlobalHex(x, y, designating[3], designating[0].id, merged, half_count=2)

    composition = Composition(hexes, hexsides, named)
    by_name = {hex_.name: key for key, hex_ in hexes.items()}
    for placement in scenario.overlays:
        _apply_overlay(composition, placement, by_name, source)
    return composition


def _lookup(by_name, text: str, source: str, line: int) -> tuple[int, int]:
    try:
        ref = parse_hex(text)
    except ValueError as error:
        raise BoardFileError(f"{source}:{line}: {error}") from None
    canonical = format_coordinate(type(ref)(ref.board, ref.column, ref.number))
    if canonical not in by_name:
        raise BoardFileError(f"{source}:{line}: overlay hex {text!r} is not a hex of this map")
    return by_name[canonical]


def _apply_overlay(composition: Composition, placement, by_name, source: str) -> None:
    overlay = placement.overlay
    line = placement.line
    first = _lookup(by_name, placement.first, source, line)
    second = _lookup(by_name, placement.second, source, line)
    try:
        map_direction = direction_between(first[0] // 3, _row(first), second[0] // 3, _row(second))
    except ValueError:
        raise BoardFileError(
            f"{source}:{line}: overlay {overlay.id} is placed on {placement.first} and {placement.second}, "
            "which are not adjacent: expected two adjacent hexes"
        ) from None
    anchor1, anchor2 = overlay.anchors
    a1 = local_centre(overlay, anchor1)
    a2 = local_centre(overlay, anchor2)
    overlay_direction = direction_between(a1[0] // 3, _row(a1), a2[0] // 3, _row(a2))
    rotation = (map_direction - overlay_direction) % 6
    q1, r1 = axial_from_offset(a1[0] // 3, _row(a1))
    mq, mr = axial_from_offset(first[0] // 3, _row(first))
    covered: dict[tuple[int, int], tuple[int, int]] = {}
    for cell in overlay.cells():
        cx, cy = local_centre(overlay, cell)
        q, r = axial_from_offset(cx // 3, _row((cx, cy)))
        dq, dr = rotate_axial(q - q1, r - r1, rotation)
        col, row = offset_from_axial(mq + dq, mr + dr)
        key = (3 * col, 2 * row + 1 - col % 2)
        if key not in composition.hexes:
            raise BoardFileError(
                f"{source}:{line}: overlay {overlay.id} hex {overlay.local_name(cell)} falls off the map "
                f"when placed on {placement.first}-{placement.second}"
            )
        covered[cell] = key
    for cell, key in covered.items():
        target = composition.hexes[key]
        spec = overlay.hexes.get(cell) or HexSpec(None, (), 0, None, 0)
        target.spec = HexSpec(
            level=target.spec.level if spec.level is None else spec.level,
            terrain=spec.terrain,
            building_levels=spec.building_levels,
            touch=None if spec.touch is None else _rotate_touch(spec.touch, rotation),
            line=spec.line,
            rooftop=spec.rooftop,
            stairway=spec.stairway,
        )
        target.overlay = overlay.id
        for direction in range(6):
            composition.hexsides.pop(hexside_key(key[0], key[1], direction), None)
    for (cell, direction), features in overlay.hexsides.items():
        key = covered[cell]
        composition.hexsides.setdefault(
            hexside_key(key[0], key[1], (direction + rotation) % 6), set()
        ).update(features)


def _rotate_touch(mask: int, steps: int) -> int:
    """A 6-bit hexside mask turned ``steps`` x 60 degrees clockwise (bit d -> bit d + steps)."""
    steps %= 6
    return ((mask << steps) | (mask >> (6 - steps))) & 0b111111


def _row(centre: tuple[int, int]) -> int:
    x, y = centre
    col = x // 3
    return (y - 1 + col % 2) // 2

