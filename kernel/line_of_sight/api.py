"""Line of sight: single queries with explanations, full matrices, batches, fields of fire.

Public wrappers validate and convert their inputs once, then call the numba
kernels of :mod:`kernel.line_of_sight._kernels`, which implement ``docs/los-semantics.md``
over the exact trace templates of :mod:`kernel.line_of_sight.tracer`.

Output conventions
------------------
* :func:`los_matrix` and :func:`los_matrix_blocks` return ``int8`` matrices
  holding the total hindrance DRM of each visible pair (saturated at 127) and
  :data:`BLOCKED` (-1) for each blocked pair; the diagonal is 0.
* :func:`field_of_fire` gives, per target hex, ``visible``, the least
  ``hindrance`` over the sources (:data:`BLOCKED` where none sees it), the
  index of the best ``source`` (-1 where none) and the target's ``cover``.

Examples
--------
>>> import kernel
>>> board = kernel.load("default")
>>> result = los(board, "71I4", "71Q5")
>>> result.visible in (True, False)
True
>>> matrix = los_matrix(board)
>>> matrix.shape == (len(board), len(board)) and bool((matrix == matrix.T).all())
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kernel.line_of_sight import _kernels as K
from kernel.line_of_sight import _rules as rules
from kernel._dtypes import HEX_INDEX, HINDRANCE, LEVEL
from kernel.maps.rulesets import LOS_HINDRANCE, LOS_OBSTACLE
from kernel.line_of_sight.tracer import KIND_NAMES, templates

#: Sentinel of a blocked pair in LOS matrices and fields of fire.
BLOCKED = rules.BLOCKED

#: Names of the reasons a LOS is blocked (``LOSResult.reason``).
REASONS = (None, "hill", "obstacle", "hexside", "blind hex", "hindrance", "unit")
_MODELS = {"asl": rules.MODEL_ASL, "valor-victory": rules.MODEL_VV, "ccn": rules.MODEL_CCN}
_RULE_REFERENCE = {
    "asl": {"hill": "A6.2 hill", "obstacle": "A6.1 obstacle", "hexside": "B9.2 wall/hedge",
            "blind hex": "A6.4 blind hex", "hindrance": "B.10 hindrance", "unit": "-"},
    "valor-victory": {"hill": "10.7 hill", "obstacle": "9 blocking terrain", "hexside": "9.4/10.101 hexside",
                      "blind hex": "-", "hindrance": "10.8-10.10 hindrance", "unit": "-"},
    "ccn": {"hill": "hill", "obstacle": "blocking terrain", "hexside": "hexside", "blind hex": "-",
            "hindrance": "-", "unit": "unit or leader"},
}
_STEP_KINDS = ("interior", "hexside run", "vertex", "hexside crossing")
_EFFECTS = ("none", "blind", "blocks")


@dataclass
class Counters:
    """Dynamic counters on the map, as per-hex arrays (no recompilation needed).

    Parameters
    ----------
    smoke : array of int, optional
        SMOKE hindrance DRM per hex (0 = none; ASL SMOKE is +2 or +3).
    smoke_height : array of int, optional
        Height of the SMOKE in levels above the hex's ground (default 2).
    vehicles : array of bool, optional
        A vehicle or wreck in the hex (ASL: +1 hindrance at the same level).
    units : array of bool, optional
        A unit or leader in the hex (CCN: blocks LOS and movement).

    Use :meth:`on` to build one from hex names.
    """

    smoke: np.ndarray | None = None
    smoke_height: np.ndarray | None = None
    vehicles: np.ndarray | None = None
    units: np.ndarray | None = None

    @classmethod
    def on(cls, board, *, smoke=None, vehicles=(), units=(), smoke_height=2):
        """Counters from hex names: ``smoke={"2I9": 3}``, ``vehicles=["2J9"]``.

        >>> import kernel
        >>> board = kernel.load("71")
        >>> int(Counters.on(board, smoke={"71I9": 3}).smoke.sum())
        3
        """
        n = len(board)
        smoke_array = np.zeros(n, HINDRANCE)
        for name, drm in (smoke or {}).items():
            smoke_array[board.index(name)] = drm
        vehicle_array = np.zeros(n, np.bool_)
        vehicle_array[board.indices(list(vehicles))] = True
        unit_array = np.zeros(n, np.bool_)
        unit_array[board.indices(list(units))] = True
        return cls(smoke_array, np.full(n, smoke_height, LEVEL), vehicle_array, unit_array)


def _array(value, n, dtype, name, default):
    if value is None:
        return np.full(n, default, dtype=dtype)
    array = np.asarray(value)
    if array.shape != (n,):
        raise ValueError(f"counters.{name} has shape {array.shape}: expected ({n},), one value per hex")
    if dtype is not np.bool_ and array.dtype.kind not in "iub":
        raise ValueError(f"counters.{name} has dtype {array.dtype}: expected integers")
    if dtype is not np.bool_ and array.size and array.min() < 0:
        raise ValueError(f"counters.{name} has a negative value {array.min()}: expected values >= 0")
    return np.ascontiguousarray(array, dtype=dtype)


def _counter_tables(board, counters, *, bulk: bool = True):
    """The kernels' per-call tables for ``counters`` (cached when there are none).

    ``bulk=False`` is for one recorded LOS (``los``), which reads neither
    fast-path table: they are left as one-element stand-ins instead of being
    built over the whole grid.
    """
    if counters is None:
        key = "_los_no_counters"
        cached = board.__dict__.get(key)
        if cached is None:
            cached = _with_inert(board, _counter_arrays(board, Counters()))
            board.__dict__[key] = cached
        return cached
    arrays = _counter_arrays(board, counters)
    if not bulk:
        return (_hex_info(board, arrays), np.zeros(1, np.int32), np.zeros((1, 1), np.int16),
                np.full(1, -1, np.int32), 0)
    return _with_inert(board, arrays)


def _counter_arrays(board, counters):
    """Validated per-hex counter arrays: (smoke, smoke_top in half levels, vehicles, units)."""
    if not isinstance(counters, Counters):
        raise TypeError(f"counters must be a kernel.line_of_sight.api.Counters, not {type(counters).__name__}")
    n = len(board)
    smoke = _array(counters.smoke, n, HINDRANCE, "smoke", 0)
    height = _array(counters.smoke_height, n, HINDRANCE, "smoke_height", 2)
    ground2 = 2 * board.ground_level.astype(HINDRANCE)
    smoke_top = (ground2 + 2 * height).astype(HINDRANCE)
    vehicles = _array(counters.vehicles, n, np.bool_, "vehicles", False)
    units = _array(counters.units, n, np.bool_, "units", False)
    return smoke, smoke_top, vehicles, units


def _with_inert(board, counters):
    """``counters`` plus the kernels' fast-path table ``fast_grid``.

    ``fast_grid`` (int32) follows the trace templates' padded grid layout
    (``grid_flat``).  Per cell it holds ``content << 8 | sides`` where
    ``content`` is the hex's ground in half levels when nothing *in* the hex
    can affect a LOS (no obstacle, hindrance, SMOKE, vehicle or unit) and
    32767 when something can, and bit ``d`` of ``sides`` is set when hexside
    ``d`` of the hex holds a LOS feature.  Off the map the value is -2**30.
    A hex whose content is inert and not above the lower end of a LOS is
    skipped by the kernels without looking it up, unless the LOS crosses into
    it through a featured hexside.  (A hexside's features are held by both of
    its hexes, so the crossing is seen from the hex entered.)
    """
    smoke, smoke_top, vehicles, units = counters
    hexside_any = _board_tables(board)[12]
    busy = (board.obstacle_height > 0) | (board.hindrance > 0) | (smoke > 0) | vehicles | units
    content = np.where(busy, 32767, 2 * board.ground_level).astype(np.int32)
    sides = (hexside_any.astype(np.int32) << np.arange(6, dtype=np.int32)).sum(axis=1).astype(np.int32)
    key = (content << 8) | sides
    grid = templates(board).grid_flat
    on_map = grid >= 0
    fast_grid = np.where(on_map, key[np.maximum(grid, 0)], np.int32(-(1 << 30))).astype(np.int32)
    same_code, level_row, level_min = _same_level_codes(board, counters, sides, grid)
    return (_hex_info(board, counters), fast_grid, same_code, level_row, level_min)


def _hex_info(board, counters):
    """Everything the kernels read about a hex, one row per hex (int16, columns ``rules.H_*``)."""
    smoke, smoke_top, vehicles, units = counters
    tables = _board_tables(board)
    info = np.zeros((len(board), rules.H_COLUMNS), LEVEL)
    info[:, rules.H_GROUND2] = tables[2]
    info[:, rules.H_OBSTACLE] = tables[3]
    info[:, rules.H_OBSTACLE_INHERENT] = tables[4]
    info[:, rules.H_HINDRANCE] = tables[5]
    info[:, rules.H_HINDRANCE_TOP] = tables[6]
    info[:, rules.H_HINDRANCE_INHERENT] = tables[7]
    info[:, rules.H_SMOKE] = smoke
    info[:, rules.H_SMOKE_TOP] = smoke_top
    info[:, rules.H_VEHICLE] = vehicles
    info[:, rules.H_UNITS] = units
    return info


def _same_level_codes(board, counters, sides, grid):
    """The kernels' table for LOS between Locations at one level, ``S2`` half levels.

    Such a LOS has no blind hexes or slopes, so the effect of a hex whose
    interior it crosses depends only on the hex and ``S2``: the kernels read it
    from ``same_code[level_row[S2 - level_min], cell]`` = ``code << 6 | sides``
    (``sides`` as in ``fast_grid``: a crossing through a featured hexside
    still takes the full path).  ``code`` is the hindrance DRM the hex adds
    (0-500), or one of ``CODE_HILL``, ``CODE_OBSTACLE``, ``CODE_UNIT``: the hex
    blocks.  Rows exist for every level a Location of the board can have.
    """
    smoke, smoke_top, vehicles, units = counters
    tables = _board_tables(board)
    ground2, obstacle, hindrance, hindrance_top = tables[2], tables[3], tables[5], tables[6]
    location_levels = ground2[board.location_hex] + 2 * board.location_level.astype(np.int64)
    values = np.unique(location_levels)
    level_min = int(values[0])
    level_row = np.full(int(values[-1]) - level_min + 1, -1, np.int32)
    level_row[values - level_min] = np.arange(len(values), dtype=np.int32)
    model = _model(board)
    same_code = np.empty((len(values), len(grid)), np.int16)
    for row, S2 in enumerate(values):
        if model == rules.MODEL_ASL:  # docs/los-semantics.md section 2, both ends at S2
            drm = np.where((hindrance > 0) & (hindrance_top > S2) & (ground2 <= S2), hindrance, 0).astype(np.int64)
            drm += np.where((smoke > 0) & (smoke_top > S2) & (ground2 <= S2), smoke, 0)
            drm += (vehicles & (ground2 == S2)).astype(np.int64)
            unit_blocks = np.zeros(len(board), np.bool_)
        else:  # sections 3 and 4
            drm = hindrance.astype(np.int64) if model == rules.MODEL_VV else np.zeros(len(board), np.int64)
            unit_blocks = units & bool(tables[11])
        code = np.minimum(drm, rules.CODE_MAX_DRM)
        if model == rules.MODEL_ASL:
            code = np.where((obstacle > 0) & (ground2 + obstacle > S2), rules.CODE_OBSTACLE, code)
        else:
            code = np.where(unit_blocks, rules.CODE_UNIT, code)
            code = np.where(obstacle > 0, rules.CODE_OBSTACLE, code)
        code = np.where(ground2 > S2, rules.CODE_HILL, code)
        per_hex = (code << 6) | sides
        same_code[row] = np.where(grid >= 0, per_hex[np.maximum(grid, 0)], 0)
    return same_code, level_row, level_min


def _board_tables(board):
    cached = board.__dict__.get("_los_tables")
    if cached is not None:
        return cached
    rs = board.ruleset
    ground2 = (2 * board.ground_level).astype(LEVEL)
    hind_top = (ground2 + board.hindrance_height).astype(LEVEL)
    n = len(board)
    hs_obst = np.zeros((n, 6), LEVEL)
    hs_hind = np.zeros((n, 6), HINDRANCE)
    for k in range(len(rs.hexside_names)):
        has = (board.hexside & np.uint16(1 << k)) != 0
        if rs.hexside_los_role[k] == LOS_OBSTACLE:
            hs_obst = np.where(has, np.maximum(hs_obst, rs.hexside_height[k]), hs_obst).astype(LEVEL)
        elif rs.hexside_los_role[k] == LOS_HINDRANCE:
            hs_hind = np.where(has, np.maximum(hs_hind, rs.hexside_hindrance[k]), hs_hind).astype(HINDRANCE)
    tables = (
        board.col.astype(np.int64), board.y.astype(np.int64), ground2, board.obstacle_height.astype(LEVEL),
        board.obstacle_inherent, board.hindrance.astype(HINDRANCE), hind_top, board.hindrance_inherent,
        np.ascontiguousarray(hs_obst), np.ascontiguousarray(hs_hind), int(rs.rules["hindrance_cap"]),
        bool(rs.rules["units_block_los"]), ((hs_obst > 0) | (hs_hind > 0)),
    )
    board.__dict__["_los_tables"] = tables
    return tables


def _kernel_board_tables(board):
    """The part of :func:`_board_tables` the kernels take as separate arguments."""
    col, y, _, _, _, _, _, _, hs_obst, hs_hind, cap, units_block, _ = _board_tables(board)
    return (col, y, hs_obst, hs_hind, cap, units_block)


def _template_tuple(board):
    tpl = templates(board)
    return (tpl.grid_flat, tpl.base, tpl.start, tpl.packed, tpl.ranges, tpl.max_dc, tpl.max_dy)


def _model(board) -> int:
    return _MODELS[board.ruleset.los_model]


def _level(board, hex_index: int, level, what: str) -> int:
    if isinstance(level, bool) or not isinstance(level, (int, np.integer)):
        raise TypeError(f"{what} must be an integer Location level, not {type(level).__name__}")
    top = int(board.top_level[hex_index])
    if not 0 <= int(level) <= top:
        raise ValueError(
            f"{what} is {int(level)} in {board.names[hex_index]}: expected a Location level 0..{top} of that hex"
        )
    return int(level)


def _hex_cover(board, unit_index: int) -> np.ndarray:
    key = ("_hex_cover", unit_index)
    cached = board.__dict__.get(key)
    if cached is None:
        table = board.ruleset.terrain_cover[unit_index]
        add_up = board.ruleset.rules["cover_combine"] == "sum"   # ASL A2.4: cumulative TEM
        cached = np.zeros(len(board), np.int16)
        for t, value in enumerate(table):
            if value:
                has = (board.terrain & np.uint32(1 << t)) != 0
                combined = cached + value if add_up else np.maximum(cached, value)
                cached = np.where(has, combined, cached).astype(np.int16)
        side = np.zeros((len(board), 6), np.int16)
        for k, value in enumerate(board.ruleset.hexside_cover[unit_index]):
            if value:
                has = (board.hexside & np.uint16(1 << k)) != 0
                side = np.where(has, np.maximum(side, value), side).astype(np.int16)
        cached = (cached, side)
        board.__dict__[key] = cached
    return cached


def _cover(board, sources, source_levels, targets, target_levels, unit_index):
    """Cover of each target against each (broadcast) source, per section 2-4."""
    hex_cover, side_cover = _hex_cover(board, unit_index)
    on_deck = board.bridge_deck[targets] & (np.asarray(target_levels) == 1)
    cover = np.where(on_deck, 0, hex_cover[targets]).astype(np.int16)  # no cover on a bridge deck
    rs = board.ruleset
    model = rs.los_model
    if model == "asl":
        tpl = templates(board)
        t = (board.col[targets].astype(np.int64) - board.col[sources] + tpl.max_dc) * tpl.width + (
            board.y[targets].astype(np.int64) - board.y[sources] + tpl.max_dy)
        entry = tpl.entry_sides[t]
        for d in range(6):
            bit = ((entry >> d) & 1).astype(bool) & (sources != targets)
            cover = np.where(bit, np.maximum(cover, side_cover[targets, d]), cover)
    elif model == "ccn":
        viewer = board.ground_level[sources].astype(np.int64) + source_levels
        target = board.ground_level[targets].astype(np.int64) + target_levels
        cover = cover + np.where(target > viewer, rs.rules["uphill_cover"][unit_index], 0)
        cover = cover + np.where(target < viewer, rs.rules["downhill_cover"][unit_index], 0)
    return cover.astype(np.int16)


@dataclass
class LOSStep:
    """One step of an explained LOS: a hex (or hexside) and what it did."""

    hex: str
    kind: str
    effect: str
    hindrance: int
    reason: str | None
    rule: str


@dataclass
class LOSResult:
    """The outcome of one LOS check (see ``docs/los-semantics.md`` section 5).

    Attributes
    ----------
    visible : bool
    hindrance : int
        Total hindrance DRM of all steps.
    blocked_at : str or None
        Name of the hex where the LOS is first blocked (from the viewer).
    reason : str or None
        ``"hill"``, ``"obstacle"``, ``"hexside"``, ``"blind hex"``,
        ``"hindrance"`` or ``"unit"``.
    blind : bool
        Blocked because the target is in a blind hex (A6.4).
    continuous_slope : bool
        The LOS is a continuous slope (B.5).
    cover : int
        The target's cover against the firing unit class (TEM, cover
        modifier or battle dice lost).
    """

    viewer: str
    target: str
    visible: bool
    hindrance: int
    blocked_at: str | None
    reason: str | None
    blind: bool
    continuous_slope: bool
    cover: int
    ruleset: str
    steps: list[LOSStep] = field(default_factory=list, repr=False)

    def explain(self) -> str:
        """A LOS report: every hex that mattered, its effect and the rule.

        >>> import kernel
        >>> board = kernel.load("default")
        >>> print(los(board, "71I4", "71I6").explain().splitlines()[0])  # doctest: +ELLIPSIS
        LOS 71I4 -> 71I6 (asl): ...
        """
        verdict = "clear" if self.visible else f"BLOCKED at {self.blocked_at} ({self.reason})"
        lines = [f"LOS {self.viewer} -> {self.target} ({self.ruleset}): {verdict}; "
                 f"hindrance +{self.hindrance}; target cover {self.cover}"
                 + ("; continuous slope" if self.continuous_slope else "")]
        for step in self.steps:
            what = step.effect if step.effect != "none" else "no effect"
            drm = f" +{step.hindrance}" if step.hindrance else ""
            rule = f" [{step.rule}]" if step.rule != "-" else ""
            lines.append(f"  {step.hex:<8} {step.kind:<17} {what}{drm}{rule}")
        if not self.steps:
            lines.append("  (no hex between the two ends affects this LOS)")
        return "\n".join(lines)


def los(board, a, b, *, level_a: int = 0, level_b: int = 0, counters: Counters | None = None,
        unit: str | None = None) -> LOSResult:
    """Evaluate one LOS between two Locations under the board's ruleset.

    Parameters
    ----------
    board : Board
    a, b : str or int
        Viewer and target hex (names like ``"2I9"``, a Location like
        ``"2I9h1"``, or global indices).
    level_a, level_b : int
        Location levels above ground (building levels); a Location name's
        ``h`` suffix sets them too.
    counters : Counters, optional
        SMOKE, vehicles/wrecks and units on the map.
    unit : str, optional
        Unit class of the firer, for the target's cover (default: the
        ruleset's first class).

    Returns
    -------
    LOSResult

    Raises
    ------
    KeyError, ValueError
        Unknown hex or level, bad counters or unit class.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> r = los(board, "71I4", "71I4")
    >>> r.visible, r.hindrance
    (True, 0)
    """
    ia, level_a = _location(board, a, level_a, "level_a")
    ib, level_b = _location(board, b, level_b, "level_b")
    unit_index = board.ruleset.unit_index(unit) if unit is not None else 0
    counter_tables = _counter_tables(board, counters, bulk=False)
    tpl = _template_tuple(board)
    tpl_cache = templates(board)
    t = tpl_cache.index(int(board.col[ib] - board.col[ia]), int(board.y[ib] - board.y[ia]))
    # at most one step record and one crossing record per template entry of this pair
    size = 2 * int(tpl_cache.start[t + 1] - tpl_cache.start[t]) + 1
    records = np.zeros((size, 5), np.int32)  # hex, step kind, effect, reason, DRM
    out = (np.empty(1, np.bool_), np.empty(1, np.int32), np.empty(1, np.int32), np.empty(1, np.int8),
           np.empty(1, np.bool_), np.empty(1, np.bool_))
    n_rec = K.evaluate_pairs(
        _model(board), True, True, np.array([ia], HEX_INDEX), np.array([level_a], np.int64), 0,
        np.array([ib], HEX_INDEX), np.array([level_b], np.int64), 0, tpl, _kernel_board_tables(board),
        counter_tables, records, *out)
    blocked, total, at, reason, blind, slope = (value[0] for value in out)
    rec_hex, rec_kind, rec_effect, rec_reason, rec_drm = records.T
    cover = int(_cover(board, np.array([ia]), np.array([level_a]), np.array([ib]), np.array([level_b]), unit_index)[0])
    model = board.ruleset.los_model
    steps = []
    for i in range(n_rec):
        reason_name = REASONS[rec_reason[i]]
        steps.append(LOSStep(
            hex=board.names[rec_hex[i]], kind=_STEP_KINDS[rec_kind[i]], effect=_EFFECTS[rec_effect[i]],
            hindrance=int(rec_drm[i]), reason=reason_name,
            rule=_RULE_REFERENCE[model].get(reason_name, "-") if reason_name else
            (_RULE_REFERENCE[model]["hindrance"] if rec_drm[i] else "-"),
        ))
    return LOSResult(
        viewer=board.location_name(ia, level_a), target=board.location_name(ib, level_b),
        visible=not blocked, hindrance=int(total), blocked_at=board.names[at] if at >= 0 else None,
        reason=REASONS[reason] if blocked else None, blind=bool(blind), continuous_slope=bool(slope),
        cover=cover, ruleset=board.ruleset.name, steps=steps,
    )


def _location(board, hex_or_location, level, what):
    if board.names_a_location(hex_or_location):
        index, parsed_level = board.location(hex_or_location)
        if level not in (0, parsed_level):
            raise ValueError(f"{what}={level} contradicts the Location {hex_or_location!r}")
        return index, parsed_level
    index = board.index(hex_or_location)
    return index, _level(board, index, level, what)


def _locations(board, locations):
    """(hexes, levels) arrays for matrix queries: default every hex at ground level."""
    if locations is None:
        return np.arange(len(board), dtype=HEX_INDEX), np.zeros(len(board), np.int64)
    if isinstance(locations, tuple) and len(locations) == 2:
        hexes = board.indices(np.asarray(locations[0]) if not isinstance(locations[0], list) else locations[0])
        levels = np.asarray(locations[1], dtype=np.int64)
        if levels.shape != hexes.shape:
            raise ValueError(f"locations: {hexes.shape[0]} hexes but levels of shape {levels.shape}: expected one level per hex")
    else:
        hexes = board.indices(locations)
        levels = np.zeros(len(hexes), np.int64)
    bad = (levels < 0) | (levels > board.top_level[hexes])
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"locations: level {int(levels[i])} in {board.names[hexes[i]]}: expected 0..{int(board.top_level[hexes[i]])}"
        )
    return np.ascontiguousarray(hexes, dtype=HEX_INDEX), np.ascontiguousarray(levels, dtype=np.int64)


def los_matrix(board, locations=None, *, counters: Counters | None = None) -> np.ndarray:
    """The full N x N LOS matrix between Locations, using symmetry and all threads.

    Parameters
    ----------
    board : Board
    locations : sequence of hexes, or (hexes, levels), optional
        The Locations (default: the ground level of every hex, in index order).
    counters : Counters, optional

    Returns
    -------
    numpy.ndarray of int8, shape (N, N)
        Total hindrance DRM of each visible pair (saturated at 127), or
        :data:`BLOCKED` (-1). Symmetric; diagonal 0.  Memory: N² bytes (use
        :func:`los_matrix_blocks` or :func:`visibility_bits` for big maps).
    """
    hexes, levels = _locations(board, locations)
    out = np.empty((len(hexes), len(hexes)), np.int8)
    K.los_matrix_kernel(_model(board), hexes, levels, _template_tuple(board), _kernel_board_tables(board),
                        _counter_tables(board, counters), out)
    K.mirror_lower(out)
    return out


def los_matrix_blocks(board, locations=None, *, counters: Counters | None = None, block_rows: int = 1024):
    """Yield ``(first_row, rows)`` blocks of the full matrix, ``block_rows`` rows at a time.

    Memory stays at ``block_rows × N`` bytes whatever the map size.
    """
    if isinstance(block_rows, bool) or not isinstance(block_rows, (int, np.integer)) or block_rows < 1:
        raise ValueError(f"block_rows is {block_rows!r}: expected a positive integer")
    hexes, levels = _locations(board, locations)
    tpl = _template_tuple(board)
    tables = _kernel_board_tables(board)
    counter_tables = _counter_tables(board, counters)
    for first in range(0, len(hexes), block_rows):
        rows = np.empty((min(block_rows, len(hexes) - first), len(hexes)), np.int8)
        K.los_rows_kernel(_model(board), hexes, levels, first, tpl, tables, counter_tables, rows)
        yield first, rows


def visibility_bits(board, locations=None, *, counters: Counters | None = None, block_rows: int = 1024) -> np.ndarray:
    """Bit-packed visibility matrix: ``np.unpackbits(bits[i])[j]`` is 1 when j is visible from i.

    Shape ``(N, ceil(N / 8))`` of uint8: N²/8 bytes, computed block by block
    (a 20,000-hex map needs 50 MB).
    """
    hexes, _ = _locations(board, locations)
    bits = np.empty((len(hexes), (len(hexes) + 7) // 8), np.uint8)
    for first, rows in los_matrix_blocks(board, locations, counters=counters, block_rows=block_rows):
        bits[first:first + rows.shape[0]] = np.packbits(rows != BLOCKED, axis=1)
    return bits


@dataclass
class PairsResult:
    """Results of :func:`los_pairs`, one entry per pair (numpy arrays)."""

    visible: np.ndarray
    hindrance: np.ndarray
    blocked_at: np.ndarray
    reason: np.ndarray
    blind: np.ndarray
    continuous_slope: np.ndarray


def los_pairs(board, a, b, *, level_a=0, level_b=0, counters: Counters | None = None) -> PairsResult:
    """Evaluate a batch of LOS pairs ``a[k] -> b[k]`` in parallel (numpy in, numpy out).

    ``a`` and ``b`` are equal-length arrays of hex indices (or lists of names);
    ``level_a`` / ``level_b`` scalars or arrays of Location levels.
    ``reason`` holds codes into :data:`REASONS` (0 = visible).
    """
    hex_a = board.indices(a if not isinstance(a, np.ndarray) else np.asarray(a))
    hex_b = board.indices(b if not isinstance(b, np.ndarray) else np.asarray(b))
    if hex_a.shape != hex_b.shape:
        raise ValueError(f"los_pairs: a has {hex_a.shape[0]} hexes and b {hex_b.shape[0]}: expected equal lengths")
    levels = []
    for name, value, hexes in (("level_a", level_a, hex_a), ("level_b", level_b, hex_b)):
        array = np.broadcast_to(np.asarray(value, dtype=np.int64), hex_a.shape).copy()
        bad = (array < 0) | (array > board.top_level[hexes])
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{name}[{i}] is {int(array[i])} in {board.names[hexes[i]]}: expected 0..{int(board.top_level[hexes[i]])}")
        levels.append(array)
    n = hex_a.shape[0]
    result = PairsResult(np.empty(n, np.bool_), np.empty(n, np.int32), np.empty(n, np.int32),
                         np.empty(n, np.int8), np.empty(n, np.bool_), np.empty(n, np.bool_))
    blocked = np.empty(n, np.bool_)
    K.los_pairs_kernel(_model(board), hex_a, hex_b, levels[0], levels[1], _template_tuple(board),
                       _kernel_board_tables(board), _counter_tables(board, counters), blocked, result.hindrance,
                       result.blocked_at, result.reason, result.blind, result.continuous_slope)
    result.visible = ~blocked
    return result


@dataclass
class FieldOfFire:
    """Per-target results of :func:`field_of_fire` (arrays of length N)."""

    visible: np.ndarray
    hindrance: np.ndarray
    source: np.ndarray
    cover: np.ndarray
    sources: np.ndarray


def field_of_fire(board, sources, *, levels=0, target_level: int = 0, counters: Counters | None = None,
                  unit: str | None = None) -> FieldOfFire:
    """What one or several sources see: visibility, best hindrance and cover per hex.

    Parameters
    ----------
    board : Board
    sources : hex or sequence of hexes
        Firing hexes (names or indices).
    levels : int or sequence of int
        Location level of each source.
    target_level : int
        Targets are at ground level (0) by default.
    counters : Counters, optional
    unit : str, optional
        Firing unit class, for the cover.

    Returns
    -------
    FieldOfFire
        ``visible`` (bool), ``hindrance`` (least DRM over the sources that see
        the hex, :data:`BLOCKED` where none), ``source`` (index into
        ``sources`` of the best one, -1 where none) and ``cover`` (of each
        target against its best source; against the first source where none
        sees it).

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> fire = field_of_fire(board, "71I4")
    >>> bool(fire.visible[board.index("71I4")])
    True
    """
    if isinstance(sources, (str, int, np.integer)):
        sources = [sources]
    source_hexes = board.indices(list(sources) if not isinstance(sources, np.ndarray) else sources)
    if source_hexes.size == 0:
        raise ValueError("field_of_fire: no sources given: expected at least one hex")
    source_levels = np.broadcast_to(np.asarray(levels, dtype=np.int64), source_hexes.shape).copy()
    bad = (source_levels < 0) | (source_levels > board.top_level[source_hexes])
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"levels[{i}] is {int(source_levels[i])} in {board.names[source_hexes[i]]}: "
                         f"expected 0..{int(board.top_level[source_hexes[i]])}")
    if target_level < 0:
        raise ValueError(f"target_level is {target_level}: expected 0 or more")
    targets = np.arange(len(board), dtype=HEX_INDEX)
    target_levels = np.minimum(target_level, board.top_level).astype(np.int64)
    unit_index = board.ruleset.unit_index(unit) if unit is not None else 0
    visible = np.empty(len(board), np.bool_)
    hindrance = np.empty(len(board), np.int32)
    best = np.empty(len(board), np.int32)
    K.field_of_fire_kernel(_model(board), source_hexes, source_levels, targets, target_levels,
                           _template_tuple(board), _kernel_board_tables(board), _counter_tables(board, counters),
                           visible, hindrance, best)
    chosen = np.where(best >= 0, best, 0)
    cover = _cover(board, source_hexes[chosen], source_levels[chosen], targets, target_levels, unit_index)
    return FieldOfFire(visible, hindrance, best, cover, source_hexes)
