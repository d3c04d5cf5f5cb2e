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
import sys
import warnings

import numpy as np

import kernel
from bench.vasl_engine import (BLOCKED_BY_VASL, EXCEPTION, board_folder_name, board_indices, engine_boards,
                               engine_folder, load_engine_results, vasl_folder)
from kernel.importers.vasl import hex_terrain, hexsides, pixels

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
            engine = load_engine_results(number, shared)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", kernel.VaslImportWarning)
                board = kernel.load_vasl_board(vasl_folder(shared) / board_folder_name(number))
            names = [str(name) for name in engine["hexes"]]
            n = len(names)
            index = board_indices(board, names)
            present = index >= 0
            where = np.flatnonzero(present)
            compared = ~np.eye(n, dtype=bool) & (engine["status"] != EXCEPTION) & present[:, None] & present[None, :]
            ours = np.zeros((n, n), dtype=np.int64)
            matrix = kernel.los_matrix(board, model="hex")
            ours[np.ix_(where, where)] = matrix[np.ix_(index[where], index[where])]
            ours_blocked = ours == kernel.BLOCKED
            vasl_blocked = engine["status"] == BLOCKED_BY_VASL
            both_clear = compared & ~ours_blocked & ~vasl_blocked
            out[number] = {
                "compared": int(compared.sum()),
                "agree": int((compared & (ours_blocked == vasl_blocked)).sum()),
                "both_clear": int(both_clear.sum()),
                "hindrance_equal": int((both_clear & (ours == engine["hindrance"])).sum()),
            }
    return out


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
        A setting without ``=``.
    """
    point: dict = {"constants": {}, "min_share": {}, "centre_keeps": True}
    for item in filter(None, text.split(",")):
        name, equals, value = item.partition("=")
        if not equals:
            raise ValueError(f"sweep setting {item!r}: expected NAME=VALUE")
        if name == "centre_keeps":
            point["centre_keeps"] = value not in ("0", "false", "False")
        elif name.startswith("min:"):
            point["min_share"][name[4:]] = float(value)
        else:
            point["constants"][name] = float(value)
    return point


def main(argv: list[str] | None = None) -> int:
    """Command line: the default import and each sweep point, over all boards and each half."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("points", nargs="*", help="sweep points, e.g. BUILDING_SHARE=0.2 min:grain=0.6")
    parser.add_argument("--boards", nargs="+", type=int, default=None)
    parser.add_argument("--shared", default=None)
    args = parser.parse_args(argv)
    if not engine_folder(args.shared).is_dir():
        print(f"no VASL engine results in {engine_folder(args.shared)}", file=sys.stderr)
        return 2
    boards = args.boards or engine_boards(args.shared)
    halves = {"even": [b for b in boards if b % 2 == 0], "odd": [b for b in boards if b % 2 == 1]}
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


if __name__ == "__main__":
    sys.exit(main())
