"""What the interactive map page embeds: the map's drawing data and the precomputed LOS and movement tables.

:func:`page_data` computes everything the page's script needs once, in
Python, so the page answers every click from embedded arrays with no server:

* the map: hex centres in display units (as :class:`kernel.render.common.Frame`
  draws them), names, hill-level and terrain colours, buildings, hexside
  features and roads, and a legend;
* **field of fire**: the full LOS matrix (:func:`kernel.los_matrix`, int8:
  hindrance DRM or ``BLOCKED`` = -1, row = viewer at ground level, column =
  target at ground level) and one such row for every upper Location (a
  building level or bridge deck, from :func:`kernel.field_of_fire`);
* **one LOS**: per ordered ground-level pair, what :func:`kernel.los_pairs`
  gives (the blocking hex, the reason, blind hex, continuous slope, the
  target's cover, the hindrance of a blocked pair: one triangle where it is
  the same both ways), so the page writes the verdict line of
  :meth:`kernel.LOSResult.explain` for any pair; the hindrance steps of the
  visible hindered pairs and the blind steps of the blind pairs
  (:mod:`kernel.render.page_steps`); the hex-by-hex list of every step is
  ``hexkernel los A B --explain`` (too big to embed for all N² pairs); the
  A6.4 arithmetic as the templates of :mod:`kernel.line_of_sight.report`
  (``blind_text``), which the page fills in;
* **the depiction model** on a map with a board's own art (a VASL board):
  the art as a PNG (:mod:`kernel.render.page_art`) and the same LOS tables
  by ``model="depiction"`` (``los_depiction``), whose steps are the runs of
  art pixels that decided each blocked or hindered pair
  (:func:`kernel.render.page_steps.judged_pixel_runs`);
* **movement**: for each whole allowance ``1..max_allowance`` MF, the
  movement matrix (:func:`kernel.movement_matrix`) of the unit class, as
  uint8 half-MF (255: not reachable within that allowance), because the
  costs of all-MF moves depend on the allowance; and the cheapest paths as a
  pointer tree per start (:mod:`kernel.render.page_paths`).

Every table is a little-endian byte string, compressed with zlib's gzip
format and base64-encoded; the page inflates it with the browser's own
``DecompressionStream`` (no library, works from a ``file://`` URL).
"""

from __future__ import annotations

import base64
import gzip
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from kernel.grid.lattice import axial_from_offset
from kernel.render.common import SQRT3, Frame, level_colour, terrain_colour, local_names
from kernel._dtypes import MAX_MATRIX_DRM
from kernel.maps.state_lock import holding_state

#: Sentinels of the embedded tables (documented for the page's script).
NO_BLOCKING_HEX = 65535
NOT_REACHABLE = 255
#: The most MF the movement slider offers by default.
DEFAULT_MAX_ALLOWANCE = 8
#: Rows of ordered pairs evaluated per call of :func:`kernel.los_pairs` (memory bound).
_PAIR_ROWS = 256

#: The A6.4 texts of :mod:`kernel.line_of_sight.report` the page fills in (the CLI's own templates).
BLIND_TEXTS = ("BLIND_ENDS_TEXT", "OBSTACLE_BLIND_FORMULA", "CREST_BLIND_FORMULA", "BLIND_VERDICT",
               "NOT_BLIND_VERDICT")
_BUILDINGS = {"stone-building", "wooden-building", "building"}
_HEXSIDE_COLOURS = {"wall": "#37474f", "hedge": "#2e8b2e", "bocage": "#0d4d14", "hedgerow": "#0b3d0b",
                    "cliff": "#4e2a1e", "stream": "#1e88e5", "fieldworks": "#8b3a1a"}
_ROAD_COLOUR = "#c45a1a"


def pack(array: np.ndarray) -> str:
    """An array's little-endian bytes, gzip-compressed and base64-encoded (what the page inflates).

    >>> import numpy as np
    >>> len(pack(np.zeros(1000, np.int8))) < 100
    True
    """
    data = np.ascontiguousarray(array)
    if data.dtype.byteorder == ">":
        data = data.astype(data.dtype.newbyteorder("<"))
    return base64.b64encode(gzip.compress(data.tobytes(), compresslevel=6, mtime=0)).decode("ascii")


def _round(values) -> list[float]:
    return [round(float(v), 3) for v in values]


def map_drawing(board) -> dict:
    """The map's drawing data: centres, hex outline, fills, terrain insets, hexsides, roads, legend."""
    frame = Frame(board)
    rs = board.ruleset
    outline = frame.hexagons(hexes=[0])[0] - np.array([frame.cx[0], frame.cy[0]])
    colours: list[str] = []

    def colour_index(colour: str) -> int:
        if colour not in colours:
            colours.append(colour)
        return colours.index(colour)

    levels = board.ground_level.astype(int)
    fill = [colour_index(level_colour(v)) for v in levels]
    legend = []
    for v in sorted(set(levels.tolist())):
        label = "ground level 0" if v == 0 else (f"hill level {v}" if v > 0 else f"depression level {v}")
        legend.append({"kind": "fill", "colour": level_colour(v), "label": label})
    insets, buildings = [], []
    for t, name in enumerate(rs.terrain_names):
        has = np.flatnonzero((board.terrain & np.uint32(1 << t)) != 0)
        if has.size == 0:
            continue
        c = colour_index(terrain_colour(rs, t))
        if name in _BUILDINGS:
            buildings.extend([int(i), c] for i in has)
            legend.append({"kind": "square", "colour": terrain_colour(rs, t), "label": f"{name} (square)"})
        else:
            insets.extend([int(i), c] for i in has)
            legend.append({"kind": "inset", "colour": terrain_colour(rs, t), "label": name})
    segments, roads = [], []   # roads apart: the art does not draw them
    nb = board.neighbours
    own = np.arange(len(board))[:, None]
    for k, name in enumerate(rs.hexside_names):
        mask = (board.hexside & np.uint16(1 << k)) != 0
        if rs.hexside_road[k]:
            hexes, dirs = np.nonzero(mask)
            if hexes.size == 0:
                continue
            c = colour_index(_ROAD_COLOUR)
            for h, d in zip(hexes, dirs):
                mx, my = frame.hexside_midpoint(int(h), int(d))
                roads.append([*_round([frame.cx[h], frame.cy[h], mx, my]), c, 0.6])
            legend.append({"kind": "line", "colour": _ROAD_COLOUR, "label": "road"})
            continue
        hexes, dirs = np.nonzero(mask & ((nb < 0) | (own < nb)))
        if hexes.size == 0:
            continue
        colour = _HEXSIDE_COLOURS.get(name, "#7b1fa2")
        c = colour_index(colour)
        for (x0, y0), (x1, y1) in frame.hexside_segments(hexes, dirs):
            segments.append([*_round([x0, y0, x1, y1]), c, 0.45])
        legend.append({"kind": "line", "colour": colour, "label": f"{name} (hexside)"})
    q, r = axial_from_offset(board.col.astype(np.int64), board.row.astype(np.int64))
    return {
        "x": _round(frame.cx), "y": _round(frame.cy), "outline": _round(outline.ravel()),
        "names": list(board.names), "labels": local_names(board), "boards": [str(b) for b in board.board_id],
        "q": q.astype(int).tolist(), "r": r.astype(int).tolist(),
        "ground": levels.tolist(), "top": board.top_level.astype(int).tolist(),
        "building": board.building_levels.astype(int).tolist(), "rooftop": board.rooftop.astype(int).tolist(),
        "obstacle": board.obstacle_height.astype(int).tolist(),     # half levels (A6.4 arithmetic)
        "from_above": board.obstacle_from_above.astype(int).tolist(),
        "colours": colours, "fill": fill, "insets": insets, "buildings": buildings, "segments": segments, "roads": roads,
        "legend": legend, "hex_height": round(SQRT3 * 2, 4),
    }


def los_tables(board, counters=None, unit=None, model: str = "hex", *, packer=pack) -> dict:
    """The field-of-fire matrix, the upper Locations' rows and the per-pair LOS details of one LOS model, packed
    (by ``packer``: :func:`pack`, or what :func:`page_data` resolves to its result later)."""
    from kernel.line_of_sight.bulk import los_matrix, los_pairs
    from kernel.line_of_sight.fields import field_of_fire
    from kernel.render.page_steps import judged_pixel_runs, los_steps

    n = len(board)
    matrix = los_matrix(board, counters=counters, model=model)
    upper = []
    for hex_index in np.flatnonzero(board.top_level > 0):
        for level in range(1, int(board.top_level[hex_index]) + 1):
            fire = field_of_fire(board, [int(hex_index)], levels=[level], counters=counters, unit=unit,
                                 model=model)
            row = np.where(fire.visible, np.minimum(fire.hindrance, MAX_MATRIX_DRM), -1).astype(np.int8)
            upper.append({"hex": int(hex_index), "level": level, "row": packer(row)})
    blocked_at = np.empty((n, n), np.uint16)
    detail = np.empty((n, n), np.uint8)
    cover = np.empty((n, n), np.int8)
    blocked_hindrance = np.zeros((n, n), np.int8)
    columns = np.arange(n, dtype=np.int64)
    for first in range(0, n, _PAIR_ROWS):
        rows = np.arange(first, min(n, first + _PAIR_ROWS), dtype=np.int64)
        result = los_pairs(board, rows, columns, product=True, counters=counters, unit=unit, model=model)
        shape = (rows.size, n)
        blocked_at[rows] = np.where(result.blocked_at >= 0, result.blocked_at, NO_BLOCKING_HEX).reshape(shape)
        detail[rows] = (result.reason.astype(np.uint8) | (result.continuous_slope.astype(np.uint8) << 3)
                        | (result.blind.astype(np.uint8) << 4)).reshape(shape)
        blocked_hindrance[rows] = np.where(result.visible, 0, np.minimum(result.hindrance, MAX_MATRIX_DRM)).reshape(shape)
        cover[rows] = np.clip(result.cover, -128, 127).astype(np.int8).reshape(shape)
    from kernel.line_of_sight.results import REASONS

    # the hindrance of blocked pairs is mostly the same both ways: then only the upper triangle is kept (the
    # page reads pair (a, b) at (min, max)), which halves the largest table
    symmetric = bool(np.array_equal(blocked_hindrance, blocked_hindrance.T))
    kept = np.triu(blocked_hindrance) if symmetric else blocked_hindrance
    tables = {"model": model, "matrix": packer(matrix), "upper": upper,
              "blocked_at": packer(blocked_at.astype("<u2")), "detail": packer(detail), "cover": packer(cover),
              "blocked_hindrance": packer(kept),
              "blocked_hindrance_symmetric": symmetric, "reasons": list(REASONS)}
    if model == "hex":
        blind = (matrix < 0) & ((detail & 7) == REASONS.index("blind hex"))
        steps = los_steps(board, counters, matrix > 0, blind)
        tables["steps"] = {"counts": packer(steps["counts"]), "hexes": packer(steps["hexes"].astype("<u2")),
                           "values": packer(steps["values"])}
    else:   # the depiction model's steps are runs of art pixels: the ones that decided something
        runs = judged_pixel_runs(board, counters, matrix)
        tables["runs"] = {"counts": packer(runs["counts"]), "hexes": packer(runs["hexes"].astype("<u2")),
                          "classes": packer(runs["classes"]), "values": packer(runs["values"]),
                          "pixels": packer(runs["pixels"].astype(runs["pixels"].dtype.newbyteorder("<"))),
                          "pixel_bytes": runs["pixels"].dtype.itemsize, "class_names": runs["class_names"],
                          "hexside_run_name": runs["hexside_run_name"]}
    return tables


def movement_tables_packed(board, unit: str, max_allowance: int, counters=None, *, packer=pack) -> dict:
    """Movement matrices for whole allowances ``1..max_allowance``, uint8 half-MF, packed (by ``packer``)."""
    from kernel.movement.fields import movement_matrix

    rows = []
    for allowance in range(1, max_allowance + 1):
        costs = movement_matrix(board, unit=unit, allowance=allowance, counters=counters)
        half = np.where(costs <= 2 * allowance, costs, NOT_REACHABLE).astype(np.uint8)
        rows.append(packer(half))
    return {"unit": unit, "max": max_allowance, "tables": rows}


@holding_state
def page_data(board, *, counters=None, unit: str | None = None,
              max_allowance: int = DEFAULT_MAX_ALLOWANCE, pieces: dict | None = None) -> dict:
    """Everything the page embeds, as a JSON-ready dict (see the module's docstring).

    Parameters
    ----------
    board : Board
    counters : Counters or GameState, optional
        SMOKE, vehicles and units (a counters file: :meth:`kernel.Counters.from_dict`);
        they change the LOS and movement tables and are drawn.
    unit : str, optional
        Unit class for movement and cover (default: the ruleset's first).
    max_allowance : int
        The movement slider's largest allowance in MF (1..127).
    pieces : dict, optional
        Named pieces to list beside the map (a saved game's): ``{"units": [{"name", "side", "hex", "level",
        "location"}, ...], "counters": [{"name", "kind", "hex", "location"}, ...]}``; a unit of the list is
        clicked for its field of fire.

    Returns
    -------
    dict

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("71")
    >>> data = page_data(board, counters=kernel.Counters.on(board, smoke={"71I9": 3, "71P5h1": 2}), max_allowance=2)
    >>> data["n"], data["unit"], len(data["move"]["tables"]), data["counters"]["smoke"]  # hex, DRM, its level
    (346, 'infantry', 2, [[92, 3, 0], [162, 2, 1]])
    """
    from kernel.line_of_sight import report
    from kernel.maps.counters import counter_values, smoke_base_values
    from kernel.render.page_art import art_background
    from kernel.render.page_paths import movement_paths

    if isinstance(max_allowance, bool) or not isinstance(max_allowance, (int, np.integer)) \
            or not 1 <= max_allowance <= 127:
        raise ValueError(f"max_allowance is {max_allowance!r}: expected an integer 1..127")
    unit = unit if unit is not None else board.ruleset.unit_classes[0]
    if unit not in board.ruleset.unit_classes:
        raise ValueError(f"unit class {unit!r} is not in ruleset {board.ruleset.name!r}: expected one of "
                         f"{', '.join(board.ruleset.unit_classes)}")
    smoke, vehicles, units = {}, [], []
    if counters is not None:
        smoke_drm, _, vehicle_mask, unit_mask = counter_values(board, counters)  # checked here
        smoke_base = smoke_base_values(board, counters)
        smoke = {int(h): (int(smoke_drm[h]), int(smoke_base[h])) for h in np.flatnonzero(smoke_drm)}
        vehicles, units = np.flatnonzero(vehicle_mask).tolist(), np.flatnonzero(unit_mask).tolist()
    on_map = counters if smoke or vehicles or units else None
    art = art_background(board)
    # the tables are compressed on a second thread (zlib lets go of the GIL) while the next ones are computed:
    # the LOS tables first, so their compression overlaps the path trees' Python
    pool = ThreadPoolExecutor(max_workers=1)

    def packer(array):
        return pool.submit(pack, array)

    try:
        los = los_tables(board, on_map, unit, packer=packer)
        parent, full = movement_paths(board, unit, int(max_allowance), counters=on_map)
        data = {
            "title": board.title, "ruleset": board.ruleset.name, "n": len(board), "unit": unit,
            "map": map_drawing(board),
            "counters": {"smoke": [[i, d, level] for i, (d, level) in sorted(smoke.items())],
                         "vehicles": sorted(vehicles), "units": sorted(units)},
            "los": los,
            "move": movement_tables_packed(board, unit, int(max_allowance), counters=on_map, packer=packer),
            "paths": {"parent": packer(parent), "neighbours": packer(board.neighbours.astype("<i2")),
                      "full_keys": packer(np.array([s * len(board) + t for s, t, _ in full], "<u4")),
                      "full_lengths": packer(np.array([len(p) for _, _, p in full], "<u2")),
                      "full_hexes": packer(np.array([h for _, _, p in full for h in p], "<u2"))},
            "blind_text": {name: getattr(report, name) for name in BLIND_TEXTS},
            "art": art,
        }
        if art is not None:
            data["los_depiction"] = los_tables(board, on_map, unit, model="depiction", packer=packer)
        data = _resolved(data)
    finally:   # an error or an interrupt: the tables not compressed yet are dropped, not waited for
        pool.shutdown(wait=True, cancel_futures=True)
    data["pieces"] = _pieces(board, pieces)
    return data


def _resolved(value):
    """``value`` with every :class:`~concurrent.futures.Future` in its dicts and lists replaced by its result."""
    if isinstance(value, Future):
        return value.result()
    if isinstance(value, dict):
        return {key: _resolved(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_resolved(item) for item in value]
    return value


def _pieces(board, pieces: dict | None) -> dict:
    """The named units and counters the page lists, checked: every hex on the map, every level one of its hex's."""
    out: dict = {"units": [], "counters": []}
    for key in ("units", "counters"):
        for item in (pieces or {}).get(key, ()):
            name, hex_ = str(item.get("name", "")), item.get("hex")
            if isinstance(hex_, bool) or not isinstance(hex_, (int, np.integer)) or not 0 <= hex_ < len(board):
                raise ValueError(f"pieces[{key!r}]: {name!r} has hex {hex_!r}: expected a hex index 0..{len(board) - 1}")
            entry = {"name": name, "hex": int(hex_), "location": str(item.get("location") or board.names[hex_])}
            if key == "units":
                level, side = item.get("level", 0), item.get("side")
                if isinstance(level, bool) or not isinstance(level, (int, np.integer)) \
                        or not 0 <= level <= int(board.top_level[hex_]):
                    raise ValueError(f"pieces['units']: {name!r} is at level {level!r} of {board.names[hex_]}: "
                                     f"expected 0..{int(board.top_level[hex_])}")
                entry.update(level=int(level), side=None if side is None else str(side))
            else:
                entry["kind"] = str(item.get("kind", "counter"))
            out[key].append(entry)
    return out
