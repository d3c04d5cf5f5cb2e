"""How the hex model's agreement with VASL's engine depends on the VASL importer's thresholds.

The importer reads each hex's terrain, ground level and hexside features from
the board's pixels with named constants (:mod:`kernel.importers.vasl.hex_terrain`,
:mod:`kernel.importers.vasl.hexsides`, :mod:`kernel.importers.vasl.pixels`).
This module imports the boards again with some of them set to other values,
or with a least share of the hex that a feature's art must cover to stay in
the hex (``min_share``, unless the art lies under the centre dot), and counts
the hex model's blocked/clear agreement with VASL's engine per board
(:mod:`bench.vasl_engine`).  The boards are split into two halves (even and
odd board numbers), so that a threshold chosen on one half is checked on the
other: a threshold that helps only the half it was chosen on fits those
boards, it is not a rule.

Run from the repository root; each argument is one sweep point, its settings
separated by commas (the importer's defaults are always measured first)::

    .venv/bin/python -m bench.vasl_import_sweep BUILDING_SHARE=0.2 min:grain=0.6 \\
        min:woods=0.5,centre_keeps=0 GROUND_FROM_CENTRE_DOT=0

A sweep point re-imports every board (about 10 s for the 36 boards on the
2-core development machine once numba's cache is warm).

``--toggles`` bounds what any hex-level reading can gain: on each board it
toggles each hex's woods, building, grain, brush, orchard and marsh alone,
and each hex's ground level to each other elevation drawn in it
(:func:`toggle_gains`), then keeps every toggle that still gains, largest
first (:func:`best_toggles`): a reading fitted hex by hex to VASL's answers.
It is a greedy fit, not a proven maximum (toggles that lose alone may gain
together), but a rule that holds on every board is unlikely to beat it by
much (about 5 minutes for the 36 boards).

>>> from kernel.importers.vasl import hex_terrain
>>> with import_rule({"BUILDING_SHARE": 0.2}):
...     print(hex_terrain.BUILDING_SHARE)
0.2
>>> hex_terrain.BUILDING_SHARE
0.06
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
import warnings

import numpy as np

import kernel
from bench.vasl_engine import (BLOCKED_BY_VASL, EXCEPTION, board_folder_name, board_indices, engine_boards,
                               engine_folder, load_engine_results, vasl_folder)
from kernel.importers.vasl import hex_terrain, hexsides, pixels
from kernel.importers.vasl.build import board_spec_from_files, compile_spec
from kernel.importers.vasl.files import read_board_files
from kernel.importers.vasl.pixels import pixel_grid
from kernel.maps.rulesets import load_ruleset
from kernel.maps.specs import HexSpec

#: The bins of the ``--toggles`` report's table, by the share of a hex its terrain's art covers.
SHARE_BINS = (0.0, 0.2, 0.3, 0.4, 0.5, 0.7, 1.01)
#: The terrain :func:`toggle_gains` toggles hex by hex: the obstacles and hindrances of the hex model's classes.
TOGGLED = ("woods", "wooden-building", "stone-building", "grain", "brush", "orchard", "marsh")

#: The importer's constants a sweep point may set, by the module holding them.
CONSTANTS = {
    hex_terrain: ("DOMINANT_SHARE", "SHARED_SHARE", "BUILDING_SHARE", "CENTRE_RADIUS", "CENTRE_MIN_SHARE",
                  "INHERENT_RADIUS", "INHERENT_MIN_PIXELS", "GROUND_FROM_CENTRE_DOT"),
    hexsides: ("HEXSIDE_MIN_SHARE",),
    pixels: ("HEXSIDE_SPAN", "HEXSIDE_DEPTH"),
}


@contextlib.contextmanager
def import_rule(constants: dict | None = None, min_share: dict | None = None, centre_keeps: bool = True):
    """Within the block, VASL imports use other thresholds; the importer's own are restored on leaving it.

    Parameters
    ----------
    constants : dict of str to number, optional
        New values of the importer's named constants (:data:`CONSTANTS`).
    min_share : dict of str to float, optional
        Terrain name -> the least share of a hex's area its art must cover for the hex to keep
        that terrain (on top of the importer's own rules; ``{"grain": 0.6}``).
    centre_keeps : bool
        A feature under the hex's centre dot stays whatever its share (B.1); False: ``min_share`` alone.

    Raises
    ------
    ValueError
        A constant that is not one of :data:`CONSTANTS`.
    """
    constants = dict(constants or {})
    owner = {name: module for module, names in CONSTANTS.items() for name in names}
    for name in constants:
        if name not in owner:
            raise ValueError(f"import constant {name!r}: expected one of {', '.join(sorted(owner))}")
    saved = {name: getattr(owner[name], name) for name in constants}
    features = hex_terrain._hex_features
    limits = dict(min_share or {})

    def filtered(los, lookup, ruleset, counts, cx, cy):
        chosen, shares, centre_code, centre_key = features(los, lookup, ruleset, counts, cx, cy)
        kept = [key for key in chosen
                if not isinstance(key, int) or ruleset.terrain_names[key] not in limits
                or shares.get(key, 0.0) >= limits[ruleset.terrain_names[key]] or (centre_keeps and key == centre_key)]
        return kept, shares, centre_code, centre_key

    try:
        for name, value in constants.items():
            setattr(owner[name], name, type(saved[name])(value))
        if limits:
            hex_terrain._hex_features = filtered
        yield
    finally:
        hex_terrain._hex_features = features
        for name, value in saved.items():
            setattr(owner[name], name, value)


class _EngineCounts:
    """VASL's answers for one board, and the hex model's agreement counts of an imported board against them."""

    def __init__(self, number: int, shared=None):
        self.engine = load_engine_results(number, shared)
        self.names = [str(name) for name in self.engine["hexes"]]

    def counts(self, board) -> dict[str, int]:
        engine, n = self.engine, len(self.names)
        index = board_indices(board, self.names)
        present = index >= 0
        where = np.flatnonzero(present)
        compared = ~np.eye(n, dtype=bool) & (engine["status"] != EXCEPTION) & present[:, None] & present[None, :]
        ours = np.zeros((n, n), dtype=np.int64)
        matrix = kernel.los_matrix(board, model="hex")
        ours[np.ix_(where, where)] = matrix[np.ix_(index[where], index[where])]
        ours_blocked = ours == kernel.BLOCKED
        vasl_blocked = engine["status"] == BLOCKED_BY_VASL
        both_clear = compared & ~ours_blocked & ~vasl_blocked
        return {
            "compared": int(compared.sum()),
            "agree": int((compared & (ours_blocked == vasl_blocked)).sum()),
            "both_clear": int(both_clear.sum()),
            "hindrance_equal": int((both_clear & (ours == engine["hindrance"])).sum()),
        }


def _read(number: int, shared=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        return read_board_files(vasl_folder(shared) / board_folder_name(number))


def _spec(files):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        return board_spec_from_files(files)


def hex_agreement(board_numbers, *, shared=None, **rule) -> dict[int, dict[str, int]]:
    """Import each board (under :func:`import_rule` ``(**rule)``) and count the hex model's agreement.

    Returns
    -------
    dict
        Board number -> ``compared``, ``agree`` (blocked/clear), ``both_clear`` and
        ``hindrance_equal``, counted as :func:`bench.vasl_engine.agreement_figures` counts them.
    """
    out = {}
    with import_rule(**rule):
        for number in board_numbers:
            engine = _EngineCounts(number, shared)
            out[number] = engine.counts(compile_spec(_spec(_read(number, shared))))
    return out


def toggle_gains(number: int, *, shared=None, features=TOGGLED, least_share: float = 0.01,
                 least_level_share: float = 0.05) -> tuple[int, list[dict]]:
    """What reading one hex otherwise would gain: the upper bound of any hex-level import rule on a board.

    Each hex whose art holds one of ``features`` over at least ``least_share`` of its area, or that
    imports it, gets that feature toggled alone (removed, or added); each hex gets each other
    elevation covering at least ``least_level_share`` of it as its ground level.

    Returns
    -------
    agree : int
        Pairs the hex model agrees on with the importer's reading.
    toggles : list of dict
        ``cell``, ``feature`` (or ``level``), ``share`` (of the hex), ``centre`` (the feature lies under
        the centre dot), ``imported`` (the importer gave the hex that feature or level) and ``gain``
        (agreeing pairs gained by toggling it alone; negative: lost).
    """
    engine = _EngineCounts(number, shared)
    files = _read(number, shared)
    seen: list[tuple[dict, object]] = []
    features_of = hex_terrain._hex_features

    def recording(*args):
        chosen, shares, centre_code, centre_key = features_of(*args)
        seen.append((shares, centre_key))
        return chosen, shares, centre_code, centre_key

    hex_terrain._hex_features = recording
    try:
        spec = _spec(files)
    finally:
        hex_terrain._hex_features = features_of
    ruleset = load_ruleset("asl")
    los = files.los_data
    grid = pixel_grid(los.width, los.height, los.grid_width, los.grid_height)
    inside = grid.hex_of.ravel() >= 0
    elevations = np.bincount(grid.hex_of.ravel()[inside].astype(np.int64) * 256
                             + los.elevation.ravel()[inside].astype(np.int64) + 128,
                             minlength=len(grid.cells) * 256).reshape(-1, 256)
    base = engine.counts(compile_spec(spec))["agree"]
    toggles = []

    def trial(cell, changed: HexSpec, **fields):
        kept = spec.hexes[cell]
        spec.hexes[cell] = changed
        gain = engine.counts(compile_spec(spec))["agree"] - base
        spec.hexes[cell] = kept
        toggles.append(dict(cell=cell, gain=gain, **fields))

    for i, cell in enumerate(grid.cells):
        shares, centre_key = seen[i]
        hex_spec = spec.hexes[cell]
        for name in features:
            key = ruleset.terrain_index(name)
            share, imported = shares.get(key, 0.0), name in hex_spec.terrain
            if share < least_share and not imported:
                continue
            others = tuple(t for t in hex_spec.terrain
                           if t != name and not (name.endswith("building") and t.endswith("building")))
            terrain = others if imported else tuple(sorted(others + (name,), key=ruleset.terrain_index))
            levels = hex_spec.building_levels if any(t.endswith("building") for t in terrain) else 0
            trial(cell, dataclasses.replace(hex_spec, terrain=terrain, building_levels=levels),
                  feature=name, share=share, centre=centre_key == key, imported=imported)
        histogram = elevations[i]
        for level in np.flatnonzero(histogram >= least_level_share * max(histogram.sum(), 1)) - 128:
            if level != hex_spec.level:
                trial(cell, dataclasses.replace(hex_spec, level=int(level)), level=int(level),
                      share=float(histogram[level + 128] / histogram.sum()), centre=False, imported=False)
    return base, toggles


def best_toggles(number: int, toggles: list[dict], *, shared=None) -> int:
    """The agreement reached by applying ``toggles`` (of :func:`toggle_gains`) that gain, largest gain first,
    each kept only when it still raises the agreement: a board-fitted reading, no rule."""
    engine = _EngineCounts(number, shared)
    spec = _spec(_read(number, shared))
    ruleset = load_ruleset("asl")
    agree = engine.counts(compile_spec(spec))["agree"]
    for toggle in sorted((t for t in toggles if t["gain"] > 0), key=lambda t: -t["gain"]):
        cell = tuple(toggle["cell"])
        kept = spec.hexes[cell]
        if "level" in toggle:
            spec.hexes[cell] = dataclasses.replace(kept, level=toggle["level"])
        else:
            name = toggle["feature"]
            others = tuple(t for t in kept.terrain
                           if t != name and not (name.endswith("building") and t.endswith("building")))
            terrain = others if name in kept.terrain else tuple(sorted(others + (name,), key=ruleset.terrain_index))
            levels = kept.building_levels if any(t.endswith("building") for t in terrain) else 0
            spec.hexes[cell] = dataclasses.replace(kept, terrain=terrain, building_levels=levels)
        now = engine.counts(compile_spec(spec))["agree"]
        if now > agree:
            agree = now
        else:
            spec.hexes[cell] = kept
    return agree


def summary(counts: dict[int, dict[str, int]], boards=None) -> tuple[float, int, float]:
    """``(agreement %, disagreeing pairs, same hindrance %)`` over ``boards`` (default: all of ``counts``)."""
    picked = [counts[b] for b in (boards if boards is not None else counts)]
    compared = sum(c["compared"] for c in picked)
    agree = sum(c["agree"] for c in picked)
    clear = sum(c["both_clear"] for c in picked)
    return 100.0 * agree / compared, compared - agree, 100.0 * sum(c["hindrance_equal"] for c in picked) / clear


def parse_point(text: str) -> dict:
    """One sweep point from ``NAME=VALUE,min:TERRAIN=SHARE,centre_keeps=0`` (:func:`import_rule`'s arguments).

    >>> parse_point("BUILDING_SHARE=0.2,min:grain=0.6,centre_keeps=0")
    {'constants': {'BUILDING_SHARE': 0.2}, 'min_share': {'grain': 0.6}, 'centre_keeps': False}

    Raises
    ------
    ValueError
        A setting without ``=``, or a value that is not a number.
    """
    point: dict = {"constants": {}, "min_share": {}, "centre_keeps": True}
    for item in filter(None, text.split(",")):
        name, equals, value = item.partition("=")
        if not equals:
            raise ValueError(f"sweep setting {item!r}: expected NAME=VALUE")
        if name == "centre_keeps":
            point["centre_keeps"] = value not in ("0", "false", "False")
            continue
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"sweep setting {item!r}: expected a number after '=', got {value!r}") from None
        if name.startswith("min:"):
            point["min_share"][name[4:]] = number
        else:
            point["constants"][name] = number
    return point


def main(argv: list[str] | None = None) -> int:
    """Command line: the default import and each sweep point, over all boards and each half."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("points", nargs="*", help="sweep points, e.g. BUILDING_SHARE=0.2 min:grain=0.6")
    parser.add_argument("--boards", nargs="+", type=int, default=None)
    parser.add_argument("--shared", default=None)
    parser.add_argument("--toggles", action="store_true",
                        help="instead of sweep points: the gain of toggling each hex's terrain and level alone, "
                             "and the agreement reached by keeping every toggle that gains (toggle_gains, best_toggles)")
    args = parser.parse_args(argv)
    if not engine_folder(args.shared).is_dir():
        print(f"no VASL engine results in {engine_folder(args.shared)}", file=sys.stderr)
        return 2
    boards = args.boards or engine_boards(args.shared)
    halves = {"even": [b for b in boards if b % 2 == 0], "odd": [b for b in boards if b % 2 == 1]}
    if args.toggles:
        return _print_toggles(boards, halves, args.shared)
    base = None
    for text in ["", *args.points]:
        counts = hex_agreement(boards, shared=args.shared, **parse_point(text))
        base = base or counts
        cells = []
        for label, picked in (("all", boards), *halves.items()):
            if not picked:
                continue
            agreement, wrong, hindrance = summary(counts, picked)
            gained = summary(base, picked)[1] - wrong
            cells.append(f"{label} {agreement:.3f} % ({gained:+d} pairs), same hindrance {hindrance:.2f} %")
        print(f"{text or 'importer defaults'}: " + "; ".join(cells), flush=True)
    return 0


def _print_toggles(boards, halves, shared) -> int:
    """The ``--toggles`` report: per board and half, and per toggled feature."""
    compared, base, best, by_kind, by_share = {}, {}, {}, {}, {}
    for number in boards:
        base[number], toggles = toggle_gains(number, shared=shared)
        best[number] = best_toggles(number, toggles, shared=shared)
        compared[number] = _EngineCounts(number, shared).counts(compile_spec(_spec(_read(number, shared))))["compared"]
        for t in toggles:
            kind = by_kind.setdefault(t.get("feature", "ground level"), [0, 0, 0])
            kind[0] += 1
            kind[1] += t["gain"] > 0
            kind[2] += max(t["gain"], 0)
            if t.get("imported") and "feature" in t:
                share = next(k for k, bound in enumerate(SHARE_BINS[1:]) if t["share"] < bound)
                cell = by_share.setdefault(t["feature"], {}).setdefault(share, [0, 0])
                cell[0] += 1
                cell[1] += t["gain"]
        print(f"board {number}: {100 * base[number] / compared[number]:.2f} % -> "
              f"{100 * best[number] / compared[number]:.2f} % with every toggle that gains", flush=True)
    for label, picked in (("all", boards), *halves.items()):
        if picked:
            total = sum(compared[b] for b in picked)
            print(f"{label}: {100 * sum(base[b] for b in picked) / total:.3f} % -> "
                  f"{100 * sum(best[b] for b in picked) / total:.3f} % with every toggle that gains")
    for kind, (tried, gaining, gain) in by_kind.items():
        print(f"{kind}: {tried} toggles, {gaining} gain alone, {gain} pairs in all")
    print("hexes importing a terrain, by the share of the hex its art covers: hexes / pairs gained reading "
          "each alone without it")
    print("| terrain | " + " | ".join(f"{lo}-{hi}" for lo, hi in zip(SHARE_BINS, SHARE_BINS[1:])) + " |")
    for name, cells in by_share.items():
        print(f"| {name} | " + " | ".join(f"{cells[k][0]} / {cells[k][1]:+,}" if k in cells else "-"
                                         for k in range(len(SHARE_BINS) - 1)) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
