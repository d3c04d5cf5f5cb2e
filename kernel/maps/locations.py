"""The one validation path for hexes, Locations and levels, shared by every LOS and movement entry point.

``los``, ``los_pairs``, ``los_matrix`` (and its block and bit-packed forms),
``field_of_fire`` and the movement functions all turn what the caller gave
into clean arrays here, so they accept the same things and refuse the same
things with the same messages:

* a hex is a name (``"71I9"``) or an index (a Python or numpy integer, not a
  bool);
* a sequence of hexes is a list, a tuple or a one-dimensional array of names
  or integer indices (a tuple of two scalars is two hexes, never a hex and a
  level);
* a level is an integer (a Python or numpy integer, or an integer-typed
  array): fractional, NaN or float-typed levels are refused, never truncated;
  it must be a Location level of its hex (``0..board.top_level[hex]``).

Examples
--------
>>> import kernel
>>> from kernel.maps.locations import hex_array, level_array
>>> board = kernel.load("71")
>>> hex_array(board, ["71I9", 5], "hexes").tolist()
[92, 5]
>>> level_array(board, 0, hex_array(board, ["71I9"], "hexes"), "levels").tolist()
[0]
>>> level_array(board, 0.5, hex_array(board, ["71I9"], "hexes"), "levels")
Traceback (most recent call last):
...
TypeError: levels is 0.5: expected an integer Location level
"""

from __future__ import annotations

import numbers

import numpy as np

from kernel._dtypes import HEX_INDEX


def is_scalar_hex(value) -> bool:
    """Whether ``value`` names one hex (a str or an integer that is not a bool)."""
    return isinstance(value, str) or (isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)))


def hex_array(board, hexes, what: str) -> np.ndarray:
    """int32 indices of a hex or a sequence of hexes (names or indices), checked against ``board``.

    Parameters
    ----------
    board : kernel.maps.board.Board
    hexes : str, int, sequence or 1-D array
        One hex, or hexes by name or index.
    what : str
        The argument's name, for messages.

    Raises
    ------
    TypeError
        Not a hex, nor a sequence of hexes (a bool, a float, a 2-D array...).
    ValueError, KeyError, IndexError
        A malformed name, a hex not on the map, an index out of range.
    """
    if is_scalar_hex(hexes):
        return np.array([board.index(hexes)], HEX_INDEX)
    if isinstance(hexes, np.ndarray):
        if hexes.ndim != 1:
            raise ValueError(f"{what} has shape {hexes.shape}: expected a one-dimensional array of hexes")
        if hexes.dtype.kind not in "iuUO":
            raise TypeError(f"{what} has dtype {hexes.dtype}: expected integer hex indices or hex names")
        if hexes.dtype.kind in "iu":
            return board.indices(hexes)
        hexes = hexes.tolist()
    if not isinstance(hexes, (list, tuple, range)):
        raise TypeError(f"{what} is a {type(hexes).__name__}: expected a hex or a list of hexes (names or indices)")
    for item in hexes:
        if not is_scalar_hex(item):
            raise TypeError(f"{what} holds {item!r}: expected hex names like '71I9' or integer indices")
    return np.array([board.index(item) for item in hexes], HEX_INDEX)


def level_array(board, levels, hexes: np.ndarray, what: str, *, indexed: bool = True) -> np.ndarray:
    """int64 Location levels, one per hex of ``hexes`` (a scalar is broadcast), each checked against its hex.

    Raises
    ------
    TypeError
        A level that is not an integer (a float, NaN, a bool, a string).
    ValueError
        A shape that does not match ``hexes``, or a level that is not one of
        its hex's Location levels ``0..board.top_level[hex]``.
    """
    if type(levels) is int and levels == 0:  # the common case, ground level: valid in every hex
        return np.zeros(hexes.shape, np.int64)
    if isinstance(levels, np.ndarray) or isinstance(levels, (list, tuple)):
        array = np.asarray(levels)
        if array.dtype.kind not in "iu" and not (array.size == 0 and array.dtype.kind == "f"):
            if array.dtype.kind == "O" and all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
                                               for v in array.ravel()):
                huge = [int(v) for v in array.ravel() if not -2**62 < int(v) < 2**62]
                if huge:
                    raise ValueError(f"{what} holds {huge[0]}: expected Location levels 0..{int(board.top_level.max())}")
                array = array.astype(np.int64)
            if array.dtype.kind not in "iu":
                raise TypeError(f"{what} has dtype {array.dtype}: expected integer Location levels")
        if array.ndim != 1 or array.shape != hexes.shape:
            raise ValueError(f"{what} has shape {array.shape}: expected {hexes.shape}, one level per hex")
        if array.dtype == np.uint64 and array.size and array.max() > 2**62:
            raise ValueError(f"{what} holds {int(array.max())}: expected Location levels")
        array = array.astype(np.int64)
    else:
        if isinstance(levels, (bool, np.bool_)) or not isinstance(levels, (int, np.integer)):
            raise TypeError(f"{what} is {levels!r}: expected an integer Location level")
        if not -2**62 < int(levels) < 2**62:
            raise ValueError(f"{what} is {int(levels)}: expected a Location level 0..{int(board.top_level.max())}")
        array = np.full(hexes.shape, int(levels), np.int64)
    bad = (array < 0) | (array > board.top_level[hexes])
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        index = f"[{i}]" if indexed else ""
        raise ValueError(f"{what}{index} is {int(array[i])} in {board.names[hexes[i]]}: expected "
                         f"0..{int(board.top_level[hexes[i]])}, a Location level of that hex")
    return np.ascontiguousarray(array)


def location(board, hex_or_location, level, what: str) -> tuple[int, int]:
    """``(hex index, level)`` of a hex with a level, or of a Location name (``"71P5h1"``, ``"Bridge/2I9"``).

    A Location name carries its own level; ``level`` must then be 0 or that level.
    """
    if isinstance(level, (bool, np.bool_)) or not isinstance(level, (int, np.integer)):
        raise TypeError(f"{what} is {level!r}: expected an integer Location level")
    if board.names_a_location(hex_or_location):
        index, parsed = board.location(hex_or_location)
        checked = int(level_array(board, level, np.array([index], HEX_INDEX), what, indexed=False)[0]) \
            if level != 0 else 0
        if checked not in (0, parsed):
            raise ValueError(f"{what}={checked} contradicts the Location {hex_or_location!r}")
        return index, parsed
    if not is_scalar_hex(hex_or_location):
        raise TypeError(f"hex is {hex_or_location!r}: expected a hex or Location name like '71I9' or an index")
    index = board.index(hex_or_location)
    return index, int(level_array(board, level, np.array([index], HEX_INDEX), what, indexed=False)[0])


def locations(board, given, what: str = "locations") -> tuple[np.ndarray, np.ndarray]:
    """``(hexes int32, levels int64)`` of a matrix query's Locations.

    ``None`` is every hex at ground level; a sequence of hexes or Location
    names is those Locations; a tuple of exactly two sequences ``(hexes,
    levels)`` gives the levels separately.
    """
    if given is None:
        return np.arange(len(board), dtype=HEX_INDEX), np.zeros(len(board), np.int64)
    if isinstance(given, tuple) and len(given) == 2 and not is_scalar_hex(given[0]) and not is_scalar_hex(given[1]):
        hexes = hex_array(board, given[0], f"{what}[0]")
        return hexes, level_array(board, given[1], hexes, f"{what}: level")
    if isinstance(given, (list, tuple)) and any(board.names_a_location(item) for item in given):
        pairs = [location(board, item, 0, what) for item in given]
        return (np.array([p[0] for p in pairs], HEX_INDEX), np.array([p[1] for p in pairs], np.int64))
    hexes = hex_array(board, given, what)
    return hexes, np.zeros(len(hexes), np.int64)
