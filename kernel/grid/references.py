"""The parsed forms of ASL grid coordinates (A2.2, A2.73): hexes, Locations, Bypass positions, vertices and covered arcs."""

from __future__ import annotations

from dataclasses import dataclass, field

from kernel.grid.columns import MAX_DIGITS, board_problem, require_int, column_index


def _require_hex(value: object, what: str) -> None:
    if not isinstance(value, HexRef):
        raise TypeError(f"{what} must be a HexRef, not {type(value).__name__}")


@dataclass(frozen=True)
class HexRef:
    """One hex: optional board number, column letters and hex number.

    Parameters
    ----------
    board : str or None
        The board number as written (``"2"``, ``"32"``: 1..999 without leading
        zeros), or None when the coordinate names no board.
    column : str
        Column letters, ``A``..``Z`` or doubled ``AA``..``ZZ``.
    number : int
        Hex number within the column, 0..999.
    overlay : bool, default False
        Whether the hex is covered by an overlay (written ``32oE7``, A2.73);
        only allowed with a board.

    Raises
    ------
    ValueError
        If a field holds a value that has no written form.
    TypeError
        If a field has the wrong type.

    Examples
    --------
    >>> import kernel
    >>> ref = HexRef("32", "E", 7, overlay=True)
    >>> kernel.format_coordinate(ref)
    '32oE7'
    >>> ref.column_index
    4
    >>> HexRef(None, "E", 7, overlay=True)
    Traceback (most recent call last):
    ...
    ValueError: an overlaid hex needs a board number, like '32oE7'
    """

    board: str | None
    column: str
    number: int
    overlay: bool = False

    def __post_init__(self) -> None:
        if self.board is not None:
            if not isinstance(self.board, str):
                raise TypeError(
                    f"board must be a str or None, not {type(self.board).__name__}"
                )
            problem = (
                board_problem(self.board)
                if self.board.isascii() and self.board.isdigit()
                else "expected digits"
            )
            if problem is not None:
                raise ValueError(f"invalid board {self.board!r}: {problem}")
        column_index(self.column)
        require_int(self.number, "hex number")
        if not 0 <= self.number < 10**MAX_DIGITS:
            raise ValueError(
                f"invalid hex number {self.number!r}: expected 0..{10**MAX_DIGITS - 1}"
            )
        if not isinstance(self.overlay, bool):
            raise TypeError(f"overlay must be a bool, not {type(self.overlay).__name__}")
        if self.overlay and self.board is None:
            raise ValueError("an overlaid hex needs a board number, like '32oE7'")

    @property
    def column_index(self) -> int:
        """Index of the column, 0 for ``A``.

        Examples
        --------
        >>> HexRef("2", "I", 9).column_index
        8
        """
        return column_index(self.column)


@dataclass(frozen=True)
class LocationRef:
    """A hex, optionally with a level suffix (``1E4h1``, A2.2).

    Parameters
    ----------
    hex : HexRef
        The hex.
    level : int or None
        The level written after ``h`` (-999..999; ``-1`` is a sewer or cellar
        level), or None when the coordinate has no ``h`` suffix.  ``h0`` is
        kept distinct from no suffix.
    rooftop : bool
        The hex's rooftop Location, written with the suffix ``roof``
        (``15G5roof``): the Location above the top level of a multi-hex
        building, whose level the board knows.  It takes no ``h`` level.

    Examples
    --------
    >>> import kernel
    >>> kernel.parse_coordinate("1E4h-1")
    LocationRef(hex=HexRef(board='1', column='E', number=4, overlay=False), level=-1)
    >>> kernel.format_coordinate(LocationRef(HexRef("1", "E", 4), 0))
    '1E4h0'
    >>> kernel.parse_coordinate("15G5roof").rooftop
    True
    """

    hex: HexRef
    level: int | None
    rooftop: bool = field(default=False, repr=False)

    def __repr__(self) -> str:
        roof = ", rooftop=True" if self.rooftop else ""
        return f"LocationRef(hex={self.hex!r}, level={self.level!r}{roof})"

    def __post_init__(self) -> None:
        _require_hex(self.hex, "hex")
        if not isinstance(self.rooftop, bool):
            raise TypeError(f"rooftop is {self.rooftop!r}: expected True or False")
        if self.rooftop and self.level is not None:
            raise ValueError(f"a rooftop Location has no level: got level {self.level!r} with rooftop=True")
        if self.level is not None:
            require_int(self.level, "level")
            if not -(10**MAX_DIGITS) < self.level < 10**MAX_DIGITS:
                limit = 10**MAX_DIGITS - 1
                raise ValueError(f"invalid level {self.level!r}: expected -{limit}..{limit}")


@dataclass(frozen=True)
class BypassRef:
    """Bypass in ``hex`` along its hexside with ``along`` (``F3-E3``, A2.2).

    Parameters
    ----------
    hex : HexRef
        The hex actually occupied (always written first).
    along : HexRef
        The hex on the other side of the bypassed hexside.

    Examples
    --------
    >>> import kernel
    >>> ref = kernel.parse_coordinate("2F3-E3")
    >>> ref.hex.board, ref.along.board
    ('2', None)
    >>> kernel.format_coordinate(ref)
    '2F3-E3'
    """

    hex: HexRef
    along: HexRef

    def __post_init__(self) -> None:
        _require_hex(self.hex, "hex")
        _require_hex(self.along, "along")


@dataclass(frozen=True)
class VertexRef:
    """The vertex shared by three hexes (``X0-W1-W0``, A2.2, A2.6).

    Parameters
    ----------
    hex : HexRef
        The hex actually occupied (always written first).
    second, third : HexRef
        The two other hexes meeting at the vertex.

    Examples
    --------
    >>> import kernel
    >>> ref = kernel.parse_coordinate("X0-W1-W0")
    >>> [part.column + str(part.number) for part in (ref.hex, ref.second, ref.third)]
    ['X0', 'W1', 'W0']
    """

    hex: HexRef
    second: HexRef
    third: HexRef

    def __post_init__(self) -> None:
        _require_hex(self.hex, "hex")
        _require_hex(self.second, "second")
        _require_hex(self.third, "third")


@dataclass(frozen=True)
class CoveredArcRef:
    """A hex with a covered arc centred on a hexspine (``1E4caD3/D4``, A2.2).

    Parameters
    ----------
    hex : HexRef
        The hex (at ground level).
    spine : tuple of (HexRef, HexRef)
        The two hexes whose common hexside the CA's hexspine runs along,
        in the order written.

    Examples
    --------
    >>> import kernel
    >>> ref = kernel.parse_coordinate("1E4caD3/D4")
    >>> [part.column + str(part.number) for part in ref.spine]
    ['D3', 'D4']
    >>> kernel.format_coordinate(ref)
    '1E4caD3/D4'
    """

    hex: HexRef
    spine: tuple[HexRef, HexRef]

    def __post_init__(self) -> None:
        _require_hex(self.hex, "hex")
        if not isinstance(self.spine, tuple):
            raise TypeError(f"spine must be a tuple, not {type(self.spine).__name__}")
        if len(self.spine) != 2:
            raise ValueError(f"spine must hold two hexes, not {len(self.spine)}")
        for part in self.spine:
            _require_hex(part, "spine item")


Coordinate = LocationRef | BypassRef | VertexRef | CoveredArcRef


def merged_half_hex_names(board) -> dict[str, int]:
    """The other names of a map's merged edge half hexes: each name to the index of the hex it merged into.

    Two edge half hexes that meet where boards butt are one hex with one name
    (A2.2: the printed coordinate, else the north-easternmost board's); the
    other half's name (``71GG7``, merged into ``72A7`` on the default map)
    names no hex, and :meth:`kernel.maps.board.Board.index` answers it with
    an error that names the merged hex.

    Parameters
    ----------
    board : Board

    Returns
    -------
    dict of str to int
        Empty for a map of one board.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> other = merged_half_hex_names(board)
    >>> board.names[other["71GG7"]]
    '72A7'
    >>> len(other) == int(board.merged.sum())
    True
    """
    from kernel.grid.columns import column_letters

    at = {(int(x), int(y)): i for i, (x, y) in enumerate(zip(board.x, board.y))}
    out: dict[str, int] = {}
    for placement in board.placements:
        spec = placement.board
        if spec.layout != "geomorphic":
            continue
        x0, y0 = placement.column * 3 * (spec.columns - 1), placement.row * 2 * spec.rows
        width, height = 3 * (spec.columns - 1), 2 * spec.rows
        for cell in spec.cells():
            x, y = 3 * cell[0], 2 * cell[1] - 1 + cell[0] % 2   # the cell's centre on its board's lattice
            if placement.rotated:
                x, y = width - x, height - y
            index = at.get((x0 + x, y0 + y))
            name = f"{placement.id}{column_letters(cell[0])}{cell[1]}"
            if index is not None and board.merged[index] and board.names[index] != name:
                out[name] = index
    return out
