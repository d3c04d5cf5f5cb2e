"""Exact centre-to-centre tracing with integer arithmetic, as reusable templates.

The hex lattice is invariant under translation by a lattice vector, so the
hexes that the segment from hex ``a`` to hex ``b`` meets, and how it meets
them, depend only on the displacement ``(dcol, dy)`` from ``a`` to ``b``
(column difference and difference of the exact ``y`` coordinates).  The
:class:`TraceTemplates` of a board hold, for every displacement the map can
contain, the ordered list of relative hexes met, with

* ``kind``: :data:`INTERIOR`, :data:`HEXSIDE` (running along one of its
  hexsides) or :data:`VERTEX` (a single corner touch);
* ``cross``: for an interior hex entered straight from the previous interior
  hex, the hexside direction of that crossing (else -1);
* the range of the hex from ``a`` and from ``b``.

Templates are built once per board by a parallel numba kernel using exact
integer cross products and rational interval comparisons (see
``docs/los-semantics.md`` section 1), so no floating-point nudge is involved;
every LOS query is then a walk over one template.

Examples
--------
>>> from kernel.maps.random_maps import random_board
>>> board = random_board("asl", 10, 6, seed=1)
>>> [(board.name(h), kind) for h, kind in trace(board, "C3", "C5")]
[('C3', 'interior'), ('C4', 'interior'), ('C5', 'interior')]
"""

from __future__ import annotations

import numpy as np
import numba

from kernel._cache import BoardCache
from kernel._dtypes import HEX_INDEX, NO_HEX
from kernel._jit import jit, jit_parallel
from kernel.line_of_sight._templates.store import TABLE_NAMES, stored_tables

#: Contact kinds stored in templates.
INTERIOR, HEXSIDE, VERTEX = 0, 1, 2
KIND_NAMES = ("interior", "hexside", "vertex")

#: Padding of the (column, y) lookup grid so template hexes just off the map
#: read ``NO_HEX`` without bounds checks (templates reach one column and two
#: y units beyond the two ends).
GRID_PAD = 3

#: Most template entries reserved at once while building (10 bytes each): the
#: build goes through the displacements in chunks of about this many.
BUILD_CHUNK_ENTRIES = 4_000_000

_VX = np.array([1, 2, 1, -1, -2, -1], dtype=np.int64)
_VY = np.array([-1, 0, 1, 1, 0, -1], dtype=np.int64)
_STEP_X = np.array([0, 3, 3, 0, -3, -3], dtype=np.int64)
_STEP_Y = np.array([-2, -1, 1, 2, 1, -1], dtype=np.int64)


@jit
def _hex_range(dx, dy):
    """Range between two centres ``(dx, dy)`` apart (dx a multiple of 3)."""
    i = abs(dx) // 3
    j = abs(dy)
    half = (i + j) // 2
    return i if i > half else half


@jit
def _candidate_bound(dc, dy):
    """Upper bound on the hexes the segment to (3*dc, dy) can meet."""
    total = 0
    lo = min(0, dc) - 1
    hi = max(0, dc) + 1
    span = abs(dy) + 6
    if dc == 0:
        return 3 * (span // 2 + 3)
    for _ in range(lo, hi + 1):
        total += (abs(dy) * 4) // (3 * abs(dc)) + 8
    return total


@jit
def _less(n1, m1, n2, m2):
    """n1/m1 < n2/m2 for positive denominators (exact)."""
    return n1 * m2 < n2 * m1


@jit
def _build_one(dc, dy, out_x, out_y, out_kind, out_cross, out_da, out_db, out_entry, start,
               t_in_n, t_in_m, t_out_n, t_out_m, side):
    """Fill the template of displacement (dc, dy) from ``start``; return its length.

    The segment runs from (0, 0) to (DX, DY) = (3*dc, dy).  Writes the entry
    hexside mask of the last hex (the target) to ``out_entry[0]``.
    """
    DX = 3 * dc
    DY = dy
    DD = DX * DX + DY * DY
    count = np.int64(0)   # not the constant 0: numba would also compile _ranges_and_crossings for count == 0
    if dc == 0 and dy == 0:
        out_x[start] = 0
        out_y[start] = 0
        out_kind[start] = INTERIOR
        out_cross[start] = -1
        out_da[start] = 0
        out_db[start] = 0
        out_entry[0] = 0
        return 1
    step_c = 1 if dc >= 0 else -1
    c_first = -step_c
    c_last = dc + step_c
    c = c_first
    while True:
        # y range of the segment over this column's x span [3c-2, 3c+2]
        if dc == 0:
            ylo = min(0, DY)
            yhi = max(0, DY)
        else:
            xa = max(min(0, DX), 3 * c - 2)
            xb = min(max(0, DX), 3 * c + 2)
            if xa > xb:
                xa = 3 * c
                xb = 3 * c
            ya = (DY * xa) // DX
            yb = (DY * xb) // DX
            ylo = min(ya, yb)
            yhi = max(ya, yb) + 1
        jlo = ylo - 3
        jhi = yhi + 3
        # candidate centres (3c, j) with j = c (mod 2), walked in the direction of DY
        if (jlo - c) % 2 != 0:
            jlo -= 1
        nj = (jhi - jlo) // 2 + 1
        for jj in range(nj):
            j = jlo + 2 * jj if DY >= 0 else jlo + 2 * (nj - 1 - jj)
            cx = 3 * c
            cy = j
            pos = 0
            neg = 0
            zero = 0
            for k in range(6):
                s = DX * (cy + _VY[k]) - DY * (cx + _VX[k])
                if s > 0:
                    pos += 1
                elif s < 0:
                    neg += 1
                else:
                    zero += 1
            if pos > 0 and neg > 0:
                kind = INTERIOR
            elif zero == 2:
                kind = HEXSIDE
            elif zero == 1:
                kind = VERTEX
            else:
                continue
            # contact interval along the line, as fractions n/m of DD
            best_in_n = 0
            best_in_m = 0
            best_out_n = 0
            best_out_m = 0
            in_mask = 0
            first = True
            for k in range(6):
                k2 = (k + 1) % 6
                vx = cx + _VX[k]
                vy = cy + _VY[k]
                s1 = DX * vy - DY * vx
                vx2 = cx + _VX[k2]
                vy2 = cy + _VY[k2]
                s2 = DX * vy2 - DY * vx2
                if s1 == 0:
                    n = vx * DX + vy * DY
                    m = 1
                    mask = (1 << k) | (1 << ((k + 1) % 6))  # hexsides k and k+1 share vertex k
                elif (s1 > 0 and s2 < 0) or (s1 < 0 and s2 > 0):
                    m = s1 - s2
                    n = (vx * DX + vy * DY) * m + s1 * ((vx2 - vx) * DX + (vy2 - vy) * DY)
                    if m < 0:
                        n = -n
                        m = -m
                    mask = 1 << k2  # the edge from vertex k to k+1 is hexside k+1
                else:
                    continue
                if first:
                    best_in_n, best_in_m, best_out_n, best_out_m = n, m, n, m
                    in_mask = mask
                    first = False
                else:
                    if _less(n, m, best_in_n, best_in_m):
                        best_in_n, best_in_m = n, m
                        in_mask = mask
                    elif n * best_in_m == best_in_n * m:
                        in_mask |= mask
                    if _less(best_out_n, best_out_m, n, m):
                        best_out_n, best_out_m = n, m
            # keep only contacts that meet the segment: t_out >= 0 and t_in <= 1
            if best_out_n < 0 or best_in_n > DD * best_in_m:
                continue
            # insertion by (t_in, t_out, side); candidates arrive nearly sorted
            cross_c = DX * cy - DY * cx
            pos_i = count
            while pos_i > 0:
                p = pos_i - 1
                a_n = t_in_n[p]
                a_m = t_in_m[p]
                if _less(best_in_n, best_in_m, a_n, a_m):
                    pos_i -= 1
                    continue
                if best_in_n * a_m == a_n * best_in_m:
                    if _less(best_out_n, best_out_m, t_out_n[p], t_out_m[p]):
                        pos_i -= 1
                        continue
                    if best_out_n * t_out_m[p] == t_out_n[p] * best_out_m and cross_c < side[p]:
                        pos_i -= 1
                        continue
                break
            for q in range(count, pos_i, -1):
                t_in_n[q] = t_in_n[q - 1]
                t_in_m[q] = t_in_m[q - 1]
                t_out_n[q] = t_out_n[q - 1]
                t_out_m[q] = t_out_m[q - 1]
                side[q] = side[q - 1]
                out_x[start + q] = out_x[start + q - 1]
                out_y[start + q] = out_y[start + q - 1]
                out_kind[start + q] = out_kind[start + q - 1]
                out_cross[start + q] = out_cross[start + q - 1]
            t_in_n[pos_i] = best_in_n
            t_in_m[pos_i] = best_in_m
            t_out_n[pos_i] = best_out_n
            t_out_m[pos_i] = best_out_m
            side[pos_i] = cross_c
            out_x[start + pos_i] = c
            out_y[start + pos_i] = cy
            out_kind[start + pos_i] = kind
            out_cross[start + pos_i] = in_mask  # temporarily: entry hexside mask
            count += 1
        if c == c_last:
            break
        c += step_c
    # entry mask of the target (last entry), then crossings and ranges
    out_entry[0] = out_cross[start + count - 1]
    _ranges_and_crossings(start, count, DX, DY, out_x, out_y, out_kind, out_cross, out_da, out_db,
                          t_in_n, t_in_m, t_out_n, t_out_m)
    return count



@jit
def _ranges_and_crossings(start, count, DX, DY, out_x, out_y, out_kind, out_cross, out_da, out_db,
                          t_in_n, t_in_m, t_out_n, t_out_m):
    """Second stage of :func:`_build_one`: each entry's ranges from both ends, and ``cross``: the
    direction from X to Y for the first side of a run X|Y, and for an interior hex entered straight
    from the previous interior hex, the hexside crossed (overwriting the entry masks of stage one)."""
    previous = -1
    for e in range(count):
        i = start + e
        out_da[e + start] = _hex_range(3 * out_x[i], out_y[i])
        out_db[e + start] = _hex_range(3 * out_x[i] - DX, out_y[i] - DY)
        cross = -1
        if out_kind[i] == HEXSIDE and e + 1 < count and out_kind[i + 1] == HEXSIDE and (e == 0 or out_kind[i - 1] != HEXSIDE or out_cross[i - 1] < 0):
            # first side X of a run X|Y: store the direction from X to Y
            sx = 3 * (out_x[i + 1] - out_x[i])
            sy = out_y[i + 1] - out_y[i]
            for d in range(6):
                if _STEP_X[d] == sx and _STEP_Y[d] == sy:
                    cross = d
        if out_kind[i] == INTERIOR:
            if previous >= 0 and t_out_n[previous] * t_in_m[e] == t_in_n[e] * t_out_m[previous]:
                px = 3 * out_x[start + previous]
                py = out_y[start + previous]
                sx = 3 * out_x[i] - px
                sy = out_y[i] - py
                for d in range(6):
                    if _STEP_X[d] == sx and _STEP_Y[d] == sy:
                        cross = d
            previous = e
        out_cross[i] = cross


@jit_parallel  # numba's own parallel loop: as a serial kernel run in parts it built the templates 2-13 % slower
def _build_all(max_dc, max_dy, first, offsets, out_x, out_y, out_kind, out_cross, out_da, out_db, entry, lengths):
    """Build the templates of displacements ``first .. first + len(offsets) - 2``; displacement
    ``first + k`` owns ``offsets[k]:offsets[k + 1]`` of the ``out_`` arrays."""
    width = 2 * max_dy + 1
    for k in numba.prange(offsets.shape[0] - 1):
        t = first + k
        dc = t // width - max_dc
        dy = t % width - max_dy
        if (dc - dy) % 2 != 0:
            lengths[t] = 0
            continue
        size = offsets[k + 1] - offsets[k]
        t_in_n = np.empty(size, np.int64)
        t_in_m = np.empty(size, np.int64)
        t_out_n = np.empty(size, np.int64)
        t_out_m = np.empty(size, np.int64)
        side = np.empty(size, np.int64)
        entry_mask = np.zeros(1, np.int64)
        lengths[t] = _build_one(dc, dy, out_x, out_y, out_kind, out_cross, out_da, out_db, entry_mask,
                                offsets[k], t_in_n, t_in_m, t_out_n, t_out_m, side)
        entry[t] = entry_mask[0]


@jit
def _bounds(max_dc, max_dy):
    width = 2 * max_dy + 1
    total = (2 * max_dc + 1) * width
    offsets = np.zeros(total + 1, np.int64)
    for t in range(total):
        dc = t // width - max_dc
        dy = t % width - max_dy
        size = 0
        if (dc - dy) % 2 == 0:
            size = _candidate_bound(dc, dy)
        offsets[t + 1] = offsets[t] + size
    return offsets


def _build_tables(max_dc, max_dy) -> dict:
    """The templates of every displacement up to ``(max_dc, max_dy)`` (the arrays :data:`TABLE_NAMES`)."""
    bounds = _bounds(max_dc, max_dy)
    total = len(bounds) - 1
    entry = np.zeros(total, np.uint8)
    lengths = np.zeros(total, np.int64)
    # Built a chunk of displacements at a time into buffers of at most BUILD_CHUNK_ENTRIES (the bound
    # per template is several times its length), keeping each template's filled prefix, so the
    # build's peak memory stays near the templates' own size (a 20,000-hex map: 1.6 -> 0.7 GB).
    parts = []
    first = 0
    while first < total:
        last = int(np.searchsorted(bounds, bounds[first] + BUILD_CHUNK_ENTRIES, side="right")) - 1
        last = min(max(last, first + 1), total)
        offsets = bounds[first:last + 1] - bounds[first]
        capacity = int(offsets[-1])
        out_x = np.empty(capacity, np.int16)
        out_y = np.empty(capacity, np.int16)
        out_kind = np.empty(capacity, np.int8)
        out_cross = np.empty(capacity, np.int8)
        out_da = np.empty(capacity, np.int16)
        out_db = np.empty(capacity, np.int16)
        _build_all(max_dc, max_dy, first, offsets, out_x, out_y, out_kind, out_cross, out_da,
                   out_db, entry, lengths)
        filled = lengths[first:last]
        starts = np.zeros(len(filled), np.int64)
        np.cumsum(filled[:-1], out=starts[1:])
        keep = np.repeat(offsets[:-1] - starts, filled) + np.arange(int(filled.sum()))
        parts.append((out_x[keep], out_y[keep], out_kind[keep], out_cross[keep],
                      np.stack([out_da[keep], out_db[keep]], axis=1)))
        del out_x, out_y, out_kind, out_cross, out_da, out_db, keep
        first = last
    start = np.zeros(total + 1, np.int64)
    np.cumsum(lengths, out=start[1:])
    columns = [np.concatenate([part[k] for part in parts]) for k in range(4)]
    # both ranges of an entry side by side (the kernels read them together)
    ranges = np.ascontiguousarray(np.concatenate([part[4] for part in parts]))
    del parts
    return dict(zip(TABLE_NAMES, [start, *columns, ranges, entry]))


class TraceTemplates:
    """Trace templates for every displacement on one board, plus the lookup grid.

    Attributes
    ----------
    max_dc, max_dy : int
        Largest column and ``y`` displacement between two hexes of the map.
    start : int64 array
        Template of displacement index ``t`` is ``start[t]:start[t + 1]``, with
        ``t = (dc + max_dc) * (2 * max_dy + 1) + (dy + max_dy)``.
    dcol, dy : int16 arrays
        Relative column and ``y`` of each template hex.
    kind : int8 array
        :data:`INTERIOR`, :data:`HEXSIDE` or :data:`VERTEX`.
    cross : int8 array
        For an interior hex: direction of the hexside crossed into it from the
        previous interior hex, or -1.  For the first side ``X`` of a hexside
        run ``X|Y``: the direction from ``X`` to ``Y`` (the run's hexside).
    ranges : int16 array, shape (entries, 2)
        Range of the template hex from the two ends (``range_a``, ``range_b``
        are its two columns).
    entry_sides : uint8 array (per displacement)
        Hexsides of the target hex that contain the point where the LOS
        enters it (one, or two at a vertex).
    grid : int32 array
        ``grid[col + GRID_PAD, y + GRID_PAD]`` is the hex at lattice column
        ``col`` and centre ``y``, ``NO_HEX`` elsewhere (padded).
    """

    def __init__(self, board):
        col = board.col.astype(np.int64)
        y = board.y.astype(np.int64)
        self.max_dc = int(col.max() - col.min())
        self.max_dy = int(y.max() - y.min())
        self.width = 2 * self.max_dy + 1
        tables = stored_tables(self.max_dc, self.max_dy, _build_tables)   # from the disk cache when there
        self.start, self.dcol, self.dy, self.kind, self.cross, self.ranges, self.entry_sides = (
            tables[name] for name in TABLE_NAMES)
        self.grid = np.full(
            (int(col.max()) + 1 + 2 * GRID_PAD, int(y.max()) + 1 + 2 * GRID_PAD), NO_HEX, dtype=HEX_INDEX
        )
        self.grid[col + GRID_PAD, y + GRID_PAD] = np.arange(len(board), dtype=HEX_INDEX)
        #: ``grid`` flattened, and each template entry's offset into it, so a
        #: lookup is ``grid_flat[base(a) + offset[e]]`` (one add, one load).
        self.grid_flat = self.grid.ravel()
        self.offset = (self.dcol.astype(np.int32) * self.grid.shape[1] + self.dy.astype(np.int32)).astype(np.int32)
        self.base = ((col + GRID_PAD) * self.grid.shape[1] + (y + GRID_PAD)).astype(np.int64)
        #: One int32 per entry for the LOS kernels' hot loop (one load instead
        #: of three): ``offset << 5 | kind << 3 | (cross + 1)``.
        #: (int32 arithmetic: the same bits as in int64 and a cast, without its 8-byte temporaries)
        self.packed = (self.offset << 5) | (self.kind.astype(np.int32) << 3) | (self.cross.astype(np.int32) + 1)

    @property
    def range_a(self) -> np.ndarray:
        """Range of each template hex from the first end."""
        return self.ranges[:, 0]

    @property
    def range_b(self) -> np.ndarray:
        """Range of each template hex from the second end."""
        return self.ranges[:, 1]

    def index(self, dc: int, dy: int) -> int:
        """Displacement index of ``(dc, dy)``."""
        return (dc + self.max_dc) * self.width + (dy + self.max_dy)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.start, self.dcol, self.dy, self.kind, self.cross, self.ranges,
                                      self.entry_sides, self.grid, self.offset, self.base,
                                      self.packed))


#: Each board's trace templates.
TRACE_CACHE = BoardCache("trace templates")


def templates(board) -> TraceTemplates:
    """The board's trace templates, built on first use and kept on the board."""
    cached = TRACE_CACHE.entries(board).get("_trace_templates")
    if cached is None:
        cached = TraceTemplates(board)
        TRACE_CACHE.entries(board)["_trace_templates"] = cached
    return cached


@jit
def _trace_hexes(grid, start, dcol, dy, kind, t, col_a, y_a, out_hex, out_kind):
    n = 0
    for e in range(start[t], start[t + 1]):
        h = grid[col_a + dcol[e] + GRID_PAD, y_a + dy[e] + GRID_PAD]
        if h >= 0:
            out_hex[n] = h
            out_kind[n] = kind[e]
            n += 1
    return n


def trace(board, a, b) -> list[tuple[int, str]]:
    """Every hex the centre-to-centre segment from ``a`` to ``b`` meets, in order.

    Parameters
    ----------
    board : Board
    a, b : str or int
        Hex names (``"2I9"``) or global indices.

    Returns
    -------
    list of (int, str)
        ``(hex index, kind)`` with kind ``"interior"``, ``"hexside"`` (running
        exactly along one of its hexsides) or ``"vertex"`` (touching one
        corner), from ``a`` to ``b``; hexes off the map are left out.
        ``trace(board, b, a)`` is the exact reverse.

    Examples
    --------
    >>> from kernel.maps.random_maps import random_board
    >>> board = random_board("asl", 10, 6, seed=1)
    >>> [kind for _, kind in trace(board, "A1", "E1")]
    ['interior', 'hexside', 'interior', 'hexside', 'interior']
    """
    ia, ib = board.index(a), board.index(b)
    tpl = templates(board)
    dc = int(board.col[ib] - board.col[ia])
    dy = int(board.y[ib] - board.y[ia])
    t = tpl.index(dc, dy)
    size = int(tpl.start[t + 1] - tpl.start[t])
    hexes = np.empty(size, HEX_INDEX)
    kinds = np.empty(size, np.int8)
    n = _trace_hexes(tpl.grid, tpl.start, tpl.dcol, tpl.dy, tpl.kind, t, int(board.col[ia]), int(board.y[ia]), hexes, kinds)
    return [(int(hexes[i]), KIND_NAMES[kinds[i]]) for i in range(n)]
