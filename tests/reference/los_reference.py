"""Slow, naive, obviously-correct reference ("oracle") for LOS.

This module implements ``docs/los-semantics.md`` literally, clause by clause;
comments cite the section (``§1`` trace, ``§2`` ASL, ``§3`` Valor & Victory,
``§4`` CCN, ``§5`` results).  It is the yardstick the fast kernels are tested
against, so it is written for readability, not speed:

* the trace loops over **every** hex of the board and intersects the line with
  each hexagon using exact integer cross products and ``fractions.Fraction``;
* the rules are plain loops over the steps with small helper functions.

It deliberately imports nothing from ``kernel``: the board is read as plain
data (its numpy arrays, ``ruleset`` tables and ``rules`` dict), so the oracle
stays independent of the code it checks.

Places where the specification leaves a choice open are marked ``# SPEC:``
with the reading taken (the most literal one).

Public functions
----------------
reference_trace(board, a, b) -> list[tuple[int, str]]
reference_steps(board, a, b) -> list[Step]
reference_los(board, a, b, level_a=0, level_b=0, counters=None, unit_class=0) -> dict
hex_range(board, h1, h2) -> int
bridge_deck(board, h) -> bool, top_level(board, h) -> int, on_deck(board, h, level) -> bool
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

# LOS roles of terrain and hexside types (copied from kernel.maps.rulesets on
# purpose: the oracle imports nothing from kernel).
LOS_NONE, LOS_HINDRANCE, LOS_OBSTACLE = 0, 1, 2

# Effects of a step, ordered (§2: "one of none < blind < block").
NONE, BLIND, BLOCK = 0, 1, 2

# Vertex k of a hex is its centre plus VERTEX_OFFSETS[k] (§1: centre +
# (±2, 0), (±1, ±1)).  Numbered so that hexside d (0 = N, clockwise) joins
# vertices (d - 1) % 6 and d, as in the board's hexside numbering.
VERTEX_OFFSETS = ((1, -1), (2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1))

# Source kinds of ASL hindrance (§2 "Hindrances").
HINDRANCE_KINDS = ("terrain", "smoke", "vehicle")


# ============================================================================
# Small geometry helpers
# ============================================================================


def _cross(ux: int, uy: int, vx: int, vy: int) -> int:
    """cross(u, v) = u.x * v.y - u.y * v.x  (§1)."""
    return ux * vy - uy * vx


def _centre(board, h: int) -> tuple[int, int]:
    return int(board.x[h]), int(board.y[h])


def _vertices(board, h: int) -> list[tuple[int, int]]:
    cx, cy = _centre(board, h)
    return [(cx + ox, cy + oy) for ox, oy in VERTEX_OFFSETS]


def hex_range(board, h1: int, h2: int) -> int:
    """Range in hexes between two hexes, computed from their centres.

    Axial ``q = x / 3``, ``r = (y - q - 1) / 2``; range =
    ``(|dq| + |dr| + |dq + dr|) / 2``.
    """
    x1, y1 = _centre(board, h1)
    x2, y2 = _centre(board, h2)
    q1, q2 = x1 // 3, x2 // 3
    r1, r2 = (y1 - q1 - 1) // 2, (y2 - q2 - 1) // 2
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _ground(board, h: int) -> int:
    return int(board.ground_level[h])


def _direction_to(board, p: int, q: int) -> int:
    """Hexside number of hex ``p`` that it shares with adjacent hex ``q``."""
    for d in range(6):
        if int(board.neighbours[p, d]) == q:
            return d
    raise AssertionError(f"hexes {p} and {q} are not adjacent")


def _hexside_mask(board, h: int, d: int) -> int:
    return int(board.hexside[h, d])


def _bits(mask: int):
    """Indices of the set bits of ``mask``."""
    k = 0
    while mask:
        if mask & 1:
            yield k
        mask >>= 1
        k += 1


# ============================================================================
# §1 Trace
# ============================================================================


@dataclass
class Contact:
    """How the segment meets one hex (§1)."""

    hex: int
    kind: str          # "interior" | "hexside" | "vertex"
    t_in: Fraction
    t_out: Fraction
    side: int          # cross(D, centre - A): tie-break of equal midpoints
    edge: int = -1     # hexside contacts: the hexside (0..5) lying on the line

    @property
    def mid(self) -> Fraction:
        return (self.t_in + self.t_out) / 2


def _contact(board, h: int, ax: int, ay: int, dx: int, dy: int) -> Contact | None:
    """Contact of the segment A + t D, t in [0, 1], with hex ``h``; None if missed."""
    verts = _vertices(board, h)
    # §1: s_k = cross(D, V_k - A) for the six vertices.
    s = [_cross(dx, dy, vx - ax, vy - ay) for vx, vy in verts]
    # §1: the line meets H when some s_k <= 0 and some s_k >= 0.
    if not (min(s) <= 0 <= max(s)):
        return None

    # Intersect the line with each edge V_i -> V_j of the hexagon; a point P on
    # the line has parameter t = dot(P - A, D) / dot(D, D).
    dd = dx * dx + dy * dy
    ts: list[Fraction] = []
    for i in range(6):
        j = (i + 1) % 6
        (xi, yi), (xj, yj) = verts[i], verts[j]
        if s[i] == 0:
            ts.append(Fraction((xi - ax) * dx + (yi - ay) * dy, dd))
        elif s[j] != 0 and (s[i] > 0) != (s[j] > 0):
            lam = Fraction(s[i], s[i] - s[j])      # P = V_i + lam (V_j - V_i)
            px = xi + lam * (xj - xi)
            py = yi + lam * (yj - yi)
            ts.append(((px - ax) * dx + (py - ay) * dy) / dd)
    t_in, t_out = min(ts), max(ts)
    # §1: the segment meets H when that interval intersects [0, 1].
    if t_in > 1 or t_out < 0:
        return None

    positive = any(v > 0 for v in s)
    negative = any(v < 0 for v in s)
    zeros = [k for k in range(6) if s[k] == 0]
    edge = -1
    if positive and negative:
        kind = "interior"                  # §1: some s_k > 0 and some s_k < 0
    elif len(zeros) == 2:
        kind = "hexside"                   # §1: exactly two s_k = 0
        # The two zero vertices are adjacent: find the hexside joining them.
        for d in range(6):
            if {(d - 1) % 6, d} == set(zeros):
                edge = d
        assert edge >= 0, (h, s)
    elif len(zeros) == 1:
        kind = "vertex"                    # §1: exactly one s_k = 0
        assert t_in == t_out
    else:  # pragma: no cover - impossible for a non-degenerate segment
        raise AssertionError(f"hex {h}: vertex signs {s}")
    cx, cy = _centre(board, h)
    side = _cross(dx, dy, cx - ax, cy - ay)
    return Contact(h, kind, t_in, t_out, side, edge)


def trace_contacts(board, a: int, b: int) -> list[Contact]:
    """Every on-map hex the segment from centre a to centre b meets, in order (§1)."""
    a, b = int(a), int(b)
    if a == b:
        # §1: when a == b the trace is [a].
        return [Contact(a, "interior", Fraction(0), Fraction(0), 0)]
    ax, ay = _centre(board, a)
    bx, by = _centre(board, b)
    dx, dy = bx - ax, by - ay
    contacts = []
    for h in range(len(board.x)):          # naive: every hex of the board
        c = _contact(board, h, ax, ay, dx, dy)
        if c is not None:
            contacts.append(c)
    # §1: ordered by the interval midpoint; ties (the two hexes of a hexside
    # run) by cross(D, centre - A) ascending.
    contacts.sort(key=lambda c: (c.mid, c.side))
    # §1: the first entry is the viewer's hex and the last the target's.
    assert contacts[0].hex == a and contacts[0].kind == "interior", contacts[0]
    assert contacts[-1].hex == b and contacts[-1].kind == "interior", contacts[-1]
    return contacts


def reference_trace(board, a: int, b: int) -> list[tuple[int, str]]:
    """``[(hex, kind), ...]`` for every on-map hex the centre-to-centre segment meets.

    ``kind`` is ``"interior"``, ``"hexside"`` or ``"vertex"`` (§1).  The first
    entry is ``a``, the last ``b``; ``reference_trace(board, b, a)`` is the
    exact reverse.
    """
    return [(c.hex, c.kind) for c in trace_contacts(board, a, b)]


# ---------------------------------------------------------------- steps (§1)


@dataclass
class Step:
    """One step of the walk along the trace (§1 "Steps").

    kind ``"interior"`` / ``"vertex"``: ``hexes = (h,)``;
    ``"run"``: ``hexes`` = its sides in trace order (one or two);
    ``"crossing"``: ``hexes = (P, Q)`` in trace order, ``mask`` = the features
    of hexside P|Q.  A run's ``mask`` holds the features of the hexside it
    runs along.
    """

    kind: str
    hexes: tuple[int, ...]
    position: Fraction
    mask: int = 0
    order: int = 0       # trace index of its first hex (stable tie-break)


def _steps_from_contacts(board, contacts: list[Contact]) -> list[Step]:
    if len(contacts) <= 1:
        return []
    steps: list[Step] = []
    runs: dict[tuple[int, int], Step] = {}
    for index, c in enumerate(contacts):
        if c.kind == "interior":
            # §1: each non-end interior contact (the ends are never steps).
            if index != 0 and index != len(contacts) - 1:
                steps.append(Step("interior", (c.hex,), c.mid, 0, index))
        elif c.kind == "vertex":
            # §1: each vertex contact.
            steps.append(Step("vertex", (c.hex,), c.mid, 0, index))
        else:
            # §1: a run is a pair of hexside contacts sharing one hexside (one
            # step for both sides); with one side off the map it has one side.
            # The shared hexside is identified by its midpoint (doubled coords).
            verts = _vertices(board, c.hex)
            v1, v2 = verts[(c.edge - 1) % 6], verts[c.edge]
            key = (v1[0] + v2[0], v1[1] + v2[1])
            if key in runs:
                run = runs[key]
                assert run.position == c.mid
                run.hexes = run.hexes + (c.hex,)
                assert run.mask == _hexside_mask(board, c.hex, c.edge)
            else:
                run = Step("run", (c.hex,), c.mid, _hexside_mask(board, c.hex, c.edge), index)
                runs[key] = run
                steps.append(run)

    # §1 crossings: two consecutive interior contacts P, Q meeting at one point
    # (P.t_out == Q.t_in) cross hexside P|Q there.
    # SPEC: "consecutive interior contacts" is read as consecutive among the
    # interior contacts of the trace (a vertex contact touched at that same
    # point may lie between them in the trace, as the spec's own example of a
    # crossing through a vertex requires).
    interiors = [(i, c) for i, c in enumerate(contacts) if c.kind == "interior"]
    for (ip, p), (iq, q) in zip(interiors, interiors[1:]):
        if p.t_out == q.t_in:
            d = _direction_to(board, p.hex, q.hex)
            steps.append(Step("crossing", (p.hex, q.hex), p.t_out, _hexside_mask(board, p.hex, d), iq))

    # §1: steps in order of position; at equal positions hex steps come
    # before crossings.
    steps.sort(key=lambda s: (s.position, s.kind == "crossing", s.order))
    return steps


def reference_steps(board, a: int, b: int) -> list[Step]:
    """The steps of the LOS from ``a`` to ``b`` in order (§1)."""
    return _steps_from_contacts(board, trace_contacts(board, a, b))


def _crossed_hexes(contacts: list[Contact]) -> list[int]:
    """Hexes *crossed*: non-end interior contacts and sides of runs, in trace order."""
    out = []
    for index, c in enumerate(contacts):
        if c.kind == "interior" and 0 < index < len(contacts) - 1:
            out.append(c.hex)
        elif c.kind == "hexside":
            out.append(c.hex)
    return out


# ============================================================================
# Shared helpers for the results
# ============================================================================


def bridge_deck(board, h: int) -> bool:
    """The hex is a *bridge hex*: it holds a terrain type with ``deck = true``
    (``ruleset.terrain_deck``; spec "Bridge decks").  Read from the terrain
    bits and the ruleset table, not from the board's derived arrays."""
    deck = getattr(board.ruleset, "terrain_deck", None)
    if deck is None:                       # a ruleset without decks
        return False
    return any(bool(deck[t]) for t in _bits(int(board.terrain[h])))


def top_level(board, h: int) -> int:
    """Highest Location level of hex ``h``: its upper building levels, plus
    the deck (level 1) of a bridge hex (which has no building levels)."""
    return int(board.building_levels[h]) + (1 if bridge_deck(board, h) else 0)


def on_deck(board, h: int, level: int) -> bool:
    """The Location ``(h, level)`` is on a bridge deck."""
    return bridge_deck(board, h) and int(level) == int(board.building_levels[h]) + 1


def _check_level(board, h: int, level: int, what: str) -> None:
    """A Location level must name a Location of the hex: ``0..top_level``."""
    top = top_level(board, h)
    if not 0 <= int(level) <= top:
        raise ValueError(f"{what} is {int(level)} in {board.names[h]}: expected a level of its Locations 0..{top}")


def _target_terrain_cover(board, b: int, level_b: int, uc: int) -> int:
    """§2 Cover: the target hex's terrain cover, 0 for a target on a bridge deck."""
    if on_deck(board, b, level_b):
        return 0                           # V&V 10.31, adopted for ASL [reading]
    return _terrain_cover(board, b, uc)


def _unit_class_index(board, unit_class) -> int:
    if isinstance(unit_class, str):
        return list(board.ruleset.unit_classes).index(unit_class)
    return int(unit_class)


def _terrain_cover(board, h: int, uc: int) -> int:
    """Terrain cover of hex ``h`` for firing unit class ``uc``: its features'
    covers added up (ASL A2.4, rules.cover_combine = "sum") or the largest."""
    table = board.ruleset.terrain_cover
    values = [int(table[uc, t]) for t in _bits(int(board.terrain[h]))]
    if board.ruleset.rules["cover_combine"] == "sum":
        return sum(values)
    return max(values, default=0)


def _hexside_cover(board, mask: int, uc: int) -> int:
    table = board.ruleset.hexside_cover
    return max((int(table[uc, k]) for k in _bits(mask)), default=0)


def _counter(counters, name: str, h: int, default=0):
    if counters is None or counters.get(name) is None:
        return default
    return counters[name][h]


def _result(visible=True, hindrance=0, blocked_at=-1, reason=None, blind=False,
            continuous_slope=False, cover=0) -> dict:
    return {
        "visible": bool(visible),
        "hindrance": int(hindrance),
        "blocked_at": int(blocked_at),
        "reason": reason,
        "blind": bool(blind),
        "continuous_slope": bool(continuous_slope),
        "cover": int(cover),
    }


# ============================================================================
# §2 ASL
# ============================================================================


def _asl_obstacle_effect(board, h: int, S2: int, T2: int, rS: int, rT: int) -> int:
    """§2 obstacle clause of the effect of hex ``h`` (half levels)."""
    if int(board.obstacle_height[h]) <= 0:
        return NONE
    G = 2 * _ground(board, h)
    O = G + int(board.obstacle_height[h])
    if S2 == T2:
        return BLOCK if O > S2 else NONE          # same level: O > S2 blocks
    if O >= S2:
        return BLOCK                              # above both / height advantage
    if T2 < O < S2:
        # A6.4; integer division rounding down.
        bound = max((2 * O + 2 * (rS // 5) - S2 - T2 + 2) // 2, 1)
        return BLIND if rT <= bound else NONE
    return NONE                                   # O <= T2


def _asl_ground_effect(board, h: int, S2: int, T2: int, rS: int, rT: int) -> int:
    """§2 ground clause of the effect of hex ``h`` (half levels)."""
    G = 2 * _ground(board, h)
    if G > S2:
        return BLOCK                              # same or different levels
    if S2 != T2 and T2 < G <= S2:
        # a bare crest line
        bound = max((2 * G + 2 * (rS // 5) - S2 - T2) // 2, 0)
        return BLIND if rT <= bound else NONE
    return NONE


def _asl_hex_effect(board, h: int, S2: int, T2: int, rS: int, rT: int) -> tuple[int, str | None]:
    """§2 "Effect of a hex": the larger of the ground and obstacle effects, with its reason."""
    ground = _asl_ground_effect(board, h, S2, T2, rS, rT)
    obstacle = _asl_obstacle_effect(board, h, S2, T2, rS, rT)
    # SPEC: when ground and obstacle give the same effect the reason is taken
    # from the ground ("hill"); any blind effect is reported as "blind hex".
    effect = max(ground, obstacle)
    if effect == NONE:
        return NONE, None
    if effect == BLIND:
        return BLIND, "blind hex"
    return BLOCK, ("hill" if ground == BLOCK else "obstacle")


def _asl_inherent_obstacle_effect(board, h, S2, T2, rS, rT) -> tuple[int, str | None]:
    """Obstacle effect of ``h`` counted only if its obstacle is inherent (B.6)."""
    if not bool(board.obstacle_inherent[h]):
        return NONE, None
    effect = _asl_obstacle_effect(board, h, S2, T2, rS, rT)
    return effect, {NONE: None, BLIND: "blind hex", BLOCK: "obstacle"}[effect]


def _asl_hindrance_sources(board, h: int, S2: int, T2: int, slope: bool, counters) -> dict:
    """§2 "Hindrances": applicable sources of hex ``h`` as {kind: (drm, inherent)}."""
    G = 2 * _ground(board, h)
    same = S2 == T2

    def applies(top: int) -> bool:
        if slope:
            return True                    # under a continuous slope: always
        if same:
            return top > S2 and G <= S2
        return top >= S2

    sources = {}
    drm = int(board.hindrance[h])
    if drm > 0 and applies(G + int(board.hindrance_height[h])):
        sources["terrain"] = (drm, bool(board.hindrance_inherent[h]))
    smoke = int(_counter(counters, "smoke", h, 0))
    if smoke > 0:
        height = int(_counter(counters, "smoke_height", h, 2))
        if height <= 0:
            height = 2                     # default 2 where smoke > 0
        if applies(G + 2 * height):
            sources["smoke"] = (smoke, True)
    # SPEC: vehicles/wrecks have no top height in the spec; they apply exactly
    # when S2 == T2 == G.  Under a continuous slope the step is judged at
    # S2 = T2 = G (the hex's own level), so a vehicle there counts.
    if bool(_counter(counters, "vehicles", h, False)) and S2 == T2 == G:
        sources["vehicle"] = (1, True)
    return sources


def _asl_run_drm(side_sources: list[dict]) -> int:
    """§2 run DRM: per source kind, B.6 counted once along the hexside."""
    total = 0
    for kind in HINDRANCE_KINDS:
        drms, inherent = [], []
        for sources in side_sources:
            drm, inh = sources.get(kind, (0, False))
            drms.append(drm)
            inherent.append(drm if inh else 0)
        while len(drms) < 2:               # a missing side has nothing
            drms.append(0)
        # SPEC: "the larger DRM among the sides' applicable inherent sources,
        # or, when non-inherent, the smaller DRM if both sides have it" is
        # read as max(min(X, Y), inherent X, inherent Y) -- the same shape as
        # the run effect rule; it only differs from either half when one side
        # is inherent and the other not.
        total += max([min(drms)] + inherent)
    return total


def _asl_los(board, a, b, level_a, level_b, counters, uc, contacts, steps) -> dict:
    ga, gb = _ground(board, a), _ground(board, b)
    # §2 Ends: 2 x (ground + Location level); a deck Location (level 1 of a
    # bridge hex) is at ground + 1 like any other level-1 Location.
    abs_a, abs_b = 2 * (ga + level_a), 2 * (gb + level_b)
    # §2 Ends: S2 >= T2; the higher end is the end with S2 (either, if equal:
    # we take the viewer).
    if abs_a >= abs_b:
        high, low, S2, T2 = a, b, abs_a, abs_b
    else:
        high, low, S2, T2 = b, a, abs_b, abs_a
    ends = (a, b)

    def rS(h):
        return hex_range(board, high, h)

    def rT(h):
        return hex_range(board, h, low)

    # §2 Continuous slope (B.5).
    crossed = _crossed_hexes(contacts)
    slope = S2 > T2 and len(crossed) > 0 and all(S2 // 2 - _ground(board, h) == rS(h) for h in crossed)

    def levels_for(h: int) -> tuple[int, int]:
        """(S2, T2) a hex is judged at: under a slope, same level at g(h)."""
        if slope:
            return 2 * _ground(board, h), 2 * _ground(board, h)
        return S2, T2

    def hex_effect(h):
        s2, t2 = levels_for(h)
        return _asl_hex_effect(board, h, s2, t2, rS(h), rT(h))

    def inherent_effect(h):
        s2, t2 = levels_for(h)
        return _asl_inherent_obstacle_effect(board, h, s2, t2, rS(h), rT(h))

    def sources(h):
        s2, t2 = levels_for(h)
        return _asl_hindrance_sources(board, h, s2, t2, slope, counters)

    rules = board.ruleset.rules
    cap = int(rules.get("hindrance_cap", 0))
    roles = board.ruleset.hexside_los_role
    heights = board.ruleset.hexside_height

    total = 0
    blocked_at, reason, blind = -1, None, False
    hard_block = False
    for step in steps:
        effect, why, where, drm = NONE, None, -1, 0
        if step.kind == "interior":
            # interior step: the hex's effect applies; DRM = sum of its sources.
            h = step.hexes[0]
            effect, why = hex_effect(h)
            where = h
            drm = sum(d for d, _ in sources(h).values())
        elif step.kind == "vertex":
            # vertex step: only an inherent obstacle applies; DRM = its
            # applicable inherent sources.
            h = step.hexes[0]
            effect, why = inherent_effect(h)
            where = h
            drm = sum(d for d, inh in sources(h).values() if inh)
        elif step.kind == "run":
            # run X|Y: max(min(effect X, effect Y), inherent obstacle effect
            # of X, of Y); a missing side has effect none.  Hexside features
            # along a run have no effect in ASL [reading].
            sides = step.hexes
            full = [hex_effect(h) for h in sides]
            inh = [inherent_effect(h) for h in sides]
            both = min(e for e, _ in full) if len(sides) == 2 else NONE
            effect = max([both] + [e for e, _ in inh])
            # §5: blocked_at of a run is the side reported first.
            # SPEC: "reported first" = first in trace order, even when the
            # block comes from the other side's inherent obstacle alone.
            where = sides[0]
            # SPEC: the reason is that of the first side (in trace order)
            # whose own full effect reaches the run's effect.
            why = None
            if effect > NONE:
                for e, r in full:
                    if e >= effect:
                        why = "blind hex" if effect == BLIND else r
                        break
            drm = _asl_run_drm([sources(h) for h in sides])
        else:
            # crossing P|Q of a hexside with an obstacle feature.
            p, q = step.hexes
            where = q                          # §5: the hex beyond it
            tallest = max((int(heights[k]) for k in _bits(step.mask) if int(roles[k]) == LOS_OBSTACLE), default=0)
            if tallest > 0 and p not in ends and q not in ends:   # B9.2
                G = 2 * max(_ground(board, p), _ground(board, q))
                O = G + tallest
                # under a continuous slope: judged same level at its base
                s2, t2 = (G, G) if slope else (S2, T2)
                if s2 == t2:
                    effect = BLOCK if O > s2 else NONE
                else:
                    effect = BLOCK if O >= s2 else NONE   # no blind hexes behind walls
                why = "hexside" if effect else None
            drm = 0                            # crossings add nothing
        total += drm
        # §5 blind: the LOS is blocked and blind-hex effects are all that
        # block it (no step blocks outright and the hindrance cap is not reached).
        if effect == BLOCK:
            hard_block = True
        # SPEC: "`hindrance` is the total over all steps" is taken literally:
        # steps beyond the blocking step still add to it.
        if blocked_at >= 0:
            continue
        if effect > NONE:
            # SPEC: within one step an obstacle/blind effect is checked before
            # the hindrance cap.
            blocked_at, reason, blind = where, why, effect == BLIND
        elif cap > 0 and total >= cap:
            blocked_at, reason = where, "hindrance"

    # §2 Cover: target terrain cover (0 for a target on a bridge deck), and
    # the features of the target's hexsides containing the point where the
    # LOS enters the target hex (they count on a deck too).
    cover = _target_terrain_cover(board, b, level_b, uc)
    for d in _entry_hexsides(board, a, b, contacts[-1]):
        cover = max(cover, _hexside_cover(board, _hexside_mask(board, b, d), uc))
    blind = blocked_at >= 0 and not hard_block and not (cap > 0 and total >= cap)
    return _result(blocked_at < 0, total, blocked_at, reason, blind, slope, cover)


def _entry_hexsides(board, a: int, b: int, target: Contact) -> list[int]:
    """Hexsides of ``b`` containing the point where the LOS enters it (one, or two at a vertex)."""
    ax, ay = _centre(board, a)
    bx, by = _centre(board, b)
    t = target.t_in
    px, py = ax + t * (bx - ax), ay + t * (by - ay)
    verts = _vertices(board, b)
    found = []
    for d in range(6):
        (x1, y1), (x2, y2) = verts[(d - 1) % 6], verts[d]
        on_line = _cross(x2 - x1, y2 - y1, px - x1, py - y1) == 0
        within = min(x1, x2) <= px <= max(x1, x2) and min(y1, y2) <= py <= max(y1, y2)
        if on_line and within:
            found.append(d)
    assert 1 <= len(found) <= 2, (a, b, found)
    return found


# ============================================================================
# §3 Valor & Victory
# ============================================================================


def _vv_los(board, a, b, counters, uc, contacts, steps) -> dict:
    # SPEC: §3 "Levels are ground levels": the Location levels level_a /
    # level_b are ignored in V&V.
    lo, hi = sorted((_ground(board, a), _ground(board, b)))
    ends = (a, b)
    # 10.7 slope hexes: when lo == 0 and hi == 2, take the steps of the trace
    # (interior steps and hexside runs; not vertex touches) in order from the
    # Level 2 end, whichever end is the viewer; the first step holding a hex
    # with g == 1 gives the slope hexes: that hex, or both sides of a run
    # when both are at g == 1.
    slope_hexes: set[int] = set()
    if lo == 0 and hi == 2:
        level2_end, ground_end = (a, b) if _ground(board, a) == 2 else (b, a)
        # SPEC: the steps "from the Level 2 end" are computed literally, as
        # the steps of the trace from the Level 2 end to the ground end.
        for step in reference_steps(board, level2_end, ground_end):
            if step.kind not in ("interior", "run"):
                continue
            at_level1 = [h for h in step.hexes if _ground(board, h) == 1]
            if at_level1:
                slope_hexes = set(at_level1)
                break

    def effect(h) -> tuple[int, str | None]:
        g = _ground(board, h)
        # SPEC: when a hex both is too high and holds an obstacle the reason
        # is "hill" (as in ASL, ground first).
        if g > hi:
            return BLOCK, "hill"
        if g > lo and h not in slope_hexes:   # a slope hex does not block as a hill
            return BLOCK, "hill"
        if int(board.obstacle_height[h]) > 0:   # building, woods, jungle
            return BLOCK, "obstacle"
        return NONE, None

    roles = board.ruleset.hexside_los_role
    hind = board.ruleset.hexside_hindrance

    # SPEC: several hindrance features on one hexside count once, at the
    # largest DRM.
    def hexside_drm(mask):
        return max((int(hind[k]) for k in _bits(mask) if int(roles[k]) == LOS_HINDRANCE), default=0)

    def hexside_blocks(mask):
        return any(int(roles[k]) == LOS_OBSTACLE for k in _bits(mask))

    total = 0
    blocked_at, reason = -1, None
    for step in steps:
        eff, why, where, drm = NONE, None, -1, 0
        if step.kind == "interior":
            h = step.hexes[0]
            eff, why = effect(h)
            where = h
            drm = int(board.hindrance[h])
        elif step.kind == "vertex":
            pass                              # vertex step: nothing [reading]
        elif step.kind == "run":
            # 9.4: each side is blocking, hindrance or open.
            # SPEC: a missing (off-map) side is open.
            sides = step.hexes
            where = sides[0]                  # §5: the side reported first
            classes = []
            for h in sides:
                e, r = effect(h)
                if e == BLOCK:
                    classes.append(("blocking", r))
                elif int(board.hindrance[h]) > 0:
                    classes.append(("hindrance", None))
                else:
                    classes.append(("open", None))
            while len(classes) < 2:
                classes.append(("open", None))
            kinds = [k for k, _ in classes]
            if kinds == ["blocking", "blocking"]:
                eff, why = BLOCK, classes[0][1]
            elif "hindrance" in kinds and kinds.count("open") == 0:
                drm += 1                       # one blocking/hindrance, other hindrance
            # along a wall/hedge: +1 (even next to the firer); along a
            # hedgerow: blocked.
            # SPEC: the sides are judged before the hexside feature, so a run
            # blocked both ways reports the sides' reason.
            drm += hexside_drm(step.mask)
            if eff == NONE and hexside_blocks(step.mask):
                eff, why = BLOCK, "hexside"
        else:
            p, q = step.hexes
            where = q                          # §5: the hex beyond it
            next_to_end = p in ends or q in ends
            if not next_to_end:               # 10.10: firing over the wall
                drm = hexside_drm(step.mask)
                if hexside_blocks(step.mask):
                    eff, why = BLOCK, "hexside"
        total += drm
        if blocked_at < 0 and eff > NONE:
            blocked_at, reason = where, why
        # hindrances never block (hindrance_cap = 0)
    cover = _terrain_cover(board, b, uc)
    return _result(blocked_at < 0, total, blocked_at, reason, False, False, cover)


# ============================================================================
# §4 CCN
# ============================================================================


def _ccn_los(board, a, b, counters, uc, contacts, steps) -> dict:
    # SPEC: CCN levels are the ground levels; level_a / level_b are ignored.
    ga, gb = _ground(board, a), _ground(board, b)
    lo = min(ga, gb)

    def effect(h) -> tuple[int, str | None]:
        # SPEC: reasons, in this order of precedence: "hill" (g > lo),
        # "obstacle" (blocking terrain), "unit" (a unit or leader).
        if _ground(board, h) > lo:
            return BLOCK, "hill"
        if int(board.obstacle_height[h]) > 0:   # forest, town, rugged hill, orchard
            return BLOCK, "obstacle"
        if bool(_counter(counters, "units", h, False)):
            return BLOCK, "unit"
        return NONE, None

    blocked_at, reason = -1, None
    for step in steps:
        eff, why, where = NONE, None, -1
        if step.kind == "interior":
            eff, why = effect(step.hexes[0])
            where = step.hexes[0]
        elif step.kind == "run":
            # blocked only if both sides block (a missing side does not)
            sides = step.hexes
            if len(sides) == 2:
                e0, e1 = effect(sides[0]), effect(sides[1])
                if e0[0] == BLOCK and e1[0] == BLOCK:
                    eff, why, where = BLOCK, e0[1], sides[0]
        # vertex steps and crossings: nothing
        if eff > NONE:
            blocked_at, reason = where, why
            break
    # Cover: terrain cover plus uphill / downhill cover of the firing class.
    cover = _terrain_cover(board, b, uc)
    if gb > ga:
        cover += int(board.ruleset.rules["uphill_cover"][uc])
    elif gb < ga:
        cover += int(board.ruleset.rules["downhill_cover"][uc])
    return _result(blocked_at < 0, 0, blocked_at, reason, False, False, cover)


# ============================================================================
# Entry point
# ============================================================================


def reference_los(board, a: int, b: int, level_a: int = 0, level_b: int = 0,
                  counters: dict | None = None, unit_class=0) -> dict:
    """LOS from the viewer in hex ``a`` to the target in hex ``b`` (docs/los-semantics.md).

    Parameters
    ----------
    board
        A compiled board (read as plain data).
    a, b
        Hex indices of the viewer and the target.
    level_a, level_b
        Location levels above ground (whole levels; ASL only): 0 (ground, or
        beneath a bridge), ``1..building_levels`` (upper building levels) or
        1 on a bridge deck (absolute level ``ground + 1``; a target there has
        no terrain cover).  ValueError naming the hex when the hex has no
        such Location.
    counters
        None or a dict of optional per-hex arrays: ``smoke`` (DRM),
        ``smoke_height`` (levels, default 2), ``vehicles`` (bool), ``units``
        (bool, CCN).
    unit_class
        Firing unit class (index or name) for the cover tables.

    Returns
    -------
    dict with ``visible``, ``hindrance`` (total over all steps),
    ``blocked_at`` (hex or -1), ``reason`` (None, "hill", "obstacle",
    "hexside", "blind hex", "hindrance", "unit"), ``blind``,
    ``continuous_slope`` and ``cover``.
    """
    a, b = int(a), int(b)
    n = len(board.x)
    if not (0 <= a < n and 0 <= b < n):
        raise IndexError(f"hex index out of range: a={a}, b={b}, board has {n} hexes")
    if counters:
        for key, array in counters.items():
            if array is not None and len(array) != n:
                raise ValueError(f"counters[{key!r}] has length {len(array)}: expected {n}")
    uc = _unit_class_index(board, unit_class)
    model = board.ruleset.rules["los_model"]
    if model not in ("asl", "valor-victory", "ccn"):
        raise ValueError(f"unknown los_model {model!r}")

    # Location levels name Locations of the hex: 0 (ground, or beneath a
    # bridge), 1..building_levels (upper building levels), and 1 on a bridge
    # deck ("Bridge decks": a bridge hex has levels 0 and 1).
    # SPEC: checked under every model, though only ASL uses the levels.
    _check_level(board, a, int(level_a), "level_a")
    _check_level(board, b, int(level_b), "level_b")

    if a == b:
        # §1/brief: a == b is visible with no hindrance.
        # SPEC: its cover is the hex's terrain cover alone (there is no entry
        # point, and no uphill/downhill in CCN); in ASL a target on a bridge
        # deck has none ("Bridge decks").
        if model == "asl":
            return _result(True, 0, -1, None, False, False, _target_terrain_cover(board, b, int(level_b), uc))
        return _result(True, 0, -1, None, False, False, _terrain_cover(board, b, uc))

    contacts = trace_contacts(board, a, b)
    steps = _steps_from_contacts(board, contacts)
    if model == "asl":
        return _asl_los(board, a, b, int(level_a), int(level_b), counters, uc, contacts, steps)
    if model == "valor-victory":
        return _vv_los(board, a, b, counters, uc, contacts, steps)
    return _ccn_los(board, a, b, counters, uc, contacts, steps)
