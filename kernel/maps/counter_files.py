"""Counters as plain data (a counters file's JSON): the one parser, :meth:`kernel.Counters.from_dict`.

The CLI's ``--counters FILE`` and the map page read counters through it, so
both accept the same files and refuse the same mistakes with the same
messages, within the limits of :mod:`kernel._limits`.
"""

from __future__ import annotations

import numpy as np

from kernel._dtypes import HINDRANCE, LEVEL
from kernel._limits import DEFAULT_SMOKE_HEIGHT, MAX_SMOKE_DRM, MAX_SMOKE_HEIGHT
from kernel.maps.counter_checks import vehicle_counts
from kernel.maps.smoke_locations import smoke_location

#: The keys of a counters file.
COUNTER_KEYS = ("smoke", "smoke_height", "vehicles", "units")


def counter_arrays_of(board, data, where: str):
    """``(smoke DRM, SMOKE height, vehicles, units, SMOKE base level)`` per hex of ``board`` from plain data
    (see :meth:`kernel.Counters.from_dict`), every value checked; errors start with ``where``.  A
    ``smoke`` key may name a Location (``"15G5h1"``): the SMOKE's base; one SMOKE per hex."""
    if not isinstance(data, dict):
        raise TypeError(f"{where}: expected an object like {{\"smoke\": {{\"71I9\": 3}}, \"vehicles\": [], "
                        f"\"units\": []}}, not {type(data).__name__}")
    unknown = sorted(set(data) - set(COUNTER_KEYS), key=str)
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r}: expected {', '.join(COUNTER_KEYS)}")

    def hex_name(name, key) -> str:
        if not isinstance(name, str):
            raise TypeError(f"{where}: {key}: {name!r} is not a hex name like '71I9'")
        try:
            return board.names[board.index(name)]
        except KeyError as error:
            raise KeyError(f"{where}: {key}: {error.args[0]}") from None
        except ValueError as error:
            raise ValueError(f"{where}: {key}: {error}") from None

    bases = {}

    def per_hex(key, value, check, what) -> dict:
        if not isinstance(value, dict):
            raise TypeError(f"{where}: {key}: expected an object of hex: {what}, like {{\"71I9\": 3}}")
        out = {}
        for name, number in value.items():
            if not isinstance(name, str):
                hex_name(name, key)   # raises
            h, level = smoke_location(board, name, f"{where}: {key}")
            canonical = board.names[h]
            if canonical in out:
                raise ValueError(f"{where}: {key}: {name!r} names {canonical} again: expected each hex once "
                                 "(one SMOKE per hex)")
            out[canonical] = check(number, canonical)
            if key == "smoke":
                bases[canonical] = level
        return out

    def drm(value, name):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SMOKE_DRM:
            raise ValueError(f"{where}: smoke DRM of {name} is {value!r}: expected an integer 0..{MAX_SMOKE_DRM}")
        return value

    def height(value, name):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SMOKE_HEIGHT:
            raise ValueError(f"{where}: smoke_height{'' if name is None else ' of ' + name} is {value!r}: "
                             f"expected an integer number of levels 0..{MAX_SMOKE_HEIGHT}")
        return value

    smoke = per_hex("smoke", data.get("smoke", {}), drm, "DRM")
    heights = data.get("smoke_height", DEFAULT_SMOKE_HEIGHT)
    if isinstance(heights, dict):
        heights = per_hex("smoke_height", heights, height, "levels")
    else:
        heights = height(heights, None)
    lists = {}
    for key in ("vehicles", "units"):
        value = data.get(key, [])
        if not isinstance(value, list):
            raise TypeError(f"{where}: {key}: expected a list of hex names")
        lists[key] = [hex_name(name, key) for name in value]
    n = len(board)
    smoke_array = np.zeros(n, HINDRANCE)
    height_array = np.full(n, heights if isinstance(heights, int) else DEFAULT_SMOKE_HEIGHT, LEVEL)
    base_array = np.zeros(n, LEVEL)
    for name, value in smoke.items():
        smoke_array[board.index(name)] = value
        base_array[board.index(name)] = bases[name] if value else 0
    if isinstance(heights, dict):
        for name, value in heights.items():
            height_array[board.index(name)] = value
    vehicle_array = vehicle_counts(board, lists["vehicles"])   # a hex named twice holds two vehicles
    unit_array = np.zeros(n, np.bool_)
    unit_array[[board.index(name) for name in lists["units"]]] = True
    return smoke_array, height_array, vehicle_array, unit_array, base_array
