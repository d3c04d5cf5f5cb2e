"""Seeded random maps of any size and ruleset, for tests and benchmarks.

Hills are built as a few cones (levels fall by one per hex from each summit,
so slopes are continuous, unless ``cliffs`` makes some fall by two), terrain features are scattered with a chosen
density (sometimes two in one hex), buildings get random upper levels and
hexsides get random features.  The same arguments always give the same map.

Examples
--------
>>> board = random_board("asl", columns=12, rows=8, seed=3)
>>> len(board), board.ruleset.name
(96, 'asl')
>>> bool((random_board("asl", 12, 8, seed=3).terrain == board.terrain).all())
True
"""

from __future__ import annotations

import numpy as np

from kernel._limits import MAX_BOARD_COLUMNS, MAX_BOARD_ROWS, MAX_LEVEL
from kernel.maps.board import Board, compile_scenario
from kernel.maps.specs import LAYOUTS, BoardPlacement, BoardSpec, HexSpec, ScenarioSpec
from kernel.grid.lattice import hex_distance, neighbour
from kernel.maps.rulesets import LOS_OBSTACLE, load_ruleset


def random_board(
    ruleset: str = "asl",
    columns: int = 20,
    rows: int = 12,
    seed: int = 0,
    *,
    layout: str = "rectangular",
    terrain_density: float = 0.35,
    hexside_density: float = 0.08,
    max_level: int | None = None,
    hills: int | None = None,
    cliffs: float = 0.0,
    switches: dict[str, bool] | None = None,
) -> Board:
    """Make a seeded random board.

    Parameters
    ----------
    ruleset : str
        Ruleset name (``"asl"``, ``"valor-victory"``, ``"ccn"``) or path.
    columns, rows : int
        Size of the board (``rows`` hexes per column).
    seed : int
        Seed of the random generator; equal arguments give equal boards.
    layout : str
        ``"rectangular"``, ``"geomorphic"`` or ``"staggered"``.
    terrain_density : float
        Probability that a hex holds terrain features (0..1).
    hexside_density : float
        Probability that a hexside holds a feature (0..1).
    max_level : int, optional
        Highest hill level (0 for flat maps); default 3 for ASL, 2 for V&V,
        1 for CCN (whose hills have one level).
    hills : int, optional
        Number of hill summits (default: about one per 80 hexes).
    cliffs : float
        Probability that a hill falls by two levels per hex instead of one,
        so that neighbouring hexes differ by two levels (V&V 10.7's
        whole-allowance climbs; ASL climbs of two levels).  Default 0.
    switches : dict, optional
        Ruleset switches.

    Raises
    ------
    ValueError
        If a size, density or layout is out of range.

    See Also
    --------
    kernel.load : a map from files (bundled, ``.scenario``, ``.board``, VASL boards).

    Examples
    --------
    >>> import kernel
    >>> board = kernel.random_board("valor-victory", 8, 6, seed=3)
    >>> len(board), board.ruleset.name
    (48, 'valor-victory')
    >>> bool((kernel.random_board("asl", 8, 6, seed=3).terrain == kernel.random_board("asl", 8, 6, seed=3).terrain).all())
    True
    """
    for name, value in (("columns", columns), ("rows", rows), ("max_level", max_level),
                        ("hills", hills)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, np.integer))):
            raise ValueError(f"{name} is {value!r}: expected an integer")
    if columns < 1 or rows < 1:
        raise ValueError(f"board size {columns}x{rows}: expected at least 1x1")
    if columns > MAX_BOARD_COLUMNS:
        raise ValueError(f"columns is {columns}: expected at most {MAX_BOARD_COLUMNS} (A..ZZ)")
    if rows > MAX_BOARD_ROWS:
        raise ValueError(f"rows is {rows}: expected at most {MAX_BOARD_ROWS}")
    if max_level is not None and max_level > MAX_LEVEL:
        raise ValueError(f"max_level is {max_level}: expected at most {MAX_LEVEL}")
    if hills is not None and not 0 <= hills <= columns * rows:
        raise ValueError(f"hills is {hills}: expected 0..{columns * rows} (at most one summit per hex)")
    for name, value in (("terrain_density", terrain_density), ("hexside_density", hexside_density),
                        ("cliffs", cliffs)):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} is {value!r}: expected a probability in 0..1")
    if layout not in LAYOUTS:
        raise ValueError(f"layout is {layout!r}: expected one of {', '.join(LAYOUTS)}")
    rs = load_ruleset(ruleset, switches)
    if max_level is None:
        max_level = {"asl": 3, "valor-victory": 2, "ccn": 1}[rs.los_model]
    if max_level < 0:
        raise ValueError(f"max_level is {max_level}: expected 0 or more")
    rng = np.random.default_rng(seed)
    spec = BoardSpec(
        source=f"random_board(seed={seed})", kind="board", id="1", ruleset=rs.name if "/" not in str(ruleset) else str(ruleset),
        layout=layout, orientation="flat", columns=columns, rows=rows,
        title=f"random {rs.name} board {columns}x{rows} seed {seed}",
    )
    cells = list(spec.cells())
    lattice = [(c, spec.lattice_row(c, n)) for c, n in cells]
    if hills is None:
        hills = max(1, len(cells) // 80) if max_level > 0 else 0
    levels = np.zeros(len(cells), dtype=np.int64)
    for _ in range(hills if max_level > 0 else 0):   # a flat map has no summits
        summit = lattice[int(rng.integers(len(cells)))]
        height = int(rng.integers(1, max_level + 1))
        drop = 2 if cliffs > 0 and rng.random() < cliffs else 1  # (no draw without cliffs: boards stay as they were)
        for i, (c, r) in enumerate(lattice):
            levels[i] = max(levels[i], height - drop * hex_distance(c, r, summit[0], summit[1]))
    if rs.name == "asl" and max_level > 0:  # a few depressions (gullies)
        for i in np.flatnonzero(rng.random(len(cells)) < 0.02):
            if levels[i] == 0:
                levels[i] = -1

    # terrain drawn only in a map's art (a rowhouse wall's bar) is never a hex's terrain
    names = tuple(name for t, name in enumerate(rs.terrain_names) if not rs.terrain_art_only[t])
    every = rs.terrain_names
    obstacles = [t for t in range(len(every)) if rs.terrain_los_role[t] == LOS_OBSTACLE]
    buildings = [t for t in obstacles if rs.terrain_bypass[t] and "building" in every[t] or every[t] in ("building", "town")]
    for i, cell in enumerate(cells):
        terrain: list[str] = []
        if rng.random() < terrain_density:
            terrain.append(names[int(rng.integers(len(names)))])
            if rng.random() < 0.15:
                second = names[int(rng.integers(len(names)))]
                if second not in terrain:
                    terrain.append(second)
        building_levels = 0
        if any(rs.terrain_index(t) in buildings for t in terrain) and rng.random() < 0.3:
            building_levels = int(rng.integers(1, 3))
        if any(rs.terrain_deck[rs.terrain_index(t)] for t in terrain):
            building_levels = 0  # a bridge deck is the hex's Location h1
        touch = int(rng.integers(0, 64)) if terrain and rng.random() < 0.2 else None
        if terrain or levels[i] != 0:
            spec.hexes[cell] = HexSpec(int(levels[i]), tuple(terrain), building_levels, touch, 0)

    hexside_names = rs.hexside_names
    for cell, (c, r) in zip(cells, lattice):
        for direction in (2, 3, 4):  # each interior hexside once (from its northern hex)
            other_col, other_row = neighbour(c, r, direction)
            other = (other_col, other_row + 1 - other_col % 2)
            if spec.contains(other) and rng.random() < hexside_density:
                count = 1 if rng.random() < 0.85 else 2
                chosen = tuple(dict.fromkeys(hexside_names[int(rng.integers(len(hexside_names)))] for _ in range(count)))
                spec.hexsides[(cell, direction)] = chosen

    scenario = ScenarioSpec(
        source=spec.source, title=spec.title, ruleset=spec.ruleset,
        boards=[BoardPlacement(spec, 0, 0, False, spec.id, 0)], overlays=[], switches=dict(switches or {}),
    )
    return compile_scenario(scenario)
