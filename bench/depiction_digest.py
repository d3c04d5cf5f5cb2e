"""Digests of every LOS model's answers on VASL boards: a refactoring of the kernels must leave them equal.

For each board and model (``hex``, ``depiction``, ``vasl``) it hashes the
ground-level :func:`kernel.los_matrix`, every output array of
:func:`kernel.los_pairs` for a seeded sample of sources against every hex at
ground level with SMOKE and vehicles on the map, and, for the art models, the
recorded walks (the step logs behind ``explain()``) of a seeded sample of
pairs.  Run it before and after a change of the kernels and compare the two
outputs (they must be identical, line by line)::

    .venv/bin/python -m bench.depiction_digest --boards 2 4 8 35 57 > before.txt
    # change the kernels, then
    .venv/bin/python -m bench.depiction_digest --boards 2 4 8 35 57 > after.txt
    diff before.txt after.txt

Skips (prints nothing, exit status 2) when ``../shared/vasl`` is absent.
"""

from __future__ import annotations

import argparse
import hashlib
import sys

import numpy as np

import kernel
from bench.vasl_engine import load_board, vasl_folder
from kernel.line_of_sight.depiction import depiction_recorded

#: Models whose answers are hashed.
MODELS = ("hex", "depiction", "vasl")
#: Seeded sample sizes: sources of the counters' cross product, SMOKE hexes, vehicle hexes, recorded walks.
SOURCES, SMOKE, VEHICLES, RECORDED = 12, 6, 6, 200


def _digest(*arrays) -> str:
    h = hashlib.sha256()
    for array in arrays:
        array = np.ascontiguousarray(array)
        h.update(str(array.dtype).encode())
        h.update(str(array.shape).encode())
        h.update(array.tobytes())
    return h.hexdigest()[:16]


def board_digests(board_number: int, seed: int = 23) -> list[str]:
    """One line per board, model and kind of answer: ``board model kind digest``."""
    board, _ = load_board(board_number)
    n = len(board)
    rng = np.random.default_rng(seed)
    sources = rng.choice(n, SOURCES, replace=False)
    counters = kernel.Counters(
        smoke=np.bincount(rng.choice(n, SMOKE, replace=False), minlength=n) * 2,
        vehicles=np.bincount(rng.choice(n, VEHICLES, replace=False), minlength=n).astype(bool))
    walks = rng.integers(0, n, (RECORDED, 2))
    lines = []
    for model in MODELS:
        matrix = kernel.los_matrix(board, model=model)
        lines.append(f"{board_number} {model} matrix {_digest(matrix)}")
        pairs = kernel.los_pairs(board, sources, np.arange(n), product=True, counters=counters, model=model)
        answers = _digest(pairs.visible, pairs.hindrance, pairs.reason, pairs.blocked_at, pairs.continuous_slope)
        lines.append(f"{board_number} {model} pairs+counters {answers}")
        if model == "hex":
            continue
        logs = []
        for a, b in walks:
            blocked, total, reason, at, slope, log = depiction_recorded(
                board, int(a), 0, int(b), 0, counters, per_range=model == "vasl")
            logs.append(np.array([blocked, total, reason, at, slope], np.int64))
            logs.append(np.asarray(log, np.int64))
        lines.append(f"{board_number} {model} recorded {_digest(*logs)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, nargs="+", default=[2, 4, 8, 35, 57])
    args = parser.parse_args(argv)
    if not vasl_folder().is_dir():
        print("VASL boards (../shared/vasl) not present", file=sys.stderr)
        return 2
    for board_number in args.boards:
        for line in board_digests(board_number):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
