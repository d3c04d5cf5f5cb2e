"""Coverage of a chosen set of hexes: which Locations see most of them, and through how much hindrance.

:func:`coverage` answers an analyst's "which hill covers this road best":
every Location of the map (the ground level of every hex, every upper
building level and bridge deck) against the target hexes (at ground level),
ranked by how many targets it sees, then by how many it sees without
hindrance, then by the least mean hindrance DRM.  The targets are hexes
(names, indices, arrays) or the name of a terrain type or hexside feature of
the map's ruleset (``"road"``, ``"woods"``, ``"wall"``): the hexes holding
it (:func:`feature_hexes`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernel._dtypes import HEX_INDEX
from kernel._limits import MAX_PAIRS


def feature_hexes(board, name: str) -> np.ndarray:
    """The hexes holding a terrain type (``"woods"``) or having a hexside feature (``"road"``, ``"wall"``)
    on one of their hexsides, as sorted hex indices.

    Raises
    ------
    ValueError
        If ``name`` is neither a terrain type nor a hexside feature of the map's ruleset.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> roads = feature_hexes(board, "road")
    >>> len(roads) > 40, board.index("71T0") in roads
    (True, True)
    """
    rs = board.ruleset
    if name in rs.terrain_names:
        bit = np.uint32(1 << rs.terrain_names.index(name))
        return np.flatnonzero((board.terrain & bit) != 0).astype(HEX_INDEX)
    if name in rs.hexside_names:
        bit = np.uint16(1 << rs.hexside_names.index(name))
        return np.flatnonzero(((board.hexside & bit) != 0).any(axis=1)).astype(HEX_INDEX)
    raise ValueError(f"{name!r} is not a terrain type or hexside feature of ruleset {rs.name!r}: expected one of "
                     f"{', '.join(sorted(set(rs.terrain_names) | set(rs.hexside_names)))}")


def target_hexes(board, targets) -> np.ndarray:
    """Target hexes as sorted unique indices: a feature name (:func:`feature_hexes`), one hex, or a sequence
    of hexes (names, indices, an array; a Location name gives its hex)."""
    if isinstance(targets, str):
        rs = board.ruleset
        if targets in rs.terrain_names or targets in rs.hexside_names:
            return feature_hexes(board, targets)
        targets = [targets]
    if isinstance(targets, (int, np.integer)) and not isinstance(targets, bool):
        targets = [targets]
    if isinstance(targets, np.ndarray) and targets.dtype.kind in "iu":
        hexes = board.indices(targets)
    else:
        if isinstance(targets, (str, bytes)) or not hasattr(targets, "__iter__"):
            raise TypeError(f"targets must be hexes or a feature name, not {type(targets).__name__}")
        hexes = np.array([board.location(t)[0] if isinstance(t, str) and board.names_a_location(t)
                          else board.index(t) for t in targets], dtype=HEX_INDEX)
    if hexes.size == 0:
        raise ValueError("targets: no hexes given: expected at least one hex")
    return np.unique(hexes).astype(HEX_INDEX)


@dataclass
class Coverage:
    """What every Location sees of the target hexes (:func:`coverage`).

    Attributes
    ----------
    targets : int32 array (M,)
        The target hexes (at ground level), sorted.
    hexes, levels : arrays (L,)
        Every Location of the map: its hex and level (ground level of every hex first, in hex order, then
        the upper Locations).
    visible : bool array (L, M)
        Whether the Location sees the target.
    hindrance : int32 array (L, M)
        The hindrance DRM of each visible pair, -1 where blocked.
    seen, clear : int arrays (L,)
        How many targets each Location sees, and how many of those without hindrance.
    mean_hindrance : float array (L,)
        The mean DRM over the targets seen (NaN where none is seen).

    See Also
    --------
    kernel.coverage : computes it.
    kernel.values_picture : draws its counts per hex.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("71")
    >>> cover = kernel.coverage(board, ["71I4", "71I6"])
    >>> type(cover).__name__
    'Coverage'
    """

    targets: np.ndarray
    hexes: np.ndarray
    levels: np.ndarray
    visible: np.ndarray
    hindrance: np.ndarray
    seen: np.ndarray
    clear: np.ndarray
    mean_hindrance: np.ndarray

    def __repr__(self) -> str:
        most = int(self.seen.max(initial=0))
        return (f"<Coverage of {len(self.targets)} target hex{'' if len(self.targets) == 1 else 'es'} from {len(self.hexes)} Locations: the best sees "
                f"{most}>")

    def ranking(self) -> np.ndarray:
        """Location rows, best first: most targets seen, then most seen clear, then least mean hindrance,
        then hex order."""
        mean = np.where(np.isnan(self.mean_hindrance), np.inf, self.mean_hindrance)
        return np.lexsort((self.levels, self.hexes, mean, -self.clear, -self.seen))

    def best(self, board, top: int = 10) -> list[dict]:
        """The ``top`` best Locations as plain data: name, levels, counts, mean hindrance (None: nothing seen)."""
        out = []
        for row in self.ranking()[:top]:
            h, level = int(self.hexes[row]), int(self.levels[row])
            mean = float(self.mean_hindrance[row])
            out.append({"location": board.location_name(h, level), "ground_level": int(board.ground_level[h]),
                        "level": level, "targets_seen": int(self.seen[row]), "seen_clear": int(self.clear[row]),
                        "mean_hindrance": None if np.isnan(mean) else round(mean, 3)})
        return out

    def seen_from_ground(self, n_hexes: int) -> np.ndarray:
        """Targets seen from the ground level of every hex, shape (N,) (the first N rows)."""
        return self.seen[:n_hexes]


def coverage(board, targets, *, counters=None, model: str | None = None, unit: str | None = None) -> Coverage:
    """Every Location of the map against a set of target hexes: how many it sees, and with what hindrance.

    Parameters
    ----------
    board : Board
    targets : str, hex or sequence of hexes
        The target hexes (at ground level): names, indices or an array, or the name of a terrain type or
        hexside feature of the map's ruleset (``"road"``: every hex a road runs through).
    counters : Counters or GameState, optional
    model : {"hex", "depiction", "vasl"}, optional
        Default (None): :func:`~kernel.default_model` (the depiction model on
        an ASL map with VASL art, else the hex model).
        The LOS model, as in :func:`kernel.los_pairs`.
    unit : str, optional
        The firing unit class (as in :func:`kernel.los_pairs`; cover is not ranked).

    Returns
    -------
    Coverage
        :meth:`Coverage.best` lists the best posts.

    Raises
    ------
    ValueError
        If ``targets`` is an unknown feature name or empty.

    See Also
    --------
    kernel.Coverage : the result and its ``best()`` posts.
    kernel.field_of_fire : what chosen sources see.
    kernel.los_pairs : the pairs' LOS in detail.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> roads = kernel.coverage(board, "road")
    >>> best = roads.best(board, top=1)[0]
    >>> best["targets_seen"] == int(roads.seen.max()), len(roads.targets) == len(feature_hexes(board, "road"))
    (True, True)
    >>> int(kernel.coverage(board, ["71I4", "71I6"]).seen[board.index("71I5")])
    2
    """
    from kernel.line_of_sight.bulk import los_pairs

    goal = target_hexes(board, targets)
    n = len(board)
    upper = [(int(h), level) for h in np.flatnonzero(board.top_level > 0) for level in range(1, int(board.top_level[h]) + 1)]
    hexes = np.concatenate([np.arange(n), np.array([h for h, _ in upper], dtype=np.int64)]).astype(HEX_INDEX)
    levels = np.concatenate([np.zeros(n, np.int64), np.array([v for _, v in upper], dtype=np.int64)])
    if len(hexes) * len(goal) > MAX_PAIRS:   # before any pair is allocated
        raise ValueError(f"coverage: {len(hexes):,} Locations x {len(goal):,} targets = {len(hexes) * len(goal):,} "
                         f"LOS pairs: expected at most {MAX_PAIRS:,} (about 44 bytes a pair with the hex model, 77 "
                         f"with the depiction model): give at most {MAX_PAIRS // len(hexes):,} targets on this map")
    pairs = los_pairs(board, hexes, goal, levels=levels, product=True, counters=counters, model=model, unit=unit)
    visible = np.asarray(pairs.visible, bool)
    hindrance = np.where(visible, np.asarray(pairs.hindrance), -1).astype(np.int32)
    seen = visible.sum(axis=1)
    clear = (visible & (hindrance == 0)).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(seen > 0, np.where(visible, hindrance, 0).sum(axis=1) / np.maximum(seen, 1), np.nan)
    return Coverage(goal, hexes, levels, visible, hindrance, seen, clear, mean)
