"""Slow, literal reference of the depiction LOS model (``model="depiction"``), for the tests.

Written from ``docs/los-semantics.md`` (sections 1, 2 and 6, ASL, with its rule
readings), independently of the kernels: it imports
nothing from ``kernel.line_of_sight``.  Its inputs are data: the compiled board
(hex centres, ground levels, the ruleset's terrain and hexside tables) and the
map's art (``kernel.maps.art``: per pixel a class and an elevation, per class a
terrain mask, building levels and a hexside mask).

* The walk runs from the centre dot of the hex with the smaller index to the
  other's, over the pixels of ``A + i / n * (B - A)``, ``0 < i < n``,
  ``n = ceil(max(|dx|, |dy|))``: on a map with drawn art pixel ``(x, y)``
  covers the square ``[x, x + 1) x [y, y + 1)``, as VASL's art, the points
  are rounded down, and a pixel's hex, the wall tests below and the
  far-vertex test take its centre ``(x + 0.5, y + 0.5)`` (on the art's last
  column or row, the line where the map ends, its corner); on a map without
  drawn art the points are rounded (``rint``) and a pixel is its own point; with
  ``per_range`` (model="vasl") over the pixels VASL's engine visits instead
  (:meth:`ReferenceDepiction.vasl_pixels`), each taken at its corner
  ``(x, y)`` as VASL's engine does, a pixel inside an end's extended border
  (:meth:`ReferenceDepiction.in_extended_border`: the first end's, then the
  other's) being that end's.
* The exact trace (section 1) is found by brute force, in integer lattice
  units: every hex whose *closed* hexagon (centre plus ``(+-2, 0)``,
  ``(+-1, +-1)``) the segment from centre A to centre B meets, through its
  interior, along a hexside or at a single vertex.  The test is literal: an
  endpoint inside or on the hexagon, or the segment meeting one of its six
  edges (integer orientation tests, collinear overlaps and touches included).
* A pixel's hex is the hex of that trace whose centre dot (pixel
  ``(x * 18.75, y * 32.25)``) is nearest the pixel, compared exactly in
  quarter pixels, ties to the smaller lattice ``(x, y)``.  Pixels whose hex
  is one of the ends' are skipped (but a pixel of terrain with
  ``obstacle_in_own_hex``, a rowhouse's wall between two hexes, B23.71, blocks
  there when the end in that hex lies below its top); ranges count from the
  pixel's hex.
  (:meth:`ReferenceDepiction.hex_of` keeps the nearest centre dot over *all*
  hexes, the rasteriser's rule, for the art tests.)
* Each other pixel is a hex of its own at its ground level ``G`` (half levels),
  ranges counted between hexes: hills (``G > S``; ``G == S`` between ends on
  different levels: height advantage, except in a hex at range 1 from the
  higher end whose ground level is below ``S`` when the lower end is not in a
  depression (see below): the crest line of an adjacent lower hex, B10.2
  EXC), bare-crest blind hexes, obstacles
  (``O > S`` same level, ``O >= S`` otherwise, blind hexes behind them), an
  orchard's obstacle height from above (B14.2), continuous slope (B.5: at
  least one such pixel and every one ``S - 2 r_S`` high; then only obstacles
  block and every hindrance counts), hindrances once per hex (the two hexes
  beside a hexside that the segment runs exactly along count as one hex, B.6;
  a hex whose hexagon the segment meets at one corner alone, its two
  neighbouring corners strictly on one side of the line, counts only
  inherent hindrance, B.6;
  or per range
  from the higher end, VASL's reading, which also leaves out a hex at the
  ends' range or more from either end and makes crags and graveyards
  half-level hindrances, as VASL's terrain table) at the largest DRM met
  there, with the cap; wall and hedge pixels
  half a level above their ground, no blind hexes, not counted where the
  hexside nearest the pixel (in its hex) shares a vertex with an end's hex
  (B9.2 as VASL applies it), nor within 6 px of the far vertex of a walled
  hexside running out from an end's vertex whose two other hexsides are not
  both walled (B9, the hex model's reading of a LOS along such a hexspine:
  art drawn past that vertex).
* Inherent terrain (B.6: orchard, crag, graveyard, rubble, ...) is its whole
  hex: a pixel whose class holds an inherent terrain that its hex (the board's
  terrain of the pixel's hex) does not hold has no obstacle or hindrance there
  (a wall or hedge on it still counts).
* Depression banks (A6.3, B19-B20; sections 2 and 6): a hex has depression
  terrain when its terrain bit set holds a terrain whose ruleset
  ``terrain_depression`` flag is set; a *depression group* is a maximal set of
  depression hexes connected through ``board.neighbours`` that all have one
  ground level; a *bank* of a group is a hex not in it, with higher ground
  than the group's, next to at least one of its hexes.  When an end's
  Location is at level 0 (its Location level) of a hex of a group, a walked
  pixel whose hex is a bank of that group and whose own elevation (the art's)
  is above the group's ground blocks, reason ``"hill"``; both ends may be in
  (possibly different) groups, and a pixel blocks if it is a bank of either
  end's group above that group's ground.  With or without a continuous slope.
  With ``per_range`` (VASL's reading) the lower end's group binds only while
  the higher end is fewer levels above it than the range (a rooftop counted
  as its whole level).
* Counters (SMOKE, vehicles) of each hex the walk meets outside the ends count
  once, when the walk first meets the hex; with ``per_range`` once per range
  from the higher end, the largest SMOKE DRM and, apart from it, the largest
  vehicle count met at that range.  SMOKE in an end's own hex (A24)
  counts when that end's Location lies inside it (its absolute level
  ``2 (ground + level)`` below the SMOKE's top): the walk's first end (the
  smaller index) before the walk, the other end after it; a total reaching
  the cap there blocks at that end's hex.  Vehicles in an end's hex never
  count.  A LOS with ``a == b`` is clear with no hindrance.
* With ``per_range``, before the walk, VASL's reading of A6.8 Example 2 from the viewer (the first argument,
  so it may block one way only; :mod:`tests.reference.vasl_building_reference`): a LOS from a building
  Location to one at another height that enters another hex over building art before it leaves its
  building's art, the viewer no higher than that hex's building, is blocked, reason ``"inside building"``,
  at the target's hex.

Per pixel the checks run in this order: the counters of its hex (first
meeting), the wall/hedge (``"hexside"``), then, without a continuous slope,
hills (``"hill"``), the obstacle's block (``"obstacle"``), the bare-crest
blind hex (``"blind hex"``), the obstacle's blind hex (``"blind hex"``) (the
first of these that holds is the pixel's result: a block outranks a blind
hex, as section 2 takes the larger effect); under a continuous slope any
obstacle (``"obstacle"``).  Then the depression bank (``"hill"``): it applies when the
pixel has no result yet or a ``"blind hex"`` one, which it replaces (an
``"obstacle"`` or ``"hill"`` result stays).  A result blocks the LOS there;
last comes the terrain hindrance (``"hindrance"`` when the total reaches the
cap).
"""

from __future__ import annotations

import math

import numpy as np

from tests.reference.vasl_building_reference import building_classes, must_leave_building_at

PX_X = 18.75          # pixels per lattice unit across
PX_Y = 32.25          # pixels per lattice unit down
QX, QY = 75, 129      # the same in quarter pixels: 4 * 18.75, 4 * 32.25 (exact integers)
VERTICES = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))   # a hex's corners around its centre, in order
OBSTACLE, HINDRANCE = 2, 1   # LOS roles of the ruleset tables


# ---------------------------------------------------------------------- exact integer geometry
def orientation(p, q, r) -> int:
    """Sign of ``cross(q - p, r - p)``: +1, -1, or 0 when the three points are collinear."""
    value = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (value > 0) - (value < 0)


def on_segment(p, q, r) -> bool:
    """Whether ``r``, collinear with ``p`` and ``q``, lies on the closed segment ``p q``."""
    return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])


def segments_meet(p1, p2, q1, q2) -> bool:
    """Whether the closed segments ``p1 p2`` and ``q1 q2`` share a point (crossing, touching or overlapping)."""
    o1, o2 = orientation(p1, p2, q1), orientation(p1, p2, q2)
    o3, o4 = orientation(q1, q2, p1), orientation(q1, q2, p2)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True   # a proper crossing
    if o1 == 0 and on_segment(p1, p2, q1):
        return True
    if o2 == 0 and on_segment(p1, p2, q2):
        return True
    if o3 == 0 and on_segment(q1, q2, p1):
        return True
    if o4 == 0 and on_segment(q1, q2, p2):
        return True
    return False


def point_in_polygon(p, corners) -> bool:
    """Whether ``p`` lies inside or on the closed convex polygon ``corners`` (in order, either way round)."""
    signs = {orientation(corners[k], corners[(k + 1) % len(corners)], p) for k in range(len(corners))}
    return not (1 in signs and -1 in signs)


def segment_meets_polygon(p1, p2, corners) -> bool:
    """Whether the closed segment ``p1 p2`` meets the closed convex polygon ``corners``: an endpoint inside
    or on it, or the segment meeting one of its edges (a segment that meets a convex polygon with both
    endpoints outside it must meet its boundary)."""
    if point_in_polygon(p1, corners) or point_in_polygon(p2, corners):
        return True
    return any(segments_meet(p1, p2, corners[k], corners[(k + 1) % len(corners)]) for k in range(len(corners)))


class ReferenceDepiction:
    """The depiction LOS of one board, pair by pair, the slow way."""

    def __init__(self, board, art):
        self.board = board
        self.art_class = np.asarray(art.terrain)
        self.art_level = np.asarray(art.elevation).astype(np.int64)
        self.drawn = bool(art.drawn)   # some art drawn: pixels are squares, judged at their centres
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
        self.inherent_bits = np.zeros(n_class, np.int64)   # the class's inherent terrains (B.6)
        self.hindrance_inherent = np.zeros(n_class, bool)   # one of its hindrance terrains is inherent (B.6)
        self.own_hex = np.zeros(n_class, bool)   # an obstacle even in an end's own hex (B23.71)
        self.building = building_classes(rs, art.class_terrain)   # VASL's leave-the-building rule (per range)
        self.wall_bits = sum(1 << k for k in range(len(rs.hexside_names)) if rs.hexside_los_role[k] == OBSTACLE)
        for c in range(n_class):
            for t in range(len(rs.terrain_names)):
                if int(art.class_terrain[c]) >> t & 1 and rs.terrain_inherent[t]:
                    self.inherent_bits[c] |= 1 << t
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
                    self.own_hex[c] |= bool(rs.terrain_obstacle_in_own_hex[t])
                elif rs.terrain_los_role[t] == HINDRANCE:
                    self.hindrance[c] = max(self.hindrance[c], int(rs.terrain_hindrance[t]))
                    self.hindrance_inherent[c] |= bool(rs.terrain_inherent[t])
                    h = 1 if rs.terrain_half_level[t] else (int(rs.terrain_height[t]) or 2)
                    self.hindrance_height[c] = max(self.hindrance_height[c], h)
            for k in range(len(rs.hexside_names)):
                if sides >> k & 1 and rs.hexside_los_role[k] == OBSTACLE:
                    self.wall[c] = max(self.wall[c], int(rs.hexside_height[k]))
        # model="vasl" reads crags and graveyards as VASL's terrain table does: half-level hindrances
        self.hindrance_height_vasl = self.hindrance_height.copy()
        for c in range(n_class):
            names = {rs.terrain_names[t] for t in range(len(rs.terrain_names)) if int(art.class_terrain[c]) >> t & 1}
            if names & {"crag", "graveyard"} and self.hindrance[c] > 0:
                self.hindrance_height_vasl[c] = 1
        self.find_depressions()

    # ------------------------------------------------------------------ depressions
    def is_depression(self, h: int) -> bool:
        """Whether hex ``h`` has depression terrain: a terrain of its bit set whose ruleset
        ``terrain_depression`` flag is set."""
        rs = self.board.ruleset
        mask = int(self.board.terrain[h])
        return any(mask >> t & 1 and bool(rs.terrain_depression[t]) for t in range(len(rs.terrain_names)))

    def find_depressions(self):
        """The depression groups and their banks (section 2, A6.3), literally.

        A group is a maximal set of depression hexes connected through ``board.neighbours`` that all
        have the same ground level: grown from each depression hex not yet grouped, over neighbours
        that are depression hexes at the starting hex's ground level.  A bank of a group is a hex not
        in the group, with higher ground than the group's, and a neighbour of at least one of its hexes.

        Sets ``group_of`` (hex -> group, -1 for none), ``group_ground`` (group -> its ground level,
        whole levels) and ``group_banks`` (group -> the set of its bank hexes)."""
        board = self.board
        n = len(board.x)
        ground = [int(level) for level in board.ground_level]
        self.group_of = [-1] * n
        self.group_ground = []
        self.group_banks = []
        for start in range(n):
            if self.group_of[start] >= 0 or not self.is_depression(start):
                continue
            group = len(self.group_ground)
            level = ground[start]
            members = [start]
            self.group_of[start] = group
            k = 0
            while k < len(members):   # grow the group, breadth first
                for other in board.neighbours[members[k]]:
                    other = int(other)
                    if other >= 0 and self.group_of[other] < 0 and ground[other] == level and self.is_depression(other):
                        self.group_of[other] = group
                        members.append(other)
                k += 1
            banks = set()
            for h in members:
                for other in board.neighbours[h]:
                    other = int(other)
                    if other >= 0 and other not in members and ground[other] > level:
                        banks.add(other)
            self.group_ground.append(level)
            self.group_banks.append(banks)

    # ------------------------------------------------------------------ geometry
    def distance(self, i: int, j) -> np.ndarray:
        dq = self.q[i] - self.q[j]
        dr = self.r[i] - self.r[j]
        return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2

    def hex_of(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        """Nearest centre dot of *any* hex by brute force, ties to the smaller (x, y): the rasteriser's
        rule (``kernel.maps.art.pixel_hexes``), no longer the walk's (see :meth:`trace_hex_of`)."""
        cx, cy = self.cx[self.order], self.cy[self.order]
        d = (px[:, None] - cx[None, :]) ** 2 + (py[:, None] - cy[None, :]) ** 2
        return self.order[np.argmin(d, axis=1)]   # argmin takes the first of equal minima

    def corners(self, h: int):
        """The six vertices of hex ``h`` in exact lattice units, in order around it."""
        x, y = int(self.board.x[h]), int(self.board.y[h])
        return [(x + dx, y + dy) for dx, dy in VERTICES]

    def trace_hexes(self, a: int, b: int) -> list[int]:
        """The exact trace as a set (section 1): every hex whose closed hexagon the segment from the centre
        of ``a`` to the centre of ``b`` meets, by brute force over all hexes, in ascending hex index."""
        A = (int(self.board.x[a]), int(self.board.y[a]))
        B = (int(self.board.x[b]), int(self.board.y[b]))
        return [h for h in range(len(self.board.x)) if segment_meets_polygon(A, B, self.corners(h))]

    def trace_hex_of(self, px: float, py: float, candidates, lower_on_tie: bool = False) -> int:
        """The hex of ``candidates`` (the trace) whose centre dot is nearest point ``(px, py)``, ties to the
        smaller lattice ``(x, y)``; with ``lower_on_tie`` (VASL's engine: a point on the hexside between two
        hexes belongs to the lower one, its row being ``y // hex height``) ties to the larger ``y``.  Squared
        distances are exact integers in quarter pixels: ``(4 px - 75 x)^2 + (4 py - 129 y)^2``."""
        def key(h):
            x, y = int(self.board.x[h]), int(self.board.y[h])
            d = (4 * px - QX * x) ** 2 + (4 * py - QY * y) ** 2
            return (d, -y, x) if lower_on_tie else (d, x, y)
        return min(candidates, key=key)

    def hindrance_key(self, hx: int, a: int, b: int):
        """What hex ``hx`` counts its hindrance as: the set of ``hx`` and the hex that shares the hexside
        of ``hx`` lying on the line through the centres of ``a`` and ``b`` (both its corners on that line),
        found by brute force over every hex's corners; ``{hx}`` when no hexside of ``hx`` lies on it."""
        A = (int(self.board.x[a]), int(self.board.y[a]))
        B = (int(self.board.x[b]), int(self.board.y[b]))
        corners = self.corners(hx)
        for k in range(6):
            p, q = corners[k], corners[(k + 1) % 6]
            if orientation(A, B, p) == 0 and orientation(A, B, q) == 0:
                for other in range(len(self.board.x)):
                    if other != hx and p in self.corners(other) and q in self.corners(other):
                        return frozenset((hx, other))
        return frozenset((hx,))

    def wall_touches_end(self, px: float, py: float, hx: int, ends) -> bool:
        """B9.2 as VASL applies it: the hexside of hex ``hx`` nearest the pixel (by its midpoint)
        shares a vertex with an end's hex (one of its own hexsides, or one running out from one of
        its vertices); where two hexsides are equally near, either one doing so is enough.  Vertices
        in exact lattice units: the centre plus (+-2, 0), (+-1, +-1)."""
        corners = self.corners(hx)
        sides = [(corners[k], corners[(k + 1) % 6]) for k in range(6)]
        # squared distance to each hexside's midpoint, exactly, in quarter pixels (x4: 75 and 129 per unit)
        distance = [(4 * px - QX * (x1 + x2) / 2) ** 2 + (4 * py - QY * (y1 + y2) / 2) ** 2
                    for (x1, y1), (x2, y2) in sides]
        nearest = [side for side, d in zip(sides, distance) if d == min(distance)]   # ties: all of them
        for end in ends:
            end_corners = set(self.corners(end))
            for first, second in nearest:
                if first in end_corners or second in end_corners:
                    return True
        return False

    def has_wall(self, h: int, k: int) -> bool:
        """Whether hex ``h``'s hexside in neighbour direction ``k`` has an obstacle hexside feature (wall,
        hedge, ...), recorded on ``h`` or on the hex across it."""
        board = self.board
        if int(board.hexside[h, k]) & self.wall_bits:
            return True
        other = int(board.neighbours[h, k])
        return other >= 0 and bool(int(board.hexside[other, (k + 3) % 6]) & self.wall_bits)

    def wall_between(self, h: int, other: int) -> bool:
        for k in range(6):
            if int(self.board.neighbours[h, k]) == other:
                return self.has_wall(h, k)
        return False

    def near_open_far_vertex(self, px: float, py: float, ends) -> bool:
        """B9 (the hex model's reading of a LOS along a wall hexspine, section 2): the pixel lies within
        6 px of the far vertex of a hexside that runs out from a vertex of an end's hex, that hexside has
        a wall or hedge, and the vertex does not have one on both its other hexsides.  The hexside runs
        between two neighbours P and Q of the end that are neighbours of each other; its far vertex is
        shared with the third hex R next to both P and Q; in lattice units it is the end's centre plus
        twice the offset of the end's vertex shared with P and Q (the mean of the three centres)."""
        board = self.board
        for end in ends:
            around = [int(n) for n in board.neighbours[end] if n >= 0]
            for p in around:
                for q in around:
                    if p >= q or q not in [int(n) for n in board.neighbours[p]]:
                        continue
                    beyond = [int(r) for r in board.neighbours[p] if r >= 0 and r != end and
                              r in [int(n) for n in board.neighbours[q]]]
                    if not beyond or not self.wall_between(p, q):
                        continue
                    r = beyond[0]
                    if self.wall_between(p, r) and self.wall_between(q, r):
                        continue   # walls on all three hexsides of the far vertex: it counts
                    vx = (int(board.x[end]) + int(board.x[p]) + int(board.x[q])) / 3
                    vy = (int(board.y[end]) + int(board.y[p]) + int(board.y[q])) / 3
                    fx = (2 * vx - int(board.x[end])) * PX_X
                    fy = (2 * vy - int(board.y[end])) * PX_Y
                    if (px - fx) ** 2 + (py - fy) ** 2 <= 36.0:
                        return True
        return False

    def vertex_touched(self, h: int, a: int, b: int) -> bool:
        """Whether the segment between the centres of ``a`` and ``b`` meets hex ``h``'s hexagon at one corner
        alone: a corner strictly inside the segment whose two neighbouring corners lie strictly on one side
        of its line (exact lattice integers: corners at the centre plus (+-2, 0), (+-1, +-1))."""
        x, y = self.board.x.astype(np.int64), self.board.y.astype(np.int64)
        ax, ay, bx, by = int(x[a]), int(y[a]), int(x[b]), int(y[b])
        hx, hy = int(x[h]), int(y[h])
        ring = [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)]

        def side(px, py):
            return (bx - ax) * (py - ay) - (by - ay) * (px - ax)

        for k, (dx, dy) in enumerate(ring):
            vx, vy = hx + dx, hy + dy
            along = (vx - ax) * (bx - ax) + (vy - ay) * (by - ay)
            if side(vx, vy) != 0 or not 0 < along < (bx - ax) ** 2 + (by - ay) ** 2:
                continue
            before, after = ring[k - 1], ring[(k + 1) % 6]
            return side(hx + before[0], hy + before[1]) * side(hx + after[0], hy + after[1]) > 0
        return False

    def pixels(self, a: int, b: int):
        """The walked pixels from the centre dot of ``a`` to that of ``b`` (ends excluded), clipped to the art."""
        ax, ay, bx, by = self.cx[a], self.cy[a], self.cx[b], self.cy[b]
        n = int(math.ceil(max(abs(bx - ax), abs(by - ay))))
        w, h = self.art_class.shape
        out = []
        for i in range(1, n):
            t = i / n
            if self.drawn:
                x, y = math.floor(ax + t * (bx - ax)), math.floor(ay + t * (by - ay))
            else:
                x, y = int(np.rint(ax + t * (bx - ax))), int(np.rint(ay + t * (by - ay)))
            out.append((min(max(x, 0), w - 1), min(max(y, 0), h - 1)))
        return out

    def hex_hindrance(self, h: int) -> tuple[int, int, bool]:
        """Hex ``h``'s own hindrance from its terrain: (largest DRM of its hindrance terrains, the tallest
        one's height in half levels, whether any of them is inherent)."""
        rs = self.board.ruleset
        drm, height, inherent = 0, 0, False
        for t in range(len(rs.terrain_names)):
            if int(self.board.terrain[h]) >> t & 1 and rs.terrain_los_role[t] == HINDRANCE:
                drm = max(drm, int(rs.terrain_hindrance[t]))
                height = max(height, 1 if rs.terrain_half_level[t] else (int(rs.terrain_height[t]) or 2))
                inherent = inherent or bool(rs.terrain_inherent[t])
        return drm, height, inherent

    def along_hexsides(self, a: int, b: int) -> bool:
        """Whether the segment between the centres of ``a`` and ``b`` runs along hexsides: a line at 0 or
        +-60 degrees (lattice ``dy == 0`` or ``|dx| == |dy|``), which alternates between hex centres (even
        ranges) and hexsides (odd ranges)."""
        dx = int(self.board.x[b]) - int(self.board.x[a])
        dy = int(self.board.y[b]) - int(self.board.y[a])
        return a != b and (dy == 0 or abs(dx) == abs(dy))

    def inherent_terrain(self, h: int):
        """Hex ``h``'s inherent terrain (B.6) as a pixel's terrain: ``(obstacle height, obstacle height from
        above (B14.2), hindrance DRM, hindrance height)``, heights in half levels and the hindrance's as VASL's
        terrain table reads it (half-level terrain, crags and graveyards: 1); None when it has none."""
        rs = self.board.ruleset
        mask = int(self.board.terrain[h])
        obstacle = above = drm = height = 0
        found = False
        for t in range(len(rs.terrain_names)):
            if not (mask >> t & 1 and rs.terrain_inherent[t]):
                continue
            found = True
            if rs.terrain_obstacle_from_above[t]:
                above = max(above, int(rs.terrain_height[t]))
            if rs.terrain_los_role[t] == OBSTACLE:
                obstacle = max(obstacle, int(rs.terrain_height[t]))
            elif rs.terrain_los_role[t] == HINDRANCE:
                drm = max(drm, int(rs.terrain_hindrance[t]))
                half = rs.terrain_half_level[t] or rs.terrain_names[t] in ("crag", "graveyard")
                height = max(height, 1 if half else (int(rs.terrain_height[t]) or 2))
        return (obstacle, above, drm, height) if found else None

    def run_views(self, hx: int, a: int, b: int, per_range: bool):
        """How a walked pixel of hex ``hx`` (not an end's) is judged: a list of ``(hex, inherent)``, ``inherent``
        None for the pixel's own terrain, else :meth:`inherent_terrain` of that hex.

        Without ``per_range``, or off a LOS along hexsides, or in a hex at an even range from ``a``: the pixel
        as itself in ``hx``.  Per range (VASL's engine, docs/vasl-agreement.md "A LOS along hexsides"), a pixel
        of a hex at an odd range from ``a`` on a LOS along hexsides lies on the hexside between ``hx`` and the
        other hex beside it (:meth:`hindrance_key`): it is judged as each of the two, ``hx`` first, a hex of
        inherent terrain as that terrain whatever is drawn there, each hex's counters met there; both hexes are
        at one range from either end, so a hindrance counts once, at the larger DRM."""
        if not per_range or not self.along_hexsides(a, b) or int(self.distance(a, hx)) % 2 == 0:
            return [(hx, None)]
        sides = [hx] + sorted(h for h in self.hindrance_key(hx, a, b) if h != hx)
        return [(h, self.inherent_terrain(h)) for h in sides if h not in (a, b)]

    def extended_border(self, h: int):
        """VASL's "extended" border of hex ``h`` (model="vasl"): its six vertices in pixels (the centre dot plus
        ``(+-18.75, -+32.25)``, ``(+-37.5, 0)``), each truncated to whole pixels and moved a pixel outwards
        (up and left for the top-left vertex, up and right for the top-right, right for the right one, ...),
        in order from the top-left one clockwise (docs/vasl-agreement.md, "An end's hex")."""
        x, y = float(self.cx[h]), float(self.cy[h])
        out = ((-1, -1), (1, -1), (1, 0), (1, 1), (-1, 1), (-1, 0))
        corners = ((-PX_X, -PX_Y), (PX_X, -PX_Y), (2 * PX_X, 0.0), (PX_X, PX_Y), (-PX_X, PX_Y), (-2 * PX_X, 0.0))
        return [(math.trunc(x + dx) + ox, math.trunc(y + dy) + oy) for (dx, dy), (ox, oy) in zip(corners, out)]

    def in_extended_border(self, h: int, px: int, py: int) -> bool:
        """Whether pixel ``(px, py)`` lies in :meth:`extended_border` of ``h`` as ``java.awt.Polygon.contains``
        reads it: inside its bounding box (left and top edges in, right and bottom out), then an odd number of
        the polygon's non-horizontal edges crossed by the ray to the left of the point, each edge's rows half
        open (its end of smaller y in, of larger y out)."""
        poly = self.extended_border(h)
        xs, ys = [p[0] for p in poly], [p[1] for p in poly]
        if not (min(xs) <= px < max(xs) and min(ys) <= py < max(ys)):
            return False
        hits = 0
        for k in range(len(poly)):
            (x0, y0), (x1, y1) = poly[k - 1], poly[k]
            if y0 == y1 or px >= max(x0, x1) or not min(y0, y1) <= py < max(y0, y1):
                continue
            if px < min(x0, x1):
                hits += 1
                continue
            # the edge's x at the point's row, left of the point: start from its upper end, as Java does
            ux, uy = (x1, y1) if y1 < y0 else (x0, y0)
            if px - ux < (py - uy) / (y0 - y1) * (x0 - x1):
                hits += 1
        return hits % 2 == 1

    def vasl_pixels(self, a: int, b: int):
        """The pixels VASL's engine visits from ``a``'s centre dot to ``b``'s (model="vasl"), ends' pixels
        included: from the truncated source centre (sx, sy) to the truncated target centre (tx, ty), one
        column at a time (|tx - sx| + 1 columns), each column from the row where the line enters it to
        the row where it leaves it, both truncated, the line moving (ty - sy) / columns rows per column;
        clipped to the art."""
        from fractions import Fraction

        sx, sy = math.floor(self.cx[a]), math.floor(self.cy[a])
        tx, ty = math.floor(self.cx[b]), math.floor(self.cy[b])
        w, h = self.art_class.shape
        columns = abs(tx - sx) + 1
        step_x = 1 if tx >= sx else -1
        step_y = 1 if ty >= sy else -1
        slope = Fraction(ty - sy, columns)
        out = []
        for k in range(columns):
            first = math.floor(sy + k * slope)
            last = math.floor(sy + (k + 1) * slope)
            for y in range(first, last + step_y, step_y):
                out.append((min(max(sx + k * step_x, 0), w - 1), min(max(y, 0), h - 1)))
        return out

    def sees_vehicle(self, end: int, vehicle_hex: int, counters) -> bool:
        """VASL's reading: whether ``end``'s ground Location sees ``vehicle_hex``'s (this walk, VASL's
        counting, the same SMOKE and no vehicles, nor the viewer's SMOKE extra)."""
        no_vehicles = (counters[0], counters[1], np.zeros_like(np.asarray(counters[2]))) + tuple(counters[3:])
        return not self.detail(end, vehicle_hex, 0, 0, True, no_vehicles, viewer_rules=False)["blocked"]

    def end_smoke(self, end: int, level: int, counters) -> int:
        """A24: the DRM of the SMOKE in an end's own hex when the end's Location lies inside it (its
        absolute level in half levels below the SMOKE's top), else 0."""
        if counters is None:
            return 0
        smoke, smoke_top = int(counters[0][end]), int(counters[1][end])
        inside = self.smoke_base(end, counters) <= self.height2(end, level) < smoke_top
        return smoke if smoke > 0 and inside else 0

    # ------------------------------------------------------------------ the walk
    def smoke_base(self, h: int, counters) -> int:
        """The base in half levels of the SMOKE of hex ``h``: ``counters[3][h]`` (the height of the Location
        it is in) when given, else the hex's ground."""
        if len(counters) > 3:
            return int(counters[3][h])
        return 2 * int(self.board.ground_level[h])

    def height2(self, end: int, level: int) -> int:
        """The height of Location (end, level) in half levels: twice its ground level plus its level, half a
        level less on a rooftop (the Location above a multi-hex building's top level, VASL's reading)."""
        board = self.board
        top = int(board.building_levels[end]) + 1
        roof = level > 0 and bool(getattr(board, "rooftop", np.zeros(len(board.names), bool))[end]) and level == top
        return 2 * (int(board.ground_level[end]) + level) - (1 if roof else 0)

    def walk(self, a: int, b: int, level_a: int = 0, level_b: int = 0, per_range: bool = False, counters=None):
        """``(blocked, hindrance)`` of the LOS between Locations (a, level_a) and (b, level_b); see :meth:`detail`."""
        result = self.detail(a, b, level_a, level_b, per_range, counters)
        return result["blocked"], result["hindrance"]

    def detail(self, a: int, b: int, level_a: int = 0, level_b: int = 0, per_range: bool = False, counters=None,
               viewer_rules: bool = True):
        """The LOS between Locations (a, level_a) and (b, level_b), walked from the smaller index.

        With ``per_range`` the counters are read as VASL's engine reads them: SMOKE between the ends counts
        when both ends are within it or it would make the lower end blind as an obstacle as high as its top;
        a vehicle counts only when
        both ends and its hex are at one level (no continuous-slope exception) and both ends' hexes see
        its hex (their ground Locations, by this same walk without vehicles), and, with
        ``viewer_rules`` (the LOS as asked, from its viewer ``a``; off in the walks this one makes itself), SMOKE
        in the viewer's own hex adds one more than its DRM, and a LOS that enters another hex over building art
        before it leaves the viewer's building is blocked, reason ``"inside building"``, at the target's hex
        (:func:`tests.reference.vasl_building_reference.must_leave_building_at`; before the walk).

        ``counters``: per-hex arrays ``(smoke DRM, smoke top in half levels (absolute: the hex's ground
        plus the SMOKE's height), vehicle[, smoke base in half levels: the height of the Location the SMOKE
        is in, default the hex's ground])``; each hex the walk meets (outside the ends' hexes) adds its
        SMOKE (when its top reaches the LOS, as a hindrance's) and its vehicle (ends and hex at one level,
        or a continuous slope) once; an end's own SMOKE counts when the end's Location is inside it.

        Returns a dict: ``blocked`` (bool), ``hindrance`` (int, the total so far when blocked),
        ``blocked_at`` (hex index, -1 when clear), ``reason`` (None, "hill", "obstacle", "hexside",
        "blind hex", "hindrance" or, per range, "inside building"), ``slope`` (whether the continuous slope
        held) and ``drm_by_hex`` (hex index -> the DRM that hex added; hexes adding nothing left out).
        """
        out = {"blocked": False, "hindrance": 0, "blocked_at": -1, "reason": None, "slope": False, "drm_by_hex": {}}
        if a == b:
            return out
        if per_range and viewer_rules:
            # VASL's reading of A6.8 Example 2 (docs/vasl-agreement.md, "Leaving the building"), from the viewer:
            # blocked at the target's hex (docs/los-semantics.md section 6), whichever hex the LOS entered
            if must_leave_building_at(self, a, level_a, b, level_b) >= 0:
                out.update(blocked=True, blocked_at=b, reason="inside building")
                return out
        if per_range and counters is not None and viewer_rules:
            # VASL: the viewer's own SMOKE one more, after the walk (the walk itself has no direction)
            result = self.detail(a, b, level_a, level_b, per_range, counters, viewer_rules=False)
            if not result["blocked"] and self.end_smoke(a, level_a, counters) > 0:
                result["hindrance"] += 1
                result["drm_by_hex"][a] = result["drm_by_hex"].get(a, 0) + 1
                if self.cap > 0 and result["hindrance"] >= self.cap:
                    result.update(blocked=True, blocked_at=a, reason="hindrance")
            return result
        if a > b:
            a, b, level_a, level_b = b, a, level_b, level_a
        ground = self.board.ground_level
        la, lb = self.height2(a, level_a), self.height2(b, level_b)
        high = a if la >= lb else b
        low = b if high == a else a
        S, T = max(la, lb), min(la, lb)
        same = S == T
        drm_by_hex = out["drm_by_hex"]

        # depression banks (A6.3): (group ground, bank hexes) of each end whose Location is at level 0
        # (its Location level) of a hex of a depression group
        depressions = []
        low_in_depression = False
        # VASL's reading (per range): the banks bind a lower end in its depression only while the other end
        # is fewer levels higher than the range, a rooftop counted as its whole level
        whole_s = 2 * (int(ground[high]) + (level_a if high == a else level_b))
        unbound = per_range and not same and whole_s - T >= 2 * int(self.distance(a, b))
        for end, level in ((a, level_a), (b, level_b)):
            group = self.group_of[end]
            if level == 0 and group >= 0:
                if end == low and not same:
                    low_in_depression = True
                    if unbound:
                        continue
                depressions.append((self.group_ground[group], self.group_banks[group]))

        def add(hx, drm):
            out["hindrance"] += drm
            drm_by_hex[hx] = drm_by_hex.get(hx, 0) + drm
            return self.cap > 0 and out["hindrance"] >= self.cap

        def block(hx, reason):
            out["blocked"], out["blocked_at"], out["reason"] = True, int(hx), reason
            return out

        def blind_top(top, oh):
            """The obstacle's height in the blind-hex test: VASL's reading (per_range) counts a building of
            N upper levels (an odd height of 3 half levels or more) N levels high, between two ends at
            whole levels (no rooftop end)."""
            if per_range and oh >= 3 and oh % 2 == 1 and S % 2 == 0 and T % 2 == 0:
                return top - 1
            return top

        # the pixels, each given the nearest hex of the exact trace; the ends' pixels are skipped
        trace = self.trace_hexes(a, b)
        walked = []   # (px, py, hex, the point judged: the pixel's centre, or its corner per range)
        half = 0.5 if self.drawn and not per_range else 0.0
        w, h = self.art_class.shape
        for px, py in (self.vasl_pixels(a, b) if per_range else self.pixels(a, b)):
            # the art's last column and row lie on the line where the map ends: judged at their corner
            qx, qy = (px, py) if px >= w - 1 or py >= h - 1 else (px + half, py + half)
            if per_range and self.in_extended_border(a, px, py):
                hx = a   # VASL's engine: a pixel inside an end's extended border is that end's
            elif per_range and self.in_extended_border(b, px, py):
                hx = b
            else:
                hx = self.trace_hex_of(qx, qy, trace, lower_on_tie=per_range)
            if (hx != a and hx != b) or self.own_hex[int(self.art_class[px, py])]:
                walked.append((px, py, hx, qx, qy))
        walked_out = [p for p in walked if p[2] not in (a, b)]

        # continuous slope (B.5): ends on different levels, at least one walked pixel, each S - 2 r_S high
        slope = (not same) and len(walked_out) > 0 and all(
            S - 2 * int(self.art_level[px, py]) == 2 * int(self.distance(high, hx)) for px, py, hx, _, _ in walked_out)
        out["slope"] = slope
        judge_slope = slope and not per_range   # VASL reports a continuous slope but never judges by it

        # the first end's own SMOKE (A24), before the walk
        drm = self.end_smoke(a, level_a, counters)
        if drm and add(a, drm):
            return block(a, "hindrance")

        counted = {}   # hex (or range) -> the terrain DRM it counted
        counter_hexes = set()
        smoke_at, vehicles_at = {}, {}   # per range (VASL's engine): the largest SMOKE DRM, vehicle count
        for px, py, own, qx, qy in walked:
            g = 2 * int(self.art_level[px, py])
            c = int(self.art_class[px, py])
            if own in (a, b):
                # B23.71: a wall between two hexes drawn in an end's hex blocks when that end is below its top
                if g + int(self.obstacle[c]) > (la if own == a else lb):
                    return block(own, "obstacle")
                continue
            # VASL's reading of a LOS along hexsides (per range): a pixel in a hex at an odd range from the
            # viewer is judged as each of the two hexes beside the hexside, an inherent one as its terrain
            for hx, as_terrain in self.run_views(own, a, b, per_range):
                # inherent terrain drawn outside a hex of that terrain is no terrain there (B.6); walls stay
                spill = as_terrain is None and bool(self.inherent_bits[c]) and \
                    not int(self.board.terrain[hx]) & int(self.inherent_bits[c])
                rs_ = int(self.distance(high, hx))
                rt_ = int(self.distance(low, hx))
                if counters is not None and hx not in counter_hexes:
                    counter_hexes.add(hx)
                    smoke, smoke_top, vehicle = (int(array[hx]) for array in counters[:3])
                    hex_ground = 2 * int(ground[hx])
                    base = self.smoke_base(hx, counters)   # A24: the SMOKE from its Location up (ground: G)
                    under = base < S or base == hex_ground   # the higher end above its base
                    drm = 0
                    if per_range:
                        # VASL: both ends within the SMOKE (at or above its base, below its top), or the SMOKE as an
                        # obstacle as high as its top would make the lower end blind (A6.4, VASL's bound)
                        within = T >= base and S < smoke_top
                        blind = S != T and under and rt_ <= max(smoke_top + rs_ // 5 - (S + T) // 2 + 1, 1)
                        smoke_drm = smoke if smoke > 0 and (within or blind) else 0
                        vehicle_drm = vehicle if vehicle and same and hex_ground == S and \
                            self.sees_vehicle(a, hx, counters) and self.sees_vehicle(b, hx, counters) else 0
                        # once per range from the higher end (the terrain's key), the largest SMOKE and, apart
                        # from it, the largest vehicle count: a larger one met later adds the difference
                        for best, value in ((smoke_at, smoke_drm), (vehicles_at, vehicle_drm)):
                            if value > best.get(rs_, 0):
                                drm += value - best.get(rs_, 0)
                                best[rs_] = value
                    else:
                        if smoke > 0 and ((same and smoke_top > S and base <= S)
                                          or (not same and under and (judge_slope or smoke_top >= S))):
                            drm += smoke
                        if vehicle and ((same and hex_ground == S) or judge_slope):
                            drm += vehicle   # each vehicle and wreck in the hex
                    if drm and add(hx, drm):
                        return block(hx, "hindrance")
                key = None if per_range else self.hindrance_key(hx, a, b)
                if key is not None and len(key) == 2:
                    # B.6: a LOS exactly along a hexside passes through the inherent terrain of both hexes
                    # beside it (the ends' hexes excepted): one count, at the larger DRM, whatever the art
                    run_drm = 0
                    for side in key:
                        drm, height, inherent = self.hex_hindrance(side)
                        ground2 = 2 * int(ground[side])
                        top = ground2 + height
                        if side not in (a, b) and inherent and drm > 0 and (
                                judge_slope or (same and top > S and ground2 <= S) or (not same and top >= S)):
                            run_drm = max(run_drm, drm)
                    if run_drm > counted.get(key, 0):
                        more = run_drm - counted.get(key, 0)
                        counted[key] = run_drm
                        if add(hx, more):
                            return block(hx, "hindrance")
                if self.wall[c] > 0 and not self.wall_touches_end(qx, qy, hx, (a, b)) and \
                        not self.near_open_far_vertex(qx, qy, (a, b)):
                    top = g + int(self.wall[c])
                    if judge_slope or (same and top > S) or (not same and top >= S):
                        return block(hx, "hexside")
                if as_terrain is None:   # the pixel's own terrain (none under a wall, nor spilled inherent art)
                    bare = self.wall[c] > 0 or spill
                    oh, hind = (0, 0) if bare else (int(self.obstacle[c]), int(self.hindrance[c]))
                    above = 0 if bare else int(self.above[c])
                    hind_height = int((self.hindrance_height_vasl if per_range else self.hindrance_height)[c])
                else:   # the hex's inherent terrain at the pixel's ground, whatever is drawn (a wall judged above)
                    oh, above, hind, hind_height = as_terrain
                if not same and not judge_slope and S > g and above > oh:
                    oh = above   # B14.2
                reason = None   # the pixel's own result: a block outranks a blind hex (section 2)
                if judge_slope:
                    if oh > 0:
                        reason = "obstacle"
                elif g > S or (not same and g == S and not (rs_ == 1 and 2 * int(ground[hx]) < S and not low_in_depression)):
                    # ground at S in a hex next to the higher end whose own ground is lower than S is the
                    # crest line of an adjacent lower hex (B10.2 EXC), no height advantage, unless the lower
                    # end is IN a depression (A6.3 decides there)
                    reason = "hill"
                else:
                    crest_blind = not same and T < g < S and rt_ <= max(0, (2 * g + 2 * (rs_ // 5) - S - T) // 2)
                    top = g + oh
                    if oh > 0 and ((same and top > S) or (not same and top >= S)):
                        reason = "obstacle"
                    elif crest_blind:
                        reason = "blind hex"   # blind hex behind a bare crest
                    elif oh > 0 and not same and blind_top(top, oh) > T and \
                            rt_ <= max(1, (2 * blind_top(top, oh) + 2 * (rs_ // 5) - S - T + 2) // 2):
                        reason = "blind hex"   # blind hex behind an obstacle
                if reason is None or reason == "blind hex":
                    # depression bank (A6.3): a bank of an end's group, the pixel above the group's ground
                    for group_ground, banks in depressions:
                        if hx in banks and int(self.art_level[px, py]) > group_ground:
                            reason = "hill"
                if reason is not None:
                    return block(hx, reason)
                if hind > 0:
                    top = g + hind_height
                    applies = judge_slope or (same and top > S and g <= S) or (not same and top >= S)
                    if per_range and max(rs_, rt_) >= int(self.distance(a, b)):
                        applies = False   # VASL's engine: only hexes nearer both ends than the ends' range
                    key = rs_ if per_range else key
                    if not per_range and not self.hindrance_inherent[c] and self.vertex_touched(hx, a, b):
                        applies = False   # B.6: only inherent terrain hinders through a vertex of its hex
                    if applies and hind > counted.get(key, 0):
                        # once per hex (or range), at the largest DRM met there: a larger one adds the difference
                        more = hind - counted.get(key, 0)
                        counted[key] = hind
                        if add(hx, more):
                            return block(hx, "hindrance")

        # the other end's own SMOKE (A24), after the walk
        drm = self.end_smoke(b, level_b, counters)
        if drm and add(b, drm):
            return block(b, "hindrance")
        return out
