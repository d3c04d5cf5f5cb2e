"""Slow, literal reference of the depiction LOS model (``model="depiction"``), for the tests.

Written from ``docs/los-semantics.md`` (section 2, ASL, with the rule readings
of issue #12) and the description in :mod:`kernel.line_of_sight.depiction`,
independently of the kernels: it imports nothing from ``kernel.line_of_sight``.
Its inputs are data: the compiled board (hex centres, ground levels, the
ruleset's terrain and hexside tables) and the map's art (``kernel.maps.art``:
per pixel a class and an elevation, per class a terrain mask, building levels
and a hexside mask).

* The walk runs from the centre dot of the hex with the smaller index to the
  other's, over the pixels ``rint(A + i / n * (B - A))``, ``0 < i < n``,
  ``n = ceil(max(|dx|, |dy|))``.
* A pixel's hex is found by brute force: the hex whose centre dot is nearest,
  ties to the smaller lattice ``(x, y)``.  Pixels of the ends' hexes are skipped.
* Each other pixel is a hex of its own at its ground level ``G`` (half levels),
  ranges counted between hexes: hills (``G > S``; ``G == S`` between ends on
  different levels: height advantage), bare-crest blind hexes, obstacles
  (``O > S`` same level, ``O >= S`` otherwise, blind hexes behind them), an
  orchard's obstacle height from above (B14.2), continuous slope (B.5: every
  such pixel ``S - 2 r_S`` high; then only obstacles block and every hindrance
  counts), hindrances once per hex (or per range, VASL's reading) with the cap;
  wall and hedge pixels half a level above their ground, no blind hexes, not
  counted where the hexside nearest the pixel (in its hex) shares a vertex with
  an end's hex (B9.2 as VASL applies it).
"""

from __future__ import annotations

import math

import numpy as np

PX_X = 18.75          # pixels per lattice unit across
PX_Y = 32.25          # pixels per lattice unit down
VERTICES = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))   # a hex's corners around its centre, in order
OBSTACLE, HINDRANCE = 2, 1   # LOS roles of the ruleset tables


class ReferenceDepiction:
    """The depiction LOS of one board, pair by pair, the slow way."""

    def __init__(self, board, art):
        self.board = board
        self.art_class = np.asarray(art.terrain)
        self.art_level = np.asarray(art.elevation).astype(np.int64)
        self.cx = board.x.astype(np.float64) * PX_X
        self.cy = board.y.astype(np.float64) * PX_Y
        # axial coordinates for ranges
        col = board.x.astype(np.int64) // 3
        self.q = col
        self.r = (board.y.astype(np.int64) - col) // 2
        self.order = np.lexsort((board.y, board.x))  # (x, y) order: the tie rule
        rs = board.ruleset
        self.cap = int(rs.rules["hindrance_cap"])
        n_class = len(art.class_terrain)
        self.obstacle = np.zeros(n_class, np.int64)
        self.above = np.zeros(n_class, np.int64)
        self.hindrance = np.zeros(n_class, np.int64)
        self.hindrance_height = np.zeros(n_class, np.int64)
        self.wall = np.zeros(n_class, np.int64)
        for c in range(n_class):
            mask, levels, sides = int(art.class_terrain[c]), int(art.class_levels[c]), int(art.class_hexside[c])
            for t in range(len(rs.terrain_names)):
                if not mask >> t & 1:
                    continue
                if rs.terrain_obstacle_from_above[t]:
                    self.above[c] = max(self.above[c], int(rs.terrain_height[t]))
                if rs.terrain_los_role[t] == OBSTACLE:
                    height = int(rs.terrain_height[t])
                    if rs.terrain_multi_level[t] and levels > 0:
                        height = 2 * levels + 1
                    self.obstacle[c] = max(self.obstacle[c], height)
                elif rs.terrain_los_role[t] == HINDRANCE:
                    self.hindrance[c] = max(self.hindrance[c], int(rs.terrain_hindrance[t]))
                    h = 1 if rs.terrain_half_level[t] else (int(rs.terrain_height[t]) or 2)
                    self.hindrance_height[c] = max(self.hindrance_height[c], h)
            for k in range(len(rs.hexside_names)):
                if sides >> k & 1 and rs.hexside_los_role[k] == OBSTACLE:
                    self.wall[c] = max(self.wall[c], int(rs.hexside_height[k]))

    # ------------------------------------------------------------------ geometry
    def distance(self, i: int, j) -> np.ndarray:
        dq = self.q[i] - self.q[j]
        dr = self.r[i] - self.r[j]
        return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2

    def hex_of(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        """Nearest centre dot by brute force, ties to the smaller (x, y)."""
        cx, cy = self.cx[self.order], self.cy[self.order]
        d = (px[:, None] - cx[None, :]) ** 2 + (py[:, None] - cy[None, :]) ** 2
        return self.order[np.argmin(d, axis=1)]   # argmin takes the first of equal minima

    def wall_touches_end(self, px: float, py: float, hx: int, ends) -> bool:
        """B9.2 as VASL applies it: the hexside of hex ``hx`` nearest the pixel (by its midpoint)
        shares a vertex with an end's hex (one of its own hexsides, or one running out from one of
        its vertices).  Vertices in exact lattice units: the centre plus (+-2, 0), (+-1, +-1)."""
        x, y = int(self.board.x[hx]), int(self.board.y[hx])
        corners = [(x + dx, y + dy) for dx, dy in VERTICES]
        best, side = math.inf, None
        for k in range(6):
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 6]
            d = (px - (x1 + x2) / 2 * PX_X) ** 2 + (py - (y1 + y2) / 2 * PX_Y) ** 2
            if d < best:
                best, side = d, (corners[k], corners[(k + 1) % 6])
        for end in ends:
            ex, ey = int(self.board.x[end]), int(self.board.y[end])
            end_corners = {(ex + dx, ey + dy) for dx, dy in VERTICES}
            if side[0] in end_corners or side[1] in end_corners:
                return True
        return False

    # ------------------------------------------------------------------ the walk
    def walk(self, a: int, b: int, level_a: int = 0, level_b: int = 0, per_range: bool = False, counters=None):
        """``(blocked, hindrance)`` of the LOS between Locations (a, level_a) and (b, level_b).

        ``counters``: per-hex arrays ``(smoke DRM, smoke top in half levels, vehicle)``; each hex the
        walk meets (outside the ends' hexes) adds its SMOKE (when its top reaches the LOS, as a
        hindrance's) and its vehicle (ends and hex at one level, or a continuous slope) once.
        """
        if a == b:
            return False, 0
        if a > b:
            a, b, level_a, level_b = b, a, level_b, level_a
        ground = self.board.ground_level
        la, lb = 2 * (int(ground[a]) + level_a), 2 * (int(ground[b]) + level_b)
        high = a if la >= lb else b
        S, T = max(la, lb), min(la, lb)
        same = S == T
        ax, ay, bx, by = self.cx[a], self.cy[a], self.cx[b], self.cy[b]
        n = int(math.ceil(max(abs(bx - ax), abs(by - ay))))
        xs, ys = [], []
        for i in range(1, n):
            t = i / n
            xs.append(int(np.rint(ax + t * (bx - ax))))
            ys.append(int(np.rint(ay + t * (by - ay))))
        if not xs:
            return False, 0
        w, h = self.art_class.shape
        px = np.clip(np.array(xs), 0, w - 1)
        py = np.clip(np.array(ys), 0, h - 1)
        hexes = self.hex_of(px.astype(np.float64), py.astype(np.float64))
        keep = (hexes != a) & (hexes != b)
        px, py, hexes = px[keep], py[keep], hexes[keep]
        if hexes.size == 0:
            return False, 0
        G = 2 * self.art_level[px, py]
        cls = self.art_class[px, py]
        r_s = self.distance(high, hexes)
        r_t = self.distance(a if high == b else b, hexes)
        slope = (not same) and bool(np.all(S - G == 2 * r_s))
        counted = set()
        counter_hexes = set()
        total = 0
        for k in range(hexes.size):
            g, c, rs_, rt_ = int(G[k]), int(cls[k]), int(r_s[k]), int(r_t[k])
            hx = int(hexes[k])
            if counters is not None and hx not in counter_hexes:
                counter_hexes.add(hx)
                smoke, smoke_top, vehicle = (int(array[hx]) for array in counters)
                hex_ground = 2 * int(ground[hx])
                drm = 0
                if smoke > 0 and (slope or (same and smoke_top > S and hex_ground <= S) or (not same and smoke_top >= S)):
                    drm += smoke
                if vehicle and ((same and hex_ground == S) or slope):
                    drm += 1
                total += drm
                if drm and self.cap > 0 and total >= self.cap:
                    return True, total
            if self.wall[c] > 0 and not self.wall_touches_end(px[k], py[k], int(hexes[k]), (a, b)):
                top = g + int(self.wall[c])
                if slope or (same and top > S) or (not same and top >= S):
                    return True, total
            oh = 0 if self.wall[c] > 0 else int(self.obstacle[c])
            hind = 0 if self.wall[c] > 0 else int(self.hindrance[c])
            if not same and not slope and S > g and self.above[c] > oh and self.wall[c] == 0:
                oh = int(self.above[c])   # B14.2
            if slope:
                if oh > 0:
                    return True, total
            else:
                if g > S or (not same and g == S):
                    return True, total
                if not same and g > T and rt_ <= max(0, (2 * g + 2 * (rs_ // 5) - S - T) // 2):
                    return True, total   # blind hex behind a bare crest
                if oh > 0:
                    top = g + oh
                    if (same and top > S) or (not same and top >= S):
                        return True, total
                    if not same and top > T and rt_ <= max(1, (2 * top + 2 * (rs_ // 5) - S - T + 2) // 2):
                        return True, total   # blind hex behind an obstacle
            if hind > 0:
                top = g + int(self.hindrance_height[c])
                applies = slope or (same and top > S and g <= S) or (not same and top >= S)
                key = rs_ if per_range else int(hexes[k])
                if applies and key not in counted:
                    counted.add(key)
                    total += hind
                    if self.cap > 0 and total >= self.cap:
                        return True, total
        return False, total
