"""Stage 3 of a VASL import: walls, hedges and roads on hexsides, and each hex's ``touch`` bits.

Hexside features are sampled in a thin band along each hexside
(:func:`~kernel.importers.vasl.pixels.hexside_pixels`); a road hexside joins
two road hexes whose road pixels cross the hexside's midpoint region; a hex
with a Bypass terrain gets a ``touch`` bit (A4.3) for each hexside its
obstacle pixels reach.
"""

from __future__ import annotations

import numpy as np

from kernel.grid.lattice import CENTRE_STEP, neighbour
from kernel.importers.vasl.files import LOSData
from kernel.importers.vasl.hex_terrain import ROAD_MIN_PIXELS, HexClasses
from kernel.grid.pixels import UNIT_X, UNIT_Y
from kernel.importers.vasl.pixels import PixelGrid, cell_name, disc_pixels, hexside_pixels
from kernel.importers.vasl.terrain_map import KIND_HEXSIDE, KIND_ROAD, KIND_TERRAIN, KIND_UNMAPPED, TerrainLookup
from kernel.maps.specs import BoardSpec

#: A hexside feature covering at least this share of the hexside's sample band counts.
HEXSIDE_MIN_SHARE = 0.15
#: Road pixels within this radius of a hexside's midpoint make a road hexside.
ROAD_SIDE_RADIUS = 8.0
#: Bypass-obstacle pixels within this radius of a hexside's midpoint set its touch bit.
TOUCH_RADIUS = 6.0
TOUCH_MIN_PIXELS = 3


def classify_hexsides(los: LOSData, grid: PixelGrid, lookup: TerrainLookup, ruleset, spec: BoardSpec,
                      hexes: HexClasses, unmapped_hits: dict[int, list[str]]) -> dict[tuple[int, int], int]:
    """Fill ``spec.hexsides``; return the ``touch`` bits of each hex holding a Bypass terrain.

    Hexside codes with no ``asl`` equivalent are collected in ``unmapped_hits``.
    """
    bypass = np.array(ruleset.terrain_bypass, dtype=bool)
    hexside_mask = lookup.kind == KIND_HEXSIDE
    road_mask = lookup.kind == KIND_ROAD
    unmapped_codes = lookup.kind == KIND_UNMAPPED
    bypass_codes = (lookup.kind == KIND_TERRAIN) & np.isin(lookup.feature, np.flatnonzero(bypass))
    order = {name: k for k, name in enumerate(ruleset.hexside_names)}
    touch: dict[tuple[int, int], int] = {}
    for i, cell in enumerate(grid.cells):
        cx, cy = grid.centre_x[i], grid.centre_y[i]
        col, row = cell[0], spec.lattice_row(*cell)
        has_bypass = any(bypass[ruleset.terrain_index(t)] for t in hexes.terrain[cell])
        bits = 0
        for direction in range(6):
            other_col, other_row = neighbour(col, row, direction)
            other = (other_col, other_row + 1 - other_col % 2)
            on_board = spec.contains(other)
            mx = cx + CENTRE_STEP[direction][0] * UNIT_X / 2
            my = cy + CENTRE_STEP[direction][1] * UNIT_Y / 2
            if has_bypass:
                xs, ys = disc_pixels(los, mx, my, TOUCH_RADIUS)
                if np.count_nonzero(bypass_codes[los.terrain[xs, ys]]) >= TOUCH_MIN_PIXELS:
                    bits |= 1 << direction
            if on_board and other < cell:
                continue  # each interior hexside once, from its smaller cell
            features: list[str] = []
            xs, ys = hexside_pixels(los, cx, cy, direction)
            if xs.size >= 10:
                sampled = los.terrain[xs, ys]
                wanted = hexside_mask[sampled] | (unmapped_codes[sampled] & lookup.hexside_category[sampled])
                for code in np.unique(sampled[wanted]):
                    share = np.count_nonzero(sampled == code) / sampled.size
                    if share < HEXSIDE_MIN_SHARE:
                        continue
                    if hexside_mask[code]:
                        name = ruleset.hexside_names[int(lookup.feature[code])]
                        if name not in features:
                            features.append(name)
                    else:
                        unmapped_hits.setdefault(int(code), []).append(f"{cell_name(cell)}:{direction}")
            if on_board and hexes.road[i] and hexes.road[grid.cell_index[other]]:
                xs, ys = disc_pixels(los, mx, my, ROAD_SIDE_RADIUS)
                if np.count_nonzero(road_mask[los.terrain[xs, ys]]) >= ROAD_MIN_PIXELS:
                    features.append("road")
            if features:
                spec.hexsides[(cell, direction)] = tuple(sorted(features, key=order.__getitem__))
        if has_bypass:
            touch[cell] = bits
    return touch
