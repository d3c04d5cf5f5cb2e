"""Small synthetic VASL boards and saved games for the saved-game tests (written here, so those tests always run).

A board (``bd05``, ``bd06``, ...) is a standard 33 x 10 board of 1800 x 645
pixels whose ``LOSData`` paints: a two-level stone building at C3 (its type
in ``BoardMetadata.xml``), woods round I9, a level-1 hill at W4, and a stream
at R5 with a stone bridge over it on a road down column R.  Pixel geometry
(the LOSData format's): columns 56.25 pixels apart, hexes 64.5 high, A1's
centre at (0, 32.25), columns B, D, ... half a hex higher.  A save's map
pixels start 400 pixels left of and above its first board.
"""

from __future__ import annotations

import gzip
import struct
from pathlib import Path

import numpy as np

GRID_W, GRID_H = 1800, 645
PITCH, HEIGHT = 56.25, 64.5
MARGIN = 400

TABLE = """<?xml version="1.0"?>
<sharedBoardMetadata><terrainTypes>
  <terrainType name="Open Ground" typeCode="0" isLOSObstacle="FALSE" isLOSHindrance="FALSE" height="0" LOSCategory="OPEN" />
  <terrainType name="Stone Building" typeCode="40" isLOSObstacle="TRUE" height="1" LOSCategory="BUILDING" />
  <terrainType name="Woods" typeCode="60" isLOSObstacle="TRUE" height="1" LOSCategory="WOODS" />
  <terrainType name="Dirt Road" typeCode="65" height="0" LOSCategory="ROAD" />
  <terrainType name="Shallow Stream" typeCode="17" isLOSHindrance="FALSE" height="0" LOSCategory="OTHER" />
  <terrainType name="Single Hex Stone Bridge" typeCode="82" isLOSHindrance="TRUE" height="0" LOSCategory="BRIDGE" />
</terrainTypes></sharedBoardMetadata>
"""

METADATA = """<?xml version="1.0"?>
<boardMetadata name="{name}" version="{version}" hasHills="TRUE" width="33" height="10">
  <buildingTypes><buildingType hexName="C3" buildingTypeName="Stone Building, 2 Level" /></buildingTypes>
</boardMetadata>
"""


def cell(name: str) -> tuple[int, int]:
    """Column index and number of a board-local hex name (``"C3"`` -> ``(2, 3)``)."""
    letters = name.rstrip("0123456789")
    column = (ord(letters[0]) - ord("A")) + 26 * (len(letters) - 1)
    return column, int(name[len(letters):])


def centre(name: str) -> tuple[float, float]:
    """The pixel centre of a board-local hex on its unrotated board."""
    column, number = cell(name)
    return column * PITCH, (2 * number - 1 + column % 2) * HEIGHT / 2


def map_pixel(name: str, column: int = 0, row: int = 0, rotated: bool = False) -> tuple[int, int]:
    """The save's map pixel of a hex's centre on the board at ``column``, ``row`` of a grid of standard boards
    (rounded as VASL's positions are whole pixels)."""
    x, y = centre(name)
    if rotated:
        x, y = GRID_W - x, GRID_H - y
    return int(round(MARGIN + column * GRID_W + x)), int(round(MARGIN + row * GRID_H + y))


def _disc(grid, name, radius, value):
    x, y = centre(name)
    gx, gy = np.meshgrid(np.arange(GRID_W), np.arange(GRID_H), indexing="ij")
    grid[(gx - x) ** 2 + (gy - y) ** 2 <= radius ** 2] = value


def los_data() -> bytes:
    """The LOSData of the synthetic board (module docstring)."""
    elevation = np.zeros((GRID_W, GRID_H), np.int8)
    terrain = np.zeros((GRID_W, GRID_H), np.uint8)
    _disc(terrain, "I9", 40, 60)
    _disc(terrain, "C3", 14, 40)
    _disc(elevation, "W4", 34, 1)
    _disc(terrain, "R5", 34, 17)
    _disc(elevation, "R5", 34, -1)
    x, _ = centre("R5")
    top, bottom = int(centre("R3")[1]), int(centre("R7")[1])
    terrain[int(x) - 5:int(x) + 6, top:bottom + 1] = 65
    elevation[int(x) - 5:int(x) + 6, top:bottom + 1] = 0
    y5 = centre("R5")[1]
    terrain[int(x) - 5:int(x) + 6, int(y5) - 30:int(y5) + 31] = 82
    hexes = sum(10 + c % 2 for c in range(33))
    payload = struct.pack(">4i", 33, 10, GRID_W, GRID_H)
    payload += np.stack([elevation.view(np.uint8), terrain], axis=2).tobytes() + bytes(hexes)
    stream = bytearray(b"\xac\xed\x00\x05")
    for offset in range(0, len(payload), 1024):
        chunk = payload[offset:offset + 1024]
        stream += b"\x7a" + struct.pack(">i", len(chunk)) + chunk
    return gzip.compress(bytes(stream), compresslevel=1)


_LOS_DATA: list[bytes] = []


def write_boards(folder: Path, names=("05", "06"), version: str = "1.0") -> Path:
    """A folder of VASL boards (``bdNN`` folders and the terrain table beside them); returns the folder."""
    if not _LOS_DATA:
        _LOS_DATA.append(los_data())
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SharedBoardMetadata.xml").write_text(TABLE)
    for name in names:
        board = folder / f"bd{name}"
        board.mkdir()
        (board / "LOSData").write_bytes(_LOS_DATA[0])
        (board / "BoardMetadata.xml").write_text(METADATA.format(name=name, version=version))
    return folder
