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

The hill, wall and orchard rules are taken from the rules digest (``shared/rules``
README, §3 and §4) directly, where ``docs/los-semantics.md`` does not state
them yet:

* A6.2 height advantage, B10.2: hill ground at the higher end's level, in a
  hex crossed between a higher and a lower end, blocks (``_asl_ground_effect``);
* building heights: a building with N upper levels is N + ½ levels high, a
  single-storey building 1 level, computed here from the terrain and
  ``building_levels`` (``obstacle_heights``), not read from the board's
  ``obstacle_height``;
* B9 walls and hedges along a LOS that runs exactly along hexsides, and
  crossed at a vertex where the wall/hedge line continues on both sides of
  the LOS (``run_wall_effect`` and the vertex crossings in ``_asl_los``);
* B14.2 orchards in season: a one-level inherent obstacle to a LOS between
  different levels, besides their +1 inherent hindrance
  (``_asl_obstacle_heights``);
* A6.3, B19-B20 depressions: the banks of the depression of an end IN it
  block a LOS that crosses or runs along them (``_depression_banks``);
* V&V 10.10: only the firer's own wall/hedge is ignored; the one crossed into
  the target's hex still gives +1 (``_vv_los``).

Public functions
----------------
reference_trace(board, a, b) -> list[tuple[int, str]]
reference_steps(board, a, b) -> list[Step]
reference_los(board, a, b, level_a=0, level_b=0, counters=None, unit_class=0) -> dict
hex_range(board, h1, h2) -> int
bridge_deck(board, h) -> bool, top_level(board, h) -> int, on_deck(board, h, level) -> bool
obstacle_heights(board, h) -> (height, inherent height), terrain_hindrance(board, h) -> (drm, height, inherent)
orchard_in_season(board, h) -> bool, depression_hex(board, h) -> bool
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
# Terrain, read from the hex's terrain bits and the ruleset tables
# ============================================================================
#
# The oracle derives obstacle and hindrance heights itself from the terrain
# bits, ``building_levels`` and the ruleset's per-terrain tables, not from the
# board's derived arrays (``obstacle_height``, ``hindrance``...), which come
# from the same compiler as the kernels' inputs.

# Terrain the rules single out by name (the digest's words).
ORCHARD_TERRAIN = "orchard"                  # B14.2
DEPRESSION_TERRAIN = ("gully", "stream")     # A6.3, B19-B20: "Depressions (gully, stream)"
# B14.2: an in-season orchard is a one-level obstacle (half levels).
ORCHARD_HEIGHT = 2


def _terrain_types(board, h: int) -> list[int]:
    return list(_bits(int(board.terrain[h])))


def _is_building(ruleset, t: int) -> bool:
    """Terrain type ``t`` is a building, whose upper levels make it taller.

    Read from the ruleset's ``multi_level`` table; a ruleset compiled without
    that table: a terrain named ``...building``."""
    table = getattr(ruleset, "terrain_multi_level", None)
    if table is not None:
        return bool(table[t])
    return ruleset.terrain_names[t].endswith("building")


def obstacle_heights(board, h: int) -> tuple[int, int]:
    """(height, inherent height) of the LOS obstacles of hex ``h``, in half levels (0: none).

    Each obstacle terrain (``los = "obstacle"``) has its ruleset height (woods,
    single-storey building, rubble: 1 level = 2); a building with N >= 1
    upper levels is N + 1/2 levels high (digest §3 "Elevation": 1½, 2½, 3½),
    i.e. 2N + 1 half levels.  Several obstacles: the tallest; the inherent
    height counts only inherent obstacles (rubble, B.6).
    """
    rs = board.ruleset
    levels = int(board.building_levels[h])
    height = inherent = 0
    for t in _terrain_types(board, h):
        if int(rs.terrain_los_role[t]) != LOS_OBSTACLE:
            continue
        own = int(rs.terrain_height[t])
        if levels > 0 and _is_building(rs, t):
            own = 2 * levels + 1
        height = max(height, own)
        if bool(rs.terrain_inherent[t]):
            inherent = max(inherent, own)
    return height, inherent


def orchard_in_season(board, h: int) -> bool:
    """Hex ``h`` holds an orchard in season: the orchard terrain with its
    hindrance role (the ruleset switch ``orchards_in_season`` off turns it
    into Open Ground, ``los = "none"``)."""
    rs = board.ruleset
    return any(rs.terrain_names[t] == ORCHARD_TERRAIN and int(rs.terrain_los_role[t]) == LOS_HINDRANCE
               for t in _terrain_types(board, h))


def terrain_hindrance(board, h: int) -> tuple[int, int, bool]:
    """(DRM, height in half levels, inherent) of the terrain hindrances of hex ``h``.

    Each hindrance terrain: its DRM; its height half a level if half-level
    (grain, brush, marsh), else its ruleset height, else one level; inherent
    if the ruleset says so.  Several: the largest DRM and height, inherent if
    any is.
    """
    rs = board.ruleset
    drm = height = 0
    inherent = False
    for t in _terrain_types(board, h):
        if int(rs.terrain_los_role[t]) != LOS_HINDRANCE:
            continue
        if bool(rs.terrain_half_level[t]):
            own = 1
        elif int(rs.terrain_height[t]) > 0:
            own = int(rs.terrain_height[t])
        else:
            own = 2
        drm = max(drm, int(rs.terrain_hindrance[t]))
        height = max(height, own)
        inherent = inherent or bool(rs.terrain_inherent[t])
    return drm, height, inherent


def depression_hex(board, h: int) -> bool:
    """Hex ``h`` holds depression terrain (gully, stream)."""
    names = board.ruleset.terrain_names
    return any(names[t] in DEPRESSION_TERRAIN for t in _terrain_types(board, h))


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


def _rooftop_drop(board, h: int, level: int) -> int:
    """1 when (h, level) is the hex's rooftop (one level above a multi-hex building's top level), which
    sees from half a level lower (VASL's reading; ASL only), else 0."""
    rooftop = getattr(board, "rooftop", None)
    if rooftop is None or not bool(rooftop[h]) or level == 0:
        return 0
    return 1 if level == int(board.building_levels[h]) + 1 else 0


def top_level(board, h: int) -> int:
    """Highest Location level of hex ``h``: its upper building levels, plus
    the deck (level 1) of a bridge hex (which has no building levels), plus
    the rooftop of a multi-hex building (one level above its top level)."""
    rooftop = getattr(board, "rooftop", None)
    roof = 1 if rooftop is not None and bool(rooftop[h]) else 0
    return int(board.building_levels[h]) + (1 if bridge_deck(board, h) else 0) + roof


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


def _smoke_band(board, h: int, counters) -> tuple[int, int]:
    """(base, top) in half levels of the SMOKE of hex ``h``: its Location's height (``smoke_base``, the
    level it was placed at, 0 = ground; a rooftop half a level lower) and that plus its height."""
    height = int(_counter(counters, "smoke_height", h, 2))
    if height <= 0:
        height = 2                     # default 2 where smoke > 0
    level = int(_counter(counters, "smoke_base", h, 0))
    base = 2 * (_ground(board, h) + level) - _rooftop_drop(board, h, level)
    return base, base + 2 * height


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


def _asl_height_effect(G: int, O: int, S2: int, T2: int, rS: int, rT: int) -> int:
    """§2 obstacle clause for an obstacle of top ``O`` on ground ``G`` (half levels)."""
    if O <= G:
        return NONE
    if S2 == T2:
        return BLOCK if O > S2 else NONE          # same level: O > S2 blocks
    if O >= S2:
        return BLOCK                              # above both / height advantage (A6.2)
    if T2 < O < S2:
        # A6.4; integer division rounding down.
        bound = max((2 * O + 2 * (rS // 5) - S2 - T2 + 2) // 2, 1)
        return BLIND if rT <= bound else NONE
    return NONE                                   # O <= T2


def _asl_obstacle_heights(board, h: int, S2: int, T2: int) -> tuple[int, int]:
    """(height, inherent height) of the obstacles of ``h`` for a LOS judged at ``S2``, ``T2``.

    The hex's own obstacles (:func:`obstacle_heights`), plus an in-season
    orchard when the levels differ: B14.2, "a one-level obstacle to a LOS from
    higher ground that crosses them".  Orchards are inherent terrain (B.6: the
    whole hex, hexsides included, even at a vertex touch), so the orchard
    obstacle is an inherent one.
    SPEC: "from higher ground" is read as "the ends are at different levels"
    (S2 != T2 as judged; a continuous slope LOS is judged same level, B.5), the
    same split as between the same-level and different-level clauses of §2,
    "and the higher end above the orchard's ground" (S2 > 2g): an end on the
    orchard's own level does not look down on it, and sees only its +1
    hindrance (docs/los-semantics.md, "obstacle from above").
    """
    height, inherent = obstacle_heights(board, h)
    if S2 != T2 and S2 > 2 * _ground(board, h) and orchard_in_season(board, h):
        height = max(height, ORCHARD_HEIGHT)
        inherent = max(inherent, ORCHARD_HEIGHT)
    return height, inherent


def _asl_obstacle_effect(board, h: int, S2: int, T2: int, rS: int, rT: int) -> int:
    """§2 obstacle clause of the effect of hex ``h`` (half levels)."""
    height, _ = _asl_obstacle_heights(board, h, S2, T2)
    G = 2 * _ground(board, h)
    return _asl_height_effect(G, G + height, S2, T2, rS, rT)


def _asl_ground_effect(board, h: int, S2: int, T2: int, rS: int, rT: int) -> int:
    """§2 ground clause of the effect of hex ``h`` (half levels)."""
    G = 2 * _ground(board, h)
    if G > S2:
        return BLOCK                              # same or different levels
    if S2 != T2 and G == S2:
        # A6.2 height advantage, B10.2: hill ground at the higher end's level,
        # in a hex the LOS crosses (never the higher end's own hex: the ends
        # are not steps), blocks: the higher unit sees down only across a
        # crest line as its LOS leaves its own hex and never recrosses one of
        # the same or a higher level.
        # SPEC: the digest's EXC "a crest line in an adjacent lower hex" needs
        # no clause here: in the hex-level model a lower hex has G < S2 and
        # never meets this test.
        return BLOCK
    if S2 != T2 and T2 < G < S2:
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
    """Obstacle effect of ``h`` counting only its inherent obstacles (B.6: rubble; an
    in-season orchard seen from higher ground)."""
    _, inherent = _asl_obstacle_heights(board, h, S2, T2)
    G = 2 * _ground(board, h)
    effect = _asl_height_effect(G, G + inherent, S2, T2, rS, rT)
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
    # B14.2: an in-season orchard is a one-level obstacle to a LOS from higher
    # ground (_asl_obstacle_heights) "as well as" an inherent +1 hindrance:
    # SPEC: read as both at once; its hindrance (one level high) applies by
    # the clauses above whatever its obstacle does, so an orchard that blocks
    # a LOS from higher ground still adds its +1 to the total.
    drm, height, inherent = terrain_hindrance(board, h)
    if drm > 0 and applies(G + height):
        sources["terrain"] = (drm, inherent)
    smoke = int(_counter(counters, "smoke", h, 0))
    if smoke > 0:
        base, top = _smoke_band(board, h, counters)
        # A24 [reading]: the SMOKE fills its hex from the Location it is in up to its height; it hinders a
        # LOS whose higher end lies in that band (at one level: base <= S < top; else base < S <= top, or
        # any S above the base on a continuous slope).  A LOS wholly below it passes beneath; SMOKE at the
        # ground (base = G) keeps the ground rule (no lower bound but the ground's).
        if (base <= S2 < top) if same else ((base < S2 or base == G) and (slope or top >= S2)):
            sources["smoke"] = (smoke, True)
    # SPEC: vehicles/wrecks have no top height in the spec; they apply exactly
    # when S2 == T2 == G.  Under a continuous slope the step is judged at
    # S2 = T2 = G (the hex's own level), so a vehicle there counts.
    # Each vehicle and wreck in the hex adds its +1 (a count; True is one).
    vehicles = int(_counter(counters, "vehicles", h, 0))
    if vehicles > 0 and S2 == T2 == G:
        sources["vehicle"] = (vehicles, True)
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


def _wall_height(board, mask: int) -> int:
    """Tallest obstacle feature (wall, hedge, bocage) of a hexside, in half levels (0: none)."""
    roles = board.ruleset.hexside_los_role
    heights = board.ruleset.hexside_height
    return max((int(heights[k]) for k in _bits(mask) if int(roles[k]) == LOS_OBSTACLE), default=0)


def _hexsides_at_vertex(board, vertex: tuple[int, int], hexes) -> dict:
    """The hexsides meeting at ``vertex``, seen from those of ``hexes`` that have it as a corner.

    ``{other end W of the hexside: (features mask, on-map hexes of the hexside)}``.
    A hexside whose both hexes are off the map is not listed.
    """
    found: dict[tuple[int, int], tuple[int, list[int]]] = {}
    for h in hexes:
        verts = _vertices(board, h)
        if vertex not in verts:
            continue
        k = verts.index(vertex)
        for d in (k, (k + 1) % 6):         # hexside d joins vertices d - 1 and d
            v1, v2 = verts[(d - 1) % 6], verts[d]
            other = v2 if v1 == vertex else v1
            mask, owners = found.get(other, (0, []))
            if h not in owners:
                found[other] = (mask | _hexside_mask(board, h, d), owners + [h])
    return found


def _on_line_vertices(board, contacts: list[Contact], ax, ay, dx, dy) -> list[tuple[Fraction, tuple[int, int]]]:
    """Hex vertices the segment passes through strictly between its ends, as ``(t, vertex)`` in order."""
    dd = dx * dx + dy * dy
    points = {}
    for c in contacts:
        for vx, vy in _vertices(board, c.hex):
            if _cross(dx, dy, vx - ax, vy - ay) == 0:
                t = Fraction((vx - ax) * dx + (vy - ay) * dy, dd)
                if 0 < t < 1:
                    points[(vx, vy)] = t
    return sorted((t, v) for v, t in points.items())


def _depression_banks(board, e: int) -> set[int]:
    """Banks of the depression holding hex ``e``: the hexes next to the
    connected depression hexes at ``e``'s ground level (``e`` among them)
    whose ground is higher."""
    level = _ground(board, e)
    group, todo = {e}, [e]
    while todo:
        h = todo.pop()
        for d in range(6):
            n = int(board.neighbours[h, d])
            if n >= 0 and n not in group and depression_hex(board, n) and _ground(board, n) == level:
                group.add(n)
                todo.append(n)
    banks = set()
    for h in group:
        for d in range(6):
            n = int(board.neighbours[h, d])
            if n >= 0 and n not in group and _ground(board, n) > level:
                banks.add(n)
    return banks


def _asl_los(board, a, b, level_a, level_b, counters, uc, contacts, steps) -> dict:
    ga, gb = _ground(board, a), _ground(board, b)
    # §2 Ends: 2 x (ground + Location level); a deck Location (level 1 of a
    # bridge hex) is at ground + 1 like any other level-1 Location.
    # A rooftop sees from half a level lower (VASL's reading).
    abs_a = 2 * (ga + level_a) - _rooftop_drop(board, a, level_a)
    abs_b = 2 * (gb + level_b) - _rooftop_drop(board, b, level_b)
    # §2 Ends: S2 >= T2; the higher end is the end with S2 (either, if equal:
    # we take the viewer).
    if abs_a >= abs_b:
        high, low, S2, T2 = a, b, abs_a, abs_b
    else:
        high, low, S2, T2 = b, a, abs_b, abs_a
    ends = (a, b)
    ax, ay = _centre(board, a)
    bx, by = _centre(board, b)
    dx, dy = bx - ax, by - ay

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

    # Depressions (A6.3, B19-B20): a unit IN a depression (its Location at the
    # ground level of a gully or stream hex: beneath a bridge, not on its deck)
    # sees out only across the depression's own crest; the banks (the higher
    # ground of the hexes around it) block a LOS from inside that runs along
    # or crosses them, including along a hexside between the depression hex
    # and a bank hex.
    # SPEC: the depression of such an end is the connected group of
    # depression hexes at its ground level that holds it; its banks are the
    # hexes adjacent to that group whose ground is higher.  A bank crossed
    # (interior step, or either side of a run; not a vertex touch) blocks,
    # reason "hill".  The digest gives no exception for range or elevation
    # (A6.3's "range <= elevation difference") nor for a continuous slope, so
    # none is made.
    banks: set[int] = set()
    for e, lv in ((a, level_a), (b, level_b)):
        if lv == 0 and depression_hex(board, e):
            banks |= _depression_banks(board, e)

    def bank(h) -> bool:
        return h in banks

    def wall_effect(mask: int, hexes) -> int:
        """A wall/hedge hexside of ``hexes`` (its on-map hexes) crossed: §2 crossing clause."""
        tallest = _wall_height(board, mask)
        if tallest <= 0:
            return NONE
        G = 2 * max(_ground(board, h) for h in hexes)
        O = G + tallest
        # under a continuous slope: judged same level at its base
        s2, t2 = (G, G) if slope else (S2, T2)
        if s2 == t2:
            return BLOCK if O > s2 else NONE
        return BLOCK if O >= s2 else NONE      # no blind hexes behind walls [reading]

    contact_of = {c.hex: c for c in contacts}
    end_vertices = set(_vertices(board, a)) | set(_vertices(board, b))

    def run_wall_effect(step) -> int:
        """B9: a LOS running exactly along a wall/hedge hexside (a hexspine) is
        blocked by it when that hexspine touches neither end's hex, or touches
        one and the opposite vertex has walls/hedges on all three of its
        hexspines."""
        if _wall_height(board, step.mask) <= 0:
            return NONE
        first = contact_of[step.hexes[0]]
        verts = _vertices(board, first.hex)
        v1, v2 = verts[(first.edge - 1) % 6], verts[first.edge]
        touching = [v in end_vertices for v in (v1, v2)]
        if all(touching):
            return NONE                        # SPEC: touching both ends' hexes: never
        if any(touching):
            opposite = v2 if touching[0] else v1
            at_vertex = _hexsides_at_vertex(board, opposite, [c.hex for c in contacts])
            # SPEC: "walls/hedges" = hexside obstacle features (wall, hedge, bocage).
            if len(at_vertex) < 3 or any(_wall_height(board, m) <= 0 for m, _ in at_vertex.values()):
                return NONE
        return wall_effect(step.mask, step.hexes)

    # B9: a LOS that passes through a vertex where the wall/hedge line
    # continues on both sides of it crosses the wall there.
    # SPEC: at each hex vertex the segment passes through (strictly between
    # its ends), the hexsides meeting there that lie off the line are split
    # by the side of the line they lie on; hexsides of the viewer's or the
    # target's hex are ignored (B9.2).  The wall is crossed there when a
    # wall/hedge hexside on each side blocks by the crossing clause (each at
    # its own base).  Such a step is reported at the hex beyond the vertex
    # (the first hex met from there on, in trace order), reason "hexside",
    # after the hex steps and crossings at the same position.  Through the
    # vertex between two interior contacts this repeats the crossing of
    # their hexside (it needs that hexside); the new case is the vertex where
    # a LOS along a hexspine enters or leaves a hex between two
    # wall/hedge hexsides of that hex.
    extra = []
    for t, vertex in _on_line_vertices(board, contacts, ax, ay, dx, dy):
        at_vertex = _hexsides_at_vertex(board, vertex, [c.hex for c in contacts])
        blocks = {1: NONE, -1: NONE}
        for (wx, wy), (mask, owners) in at_vertex.items():
            side = _cross(dx, dy, wx - ax, wy - ay)
            if side == 0 or any(h in ends for h in owners):
                continue                       # along the line, or B9.2
            key = 1 if side > 0 else -1
            blocks[key] = max(blocks[key], wall_effect(mask, owners))
        if blocks[1] == BLOCK and blocks[-1] == BLOCK:
            index, beyond = next((i, c.hex) for i, c in enumerate(contacts) if c.t_in == t and c.t_out > t)
            extra.append(Step("vertex-crossing", (beyond,), t, 0, index))
    rank = {"crossing": 1, "vertex-crossing": 2}
    walk = sorted(steps + extra, key=lambda s: (s.position, rank.get(s.kind, 0), s.order))
    # A24 (SMOKE "into, out of or through"): SMOKE in the viewer's or the
    # target's own hex hinders too.  SPEC: it counts when that end's Location
    # lies inside the SMOKE, i.e. its absolute level 2 x (ground + level) is
    # below the SMOKE's top 2 x ground + 2 x height; the viewer's is the first
    # step of the walk, the target's the last (both "end-smoke" steps).
    walk = [Step("end-smoke", (a,), Fraction(-1), 0, -1)] + walk + [Step("end-smoke", (b,), Fraction(2), 0, -1)]

    rules = board.ruleset.rules
    cap = int(rules.get("hindrance_cap", 0))

    total = 0
    blocked_at, reason, blind = -1, None, False
    hard_block = False
    for step in walk:
        effect, why, where, drm = NONE, None, -1, 0
        if step.kind == "interior":
            # interior step: the hex's effect applies; DRM = sum of its sources.
            h = step.hexes[0]
            effect, why = hex_effect(h)
            if effect < BLOCK and bank(h):
                effect, why = BLOCK, "hill"    # a depression's bank
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
            # of X, of Y, bank of X, of Y); a missing side has effect none.
            sides = step.hexes
            full = []
            for h in sides:
                e, r = hex_effect(h)
                if e < BLOCK and bank(h):
                    e, r = BLOCK, "hill"       # a depression's bank: from one side
                full.append((e, r))
            inh = [inherent_effect(h) for h in sides]
            banks = [BLOCK if bank(h) else NONE for h in sides]
            both = min(e for e, _ in full) if len(sides) == 2 else NONE
            effect = max([both] + [e for e, _ in inh] + banks)
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
            # B9: the wall/hedge along the run.
            # SPEC: judged after the sides, so a run that the sides block
            # reports their reason.
            if effect < BLOCK and run_wall_effect(step) == BLOCK:
                effect, why = BLOCK, "hexside"
            drm = _asl_run_drm([sources(h) for h in sides])
        elif step.kind == "vertex-crossing":
            effect, why, where = BLOCK, "hexside", step.hexes[0]
        elif step.kind == "end-smoke":
            h = step.hexes[0]
            where = h
            own = abs_a if h == a and step.position < 0 else abs_b
            smoke = int(_counter(counters, "smoke", h, 0))
            base, top = _smoke_band(board, h, counters)
            if smoke > 0 and base <= own < top:    # the end's Location within the SMOKE (A24)
                drm = smoke
        else:
            # crossing P|Q of a hexside with an obstacle feature.
            p, q = step.hexes
            where = q                          # §5: the hex beyond it
            if p not in ends and q not in ends:   # B9.2
                effect = wall_effect(step.mask, (p, q))
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


def _vv_los(board, a, b, level_a, level_b, counters, uc, contacts, steps) -> dict:
    # SPEC: §3 the ends' levels are their absolute levels, ground level plus
    # Location level (V&V's own rules have no upper Locations; a building of
    # the ruleset may have them, and its upper level is as high as a hill of
    # that level).
    level_of = {a: _ground(board, a) + level_a, b: _ground(board, b) + level_b}
    lo, hi = sorted((level_of[a], level_of[b]))
    ends = (a, b)
    # 10.7 slope hexes: when lo == 0 and hi == 2, take the steps of the trace
    # (interior steps and hexside runs; not vertex touches) in order from the
    # Level 2 end, whichever end is the viewer; the first step holding a hex
    # with g == 1 gives the slope hexes: that hex, or both sides of a run
    # when both are at g == 1.
    slope_hexes: set[int] = set()
    if lo == 0 and hi == 2:
        level2_end, ground_end = (a, b) if level_of[a] == 2 else (b, a)
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
        if obstacle_heights(board, h)[0] > 0:   # building, woods, jungle
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
            drm = terrain_hindrance(board, h)[0]
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
                elif terrain_hindrance(board, h)[0] > 0:
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
            # 10.10: a firing unit adjacent to a wall/hedge hexside ignores it
            # when firing across it; the exemption is the firer's alone: the
            # wall/hedge crossed into the target's hex still gives +1.
            # SPEC: the firer is the viewer ``a``.  A hedgerow (obstacle
            # hexside) of either end's hex still does not block: a unit sees
            # into and fires out of a blocking hex.
            if a not in (p, q):
                drm = hexside_drm(step.mask)
            if p not in ends and q not in ends and hexside_blocks(step.mask):
                eff, why = BLOCK, "hexside"
        total += drm
        if blocked_at < 0 and eff > NONE:
            blocked_at, reason = where, why
        # hindrances never block (hindrance_cap = 0)
    # 10.10 [reading]: a LOS that runs along a hexside and so reaches the
    # target's hex at a vertex enters it across both of the target's hexsides
    # meeting there: a wall/hedge on either gives +1 (once, the larger DRM).
    # SPEC: the firer's exemption cannot apply (the firer's hex touches
    # neither hexside: the run lies between them and the firer).
    entry = _entry_hexsides(board, a, b, contacts[-1])
    if len(entry) == 2 and steps and steps[-1].kind == "run":
        total += max(hexside_drm(_hexside_mask(board, b, d)) for d in entry)
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
        if obstacle_heights(board, h)[0] > 0:   # forest, town, rugged hill, orchard
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
        ``smoke_height`` (levels, default 2), ``smoke_base`` (the level of the
        Location the SMOKE is in, default 0), ``vehicles`` (bool), ``units``
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
        return _vv_los(board, a, b, int(level_a), int(level_b), counters, uc, contacts, steps)
    return _ccn_los(board, a, b, counters, uc, contacts, steps)
