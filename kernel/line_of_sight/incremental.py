"""Incremental LOS: a held LOS matrix refreshed after counters change, by what can change.

An engine holds the N x N LOS matrix of a :class:`~kernel.maps.counters.GameState`
(:class:`HeldLOSMatrix`); after counters are placed, moved or removed,
:meth:`HeldLOSMatrix.refresh` recomputes only what the changes can alter:

* a change that cannot alter any LOS recomputes nothing: a unit moved,
  placed or removed where units do not block LOS (ASL, V&V: the ruleset's
  ``units_block_los``), a counter put back as it was;
* a change that can recomputes the pairs whose trace meets a changed hex
  (their ends included, since SMOKE in an end's own hex counts), and where
  the changes only add (SMOKE, a vehicle or a blocking unit placed), not
  the pairs already blocked: more hindrance never unblocks a LOS;
* when those pairs are so many that evaluating them one by one would cost
  more than a new matrix, the matrix is computed anew instead.

Every other entry is left as it is, and the result equals a fresh
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
>>> state.place_unit("71I4", side="axis"); state.move_unit("71I4", "71I5")
>>> held.refresh()  # an ASL unit hinders no LOS
0
>>> bool((held.matrix == kernel.los_matrix(board, counters=state)).all())
True
"""

from __future__ import annotations

import numpy as np

from kernel.line_of_sight._hex import refresh as K
from kernel.line_of_sight._hex import rules
from kernel.line_of_sight.bulk import los_matrix, matrix_into
from kernel.line_of_sight.counters import GameState, counter_tables, hex_cells, los_kinds
from kernel.line_of_sight.inputs import LOS_CACHE, kernel_board_tables, ruleset_code, source_arrays, template_tuple
from kernel.line_of_sight._templates.tracer import templates


#: What a refresh costs, in units of a new matrix's time per pair (measured on the default map and random maps
#: of each ruleset, one thread): one pair evaluated by its own walk, per LOS model (a new ASL matrix shares
#: its walks between the pairs of a row), and one template looked at while the pairs are listed.  A refresh
#: whose cost would be over the matrix's pairs computes a new matrix instead.
PAIR_COST = {rules.RULESET_ASL: 2.5, rules.RULESET_VV: 1.5, rules.RULESET_CCN: 1.5}
VISIT_COST = 0.1
#: The share of the templates looked at that list a pair to evaluate (measured as above): fewer where the
#: changes only add, since the pairs already blocked are not listed.
LISTED_SHARE = {True: 0.05, False: 0.15}


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
    pairs_recomputed : int
        Pairs evaluated by every :meth:`refresh` so far (a new matrix counts
        all of its entries).
    rebuilds : int
        How many refreshes computed a new matrix.

    See Also
    --------
    kernel.los_matrix : a fresh matrix of the same pairs.
    kernel.GameState : the counters whose changes it follows.
    kernel.can_see : one pair under the same state.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> state = kernel.GameState(board)
    >>> held = kernel.HeldLOSMatrix(board, state)
    >>> held
    <HeldLOSMatrix of 1332 x 1332 Locations at state version 0: 0 pairs recomputed in 0 refreshes, 0 of them new matrices>
    >>> int(held.matrix[board.index("71I4"), board.index("72M6")])  # hindrance, or kernel.BLOCKED
    -1
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
            self._seen = self._counter_values(np.arange(len(board)))
        order = np.argsort(self.hexes, kind="stable")
        self._location_rows = order.astype(np.int64)
        self._location_start = np.searchsorted(self.hexes[order], np.arange(len(board) + 1)).astype(np.int64)
        self._kinds = los_kinds(board)
        self.pairs_recomputed = 0
        self.rebuilds = 0
        self.refreshes = 0

    def __repr__(self) -> str:
        n = len(self.hexes)
        return (f"<HeldLOSMatrix of {n} x {n} Locations at state version {self.version}: {self.pairs_recomputed} "
                f"pairs recomputed in {self.refreshes} refreshes, {self.rebuilds} of them new matrices>")

    def refresh(self) -> int:
        """Bring :attr:`matrix` up to date with the state; returns the number of pairs recomputed.

        Only what the changes since the last refresh can alter is recomputed
        (module docstring): nothing after units moved where they do not
        block LOS, the pairs whose trace (ends included) meets a changed hex
        otherwise, or a new matrix where that is cheaper (then every entry
        counts).  The result equals a fresh ``los_matrix``.
        """
        state = self.state
        with state.lock:  # the changes read, the tables and the version recorded are of one version
            if state.version == self.version:
                return 0
            count = self._refresh()
            self.version = state.version
            self.refreshes += 1
            self.pairs_recomputed += count
            return count

    def _counter_values(self, hexes: np.ndarray) -> np.ndarray:
        """What a LOS reads of the counters of ``hexes`` (one row each: SMOKE DRM, SMOKE height, the vehicles'
        count, a unit where units block LOS, the SMOKE's base level), as int32."""
        state = self.state
        values = np.zeros((len(hexes), 5), np.int32)
        values[:, 0] = state._smoke[hexes]
        values[:, 4] = np.where(values[:, 0] > 0, state._base[hexes], 0)   # the SMOKE's Location
        values[:, 1] = np.where(values[:, 0] > 0, state._height[hexes], 0)
        values[:, 2] = state._vehicles[hexes]
        if "units" in los_kinds(self.board):
            values[:, 3] = state._units[hexes] > 0
        return values

    def _refresh(self) -> int:
        board, state = self.board, self.state
        changed = state.changed_since(self.version, self._kinds)
        if changed.size == 0:
            return 0
        before, now = self._seen[changed], self._counter_values(changed)
        differs = (before != now).any(axis=1)
        if not differs.any():  # each changed counter is back as it was
            return 0
        changed, before, now = changed[differs], before[differs], now[differs]
        self._seen[changed] = now
        ruleset = ruleset_code(board)
        symmetric = ruleset != rules.RULESET_VV
        n = len(self.hexes)
        pairs = n * (n - 1) // 2 if symmetric else n * (n - 1)
        # only additions: more SMOKE (a thicker or taller one), more vehicles, a unit where there was none
        # (SMOKE moved to another Location of its hex no longer covers the one it left: not an addition)
        adds = bool(((now[:, 0] >= before[:, 0]) & (now[:, 1] >= before[:, 1]) & (now[:, 2] >= before[:, 2])
                     & (now[:, 3] >= before[:, 3]) & ((now[:, 4] == before[:, 4]) | (before[:, 0] == 0))).all())
        cells = hex_cells(board)
        count = K.refresh_kernel(ruleset, symmetric, self.hexes, self.levels, cells, cells[changed],
                                 *inverse_templates(board), self._location_start, self._location_rows,
                                 template_tuple(board), kernel_board_tables(board), counter_tables(board, state),
                                 adds, float(pairs), VISIT_COST, PAIR_COST.get(ruleset, 2.5), LISTED_SHARE[adds],
                                 self.matrix)
        if count < 0:  # so many pairs that a new matrix is cheaper
            matrix_into(board, self.hexes, self.levels, state, self.matrix)  # the same array, written anew
            self.rebuilds += 1
            return int(self.matrix.size)
        return int(count)
