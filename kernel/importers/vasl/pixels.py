"""The pixel geometry of VASL boards: hex centres in pixels, the pixel -> hex grid, discs and hexside bands of pixels."""

from __future__ import annotations

from dataclasses import dataclass
import functools

import numpy as np

from kernel.grid.lattice import VERTEX_OFFSETS
from kernel.grid.pixels import COLUMN_PITCH, UNIT_X, UNIT_Y
from kernel.maps.specs import BoardSpec


def pixel_centre(column: int, number: int) -> tuple[float, float]:
    """Pixel centre of hex ``number`` in (0-based) ``column`` of a geomorphic board.

    >>> pixel_centre(0, 1), pixel_centre(1, 0), pixel_centre(8, 9)
    ((0.0, 32.25), (56.25, 0.0), (450.0, 548.25))
    """
    return 3 * column * UNIT_X, (2 * number - 1 + column % 2) * UNIT_Y


#: Hexside sampling: the middle ``HEXSIDE_SPAN`` of the hexside's length, up
#: to ``HEXSIDE_DEPTH`` pixels either side of it; a feature counts when it
#: covers ``HEXSIDE_MIN_SHARE`` of the samples.
HEXSIDE_SPAN = 0.5


HEXSIDE_DEPTH = 5.0


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


#: Pixels of one slab of columns whose temporaries the pixel grid's computation holds at once.
SLAB_PIXELS = 1 << 21


@functools.lru_cache(maxsize=4)
def pixel_grid(width: int, height: int, grid_width: int, grid_height: int) -> PixelGrid:
    """Assign every pixel of a ``grid_width`` x ``grid_height`` grid to its hex.

    The grid of one geometry is computed once per process (every standard
    board shares one) and its arrays are read-only.
    """
    spec = BoardSpec("", "board", "0", "asl", "geomorphic", "flat", width, height)
    cells = list(spec.cells())
    index = {cell: i for i, cell in enumerate(cells)}
    table = np.full((width, height + 1), -1, dtype=np.int32)
    for (column, number), i in index.items():
        table[column, number] = i
    centres = np.array([pixel_centre(c, n) for c, n in cells], dtype=np.float64)
    best = np.full((grid_width, grid_height), -1, dtype=np.int32)
    py = np.arange(grid_height, dtype=np.float64)[None, :]
    # slabs of columns of pixels: the float temporaries of a slab, not of the whole board (a 52 x 200 board
    # has 37 million pixels, 300 MB per float array)
    slab = max(1, SLAB_PIXELS // max(grid_height, 1))
    for x0 in range(0, grid_width, slab):
        px = np.arange(x0, min(x0 + slab, grid_width), dtype=np.float64)[:, None]
        best_d = np.full((px.shape[0], grid_height), np.inf)
        first = np.clip(np.floor(px / COLUMN_PITCH).astype(np.int64), 0, width - 1)
        part = best[x0:x0 + px.shape[0]]
        for step in (0, 1):
            column = np.clip(first + step, 0, width - 1)
            odd = column % 2
            number = np.rint((py / UNIT_Y + 1 - odd) / 2).astype(np.int64)
            number = np.clip(number, 1 - odd, height)
            cy = (2 * number - 1 + odd) * UNIT_Y
            cx = column * COLUMN_PITCH
            d = (px - cx) ** 2 + (py - cy) ** 2
            closer = d < best_d
            part[closer] = table[column, number][closer]
            best_d[closer] = d[closer]
    for array in (best, centres):
        array.setflags(write=False)
    return PixelGrid(width, height, cells, index, best, centres[:, 0], centres[:, 1])


def disc_pixels(los, x: float, y: float, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Integer pixel coordinates within ``radius`` of ``(x, y)``, clipped to the grid of ``los``
    (a :class:`~kernel.importers.vasl.files.LOSData`; not imported here, which would close a circle)."""
    x0, x1 = max(int(np.floor(x - radius)), 0), min(int(np.ceil(x + radius)), los.grid_width - 1)
    y0, y1 = max(int(np.floor(y - radius)), 0), min(int(np.ceil(y + radius)), los.grid_height - 1)
    if x0 > x1 or y0 > y1:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    gx, gy = np.arange(x0, x1 + 1)[:, None], np.arange(y0, y1 + 1)[None, :]
    xs, ys = np.nonzero((gx - x) ** 2 + (gy - y) ** 2 <= radius * radius)  # ordered by x, then y
    return xs + x0, ys + y0


def hexside_pixels(los, x: float, y: float, direction: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixels of ``los`` (a :class:`~kernel.importers.vasl.files.LOSData`) around the middle of
    hexside ``direction`` of the hex centred at pixel ``(x, y)``."""
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
    s, t = along[:, None], across[None, :]
    sx = np.rint(mx + s * ux + t * nx).astype(np.int64).ravel()
    sy = np.rint(my + s * uy + t * ny).astype(np.int64).ravel()
    keep = (sx >= 0) & (sx < los.grid_width) & (sy >= 0) & (sy < los.grid_height)
    flat = np.unique(sx[keep] * los.grid_height + sy[keep])  # each pixel once, ordered by x then y
    return flat // los.grid_height, flat % los.grid_height


def cell_name(cell: tuple[int, int]) -> str:
    from kernel.grid.columns import column_letters

    return f"{column_letters(cell[0])}{cell[1]}"
