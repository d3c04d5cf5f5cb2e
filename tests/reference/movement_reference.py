"""Slow, plain networkx reference ("oracle") for movement.

This module implements ``docs/movement-semantics.md`` literally, clause by
clause; comments cite the specification's sections ("States", "Entry cost"
steps 1-7, "Edges" 1-6, "Bridge decks", "Entry from off the map", "Leaving the
map").  It is
the yardstick the fast numba kernels are tested against, so it is written for
readability, not speed: the state graph is built edge by edge into a
``networkx.DiGraph`` by small helper functions and searched with networkx's
Dijkstra.

It deliberately imports nothing from ``kernel``: the board is read as plain
data (its numpy arrays and its ``ruleset`` tables and ``rules`` dict), so the
oracle stays independent of the code it checks.

Places where the specification leaves a choice open are marked ``# SPEC:``
with the reading taken (the most literal one).

Nodes
-----
* ``("loc", h, level, mode)``: Location of hex ``h`` (global index) at
  ``level`` (0 = ground, or beneath a bridge; 1.. = upper building levels; in
  a bridge hex, 1 = the bridge deck), ``mode`` ``"moving"`` or ``"stopped"``.
* ``("bypass", h, d)``: Bypass position along hexside ``d`` of hex ``h``.
* Only in paths (never in the state graph): ``("offmap", e)`` is the first node
  of a path that enters the map at hex ``e``; ``("exit", h, d)`` is the last node
  of a path that leaves the map from hex ``h`` across edge hexside ``d``.

Public functions
----------------
build_state_graph(board, unit_class, *, smoke=None, units=None, allowance=None, smoke_base=None,
                  smoke_height=None) -> nx.DiGraph
reference_movement(board, starts, unit_class, *, allowance=None, smoke=None, units=None,
                   entry_hexes=()) -> dict
    (``starts``: hexes, and/or Locations as ``(hex, level)`` or ``"2I9h1"``)
    (every function that takes ``smoke`` also takes ``smoke_base`` and ``smoke_height``: see :func:`smoke_in`)
path_cost(board, path, unit_class, *, allowance=None, smoke=None, units=None, starts=None) -> float
reference_penalised_within(board, start, unit_class, *, allowance, penalised_hexes, penalty, smoke=None,
                           units=None) -> dict

Helpers (spec steps, usable on their own): ``cot``, ``hexside_cost``,
``apply_elevation``, ``enter_cost``, ``level_cost``, ``bypass_cost``,
``bypass_entry_cost``, ``bypass_positions``, ``offmap_entry_cost``,
``exit_step_cost``, ``deck_entry_cost``, ``deck_exit_cost``; all take a
:class:`Context` (:func:`make_context`).  Bridge decks: ``bridge_deck``,
``deck_level``, ``is_deck``, ``top_level``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import networkx as nx
import numpy as np

MOVING = "moving"
STOPPED = "stopped"
SOURCE = ("source",)  # super-source of the Dijkstra search (never in results)


class IllegalPath(ValueError):
    """A path given to :func:`path_cost` breaks the specification (the message says where)."""


# --------------------------------------------------------------------------- nodes
def loc(h, level=0, mode=MOVING) -> tuple:
    """Location node ``("loc", h, level, mode)``."""
    return ("loc", int(h), int(level), mode)


def bypass(h, d) -> tuple:
    """Bypass node ``("bypass", h, d)`` (directions modulo 6)."""
    return ("bypass", int(h), int(d) % 6)


# --------------------------------------------------------------------------- context
@dataclass
class Context:
    """Everything a move's cost depends on, as plain data."""

    board: object
    c: int                      # unit class index
    unit_class: str
    allowance: float            # cost of an all-MF move
    smoke: np.ndarray           # bool per hex: SMOKE present
    smoke_base: np.ndarray      # int per hex: the level of the Location the SMOKE is in (0: the ground)
    smoke_height: np.ndarray    # int per hex: how many levels the SMOKE rises from there
    units: np.ndarray           # bool per hex: occupied (only used when occupied_hexes_block_movement)
    rules: dict
    can_bypass: bool            # unit class in bypass_classes


@dataclass(frozen=True)
class Move:
    """The outcome of one legal move: its cost, whether it is an all-MF move, its final mode."""

    cost: float
    all_mf: bool
    stopped: bool

    @property
    def mode(self) -> str:
        return STOPPED if self.stopped else MOVING


def _per_hex_flags(board, values, what: str) -> np.ndarray:
    n = len(board.neighbours)
    if values is None:
        return np.zeros(n, dtype=bool)
    array = np.asarray(values)
    if array.shape != (n,):
        raise ValueError(f"{what} must be a per-hex array of length {n}, got shape {array.shape}")
    # spec "Data used": dynamic counters, "SMOKE present: > 0", "occupied".
    # SPEC: "occupied" is read like SMOKE: a unit count > 0 (or True).
    return array > 0


def _per_hex_levels(board, values, default: int, what: str) -> np.ndarray:
    n = len(board.neighbours)
    if values is None:
        return np.full(n, default, dtype=np.int64)
    array = np.asarray(values, dtype=np.int64)
    if array.shape != (n,):
        raise ValueError(f"{what} must be a per-hex array of length {n}, got shape {array.shape}")
    return array


def make_context(board, unit_class: str, *, smoke=None, units=None, allowance=None, smoke_base=None,
                 smoke_height=None) -> Context:
    """Collect the class index, rules, allowance and counter arrays for the helpers."""
    rs = board.ruleset
    if unit_class not in rs.unit_classes:
        raise ValueError(f"unknown unit class {unit_class!r}: expected one of {rs.unit_classes}")
    c = rs.unit_classes.index(unit_class)
    rules = rs.rules
    # spec "Entry cost", last paragraph: "allowance, or default_allowance[c] when none is given".
    if allowance is None:
        allowance = rules["default_allowance"][unit_class]
    return Context(
        board=board,
        c=c,
        unit_class=unit_class,
        allowance=float(allowance),
        smoke=_per_hex_flags(board, smoke, "smoke"),
        smoke_base=_per_hex_levels(board, smoke_base, 0, "smoke_base"),
        smoke_height=_per_hex_levels(board, smoke_height, 2, "smoke_height"),
        units=_per_hex_flags(board, units, "units"),
        rules=rules,
        can_bypass=unit_class in rs.bypass_classes,
    )


# --------------------------------------------------------------------------- plain board reads
def neighbour(ctx: Context, h: int, d: int) -> int:
    """``neighbours[h, d]`` (``-1`` off the map), directions modulo 6."""
    return int(ctx.board.neighbours[int(h), int(d) % 6])


def terrain_features(ctx: Context, h: int) -> list[int]:
    """Indices of the terrain types whose bit is set in ``terrain[h]``."""
    mask = int(ctx.board.terrain[int(h)])
    return [t for t in range(len(ctx.board.ruleset.terrain_names)) if mask >> t & 1]


def ground_features(ctx: Context, h: int) -> list[int]:
    """The terrain features of the Location at ground level (or beneath a
    bridge): ``terrain_features`` less the ``deck`` types ("Bridge decks": a
    deck terrain type "is not a feature of the Location beneath the deck: it
    is left out of the COT", so a bridge hex with no other feature is Open
    Ground beneath).  Used for steps 2, 6 and 7 wherever a hex's terrain is
    read (entry, level change, Bypass, entry from and exit off the map)."""
    deck = getattr(ctx.board.ruleset, "terrain_deck", None)
    return [t for t in terrain_features(ctx, h) if deck is None or not deck[t]]


def hexside_features(ctx: Context, h: int, d: int) -> list[int]:
    """Indices of the hexside types whose bit is set in ``hexside[h, d]``."""
    mask = int(ctx.board.hexside[int(h), int(d) % 6])
    return [k for k in range(len(ctx.board.ruleset.hexside_names)) if mask >> k & 1]


def ground(ctx: Context, h: int) -> int:
    return int(ctx.board.ground_level[int(h)])


def direction_to(ctx: Context, p: int, q: int):
    """The hexside ``d`` of ``p`` with ``neighbours[p, d] == q``, or ``None``."""
    for d in range(6):
        if neighbour(ctx, p, d) == q:
            return d
    return None


def occupied(ctx: Context, h: int) -> bool:
    """Entry cost step 1: ``units[h]`` where ``occupied_hexes_block_movement``."""
    return bool(ctx.rules["occupied_hexes_block_movement"]) and bool(ctx.units[int(h)])


def has_road(ctx: Context, h: int, d: int) -> bool:
    """Hexside ``d`` of ``h`` holds a road feature (``hexside_road[k]``)."""
    rs = ctx.board.ruleset
    return any(bool(rs.hexside_road[k]) for k in hexside_features(ctx, h, d))


# --------------------------------------------------------------------------- bridge decks
def _board_bridge_deck(board, h: int) -> bool:
    deck = getattr(board.ruleset, "terrain_deck", None)
    if deck is None:  # a ruleset without decks
        return False
    mask = int(board.terrain[int(h)])
    return any(bool(deck[t]) for t in range(len(board.ruleset.terrain_names)) if mask >> t & 1)


def bridge_deck(ctx: Context, h: int) -> bool:
    """"Bridge decks": ``h`` holds a terrain type with ``deck = true``
    (``terrain_deck[t]``), so it is a bridge hex with a deck Location.

    Read from the terrain bits and the ruleset table, not from the board's
    derived ``bridge_deck`` array."""
    return _board_bridge_deck(ctx.board, h)


def deck_level(ctx: Context, h: int) -> int:
    """Level of the deck Location of bridge hex ``h``: 1 ("a bridge hex has no
    upper building levels"; written ``building_levels + 1`` so that it stays
    a level of its own should one ever have some)."""
    return int(ctx.board.building_levels[int(h)]) + 1


def is_deck(ctx: Context, h: int, level: int) -> bool:
    """The Location ``(h, level)`` is the deck of a bridge hex."""
    return bridge_deck(ctx, h) and int(level) == deck_level(ctx, h)


def top_level(board, h: int) -> int:
    """Highest Location level of ``h``: ``building_levels[h] + bridge_deck[h]``."""
    return int(board.building_levels[int(h)]) + (1 if _board_bridge_deck(board, h) else 0)


# --------------------------------------------------------------------------- spec steps
def height2(board, h: int, level: int) -> int:
    """Height of the Location ``(h, level)`` in half levels: ``2 (ground + level)``, half a level lower for a
    rooftop (an ASL hex's top Location when it has one: ``docs/los-semantics.md``, as a rooftop sees)."""
    height = 2 * (int(board.ground_level[int(h)]) + int(level))
    rooftop = bool(board.rooftop[int(h)]) and int(level) == int(board.top_level[int(h)]) and int(level) > 0
    if rooftop and board.ruleset.los_model == "asl":
        height -= 1
    return height


def smoke_in(ctx: Context, h: int, level: int) -> bool:
    """Whether the Location ``(h, level)`` is inside its hex's SMOKE.

    SPEC: "SMOKE is in Q" read Location by Location, as the LOS reads an end
    (``docs/los-semantics.md``, "SMOKE"): the SMOKE is in the Location of level
    ``smoke_base`` and fills the hex from that Location's height ``B`` up to
    ``B + 2 * smoke_height`` half levels (excluded); a Location whose height lies
    there is in it.  Beneath SMOKE at an upper level, or above it, a Location is not.
    """
    if not ctx.smoke[int(h)]:
        return False
    bottom = height2(ctx.board, h, int(ctx.smoke_base[int(h)]))
    return bottom <= height2(ctx.board, h, level) < bottom + 2 * int(ctx.smoke_height[int(h)])


def cot(ctx: Context, h: int, *, without_bypassable: bool = False, level: int = 0):
    """Entry cost step 2 (COT, B.2, A2.4) of hex ``h``.

    Returns ``(cost, all_mf)`` or ``None`` when a feature is prohibited (inf).
    With ``without_bypassable`` the hex's bypassable features are left out
    (Edges 3: ``bypass_cost``, "the hex's other terrain").  ``level``: the
    Location entered, whose SMOKE counts (:func:`smoke_in`; the ground by default).
    """
    rs = ctx.board.ruleset
    features = ground_features(ctx, h)  # deck types are left out of the COT
    if without_bypassable:
        features = [t for t in features if not rs.terrain_bypass[t]]
    costs = []
    all_mf = False
    for t in features:
        value = float(rs.terrain_move[ctx.c, t])
        if math.isinf(value):
            return None  # "Any feature inf: no move."
        if rs.terrain_move_all[ctx.c, t]:
            all_mf = True  # "Any feature 'all MF': the move is an all-MF move."
        # SPEC: an "all MF" feature contributes its terrain_move table value (0)
        # to the combination; the value never matters because an all-MF move
        # costs the whole allowance.
        costs.append(value)
    if not costs:
        total = float(ctx.rules["open_cost"])  # "no features: open_cost"
    elif ctx.rules["cost_combine"] == "sum":
        total = sum(costs)  # ASL: A2.4, costs of several features add up
    else:
        total = max(costs)  # V&V, CCN: "max"
    if smoke_in(ctx, h, level):
        total += float(ctx.rules["smoke_cost"])  # "plus smoke_cost if SMOKE is in Q"
    return total, all_mf


def hexside_cost(ctx: Context, h: int, d: int):
    """Entry cost step 3: ``H`` of hexside ``d`` of ``h``.

    Returns ``(H, has_road, stop_on_cross)`` or ``None`` when a feature is
    prohibited (cliffs, walls for some vehicles).
    """
    rs = ctx.board.ruleset
    total = 0.0  # "none: 0"
    has_road = False
    stop = False
    for k in hexside_features(ctx, h, d):
        value = float(rs.hexside_move[ctx.c, k])
        if math.isinf(value):
            return None  # "any inf: no move"
        total += value  # "sum of hexside_move[c, k] over the features k"
        has_road = has_road or bool(rs.hexside_road[k])
        stop = stop or bool(rs.hexside_stop_on_cross[k])
    return total, has_road, stop


def apply_elevation(ctx: Context, cost: float, g_from: int, g_to: int):
    """Entry cost step 5: elevation rule on a COT.

    Returns ``(cost, all_mf)`` or ``None`` when the class may not make the climb.
    """
    up = g_to - g_from
    mode = ctx.rules["elevation_cost"]
    if up > 0:
        if mode == "double":
            cost = cost * 2 ** up  # B.2: COT x 2^up
        elif mode == "plus-one":
            cost = cost + up  # V&V 10.7: +1 per level up
        # "none": unchanged
    all_mf = False
    climb = int(ctx.rules["whole_allowance_climb"])
    if climb > 0 and abs(g_to - g_from) >= climb:  # "|g(Q) - g(P)| >= whole_allowance_climb > 0"
        if ctx.unit_class in ctx.rules["no_climb_classes"]:
            return None  # "classes in no_climb_classes may not move"
        if ctx.unit_class in ctx.rules["whole_allowance_classes"]:
            all_mf = True  # "make an all-MF move (V&V 10.7)"
    return cost, all_mf


#: "Step limit": one move whose cost exceeds this many MF is no move (no unit has more).
STEP_LIMIT_MF = 1000


def _finish(ctx: Context, cost: float, all_mf: bool, stopped: bool) -> Move:
    """Entry cost step 7 plus the all-MF paragraph: an all-MF move costs the allowance and stops."""
    if cost > STEP_LIMIT_MF:
        return None  # "Step limit", checked on the cost before an all-MF move replaces it
    if all_mf:
        return Move(ctx.allowance, True, True)
    return Move(float(cost), False, bool(stopped))


def enter_cost(ctx: Context, p: int, d: int, *, from_deck: bool = False):
    """``enter(P -> Q)`` with ``Q = neighbours[P, d]`` (spec "Entry cost", steps 1-7).

    ``from_deck``: the unit leaves the bridge deck of ``P`` (Edges 6, "off the
    deck"), so step 5 is computed with ``up = g(Q) - (g(P) + 1)``.
    Returns a :class:`Move` or ``None`` (no move).
    """
    rs = ctx.board.ruleset
    q = neighbour(ctx, p, d)
    if q < 0:
        return None
    # 1. Q occupied: no move.
    if occupied(ctx, q):
        return None
    # 2. COT of Q (+ SMOKE); inf: no move; "all MF": all-MF move.
    terrain = cot(ctx, q)
    if terrain is None:
        return None
    cost, all_mf = terrain
    # 3. Hexside P|Q.
    side = hexside_cost(ctx, p, d)
    if side is None:
        # SPEC: a prohibited hexside feature forbids the move even when the
        # hexside also holds a road (step 3's "no move" is final; step 4 only
        # replaces the numbers COT and H).
        return None
    h_cost, has_road, stop_on_cross = side
    # 4. Road.  "Bridge decks": the road of a bridge hex runs on its deck: a
    # move into or out of the Location beneath a bridge never uses the road
    # rate.  Only a move off a deck (from_deck) leaves a bridge hex on its road.
    # SPEC: a Bypass exit from a bridge hex (Edges 5, enter(h -> Q)) is a
    # ground-level move out of the hex beneath the deck too: no road rate.
    beneath = bridge_deck(ctx, q) or (bridge_deck(ctx, p) and not from_deck)
    if ctx.unit_class in ctx.rules["road_classes"] and has_road and not beneath:
        # SPEC: the road replaces the COT value and H only; a prohibited
        # feature of Q (step 2, already refused above) stays prohibited and an
        # "all MF" feature of Q still makes the move an all-MF move.
        cost = float(ctx.rules["road_cost"])
        if smoke_in(ctx, q, 0):
            cost += float(ctx.rules["smoke_cost"])
        h_cost = 0.0
    # 5. Elevation (applies to the COT, road COT included: "2 uphill"); from
    # a deck the Location left is one level above P's ground (Edges 6).
    g_from = ground(ctx, p) + (1 if from_deck else 0)
    climbed = apply_elevation(ctx, cost, g_from, ground(ctx, q))
    if climbed is None:
        return None
    cost, climb_all_mf = climbed
    all_mf = all_mf or climb_all_mf
    # 6. Bridge (V&V 10.31).
    if ctx.unit_class in ctx.rules["bridge_road_only_classes"]:
        if any(rs.terrain_bridge[t] for t in ground_features(ctx, q)) and not has_road:
            return None
    # 7. cost = COT + H; stopped on stop_on_entry, stop_on_cross or all-MF.
    stop_on_entry = any(rs.terrain_stop_on_entry[t] for t in ground_features(ctx, q))
    return _finish(ctx, cost + h_cost, all_mf, stop_on_entry or stop_on_cross)


def deck_entry_cost(ctx: Context, p: int, d: int, *, from_deck: bool = False):
    """Edges 6, onto the deck: ``(P, 0) -> (Q, 1)`` or, ``from_deck``,
    ``(P, 1) -> (Q, 1)`` (P a bridge hex too), with ``Q = neighbours[P, d]`` a
    bridge hex and hexside ``P|Q`` a road hexside.

    cost = ``road_cost`` (``c`` in ``road_classes``) or ``open_cost``, plus
    ``smoke_cost`` if SMOKE is in Q, plus ``H`` of ``P|Q`` unless ``c`` uses
    the road rate; Q's own terrain is ignored; elevation rule of step 5 with
    ``up = (g(Q) + 1) - g'(P)``; never all-MF, never stopped; Q occupied: no move.
    Returns a :class:`Move` (always moving) or ``None``.
    """
    q = neighbour(ctx, p, d)
    if q < 0 or not bridge_deck(ctx, q):
        return None
    if from_deck and not bridge_deck(ctx, p):
        return None  # "from a deck (P, 1) -> (Q, 1) when P is a bridge hex too"
    if not has_road(ctx, p, d):
        return None  # "only across a hexside P|Q that holds a road feature"
    if occupied(ctx, q):
        return None  # "Q occupied: no move (as step 1)"
    side = hexside_cost(ctx, p, d)
    if side is None:
        # SPEC: as in enter_cost, a prohibited feature on the road hexside
        # (a cliff, a wall for trucks) forbids the move; the road rate only
        # replaces the number H.
        return None
    h_cost = side[0]
    road_rate = ctx.unit_class in ctx.rules["road_classes"]
    cost = float(ctx.rules["road_cost"] if road_rate else ctx.rules["open_cost"])
    if smoke_in(ctx, q, deck_level(ctx, q)):
        cost += float(ctx.rules["smoke_cost"])  # "plus smoke_cost if SMOKE is in Q"
    if road_rate:
        h_cost = 0.0  # "plus the hexside cost H of P|Q unless c uses the road rate"
    g_from = ground(ctx, p) + (1 if from_deck else 0)  # g'(P): the Location left
    # SPEC: as in step 5, the elevation rule applies to the COT (road or open
    # cost with SMOKE), and H is added afterwards (step 7).
    climbed = apply_elevation(ctx, cost, g_from, ground(ctx, q) + 1)
    if climbed is None:
        return None  # a class that may not make the climb (no_climb_classes)
    cost, _ = climbed
    # SPEC: "never an all-MF move": a whole-allowance climb flag is dropped.
    if cost + h_cost > STEP_LIMIT_MF:
        return None  # "Step limit"
    return Move(cost + h_cost, False, False)  # "never stopped"


def deck_exit_cost(ctx: Context, p: int, d: int):
    """Edges 6, off the deck: ``(P, 1) -> (Q, 0)`` for ``Q = neighbours[P, d]``
    across a road hexside: ``enter(P -> Q)`` (steps 1-7) with
    ``up = g(Q) - (g(P) + 1)``.

    SPEC: ``Q`` may be any neighbour, a bridge hex too (its Location beneath
    the bridge, level 0), as the clause does not exclude it.
    Returns a :class:`Move` or ``None``.
    """
    if not bridge_deck(ctx, p) or neighbour(ctx, p, d) < 0:
        return None
    if not has_road(ctx, p, d):
        return None  # "for a neighbour Q across a road hexside"
    return enter_cost(ctx, p, d, from_deck=True)


def level_cost(ctx: Context, h: int, level: int):
    """Edges 2: ``(h, l) -> (h, level)``, ``level = l +- 1``, costs the COT of ``h`` (step 2 only), with
    the SMOKE of the Location entered.

    Returns a :class:`Move` or ``None`` (``h`` prohibited for the class).
    """
    terrain = cot(ctx, h, level=level)
    if terrain is None:
        return None  # "not for classes for which h is prohibited"
    cost, all_mf = terrain
    # SPEC: a level change is not an entry into a hex, so stop_on_entry does
    # not apply to it (the unit is already in h); an "all MF" feature of h
    # makes it an all-MF move (step 2), which costs the allowance, ends
    # stopped and may only be the first move.
    return _finish(ctx, cost, all_mf, False)


def bypass_cost(ctx: Context, h: int):
    """Edges 3: COT of ``h`` without its bypassable features, plus SMOKE.

    Returns ``(cost, all_mf)`` or ``None`` when the remaining terrain is prohibited.
    """
    return cot(ctx, h, without_bypassable=True)


def bypass_positions(ctx: Context) -> list[tuple]:
    """States: Bypass ``(h, d)`` for bypass classes where ``h`` is bypassable, the
    obstacle does not touch hexside ``d`` and ``neighbours[h, d] >= 0``."""
    if not ctx.can_bypass:
        return []
    board = ctx.board
    positions = []
    for h in range(len(board.neighbours)):
        if not board.bypassable[h]:
            continue
        for d in range(6):
            if int(board.touches[h]) >> d & 1:
                continue
            if neighbour(ctx, h, d) < 0:
                continue
            positions.append(bypass(h, d))
    return positions


def bypass_position_exists(ctx: Context, h: int, d: int) -> bool:
    board = ctx.board
    return (ctx.can_bypass and bool(board.bypassable[h]) and not (int(board.touches[h]) >> (d % 6) & 1)
            and neighbour(ctx, h, d) >= 0)


def bypass_entry_cost(ctx: Context, p: int, h: int):
    """Edges 3: cost of ``(P, 0) -> (h, d)``: ``bypass_cost(h)`` with the elevation
    rule from ``g(P)`` to ``g(h)``, plus ``H`` of hexside ``P|h``.

    The cost does not depend on which position ``d`` is entered (only on ``P``).
    Returns a :class:`Move` (always moving) or ``None``.
    """
    d_side = direction_to(ctx, h, p)  # hexside P|h seen from h
    if d_side is None:
        return None
    base = bypass_cost(ctx, h)
    if base is None:
        return None
    cost, all_mf = base
    climbed = apply_elevation(ctx, cost, ground(ctx, p), ground(ctx, h))
    if climbed is None:
        return None
    cost, climb_all_mf = climbed
    if all_mf or climb_all_mf:
        # SPEC: Bypass positions are "always moving" while an all-MF move
        # ends stopped, so a Bypass entry that would be an all-MF move (an "all
        # MF" other terrain, or a whole-allowance climb) cannot be made.
        return None
    side = hexside_cost(ctx, h, d_side)
    if side is None:
        return None  # "no move if inf"
    # SPEC: Edges 3 lists only bypass_cost, elevation and H: no road rule
    # (step 4), no occupied rule (step 1: Bypass does not enter the hex), no
    # bridge rule and no stop rules (Bypass positions are always moving).
    if cost + side[0] > STEP_LIMIT_MF:
        return None  # "Step limit"
    return Move(cost + side[0], False, False)


def bypass_along_cost(ctx: Context, h: int):
    """Edges 4: ``bypass_cost(h)`` per hexside moved along (A4.3); no elevation, no hexside."""
    base = bypass_cost(ctx, h)
    if base is None:
        return None
    cost, all_mf = base
    if all_mf:
        return None  # SPEC: as for Bypass entry: an all-MF Bypass move cannot be made.
    if cost > STEP_LIMIT_MF:
        return None  # "Step limit"
    return Move(cost, False, False)


def offmap_entry_cost(ctx: Context, e: int):
    """Entry from off the map (A2.5): the COT of ``e`` (no elevation, no hexside);
    an all-MF hex costs the allowance; stop rules apply.

    Returns a :class:`Move` or ``None``.
    """
    rs = ctx.board.ruleset
    # SPEC: entering e from its mirror image is an entry, so step 1 applies: an
    # occupied entry hex cannot be entered.
    if occupied(ctx, e):
        return None
    terrain = cot(ctx, e)
    if terrain is None:
        return None
    cost, all_mf = terrain
    # SPEC: the parenthesis "its COT, no elevation, no hexside" is taken as the
    # whole cost: no road rule and no bridge rule (there is no hexside P|Q), no
    # whole-allowance climb.  Stop rules: stop_on_entry of e and all-MF.
    stop_on_entry = any(rs.terrain_stop_on_entry[t] for t in ground_features(ctx, e))
    return _finish(ctx, cost, all_mf, stop_on_entry)


def exit_step_cost(ctx: Context, h: int, d: int):
    """Leaving the map (A2.6) from edge hex ``h`` across hexside ``d``
    (``neighbours[h, d] == -1``): the COT of ``h`` plus the hexside cost of ``d``.

    Returns a :class:`Move` (``all_mf`` when ``h`` holds an "all MF" feature) or ``None``.
    """
    if neighbour(ctx, h, d) >= 0:
        return None
    terrain = cot(ctx, h)
    if terrain is None:
        return None
    cost, all_mf = terrain
    side = hexside_cost(ctx, h, d)
    if side is None:
        return None
    # SPEC: "the COT of h plus the hexside cost of d": no road rule, no
    # elevation, no occupied rule.  An "all MF" COT makes leaving an all-MF move
    # (cost = allowance), allowed only as the first move (from a start state).
    return _finish(ctx, cost + side[0], all_mf, True)


# --------------------------------------------------------------------------- the state graph
def _add_edge(graph: nx.DiGraph, u, v, move: Move) -> None:
    if graph.has_edge(u, v):  # cannot happen with the spec's edge list; keep the cheaper anyway
        if graph.edges[u, v]["cost"] <= move.cost:
            return
    graph.add_edge(u, v, cost=float(move.cost), all_mf=bool(move.all_mf))


def build_state_graph(board, unit_class: str, *, smoke=None, units=None, allowance=None, smoke_base=None,
                      smoke_height=None) -> nx.DiGraph:
    """The spec's state graph for one unit class.

    Nodes: every Location ``("loc", h, level, mode)`` (both modes; bridge
    decks included) and every Bypass position ``("bypass", h, d)``.  Edges
    (spec "Edges" 1-6, all from
    *moving* states) carry ``cost`` (float) and ``all_mf`` (bool).  All-MF
    edges are included wherever the move exists, out of every moving state;
    the "first move only" rule is applied by :func:`reference_movement`.

    ``units`` blocks every hex with ``units > 0`` (when the ruleset's
    ``occupied_hexes_block_movement``); :func:`reference_movement` clears the
    start hexes first.
    """
    ctx = make_context(board, unit_class, smoke=smoke, units=units, allowance=allowance, smoke_base=smoke_base,
                       smoke_height=smoke_height)
    graph = nx.DiGraph()
    n = len(board.neighbours)
    # States: Locations (h, l, m) for l in 0..building_levels[h], and the
    # deck (level 1) of a bridge hex ("Bridge decks").
    for h in range(n):
        for level in range(top_level(board, h) + 1):
            graph.add_node(loc(h, level, MOVING))
            graph.add_node(loc(h, level, STOPPED))
    positions = bypass_positions(ctx)
    graph.add_nodes_from(positions)

    # Edges 1: (P, 0) -> (Q, 0): enter(P -> Q).
    for p in range(n):
        for d in range(6):
            q = neighbour(ctx, p, d)
            if q < 0:
                continue
            move = enter_cost(ctx, p, d)
            if move is not None:
                _add_edge(graph, loc(p, 0, MOVING), loc(q, 0, move.mode), move)

    # Edges 2: (h, l) -> (h, l +- 1) within 0..building_levels[h].
    for h in range(n):
        top = int(board.building_levels[h])
        if top == 0:
            continue
        for level in range(top + 1):
            for other in (level - 1, level + 1):
                if 0 <= other <= top:
                    move = level_cost(ctx, h, other)
                    if move is not None:
                        _add_edge(graph, loc(h, level, MOVING), loc(h, other, move.mode), move)

    for node in positions:
        _, h, d = node
        # Edges 3: Bypass entry (P, 0) -> (h, d) for P touching hexside d.
        for side in (d - 1, d, d + 1):
            p = neighbour(ctx, h, side)
            if p < 0:
                continue
            move = bypass_entry_cost(ctx, p, h)
            if move is not None:
                _add_edge(graph, loc(p, 0, MOVING), node, move)
        # Edges 4: Bypass along (h, d) -> (h, d +- 1) when that position exists.
        move = bypass_along_cost(ctx, h)
        if move is not None:
            for other in (d - 1, d + 1):
                if bypass_position_exists(ctx, h, other):
                    _add_edge(graph, node, bypass(h, other), move)
        # Edges 5: Bypass exit (h, d) -> (Q, 0): enter(h -> Q).
        for side in (d - 1, d, d + 1):
            q = neighbour(ctx, h, side)
            if q < 0:
                continue
            move = enter_cost(ctx, h, side)
            if move is not None:
                _add_edge(graph, node, loc(q, 0, move.mode), move)

    # Edges 6: bridge decks, only across road hexsides; no move between a deck
    # and beneath it (no edge inside one hex), no Bypass onto or off a deck.
    for p in range(n):
        for d in range(6):
            q = neighbour(ctx, p, d)
            if q < 0:
                continue
            if bridge_deck(ctx, q):
                # onto the deck: (P, 0) -> (Q, 1) ...
                move = deck_entry_cost(ctx, p, d)
                if move is not None:
                    _add_edge(graph, loc(p, 0, MOVING), loc(q, deck_level(ctx, q), move.mode), move)
                # ... and from a deck (P, 1) -> (Q, 1) when P is a bridge hex too.
                if bridge_deck(ctx, p):
                    move = deck_entry_cost(ctx, p, d, from_deck=True)
                    if move is not None:
                        _add_edge(graph, loc(p, deck_level(ctx, p), MOVING),
                                  loc(q, deck_level(ctx, q), move.mode), move)
            if bridge_deck(ctx, p):
                # off the deck: (P, 1) -> (Q, 0) across a road hexside.
                move = deck_exit_cost(ctx, p, d)
                if move is not None:
                    _add_edge(graph, loc(p, deck_level(ctx, p), MOVING), loc(q, 0, move.mode), move)
    graph.graph.update(unit_class=unit_class, allowance=ctx.allowance)
    return graph


# --------------------------------------------------------------------------- search
def _hex_list(board, hexes) -> list[int]:
    return [board.index(h) if isinstance(h, str) else int(h) for h in hexes]


_LOCATION_NAME = re.compile(r"^(.+)h(\d+)$")  # "2I9h1": hex 2I9, level 1


def _start_locations(board, starts) -> list[tuple[int, int]]:
    """Start Locations ``(hex, level)`` from hexes (level 0), ``(hex, level)``
    pairs or names like ``"2I9h1"`` (spec "Start states").

    ValueError naming the hex when it has no Location at that level.
    """
    if isinstance(starts, (str, int, np.integer)):
        starts = [starts]
    out = []
    for start in starts:
        if isinstance(start, tuple):
            h, level = start
            h = board.index(h) if isinstance(h, str) else int(h)
        elif isinstance(start, str) and _LOCATION_NAME.match(start) and start not in board.names:
            name, level = _LOCATION_NAME.match(start).groups()
            h = board.index(name)
        else:
            h, level = (board.index(start) if isinstance(start, str) else int(start)), 0
        level = int(level)
        top = top_level(board, h)
        if not 0 <= level <= top:
            raise ValueError(f"start Location {start!r}: {board.names[h]} has no level {level}: "
                             f"expected a level in 0..{top}")
        out.append((h, level))
    return out


def _clear_starts(board, units, starts):
    # The brief: "units hexes other than starts cannot be entered": the start
    # hexes hold the moving unit itself.
    # SPEC: the spec does not mention the start hexes; their counters do not block.
    if units is None:
        return None
    cleared = np.array(np.asarray(units) > 0, copy=True)
    cleared[list(starts)] = False
    return cleared


def reference_movement(board, starts, unit_class: str, *, allowance=None, smoke=None, units=None,
                       entry_hexes=(), smoke_base=None, smoke_height=None) -> dict:
    """Least movement costs from ``starts`` (and/or from off the map at ``entry_hexes``).

    ``starts``: hexes (their ground Locations), Locations ``(hex, level)`` or
    Location names like ``"2I9h1"`` (a bridge deck or an upper building level).

    Returns a dict with

    * ``cost``: float64 array per hex, the least cost over its ground Location
      (either mode), its Bypass positions and, in a bridge hex, its deck
      Location (either mode); ``inf`` unreachable;
    * ``state_cost``: ``{node: cost}`` for every reached state;
    * ``paths``: a function ``paths(h)`` (index or name) giving a cheapest path
      to hex ``h`` as a list of nodes, ``None`` when unreachable; a path starts
      at a start Location or at ``("offmap", e)`` followed by the entry Location;
    * ``state_paths``: ``{node: path}`` for every reached state;
    * ``exit_cost``: least cost of leaving the map (A2.6), ``inf`` if impossible;
    * ``exit_path``: a cheapest path ending ``("exit", h, d)``, or ``None``;
    * ``graph``: the state graph used.

    All-MF moves may only be the first move.  The state graph holds all-MF
    edges out of every moving state; the search keeps **only those out of
    start states** (``("loc", s, level, "moving")``, cost 0).  Because a start
    state costs 0, a cheapest path that uses such an edge always makes it as
    its first move, and an all-MF edge out of any other state (not a first
    move) is simply not in the searched graph.  An all-MF entry from off the
    map is the entry edge itself (see below), so it is a first move too.

    The search is ``networkx.single_source_dijkstra`` from a super-source with
    an edge of cost 0 to every start state and, for each entry hex ``e``, an
    edge of cost 0 to ``("offmap", e)`` and from there an edge of the entry
    cost to ``e``'s ground Location in the resulting mode.
    """
    start_locations = _start_locations(board, starts)
    start_hexes = [h for h, _ in start_locations]
    # SPEC: entry hexes are taken as given; the spec does not require them to
    # be edge hexes, so none is refused for lying inside the map.
    entries = _hex_list(board, entry_hexes)
    units_eff = _clear_starts(board, units, start_hexes)
    extent = dict(smoke_base=smoke_base, smoke_height=smoke_height)
    ctx = make_context(board, unit_class, smoke=smoke, units=units_eff, allowance=allowance, **extent)
    graph = build_state_graph(board, unit_class, smoke=smoke, units=units_eff, allowance=allowance, **extent)
    # spec: start states (s, 0, moving), or (s, l, moving) for a start
    # Location, at cost 0.
    start_nodes = {loc(s, level, MOVING) for s, level in start_locations}

    search = nx.DiGraph()
    search.add_nodes_from(graph.nodes)
    for u, v, data in graph.edges(data=True):
        if data["all_mf"] and u not in start_nodes:
            continue  # all-MF: first move only
        search.add_edge(u, v, cost=data["cost"])
    search.add_node(SOURCE)
    for node in start_nodes:
        search.add_edge(SOURCE, node, cost=0.0)
    for e in entries:
        move = offmap_entry_cost(ctx, e)
        if move is None:
            continue
        search.add_edge(SOURCE, ("offmap", e), cost=0.0)
        search.add_edge(("offmap", e), loc(e, 0, move.mode), cost=move.cost)

    dist, found = nx.single_source_dijkstra(search, SOURCE, weight="cost")
    state_cost = {node: float(c) for node, c in dist.items() if node[0] in ("loc", "bypass")}
    state_paths = {node: list(found[node][1:]) for node in state_cost}

    n = len(board.neighbours)
    cost = np.full(n, np.inf)
    best = [None] * n
    for h in range(n):
        # Field cost: ground Location in either mode, then its Bypass
        # positions, then (a bridge hex) its deck Location in either mode.
        candidates = [loc(h, 0, MOVING), loc(h, 0, STOPPED)] + [bypass(h, d) for d in range(6)]
        if bridge_deck(ctx, h):
            candidates += [loc(h, deck_level(ctx, h), MOVING), loc(h, deck_level(ctx, h), STOPPED)]
        for node in candidates:
            if node in state_cost and state_cost[node] < cost[h]:
                cost[h] = state_cost[node]
                best[h] = node

    def paths(h):
        h = board.index(h) if isinstance(h, str) else int(h)
        node = best[h]
        return None if node is None else list(state_paths[node])

    # Leaving the map: least cost of a moving ground state + exit step.
    # SPEC: "exit_cost is the least cost[h] + that, over moving ground states":
    # the cost added to is that of the moving ground state (h, 0, moving), not
    # the field cost cost[h] (which may come from a stopped or Bypass state,
    # from which the unit cannot leave).
    exit_cost = math.inf
    exit_path = None
    for h in range(n):
        node = loc(h, 0, MOVING)
        if node not in state_cost:
            continue
        for d in range(6):
            move = exit_step_cost(ctx, h, d)
            if move is None:
                continue
            if move.all_mf and node not in start_nodes:
                continue  # all-MF: first move only
            total = state_cost[node] + move.cost
            if total < exit_cost:
                exit_cost = total
                exit_path = state_paths[node] + [("exit", h, d)]

    return {
        "cost": cost,
        "state_cost": state_cost,
        "paths": paths,
        "state_paths": state_paths,
        "exit_cost": float(exit_cost),
        "exit_path": exit_path,
        "graph": graph,
    }


def reference_penalised_within(board, start: int, unit_class: str, *, allowance: float, penalised_hexes,
                               penalty: float, smoke=None, units=None, smoke_base=None,
                               smoke_height=None) -> dict:
    """Least cost from ground hex ``start`` when entering any state of a hex of ``penalised_hexes`` costs
    ``penalty`` MF on top of its MF, over the paths that spend at most ``allowance`` MF (``smoke`` and
    ``units`` as for :func:`reference_movement`).

    A plain search over pairs (state, MF spent): every pair is a node of its own, searched with
    :mod:`heapq` by cost (MF plus penalties); a path whose MF would pass the allowance is not taken.
    Returns ``{"cost": float64 per hex (least over its ground Location, its Bypass positions and a
    bridge deck, inf where no path fits), "paths": {hex: the nodes of a cheapest path},
    "spent": {hex: that path's MF}}``.
    """
    import heapq

    units = _clear_starts(board, units, [int(start)])
    extent = dict(smoke_base=smoke_base, smoke_height=smoke_height)
    graph = build_state_graph(board, unit_class, smoke=smoke, units=units, allowance=allowance, **extent)
    ctx = make_context(board, unit_class, smoke=smoke, units=units, allowance=allowance, **extent)
    penalised = {int(h) for h in penalised_hexes}
    first = loc(int(start), 0, MOVING)
    best: dict = {}
    queue = [(0.0, 0.0, 0, first, (first,))]
    order = 1
    while queue:
        cost, spent, _, node, path = heapq.heappop(queue)
        if (node, spent) in best:
            continue
        best[(node, spent)] = (cost, path)
        for _, target, data in graph.out_edges(node, data=True):
            if data["all_mf"] and node != first:
                continue  # all-MF: the first move only
            now = spent + data["cost"]
            if now > allowance + 1e-9:
                continue
            step = data["cost"] + (penalty if target[1] in penalised else 0.0)
            heapq.heappush(queue, (cost + step, now, order, target, path + (target,)))
            order += 1
    n = len(board.neighbours)
    result = {"cost": np.full(n, np.inf), "paths": {}, "spent": {}}
    for (node, spent), (cost, path) in best.items():
        h = node[1]
        counts = node[0] == "bypass" or node[2] == 0 or (bridge_deck(ctx, h) and node[2] == deck_level(ctx, h))
        if counts and cost < result["cost"][h]:
            result["cost"][h] = cost
            result["paths"][h] = list(path)
            result["spent"][h] = spent
    return result


# --------------------------------------------------------------------------- path re-costing
def _check_node(ctx: Context, node, where: str) -> None:
    board = ctx.board
    n = len(board.neighbours)
    if not isinstance(node, tuple) or not node:
        raise IllegalPath(f"{where}: {node!r} is not a node tuple")
    kind = node[0]
    if kind == "loc":
        if len(node) != 4 or node[3] not in (MOVING, STOPPED):
            raise IllegalPath(f"{where}: {node!r}: expected ('loc', hex, level, 'moving'|'stopped')")
        if not 0 <= node[1] < n or not 0 <= node[2] <= top_level(board, node[1]):
            raise IllegalPath(f"{where}: {node!r} is not a Location of this board")
    elif kind == "bypass":
        if len(node) != 3 or not 0 <= node[1] < n or not 0 <= node[2] < 6:
            raise IllegalPath(f"{where}: {node!r}: expected ('bypass', hex, direction 0..5)")
        if not bypass_position_exists(ctx, node[1], node[2]):
            raise IllegalPath(f"{where}: {node!r} is not a Bypass position for {ctx.unit_class!r}")
    elif kind in ("offmap", "exit"):
        pass
    else:
        raise IllegalPath(f"{where}: unknown node kind {kind!r}")


def _step(ctx: Context, u, v, first: bool, where: str) -> Move:
    """The move ``u -> v`` re-derived from the spec; raises :class:`IllegalPath`."""
    if u[0] == "loc" and u[3] == STOPPED:
        raise IllegalPath(f"{where}: {u!r} is stopped: a stopped unit may not continue")
    move = None
    expect_mode = v[3] if v[0] == "loc" else MOVING
    if u[0] == "loc" and v[0] == "loc" and u[1] != v[1]:
        d = direction_to(ctx, u[1], v[1])
        if d is None:
            raise IllegalPath(f"{where}: {u!r} -> {v!r}: not adjacent")
        u_deck, v_deck = is_deck(ctx, u[1], u[2]), is_deck(ctx, v[1], v[2])
        if (u_deck or v_deck) and not has_road(ctx, u[1], d):
            raise IllegalPath(f"{where}: {u!r} -> {v!r}: a bridge deck is entered and left only "
                              f"across a road hexside")
        if v_deck:
            # Edges 6, onto the deck: from the ground Location or from a deck.
            if u[2] != 0 and not u_deck:
                raise IllegalPath(f"{where}: {u!r} -> {v!r}: a deck is entered from a ground Location or a deck")
            move = deck_entry_cost(ctx, u[1], d, from_deck=u_deck)
        elif u_deck:
            # Edges 6, off the deck: to a ground Location.
            if v[2] != 0:
                raise IllegalPath(f"{where}: {u!r} -> {v!r}: from a deck a unit moves to a ground Location or a deck")
            move = deck_exit_cost(ctx, u[1], d)
        else:
            # Edges 1: ground to ground between neighbours.
            if u[2] != 0 or v[2] != 0:
                raise IllegalPath(f"{where}: {u!r} -> {v!r}: hexes are left and entered at ground level "
                                  f"(or on a bridge deck) only")
            move = enter_cost(ctx, u[1], d)
    elif u[0] == "loc" and v[0] == "loc":
        # Edges 6: no move between the deck and beneath it.
        if is_deck(ctx, u[1], u[2]) or is_deck(ctx, v[1], v[2]):
            raise IllegalPath(f"{where}: {u!r} -> {v!r}: no move between a bridge deck and beneath it")
        # Edges 2: level change within a hex.
        if abs(u[2] - v[2]) != 1:
            raise IllegalPath(f"{where}: {u!r} -> {v!r}: levels change one at a time")
        move = level_cost(ctx, u[1], v[2])
    elif u[0] == "loc" and v[0] == "bypass":
        # Edges 3: Bypass entry from a hex touching hexside d.
        _, h, d = v
        if u[2] != 0 or u[1] not in [neighbour(ctx, h, s) for s in (d - 1, d, d + 1)]:
            raise IllegalPath(f"{where}: {u!r} -> {v!r}: not a hex touching hexside {d} of {h}")
        move = bypass_entry_cost(ctx, u[1], h)
    elif u[0] == "bypass" and v[0] == "bypass":
        # Edges 4: along, to the next position of the same hex.
        if u[1] != v[1] or (v[2] - u[2]) % 6 not in (1, 5):
            raise IllegalPath(f"{where}: {u!r} -> {v!r}: Bypass moves to an adjacent hexside of the same hex")
        move = bypass_along_cost(ctx, u[1])
    elif u[0] == "bypass" and v[0] == "loc":
        # Edges 5: Bypass exit into a hex touching hexside d.
        _, h, d = u
        sides = [s for s in (d - 1, d, d + 1) if neighbour(ctx, h, s) == v[1]]
        if v[2] != 0 or not sides:
            raise IllegalPath(f"{where}: {u!r} -> {v!r}: not a hex touching hexside {d} of {h}")
        move = enter_cost(ctx, h, sides[0])
    elif u[0] == "loc" and v[0] == "exit":
        # Leaving the map.
        _, h, d = v
        if u[1] != h or u[2] != 0:
            raise IllegalPath(f"{where}: {u!r} -> {v!r}: leave the map from the ground Location of {h}")
        move = exit_step_cost(ctx, h, d)
    else:
        raise IllegalPath(f"{where}: {u!r} -> {v!r} is not a move of the state graph")
    if move is None:
        raise IllegalPath(f"{where}: {u!r} -> {v!r}: no move (prohibited, occupied, or not allowed)")
    if move.all_mf and not first:
        raise IllegalPath(f"{where}: {u!r} -> {v!r} is an all-MF move: only allowed as the first move")
    if v[0] != "exit" and move.mode != expect_mode:
        raise IllegalPath(f"{where}: {u!r} -> {v!r}: the move ends {move.mode}, the path says {expect_mode}")
    return move


def path_cost(board, path, unit_class: str, *, allowance=None, smoke=None, units=None, starts=None, smoke_base=None,
              smoke_height=None) -> float:
    """Re-derive the cost of ``path`` step by step from the spec.

    ``path`` is a list of nodes as in :func:`reference_movement`'s paths: it
    starts at a start state ``("loc", s, level, "moving")`` (cost 0) or at
    ``("offmap", e)`` followed by ``e``'s ground Location (the entry move, A2.5),
    and may end with ``("exit", h, d)`` (A2.6).  ``starts`` (hexes or
    Locations as for :func:`reference_movement`; default: the path's own start
    Location) are the start Locations; their hexes' ``units`` do not block.
    Raises :class:`IllegalPath` naming the first illegal step.
    """
    path = [tuple(node) for node in path]
    if not path:
        raise IllegalPath("empty path")
    if starts is None:
        start_locations = [(path[0][1], path[0][2])] if path[0][0] == "loc" else []
    else:
        start_locations = _start_locations(board, starts)
    start_hexes = [h for h, _ in start_locations]
    ctx = make_context(board, unit_class, smoke=smoke, allowance=allowance,
                       units=_clear_starts(board, units, start_hexes), smoke_base=smoke_base,
                       smoke_height=smoke_height)
    for i, node in enumerate(path):
        _check_node(ctx, node, f"node {i}")
        if node[0] == "offmap" and i != 0:
            raise IllegalPath(f"node {i}: ('offmap', ...) may only start a path")
        if node[0] == "exit" and i != len(path) - 1:
            raise IllegalPath(f"node {i}: ('exit', ...) may only end a path")
    total = 0.0
    first_move_index = 0
    if path[0][0] == "offmap":
        e = path[0][1]
        if len(path) < 2 or path[1][:3] != ("loc", e, 0):
            raise IllegalPath(f"node 1: a path from ('offmap', {e}) continues at the ground Location of {e}")
        move = offmap_entry_cost(ctx, e)
        if move is None:
            raise IllegalPath(f"node 1: hex {e} cannot be entered from off the map")
        if move.mode != path[1][3]:
            raise IllegalPath(f"node 1: entering {e} ends {move.mode}, the path says {path[1][3]}")
        total += move.cost
        first_move_index = None  # the entry move was the first move
        rest = path[1:]
    else:
        start = path[0]
        if start[0] != "loc" or start[3] != MOVING:
            raise IllegalPath(f"node 0: {start!r}: a path starts at a start state ('loc', s, level, 'moving')")
        if (start[1], start[2]) not in start_locations:
            raise IllegalPath(f"node 0: {start!r} is not a start Location {start_locations}")
        rest = path
    offset = len(path) - len(rest)
    for i in range(len(rest) - 1):
        first = first_move_index is not None and i == first_move_index
        move = _step(ctx, rest[i], rest[i + 1], first, f"step {i + offset} -> {i + offset + 1}")
        total += move.cost
    return float(total)
