"""VASL's pixels of the hex lattice: how far apart hex centres are on a board's art.

One lattice unit of :mod:`kernel.grid.lattice` (``s/2`` across, ``s*sqrt(3)/2``
down) is :data:`UNIT_X` by :data:`UNIT_Y` pixels: lattice ``(x, y)`` lies at
pixel ``(x * UNIT_X, y * UNIT_Y)`` of the map's art.

Examples
--------
>>> COLUMN_PITCH == 3 * UNIT_X, HEX_HEIGHT == 2 * UNIT_Y
(True, True)
"""

from __future__ import annotations

#: Horizontal distance between two columns' centres, in pixels.
COLUMN_PITCH = 56.25
#: Height of a hex (flat side to flat side), in pixels.
HEX_HEIGHT = 64.5
#: Pixels per lattice unit across.
UNIT_X = COLUMN_PITCH / 3.0
#: Pixels per lattice unit down.
UNIT_Y = HEX_HEIGHT / 2.0
