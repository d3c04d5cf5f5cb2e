"""``python -m kernel.cli``: the same as the ``hexkernel`` script."""

import sys

from kernel.cli.app import main

sys.exit(main())
