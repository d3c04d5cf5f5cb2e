"""The units of a :class:`~kernel.maps.counters.GameState` by side: their reads and changes (a mixin of
the state, which holds ``_unit_sides``, ``_known_sides``, ``_units`` and the change log; its public
methods hold the state's lock like the state's own)."""

from __future__ import annotations

import numpy as np

from kernel.maps.counter_checks import checked_side as _checked_side, known_side, sides_text as _sides_text

UNITS = 2  # the code of "units" in CHANGE_KINDS


class UnitsBySide:
    """Units by side of a game state (see :class:`~kernel.maps.counters.GameState`)."""

    # --- units by side ------------------------------------------------------------------------------
    @property
    def sides(self) -> tuple:
        """The sides the state knows (sorted): those declared (``sides=``) and those of every unit placed."""
        return tuple(sorted(self._known_sides))

    def units_of(self, side) -> np.ndarray:
        """Hex indices (int32, ascending) holding at least one unit of ``side`` (a side the state knows, or
        None: the units placed without a side).

        Raises
        ------
        ValueError
            ``side`` is a side the state does not know (see :attr:`sides`).
        """
        side = self._known_side(side, "units_of")
        return np.array(sorted(h for h, by_side in self._unit_sides.items() if by_side.get(side)), np.int32)

    def units_not_of(self, side) -> np.ndarray:
        """Hex indices (int32, ascending) holding a unit of a side other than ``side`` (its enemies;
        units placed without a side are nobody's enemy); ``side`` as for :meth:`units_of`."""
        side = self._known_side(side, "units_not_of")
        return np.array(sorted(h for h, by_side in self._unit_sides.items()
                               if any(n and s is not None and s != side for s, n in by_side.items())), np.int32)

    def _known_side(self, side, call: str):
        return known_side(self, side, call)

    def units_in(self, hex_) -> dict:
        """``{side: count}`` of the units in one hex (``None``: units placed without a side)."""
        h = self._index(hex_, "units_in")
        return dict(self._unit_sides.get(h, {}))

    def place_unit(self, hex_, side: str | None = None) -> None:
        """Put a unit of ``side`` (a name such as ``"axis"``; None: no side) in a hex (several may share one)."""
        h = self._index(hex_, "place_unit")
        side = _checked_side(side, "place_unit")
        if side is not None:
            self._known_sides.add(side)
        self._count(self._units, h, +1, UNITS)
        by_side = self._unit_sides.setdefault(h, {})
        by_side[side] = by_side.get(side, 0) + 1

    def remove_unit(self, hex_, *, side: str | None = None) -> None:
        """Take one unit out of a hex (of ``side``; without it, the hex's units must all be of one side)."""
        call = f"remove_unit({hex_!r})"
        h = self._index(hex_, call)
        self._take_unit(h, self._side_to_take(h, side, call, "remove"))

    def move_unit(self, source, target, *, side: str | None = None) -> None:
        """Move one unit between hexes (of ``side``; without it, the source's units must all be of one side)."""
        call = f"move_unit({source!r}, {target!r})"
        h, to = self._index(source, call), self._index(target, call)  # checked before anything changes
        moved = self._side_to_take(h, side, call, "move")
        self._take_unit(h, moved)
        self._count(self._units, to, +1, UNITS)
        by_side = self._unit_sides.setdefault(to, {})
        by_side[moved] = by_side.get(moved, 0) + 1

    def _side_to_take(self, h: int, side, call: str, verb: str):
        """The side of the unit a remove or move of hex ``h`` takes, checked (an error names ``call``)."""
        by_side = self._unit_sides.get(h)
        if side is None and by_side is not None and len(by_side) == 1:
            return next(iter(by_side))  # the common case: one side there (a side's count is never kept at 0)
        by_side = by_side or {}
        name = self.board.names[h]
        if side is not None:
            side = _checked_side(side, call)
            if not by_side.get(side):
                raise ValueError(f"{call}: no unit of side {side!r} in {name} to {verb}"
                                 + (f" (it holds {_sides_text(by_side)})" if by_side else ""))
            return side
        if not by_side:
            raise ValueError(f"{call}: no unit in {name} to {verb}")
        if len(by_side) > 1:
            raise ValueError(f"{call}: {name} holds {_sides_text(by_side)}: expected side= to say which to {verb}")
        return next(iter(by_side))

    def _take_unit(self, h: int, side) -> None:
        by_side = self._unit_sides[h]
        by_side[side] -= 1
        if not by_side[side]:
            del by_side[side]
        if not by_side:
            del self._unit_sides[h]
        self._count(self._units, h, -1, UNITS)

