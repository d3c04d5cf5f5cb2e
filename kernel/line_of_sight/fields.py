"""Fields of fire: of several sources together, of each source separately in one call, and threat maps.

:func:`fields_of_fire` gives one row per source (a K x N result for K
units), where :func:`field_of_fire` merges its
sources into one best value per hex; both return a
:class:`~kernel.line_of_sight.results.FieldOfFire`.  :func:`threat_map`
counts, per hex, the Locations that see it and keeps the best hindrance
among them; given a :class:`~kernel.maps.counters.GameState` and
``enemies_of=side`` it takes every unit of the other sides.

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

from kernel.line_of_sight._sweep.run import source_rows
from kernel.line_of_sight.depiction import ART_MODELS, best_of_sources, checked_model
from kernel.line_of_sight.inputs import cover_of, every_hex, target_level_array
from kernel.line_of_sight.results import BLOCKED, FieldOfFire, _plain
from kernel.maps.counters import GameState, known_side
from kernel.maps.state_lock import holding_state
from kernel.maps.locations import location_arrays
from kernel._dtypes import MAX_MATRIX_DRM


@holding_state
def field_of_fire(board, sources, *, levels=0, target_levels=0, counters=None,
                  unit: str | None = None, model: str | None = None) -> FieldOfFire:
    """What one or several sources see together: visibility, best hindrance and cover per hex.

    Parameters
    ----------
    board : Board
    sources : hex, Location or sequence of them
        Firing hexes or Locations (names, ``"71P5h1"``, indices).
    levels : int or sequence of int
        Location level of each source (where the names do not give it).
    target_levels : int or sequence of int
        Level of the targets: an integer is that level in every hex that has
        it and the hex's top level elsewhere (0, the default: ground level);
        an array gives one Location level per hex.
    counters : Counters or GameState, optional
    unit : str, optional
        Firing unit class, for the cover.
    model : {"hex", "depiction", "vasl"}, optional
        Default (None): :func:`~kernel.default_model` (the depiction model on
        an ASL map with VASL art, else the hex model).
        As in :func:`los_matrix`.

    Returns
    -------
    FieldOfFire
        Arrays of shape ``(N,)``: ``visible`` (bool), ``hindrance`` (least
        DRM over the sources that see the hex, :data:`BLOCKED` where none),
        ``source`` (index into ``sources`` of the best one, -1 where none)
        and ``cover`` (of each target against its best source; against the
        first source where none sees it).  :func:`~kernel.fields_of_fire`
        gives the same result with one row per source.

    See Also
    --------
    kernel.fields_of_fire : the same, one row per source.
    kernel.threat_map : how many of the sources see each hex.
    kernel.los_matrix : every pair of Locations.
    kernel.fire_picture : draw a field of fire.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> fire = field_of_fire(board, "71I4")
    >>> bool(fire.visible[board.index("71I4")]), fire.shape == (len(board),)
    (True, True)
    """
    source_hexes, source_levels = location_arrays(board, sources, levels, "sources", "levels")
    if source_hexes.size == 0:
        raise ValueError("field_of_fire: no sources given: expected at least one hex")
    targets = every_hex(board)
    target_levels = target_level_array(board, target_levels)
    visible = np.empty(len(board), np.bool_)
    hindrance = np.empty(len(board), np.int32)
    best = np.empty(len(board), np.int32)
    model = checked_model(model, board)
    if model in ART_MODELS:
        best_of_sources(board, source_hexes, source_levels, targets, target_levels, visible, hindrance, best,
                        counters, per_range=model == "vasl")
    else:
        best_of_rows(board, source_hexes, source_levels, target_levels, counters, visible, hindrance, best)
    return FieldOfFire(hindrance, best, source_hexes, source_levels, target_levels,
                       best_source_cover(board, unit), visible, model=model)


@holding_state
def fields_of_fire(board, sources, *, levels=0, target_levels=0, counters=None, unit: str | None = None,
                   model: str | None = None) -> FieldOfFire:
    """The field of fire of each source separately, in one parallel call.

    Parameters
    ----------
    board : Board
    sources : hex, Location or sequence of them
        The K firing hexes or Locations (``"71P5h1"``).
    levels : int or sequence of int
        Location level of each source (where the names do not give it).
    target_levels : int or sequence of int
        Level of the targets, as in :func:`~kernel.field_of_fire`.
    counters : Counters or GameState, optional
    unit : str, optional
        Firing unit class, for the cover.
    model : {"hex", "depiction", "vasl"}, optional
        The LOS model, as in :func:`~kernel.field_of_fire` (default
        :func:`~kernel.line_of_sight.depiction.default_model`).

    Returns
    -------
    FieldOfFire
        Arrays of shape ``(K, N)``: row ``k`` is what source ``k`` sees
        (``hindrance``: the DRM of its LOS to each hex, :data:`BLOCKED` (-1)
        where it is blocked, as a row of
        :func:`~kernel.line_of_sight.bulk.los_matrix` gives it; ``source``:
        ``k`` where it sees the hex, -1 elsewhere).

    See Also
    --------
    kernel.field_of_fire : the sources merged into one row.
    kernel.los_matrix : the same rows among a set of Locations.
    kernel.FieldOfFire : the result's attributes.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> rows = fields_of_fire(board, ["71I4", "71I4h0"])
    >>> bool((rows.hindrance[0] == rows.hindrance[1]).all()), int(rows.hindrance[0, board.index("71I4")])
    (True, 0)
    """
    hexes, source_levels = location_arrays(board, sources, levels, "sources", "levels")
    if hexes.size == 0:
        raise ValueError("fields_of_fire: no sources given: expected at least one hex or Location")
    target_levels = target_level_array(board, target_levels)
    model = checked_model(model, board)
    if model in ART_MODELS:
        rows = art_rows(board, hexes, source_levels, target_levels, counters, per_range=model == "vasl")
    else:
        rows = source_rows(board, hexes, source_levels, target_levels, counters)
    np.minimum(rows, MAX_MATRIX_DRM, out=rows)  # the matrix's saturation
    return FieldOfFire(rows, None, hexes, source_levels, target_levels, best_source_cover(board, unit), model=model)


def art_rows(board, hexes, source_levels, target_levels, counters, per_range: bool) -> np.ndarray:
    """:func:`fields_of_fire`'s rows in a depiction model: per source, the hindrance of its LOS to every hex
    (int32), BLOCKED where it is blocked."""
    from kernel.line_of_sight.depiction import depiction_pairs

    targets = every_hex(board)
    rows = np.empty((len(hexes), len(board)), np.int32)
    for k in range(len(hexes)):
        blocked, total, _, _, _ = depiction_pairs(board, np.full(len(board), hexes[k], targets.dtype),
                                                  np.full(len(board), source_levels[k], np.int64),
                                                  targets, target_levels, counters, per_range)
        rows[k] = np.where(blocked, BLOCKED, total)
    return rows


@dataclass
class ThreatMap:
    """Per hex: how many of the given Locations see it, and the best (least) hindrance among them.

    Attributes
    ----------
    count : int32 array (N,)
        Number of the Locations with a LOS to the hex.
    hindrance : int32 array (N,)
        Least hindrance DRM over those LOS, :data:`BLOCKED` (-1) where none sees it.
    sources : int32 array (K,)
        The Locations' hexes (for ``enemies_of``: the other sides' units).
    seen : bool array (N,)
        ``count > 0``.

    See Also
    --------
    kernel.threat_map : the function that returns one.
    kernel.concealed_movement : moving through the hexes it leaves unseen.
    kernel.FieldOfFire : what each source sees, with cover.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> threat = kernel.threat_map(board, ["71I4", "72M6"])
    >>> fire = kernel.fields_of_fire(board, ["71I4", "72M6"])
    >>> bool((threat.count == fire.visible.sum(axis=0)).all()), bool((threat.seen == (threat.count > 0)).all())
    (True, True)
    >>> int(threat.count[board.index("71I4")]), threat.sources.tolist() == fire.sources.tolist()
    (1, True)
    """

    count: np.ndarray
    hindrance: np.ndarray
    sources: np.ndarray

    @property
    def seen(self) -> np.ndarray:
        return self.count > 0

    def __repr__(self) -> str:
        return (f"<ThreatMap of {len(self.sources)} source(s): {int(np.count_nonzero(self.count))} hexes seen, "
                f"by at most {int(self.count.max(initial=0))}>")

    def to_dict(self) -> dict:
        """Every array as lists (JSON-ready)."""
        return {"count": _plain(self.count), "hindrance": _plain(self.hindrance), "sources": _plain(self.sources),
                "seen": _plain(self.seen)}


def enemy_hexes(counters, enemies_of, what: str) -> np.ndarray:
    """The hexes of every unit of a :class:`GameState` whose side is not ``enemies_of`` (int32)."""
    if not isinstance(counters, GameState):
        raise TypeError(f"{what}: enemies_of={enemies_of!r} needs counters= a kernel.GameState with units "
                        f"placed by side, not {type(counters).__name__}")
    known_side(counters, enemies_of, f"{what}: enemies_of")
    return counters.units_not_of(enemies_of)


@holding_state
def threat_map(board, sources=None, *, levels=0, target_levels=0, counters=None, enemies_of=None,
               model: str | None = None) -> ThreatMap:
    """How exposed each hex is to a set of Locations (see :class:`ThreatMap`).

    Parameters
    ----------
    board : Board
    sources : hex, Location or sequence of them, optional
        The threatening Locations (as :func:`fields_of_fire` takes them).
    levels, target_levels, counters, model
        As for :func:`fields_of_fire`.
    enemies_of : str, optional
        Instead of ``sources``: a side of the units of ``counters`` (a
        :class:`~kernel.GameState`); the sources are then every unit of the
        other sides, at ground level.

    See Also
    --------
    kernel.ThreatMap : the result's attributes.
    kernel.fields_of_fire : what each source sees, row by row.
    kernel.concealed_movement : takes a threat map as ``threat``.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> threat = threat_map(board, ["71I4", "72M6"])
    >>> bool(((threat.count > 0) == (threat.hindrance != kernel.BLOCKED)).all())
    True
    >>> state = kernel.GameState(board)
    >>> state.place_unit("71I4", side="axis"); state.place_unit("72M6", side="allies")
    >>> threat_map(board, counters=state, enemies_of="allies").sources.tolist() == [board.index("71I4")]
    True
    """
    if enemies_of is not None:
        if sources is not None:
            raise ValueError("threat_map: sources and enemies_of both given: expected one of them")
        sources = enemy_hexes(counters, enemies_of, "threat_map")
        if sources.size == 0:
            n = len(board)
            return ThreatMap(np.zeros(n, np.int32), np.full(n, BLOCKED, np.int32), sources)
    elif sources is None:
        raise ValueError("threat_map: no sources: expected sources or enemies_of=side")
    rows = fields_of_fire(board, sources, levels=levels, target_levels=target_levels, counters=counters,
                          model=model)
    hindrance = rows.hindrance  # int32, 0..127 or BLOCKED (-1)
    count = np.count_nonzero(hindrance != BLOCKED, axis=0).astype(np.int32)
    # the least over the rows as unsigned: BLOCKED is the greatest, and stays BLOCKED only where no row sees
    # the hex (one pass, where masking and two selections took twice as long)
    best = hindrance.view(np.uint32).min(axis=0).view(np.int32)
    return ThreatMap(count, best, rows.sources)


#: Sources per block of :func:`best_of_rows` (its scratch: 4 bytes per source and hex of a block).
SOURCE_BLOCK = 64


def best_of_rows(board, hexes, source_levels, target_levels, counters, visible, hindrance, best):
    """Per hex, the visible source with the least hindrance (ties: the first listed) into ``visible``,
    ``hindrance`` (BLOCKED where none sees it) and ``best`` (-1 there), sources taken in blocks."""
    if len(hexes) == 1:
        hindrance[:] = source_rows(board, hexes, source_levels, target_levels, counters)[0]
        np.greater_equal(hindrance, 0, out=visible)
        best[:] = np.where(visible, 0, -1)
        return
    unseen = np.iinfo(np.int32).max
    least = np.full(len(board), unseen, np.int32)
    best[:] = -1
    columns = np.arange(len(board))
    for lo in range(0, len(hexes), SOURCE_BLOCK):
        rows = source_rows(board, hexes[lo:lo + SOURCE_BLOCK], source_levels[lo:lo + SOURCE_BLOCK], target_levels,
                           counters)
        rows[rows == BLOCKED] = unseen
        row = rows.argmin(axis=0)
        value = rows[row, columns]
        better = value < least
        least[better] = value[better]
        best[better] = row[better] + lo
    visible[:] = best >= 0
    hindrance[:] = np.where(visible, least, BLOCKED)


def best_source_cover(board, unit):
    """How a :class:`FieldOfFire` computes its ``cover`` on first use: each target's cover against its
    ``source`` (the first source, or the row's, where none sees it), for the firing unit class."""
    unit_index = board.ruleset.unit_index(unit) if unit is not None else 0

    def cover(fire: FieldOfFire) -> np.ndarray:
        targets = every_hex(board)
        if fire.hindrance.ndim == 1:
            chosen = np.where(fire.source >= 0, fire.source, 0)
            return cover_of(board, fire.sources[chosen], fire.levels[chosen], targets, fire.target_levels, unit_index)
        rows = [cover_of(board, int(h), int(level), targets, fire.target_levels, unit_index)
                for h, level in zip(fire.sources.tolist(), fire.levels.tolist())]
        return np.array(rows, np.int16).reshape(fire.hindrance.shape)

    return cover
