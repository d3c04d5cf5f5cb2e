"""One LOS between two hexes or Locations, with :meth:`~kernel.line_of_sight.results.LOSResult.explain`, and
the hexes its line crosses (:func:`trace`, the exact tracer's answer for one pair).

Examples
--------
>>> import kernel
>>> board = kernel.load("default")
>>> result = kernel.los(board, "71I4", "71Q5")
>>> result.visible in (True, False)
True
"""

from __future__ import annotations

from kernel.line_of_sight.report import smoke_texts
from kernel.line_of_sight._hex import queries as K_fields
from kernel.line_of_sight._hex import rules
from kernel.line_of_sight._templates.tracer import trace  # noqa: F401 (the pictures' and warm's path to it)
from kernel.line_of_sight.counters import counter_tables, los_kinds, query_tables
from kernel.maps.counters import GameState
from kernel.line_of_sight.inputs import LOS_CACHE, cover_and_range_one, kernel_board_tables, ruleset_code, template_tuple
from kernel.maps.locations import location
from kernel.line_of_sight.results import LOSResult, LOSStep, REASONS, EFFECT_NAMES, RULE_REFERENCE, STEP_KINDS
from kernel.line_of_sight.depiction import (
    ART_MODELS, HEXSIDE_RUN_STEP, checked_model, default_model, class_name, class_rule, depiction_recorded,
)
from kernel.maps.state_lock import holding_state


@holding_state
def los(board, viewer, target, *, level: int = 0, target_level: int = 0, counters=None,
        unit: str | None = None, model: str | None = None) -> LOSResult:
    """Evaluate one LOS between two Locations under the board's ruleset.

    Parameters
    ----------
    board : Board
    viewer, target : str or int
        The two ends: hex names (``"2I9"``), Locations (``"2I9h1"``,
        ``"Bridge/2I9"``) or hex indices.
    level, target_level : int
        Location levels above ground of the viewer and of the target; a
        Location name's ``h`` suffix gives them too.
    counters : Counters or GameState, optional
        SMOKE, vehicles/wrecks and units on the map.
    unit : str, optional
        Unit class of the firer, for the target's cover (default: the
        ruleset's first class).
    model : {"hex", "depiction", "vasl"}, optional
        Default (None): :func:`~kernel.default_model` (the depiction model on
        an ASL map with VASL art, else the hex model).
        ``"depiction"`` reads the LOS off the map's art
        (:mod:`kernel.line_of_sight.depiction`); its ``explain()`` lists the
        runs of pixels the walk judged (hex, terrain, level, first and last
        pixel, the hindrance each added) and the counters met, walked from
        the end with the smaller hex index, up to the one that blocks.
        ``"vasl"``: the same, with hindrance counted as VASL's engine counts
        it (:func:`~kernel.line_of_sight.bulk.los_matrix`).

    Returns
    -------
    LOSResult

    Raises
    ------
    KeyError, ValueError
        Unknown hex or level, bad counters or unit class.

    See Also
    --------
    kernel.can_see : the verdict alone, faster.
    kernel.los_pairs : many pairs at once, as arrays.
    kernel.LOSResult : the result's attributes and ``explain()``.
    kernel.los_picture : draw the LOS.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> r = los(board, "71I4", "71I4")
    >>> r.visible, r.hindrance
    (True, 0)
    """
    ia, level_a = location(board, viewer, level, "level", "viewer")
    ib, level_b = location(board, target, target_level, "target_level", "target")
    unit_index = board.ruleset.unit_index(unit) if unit is not None else 0
    model = checked_model(model, board)
    if model in ART_MODELS:
        return _depiction_los(board, ia, level_a, ib, level_b, unit_index, counters, per_range=model == "vasl")
    _, _, cover_tables, no_counters, board_arguments = query_tables(board, unit_index)
    blocked, total, at, reason, blind, slope, records = K_fields.recorded_kernel(
        ia, level_a, ib, level_b, *board_arguments,
        *(no_counters if counters is None else counter_tables(board, counters, bulk=False)))
    cover, hexes = cover_and_range_one(board, ia, level_a, ib, level_b, unit_index, cover_tables)
    at = int(at)
    return LOSResult(
        viewer=board.location_name(ia, level_a), target=board.location_name(ib, level_b),
        visible=not blocked, hindrance=int(total), blocked_at=at, blocked_at_name=board.names[at] if at >= 0 else None,
        reason=int(reason) if blocked else 0, blind=bool(blind), continuous_slope=bool(slope),
        cover=cover, range=hexes, ruleset=board.ruleset.name,
        step_decoder=lambda: decoded_steps(board, records), board=board, smoke=smoke_texts(board, counters),
    )


def decoded_steps(board, records) -> list[LOSStep]:
    """:class:`LOSStep` objects of a recorded LOS (rows of hex, step kind, effect, reason, DRM)."""
    references = RULE_REFERENCE[board.ruleset.los_model]
    names = board.names
    steps = []
    # one conversion to Python ints: indexing numpy arrays element by element cost more than the walk
    for rec_hex, rec_kind, rec_effect, rec_reason, rec_drm in records.tolist():
        reason_name = REASONS[rec_reason]
        steps.append(LOSStep(
            hex=names[rec_hex], kind=STEP_KINDS[rec_kind], effect=EFFECT_NAMES[rec_effect],
            hindrance=rec_drm, reason=reason_name,
            rule=references.get(reason_name, "-") if reason_name else
            (references["hindrance"] if rec_drm else "-"),
        ))
    return steps


def can_see(board, viewer, target, *, level: int = 0, target_level: int = 0, counters=None,
            model: str | None = None) -> bool:
    """Whether ``target`` is visible from ``viewer``: the fast boolean form of :func:`los` for one pair.

    Takes what :func:`los` takes (hex names, Locations such as ``"71P5h1"``
    or global indices; a :class:`~kernel.maps.counters.GameState` is the
    cheapest ``counters``) and answers ``los(...).visible`` without
    recording the steps, the hindrance or the cover; the walk stops at the
    first block.  ``model`` as in :func:`los` (default
    :func:`~kernel.line_of_sight.depiction.default_model`); the depiction
    models answer through :func:`los`.

    See Also
    --------
    kernel.los : the same pair with hindrance, cover and explanation.
    kernel.visibility_bits : every pair's verdict, bit-packed.
    kernel.GameState : the cheapest ``counters`` for repeated calls.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> can_see(board, "71I4", "71I6") == kernel.los(board, "71I4", "71I6").visible
    True
    """
    if model is not None or default_model(board) != "hex":
        if checked_model(model, board) in ART_MODELS:
            return los(board, viewer, target, level=level, target_level=target_level, counters=counters,
                       model=model).visible
    n = len(board.names)
    if type(viewer) is int and type(target) is int and type(level) is int and type(target_level) is int \
            and level == 0 and target_level == 0 and 0 <= viewer < n and 0 <= target < n:
        ia, level_a, ib, level_b = viewer, 0, target, 0  # an engine's loop: checked without the name lookups
    else:
        ia, level_a = location(board, viewer, level, "level", "viewer")
        ib, level_b = location(board, target, target_level, "target_level", "target")
    if type(counters) is GameState:  # the state's lock, held here rather than by a wrapper (the engine's hot path)
        with counters.lock:
            return K_fields.visible_kernel(ia, level_a, ib, level_b, *visible_arguments(board, counters))
    return K_fields.visible_kernel(ia, level_a, ib, level_b, *visible_arguments(board, counters))


def visible_arguments(board, counters) -> tuple:
    """The arguments of :func:`~kernel.line_of_sight._hex.queries.visible_kernel` after the two ends:
    :func:`visible_tables` and the counters' tables, as one tuple, kept (on the board without counters, on
    a :class:`GameState` for the version it was built at) so that a query of an unchanged state builds
    nothing (a third of a microsecond of ``can_see``)."""
    if counters is None:
        cached = LOS_CACHE.entries(board).get("_visible_no_counters")
        if cached is None:
            cached = visible_tables(board) + counter_tables(board, None)
            LOS_CACHE.entries(board)["_visible_no_counters"] = cached
        return cached
    if isinstance(counters, GameState):
        kept = counters.prepared.get("visible")
        if kept is not None and kept[0] is board:
            if kept[1] == counters.version:
                return kept[2]
            if not counters.changed_since(kept[1], los_kinds(board)).size:  # units moved, where they do not block
                counter_tables(board, counters)  # the prepared tables' version moves on too
                counters.prepared["visible"] = (board, counters.version, kept[2])
                return kept[2]
        arguments = visible_tables(board) + counter_tables(board, counters)  # brings them up to date
        counters.prepared["visible"] = (board, counters.version, arguments)
        return arguments
    return visible_tables(board) + counter_tables(board, counters)


def visible_tables(board) -> tuple:
    """The board's arguments of :func:`~kernel.line_of_sight._hex.queries.visible_kernel` and
    :func:`~kernel.line_of_sight._hex.queries.recorded_kernel` after the two ends: the LOS model,
    the templates' and the board's kernel tables, in one flat tuple (cached on the board)."""
    cached = LOS_CACHE.entries(board).get("_los_visible_tables")
    if cached is None:
        cached = (ruleset_code(board),) + template_tuple(board) + kernel_board_tables(board)
        LOS_CACHE.entries(board)["_los_visible_tables"] = cached
    return cached


def _depiction_los(board, ia, level_a, ib, level_b, unit_index, counters, per_range: bool = False) -> LOSResult:
    """One LOS in the depiction model, with the kernel's recorded steps (runs of art, counters)."""
    blocked, total, reason, at, slope, log = depiction_recorded(board, ia, level_a, ib, level_b, counters, per_range)
    references = RULE_REFERENCE[board.ruleset.los_model]

    def steps():
        from kernel.line_of_sight._depiction import walk as D

        if blocked and REASONS[reason] in ("stairway", "inside building"):   # VASL's rules of the ends' buildings
            kind = "levels of one hex" if REASONS[reason] == "stairway" else "the viewer's building"
            return [LOSStep(hex=board.names[at], kind=kind, effect="blocks", hindrance=0,
                            reason=REASONS[reason], rule=references.get(REASONS[reason], "-"))]
        decoded = []
        for row in log.tolist():
            h, c, g, x0, y0, x1, y1, drm, effect, rec_reason = row[:D.LOG_LAST_PIXEL]
            reason_name = REASONS[rec_reason]
            kind = ("counters" if c == D.COUNTERS
                    else HEXSIDE_RUN_STEP if c == D.HEXSIDE_RUN
                    else f"{class_name(board, c)} art at level {g}, pixels {x0},{y0}-{x1},{y1}")
            rule = references.get(reason_name, "-") if reason_name else (references["hindrance"] if drm else "-")
            if reason_name == "obstacle" and c not in (D.COUNTERS, D.HEXSIDE_RUN):
                rule = class_rule(board, c) or rule
            decoded.append(LOSStep(
                hex=board.names[h], kind=kind, effect=EFFECT_NAMES[effect], hindrance=drm, reason=reason_name,
                rule=rule,
            ))
        return decoded

    cover, hexes = cover_and_range_one(board, ia, level_a, ib, level_b, unit_index)
    return LOSResult(
        viewer=board.location_name(ia, level_a), target=board.location_name(ib, level_b),
        visible=not blocked, hindrance=total, blocked_at=int(at), blocked_at_name=board.names[at] if at >= 0 else None,
        reason=int(reason) if blocked else 0, blind=reason == rules.R_BLIND, continuous_slope=slope,
        cover=cover, range=hexes, ruleset=board.ruleset.name, model="vasl" if per_range else "depiction",
        step_decoder=steps, board=board, smoke=smoke_texts(board, counters),
    )
