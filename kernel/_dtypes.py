"""Array dtypes of the compiled board and kernel outputs, declared once.

Kernels assume these dtypes; public wrappers convert user input to them at the
boundary (``np.asarray(..., dtype=...)``) and never inside a kernel.
"""

from __future__ import annotations

import numpy as np

#: Global hex index; ``NO_HEX`` (-1) marks "no hex" (off the map).
HEX_INDEX = np.int32
NO_HEX = -1

#: Exact lattice coordinates (centres and vertices, see :mod:`kernel.grid.lattice`).
COORD = np.int32

#: Levels (ground level, Location level, obstacle heights) in whole levels.
LEVEL = np.int16

#: Bit set of the terrain features in a hex (bit ``t`` = terrain type ``t``).
TERRAIN_MASK = np.uint32

#: Bit set of hexside features on one hexside (bit ``k`` = hexside type ``k``).
HEXSIDE_MASK = np.uint16

#: The largest hindrance DRM an int8 LOS matrix or row holds: a larger total is written as this.
MAX_MATRIX_DRM = 127

#: Hindrance DRM values.
HINDRANCE = np.int16

#: Movement costs inside kernels: float64 with ``inf`` = unreachable.
COST = np.float64

#: A pixel of a map's art (kernel.maps.art): its class (index into the map's class tables)
#: and its ground elevation in whole levels.
PIXEL_CLASS = np.uint8
PIXEL_LEVEL = np.int8
#: Added to a pixel's elevation in the low byte of its uint16 word (class << 8 | elevation + LEVEL_BIAS).
LEVEL_BIAS = 128
