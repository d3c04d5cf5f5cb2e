"""Incremental LOS: a held LOS matrix refreshed after counters change, pair by pair.

An engine holds the N x N LOS matrix of a :class:`~kernel.maps.counters.GameState`
(:class:`HeldLOSMatrix`); after counters are placed, moved or removed,
:meth:`HeldLOSMatrix.refresh` recomputes only the pairs whose trace meets a
changed hex (their ends included, since SMOKE in an end's own hex counts), and
leaves every other entry as it is.  The result equals a fresh
:func:`~kernel.line_of_sight.bulk.los_matrix` of the state.

Examples
--------
>>> import kernel
>>> board = kernel.load("default")
>>> state = kernel.GameState(board)
>>> held = kernel.HeldLOSMatrix(board, state)
>>> state.place_smoke("71J5", 3)
>>> refreshed = held.refresh()
>>> 0 < refreshed < len(board) ** 2 // 4
True
>>> bool((held.matrix == kernel.los_matrix(board, counters=state)).all())
True
"""

from __future__ import annotations

import numpy as np

from kernel.line_of_sight._hex import refresh as K
from kernel.line_of_sight._hex import rules
from kernel.line_of_sight.bulk import los_matrix
from kernel.line_of_sight.counters import GameState, counter_tables, hex_cells
from kernel.line_of_sight.inputs import LOS_CACHE, kernel_board_tables, model_code, source_arrays, template_tuple
from kernel.line_of_sight._templates.tracer import templates


#: Above this many changed hexes, :meth:`HeldLOSMatrix.refresh` recomputes the whole matrix (each
#: changed hex alone reaches a few per cent of the pairs of a map like the default scenario).
FULL_REFRESH_HEXES = 32


def inverse_templates(board):
    """``(inverse_start, inverse_template, offset_min, target_offset, target_dc, target_dy, col_max,
    y_max)``: per cell offset from a LOS's first end, the templates whose trace holds it (see
    :mod:`._hex.refresh`); cached."""
    cached = LOS_CACHE.entries(board).get("_los_inverse_templates")
    if cached is None:
        tpl = templates(board)
        lengths = np.diff(tpl.start)
        template_of_entry = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
        offsets = tpl.offset.astype(np.int64)
        offset_min = int(offsets.min())
        key = np.sort((offsets - offset_min) * len(lengths) + template_of_entry)
        key = key[np.concatenate(([True], key[1:] != key[:-1]))]   # each (offset, template) once (np.unique: 5x slower)
        by_offset = key // len(lengths)
        inverse_template = (key % len(lengths)).astype(np.int64)
        inverse_start = np.zeros(int(offsets.max()) - offset_min + 2, np.int64)
        np.cumsum(np.bincount(by_offset, minlength=len(inverse_start) - 1), out=inverse_start[1:])
        last = np.maximum(tpl.start[1:] - 1, 0)
        target_offset = np.where(lengths > 0, offsets[last], 0).astype(np.int64)
        displacement = np.arange(len(lengths), dtype=np.int64)
        target_dc = displacement // tpl.width - tpl.max_dc
        target_dy = displacement % tpl.width - tpl.max_dy
        cached = (inverse_start, inverse_template, offset_min, target_offset, target_dc, target_dy,
                  int(board.col.max()), int(board.y.max()))
        LOS_CACHE.entries(board)["_los_inverse_templates"] = cached
    return cached


class HeldLOSMatrix:
    """The LOS matrix of a :class:`GameState`, kept up to date by :meth:`refresh`.

    Parameters
    ----------
    board : Board
    state : GameState
        The counters; change them through its methods, then call
        :meth:`refresh`.
    sources : hex, Location or sequence of them, optional
        The matrix's Locations (default: every hex at ground level), and
    levels : int or sequence of int
        their levels, as for :func:`~kernel.line_of_sight.bulk.los_matrix`.

    Attributes
    ----------
    matrix : int8 array (N, N)
        As :func:`~kernel.line_of_sight.bulk.los_matrix` gives it: hindrance,
        or ``BLOCKED`` (-1).
    version : int
        The state's version the matrix reflects.
    """

    def __init__(self, board, state: GameState, sources=None, *, levels=0):
        if not isinstance(state, GameState):
            raise TypeError(f"state must be a kernel.GameState, not {type(state).__name__}")
        self.board = board
        self.state = state
        self.hexes, self.levels = source_arrays(board, sources, levels)
        with state.lock:
            self.matrix = los_matrix(board, self.hexes, levels=self.levels, counters=state)
            self.version = state.version
        order = np.argsort(self.hexes, kind="stable")
        self._location_rows = order.astype(np.int64)
        self._location_start = np.searchsorted(self.hexes[order], np.arange(len(board) + 1)).astype(np.int64)

    def refresh(self) -> int:
        """Bring :attr:`matrix` up to date with the state; returns the number of pairs recomputed.

        Only pairs whose trace (ends included) meets a hex changed since the
        last refresh are recomputed; the result equals a fresh ``los_matrix``.
        """
        with self.state.lock:  # the changes read, the tables and the version recorded are of one version
            return self._refresh()

    def _refresh(self) -> int:
        board, state = self.board, self.state
        changed = state.changed_since(self.version)
        if changed.size == 0:
            return 0
        if changed.size > FULL_REFRESH_HEXES:  # so many changes that the whole matrix is cheaper
            self.matrix[...] = los_matrix(board, self.hexes, levels=self.levels, counters=state)  # the same array, updated
            self.version = state.version
            return int(self.matrix.size)
        cells = hex_cells(board)
        changed_cells = cells[changed]
        inverse = inverse_templates(board)
        model = model_code(board)
        symmetric = model != rules.MODEL_VV
        tpl = template_tuple(board)
        count = K.refresh_kernel(model, symmetric, self.hexes, self.levels, cells, changed_cells, *inverse,
                                 self._location_start, self._location_rows, tpl, kernel_board_tables(board),
                                 counter_tables(board, state), self.matrix)
        if symmetric:
            col, yv = kernel_board_tables(board)[:2]
            K.mirror_kernel(self.hexes, cells, changed_cells, *inverse[:6], col, yv, *inverse[6:], tpl[0],
                            self._location_start, self._location_rows, self.matrix)
        self.version = state.version
        return int(count)
