"""The command stream of a VASL saved game: VASSAL's escaped sequences, its commands and the board layout record.

A save's ``savedGame`` member, once de-obfuscated
(:mod:`kernel.importers.vasl.save_archive`), is VASSAL's text encoding of
one command: its own text, then its sub-commands, separated by the ESC
character (0x1B).  Every level of nesting is VASSAL's *sequence* encoding
(``SequenceEncoder``): a delimiter inside an element is written with a
backslash before it, a backslash is written as it is, and an element that
ends with a backslash (or starts and ends with a quote) is wrapped in single
quotes.  The same encoding, with other delimiters, nests a game piece's traits
(tab), the fields of an add-piece command (``/``) and a trait's own fields
(``;``).

:func:`split_sequence` decodes one level; :func:`commands` walks the command
tree (at most :data:`~kernel._limits.MAX_SAVE_NESTING` groups deep and
:data:`~kernel._limits.MAX_SAVE_COMMANDS` commands); :func:`board_records`
reads the board picker's ``bd`` command: per board its column and row, its
name (a leading ``r``: rotated 180 degrees), a crop rectangle, ``VER`` and the
board's version, ``OVR`` overlays, ``SSR`` terrain changes, ``ZOOM`` and the
full-hex crop flag ``FH`` (written ``FH`` and ``true``).

Examples
--------
>>> split_sequence("a;b\\\\;c;'d\\\\'", ";")
['a', 'b;c', 'd\\\\']
>>> [r.name for r in board_records("bd\\t0\\t0\\t02\\tVER\\t6.4\\tbd\\t0\\t1\\tr04\\tVER\\t6.1\\t", "save")]
['02', 'r04']
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernel._limits import MAX_BOARDS, MAX_SAVE_COMMANDS, MAX_SAVE_DIGITS, MAX_SAVE_NESTING

#: VASSAL's separator of commands.
COMMAND_SEPARATOR = "\x1b"


class SavedGameError(ValueError):
    """A VASL saved game that cannot be read: one line naming the file, the part of it and what was expected.

    See Also
    --------
    kernel.read_saved_game : raises it.
    kernel.VaslSaveWarning : a part of a readable save that is not applied.
    kernel.load : reads a ``.vsav`` too, and raises it the same way.

    Examples
    --------
    >>> import kernel, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "notes.vsav"
    ...     _ = path.write_text("not a saved game")
    ...     try:
    ...         kernel.read_saved_game(path)
    ...     except kernel.SavedGameError as error:
    ...         print(isinstance(error, ValueError), "notes.vsav: not a zip archive" in str(error))
    ...         print(str(error).split(": expected ")[1])
    True True
    a VASL saved game (a zip archive holding savedGame)
    """


def split_sequence(text: str, delimiter: str, limit: int | None = None, where: str = "",
                   what: str = "elements") -> list[str]:
    """The elements of one level of VASSAL's sequence encoding (``SequenceEncoder.Decoder``).

    A delimiter with a backslash before it belongs to the element (the
    backslash is dropped); an element wrapped in single quotes loses them.
    A delimiter at the very end gives a last, empty element, as VASSAL's own
    decoder does.

    Raises
    ------
    SavedGameError
        More than ``limit`` elements (the message names ``where`` and calls them ``what``).
    """
    escaped = "\\" + delimiter
    has_escapes = escaped in text
    # Each backslash-delimiter pair is one escaped delimiter (the pairs cannot overlap): the rest split.
    splits = text.count(delimiter) - (text.count(escaped) if has_escapes else 0)
    if limit is not None and splits >= limit:
        raise SavedGameError(f"{where}: more than {limit} {what}: expected at most {limit}")
    if not has_escapes:
        return [_unquoted(piece) for piece in text.split(delimiter)]
    elements: list[str] = []
    begin = 0
    for _ in range(splits):
        end = text.find(delimiter, begin)
        while end > 0 and text[end - 1] == "\\":
            end = text.find(delimiter, end + 1)
        elements.append(_unquoted(text[begin:end].replace(escaped, delimiter)))
        begin = end + 1
    elements.append(_unquoted(text[begin:].replace(escaped, delimiter)))
    return elements


def _unquoted(value: str) -> str:
    if len(value) > 1 and value[0] == "'" and value[-1] == "'":
        return value[1:-1]
    return value


def commands(text: str, where: str) -> list[str]:
    """Every command of a save's stream, in order, its groups flattened.

    A command group is a command whose text holds further commands (VASSAL
    writes a group as its own text, then each sub-command, escaped one level
    more).

    Raises
    ------
    SavedGameError
        More than :data:`MAX_SAVE_COMMANDS` commands, or groups nested deeper
        than :data:`MAX_SAVE_NESTING`.
    """
    return _flatten(text, 0, where, 0)


def _flatten(group: str, depth: int, where: str, before: int) -> list[str]:
    """The commands of one group (recursively), in order; ``before`` commands were found already."""
    if depth > MAX_SAVE_NESTING:
        raise SavedGameError(f"{where}: command groups nested more than {MAX_SAVE_NESTING} deep: expected a "
                             "VASL save (its groups nest two or three deep)")
    out: list[str] = []
    for element in split_sequence(group, COMMAND_SEPARATOR, MAX_SAVE_COMMANDS, where, "commands"):
        if COMMAND_SEPARATOR in element:
            out.extend(_flatten(element, depth + 1, where, before + len(out)))
        else:
            out.append(element)
        if before + len(out) > MAX_SAVE_COMMANDS:
            raise SavedGameError(f"{where}: more than {MAX_SAVE_COMMANDS} commands: expected at most "
                                 f"{MAX_SAVE_COMMANDS}")
    return out


# ---------------------------------------------------------------------------------------------------------------
# the board layout: the board picker's bd command
# ---------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class OverlayRecord:
    """One ``OVR`` entry of a board: the VASL overlay's name and the two board hexes that place it."""

    name: str
    first: str
    second: str


@dataclass
class BoardRecord:
    """One board of the ``bd`` command, as the board picker wrote it."""

    column: int
    row: int
    name: str                                   # as written: "02", "r04"
    crop: tuple[int, int, int, int] | None = None   # x, y, width, height (pixels of the whole board; -1: to the end)
    version: str | None = None
    overlays: list[OverlayRecord] = field(default_factory=list)
    ssr: tuple[str, ...] = ()
    zoom: float = 1.0
    full_hex_crop: bool = False
    index: int = 0                              # its place in the bd command (0-based)

    @property
    def rotated(self) -> bool:
        """Whether the board lies rotated 180 degrees (a leading ``r``, except boards ``r`` and ``rdx``)."""
        return self.name[:1] == "r" and self.name.lower() not in ("r", "rdx")

    @property
    def board_name(self) -> str:
        """The board's own name, without the rotation's ``r`` ("r04" -> "04")."""
        return self.name[1:] if self.rotated else self.name


_KEYWORDS = ("VER", "OVR", "SSR", "ZOOM", "FH")


def board_records(command: str, where: str) -> list[BoardRecord]:
    """The boards of a ``bd`` command, in its order.

    Raises
    ------
    SavedGameError
        A board entry with a column or row that is not a whole number
        0..255, a name that is not a plain board name, a crop rectangle that
        is not four whole numbers, two boards at one place, an empty place
        left of a board in its row or above it in its column, a malformed
        ``VER``/``OVR``/``ZOOM`` entry, or more than :data:`MAX_BOARDS` boards;
        the message names the entry.
    """
    if not command.startswith("bd\t"):
        raise SavedGameError(f"{where}: {command[:20]!r} is not a bd record: expected 'bd' and a tab")
    body = command[3:]
    entries = body.split("bd\t") if body else []
    if len(entries) > MAX_BOARDS:
        raise SavedGameError(f"{where}: the bd record lists {len(entries)} boards: expected at most {MAX_BOARDS}")
    records: list[BoardRecord] = []
    seen: dict[tuple[int, int], str] = {}
    for index, entry in enumerate(entries):
        tokens = [t for t in entry.replace("\n", "\t").split("\t") if t != ""]
        label = f"{where}: bd record, board {index + 1}"
        if len(tokens) < 3:
            raise SavedGameError(f"{label} {entry[:40]!r}: expected a column, a row and a board name")
        column = _whole(tokens[0], f"{label}: column", 0, MAX_BOARDS - 1)
        row = _whole(tokens[1], f"{label}: row", 0, MAX_BOARDS - 1)
        name = tokens[2]
        if not (0 < len(name) <= 40 and name.isascii() and all(c.isalnum() or c in "-_" for c in name)):
            raise SavedGameError(f"{label}: board name {name[:40]!r}: expected a VASL board name like '02' or 'r04' "
                                 "(letters and digits)")
        record = BoardRecord(column, row, name, index=index)
        label = f"{label} ({name})"
        rest = tokens[3:]
        if rest and rest[0] not in _KEYWORDS and rest[0].lstrip("-").isdigit():
            numbers = rest[:4]
            if len(numbers) < 4 or any(n in _KEYWORDS for n in numbers):
                raise SavedGameError(f"{label}: crop {' '.join(numbers)!r}: expected four whole numbers x y width "
                                     "height")
            x, y, width, height = (_whole(n, f"{label}: crop", -1, 10 ** MAX_SAVE_DIGITS - 1) for n in numbers)
            if x < 0 or y < 0 or width == 0 or height == 0:
                raise SavedGameError(f"{label}: crop {x} {y} {width} {height}: expected x, y >= 0 and a width and "
                                     "height above 0 (or -1: to the board's edge)")
            record.crop = (x, y, width, height)
            rest = rest[4:]
        _keyword_entries(record, rest, label)
        if (column, row) in seen:
            raise SavedGameError(f"{label}: column {column}, row {row} also holds board {seen[(column, row)]}: "
                                 "expected one board per place")
        seen[(column, row)] = name
        records.append(record)
    _check_no_gaps(records, where)
    return records


def _check_no_gaps(records: list[BoardRecord], where: str) -> None:
    """Refuse a layout with an empty place left of a board in its row or above it in its column: VASL's map
    butts each board against the one before it (an empty place adds no width), so the map would differ."""
    places = {(r.column, r.row) for r in records}
    for record in records:
        empty = next(((c, record.row) for c in range(record.column) if (c, record.row) not in places), None) or next(
            ((record.column, r) for r in range(record.row) if (record.column, r) not in places), None)
        if empty is not None:
            raise SavedGameError(f"{where}: bd record, board {record.index + 1} ({record.name}) at column "
                                 f"{record.column}, row {record.row}: no board at column {empty[0]}, row {empty[1]}: "
                                 "expected a board at every place left of a board in its row and above it in its "
                                 "column (VASL butts the boards together; a NUL board fills a place)")


def _keyword_entries(record: BoardRecord, tokens: list[str], label: str) -> None:
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token == "VER":
            if i + 1 >= len(tokens) or tokens[i + 1] in _KEYWORDS:
                raise SavedGameError(f"{label}: VER without a version: expected 'VER' and the board's version")
            record.version = tokens[i + 1][:40]
            i += 2
        elif token == "OVR":
            parts = tokens[i + 1:i + 4]
            if len(parts) < 3 or any(p in _KEYWORDS for p in parts):
                raise SavedGameError(f"{label}: OVR {' '.join(parts)!r}: expected an overlay name and two hexes")
            record.overlays.append(OverlayRecord(parts[0][:40], parts[1][:10], parts[2][:10]))
            i += 4
            if i < len(tokens) and tokens[i].lower() in ("true", "false"):   # VASL's 'preserve levels' flag
                i += 1
        elif token == "SSR":
            j = i + 1
            while j < len(tokens) and tokens[j] not in ("ZOOM", "FH", "OVR"):
                j += 1
            record.ssr = tuple(t[:80] for t in tokens[i + 1:j])
            i = j
        elif token == "ZOOM":
            try:
                zoom = float(tokens[i + 1])
            except (IndexError, ValueError):
                raise SavedGameError(f"{label}: ZOOM without a number: expected 'ZOOM' and a magnification") from None
            if not 0.1 <= zoom <= 10:
                raise SavedGameError(f"{label}: ZOOM {zoom}: expected a magnification 0.1..10")
            record.zoom = zoom
            i += 2
        elif token == "FH":   # VASL writes FH and true: the crop was moved to the nearest full hex rows
            flag = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
            record.full_hex_crop = flag != "false"
            i += 2 if flag in ("true", "false") else 1
        else:
            raise SavedGameError(f"{label}: {token[:40]!r}: expected a crop rectangle (four whole numbers), VER, OVR, "
                                 "SSR, ZOOM or FH")


def _whole(text: str, what: str, low: int, high: int) -> int:
    """A whole number of at most :data:`MAX_SAVE_DIGITS` digits in ``low..high``, or a SavedGameError."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_SAVE_DIGITS:
        raise SavedGameError(f"{what} is {text[:20]!r}: expected a whole number {low}..{high}")
    value = int(text)
    if not low <= value <= high:
        raise SavedGameError(f"{what} is {value}: expected {low}..{high}")
    return value
