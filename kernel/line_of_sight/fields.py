"""Game-loop LOS queries: per-source fields of fire in one call, and threat maps.

:func:`fields_of_fire` gives one row per source (a K x N result for K
units), where :func:`~kernel.line_of_sight.bulk.field_of_fire` merges its
sources into one best value per hex; :func:`threat_map` counts, per hex, the
enemy Locations that see it and keeps the best hindrance among them.

Examples
--------
>>> import kernel
>>> board = kernel.load("default")
>>> rows = kernel.fields_of_fire(board, ["71I4", "72M6"])
>>> rows.shape == (2, len(board))
True
>>> threat = kernel.threat_map(board, ["71I4", "72M6"])
>>> int(threat.count[board.index("71I4")]) >= 1
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernel._dtypes import HEX_INDEX
from kernel.line_of_sight import _field_kernels as K
from kernel.line_of_sight.counters import counter_tables
from kernel.line_of_sight.inputs import kernel_board_tables, model_code, template_tuple
from kernel.line_of_sight.results import BLOCKED
from kernel.maps.counters import holding_state


def source_locations(board, sources, levels, what: str = "sources"):
    """``(hexes, levels)`` of one or several source hexes or Locations, checked (int32, int64)."""
    if isinstance(sources, (str, int, np.integer)):
        sources = [sources]
    items = list(sources) if not isinstance(sources, np.ndarray) else sources
    if len(items) == 0:
        raise ValueError(f"{what}: none given: expected at least one hex or Location")
    if not isinstance(items, np.ndarray) and any(isinstance(s, str) and board.names_a_location(s) for s in items):
        pairs = [board.location(s) if isinstance(s, str) else (board.index(s), 0) for s in items]
        hexes = np.array([p[0] for p in pairs], HEX_INDEX)
        named = np.array([p[1] for p in pairs], np.int64)
        if not (np.asarray(levels) == 0).all():
            raise ValueError(f"{what}: give levels either in the Location names or as levels=, not both")
        return hexes, named
    hexes = board.indices(items).astype(HEX_INDEX)
    if type(levels) is int and levels == 0:  # the common case: ground level, always valid
        return hexes, np.zeros(hexes.shape, np.int64)
    source_levels = np.broadcast_to(np.asarray(levels, dtype=np.int64), hexes.shape).copy()
    bad = (source_levels < 0) | (source_levels > board.top_level[hexes])
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{what} level {int(source_levels[i])} in {board.names[hexes[i]]}: "
                         f"expected 0..{int(board.top_level[hexes[i]])}")
    return hexes, source_levels


def every_hex(board) -> np.ndarray:
    """``arange(N)`` as hex indices (cached on the board; the kernels only read it)."""
    cached = board.__dict__.get("_every_hex")
    if cached is None:
        cached = np.arange(len(board), dtype=HEX_INDEX)
        board.__dict__["_every_hex"] = cached
    return cached


def target_levels_of(board, target_level) -> np.ndarray:
    if isinstance(target_level, bool) or not isinstance(target_level, (int, np.integer)) or target_level < 0:
        raise ValueError(f"target_level is {target_level!r}: expected an integer level, 0 or more")
    if target_level == 0:
        cached = board.__dict__.get("_ground_levels")
        if cached is None:
            cached = np.zeros(len(board), np.int64)
            board.__dict__["_ground_levels"] = cached
        return cached
    return np.minimum(target_level, board.top_level).astype(np.int64)


@holding_state
def fields_of_fire(board, sources, *, levels=0, target_level: int = 0, counters=None) -> np.ndarray:
    """The field of fire of each source separately, in one parallel call.

    Parameters
    ----------
    board : Board
    sources : hex, Location or sequence of them
        The K firing hexes or Locations (``"71P5h1"``).
    levels : int or sequence of int
        Location level of each source (when the names do not give it).
    target_level : int
        Level of the targets (0: ground; a hex with fewer levels uses its top).
    counters : Counters or GameState, optional

    Returns
    -------
    numpy.ndarray of int8, shape (K, N)
        Row ``k`` is what source ``k`` sees: the hindrance DRM of its LOS to
        each hex (saturated at 127), or :data:`BLOCKED` (-1), as a row of
        :func:`~kernel.line_of_sight.bulk.los_matrix` gives it.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> rows = fields_of_fire(board, ["71I4", "71I4h0"])
    >>> bool((rows[0] == rows[1]).all()), int(rows[0, board.index("71I4")])
    (True, 0)
    """
    hexes, source_levels = source_locations(board, sources, levels)
    targets = every_hex(board)
    out = np.empty((len(hexes), len(board)), np.int8)
    K.fields_kernel(model_code(board), hexes, source_levels, targets, target_levels_of(board, target_level),
                    template_tuple(board), kernel_board_tables(board), counter_tables(board, counters), out)
    return out


@dataclass
class ThreatMap:
    """Per hex: how many enemy Locations see it, and the best (least) hindrance among them.

    Attributes
    ----------
    count : int32 array (N,)
        Number of the enemy Locations with a LOS to the hex.
    hindrance : int8 array (N,)
        Least hindrance DRM over those LOS, :data:`BLOCKED` (-1) where none sees it.
    seen : bool array (N,)
        ``count > 0``.
    """

    count: np.ndarray
    hindrance: np.ndarray

    @property
    def seen(self) -> np.ndarray:
        return self.count > 0


@holding_state
def threat_map(board, enemies, *, levels=0, target_level: int = 0, counters=None) -> ThreatMap:
    """How exposed each hex is to a set of enemy Locations (see :class:`ThreatMap`).

    Parameters as for :func:`fields_of_fire` (``enemies`` are its sources).

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> threat = threat_map(board, ["71I4", "72M6"])
    >>> bool(((threat.count > 0) == (threat.hindrance != kernel.BLOCKED)).all())
    True
    """
    rows = fields_of_fire(board, enemies, levels=levels, target_level=target_level, counters=counters)
    visible = rows != BLOCKED
    count = visible.sum(axis=0).astype(np.int32)
    best = np.where(visible, rows, np.int8(127)).min(axis=0)
    return ThreatMap(count, np.where(count > 0, best, BLOCKED).astype(np.int8))
