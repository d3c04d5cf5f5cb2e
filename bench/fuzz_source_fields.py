"""Long comparison of the per-source fields kernel with the per-pair kernel on seeded random maps.

Each map (rule set, size, hills, hexside density, cliffs and counters drawn
from the seed) is compared for up to 80 sources (on ASL maps half of them
among the highest fifth of the hexes) at ground level, the same
hexes at their top Location, and targets at level 1; any difference stops
the run with the map's seed, source and target.

Run: ``python -m bench.fuzz_source_fields --maps 600`` (the tests run a few
such maps, ``tests/test_source_fields.py``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from kernel import Counters, random_board
from kernel.line_of_sight import _field_kernels as per_pair
from kernel.line_of_sight.bulk import source_rows
from kernel.line_of_sight.counters import counter_tables
from kernel.line_of_sight.inputs import every_hex, kernel_board_tables, model_code, target_level_array, template_tuple

RULESETS = ("asl", "valor-victory", "ccn")


def compare(board, hexes, levels, target_levels, counters) -> int:
    """Number of differing entries (0 when the kernels agree)."""
    targets = target_level_array(board, target_levels)
    out = np.empty((len(hexes), len(board)), np.int8)
    per_pair.fields_kernel(model_code(board), hexes, levels, every_hex(board), targets, template_tuple(board),
                           kernel_board_tables(board), counter_tables(board, counters), out)
    got = np.minimum(source_rows(board, hexes, levels, targets, counters), 127)
    bad = np.argwhere(got != out)
    for k, j in bad[:3]:
        print(f"  differs: source {board.name(int(hexes[k]))} level {int(levels[k])}, target {board.name(int(j))}: "
              f"per-source {int(got[k, j])}, per-pair {int(out[k, j])}")
    return len(bad)


def coded(board, hexes, levels) -> int:
    """How many of the sources the per-source codes serve (ASL, at least half the map MIN_LEVELS_BELOW
    levels or more below them; SMOKE and depressions at the source not counted out)."""
    from kernel.line_of_sight._source_kernels import MIN_LEVELS_BELOW

    if board.ruleset.los_model != "asl":
        return 0
    height = board.ground_level.astype(int)
    tops = height[hexes] + levels
    return int(sum(2 * (height <= h - MIN_LEVELS_BELOW).sum() >= len(board) for h in tops))


def one_map(seed: int) -> tuple[int, int, int]:
    rng = np.random.default_rng(seed)
    ruleset = RULESETS[seed % 3]
    kwargs = {}
    if ruleset == "asl":
        kwargs = {"max_level": int(rng.integers(2, 6)), "hills": int(rng.integers(1, 10)),
                  "cliffs": float(rng.choice([0.0, 0.05]))}
    board = random_board(ruleset, int(rng.integers(8, 22)), int(rng.integers(6, 16)), seed=seed,
                         hexside_density=float(rng.uniform(0.0, 0.2)), **kwargs)
    n = len(board)
    counters = None
    if rng.random() < 0.5:
        counters = Counters(smoke=np.where(rng.random(n) < 0.08, rng.integers(1, 4, n), 0),
                            smoke_height=rng.integers(1, 3, n), vehicles=rng.random(n) < 0.05,
                            units=rng.random(n) < 0.05)
    hexes = rng.choice(n, min(n, 80), replace=False).astype(np.int32)
    if ruleset == "asl":  # half of them among the highest hexes (the sources the per-source codes serve)
        high = np.argsort(-board.ground_level, kind="stable")[:max(1, n // 5)]
        hexes[:len(hexes) // 2] = rng.choice(high, len(hexes) // 2)
    ground = np.zeros(len(hexes), np.int64)
    top = np.asarray(target_level_array(board, 9), np.int64)[hexes]
    pairs = 0
    bad = 0
    served = 0
    for levels, target_levels in ((ground, 0), (top, 0), (ground, 1)):
        bad += compare(board, hexes, levels, target_levels, counters)
        pairs += len(hexes) * n
        served += coded(board, hexes, levels) * n if target_levels == 0 else 0
    return pairs, bad, served


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", type=int, default=600)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    pairs = 0
    served = 0
    for seed in range(args.first_seed, args.first_seed + args.maps):
        compared, bad, coded_pairs = one_map(seed)
        pairs += compared
        served += coded_pairs
        if bad:
            raise SystemExit(f"seed {seed}: {bad} entries differ")
    print(f"{args.maps} maps (seeds {args.first_seed}..{args.first_seed + args.maps - 1}), {pairs:,} pairs: "
          f"identical, about {served:,} of them from sources the per-source codes serve "
          f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
