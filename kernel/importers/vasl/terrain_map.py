"""What each VASL terrain becomes in the ``asl`` ruleset (:data:`TERRAIN_CODES`), and the per-code lookup arrays built from it."""

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


#: VASL ``typeCode`` -> (VASL's name for it, what it becomes in the ``asl`` ruleset), for every
#: terrain type of VASL's ``SharedBoardMetadata.xml``. Keyed by code, as the pixels of ``LOSData``
#: are: VASL's table names two codes "Scrub" (100 and 121). ``None``: no ``asl`` equivalent; a hex
#: or hexside it would decide is imported as Open Ground with a :class:`VaslImportWarning` naming
#: the code and the hexes. A table whose code carries another name is matched by name
#: (:data:`TERRAIN_MAP`). See ``docs/vasl-agreement.md``.
TERRAIN_CODES: dict[int, tuple[str, Mapping | None]] = {
    0: ("Open Ground", _OPEN),
    1: ("Plowed Field", _OPEN),
    2: ("Rooftop", None),
    3: ("Snow", _OPEN),
    4: ("Deep Snow", _OPEN),
    5: ("Ice", _OPEN),
    6: ("Mud", _OPEN),
    7: ("Mudflats", None),
    8: ("Water", Mapping("terrain", "water")),
    9: ("Shallow Water", Mapping("terrain", "water")),
    10: ("River", Mapping("terrain", "water")),
    11: ("Shallow River", Mapping("terrain", "water")),
    12: ("Ford", Mapping("terrain", "stream")),
    13: ("Canal", Mapping("terrain", "water")),
    14: ("Marsh", Mapping("terrain", "marsh")),
    15: ("Shellholes", Mapping("terrain", "shellholes")),
    20: ("Foxholes", None),
    21: ("Trench", None),
    22: ("Antitank Trench", None),
    23: ("Pillbox", None),
    24: ("Grain", Mapping("terrain", "grain")),
    25: ("Brush", Mapping("terrain", "brush")),
    26: ("Crags", Mapping("terrain", "crag")),
    27: ("Debris", None),
    28: ("Graveyard", Mapping("terrain", "graveyard")),
    29: ("Lumberyard", None),
    30: ("Gully", Mapping("terrain", "gully", depression=True)),
    31: ("Dry Stream", Mapping("terrain", "gully", depression=True)),
    32: ("Shallow Stream", Mapping("terrain", "stream", depression=True)),
    33: ("Deep Stream", Mapping("terrain", "stream", depression=True)),
    34: ("Flooded Stream", None),
    35: ("Irrigation Ditch", None),
    40: ("Stone Building", _building("stone-building", 0)),
    41: ("Stone Building, 1 Level", _building("stone-building", 1)),
    42: ("Stone Building, 2 Level", _building("stone-building", 2)),
    43: ("Stone Building, 3 Level", _building("stone-building", 3)),
    44: ("Stone Building, 4 Level", _building("stone-building", 4)),
    45: ("Stone Factory Wall, 1.5 Level", None),
    46: ("Stone Factory Wall, 2.5 Level", None),
    47: ("Stone Factory, 1.5 Level", None),
    48: ("Stone Factory, 2.5 Level", None),
    # a market place: VASL gives it a building's flags and height (as tall as a building of one upper
    # level) and, as to every building but the plain single-storey one, its height's upper levels: h1
    49: ("Stone Market Place", _building("stone-building", 1)),
    50: ("Wooden Building", _building("wooden-building", 0)),
    51: ("Wooden Building, 1 Level", _building("wooden-building", 1)),
    52: ("Wooden Building, 2 Level", _building("wooden-building", 2)),
    53: ("Wooden Building, 3 Level", _building("wooden-building", 3)),
    54: ("Wooden Building, 4 Level", _building("wooden-building", 4)),
    55: ("Wooden Factory Wall, 1.5 Level", None),
    56: ("Wooden Factory Wall, 2.5 Level", None),
    57: ("Wooden Factory, 1.5 Level", None),
    58: ("Wooden Factory, 2.5 Level", None),
    59: ("Wooden Market Place", _building("wooden-building", 1)),
    60: ("Woods", Mapping("terrain", "woods")),
    61: ("Forest", None),
    62: ("Pine Woods", None),
    63: ("Orchard", Mapping("terrain", "orchard")),
    64: ("Orchard, Out of Season", Mapping("terrain", "orchard")),
    # roads and bridges: road hexsides; the hex keeps the terrain around (or under) them, and a
    # bridge at its centre adds the bridge terrain (a deck Location above the hex's ground)
    65: ("Dirt Road", _ROAD),
    66: ("Paved Road", _ROAD),
    67: ("Elevated Road", _ROAD),
    68: ("Sunken Road", _ROAD),
    69: ("Runway", _OPEN),
    70: ("Path", _OPEN),
    72: ("Wall", Mapping("hexside", "wall")),
    73: ("Hedge", Mapping("hexside", "hedge")),
    74: ("Bocage", Mapping("hexside", "bocage")),
    75: ("Cliff", Mapping("hexside", "cliff")),
    # rowhouse walls (B23.71): thin bars between building hexes, obstacles as high as the stone building
    # of the same levels; drawn only in the art (asl.toml's art_only), they decide no hex or hexside
    76: ("Rowhouse Wall", Mapping("terrain", "rowhouse-wall", 0)),
    77: ("Rowhouse Wall, 1 Level", Mapping("terrain", "rowhouse-wall", 1)),
    78: ("Rowhouse Wall, 2 Level", Mapping("terrain", "rowhouse-wall", 2)),
    79: ("Rowhouse Wall, 3 Level", Mapping("terrain", "rowhouse-wall", 3)),
    80: ("Rowhouse Wall, 4 Level", Mapping("terrain", "rowhouse-wall", 4)),
    81: ("Road Block", None),
    82: ("Single Hex Stone Bridge", _BRIDGE),
    83: ("Single Hex Wooden Bridge", _BRIDGE),
    84: ("Stone Bridge", _BRIDGE),
    85: ("Wooden Bridge", _BRIDGE),
    86: ("Pontoon Bridge", _BRIDGE),
    87: ("Foot Bridge", _BRIDGE),
    90: ("Stone Rubble", Mapping("terrain", "rubble")),
    91: ("Wooden Rubble", Mapping("terrain", "rubble")),
    95: ("Sewer", None),
    96: ("Tunnel", None),
    97: ("Cave", None),
    # the desert terrain of VASL's table (two codes named "Scrub": 100 and 121)
    100: ("Scrub", None),
    101: ("Hammada", None),
    102: ("Dier", None),
    103: ("Dier Lip", None),
    104: ("Wadi", Mapping("terrain", "gully", depression=True)),
    105: ("Hillock", None),
    106: ("Hillock Summit", None),
    107: ("Sand", None),
    108: ("Sand Dune", None),
    109: ("Dune, Crest Low", None),
    110: ("Dune, Crest High", None),
    111: ("Sangar", None),
    112: ("Track", _OPEN),
    113: ("Mausoleum", None),
    114: ("Bedouin Camp", None),
    115: ("Building Cluster", None),
    116: ("Cactus Hedge", None),
    117: ("Cactus Patch", None),
    118: ("Olive Grove", None),
    119: ("Vineyard", None),
    120: ("Broken Ground", None),
    121: ("Scrub", None),
    125: ("Temple", None),
    126: ("Light Jungle", None),
    127: ("Dense Jungle", None),
    128: ("Bamboo", None),
    129: ("Palm Trees", None),
    130: ("Huts", None),
    131: ("Collapsed Huts", None),
    132: ("Kunai", None),
    133: ("Swamp", None),
    135: ("Rice Paddy, Drained", None),
    136: ("Rice Paddy, Irrigated", None),
    137: ("Rice Paddy, In Season", None),
    138: ("Rice Paddy Bank", None),
    139: ("Panji", None),
    140: ("Ocean", Mapping("terrain", "water")),
    141: ("Shallow Ocean", None),
    142: ("Effluent", None),
    143: ("Soft Sand", None),
    144: ("Beach, Slight Slope", None),
    145: ("Beach, Moderate Slope", None),
    146: ("Beach, Steep Slope", None),
    147: ("Exposed Reef", None),
    148: ("Submerged Reef", None),
    152: ("Railway Embankment", None),
    153: ("Railroad, Ground Level", None),
    154: ("Railroad, Embankment", None),
    155: ("Railroad, Elevated", None),
    156: ("Railroad, Sunken", None),
    157: ("Rrembankment", None),
    160: ("Tower Hindrance", None),
    161: ("Tower, 2 Level Hindrance", None),
    162: ("Tower, 3 Level Hindrance", None),
    163: ("Tower Obstacle", None),
    164: ("Tower, 2 Level Obstacle", None),
    165: ("Tower, 3 Level Obstacle", None),
    166: ("Storage Tank", None),
    167: ("Storage Tank, 2 Level", None),
    168: ("BFP Tower, 1 Level", None),
    169: ("BFP Tower, 2 Level", None),
    170: ("Roofless Stone Factory, 1.5 Level", None),
    171: ("Roofless Stone Factory, 2.5 Level", None),
    172: ("Interior Factory Wall, 1 Level", None),
    173: ("Interior Factory Wall, 2 Level", None),
    174: ("Cellar", None),
    175: ("Light Woods", None),
    180: ("Gutted Stone Factory, 1.5 Level", None),
    181: ("Gutted Stone Factory, 2.5 Level", None),
    182: ("Gutted Stone Building", None),
    183: ("Gutted Stone Building, 1 Level", None),
    184: ("Gutted Stone Building, 2 Level", None),
    185: ("Gutted Stone Building, 3 Level", None),
    186: ("Gutted Stone Building, 4 Level", None),
    190: ("Stone Rubble Ground Level", Mapping("terrain", "rubble")),
    191: ("Stone Rubble Level 1", None),
    192: ("Stone Rubble Level 2", None),
    193: ("Stone Rubble Level 3", None),
    194: ("Wooden Rubble Ground Level", Mapping("terrain", "rubble")),
    195: ("Wooden Rubble Level 1", None),
    196: ("Wooden Rubble Level 2", None),
    197: ("Wooden Rubble Level 3", None),
}


#: VASL terrain name -> our ``asl`` terrain, for the names :data:`TERRAIN_CODES` maps: how a
#: ``buildingTypeName`` of ``BoardMetadata.xml`` is read, and a terrain table with other codes.
TERRAIN_MAP: dict[str, Mapping] = {name: mapping for name, mapping in TERRAIN_CODES.values() if mapping is not None}


#: VASL building type names allowed in ``BoardMetadata.xml`` overrides.
BUILDING_TYPES = {name: m for name, m in TERRAIN_MAP.items() if m.kind == "terrain" and "building" in (m.name or "")}


def vasl_mapping(code: int, name: str) -> Mapping | None:
    """What VASL terrain ``code`` named ``name`` becomes: by code when VASL's table gives that code this
    name, else by name; ``None`` when it has no ``asl`` equivalent."""
    known = TERRAIN_CODES.get(code)
    if known is not None and known[0] == name:
        return known[1]
    return TERRAIN_MAP.get(name)


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
        mapping = vasl_mapping(code, terrain.name)
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
