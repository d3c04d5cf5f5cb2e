"""The checks of counter values: SMOKE DRMs and heights, per-hex counter arrays, side names, change kinds
(for :mod:`kernel.maps.counters`, whose errors they raise)."""

from __future__ import annotations

import functools

import numpy as np

from kernel._limits import MAX_SMOKE_DRM, MAX_SMOKE_HEIGHT, MAX_VEHICLES_PER_HEX

#: The kinds of counter a :class:`~kernel.maps.counters.GameState` change is about.
CHANGE_KINDS = ("smoke", "vehicles", "units")


def checked_int(value, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} is {value!r}: expected an integer {low}..{high}")
    if not low <= int(value) <= high:
        raise ValueError(f"{what} is {int(value)}: expected {low}..{high}")
    return int(value)


def checked_smoke_drm(value, what: str = "smoke") -> int:
    """A SMOKE DRM, checked to be an integer 0..MAX_SMOKE_DRM."""
    return checked_int(value, what, 0, MAX_SMOKE_DRM)


def checked_smoke_height(value, what: str = "smoke_height") -> int:
    """A SMOKE height in levels, checked to be an integer 0..MAX_SMOKE_HEIGHT."""
    return checked_int(value, what, 0, MAX_SMOKE_HEIGHT)


def checked_counter_array(board, value, name: str, dtype, default, high: int | None = None) -> np.ndarray:
    """One of a :class:`Counters`' arrays, checked (shape, integers, range) and converted to ``dtype``."""
    n = len(board)
    if value is None:
        return np.full(n, default, dtype=dtype)
    array = np.asarray(value)
    if array.shape != (n,):
        raise ValueError(f"counters.{name} has shape {array.shape}: expected ({n},), one value per hex")
    if dtype is np.bool_:
        if array.dtype.kind == "b":
            return np.ascontiguousarray(array, dtype=np.bool_)
        if array.dtype.kind not in "iu":
            raise ValueError(f"counters.{name} has dtype {array.dtype}: expected bool (or integers 0 and 1)")
        wrong = np.flatnonzero((array != 0) & (array != 1))
        if wrong.size:
            i = int(wrong[0])
            raise ValueError(f"counters.{name} is {int(array[i])} in {board.names[i]}: expected bool (or 0 and 1)")
        return np.ascontiguousarray(array, dtype=np.bool_)
    if array.dtype.kind not in "iub":
        raise ValueError(f"counters.{name} has dtype {array.dtype}: expected integers")
    if array.size:
        low, top = int(array.min()), int(array.max())
        if low < 0 or (high is not None and top > high):
            i = int(np.flatnonzero((array < 0) | (array > (high if high is not None else top)))[0])
            raise ValueError(f"counters.{name} is {int(array[i])} in {board.names[i]}: "
                             f"expected 0..{high if high is not None else 'any'}")
    return np.ascontiguousarray(array, dtype=dtype)


def checked_side(side, call: str):
    if side is None or (isinstance(side, str) and side):
        return side
    raise TypeError(f"{call}: side is {side!r}: expected a side's name (a non-empty string) or None")


def sides_text(by_side: dict) -> str:
    return ", ".join(f"{n} unit{'s' if n > 1 else ''} of " + ("no side" if s is None else f"side {s!r}")
                     for s, n in sorted(by_side.items(), key=lambda item: str(item[0])))


KIND_CODES: dict = {}


def kind_codes(kinds) -> frozenset:
    """The codes of change ``kinds`` (a name of :data:`CHANGE_KINDS` or a sequence of them), checked."""
    try:
        return KIND_CODES[kinds]
    except (KeyError, TypeError):  # not seen yet, or not hashable (a list)
        pass
    names = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    for name in names:
        if name not in CHANGE_KINDS:
            raise ValueError(f"changed_since: kind {name!r} is not a kind of change: expected one of "
                             f"{', '.join(CHANGE_KINDS)}")
    codes = frozenset(CHANGE_KINDS.index(name) for name in names)
    if isinstance(kinds, (str, tuple)):
        KIND_CODES[kinds] = codes
    return codes




def hexes_text(array) -> str:
    """``"1 hex"``, ``"3 hexes"``: the count of the non-zero entries of a per-hex array (None: none)."""
    count = 0 if array is None else int(np.count_nonzero(array))
    return f"{count} hex" + ("" if count == 1 else "es")


def known_side(state, side, call: str):
    """``side`` checked to be a side the :class:`~kernel.maps.counters.GameState` ``state`` knows (or None:
    no side); the error names ``call`` and lists the sides it knows."""
    side = checked_side(side, call)
    if side is not None and side not in state._known_sides:
        known = ", ".join(repr(name) for name in sorted(state._known_sides)) or "none yet"
        raise ValueError(f"{call}: side {side!r} is not a side of this game: expected one of {known} "
                         "(declare the sides with GameState(board, sides=...) or place a unit of the side)")
    return side


def vehicle_counts(board, names) -> np.ndarray:
    """The vehicles per hex (int32) of a list of hex names, a hex named twice holding two; at most
    ``MAX_VEHICLES_PER_HEX`` in a hex."""
    counts = np.zeros(len(board), np.int32)
    np.add.at(counts, board.indices(list(names)), 1)
    if counts.size and int(counts.max()) > MAX_VEHICLES_PER_HEX:
        h = int(np.argmax(counts))
        raise ValueError(f"vehicles: {board.names[h]} is named {int(counts[h])} times: expected at most "
                         f"{MAX_VEHICLES_PER_HEX} vehicles in a hex")
    return counts


def read_only(array: np.ndarray) -> np.ndarray:
    """A view of ``array`` that cannot be written."""
    view = array.view()
    view.flags.writeable = False
    return view


def locked_method(method):
    """``method`` run holding its object's ``lock``."""
    @functools.wraps(method)
    def locked(self, *args, **kwargs):
        with self.lock:
            return method(self, *args, **kwargs)
    return locked
