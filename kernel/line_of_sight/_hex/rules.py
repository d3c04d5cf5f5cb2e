"""The LOS rule steps, as small functions of the pair evaluator (private).

The rules are those of ``docs/los-semantics.md``; section numbers refer to
it.  The steps every crossed hex meets (``asl_hex_effect``,
``asl_hex_hindrance``, ``simple_hex_effect``, ``end_smoke``,
``ranges_from_higher``, ``record_step``) are compiled with
``inline="always"`` (``jit_inline``), so
:func:`kernel.line_of_sight._hex.pairs.evaluate_pairs` runs them as if written
out in its loop (no call, no argument passing per step).  The steps met once
per pair or only at a hexside run, a vertex or a depression are plain
kernels (``jit``): numba's inlining at IR level re-types a callee at every
call site of every specialisation of its callers, which made them most of
the evaluator's compile time, and LLVM still inlines them where it pays
(the bulk kernels stayed within 4 %, ``python -m bench.compile_costs``).
The steps, in the order a hex meets them:

* obstacles and blind hexes (:func:`asl_hex_effect`, :func:`simple_hex_effect`);
* hindrances of terrain and of counters, SMOKE and vehicles
  (:func:`asl_hex_hindrance`);
* elevation: continuous slopes and V&V slope hexes
  (:func:`asl_continuous_slope`, :func:`vv_slope_hexes`);
* hexside features: walls and hedges (:func:`wall_blocks`) crossed into a hex
  (the evaluator's ``crossing_effect``, inlined and given values, not
  arrays, which cost reference counts per call), along a run (:func:`asl_run_wall_blocks`)
  and through a vertex (:func:`asl_vertex_wall_blocks`); runs along a
  hexside (:func:`asl_run_effect`, :func:`simple_run_effect`);
* depressions (:func:`depression_bank`).

The codes below are shared with :mod:`kernel.line_of_sight.single` and :mod:`kernel.line_of_sight.bulk`.
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit, jit_inline
from kernel.line_of_sight._templates.tracer import HEXSIDE, INTERIOR, VERTEX

# Effects of a step, ordered.
NONE, BLIND, BLOCK = 0, 1, 2
# Reasons (kernel.line_of_sight.results.REASONS holds their names).
R_NONE, R_HILL, R_OBSTACLE, R_HEXSIDE, R_BLIND, R_HINDRANCE, R_UNIT = 0, 1, 2, 3, 4, 5, 6
# Record kinds for explain(): step kinds.
S_INTERIOR, S_RUN, S_VERTEX, S_CROSSING = 0, 1, 2, 3
# Ruleset codes: which LOS rules a kernel follows (the ruleset's los_model, as an int).
RULESET_ASL, RULESET_VV, RULESET_CCN = 0, 1, 2

#: Matrix sentinel for a blocked pair.
BLOCKED = -1

#: Bit of the entered hex's hexside crossed on the way in, by an entry's
#: ``cross + 1`` field (0: no crossing): crossing hexside d of the previous
#: hex enters through hexside (d + 3) % 6.
#: Columns of ``hex_info`` (kernel.line_of_sight.counters.hex_info_table): one int16 row per hex.
#: ``H_BLIND_DROP``: half levels the blind-hex test takes off the obstacle's height between two ends of
#: whole levels (0 but in model="vasl": VASL's blind test counts a building its whole levels, A6.4).
#: ``H_ROOFTOP``: the level of the hex's rooftop Location (0: none), which sees half a level lower (ASL).
#: ``H_SMOKE_BASE`` and ``H_SMOKE_TOP``: the heights (half levels) between which the hex's SMOKE lies: the
#: height of the Location it is in (its ground, an upper level, its rooftop) and that plus its height.
(H_GROUND2, H_OBSTACLE, H_OBSTACLE_INHERENT, H_HINDRANCE, H_HINDRANCE_TOP, H_HINDRANCE_INHERENT,
 H_SMOKE, H_SMOKE_TOP, H_VEHICLE, H_UNITS, H_OBSTACLE_ABOVE, H_BLIND_DROP, H_ROOFTOP, H_SMOKE_BASE) = range(14)
H_COLUMNS = 14

#: Codes of ``same_code`` (kernel.line_of_sight.counters.same_level_codes): a hex that blocks a
#: LOS between Locations at one level, by reason; smaller codes are DRMs.
CODE_MAX_DRM, CODE_HILL, CODE_OBSTACLE, CODE_UNIT = 500, 509, 510, 511
#: Column and exact-y steps to the neighbour across hexside d (the tracer's and the board's directions).
STEP_COL = np.array([0, 1, 1, 0, -1, -1], dtype=np.int64)
STEP_Y = np.array([-2, -1, 1, 2, 1, -1], dtype=np.int64)
ENTRY_SIDE_BIT = np.array([0] + [1 << ((d + 3) % 6) for d in range(6)] + [0], dtype=np.int32)



# --- obstacles, blind hexes and hindrances of one hex -------------------------------------------

@jit_inline
def asl_hex_effect(h, S2, T2, same, slope, r_s, r_t, hex_info, inherent_only):
    """(effect, reason) of hex h in an ASL LOS (section 2, 'Effect of a hex')."""
    G = hex_info[h, H_GROUND2]
    oh = hex_info[h, H_OBSTACLE]
    # B14.2: an orchard in season is a one-level (inherent) obstacle to a LOS from higher ground
    above = hex_info[h, H_OBSTACLE_ABOVE] if not same and not slope and S2 > G else 0
    if inherent_only:
        # a vertex touch or one side of a run: only inherent obstacles, the orchard's among them,
        # even where a taller or equal non-inherent obstacle (woods) shares the hex
        if not hex_info[h, H_OBSTACLE_INHERENT]:
            oh = 0
        if above > oh:
            oh = above
        if oh == 0:
            return NONE, R_NONE
    elif above > oh:
        oh = above
    if slope:
        if oh > 0:
            return BLOCK, R_OBSTACLE
        return NONE, R_NONE
    effect = NONE
    reason = R_NONE
    if not inherent_only:
        if G > S2:
            return BLOCK, R_HILL
        if not same and G == S2:
            # height advantage (A6.2, B10.2): hill ground at the higher end's level, crossed
            # on the way down to a lower end, blocks; the higher end sees down only across
            # a crest line as its LOS leaves its own hex
            return BLOCK, R_HILL
        if not same and G > T2:
            bound = (2 * G + 2 * (r_s // 5) - S2 - T2) // 2
            if bound < 0:
                bound = 0
            if r_t <= bound:
                effect = BLIND
                reason = R_BLIND
    if oh > 0:
        O = G + oh
        if same:
            if O > S2:
                return BLOCK, R_OBSTACLE
        else:
            if O >= S2:
                return BLOCK, R_OBSTACLE
            blind_top = O
            if (S2 | T2) & 1 == 0:   # no rooftop end (half a level off its level): the blind test's height
                blind_top = O - hex_info[h, H_BLIND_DROP]
            if blind_top > T2 and effect == NONE:
                bound = (2 * blind_top + 2 * (r_s // 5) - S2 - T2 + 2) // 2
                if bound < 1:
                    bound = 1
                if r_t <= bound:
                    effect = BLIND
                    reason = R_BLIND
    return effect, reason


@jit_inline
def _applies(top, G, S2, same, slope):
    """Whether a hindrance source whose top is ``top`` counts (section 2)."""
    if slope:
        return True
    if same:
        return top > S2 and G <= S2
    return top >= S2


@jit_inline
def smoke_applies(base, top, G, S2, same, slope):
    """Whether SMOKE lying between heights ``base`` and ``top`` (half levels) hinders a LOS that crosses its
    hex (ground ``G``), the higher end at ``S2`` (section 2, A24): at one level, the LOS within it
    (``base <= S2 < top``); else the higher end above its base and, but on a continuous slope, not above
    its top.  A LOS wholly below SMOKE at an upper Location passes beneath it; SMOKE at the ground
    (``base == G``) has no lower bound but the ground's."""
    if same:
        return base <= S2 < top
    return (base < S2 or base == G) and (slope or top >= S2)


@jit_inline
def asl_hex_hindrance(h, S2, T2, same, slope, inherent_only, hex_info):
    """(terrain, SMOKE, vehicle) DRMs of hex h that apply (section 2, 'Hindrances'); inherent terrain
    only if asked.  The counters' part (SMOKE, vehicles and wrecks) is the second half.

    (One function on purpose: split into a terrain and a counter step, the
    matrix ran about 8 % slower.)
    """
    G = hex_info[h, H_GROUND2]
    terrain = 0
    hindrance = hex_info[h, H_HINDRANCE]
    if hindrance > 0 and (hex_info[h, H_HINDRANCE_INHERENT] or not inherent_only) and \
            _applies(hex_info[h, H_HINDRANCE_TOP], G, S2, same, slope):
        terrain = hindrance
    # counters: SMOKE when the higher end is within it, vehicles and wrecks at the same level only
    smoke = 0
    if hex_info[h, H_SMOKE] > 0 and smoke_applies(hex_info[h, H_SMOKE_BASE], hex_info[h, H_SMOKE_TOP], G, S2,
                                                 same, slope):
        smoke = hex_info[h, H_SMOKE]
    vehicle = 0
    if hex_info[h, H_VEHICLE] > 0 and ((S2 == T2 and G == S2) or slope):
        vehicle = hex_info[h, H_VEHICLE]   # each vehicle and wreck in the hex: +1
    return terrain, smoke, vehicle


@jit_inline
def location_height2(h, level, hex_info):
    """The height in half levels of Location ``level`` of hex ``h``: twice its ground level plus its
    level, half a level less on the hex's rooftop (``H_ROOFTOP``; VASL's reading, section 2)."""
    # branch-free: the targets' table loops over every hex with it, and a branch there costs its vectorising
    return hex_info[h, H_GROUND2] + 2 * level - np.int64((level > 0) & (level == hex_info[h, H_ROOFTOP]))


@jit_inline
def end_smoke(h, level2, hex_info):
    """SMOKE DRM of an end's own hex h (ASL A24: fire out of or into a SMOKE Location), when the end's
    Location (``level2`` half levels) is within the SMOKE: at or above its base, below its top (section 2);
    a Location beneath SMOKE at an upper level is not in it."""
    # (two comparisons, not a chained one: numba compiles the chained form slower on every target)
    if hex_info[h, H_SMOKE] > 0 and level2 < hex_info[h, H_SMOKE_TOP] and level2 >= hex_info[h, H_SMOKE_BASE]:
        return hex_info[h, H_SMOKE]
    return 0


@jit_inline
def ranges_from_higher(r_a, r_b, higher_is_a):
    if higher_is_a:
        return r_a, r_b
    return r_b, r_a


@jit_inline
def simple_hex_effect(h, lo2, hi2, hex_info, units_block, slope_hex, slope_hex2):
    """(effect, reason) of hex h for V&V (section 3) and CCN (section 4)."""
    G = hex_info[h, H_GROUND2]
    if G > hi2:
        return BLOCK, R_HILL
    if G > lo2 and h != slope_hex and h != slope_hex2:
        return BLOCK, R_HILL
    if hex_info[h, H_OBSTACLE] > 0:
        return BLOCK, R_OBSTACLE
    if units_block and hex_info[h, H_UNITS]:
        return BLOCK, R_UNIT
    return NONE, R_NONE


# --- elevation: continuous slopes (ASL B.5) and V&V slope hexes (10.7) ---------------------------

@jit
def asl_continuous_slope(first, last, packed, grid, base_a, ranges, higher_is_a, S2, hex_info):
    """Whether every hex the template crosses descends one level per hex of range (B.5)."""
    crossed = 0
    for e in range(first + 1, last):
        entry = packed[e]
        if (entry >> 3) & 3 == VERTEX:
            continue
        h = grid[base_a + (entry >> 5)]
        if h < 0:
            continue
        r_s, r_t = ranges_from_higher(ranges[e, 0], ranges[e, 1], higher_is_a)
        if S2 - hex_info[h, H_GROUND2] != 2 * r_s:
            return False
        crossed += 1
    return crossed > 0


@jit
def vv_slope_hexes(first, last, packed, grid, base_a, higher_is_a, hex_info):
    """V&V 10.7 (section 3): the level-1 slope hex(es) of a ground <-> Level 2 LOS.

    The first step from the Level 2 end holding a level-1 hex gives them (both
    sides of a run when both are at level 1), the same both ways; -1 for none.
    """
    slope_hex = -1
    slope_hex2 = -1
    e = first + 1
    while e < last:
        entry = packed[e]
        k = (entry >> 3) & 3
        if k == VERTEX:
            e += 1
            continue
        x = grid[base_a + (entry >> 5)]
        y = -1
        step = 1
        if k == HEXSIDE:  # a run X|Y: entries e and e + 1
            y = grid[base_a + (packed[e + 1] >> 5)]
            step = 2
        found_x = x if x >= 0 and hex_info[x, H_GROUND2] == 2 else -1
        found_y = y if y >= 0 and hex_info[y, H_GROUND2] == 2 else -1
        if found_x >= 0 or found_y >= 0:
            slope_hex = found_x
            slope_hex2 = found_y
            if higher_is_a:
                break  # the first from a; from b's end it is the last one met
        e += step
    return slope_hex, slope_hex2


# --- depressions: the banks of the depression an end is in (A6.3, B19-B20) ---------------------

@jit
def depression_bank(h, group, group_ground2, neighbours, depression_group, hex_info):
    """Whether hex h is a bank of depression ``group`` (ground ``group_ground2`` half levels):
    higher than it, outside it, next to one of its hexes."""
    if group < 0 or depression_group[h] == group or hex_info[h, H_GROUND2] <= group_ground2:
        return False
    for d in range(6):
        n = neighbours[h, d]
        if n >= 0 and depression_group[n] == group:
            return True
    return False


# --- hexside features: a wall, hedge or V&V hedge crossed on the way into a hex ----------------

@jit
def wall_blocks(p, d, q, hs_obst, hex_info, S2, same, slope):
    """Whether the ASL wall/hedge (any hexside obstacle) on hexside d of hex p, between p and q, blocks.

    Its top is the higher ground of its two hexes plus its height (B9: half a
    level for walls and hedges); it blocks a same-level LOS above which it
    rises, a LOS between levels it reaches, and any continuous-slope LOS.
    """
    height = hs_obst[p, d]
    if height <= 0:
        return False
    wall_base = hex_info[p, H_GROUND2]
    if hex_info[q, H_GROUND2] > wall_base:
        wall_base = hex_info[q, H_GROUND2]
    top = wall_base + height
    return slope or (same and top > S2) or ((not same) and top >= S2)


@jit
def hexside_direction(col, yv, p, q):
    """Direction of the hexside of hex p shared with its neighbour q (-1 when not neighbours)."""
    dc = col[q] - col[p]
    dy = yv[q] - yv[p]
    for d in range(6):
        if STEP_COL[d] == dc and STEP_Y[d] == dy:
            return d
    return -1


@jit
def walled_vertex(p, x, y, a, b, col, yv, hs_obst, hex_info, S2, same, slope):
    """Whether a LOS leaving hex p's interior through its vertex with x and y (and going on along
    x|y, or coming the other way) crosses a wall line there: walls on both p|x and p|y, which lie
    on both sides of the LOS (B9).  The viewer's and target's own hexsides are ignored (B9.2)."""
    if p < 0 or x < 0 or y < 0 or p == a or p == b:
        return False
    dx = hexside_direction(col, yv, p, x)
    dy = hexside_direction(col, yv, p, y)
    if dx < 0 or dy < 0:
        return False
    return wall_blocks(p, dx, x, hs_obst, hex_info, S2, same, slope) and \
        wall_blocks(p, dy, y, hs_obst, hex_info, S2, same, slope)


@jit
def asl_run_wall_blocks(x, y, run_dir, e, last, packed, grid, base_a, previous_cell, ranges, a, b, col, yv,
                        hs_obst, hex_info, S2, same, slope):
    """The hex where walls or hedges block an ASL LOS running along the hexside x|y (entries e, e + 1;
    B9), or -1.

    The wall on x|y blocks (at x) when the hexside touches neither end's hex,
    or touches one and its far vertex has walls on all three of its hexsides;
    a wall line through either vertex of the run (on both sides of the LOS)
    blocks as a crossing does, at the hex entered beyond that vertex (x at
    the near vertex, the next interior hex at the far one).
    """
    if x < 0 or y < 0:
        return -1
    before = grid[previous_cell]  # the interior hex at the run's near vertex
    after = -1  # the interior hex at its far vertex
    if e + 2 <= last and (packed[e + 2] >> 3) & 3 == INTERIOR:
        after = grid[base_a + (packed[e + 2] >> 5)]
    if wall_blocks(x, run_dir, y, hs_obst, hex_info, S2, same, slope):
        touches_a = ranges[e, 0] == 1 and ranges[e + 1, 0] == 1
        touches_b = ranges[e, 1] == 1 and ranges[e + 1, 1] == 1
        if not touches_a and not touches_b:
            return x
        if touches_a != touches_b:
            far = after if touches_a else before
            if far >= 0:
                dx = hexside_direction(col, yv, far, x)
                dy = hexside_direction(col, yv, far, y)
                if dx >= 0 and dy >= 0 and hs_obst[far, dx] > 0 and hs_obst[far, dy] > 0:
                    return x
    if walled_vertex(before, x, y, a, b, col, yv, hs_obst, hex_info, S2, same, slope):
        return x
    if walled_vertex(after, x, y, a, b, col, yv, hs_obst, hex_info, S2, same, slope):
        return after
    return -1


@jit
def asl_vertex_wall_blocks(p, q, r, a, b, col, yv, hs_obst, hex_info, S2, same, slope):
    """Whether a LOS passing through the vertex of hexes p, q, r from p's interior into q's, touching
    r there, crosses a wall line: p|q walled and p|r or q|r walled (B9; own hexsides ignored)."""
    if p < 0 or q < 0 or r < 0 or p == a or q == b:
        return False
    d_pq = hexside_direction(col, yv, p, q)
    if d_pq < 0 or not wall_blocks(p, d_pq, q, hs_obst, hex_info, S2, same, slope):
        return False
    d_pr = hexside_direction(col, yv, p, r)
    d_qr = hexside_direction(col, yv, q, r)
    return (d_pr >= 0 and wall_blocks(p, d_pr, r, hs_obst, hex_info, S2, same, slope)) or \
        (d_qr >= 0 and q != b and wall_blocks(q, d_qr, r, hs_obst, hex_info, S2, same, slope))


# --- a LOS running exactly along a hexside X|Y -------------------------------------------------

@jit
def asl_run_effect(x, y, e, ranges, higher_is_a, S2, T2, same, slope, hex_info):
    """(effect, reason, DRM) of an ASL run along the hexside between hexes x and y (-1: off-map).

    A6.1: an obstacle must be on both sides to block; B.6: an inherent one
    blocks from one side; hindrance counts once, per source the largest of
    min(X, Y), inherent X and inherent Y.
    """
    ex = NONE
    rx = R_NONE
    ey = NONE
    ry = R_NONE
    ix = NONE
    iy = NONE
    tx = 0
    sx = 0
    vx = 0
    ty = 0
    sy = 0
    vy = 0
    x_inherent = False
    y_inherent = False
    if x >= 0:
        r_s, r_t = ranges_from_higher(ranges[e, 0], ranges[e, 1], higher_is_a)
        ex, rx = asl_hex_effect(x, S2, T2, same, slope, r_s, r_t, hex_info, False)
        ix, rix = asl_hex_effect(x, S2, T2, same, slope, r_s, r_t, hex_info, True)
        tx, sx, vx = asl_hex_hindrance(x, S2, T2, same, slope, False, hex_info)
        x_inherent = hex_info[x, H_HINDRANCE_INHERENT]
    if y >= 0:
        r_s, r_t = ranges_from_higher(ranges[e + 1, 0], ranges[e + 1, 1], higher_is_a)
        ey, ry = asl_hex_effect(y, S2, T2, same, slope, r_s, r_t, hex_info, False)
        iy, riy = asl_hex_effect(y, S2, T2, same, slope, r_s, r_t, hex_info, True)
        ty, sy, vy = asl_hex_hindrance(y, S2, T2, same, slope, False, hex_info)
        y_inherent = hex_info[y, H_HINDRANCE_INHERENT]
    effect = ex if ex <= ey else ey
    if y < 0 or x < 0:
        effect = NONE
    if ix > effect:
        effect = ix
    if iy > effect:
        effect = iy
    reason = R_NONE
    if effect != NONE:
        # the reason of the first side whose own effect reaches the run's
        if x >= 0 and ex >= effect:
            reason = rx
        else:
            reason = ry
        if effect == BLIND:
            reason = R_BLIND
    terrain = tx if tx < ty else ty
    if x_inherent and tx > terrain:
        terrain = tx
    if y_inherent and ty > terrain:
        terrain = ty
    drm = terrain + (sx if sx > sy else sy) + (1 if (vx + vy) > 0 else 0)
    return effect, reason, drm


@jit
def simple_run_effect(ruleset, x, y, run_dir, lo2, hi2, hex_info, units_block, slope_hex, slope_hex2,
                      hs_obst, hs_hind):
    """(effect, reason, DRM) of a V&V or CCN run along the hexside between x and y (sections 3-4)."""
    blocks_x = False
    blocks_y = False
    hinders_x = False
    hinders_y = False
    rx = R_NONE
    if x >= 0:
        effect_x, rx = simple_hex_effect(x, lo2, hi2, hex_info, units_block, slope_hex, slope_hex2)
        blocks_x = effect_x == BLOCK
        hinders_x = ruleset == RULESET_VV and hex_info[x, H_HINDRANCE] > 0
    if y >= 0:
        effect_y, ry = simple_hex_effect(y, lo2, hi2, hex_info, units_block, slope_hex, slope_hex2)
        blocks_y = effect_y == BLOCK
        hinders_y = ruleset == RULESET_VV and hex_info[y, H_HINDRANCE] > 0
    effect = NONE
    reason = R_NONE
    drm = 0
    if blocks_x and blocks_y:
        effect = BLOCK
        reason = rx
    elif ((blocks_x or hinders_x) and hinders_y) or ((blocks_y or hinders_y) and hinders_x):
        drm = 1
    if ruleset == RULESET_VV and run_dir >= 0:
        side = x if x >= 0 else y
        side_dir = run_dir if x >= 0 else (run_dir + 3) % 6
        if side >= 0:
            if hs_obst[side, side_dir] > 0 and effect == NONE:
                effect = BLOCK
                reason = R_HEXSIDE
            drm += hs_hind[side, side_dir]
    return effect, reason, drm


# --- explain(): one record per step with an effect ---------------------------------------------

@jit_inline
def record_step(records, n_rec, hex_index, kind, effect, reason, drm):
    """Write one explain() record at row ``n_rec``; returns the next row."""
    records[n_rec, 0] = hex_index
    records[n_rec, 1] = kind
    records[n_rec, 2] = effect
    records[n_rec, 3] = reason
    records[n_rec, 4] = drm
    return n_rec + 1
