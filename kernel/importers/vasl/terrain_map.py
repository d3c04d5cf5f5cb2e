"""What each VASL terrain becomes in the ``asl`` ruleset (:data:`TERRAIN_MAP`), and the per-code lookup arrays built from it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernel.importers.vasl.files import VaslTerrain


@dataclass(frozen=True)
class Mapping:
    """What one VASL terrain becomes in the ``asl`` ruleset.

    ``kind`` is ``"open"`` (no feature), ``"terrain"`` (hex terrain ``name``;
    ``levels`` upper building levels), ``"hexside"`` (hexside feature
    ``name``) or ``"road"`` (road pixels: open for the hex, road hexsides;
    with ``bridge``, a bridge: at a hex's centre it gives the hex the
    ``bridge`` terrain and its deck, see :data:`BRIDGE_MIN_PIXELS`).
    """

    kind: str
    name: str | None = None
    levels: int = 0
    depression: bool = False
    bridge: bool = False


_OPEN = Mapping("open")


_ROAD = Mapping("road")


_BRIDGE = Mapping("road", bridge=True)


def _building(kind: str, levels: int) -> Mapping:
    return Mapping("terrain", kind, levels)


#: VASL terrain name -> our ``asl`` terrain. Names not listed import as Open
#: Ground with a :class:`VaslImportWarning`. See ``docs/vasl-agreement.md``.
TERRAIN_MAP: dict[str, Mapping] = {
    # Open Ground and surfaces that do not change the hex for LOS or movement here
    "Open Ground": _OPEN, "Plowed Field": _OPEN, "Runway": _OPEN, "Path": _OPEN, "Track": _OPEN,
    "Snow": _OPEN, "Deep Snow": _OPEN, "Ice": _OPEN, "Mud": _OPEN,
    # roads and bridges: road hexsides; the hex keeps the terrain around (or under) them, and a
    # bridge at its centre adds the bridge terrain (a deck Location above the hex's ground)
    "Dirt Road": _ROAD, "Paved Road": _ROAD, "Elevated Road": _ROAD, "Sunken Road": _ROAD,
    "Single Hex Stone Bridge": _BRIDGE, "Single Hex Wooden Bridge": _BRIDGE, "Stone Bridge": _BRIDGE,
    "Wooden Bridge": _BRIDGE, "Pontoon Bridge": _BRIDGE, "Foot Bridge": _BRIDGE,
    # hindrances
    "Grain": Mapping("terrain", "grain"), "Brush": Mapping("terrain", "brush"),
    "Marsh": Mapping("terrain", "marsh"), "Crags": Mapping("terrain", "crag"),
    "Graveyard": Mapping("terrain", "graveyard"), "Shellholes": Mapping("terrain", "shellholes"),
    "Orchard": Mapping("terrain", "orchard"), "Orchard, Out of Season": Mapping("terrain", "orchard"),
    # obstacles
    "Woods": Mapping("terrain", "woods"),
    "Stone Building": _building("stone-building", 0),
    "Stone Building, 1 Level": _building("stone-building", 1),
    "Stone Building, 2 Level": _building("stone-building", 2),
    "Stone Building, 3 Level": _building("stone-building", 3),
    "Stone Building, 4 Level": _building("stone-building", 4),
    "Wooden Building": _building("wooden-building", 0),
    "Wooden Building, 1 Level": _building("wooden-building", 1),
    "Wooden Building, 2 Level": _building("wooden-building", 2),
    "Wooden Building, 3 Level": _building("wooden-building", 3),
    "Wooden Building, 4 Level": _building("wooden-building", 4),
    "Stone Rubble": Mapping("terrain", "rubble"), "Wooden Rubble": Mapping("terrain", "rubble"),
    "Stone Rubble Ground Level": Mapping("terrain", "rubble"),
    "Wooden Rubble Ground Level": Mapping("terrain", "rubble"),
    # water and depressions
    "Water": Mapping("terrain", "water"), "Shallow Water": Mapping("terrain", "water"),
    "River": Mapping("terrain", "water"), "Shallow River": Mapping("terrain", "water"),
    "Canal": Mapping("terrain", "water"), "Ocean": Mapping("terrain", "water"),
    "Gully": Mapping("terrain", "gully", depression=True),
    "Dry Stream": Mapping("terrain", "gully", depression=True),
    "Wadi": Mapping("terrain", "gully", depression=True),
    "Shallow Stream": Mapping("terrain", "stream", depression=True),
    "Deep Stream": Mapping("terrain", "stream", depression=True),
    "Ford": Mapping("terrain", "stream"),
    # hexside features
    "Wall": Mapping("hexside", "wall"), "Hedge": Mapping("hexside", "hedge"),
    "Bocage": Mapping("hexside", "bocage"), "Cliff": Mapping("hexside", "cliff"),
}


#: VASL building type names allowed in ``BoardMetadata.xml`` overrides.
BUILDING_TYPES = {name: m for name, m in TERRAIN_MAP.items() if m.kind == "terrain" and "building" in (m.name or "")}


@dataclass
class TerrainLookup:
    """Per-typeCode lookup arrays built from the terrain table and the map."""

    kind: np.ndarray        # 0 open, 1 terrain, 2 hexside, 3 road, 4 unmapped, 5 unknown
    feature: np.ndarray     # our terrain index (kind 1) or hexside index (kind 2), else -1
    levels: np.ndarray      # building levels of kind-1 building codes
    depression: np.ndarray  # bool
    hexside_category: np.ndarray  # bool: LOSCategory HEXSIDE
    names: dict[int, str]
    bridge: np.ndarray  # bool: a bridge (kind 3, road)


KIND_OPEN, KIND_TERRAIN, KIND_HEXSIDE, KIND_ROAD, KIND_UNMAPPED, KIND_UNKNOWN = range(6)


def terrain_lookup(table: dict[int, VaslTerrain], ruleset) -> TerrainLookup:
    kind = np.full(256, KIND_UNKNOWN, np.int8)
    feature = np.full(256, -1, np.int16)
    levels = np.zeros(256, np.int16)
    depression = np.zeros(256, np.bool_)
    hexside_category = np.zeros(256, np.bool_)
    bridge = np.zeros(256, np.bool_)
    names = {}
    for code, terrain in table.items():
        if not 0 <= code <= 255:
            continue
        names[code] = terrain.name
        hexside_category[code] = terrain.category == "HEXSIDE"
        mapping = TERRAIN_MAP.get(terrain.name)
        if mapping is None:
            kind[code] = KIND_UNMAPPED
        elif mapping.kind == "open":
            kind[code] = KIND_OPEN
        elif mapping.kind == "road":
            kind[code] = KIND_ROAD
            bridge[code] = mapping.bridge
        elif mapping.kind == "hexside":
            kind[code] = KIND_HEXSIDE
            feature[code] = ruleset.hexside_index(mapping.name)
        else:
            kind[code] = KIND_TERRAIN
            feature[code] = ruleset.terrain_index(mapping.name)
            levels[code] = mapping.levels
            depression[code] = mapping.depression
    return TerrainLookup(kind, feature, levels, depression, hexside_category, names, bridge)
