"""Stage 1 of a VASL import: each hex's terrain, ground level, bridge and building levels from its pixels.

Each pixel belongs to the hex whose centre is nearest (:mod:`kernel.importers.vasl.pixels`).
A hex gets the terrain that dominates its area, the terrain under its centre
dot, features that share the hex with none dominating (cumulative, B.1), any
building depicted in it and any inherent terrain near its centre (B.6).
The thresholds are the named constants below.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kernel.grid.pixels import COLUMN_PITCH, HEX_HEIGHT
from kernel.importers.vasl.files import LOSData
from kernel.importers.vasl.pixels import PixelGrid, cell_name, disc_pixels
from kernel.importers.vasl.terrain_map import KIND_OPEN, KIND_ROAD, KIND_TERRAIN, KIND_UNMAPPED, TerrainLookup

#: A feature covering at least this share of a hex's area dominates it.
DOMINANT_SHARE = 0.5
#: Features covering at least this share each, none dominating, share the hex (B.1).
SHARED_SHARE = 0.3
#: A building depicted over at least this share makes a building hex (B.1).
BUILDING_SHARE = 0.06
#: The centre dot: pixels within this radius; its terrain counts from this share of the hex.
CENTRE_RADIUS = 3.0
CENTRE_MIN_SHARE = 0.15
#: Inherent terrain (B.6) with at least this many pixels within this radius of the centre.
INHERENT_RADIUS = 16.0
INHERENT_MIN_PIXELS = 8
#: A hex's ground level is the elevation under its centre dot (True) or its dominant elevation (False).
GROUND_FROM_CENTRE_DOT = True
#: A road hex: road pixels within this radius of the centre, or this share of the hex.
ROAD_CENTRE_RADIUS = 10.0
ROAD_SHARE = 0.1
ROAD_MIN_PIXELS = 6
#: A bridge hex (A2.8): at least this many bridge pixels within ROAD_CENTRE_RADIUS of the centre.
BRIDGE_MIN_PIXELS = 6
#: The point of a hexside that tells a multi-hex building (a rooftop Location, as VASL reads it): the
#: hexside's midpoint moved this many pixels toward the hex's centre, truncated to whole pixels.
ROOFTOP_INSET = 1.0


@dataclass
class HexClasses:
    """What stage 1 found, per cell ``(column, number)`` (``road`` per hex index of the pixel grid)."""

    terrain: dict[tuple[int, int], tuple[str, ...]] = field(default_factory=dict)
    level: dict[tuple[int, int], int] = field(default_factory=dict)
    building_levels: dict[tuple[int, int], int] = field(default_factory=dict)
    road: np.ndarray = field(default_factory=lambda: np.zeros(0, np.bool_))
    bridge_decks: list[str] = field(default_factory=list)
    #: Hexes whose centre-dot level differs from their dominant elevation, described.
    centre_levels: list[str] = field(default_factory=list)


#: Pixels counted at once by :func:`hex_code_counts` (its temporaries: 8 bytes a pixel).
COUNT_PIXELS = 1 << 21


def hex_code_counts(los: LOSData, grid: PixelGrid) -> tuple[np.ndarray, np.ndarray]:
    """Per hex of the grid, how many of its pixels hold each terrain code (``(hexes, 256)`` int32) and each
    elevation (index ``level + 128``), counted in slabs of columns so the temporaries stay small whatever
    the board's size; what every per-code question (which hexes hold code ``c``) reads instead of scanning
    the board's pixels once per code."""
    n = len(grid.cells)
    codes = np.zeros(n * 256, np.int64)
    levels = np.zeros(n * 256, np.int64)
    slab = max(1, COUNT_PIXELS // max(los.grid_height, 1))
    for x0 in range(0, los.grid_width, slab):
        flat_hex = grid.hex_of[x0:x0 + slab].ravel().astype(np.int64) * 256
        codes += np.bincount(flat_hex + los.terrain[x0:x0 + slab].ravel(), minlength=n * 256)
        levels += np.bincount(flat_hex + (los.elevation[x0:x0 + slab].ravel().astype(np.int64) + 128),
                              minlength=n * 256)
    return codes.reshape(n, 256).astype(np.int32), levels.reshape(n, 256).astype(np.int32)


def hexes_holding(counts: np.ndarray, code: int) -> np.ndarray:
    """The hexes (indices into the grid's cells) with a pixel of terrain ``code``, from :func:`hex_code_counts`."""
    return np.flatnonzero(counts[:, code])


def classify_hexes(los: LOSData, grid: PixelGrid, lookup: TerrainLookup, ruleset,
                   unmapped_hits: dict[int, list[str]], counts=None) -> HexClasses:
    """Terrain, ground level, bridge, building levels and road of every hex of the pixel grid.

    VASL codes with no ``asl`` equivalent that would have decided a hex are
    left out (Open Ground) and collected in ``unmapped_hits`` (code -> hex names).
    """
    n = len(grid.cells)
    code_counts, elev_counts = hex_code_counts(los, grid) if counts is None else counts
    terrain_codes = lookup.kind == KIND_TERRAIN
    bridge_feature = ruleset.terrain_index("bridge")
    result = HexClasses(road=np.zeros(n, np.bool_))
    for i, cell in enumerate(grid.cells):
        counts = code_counts[i]
        cx, cy = grid.centre_x[i], grid.centre_y[i]
        features, shares, centre_code, centre_key = _hex_features(los, lookup, ruleset, counts, cx, cy)
        for key in [k for k in features if isinstance(k, tuple)]:
            unmapped_hits.setdefault(key[1], []).append(cell_name(cell))
        # terrain drawn only in the art (rowhouse walls) is never a hex's terrain
        features = [k for k in features if not isinstance(k, tuple) and not ruleset.terrain_art_only[k]]
        # at most one building type: the larger depiction
        buildings = [k for k in features if ruleset.terrain_names[k].endswith("building")]
        if len(buildings) > 1:
            keep = max(buildings, key=lambda k: shares.get(k, 0.0))
            features = [k for k in features if k not in buildings or k == keep]
        level, dominant = _ground_level(los, lookup, elev_counts[i], cx, cy, centre_code, centre_key in features)
        # a bridge at the centre (A2.8): the bridge terrain, and the ground beneath its deck
        xs, ys = disc_pixels(los, cx, cy, ROAD_CENTRE_RADIUS)
        near_centre = los.terrain[xs, ys]  # (roads and bridges)
        if np.count_nonzero(lookup.bridge[near_centre]) >= BRIDGE_MIN_PIXELS:
            level, deck = bridge_levels(los, grid, i, lookup, features)
            if bridge_feature not in features:
                features.append(bridge_feature)
            if deck != level + 1:
                result.bridge_decks.append(f"{cell_name(cell)} (deck pixels at level {deck}, imported at {level + 1})")
        elif level != dominant:
            result.centre_levels.append(f"{cell_name(cell)} (centre dot {level}, most of the hex {dominant})")
        result.level[cell] = level
        names = tuple(ruleset.terrain_names[k] for k in sorted(features))
        result.terrain[cell] = names
        # building levels: the pixels' building type (the metadata may override them)
        levels = 0
        for name in names:
            if name.endswith("building"):
                feature = ruleset.terrain_index(name)
                codes = [c for c in np.flatnonzero(counts) if terrain_codes[c] and lookup.feature[c] == feature]
                if codes:
                    levels = int(lookup.levels[max(codes, key=lambda c: counts[c])])
        result.building_levels[cell] = levels
        # road hex: road pixels at the centre
        road_pixels = counts[lookup.kind == KIND_ROAD].sum()
        result.road[i] = (np.count_nonzero(lookup.kind[near_centre] == KIND_ROAD) >= ROAD_MIN_PIXELS
                          or road_pixels >= ROAD_SHARE * max(counts.sum(), 1))
    return result


def multi_hex_building(los: LOSData, lookup: TerrainLookup, ruleset, cx: float, cy: float) -> bool:
    """Whether the building of the hex centred at pixel ``(cx, cy)`` is part of a multi-hex building.

    VASL gives a building with upper levels a rooftop Location when its art
    (a building or a rowhouse wall: a terrain of several levels) lies at the
    middle of one of the hex's hexsides (:data:`ROOFTOP_INSET` pixels inside):
    the building reaches the hexside, so it goes on across it.
    """
    multi_level = np.array(ruleset.terrain_multi_level, dtype=bool)
    half_height = HEX_HEIGHT / 2
    across = np.cos(np.radians(30.0)) * half_height - ROOFTOP_INSET  # the midpoints of the slanted hexsides
    points = ((0.0, -half_height + ROOFTOP_INSET), (across, -half_height / 2 + ROOFTOP_INSET),
              (across, half_height / 2 - ROOFTOP_INSET), (0.0, half_height - ROOFTOP_INSET),
              (-across, half_height / 2 - ROOFTOP_INSET), (-across, -half_height / 2 + ROOFTOP_INSET))
    for dx, dy in points:
        x, y = int(cx + dx), int(cy + dy)
        if 0 <= x < los.grid_width and 0 <= y < los.grid_height:
            code = los.terrain[x, y]
            if lookup.kind[code] == KIND_TERRAIN and multi_level[lookup.feature[code]]:
                return True
    return False


def _hex_features(los: LOSData, lookup: TerrainLookup, ruleset, counts: np.ndarray, cx: float, cy: float):
    """``(chosen, shares, centre_code, centre_key)`` of one hex.

    ``chosen`` lists terrain indices and ``("unmapped", code)`` keys in the
    order the rules picked them; ``shares`` is each key's share of the hex area.
    """
    terrain_codes = lookup.kind == KIND_TERRAIN
    unmapped_codes = lookup.kind == KIND_UNMAPPED
    area_codes = terrain_codes | unmapped_codes | (lookup.kind == KIND_OPEN)
    bypass = np.array(ruleset.terrain_bypass, dtype=bool)
    inherent = np.array(ruleset.terrain_inherent, dtype=bool)
    area = counts[area_codes].sum()
    shares: dict[object, float] = {}
    if area > 0:
        for code in np.flatnonzero(counts * (terrain_codes | unmapped_codes)):
            key = int(lookup.feature[code]) if terrain_codes[code] else ("unmapped", int(code))
            shares[key] = shares.get(key, 0.0) + counts[code] / area
    chosen: list[object] = []
    ranked = sorted(shares.items(), key=lambda item: -item[1])
    if ranked and ranked[0][1] >= DOMINANT_SHARE:
        chosen.append(ranked[0][0])
    # the centre dot's terrain
    xs, ys = disc_pixels(los, cx, cy, CENTRE_RADIUS)
    centre_codes = los.terrain[xs, ys]
    centre_codes = centre_codes[area_codes[centre_codes]]
    centre_key = None
    centre_code = None
    if centre_codes.size:
        values, number = np.unique(centre_codes, return_counts=True)
        code = centre_code = int(values[np.argmax(number)])
        if terrain_codes[code]:
            centre_key = int(lookup.feature[code])
        elif unmapped_codes[code]:
            centre_key = ("unmapped", code)
    if centre_key is not None and shares.get(centre_key, 0.0) >= CENTRE_MIN_SHARE and centre_key not in chosen:
        chosen.append(centre_key)
    # features sharing the hex with none dominating (cumulative, B.1)
    for key, share in ranked:
        if share >= SHARED_SHARE and key not in chosen:
            chosen.append(key)
    # building depiction makes a building hex (B.1)
    for key, share in ranked:
        if isinstance(key, int) and bypass[key] and ruleset.terrain_names[key].endswith("building"):
            if share >= BUILDING_SHARE and key not in chosen:
                chosen.append(key)
            break
    # inherent terrain near the centre makes the whole hex that terrain (B.6)
    xs, ys = disc_pixels(los, cx, cy, INHERENT_RADIUS)
    near = los.terrain[xs, ys]
    near_features = lookup.feature[near]
    for key in np.unique(near_features[terrain_codes[near]]):
        key = int(key)
        if inherent[key] and key not in chosen and np.count_nonzero(near_features == key) >= INHERENT_MIN_PIXELS:
            chosen.append(key)
    return chosen, shares, centre_code, centre_key


def _ground_level(los: LOSData, lookup: TerrainLookup, elevations: np.ndarray, cx: float, cy: float,
                  centre_code: int | None, centre_is_feature: bool) -> tuple[int, int]:
    """``(level, dominant)``: a hex's ground level and the hex's dominant elevation.

    The level is the elevation under the centre dot (B.1: the dominant
    terrain, hills included, usually includes the centre dot; VASL reads it
    there too), or the dominant elevation when :data:`GROUND_FROM_CENTRE_DOT`
    is off; a depression under the centre dot gives its own level either way.
    """
    dominant = int(np.argmax(elevations)) - 128 if elevations.sum() else 0
    xs, ys = disc_pixels(los, cx, cy, CENTRE_RADIUS)
    level = dominant
    if centre_code is not None and lookup.depression[centre_code] and centre_is_feature:
        level = _most_common(los.elevation[xs, ys][los.terrain[xs, ys] == centre_code])
    elif GROUND_FROM_CENTRE_DOT and xs.size:
        level = _most_common(los.elevation[xs, ys])
    return level, dominant


def _most_common(values: np.ndarray) -> int:
    found, number = np.unique(values, return_counts=True)
    return int(found[np.argmax(number)])


def bridge_levels(los: LOSData, grid: PixelGrid, i: int, lookup: TerrainLookup, features: list) -> tuple[int, int]:
    """``(ground, deck)`` levels of bridge hex ``i``: the most common elevation of
    its depression pixels (of any pixels off the bridge and road when it has no
    depression), and of its bridge pixels."""
    # the hex's own pixels, looked for in a box around its centre (a hex is at most a column pitch wide and
    # a hex height tall): a scan of the whole board for each bridge hex cost minutes on a big board
    cx, cy = grid.centre_x[i], grid.centre_y[i]
    x0, x1 = max(int(cx - COLUMN_PITCH) - 1, 0), min(int(cx + COLUMN_PITCH) + 2, los.grid_width)
    y0, y1 = max(int(cy - HEX_HEIGHT) - 1, 0), min(int(cy + HEX_HEIGHT) + 2, los.grid_height)
    inside = grid.hex_of[x0:x1, y0:y1] == i
    codes = los.terrain[x0:x1, y0:y1][inside]
    elevation = los.elevation[x0:x1, y0:y1][inside]
    depression = lookup.depression[codes] & np.isin(lookup.feature[codes], features)
    beneath = depression if depression.any() else lookup.kind[codes] != KIND_ROAD
    if not beneath.any():
        beneath = ~lookup.bridge[codes]

    def most_common(values):
        found, number = np.unique(values, return_counts=True)
        return int(found[np.argmax(number)])

    return most_common(elevation[beneath]), most_common(elevation[lookup.bridge[codes]])
