"""A VASL board's import costs time and memory linear in its pixels, whatever its terrain: the largest
accepted board (52 x 200 hexes, 37 million pixels) with random terrain codes and levels 0-4 took 253 s and
1.98 GB, each bridge hex scanning every pixel of the board for its own, each unmapped or art-only code
scanning the board again, and the pixel grid holding several float arrays of the whole board at once."""

from __future__ import annotations

import gzip
import struct
import tracemalloc
import warnings

import numpy as np
import pytest

import kernel
from kernel.grid.pixels import COLUMN_PITCH, HEX_HEIGHT
from kernel.importers.vasl import hex_terrain
from kernel.importers.vasl.files import parse_los_data
from kernel.importers.vasl.pixels import pixel_grid
from kernel.importers.vasl.terrain_map import terrain_lookup
from tests.test_vasl import BOARD_METADATA, TERRAIN_TABLE

#: The table of the synthetic boards, with one code that has no asl equivalent (unmapped).
TABLE = TERRAIN_TABLE.replace("</terrainTypes>", '  <terrainType name="Mystery Marsh" typeCode="201" height="0" '
                                                 'LOSCategory="OTHER" />\n</terrainTypes>')
CODES = np.array([0, 24, 40, 60, 61, 63, 65, 17, 82, 82, 82, 72, 201], np.uint8)   # bridges: a quarter


def random_los_data(columns: int, rows: int, seed: int = 1) -> bytes:
    width, height = round((columns - 1) * COLUMN_PITCH), round(rows * HEX_HEIGHT)
    rng = np.random.default_rng(seed)
    elevation = rng.integers(0, 5, (width, height), dtype=np.int8)
    terrain = CODES[rng.integers(0, len(CODES), (width, height))]
    hexes = sum(rows + column % 2 for column in range(columns))
    payload = (struct.pack(">4i", columns, rows, width, height)
               + np.stack([elevation.view(np.uint8), terrain], axis=2).tobytes() + bytes(hexes))
    stream = bytearray(b"\xac\xed\x00\x05")
    for offset in range(0, len(payload), 1024):
        chunk = payload[offset:offset + 1024]
        stream += b"\x7a" + struct.pack(">i", len(chunk)) + chunk
    return gzip.compress(bytes(stream), compresslevel=1)


@pytest.fixture(scope="module")
def big_board(tmp_path_factory):
    folder = tmp_path_factory.mktemp("big")
    board = folder / "bd05"
    board.mkdir()
    (board / "LOSData").write_bytes(random_los_data(52, 24))
    (board / "BoardMetadata.xml").write_text(BOARD_METADATA.format(buildings="").replace('width="33" height="10"',
                                                                                         'width="52" height="24"'))
    (folder / "SharedBoardMetadata.xml").write_text(TABLE)
    return board


def test_a_bridge_hex_s_levels_come_from_its_own_pixels_only(big_board):
    from kernel.importers.vasl.files import read_board_files

    files = read_board_files(big_board)
    los = files.los_data
    grid = pixel_grid(los.width, los.height, los.grid_width, los.grid_height)
    lookup = terrain_lookup(files.terrain_table, kernel.load_ruleset("asl"))
    for i in range(0, len(grid.cells), 7):   # against the whole board's scan, as it was computed
        inside = grid.hex_of == i
        codes, elevation = los.terrain[inside], los.elevation[inside]
        beneath = lookup.kind[codes] != 3   # (no depressions here: any pixel off the road and bridges)
        found = hex_terrain.bridge_levels(los, grid, i, lookup, [])
        values, counts = np.unique(elevation[beneath], return_counts=True)
        deck_values, deck_counts = np.unique(elevation[lookup.bridge[codes]], return_counts=True)
        assert found == (int(values[np.argmax(counts)]), int(deck_values[np.argmax(deck_counts)])), i


def test_the_import_s_memory_is_a_few_bytes_a_pixel(big_board):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        pixel_grid.cache_clear()
        tracemalloc.start()
        spec = kernel.read_vasl_board(big_board)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    pixels = round(51 * COLUMN_PITCH) * round(24 * HEX_HEIGHT)
    assert len(spec.hexes) == sum(24 + c % 2 for c in range(52))
    assert sum("bridge" in h.terrain for h in spec.hexes.values()) > 1000   # most hexes hold a bridge
    # the LOSData's file, stream and planes, the grid, the counts and the art: 29 bytes a pixel on this board
    # (10 on the 52 x 200 one); the whole board's float temporaries and the per-code scans made it 55
    assert peak < 40 * pixels, peak / pixels


def test_hexes_holding_a_code_are_read_from_the_counts(big_board):
    from kernel.importers.vasl.files import read_board_files

    los = read_board_files(big_board).los_data
    grid = pixel_grid(los.width, los.height, los.grid_width, los.grid_height)
    counts, _ = hex_terrain.hex_code_counts(los, grid)
    for code in (201, 82, 0):
        assert hex_terrain.hexes_holding(counts, code).tolist() == np.unique(grid.hex_of[los.terrain == code]).tolist()
    with pytest.warns(kernel.VaslImportWarning, match=r"201 'Mystery Marsh'"):
        kernel.read_vasl_board(big_board)
