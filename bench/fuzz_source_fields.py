"""Long comparison of the per-source fields kernel with the per-pair kernel on seeded random maps.

Each map (rule set, size, hills, hexside density, cliffs and counters drawn
from the seed) is compared for up to 80 sources (on ASL maps half of them
among the highest fifth of the hexes) at ground level, the same
hexes at their top Location, and targets at level 1; any difference stops
the run with the map's seed, source and target.

Run: ``python -m bench.fuzz_source_fields --maps 600`` (the tests run a few
such maps, ``tests/test_source_fields.py``).  ``python -m
bench.fuzz_source_fields --served default`` (or a board folder) prints the
share of pairs the per-source paths serve on one map, every hex a source.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from kernel import Counters, random_board
from kernel.line_of_sight._hex import queries as per_pair
from kernel.line_of_sight._sweep.run import source_rows
from kernel.line_of_sight.counters import counter_tables
from kernel.line_of_sight.inputs import every_hex, kernel_board_tables, ruleset_code, target_level_array, template_tuple

RULESETS = ("asl", "valor-victory", "ccn")


def compare(board, hexes, levels, target_levels, counters) -> int:
    """Number of differing entries (0 when the kernels agree)."""
    targets = target_level_array(board, target_levels)
    out = np.empty((len(hexes), len(board)), np.int8)
    per_pair.fields_kernel(ruleset_code(board), hexes, levels, every_hex(board), targets, template_tuple(board),
                           kernel_board_tables(board), counter_tables(board, counters), out)
    got = np.minimum(source_rows(board, hexes, levels, targets, counters), 127)
    bad = np.argwhere(got != out)
    for k, j in bad[:3]:
        print(f"  differs: source {board.name(int(hexes[k]))} level {int(levels[k])}, target {board.name(int(j))}: "
              f"per-source {int(got[k, j])}, per-pair {int(out[k, j])}")
    return len(bad)


def served(board, hexes, levels, target_levels, counters) -> tuple[int, int]:
    """``(tree, down)``: of the pairs of these sources and every hex, those the prefix tree's walk
    decides (targets at the source's level) and those the down codes walk (lower targets of sources
    with at least half their targets MIN_LEVELS_BELOW levels or more below; a few of these still go
    per pair: possible continuous slopes, large DRMs).  The conditions are those of
    ``_sweep.rows.source_row``."""
    from kernel.line_of_sight._sweep import tree_walk
    from kernel.line_of_sight._templates import tree
    from kernel.line_of_sight._sweep.rows import MIN_LEVELS_BELOW
    from kernel.line_of_sight._sweep.run import template_trie

    if board.ruleset.los_model != "asl":
        return 0, 0
    grid, base, start, packed, ranges, max_dc, max_dy = template_tuple(board)
    tables = kernel_board_tables(board)
    col, yv, hs_obst = tables.col, tables.y, tables.hexside_obstacle
    hex_info, fast_grid, same_code, level_row, level_min = counter_tables(board, counters)
    nodes, entries, tree_targets, depth, _ = template_trie(board)
    groups = tables.depression_group
    ground2 = hex_info[:, 0].astype(int)
    smoke, smoke_top = hex_info[:, 6].astype(int), hex_info[:, 7].astype(int)
    heights = ground2 + 2 * np.asarray(target_level_array(board, target_levels), int)
    no_smoke = ~((smoke > 0) & (heights < smoke_top))
    plain_targets = no_smoke & ~((heights == ground2) & (groups >= 0))
    width = 2 * max_dy + 1
    box = np.array([col.min(), col.max(), yv.min(), yv.max()], np.int64)
    at_tree = below = 0
    for a, level in zip(hexes.tolist(), levels.tolist()):
        la2 = int(ground2[a]) + 2 * level
        if (smoke[a] > 0 and la2 < smoke_top[a]) or (level == 0 and groups[a] >= 0):
            continue
        if la2 > heights.min() and 2 * (heights <= la2 - 2 * MIN_LEVELS_BELOW).sum() >= len(board):
            below += int(((heights < la2) & no_smoke).sum())
        row = la2 - level_min
        if not (2 * (heights == la2).sum() >= len(board) and len(nodes) and 0 <= row < len(level_row)
                and level_row[row] >= 0):
            continue
        states = np.full(len(board), tree_walk.HARD, np.int64)
        shifted = box - np.array([col[a] - max_dc, col[a] - max_dc, yv[a] - max_dy, yv[a] - max_dy])
        tree_walk.level_states(a, la2, shifted, nodes, entries, tree_targets, grid, base[a], ranges, col, yv, hs_obst,
                          hex_info, same_code[level_row[row]], fast_grid, np.empty((depth, 4), np.int64), states)
        t = (col - col[a] + max_dc) * width + (yv - yv[a] + max_dy)
        inner = tree.tree_templates(start, max_dc, max_dy, tree.MAX_ENTRIES)[0][t]
        at_tree += int(((heights == la2) & plain_targets & inner & (states != tree_walk.UNDECIDED)).sum())
    return at_tree, below


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
    by_tree = by_codes = 0
    for levels, target_levels in ((ground, 0), (top, 0), (ground, 1)):
        bad += compare(board, hexes, levels, target_levels, counters)
        pairs += len(hexes) * n
        tree_pairs, down_pairs = served(board, hexes, levels, target_levels, counters)
        by_tree += tree_pairs
        by_codes += down_pairs
    return pairs, bad, by_tree, by_codes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", type=int, default=600)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--served", metavar="MAP", help="print the share of pairs served on one map instead")
    args = parser.parse_args()
    if args.served:
        import warnings

        import kernel

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            board = kernel.load(args.served)
        hexes = np.arange(len(board), dtype=np.int32)
        tree_pairs, down_pairs = served(board, hexes, np.zeros(len(board), np.int64), 0, None)
        total = len(board) ** 2
        print(f"{args.served}: {len(board)} hexes, {total:,} pairs (every hex a source, ground level): "
              f"{tree_pairs / total:.1%} decided by the prefix tree, {down_pairs / total:.1%} walked with the "
              f"down codes, the rest per pair")
        return
    start = time.perf_counter()
    pairs = by_tree = by_codes = 0
    for seed in range(args.first_seed, args.first_seed + args.maps):
        compared, bad, tree_pairs, down_pairs = one_map(seed)
        pairs += compared
        by_tree += tree_pairs
        by_codes += down_pairs
        if bad:
            raise SystemExit(f"seed {seed}: {bad} entries differ")
    print(f"{args.maps} maps (seeds {args.first_seed}..{args.first_seed + args.maps - 1}), {pairs:,} pairs: "
          f"identical; {by_tree:,} of them decided by the prefix tree (same level), {by_codes:,} walked with the "
          f"down codes ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
