"""The result of a movement search: :class:`MovementField`, its costs per hex, Location and Bypass position, and
its paths (see :mod:`kernel.movement.fields`, which computes it)."""

from __future__ import annotations

from dataclasses import dataclass, field as dataclass_field

import numpy as np

from kernel.movement.tables import MovementTables


@dataclass
class MovementField:
    """The result of :func:`movement_field`.

    Attributes
    ----------
    cost : float64 array (N,)
        Least cost to be in each hex (its ground Location, one of its Bypass positions or, in a bridge hex, its
        deck), ``inf`` where unreachable.  :meth:`cost_at` and :meth:`path_to` of a hex mean its Locations (ground
        level, or the deck of a bridge hex): a path ends there, not in a Bypass position, so where bypassing a hex
        is cheaper than entering it, ``cost_at(hex)`` is more than ``cost[hex]``.
    state_cost : float64 array
        Least cost to every state (see :meth:`state_name`).
    exit_cost : float
        Least cost to leave the map (A2.6), ``inf`` if impossible.
    allowance : float or None
        The allowance the field was searched within (None: no limit).

    See Also

    --------

    movement_field : computes it.

    reachable : the hexes within an allowance, as one array.


    Examples
    --------
    >>> import kernel
    >>> field = kernel.movement_field(kernel.load("default"), "71I4", unit="infantry", allowance=4)
    >>> field.unit, field.allowance, field.cost_at("71I4"), field.path_to("71I6")
    ('infantry', 4, 0.0, ['71I4', '71I5', '71I6'])
    """

    board: object
    unit: str
    cost: np.ndarray
    state_cost: np.ndarray
    predecessor: np.ndarray
    exit_cost: float
    exit_hex: int
    tables: MovementTables
    allowance: float | None = None
    #: Where the costs include penalties within an allowance: ``(best label per state, each label's state, each
    #: label's predecessor label)``, the paths (kernel.movement._within_allowance); None: ``predecessor`` is.
    labels: tuple | None = dataclass_field(default=None, repr=False)

    def state_name(self, state: int) -> str:
        """Name of a state: a Location (``71I9``, ``71I9h1``, ``+stopped``) or a Bypass (``71F3-71E3``)."""
        board = self.board
        n_loc = self.tables.n_locations
        if isinstance(state, (bool, np.bool_)) or not isinstance(state, (int, np.integer)):
            raise TypeError(f"state is {state!r}: expected an integer state id")
        if not 0 <= state < len(self.state_cost):
            raise IndexError(f"state is {int(state)}: expected a state id 0..{len(self.state_cost) - 1}")
        if state < 2 * n_loc:
            loc = state >> 1
            return board.location_name(int(board.location_hex[loc]), int(board.location_level[loc]))
        b = state - 2 * n_loc
        h = int(self.tables.bypass_hex[b])
        d = int(self.tables.bypass_dir[b])
        return f"{board.names[h]}-{board.names[board.neighbours[h, d]]}"

    def start_states(self) -> list[int]:
        """State ids of the Locations the field starts from (moving, at cost 0)."""
        moving_locations = self.state_cost[:2 * self.tables.n_locations:2]
        return [2 * int(loc) for loc in np.flatnonzero(moving_locations == 0)]

    def best_state(self, hex_) -> int:
        """State of least cost among a hex's ground Location, Bypass positions and bridge deck (what
        :attr:`cost` gives)."""
        h = self.board.index(hex_)
        bypass_id = self.tables.bypass_id
        candidates = self.hex_location_states(h) + [2 * self.tables.n_locations + int(b) for b in bypass_id[h] if b >= 0]
        return min(candidates, key=lambda s: self.state_cost[s])

    def hex_location_states(self, h: int) -> list[int]:
        """The moving and stopped states of hex ``h``'s ground Location and, in a bridge hex, its deck."""
        loc = int(self.board.location_offset[h])
        states = [2 * loc, 2 * loc + 1]
        if self.board.bridge_deck[h]:
            states += [2 * loc + 2, 2 * loc + 3]
        return states

    def location_states(self, location: str) -> list[int]:
        """The moving and stopped states of one Location (``"71P5h1"``, ``"Bridge/2I9"``, ``"71I9h0"``)."""
        h, level = self.board.location(location)
        loc = int(self.board.location_offset[h]) + level
        return [2 * loc, 2 * loc + 1]

    def target_state(self, target) -> int:
        """The state a query about ``target`` means: of one Location when ``target`` names a level (``"71P5h1"``,
        ``"Bridge/2I9"``), else the cheapest of the hex's Locations (ground, or the deck of a bridge hex; never a
        Bypass position)."""
        if self.board.names_a_location(target):
            return min(self.location_states(target), key=lambda s: self.state_cost[s])
        try:
            h = self.board.index(target)
        except KeyError as error:
            raise KeyError(f"target: {error.args[0]}") from None
        except (ValueError, IndexError, TypeError) as error:
            raise type(error)(f"target: {error}") from None
        return min(self.hex_location_states(h), key=lambda s: self.state_cost[s])

    def cost_at(self, target) -> float:
        """Least cost to a hex's Locations (ground level, or a bridge hex's deck) or to one Location (``"71P5h1"``:
        level 1 of 71P5); ``inf`` where unreachable.  The cost of the path :meth:`path_to` gives.

        Examples
        --------
        >>> import kernel
        >>> board = kernel.load("default")
        >>> field = kernel.movement_field(board, "71I4", unit="infantry")
        >>> field.cost_at("71I4"), field.cost_at("71I4h0")
        (0.0, 0.0)
        >>> field.cost_at("71P5h1") >= field.cost_at("71P5")
        True
        """
        return float(self.state_cost[self.target_state(target)])

    def path_array(self, target) -> np.ndarray | None:
        """The path :meth:`path_to` gives, as an ``int32`` array, one row per step: ``(hex index, Location level,
        Bypass direction)``; the direction is -1 for a Location and the hexside along which the unit bypasses (level
        0) for a Bypass position.  ``None`` where the target is unreachable."""
        states = self.path_states(target)
        if states is None:
            return None
        rows = []
        n_loc = self.tables.n_locations
        for state in states:
            if state < 2 * n_loc:
                loc = state >> 1
                rows.append((int(self.board.location_hex[loc]), int(self.board.location_level[loc]), -1))
            else:
                b = state - 2 * n_loc
                rows.append((int(self.tables.bypass_hex[b]), 0, int(self.tables.bypass_dir[b])))
        return np.array(rows, dtype=np.int32).reshape(len(rows), 3)

    def path_states(self, target) -> list[int] | None:
        """State ids of the cheapest path to a hex's Locations or to one Location (``None`` if unreachable)."""
        state = self.target_state(target)
        if not np.isfinite(self.state_cost[state]):
            return None
        if self.labels is not None:  # the chain of the state's cheapest label
            best, label_state, label_pred = self.labels
            path, label = [], int(best[state])
            while label >= 0:
                path.append(int(label_state[label]))
                label = int(label_pred[label])
            return path[::-1]
        path = [state]
        while self.predecessor[path[-1]] >= 0:
            path.append(int(self.predecessor[path[-1]]))
        return path[::-1]

    def path_to(self, target) -> list[str] | None:
        """The cheapest path to a hex or one Location (``"71P5h1"``) as Location and Bypass names; ``None`` where
        the target is unreachable.

        The path ends at the target's Location: for a hex, its ground Location (or, in a bridge hex, whichever of
        the deck and the ground beneath is cheaper), never a Bypass position; Bypass positions are written
        ``hex-hex`` (A2.2: the first hex is the one the unit is in, along its hexside with the second) and appear
        only within a path.  Where several paths cost the same, one of them is given; which one is not part of the
        contract (it may change between versions).

        Examples
        --------
        >>> import kernel
        >>> board = kernel.load("default")
        >>> field = kernel.movement_field(board, "71I4", unit="infantry", allowance=2)
        >>> field.path_to("71I5"), field.path_to("72M6")
        (['71I4', '71I5'], None)
        """
        states = self.path_states(target)
        return None if states is None else [self.state_name(s) for s in states]

    def to_dict(self) -> dict:
        """The per-hex costs (``None`` where unreachable), the unit class and the exit cost (JSON-ready)."""
        finite = np.isfinite(self.cost)
        return {"unit": self.unit, "cost": [float(c) if f else None for c, f in zip(self.cost.tolist(), finite.tolist())],
                "exit_cost": float(self.exit_cost) if np.isfinite(self.exit_cost) else None}

    @property
    def location_cost(self) -> np.ndarray:
        """Per hex, the least cost to be *in* it (its ground Location or, in a bridge hex, its deck): what
        :meth:`cost_at` gives for a hex, float64, ``inf`` where unreachable; :attr:`cost` is less where bypassing
        the hex (:attr:`bypass_cost`) is cheaper than entering it.

        Examples
        --------
        >>> import kernel
        >>> board = kernel.load("default")
        >>> field = kernel.movement_field(board, "71I4", unit="infantry")
        >>> float(field.location_cost[board.index("71P5")]) == field.cost_at("71P5")
        True
        """
        cached = self.__dict__.get("_location_cost")
        if cached is None:
            state_cost, offset = self.state_cost, self.board.location_offset[:len(self.board)]
            cached = np.minimum(state_cost[2 * offset], state_cost[2 * offset + 1])
            deck = np.flatnonzero(self.board.bridge_deck)
            cached[deck] = np.minimum(cached[deck], np.minimum(state_cost[2 * offset[deck] + 2],
                                                               state_cost[2 * offset[deck] + 3]))
            self.__dict__["_location_cost"] = cached
        return cached

    @property
    def bypass_cost(self) -> np.ndarray:
        """Per hex, the least cost to one of its Bypass positions (moving along a hexside of the hex
        without entering it, A4.3), float64, ``inf`` where there is none or none is reached."""
        cached = self.__dict__.get("_bypass_cost")
        if cached is None:
            tables = self.tables
            cached = np.full(len(self.board), np.inf)
            np.minimum.at(cached, tables.bypass_hex, self.state_cost[2 * tables.n_locations:])
            self.__dict__["_bypass_cost"] = cached
        return cached

    @property
    def reachable(self) -> np.ndarray:
        """Boolean array of the hexes the field reaches (within its :attr:`allowance`), as
        :attr:`ConcealedMovement.reachable <kernel.ConcealedMovement>` gives them.

        Calling it, ``field.reachable(allowance)`` (its form in 0.2), still gives ``field.cost <= allowance``, with
        a ``DeprecationWarning``.

        See Also

        --------

        movement_field : the costs and paths behind it.

        concealed_movement : reachable hexes that enemies do not see.


        Examples
        --------
        >>> import kernel
        >>> board = kernel.load("default")
        >>> field = kernel.movement_field(board, "71I4", unit="infantry", allowance=4)
        >>> bool((field.reachable == (field.cost <= 4)).all())
        True
        """
        return ReachableHexes.of(self)

    def __repr__(self) -> str:
        starts = ", ".join(self.state_name(s) for s in self.start_states()[:3])
        more = " ..." if len(self.start_states()) > 3 else ""
        limit = f"allowance {self.allowance:g}" if self.allowance is not None else "no allowance"
        return (f"<MovementField {self.unit} from {starts or 'off the map'}{more}, {limit}: "
                f"{int(np.isfinite(self.cost).sum())} hexes reached>")


class ReachableHexes(np.ndarray):
    """:attr:`MovementField.reachable`: a plain boolean array that may still be called as the method it was
    (``reachable(allowance)``, deprecated), for one release; what is computed from it is a plain array."""

    @classmethod
    def of(cls, field: MovementField) -> "ReachableHexes":
        mask = np.isfinite(field.cost).view(cls)
        mask._cost = field.cost
        return mask

    def __array_finalize__(self, obj):
        self._cost = None

    def __array_wrap__(self, array, context=None, return_scalar=False):
        result = np.asarray(array)
        return result[()] if return_scalar else result

    def __call__(self, allowance: float) -> np.ndarray:
        import warnings

        if self._cost is None:
            raise TypeError("this array is not callable: only MovementField.reachable itself keeps the deprecated "
                            "reachable(allowance) form")
        warnings.warn("MovementField.reachable(allowance) is deprecated: reachable is an array now (the hexes "
                      "within the field's allowance), as on ConcealedMovement; for another allowance use "
                      "field.cost <= allowance", DeprecationWarning, stacklevel=2)
        return self._cost <= allowance
