"""Agreement of hexkernel's LOS with VASL's engine on maps of two boards (seams, rotated boards).

``../shared/vasl/engine-levels/multi/NAME.npz`` (format in the README beside it) holds what VASL's
engine answers on two shared boards composed side by side or one above the other, one of them
possibly rotated, for 30,000 seeded ordered pairs of centre Locations whose hexes lie on different
boards or one of which is a merged seam hex.  This module builds the same map as a scenario (one
``ROW COLUMN <board folder> [rotated]`` line a board, as the README says), finds each of VASL's
hexes on it by VASL's name (a merged seam hex by its other name, where VASL's is not the map's),
computes :func:`kernel.los_matrix` and compares, per composition:

* **all pairs**: blocked versus clear, and the same hindrance DRM on the pairs both call clear;
* **seam pairs**: those with an end on a merged seam hex.

Pairs VASL answered with an exception are left out.  Run from the repository root::

    .venv/bin/python -m bench.vasl_multi [--maps NAME ...] [--model hex|depiction|vasl] [--json FILE]

:func:`multi_figures` is the reusable part (``tests/test_vasl_multi.py`` asserts floors with it).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

import kernel
from bench.vasl_centre import centre_levels
from bench.vasl_engine import BLOCKED_BY_VASL, EXCEPTION, vasl_folder

#: The keys of :func:`multi_figures` that are summed over maps.
COUNT_KEYS = ("pairs", "excluded_exception", "excluded_missing", "compared", "agree", "both_clear",
              "hindrance_equal", "seam", "seam_agree", "seam_both_clear", "seam_hindrance_equal")


def multi_folder(shared: str | Path | None = None) -> Path:
    """The folder of VASL's answers on two-board maps (``../shared/vasl/engine-levels/multi``)."""
    return vasl_folder(shared) / "engine-levels" / "multi"


def multi_maps(shared: str | Path | None = None) -> tuple[str, ...]:
    """The names of the compositions with results whose boards are all present, sorted."""
    folder = multi_folder(shared)
    if not folder.is_dir():
        return ()
    names = []
    for path in sorted(folder.glob("*.npz")):
        with np.load(path) as data:
            boards = [str(b) for b in data["boards"]]
        if all((vasl_folder(shared) / b).is_dir() for b in boards):
            names.append(path.stem)
    return tuple(names)


def load_multi_results(name: str, shared: str | Path | None = None) -> dict[str, np.ndarray]:
    """VASL's answers on one composition: the arrays of ``multi/NAME.npz``."""
    with np.load(multi_folder(shared) / f"{name}.npz") as data:
        return {key: data[key] for key in data.files}


def scenario_text(data: dict, shared: str | Path | None = None) -> str:
    """The scenario that builds the composition's map: one ``ROW COLUMN <board folder> [rotated]`` a board."""
    lines = ["[scenario]", "title = VASL composition", "ruleset = asl", "", "[boards]"]
    for folder, row, column, rotated in zip(data["boards"], data["board_row"], data["board_col"],
                                            data["board_rotated"]):
        path = (vasl_folder(shared) / str(folder)).resolve()
        lines.append(f"{int(row)} {int(column)} {path}" + (" rotated" if bool(rotated) else ""))
    return "\n".join(lines) + "\n"


def load_composition(data: dict, shared: str | Path | None = None):
    """The composition's map as a :class:`kernel.Board` (its scenario written to a temporary file)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "composition.scenario"
        path.write_text(scenario_text(data, shared))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", kernel.VaslImportWarning)
            return kernel.load(path)


def location_indices(board, data: dict) -> np.ndarray:
    """The map's hex index of each of VASL's Locations (int64; -1 where the map has no such hex).

    VASL's name (``loc_hex``) first; a merged seam hex that the map names otherwise is found by its
    name on the other board (``loc_other_name``).
    """
    out = np.full(len(data["loc_hex"]), -1, np.int64)
    for i, (name, other) in enumerate(zip(data["loc_hex"], data["loc_other_name"])):
        for candidate in (str(name), str(other)):
            if not candidate:
                continue
            try:
                out[i] = board.index(candidate)
                break
            except KeyError:
                continue
    return out


def multi_figures(name: str, models=("vasl",), *, shared: str | Path | None = None,
                  sample: int | None = None, seed: int = 5) -> dict:
    """The agreement with VASL's engine on one two-board composition, per model.

    Parameters
    ----------
    name : str
        One of :func:`multi_maps` (``"v02-04r"``).
    models : sequence of str
        hexkernel's LOS models.
    shared : str or Path, optional
        The ``shared`` folder (default: the repository root's ``../shared``).
    sample : int, optional
        Compare only this many seeded pairs (all when None).
    seed : int
        The sample's seed.

    Returns
    -------
    dict
        ``{model: counts}`` with the keys of :data:`COUNT_KEYS`, ``map``, ``model`` and the
        percentages ``agreement``, ``same_hindrance``, ``seam_agreement``, ``seam_same_hindrance``.
    """
    data = load_multi_results(name, shared)
    board = load_composition(data, shared)
    index = location_indices(board, data)
    a, b = data["a"].astype(np.int64), data["b"].astype(np.int64)
    status, hindrance = data["status"].astype(np.int64), data["hindrance"].astype(np.int64)
    if sample is not None and sample < len(a):
        keep = np.sort(np.random.default_rng(seed).choice(len(a), sample, replace=False))
        a, b, status, hindrance = a[keep], b[keep], status[keep], hindrance[keep]
    present = (index[a] >= 0) & (index[b] >= 0)
    compared = (status != EXCEPTION) & present
    on_seam = data["loc_other_name"] != ""
    seam = compared & (on_seam[a] | on_seam[b])
    vasl_blocked = status == BLOCKED_BY_VASL
    out = {}
    centre = centre_levels(board)
    for model in models:
        matrix = kernel.los_matrix(board, np.arange(len(board)), levels=centre, model=model)
        ours = np.zeros(len(a), np.int64)
        ours[present] = matrix[index[a[present]], index[b[present]]]
        ours_blocked = ours == kernel.BLOCKED
        agree = compared & (ours_blocked == vasl_blocked)
        both_clear = compared & ~ours_blocked & ~vasl_blocked
        equal = both_clear & (ours == hindrance)
        counts = {
            "map": name, "model": model, "pairs": int(len(a)),
            "excluded_exception": int((status == EXCEPTION).sum()),
            "excluded_missing": int(((status != EXCEPTION) & ~present).sum()),
            "compared": int(compared.sum()), "agree": int(agree.sum()), "both_clear": int(both_clear.sum()),
            "hindrance_equal": int(equal.sum()), "seam": int(seam.sum()), "seam_agree": int((seam & agree).sum()),
            "seam_both_clear": int((seam & both_clear).sum()), "seam_hindrance_equal": int((seam & equal).sum()),
        }
        out[model] = with_shares(counts)
    return out


def _share(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else float("nan")


def with_shares(counts: dict) -> dict:
    """``counts`` with its percentages: ``agreement``, ``same_hindrance``, and the same of the seam pairs."""
    counts["agreement"] = _share(counts["agree"], counts["compared"])
    counts["same_hindrance"] = _share(counts["hindrance_equal"], counts["both_clear"])
    counts["seam_agreement"] = _share(counts["seam_agree"], counts["seam"])
    counts["seam_same_hindrance"] = _share(counts["seam_hindrance_equal"], counts["seam_both_clear"])
    return counts


def total_of(results: list[dict], model: str) -> dict:
    """The counts of one model summed over compositions, with their percentages."""
    total = {key: sum(r[key] for r in results) for key in COUNT_KEYS}
    total.update(map="all", model=model)
    return with_shares(total)


def format_rows(rows: list[dict]) -> str:
    """The table of per-composition figures, one line a composition and model."""
    lines = [f"{'map':>8} {'model':>9} {'compared':>9} {'missing':>7} {'blocked/clear':>13} {'same hindrance':>14} "
             f"{'seam':>6} {'seam b/c':>9} {'seam same h.':>12}"]
    for r in rows:
        lines.append(f"{r['map']:>8} {r['model']:>9} {r['compared']:>9} {r['excluded_missing']:>7} "
                     f"{r['agreement']:>12.2f}% {r['same_hindrance']:>13.2f}% {r['seam']:>6} "
                     f"{r['seam_agreement']:>8.2f}% {r['seam_same_hindrance']:>11.2f}%")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: compare the compositions, print the table, optionally write JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--maps", nargs="+", default=None, help="composition names (default: every one)")
    parser.add_argument("--shared", default=None, help="the shared folder (default: ../shared of the repository)")
    parser.add_argument("--model", nargs="+", choices=("hex", "depiction", "vasl"), default=["vasl"],
                        help="hexkernel's LOS models (default: vasl)")
    parser.add_argument("--sample", type=int, default=None, help="seeded pairs per composition (default: all)")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    args = parser.parse_args(argv)
    maps = args.maps or multi_maps(args.shared)
    if not maps:
        print(f"no VASL two-board results in {multi_folder(args.shared)}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    per_map = [multi_figures(name, args.model, shared=args.shared, sample=args.sample) for name in maps]
    rows = [figures[model] for model in args.model for figures in per_map]
    totals = [total_of([figures[model] for figures in per_map], model) for model in args.model]
    print(format_rows(rows + totals))
    print(f"\ntotal time {time.perf_counter() - start:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({"maps": rows, "overall": totals}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
