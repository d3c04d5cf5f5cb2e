"""Lattice invariants of kernel.grid.lattice (rules digest section 1; module docstring).

Every property is checked over a block of hexes of both column parities, and a
few with hypothesis over arbitrary lattice positions (negative ones included).
"""

from __future__ import annotations

from collections import Counter, deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.grid.lattice import (
    AXIAL_STEP,
    CENTRE_STEP,
    DIRECTION_NAMES,
    VERTEX_OFFSETS,
    axial_from_offset,
    centre,
    cube_from_axial,
    direction_between,
    hex_distance,
    hexside_key,
    neighbour,
    offset_from_axial,
    offset_from_centre,
    opposite,
    rotate_axial,
    vertex_key,
)

FUZZ = settings(max_examples=200, deadline=None)
coords = st.integers(min_value=-60, max_value=60)

# A block of hexes with both column parities and negative positions.
GRID = [(col, row) for col in range(-4, 9) for row in range(-3, 8)]
GRID_SET = set(GRID)


def test_direction_tables_are_consistent():
    assert DIRECTION_NAMES == ("N", "NE", "SE", "S", "SW", "NW")
    # Steps across opposite hexsides cancel out.
    for d in range(6):
        assert (CENTRE_STEP[d] + CENTRE_STEP[opposite(d)] == 0).all()
        assert (AXIAL_STEP[d] + AXIAL_STEP[opposite(d)] == 0).all()
    # A centre step is twice the midpoint of hexside d, which lies between
    # vertices d-1 and d.
    for d in range(6):
        assert (VERTEX_OFFSETS[(d - 1) % 6] + VERTEX_OFFSETS[d] == CENTRE_STEP[d]).all()


@pytest.mark.parametrize("direction, expected", [(0, 3), (1, 4), (2, 5), (3, 0), (4, 1), (5, 2)],
                         ids=DIRECTION_NAMES)
def test_opposite(direction, expected):
    assert opposite(direction) == expected


@pytest.mark.parametrize(
    "col, row, expected",
    [
        (1, 1, [(1, 0), (2, 0), (2, 1), (1, 2), (0, 1), (0, 0)]),   # odd column (sits higher)
        (2, 1, [(2, 0), (3, 1), (3, 2), (2, 2), (1, 2), (1, 1)]),   # even column
        (0, 0, [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]),
    ],
    ids=["odd-column", "even-column", "origin"],
)
def test_neighbour_examples(col, row, expected):
    assert [neighbour(col, row, d) for d in range(6)] == expected


def test_neighbour_symmetry_over_grid():
    """The neighbour across d has us across d + 3."""
    for col, row in GRID:
        for d in range(6):
            other = neighbour(col, row, d)
            assert other != (col, row)
            assert neighbour(*other, opposite(d)) == (col, row), (col, row, d)


def test_six_neighbours_are_distinct_and_at_distance_one():
    for col, row in GRID:
        around = [neighbour(col, row, d) for d in range(6)]
        assert len(set(around)) == 6
        for other in around:
            assert hex_distance(col, row, *other) == 1


def test_neighbour_matches_centre_step():
    for col, row in GRID:
        x, y = centre(col, row)
        for d in range(6):
            assert centre(*neighbour(col, row, d)) == (x + int(CENTRE_STEP[d, 0]), y + int(CENTRE_STEP[d, 1]))


def test_neighbour_matches_axial_step():
    for col, row in GRID:
        q, r = axial_from_offset(col, row)
        for d in range(6):
            assert axial_from_offset(*neighbour(col, row, d)) == (q + int(AXIAL_STEP[d, 0]), r + int(AXIAL_STEP[d, 1]))


@pytest.mark.parametrize("direction", [-1, 6, 12], ids=["minus-one", "six", "twelve"])
def test_neighbour_rejects_bad_direction(direction):
    with pytest.raises(ValueError, match=rf"hexside direction {direction} out of range: expected 0\.\.5"):
        neighbour(0, 0, direction)


def test_hex_distance_zero_and_symmetric_over_grid():
    sample = GRID[::3]
    for a in sample:
        assert hex_distance(*a, *a) == 0
        for b in sample:
            dab = hex_distance(*a, *b)
            assert dab == hex_distance(*b, *a)
            assert (dab == 0) == (a == b)


def test_hex_distance_triangle_inequality_over_grid():
    sample = GRID[::5]
    for a in sample:
        for b in sample:
            dab = hex_distance(*a, *b)
            for c in sample:
                assert hex_distance(*a, *c) <= dab + hex_distance(*b, *c)


@given(coords, coords, coords, coords, coords, coords)
@FUZZ
def test_hex_distance_triangle_inequality_fuzz(ca, ra, cb, rb, cc, rc):
    dab = hex_distance(ca, ra, cb, rb)
    assert dab == hex_distance(cb, rb, ca, ra)
    assert hex_distance(ca, ra, cc, rc) <= dab + hex_distance(cb, rb, cc, rc)


@pytest.mark.parametrize("source", [(0, 0), (3, 2), (-2, -5), (7, -1)],
                         ids=["origin", "odd-column", "negative", "odd-negative-row"])
def test_hex_distance_equals_bfs_distance(source):
    """Breadth-first search over the unbounded lattice (radius 9) gives the same ranges."""
    radius = 9
    seen = {source: 0}
    queue = deque([source])
    while queue:
        here = queue.popleft()
        if seen[here] == radius:
            continue
        for d in range(6):
            there = neighbour(*here, d)
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    assert len(seen) == 1 + 3 * radius * (radius + 1)   # hexes within range 9
    for target, steps in seen.items():
        assert hex_distance(*source, *target) == steps, target


def test_hex_distance_straight_lines():
    # Down a column: one hex per row; across columns: one per column (zig-zag).
    for n in range(12):
        assert hex_distance(0, 0, 0, n) == n
        assert hex_distance(0, 0, n, 0) == n
        assert hex_distance(1, 0, 1 + n, 0) == n


def test_hex_distance_works_on_arrays():
    cols = np.array([0, 1, 4, -3])
    rows = np.array([0, 5, 2, 2])
    expected = [hex_distance(0, 0, int(c), int(r)) for c, r in zip(cols, rows)]
    assert hex_distance(0, 0, cols, rows).tolist() == expected


def test_offset_centre_round_trip_over_grid():
    for col, row in GRID:
        x, y = centre(col, row)
        assert x == 3 * col
        # Odd columns sit half a hex higher: their centres have even y.
        assert (y % 2 == 0) == (col % 2 == 1)
        assert offset_from_centre(x, y) == (col, row)


def test_axial_offset_cube_round_trip_over_grid():
    axials = set()
    for col, row in GRID:
        q, r = axial_from_offset(col, row)
        assert q == col
        assert offset_from_axial(q, r) == (col, row)
        cq, cr, cs = cube_from_axial(q, r)
        assert (cq, cr) == (q, r) and cq + cr + cs == 0
        axials.add((q, r))
    assert len(axials) == len(GRID)   # the map offset -> axial is one to one


@given(coords, coords)
@FUZZ
def test_round_trips_fuzz(col, row):
    assert offset_from_axial(*axial_from_offset(col, row)) == (col, row)
    assert offset_from_centre(*centre(col, row)) == (col, row)
    assert axial_from_offset(*offset_from_axial(col, row)) == (col, row)   # axial -> offset -> axial


def test_centre_and_axial_work_on_arrays():
    cols = np.array([0, 1, 2, 3])
    rows = np.array([0, 0, 3, 7])
    x, y = centre(cols, rows)
    assert x.tolist() == [0, 3, 6, 9]
    assert y.tolist() == [1, 0, 7, 14]
    q, r = axial_from_offset(cols, rows)
    back = offset_from_axial(q, r)
    assert back[0].tolist() == cols.tolist() and back[1].tolist() == rows.tolist()


@given(coords, coords)
@FUZZ
def test_rotate_axial_six_times_is_identity(q, r):
    assert rotate_axial(q, r, 6) == (q, r)
    assert rotate_axial(q, r, 0) == (q, r)
    once = (q, r)
    for _ in range(6):
        once = rotate_axial(*once, 1)
    assert once == (q, r)
    # Rotation keeps the distance from the origin and composes additively.
    assert hex_distance(*offset_from_axial(0, 0), *offset_from_axial(*rotate_axial(q, r, 1))) == \
        hex_distance(*offset_from_axial(0, 0), *offset_from_axial(q, r))
    assert rotate_axial(*rotate_axial(q, r, 2), 3) == rotate_axial(q, r, 5)
    assert rotate_axial(q, r, -1) == rotate_axial(q, r, 5)


@pytest.mark.parametrize("direction", range(6), ids=DIRECTION_NAMES)
def test_rotate_axial_maps_direction_d_to_d_plus_one(direction):
    step = (int(AXIAL_STEP[direction, 0]), int(AXIAL_STEP[direction, 1]))
    for steps in range(7):
        turned = rotate_axial(*step, steps)
        expected = AXIAL_STEP[(direction + steps) % 6]
        assert turned == (int(expected[0]), int(expected[1]))


def test_rotate_axial_rotates_neighbourhoods_clockwise():
    """Rotating a neighbour of a hex about that hex moves it to the next hexside."""
    for col, row in GRID[::4]:
        q0, r0 = axial_from_offset(col, row)
        for d in range(6):
            q, r = axial_from_offset(*neighbour(col, row, d))
            dq, dr = rotate_axial(q - q0, r - r0, 1)
            assert offset_from_axial(q0 + dq, r0 + dr) == neighbour(col, row, (d + 1) % 6)


def test_hexside_key_identical_from_both_hexes():
    for col, row in GRID:
        x, y = centre(col, row)
        for d in range(6):
            ox, oy = centre(*neighbour(col, row, d))
            key = hexside_key(x, y, d)
            assert key == hexside_key(ox, oy, opposite(d))
            assert key == (x + ox, y + oy)   # the midpoint, doubled


def test_hexside_keys_distinct_for_the_six_hexsides():
    for col, row in GRID:
        keys = [hexside_key(*centre(col, row), d) for d in range(6)]
        assert len(set(keys)) == 6


def test_each_hexside_key_held_by_exactly_two_hexes():
    counts = Counter(hexside_key(*centre(col, row), d) for col, row in GRID for d in range(6))
    # Interior hexsides of the block are counted twice, the block's rim once.
    assert set(counts.values()) == {1, 2}
    for col, row in GRID:
        if all(neighbour(col, row, d) in GRID_SET for d in range(6)):
            for d in range(6):
                assert counts[hexside_key(*centre(col, row), d)] == 2


def test_vertices_are_centre_plus_offsets_and_integer():
    assert sorted(map(tuple, VERTEX_OFFSETS.tolist())) == sorted(
        [(2, 0), (-2, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    )
    for col, row in GRID:
        x, y = centre(col, row)
        for k in range(6):
            vx, vy = vertex_key(x, y, k)
            assert isinstance(vx, int) and isinstance(vy, int)
            assert (vx - x, vy - y) == tuple(int(v) for v in VERTEX_OFFSETS[k])


def test_vertex_shared_by_exactly_three_hexes():
    """Vertex k of a hex is shared with the neighbours across hexsides k and k + 1."""
    owners: dict[tuple[int, int], set] = {}
    for col, row in GRID:
        for k in range(6):
            owners.setdefault(vertex_key(*centre(col, row), k), set()).add((col, row))
    assert max(len(v) for v in owners.values()) == 3
    for col, row in GRID:
        for k in range(6):
            expected = {(col, row), neighbour(col, row, k), neighbour(col, row, (k + 1) % 6)}
            if expected <= GRID_SET:
                assert owners[vertex_key(*centre(col, row), k)] == expected


def test_hexside_joins_vertices_d_minus_one_and_d():
    for col, row in GRID[::3]:
        x, y = centre(col, row)
        for d in range(6):
            a = vertex_key(x, y, (d - 1) % 6)
            b = vertex_key(x, y, d)
            assert hexside_key(x, y, d) == (a[0] + b[0], a[1] + b[1])


def test_direction_between_inverts_neighbour():
    for col, row in GRID:
        for d in range(6):
            assert direction_between(col, row, *neighbour(col, row, d)) == d


@pytest.mark.parametrize(
    "a, b",
    [((1, 1), (1, 1)), ((1, 1), (1, 3)), ((0, 0), (2, 0)), ((0, 0), (3, 0)), ((2, 5), (-4, -1))],
    ids=["same-hex", "two-down", "two-across", "three-across", "far"],
)
def test_direction_between_rejects_non_adjacent(a, b):
    with pytest.raises(ValueError, match=rf"hexes at \({a[0]}, {a[1]}\) and \({b[0]}, {b[1]}\) are not adjacent"):
        direction_between(*a, *b)
