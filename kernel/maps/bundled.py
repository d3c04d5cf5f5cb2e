"""Where hexkernel finds its bundled data (rulesets, boards, scenarios).

The ``data/`` folder sits beside the ``kernel`` package in the project (an
editable install keeps it there).  ``HEXKERNEL_DATA`` overrides the location.
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The bundled ``data/`` folder (or ``$HEXKERNEL_DATA`` when set)."""
    override = os.environ.get("HEXKERNEL_DATA")
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[2] / "data"
