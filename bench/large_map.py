"""The large-map figures of the README: a 64-board (8 x 8) ASL map of about 20,000 hexes.

Run on demand (about a minute; not part of CI)::

    .venv/bin/python -m bench.large_map [--per-pair]

It builds the map from the bundled boards 71 and 72, then reports the time and
size of the trace templates, the time and size of the bit-packed visibility
matrix (``kernel.visibility_bits``, computed block by block), a check of
one block against single LOS queries, and the process's peak resident memory.
With ``--per-pair`` it also computes the same bits through the per-pair
kernel (every row's pairs walked one by one, block by block as
``visibility_bits`` does), checks that they are equal, and reports the
per-source time as a ratio of the per-pair time of the same run.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import kernel
from bench.grid_maps import write_board_grid
from kernel import los, visibility_bits
from kernel.line_of_sight._templates.tracer import templates

BLOCK_ROWS = 1024


def sixty_four_boards(folder: Path):
    """An 8 x 8 map of the bundled boards 71 and 72, every other row rotated."""
    return kernel.load(write_board_grid(folder, 8, first_number=100, title="sixty-four boards"))


def per_pair_bits(board) -> np.ndarray:
    """``visibility_bits(board)`` through the per-pair kernel, block by block."""
    from kernel.line_of_sight._hex import pairs as _kernels
    from kernel.line_of_sight.counters import counter_tables
    from kernel.line_of_sight.inputs import kernel_board_tables, ruleset_code, template_tuple

    n = len(board)
    hexes = np.arange(n, dtype=np.int32)
    levels = np.zeros(n, np.int64)
    tpl, tables, counters = template_tuple(board), kernel_board_tables(board), counter_tables(board, None)
    bits = np.empty((n, (n + 7) // 8), np.uint8)
    for first in range(0, n, BLOCK_ROWS):
        rows = np.empty((min(BLOCK_ROWS, n - first), n), np.int8)
        _kernels.los_rows_kernel(ruleset_code(board), hexes, levels, first, tpl, tables, counters, rows)
        bits[first:first + rows.shape[0]] = np.packbits(rows != kernel.BLOCKED, axis=1)
    return bits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-pair", action="store_true",
                        help="also time the same bits through the per-pair kernel and report the ratio")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        board = sixty_four_boards(Path(folder))
        print(f"map: {len(board)} hexes, compiled in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    tpl = templates(board)
    print(f"trace templates: {time.perf_counter() - start:.1f} s, {tpl.nbytes / 1e6:.0f} MB")
    start = time.perf_counter()
    bits = visibility_bits(board, block_rows=BLOCK_ROWS)
    per_source_s = time.perf_counter() - start
    print(f"visibility_bits: {per_source_s:.1f} s, {bits.nbytes / 1e6:.0f} MB")
    if args.per_pair:
        start = time.perf_counter()
        reference = per_pair_bits(board)
        per_pair_s = time.perf_counter() - start
        assert np.array_equal(reference, bits), "the per-pair kernel's bits differ from visibility_bits"
        print(f"the same bits through the per-pair kernel: {per_pair_s:.1f} s (equal); per-source / per-pair: "
              f"{per_source_s / per_pair_s:.2f} x")
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
