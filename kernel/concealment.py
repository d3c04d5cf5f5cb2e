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
>>> hidden = kernel.concealed_movement(board, "71I4", ["72M6", "71Q5"], "infantry", 4)
>>> bool((hidden.hidden <= hidden.reachable).all()) and not bool((hidden.hidden & hidden.exposed).any())
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernel.line_of_sight.fields import ThreatMap, threat_map
from kernel.movement.fields import MovementField, penalised_field
from kernel.movement.inputs import MAX_ALLOWANCE, check_allowance


@dataclass
class ConcealedMovement:
    """The result of :func:`concealed_movement`.

    Attributes
    ----------
    threat : ThreatMap
        How many enemy Locations see each hex, and the best hindrance.
    exposed : bool array (N,)
        Hexes some enemy sees (``threat.count > 0``).
    reachable : bool array (N,)
        Hexes the unit reaches within its allowance by any path.
    hidden : bool array (N,)
        ``reachable & ~exposed``: reachable hexes no enemy sees.
    field : MovementField
        The search that avoids enemy LOS: exposed hexes may not be entered
        (``exposure_penalty=None``), or each one entered costs the penalty on
        top of its MF; ``field.path_to(hex)`` is the cheapest such path and
        ``field.cost`` its cost (MF plus penalties).
    """

    threat: ThreatMap
    exposed: np.ndarray
    reachable: np.ndarray
    hidden: np.ndarray
    field: MovementField


def concealed_movement(board, start, enemies, unit: str | None = None, allowance: float = 4, *, enemy_levels=0,
                       target_level: int = 0, counters=None, exposure_penalty: float | None = None
                       ) -> ConcealedMovement:
    """Where a unit can move unseen by ``enemies``, and the cheapest path that avoids their LOS.

    Parameters
    ----------
    board : Board
    start : hex or Location
        Where the unit is.
    enemies : hex, Location or sequence of them
        The enemy Locations whose LOS counts (names, ``"71P5h1"``, indices).
    unit : str, optional
        Unit class (default: the ruleset's first).
    allowance : float
        Movement allowance (MF/MP, a multiple of 1/2).
    enemy_levels : int or sequence of int
        Location levels of the enemies (when their names do not give them).
    target_level : int
        Level at which the moving unit is seen (0: ground).
    counters : Counters or GameState, optional
        SMOKE, vehicles and units, for both the LOS and the movement.
    exposure_penalty : float, optional
        MF added for each exposed hex entered (a multiple of 1/2, up to
        :data:`~kernel.movement.inputs.MAX_ALLOWANCE`); ``None`` (default):
        exposed hexes may not be entered at all.

    Returns
    -------
    ConcealedMovement

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> avoid = concealed_movement(board, "71I4", ["72M6"], "infantry", 4)
    >>> priced = concealed_movement(board, "71I4", ["72M6"], "infantry", 4, exposure_penalty=2)
    >>> bool((priced.field.cost <= avoid.field.cost).all())  # a price is never worse than a ban
    True
    """
    if exposure_penalty is not None:
        try:
            check_allowance(exposure_penalty)
        except ValueError:
            raise ValueError(f"exposure_penalty is {exposure_penalty!r}: expected a multiple of 1/2 MF from 0 to "
                             f"{MAX_ALLOWANCE}, or None (exposed hexes may not be entered)") from None
    threat = threat_map(board, enemies, levels=enemy_levels, target_level=target_level, counters=counters)
    exposed = threat.seen
    plain = penalised_field(board, start, unit, allowance, counters=counters)
    reachable = plain.cost <= allowance
    penalty = np.where(exposed, -1 if exposure_penalty is None else int(2 * exposure_penalty), 0).astype(np.int64)
    field = penalised_field(board, start, unit, allowance, counters=counters, hex_penalty=penalty)
    return ConcealedMovement(threat, exposed, reachable, reachable & ~exposed, field)
