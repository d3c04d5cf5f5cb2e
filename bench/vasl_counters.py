"""Agreement of hexkernel's LOS with VASL's engine with SMOKE, vehicles and wrecks on the map.

``../shared/vasl/engine-levels/counters/bdNN.npz`` (format in the README beside it) holds what
VASL's engine answers on board NN for three seeded layouts of counters (6 SMOKE of +2 or +3, 4
vehicles, 2 wrecks, each in its own hex) and, per layout, up to 5,000 ordered pairs of ground
Locations.  This module imports the board as :mod:`bench.vasl_engine` does, places each layout's
counters with :meth:`kernel.Counters.on` (SMOKE with its DRM and height, vehicles and wrecks as
vehicles), computes :func:`kernel.los_matrix` with those counters and compares, per board:

* **all pairs**: blocked versus clear, and the same hindrance DRM on the pairs both call clear;
* **the pairs the counters change in VASL**: those whose answer with the counters (blocked or
  clear, or the hindrance DRM) differs from VASL's answer on the bare board
  (``../shared/vasl/engine/bdNN.npz``); a board without bare-board results has none of them
  ("no baseline").

Pairs VASL answered with an exception are left out.  Run from the repository root::

    .venv/bin/python -m bench.vasl_counters [--boards N ...] [--model hex|depiction|vasl] [--json FILE]

:func:`counter_figures` is the reusable part (``tests/test_vasl_counters.py`` asserts floors
with it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

import kernel
from bench.vasl_centre import centre_levels
from bench.vasl_engine import BLOCKED_BY_VASL, EXCEPTION, board_folder_name, engine_folder, vasl_folder

#: The keys of :func:`counter_figures` that are summed over boards.
COUNT_KEYS = ("pairs", "excluded_exception", "compared", "agree", "both_clear", "hindrance_equal",
              "changed", "changed_agree", "changed_both_clear", "changed_hindrance_equal",
              "either", "either_agree", "either_both_clear", "either_hindrance_equal")


def counters_folder(shared: str | Path | None = None) -> Path:
    """The folder of VASL's answers with counters (``../shared/vasl/engine-levels/counters``)."""
    return vasl_folder(shared) / "engine-levels" / "counters"


def counter_boards(shared: str | Path | None = None) -> tuple[int, ...]:
    """The board numbers with counter results and the board's data, ascending (empty without them)."""
    folder = counters_folder(shared)
    if not folder.is_dir():
        return ()
    numbers = []
    for path in folder.glob("bd*.npz"):
        digits = path.stem[2:]
        if digits.isdigit() and (vasl_folder(shared) / board_folder_name(int(digits))).is_dir():
            numbers.append(int(digits))
    return tuple(sorted(numbers))


def load_counter_results(board_number: int, shared: str | Path | None = None) -> dict[str, np.ndarray]:
    """VASL's answers with counters on one board: the arrays of ``counters/bdNN.npz``."""
    with np.load(counters_folder(shared) / f"{board_folder_name(board_number)}.npz") as data:
        return {name: data[name] for name in data.files}


def board_prefix(hex_names) -> str:
    """The board number the results' hex names carry (``"100"`` for ``100A1``: board 00 numbered 100)."""
    first = str(hex_names[0])
    digits = ""
    for char in first:
        if not char.isdigit():
            break
        digits += char
    return digits


def load_numbered_board(board_number: int, number: str, shared: str | Path | None = None):
    """Import board ``board_number`` as VASL loads it, numbered ``number`` (its hexes' prefix)."""
    path = vasl_folder(shared) / board_folder_name(board_number)
    board_id = None if number == str(board_number) else number
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        return kernel.load_vasl_board(path, board_id=board_id)


def layout_counters(board, data: dict, layout: int):
    """The :class:`kernel.Counters` of one layout: SMOKE by DRM and height, vehicles and wrecks as vehicles.

    Raises
    ------
    ValueError
        The layout's SMOKE counters do not all have one height (``Counters.on`` takes one).
    """
    pick = data["counter_layout"] == layout
    kinds, hexes = data["counter_kind"][pick], data["counter_hex"][pick]
    drms, heights = data["counter_hindrance"][pick], data["counter_height"][pick]
    smoke = {str(h): int(d) for k, h, d in zip(kinds, hexes, drms) if k == "smoke"}
    smoke_heights = {int(z) for k, z in zip(kinds, heights) if k == "smoke"}
    if len(smoke_heights) > 1:
        raise ValueError(f"layout {layout} has SMOKE heights {sorted(smoke_heights)}: expected one height")
    vehicles = [str(h) for k, h in zip(kinds, hexes) if k in ("vehicle", "wreck")]
    height = smoke_heights.pop() if smoke_heights else kernel.DEFAULT_SMOKE_HEIGHT
    return kernel.Counters.on(board, smoke=smoke, vehicles=vehicles, smoke_height=height)


def bare_board_answers(board_number: int, names, a, b, shared=None):
    """VASL's bare-board status and hindrance of the pairs ``a -> b`` (None without bare-board results)."""
    path = engine_folder(shared) / f"{board_folder_name(board_number)}.npz"
    if not path.is_file():
        return None
    with np.load(path) as engine:
        position = {str(name): i for i, name in enumerate(engine["hexes"])}
        rows = np.array([position.get(str(names[i]), -1) for i in a])
        cols = np.array([position.get(str(names[j]), -1) for j in b])
        known = (rows >= 0) & (cols >= 0)
        status = np.full(len(a), EXCEPTION, np.int64)
        hindrance = np.zeros(len(a), np.int64)
        status[known] = engine["status"][rows[known], cols[known]]
        hindrance[known] = engine["hindrance"][rows[known], cols[known]]
    return status, hindrance


def counter_figures(board_number: int, models=("vasl",), *, shared: str | Path | None = None,
                    sample: int | None = None, seed: int = 5) -> dict:
    """The agreement with VASL's engine with counters on one board, per model.

    Parameters
    ----------
    board_number : int
        One of :func:`counter_boards`.
    models : sequence of str
        hexkernel's LOS models (``"hex"``, ``"depiction"``, ``"vasl"``).
    shared : str or Path, optional
        The ``shared`` folder (default: the repository root's ``../shared``).
    sample : int, optional
        Compare only this many seeded pairs (all when None).
    seed : int
        The sample's seed.

    Returns
    -------
    dict
        ``{model: counts}`` with the keys of :data:`COUNT_KEYS`, ``board``, ``model``,
        ``baseline`` (whether bare-board results exist) and ``agreement``,
        ``same_hindrance``, ``changed_agreement``, ``changed_same_hindrance`` (percent).
    """
    data = load_counter_results(board_number, shared)
    names = [str(name) for name in data["loc_hex"]]
    board = load_numbered_board(board_number, board_prefix(names), shared)
    index = np.array([board.index(name) for name in names], np.int64)
    a, b, layout = data["a"].astype(np.int64), data["b"].astype(np.int64), data["layout"].astype(np.int64)
    status, hindrance = data["status"].astype(np.int64), data["hindrance"].astype(np.int64)
    keep = np.arange(len(a))
    if sample is not None and sample < len(a):
        keep = np.sort(np.random.default_rng(seed).choice(len(a), sample, replace=False))
    a, b, layout, status, hindrance = a[keep], b[keep], layout[keep], status[keep], hindrance[keep]
    compared = status != EXCEPTION
    bare = bare_board_answers(board_number, names, a, b, shared)
    if bare is None:
        changed = np.zeros(len(a), bool)
    else:
        bare_status, bare_hindrance = bare
        changed = compared & (bare_status != EXCEPTION) & (
            (bare_status != status) | ((status == 0) & (bare_hindrance != hindrance)))
    vasl_blocked = status == BLOCKED_BY_VASL
    out = {}
    for model in models:
        ours = np.zeros(len(a), np.int64)
        hexes, centre = np.arange(len(board)), centre_levels(board)
        bare_matrix = kernel.los_matrix(board, hexes, levels=centre, model=model)
        ours_bare = bare_matrix[index[a], index[b]].astype(np.int64)
        for k in np.unique(layout):
            rows = np.flatnonzero(layout == k)
            counters = layout_counters(board, data, int(k))
            matrix = kernel.los_matrix(board, hexes, levels=centre, counters=counters, model=model)
            ours[rows] = matrix[index[a[rows]], index[b[rows]]]
        # the pairs the counters change in VASL or in hexkernel (its answer on the bare board against this one)
        either = changed | (compared & (ours_bare != ours))
        ours_blocked = ours == kernel.BLOCKED
        agree = compared & (ours_blocked == vasl_blocked)
        both_clear = compared & ~ours_blocked & ~vasl_blocked
        equal = both_clear & (ours == hindrance)
        counts = {
            "board": int(board_number), "model": model, "baseline": bare is not None,
            "pairs": int(len(a)), "excluded_exception": int((~compared).sum()), "compared": int(compared.sum()),
            "agree": int(agree.sum()), "both_clear": int(both_clear.sum()), "hindrance_equal": int(equal.sum()),
            "changed": int(changed.sum()), "changed_agree": int((changed & agree).sum()),
            "changed_both_clear": int((changed & both_clear).sum()),
            "changed_hindrance_equal": int((changed & equal).sum()),
            "either": int(either.sum()), "either_agree": int((either & agree).sum()),
            "either_both_clear": int((either & both_clear).sum()),
            "either_hindrance_equal": int((either & equal).sum()),
        }
        out[model] = with_shares(counts)
    return out


def _share(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else float("nan")


def with_shares(counts: dict) -> dict:
    """``counts`` with its percentages: ``agreement``, ``same_hindrance``, and the same of the changed pairs."""
    counts["agreement"] = _share(counts["agree"], counts["compared"])
    counts["same_hindrance"] = _share(counts["hindrance_equal"], counts["both_clear"])
    counts["changed_agreement"] = _share(counts["changed_agree"], counts["changed"])
    counts["changed_same_hindrance"] = _share(counts["changed_hindrance_equal"], counts["changed_both_clear"])
    counts["either_agreement"] = _share(counts["either_agree"], counts["either"])
    counts["either_same_hindrance"] = _share(counts["either_hindrance_equal"], counts["either_both_clear"])
    return counts


def total_of(results: list[dict], model: str) -> dict:
    """The counts of one model summed over boards, with their percentages."""
    total = {key: sum(r[key] for r in results) for key in COUNT_KEYS}
    total.update(board="all", model=model, baseline=any(r["baseline"] for r in results))
    return with_shares(total)


def format_rows(rows: list[dict]) -> str:
    """The table of per-board figures, one line a board and model."""
    head = (f"{'board':>6} {'model':>9} {'compared':>9} {'blocked/clear':>13} {'same hindrance':>14} "
            f"{'changed':>8} {'changed b/c':>11} {'changed same h.':>15} {'either':>7} {'either b/c':>10} "
            f"{'either same h.':>14}")
    lines = [head]
    for r in rows:
        changed = (f"{r['changed']:>8} {r['changed_agreement']:>10.2f}% {r['changed_same_hindrance']:>14.2f}%"
                   if r["baseline"] else f"{'no baseline':>36}")
        either = f"{r['either']:>7} {r['either_agreement']:>9.2f}% {r['either_same_hindrance']:>13.2f}%"
        lines.append(f"{r['board']:>6} {r['model']:>9} {r['compared']:>9} {r['agreement']:>12.2f}% "
                     f"{r['same_hindrance']:>13.2f}% {changed} {either}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: compare the boards, print the table, optionally write JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", nargs="+", type=int, default=None,
                        help="board numbers (default: every board with counter results)")
    parser.add_argument("--shared", default=None, help="the shared folder (default: ../shared of the repository)")
    parser.add_argument("--model", nargs="+", choices=("hex", "depiction", "vasl"), default=["vasl"],
                        help="hexkernel's LOS models (default: vasl)")
    parser.add_argument("--sample", type=int, default=None, help="seeded pairs per board (default: all)")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    args = parser.parse_args(argv)
    boards = args.boards or counter_boards(args.shared)
    if not boards:
        print(f"no VASL counter results in {counters_folder(args.shared)}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    per_board = [counter_figures(n, args.model, shared=args.shared, sample=args.sample) for n in boards]
    rows = [figures[model] for model in args.model for figures in per_board]
    totals = [total_of([figures[model] for figures in per_board], model) for model in args.model]
    print(format_rows(rows + totals))
    print(f"\ntotal time {time.perf_counter() - start:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({"boards": rows, "overall": totals}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
