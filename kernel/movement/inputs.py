"""Checking and converting movement inputs once: allowances, start hexes or Locations, masks, board edges."""

from __future__ import annotations

import numpy as np

from kernel._dtypes import HEX_INDEX
from kernel.maps.locations import hex_array, location_arrays


#: Largest movement allowance accepted (MF/MP).  Dial's queue holds one bucket
#: per half MF of the largest edge weight, and an all-MF move weighs the
#: whole allowance, so the bound keeps that array small.
MAX_ALLOWANCE = 1000


def check_allowance(allowance) -> None:
    if allowance is None:
        return
    if isinstance(allowance, bool) or not isinstance(allowance, (int, float, np.integer, np.floating)) or not allowance >= 0:
        raise ValueError(f"allowance is {allowance!r}: expected a non-negative number of MF/MP")
    if allowance > MAX_ALLOWANCE:
        raise ValueError(f"allowance is {allowance!r}: expected at most {MAX_ALLOWANCE} MF/MP")
    if 2 * float(allowance) != int(2 * float(allowance)):
        raise ValueError(f"allowance is {allowance!r}: expected a multiple of 1/2 MF/MP")


def checked_mask(value, n, name):
    if value is None:
        return np.zeros(n, np.bool_)
    array = np.asarray(value)
    if array.shape != (n,):
        raise ValueError(f"{name} has shape {array.shape}: expected ({n},), one value per hex")
    return array.astype(bool)


#: No entry from off the map (an empty array the field kernel only reads).
NO_ENTRIES = np.zeros(0, np.int64)


def start_locations(board, sources, levels=0):
    """(hexes, levels) int64 arrays of start hexes or Locations (``"2I9h1"``: a deck or upper level);
    ``None`` is none (a field entered from off the map only)."""
    if type(levels) is int and levels == 0 and (type(sources) is int or isinstance(sources, np.integer) or (
            type(sources) is str and not board.names_a_location(sources))):  # one hex: the common case, kept short
        return np.array([board.index(sources)], np.int64), np.zeros(1, np.int64)
    if sources is None:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    hexes, levels = location_arrays(board, sources, levels, "sources", "levels")
    return hexes.astype(np.int64), levels


def hex_list(board, hexes, what):
    """int64 indices of one hex or a sequence of hexes (names or indices); ``None`` is none."""
    if hexes is None:
        return np.zeros(0, np.int64)
    return hex_array(board, hexes, what).astype(np.int64)


def board_edge_hexes(board, side: str) -> np.ndarray:
    """Indices of the hexes along one map edge: ``"N"``, ``"S"``, ``"W"`` or ``"E"``.

    A hex is on an edge when a hexside facing that way leads off the map.

    See Also
    --------
    kernel.movement_field : ``sources`` may be such an edge, for units entering the map.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> [board.name(h) for h in kernel.board_edge_hexes(board, "W")[:3]]
    ['71A1', '71A2', '71A3']
    """
    directions = {"N": (0,), "S": (3,), "W": (4, 5), "E": (1, 2)}
    if side not in directions:
        raise ValueError(f"side is {side!r}: expected one of N, S, W, E")
    off = np.zeros(len(board), np.bool_)
    for d in directions[side]:
        off |= board.neighbours[:, d] < 0
    return np.flatnonzero(off).astype(HEX_INDEX)
