"""What one batch task computes: the arrays of one map, for one block of rows, from the existing kernels.

The arrays (one row per ground Location of the map, in hex index order;
``docs/batch-jobs.md``):

==================  =======================  ========  ==================================================
array               shape                    dtype     row ``i``
==================  =======================  ========  ==================================================
``visibility``      ``(N, ceil(N / 8))``     uint8     :func:`kernel.visibility_bits`: bit ``j`` set when
                                                       hex ``j`` is visible from hex ``i``
``hindrance``       ``(N, N)``               int8      :func:`kernel.los_matrix`: hindrance DRM, -1 blocked
``vantage``         ``(N, 3)``               int32     what hex ``i`` sees: other hexes visible, of them
                                                       with no hindrance, range of the farthest (0: none)
``movement-UNIT``   ``(N, N)``               uint16    :func:`kernel.movement_matrix` of unit class
                                                       ``UNIT``: half-MF cost, 65535 unreachable
==================  =======================  ========  ==================================================

The three LOS arrays of a block come from one call of
:func:`kernel.los_matrix_rows`; each movement array from one call of
:func:`kernel.movement_matrix` with the block's rows as sources.

Examples
--------
>>> import kernel
>>> board = kernel.load("71")
>>> arrays = los_block(board, 0, 4, None, ("visibility", "vantage"))
>>> bool((arrays["visibility"] == kernel.visibility_bits(board)[:4]).all()), arrays["vantage"].shape
(True, (4, 3))
"""

from __future__ import annotations

import numpy as np

from kernel.line_of_sight.bulk import los_matrix_rows
from kernel.line_of_sight.counters import Counters
from kernel.line_of_sight.results import BLOCKED
from kernel.movement.fields import movement_matrix

#: The LOS arrays, computed together from one block of the int8 matrix.
LOS_ARRAYS = ("visibility", "hindrance", "vantage")
#: Columns of the ``vantage`` array.
VANTAGE_COLUMNS = ("sees", "sees_clear", "farthest")


def array_shapes(compute, hexes: int, units) -> dict[str, tuple[tuple[int, int], str]]:
    """Shape and dtype of every array a job's ``compute`` list gives for a map of ``hexes`` hexes.

    >>> array_shapes(["visibility", "movement"], 10, ["infantry"])
    {'visibility': ((10, 2), 'uint8'), 'movement-infantry': ((10, 10), 'uint16')}
    """
    shapes = {}
    for output in compute:
        if output == "visibility":
            shapes["visibility"] = ((hexes, (hexes + 7) // 8), "uint8")
        elif output == "hindrance":
            shapes["hindrance"] = ((hexes, hexes), "int8")
        elif output == "vantage":
            shapes["vantage"] = ((hexes, len(VANTAGE_COLUMNS)), "int32")
        elif output == "movement":
            for unit in units:
                shapes[f"movement-{unit}"] = ((hexes, hexes), "uint16")
    return shapes


def expected_shape(name: str, hexes: int) -> tuple[tuple[int, int], str] | None:
    """Shape and dtype array ``name`` has on a map of ``hexes`` hexes; None for a name no job writes.

    >>> expected_shape("movement-infantry", 10), expected_shape("colour", 10)
    (((10, 10), 'uint16'), None)
    """
    output = "movement" if name.startswith("movement-") and len(name) > len("movement-") else name
    unit = name.removeprefix("movement-")
    return array_shapes([output], hexes, [unit]).get(name)


def counters_for(board, table: dict) -> Counters | None:
    """The job's counters table (``smoke``, ``vehicles``, ``units`` by hex name) on ``board``; None when empty."""
    if not any(table.get(key) for key in ("smoke", "vehicles", "units")):
        return None
    return Counters.on(board, smoke=table.get("smoke") or None, vehicles=table.get("vehicles", ()),
                       units=table.get("units", ()))


def los_block(board, first: int, count: int, counters: Counters | None, wanted, model: str | None = None) \
        -> dict[str, np.ndarray]:
    """The LOS arrays in ``wanted`` for rows ``first .. first + count - 1`` in ``model`` (one kernel call for
    all)."""
    rows = los_matrix_rows(board, first, count, counters=counters, model=model)
    visible = rows != BLOCKED
    out = {}
    if "visibility" in wanted:
        out["visibility"] = np.packbits(visible, axis=1)
    if "hindrance" in wanted:
        out["hindrance"] = rows
    if "vantage" in wanted:
        vantage = np.zeros((count, len(VANTAGE_COLUMNS)), np.int32)
        everyone = np.arange(len(board))
        for r in range(count):
            i = first + r
            seen = visible[r].copy()
            seen[i] = False
            vantage[r, 0] = seen.sum()
            vantage[r, 1] = (seen & (rows[r] == 0)).sum()
            if vantage[r, 0]:
                vantage[r, 2] = board.distance(np.full(len(board), i), everyone)[seen].max()
        out["vantage"] = vantage
    return out


def movement_block(board, unit: str, first: int, count: int, counters: Counters | None,
                   allowance: float | None) -> np.ndarray:
    """Rows ``first .. first + count - 1`` of :func:`kernel.movement_matrix` for ``unit`` (SMOKE and units
    of ``counters`` on the map)."""
    return movement_matrix(board, np.arange(first, first + count), unit=unit, allowance=allowance, counters=counters)
