"""The compiled board: a whole map as dense numpy arrays, ready for the kernels.

:func:`compile_scenario` composes a parsed scenario's mapboard (:mod:`kernel.maps.composition`) and compiles it
under its ruleset (:mod:`kernel.maps.rulesets`) into a :class:`Board`; :func:`kernel.load` (:mod:`kernel.loading`)
reads the files first.  Hot data is a handful of arrays indexed by the global hex index (column-major order: by
``x`` then ``y``); names live in a tuple and a dict beside them, never in the kernels.

Heights (``obstacle_height``, ``hindrance_height``) are in **half levels** so that walls and hedges (half-level
obstacles) stay integer; ground and Location levels are whole levels.  :class:`Board` shows one.
"""

from __future__ import annotations


import numpy as np

from kernel._cache import BoardCache
from kernel._dtypes import COORD, HEX_INDEX, HEXSIDE_MASK, HINDRANCE, LEVEL, NO_HEX, TERRAIN_MASK
from kernel._limits import MAX_MAP_HEXES, MAX_TRACE_ENTRIES, trace_entries_bound
from kernel.maps.specs import BoardFileError, BoardPlacement, ScenarioSpec
from kernel.grid.coordinates import format_coordinate, parse_hex
from kernel.grid.references import HexRef
from kernel.grid.lattice import CENTRE_STEP
from kernel.maps.composition import Composition, compose
from kernel.maps.rulesets import LOS_HINDRANCE, LOS_OBSTACLE, Ruleset, load_ruleset
from kernel.maps.board_locations import LocationNames

_SEAM_NAMES = BoardCache("seam names")   # per map, the other names of its merged half hexes (Board.index)


class Board(LocationNames):
    """A compiled map under one ruleset; its arrays have length ``N = len(board)`` unless noted.

    Attributes
    ----------
    x, y : int32
        Exact lattice centre (:mod:`kernel.grid.lattice`).
    col, row : int32
        Lattice column and row.
    neighbours : int32, shape (N, 6)
        Hex across each hexside (0 = N, clockwise), ``NO_HEX`` (-1) off the map.
    cell_index : int32, shape (columns + 2, rows + 2)
        Hex at lattice ``(col + 1, row + 1)``; a border of ``NO_HEX`` pads it so that a lookup one step off the map
        needs no bounds check.
    terrain : uint32
        Bit ``t`` set when the hex holds terrain type ``t`` of the ruleset.
    ground_level, building_levels : int16
        Ground level; number of upper building levels (Locations h1..hN).
    bridge_deck : bool
        The hex holds a bridge deck (a terrain type with ``deck = true``): Location h1 is on the bridge, one level
        above the hex's ground, and h0 beneath it (A2.2 ``Bridge/2I9``).  A bridge hex has no upper building levels.
    rooftop : bool
        The hex has a rooftop Location one level above its top building level: a building hex with upper levels
        that is part of a multi-hex building (``HexSpec.rooftop``, or by default: its building touches a hexside
        across which lies another building hex).  Its name is the hex's with ``roof`` (``"15G5roof"``,
        :meth:`rooftop_name`).
    top_level : int16
        Highest Location level of the hex (``building_levels + bridge_deck + rooftop``).
    obstacle_height : int16
        Height of the hex's LOS obstacle in half levels (0: none).
    obstacle_inherent : bool
        The obstacle is inherent terrain (B.6: counts even touched at a vertex).
    hindrance : int16
        The hex's hindrance DRM (the largest of its hindrance features; 0: none).
    hindrance_height : int16
        Height of its hindrance in half levels (half-level terrain: 1).
    hindrance_inherent : bool
        The hindrance is inherent terrain (B.6).
    hexside : uint16, shape (N, 6)
        Bit ``k`` set when hexside type ``k`` lies on that hexside; both hexes sharing a hexside hold the same bits.
    touches : uint8
        Bit ``d`` set when the hex's obstacle touches hexside ``d`` (no Bypass along it, A4.3).
    location_offset : int32, shape (N + 1,)
        Locations of hex ``i`` are ``location_offset[i]:location_offset[i+1]`` in ``location_hex`` /
        ``location_level`` (level relative to ground).

    See Also
    --------
    kernel.load : the usual way to get one.
    kernel.random_board : a seeded random one.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> len(board), board.terrain_of("71P5"), int(board.top_level[board.index("71P5")]), board.neighbours.shape
    (1332, ['stone-building'], 3, (1332, 6))
    >>> board.location_name(board.index("71P5"), 3)     # above its two upper levels: the rooftop
    '71P5roof'
    """

    def __init__(self, ruleset: Ruleset, composition: Composition, title: str, source: str,
                 boards: list[BoardPlacement] | None = None):
        self.ruleset = ruleset
        self.title = title
        self.source = source
        self.boards = [(p.id, p.row, p.column, p.rotated) for p in (boards or [])]
        self.placements = tuple(boards or ())  # the boards' specs as placed (their art: kernel.maps.art)
        #: How the map is printed, ``"flat"`` or ``"pointy"`` (its first board file's ``orientation``).
        self.orientation: str = self.placements[0].board.orientation if self.placements else "flat"
        hexes = sorted(composition.hexes.values(), key=lambda h: (h.x, h.y))
        n = len(hexes)
        if not 0 < n <= MAX_MAP_HEXES:
            raise BoardFileError(f"{source}: the map has {n} hexes: expected 1..{MAX_MAP_HEXES}")
        self.names: tuple[str, ...] = tuple(h.name for h in hexes)
        self._index = {name: i for i, name in enumerate(self.names)}
        if len(self._index) != n:
            seen: dict[str, int] = {}
            for name in self.names:
                seen[name] = seen.get(name, 0) + 1
            duplicates = sorted(k for k, v in seen.items() if v > 1)
            raise BoardFileError(f"{source}: hex names {duplicates[:5]} occur more than once: renumber a board with 'as NUMBER'")
        self.x = np.array([h.x for h in hexes], dtype=COORD)
        self.y = np.array([h.y for h in hexes], dtype=COORD)
        self.col = (self.x // 3).astype(COORD)
        span_dc, span_dy = int(self.col.max() - self.col.min()), int(self.y.max() - self.y.min())
        entries = trace_entries_bound(span_dc, span_dy)
        if entries > MAX_TRACE_ENTRIES:
            raise BoardFileError(f"{source}: the map spans {span_dc + 1} hex columns by {span_dy // 2 + 1} hex rows "
                                 f"for {n} hexes; its trace templates would take about {entries:,} entries: expected "
                                 f"at most {MAX_TRACE_ENTRIES:,} (place the boards next to each other)")
        self.row = ((self.y - 1 + self.col % 2) // 2).astype(COORD)
        self.board_id = tuple(h.board for h in hexes)
        self.overlay = tuple(h.overlay for h in hexes)
        self.merged = np.array([h.half_count == 2 for h in hexes], dtype=np.bool_)

        self.cell_index = np.full((int(self.col.max()) + 3, int(self.row.max()) + 3), NO_HEX, dtype=HEX_INDEX)
        self.cell_index[self.col + 1, self.row + 1] = np.arange(n, dtype=HEX_INDEX)
        self.neighbours = np.full((n, 6), NO_HEX, dtype=HEX_INDEX)
        for direction in range(6):
            dx, dy = CENTRE_STEP[direction]
            nx = self.x + dx
            ny = self.y + dy
            ncol = nx // 3
            nrow = (ny - 1 + ncol % 2) // 2
            inside = (ncol >= -1) & (nrow >= -1) & (ncol <= self.cell_index.shape[0] - 2) & (nrow <= self.cell_index.shape[1] - 2)
            found = np.full(n, NO_HEX, dtype=HEX_INDEX)
            found[inside] = self.cell_index[ncol[inside] + 1, nrow[inside] + 1]
            self.neighbours[:, direction] = found

        # Terrain features, levels and hexside features.
        self.terrain = np.zeros(n, dtype=TERRAIN_MASK)
        self.ground_level = np.zeros(n, dtype=LEVEL)
        self.building_levels = np.zeros(n, dtype=LEVEL)
        explicit_touch = np.full(n, -1, dtype=np.int16)
        explicit_rooftop = np.full(n, -1, dtype=np.int8)
        #: The hex's building levels are joined by a stairway (``HexSpec.stairway``; default: yes).
        self.stairway = np.ones(n, dtype=np.bool_)
        for i, h in enumerate(hexes):
            mask = 0
            for name in h.spec.terrain:
                t = ruleset.terrain_index(name)
                if ruleset.terrain_art_only[t]:
                    raise BoardFileError(
                        f"{source}: hex {h.name}: terrain {name!r} is drawn only in a map's art (art_only in ruleset "
                        f"{ruleset.name!r}): expected a terrain a hex can hold")
                mask |= 1 << t
            self.terrain[i] = mask
            self.ground_level[i] = h.spec.level
            self.building_levels[i] = h.spec.building_levels
            if h.spec.touch is not None:
                explicit_touch[i] = h.spec.touch
            if h.spec.rooftop is not None:
                explicit_rooftop[i] = int(bool(h.spec.rooftop))
            if h.spec.stairway is not None:
                self.stairway[i] = bool(h.spec.stairway)
        deck_mask = sum(1 << t for t in range(len(ruleset.terrain_names)) if ruleset.terrain_deck[t])
        self.bridge_deck = (self.terrain & np.uint32(deck_mask)) != 0
        both = np.flatnonzero(self.bridge_deck & (self.building_levels > 0))
        if both.size:
            raise BoardFileError(
                f"{source}: hex {self.names[both[0]]} has a bridge deck and {int(self.building_levels[both[0]])} "
                "building levels: expected at most one of them (the deck is the hex's Location h1)")
        self.hexside = np.zeros((n, 6), dtype=HEXSIDE_MASK)
        key_to_side: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for direction in range(6):
            dx, dy = CENTRE_STEP[direction]
            for i in range(n):
                key = (2 * int(self.x[i]) + int(dx), 2 * int(self.y[i]) + int(dy))
                key_to_side.setdefault(key, []).append((i, direction))
        for key, features in composition.hexsides.items():
            mask = 0
            for name in features:
                mask |= 1 << ruleset.hexside_index(name)
            for i, direction in key_to_side.get(key, []):
                self.hexside[i, direction] = mask
        self._derive_los_arrays(explicit_touch)
        self._derive_rooftops(explicit_rooftop)
        self.top_level = (self.building_levels + self.bridge_deck + self.rooftop).astype(LEVEL)
        self._build_locations()
        for array in self.arrays().values():
            array.setflags(write=False)

    # ------------------------------------------------------------------ derived
    def _derive_los_arrays(self, explicit_touch: np.ndarray) -> None:
        (self.obstacle_height, self.obstacle_inherent, self.hindrance, self.hindrance_height,
         self.hindrance_inherent, self.obstacle_from_above, bypass_mask) = terrain_los_values(
            self.ruleset, self.terrain, self.building_levels)
        n = len(self.names)
        # Obstacle touches a hexside when the hex across holds the same bypassable obstacle.
        own = self.terrain & np.uint32(bypass_mask)
        touches = np.zeros(n, dtype=np.uint8)
        for direction in range(6):
            other = self.neighbours[:, direction]
            across = np.where(other >= 0, self.terrain[np.maximum(other, 0)], 0).astype(TERRAIN_MASK)
            shared = (own & across) != 0
            touches |= (shared.astype(np.uint8) << direction)
        touches = np.where(explicit_touch >= 0, explicit_touch, touches).astype(np.uint8)
        self.touches = np.where(own != 0, touches, 0).astype(np.uint8)
        self.bypassable = own != 0

    def _build_locations(self) -> None:
        counts = 1 + self.top_level.astype(np.int32)
        self.location_offset = np.zeros(len(self.names) + 1, dtype=np.int32)
        np.cumsum(counts, out=self.location_offset[1:])
        self.location_hex = np.repeat(np.arange(len(self.names), dtype=HEX_INDEX), counts)
        self.location_level = (np.arange(self.location_offset[-1]) - self.location_offset[self.location_hex]).astype(LEVEL)

    # ------------------------------------------------------------------ names
    def __len__(self) -> int:
        return len(self.names)

    def __repr__(self) -> str:
        return f"<Board {self.title!r}: {len(self)} hexes, ruleset {self.ruleset.name}>"

    def index(self, name) -> int:
        """Global index of a hex given by name (``"2I9"``, ``"32oE7"``) or index.

        The other name of a merged edge half hex (``"71GG7"``, merged into ``"72A7"``; VASL names a merged
        seam hex after the board it places later, ``"3B0"`` for A2.2's ``"2B10"``) is another name of the same
        hex (:func:`kernel.grid.references.merged_half_hex_names`); outputs keep the A2.2 name (:attr:`names`).

        Raises
        ------
        KeyError
            If the hex is not on this map (the message names it and the map).
        ValueError
            If the name is not a valid grid coordinate.
        """
        if type(name) is int and 0 <= name < len(self.names):  # the common case of an engine's loop
            return name
        if isinstance(name, (int, np.integer)) and not isinstance(name, bool):
            if not 0 <= int(name) < len(self):
                raise IndexError(f"hex index {int(name)} out of range: expected 0..{len(self) - 1}")
            return int(name)
        if not isinstance(name, str):
            raise TypeError(f"hex is {name!r}: expected a name like '2I9' or an index, not a {type(name).__name__}")
        found = self._index.get(name)
        if found is not None:  # a canonical name: no parsing needed
            return found
        if self.names_a_location(name):
            hex_index, level = self.location(name)
            raise ValueError(f"{name!r} is a Location (level {level} of {self.names[hex_index]}): expected a hex "
                             f"here, like {self.names[hex_index]!r}")
        ref = parse_hex(name)
        canonical = format_coordinate(HexRef(ref.board, ref.column, ref.number))
        found = self._index.get(canonical)
        if found is None:   # the other half of a merged edge half hex: another name of the merged hex
            from kernel.grid.references import merged_half_hex_names

            found = _SEAM_NAMES.get(self, "other names", lambda: merged_half_hex_names(self)).get(canonical)
            if found is None:
                raise KeyError(f"hex {name!r} is not on this map ({self.title}; {len(self)} hexes, e.g. {self.names[0]!r})")
        if ref.overlay and self.overlay[found] is None:
            raise KeyError(f"hex {name!r}: {canonical} is not covered by an overlay: expected {canonical!r}")
        return found

    def indices(self, names) -> np.ndarray:
        """Global indices of many hexes (names or indices) as an int32 array."""
        if isinstance(names, (str, bytes)) or not hasattr(names, "__iter__"):
            raise TypeError(f"hexes must be a sequence of names or indices, not {type(names).__name__}")
        if isinstance(names, np.ndarray) and names.ndim != 1:
            raise ValueError(f"hexes have shape {names.shape}: expected a one-dimensional array")
        if isinstance(names, np.ndarray) and names.dtype.kind not in "iuUO":
            raise TypeError(f"hexes have dtype {names.dtype}: expected integer indices or names")
        if isinstance(names, np.ndarray) and names.dtype.kind in "iu":
            if names.size and (names.min() < 0 or names.max() >= len(self)):
                bad = names[(names < 0) | (names >= len(self))][0]
                raise IndexError(f"hex index {int(bad)} out of range: expected 0..{len(self) - 1}")
            return names.astype(HEX_INDEX)
        return np.array([self.index(name) for name in names], dtype=HEX_INDEX)

    def distance(self, a, b):
        """Range in hexes between hexes ``a`` and ``b`` (names or indices): two hexes give an int; arrays
        or sequences of hexes give an int32 array, broadcast against each other as numpy does (one hex
        against many, equal shapes pair by pair, a column ``(K, 1)`` against a row ``(M,)`` every pair).

        Raises
        ------
        ValueError
            The shapes of ``a`` and ``b`` do not broadcast.

        Examples
        --------
        >>> import numpy as np
        >>> from kernel import load
        >>> board = load("71")
        >>> board.distance("71I4", "71I6"), board.distance(["71I4", "71I4"], ["71Q5", "71I4"]).tolist()
        (2, [8, 0])
        >>> board.distance(["71I6", "71Q5"], "71I4").tolist()        # many against one
        [2, 8]
        >>> board.distance(np.array([["71I4"], ["71I5"]]), ["71I4", "71I6", "71Q5"]).tolist()   # every pair
        [[0, 2, 8], [1, 1, 8]]
        """
        n = len(self.names)
        if type(a) is int and type(b) is int and 0 <= a < n and 0 <= b < n:  # an engine's loop: no arrays
            col, y = self.col, self.y
            across = abs(int(col[b]) - int(col[a]))
            return max(across, (across + abs(int(y[b]) - int(y[a]))) // 2)
        ia, ib = self._hex_array(a, "a"), self._hex_array(b, "b")
        if ia.ndim == 0 and ib.ndim == 0:
            return int(self.index_distance(ia, ib))
        try:
            return self.index_distance(ia, ib)
        except ValueError:
            raise ValueError(f"distance: a has shape {ia.shape} and b {ib.shape}: expected shapes that broadcast "
                             "(equal, one hex against many, or (K, 1) against (M,))") from None

    def _hex_array(self, hexes, what: str) -> np.ndarray:
        """Hex indices of one hex (a 0-d array) or of an array or sequence of hexes (any shape), checked."""
        if type(hexes) is np.ndarray and hexes.dtype.kind in "iu":  # the common case first
            if hexes.size and (hexes.min() < 0 or hexes.max() >= len(self.names)):
                bad = hexes[(hexes < 0) | (hexes >= len(self.names))].ravel()[0]
                raise IndexError(f"distance: {what}: hex index {int(bad)} out of range: expected 0..{len(self) - 1}")
            return hexes
        if isinstance(hexes, (str, int, np.integer)) and not isinstance(hexes, (bool, np.bool_)):
            return np.asarray(self.index(hexes), HEX_INDEX)
        array = np.asarray(hexes) if isinstance(hexes, (list, tuple, np.ndarray)) else None
        if array is None:
            raise TypeError(f"distance: {what} is {hexes!r}: expected a hex (a name or an index) or hexes")
        if array.dtype.kind in "iu":
            if array.size and (array.min() < 0 or array.max() >= len(self)):
                bad = array[(array < 0) | (array >= len(self))].ravel()[0]
                raise IndexError(f"distance: {what}: hex index {int(bad)} out of range: expected 0..{len(self) - 1}")
            return array.astype(HEX_INDEX, copy=False)
        if array.size == 0:
            return array.astype(HEX_INDEX)
        if array.dtype.kind not in "UO":
            raise TypeError(f"distance: {what} has dtype {array.dtype}: expected hex names or indices")
        return np.array([self.index(name) for name in array.ravel().tolist()], HEX_INDEX).reshape(array.shape)

    def index_distance(self, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
        """Range in hexes between arrays of hex indices of one shape that are already checked
        (as :meth:`indices` returns them): :meth:`distance` without the checks, for wrappers
        that have validated their input once (int32 array; the two broadcast against each other)."""
        col, y = self.col, self.y  # int32: a difference of two fits
        across = np.abs(col[ib] - col[ia])
        return np.maximum(across, (across + np.abs(y[ib] - y[ia])) >> 1)

    def adjacent(self, hex_) -> list[int]:
        """Indices of the hexes next to ``hex_`` (name or index) on this map, by hexside direction 0..5.

        >>> from kernel import load
        >>> board = load("71")
        >>> [board.name(i) for i in board.adjacent("71I4")]
        ['71I3', '71J3', '71J4', '71I5', '71H4', '71H3']
        """
        return [int(n) for n in self.neighbours[self.index(hex_)] if n >= 0]

    def name(self, index: int) -> str:
        """Grid coordinate of the hex at global ``index``."""
        index = int(index)
        if not 0 <= index < len(self):
            raise IndexError(f"hex index {index} out of range: expected 0..{len(self) - 1}")
        return self.names[index]

    # ------------------------------------------------------------------ queries
    def terrain_of(self, index) -> list[str]:
        """Names of the terrain features in a hex."""
        mask = int(self.terrain[self.index(index)])
        return [name for t, name in enumerate(self.ruleset.terrain_names) if mask >> t & 1]

    def hexside_features(self, index, direction: int) -> list[str]:
        """Names of the features on hexside ``direction`` of a hex."""
        mask = int(self.hexside[self.index(index), direction])
        return [name for k, name in enumerate(self.ruleset.hexside_names) if mask >> k & 1]

    def has_terrain(self, name: str) -> np.ndarray:
        """Boolean array: which hexes hold terrain ``name``."""
        return (self.terrain & np.uint32(1 << self.ruleset.terrain_index(name))) != 0

    def arrays(self) -> dict[str, np.ndarray]:
        """The hot numpy arrays of the board, by name."""
        return {k: v for k, v in vars(self).items() if isinstance(v, np.ndarray)}

    @property
    def nbytes(self) -> int:
        """Bytes held by the board's arrays."""
        return sum(a.nbytes for a in self.arrays().values())

    def summary(self) -> dict:
        """Counts of hexes, terrain, hexside features and levels (for ``hexkernel info``)."""
        rs = self.ruleset
        terrain = {name: int(self.has_terrain(name).sum()) for name in rs.terrain_names}
        hexsides = {}
        for k, name in enumerate(rs.hexside_names):
            # each interior hexside is held by two hexes; count hexsides once
            held = (self.hexside & np.uint16(1 << k)) != 0
            doubled = held & (self.neighbours >= 0)
            hexsides[name] = int(doubled.sum() // 2 + (held & (self.neighbours < 0)).sum())
        levels, counts = np.unique(self.ground_level, return_counts=True)
        return {
            "title": self.title,
            "source": self.source,
            "ruleset": rs.name,
            "switches": dict(rs.switches),
            "boards": [
                {"board": b, "row": r, "column": c, "rotated": rot} for b, r, c, rot in self.boards
            ],
            "hexes": len(self),
            "merged_half_hexes": int(self.merged.sum()),
            "overlay_hexes": sum(1 for o in self.overlay if o is not None),
            "locations": int(self.location_offset[-1]),
            "ground_levels": {int(level): int(count) for level, count in zip(levels, counts)},
            "terrain": {k: v for k, v in terrain.items() if v},
            "hexsides": {k: v for k, v in hexsides.items() if v},
            "multi_level_buildings": int((self.building_levels > 0).sum()),
            "bytes_per_hex": round(self.nbytes / len(self), 1),
        }


def terrain_los_values(rs: Ruleset, terrain: np.ndarray, building_levels: np.ndarray):
    """LOS values of terrain masks under ruleset ``rs`` (one per entry of ``terrain``, a uint32 mask
    array, with its ``building_levels``): obstacle height, obstacle inherent, hindrance DRM, hindrance
    height, hindrance inherent, obstacle height from above (B14.2) and the mask of bypassable terrain.
    Used for hexes (:class:`Board`) and for the pixel classes of a board's art (:mod:`kernel.maps.art`)."""
    n = len(terrain)
    obstacle_height = np.zeros(n, dtype=LEVEL)
    obstacle_inherent = np.zeros(n, dtype=np.bool_)
    hindrance = np.zeros(n, dtype=HINDRANCE)
    hindrance_height = np.zeros(n, dtype=LEVEL)
    hindrance_inherent = np.zeros(n, dtype=np.bool_)
    obstacle_from_above = np.zeros(n, dtype=LEVEL)
    bypass_mask = 0
    for t, name in enumerate(rs.terrain_names):
        bit = np.uint32(1 << t)
        has = (terrain & bit) != 0
        role = rs.terrain_los_role[t]
        if rs.terrain_bypass[t]:
            bypass_mask |= 1 << t
        if rs.terrain_obstacle_from_above[t]:
            # B14.2: orchards in season block a LOS from higher ground at their height
            height = int(rs.terrain_height[t])
            obstacle_from_above = np.where(has, np.maximum(obstacle_from_above, height),
                                           obstacle_from_above).astype(LEVEL)
        if role == LOS_OBSTACLE:
            height = np.full(n, rs.terrain_height[t], LEVEL)
            if rs.terrain_multi_level[t]:
                # a building with N upper levels is N + 1/2 levels high (B.1; 2N + 1 half levels)
                height = np.where(building_levels > 0, 2 * building_levels + 1, height)
            obstacle_height = np.where(has, np.maximum(obstacle_height, height), obstacle_height).astype(LEVEL)
            obstacle_inherent |= has & bool(rs.terrain_inherent[t])
        elif role == LOS_HINDRANCE:
            if rs.terrain_half_level[t]:
                height = 1
            elif rs.terrain_height[t] > 0:
                height = int(rs.terrain_height[t])
            else:
                height = 2
            hindrance = np.where(has, np.maximum(hindrance, rs.terrain_hindrance[t]), hindrance).astype(HINDRANCE)
            hindrance_height = np.where(has, np.maximum(hindrance_height, height), hindrance_height).astype(LEVEL)
            hindrance_inherent |= has & bool(rs.terrain_inherent[t])
    return (obstacle_height, obstacle_inherent, hindrance, hindrance_height, hindrance_inherent,
            obstacle_from_above, bypass_mask)


def compile_scenario(scenario: ScenarioSpec) -> Board:
    """Compose and compile a parsed scenario (:func:`kernel.read_scenario`) into a :class:`Board`.

    See Also

    --------

    read_scenario : reads the scenario file this compiles.

    load : reads and compiles a scenario, a board or a saved game by name.


    Examples
    --------
    >>> import kernel
    >>> spec = kernel.read_scenario(kernel.data_dir() / "scenarios" / "vv-village.scenario")
    >>> compile_scenario(spec).names == kernel.load("vv-village").names
    True
    """
    try:
        ruleset = load_ruleset(scenario.ruleset, scenario.switches)
    except ValueError as error:
        raise BoardFileError(f"{scenario.source}: {error}") from None
    composition = compose(scenario)
    return Board(ruleset, composition, scenario.title, scenario.source, scenario.boards)
