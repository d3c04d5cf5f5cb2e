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
#: Hexes per VASL board (columns x rows of its LOSData header) and pixels per side.
MAX_VASL_HEXES = 10_000
MAX_VASL_PIXELS = 20_000
#: Bytes of one file read whole (board, overlay, scenario, counters, XML, LOSData).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Members of a VASL archive, and bytes one member may inflate to.
MAX_ARCHIVE_MEMBERS = 10_000
MAX_MEMBER_BYTES = 256 * 1024 * 1024
#: Counters files: nesting depth of the JSON, digits of an integer, hexes named.
MAX_JSON_DEPTH = 8
MAX_JSON_DIGITS = 6
MAX_COUNTERS = MAX_MAP_HEXES
#: SMOKE counters, from the API, a GameState and a counters file alike: the largest hindrance DRM
#: (ASL SMOKE is +2 or +3; at or above the hindrance cap of +6 it already blocks, so larger values
#: would only risk overflowing the tables), the largest height in levels above the hex's ground
#: (ASL: 2), and the default height (ASL A24: two levels above its base).
MAX_SMOKE_DRM = 100
MAX_SMOKE_HEIGHT = 100
DEFAULT_SMOKE_HEIGHT = 2


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
        The file is larger than :data:`MAX_FILE_BYTES`.
    OSError
        The file cannot be read.
    """
    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{path}: {what} is larger than {MAX_FILE_BYTES} bytes: expected at most that")
    return data
