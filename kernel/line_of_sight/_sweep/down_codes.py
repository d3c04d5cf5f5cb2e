"""The per-source codes of a source above its targets (private; see :mod:`kernel.line_of_sight._sweep.rows`).

For one source at ``S2`` half levels, the effect of a hex on a LOS down to
any lower target, when that LOS is not a continuous slope, depends on the
hex alone except for its blind-hex test (ASL; ``docs/los-semantics.md``
section 2).  :func:`down_codes` writes it per grid cell once per source.

Memory: 24 bytes per cell of the trace templates' padded grid, per source
being walked.
"""

from __future__ import annotations

from kernel._jit import jit
from kernel.line_of_sight._hex.rules import (
    H_GROUND2, H_HINDRANCE, H_HINDRANCE_INHERENT, H_HINDRANCE_TOP, H_OBSTACLE, H_OBSTACLE_ABOVE, H_OBSTACLE_INHERENT,
    H_SMOKE, H_SMOKE_BASE, H_SMOKE_TOP,
)

# Fields of a cell's int32 code (bit 31: the hex blocks, with DRM bits 1 unless the line is a continuous
# slope, with every DRM bit set: ask the per-pair evaluator).
DRM_MASK = (1 << 13) - 1
SIDES_SHIFT = 13  # 6 bits: the hex's hexsides with a LOS feature
SLOPE_BIT = 1 << 19  # ground exactly one level lower per hex of range from the source (off the map: set)
ON_MAP_BIT = 1 << 20
TOP_SHIFT = 21  # 10 bits: the hex's highest ground or obstacle top, + TOP_OFFSET
TOP_OFFSET = 512
HARD_BIT = -(1 << 31)
UNDECIDED = HARD_BIT | DRM_MASK
SOFT_BLOCK = HARD_BIT | 1  # blocks unless the line is a continuous slope
VERTEX_COMPLEX = 1 << 20  # in vcodes: an inherent obstacle or a hexside feature at the vertex
RUN_COMPLEX = 1 << 21  # in vcodes: an obstacle, hindrance, SMOKE or hexside feature (off the map: plain)


@jit
def hex_range(dc, dy):
    """Range between two hexes ``dc`` columns and ``dy`` exact-y steps apart (as the tracer's ranges)."""
    i = abs(dc)
    j = abs(dy)
    half = (i + j) // 2
    return i if i > half else half


@jit
def down_codes(a, S2, base, col, yv, hex_info, fast_grid, codes, vcodes, blind):
    """Write, for every hex, its cell of ``codes``, ``vcodes`` and ``blind``: its effect on a LOS from
    hex ``a`` at ``S2`` half levels down to a lower end, when the LOS is not a continuous slope.

    ``blind[cell]``: ground, its blind-hex bound term ``2G + 2 (range // 5) - S2``, obstacle top (or
    -30000) and its term ``2O + 2 (range // 5) - S2 + 2`` (``asl_hex_effect`` less the target's
    level)."""
    for h in range(base.shape[0]):
        cell = base[h]
        G = hex_info[h, H_GROUND2]
        sides = fast_grid[cell] & 63
        oh = hex_info[h, H_OBSTACLE]
        above = hex_info[h, H_OBSTACLE_ABOVE] if S2 > G else 0
        if above > oh:
            oh = above
        r_s = hex_range(col[h] - col[a], yv[h] - yv[a])
        code = (sides << SIDES_SHIFT) | ON_MAP_BIT
        if S2 - G == 2 * r_s:
            code |= SLOPE_BIT
        top = G + oh if oh > 0 else G
        drm = 0
        if hex_info[h, H_HINDRANCE] > 0 and hex_info[h, H_HINDRANCE_TOP] >= S2:
            drm += hex_info[h, H_HINDRANCE]
        if hex_info[h, H_SMOKE] > 0 and hex_info[h, H_SMOKE_TOP] >= S2 and \
                (hex_info[h, H_SMOKE_BASE] < S2 or hex_info[h, H_SMOKE_BASE] == G):
            drm += hex_info[h, H_SMOKE]
        if G >= S2 or top >= S2:
            if hex_info[h, H_OBSTACLE] == 0 and code & SLOPE_BIT and G < S2:
                code |= SOFT_BLOCK  # an orchard seen from above is no obstacle on a continuous slope
            else:
                code |= HARD_BIT
        elif drm >= DRM_MASK or top + TOP_OFFSET < 0 or top + TOP_OFFSET >= 1024:
            code |= UNDECIDED
        else:
            code |= drm | ((top + TOP_OFFSET) << TOP_SHIFT)
        codes[cell] = code
        blind[cell, 0] = G
        blind[cell, 1] = 2 * G + 2 * (r_s // 5) - S2
        blind[cell, 2] = G + oh if oh > 0 else -30000
        blind[cell, 3] = 2 * (G + oh) + 2 * (r_s // 5) - S2 + 2
        # a vertex touch: inherent obstacles and hindrances only, and wall lines through it
        vo = hex_info[h, H_OBSTACLE] if hex_info[h, H_OBSTACLE_INHERENT] else 0
        if above > vo:
            vo = above
        vdrm = 0
        if hex_info[h, H_HINDRANCE] > 0 and hex_info[h, H_HINDRANCE_INHERENT] and hex_info[h, H_HINDRANCE_TOP] >= S2:
            vdrm += hex_info[h, H_HINDRANCE]
        if hex_info[h, H_SMOKE] > 0 and hex_info[h, H_SMOKE_TOP] >= S2 and \
                (hex_info[h, H_SMOKE_BASE] < S2 or hex_info[h, H_SMOKE_BASE] == G):
            vdrm += hex_info[h, H_SMOKE]
        vcodes[cell] = (VERTEX_COMPLEX if (vo > 0 or sides != 0 or vdrm >= DRM_MASK) else 0) | min(vdrm, DRM_MASK)
        if oh > 0 or sides != 0 or hex_info[h, H_HINDRANCE] > 0 or hex_info[h, H_SMOKE] > 0:
            vcodes[cell] |= RUN_COMPLEX  # not a plain hex beside a hexside run
