"""Agreement of hexkernel's LOS with VASL's own LOS engine from and to upper building Locations.

``../shared/vasl/engine-levels/levels/bdNN.npz`` (from the repository root;
format in the README beside it) holds what VASL's Java LOS engine answers
between every Location above ground of board NN's multi-level buildings
(VASL's ``Level k`` and, for a multi-hex building, its ``Rooftop``) and every
hex's ground Location, both ways, and between every two upper Locations.
This module imports the same board as :mod:`bench.vasl_engine` does
(:func:`bench.vasl_engine.load_board`), maps each of VASL's Locations onto a
hexkernel Location (:func:`our_location`), evaluates every pair with
:func:`kernel.los_pairs` and counts, per case and board:

* **askable**: the pairs whose two Locations hexkernel has (the others are
  counted, not compared);
* **agree**: blocked versus clear as VASL answers it;
* **same hindrance**: among the pairs both call clear, the same hindrance DRM.

Cases, as the data numbers them: 1 upper -> ground, 2 ground -> upper,
3 upper -> upper.  Pairs VASL answered with an exception (``status == 2``)
are left out and counted.  Run from the repository root::

    .venv/bin/python -m bench.vasl_levels [--boards N ...] [--model hex|depiction|vasl] [--json FILE]

:func:`level_figures` is the reusable part (``tests/test_vasl_levels.py``
asserts floors with it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

import kernel
from bench.vasl_centre import centre_level
from bench.vasl_engine import BLOCKED_BY_VASL, EXCEPTION, board_folder_name, load_board, vasl_folder

#: The cases of the data: ``case`` codes and their names.
CASES = {1: "upper -> ground", 2: "ground -> upper", 3: "upper -> upper"}
#: VASL's kinds of Location (``loc_kind``).
GROUND, BUILDING_LEVEL, ROOFTOP = 0, 1, 2
#: The counts of one case of one board (:func:`level_figures`).
COUNT_KEYS = ("pairs", "exceptions", "askable", "agree", "both_clear", "hindrance_equal",
              "vasl_blocks_we_see", "we_block_vasl_sees")


def levels_folder(shared: str | Path | None = None) -> Path:
    """The folder of VASL's results for upper Locations (``../shared/vasl/engine-levels/levels``)."""
    return vasl_folder(shared) / "engine-levels" / "levels"


def level_boards(shared: str | Path | None = None) -> tuple[int, ...]:
    """The board numbers with results for upper Locations and the board's data, ascending.

    Parameters
    ----------
    shared : str or Path, optional
        The ``shared`` folder (default: the repository root's ``../shared``).

    Returns
    -------
    tuple of int
        Every ``N`` with ``levels/bdNN.npz`` and a board folder ``bdNN`` (empty when the folder is absent).
    """
    folder = levels_folder(shared)
    if not folder.is_dir():
        return ()
    numbers = []
    for path in folder.glob("bd*.npz"):
        digits = path.stem[2:]
        if digits.isdigit() and (vasl_folder(shared) / board_folder_name(int(digits))).is_dir():
            numbers.append(int(digits))
    return tuple(sorted(numbers))


def load_level_results(board_number: int, shared: str | Path | None = None) -> dict[str, np.ndarray]:
    """Read VASL's results for the upper Locations of one board (every array of its ``.npz``).

    Raises
    ------
    FileNotFoundError
        No results for that board.
    """
    path = levels_folder(shared) / f"{board_folder_name(board_number)}.npz"
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


def our_location(board, hex_name: str, kind: int, level: int) -> tuple[int, int] | None:
    """hexkernel's ``(hex index, level)`` of one of VASL's Locations, or None where the board has none.

    Parameters
    ----------
    board : kernel.Board
    hex_name : str
        The hex with its board number (``"15G5"``).
    kind : int
        VASL's kind: 0 the hex's centre Location (the ground, or the deck of a bridge over a
        depression: :mod:`bench.vasl_centre`), 1 a building level, 2 a rooftop.
    level : int
        VASL's level above the hex's ground (``loc_level``).

    Returns
    -------
    tuple of int, or None
        The Location by its name: ``"15G5"``, ``"15G5h1"``, or the rooftop's name
        (``board.rooftop_name``); None when the board lacks the hex or that Location.
    """
    try:
        index = board.index(hex_name)
    except (KeyError, ValueError):
        return None
    if kind == GROUND:
        return index, centre_level(board, index)
    if kind == BUILDING_LEVEL:
        name = f"{hex_name}h{int(level)}"
    elif kind == ROOFTOP:
        rooftop_name = getattr(board, "rooftop_name", None)
        if rooftop_name is None:
            return None
        name = rooftop_name(index)
        if name is None:
            return None
    else:
        return None
    try:
        found = board.location(name)
    except (KeyError, ValueError):
        return None
    if kind == BUILDING_LEVEL and getattr(board, "is_rooftop", lambda i, lev: False)(*found):
        return None   # a building level VASL has that is our rooftop: not the same Location
    if kind == ROOFTOP and found[1] != int(level):
        return None
    return found


def location_table(board, data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``(hex, level)`` int64 arrays of hexkernel's Location for each of VASL's Locations (-1 where none)."""
    count = len(data["loc_hex"])
    hexes = np.full(count, -1, np.int64)
    levels = np.full(count, -1, np.int64)
    for i in range(count):
        found = our_location(board, str(data["loc_hex"][i]), int(data["loc_kind"][i]), int(data["loc_level"][i]))
        if found is not None:
            hexes[i], levels[i] = found
    return hexes, levels


def level_figures(board_number: int, models=("vasl",), *, shared: str | Path | None = None,
                  sample: int | None = None, seed: int = 39) -> dict:
    """The counts per model and case of one board.

    Parameters
    ----------
    board_number : int
        One of :func:`level_boards`.
    models : sequence of str
        hexkernel's LOS models (``"hex"``, ``"depiction"``, ``"vasl"``).
    shared : str or Path, optional
        The ``shared`` folder (default: the repository root's ``../shared``).
    sample : int, optional
        At most this many seeded pairs per case (default: every pair).
    seed : int
        The sample's seed.

    Returns
    -------
    dict
        ``{model: {case: counts}}``, the counts keyed by :data:`COUNT_KEYS`, and ``"locations"``:
        VASL's Locations of the board and how many of each kind hexkernel has.
    """
    data = load_level_results(board_number, shared)
    board, _ = load_board(board_number, shared)
    hexes, levels = location_table(board, data)
    a, b, case, status = data["a"], data["b"], data["case"], data["status"]
    chosen = np.arange(len(a))
    if sample is not None:
        rng = np.random.default_rng(seed)
        keep = []
        for c in CASES:
            where = np.flatnonzero(case == c)
            keep.append(where if len(where) <= sample else np.sort(rng.choice(where, sample, replace=False)))
        chosen = np.concatenate(keep)
    a, b, case, status = a[chosen], b[chosen], case[chosen], status[chosen]
    vasl_hindrance = data["hindrance"][chosen].astype(np.int64)
    askable = (hexes[a] >= 0) & (hexes[b] >= 0) & (status != EXCEPTION)
    where = np.flatnonzero(askable)
    kinds = data["loc_kind"]
    out: dict = {"locations": {
        "vasl": {int(k): int((kinds == k).sum()) for k in (GROUND, BUILDING_LEVEL, ROOFTOP)},
        "ours": {int(k): int(((kinds == k) & (hexes >= 0)).sum()) for k in (GROUND, BUILDING_LEVEL, ROOFTOP)},
    }}
    for model in models:
        blocked = np.zeros(len(a), bool)
        hindrance = np.zeros(len(a), np.int64)
        if where.size:
            pairs = kernel.los_pairs(board, hexes[a[where]], hexes[b[where]], levels=levels[a[where]],
                                     target_levels=levels[b[where]], model=model)
            blocked[where] = ~pairs.visible
            hindrance[where] = pairs.hindrance
        vasl_blocked = status == BLOCKED_BY_VASL
        per_case = {}
        for c in CASES:
            in_case = case == c
            asked = in_case & askable
            both_clear = asked & ~vasl_blocked & ~blocked
            per_case[c] = {
                "pairs": int(in_case.sum()),
                "exceptions": int((in_case & (status == EXCEPTION)).sum()),
                "askable": int(asked.sum()),
                "agree": int((asked & (vasl_blocked == blocked)).sum()),
                "both_clear": int(both_clear.sum()),
                "hindrance_equal": int((both_clear & (hindrance == vasl_hindrance)).sum()),
                "vasl_blocks_we_see": int((asked & vasl_blocked & ~blocked).sum()),
                "we_block_vasl_sees": int((asked & ~vasl_blocked & blocked).sum()),
            }
        out[model] = per_case
    return out


def summed(rows: list[dict]) -> dict:
    """The counts of several boards (or cases) added up, key by key."""
    return {key: sum(row[key] for row in rows) for key in COUNT_KEYS}


def percent(part: int, whole: int) -> str:
    """``part`` of ``whole`` in percent with two decimals, ``-`` when ``whole`` is 0."""
    return f"{100.0 * part / whole:6.2f} %" if whole else "     -  "


def format_rows(title: str, counts: dict) -> str:
    """One line of the report: askable pairs, blocked/clear agreement and same hindrance."""
    return (f"{title:<22} askable {counts['askable']:>8,} of {counts['pairs']:>8,}  "
            f"agree {percent(counts['agree'], counts['askable'])} ({counts['agree']:,})  "
            f"same hindrance {percent(counts['hindrance_equal'], counts['both_clear'])} "
            f"({counts['hindrance_equal']:,} of {counts['both_clear']:,})  "
            f"VASL blocks/we see {counts['vasl_blocks_we_see']:,}  we block/VASL sees {counts['we_block_vasl_sees']:,}")


def main(argv: list[str] | None = None) -> int:
    """Command line: compare the boards, print per board and case and overall, optionally write JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", nargs="+", type=int, default=None,
                        help="board numbers (default: every board with results for upper Locations)")
    parser.add_argument("--shared", default=None, help="the shared folder (default: ../shared of the repository)")
    parser.add_argument("--model", choices=("hex", "depiction", "vasl"), default="vasl",
                        help="hexkernel's LOS model (default: vasl)")
    parser.add_argument("--sample", type=int, default=None, help="at most this many seeded pairs per case and board")
    parser.add_argument("--json", metavar="FILE", help="write the counts as JSON")
    args = parser.parse_args(argv)
    if not levels_folder(args.shared).is_dir():
        print(f"no VASL results for upper Locations in {levels_folder(args.shared)}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    boards = args.boards or level_boards(args.shared)
    results = {}
    for number in boards:
        figures = level_figures(number, (args.model,), shared=args.shared, sample=args.sample)
        results[number] = figures
        located = figures["locations"]
        print(f"board {number}: VASL's upper Locations {located['vasl'][BUILDING_LEVEL]} levels and "
              f"{located['vasl'][ROOFTOP]} rooftops; hexkernel has {located['ours'][BUILDING_LEVEL]} and "
              f"{located['ours'][ROOFTOP]}")
        for c, name in CASES.items():
            print("  " + format_rows(name, figures[args.model][c]))
    print(f"\nall {len(boards)} boards, model {args.model}:")
    for c, name in CASES.items():
        print("  " + format_rows(name, summed([results[n][args.model][c] for n in boards])))
    print("  " + format_rows("upper <-> ground", summed([results[n][args.model][c] for n in boards for c in (1, 2)])))
    print(f"\ntotal time {time.perf_counter() - start:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({str(n): r for n, r in results.items()}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
