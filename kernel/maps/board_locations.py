"""The Location names of a compiled map and its rooftops: one mixin of :class:`kernel.maps.board.Board`.

A hex's Locations are its ground (level 0), its upper building levels (``h1``..``hN``), a bridge's deck
(``h1``; the ground beneath it is ``Bridge/2I9``, A2.2) and a multi-hex building's rooftop, one level
above its top level, named with the suffix ``roof`` (``15G5roof``; :mod:`kernel.grid.coordinates`).
"""

from __future__ import annotations

import numpy as np

from kernel._dtypes import TERRAIN_MASK
from kernel.grid.coordinates import format_coordinate, parse_coordinate
from kernel.grid.references import LocationRef
from kernel.maps.specs import BoardFileError


class LocationNames:
    """Location names, their parsing and the rooftops of a :class:`~kernel.maps.board.Board` (which holds
    ``names``, ``neighbours``, ``terrain``, ``touches``, ``building_levels``, ``bridge_deck``, ``rooftop``
    and ``top_level``)."""

    def _derive_rooftops(self, explicit: np.ndarray) -> None:
        """``rooftop``: given per hex (``explicit`` 0 or 1), else a building hex with upper levels whose
        building touches a hexside across which lies another hex of a multi-level terrain (VASL's
        reading of a multi-hex building)."""
        multi_level = np.uint32(sum(1 << t for t in range(len(self.ruleset.terrain_names))
                                    if self.ruleset.terrain_multi_level[t]))
        default = np.zeros(len(self.names), dtype=np.bool_)
        for direction in range(6):
            other = self.neighbours[:, direction]
            across = np.where(other >= 0, self.terrain[np.maximum(other, 0)], 0).astype(TERRAIN_MASK)
            default |= ((across & multi_level) != 0) & ((self.touches >> direction) & 1 == 1)
        rooftop = np.where(explicit >= 0, explicit == 1, default) & (self.building_levels > 0)
        wrong = np.flatnonzero((explicit == 1) & (self.building_levels == 0))
        if wrong.size:
            raise BoardFileError(f"{self.source}: hex {self.names[wrong[0]]} has a rooftop and no upper building "
                                 "levels: expected levels=N (N >= 1) with rooftop=yes")
        self.rooftop = rooftop.astype(np.bool_)


    @staticmethod
    def names_a_location(value) -> bool:
        """Whether ``value`` is a Location name with a level, ``Bridge/`` or a rooftop (``"1E4h1"``,
        ``"15G5roof"``), not just a hex."""
        return isinstance(value, str) and ("h" in value or value.startswith("Bridge/") or value.endswith("roof"))

    def location_name(self, index: int, level: int) -> str:
        """Name of the Location of hex ``index`` at ``level``: ``"71I9"``, ``"71P5h1"``, a rooftop ``"15G5roof"``."""
        if level and self.is_rooftop(index, level):
            return self.names[index] + "roof"
        return self.names[index] + (f"h{level}" if level else "")

    def is_rooftop(self, index: int, level: int) -> bool:
        """Whether level ``level`` of hex ``index`` is its rooftop Location."""
        return bool(self.rooftop[index]) and int(level) == int(self.top_level[index])

    def rooftop_name(self, index: int) -> str | None:
        """The name of hex ``index``'s rooftop Location (``"15G5roof"``), None when it has none."""
        return self.names[index] + "roof" if self.rooftop[index] else None

    def levels_text(self, index: int) -> str:
        """The Location levels of hex ``index`` in words, for messages: ``"levels 0..1 and its rooftop
        15G5roof (level 2)"``."""
        top = int(self.top_level[index])
        if self.rooftop[index]:
            return f"levels 0..{top - 1} and its rooftop {self.names[index]}roof (level {top})"
        return f"levels 0..{top}"

    def location(self, text: str) -> tuple[int, int]:
        """``(hex index, level above ground)`` of a Location like ``"1E4h1"``.

        ``"Bridge/2I9"`` (A2.2) is the Location beneath the bridge of a bridge
        hex (level 0); its deck is ``"2I9h1"``.
        """
        if not isinstance(text, str):
            raise TypeError(f"Location must be a name like '1E4h1', not {type(text).__name__}")
        if text.startswith("Bridge/"):
            hex_index = self.index(text[len("Bridge/"):])
            if not self.bridge_deck[hex_index]:
                raise ValueError(f"Location {text!r}: {self.names[hex_index]} has no bridge: expected a bridge hex after 'Bridge/'")
            return hex_index, 0
        ref = parse_coordinate(text)
        if not isinstance(ref, LocationRef):
            raise ValueError(f"{text!r} is not a Location: expected a hex with an optional level, like '1E4h1'")
        hex_index = self.index(format_coordinate(ref.hex))
        if ref.rooftop:
            if not self.rooftop[hex_index]:
                raise ValueError(f"Location {text!r}: {self.names[hex_index]} has no rooftop: it has "
                                 f"{self.levels_text(hex_index)}")
            return hex_index, int(self.top_level[hex_index])
        level = ref.level or 0
        if not 0 <= level <= self.top_level[hex_index]:
            raise ValueError(
                f"Location {text!r}: level {level} does not exist: {self.names[hex_index]} has "
                f"{self.levels_text(hex_index)}"
            )
        return hex_index, level

