"""Exact flat-topped hex lattice: centres, vertices, hexsides, distances.

All geometry is integer.  Following the rules digest (section 2), a hex in
lattice column ``col`` and lattice row ``row`` has its centre at

    x = 3 * col,    y = 2 * row + 1 - (col mod 2)

in units of s/2 across and s*sqrt(3)/2 down (s = the length of a hexside), so
odd columns sit half a hex higher than even ones (ASL board column B, with its
half hex B0 on the top edge, is column 1).  The six vertices are the centre
plus ``VERTEX_OFFSETS``: (+-2, 0) and (+-1, +-1).  ``y`` grows southwards.

Hexsides are numbered 0 = north, then clockwise 1 NE, 2 SE, 3 S, 4 SW, 5 NW
(ASL B.8).  Hexside ``d`` runs from vertex ``(d - 1) mod 6`` to vertex ``d``.

Identifiers that every hex sharing a feature agrees on:

* a hexside is identified by its midpoint in doubled coordinates,
  ``(x1 + x2, y1 + y2)`` for the two centres it separates
  (:func:`hexside_key`);
* a vertex is identified by its own (integer) coordinates
  (:func:`vertex_key`).

Axial coordinates ``(q, r)`` use ``q = col`` and ``r = (y - q - 1) / 2``; cube
coordinates add ``s = -q - r``.  Pointy-topped maps (CCN, V&V) are stored on
this same lattice, transposed: only their names and pictures are transposed.

Examples
--------
>>> centre(1, 0)
(3, 0)
>>> neighbour(0, 0, 2)
(1, 1)
>>> hex_distance(0, 0, 4, 2)
4
"""

from __future__ import annotations

import numpy as np

from kernel._dtypes import COORD

#: Names of the six hexside directions, indexed by hexside number.
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")

#: Centre-to-centre step ``(dx, dy)`` across hexside ``d`` (exact lattice units).
CENTRE_STEP = np.array(
    [[0, -2], [3, -1], [3, 1], [0, 2], [-3, 1], [-3, -1]], dtype=COORD
)

#: Axial step ``(dq, dr)`` across hexside ``d``.
AXIAL_STEP = np.array(
    [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]], dtype=COORD
)

#: Vertex ``k`` of a hex is its centre plus ``VERTEX_OFFSETS[k]``; hexside ``d``
#: joins vertices ``(d - 1) % 6`` and ``d``.
VERTEX_OFFSETS = np.array(
    [[1, -1], [2, 0], [1, 1], [-1, 1], [-2, 0], [-1, -1]], dtype=COORD
)


def opposite(direction: int) -> int:
    """Hexside number of the same hexside as seen from the neighbour.

    >>> opposite(0), opposite(4)
    (3, 1)
    """
    return (int(direction) + 3) % 6


def centre(col, row):
    """Exact centre ``(x, y)`` of the hex at lattice ``(col, row)``.

    Works on scalars and numpy arrays alike.

    >>> centre(0, 0), centre(1, 0), centre(2, 3)
    ((0, 1), (3, 0), (6, 7))
    """
    return 3 * col, 2 * row + 1 - (col % 2)


def offset_from_centre(x, y):
    """Lattice ``(col, row)`` of the hex whose centre is ``(x, y)``.

    >>> offset_from_centre(3, 0)
    (1, 0)
    """
    col = x // 3
    return col, (y - 1 + col % 2) // 2


def axial_from_offset(col, row):
    """Axial ``(q, r)`` of lattice ``(col, row)``.

    >>> axial_from_offset(1, 0)
    (1, -1)
    """
    _, y = centre(col, row)
    return col, (y - col - 1) // 2


def offset_from_axial(q, r):
    """Lattice ``(col, row)`` of axial ``(q, r)``; inverse of :func:`axial_from_offset`.

    >>> offset_from_axial(*axial_from_offset(5, 7))
    (5, 7)
    """
    y = 2 * r + q + 1
    return q, (y - 1 + q % 2) // 2


def cube_from_axial(q, r):
    """Cube ``(q, r, s)`` with ``q + r + s == 0``.

    >>> cube_from_axial(2, -1)
    (2, -1, -1)
    """
    return q, r, -q - r


def hex_distance(col_a, row_a, col_b, row_b):
    """Range in hexes between two lattice hexes (works on arrays too).

    See Also
    --------
    kernel.Board : ``board.distance(a, b)`` takes hex names; its ``col`` and ``row`` are lattice hexes.
    kernel.los_pairs : its ``range`` is this distance between Locations.

    Examples
    --------
    >>> hex_distance(0, 0, 0, 3), hex_distance(0, 0, 3, 0)
    (3, 3)
    """
    qa, ra = axial_from_offset(col_a, row_a)
    qb, rb = axial_from_offset(col_b, row_b)
    dq = qa - qb
    dr = ra - rb
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbour(col: int, row: int, direction: int) -> tuple[int, int]:
    """Lattice ``(col, row)`` across hexside ``direction`` (0 = N, clockwise).

    >>> [neighbour(1, 1, d) for d in range(6)]
    [(1, 0), (2, 0), (2, 1), (1, 2), (0, 1), (0, 0)]
    """
    if not 0 <= int(direction) <= 5:
        raise ValueError(f"hexside direction {direction!r} out of range: expected 0..5")
    x, y = centre(col, row)
    dx, dy = CENTRE_STEP[direction]
    return offset_from_centre(x + int(dx), y + int(dy))


def rotate_axial(q: int, r: int, steps: int) -> tuple[int, int]:
    """Rotate axial ``(q, r)`` about the origin by ``steps`` x 60 degrees clockwise.

    >>> rotate_axial(0, -1, 1)   # north turns into north-east
    (1, -1)
    >>> rotate_axial(3, -1, 6)
    (3, -1)
    """
    x, y, z = cube_from_axial(q, r)
    for _ in range(int(steps) % 6):
        x, y, z = -y, -z, -x
    return x, y


def hexside_key(x: int, y: int, direction: int) -> tuple[int, int]:
    """Identifier of hexside ``direction`` of the hex centred at ``(x, y)``.

    Both hexes that share the hexside get the same key (its midpoint in
    doubled coordinates).

    >>> hexside_key(0, 1, 2) == hexside_key(3, 2, 5)
    True
    """
    dx, dy = CENTRE_STEP[direction]
    return 2 * x + int(dx), 2 * y + int(dy)


def vertex_key(x: int, y: int, vertex: int) -> tuple[int, int]:
    """Identifier (exact coordinates) of vertex ``vertex`` of the hex at ``(x, y)``.

    >>> vertex_key(0, 1, 1) == vertex_key(3, 0, 3) == vertex_key(3, 2, 5)
    True
    """
    vx, vy = VERTEX_OFFSETS[vertex]
    return x + int(vx), y + int(vy)


def direction_between(col_a: int, row_a: int, col_b: int, row_b: int) -> int:
    """Hexside of hex a that touches adjacent hex b; ValueError if not adjacent.

    >>> direction_between(1, 1, 2, 1)
    2
    """
    xa, ya = centre(col_a, row_a)
    xb, yb = centre(col_b, row_b)
    step = (xb - xa, yb - ya)
    for direction in range(6):
        if (int(CENTRE_STEP[direction, 0]), int(CENTRE_STEP[direction, 1])) == step:
            return direction
    raise ValueError(
        f"hexes at ({col_a}, {row_a}) and ({col_b}, {row_b}) are not adjacent"
    )
