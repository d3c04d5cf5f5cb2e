"""Derived data kept per board, owned by the layer that derives it, never written onto the ``Board``.

A :class:`BoardCache` maps a board to a dict of that layer's entries.  It is
keyed by the board's identity and holds the board only weakly: when a board
is collected, its entries go with it.  Each layer (LOS tables, trace
templates, movement tables, art, batch digests) owns one cache, so a board's
own attributes are only what :class:`~kernel.maps.board.Board` defines.

Examples
--------
>>> import kernel
>>> from kernel._cache import BoardCache
>>> cache = BoardCache("example")
>>> board = kernel.load("71")
>>> cache.get(board, "answer", lambda: 42), cache.get(board, "answer", lambda: 0)
(42, 42)
>>> len(cache)
1
>>> del board; import gc; _ = gc.collect()
>>> len(cache)
0
"""

from __future__ import annotations

import weakref


class BoardCache:
    """Per-board entries of one layer (see the module docstring).

    ``entries(board)`` is the board's dict (created on first use); the hot
    paths read it with ``cache.entries(board).get(key)``.
    """

    __slots__ = ("name", "_by_board")

    def __init__(self, name: str):
        self.name = name
        self._by_board: dict[int, dict] = {}

    def entries(self, board) -> dict:
        """The dict of ``board``'s entries (empty at first; freed when the board is collected)."""
        found = self._by_board.get(id(board))
        if found is None:
            found = self._by_board[id(board)] = {}
            weakref.finalize(board, self._by_board.pop, id(board), None)
        return found

    def get(self, board, key, build):
        """The entry ``key`` of ``board``, built by ``build()`` on first use."""
        entries = self.entries(board)
        value = entries.get(key)
        if value is None:
            value = entries[key] = build()
        return value

    def __len__(self) -> int:
        return len(self._by_board)

    def __repr__(self) -> str:
        return f"BoardCache({self.name!r}, {len(self)} boards)"
