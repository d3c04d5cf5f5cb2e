"""What the pieces of a VASL save mean for a map: the counters that change LOS, the Location counters, sides.

Facts read from VASL's own tables (its ``CounterMetadata.xml``, which the
LOS engine of VASL applies to the pieces on its map) and from the saves:

* :data:`SMOKE_COUNTERS`: each SMOKE counter's hindrance DRM and its height in
  levels (WP rises four levels, SMOKE two; a Blaze, which VASL's LOS engine
  counts as a +3 SMOKE of its own height, is one too);
* :data:`WRECK_NAMES`: wrecks (a vehicle hindrance); a piece whose name ends
  in ``Wreck`` is one as well (VASL's wreck of each vehicle is named so);
* :data:`LOCATION_COUNTERS`: the counters that put the pieces piled above
  them at a building level (``Building Level 2``) or on a roof
  (:data:`ROOF`), as VASL's counters do;
* :data:`ENTRENCHMENTS`: the counters whose pieces piled below them are in a
  foxhole or trench (noted, not a Location of our map);
* :data:`NATIONS`: VASL's nationality codes (its counters' image folders and
  concealment traits) and the side each fights on.

A piece's pixel position is in the main map's pixels, which start
:data:`EDGE_BUFFER` pixels left of and above the first board (VASL's main
map keeps that margin round its boards for setting pieces aside).
"""

from __future__ import annotations

import re

#: The names of the map whose boards the bd record lays out (VASL's; older saves call it Map0).
BOARD_MAP_NAMES = ("Main Map", "Map0")
#: Pixels of margin left of and above the boards of VASL's main map (its edgeWidth and edgeHeight).
EDGE_BUFFER = 400

#: SMOKE counter name -> (hindrance DRM, height in levels above its base).
SMOKE_COUNTERS: dict[str, tuple[int, int]] = {
    "White +3 Smoke": (3, 2), "White +2 Smoke": (2, 2), "Gray +2 Smoke": (2, 2),
    "White +2 WP": (2, 4), "White +1 WP": (1, 4), "Gray +1 WP": (1, 4),
    "Smoke grenade +2": (2, 2), "WP grenade +1": (1, 4),
    "Blaze": (3, 2), "Blazing Building": (3, 4), "1-level Blaze": (3, 4), "2-level Blaze": (3, 5),
    "3-level Blaze": (3, 6), "4-level Blaze": (3, 7),
}
#: Wreck counters (a vehicle hindrance, +1).
WRECK_NAMES = ("Wreck", "Burnt Out Wreck")
#: The level a ``roof`` Location counter asks for (the Location above a building's top level).
ROOF = "roof"
#: Location counter name -> the level it puts the pieces piled above it at (or :data:`ROOF`).
LOCATION_COUNTERS: dict[str, int | str] = {
    **{f"{kind} Ground Level": 0 for kind in ("Building", "Fort Bldg", "Strongpoint")},
    **{f"{kind} Level {n}": n for kind in ("Building", "Fort Bldg", "Strongpoint") for n in (1, 2, 3)},
    "Building Roof Level": ROOF,
}
#: Counters whose pieces piled below them are in an entrenchment.
ENTRENCHMENTS = ("1S Foxhole", "2S Foxhole", "3S Foxhole", "Trench", "A-T Ditch")

#: The two sides, as :class:`kernel.GameState` names them.
AXIS, ALLIES = "axis", "allies"
#: VASL nationality code -> (nationality, side).
NATIONS: dict[str, tuple[str, str]] = {
    "ge": ("German", AXIS), "it": ("Italian", AXIS), "ja": ("Japanese", AXIS), "fi": ("Finnish", AXIS),
    "ax": ("Axis Minor", AXIS), "hu": ("Hungarian", AXIS), "ro": ("Romanian", AXIS),
    "ru": ("Russian", ALLIES), "am": ("American", ALLIES), "us": ("American", ALLIES), "br": ("British", ALLIES),
    "fr": ("French", ALLIES), "ch": ("Chinese", ALLIES), "al": ("Allied Minor", ALLIES),
}

#: Names of infantry (squads, half-squads, crews: firepower-range-morale, "4-6-7 1sq") and of leaders
#: ("8-1", "10-2"), with any layer's word before them ("broken", "dm"): units, for pieces of saves that
#: carry no ``DBCounterType`` marker.
_INFANTRY = re.compile(r"(^|\s)\d{1,2}-\d{1,2}-\d{1,2}(\s|$)")
_LEADER = re.compile(r"(^|\s)\d{1,2}-\d(\s|$)")


def nation_side(code: str | None) -> tuple[str | None, str | None]:
    """``(nationality, side)`` of a VASL nationality code (``(None, None)`` when unknown)."""
    return NATIONS.get((code or "").lower(), (None, None))


def looks_like_unit(name: str) -> bool:
    """Whether a piece's name is that of infantry or a leader (``6-2-8 Esq``, ``broken 4-4-7 1sq``, ``9-1``).

    >>> looks_like_unit("6-2-8 Esq"), looks_like_unit("9-2"), looks_like_unit("LMG"), looks_like_unit("81* MTR M1")
    (True, True, False, False)
    """
    return bool(_INFANTRY.search(name) or _LEADER.search(name))


def is_wreck(name: str) -> bool:
    """Whether a piece's name is a wreck's (``Wreck``, ``Burnt Out Wreck``, ``T-34 M43 Wreck``)."""
    return name in WRECK_NAMES or name.endswith(" Wreck")
