"""The depiction walk's set-up, once per pair (private, numba; used by :mod:`.walk`): the segment and the pixels
it walks, the ends' heights and depressions, and whether the LOS lies along a continuous slope.

Each is a compiled function of its own, inlined into the walk at numba IR level (:func:`~kernel._jit.jit_inline`:
called once in each compiled walk, it costs no more compiling than the same code written in the walk, and no call
per pair), the first two returning a named tuple (:class:`Span`, :class:`Ends`) that the walk and its steps
(:mod:`.pixel_steps`) read by field name.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernel._jit import jit_inline
from kernel.grid.pixels import UNIT_X, UNIT_Y
from kernel.line_of_sight._depiction.pixel_geometry import INNER_RADIUS, hex_range, vasl_trace, walk_pixel
from kernel.line_of_sight._depiction.steps import COUNTED_SIZE, slope_holds_all, slope_pixel_holds
from kernel.line_of_sight._hex.rules import H_GROUND2


class Span(NamedTuple):
    """The segment between the ends' centre dots and the pixels a walk visits (:func:`walk_span`)."""

    ax: float        # the first end's centre dot, in pixels
    ay: float
    dx: float        # the other end's centre dot less the first's, in pixels
    dy: float
    ddx: int         # the same in lattice units
    ddy: int
    steps: int       # the segment's pixel steps: ceil(max(|dx|, |dy|))
    i_first: int     # the first and last walked pixel (indices into the steps, or VASL's trace)
    i_last: int
    middle: int      # the middle pixel (the continuous slope's first test)
    off: float       # where a pixel is judged: 0.5, its centre (drawn art), 0.0 its corner
    full_range: int  # the range between the ends, in hexes
    width: int       # the art's size in pixels
    height: int


class Ends(NamedTuple):
    """The ends' heights and depressions (:func:`walk_ends`); levels in half levels."""

    higher_is_a: bool  # the first end is the higher (or the ends are level)
    S2: int            # the higher end's height
    T2: int            # the lower end's height
    same: bool         # the ends are at one height
    high: int          # the higher end's hex
    group_a: int       # the first end's depression group where it is IN its depression (A6.3), else -1
    group_b: int       # the other end's
    ground_a2: int     # the first end's ground level (read only for an end in a depression hex, else 0)
    ground_b2: int     # the other end's
    bank_floor2: int   # open ground at or below this is no bank of such a depression


@jit_inline
def walk_span(a, b, t, per_range, counted):
    """The segment from hex ``a``'s centre dot to ``b``'s over the art of tables ``t`` and the pixels walked: those
    outside the ends' hexes (INNER_RADIUS), or with ``per_range`` every pixel of VASL's own trace, written into
    ``counted`` from ``COUNTED_SIZE`` (those of the ends' hexes are skipped by their hex)."""
    width = t.pixels.shape[1]
    height = t.pixels.shape[0]
    ax = t.lat_x[a] * UNIT_X
    ay = t.lat_y[a] * UNIT_Y
    dx = t.lat_x[b] * UNIT_X - ax
    dy = t.lat_y[b] * UNIT_Y - ay
    ddx = t.lat_x[b] - t.lat_x[a]
    ddy = t.lat_y[b] - t.lat_y[a]
    steps = int(np.ceil(max(abs(dx), abs(dy))))
    # pixels nearer an end's centre dot than INNER_RADIUS (rounding included) lie in that end's hex
    inner = int(np.floor(INNER_RADIUS * steps / np.sqrt(dx * dx + dy * dy)))
    i_first = inner if inner > 1 else 1
    i_last = steps - inner if steps - inner < steps - 1 else steps - 1
    if t.hex_own[a]:
        i_first = 1   # walls between two hexes drawn in an end's hex (class_own) lie within INNER_RADIUS
    if t.hex_own[b]:
        i_last = steps - 1
    full_range = hex_range(a, b, t.lat_x, t.lat_y)
    if per_range:
        n_vasl = vasl_trace(ax, ay, dx, dy, width, height, counted, COUNTED_SIZE)
        i_first = 0
        i_last = n_vasl - 1
        middle = n_vasl // 2
        off = 0.0   # VASL's engine finds a pixel's hex at its integer corner
    else:
        middle = steps // 2
        off = 0.5 if t.squares else 0.0   # drawn art: pixel (x, y) covers [x, x + 1) x [y, y + 1) (kernel.maps.art)
    return Span(ax, ay, dx, dy, ddx, ddy, steps, i_first, i_last, middle, off, full_range, width, height)


@jit_inline
def walk_ends(a, la2, b, lb2, full_range, t, per_range):
    """The heights of ends ``a`` at ``la2`` and ``b`` at ``lb2`` half levels, and their depressions: an end at
    level 0 of a depression hex is IN its depression, whose banks around it block (A6.3); with ``per_range``
    (VASL) a lower end is not, seen from as many whole levels higher as the range, or more."""
    higher_is_a = la2 >= lb2
    S2 = la2 if higher_is_a else lb2
    T2 = lb2 if higher_is_a else la2
    high = a if higher_is_a else b
    # (ground levels read only for an end in a depression hex: most pairs have none)
    group_a = -1
    group_b = -1
    ground_a2 = 0
    ground_b2 = 0
    bank_floor2 = 1 << 30
    if t.depression_group[a] >= 0:
        ground_a2 = t.counter_info[a, H_GROUND2]
        if la2 == ground_a2:
            group_a = t.depression_group[a]
            bank_floor2 = ground_a2
    if t.depression_group[b] >= 0:
        ground_b2 = t.counter_info[b, H_GROUND2]
        if lb2 == ground_b2:
            group_b = t.depression_group[b]
            if ground_b2 < bank_floor2:
                bank_floor2 = ground_b2
    if per_range and (group_a >= 0) != (group_b >= 0) and (S2 + 1) // 2 - (T2 + 1) // 2 >= full_range:
        if (group_a >= 0) != higher_is_a:
            group_a = -1
            group_b = -1
    return Ends(higher_is_a, S2, T2, S2 == T2, high, group_a, group_b, ground_a2, ground_b2, bank_floor2)


@jit_inline
def continuous_slope(a, b, span, ends, t, per_range, counted):
    """Whether the LOS between ends of different heights lies along a continuous slope (B.5): every walked
    pixel outside the ends' hexes ``S2 - 2 * r_s`` half levels high; the middle pixel first (a cheap test
    that rules most LOS out)."""
    if per_range:
        x = counted[COUNTED_SIZE + 2 * span.middle]
        y = counted[COUNTED_SIZE + 2 * span.middle + 1]
    else:
        x, y = walk_pixel(span.middle, span.steps, span.ax, span.ay, span.dx, span.dy, span.width, span.height,
                          t.squares)
    holds, _ = slope_pixel_holds(x, y, span.off, a, b, span.ddx, span.ddy, ends.high, ends.S2, t.pixels,
                                 t.cell_index, t.neighbours, t.lat_x, t.lat_y)
    if not holds:
        return False
    # the rest of the walk's pixels (the middle one holds on few pairs)
    return slope_holds_all(span.i_first, span.i_last, per_range != 0, counted, span.steps, span.ax, span.ay, span.dx,
                           span.dy, span.width, span.height, t.squares, span.off, a, b, span.ddx, span.ddy, ends.high,
                           ends.S2, t.pixels, t.cell_index, t.neighbours, t.lat_x, t.lat_y)
