"""Where hexkernel finds its bundled data (rulesets, boards, scenarios).

The ``data/`` folder sits beside the ``kernel`` package in the project (an
editable install keeps it there); an installed wheel holds the same files as
``kernel/_data``.  ``HEXKERNEL_DATA`` overrides the location.
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The bundled ``data/`` folder (or ``$HEXKERNEL_DATA`` when set).

    See Also
    --------
    kernel.load : loads the bundled maps by name.
    kernel.load_ruleset : loads the bundled rulesets by name.

    Examples
    --------
    >>> sorted(path.name for path in (data_dir() / "rulesets").glob("*.toml"))
    ['asl.toml', 'ccn.toml', 'valor-victory.toml']
    """
    override = os.environ.get("HEXKERNEL_DATA")
    if override:
        return Path(override)
    package = Path(__file__).resolve().parents[1]
    installed = package / "_data"   # a wheel's copy
    return installed if installed.is_dir() else package.parent / "data"
