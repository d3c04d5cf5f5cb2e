"""The parsed specifications of boards, overlays and scenarios (plain dataclasses).

These are what the text readers (:mod:`kernel.maps.board_text`,
:mod:`kernel.maps.scenario_text`) and the VASL importer produce, and what
mapboard composition (:mod:`kernel.maps.composition`) consumes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernel.grid.columns import column_letters

LAYOUTS = ("geomorphic", "rectangular", "staggered")
ORIENTATIONS = ("flat", "pointy")


class BoardFileError(ValueError):
    """A board, overlay or scenario file is malformed (message: file:line: what).

    See Also
    --------
    kernel.read_board_file, kernel.read_scenario : raise it, naming the file and line.

    Examples
    --------
    >>> import kernel, pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "bad.board"
    >>> _ = path.write_text("[board]\\nid = 9\\nruleset = asl\\ncolumns = 0\\n")
    >>> try:
    ...     kernel.read_board_file(path)
    ... except kernel.BoardFileError as error:
    ...     print(str(error).split(": ", 1)[1])
    [board] lacks the required key 'rows'
    """


@dataclass
class HexSpec:
    """One hex of a board file: ground level, terrain features and options.

    See Also
    --------
    kernel.BoardSpec : holds one per hex of a board file.

    Examples
    --------
    >>> import kernel
    >>> spec = kernel.read_board_file(kernel.maps.bundled.data_dir() / "boards" / "71.board")
    >>> spec.hexes[(15, 5)].terrain, spec.hexes[(15, 5)].building_levels
    (('stone-building',), 2)
    """

    level: int | None            # None only in overlays: keep the covered hex's level
    terrain: tuple[str, ...]
    building_levels: int = 0
    touch: int | None = None     # bit set of hexsides the obstacle touches; None = default
    line: int = 0


@dataclass
class BoardSpec:
    """A parsed board or overlay file (local lattice, names not yet global).

    See Also
    --------
    kernel.read_board_file : reads one from a ``.board`` or ``.overlay`` file.
    kernel.write_board_file : writes one back.
    kernel.read_vasl_board : makes one from a VASL board.

    Examples
    --------
    >>> import kernel
    >>> spec = kernel.read_board_file(kernel.maps.bundled.data_dir() / "boards" / "71.board")
    >>> spec.kind, spec.id, spec.ruleset, len(spec.hexes)
    ('board', '71', 'asl', 133)
    """

    source: str
    kind: str                    # "board" or "overlay"
    id: str                      # board number ("71") or overlay id ("ov1")
    ruleset: str
    layout: str
    orientation: str
    columns: int
    rows: int
    title: str = ""
    default_level: int = 0
    hexes: dict[tuple[int, int], HexSpec] = field(default_factory=dict)
    #: (local cell, hexside direction) -> feature names, each hexside stored once
    hexsides: dict[tuple[tuple[int, int], int], tuple[str, ...]] = field(default_factory=dict)
    anchors: tuple[tuple[int, int], tuple[int, int]] | None = None
    #: The board's drawn art (a :class:`kernel.maps.art.LocalArt`), when it has one (VASL boards)
    art: object | None = field(default=None, compare=False, repr=False)

    def number_range(self, column: int) -> range:
        """Valid hex numbers in local ``column`` for this layout."""
        odd = column % 2 == 1
        if self.layout == "geomorphic":
            return range(0 if odd else 1, self.rows + 1)
        if self.layout == "staggered" and odd:
            return range(1, self.rows)
        return range(1, self.rows + 1)

    def cells(self):
        """All local cells ``(column, number)`` in column-major order."""
        for column in range(self.columns):
            for number in self.number_range(column):
                yield column, number

    def contains(self, cell: tuple[int, int]) -> bool:
        column, number = cell
        return 0 <= column < self.columns and number in self.number_range(column)

    @staticmethod
    def lattice_row(column: int, number: int) -> int:
        """Local lattice row of hex ``number`` in ``column`` (digest section 2)."""
        return number - 1 + column % 2

    def local_name(self, cell: tuple[int, int]) -> str:
        return f"{column_letters(cell[0])}{cell[1]}"


@dataclass
class BoardPlacement:
    """One board of a scenario: where it lies and whether it is upside down."""

    board: BoardSpec
    row: int
    column: int
    rotated: bool
    id: str
    line: int


@dataclass
class OverlayPlacement:
    """One overlay of a scenario, placed by two adjacent map hexes (A2.73)."""

    overlay: BoardSpec
    first: str
    second: str
    line: int


@dataclass
class ScenarioSpec:
    """A parsed scenario: boards, overlays, ruleset and switches.

    See Also
    --------
    kernel.read_scenario : reads one.
    kernel.compile_scenario : compiles it into a :class:`~kernel.Board`.

    Examples
    --------
    >>> import kernel
    >>> spec = kernel.read_scenario(kernel.maps.bundled.data_dir() / "scenarios" / "default.scenario")
    >>> spec.ruleset, len(spec.boards)
    ('asl', 4)
    """

    source: str
    title: str
    ruleset: str
    boards: list[BoardPlacement]
    overlays: list[OverlayPlacement]
    switches: dict[str, bool]
