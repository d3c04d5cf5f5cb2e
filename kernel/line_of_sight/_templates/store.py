"""The trace templates' tables kept on disk between processes (:mod:`kernel._disk_cache`).

The templates of a map depend only on its largest column and ``y``
displacements (and the code that builds them), so every map of one size
shares them. Building them costs a fresh process far more than reading them
back (most of it loading the two build kernels). Tables over
:data:`MAX_STORED_BYTES` are not stored: a very large map's templates would
fill the disk faster than they save time.
"""

from __future__ import annotations


import numpy as np

from kernel import _disk_cache

#: The arrays of the templates' tables, in the order :func:`stored_tables` checks them.
TABLE_NAMES = ("start", "dcol", "dy", "kind", "cross", "ranges", "entry_sides")
_DTYPES = (np.int64, np.int16, np.int16, np.int8, np.int8, np.int16, np.uint8)

#: Largest tables kept on disk (bytes); a map of a few thousand hexes is well under it.
MAX_STORED_BYTES = 64 * 2**20

def _key(max_dc: int, max_dy: int) -> str:
    """The on-disk cache key of the templates of ``(max_dc, max_dy)`` (the package's code is part of every key)."""
    return _disk_cache.digest(["templates", int(max_dc), int(max_dy)])


def _usable(tables: dict, max_dc: int, max_dy: int) -> bool:
    """Whether tables read back from disk have the sizes and dtypes of ``(max_dc, max_dy)``'s."""
    total = (2 * max_dc + 1) * (2 * max_dy + 1)
    start, entries = tables["start"], tables["dcol"].shape[0]
    return (all(tables[name].dtype == dtype for name, dtype in zip(TABLE_NAMES, _DTYPES))
            and start.shape == (total + 1,) and tables["entry_sides"].shape == (total,)
            and all(tables[name].shape == (entries,) for name in ("dy", "kind", "cross"))
            and tables["ranges"].shape == (entries, 2) and int(start[0]) == 0 and int(start[-1]) == entries
            and bool(np.all(start[1:] >= start[:-1])))


def stored_tables(max_dc: int, max_dy: int, build) -> dict:
    """The templates' tables of ``(max_dc, max_dy)``: from the disk cache when there and whole, else
    ``build(max_dc, max_dy)``, stored for the next process (when the cache is on and they are small enough)."""
    key = _key(max_dc, max_dy)
    tables = _disk_cache.load("templates", key, TABLE_NAMES)
    if tables is not None and _usable(tables, max_dc, max_dy):
        return tables
    tables = build(max_dc, max_dy)
    if sum(array.nbytes for array in tables.values()) <= MAX_STORED_BYTES:
        _disk_cache.save("templates", key, tables)
    return tables
