"""Reading a VASL board's files: the archive or folder, ``LOSData`` (Java-serialised, gzip), ``BoardMetadata.xml`` and the shared terrain table."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
import struct
import xml.etree.ElementTree as ET
import zipfile
import zlib

import numpy as np

from kernel._limits import (MAX_ARCHIVE_MEMBERS, MAX_BOARD_COLUMNS, MAX_BOARD_ROWS, MAX_LEVEL,
                            MAX_MEMBER_BYTES, MAX_VASL_PIXELS, MIN_LEVEL, read_limited, read_member)
from kernel.grid.columns import board_problem
from kernel.grid.pixels import COLUMN_PITCH, HEX_HEIGHT


#: Names of the three files of a VASL board.
LOS_DATA_NAME = "LOSData"


BOARD_METADATA_NAME = "BoardMetadata.xml"


SHARED_METADATA_NAME = "SharedBoardMetadata.xml"


_JAVA_MAGIC = b"\xac\xed\x00\x05"


_TC_BLOCKDATA = 0x77


_TC_BLOCKDATALONG = 0x7A


class VaslImportWarning(UserWarning):
    """A VASL terrain could not be mapped exactly onto the ``asl`` ruleset.

    See Also
    --------
    kernel.load_vasl_board, kernel.read_vasl_board : warn with it, naming the hexes.

    Examples
    --------
    >>> import kernel; issubclass(kernel.VaslImportWarning, UserWarning)   # silenced as any warning
    True
    """


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
        The file is not XML, holds no ``terrainType`` or a malformed one, or
        ``path`` is a folder.
    """
    path = Path(path)
    _require_file(path, "VASL terrain table")
    return _parse_terrain_table(_read_file(path, "VASL terrain table"), str(path))


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
            height_value = float(element.get("height", "0") or 0)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(
                f"{source}: terrainType {name!r} has a bad typeCode/split/height: expected numbers"
            ) from None
        if not 0 <= code <= 255 or not -MAX_LEVEL <= split <= MAX_LEVEL or not MIN_LEVEL <= height_value <= MAX_LEVEL:
            raise ValueError(
                f"{source}: terrainType {name!r} has typeCode={element.get('typeCode')!r} "
                f"split={element.get('split')!r} height={element.get('height')!r}: expected a typeCode 0..255, "
                f"a split and a height in levels {MIN_LEVEL}..{MAX_LEVEL}")
        height = int(height_value)
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
        return str(int(digits)) if digits.isascii() and digits.isdigit() and len(digits) <= 9 else digits


def read_board_metadata(path: str | Path) -> BoardMetadata:
    """Read a board's ``BoardMetadata.xml``.

    Raises
    ------
    FileNotFoundError, ValueError
        Missing file; not XML, no ``boardMetadata`` element, or ``path`` is a
        folder.
    """
    path = Path(path)
    _require_file(path, "VASL board metadata")
    return _parse_board_metadata(_read_file(path, "VASL board metadata"), str(path))


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
        if not (value.strip().isascii() and value.strip().isdigit()) or len(value.strip()) > 6:
            raise ValueError(f"{source}: <boardMetadata {key}={value[:40]!r}>: expected a whole number of hexes")
        return int(value)

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
        Not gzip, wrong magic, an unknown record, truncated data, a ground
        elevation outside ``MIN_LEVEL..MAX_LEVEL`` (the message names the
        file), or ``path`` is a folder.
    """
    path = Path(path)
    _require_file(path, "VASL LOSData file")
    return parse_los_data(_read_file(path, "VASL LOSData file"), str(path))


def parse_los_data(raw: bytes, source: str = "LOSData") -> LOSData:
    """Parse the bytes of a ``LOSData`` file; ``source`` names it in errors."""
    stream = _inflate(raw, source)
    if stream[:4] != _JAVA_MAGIC:
        raise ValueError(
            f"{source}: starts with {stream[:4].hex(' ') or 'nothing'}: expected the Java object "
            f"stream magic {_JAVA_MAGIC.hex(' ')}"
        )
    payload = _block_data(stream, source)
    if len(payload) < 16:
        raise ValueError(f"{source}: truncated: {len(payload)} bytes of block data, expected at least 16 (the header)")
    width, height, grid_width, grid_height = struct.unpack(">4i", payload[:16])
    if not (0 < width <= MAX_BOARD_COLUMNS and 0 < height <= MAX_BOARD_ROWS and 0 < grid_width <= MAX_VASL_PIXELS
            and 0 < grid_height <= MAX_VASL_PIXELS):
        raise ValueError(
            f"{source}: header says {width}x{height} hexes on {grid_width}x{grid_height} pixels: "
            f"expected 1..{MAX_BOARD_COLUMNS} x 1..{MAX_BOARD_ROWS} hexes on at most {MAX_VASL_PIXELS} pixels a side "
            "(a standard board is 33x10 on 1800x645)"
        )
    want_w, want_h = (width - 1) * COLUMN_PITCH, height * HEX_HEIGHT
    if abs(grid_width - want_w) > 2 or abs(grid_height - want_h) > 2:
        raise ValueError(
            f"{source}: header says {width}x{height} hexes on {grid_width}x{grid_height} pixels: expected about "
            f"{want_w:.0f}x{want_h:.0f} pixels for that many hexes ({COLUMN_PITCH} px per column, {HEX_HEIGHT} px per hex)")
    pixels = grid_width * grid_height
    hexes = sum(height + (column % 2) for column in range(width))
    expected = 16 + 2 * pixels + hexes
    if len(payload) < expected:
        raise ValueError(
            f"{source}: truncated: {len(payload)} bytes of block data, expected {expected} "
            f"(header, 2 bytes for each of {grid_width}x{grid_height} pixels, {hexes} stairway flags)"
        )
    grid = np.frombuffer(payload, dtype=np.uint8, count=2 * pixels, offset=16).reshape(grid_width, grid_height, 2)
    elevation = np.ascontiguousarray(grid[:, :, 0]).view(np.int8)
    outside = (elevation < MIN_LEVEL) | (elevation > MAX_LEVEL)
    if outside.any():
        xs, ys = np.nonzero(outside)
        raise ValueError(
            f"{source}: pixel {int(xs[0])},{int(ys[0])} has elevation {int(elevation[xs[0], ys[0]])} "
            f"({int(outside.sum())} pixels outside the range): expected ground levels {MIN_LEVEL}..{MAX_LEVEL}")
    return LOSData(
        source=source, width=width, height=height, grid_width=grid_width, grid_height=grid_height,
        elevation=elevation,
        terrain=np.ascontiguousarray(grid[:, :, 1]),
        stairways=np.frombuffer(payload, dtype=np.uint8, count=hexes, offset=16 + 2 * pixels).copy(),
    )


def _require_file(path: Path, what: str, context: str = "") -> None:
    """Raise unless ``path`` is a regular file: FileNotFoundError when nothing is there, ValueError when
    something else is (a folder, a device), each naming the path."""
    if path.is_file():
        return
    if not path.exists():
        raise FileNotFoundError(f"{what} {str(path)!r} does not exist{context}")
    kind = "a folder" if path.is_dir() else "not a regular file"
    raise ValueError(f"{what} {str(path)!r} is {kind}{context}: expected a file")


def _read_file(path: Path, what: str) -> bytes:
    """A VASL file's bytes (at most :data:`kernel._limits.MAX_FILE_BYTES`, else a ValueError naming it)."""
    return read_limited(path, what)


def _inflate(raw: bytes, source: str) -> bytes:
    """gunzip ``raw``, stopping with a ValueError as soon as it inflates past :data:`MAX_MEMBER_BYTES`."""
    inflater = zlib.decompressobj(wbits=31)
    try:
        stream = inflater.decompress(raw, MAX_MEMBER_BYTES + 1)
    except zlib.error as error:
        raise ValueError(f"{source}: not gzip data ({error}): expected a gzip-compressed Java object stream") from None
    if len(stream) > MAX_MEMBER_BYTES:
        raise ValueError(f"{source}: inflates to more than {MAX_MEMBER_BYTES} bytes: expected a LOSData stream "
                         "of at most that")
    if not inflater.eof:
        raise ValueError(f"{source}: truncated gzip data: expected a gzip-compressed Java object stream")
    return stream


def _read_member(archive: zipfile.ZipFile, member: str, source: str) -> bytes:
    """One member of a board archive, at most :data:`MAX_MEMBER_BYTES` (:func:`read_member`)."""
    return read_member(archive, archive.getinfo(member), f"{source}!{member}", MAX_MEMBER_BYTES, "board archive")


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
        A file is malformed or is a folder (the message names it).
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
            _require_file(required, f"VASL {what} file", f" (board folder {str(path)!r})")
        los_data = read_los_data(los_path)
        metadata = read_board_metadata(meta_path)
        search = [path / SHARED_METADATA_NAME, path.parent / SHARED_METADATA_NAME]
    elif zipfile.is_zipfile(path):
        try:
            with zipfile.ZipFile(path) as archive:
                if len(archive.infolist()) > MAX_ARCHIVE_MEMBERS:
                    raise ValueError(f"{path}: holds {len(archive.infolist())} members: expected at most "
                                     f"{MAX_ARCHIVE_MEMBERS}")
                members = {name: _zip_member(archive, name)
                           for name in (LOS_DATA_NAME, BOARD_METADATA_NAME, SHARED_METADATA_NAME)}
                for name in (LOS_DATA_NAME, BOARD_METADATA_NAME):
                    if members[name] is None:
                        raise FileNotFoundError(f"VASL board archive {str(path)!r} holds no {name} file")
                los_data = parse_los_data(_read_member(archive, members[LOS_DATA_NAME], str(path)),
                                          f"{path}!{members[LOS_DATA_NAME]}")
                metadata = _parse_board_metadata(_read_member(archive, members[BOARD_METADATA_NAME], str(path)),
                                                 f"{path}!{members[BOARD_METADATA_NAME]}")
                if members[SHARED_METADATA_NAME] is not None and shared_metadata is None:
                    shared_bytes = _read_member(archive, members[SHARED_METADATA_NAME], str(path))
                    shared_source = f"{path}!{members[SHARED_METADATA_NAME]}"
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as error:
            if isinstance(error, FileNotFoundError):
                raise
            raise ValueError(f"{path}: damaged board archive ({error})") from None
        # an archive as VASL keeps it holds no terrain table: look beside the archive, then one folder up
        search = [path.parent / SHARED_METADATA_NAME, path.parent.parent / SHARED_METADATA_NAME]
    elif _looks_like_zip(path):
        raise ValueError(f"{path}: damaged board archive (it starts like a zip file but has no complete "
                         "directory: truncated?)")
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
                + "; pass shared_metadata=PATH (import-vasl --metadata PATH) to VASL's SharedBoardMetadata.xml"
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


def is_vasl_board(path: str | Path) -> bool:
    """Whether ``path`` looks like a VASL board: a folder with ``LOSData`` or a zip archive."""
    path = Path(path)
    if path.is_dir():
        return (path / LOS_DATA_NAME).is_file() or (path / BOARD_METADATA_NAME).is_file()
    return path.is_file() and path.suffix not in (".board", ".overlay", ".scenario") and (
        zipfile.is_zipfile(path) or _looks_like_zip(path))


def _looks_like_zip(path: Path) -> bool:
    """Whether a file starts with a zip entry's signature (a damaged archive still does)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == b"PK\x03\x04"
    except OSError:
        return False
