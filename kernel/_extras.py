"""The optional dependencies (extras) and the one error a feature raises when its extra is missing.

The core install is numpy and numba; each of these features needs an extra::

    pip install 'hexkernel[plot]'    # pictures (matplotlib)
    pip install 'hexkernel[batch]'   # batch jobs (dask, distributed, zarr)
    pip install 'hexkernel[graph]'   # movement_graph (scipy)
"""

from __future__ import annotations

import importlib

#: extra -> the packages it installs (keep in step with pyproject.toml's optional dependencies).
EXTRAS: dict[str, tuple[str, ...]] = {
    "plot": ("matplotlib",),
    "batch": ("dask", "distributed", "zarr"),
    "graph": ("scipy",),
}


class MissingExtraError(ImportError):
    """A feature was called without the optional packages it needs; the message names the extra to install."""


def require(extra: str, feature: str) -> None:
    """Import the packages of ``extra``, or raise :class:`MissingExtraError` naming the extra.

    Parameters
    ----------
    extra : str
        A key of :data:`EXTRAS`.
    feature : str
        What the caller was doing, for the message.

    Raises
    ------
    MissingExtraError
        One of the extra's packages cannot be imported.

    Examples
    --------
    >>> import sys
    >>> saved, sys.modules["dask"] = sys.modules.get("dask"), None   # as if dask were not installed
    >>> try:
    ...     require("batch", "batch jobs")
    ... except ImportError as error:
    ...     print(error)
    batch jobs need the package dask, which is not installed: pip install 'hexkernel[batch]'
    >>> if saved is None: del sys.modules["dask"]
    ... else: sys.modules["dask"] = saved
    """
    for package in EXTRAS[extra]:
        try:
            importlib.import_module(package)
        except ImportError as error:
            raise MissingExtraError(f"{feature} need the package {package}, which is not installed: "
                                    f"pip install 'hexkernel[{extra}]'", name=package) from error
