"""Agreement of hexkernel's LOS with VASL's own LOS engine on every real board it was run on.

``../shared/vasl/engine/bdNN.npz`` (from the repository root; format in the
README beside it) holds what VASL's Java LOS engine answers for every ordered
pair of hexes of board NN, ground level to ground level, with no counters.
This module imports the same board from ``../shared/vasl/bdNN`` with
:func:`kernel.load_vasl_board`, computes :func:`kernel.los_matrix` over VASL's
centre Locations (:mod:`bench.vasl_centre`: the ground Location, or the deck of
a bridge over a depression), maps VASL's hex list onto the board's hex indices by
name, and compares blocked versus clear for every ordered pair of distinct
hexes.

Excluded from the comparison, and counted:

* pairs VASL answered with an exception (``status == 2``; board 3: its
  bottom half-hex row);
* pairs with a hex that VASL lists and the imported board does not have.

The disagreements are sorted into classes:

* **VASL blocks, hexkernel sees**: by VASL's reason text (it carries the
  rule number, e.g. ``(A6.2)``), with how VASL traced the LOS (across hex
  interiors, along a hexside, at 60 degrees);
* **hexkernel blocks, VASL sees**: by what blocks in our evaluation
  (:func:`kernel.los_pairs` for every pair: the reason, the terrain of the
  blocking hex and how its ground level compares with the two ends), and for
  a seeded sample of each class by the blocking step of the single-LOS
  explanation (:meth:`kernel.LOSResult.explain`: interior, hexside run,
  vertex or hexside crossing, with the rule).

The boards are those with engine results (:func:`engine_boards`: 36 in
``../shared/vasl/engine``).  Run from the repository root (about 3 minutes per
model for the 36 boards on the 2-core development machine once numba's cache
is warm)::

    .venv/bin/python -m bench.vasl_engine [--model hex|depiction|vasl] [--boards 1 2 ...] [--json FILE]

:func:`compare_board` is the reusable part; :func:`agreement_figures` gives the
counts of several models without the classes (``tests/test_vasl_engine.py``
asserts a floor per board and model with it, and the classes on boards 1-4
with :func:`compare_board`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

import numpy as np

import kernel
from bench.vasl_centre import centre_levels
from bench.vasl_hexside_art import KINDS, HexsideArt, classify_pairs
from bench.vasl_report import format_report
from tests.shared_data import shared_folder

#: The repository root (this file is ``bench/vasl_engine.py``).
REPO = Path(__file__).resolve().parents[1]
#: ``../shared`` seen from the repository root.
SHARED = shared_folder()
#: VASL's reason for a block by wall, hedge or bocage art; its pairs are sorted into kinds by
#: :mod:`bench.vasl_hexside_art`.
HEXSIDE_TERRAIN_REASON = "(B9.2)"
#: The boards whose engine results the agreement was first measured on (the boards of the
#: earlier figures); :func:`engine_boards` finds every board with results.
FIRST_BOARDS = (1, 2, 3, 4)
#: The class of the depiction model's differences that counting hindrance once per range from the higher
#: end (VASL's reading, ``model="vasl"``) removes: the rules count every hindrance hex crossed (B.10).
HINDRANCE_PER_HEX = "hindrance counted once per hex (B.10); VASL counts once per range"
#: ``along_hexside`` codes of the engine results.
ALONG_HEXSIDE = {0: "across hexes", 1: "along a hexside", 2: "at 60 degrees"}
#: VASL's status codes.
CLEAR, BLOCKED_BY_VASL, EXCEPTION = 0, 1, 2


def vasl_folder(shared: str | Path | None = None) -> Path:
    """The folder holding the VASL boards (``../shared/vasl`` unless ``shared`` names another ``shared``)."""
    return Path(shared if shared is not None else SHARED) / "vasl"


def engine_folder(shared: str | Path | None = None) -> Path:
    """The folder holding VASL's engine results (``../shared/vasl/engine``)."""
    return vasl_folder(shared) / "engine"


def board_folder_name(board_number: int) -> str:
    """VASL's folder name of a board: ``bd01`` for board 1."""
    return f"bd{int(board_number):02d}"


def engine_boards(shared: str | Path | None = None) -> tuple[int, ...]:
    """The board numbers that have both VASL's engine results and the board's data, ascending.

    Parameters
    ----------
    shared : str or Path, optional
        The ``shared`` folder (default: the repository root's ``../shared``).

    Returns
    -------
    tuple of int
        Every ``N`` with ``engine/bdNN.npz`` and a board folder ``bdNN`` (empty when the
        folder is absent).
    """
    folder = engine_folder(shared)
    if not folder.is_dir():
        return ()
    numbers = []
    for path in folder.glob("bd*.npz"):
        digits = path.stem[2:]
        if digits.isdigit() and (vasl_folder(shared) / board_folder_name(int(digits))).is_dir():
            numbers.append(int(digits))
    return tuple(sorted(numbers))


def load_engine_results(board_number: int, shared: str | Path | None = None) -> dict[str, np.ndarray]:
    """Read VASL's engine results for one board.

    Parameters
    ----------
    board_number : int
        The geomorphic board number (one of :func:`engine_boards`).
    shared : str or Path, optional
        The ``shared`` folder (default: the repository root's ``../shared``).

    Returns
    -------
    dict of str to numpy.ndarray
        ``hexes``, ``status``, ``hindrance``, ``reason``, ``reasons`` and
        ``along_hexside`` as documented in ``../shared/vasl/engine/README.md``.

    Raises
    ------
    FileNotFoundError
        No results for that board.
    """
    path = engine_folder(shared) / f"{board_folder_name(board_number)}.npz"
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


def load_board(board_number: int, shared: str | Path | None = None):
    """Import one VASL board as VASL loads it, keeping the importer's warnings.

    Parameters
    ----------
    board_number : int
    shared : str or Path, optional
        The ``shared`` folder (default: the repository root's ``../shared``).

    Returns
    -------
    board : kernel.Board
    messages : list of str
        The :class:`kernel.VaslImportWarning` messages of the import (other
        warnings are left alone).
    """
    path = vasl_folder(shared) / board_folder_name(board_number)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", kernel.VaslImportWarning)
        board = kernel.load_vasl_board(path)
    messages = []
    for item in caught:
        if issubclass(item.category, kernel.VaslImportWarning):
            messages.append(str(item.message))
        else:
            warnings.warn_explicit(item.message, item.category, item.filename, item.lineno)
    return board, messages


def board_indices(board, names: list[str]) -> np.ndarray:
    """The board's hex index of each of VASL's hex names (int64; -1 where the imported board lacks the hex)."""
    index = np.full(len(names), -1, dtype=np.int64)
    for i, name in enumerate(names):
        try:
            index[i] = board.index(name)
        except KeyError:
            pass
    return index


def _pair_name(names, i: int, j: int) -> str:
    return f"{names[i]}-{names[j]}"


def _examples(names, rows: np.ndarray, cols: np.ndarray, count: int, rng: np.random.Generator) -> list[str]:
    """Up to ``count`` example pairs, seeded, each unordered pair once (our LOS is symmetric)."""
    out: list[str] = []
    seen: set[tuple[int, int]] = set()
    for k in rng.permutation(len(rows)):
        key = (min(rows[k], cols[k]), max(rows[k], cols[k]))
        if key in seen:
            continue
        seen.add(key)
        out.append(_pair_name(names, int(rows[k]), int(cols[k])))
        if len(out) == count:
            break
    return out


def _along_counts(along: np.ndarray) -> dict[str, int]:
    counts = Counter(int(a) for a in along)
    return {ALONG_HEXSIDE.get(code, str(code)): counts[code] for code in sorted(counts)}


def _hexside_features(board, hex_index: int) -> str:
    features = sorted({name for d in range(6) for name in board.hexside_features(hex_index, d)})
    return "/".join(features) or "no hexside feature"


def our_blocking_class(board, reason: str, at: int, viewer: int, target: int) -> str:
    """Name the class of one pair that hexkernel blocks, from :func:`kernel.los_pairs` alone.

    Parameters
    ----------
    board : kernel.Board
    reason : str
        Our reason (an entry of :data:`kernel.REASONS`).
    at : int
        Index of the hex where the LOS is first blocked (-1 if none).
    viewer, target : int
        Indices of the two ends (ground level).

    Returns
    -------
    str
        The reason, the blocking hex's terrain (or hexside features) and, for
        hills and blind hexes, how its ground level compares with the ends'
        levels; for obstacles and hexsides whether the ends share a level.
    """
    if at < 0:
        return f"{reason} (no blocking hex)"
    ground = int(board.ground_level[at])
    ends = (int(board.ground_level[viewer]), int(board.ground_level[target]))
    high, low = max(ends), min(ends)
    one_level = "ends on one level" if high == low else "ends on different levels"
    terrain = "+".join(board.terrain_of(at)) or "open ground"
    if reason == "hill":
        if ground > high:
            where = "above both ends"
        elif ground == high and high > low:
            where = "at the higher end's level"
        else:
            where = f"level {ground}, ends {ends[0]}/{ends[1]}"
        return f"hill: ground {where}"
    if reason == "blind hex":
        return f"blind hex: behind {terrain if terrain != 'open ground' else 'a bare hill crest'}"
    if reason == "hexside":
        return f"hexside: {_hexside_features(board, at)} ({one_level})"
    if reason == "obstacle":
        return f"obstacle: {terrain} ({one_level})"
    return f"{reason}: {terrain}"


def _blocking_step(result) -> str:
    """The step of an explained LOS that blocks it (``"vertex [A6.1 obstacle]"``).

    The first step in the blocking hex (``result.blocked_at_name``) that blocks or
    makes the target blind; a LOS blocked by hindrances (+6) is named by the
    step where the total reaches +6.
    """
    at_block = [step for step in result.steps if step.hex == result.blocked_at_name]
    if result.reason_name == "hindrance":
        kind = at_block[0].kind if at_block else "no step"
        return f"{kind}: hindrance total reaches +6 [B.10]"
    for step in at_block + result.steps:
        if step.effect != "none":
            rule = f" [{step.rule}]" if step.rule != "-" else ""
            return f"{step.kind}{rule}"
    return "no blocking step"


def _levels(board, at: int, viewer: int, target: int) -> str:
    ends = sorted((int(board.ground_level[viewer]), int(board.ground_level[target])))
    return f"hex level {int(board.ground_level[at])}, ends {ends[0]}/{ends[1]}"


def compare_board(board_number: int, *, shared: str | Path | None = None, examples: int = 3,
                  explain_limit: int = 300, seed: int = 12, model: str = "hex") -> dict:
    """Compare hexkernel's ground-level LOS matrix with VASL's engine on one board.

    Parameters
    ----------
    board_number : int
        The geomorphic board number (one of :func:`engine_boards`).
    shared : str or Path, optional
        The ``shared`` folder (default: the repository root's ``../shared``).
    examples : int
        Example pairs kept per disagreement class.
    explain_limit : int
        At most this many pairs per "hexkernel blocks" class are explained
        with :func:`kernel.los` (a seeded sample; 0: none).
    seed : int
        Seed of the example and explanation samples.
    model : {"hex", "depiction", "vasl"}
        hexkernel's LOS model (``kernel.los_matrix(..., model=model)``); in
        the art models the "hexkernel blocks" classes come from the depiction
        walk's blocking hex and reason, and no pair is explained.  ``"vasl"``
        counts hindrance as VASL's engine does (once per range; the rules:
        once per hex), to measure how much of the remaining difference that
        reading makes.

    Returns
    -------
    dict
        JSON-ready, with the keys

        ``board`` (int), ``hexes`` (VASL's hex count), ``board_hexes`` (the
        imported board's), ``missing_hexes`` (names VASL lists and the board
        lacks), ``extra_hexes`` (the reverse), ``import_warnings`` (list of
        str), ``ordered_pairs`` (VASL's ordered pairs of distinct hexes),
        ``excluded_exception`` (pairs VASL answered with an exception),
        ``excluded_missing`` (further pairs with a missing hex),
        ``compared``, ``agree``, ``agreement`` (percent, blocked versus
        clear), ``both_blocked``, ``both_clear``, ``vasl_blocks_we_see``,
        ``we_block_vasl_sees``, ``hindrance_equal`` (pairs both call clear
        with equal hindrance DRM), ``seconds`` (wall time of this call) and
        ``classes``: ``{"vasl_blocks": [...], "we_block": [...]}``, each a
        list, largest first, of ``{"class", "count", "examples",
        "along_hexside"}`` (the latter: counts by how VASL traced the LOS);
        a ``we_block`` class also has ``explained`` (pairs explained) and
        ``blocking_steps`` (counts of the explained pairs by blocking step),
        ``levels`` (counts of every pair of the class by the blocking hex's
        ground level and the ends' levels) and ``vasl_hindrance`` (counts by
        VASL's hindrance DRM, e.g. ``{"+0": 12}``).
    """
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    engine = load_engine_results(board_number, shared)
    board, messages = load_board(board_number, shared)

    names = [str(name) for name in engine["hexes"]]
    n = len(names)
    ours_index = board_indices(board, names)
    present = ours_index >= 0
    vasl_names = set(names)

    status = engine["status"]
    off_diagonal = ~np.eye(n, dtype=bool)
    exception = off_diagonal & (status == EXCEPTION)
    both_present = present[:, None] & present[None, :]
    missing_pairs = off_diagonal & ~exception & ~both_present
    compared = off_diagonal & ~exception & both_present

    centre = centre_levels(board)
    matrix = kernel.los_matrix(board, np.arange(len(board)), levels=centre, model=model)
    ours_blocked = np.zeros((n, n), dtype=bool)
    where = np.flatnonzero(present)
    ours_blocked[np.ix_(where, where)] = matrix[np.ix_(ours_index[where], ours_index[where])] == kernel.BLOCKED
    vasl_blocked = status == BLOCKED_BY_VASL

    vasl_only = compared & vasl_blocked & ~ours_blocked
    ours_only = compared & ~vasl_blocked & ours_blocked
    both_clear = compared & ~vasl_blocked & ~ours_blocked
    ours_hindrance = np.zeros((n, n), dtype=np.int64)
    ours_hindrance[np.ix_(where, where)] = matrix[np.ix_(ours_index[where], ours_index[where])]
    hindrance_equal = both_clear & (ours_hindrance == engine["hindrance"])
    per_range_blocked = per_range_hindrance = None
    if model == "depiction":
        # the same walk counting hindrance once per range (VASL's reading): which differences it explains
        per_range = kernel.los_matrix(board, np.arange(len(board)), levels=centre, model="vasl")
        per_range_hindrance = np.zeros((n, n), dtype=np.int64)
        per_range_hindrance[np.ix_(where, where)] = per_range[np.ix_(ours_index[where], ours_index[where])]
        per_range_blocked = per_range_hindrance == kernel.BLOCKED

    along = engine["along_hexside"]
    reasons = [str(text) or "(no reason given)" for text in engine["reasons"]]

    # (a) VASL blocks, hexkernel sees: by VASL's reason text
    vasl_classes = []
    rows, cols = np.nonzero(vasl_only)
    codes = engine["reason"][rows, cols]
    for code in np.unique(codes):
        pick = codes == code
        label = reasons[code] if 0 <= code < len(reasons) else f"reason code {int(code)}"
        vasl_classes.append({
            "class": label,
            "count": int(pick.sum()),
            "examples": _examples(names, rows[pick], cols[pick], examples, rng),
            "along_hexside": _along_counts(along[rows[pick], cols[pick]]),
        })
        if HEXSIDE_TERRAIN_REASON in label:
            art = HexsideArt(vasl_folder(shared) / board_folder_name(board_number), board)
            vasl_classes[-1]["kinds"] = classify_pairs(
                art, zip(ours_index[rows[pick]], ours_index[cols[pick]]),
                lambda a, b: f"{board.name(a)}-{board.name(b)}", examples)

    # (b) hexkernel blocks, VASL sees: by what blocks in our evaluation
    our_classes = []
    rows, cols = np.nonzero(ours_only)
    if len(rows):
        viewers, targets = ours_index[rows], ours_index[cols]
        pairs = kernel.los_pairs(board, viewers, targets, levels=centre[viewers], target_levels=centre[targets],
                                 model=model)
        if model != "hex":
            explain_limit = 0
        labels = np.array([
            our_blocking_class(board, kernel.REASONS[int(r)], int(at), int(a), int(b))
            for r, at, a, b in zip(pairs.reason, pairs.blocked_at, viewers, targets)
        ])
        if per_range_blocked is not None:
            counted_per_hex = (pairs.reason == kernel.REASONS.index("hindrance")) & ~per_range_blocked[rows, cols]
            labels = np.where(counted_per_hex, HINDRANCE_PER_HEX, labels)
        for label in np.unique(labels):
            pick = np.flatnonzero(labels == label)
            sample = rng.permutation(pick)[:explain_limit] if explain_limit > 0 else pick[:0]
            steps = Counter(_blocking_step(kernel.los(board, board.location_name(int(viewers[k]), int(centre[viewers[k]])),
                                                      board.location_name(int(targets[k]), int(centre[targets[k]])),
                                                      model=model))
                            for k in sample)
            levels = Counter(_levels(board, int(pairs.blocked_at[k]), int(viewers[k]), int(targets[k]))
                             for k in pick if pairs.blocked_at[k] >= 0)
            vasl_hindrance = Counter(int(h) for h in engine["hindrance"][rows[pick], cols[pick]])
            our_classes.append({
                "class": str(label),
                "count": int(len(pick)),
                "examples": _examples(names, rows[pick], cols[pick], examples, rng),
                "along_hexside": _along_counts(along[rows[pick], cols[pick]]),
                "explained": int(len(sample)),
                "blocking_steps": dict(steps.most_common()),
                "levels": dict(levels.most_common()),
                "vasl_hindrance": {f"+{h}": vasl_hindrance[h] for h in sorted(vasl_hindrance)},
            })
    for classes in (vasl_classes, our_classes):
        classes.sort(key=lambda c: (-c["count"], c["class"]))

    # pairs both call clear with another hindrance DRM, by reading
    hindrance_classes = []
    rows, cols = np.nonzero(both_clear & ~hindrance_equal)
    if len(rows):
        ours_h, vasl_h = ours_hindrance[rows, cols], engine["hindrance"][rows, cols].astype(np.int64)
        labels = np.where(ours_h > vasl_h, "ours larger", "VASL's larger")
        if per_range_hindrance is not None:
            labels = np.where(per_range_hindrance[rows, cols] == vasl_h, HINDRANCE_PER_HEX, labels)
        for label in np.unique(labels):
            pick = labels == label
            hindrance_classes.append({
                "class": str(label),
                "count": int(pick.sum()),
                "examples": _examples(names, rows[pick], cols[pick], examples, rng),
                "along_hexside": _along_counts(along[rows[pick], cols[pick]]),
            })
        hindrance_classes.sort(key=lambda c: (-c["count"], c["class"]))

    n_compared = int(compared.sum())
    n_agree = int((compared & (vasl_blocked == ours_blocked)).sum())
    return {
        "board": int(board_number),
        "model": model,
        "hexes": n,
        "board_hexes": len(board),
        "missing_hexes": [name for name, ok in zip(names, present) if not ok],
        "extra_hexes": [name for name in board.names if name not in vasl_names],
        "import_warnings": messages,
        "ordered_pairs": int(off_diagonal.sum()),
        "excluded_exception": int(exception.sum()),
        "excluded_missing": int(missing_pairs.sum()),
        "compared": n_compared,
        "agree": n_agree,
        "agreement": 100.0 * n_agree / n_compared if n_compared else float("nan"),
        "both_blocked": int((compared & vasl_blocked & ours_blocked).sum()),
        "both_clear": int(both_clear.sum()),
        "vasl_blocks_we_see": int(vasl_only.sum()),
        "we_block_vasl_sees": int(ours_only.sum()),
        "hindrance_equal": int(hindrance_equal.sum()),
        "classes": {"vasl_blocks": vasl_classes, "we_block": our_classes, "hindrance": hindrance_classes},
        "seconds": time.perf_counter() - start,
    }


def agreement_figures(board_number: int, models=("hex", "depiction", "vasl"), *,
                      shared: str | Path | None = None) -> dict:
    """The agreement counts of :func:`compare_board` for several models at once, without the classes.

    Imports the board once and computes one matrix per model: what the tests need for a floor per
    board (a few seconds a board, against tens for :func:`compare_board`).

    Parameters
    ----------
    board_number : int
        One of :func:`engine_boards`.
    models : sequence of str
        LOS models, as in :func:`compare_board`.
    shared : str or Path, optional
        The ``shared`` folder (default: the repository root's ``../shared``).

    Returns
    -------
    dict
        ``{model: counts}``, each with the keys ``board``, ``model``, ``compared``, ``agree``,
        ``agreement`` (percent), ``both_clear``, ``hindrance_equal``, ``vasl_blocks_we_see`` and
        ``we_block_vasl_sees`` of :func:`compare_board`, and ``excluded_exception`` and
        ``excluded_missing``.
    """
    engine = load_engine_results(board_number, shared)
    board, _ = load_board(board_number, shared)
    names = [str(name) for name in engine["hexes"]]
    n = len(names)
    index = board_indices(board, names)
    present = index >= 0
    off_diagonal = ~np.eye(n, dtype=bool)
    exception = off_diagonal & (engine["status"] == EXCEPTION)
    both_present = present[:, None] & present[None, :]
    compared = off_diagonal & ~exception & both_present
    vasl_blocked = engine["status"] == BLOCKED_BY_VASL
    where = np.flatnonzero(present)
    centre = centre_levels(board)
    out = {}
    for model in models:
        matrix = kernel.los_matrix(board, np.arange(len(board)), levels=centre, model=model)
        ours = np.zeros((n, n), dtype=np.int64)
        ours[np.ix_(where, where)] = matrix[np.ix_(index[where], index[where])]
        ours_blocked = ours == kernel.BLOCKED
        both_clear = compared & ~vasl_blocked & ~ours_blocked
        n_compared = int(compared.sum())
        n_agree = int((compared & (vasl_blocked == ours_blocked)).sum())
        out[model] = {
            "board": int(board_number), "model": model, "compared": n_compared, "agree": n_agree,
            "agreement": 100.0 * n_agree / n_compared if n_compared else float("nan"),
            "both_clear": int(both_clear.sum()),
            "hindrance_equal": int((both_clear & (ours == engine["hindrance"])).sum()),
            "vasl_blocks_we_see": int((compared & vasl_blocked & ~ours_blocked).sum()),
            "we_block_vasl_sees": int((compared & ~vasl_blocked & ours_blocked).sum()),
            "excluded_exception": int(exception.sum()),
            "excluded_missing": int((off_diagonal & ~exception & ~both_present).sum()),
        }
    return out


def overall(results: list[dict]) -> dict:
    """Sum per-board results of :func:`compare_board`; classes are merged by name across boards.

    Parameters
    ----------
    results : list of dict

    Returns
    -------
    dict
        The count keys of :func:`compare_board` summed, ``agreement`` over
        all compared pairs, and ``classes`` with per-class counts and the
        first examples of each board.
    """
    keys = ("hexes", "ordered_pairs", "excluded_exception", "excluded_missing", "compared", "agree",
            "both_blocked", "both_clear", "vasl_blocks_we_see", "we_block_vasl_sees", "hindrance_equal")
    total = {key: sum(r[key] for r in results) for key in keys}
    total["boards"] = [r["board"] for r in results]
    total["agreement"] = 100.0 * total["agree"] / total["compared"] if total["compared"] else float("nan")
    total["classes"] = {}
    for side in ("vasl_blocks", "we_block", "hindrance"):
        merged: dict[str, dict] = {}
        for r in results:
            for c in r["classes"][side]:
                m = merged.setdefault(c["class"], {"class": c["class"], "count": 0, "examples": []})
                m["count"] += c["count"]
                m["examples"].extend(c["examples"][:1])
                for kind in c.get("kinds", ()):
                    mk = {k["kind"]: k for k in m.setdefault("kinds", [])}.get(kind["kind"])
                    if mk is None:
                        mk = dict(kind, count=0, examples=[])
                        m["kinds"].append(mk)
                    mk["count"] += kind["count"]
                    mk["examples"].extend(kind["examples"][:1])
        for m in merged.values():
            m.get("kinds", []).sort(key=lambda k: KINDS.index(k["kind"]))
        total["classes"][side] = sorted(merged.values(), key=lambda c: (-c["count"], c["class"]))
    return total


def main(argv: list[str] | None = None) -> int:
    """Command line: compare the boards, print the report, optionally write JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", nargs="+", type=int, default=None,
                        help="board numbers (default: every board with engine results)")
    parser.add_argument("--shared", default=None, help="the shared folder (default: ../shared of the repository)")
    parser.add_argument("--examples", type=int, default=3, help="example pairs per class")
    parser.add_argument("--explain-limit", type=int, default=300, help="pairs explained per class")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    parser.add_argument("--model", choices=("hex", "depiction", "vasl"), default="hex",
                        help="hexkernel's LOS model (default: hex)")
    args = parser.parse_args(argv)
    if not engine_folder(args.shared).is_dir():
        print(f"no VASL engine results in {engine_folder(args.shared)}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    results = [compare_board(b, shared=args.shared, examples=args.examples, explain_limit=args.explain_limit,
                             seed=args.seed, model=args.model)
               for b in (args.boards or engine_boards(args.shared))]
    total = overall(results)
    total["seconds"] = time.perf_counter() - start
    print(format_report(results, total))
    print(f"\ntotal time {total['seconds']:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({"boards": results, "overall": total}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
