"""The depiction kernels' tables, as one named tuple (private; built by
:func:`kernel.line_of_sight.depiction.depiction_tables`)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class DepictionTables(NamedTuple):
    """What the depiction kernels read (``tables``), in the order they unpack it: the board's part
    (:func:`~kernel.line_of_sight.depiction.depiction_tables`, cached) and the per-call counters
    (:func:`~kernel.line_of_sight.depiction.kernel_tables`)."""

    lat_x: np.ndarray           # int64 per hex: lattice column (of UNIT_X pixels)
    lat_y: np.ndarray           # int64 per hex: lattice row (of UNIT_Y pixels)
    cell_index: np.ndarray      # hex of each lattice cell (the board's)
    neighbours: np.ndarray      # (N, 6)
    depression_group: np.ndarray  # int32 per hex, -1: no depression terrain
    pixels: np.ndarray          # uint16 art: class << 8 | elevation + LEVEL_BIAS
    pixel_info: np.ndarray      # int16 (classes x levels, H_COLUMNS): a class at an elevation, as hex_info
    n_levels: int
    level_min: int
    class_wall: np.ndarray      # int64 per class: height of a wall or hedge drawn in it (0: none)
    class_inherent: np.ndarray  # int64 per class: its inherent terrain bits
    hex_terrain: np.ndarray     # int64 per hex: its terrain bits
    far_open: np.ndarray        # int64 per hex: bit k, its hexspine k - k + 1 walled with the far vertex open (B9)
    class_own: np.ndarray       # per class: 1 where its art blocks in an end's own hex too (rowhouse walls)
    hex_own: np.ndarray         # per hex: such art lies near its centre dot
    squares: bool               # drawn art (pixels cover squares) rather than rasterised hexes
    cap: int                    # the total hindrance that blocks
    per_range: bool             # VASL's reading (hindrance once per range from the higher end)
    counter_info: np.ndarray    # int16 (N, columns): SMOKE and vehicles per hex (no rows before kernel_tables)
    has_counters: bool
