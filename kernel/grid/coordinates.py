"""Parse and format ASL grid coordinates (ASL A2.2), round-tripping exactly.

A grid coordinate names a hex by an optional board number, the column letters
and the hex number within that column: ``2I9`` is hex I9 of board 2.  ASL
boards letter their columns A..Z, AA..GG (indices 0..32); this module accepts
the whole range A..Z, AA..ZZ (0..51).  Only uppercase letters are column
letters; lowercase letters are markers.  The forms, all from A2.2 and A2.73:

===============  =========================================  ===============
Text             Meaning                                    Parsed as
===============  =========================================  ===============
``I9``, ``2I9``  hex I9 (of board 2)                        `LocationRef`
``32oE7``        hex E7 of board 32, covered by an overlay  `LocationRef`
``1E4h1``        level 1 of 1E4 (``h-1``: sewer or cellar)  `LocationRef`
``F3-E3``        Bypass in F3 along the F3-E3 hexside       `BypassRef`
``X0-W1-W0``     the vertex of X0, W1 and W0 (X0 occupied)  `VertexRef`
``1E4caD3/D4``   1E4, CA centred on the D3-D4 hexspine      `CoveredArcRef`
===============  =========================================  ===============

Grammar (leading and trailing whitespace is stripped, nothing else is
tolerated)::

    coordinate  := hex ["h" level] | hex "-" hex | hex "-" hex "-" hex
                 | hex "ca" hex "/" hex
    hex         := [board ["o"]] column number
    board       := 1..999 without leading zeros ("2", "32")
    column      := A..Z | AA, BB, ..., ZZ (a doubled letter is one letter twice)
    number      := 0..999 without leading zeros (0 and 10 are half hexes)
    level       := ["-"] number, except "-0"

Each hex of a Bypass, vertex or covered arc keeps its own board prefix (or
lack of one) exactly as written, so formatting gives back the input.  Only the
syntax is checked: whether a hex exists on its board, or whether the hexes of
a Bypass or vertex are adjacent, is for the board model to say.

Malformed text raises `ValueError` quoting the input and saying what was
expected; input that is not a `str` raises `TypeError`.  Text longer than
`~kernel._limits.MAX_COORDINATE_CHARS` characters (after stripping; the
longest coordinate of the grammar has 30) is refused before it is parsed,
and every step of the parse is linear in the text's length (no regular
expression here can backtrack over a run of letters), so a name of any
length costs at most a scan of it.
"""

from __future__ import annotations

import re

from kernel._limits import MAX_COORDINATE_CHARS
from kernel.grid.columns import Malformed, board_problem, column_problem, digits_problem, require_str
from kernel.grid.references import BypassRef, Coordinate, CoveredArcRef, HexRef, LocationRef, VertexRef


#: Loose shape of one hex: splits off the pieces so that each can be checked
#: with its own error message.  Uses explicit ASCII classes (``\d`` would also
#: match non-ASCII digits).
_HEX_SHAPE = re.compile(
    r"(?P<board>[0-9]*)(?P<overlay>o?)(?P<column>[A-Za-z]*)(?P<number>[0-9]*)"
)


_LEVEL_SHAPE = re.compile(r"-?[0-9]+")


_EXPECT_HEX = (
    "board digits (and 'o' if under an overlay), column letters A..Z or "
    "doubled AA..ZZ, and a hex number, like '2I9' or '32oE7'"
)


_EXPECT_LEVEL = "a hex, 'h' and a level, like '1E4h1' or '1E4h-1'"


_EXPECT_BYPASS_OR_VERTEX = (
    "two hexes joined by '-' for a Bypass, like 'F3-E3', "
    "or three for a vertex, like 'X0-W1-W0'"
)


_EXPECT_COVERED_ARC = (
    "a hex, 'ca' and a hexspine of two hexes joined by '/', like '1E4caD3/D4'"
)


_EXPECT_ANY = (
    "a hex like '2I9' or '32oE7', a level like '1E4h1', a Bypass like "
    "'F3-E3', a vertex like 'X0-W1-W0' or a covered arc like '1E4caD3/D4'"
)


def _hex_problem(board: str, overlay: str, column: str, number: str) -> str | None:
    """Why the pieces of one hex are malformed, or None if they form a hex."""
    if board:
        problem = board_problem(board)
        if problem is not None:
            return problem
    elif overlay:
        return "the overlay marker 'o' needs a board number, like '32oE7'"
    if not column:
        return "missing column letters"
    problem = column_problem(column)
    if problem is not None:
        return f"column {column!r}: {problem}"
    return digits_problem(number, "hex number")


def _parse_hex_part(part: str, where: str) -> HexRef:
    """Parse one hex; raise `Malformed` with the reason if it is not one.

    ``where`` places the hex in the coordinate ("after '-'") for the message
    when ``part`` is empty.
    """
    if not part:
        raise Malformed(f"missing hex {where}")
    shape = _HEX_SHAPE.match(part)
    if shape.end() < len(part):
        start, rest = part[: shape.end()], part[shape.end() :]
        place = f"after {start!r}" if start else "at the start"
        raise Malformed(f"unexpected {rest!r} {place}")
    board, overlay, column, number = shape.group("board", "overlay", "column", "number")
    problem = _hex_problem(board, overlay, column, number)
    if problem is not None:
        raise Malformed(problem)
    return HexRef(board or None, column, int(number), overlay=bool(overlay))


def _parse_level(text: str) -> int:
    """Parse the level after ``h``; raise `Malformed` if it is not one."""
    if not text:
        raise Malformed("missing level after 'h'")
    if not _LEVEL_SHAPE.fullmatch(text):
        raise Malformed(f"level {text!r} is not a whole number")
    if text == "-0":
        raise Malformed("level '-0' is written 'h0'")
    problem = digits_problem(text.removeprefix("-"), "level")
    if problem is not None:
        raise Malformed(problem)
    return int(text)


def _invalid(text: str, expected: str, reason: str) -> ValueError:
    return ValueError(f"invalid grid coordinate {text!r}: expected {expected} ({reason})")


def _checked_body(text: str) -> str:
    """``text`` stripped, once it is a `str` of at most :data:`MAX_COORDINATE_CHARS` characters."""
    body = require_str(text).strip()
    if len(body) > MAX_COORDINATE_CHARS:
        raise ValueError(f"invalid grid coordinate {body[:24]!r}... ({len(body)} characters): expected at most "
                         f"{MAX_COORDINATE_CHARS} characters, like '2I9' or '1E4caD3/D4'")
    return body


#: A hex with letters in its column: board digits, an overlay's ``o``, the letters, the number.  One run
#: of letters then one of digits: a failed match backtracks over the run once, linear in its length
#: (``[A-Za-z]*[a-z][A-Za-z]*`` tried every split of a run of letters: quadratic).
_LETTER_COLUMN = re.compile(r"([0-9]*)(o?)([A-Za-z]+)([0-9]+)")


def _lower_case_hint(text: str, body: str) -> ValueError | None:
    """The short error for a plain hex typed with lower-case column letters (``2i9``), naming the hex
    meant; ``None`` when ``body`` is not such a hex."""
    lower = _LETTER_COLUMN.fullmatch(body)
    if lower is None:
        return None
    board, overlay, letters, number = lower.groups()
    if overlay and letters.isupper():  # '0oE7': the 'o' is one of the column's letters, not an overlay's
        overlay, letters = "", overlay + letters
    if letters.isupper():
        return None
    meant = board + overlay + letters.upper() + number
    try:
        _parse_hex_part(meant, "(empty input)")
    except Malformed:
        return None
    return ValueError(f"invalid grid coordinate {text!r}: expected {meant!r} (column letters are upper-case)")


def parse_hex(text: str) -> HexRef:
    """Parse a plain hex, with optional board number and overlay marker.

    Parameters
    ----------
    text : str
        A hex such as ``"I9"``, ``"2I9"`` or ``"32oE7"``; leading and trailing
        whitespace is ignored.  Levels, Bypass, vertices and covered arcs are
        refused: use `parse_coordinate` for those.

    Returns
    -------
    HexRef

    Raises
    ------
    ValueError
        If ``text`` is not a plain hex; the message quotes ``text``.
    TypeError
        If ``text`` is not a `str`.

    See Also
    --------
    kernel.parse_coordinate : every coordinate form (levels, Bypass, vertices, covered arcs).
    kernel.format_coordinate : the inverse, a coordinate as text.
    kernel.Board : ``board.index(name)`` finds a hex of a compiled map.

    Examples
    --------
    >>> parse_hex("32oE7")
    HexRef(board='32', column='E', number=7, overlay=True)
    >>> parse_hex("2i9")
    Traceback (most recent call last):
    ...
    ValueError: invalid grid coordinate '2i9': expected '2I9' (column letters are upper-case)
    >>> parse_hex("2I9h1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: invalid grid coordinate '2I9h1': expected board digits ... (unexpected 'h1' after '2I9')
    """
    body = _checked_body(text)
    try:
        return _parse_hex_part(body, "(empty input)")
    except Malformed as malformed:
        raise _lower_case_hint(text, body) or _invalid(text, _EXPECT_HEX, str(malformed)) from None


def parse_coordinate(text: str) -> Coordinate:
    """Parse any grid coordinate form (see the module docstring).

    Parameters
    ----------
    text : str
        The coordinate; leading and trailing whitespace is ignored.

    Returns
    -------
    LocationRef or BypassRef or VertexRef or CoveredArcRef
        A plain hex gives ``LocationRef(hex, None)``, a level suffix
        ``LocationRef(hex, level)``.

    Raises
    ------
    ValueError
        If ``text`` is malformed; the message quotes ``text`` and says which
        form was expected.
    TypeError
        If ``text`` is not a `str`.

    See Also
    --------
    kernel.format_coordinate : the inverse, a coordinate as text.
    kernel.parse_hex : a plain hex alone.
    kernel.los : takes Location names such as ``"71P5h1"``.

    Examples
    --------
    >>> parse_coordinate(" 2I9 ")
    LocationRef(hex=HexRef(board='2', column='I', number=9, overlay=False), level=None)
    >>> parse_coordinate("F3-E3")  # doctest: +NORMALIZE_WHITESPACE
    BypassRef(hex=HexRef(board=None, column='F', number=3, overlay=False),
              along=HexRef(board=None, column='E', number=3, overlay=False))
    >>> parse_coordinate("F3-")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: invalid grid coordinate 'F3-': expected two hexes ... (missing hex after '-')
    """
    body = _checked_body(text)
    if not body:
        raise _invalid(text, _EXPECT_ANY, "empty input")
    if "ca" in body:
        expected, parse = _EXPECT_COVERED_ARC, _parse_covered_arc
    elif "h" in body:
        expected, parse = _EXPECT_LEVEL, _parse_level_location
    elif "-" in body:
        expected, parse = _EXPECT_BYPASS_OR_VERTEX, _parse_bypass_or_vertex
    else:
        expected, parse = _EXPECT_HEX, _parse_plain_location
    try:
        return parse(body)
    except Malformed as malformed:
        raise _lower_case_hint(text, body) or _invalid(text, expected, str(malformed)) from None


def _parse_plain_location(body: str) -> LocationRef:
    return LocationRef(_parse_hex_part(body, "(empty input)"), None)


def _parse_level_location(body: str) -> LocationRef:
    hex_text, _, level_text = body.partition("h")
    if "h" in level_text:
        raise Malformed("more than one 'h'")
    return LocationRef(_parse_hex_part(hex_text, "before 'h'"), _parse_level(level_text))


def _parse_covered_arc(body: str) -> CoveredArcRef:
    hex_text, _, spine_text = body.partition("ca")
    if "ca" in spine_text:
        raise Malformed("more than one 'ca'")
    if not spine_text:
        raise Malformed("missing hexspine after 'ca'")
    spine_parts = spine_text.split("/")
    if len(spine_parts) != 2:
        raise Malformed(f"the hexspine {spine_text!r} needs exactly one '/'")
    first, second = spine_parts
    return CoveredArcRef(
        _parse_hex_part(hex_text, "before 'ca'"),
        (_parse_hex_part(first, "before '/'"), _parse_hex_part(second, "after '/'")),
    )


def _parse_bypass_or_vertex(body: str) -> BypassRef | VertexRef:
    parts = body.split("-")
    if len(parts) > 3:
        raise Malformed(f"{len(parts)} hexes joined by '-'")
    hexes = [
        _parse_hex_part(part, "before '-'" if index == 0 else "after '-'")
        for index, part in enumerate(parts)
    ]
    return BypassRef(*hexes) if len(hexes) == 2 else VertexRef(*hexes)


def _format_hex(ref: HexRef) -> str:
    overlay = "o" if ref.overlay else ""
    return f"{ref.board or ''}{overlay}{ref.column}{ref.number}"


def format_coordinate(obj: HexRef | Coordinate) -> str:
    """Write a coordinate object as text; the inverse of `parse_coordinate`.

    Parameters
    ----------
    obj : HexRef or LocationRef or BypassRef or VertexRef or CoveredArcRef
        The coordinate.  A `HexRef` is written as the plain hex, which
        `parse_coordinate` reads back as ``LocationRef(obj, None)`` (and
        `parse_hex` as ``obj``).

    Returns
    -------
    str
        The canonical text: ``parse_coordinate(format_coordinate(o)) == o``
        for every coordinate object ``o``, and
        ``format_coordinate(parse_coordinate(s)) == s`` for every canonical
        string ``s``.

    Raises
    ------
    TypeError
        If ``obj`` is none of the types above.

    See Also
    --------
    kernel.parse_coordinate : the inverse, text to a coordinate.
    kernel.parse_hex : a plain hex from text.

    Examples
    --------
    >>> format_coordinate(HexRef("2", "I", 9))
    '2I9'
    >>> format_coordinate(LocationRef(HexRef("1", "E", 4), -1))
    '1E4h-1'
    >>> format_coordinate(VertexRef(HexRef(None, "X", 0), HexRef(None, "W", 1),
    ...                             HexRef(None, "W", 0)))
    'X0-W1-W0'
    >>> format_coordinate(parse_coordinate("1E4caD3/D4"))
    '1E4caD3/D4'
    """
    if isinstance(obj, HexRef):
        return _format_hex(obj)
    if isinstance(obj, LocationRef):
        level = "" if obj.level is None else f"h{obj.level}"
        return _format_hex(obj.hex) + level
    if isinstance(obj, BypassRef):
        return f"{_format_hex(obj.hex)}-{_format_hex(obj.along)}"
    if isinstance(obj, VertexRef):
        return "-".join(_format_hex(part) for part in (obj.hex, obj.second, obj.third))
    if isinstance(obj, CoveredArcRef):
        first, second = obj.spine
        return f"{_format_hex(obj.hex)}ca{_format_hex(first)}/{_format_hex(second)}"
    raise TypeError(
        "cannot format a grid coordinate from "
        f"{type(obj).__name__}: expected HexRef, LocationRef, BypassRef, "
        "VertexRef or CoveredArcRef"
    )
