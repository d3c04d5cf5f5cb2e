"""Sort VASL's "Intervening hexside terrain (B9.2)" blocks into kinds, from the drawn art.

VASL's engine blocks a LOS when its line of pixels meets wall, hedge or
bocage art outside the viewer's and target's hexes' own hexsides (as it reads
B9.2). Where hexkernel sees, this module finds *which* art VASL met, by
walking the same centre-to-centre line over the board's pixels
(``LOSData``), and tells why the hex-level model does not count it:

``an end's own hexside``
    every wall or hedge pixel on the line lies on a hexside of the viewer's
    or the target's hex. B9.2 (digest section 3) ignores those hexsides,
    except along a hexspine whose far vertex has walls on all three
    hexspines; VASL counts them. **Rules reading**: we keep B9.2.
``art beside its hexside``
    the pixels belong to a hexside that the import gives a wall or hedge,
    but the exact line neither crosses that hexside nor runs along it: it
    passes beside it, or touches only its end vertex, and meets the painted
    band (4 to 8 pixels thick, drawn past the vertex). **Depiction**.
``art on no imported hexside``
    the pixels lie near a hexside that the import gives no wall or hedge
    (a short stub of art, under the import's 15 % threshold). **Depiction**.
``along a hexside touching an end``
    the line runs exactly along an imported wall or hedge hexside (a
    hexspine) that shares a vertex with the viewer's or target's hex, and the
    far vertex of the run does not have walls on all three hexspines. The
    digest's B9 reading (section 3) leaves such a run clear; VASL blocks.
    **Rules reading (B9)**.
``no wall or hedge art on the line``
    no wall, hedge or bocage pixel lies on the line or within
    :data:`NEAR_LINE` pixels of it (when some lies only that near, the pair is
    sorted by those pixels, as if on the line: VASL rasterises its line its
    own way). Unexplained.
``crossed imported hexside``
    the line crosses or runs along an imported wall or hedge hexside that is
    no end's own, and hexkernel still sees: that would be a gap in our
    rules. Expected to be empty.

A pair takes the first of these kinds, in the order: crossed imported
hexside, along a hexside touching an end, art beside its hexside, art on no
imported hexside, an end's own hexside, no art. The line is walked in steps of half a pixel; a pixel's
hexside is the one between its hex (the nearest centre) and the nearest
neighbouring centre.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction

import numpy as np

from kernel.grid.lattice import VERTEX_OFFSETS
from kernel.importers.vasl.build import read_board_files
from kernel.grid.pixels import UNIT_X, UNIT_Y
from kernel.importers.vasl.pixels import cell_name, pixel_grid

#: The kinds, in the order a pair is given the first that applies.
KINDS = ("crossed imported hexside", "along a hexside touching an end", "art beside its hexside", "art on no imported hexside",
         "an end's own hexside", "no wall or hedge art on the line")

#: Whether each kind is a difference of depiction, of rules reading, or unexplained.
KIND_NATURE = {
    "crossed imported hexside": "ours (a gap in our rules)",
    "along a hexside touching an end": "rules reading (B9)",
    "art beside its hexside": "depiction",
    "art on no imported hexside": "depiction",
    "an end's own hexside": "rules reading (B9.2)",
    "no wall or hedge art on the line": "unexplained",
}

#: When no art lies on the walked line, the art up to this many pixels either side of it is
#: taken (VASL rasterises its line its own way).
NEAR_LINE = 1.5

#: The hexside features whose art VASL counts as "hexside terrain".
WALL_FEATURES = ("wall", "hedge", "bocage")


def _orientation(ax, ay, bx, by, cx, cy) -> int:
    value = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return (value > 0) - (value < 0)


def segment_meets_hexside(a, b, v, w) -> str:
    """How segment ``a``-``b`` meets hexside ``v``-``w`` (integer lattice points).

    Returns ``"crosses"`` (through the hexside's inside), ``"along"`` (overlaps
    it for a length), ``"vertex"`` (touches only an end vertex) or ``"apart"``.

    >>> segment_meets_hexside((0, 0), (6, 0), (3, -1), (3, 1))
    'crosses'
    >>> segment_meets_hexside((0, 0), (6, 0), (1, 0), (3, 0))
    'along'
    >>> segment_meets_hexside((0, 0), (6, 0), (3, 0), (4, 1))
    'vertex'
    >>> segment_meets_hexside((0, 0), (6, 0), (3, 1), (4, 2))
    'apart'
    """
    (ax, ay), (bx, by), (vx, vy), (wx, wy) = a, b, v, w
    o1 = _orientation(ax, ay, bx, by, vx, vy)
    o2 = _orientation(ax, ay, bx, by, wx, wy)
    o3 = _orientation(vx, vy, wx, wy, ax, ay)
    o4 = _orientation(vx, vy, wx, wy, bx, by)
    if o1 == 0 and o2 == 0:  # collinear: overlap length along the segment's direction
        length2 = (bx - ax) ** 2 + (by - ay) ** 2
        t = sorted(Fraction((px - ax) * (bx - ax) + (py - ay) * (by - ay), length2) for px, py in (v, w))
        low, high = max(t[0], Fraction(0)), min(t[1], Fraction(1))
        if low < high:
            return "along"
        return "vertex" if low == high else "apart"
    if o1 * o2 < 0 and o3 * o4 < 0:
        return "crosses"
    touches = (o1 == 0 and _on_segment(a, b, v)) or (o2 == 0 and _on_segment(a, b, w))
    return "vertex" if touches else "apart"


def _on_segment(a, b, p) -> bool:
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


class HexsideArt:
    """The wall, hedge and bocage pixels of one VASL board, with their hexsides.

    Parameters
    ----------
    path : str or Path
        The VASL board folder (``../shared/vasl/bdNN``).
    board : kernel.Board
        The same board imported with :func:`kernel.load_vasl_board` (one
        board, not rotated: its lattice coordinates are the pixel grid's).
    """

    def __init__(self, path, board):
        files = read_board_files(path)
        los = files.los_data
        self.board = board
        self.grid = pixel_grid(los.width, los.height, los.grid_width, los.grid_height)
        self.code = los.terrain
        self.size = (los.grid_width, los.grid_height)
        self.wall_code = np.zeros(256, dtype=bool)
        for code, terrain in files.terrain_table.items():
            if 0 <= code <= 255 and terrain.category == "HEXSIDE" and terrain.obstacle:
                self.wall_code[code] = True
        prefix = board.names[0][:len(board.names[0]) - len(cell_name(self.grid.cells[0]))]
        self.cell_to_hex = np.array([board.index(prefix + cell_name(cell)) for cell in self.grid.cells])
        self.wall_mask = 0
        for name in WALL_FEATURES:
            if name in board.ruleset.hexside_names:
                self.wall_mask |= 1 << board.ruleset.hexside_index(name)

    def _hexside_of_pixel(self, x: float, y: float, hex_index: int) -> int:
        """The hexside (0..5) of ``hex_index`` nearest to pixel ``(x, y)``."""
        cx, cy = self.board.x[hex_index] * UNIT_X, self.board.y[hex_index] * UNIT_Y
        best, best_d = 0, np.inf
        for d in range(6):
            v, w = VERTEX_OFFSETS[(d - 1) % 6], VERTEX_OFFSETS[d]
            mx, my = cx + (v[0] + w[0]) / 2 * UNIT_X, cy + (v[1] + w[1]) / 2 * UNIT_Y
            dist = (x - mx) ** 2 + (y - my) ** 2
            if dist < best_d:
                best, best_d = d, dist
        return best

    def art_hexsides(self, a: int, b: int, band: float = 0.0) -> set[tuple[int, int]]:
        """The hexsides ``(hex, direction)`` whose wall/hedge art the pixel line ``a``-``b`` meets.

        ``band``: also take the pixels up to this many pixels either side of the line.
        """
        ax, ay = self.board.x[a] * UNIT_X, self.board.y[a] * UNIT_Y
        bx, by = self.board.x[b] * UNIT_X, self.board.y[b] * UNIT_Y
        length = float(np.hypot(bx - ax, by - ay))
        nx, ny = -(by - ay) / length, (bx - ax) / length
        t = np.linspace(0.0, 1.0, int(np.ceil(2 * length)) + 1)
        found = set()
        for offset in np.arange(-band, band + 0.25, 0.5) if band else (0.0,):
            px = np.clip(np.rint(ax + t * (bx - ax) + offset * nx).astype(np.int64), 0, self.size[0] - 1)
            py = np.clip(np.rint(ay + t * (by - ay) + offset * ny).astype(np.int64), 0, self.size[1] - 1)
            wall = self.wall_code[self.code[px, py]]
            for x, y in set(zip(px[wall].tolist(), py[wall].tolist())):
                hex_index = int(self.cell_to_hex[self.grid.hex_of[x, y]])
                found.add((hex_index, self._hexside_of_pixel(x, y, hex_index)))
        return found

    def kind(self, a: int, b: int) -> str:
        """The kind (one of :data:`KINDS`) of VASL's B9.2 block between hexes ``a`` and ``b``."""
        board = self.board
        ends = {a, b}
        start, end = (int(board.x[a]), int(board.y[a])), (int(board.x[b]), int(board.y[b]))
        end_vertices = {(int(board.x[e]) + int(dx), int(board.y[e]) + int(dy))
                        for e in ends for dx, dy in VERTEX_OFFSETS}
        kinds = set()
        met = self.art_hexsides(a, b) or self.art_hexsides(a, b, band=NEAR_LINE)
        for hex_index, d in met:
            other = int(board.neighbours[hex_index, d])
            if hex_index in ends or other in ends:
                kinds.add("an end's own hexside")
                continue
            if not int(board.hexside[hex_index, d]) & self.wall_mask:
                kinds.add("art on no imported hexside")
                continue
            cx, cy = int(board.x[hex_index]), int(board.y[hex_index])
            v, w = VERTEX_OFFSETS[(d - 1) % 6], VERTEX_OFFSETS[d]
            first, second = (cx + int(v[0]), cy + int(v[1])), (cx + int(w[0]), cy + int(w[1]))
            meets = segment_meets_hexside(start, end, first, second)
            if meets == "along" and {first, second} & end_vertices:
                kinds.add("along a hexside touching an end")
            elif meets in ("crosses", "along"):
                kinds.add("crossed imported hexside")
            else:
                kinds.add("art beside its hexside")
        for kind in KINDS[:-1]:
            if kind in kinds:
                return kind
        return KINDS[-1]


def classify_pairs(art: HexsideArt, pairs, names, examples: int = 3) -> list[dict]:
    """Count VASL's B9.2 blocks by :data:`KINDS`.

    Parameters
    ----------
    art : HexsideArt
    pairs : iterable of (int, int)
        Board hex indices (viewer, target).
    names : callable
        ``names(a, b)`` gives the pair's printed name.
    examples : int
        Example pairs kept per kind.

    Returns
    -------
    list of dict
        ``{"kind", "nature", "count", "examples"}``, in the order of :data:`KINDS`, empty kinds left out.
    """
    counts, kept = Counter(), defaultdict(list)
    for a, b in pairs:
        kind = art.kind(int(a), int(b))
        counts[kind] += 1
        if len(kept[kind]) < examples:
            kept[kind].append(names(a, b))
    return [{"kind": kind, "nature": KIND_NATURE[kind], "count": counts[kind], "examples": kept[kind]}
            for kind in KINDS if counts[kind]]
