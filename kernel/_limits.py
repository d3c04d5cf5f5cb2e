"""The documented limits on what hexkernel reads: map sizes, levels, pixels, archives, counter values.

Every reader checks its input against these bounds when the input is read
(a board file's line, a VASL archive's member, a counters file's value) and
refuses what lies outside them with the actual and the allowed value; inside
them memory and time stay bounded and the kernels' integer arithmetic cannot
wrap.  The figures are in the README ("Limits and guarantees").

Why these values
----------------
* Levels: the LOS kernels work in ``int16`` half levels (``LEVEL``), adding a
  hex's ground level, its building levels, obstacle and SMOKE heights and the
  viewer's Location level.  With ground levels in ``MIN_LEVEL..MAX_LEVEL`` and
  at most ``MAX_BUILDING_LEVELS`` levels above ground, every such sum stays
  below 2 × (100 + 20 + 20) + 100 = 380 half levels, far from 32,767.
* Map size: the trace templates and the state graph grow with the map's
  extent and hex count; ``MAX_MAP_HEXES`` is about 1.5 × the largest map
  measured (64 boards, 20,688 hexes, 237 MB of templates), and no board may
  be longer than ``MAX_BOARD_ROWS`` rows or wider than ``MAX_BOARD_COLUMNS``.
* Extent: the trace templates hold one template per displacement between
  two hexes of the lattice, so their size follows the map's extent (columns
  by rows it spans), not its hex count: two boards placed far apart make a
  map of few hexes and gigabytes of templates.  :func:`trace_entries_bound`
  estimates the entries from the extent (within -10 % .. +35 % of the
  builder's own capacity bound) and a map above :data:`MAX_TRACE_ENTRIES`
  is refused when it is compiled; the 64-board map needs 99 million.
* VASL archives: a member is read only when its size as stored in the
  archive and the size it inflates to are both within the bounds below, so a
  small file can never make the reader allocate gigabytes.

Examples
--------
>>> from kernel._limits import MAX_LEVEL, check_range
>>> check_range(3, -20, MAX_LEVEL, "level", "71.board:12")
3
>>> check_range(40000, -20, MAX_LEVEL, "level", "71.board:12")
Traceback (most recent call last):
...
ValueError: 71.board:12: level is 40000: expected -20..100
"""

from __future__ import annotations

#: Ground levels of a hex (and ``default_level`` of a board), inclusive.
MIN_LEVEL = -20
MAX_LEVEL = 100
#: Building levels above ground (``levels=N``), and Location levels asked for.
MAX_BUILDING_LEVELS = 20
#: Columns (A..ZZ) and rows of one board.
MAX_BOARD_COLUMNS = 52
MAX_BOARD_ROWS = 200
#: Boards in one scenario, hexes in one compiled map.
MAX_BOARDS = 256
MAX_MAP_HEXES = 30_000
#: Estimated trace template entries of one map (:func:`trace_entries_bound`): about 2 × the 64-board map's.
MAX_TRACE_ENTRIES = 200_000_000
#: Hexes per VASL board (columns x rows of its LOSData header) and pixels per side.
MAX_VASL_HEXES = 10_000
MAX_VASL_PIXELS = 20_000
#: LOS pairs of one call (``los_pairs``, ``product=True`` counts sources x targets; ``coverage``: every Location
#: x the targets): a call costs about 44 bytes and 1 us a pair while it runs with the hex model, 77 bytes and
#: 5 us with the depiction model (one thread), so 25 million pairs stay under 2 GB.
MAX_PAIRS = 25_000_000
#: Characters of a grid coordinate or Location name (``999oZZ999caZZ999/999oZZ999``, the longest form, has 30).
MAX_COORDINATE_CHARS = 64
#: Bytes of one file read whole (board, overlay, scenario, counters, XML, LOSData).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Members of a VASL archive, and bytes one member may inflate to.
MAX_ARCHIVE_MEMBERS = 10_000
MAX_MEMBER_BYTES = 256 * 1024 * 1024
#: VASL saved games (``.vsav``, :mod:`kernel.importers.vasl.save_archive`): members of the archive; bytes
#: its ``savedGame`` member may hold (declared and inflated: two characters a byte of commands, so 8 MiB
#: of commands, six times the largest real save); commands, and nesting of command groups, in it; pieces,
#: and traits and characters of one piece (twice and fourteen times the largest real piece's 48 and 6,900:
#: reading a piece costs its traits times its length); digits of a number; how far from the map's corner
#: (in pixels, either way) a piece may lie (256 boards in a row are 461,200 pixels wide).
MAX_SAVE_MEMBERS = 100
MAX_SAVE_BYTES = 16 * 1024 * 1024
MAX_SAVE_COMMANDS = 50_000
MAX_SAVE_NESTING = 8
MAX_SAVE_PIECES = 10_000
MAX_PIECE_TRAITS = 100
MAX_PIECE_CHARS = 100_000
MAX_SAVE_DIGITS = 9
MAX_SAVE_PIXEL = 1_000_000
#: Counters files: nesting depth of the JSON, digits of an integer, hexes named.
MAX_JSON_DEPTH = 8
MAX_JSON_DIGITS = 6
#: Nesting depth of a ruleset's TOML (its switches nest tables three deep).
MAX_RULESET_DEPTH = 16
MAX_COUNTERS = MAX_MAP_HEXES
#: SMOKE counters, from the API, a GameState and a counters file alike: the largest hindrance DRM
#: (ASL SMOKE is +2 or +3; at or above the hindrance cap of +6 it already blocks, so larger values
#: would only risk overflowing the tables), the largest height in levels above the hex's ground
#: (ASL: 2), and the default height (ASL A24: two levels above its base).
MAX_SMOKE_DRM = 100
MAX_SMOKE_HEIGHT = 100
DEFAULT_SMOKE_HEIGHT = 2
#: Vehicles and wrecks in one hex (each adds its +1 hindrance: a count per hex, kept in int16 tables).
MAX_VEHICLES_PER_HEX = 100


def check_range(value: int, low: int, high: int, what: str, where: str) -> int:
    """``value`` if ``low <= value <= high``; otherwise a ValueError naming ``where``, ``what`` and both.

    Parameters
    ----------
    value : int
        The value read.
    low, high : int
        The allowed range, inclusive.
    what : str
        What the value is (``"level of I9"``).
    where : str
        Where it was read (``"file:line"``).

    Returns
    -------
    int
        ``value``, unchanged.

    Raises
    ------
    ValueError
        ``value`` lies outside ``low..high``.
    """
    if not low <= value <= high:
        raise ValueError(f"{where}: {what} is {value}: expected {low}..{high}")
    return value


def trace_entries_bound(max_dc: int, max_dy: int) -> int:
    """Estimated capacity of the trace templates of a map spanning ``max_dc`` lattice columns and ``max_dy``
    half-hex rows (the largest displacements between two of its hexes).

    Half of the ``(2 max_dc + 1)(2 max_dy + 1)`` displacements have a
    template, of on average at most about ``max_dy + 4 max_dc + 24`` entries.

    >>> trace_entries_bound(256, 160)  # the 64-board (8 x 8) ASL map
    99461888
    """
    return (2 * max_dc + 1) * (2 * max_dy + 1) // 2 * (max_dy + 4 * max_dc + 24)


def nesting_depth(text: str, limit: int) -> int:
    """The deepest nesting of ``[`` / ``{`` outside quoted strings, counted up to ``limit + 1``.

    A cheap scan before parsing TOML or JSON: both parsers recurse once per
    level, and a file nested 100,000 deep ends in a RecursionError after a
    long time (or never, for TOML).  TOML's table headers (``[job]``,
    ``[[maps]]``) count at most two.

    >>> nesting_depth('a = [[1], "[[["]', 10)
    2
    """
    depth = deepest = 0
    quote = None
    escaped = False
    for char in text:
        if quote is not None:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote or char == "\n":
                quote = None
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif char in "]}":
            depth = max(0, depth - 1)
    return deepest


def read_limited(path, what: str = "file") -> bytes:
    """The bytes of a file of at most :data:`MAX_FILE_BYTES`, or a ValueError naming it and its size.

    Parameters
    ----------
    path : str or pathlib.Path
        The file.
    what : str
        What the file is, for the message.

    Returns
    -------
    bytes
        The file's content.

    Raises
    ------
    ValueError
        The file is larger than :data:`MAX_FILE_BYTES`, or not a regular
        file (a FIFO, whose open would wait for a writer, a device, a folder).
    OSError
        The file cannot be read.
    """
    import os
    import stat

    # opened without blocking: a FIFO with no writer would hold open() until one came
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with open(descriptor, "rb", closefd=True) as handle:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                    else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
            raise ValueError(f"{path}: {what} is {kind}: expected a regular file")
        # read(n) allocates n bytes first: no more than the file holds (and one more, to see it grew)
        size = os.fstat(descriptor).st_size
        data = handle.read(min(MAX_FILE_BYTES, size) + 1)
        if size < len(data) <= MAX_FILE_BYTES:
            data += handle.read(MAX_FILE_BYTES + 1 - len(data))   # it grew since: the rest, up to the limit
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{path}: {what} is larger than {MAX_FILE_BYTES} bytes: expected at most that")
    return data


def read_member(archive, info, where: str, limit: int, kind: str,
                error: type[ValueError] = ValueError) -> bytes:
    """One member (``info``) of a :class:`zipfile.ZipFile`, refusing (with ``error``, its message starting with
    ``where``) an encrypted one or one larger than ``limit`` bytes, as declared and as actually inflated (a
    directory may understate a member); ``kind`` names the archive for the message ("board archive")."""
    if info.flag_bits & 0x1:
        raise error(f"{where}: encrypted: expected an unencrypted {kind}")
    if info.file_size > limit:
        raise error(f"{where}: {info.file_size} bytes: expected at most {limit}")
    try:
        with archive.open(info) as handle:
            data = handle.read(limit + 1)
    except NotImplementedError as problem:
        raise error(f"{where}: {problem}: expected a stored or deflated member") from None
    except RuntimeError as problem:  # zipfile: a member that needs a password
        raise error(f"{where}: {problem}: expected an unencrypted {kind}") from None
    if len(data) > limit:
        raise error(f"{where}: inflates to more than {limit} bytes: expected at most that")
    return data
