"""A VASL board's pixels as the board's own art (:class:`kernel.maps.art.LocalArt`), for the depiction LOS model.

Each VASL terrain code becomes a pixel class of our ``asl`` ruleset through
:data:`~kernel.importers.vasl.terrain_map.TERRAIN_CODES`: a terrain (woods, a
building with its upper levels, grain, ...), a hexside feature (wall, hedge,
bocage, cliff) or Open Ground (roads, bridges, surfaces, and terrain with no
``asl`` equivalent).  A building type of ``BoardMetadata.xml`` overrides the
building pixels of its hex (as it overrides the hex's building).  The
elevation is VASL's, level for level.
"""

from __future__ import annotations

import numpy as np

from kernel.importers.vasl.terrain_map import BUILDING_TYPES, KIND_HEXSIDE, KIND_TERRAIN, TerrainLookup
from kernel.maps.art import LocalArt, PixelClass


def local_art(los, lookup: TerrainLookup, ruleset, grid, building_types: dict[tuple[int, int], str]) -> LocalArt:
    """The art of one VASL board.

    Parameters
    ----------
    los : kernel.importers.vasl.files.LOSData
    lookup : TerrainLookup
        The per-code mapping (:func:`~kernel.importers.vasl.terrain_map.terrain_lookup`).
    ruleset : Ruleset
        The ``asl`` ruleset (for the names of terrain and hexside indices).
    grid : kernel.importers.vasl.pixels.PixelGrid
        The pixel -> hex map of the board.
    building_types : dict
        Local cell -> VASL building type name (``BoardMetadata.xml``).
    """
    classes = [PixelClass()]
    by_class = {PixelClass(): 0}
    code_class = np.zeros(256, np.uint8)
    for code in np.unique(los.terrain):
        code = int(code)
        if lookup.kind[code] == KIND_TERRAIN:
            pixel_class = PixelClass((ruleset.terrain_names[lookup.feature[code]],), int(lookup.levels[code]))
        elif lookup.kind[code] == KIND_HEXSIDE:
            pixel_class = PixelClass(hexsides=(ruleset.hexside_names[lookup.feature[code]],))
        else:
            continue
        code_class[code] = by_class.setdefault(pixel_class, len(classes))
        if code_class[code] == len(classes):
            classes.append(pixel_class)
    terrain = code_class[los.terrain]
    # the building pixels of each overridden hex take its type's class (one pass over the pixels)
    override = np.full(len(grid.cells), -1, np.int16)
    for cell, type_name in building_types.items():
        mapping = BUILDING_TYPES[type_name]
        pixel_class = PixelClass((mapping.name,), mapping.levels)
        if pixel_class not in by_class:
            by_class[pixel_class] = len(classes)
            classes.append(pixel_class)
        override[grid.cell_index[cell]] = by_class[pixel_class]
    if building_types:
        building = np.array([any(name.endswith("building") for name in c.terrain) for c in classes], np.bool_)
        wanted = override[grid.hex_of]
        terrain = np.where((wanted >= 0) & building[terrain], wanted, terrain).astype(np.uint8)
    return LocalArt(tuple(classes), np.ascontiguousarray(terrain), np.ascontiguousarray(los.elevation.astype(np.int8)))
