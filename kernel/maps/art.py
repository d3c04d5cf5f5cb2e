"""A map's drawn art: per pixel, the terrain drawn there and its ground elevation (the depiction LOS model).

ASL reads LOS off the drawing (B.1): a building drawn away from its hex's
centre dot may be seen past, brush spilling over a hexside hinders a LOS that
crosses it.  :func:`board_art` gives a compiled :class:`~kernel.maps.board.Board`
one picture of its whole map, in pixels of VASL's geometry (one lattice unit of
:mod:`kernel.grid.lattice` is :data:`UNIT_X` pixels across and :data:`UNIT_Y`
down, so the hex at lattice ``(x, y)`` has its centre dot at pixel
``(x * UNIT_X, y * UNIT_Y)``):

* first every hex is *rasterised* from the hex model: each pixel takes the
  terrain, building levels and ground level of the hex whose centre dot is
  nearest the pixel's point (:func:`pixel_hexes`), and pixels within
  :data:`~kernel.maps._art_kernels.HEXSIDE_BAND` pixels of a hexside carrying a LOS feature (wall,
  hedge, ...) take that feature.  A pixel's point is the pixel ``(x, y)``
  itself on a map without drawn art; on a map with some, pixel ``(x, y)``
  covers the square ``[x, x + 1) x [y, y + 1)`` as in VASL's art, and its
  point is its centre ``(x + 0.5, y + 0.5)`` (on the map's last column and
  row, where the map ends, its corner), so drawn and rasterised pixels follow
  one convention;
* then every board that has art of its own (a VASL board keeps its
  ``LOSData``, :class:`LocalArt`) is pasted over its place, rotated by 180
  degrees when the board is, so a map mixing VASL and bundled boards is one
  picture and the merged half hexes of a seam show each board's own half;
* last, on a map with drawn art, the last row and column of pixels (on the
  line where the map ends, outside every board's art) show the pixels beside
  them.

Each pixel is two bytes, one ``uint16`` word of :attr:`MapArt.pixels` (row
by row, ``pixels[y, x]``: the direction a LOS across a board wider than high
mostly walks): its *class* in the high byte (an index into the map's table of
distinct (terrain mask, building levels, hexside mask) triples, class 0 being
Open Ground with nothing on it) and its ground elevation plus
:data:`~kernel._dtypes.LEVEL_BIAS` in the low byte (whole levels, -128..127).

Examples
--------
>>> import kernel
>>> board = kernel.load("default")
>>> art = board_art(board)
>>> art.terrain.shape == art.elevation.shape, art.bytes_per_pixel, art.drawn
(True, 2, False)
>>> int(art.class_terrain[0]), int(art.class_hexside[0])   # class 0: open ground
(0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernel import _disk_cache
from kernel._cache import BoardCache
from kernel._dtypes import HEX_INDEX, HEXSIDE_MASK, LEVEL, LEVEL_BIAS, PIXEL_CLASS, PIXEL_LEVEL, TERRAIN_MASK
from kernel.grid.pixels import UNIT_X, UNIT_Y

#: Most pixel classes one map can hold (the class is the high byte of a pixel word).
MAX_CLASSES = 256
#: Most pixels of one map's art.  Building it takes about 16 bytes per pixel at its peak (measured: a
#: 51 x 200 random board, 36.3 million pixels, 0.59 GB), so the bound keeps the build under 1.6 GB.
MAX_ART_PIXELS = 100_000_000


@dataclass(frozen=True)
class PixelClass:
    """What a pixel of a board's own art shows: ruleset terrain names, building levels, hexside features."""

    terrain: tuple[str, ...] = ()
    building_levels: int = 0
    hexsides: tuple[str, ...] = ()


@dataclass
class LocalArt:
    """One board's own art, in its local pixels (before placement).

    ``terrain[x, y]`` (uint8) indexes ``classes``; ``elevation[x, y]`` (int8)
    is the ground level under pixel ``(x, y)``.  Pixel ``(0, 0)`` is the centre
    dot of the board's first column's top half hex.
    """

    classes: tuple[PixelClass, ...]
    terrain: np.ndarray
    elevation: np.ndarray


@dataclass
class MapArt:
    """The art of a whole map: two bytes per pixel.

    ``pixels[y, x]`` (uint16) is pixel ``(x, y)``'s word: ``class << 8 |
    (elevation + LEVEL_BIAS)``; the views :attr:`terrain` and
    :attr:`elevation` (computed on each use) give ``terrain[x, y]`` (uint8)
    the pixel's class and ``elevation[x, y]`` (int8) its ground level; the
    class tables give each class's terrain mask
    (``class_terrain``, uint32, bits as :attr:`Board.terrain`), building levels
    (``class_levels``) and hexside feature mask (``class_hexside``, bits as
    :attr:`Board.hexside`; a pixel of a wall or hedge).  ``drawn`` is true when
    at least one board brought art of its own (false: all rasterised).
    """

    pixels: np.ndarray
    class_terrain: np.ndarray
    class_levels: np.ndarray
    class_hexside: np.ndarray
    drawn: bool

    @property
    def terrain(self) -> np.ndarray:
        """Pixel classes, ``terrain[x, y]`` (uint8; a new array on each use)."""
        return (self.pixels >> 8).astype(PIXEL_CLASS).T

    @property
    def elevation(self) -> np.ndarray:
        """Ground levels, ``elevation[x, y]`` (int8; a new array on each use)."""
        return ((self.pixels & 0xFF).astype(np.int16) - LEVEL_BIAS).astype(PIXEL_LEVEL).T

    @property
    def nbytes(self) -> int:
        """Bytes of the per-pixel array."""
        return self.pixels.nbytes

    @property
    def bytes_per_pixel(self) -> int:
        return self.nbytes // self.pixels.size


def map_size(board) -> tuple[int, int]:
    """Width and height in pixels of the picture of ``board``'s map (the last hex centres included)."""
    return int(np.ceil(int(board.x.max()) * UNIT_X)) + 1, int(np.ceil(int(board.y.max()) * UNIT_Y)) + 1


def pixel_hexes(board, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """The hex of each pixel ``(px, py)``: the one whose centre dot is nearest, ties going to the smaller
    lattice ``x``, then ``y``; ``NO_HEX`` where no hex of the map is a candidate (the kernel's
    :func:`~kernel.maps._art_kernels.pixel_hex`, one pixel per entry)."""
    from kernel.maps import _art_kernels as K

    px = np.asarray(px, np.float64)
    py = np.asarray(py, np.float64)
    shape = np.broadcast_shapes(px.shape, py.shape)
    flat_x = np.ascontiguousarray(np.broadcast_to(px, shape).ravel())
    flat_y = np.ascontiguousarray(np.broadcast_to(py, shape).ravel())
    out = np.empty(flat_x.size, HEX_INDEX)
    K.pixel_hexes_kernel(flat_x, flat_y, np.ascontiguousarray(board.cell_index), board.x.astype(np.int64),
                         board.y.astype(np.int64), out)
    return out.reshape(shape)


def _class_keys(terrain, levels, hexside):
    return (terrain.astype(np.int64) << 24) | (levels.astype(np.int64) << 16) | hexside.astype(np.int64)


def _hex_model_keys(board):
    """The class keys a rasterised map can show: per hex its terrain and building levels, per hex and
    direction its LOS hexside features (-1 where none), as int64 arrays (N,) and (N, 6)."""
    rs = board.ruleset
    los_features = sum(1 << k for k in range(len(rs.hexside_names)) if rs.hexside_los_role[k] != 0)
    feature_sides = board.hexside.astype(np.int64) & los_features   # roads and the like are not drawn
    hex_keys = _class_keys(board.terrain, board.building_levels, np.zeros(len(board), np.int64))
    side_keys = np.where(feature_sides != 0, feature_sides, -1)   # a feature alone: no terrain, no levels
    return hex_keys, side_keys


def _local_keys(art: LocalArt, ruleset) -> np.ndarray:
    """Class keys of a board's own art classes under ``ruleset``."""
    keys = []
    for c in art.classes:
        terrain = 0
        for name in c.terrain:
            terrain |= 1 << ruleset.terrain_index(name)
        hexside = 0
        for name in c.hexsides:
            hexside |= 1 << ruleset.hexside_index(name)
        keys.append((terrain << 24) | (c.building_levels << 16) | hexside)
    return np.array(keys, np.int64)


def art_size(columns: int, rows: int) -> tuple[float, float]:
    """Width and height in pixels of the art of a board of ``columns`` x ``rows`` hexes (whole only for a
    column count of 4k + 1 and an even row count, as every VASL geomorphic board has).

    >>> art_size(33, 10), art_size(32, 10)
    ((1800.0, 645.0), (1743.75, 645.0))
    """
    return (columns - 1) * 3 * UNIT_X, rows * 2 * UNIT_Y


def _placed_pixels(placement) -> tuple[int, int, int, int]:
    """Width and height of a placed board's art in pixels and its pixel offset on the map, all whole; else
    a ValueError naming the board (checked for every board before any pixel is allocated)."""
    spec = placement.board
    width_px, height_px = art_size(spec.columns, spec.rows)
    ox, oy = placement.column * width_px, placement.row * height_px
    if ox != int(ox) or oy != int(oy) or width_px != int(width_px) or height_px != int(height_px):
        raise ValueError(f"{spec.source}: a {spec.columns}x{spec.rows} board lies at pixel offset ({ox}, {oy}): "
                         f"expected whole pixels (its art would be {width_px} x {height_px} pixels; a column count "
                         "of 4k + 1, such as 33, and an even row count give whole pixels)")
    return int(width_px), int(height_px), int(ox), int(oy)


def _paste(keys, elevation, placement, local_keys):
    """Paste one placed board's own art into the map's keys and elevation."""
    art = placement.board.art
    width_px, height_px, ox, oy = _placed_pixels(placement)
    local = local_keys[art.terrain]
    local_elevation = art.elevation
    w, h = local.shape
    x0, y0 = int(ox), int(oy)
    if placement.rotated:
        # turned 180 degrees within the board's box, as VASL flips a rotated board's pixels: local pixel
        # (x, y) of a w x h board lies at (w - 1 - x, h - 1 - y) of its box (the square [x, x + 1) turned)
        local = local[::-1, ::-1]
        local_elevation = local_elevation[::-1, ::-1]
        x0, y0 = x0 + int(width_px) - w, y0 + int(height_px) - h
    sx, sy = max(0, -x0), max(0, -y0)
    ex, ey = min(w, keys.shape[0] - x0), min(h, keys.shape[1] - y0)
    if ex > sx and ey > sy:
        keys[x0 + sx:x0 + ex, y0 + sy:y0 + ey] = local[sx:ex, sy:ey]
        elevation[x0 + sx:x0 + ex, y0 + sy:y0 + ey] = local_elevation[sx:ex, sy:ey]


#: Each board's rasterised art.
ART_CACHE = BoardCache("art")


def board_art(board) -> MapArt:
    """The art of ``board``'s whole map (computed once, then cached on the board).

    Every pixel is rasterised from the hex model (:func:`~kernel.maps._art_kernels.rasterise_kernel`)
    except where a board's own art is pasted.  The classes are the distinct class keys the map shows,
    in increasing key order (class 0: Open Ground with nothing on it).

    Raises
    ------
    ValueError
        More than :data:`MAX_CLASSES` distinct pixel classes on the map, or a
        board whose art would not lie at whole pixels.

    See Also
    --------
    kernel.los_matrix : ``model="depiction"`` reads the LOS off this art.
    kernel.board_picture : draws it.

    Examples
    --------
    >>> import kernel
    >>> art = kernel.board_art(kernel.load("71"))
    >>> art.drawn, art.pixels.dtype.name    # board 71 has no art of its own: rasterised from its hexes
    (False, 'uint16')
    """
    from kernel.maps import _art_kernels as K

    cached = ART_CACHE.entries(board).get("_art")
    if cached is not None:
        return cached
    with_art = [p for p in board.placements if p.board.art is not None]
    for placement in with_art:  # up front: a board off whole pixels fails before gigabytes are allocated
        _placed_pixels(placement)
    width, height = map_size(board)
    if width * height > MAX_ART_PIXELS:
        raise ValueError(f"{board.source}: the map's art would be {width} x {height} = {width * height:,} pixels: "
                         f"expected at most {MAX_ART_PIXELS:,} for model='depiction' (use the hex model)")
    hex_keys, side_keys = _hex_model_keys(board)
    local_keys = [_local_keys(p.board.art, board.ruleset) for p in with_art]
    key = _art_key(board, width, height, hex_keys, side_keys, with_art, local_keys)
    stored = _disk_cache.load("art", key, _STORED)
    if stored is not None and _usable(stored, width, height):
        art = MapArt(pixels=stored["pixels"], class_terrain=stored["class_terrain"],
                     class_levels=stored["class_levels"], class_hexside=stored["class_hexside"],
                     drawn=bool(with_art))
        ART_CACHE.entries(board)["_art"] = art
        return art
    # every key the map can show, sorted (key 0 first): a pixel holds the index of its key in it
    candidates = np.unique(np.concatenate([[0], hex_keys, side_keys[side_keys >= 0]] + local_keys))
    covered = np.zeros((height, width), np.bool_)   # [y, x]; _paste writes through [x, y] views
    index = np.zeros((height, width), np.int32)
    level = np.zeros((height, width), PIXEL_LEVEL)
    for placement in with_art:   # where the boards' own art will lie
        _paste(covered.T, level.T, placement, np.ones(len(placement.board.art.classes), np.bool_))
    K.rasterise_kernel(covered, np.ascontiguousarray(board.cell_index), board.x.astype(np.int64),
                       board.y.astype(np.int64), np.searchsorted(candidates, hex_keys).astype(np.int32),
                       np.where(side_keys >= 0, np.searchsorted(candidates, side_keys), -1).astype(np.int32),
                       board.ground_level.astype(PIXEL_LEVEL), 0.5 if with_art else 0.0, index, level)
    for placement, keys in zip(with_art, local_keys):
        _paste(index.T, level.T, placement, np.searchsorted(candidates, keys).astype(np.int32))
    if with_art and height > 1 and width > 1:
        # the map's last row and column of pixels lie on the line where it ends, outside every board's art
        # (VASL's covers [0, 1800) x [0, 645)): they show the art beside them
        index[-1, :] = index[-2, :]
        level[-1, :] = level[-2, :]
        index[:, -1] = index[:, -2]
        level[:, -1] = level[:, -2]
    # the classes: the candidates some pixel shows (and Open Ground), renumbered in key order
    shown = np.bincount(index.ravel(), minlength=candidates.size) > 0
    shown[0] = True
    unique = candidates[shown]
    if unique.size > MAX_CLASSES:
        raise ValueError(f"{board.source}: the map's art has {unique.size} distinct pixel classes: "
                         f"expected at most {MAX_CLASSES}")
    renumber = (np.cumsum(shown) - 1).astype(np.uint16)
    pixels = (renumber[index] << np.uint16(8)) | (level.astype(np.int16) + LEVEL_BIAS).astype(np.uint16)
    art = MapArt(
        pixels=pixels,
        class_terrain=(unique >> 24).astype(TERRAIN_MASK),
        class_levels=((unique >> 16) & 0xFF).astype(LEVEL),
        class_hexside=(unique & 0xFFFF).astype(HEXSIDE_MASK),
        drawn=bool(with_art),
    )
    _disk_cache.save("art", key, {name: getattr(art, name) for name in _STORED})
    ART_CACHE.entries(board)["_art"] = art
    return art


#: The arrays of a :class:`MapArt` kept in the on-disk cache (:mod:`kernel._disk_cache`).
_STORED = ("pixels", "class_terrain", "class_levels", "class_hexside")


def _usable(stored, width, height) -> bool:
    """Whether arrays read from the on-disk cache have the shapes and dtypes of a map's art."""
    pixels, classes = stored["pixels"], stored["class_terrain"].shape
    return (pixels.shape == (height, width) and pixels.dtype == np.uint16
            and stored["class_terrain"].dtype == TERRAIN_MASK and stored["class_levels"].dtype == LEVEL and stored["class_hexside"].dtype == HEXSIDE_MASK
            and stored["class_levels"].shape == classes == stored["class_hexside"].shape)


def _art_key(board, width, height, hex_keys, side_keys, with_art, local_keys) -> str:
    """The on-disk cache key of a map's art: a digest of the package's code and of every input of
    :func:`board_art`."""
    parts = [width, height, np.ascontiguousarray(board.cell_index), board.x.astype(np.int64),
             board.y.astype(np.int64), hex_keys, side_keys, board.ground_level.astype(PIXEL_LEVEL), len(with_art)]
    for placement, keys in zip(with_art, local_keys):
        spec = placement.board
        parts += [spec.columns, spec.rows, placement.column, placement.row, bool(placement.rotated), keys,
                  np.asarray(spec.art.terrain), np.asarray(spec.art.elevation)]
    return _disk_cache.digest(parts)
