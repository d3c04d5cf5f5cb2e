"""The depiction LOS model: LOS read off a map's drawn art (ASL B.1), the thin wrappers over :mod:`._depiction`.

``model="depiction"`` in :func:`kernel.los_matrix` (and the other entry
points that take it) traces each LOS over the pixels of the map's art
(:func:`kernel.maps.art.board_art`: a VASL board's own ``LOSData``, or the hex
model rasterised where a board has no art) instead of over whole hexes.  The
rules are the hex model's (``docs/los-semantics.md`` section 2), applied to
each pixel as if it were a hex at its own ground level, with ranges counted in
hexes from the pixel's hex, a hex of the exact trace (``docs/los-semantics.md``
section 6):

* obstacles, their heights, blind hexes and height advantage
  (``asl_hex_effect``); hindrances and the +6 cap, counted once per hex
  (``asl_hex_hindrance``); continuous slopes over the pixels' levels;
* walls and hedges are pixels too: half a level above their ground, no blind
  hexes, ignored near the ends' hexes (B9.2) and past the far vertex of an
  end's walled hexspine that is not walled all round (B9);
* the art of the ends' own hexes never counts (a building's outline does not
  block a LOS out of it), except terrain with ``obstacle_in_own_hex``: a
  rowhouse wall between two hexes blocks the LOS that crosses it even in an
  end's hex, when that end is below its top (B23.71);
* ground at the higher end's level in a lower hex next to it is that end's
  crest line, not a height advantage (B10.2 EXC; A6.3 decides toward a unit in
  a depression); inherent terrain art counts only in hexes of that terrain
  (B.6);
* depressions: from an end at level 0 of a depression hex, the pixels of
  the depression's banks above its ground block (A6.3, as the hex model reads
  it);
* the ends are the centre dots of their hexes, at their hexes' ground levels
  (the board's, as in the hex model; a VASL import reads it under the centre
  dot, B.1) plus their Location levels.

Only ASL boards.  SMOKE and vehicles (``counters``) count once per hex the
walk meets outside the ends' hexes, as the hex model counts them per hex, and
SMOKE in an end's own hex as the hex model counts it (A24); ``model="vasl"``
adds one more for SMOKE in the viewer's own hex, as VASL's engine does
(:mod:`._depiction.vasl_counters`).

Examples
--------
>>> import warnings
>>> import kernel
>>> board = kernel.load("default")     # bundled boards have no art: rasterised, with a warning
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore", kernel.DepictionWarning)
...     matrix = kernel.los_matrix(board, ["71I4", "71I6", "72M6"], model="depiction")
>>> matrix.shape, bool((matrix == matrix.T).all())
((3, 3), True)
"""

from __future__ import annotations

import warnings

import numpy as np

from kernel._cache import BoardCache
from kernel._dtypes import HEX_INDEX, LEVEL, LEVEL_BIAS
from kernel.line_of_sight._depiction.hex_tables import far_vertices_open, own_hex_obstacles
from kernel.line_of_sight._depiction.tables import DepictionTables
from kernel.line_of_sight._depiction.vasl_runs import hex_terrain_vasl, inherent_classes
from kernel.line_of_sight._depiction.building_ends import R_INSIDE_BUILDING, end_rule_cells, vasl_end_rules
from kernel.line_of_sight._depiction import vasl_counters as V
from kernel.line_of_sight._hex import rules
from kernel.line_of_sight.inputs import depression_groups, ruleset_code
from kernel.maps.state_lock import holding_state

#: Terrain that VASL's terrain table makes a half-level hindrance and ``asl.toml`` one level high: the
#: ``vasl`` model reads it as VASL does (a hindrance only to a LOS at its own level).
VASL_HALF_LEVEL_HINDRANCES = ("crag", "graveyard")
#: The LOS models (the ``model`` keyword): ``"hex"`` hex by hex, ``"depiction"`` over
#: the map's art with the rules' hindrance counting (once per hex), ``"vasl"`` the depiction model
#: read as VASL's engine reads a board (its pixels, the largest hindrance DRM once per range from the higher end,
#: its half-level crags and graveyards).
MODELS = ("hex", "depiction", "vasl")
#: The models that read the map's art.
ART_MODELS = ("depiction", "vasl")
#: The kind of a depiction step that is no art: the inherent terrain beside a hexside the LOS runs along (B.6).
HEXSIDE_RUN_STEP = "inherent terrain beside the hexside the LOS runs along"


class DepictionWarning(UserWarning):
    """The depiction model was asked for on a map with no drawn art (it uses the rasterised hex model).

    See Also
    --------
    kernel.board_art : the art the depiction model reads.

    Examples
    --------
    >>> import kernel, warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = kernel.los(kernel.load("71"), "71I4", "71I6", model="depiction")
    >>> any(issubclass(w.category, kernel.DepictionWarning) for w in caught)
    True
    """


def default_model(board) -> str:
    """The LOS model a call uses on ``board`` when it names none (``model=None``).

    ``"depiction"`` on an ASL map where some board carries its own drawn art
    (a board imported from VASL, or a saved game's): the rules read LOS off
    the drawing (B.1), and the hex model only approximates it there.
    ``"hex"`` elsewhere (maps of hexes only, and every other ruleset).

    See Also
    --------
    kernel.board_art : the art the depiction model reads.
    kernel.los : ``model=None`` is this model.

    Examples
    --------
    >>> import kernel
    >>> kernel.default_model(kernel.load("default"))   # the bundled maps are hexes, no drawn art
    'hex'
    """
    entries = DEPICTION_CACHE.entries(board)
    known = entries.get("_default_model")   # a map's placements never change: decided once per map
    if known is None:
        drawn = ruleset_code(board) == rules.RULESET_ASL and any(p.board.art is not None for p in board.placements)
        known = entries["_default_model"] = "depiction" if drawn else "hex"
    return known


def checked_model(model, board=None) -> str:
    """``model`` if it names a LOS model (None: :func:`default_model` of ``board``), else a ValueError
    naming it."""
    if model is None and board is not None:
        return default_model(board)
    if model not in MODELS:
        raise ValueError(f"model is {model!r}: expected one of {', '.join(repr(m) for m in MODELS)}")
    return model


#: Each board's depiction tables.
DEPICTION_CACHE = BoardCache("depiction")


def depiction_tables(board, per_range: bool = False):
    """The depiction kernels' tables of ``board`` (cached on it); warns once when the map has no art.

    ``per_range`` counts hindrance once per range from the higher end, as VASL's
    engine does (for comparisons with it; the rules count it per hex).
    """
    cached = DEPICTION_CACHE.entries(board).get("_depiction_tables")
    if cached is not None:
        return _for_reading(cached, DEPICTION_CACHE.entries(board)["_depiction_vasl_info"], per_range)
    from kernel.line_of_sight._depiction.walk import MAX_HINDRANCE_HEXES   # its kernels: imported when first used
    from kernel.maps.art import board_art
    from kernel.maps.board import terrain_los_values

    if ruleset_code(board) != rules.RULESET_ASL:
        raise ValueError(f"{board.source}: model='depiction' needs ASL LOS rules: this map's ruleset "
                         f"{board.ruleset.name!r} uses the {board.ruleset.los_model!r} LOS model")
    cap = int(board.ruleset.rules["hindrance_cap"])
    if not 1 <= cap < MAX_HINDRANCE_HEXES:
        raise ValueError(f"{board.source}: hindrance cap {cap}: expected 1..{MAX_HINDRANCE_HEXES - 1} "
                         "for model='depiction'")
    art = board_art(board)
    if not art.drawn:
        warnings.warn(f"{board.source}: model='depiction' on a map with no drawn art: "
                      "its hexes are rasterised, so it follows the hex model (see kernel.maps.art)",
                      DepictionWarning, stacklevel=4)
    rs = board.ruleset
    inherent_mask = sum(1 << t for t in range(len(rs.terrain_names)) if rs.terrain_inherent[t])
    hex_terrain = board.terrain.astype(np.int64)
    # VASL's reading judges a hex beside a hexside the LOS runs along as its inherent terrain alone: the
    # classes of that terrain that the art lacks follow the art's in VASL's pixel table (.vasl_runs)
    extra_terrain, extra_levels = inherent_classes(hex_terrain, art.class_terrain, art.class_levels, inherent_mask)
    all_terrain = np.concatenate([art.class_terrain, extra_terrain])
    obstacle, inherent, hindrance, hindrance_height, hindrance_inherent, above, _ = terrain_los_values(
        rs, all_terrain, np.concatenate([art.class_levels, extra_levels]))
    class_wall = np.zeros(len(art.class_terrain), np.int64)
    for k in range(len(rs.hexside_names)):
        if rs.hexside_los_role[k] == 2:   # LOS obstacle (wall, hedge, bocage, cliff)
            has = (art.class_hexside & np.uint16(1 << k)) != 0
            class_wall = np.where(has, np.maximum(class_wall, int(rs.hexside_height[k])), class_wall)
    # B.6: inherent terrain is its whole hex; its art drawn into another hex is not that hex's terrain
    class_inherent = (art.class_terrain.astype(np.int64) & inherent_mask).astype(np.int64)
    far_open = far_vertices_open(board)
    class_own, hex_own = own_hex_obstacles(board, art)
    elevation = (art.pixels & 0xFF).astype(np.int64) - LEVEL_BIAS
    level_min = int(min(elevation.min(), 0))
    n_levels = int(max(elevation.max(), 0)) - level_min + 1
    classes = len(art.class_terrain)
    info = np.zeros((len(all_terrain) * n_levels, rules.H_COLUMNS), LEVEL)
    for c in range(len(all_terrain)):
        for g in range(level_min, level_min + n_levels):
            row = info[c * n_levels + g - level_min]
            row[rules.H_GROUND2] = 2 * g
            row[rules.H_OBSTACLE] = obstacle[c]
            row[rules.H_OBSTACLE_INHERENT] = inherent[c]
            row[rules.H_HINDRANCE] = hindrance[c]
            row[rules.H_HINDRANCE_TOP] = 2 * g + hindrance_height[c]
            row[rules.H_HINDRANCE_INHERENT] = hindrance_inherent[c]
            row[rules.H_OBSTACLE_ABOVE] = above[c]
    tables = DepictionTables(board.x.astype(np.int64), board.y.astype(np.int64), np.ascontiguousarray(board.cell_index),
                             np.ascontiguousarray(board.neighbours), depression_groups(board), art.pixels,
                             info[:classes * n_levels].copy(),
                             n_levels, level_min, class_wall, class_inherent, hex_terrain, far_open, class_own,
                             hex_own, art.drawn, cap, False, np.zeros((0, rules.H_COLUMNS), LEVEL), False)
    # VASL's terrain table makes crags and graveyards half-level hindrances (height 0, isHalfLevelHeight):
    # model="vasl" reads them so; asl.toml (the rules digest) keeps them one level high
    info_vasl = info.copy()
    half = np.zeros(len(all_terrain), np.bool_)
    for name in VASL_HALF_LEVEL_HINDRANCES:
        if name in rs.terrain_names:
            half |= (all_terrain & np.uint32(1 << rs.terrain_names.index(name))) != 0
    for c in np.flatnonzero(half & (hindrance > 0)):
        rows = slice(c * n_levels, (c + 1) * n_levels)
        info_vasl[rows, rules.H_HINDRANCE_TOP] = info[rows, rules.H_GROUND2] + 1
    # VASL's blind-hex test counts a building (or rowhouse wall) of N upper levels N levels high, not N + 1/2
    for c in np.flatnonzero((obstacle >= 3) & (obstacle % 2 == 1)):
        info_vasl[c * n_levels:(c + 1) * n_levels, rules.H_BLIND_DROP] = 1
    # VASL judges a hex beside a hexside the LOS runs along as its inherent terrain (.vasl_runs)
    vasl = (info_vasl, hex_terrain_vasl(hex_terrain, all_terrain, inherent_mask))
    DEPICTION_CACHE.entries(board)["_depiction_tables"] = tables
    DEPICTION_CACHE.entries(board)["_depiction_vasl_info"] = vasl
    return _for_reading(tables, vasl, per_range)


def _for_reading(tables, vasl, per_range):
    """The tables with VASL's reading (``per_range``: its pixel table, hex terrain and counting) or the rules'."""
    if per_range:
        return tables._replace(pixel_info=vasl[0], hex_terrain=vasl[1], per_range=True)
    return tables


def location_levels2(board, hexes, levels) -> np.ndarray:
    """The Locations' heights in half levels: twice (ground level + Location level), and half a level less
    for a rooftop (VASL's reading: a rooftop sees as from half a level above its building's top level; the
    hex model's kernels: ``rules.location_height2``)."""
    levels = np.asarray(levels, np.int64)
    hexes = np.asarray(hexes, np.int64)
    rooftop = board.rooftop[hexes] & (levels == board.top_level[hexes]) & (levels > 0)
    return (2 * (board.ground_level[hexes].astype(np.int64) + levels) - rooftop).astype(np.int64)


def kernel_tables(board, counters, per_range: bool = False):
    """:func:`depiction_tables` and the per-call counters: a ``hex_info``-like table of each hex's
    ground level (half levels), its own terrain hindrance (for a LOS along its hexside) and its SMOKE and
    vehicles (zeros without counters), and whether there are any counters (cached on the board
    without counters)."""
    if counters is None:
        return DEPICTION_CACHE.get(board, ("_depiction_bare_tables", bool(per_range)),
                                   lambda: _kernel_tables(board, None, per_range))
    return _kernel_tables(board, counters, per_range)


def _kernel_tables(board, counters, per_range):
    from kernel.line_of_sight.counters import counter_arrays
    from kernel.line_of_sight.inputs import board_arrays

    info = np.zeros((len(board), rules.H_COLUMNS), LEVEL)
    info[:, rules.H_GROUND2] = 2 * board.ground_level   # also the depression rule's ground levels
    # each hex's own hindrance, for a LOS along its hexside (inherent terrain, B.6)
    hex_tables = board_arrays(board)
    info[:, rules.H_HINDRANCE] = hex_tables.hindrance
    info[:, rules.H_HINDRANCE_TOP] = hex_tables.hindrance_top
    info[:, rules.H_HINDRANCE_INHERENT] = hex_tables.hindrance_inherent
    has_counters = False
    if counters is not None:
        smoke, smoke_top, vehicles, _, smoke_base = counter_arrays(board, counters)
        info[:, rules.H_SMOKE] = smoke
        info[:, rules.H_SMOKE_TOP] = smoke_top
        info[:, rules.H_SMOKE_BASE] = smoke_base
        info[:, rules.H_VEHICLE] = vehicles
        has_counters = bool((smoke > 0).any() or vehicles.any())
    tables = depiction_tables(board, per_range)
    sight = V.vehicle_sight(tables, info, board.ground_level)   # VASL: which hexes see each vehicle's hex
    return tables._replace(counter_info=V.vehicle_columns(info, per_range and has_counters, sight),
                           has_counters=has_counters)


@holding_state
def depiction_matrix(board, hexes, levels, per_range: bool = False, counters=None) -> np.ndarray:
    """The N x N depiction matrix over Locations (hexes, levels): hindrance or BLOCKED, int8."""
    from kernel.line_of_sight._depiction import walk as D

    tables = kernel_tables(board, counters, per_range)
    out = np.empty((len(hexes), len(hexes)), np.int8)
    levels2 = location_levels2(board, hexes, levels)
    D.depiction_matrix_kernel(np.asarray(hexes, HEX_INDEX), levels2, tables, out)
    from kernel.line_of_sight._hex.pairs import mirror_lower

    mirror_lower(out)
    if per_range and tables.has_counters:   # VASL: SMOKE in the viewer's own hex, one more (after the mirror)
        V.add_to_rows(out, V.viewer_extra(hexes, levels2, tables.counter_info), hexes, hexes, tables.cap)
    if per_range:
        i, j = end_rule_cells(board, hexes, np.broadcast_to(levels, np.shape(hexes)), np.arange(len(hexes)))
        out[i, j] = rules.BLOCKED
    return out


@holding_state
def depiction_rows(board, hexes, levels, first: int, count: int, counters=None, per_range: bool = False) -> np.ndarray:
    """Rows ``first .. first + count`` of the depiction matrix."""
    from kernel.line_of_sight._depiction import walk as D

    out = np.empty((count, len(hexes)), np.int8)
    levels2 = location_levels2(board, hexes, levels)
    tables = kernel_tables(board, counters, per_range)
    D.depiction_rows_kernel(np.asarray(hexes, HEX_INDEX), levels2, first, False, tables, out)
    if per_range and tables.has_counters:   # VASL: SMOKE in the viewer's own hex, one more
        rows = slice(first, first + count)
        V.add_to_rows(out, V.viewer_extra(np.asarray(hexes)[rows], levels2[rows], tables.counter_info),
                      np.asarray(hexes)[rows], hexes, tables.cap)
    if per_range:
        i, j = end_rule_cells(board, hexes, np.broadcast_to(levels, np.shape(hexes)),
                               np.arange(first, first + count))
        out[i - first, j] = rules.BLOCKED
    return out


@holding_state
def depiction_pairs(board, hex_a, level_a, hex_b, level_b, counters=None, per_range: bool = False):
    """(blocked, hindrance, blocked_at, reason, continuous slope) of pairs a[k] -> b[k] in the depiction model."""
    from kernel.line_of_sight._depiction import walk as D

    n = len(hex_a)
    blocked = np.empty(n, np.bool_)
    hindrance = np.empty(n, np.int32)
    at = np.empty(n, np.int32)
    reason = np.empty(n, np.int8)
    slope = np.empty(n, np.bool_)
    levels2_a = location_levels2(board, hex_a, level_a)
    tables = kernel_tables(board, counters, per_range)
    D.depiction_pairs_kernel(np.asarray(hex_a, HEX_INDEX), levels2_a, np.asarray(hex_b, HEX_INDEX),
                             location_levels2(board, hex_b, level_b), tables, blocked, hindrance, at, reason, slope)
    if per_range and tables.has_counters:   # VASL: SMOKE in the viewer's own hex, one more
        V.add_to_pairs(V.viewer_extra(hex_a, levels2_a, tables.counter_info), hex_a, hex_b, blocked, hindrance, at,
                       reason, tables.cap)
    if per_range:
        cut, why = vasl_end_rules(board, hex_a, level_a, hex_b, level_b)
        if cut.any():
            blocked[cut], hindrance[cut], reason[cut], slope[cut] = True, 0, why[cut], False
            at[cut] = np.where(why == R_INSIDE_BUILDING, np.asarray(hex_b), np.asarray(hex_a))[cut]
    return blocked, hindrance, at, reason, slope


def best_of_sources(board, sources, source_levels, targets, target_levels, visible, hindrance, best,
                    counters=None, per_range: bool = False) -> None:
    """Field of fire in the depiction model: per target the visible source with the least hindrance
    (ties: the first listed), written into ``visible``, ``hindrance`` (BLOCKED where none) and ``best``."""
    best[:] = -1
    hindrance[:] = 0
    for s in range(len(sources)):
        blocked, total, _, _, _ = depiction_pairs(board, np.full(len(targets), sources[s], HEX_INDEX),
                                               np.full(len(targets), source_levels[s], np.int64),
                                               targets, target_levels, counters, per_range)
        better = ~blocked & ((best < 0) | (total < hindrance))
        best[better] = s
        hindrance[better] = total[better]
    visible[:] = best >= 0
    hindrance[best < 0] = rules.BLOCKED


@holding_state
def depiction_recorded(board, a: int, level_a: int, b: int, level_b: int, counters=None, per_range: bool = False):
    """One depiction LOS with its steps: ``(blocked, hindrance, reason, blocked_at, continuous slope, log)``,
    ``log`` the kernel's rows (columns ``LOG_*`` of :mod:`._depiction`) in walking order, from the end
    with the smaller index."""
    from kernel.line_of_sight._depiction import walk as D

    levels2 = location_levels2(board, np.array([a, b], HEX_INDEX), np.array([level_a, level_b]))
    tables = kernel_tables(board, counters, per_range)
    blocked, total, reason, at, slope, log = D.depiction_recorded(
        int(a), int(levels2[0]), int(b), int(levels2[1]), tables)
    if per_range:
        cut, why = vasl_end_rules(board, [a], [level_a], [b], [level_b])
        if cut[0]:
            return True, 0, int(why[0]), int(b) if why[0] == R_INSIDE_BUILDING else int(a), False, log[:0]
    if per_range and tables.has_counters and int(a) != int(b):   # VASL: SMOKE in the viewer's own hex, one more
        extra = int(V.viewer_extra([a], levels2[:1], tables.counter_info)[0])
        blocked, total, reason, at, log = V.add_to_recorded(extra, int(a), blocked, total, reason, at, log,
                                                            tables.cap)
    return bool(blocked), int(total), int(reason), int(at), bool(slope), log


def class_name(board, c: int) -> str:
    """What pixel class ``c`` of the board's art shows ("woods", "wall", "open ground")."""
    from kernel.maps.art import board_art

    art = board_art(board)
    rs = board.ruleset
    names = [name for t, name in enumerate(rs.terrain_names) if int(art.class_terrain[c]) >> t & 1]
    names += [name for k, name in enumerate(rs.hexside_names) if int(art.class_hexside[c]) >> k & 1]
    return "/".join(names) or "open ground"


def class_rule(board, c: int) -> str | None:
    """The rule reference of a terrain that pixel class ``c`` shows and that has one of its own (its ruleset
    ``rule`` key, e.g. ``"B23.71 rowhouse wall"``), else None."""
    from kernel.maps.art import board_art

    art = board_art(board)
    rs = board.ruleset
    for t, name in enumerate(rs.terrain_names):
        if int(art.class_terrain[c]) >> t & 1 and name in rs.terrain_rules:
            return rs.terrain_rules[name]
    return None


def judged_run_classes() -> tuple[int, int]:
    """The pixel classes :func:`judged_runs` gives a hex's counters step and the inherent terrain beside a
    hexside the LOS runs along (``COUNTERS``, ``HEXSIDE_RUN``: negative, no class of the art).

    Examples
    --------
    >>> judged_run_classes()
    (-1, -2)
    """
    from kernel.line_of_sight._depiction import walk as D

    return D.COUNTERS, D.HEXSIDE_RUN


@holding_state
def judged_runs(board, first, second, counters=None, keep: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """The runs of art pixels that decided something in the depiction LOS of many ground-level pairs.

    Parameters
    ----------
    board : Board
    first, second : int arrays
        The pairs' hexes (global indices), both ends at ground level.
    counters : Counters, optional
    keep : int
        The most runs kept per pair (the first ones in walking order).

    Returns
    -------
    runs : int32 array, shape (pairs, keep, 7)
        Per pair its runs that add hindrance, block or cast a blind zone, in walking order (from the end
        with the smaller index): hex, pixel class, first pixel x, y, last pixel x, y, and the DRM
        (> 0), :data:`~kernel.line_of_sight._depiction.runs.RUN_BLOCKS` or ``RUN_BLIND``; a hex's
        counters (SMOKE, vehicles) with an effect are a row of class ``COUNTERS`` (-1), the inherent
        terrain beside a hexside the LOS runs along one of class ``HEXSIDE_RUN`` (-2), both with pixels 0.
        Rows past the pair's count are not set.
    counts : uint8 array, shape (pairs,)

    Examples
    --------
    >>> import kernel, numpy as np, warnings
    >>> board = kernel.random_board("asl", 8, 6, seed=3)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", kernel.DepictionWarning)
    ...     runs, counts = judged_runs(board, np.array([0]), np.array([len(board) - 1]))
    >>> runs.shape, counts.shape
    ((1, 16, 7), (1,))
    """
    from kernel.line_of_sight._depiction import walk as D
    from kernel.line_of_sight._depiction.runs import RUN_COLUMNS, judged_runs_kernel

    first = np.ascontiguousarray(first, HEX_INDEX)
    second = np.ascontiguousarray(second, HEX_INDEX)
    if first.ndim != 1 or first.shape != second.shape:
        raise ValueError(f"judged_runs: first and second must be 1-D of one length, got shapes {first.shape} "
                         f"and {second.shape}")
    for name, ends in (("first", first), ("second", second)):
        if ends.size and (ends.min() < 0 or ends.max() >= len(board)):
            bad = int(ends[(ends < 0) | (ends >= len(board))][0])
            raise ValueError(f"judged_runs: {name} holds hex index {bad}: expected 0 .. {len(board) - 1}")
    if not 1 <= keep <= 255:
        raise ValueError(f"judged_runs: keep={keep}: expected 1 .. 255 runs per pair")
    tables = kernel_tables(board, counters)
    lat_x, lat_y = tables.lat_x, tables.lat_y
    runs = np.empty((first.size, keep, RUN_COLUMNS), np.int32)
    counts = np.zeros(first.size, np.uint8)
    if first.size == 0:
        return runs, counts
    longest = max(np.abs(lat_x[second] - lat_x[first]).max() * D.UNIT_X,
                  np.abs(lat_y[second] - lat_y[first]).max() * D.UNIT_Y)
    levels2 = location_levels2(board, np.arange(len(board)), np.zeros(len(board), np.int64))
    # depiction_recorded's log bound for the longest pair
    judged_runs_kernel(first, second, levels2, 4 * int(np.ceil(longest)) + 10, tables, runs, counts)
    return runs, counts
