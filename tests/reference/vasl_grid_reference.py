"""Slow, plain reference ("oracle") for VASL map pixels and A2.2 hex names.

Given a VASL board layout (a save's ``bd`` record) and a point of VASL's main
map in pixels, :func:`hex_at_pixel` says which hex holds it, by its A2.2 grid
coordinate (``"4I9"``).  :func:`read_save` decodes a VASL ``.vsav`` file into
that layout and the map positions of its pieces, so the two can be checked on
real saved games.

It is written to be read, not to be fast: every board rectangle and every hex
of the board is tried in turn.  It deliberately imports nothing from
``kernel``; every number below comes from the facts listed here, gathered
from VASL's and VASSAL's public source (``vasl-developers/vasl``) and from
the saved games themselves.

Geometry facts
--------------
Board (VASL ``BoardArchive``: ``GEO_IMAGE_WIDTH``, ``GEO_IMAGE_HEIGHT``,
``GEO_HEX_WIDTH``, ``GEO_HEX_HEIGHT``, ``GEO_A1_Center``):

* a geomorphic board image is 1800 x 645 pixels and holds 33 x 10 hexes;
* column pitch ``1800 / 32 = 56.25`` px, hex height ``645 / 10 = 64.5`` px;
* the centre of A1 is at ``(0, 32.25)``; column ``c`` (A = 0, B = 1, ...)
  has its centres at ``x = 56.25 c``; columns A, C, E, ... (even ``c``) hold
  hexes 1..10 at ``y = 32.25 + 64.5 (n - 1)``; columns B, D, F, ... (odd
  ``c``) hold hexes 0..10 at ``y = 64.5 n``, so B0 and B10 are half hexes cut
  by the top and bottom edges, and columns A and GG are half hexes cut by the
  left and right edges (346 hexes in all);
* for a board of another pixel size the same grid is used with
  ``round(width / 56.25) + 1`` columns and ``round(height / 64.5)`` rows, as
  VASL's LOS map sizes itself (``ASLMap.buildVASLMap``).

Hex shape (VASL LOS ``Hex``: ``hexside = hexWidth * 2 / 3``): the hexagon
around centre ``(cx, cy)`` has the corners ``(cx +- 37.5, cy)`` and
``(cx +- 18.75, cy +- 32.25)``.  These hexagons tile the board exactly (they
are the printed regular hexes stretched 0.7 % across, VASL's "slightly too
wide" hexes).

Column letters (VASL ``ASLHexGrid.hexrow``): index ``n`` is letter
``"ABC...Z"[n % 26]`` written ``n // 26 + 1`` times: 0 = A, 25 = Z, 26 = AA,
32 = GG.

Map layout (VASSAL ``Map.setBoardBoundaries`` and ``Map.getLocation``; the
edge from VASL's module ``buildFile``: ``ASLMap edgeWidth="400"
edgeHeight="400"``):

* a board at layout cell ``(column, row)`` has its top-left corner at
  ``x = 400 + sum of the widths of the boards in the same row at columns
  0 .. column - 1`` and ``y = 400 + sum of the heights of the boards in the
  same column at rows 0 .. row - 1`` (an empty cell adds 0, as VASSAL's
  width table holds 0 there);
* the board owns the half-open rectangle ``[x0, x0 + width) x [y0, y0 +
  height)`` (``java.awt.Rectangle.contains``, used by ``Map.findBoard``);
  everything else of the map is margin.

Rotated boards (VASL ``ASLBoard.localCoordinates``): a reversed board maps
the point ``(bx, by)`` measured from its top-left corner to its own
coordinates ``(width - bx, height - by)``, so its hexes are the 180-degree
turn of the printed ones: A1 <-> GG10, B0 <-> FF10, I9 <-> Y2.

Which hex holds a point
-----------------------
The board is the one whose rectangle holds the point; the hex is the one of
that board whose hexagon (edges included) holds the point in the board's own
coordinates.  A point on a hexside or a vertex lies in two or three hexagons:
the one whose centre is nearest wins, then the lower column index, then the
lower hex number (in the board's own coordinates).  All corner coordinates
are multiples of 1/4, so the tests are exact for integer pixels.

VASL's own location names (``ASLHexGrid.locationName``, what VASL prints for
a piece) cut the board into rectangles (column bands ``56.24`` px wide, rows
cut at half heights) on a grid of ``56.24 x 64.51`` px from ``(0, 32)``; they
agree with the hexagon rule near hex centres and differ only in the
corners cut by the slanted hexsides.

Seams between boards
--------------------
Two butted edge half hexes (B10 of an upper board and B0 of the board below
it, GG of a left board and A of the board to its right, or the turned names
on rotated boards) form one hex.  :func:`hex_at_pixel` returns the name of
the half that the pixel is on: the board whose rectangle holds it, with that
board's printed coordinate (``2B10`` above the seam, ``4B0`` below it).  It
does not merge the two names.

A2.2 names the composite hex by the one printed grid coordinate when only
one half carries one, otherwise by the board number and row letter of the
north-easternmost of the two boards, with hex number 0 or 10 as its column
neighbour implies (rules digest, section 1).  Across a seam between an upper
and a lower board that is the upper board's coordinate: grid coordinates are
printed by a hex's north hexside, so of two unrotated boards only the upper
board's row-10 half carries one, and where a rotated board makes both or
neither halves carry one, the upper board is the north-easternmost.  Across
a seam between a left and a right board, A2.2 gives the left board's printed
coordinate where only the left half carries one, and the right board's where
both or neither do (it is the north-easternmost).  Which of the A and GG half
hexes carry a printed coordinate is a fact of the printed boards that this
module does not know; a caller that merges seams makes that choice.

Saved games
-----------
Facts about the ``.vsav`` format (from the files themselves; VASL
``ASLBoard.getState`` and ``ASLBoardPicker.encode`` for the ``bd`` record;
VASSAL's piece encoding for the add commands):

* a zip archive whose member ``savedGame`` is ``!VCSK``, two hex digits of
  a key, then the text as pairs of hex digits, each byte XOR the key; the
  text is UTF-8 and its commands are separated by ESC (0x1B); a command
  nested in a composite command ends with the backslash that escaped the
  ESC after it;
* the layout is the ``bd`` command: ``bd<TAB>`` then, per board, ``column
  <TAB> row <TAB> name`` (a leading ``r`` when the board is rotated), four
  crop numbers when cropped, ``VER <TAB> version``, then overlays and SSR
  options, the next board starting again with ``bd<TAB>``;
* a piece is an add command ``+/id/type/state`` (a ``/`` inside a field is
  written ``\\/``); the type's innermost trait ``piece;clone key;delete
  key;image;name`` names it; the state's innermost token (after the last
  tab) starts ``map;x;y``; ``map`` is ``null`` for a piece on no map;
  ``+/id/stack/...`` records are stacks (containers whose pieces carry
  their own positions) and are not pieces.

Public functions
----------------
hex_at_pixel(layout, x, y, *, layout_size, edge=MAP_EDGE) -> str | None
hex_centre(layout, name, *, layout_size, edge=MAP_EDGE) -> (float, float)
board_origins(layout, *, layout_size, edge=MAP_EDGE) -> list of (x0, y0, width, height)
read_save(path) -> (layout, pieces)
Helpers: ``geomorphic_board_size``, ``column_letters``, ``column_index``,
``board_label``, ``board_grid``, ``board_hexes``, ``in_hexagon``,
``hex_in_board``, ``save_commands``, ``parse_board_layout``,
``parse_add_piece``, ``piece_name``.

Examples
--------
>>> layout = [(0, 0, "02", False), (0, 1, "04", False)]
>>> hex_at_pixel(layout, 850, 948, layout_size=geomorphic_board_size)
'2I9'
>>> hex_at_pixel(layout, 850, 1593, layout_size=geomorphic_board_size)
'4I9'
>>> hex_at_pixel(layout, 10, 10, layout_size=geomorphic_board_size) is None
True
"""

from __future__ import annotations

import math
import re
import zipfile
from pathlib import Path

# --- VASL's geomorphic board (BoardArchive.GEO_*) ---------------------------

GEO_IMAGE_WIDTH = 1800
GEO_IMAGE_HEIGHT = 645
GEO_COLUMNS = 33
GEO_ROWS = 10
HEX_PITCH_X = GEO_IMAGE_WIDTH / (GEO_COLUMNS - 1)  # 56.25 px between column centres
HEX_HEIGHT = GEO_IMAGE_HEIGHT / GEO_ROWS  # 64.5 px
A1_CENTRE_Y = HEX_HEIGHT / 2  # 32.25 px; A1 is at x = 0
HEX_SIDE_X = HEX_PITCH_X * 2 / 3  # 37.5 px: centre to the left/right corner
HEX_HALF_SIDE_X = HEX_SIDE_X / 2  # 18.75 px: centre to a top/bottom corner, across
HEX_HALF_HEIGHT = HEX_HEIGHT / 2  # 32.25 px

# --- VASL's main map (buildFile: ASLMap edgeWidth / edgeHeight) --------------

MAP_EDGE = (400, 400)

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SAVE_MEMBER = "savedGame"
SAVE_HEADER = "!VCSK"
COMMAND_SEPARATOR = "\x1b"


# --- names --------------------------------------------------------------------

def column_letters(index: int) -> str:
    """Letters of hex column ``index`` (0 = A), VASL's ``hexrow`` rule.

    Parameters
    ----------
    index : int
        Column index, 0 for A.

    Returns
    -------
    str
        ``ALPHABET[index % 26]`` written ``index // 26 + 1`` times.

    Examples
    --------
    >>> [column_letters(i) for i in (0, 8, 25, 26, 32)]
    ['A', 'I', 'Z', 'AA', 'GG']
    """
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise ValueError(f"column index must be an int >= 0, got {index!r}")
    return ALPHABET[index % 26] * (index // 26 + 1)


def column_index(letters: str) -> int:
    """Column index of ``letters`` (``"A"`` = 0, ``"GG"`` = 32); inverse of :func:`column_letters`.

    Examples
    --------
    >>> column_index("I"), column_index("AA"), column_index("GG")
    (8, 26, 32)
    """
    if not letters or any(ch not in ALPHABET for ch in letters) or len(set(letters)) != 1:
        raise ValueError(f"column letters must repeat one letter A-Z (like 'I' or 'GG'), got {letters!r}")
    return ALPHABET.index(letters[0]) + 26 * (len(letters) - 1)


def board_label(board_number: str) -> str:
    """The board number as A2.2 writes it: ``"02"`` -> ``"2"``, ``"00"`` -> ``"0"``.

    VASL names its geomorphic boards with two digits; a name that is not all
    digits (``"RB"``, ``"DB"``) is kept as it is.

    Examples
    --------
    >>> board_label("02"), board_label("00"), board_label("43"), board_label("RB")
    ('2', '0', '43', 'RB')
    """
    return str(int(board_number)) if board_number.isdigit() else board_number


def geomorphic_board_size(board_number: str) -> tuple[int, int]:
    """Pixel size of a VASL geomorphic board: ``(1800, 645)`` whatever its number.

    Use it as ``layout_size`` for layouts of standard 33 x 10 boards.

    Examples
    --------
    >>> geomorphic_board_size("02")
    (1800, 645)
    """
    return (GEO_IMAGE_WIDTH, GEO_IMAGE_HEIGHT)


# --- one board ------------------------------------------------------------------

def board_grid(width: int, height: int) -> tuple[int, int]:
    """Columns and rows of a board of ``width`` x ``height`` pixels.

    Returns
    -------
    (int, int)
        ``round(width / 56.25) + 1`` columns and ``round(height / 64.5)`` rows.

    Examples
    --------
    >>> board_grid(1800, 645)
    (33, 10)
    """
    return round(width / HEX_PITCH_X) + 1, round(height / HEX_HEIGHT)


def board_hexes(width: int = GEO_IMAGE_WIDTH, height: int = GEO_IMAGE_HEIGHT) -> list[tuple[int, int, float, float]]:
    """Every hex of a board, in the board's own pixel coordinates.

    Parameters
    ----------
    width, height : int
        The board's size in pixels (a geomorphic board by default).

    Returns
    -------
    list of (column index, hex number, centre x, centre y)
        Column by column, top to bottom.

    Examples
    --------
    >>> hexes = board_hexes()
    >>> len(hexes), hexes[0], hexes[10]
    (346, (0, 1, 0.0, 32.25), (1, 0, 56.25, 0.0))
    """
    columns, rows = board_grid(width, height)
    hexes = []
    for c in range(columns):
        if c % 2 == 0:
            numbers = range(1, rows + 1)
        else:
            numbers = range(rows + 1)
        for n in numbers:
            x = c * HEX_PITCH_X
            if c % 2 == 0:
                y = A1_CENTRE_Y + (n - 1) * HEX_HEIGHT
            else:
                y = n * HEX_HEIGHT
            hexes.append((c, n, x, y))
    return hexes


def in_hexagon(px: float, py: float, cx: float, cy: float) -> bool:
    """Whether ``(px, py)`` lies in the hexagon around ``(cx, cy)``, edges included.

    The corners are ``(cx +- 37.5, cy)`` and ``(cx +- 18.75, cy +- 32.25)``;
    inside means ``|dy| <= 32.25`` and on the centre's side of the slanted
    hexsides: ``32.25 |dx| + 18.75 |dy| <= 37.5 * 32.25``.

    Examples
    --------
    >>> in_hexagon(37.5, 0, 0, 0), in_hexagon(18.75, 32.25, 0, 0), in_hexagon(30, 20, 0, 0)
    (True, True, False)
    """
    dx = abs(px - cx)
    dy = abs(py - cy)
    if dy > HEX_HALF_HEIGHT:
        return False
    return HEX_HALF_HEIGHT * dx + HEX_HALF_SIDE_X * dy <= HEX_SIDE_X * HEX_HALF_HEIGHT


def hex_in_board(bx: float, by: float, width: int, height: int) -> tuple[int, int]:
    """The hex of a board holding the point ``(bx, by)`` of the board's own coordinates.

    Returns
    -------
    (column index, hex number)
        Among the hexagons holding the point, the one with the nearest
        centre, then the lower column index, then the lower hex number.

    Raises
    ------
    ValueError
        When no hexagon of a board of that size holds the point (a size that
        is not a whole number of hexes).
    """
    holders = []
    for c, n, cx, cy in board_hexes(width, height):
        if in_hexagon(bx, by, cx, cy):
            holders.append(((bx - cx) ** 2 + (by - cy) ** 2, c, n))
    if not holders:
        raise ValueError(
            f"point ({bx}, {by}) of a {width} x {height} px board lies in none of its hexes; "
            f"expected a board size of whole hexes (a geomorphic board is 1800 x 645)")
    holders.sort()
    _, c, n = holders[0]
    return c, n


# --- the layout -----------------------------------------------------------------

def _check_layout(layout, layout_size) -> list[tuple[int, int, str, bool, int, int]]:
    """Validate ``layout`` and look up each board's size; one row per board."""
    rows = []
    cells = {}
    for i, entry in enumerate(layout):
        if not isinstance(entry, (tuple, list)) or len(entry) != 4:
            raise ValueError(f"layout entry {i} must be (column, row, board_number, rotated), got {entry!r}")
        column, row, number, rotated = entry
        for what, value in (("column", column), ("row", row)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"layout entry {i} ({entry!r}): {what} must be an int >= 0, got {value!r}")
        if not isinstance(number, str):
            raise TypeError(f"layout entry {i} ({entry!r}): board_number must be a str, got {number!r}")
        if not number:
            raise ValueError(f"layout entry {i} ({entry!r}): board_number must not be empty")
        if not isinstance(rotated, bool):
            raise TypeError(f"layout entry {i} ({entry!r}): rotated must be a bool, got {rotated!r}")
        if (column, row) in cells:
            raise ValueError(
                f"layout entries {cells[(column, row)]} and {i} both use cell (column {column}, row {row})")
        cells[(column, row)] = i
        size = layout_size(number)
        if (not isinstance(size, (tuple, list)) or len(size) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)):
            raise ValueError(
                f"layout_size({number!r}) must give (width_px, height_px) as two ints > 0, got {size!r}")
        rows.append((column, row, number, rotated, size[0], size[1]))
    return rows


def _check_edge(edge) -> tuple[int, int]:
    if (not isinstance(edge, (tuple, list)) or len(edge) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in edge)):
        raise ValueError(f"edge must be (width_px, height_px) as two ints >= 0, got {edge!r}")
    return edge[0], edge[1]


def board_origins(layout, *, layout_size, edge=MAP_EDGE) -> list[tuple[int, int, int, int]]:
    """Where each board of ``layout`` lies on the map, VASSAL's board layout rule.

    Parameters
    ----------
    layout : list of (column, row, board_number, rotated)
        A save's ``bd`` record, in its order.
    layout_size : callable
        ``layout_size(board_number) -> (width_px, height_px)``.
    edge : (int, int)
        The map's margin left of and above the boards (VASL: 400 x 400).

    Returns
    -------
    list of (x0, y0, width, height)
        One per layout entry, in order: the top-left corner and size.

    Examples
    --------
    >>> board_origins([(0, 0, "02", False), (0, 1, "04", False), (1, 0, "03", True)],
    ...               layout_size=geomorphic_board_size)
    [(400, 400, 1800, 645), (400, 1045, 1800, 645), (2200, 400, 1800, 645)]
    """
    boards = _check_layout(layout, layout_size)
    edge_x, edge_y = _check_edge(edge)
    widths = {(b[0], b[1]): b[4] for b in boards}
    heights = {(b[0], b[1]): b[5] for b in boards}
    origins = []
    for column, row, _number, _rotated, width, height in boards:
        x0 = edge_x
        for k in range(column):
            x0 += widths.get((k, row), 0)
        y0 = edge_y
        for k in range(row):
            y0 += heights.get((column, k), 0)
        origins.append((x0, y0, width, height))
    return origins


def hex_at_pixel(layout, x, y, *, layout_size, edge=MAP_EDGE) -> str | None:
    """A2.2 name of the hex holding map point ``(x, y)``, or None off every board.

    Parameters
    ----------
    layout : list of (column, row, board_number, rotated)
        A save's ``bd`` record in its order: each board's cell in VASL's board
        layout, its VASL name (``"02"``) and whether it is rotated 180 degrees.
    x, y : int or float
        A point of the main map, in pixels (a piece's position in a save).
    layout_size : callable
        ``layout_size(board_number) -> (width_px, height_px)``: each board's
        image size in pixels, which VASSAL's layout adds up
        (:func:`geomorphic_board_size` for standard boards).
    edge : (int, int)
        The map's margin left of and above the boards (VASL: 400 x 400).

    Returns
    -------
    str or None
        Board number (:func:`board_label`), column letters and hex number,
        e.g. ``"4I9"``; None when the point lies in the margin or in an empty
        layout cell.  On a seam between two boards this is the name of the
        half hex the point is on (the board whose rectangle holds it), not a
        merged A2.2 name (module docstring, "Seams between boards").

    Raises
    ------
    ValueError
        On a malformed layout, a duplicate layout cell, a bad ``layout_size``
        answer, a bad edge or a non-finite coordinate.
    TypeError
        When a layout entry's board number is not a str or its rotation not a bool.

    Examples
    --------
    >>> size = geomorphic_board_size
    >>> hex_at_pixel([(0, 0, "02", False)], 850, 948, layout_size=size)
    '2I9'
    >>> hex_at_pixel([(0, 0, "02", True)], 850, 948, layout_size=size)
    '2Y2'
    >>> hex_at_pixel([(0, 0, "02", False)], 2200, 948, layout_size=size) is None
    True
    """
    for what, value in (("x", x), ("y", y)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"{what} must be a finite number of pixels, got {value!r}")
    origins = board_origins(layout, layout_size=layout_size, edge=edge)
    for (_column, _row, number, rotated), (x0, y0, width, height) in zip(layout, origins):
        if x0 <= x < x0 + width and y0 <= y < y0 + height:
            bx = x - x0
            by = y - y0
            if rotated:
                bx = width - bx
                by = height - by
            c, n = hex_in_board(bx, by, width, height)
            return f"{board_label(number)}{column_letters(c)}{n}"
    return None


NAME_PATTERN = re.compile(r"^(?P<board>.+?)(?P<letters>[A-Z]+)(?P<number>\d+)$")


def hex_centre(layout, name, *, layout_size, edge=MAP_EDGE) -> tuple[float, float]:
    """Map point of the centre of hex ``name`` (``"2I9"``); the inverse of :func:`hex_at_pixel`.

    Parameters
    ----------
    layout, layout_size, edge
        As for :func:`hex_at_pixel`.
    name : str
        Board number (as :func:`board_label` writes it), column letters and
        hex number.

    Returns
    -------
    (float, float)
        The centre in map pixels.  The centre of an edge half hex lies on
        the board's edge; on the right and bottom edges that point belongs to
        the next board (or the margin), as VASSAL's rectangles are half-open.

    Raises
    ------
    ValueError
        When ``name`` is not a hex of a board of the layout, or names a board
        that appears twice.

    Examples
    --------
    >>> hex_centre([(0, 0, "02", False)], "2I9", layout_size=geomorphic_board_size)
    (850.0, 948.25)
    >>> hex_centre([(0, 0, "02", True)], "2Y2", layout_size=geomorphic_board_size)
    (850.0, 948.25)
    """
    match = NAME_PATTERN.match(name) if isinstance(name, str) else None
    if match is None:
        raise ValueError(f"hex name must be board number, column letters and hex number (like '2I9'), got {name!r}")
    origins = board_origins(layout, layout_size=layout_size, edge=edge)
    found = [i for i, entry in enumerate(layout) if board_label(entry[2]) == match["board"]]
    if not found:
        labels = [board_label(entry[2]) for entry in layout]
        raise ValueError(f"hex {name!r}: board {match['board']!r} is not in the layout (boards {labels})")
    if len(found) > 1:
        raise ValueError(f"hex {name!r}: board {match['board']!r} appears {len(found)} times in the layout")
    i = found[0]
    x0, y0, width, height = origins[i]
    c = column_index(match["letters"])
    n = int(match["number"])
    for hc, hn, cx, cy in board_hexes(width, height):
        if (hc, hn) == (c, n):
            if layout[i][3]:
                cx = width - cx
                cy = height - cy
            return (x0 + cx, y0 + cy)
    columns, rows = board_grid(width, height)
    raise ValueError(
        f"hex {name!r} is not on board {match['board']!r} ({columns} columns A-{column_letters(columns - 1)}, "
        f"hexes 1-{rows} in A, C, ... and 0-{rows} in B, D, ...)")


# --- saved games ------------------------------------------------------------------

def save_commands(path) -> list[str]:
    """Decode a VASL save (``.vsav``) into its list of commands.

    Parameters
    ----------
    path : str or Path
        The saved game.

    Returns
    -------
    list of str
        The ESC-separated commands, each without the trailing backslashes
        that escaped the ESC after it.

    Raises
    ------
    ValueError
        When the file has no ``savedGame`` member, or the member is not
        ``!VCSK`` + key + hex pairs.
    """
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as archive:
            if SAVE_MEMBER not in archive.namelist():
                raise ValueError(f"{path}: no member {SAVE_MEMBER!r} in the zip archive "
                                 f"(members {archive.namelist()})")
            raw = archive.read(SAVE_MEMBER).decode("ascii", errors="replace").strip()
    except zipfile.BadZipFile as error:
        raise ValueError(f"{path}: not a zip archive ({error})") from None
    if not raw.startswith(SAVE_HEADER):
        raise ValueError(f"{path}: {SAVE_MEMBER} starts {raw[:7]!r}, expected {SAVE_HEADER!r} and a 2-digit hex key")
    key_text = raw[len(SAVE_HEADER):len(SAVE_HEADER) + 2]
    body = raw[len(SAVE_HEADER) + 2:]
    if not re.fullmatch(r"[0-9A-Fa-f]{2}", key_text):
        raise ValueError(f"{path}: key {key_text!r} after {SAVE_HEADER!r} is not two hex digits")
    if len(body) % 2 or not re.fullmatch(r"[0-9A-Fa-f]*", body):
        raise ValueError(f"{path}: {SAVE_MEMBER} body is not pairs of hex digits ({len(body)} characters)")
    key = int(key_text, 16)
    data = bytes(int(body[i:i + 2], 16) ^ key for i in range(0, len(body), 2))
    text = data.decode("utf-8")
    return [command.rstrip("\\") for command in text.split(COMMAND_SEPARATOR)]


def parse_board_layout(command: str) -> list[tuple[int, int, str, bool]]:
    """The layout held by a ``bd`` command.

    Parameters
    ----------
    command : str
        ``"bd\\t0\\t0\\t02\\tVER\\t6.4\\tbd\\t0\\t1\\t04\\tVER\\t6.1\\t"`` and so on.

    Returns
    -------
    list of (column, row, board_number, rotated)
        In the command's order; ``board_number`` as VASL names it (``"02"``),
        without the leading ``r`` of a rotated board.

    Raises
    ------
    ValueError
        When the command is not a ``bd`` command, a board's column or row is
        not a number, or a board is cropped or magnified (this module knows
        only whole boards at their own size).

    Examples
    --------
    >>> parse_board_layout("bd\\t0\\t0\\t02\\tVER\\t6.4\\tbd\\t1\\t0\\tr04\\tVER\\t6.1\\t")
    [(0, 0, '02', False), (1, 0, '04', True)]
    >>> parse_board_layout("bd\\t")
    []
    """
    if not command.startswith("bd\t"):
        raise ValueError(f"not a board layout command (expected 'bd<TAB>...'): {command[:40]!r}")
    layout = []
    for chunk in command[len("bd\t"):].split("bd\t"):
        fields = [f for f in re.split(r"[\t\n]", chunk) if f]
        if not fields:
            continue
        if len(fields) < 3 or not fields[0].isdigit() or not fields[1].isdigit():
            raise ValueError(f"board record {chunk!r}: expected column, row and board name")
        column, row, name = int(fields[0]), int(fields[1]), fields[2]
        rotated = name.startswith("r")
        if rotated:
            name = name[1:]
        if len(fields) >= 7 and all(re.fullmatch(r"-?\d+", f) for f in fields[3:7]):
            raise ValueError(f"board {name!r} at cell ({column}, {row}) is cropped to {fields[3:7]}; "
                             f"only whole boards are supported")
        if "ZOOM" in fields:
            zoom = fields[fields.index("ZOOM") + 1:][:1]
            raise ValueError(f"board {name!r} at cell ({column}, {row}) is magnified (ZOOM {zoom}); "
                             f"only boards at their own size are supported")
        layout.append((column, row, name, rotated))
    return layout


def _split_unescaped(text: str, delimiter: str) -> list[str]:
    """Split on ``delimiter`` where no backslash precedes it; drop that escaping backslash."""
    fields = []
    current = ""
    for ch in text:
        if ch == delimiter:
            if current.endswith("\\"):
                current = current[:-1] + ch
            else:
                fields.append(current)
                current = ""
        else:
            current += ch
    fields.append(current)
    return [f[1:-1] if len(f) >= 2 and f[0] == "'" and f[-1] == "'" else f for f in fields]


def _innermost(text: str) -> str:
    """The last token of a tab-nested trait list (tabs escaped by any number of backslashes)."""
    return re.split(r"\\*\t", text)[-1]


def piece_name(type_text: str) -> str:
    """The name in a piece's type (its ``piece;...;...;image;name`` trait), else the whole type.

    Examples
    --------
    >>> piece_name("mark;Location\\\\\\tpiece;K;D;ge/geradio;Radio")
    'Radio'
    >>> piece_name("weird")
    'weird'
    """
    last = _innermost(type_text)
    parts = last.split(";")
    if parts[0] == "piece" and len(parts) >= 5:
        return ";".join(parts[4:])
    return type_text


def parse_add_piece(command: str) -> tuple[str, str, str, int, int] | None:
    """A piece with a map position from an add command, else None.

    Parameters
    ----------
    command : str
        ``+/id/type/state``.

    Returns
    -------
    (piece_id, name_or_type_text, map_name, x, y) or None
        None for a stack record, a piece on no map (``null``), or a command
        whose state holds no ``map;x;y``.

    Examples
    --------
    >>> parse_add_piece("+/17/piece;K;D;img;Radio/taka\\tMain Map;163;1260;2475")
    ('17', 'Radio', 'Main Map', 163, 1260)
    >>> parse_add_piece("+/18/stack/Main Map;594;267") is None
    True
    """
    if not command.startswith("+/"):
        return None
    fields = _split_unescaped(command, "/")
    if len(fields) < 4:
        return None
    piece_id, type_text = fields[1], fields[2]
    state = "/".join(fields[3:])
    if type_text == "stack":
        return None
    parts = _innermost(state).split(";")
    if len(parts) < 3 or parts[0] == "null":
        return None
    if not re.fullmatch(r"-?\d+", parts[1]) or not re.fullmatch(r"-?\d+", parts[2]):
        return None
    return (piece_id, piece_name(type_text), parts[0], int(parts[1]), int(parts[2]))


def read_save(path):
    """Board layout and positioned pieces of a VASL saved game.

    Parameters
    ----------
    path : str or Path
        A ``.vsav`` file.

    Returns
    -------
    layout : list of (column, row, board_number, rotated)
        From the last ``bd`` command (a save repeats it; the last one is the
        one VASSAL applies last); empty when there is none.
    pieces : list of (piece_id, name_or_type_text, map_name, x, y)
        Every add command with a map position, in file order (stacks and
        pieces on no map left out).

    Raises
    ------
    ValueError
        From :func:`save_commands` and :func:`parse_board_layout`.
    """
    layout = []
    pieces = []
    for command in save_commands(path):
        if command.startswith("bd\t"):
            layout = parse_board_layout(command)
        elif command.startswith("+/"):
            piece = parse_add_piece(command)
            if piece is not None:
                pieces.append(piece)
    return layout, pieces
