"""The Location a SMOKE counter is in (A24): its hex and the level of that Location (for
:mod:`kernel.maps.counters` and :mod:`kernel.maps.counter_files`, whose errors these raise).

A hex holds one SMOKE counter, in one of its Locations: its ground (level 0), an upper building level
(``15G5h1``), a bridge's deck or its rooftop (``15G5roof``).  The kernels read the level as the SMOKE's
base: the SMOKE lies from that Location's height up to its height plus the SMOKE's height
(docs/los-semantics.md, "SMOKE").
"""

from __future__ import annotations

import numpy as np

from kernel._dtypes import LEVEL


def smoke_location(board, name, what: str) -> tuple[int, int]:
    """``(hex index, level)`` of the Location ``name`` names (a hex name or index: its ground; a Location
    name such as ``"15G5h1"`` or ``"15G5roof"``: that level); errors start with ``what``.

    Raises
    ------
    ValueError
        A Location the hex does not have (the message names the hex and its levels).
    KeyError, TypeError
        A hex not on the map, a value that names no hex.
    """
    try:
        if board.names_a_location(name):
            hex_index, level = board.location(name)
            return int(hex_index), int(level)
        return board.index(name), 0
    except KeyError as error:
        raise KeyError(f"{what}: {error.args[0]}") from None
    except (ValueError, IndexError, TypeError) as error:
        raise type(error)(f"{what}: {error}") from None


def smoke_locations(board, smoke: dict, what: str) -> dict:
    """``{hex index: (level, DRM)}`` of a mapping of Location (or hex) name to DRM, one SMOKE per hex."""
    out: dict = {}
    for name, drm in smoke.items():
        h, level = smoke_location(board, name, f"{what}[{name!r}]")
        if h in out:
            raise ValueError(f"{what}: {name!r} is a second SMOKE in {board.names[h]} (also at "
                             f"{board.location_name(h, out[h][0])}): expected one SMOKE per hex")
        out[h] = (level, drm)
    return out


def checked_smoke_base(board, base, smoke) -> np.ndarray:
    """A per-hex array of SMOKE base levels (None: every SMOKE at its hex's ground), checked: integers,
    one per hex, each SMOKE's a level its hex has a Location at (the error names the hex and its levels)."""
    n = len(board)
    if base is None:
        return np.zeros(n, LEVEL)
    array = np.asarray(base)
    if array.shape != (n,):
        raise ValueError(f"counters.smoke_base has shape {array.shape}: expected ({n},), one level per hex")
    if array.dtype.kind not in "iu":
        raise ValueError(f"counters.smoke_base has dtype {array.dtype}: expected integers (levels)")
    held = np.asarray(smoke) > 0 if smoke is not None else np.zeros(n, np.bool_)
    wrong = np.flatnonzero(held & ((array < 0) | (array > board.top_level)))
    if wrong.size:
        h = int(wrong[0])
        raise ValueError(f"counters.smoke_base is {int(array[h])} in {board.names[h]}: expected a level of one "
                         f"of its Locations ({board.names[h]} has {board.levels_text(h)})")
    return np.ascontiguousarray(np.where(held, array, 0), dtype=LEVEL)


def location_heights2(board, hexes, levels) -> np.ndarray:
    """The Locations' heights in half levels (int64): twice (ground level + Location level), half a level less
    for a rooftop, as its Location sees (the LOS kernels' ``location_height2``; ``docs/los-semantics.md``).

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("71")
    >>> location_heights2(board, [board.index("71P5")] * 4, [0, 1, 2, 3]).tolist()   # 71P5roof: level 3
    [0, 2, 4, 5]
    """
    hexes = np.asarray(hexes, np.int64)
    levels = np.asarray(levels, np.int64)
    height2 = 2 * (board.ground_level[hexes].astype(np.int64) + levels)
    if board.ruleset.los_model == "asl":
        height2 -= (board.rooftop[hexes] & (levels == board.top_level[hexes]) & (levels > 0)).astype(np.int64)
    return height2


def smoke_extent2(board, smoke_base, smoke_height, hexes=None) -> tuple[np.ndarray, np.ndarray]:
    """Per hex, the half levels its SMOKE fills: from ``bottom2``, the height of the Location it is in
    (:func:`location_heights2` of ``smoke_base``), up to ``top2 = bottom2 + 2 * smoke_height`` (excluded);
    a Location is inside the SMOKE when its height is in ``bottom2 .. top2 - 1`` (int64 arrays).  With
    ``hexes``, for those hexes only, ``smoke_base`` and ``smoke_height`` being theirs.

    Examples
    --------
    >>> import numpy as np, kernel
    >>> board = kernel.load("71")
    >>> bottom2, top2 = smoke_extent2(board, np.ones(len(board), int), np.full(len(board), 2))
    >>> int(bottom2[board.index("71P5")]), int(top2[board.index("71P5")])   # SMOKE at 71P5h1: levels 1 and 2
    (2, 6)
    """
    bottom2 = location_heights2(board, np.arange(len(board)) if hexes is None else hexes, smoke_base)
    return bottom2, bottom2 + 2 * np.asarray(smoke_height, np.int64)
