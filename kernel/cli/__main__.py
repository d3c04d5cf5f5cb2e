"""``python -m kernel.cli``: the same as the ``hexkernel`` script."""

from kernel.cli.app import script

script()
