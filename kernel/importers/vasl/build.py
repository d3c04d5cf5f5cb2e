"""Import real ASL boards from VASL board data (``LOSData`` + ``BoardMetadata.xml``).

VASL, the ASL module for the VASSAL engine, ships every geomorphic board as an
archive that carries, beside the picture, a pixel grid of terrain and ground
elevation (``LOSData``), per-board metadata (``BoardMetadata.xml``: building
types per hex) and, shared by all boards, a terrain table
(``SharedBoardMetadata.xml``).  This module reads those files (its own parser,
written from the format description in ``docs/vasl-agreement.md``) and turns
the pixels into a board of our model (:class:`kernel.maps.text_format.BoardSpec`,
ruleset ``asl``, layout ``geomorphic``):

* **hex terrain**: each pixel belongs to the hex whose centre is nearest; a hex
  gets the terrain that dominates its area, the terrain under its centre dot,
  any building depicted in it (ASL B.1: an Open Ground centre dot never makes
  a building hex Open Ground) and any inherent terrain near its centre (B.6);
  two features that share a hex add up (A2.4, e.g. the building-woods hex 2I9);
* **ground level**: the dominant pixel elevation of the hex (a depression
  terrain under the centre dot -- gully, stream -- gives its own level);
* **buildings**: stone or wooden from the pixels, upper levels from
  ``BoardMetadata.xml`` (``Stone Building, 2 Level`` -> ``levels=2``);
* **hexsides**: walls, hedges, bocage and cliffs sampled around each
  hexside's midpoint; road hexsides where road pixels cross the midpoint region
  between two road hexes; ``touch`` bits (Bypass, A4.3) where the hex's
  obstacle pixels reach a hexside's midpoint.

VASL terrain is mapped onto our ASL terrain names by :data:`TERRAIN_MAP`.  A
VASL terrain with no entry there is imported as Open Ground with a
:class:`VaslImportWarning` naming its code and the hexes concerned; a pixel
code missing from the VASL terrain table is an error.

Examples
--------
The VASL data is not shipped with hexkernel, so this example does not run as
a doctest; ``tests/test_vasl.py`` checks the same facts on the real board.

>>> spec = read_board_spec("shared/vasl/bd02")  # doctest: +SKIP
>>> print(spec.id, spec.columns, spec.rows, spec.hexes[(8, 9)].terrain)  # doctest: +SKIP
2 33 10 ('woods', 'wooden-building')
"""

from __future__ import annotations

import gzip
import struct
import warnings
import xml.etree.ElementTree as ET
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kernel.maps.specs import BoardPlacement, BoardSpec, HexSpec, ScenarioSpec
from kernel.grid.lattice import CENTRE_STEP, VERTEX_OFFSETS, neighbour
from kernel.maps.rulesets import load_ruleset

# --------------------------------------------------------------------------- geometry

#: Horizontal distance between two columns' centres, in pixels.
COLUMN_PITCH = 56.25
#: Height of a hex (flat side to flat side), in pixels.
HEX_HEIGHT = 64.5
#: One lattice unit of :mod:`kernel.grid.lattice` (``s/2`` across, ``s*sqrt(3)/2``
#: down) in pixels: lattice ``(x, y)`` lies at pixel ``(x * UNIT_X, y * UNIT_Y)``.
UNIT_X = COLUMN_PITCH / 3.0
UNIT_Y = HEX_HEIGHT / 2.0

#: Names of the three files of a VASL board.
LOS_DATA_NAME = "LOSData"
BOARD_METADATA_NAME = "BoardMetadata.xml"
SHARED_METADATA_NAME = "SharedBoardMetadata.xml"

_JAVA_MAGIC = b"\xac\xed\x00\x05"
_TC_BLOCKDATA = 0x77
_TC_BLOCKDATALONG = 0x7A


class VaslImportWarning(UserWarning):
    """A VASL terrain could not be mapped exactly onto the ``asl`` ruleset."""


def pixel_centre(column: int, number: int) -> tuple[float, float]:
    """Pixel centre of hex ``number`` in (0-based) ``column`` of a geomorphic board.

    >>> pixel_centre(0, 1), pixel_centre(1, 0), pixel_centre(8, 9)
    ((0.0, 32.25), (56.25, 0.0), (450.0, 548.25))
    """
    return 3 * column * UNIT_X, (2 * number - 1 + column % 2) * UNIT_Y


# --------------------------------------------------------------------------- terrain table


@dataclass(frozen=True)
class VaslTerrain:
    """One ``terrainType`` of VASL's terrain table (``SharedBoardMetadata.xml``)."""

    code: int
    name: str
    obstacle: bool          # isLOSObstacle
    hindrance: bool         # isLOSHindrance
    half_level: bool        # isHalfLevelHeight: height + 1/2 level
    inherent: bool          # isInherentTerrain
    split: float            # below this height (levels) the lower role applies
    lower_obstacle: bool    # isLowerLOSObstacle
    lower_hindrance: bool   # isLowerLOSHindrance
    height: int             # whole levels
    category: str           # LOSCategory: OPEN, WOODS, BUILDING, HEXSIDE, ROAD, DEPRESSION, ...

    @property
    def height_half_levels(self) -> int:
        """Height of the terrain in half levels (``2 * height + half_level``)."""
        return 2 * self.height + int(self.half_level)


def read_terrain_table(path: str | Path) -> dict[int, VaslTerrain]:
    """Read VASL's terrain table: ``{typeCode: VaslTerrain}``.

    Raises
    ------
    FileNotFoundError
        The file does not exist.
    ValueError
        The file is not XML, holds no ``terrainType`` or a malformed one.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"VASL terrain table {str(path)!r} does not exist")
    return _parse_terrain_table(path.read_bytes(), str(path))


def _parse_terrain_table(raw: bytes, source: str) -> dict[int, VaslTerrain]:
    root = _parse_xml(raw, source)
    table: dict[int, VaslTerrain] = {}

    def flag(element, key):
        return element.get(key, "FALSE").strip().upper() == "TRUE"

    for element in root.iter("terrainType"):
        name = element.get("name")
        try:
            code = int(element.get("typeCode"))
            split = float(element.get("split", "0") or 0)
            height = int(float(element.get("height", "0") or 0))
        except (TypeError, ValueError):
            raise ValueError(
                f"{source}: terrainType {name!r} has a bad typeCode/split/height: expected numbers"
            ) from None
        if name is None:
            raise ValueError(f"{source}: terrainType with typeCode {code} has no name")
        table[code] = VaslTerrain(
            code=code, name=name, obstacle=flag(element, "isLOSObstacle"),
            hindrance=flag(element, "isLOSHindrance"), half_level=flag(element, "isHalfLevelHeight"),
            inherent=flag(element, "isInherentTerrain"), split=split,
            lower_obstacle=flag(element, "isLowerLOSObstacle"),
            lower_hindrance=flag(element, "isLowerLOSHindrance"), height=height,
            category=element.get("LOSCategory", "OPEN"),
        )
    if not table:
        raise ValueError(f"{source}: no <terrainType> elements: expected VASL's SharedBoardMetadata.xml")
    return table


def _parse_xml(raw: bytes, source: str):
    try:
        return ET.fromstring(raw)
    except ET.ParseError as error:
        raise ValueError(f"{source}: not well-formed XML ({error})") from None


# --------------------------------------------------------------------------- board metadata


@dataclass
class BoardMetadata:
    """The parts of a board's ``BoardMetadata.xml`` that the importer uses."""

    name: str                            # "02"
    width: int | None                    # hexes across (33)
    height: int | None                   # hexes down (10)
    has_hills: bool
    version: str = ""
    #: hex name ("E4") -> VASL building type name ("Stone Building, 2 Level")
    building_types: dict[str, str] = field(default_factory=dict)

    @property
    def board_id(self) -> str:
        """Board number without leading zeros ("02" -> "2")."""
        digits = self.name.strip()
        return str(int(digits)) if digits.isdigit() else digits


def read_board_metadata(path: str | Path) -> BoardMetadata:
    """Read a board's ``BoardMetadata.xml``.

    Raises
    ------
    FileNotFoundError, ValueError
        Missing file; not XML or no ``boardMetadata`` element.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"VASL board metadata {str(path)!r} does not exist")
    return _parse_board_metadata(path.read_bytes(), str(path))


def _parse_board_metadata(raw: bytes, source: str) -> BoardMetadata:
    root = _parse_xml(raw, source)
    if root.tag != "boardMetadata":
        raise ValueError(f"{source}: root element is <{root.tag}>: expected <boardMetadata>")
    name = root.get("name")
    if not name:
        raise ValueError(f"{source}: <boardMetadata> has no name: expected the board number, like name=\"02\"")

    def number(key):
        value = root.get(key)
        if value is None:
            return None
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"{source}: <boardMetadata {key}={value!r}>: expected an integer") from None

    buildings: dict[str, str] = {}
    for element in root.iter("buildingType"):
        hex_name, type_name = element.get("hexName"), element.get("buildingTypeName")
        if not hex_name or not type_name:
            raise ValueError(f"{source}: <buildingType> needs hexName and buildingTypeName")
        buildings[hex_name.strip()] = type_name.strip()
    return BoardMetadata(
        name=name, width=number("width"), height=number("height"),
        has_hills=root.get("hasHills", "FALSE").strip().upper() == "TRUE",
        version=root.get("version", ""), building_types=buildings,
    )


# --------------------------------------------------------------------------- LOSData


@dataclass
class LOSData:
    """The pixel grid of a VASL board.

    ``elevation[x, y]`` (int8, levels; depressions are negative) and
    ``terrain[x, y]`` (uint8 VASL typeCode) for pixel ``(x, y)``;
    ``stairways`` holds one flag per hex (columns left to right, top to bottom
    within a column; not used by our model).
    """

    source: str
    width: int
    height: int
    grid_width: int
    grid_height: int
    elevation: np.ndarray
    terrain: np.ndarray
    stairways: np.ndarray


def read_los_data(path: str | Path) -> LOSData:
    """Read a ``LOSData`` file (gzip around a Java object stream).

    Raises
    ------
    FileNotFoundError
        The file does not exist.
    ValueError
        Not gzip, wrong magic, an unknown record, or truncated data (the
        message names the file).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"VASL LOSData file {str(path)!r} does not exist")
    return parse_los_data(path.read_bytes(), str(path))


def parse_los_data(raw: bytes, source: str = "LOSData") -> LOSData:
    """Parse the bytes of a ``LOSData`` file; ``source`` names it in errors."""
    try:
        stream = gzip.decompress(raw)
    except (OSError, EOFError, zlib.error) as error:
        kind = "truncated gzip data" if isinstance(error, EOFError) else f"not gzip data ({error})"
        raise ValueError(f"{source}: {kind}: expected a gzip-compressed Java object stream") from None
    if stream[:4] != _JAVA_MAGIC:
        raise ValueError(
            f"{source}: starts with {stream[:4].hex(' ') or 'nothing'}: expected the Java object "
            f"stream magic {_JAVA_MAGIC.hex(' ')}"
        )
    payload = _block_data(stream, source)
    if len(payload) < 16:
        raise ValueError(f"{source}: truncated: {len(payload)} bytes of block data, expected at least 16 (the header)")
    width, height, grid_width, grid_height = struct.unpack(">4i", payload[:16])
    if not (0 < width <= 52 and 0 < height <= 999 and 0 < grid_width <= 100_000 and 0 < grid_height <= 100_000):
        raise ValueError(
            f"{source}: header says {width}x{height} hexes on {grid_width}x{grid_height} pixels: "
            "expected positive sizes (a standard board is 33x10 on 1800x645)"
        )
    pixels = grid_width * grid_height
    hexes = sum(height + (column % 2) for column in range(width))
    expected = 16 + 2 * pixels + hexes
    if len(payload) < expected:
        raise ValueError(
            f"{source}: truncated: {len(payload)} bytes of block data, expected {expected} "
            f"(header, 2 bytes for each of {grid_width}x{grid_height} pixels, {hexes} stairway flags)"
        )
    grid = np.frombuffer(payload, dtype=np.uint8, count=2 * pixels, offset=16).reshape(grid_width, grid_height, 2)
    return LOSData(
        source=source, width=width, height=height, grid_width=grid_width, grid_height=grid_height,
        elevation=np.ascontiguousarray(grid[:, :, 0]).view(np.int8),
        terrain=np.ascontiguousarray(grid[:, :, 1]),
        stairways=np.frombuffer(payload, dtype=np.uint8, count=hexes, offset=16 + 2 * pixels).copy(),
    )


def _block_data(stream: bytes, source: str) -> bytes:
    """Concatenate the block-data records that follow the stream header."""
    parts = []
    offset = 4
    size = len(stream)
    while offset < size:
        tag = stream[offset]
        if tag == _TC_BLOCKDATA:
            if offset + 2 > size:
                raise ValueError(f"{source}: truncated block-data record at byte {offset}")
            length = stream[offset + 1]
            start = offset + 2
        elif tag == _TC_BLOCKDATALONG:
            if offset + 5 > size:
                raise ValueError(f"{source}: truncated block-data record at byte {offset}")
            length = struct.unpack(">i", stream[offset + 1:offset + 5])[0]
            if length < 0:
                raise ValueError(f"{source}: block-data record at byte {offset} has negative length {length}")
            start = offset + 5
        else:
            raise ValueError(
                f"{source}: unexpected record type 0x{tag:02X} at byte {offset}: expected block data "
                "(0x77 or 0x7A)"
            )
        if start + length > size:
            raise ValueError(
                f"{source}: truncated: the block-data record at byte {offset} needs {length} bytes, "
                f"{size - start} remain"
            )
        parts.append(stream[start:start + length])
        offset = start + length
    return b"".join(parts)


# --------------------------------------------------------------------------- terrain mapping


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


# --------------------------------------------------------------------------- import rules

#: Share of a hex's terrain area (road and hexside pixels left out) from which
#: a terrain feature dominates the hex.
DOMINANT_SHARE = 0.5
#: Share from which a second feature counts too when none dominates (B.1: the
#: effects of two features that share a hex add up).
SHARED_SHARE = 0.3
#: Share from which a building depiction makes a building hex (B.1: an Open
#: Ground centre dot never changes a building hex to Open Ground).
BUILDING_SHARE = 0.06
#: Radius (pixels) of the centre dot: the terrain under most of it counts,
#: if it covers at least ``CENTRE_MIN_SHARE`` of the hex.
CENTRE_RADIUS = 3.0
CENTRE_MIN_SHARE = 0.15
#: Inherent terrain (B.6) within this radius of the centre (pixels), at least
#: ``INHERENT_MIN_PIXELS`` of it, makes the whole hex that terrain.
INHERENT_RADIUS = 16.0
INHERENT_MIN_PIXELS = 8
#: Hexside sampling: the middle ``HEXSIDE_SPAN`` of the hexside's length, up
#: to ``HEXSIDE_DEPTH`` pixels either side of it; a feature counts when it
#: covers ``HEXSIDE_MIN_SHARE`` of the samples.
HEXSIDE_SPAN = 0.5
HEXSIDE_DEPTH = 5.0
HEXSIDE_MIN_SHARE = 0.15
#: Road: road pixels within ``ROAD_CENTRE_RADIUS`` of a hex's centre (at
#: least ``ROAD_MIN_PIXELS``), or covering ``ROAD_SHARE`` of its area, make a
#: road hex; road pixels within ``ROAD_SIDE_RADIUS`` of a hexside midpoint (at
#: least ``ROAD_MIN_PIXELS``) a road crossing between two road hexes.
ROAD_CENTRE_RADIUS = 10.0
ROAD_SHARE = 0.1
ROAD_SIDE_RADIUS = 8.0
ROAD_MIN_PIXELS = 6
#: Bridge (A2.8): bridge pixels within ``ROAD_CENTRE_RADIUS`` of a hex's centre
#: (at least ``BRIDGE_MIN_PIXELS``) make a bridge hex.  Its ground level is the
#: one beneath the deck (the depression's pixels, else the hex's pixels off the
#: bridge); the deck is the Location one level above it.
BRIDGE_MIN_PIXELS = 6
#: Bypass: obstacle pixels within ``TOUCH_RADIUS`` of a hexside midpoint (at
#: least ``TOUCH_MIN_PIXELS``) touch that hexside (A4.3).
TOUCH_RADIUS = 6.0
TOUCH_MIN_PIXELS = 3


# --------------------------------------------------------------------------- board sources


@dataclass
class VaslBoardFiles:
    """The raw files of one VASL board, from a folder or an archive."""

    source: str
    los_data: LOSData
    metadata: BoardMetadata
    terrain_table: dict[int, VaslTerrain]
    terrain_table_source: str


def _zip_member(archive: zipfile.ZipFile, name: str) -> str | None:
    matches = [info.filename for info in archive.infolist()
               if not info.is_dir() and info.filename.replace("\\", "/").rsplit("/", 1)[-1] == name]
    if not matches:
        return None
    return min(matches, key=lambda member: (member.count("/"), member))


def read_board_files(path: str | Path, shared_metadata: str | Path | None = None) -> VaslBoardFiles:
    """Read ``LOSData``, ``BoardMetadata.xml`` and the terrain table of a VASL board.

    ``path`` is a board folder or a board archive (a zip file, whatever its
    name). The terrain table is ``shared_metadata`` when given, else a
    ``SharedBoardMetadata.xml`` inside the archive, beside the board, or in the
    parent folder.

    Raises
    ------
    FileNotFoundError
        The board, one of its files or the terrain table is missing.
    ValueError
        A file is malformed (the message names it).
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"VASL board {str(path)!r} does not exist: expected a board folder or archive")
    shared_bytes = None
    shared_source = None
    if path.is_dir():
        los_path = path / LOS_DATA_NAME
        meta_path = path / BOARD_METADATA_NAME
        for required, what in ((los_path, "LOSData"), (meta_path, "board metadata")):
            if not required.is_file():
                raise FileNotFoundError(f"VASL {what} file {str(required)!r} does not exist (board folder {str(path)!r})")
        los_data = read_los_data(los_path)
        metadata = read_board_metadata(meta_path)
        search = [path / SHARED_METADATA_NAME, path.parent / SHARED_METADATA_NAME]
    elif zipfile.is_zipfile(path):
        try:
            with zipfile.ZipFile(path) as archive:
                members = {name: _zip_member(archive, name)
                           for name in (LOS_DATA_NAME, BOARD_METADATA_NAME, SHARED_METADATA_NAME)}
                for name in (LOS_DATA_NAME, BOARD_METADATA_NAME):
                    if members[name] is None:
                        raise FileNotFoundError(f"VASL board archive {str(path)!r} holds no {name} file")
                los_data = parse_los_data(archive.read(members[LOS_DATA_NAME]), f"{path}!{members[LOS_DATA_NAME]}")
                metadata = _parse_board_metadata(
                    archive.read(members[BOARD_METADATA_NAME]), f"{path}!{members[BOARD_METADATA_NAME]}")
                if members[SHARED_METADATA_NAME] is not None and shared_metadata is None:
                    shared_bytes = archive.read(members[SHARED_METADATA_NAME])
                    shared_source = f"{path}!{members[SHARED_METADATA_NAME]}"
        except (zipfile.BadZipFile, zlib.error, EOFError) as error:
            raise ValueError(f"{path}: damaged board archive ({error})") from None
        search = [path.parent / SHARED_METADATA_NAME, path.parent.parent / SHARED_METADATA_NAME]
    else:
        raise ValueError(
            f"{path}: not a VASL board: expected a folder holding {LOS_DATA_NAME} and {BOARD_METADATA_NAME}, "
            "or a board archive (zip)"
        )
    if shared_metadata is not None:
        table_path = Path(shared_metadata)
        table = read_terrain_table(table_path)
        shared_source = str(table_path)
    elif shared_bytes is not None:
        table = _parse_terrain_table(shared_bytes, shared_source)
    else:
        found = next((candidate for candidate in search if candidate.is_file()), None)
        if found is None:
            raise FileNotFoundError(
                f"no VASL terrain table for {str(path)!r}: looked for "
                + " and ".join(repr(str(candidate)) for candidate in search)
                + "; pass shared_metadata=PATH to SharedBoardMetadata.xml"
            )
        table = read_terrain_table(found)
        shared_source = str(found)
    _check_geometry(los_data, metadata)
    return VaslBoardFiles(str(path), los_data, metadata, table, shared_source)


def _check_geometry(los: LOSData, metadata: BoardMetadata) -> None:
    for key, value, expected in (("width", metadata.width, los.width), ("height", metadata.height, los.height)):
        if value is not None and value != expected:
            raise ValueError(
                f"{los.source}: LOSData is {los.width}x{los.height} hexes but its board metadata says "
                f"{key}={value}: expected the two to agree"
            )
    want_w = (los.width - 1) * COLUMN_PITCH
    want_h = los.height * HEX_HEIGHT
    if abs(los.grid_width - want_w) > 2 or abs(los.grid_height - want_h) > 2:
        raise ValueError(
            f"{los.source}: a {los.width}x{los.height} board on {los.grid_width}x{los.grid_height} pixels: "
            f"expected about {want_w:.0f}x{want_h:.0f} (geomorphic geometry, {COLUMN_PITCH} px per column, "
            f"{HEX_HEIGHT} px per hex)"
        )


# --------------------------------------------------------------------------- pixel analysis


@dataclass
class PixelGrid:
    """Per-pixel hex assignment of a board: the hex whose centre is nearest.

    ``cells`` lists the local cells ``(column, number)`` in column-major
    order; ``hex_of[x, y]`` is the index into ``cells`` of pixel ``(x, y)``;
    ``centre_x``/``centre_y`` are the cells' pixel centres.
    """

    columns: int
    rows: int
    cells: list[tuple[int, int]]
    cell_index: dict[tuple[int, int], int]
    hex_of: np.ndarray
    centre_x: np.ndarray
    centre_y: np.ndarray


def pixel_grid(width: int, height: int, grid_width: int, grid_height: int) -> PixelGrid:
    """Assign every pixel of a ``grid_width`` x ``grid_height`` grid to its hex."""
    spec = BoardSpec("", "board", "0", "asl", "geomorphic", "flat", width, height)
    cells = list(spec.cells())
    index = {cell: i for i, cell in enumerate(cells)}
    table = np.full((width, height + 1), -1, dtype=np.int32)
    for (column, number), i in index.items():
        table[column, number] = i
    centres = np.array([pixel_centre(c, n) for c, n in cells], dtype=np.float64)
    px = np.arange(grid_width, dtype=np.float64)[:, None]
    py = np.arange(grid_height, dtype=np.float64)[None, :]
    best = np.full((grid_width, grid_height), -1, dtype=np.int32)
    best_d = np.full((grid_width, grid_height), np.inf)
    first = np.clip(np.floor(px / COLUMN_PITCH).astype(np.int64), 0, width - 1)
    for step in (0, 1):
        column = np.clip(first + step, 0, width - 1)
        odd = column % 2
        number = np.rint((py / UNIT_Y + 1 - odd) / 2).astype(np.int64)
        number = np.clip(number, 1 - odd, height)
        cy = (2 * number - 1 + odd) * UNIT_Y
        cx = column * COLUMN_PITCH
        d = (px - cx) ** 2 + (py - cy) ** 2
        closer = d < best_d
        best = np.where(closer, table[column, number], best)
        best_d = np.where(closer, d, best_d)
    return PixelGrid(width, height, cells, index, best, centres[:, 0], centres[:, 1])


def _disc(los: LOSData, x: float, y: float, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Integer pixel coordinates within ``radius`` of ``(x, y)``, clipped to the grid."""
    x0, x1 = max(int(np.floor(x - radius)), 0), min(int(np.ceil(x + radius)), los.grid_width - 1)
    y0, y1 = max(int(np.floor(y - radius)), 0), min(int(np.ceil(y + radius)), los.grid_height - 1)
    if x0 > x1 or y0 > y1:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    gx, gy = np.meshgrid(np.arange(x0, x1 + 1), np.arange(y0, y1 + 1), indexing="ij")
    inside = (gx - x) ** 2 + (gy - y) ** 2 <= radius * radius
    return gx[inside], gy[inside]


def _hexside_samples(los: LOSData, x: float, y: float, direction: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixels around the middle of hexside ``direction`` of the hex centred at pixel ``(x, y)``."""
    a = VERTEX_OFFSETS[(direction - 1) % 6]
    b = VERTEX_OFFSETS[direction]
    ax, ay = x + a[0] * UNIT_X, y + a[1] * UNIT_Y
    bx, by = x + b[0] * UNIT_X, y + b[1] * UNIT_Y
    length = float(np.hypot(bx - ax, by - ay))
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = -uy, ux
    mx, my = (ax + bx) / 2, (ay + by) / 2
    along = np.arange(-HEXSIDE_SPAN * length / 2, HEXSIDE_SPAN * length / 2 + 1e-9, 1.0)
    across = np.arange(-HEXSIDE_DEPTH, HEXSIDE_DEPTH + 1e-9, 1.0)
    s, t = np.meshgrid(along, across, indexing="ij")
    sx = np.rint(mx + s * ux + t * nx).astype(np.int64).ravel()
    sy = np.rint(my + s * uy + t * ny).astype(np.int64).ravel()
    keep = (sx >= 0) & (sx < los.grid_width) & (sy >= 0) & (sy < los.grid_height)
    points = np.unique(np.stack([sx[keep], sy[keep]]), axis=1)
    return points[0], points[1]


@dataclass
class _Lookup:
    """Per-typeCode lookup arrays built from the terrain table and the map."""

    kind: np.ndarray        # 0 open, 1 terrain, 2 hexside, 3 road, 4 unmapped, 5 unknown
    feature: np.ndarray     # our terrain index (kind 1) or hexside index (kind 2), else -1
    levels: np.ndarray      # building levels of kind-1 building codes
    depression: np.ndarray  # bool
    hexside_category: np.ndarray  # bool: LOSCategory HEXSIDE
    names: dict[int, str]
    bridge: np.ndarray  # bool: a bridge (kind 3, road)


_KIND_OPEN, _KIND_TERRAIN, _KIND_HEXSIDE, _KIND_ROAD, _KIND_UNMAPPED, _KIND_UNKNOWN = range(6)


def _lookup(table: dict[int, VaslTerrain], ruleset) -> _Lookup:
    kind = np.full(256, _KIND_UNKNOWN, np.int8)
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
            kind[code] = _KIND_UNMAPPED
        elif mapping.kind == "open":
            kind[code] = _KIND_OPEN
        elif mapping.kind == "road":
            kind[code] = _KIND_ROAD
            bridge[code] = mapping.bridge
        elif mapping.kind == "hexside":
            kind[code] = _KIND_HEXSIDE
            feature[code] = ruleset.hexside_index(mapping.name)
        else:
            kind[code] = _KIND_TERRAIN
            feature[code] = ruleset.terrain_index(mapping.name)
            levels[code] = mapping.levels
            depression[code] = mapping.depression
    return _Lookup(kind, feature, levels, depression, hexside_category, names, bridge)


def read_board_spec(path: str | Path, shared_metadata: str | Path | None = None) -> BoardSpec:
    """Import a VASL board (folder or archive) as a board of our model.

    Parameters
    ----------
    path : str or Path
        A VASL board folder holding ``LOSData`` and ``BoardMetadata.xml``, or a
        board archive (zip) holding them.
    shared_metadata : str or Path, optional
        VASL's terrain table ``SharedBoardMetadata.xml``; default: found in
        the archive, beside the board or in its parent folder.

    Returns
    -------
    BoardSpec
        ``ruleset = asl``, ``layout = geomorphic``, ``id`` the board number
        (``"2"``), every hex listed with its terrain (possibly none) and level.

    Raises
    ------
    FileNotFoundError, ValueError
        Missing or malformed files (the message names the file); a pixel code
        missing from the terrain table; a building type override naming no
        hex of the board or an unknown building type.

    Warns
    -----
    VaslImportWarning
        A VASL terrain with no ``asl`` equivalent decided a hex or hexside
        (imported as Open Ground / left out), naming its code and the hexes.
    """
    files = read_board_files(path, shared_metadata)
    return board_spec_from_files(files)


def board_spec_from_files(files: VaslBoardFiles) -> BoardSpec:
    """Build the :class:`BoardSpec` of an already read VASL board."""
    los, metadata = files.los_data, files.metadata
    ruleset = load_ruleset("asl")
    lookup = _lookup(files.terrain_table, ruleset)
    codes_present = np.unique(los.terrain)
    unknown = [int(c) for c in codes_present if lookup.kind[c] == _KIND_UNKNOWN]
    grid = pixel_grid(los.width, los.height, los.grid_width, los.grid_height)
    if unknown:
        code = unknown[0]
        xs, ys = np.nonzero(los.terrain == code)
        cell = grid.cells[int(grid.hex_of[xs[0], ys[0]])]
        raise ValueError(
            f"{los.source}: terrain code {code} (first in hex {_name(cell)}, pixel {int(xs[0])},{int(ys[0])}) "
            f"is not in the terrain table {files.terrain_table_source}: expected one of its typeCodes"
        )
    spec = BoardSpec(
        source=files.source, kind="board", id=metadata.board_id, ruleset="asl", layout="geomorphic",
        orientation="flat", columns=los.width, rows=los.height,
        title=f"VASL board {metadata.board_id}" + (f" (version {metadata.version})" if metadata.version else ""),
        default_level=0,
    )
    if not spec.id.isdigit():
        raise ValueError(f"{files.source}: board name {metadata.name!r}: expected a board number like \"02\"")
    n = len(grid.cells)
    flat_hex = grid.hex_of.ravel().astype(np.int64)
    flat_code = los.terrain.ravel().astype(np.int64)
    flat_elev = los.elevation.ravel().astype(np.int64)
    code_counts = np.bincount(flat_hex * 256 + flat_code, minlength=n * 256).reshape(n, 256)
    elev_counts = np.bincount(flat_hex * 256 + flat_elev + 128, minlength=n * 256).reshape(n, 256)
    terrain_codes = lookup.kind == _KIND_TERRAIN
    unmapped_codes = lookup.kind == _KIND_UNMAPPED
    area_codes = terrain_codes | unmapped_codes | (lookup.kind == _KIND_OPEN)
    bypass = np.array(ruleset.terrain_bypass, dtype=bool)
    inherent = np.array(ruleset.terrain_inherent, dtype=bool)
    unmapped_hits: dict[int, list[str]] = {}
    hex_terrain: dict[tuple[int, int], tuple[str, ...]] = {}
    hex_levels: dict[tuple[int, int], int] = {}
    building_levels: dict[tuple[int, int], int] = {}
    road_hex = np.zeros(n, np.bool_)
    bridge_feature = ruleset.terrain_index("bridge")
    bridge_decks: list[str] = []

    for i, cell in enumerate(grid.cells):
        counts = code_counts[i]
        area = counts[area_codes].sum()
        # shares per feature: our terrain features, and unmapped VASL codes
        shares: dict[object, float] = {}
        if area > 0:
            for code in np.flatnonzero(counts * (terrain_codes | unmapped_codes)):
                key = int(lookup.feature[code]) if terrain_codes[code] else ("unmapped", int(code))
                shares[key] = shares.get(key, 0.0) + counts[code] / area
        cx, cy = grid.centre_x[i], grid.centre_y[i]
        chosen: list[object] = []
        ranked = sorted(shares.items(), key=lambda item: -item[1])
        if ranked and ranked[0][1] >= DOMINANT_SHARE:
            chosen.append(ranked[0][0])
        # the centre dot's terrain
        xs, ys = _disc(los, cx, cy, CENTRE_RADIUS)
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
        xs, ys = _disc(los, cx, cy, INHERENT_RADIUS)
        near = los.terrain[xs, ys]
        near_features = lookup.feature[near]
        for key in np.unique(near_features[terrain_codes[near]]):
            key = int(key)
            if inherent[key] and key not in chosen and np.count_nonzero(near_features == key) >= INHERENT_MIN_PIXELS:
                chosen.append(key)
        # unmapped codes: warn and leave them out (Open Ground)
        features = []
        for key in chosen:
            if isinstance(key, tuple):
                unmapped_hits.setdefault(key[1], []).append(_name(cell))
            else:
                features.append(key)
        # at most one building type: the larger depiction
        buildings = [k for k in features if ruleset.terrain_names[k].endswith("building")]
        if len(buildings) > 1:
            keep = max(buildings, key=lambda k: shares.get(k, 0.0))
            features = [k for k in features if k not in buildings or k == keep]
        # ground level: the dominant elevation; a depression under the centre dot gives its own
        elevations = elev_counts[i]
        level = int(np.argmax(elevations)) - 128 if elevations.sum() else 0
        if centre_code is not None and lookup.depression[centre_code] and centre_key in features:
            xs, ys = _disc(los, cx, cy, CENTRE_RADIUS)
            under = los.elevation[xs, ys][los.terrain[xs, ys] == centre_code]
            values, number = np.unique(under, return_counts=True)
            level = int(values[np.argmax(number)])
        # a bridge at the centre (A2.8): the bridge terrain, and the ground beneath its deck
        xs, ys = _disc(los, cx, cy, ROAD_CENTRE_RADIUS)
        near_centre = los.terrain[xs, ys]  # (roads and bridges)
        if np.count_nonzero(lookup.bridge[near_centre]) >= BRIDGE_MIN_PIXELS:
            level, deck = _bridge_levels(los, grid, i, lookup, features)
            if bridge_feature not in features:
                features.append(bridge_feature)
            if deck != level + 1:
                bridge_decks.append(f"{_name(cell)} (deck pixels at level {deck}, imported at {level + 1})")
        hex_levels[cell] = level
        names = tuple(ruleset.terrain_names[k] for k in sorted(features))
        hex_terrain[cell] = names
        # building levels: the pixels' building type, overridden by the metadata below
        levels = 0
        for name in names:
            if name.endswith("building"):
                feature = ruleset.terrain_index(name)
                codes = [c for c in np.flatnonzero(counts) if terrain_codes[c] and lookup.feature[c] == feature]
                if codes:
                    levels = int(lookup.levels[max(codes, key=lambda c: counts[c])])
        building_levels[cell] = levels
        # road hex: road pixels at the centre
        road_pixels = counts[lookup.kind == _KIND_ROAD].sum()
        road_hex[i] = (np.count_nonzero(lookup.kind[near_centre] == _KIND_ROAD) >= ROAD_MIN_PIXELS
                       or road_pixels >= ROAD_SHARE * max(counts.sum(), 1))

    # building types from the metadata
    for hex_name, type_name in metadata.building_types.items():
        cell = _parse_cell(hex_name, spec, files.source)
        mapping = BUILDING_TYPES.get(type_name)
        if mapping is None:
            raise ValueError(
                f"{files.source}: buildingType of hex {hex_name} is {type_name!r}: expected one of "
                + ", ".join(sorted(BUILDING_TYPES))
            )
        others = tuple(t for t in hex_terrain[cell] if not t.endswith("building"))
        hex_terrain[cell] = tuple(sorted(others + (mapping.name,), key=ruleset.terrain_index))
        building_levels[cell] = mapping.levels

    # hexsides: features sampled around the midpoint, roads, touch bits
    hexside_mask = lookup.kind == _KIND_HEXSIDE
    road_mask = lookup.kind == _KIND_ROAD
    bypass_codes = terrain_codes & np.isin(lookup.feature, np.flatnonzero(bypass))
    touch: dict[tuple[int, int], int] = {}
    for i, cell in enumerate(grid.cells):
        cx, cy = grid.centre_x[i], grid.centre_y[i]
        col, row = cell[0], spec.lattice_row(*cell)
        has_bypass = any(bypass[ruleset.terrain_index(t)] for t in hex_terrain[cell])
        bits = 0
        for direction in range(6):
            other_col, other_row = neighbour(col, row, direction)
            other = (other_col, other_row + 1 - other_col % 2)
            on_board = spec.contains(other)
            mx = cx + CENTRE_STEP[direction][0] * UNIT_X / 2
            my = cy + CENTRE_STEP[direction][1] * UNIT_Y / 2
            if has_bypass:
                xs, ys = _disc(los, mx, my, TOUCH_RADIUS)
                if np.count_nonzero(bypass_codes[los.terrain[xs, ys]]) >= TOUCH_MIN_PIXELS:
                    bits |= 1 << direction
            if on_board and other < cell:
                continue  # each interior hexside once, from its smaller cell
            features: list[str] = []
            xs, ys = _hexside_samples(los, cx, cy, direction)
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
                        unmapped_hits.setdefault(int(code), []).append(f"{_name(cell)}:{direction}")
            if on_board and road_hex[i] and road_hex[grid.cell_index[other]]:
                xs, ys = _disc(los, mx, my, ROAD_SIDE_RADIUS)
                if np.count_nonzero(road_mask[los.terrain[xs, ys]]) >= ROAD_MIN_PIXELS:
                    features.append("road")
            if features:
                order = {name: k for k, name in enumerate(ruleset.hexside_names)}
                spec.hexsides[(cell, direction)] = tuple(sorted(features, key=order.__getitem__))
        if has_bypass:
            touch[cell] = bits

    for cell in grid.cells:
        spec.hexes[cell] = HexSpec(
            level=hex_levels[cell], terrain=hex_terrain[cell],
            building_levels=building_levels[cell] if any(t.endswith("building") for t in hex_terrain[cell]) else 0,
            touch=touch.get(cell), line=0,
        )
    if bridge_decks:
        warnings.warn(
            f"{files.source}: a bridge deck is the Location one level above its hex's ground, which VASL "
            f"depicts at another level in {', '.join(bridge_decks)}",
            VaslImportWarning, stacklevel=3,
        )
    for code, where in sorted(unmapped_hits.items()):
        shown = ", ".join(where[:8]) + (f" and {len(where) - 8} more" if len(where) > 8 else "")
        warnings.warn(
            f"{files.source}: VASL terrain {code} {lookup.names.get(code, '?')!r} has no asl equivalent "
            f"(see kernel.importers.vasl.build.TERRAIN_MAP): imported as Open Ground in {shown}",
            VaslImportWarning, stacklevel=3,
        )
    return spec


def _bridge_levels(los: LOSData, grid: PixelGrid, i: int, lookup: _Lookup, features: list) -> tuple[int, int]:
    """``(ground, deck)`` levels of bridge hex ``i``: the most common elevation of
    its depression pixels (of any pixels off the bridge and road when it has no
    depression), and of its bridge pixels."""
    inside = grid.hex_of == i
    codes = los.terrain[inside]
    elevation = los.elevation[inside]
    depression = lookup.depression[codes] & np.isin(lookup.feature[codes], features)
    beneath = depression if depression.any() else lookup.kind[codes] != _KIND_ROAD
    if not beneath.any():
        beneath = ~lookup.bridge[codes]

    def most_common(values):
        found, number = np.unique(values, return_counts=True)
        return int(found[np.argmax(number)])

    return most_common(elevation[beneath]), most_common(elevation[lookup.bridge[codes]])


def _name(cell: tuple[int, int]) -> str:
    from kernel.grid.coordinates import column_letters

    return f"{column_letters(cell[0])}{cell[1]}"


def _parse_cell(text: str, spec: BoardSpec, source: str) -> tuple[int, int]:
    from kernel.grid.coordinates import parse_hex

    try:
        ref = parse_hex(text)
    except ValueError as error:
        raise ValueError(f"{source}: buildingType hexName {text!r}: {error}") from None
    cell = (ref.column_index, ref.number)
    if not spec.contains(cell):
        raise ValueError(f"{source}: buildingType hexName {text!r} is not a hex of this {spec.columns}x{spec.rows} board")
    return cell


def load_board(path: str | Path, shared_metadata: str | Path | None = None, **switches: bool):
    """Import a VASL board and compile it: a :class:`kernel.maps.board.Board` of one board.

    ``switches`` set ruleset switches (``orchards_in_season=False``).
    """
    spec = read_board_spec(path, shared_metadata)
    return compile_spec(spec, **switches)


def compile_spec(spec: BoardSpec, **switches: bool):
    """Compile one board spec on its own into a :class:`kernel.maps.board.Board`."""
    from kernel.maps.board import compile_scenario

    scenario = ScenarioSpec(
        source=spec.source, title=spec.title or f"board {spec.id}", ruleset=spec.ruleset,
        boards=[BoardPlacement(spec, 0, 0, False, spec.id, 0)], overlays=[], switches=dict(switches),
    )
    return compile_scenario(scenario)


def is_vasl_board(path: str | Path) -> bool:
    """Whether ``path`` looks like a VASL board: a folder with ``LOSData`` or a zip archive."""
    path = Path(path)
    if path.is_dir():
        return (path / LOS_DATA_NAME).is_file() or (path / BOARD_METADATA_NAME).is_file()
    return path.is_file() and path.suffix not in (".board", ".overlay", ".scenario") and zipfile.is_zipfile(path)
