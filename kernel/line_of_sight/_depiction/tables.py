"""What the depiction kernels read, as one named bundle (private; no numba: the wrappers build it).

:func:`kernel.line_of_sight.depiction.depiction_tables` fills the board's part (its art and the tables
beside it, cached per board, with the rules' or VASL's reading); :func:`~kernel.line_of_sight.depiction.
kernel_tables` adds the per-call counters. The kernels take it as one argument and read it by field name
(numba passes a named tuple of arrays and scalars as it passes its fields).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class DepictionTables(NamedTuple):
    """The depiction kernels' tables of one board and call; levels in half levels."""

    lat_x: np.ndarray             # each hex's lattice x (int64)
    lat_y: np.ndarray             # each hex's lattice y (int64)
    cell_index: np.ndarray        # (columns + 2, rows + 2): the hex at each lattice column and row, -1: none
    neighbours: np.ndarray        # (N, 6): each hex's neighbour across hexside 0-5, -1 off the map
    depression_group: np.ndarray  # each hex's depression group, -1: no depression terrain
    pixels: np.ndarray            # the art (rows, columns): class << 8 | elevation + LEVEL_BIAS per pixel
    pixel_info: np.ndarray        # a hex_info-like row per pixel class and elevation (the rules' or VASL's)
    n_levels: int                 # elevations per class in pixel_info
    level_min: int                # the elevation of each class's first row in pixel_info
    class_wall: np.ndarray        # per class: its wall or hedge height above its ground, 0: none
    class_inherent: np.ndarray    # per class: the inherent terrain it shows (terrain bits, B.6)
    hex_terrain: np.ndarray       # per hex: its terrain bits (VASL's reading beside a hexside run too)
    far_open: np.ndarray          # per hex: bit k, its walled hexspine k's far vertex is not walled all round
    class_own: np.ndarray         # per class: 1 where it blocks in an end's own hex too (B23.71)
    hex_own: np.ndarray           # per hex: the pixels near its centre dot are walked (bool)
    squares: bool                 # drawn art: pixel (x, y) covers [x, x + 1) x [y, y + 1)
    cap: int                      # the hindrance total that blocks
    per_range: bool               # VASL's reading: hindrance once per range from the higher end
    counter_info: np.ndarray | None  # per hex: ground, own hindrance, SMOKE, vehicles (None until kernel_tables)
    has_counters: bool            # any SMOKE or vehicle on the map (counter_info's counters are read)
