"""Counters on the map: :class:`Counters` (per-hex arrays) and :class:`GameState` (a mutable game state).

Both LOS (:mod:`kernel.line_of_sight`) and movement (:mod:`kernel.movement`)
take either.  A :class:`Counters` is a plain value: every call that gets one
builds its kernel tables from it.  A :class:`GameState` belongs to one board
and is changed only through its methods (place, move, remove one counter);
each change is logged, and the kernel tables prepared from it (by LOS and by
movement, kept on the state) catch up with the log on their next use by
rewriting only the changed hexes' entries.

Threads: a :class:`GameState` may be shared by threads.  Each state has a
lock: every change holds it, and so does every LOS or movement query given
the state as ``counters`` (:func:`kernel.maps.state_lock.holding_state`) for its whole run, from
bringing the prepared tables up to date to the kernel's last read of them;
a query made of several (``concealed_movement``: a threat map and two
movement fields) holds it across all of them.
So a query sees the state either before or after a change, never half of
it, and its result is that of one version of the state; the prepared tables
always match the state's version; queries on one state from several threads
run one after another (each kernel is itself parallel), and a change waits
for the running query.

Allowed values (checked here, at the boundary, with the offending hex named):
a SMOKE DRM is ``0 .. MAX_SMOKE_DRM`` (0 = none), a SMOKE height
``0 .. MAX_SMOKE_HEIGHT`` levels above the base of the Location it is in.

SMOKE (A24) is in one Location of its hex, one SMOKE per hex: the ground, or,
named as a Location (``"15G5h1"``, ``"15G5roof"``), an upper level or rooftop
(:mod:`kernel.maps.smoke_locations`); its level is the ``smoke_base``.
"""

from __future__ import annotations

import inspect
import threading
from dataclasses import dataclass, field

import numpy as np

from kernel._dtypes import HINDRANCE, LEVEL
from kernel._limits import DEFAULT_SMOKE_HEIGHT, MAX_SMOKE_DRM, MAX_SMOKE_HEIGHT, MAX_VEHICLES_PER_HEX
from kernel.maps.counter_checks import CHANGE_KINDS, checked_counter_array, checked_smoke_drm, checked_smoke_height
from kernel.maps.counter_checks import checked_side as _checked_side, kind_codes as _kind_codes
from kernel.maps.counter_checks import hexes_text as hexes, known_side, locked_method as _locked_method  # noqa: F401
from kernel.maps.counter_checks import read_only as _read_only, vehicle_counts
from kernel.maps.counter_files import COUNTER_KEYS, counter_arrays_of
from kernel.maps.smoke_locations import checked_smoke_base, smoke_location, smoke_locations
from kernel.maps.state_units import UNITS, UnitsBySide  # noqa: F401 (UNITS: a code of CHANGE_KINDS)

__all__ = ["CHANGE_KINDS", "COUNTER_KEYS", "Counters", "DEFAULT_SMOKE_HEIGHT", "GameState", "MAX_SMOKE_DRM",
           "MAX_SMOKE_HEIGHT", "counter_values", "smoke_base_values"]

# with UNITS, the codes of CHANGE_KINDS (:meth:`GameState.changed_since`'s ``kinds``)
SMOKE, VEHICLES = range(2)


@dataclass
class Counters:
    """Dynamic counters on the map, as per-hex arrays (no recompilation needed).

    Parameters
    ----------
    smoke : array of int, optional
        SMOKE hindrance DRM per hex (0 = none; ASL SMOKE is +2 or +3), at most
        :data:`MAX_SMOKE_DRM`.
    smoke_height : array of int, optional
        Height of the SMOKE in levels above its base (default 2), at most
        :data:`MAX_SMOKE_HEIGHT`.
    vehicles : array of bool or int, optional
        The vehicles and wrecks in each hex (a count, at most
        :data:`~kernel._limits.MAX_VEHICLES_PER_HEX`; True: one), each a +1
        hindrance at the same level (ASL).
    units : array of bool, optional
        A unit or leader in the hex (CCN: blocks LOS and movement).
    smoke_base : array of int, optional
        The level of the Location each SMOKE is in (0, the default: the
        hex's ground; an upper building level, a bridge deck, the rooftop):
        the SMOKE lies from that Location up ``smoke_height`` levels.

    Use :meth:`on` to build one from hex names, and :class:`GameState` for a
    state that changes during a game and is prepared once for the kernels.

    See Also
    --------
    GameState : counters that change during a game.
    los : takes them as ``counters=``, as every LOS and movement call does.

    Examples
    --------
    >>> import numpy as np, kernel
    >>> board = kernel.load("71")
    >>> smoke = np.zeros(len(board), int)
    >>> smoke[board.index("71A7")] = 3
    >>> counters = Counters(smoke=smoke)
    >>> kernel.los(board, "71A5", "71A9").hindrance, kernel.los(board, "71A5", "71A9", counters=counters).hindrance
    (0, 3)
    """

    smoke: np.ndarray | None = None
    smoke_height: np.ndarray | None = None
    vehicles: np.ndarray | None = None
    units: np.ndarray | None = None
    smoke_base: np.ndarray | None = None
    #: The board whose hex names :meth:`on` read (None when built from arrays); used on another board, refused.
    board: object = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        return (f"<Counters: SMOKE in {hexes(self.smoke)}, vehicles in {hexes(self.vehicles)}, units in "
                f"{hexes(self.units)}>")

    @classmethod
    def on(cls, board, *, smoke=None, vehicles=(), units=(), smoke_height=DEFAULT_SMOKE_HEIGHT):
        """Counters from hex names: ``smoke={"2I9": 3}``, ``vehicles=["2J9"]`` (a hex named twice holds two).

        A SMOKE key may name a Location (``{"15G5h1": 3}``: SMOKE at level 1
        of 15G5); one SMOKE per hex.

        >>> import kernel
        >>> board = kernel.load("71")
        >>> int(Counters.on(board, smoke={"71I9": 3}).smoke.sum())
        3
        >>> int(Counters.on(board, smoke={"71P5h1": 3}).smoke_base[board.index("71P5")])   # at level 1
        1
        """
        n = len(board)
        smoke_height = checked_smoke_height(smoke_height, "smoke_height")
        smoke_array, base_array = np.zeros(n, HINDRANCE), np.zeros(n, LEVEL)
        for h, (level, drm) in smoke_locations(board, smoke or {}, "smoke").items():
            smoke_array[h] = checked_smoke_drm(drm, f"smoke[{board.location_name(h, level)!r}]")
            base_array[h] = level
        vehicle_array = vehicle_counts(board, vehicles)   # each vehicle counts
        unit_array = np.zeros(n, np.bool_)
        unit_array[board.indices(list(units))] = True
        return cls(smoke_array, np.full(n, smoke_height, LEVEL), vehicle_array, unit_array, base_array, board=board)

    @classmethod
    def from_dict(cls, board, data, *, where: str = "counters") -> "Counters":
        """Counters from plain data (a counters file's JSON, what :meth:`to_dict` gives):
        ``{"smoke": {"71I9": 3}, "smoke_height": 2, "vehicles": ["71J9"], "units": []}``.

        Every key is optional; ``smoke_height`` is one height for every SMOKE
        counter or an object of hex: height.  A ``smoke`` key may name a
        Location (``"15G5h1"``): the SMOKE is in it (one SMOKE per hex).  The one parser of counters
        files: the CLI and the map page read them through it.

        Raises
        ------
        ValueError, TypeError, KeyError
            An unknown key, a value of the wrong type or range, a hex not on
            the map or named twice; the message starts with ``where``.

        Examples
        --------
        >>> import kernel
        >>> board = kernel.load("71")
        >>> counters = Counters.from_dict(board, {"smoke": {"71I9": 3}, "vehicles": ["71J9"]})
        >>> counters.to_dict(board)
        {'smoke': {'71I9': 3}, 'smoke_height': 2, 'vehicles': ['71J9'], 'units': []}
        >>> Counters.from_dict(board, {"smoke": {"71I9": 300}})
        Traceback (most recent call last):
        ...
        ValueError: counters: smoke DRM of 71I9 is 300: expected an integer 0..100
        """
        return cls(*counter_arrays_of(board, data, where))

    def to_dict(self, board) -> dict:
        """The counters as plain data with hex names, as :meth:`from_dict` reads them (JSON-ready).

        ``smoke_height`` is one number when every SMOKE counter has the same
        height (or there is none), else an object of hex: height.
        """
        smoke, heights, vehicles, units = counter_values(board, self)
        base = smoke_base_values(board, self)
        names = board.names
        smoke_hexes = np.flatnonzero(smoke).tolist()
        distinct = sorted({int(heights[h]) for h in smoke_hexes})
        if len(distinct) > 1:
            height = {names[h]: int(heights[h]) for h in smoke_hexes}
        else:
            height = distinct[0] if distinct else DEFAULT_SMOKE_HEIGHT
        return {"smoke": {board.location_name(h, int(base[h])): int(smoke[h]) for h in smoke_hexes},
                "smoke_height": height,
                "vehicles": [names[h] for h in np.flatnonzero(vehicles).tolist() for _ in range(int(vehicles[h]))],
                "units": [names[h] for h in np.flatnonzero(units).tolist()]}



def counter_values(board, counters):
    """Validated per-hex arrays of a :class:`Counters` or :class:`GameState`:
    ``(smoke DRM, smoke height in levels, vehicle counts, units)``."""
    if isinstance(counters, GameState):
        if counters.board is not board:
            raise ValueError("counters is a GameState of another board: expected one made for this board")
        return counters._smoke, counters._height, counters._vehicles, counters._units > 0
    if not isinstance(counters, Counters):
        raise TypeError(f"counters must be a kernel.Counters or kernel.GameState, not {type(counters).__name__}")
    made_for = counters.board
    if made_for is not None and made_for is not board and tuple(made_for.names) != tuple(board.names):
        raise ValueError(f"counters were placed by hex name on another board ({made_for.title}, {len(made_for)} "
                         f"hexes): expected counters made for this board ({board.title}, {len(board)} hexes)")
    smoke = checked_counter_array(board, counters.smoke, "smoke", HINDRANCE, 0, MAX_SMOKE_DRM)
    height = checked_counter_array(board, counters.smoke_height, "smoke_height", HINDRANCE, DEFAULT_SMOKE_HEIGHT,
                                   MAX_SMOKE_HEIGHT)
    vehicles = checked_counter_array(board, counters.vehicles, "vehicles", np.int32, 0, MAX_VEHICLES_PER_HEX)
    units = checked_counter_array(board, counters.units, "units", np.bool_, False)
    return smoke, height, vehicles, units


def smoke_base_values(board, counters) -> np.ndarray:
    """The validated level of each SMOKE's Location (0 = ground; 0 where there is no SMOKE) of a
    :class:`Counters` or :class:`GameState` (checked to be of ``board`` by :func:`counter_values`)."""
    if isinstance(counters, GameState):
        return counters._base
    smoke = counter_values(board, counters)[0]
    return checked_smoke_base(board, counters.smoke_base, smoke)


class GameState(UnitsBySide):
    """The counters of a game in progress on one board, prepared once for the kernels.

    Every LOS and movement function takes it as ``counters=``.  Units carry
    a side (``place_unit(hex, side="axis")``): :meth:`units_of`,
    :meth:`units_not_of`, and ``enemies_of=side`` in
    :func:`~kernel.threat_map` and :func:`~kernel.concealed_movement`.  A hex
    holds at most one SMOKE counter (placing a second is an error) and any
    number of vehicles and units.  Change it only through its methods; each
    change is logged (:attr:`version`,
    :meth:`changed_since`) and the kernels' tables built from the state are
    brought up to date on their next use by rewriting the changed hexes only,
    so a turn that moves one counter pays for one hex, not for the map.

    Parameters
    ----------
    board : Board
    counters : Counters, optional
        Initial counters.
    sides : sequence of str, optional
        The sides of the game (``("allies", "axis")``).  A side is known to
        the state when it is declared here or a unit of it has been placed;
        asking for the units of a side it does not know
        (:meth:`units_of`, ``enemies_of=``) is an error that lists the
        sides it knows, so a misspelt side cannot pass for one with no
        units.

    See Also

    --------

    Counters : counters that do not change, from arrays or hex names.

    HeldLOSMatrix : a LOS matrix kept up to date with a game state.


    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> state = kernel.GameState(board)
    >>> state.place_smoke("71K5", 3)
    >>> state.place_vehicle("71K6")
    >>> state.move_vehicle("71K6", "71K7")
    >>> int(state.smoke[board.index("71K5")]), bool(state.vehicles[board.index("71K7")]), state.version
    (3, True, 4)
    >>> kernel.los(board, "71I4", "71L5", counters=state).hindrance  # 71K5 lies on this LOS
    3
    """

    def __init__(self, board, counters: Counters | None = None, *, sides=None):
        self.board = board
        if isinstance(sides, str):
            raise TypeError(f"sides is {sides!r}: expected a sequence of side names, such as ('allies', 'axis')")
        self._known_sides = {_checked_side(side, "GameState") for side in (sides or ())} - {None}
        n = len(board)
        if counters is None:
            smoke, height = np.zeros(n, HINDRANCE), np.full(n, DEFAULT_SMOKE_HEIGHT, HINDRANCE)
            vehicles, units = np.zeros(n, np.bool_), np.zeros(n, np.bool_)
        else:
            smoke, height, vehicles, units = counter_values(board, counters)
        self._base = np.zeros(n, LEVEL) if counters is None else smoke_base_values(board, counters).astype(LEVEL)
        self._smoke = smoke.copy()
        self._height = height.copy()
        self._vehicles = vehicles.astype(np.int32)
        self._units = units.astype(np.int32)
        #: hex -> {side: count} of its units (None: units placed without a side, or from ``counters``).
        self._unit_sides: dict[int, dict] = {int(h): {None: 1} for h in np.flatnonzero(self._units)}
        self._changes: list[int] = []
        self._change_kinds: list[int] = []  # per change, its kind: an index into CHANGE_KINDS
        self._smoke_changes: list[int] = []  # the hexes whose SMOKE changed, in order (movement reads only these)
        #: Kernel tables prepared from this state, by the module that owns them (each with the version it reflects).
        self.prepared: dict = {}
        #: Held by every change and by every query on the state (module docstring, "Threads").
        self.lock = threading.RLock()

    def __repr__(self) -> str:
        sides = ", ".join(f"{side} in {hexes(self.units_of(side) >= 0)}" for side in self.sides)
        return (f"<GameState of {len(self.board)} hexes at version {self.version}: SMOKE in {hexes(self._smoke)}, "
                f"vehicles in {hexes(self._vehicles)}, units in {hexes(self._units)}" + (f" ({sides})" if sides else "")
                + ">")

    # --- read-only views -------------------------------------------------------------------------
    @property
    def smoke(self) -> np.ndarray:
        """SMOKE DRM per hex (int16, 0 = none; read-only)."""
        return _read_only(self._smoke)

    @property
    def smoke_height(self) -> np.ndarray:
        """SMOKE height per hex in levels (int16; read-only)."""
        return _read_only(self._height)

    @property
    def smoke_base(self) -> np.ndarray:
        """The level of the Location each SMOKE is in (int16, 0 = ground or no SMOKE; read-only)."""
        return _read_only(self._base)

    @property
    def vehicles(self) -> np.ndarray:
        """Whether a vehicle or wreck is in each hex (bool)."""
        return self._vehicles > 0

    @property
    def vehicle_counts(self) -> np.ndarray:
        """The vehicles and wrecks in each hex (int32; read-only): each a +1 hindrance."""
        return _read_only(self._vehicles)

    @property
    def units(self) -> np.ndarray:
        """Whether a unit is in each hex (bool)."""
        return self._units > 0

    @property
    def version(self) -> int:
        """Number of changes made so far."""
        return len(self._changes)

    @property
    def smoke_version(self) -> int:
        """Number of SMOKE changes made so far (placed, removed or moved; see :meth:`smoke_changed_since`)."""
        return len(self._smoke_changes)

    def smoke_changed_since(self, smoke_version: int) -> np.ndarray:
        """Hex indices (int64, ascending, each once) whose SMOKE changed after :attr:`smoke_version`
        was ``smoke_version``: what a table of SMOKE alone (movement's) must rewrite."""
        if isinstance(smoke_version, bool) or not isinstance(smoke_version, (int, np.integer)) \
                or not 0 <= smoke_version <= self.smoke_version:
            raise ValueError(f"smoke_version is {smoke_version!r}: expected 0..{self.smoke_version}, "
                             "a SMOKE version this state has had")
        return np.array(sorted(set(self._smoke_changes[smoke_version:])), np.int64)

    def changed_since(self, version: int, kinds=None) -> np.ndarray:
        """Hex indices (int64, ascending, each once) changed after :attr:`version` was ``version``.

        ``kinds`` (a name of :data:`CHANGE_KINDS` or a sequence of them;
        None: every kind) keeps only the changes of those counters: a
        consumer that reads no units (LOS where units do not block it)
        asks for ``("smoke", "vehicles")`` and skips the units' moves.

        Examples
        --------
        >>> import kernel
        >>> board = kernel.load("71")
        >>> state = kernel.GameState(board)
        >>> state.place_unit("71I4", side="axis"); state.move_unit("71I4", "71I5"); state.place_smoke("71J5", 2)
        >>> [board.name(h) for h in state.changed_since(0)], [board.name(h) for h in state.changed_since(0, "smoke")]
        (['71I4', '71I5', '71J5'], ['71J5'])
        """
        if isinstance(version, bool) or not isinstance(version, (int, np.integer)) or not 0 <= version <= self.version:
            raise ValueError(f"version is {version!r}: expected 0..{self.version}, a version this state has had")
        if kinds is None:
            return np.array(sorted(set(self._changes[version:])), np.int64)
        wanted = _kind_codes(kinds)
        return np.array(sorted({h for h, kind in zip(self._changes[version:], self._change_kinds[version:])
                                if kind in wanted}), np.int64)

    def counters(self) -> Counters:
        """A copy of the current counters as a :class:`Counters`."""
        return Counters(self._smoke.copy(), self._height.copy(), self._vehicles.copy(), self.units, self._base.copy(),
                        board=self.board)

    # --- changes -----------------------------------------------------------------------------------
    def place_smoke(self, hex_, drm: int, height: int = DEFAULT_SMOKE_HEIGHT) -> None:
        """Put SMOKE of hindrance ``drm`` (1..MAX_SMOKE_DRM) and ``height`` levels in a hex, at its ground,
        or in the Location named (``"15G5h1"``, ``"15G5roof"``).

        A hex holds one SMOKE counter: placing a second is an error (remove
        the first, or :meth:`move_smoke` it, before).
        """
        h, level = smoke_location(self.board, hex_, f"place_smoke({hex_!r})")
        name = self.board.names[h]
        drm = checked_smoke_drm(drm, f"SMOKE DRM in {name}")
        if drm == 0:
            raise ValueError(f"SMOKE DRM in {name} is 0: expected 1..{MAX_SMOKE_DRM} (use remove_smoke to clear it)")
        height = checked_smoke_height(height, f"SMOKE height in {name}")
        if self._smoke[h]:
            raise ValueError(f"place_smoke({hex_!r}): {name} already holds SMOKE (DRM {int(self._smoke[h])}): "
                             "expected a hex without SMOKE (remove_smoke it first)")
        self._smoke[h] = drm
        self._height[h] = height
        self._base[h] = level
        self._log(h, SMOKE)

    def remove_smoke(self, hex_) -> None:
        """Take the SMOKE out of a hex (an error if there is none)."""
        h = smoke_location(self.board, hex_, f"remove_smoke({hex_!r})")[0]
        if self._smoke[h] == 0:
            raise ValueError(f"remove_smoke({hex_!r}): no SMOKE in {self.board.names[h]} to remove")
        self._smoke[h] = 0
        self._base[h] = 0
        self._log(h, SMOKE)

    def move_smoke(self, source, target) -> None:
        """Move the SMOKE of one hex (with its DRM and height) to another, which must hold none: to its
        ground, or to the Location ``target`` names."""
        call = f"move_smoke({source!r}, {target!r})"
        h = smoke_location(self.board, source, call)[0]
        to = smoke_location(self.board, target, call)[0]  # checked before anything changes
        if self._smoke[h] == 0:
            raise ValueError(f"{call}: no SMOKE in {self.board.names[h]} to move")
        if self._smoke[to] and to != h:
            raise ValueError(f"{call}: {self.board.names[to]} already holds SMOKE: expected a hex without SMOKE")
        drm, height = int(self._smoke[h]), int(self._height[h])
        self.remove_smoke(h)
        self.place_smoke(target, drm, height)

    def place_vehicle(self, hex_) -> None:
        """Put a vehicle or wreck in a hex (several may share one)."""
        self._count(self._vehicles, self._index(hex_, "place_vehicle"), +1, VEHICLES)

    def remove_vehicle(self, hex_) -> None:
        """Take one vehicle or wreck out of a hex."""
        h = self._index(hex_, "remove_vehicle")
        if self._vehicles[h] == 0:
            raise ValueError(f"remove_vehicle({hex_!r}): no vehicle in {self.board.names[h]} to remove")
        self._count(self._vehicles, h, -1, VEHICLES)

    def move_vehicle(self, source, target) -> None:
        """Move one vehicle or wreck between hexes."""
        call = f"move_vehicle({source!r}, {target!r})"
        h, to = self._index(source, call), self._index(target, call)
        if self._vehicles[h] == 0:
            raise ValueError(f"{call}: no vehicle in {self.board.names[h]} to move")
        self._count(self._vehicles, h, -1, VEHICLES)
        self._count(self._vehicles, to, +1, VEHICLES)

    def _index(self, hex_, call: str) -> int:
        """``board.index(hex_)``, its error prefixed with the call that asked."""
        try:
            return self.board.index(hex_)
        except KeyError as error:
            raise KeyError(f"{call}: {error.args[0]}") from None
        except (ValueError, IndexError, TypeError) as error:
            raise type(error)(f"{call}: {error}") from None

    def _count(self, counts, h: int, step: int, kind: int) -> None:
        before = int(counts[h])
        if kind == VEHICLES and before + step > MAX_VEHICLES_PER_HEX:
            raise ValueError(f"{self.board.names[h]} holds {before} vehicles: expected at most {MAX_VEHICLES_PER_HEX}")
        counts[h] = before + step
        # LOS counts each vehicle (every change of the count is logged); units only block, so only whether
        # there is one is logged
        if kind == VEHICLES or (before > 0) != (before + step > 0):
            self._log(h, kind)

    def _log(self, h: int, kind: int) -> None:
        self._changes.append(h)
        self._change_kinds.append(kind)
        if kind == SMOKE:
            self._smoke_changes.append(h)


# every public method of a GameState (its changes, and the reads of its log) holds the state's lock
for _name, _member in list(vars(UnitsBySide).items()) + list(vars(GameState).items()):
    if not _name.startswith("_") and inspect.isfunction(_member):
        setattr(GameState, _name, _locked_method(_member))
