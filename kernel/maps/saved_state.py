"""A game state whose units keep their names, Locations and where each came from (a VASL saved game's pieces).

:class:`SavedGameState` is a :class:`~kernel.maps.counters.GameState` (every
LOS and movement function takes it as ``counters=``) that also holds a
roster: one :class:`PlacedUnit` per unit, with its name, side, Location (hex
and level) and its *origin*, the text that says which piece of which file it
came from.  Two units stacked in one Location stay two entries.  The roster
follows the state's own unit changes: :meth:`SavedGameState.place_unit`,
:meth:`~SavedGameState.move_unit` and :meth:`~SavedGameState.remove_unit`
take ``name=`` to say which unit, and each holds the state's lock like every
change of a :class:`GameState`.

Examples
--------
>>> import kernel
>>> board = kernel.load("71")
>>> state = SavedGameState(board)
>>> state.place_unit("71I9", "axis", name="4-6-7 1sq", origin="a test")
>>> state.place_unit("71I9", "axis", name="8-1")
>>> [unit.name for unit in state.roster], state.units_in("71I9")
(['4-6-7 1sq', '8-1'], {'axis': 2})
>>> state.move_unit("71I9", "71J9", name="8-1")
>>> [(unit.name, unit.location) for unit in state.roster]
[('4-6-7 1sq', '71I9'), ('8-1', '71J9')]
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kernel.maps.counters import GameState
from kernel.maps.locations import location


@dataclass(frozen=True)
class PlacedUnit:
    """One unit of a :class:`SavedGameState`: its name, side and Location, and where it came from."""

    name: str
    side: str | None
    hex: int
    level: int
    location: str
    origin: str = ""
    #: "infantry", "leader", "vehicle" or "unit"
    kind: str = "unit"
    #: The save's id of the piece (VASSAL's), when it came from one.
    piece_id: str = ""

    def to_dict(self) -> dict:
        """Plain data (JSON-ready)."""
        return {"name": self.name, "side": self.side, "location": self.location, "hex": self.hex,
                "level": self.level, "kind": self.kind, "piece": self.piece_id, "origin": self.origin}


class SavedGameState(GameState):
    """A :class:`GameState` with a roster of named units (see the module docstring).

    Parameters
    ----------
    board : Board
    counters : Counters, optional
        Initial SMOKE and vehicles (as for :class:`GameState`).
    source : str
        What the state was read from (a saved game's path), for messages.

    See Also
    --------
    kernel.read_saved_game : a save's pieces as one.
    kernel.GameState : the counters without names.
    kernel.threat_map : ``enemies_of`` reads the units' sides.

    Examples
    --------
    >>> import kernel
    >>> state = kernel.SavedGameState(kernel.load("default"), source="set up by hand")
    >>> state.place_unit("71I4", "axis", name="8-3-8")
    >>> state.place_unit("71P5h1", "allies", name="4-6-7")
    >>> [(unit.name, unit.side, unit.location) for unit in state.roster]
    [('8-3-8', 'axis', '71I4'), ('4-6-7', 'allies', '71P5h1')]
    >>> state.units_named("4-6-7")[0].level, state.version, state.source
    (1, 2, 'set up by hand')
    """

    def __init__(self, board, counters=None, *, source: str = ""):
        super().__init__(board, counters)
        self.source = source
        self._roster: list[PlacedUnit] = []

    @property
    def roster(self) -> tuple[PlacedUnit, ...]:
        """Every unit, in the order placed (a unit moved keeps its place)."""
        with self.lock:
            return tuple(self._roster)

    def units_named(self, name: str) -> list[PlacedUnit]:
        """The units called ``name`` (exactly, or ignoring case), in roster order."""
        with self.lock:
            exact = [unit for unit in self._roster if unit.name == name]
            return exact or [unit for unit in self._roster if unit.name.casefold() == name.casefold()]

    def place_unit(self, hex_, side: str | None = None, *, name: str | None = None, level: int = 0,
                   origin: str = "", kind: str = "unit", piece_id: str = "") -> None:
        """Put a unit of ``side`` at a Location: ``hex_`` at ``level`` (or a Location name such as ``"2I9h1"``).

        ``name`` (default: ``"unit"``) names it in the roster, ``origin``
        says where it came from.  The Location is checked by the one
        validation path of every Location (:func:`kernel.maps.locations.location`).
        """
        with self.lock:
            index, checked = location(self.board, hex_, level, "level")
            super().place_unit(index, side)
            self._roster.append(PlacedUnit(name or "unit", side, index, checked,
                                           self.board.location_name(index, checked), origin, kind, piece_id))

    def remove_unit(self, hex_, *, side: str | None = None, name: str | None = None) -> None:
        """Take one unit out of a hex: the one called ``name`` (and of ``side``), else the last placed there."""
        with self.lock:
            index = self.board.index(hex_)
            unit = self._pick(index, side, name, f"remove_unit({hex_!r})")
            super().remove_unit(index, side=unit.side) if unit.side is not None else super().remove_unit(index)
            self._roster.remove(unit)

    def move_unit(self, source, target, *, side: str | None = None, name: str | None = None,
                  level: int = 0) -> None:
        """Move one unit (called ``name``, of ``side``; else the last placed in ``source``) to ``target`` at
        ``level``; it keeps its place in the roster."""
        with self.lock:
            call = f"move_unit({source!r}, {target!r})"
            index = self.board.index(source)
            to, checked = location(self.board, target, level, "level")
            unit = self._pick(index, side, name, call)
            super().move_unit(index, to, side=unit.side)
            self._roster[self._roster.index(unit)] = replace(unit, hex=to, level=checked,
                                                             location=self.board.location_name(to, checked))

    def _pick(self, index: int, side, name, call: str) -> PlacedUnit:
        here = [unit for unit in self._roster if unit.hex == index and (side is None or unit.side == side)
                and (name is None or unit.name == name)]
        if not here:
            wanted = " ".join(part for part in (f"called {name!r}" if name else "",
                                                f"of side {side!r}" if side else "") if part)
            raise ValueError(f"{call}: no unit {wanted + ' ' if wanted else ''}in {self.board.names[index]}")
        return here[-1]
