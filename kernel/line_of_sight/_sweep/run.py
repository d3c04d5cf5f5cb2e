"""The per-source sweep called from Python: the board's prefix tree of the trace templates, the slices each
source's row is cut into, and the rows themselves (private; see :mod:`kernel.line_of_sight.fields` and
:mod:`kernel.line_of_sight.bulk`)."""

from __future__ import annotations

import numpy as np

from kernel._threads import threads_for
from kernel.line_of_sight._hex.pairs import CHUNK
from kernel.line_of_sight._sweep.rows import source_fields_kernel
from kernel.line_of_sight._templates import tree as T
from kernel.line_of_sight.counters import counter_tables
from kernel.line_of_sight.inputs import LOS_CACHE, cell_steps, every_hex, kernel_board_tables, ruleset_code, template_tuple


#: The per-source rows' work per target of one source, in microseconds on one thread (the default map: 0.05 from
#: a ground hex, 0.11 from a hilltop), for the thread count of a call.
TARGET_US = 0.06


def source_rows(board, hexes, source_levels, target_levels, counters) -> np.ndarray:
    """Row k: the LOS from ``hexes[k]`` at ``source_levels[k]`` to every hex, its hindrance DRM (not
    saturated) or BLOCKED (int32, K x N; the per-source kernel,
    :mod:`kernel.line_of_sight._sweep.rows`)."""
    out = np.empty((len(hexes), len(board)), np.int32)
    threads = threads_for(TARGET_US * len(hexes) * len(board))
    parts = source_parts(len(hexes), threads, len(board))
    source_fields_kernel.run(threads, ruleset_code(board), hexes, source_levels, every_hex(board), target_levels,
                         template_tuple(board), kernel_board_tables(board), counter_tables(board, counters),
                           cell_steps(board), template_trie(board), parts, out)
    return out


def source_parts(sources: int, threads: int, targets: int) -> int:
    """Into how many slices of the targets :func:`source_rows` cuts each source's row: 1 on one thread or
    with at least two sources per thread, 2 with one to two per thread, else enough to give every
    thread a slice; never a slice under ``CHUNK`` targets.

    Each slice of a source sets up the source's codes and walks the shared first hexes of its lines
    again (2 slices of each of 10 sources on 2 threads took 1.1-1.2x the time of whole rows; 6 slices
    of one source 1.25x 2 slices).

    Examples
    --------
    >>> source_parts(1, 2, 1332), source_parts(3, 2, 1332), source_parts(10, 2, 1332), source_parts(1, 16, 1332)
    (2, 2, 1, 6)
    """
    if threads <= 1 or sources >= 2 * threads:
        parts = 1
    elif sources >= threads:
        parts = 2
    else:
        parts = -(-threads // max(1, sources))
    return max(1, min(parts, -(-targets // CHUNK)))


def template_trie(board) -> tuple:
    """The trace templates' prefix tree (:mod:`kernel.line_of_sight._templates.tree`), compressed, as the
    per-source kernel takes it: ``(nodes, entries, targets, depth, range_limit)``, built on first use and
    cached on the board (of templates of more than ``MAX_ENTRIES`` entries, the lines up to
    ``range_limit``: :func:`~kernel.line_of_sight._templates.tree.tree_templates`)."""
    cached = LOS_CACHE.entries(board).get("_los_template_trie")
    if cached is None:
        grid, base, start, packed, ranges, max_dc, max_dy = template_tuple(board)
        keep, range_limit = T.tree_templates(start, max_dc, max_dy, T.MAX_ENTRIES)
        nodes, targets = T.build_trie(start, packed, max_dy, keep)
        nodes, entries = T.compress_trie(nodes)
        depth = int((nodes[:, T.N_DEPTH] + nodes[:, T.N_COUNT]).max()) if nodes.shape[0] else 1
        cached = (nodes, entries, targets, depth, np.int64(range_limit))
        LOS_CACHE.entries(board)["_los_template_trie"] = cached
    return cached
