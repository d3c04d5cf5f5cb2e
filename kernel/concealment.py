"""Concealed movement: where a unit can go unseen by a set of enemy Locations, and how.

This joins the two kernels' results (LOS and movement do not import each
other, so it sits above both): a :func:`~kernel.line_of_sight.fields.threat_map`
of the enemies gives the exposed hexes, and a movement search that may not
enter them, or pays a penalty for each one entered, gives the cheapest
concealed path.

Examples
--------
>>> import kernel
>>> board = kernel.load("default")
>>> hidden = kernel.concealed_movement(board, "71I4", ["72M6", "71Q5"], unit="infantry", allowance=4)
>>> bool((hidden.hidden <= hidden.reachable).all()) and not bool((hidden.hidden & hidden.exposed).any())
True
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from kernel.line_of_sight.fields import ThreatMap, enemy_hexes, threat_map
from kernel.maps.state_lock import holding_state
from kernel.movement.fields import MovementField, penalised_field
from kernel.movement.inputs import MAX_ALLOWANCE, check_allowance


@dataclass
class ConcealedMovement:
    """The result of :func:`concealed_movement`.

    Attributes
    ----------
    threat : ThreatMap
        How many watchers see each hex, and the best hindrance.
    exposed : bool array (N,)
        Hexes some watcher sees (``threat.count > 0``).
    reachable : bool array (N,)
        Hexes the unit reaches within its allowance by any path.
    hidden : bool array (N,)
        ``reachable & ~exposed``: reachable hexes no watcher sees.
    field : MovementField
        The search that avoids the watchers' LOS: exposed hexes may not be entered
        (``exposure_penalty=None``), or each one entered costs the penalty on
        top of its MF; ``field.path_to(hex)`` is the cheapest such path and
        ``field.cost`` its cost (MF plus penalties).  Either way a path spends
        at most ``allowance`` MF, as in :func:`~kernel.movement_field`:
        ``field.cost`` is finite exactly where such a path exists.

    See Also
    --------
    kernel.concealed_movement : the function that returns one.
    kernel.ThreatMap : its ``threat``.
    kernel.MovementField : its ``field``.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> moves = kernel.concealed_movement(board, "71I4", ["72M6"], unit="infantry", allowance=4)
    >>> bool((moves.hidden == (moves.reachable & ~moves.exposed)).all())
    True
    >>> bool((moves.exposed == (moves.threat.count > 0)).all()), moves.field.allowance
    (True, 4)
    >>> bool((moves.reachable == kernel.reachable(board, "71I4", unit="infantry", allowance=4)).all())
    True
    """

    threat: ThreatMap
    exposed: np.ndarray
    reachable: np.ndarray
    hidden: np.ndarray
    field: MovementField

    def __repr__(self) -> str:
        return (f"<ConcealedMovement: {int(self.reachable.sum())} hexes reachable, {int(self.hidden.sum())} of them "
                f"hidden; {int(self.exposed.sum())} hexes exposed to {len(self.threat.sources)} watcher(s)>")

    def to_dict(self) -> dict:
        """The threat map, the masks as lists and the search's costs (JSON-ready)."""
        return {"threat": self.threat.to_dict(), "exposed": self.exposed.tolist(), "reachable": self.reachable.tolist(),
                "hidden": self.hidden.tolist(), "field": self.field.to_dict()}


@holding_state
def concealed_movement(board, sources, watchers=None, *, levels=0, watcher_levels=0, enemies_of=None,
                       unit: str | None = None, allowance: float | None = None, target_levels=0, counters=None,
                       exposure_penalty: float | None = None, model: str | None = None,
                       threat: ThreatMap | None = None) -> ConcealedMovement:
    """Where a unit can move unseen by ``watchers``, and the cheapest path that avoids their LOS.

    Parameters
    ----------
    board : Board
    sources : hex, Location or sequence of them
        Where the unit is (as :func:`~kernel.movement_field` takes them).
    watchers : hex, Location, sequence of them or ThreatMap, optional
        The Locations whose LOS counts (names, ``"71P5h1"``, indices): the
        sources of the :func:`~kernel.threat_map`; or their threat map,
        already computed (a bot moving several units against the same
        enemies computes it once per turn; its arrays must have one entry
        per hex of ``board``).
    levels : int or sequence of int
        Location levels of ``sources``.
    watcher_levels : int or sequence of int
        Location levels of the watchers (where their names do not give them).
    enemies_of : str, optional
        Instead of ``watchers``: the moving unit's side; the watchers are
        then every unit of the other sides in ``counters`` (a
        :class:`~kernel.GameState`).
    unit : str, optional
        Unit class (default: the ruleset's first).
    allowance : float, optional
        Movement allowance (MF/MP, a multiple of 1/2); None: no limit, as in
        every movement function.
    target_levels : int or sequence of int
        Level at which the moving unit is seen, as in :func:`~kernel.field_of_fire` (0: ground).
    counters : Counters or GameState, optional
        SMOKE, vehicles and units, for both the LOS and the movement.
    exposure_penalty : float, optional
        MF added for each exposed hex entered (a multiple of 1/2, up to
        :data:`~kernel.movement.inputs.MAX_ALLOWANCE`); ``None`` (default):
        exposed hexes may not be entered at all.
    model : {"hex", "depiction", "vasl"}, optional
        The LOS model of the threat map computed from the watchers, as in
        :func:`~kernel.threat_map` (a given threat map keeps its own).
    threat : ThreatMap, optional
        Deprecated: pass the threat map as ``watchers``.

    Returns
    -------
    ConcealedMovement

    See Also
    --------
    kernel.ConcealedMovement : the result's attributes.
    kernel.threat_map : the watchers' exposure, computed once for several units.
    kernel.movement_field : movement without regard to LOS.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> avoid = concealed_movement(board, "71I4", ["72M6"], unit="infantry", allowance=4)
    >>> priced = concealed_movement(board, "71I4", ["72M6"], unit="infantry", allowance=4, exposure_penalty=2)
    >>> bool((priced.field.cost <= avoid.field.cost).all())  # a price is never worse than a ban
    True
    >>> watched = kernel.threat_map(board, ["72M6"])
    >>> again = concealed_movement(board, "71I4", watched, unit="infantry", allowance=4)
    >>> bool((again.hidden == avoid.hidden).all())
    True
    """
    if exposure_penalty is not None:
        try:
            check_allowance(exposure_penalty)
        except ValueError:
            raise ValueError(f"exposure_penalty is {exposure_penalty!r}: expected a multiple of 1/2 MF from 0 to "
                             f"{MAX_ALLOWANCE}, or None (exposed hexes may not be entered)") from None
    if threat is not None:
        warnings.warn("concealed_movement: threat= is deprecated: pass the threat map as watchers "
                      "(concealed_movement(board, sources, threat_map, ...))", DeprecationWarning, stacklevel=3)
        if watchers is not None:
            raise ValueError("concealed_movement: threat= and watchers given: expected the watchers once "
                             "(the threat map as watchers)")
        if not isinstance(threat, ThreatMap):
            raise TypeError(f"concealed_movement: threat is a {type(threat).__name__}: expected a kernel.ThreatMap "
                            "(from kernel.threat_map)")
        watchers = threat
    if isinstance(watchers, ThreatMap):
        threat = watchers
        if enemies_of is not None:
            raise ValueError("concealed_movement: a threat map as watchers and enemies_of given: expected the "
                             "watchers one way, a threat map or the side whose enemies watch")
        if threat.count.shape != (len(board),):
            raise ValueError(f"concealed_movement: threat has {threat.count.shape[0]} hexes and the board "
                             f"{len(board)}: expected the threat map of this board")
    elif enemies_of is None and watchers is None:
        raise ValueError("concealed_movement: no watchers: expected watchers or enemies_of=side "
                         "(or a threat map as watchers)")
    else:
        if enemies_of is not None:
            enemy_hexes(counters, enemies_of, "concealed_movement")  # a misspelt side is named as this call's
        threat = threat_map(board, watchers, levels=watcher_levels, target_levels=target_levels, counters=counters,
                            enemies_of=enemies_of, model=model)
    exposed = threat.seen
    penalty = np.where(exposed, -1 if exposure_penalty is None else int(2 * exposure_penalty), 0).astype(np.int64)
    field = penalised_field(board, sources, levels=levels, unit=unit, allowance=allowance, counters=counters,
                            hex_penalty=penalty)
    if exposure_penalty is None:  # the search that avoids the exposed hexes reaches fewer: the plain one
        plain = penalised_field(board, sources, levels=levels, unit=unit, allowance=allowance, counters=counters)
        reachable = np.isfinite(plain.cost)
    else:  # a price bans no hex: the priced search, within the allowance, reaches what the plain one does
        reachable = np.isfinite(field.cost)
    return ConcealedMovement(threat, exposed, reachable, reachable & ~exposed, field)
