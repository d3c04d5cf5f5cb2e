"""VASL's centre Location of a hex: the Location its engine answers for when it is given a hex.

VASL's reference results (``../shared/vasl/engine``, and the ground Locations of
``engine-levels``) trace LOS between the hexes' centre Locations.  That is the ground Location of
a hex, except where a bridge spans a depression (a gully or stream): there VASL's centre Location
is on the bridge, hexkernel's deck Location ``h1``, one level above the depression's ground.
Compared with the ground Location beneath the bridge instead, those hexes agree with VASL on
72-96 % of their pairs in every model; compared with the deck, on 99.1-100 % (the 13 such hexes
of ``../shared/vasl/engine``).  A bridge hex without a depression (its ground at the level of the
hexes around it, or a valley hex that is not a gully) keeps its ground Location, as VASL does.

The measurements of :mod:`bench.vasl_engine`, :mod:`bench.vasl_levels`,
:mod:`bench.vasl_counters` and :mod:`bench.vasl_multi` ask hexkernel for these Locations.
"""

from __future__ import annotations

import numpy as np


def _depression_mask(board) -> int:
    """The terrain bits of the ruleset's depression terrain (gully, stream) as one mask."""
    bits = np.flatnonzero(np.asarray(board.ruleset.terrain_depression, dtype=bool))
    return int(sum(1 << int(bit) for bit in bits))


def centre_level(board, index: int) -> int:
    """The level of VASL's centre Location of hex ``index``: 1 on a bridge over a depression, else 0.

    Examples
    --------
    >>> import kernel
    >>> from bench.vasl_centre import centre_level
    >>> centre_level(kernel.load("default"), 0)
    0
    """
    on_depression = int(board.terrain[index]) & _depression_mask(board) != 0
    return int(bool(board.bridge_deck[index]) and on_depression)


def centre_levels(board) -> np.ndarray:
    """The level (int64, per hex index) of VASL's centre Location of each hex.

    1 (the deck, ``h1``) where the hex holds a bridge deck over depression terrain, 0 (the
    ground Location) elsewhere.

    Examples
    --------
    >>> import kernel
    >>> from bench.vasl_centre import centre_levels
    >>> board = kernel.load("default")
    >>> levels = centre_levels(board)
    >>> levels.shape == (len(board),), int(levels.max())
    (True, 0)
    """
    in_depression = (np.asarray(board.terrain, dtype=np.int64) & _depression_mask(board)) != 0
    on_bridge = np.asarray(board.bridge_deck, dtype=bool) & in_depression
    return on_bridge.astype(np.int64)
