"""The LOS steps the interactive page lists: hindrance hexes of a hindered LOS, blind hexes of a blind one.

The page cannot hold every step of every pair (N² traces), and it does not
need to: :func:`los_steps` records, with the hex model's own recorded walk
(the one :meth:`kernel.LOSResult.explain` and ``hexkernel los --explain``
read), only

* for each **visible pair with hindrance**, the steps that add hindrance
  (hex and DRM): what a player adds up to the hindrance DRM;
* for each pair **blocked by a blind hex** (A6.4), the steps whose effect is
  ``blind``: every obstacle or crest whose blind zone holds the lower end.

These pairs are a small part of all pairs; their walks are recorded in one
kernel call (:func:`kernel.line_of_sight.report.listed_steps`:
the walk of :meth:`kernel.LOSResult.explain`, pair after pair).  The result
is a count of entries per pair (row = viewer, column = target, both at
ground level; mostly 0, so it compresses to little)
and the entries of all pairs in key order (``viewer * N + target``), each a
``(hex, value)``: value > 0 the hindrance DRM of that step,
:data:`BLIND_STEP` a blind step.
"""

from __future__ import annotations

import numpy as np

#: Value of a step entry whose effect is ``blind``.
BLIND_STEP = -1
#: The most judged pixel runs the page keeps per pair (a blocked LOS has one block and fewer hindrance
#: runs than the hindrance cap).
RUNS_PER_PAIR = 16
#: ``classes`` entry of a hex's counters (SMOKE, vehicles) that add hindrance or block: a step without pixels.
COUNTERS_CLASS = 255
#: ``classes`` entry of the inherent terrain beside a hexside the LOS runs along (B.6): a step without pixels.
HEXSIDE_RUN_CLASS = 254


def los_steps(board, counters, visible_hindered: np.ndarray, blind: np.ndarray) -> dict:
    """The hindrance and blind steps of the pairs the masks name, as arrays.

    Parameters
    ----------
    board : Board
    counters : Counters or None
        As for the page's LOS tables.
    visible_hindered, blind : bool arrays (N, N)
        Ground-level pairs (row = viewer) whose hindrance steps, and whose
        blind steps, are recorded.

    Returns
    -------
    dict
        ``counts`` (uint8 (N, N): entries per pair, at most 255), ``hexes``
        (uint16) and ``values`` (int8, DRM or :data:`BLIND_STEP`): the
        entries of every pair, pairs in key order ``viewer * N + target``.

    Examples
    --------
    >>> import numpy as np, kernel
    >>> board = kernel.load("default")
    >>> a, b = board.index("71I4"), board.index("72M6")
    >>> mask = np.zeros((len(board), len(board)), bool); mask[a, b] = True
    >>> steps = los_steps(board, None, np.zeros_like(mask), mask)
    >>> [board.names[h] for h in steps["hexes"]], steps["values"].tolist()
    (['72G6', '72K6'], [-1, -1])
    """
    from kernel.line_of_sight.report import listed_steps

    n = len(board)
    keys = np.flatnonzero((visible_hindered | blind).ravel()).astype(np.int64)
    pair_counts, hexes, values = listed_steps(board, counters, keys, visible_hindered.ravel()[keys])
    counts = np.zeros(n * n, np.uint8)
    counts[keys] = pair_counts
    return {"counts": counts.reshape(n, n), "hexes": hexes.astype(np.uint16), "values": values.astype(np.int8)}


def judged_pixel_runs(board, counters, matrix: np.ndarray) -> dict:
    """The runs of art pixels that decided the depiction LOS of every ground-level pair, as packed arrays.

    Only the pairs ``a < b`` whose depiction LOS is blocked or hindered (``matrix != 0``) are walked: at
    ground level the walk is the same both ways (it starts from the smaller index), so the page reads
    pair ``(a, b)`` at ``(min, max)``.  A run is kept when it adds hindrance, blocks or casts a blind zone
    (the runs ``hexkernel los --depiction --explain`` lists with an effect), and so is a hex's counters
    step that does (class :data:`COUNTERS_CLASS`, pixels 0) and the inherent terrain beside a hexside the LOS
    runs along (class :data:`HEXSIDE_RUN_CLASS`, pixels 0), at most :data:`RUNS_PER_PAIR` per pair.

    Returns
    -------
    dict
        ``counts`` (uint8 (N, N), upper triangle), then per run in key order (``a * N + b``): ``hexes``
        (uint16), ``classes`` (uint8, an index into ``class_names``), ``pixels`` (uint16, x0, y0, x1, y1
        of the run's first and last pixel; uint32 on art wider than 65,536 pixels) and ``values`` (int8: DRM > 0,
        a block or blind mark, as :func:`~kernel.line_of_sight.depiction.judged_runs` gives them); ``class_names``: what each pixel class shows; ``hexside_run_name``: how a step of
        class :data:`HEXSIDE_RUN_CLASS` is named.

    Examples
    --------
    >>> import numpy as np, kernel, warnings
    >>> board = kernel.random_board("asl", 8, 6, seed=3)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", kernel.DepictionWarning)
    ...     matrix = kernel.los_matrix(board, model="depiction")
    ...     runs = judged_pixel_runs(board, None, matrix)
    >>> int(runs["counts"].sum()) == len(runs["values"]) > 0, int(np.tril(runs["counts"]).sum())
    (True, 0)
    """
    from kernel.line_of_sight.depiction import HEXSIDE_RUN_STEP, class_name, judged_run_classes, judged_runs

    n = len(board)
    first, second = np.nonzero(np.triu(matrix != 0, 1))
    runs, pair_counts = judged_runs(board, first, second, counters, keep=RUNS_PER_PAIR)
    counts = np.zeros((n, n), np.uint8)
    counts[first, second] = pair_counts
    kept = runs[np.arange(RUNS_PER_PAIR)[None, :] < pair_counts[:, None]]   # (runs, 7), pairs in key order
    wide = bool(kept.size) and int(kept[:, 2:6].max()) > np.iinfo(np.uint16).max   # art over 65,536 pixels
    n_classes = int(kept[:, 1].max()) + 1 if kept.size else 0
    counters_class, hexside_run_class = judged_run_classes()
    classes = np.select([kept[:, 1] == counters_class, kept[:, 1] == hexside_run_class],
                        [COUNTERS_CLASS, HEXSIDE_RUN_CLASS], kept[:, 1]).astype(np.uint8)
    return {"counts": counts, "hexes": kept[:, 0].astype(np.uint16), "classes": classes,
            "pixels": kept[:, 2:6].astype(np.uint32 if wide else np.uint16).ravel(), "values": kept[:, 6].astype(np.int8),
            "class_names": [class_name(board, c) for c in range(n_classes)], "hexside_run_name": HEXSIDE_RUN_STEP}
