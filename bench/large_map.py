"""The large-map figures of the README: a 64-board (8 x 8) ASL map of about 20,000 hexes.

Run on demand (about a minute; not part of CI)::

    .venv/bin/python -m bench.large_map

It builds the map from the bundled boards 71 and 72, then reports the time and
size of the trace templates, the time and size of the bit-packed visibility
matrix (``kernel.visibility_bits``, computed block by block), a check of
one block against single LOS queries, and the process's peak resident memory.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import kernel
from bench.grid_maps import write_board_grid
from kernel import los, visibility_bits
from kernel.line_of_sight.tracer import templates


def sixty_four_boards(folder: Path):
    """An 8 x 8 map of the bundled boards 71 and 72, every other row rotated."""
    return kernel.load(write_board_grid(folder, 8, first_number=100, title="sixty-four boards"))


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        board = sixty_four_boards(Path(folder))
        print(f"map: {len(board)} hexes, compiled in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    tpl = templates(board)
    print(f"trace templates: {time.perf_counter() - start:.1f} s, {tpl.nbytes / 1e6:.0f} MB")
    start = time.perf_counter()
    bits = visibility_bits(board)
    print(f"visibility_bits: {time.perf_counter() - start:.1f} s, {bits.nbytes / 1e6:.0f} MB")
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak resident memory: {peak_kb / 1e6:.2f} GB")
    rng = np.random.default_rng(0)
    for a, b in zip(rng.integers(0, len(board), 200), rng.integers(0, len(board), 200)):
        if a != b:
            seen = bool(np.unpackbits(bits[a])[b])
            assert seen == los(board, int(a), int(b)).visible, (board.names[a], board.names[b])
    print("200 random pairs agree with single LOS queries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
