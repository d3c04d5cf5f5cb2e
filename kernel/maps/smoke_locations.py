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
