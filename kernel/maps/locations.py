"""The one validation path for hexes, Locations and levels, shared by every LOS and movement entry point.

Every public function that takes hexes or Locations (LOS, fields of fire,
threat maps, movement, concealed movement, pictures) turns what the caller
gave into clean arrays here (:func:`location_arrays`, :func:`location`), so
they accept the same things and refuse the same things with the same
messages:

* a hex is a name (``"71I9"``) or an index (a Python or numpy integer, not a
  bool); a Location is a hex, or a name with its level (``"71P5h1"``,
  ``"Bridge/2I9"``);
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


def location(board, hex_or_location, level, what: str, hex_what: str = "hex") -> tuple[int, int]:
    """``(hex index, level)`` of a hex with a level, or of a Location name (``"71P5h1"``, ``"Bridge/2I9"``).

    A Location name carries its own level; ``level`` must then be 0 or that level.  ``what`` names
    the level argument in messages, ``hex_what`` the hex argument.
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
        raise TypeError(f"{hex_what} is {hex_or_location!r}: expected a hex or Location name like '71I9' or an index")
    index = board.index(hex_or_location)
    return index, int(level_array(board, level, np.array([index], HEX_INDEX), what, indexed=False)[0])


def location_arrays(board, given, levels=0, what: str = "sources",
                    levels_what: str = "levels") -> tuple[np.ndarray, np.ndarray]:
    """``(hexes int32, levels int64)`` of one or many hexes or Locations: what every public function
    that takes ``viewer``/``target``, ``sources``/``targets`` (and their ``levels``) calls.

    ``given`` is a hex or Location name (``"71I9"``, ``"71P5h1"``,
    ``"Bridge/2I9"``), an index, or a list, tuple or one-dimensional array of
    them; ``levels`` an integer (every one) or one integer per hex.  A
    Location name carries its level: ``levels`` must then be 0 or that level
    for it.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("71")
    >>> hexes, levels = location_arrays(board, ["71P5h1", 92, "71I9"])
    >>> hexes.tolist(), levels.tolist()
    ([162, 92, 92], [1, 0, 0])
    >>> location_arrays(board, [1.5], what="targets")
    Traceback (most recent call last):
    ...
    TypeError: targets holds 1.5: expected hex names like '71I9' or integer indices
    """
    if isinstance(given, np.ndarray):
        if given.dtype.kind in "UO" and given.ndim == 1:
            given = given.tolist()  # names, maybe of Locations: as a list
        else:  # an engine's index arrays: no Location names to look for
            hexes = hex_array(board, given, what)
            return hexes, level_array(board, levels, hexes, levels_what)
    if type(given) is list and all(type(item) is int and -2**62 < item < 2**62 for item in given):
        hexes = board.indices(np.array(given, np.int64))  # an engine's list of indices, checked at once
        return hexes, level_array(board, levels, hexes, levels_what)
    if is_scalar_hex(given):
        if type(levels) is not int and not (isinstance(levels, np.integer) and not isinstance(levels, np.bool_)):
            if isinstance(levels, (list, tuple, np.ndarray)) and np.ndim(levels) == 1 and len(levels) == 1:
                levels = levels[0]
        index, level = location(board, given, levels, levels_what, what)
        return np.array([index], HEX_INDEX), np.array([level], np.int64)
    if isinstance(given, (list, tuple)) and any(isinstance(item, str) and board.names_a_location(item)
                                                for item in given):
        count = len(given)
        if isinstance(levels, (list, tuple, np.ndarray)):
            per_item = list(np.asarray(levels).tolist()) if isinstance(levels, np.ndarray) else list(levels)
            if np.ndim(levels) != 1 or len(per_item) != count:
                raise ValueError(f"{levels_what} has shape {np.shape(levels)}: expected ({count},), one level per hex")
        else:
            per_item = [levels] * count
        pairs = []
        for i, (item, level) in enumerate(zip(given, per_item)):
            if not is_scalar_hex(item):
                raise TypeError(f"{what} holds {item!r}: expected hex names like '71I9' or integer indices")
            pairs.append(location(board, item, level, f"{levels_what}[{i}]"))
        return np.array([p[0] for p in pairs], HEX_INDEX), np.array([p[1] for p in pairs], np.int64)
    hexes = hex_array(board, given, what)
    return hexes, level_array(board, levels, hexes, levels_what)


def every_hex_or(board, given, levels=0, what: str = "sources") -> tuple[np.ndarray, np.ndarray]:
    """:func:`location_arrays`, where ``None`` is every hex of the map at ground level (a matrix's default)."""
    if given is None:
        every = np.arange(len(board), dtype=HEX_INDEX)
        return every, level_array(board, levels, every, "levels")
    return location_arrays(board, given, levels, what)
