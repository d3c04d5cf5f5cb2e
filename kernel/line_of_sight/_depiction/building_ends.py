"""VASL's rules of a LOS's ends in buildings (``model="vasl"`` only; the rules' reading, the hex and
depiction models, keeps the ends' own hexes out of every LOS): no LOS between two building levels of one
hex that no stairway joins, and none that enters another hex of the viewer's building before it leaves it
(A6.8 Example 2 as VASL's engine reads it).  Plain numpy over the board's arrays, applied to the walk's
results by :mod:`kernel.line_of_sight.depiction`.
"""

from __future__ import annotations

import numpy as np


#: The reason of a LOS between two building levels of one hex that no stairway joins (``model="vasl"``), and of
#: a LOS that enters another hex of its building before it leaves it (A6.8 Example 2, as VASL reads it).
R_STAIRWAY, R_INSIDE_BUILDING = 7, 8
#: The most (viewer, target) pairs :func:`end_rule_cells` checks in one call (about 100 bytes of scratch each).
END_RULE_PAIRS = 1 << 20


def _building_mask(board) -> np.uint32:
    """The terrain bits of the ruleset's building terrains (those with levels)."""
    rs = board.ruleset
    return np.uint32(sum(1 << t for t in range(len(rs.terrain_names)) if rs.terrain_multi_level[t]))


def inside_building(board, hex_a, level_a, hex_b, level_b) -> np.ndarray:
    """Which viewer -> target pairs VASL blocks because the LOS enters another hex over building art before it
    leaves its building (A6.8 Example 2, VASL's reading; ``model="vasl"``): the ends at different heights, the
    viewer in a building hex and no higher than the building of the hex entered (its ground plus its upper
    levels, at least one), judged along VASL's pixel trace (:mod:`.leave_building`)."""
    from kernel.line_of_sight._depiction.leave_building import stays_inside_pairs
    from kernel.maps.art import board_art

    hex_a, hex_b = np.asarray(hex_a, np.int64), np.asarray(hex_b, np.int64)
    level_a, level_b = np.asarray(level_a, np.int64), np.asarray(level_b, np.int64)
    ground = board.ground_level.astype(np.int64)
    elev_a, elev_b = ground[hex_a] + level_a, ground[hex_b] + level_b
    out = np.zeros(len(hex_a), np.bool_)
    in_building = (board.terrain[hex_a] & _building_mask(board)) != 0
    maybe = np.flatnonzero((elev_a != elev_b) & (hex_a != hex_b) & in_building)
    if maybe.size == 0:
        return out
    art = board_art(board)
    class_building = ((art.class_terrain & _building_mask(board)) != 0).astype(np.int64)
    height = np.maximum(board.building_levels.astype(np.int64), 1)
    found = np.zeros(maybe.size, np.bool_)
    stays_inside_pairs(hex_a[maybe], elev_a[maybe], hex_b[maybe], elev_b[maybe], board.x.astype(np.int64),
                       board.y.astype(np.int64), np.ascontiguousarray(board.cell_index),
                       np.ascontiguousarray(board.neighbours), art.pixels, class_building, height, found)
    out[maybe] = found
    return out


def vasl_end_rules(board, hex_a, level_a, hex_b, level_b) -> tuple[np.ndarray, np.ndarray]:
    """``(blocked, reason)`` of VASL's rules of the ends' buildings (:func:`stairless`, :func:`inside_building`)
    for viewer -> target pairs."""
    stairs = stairless(board, hex_a, level_a, hex_b, level_b)
    inside = inside_building(board, hex_a, level_a, hex_b, level_b) & ~stairs
    return stairs | inside, np.where(stairs, R_STAIRWAY, R_INSIDE_BUILDING).astype(np.int8)


def stairless(board, hex_a, level_a, hex_b, level_b) -> np.ndarray:
    """Which pairs join two building Locations of one hex that no stairway joins (VASL's reading, used by
    ``model="vasl"``): two levels of a building hex (its ground and upper levels; not its rooftop, which
    is no building Location), more than one level apart or in a hex without a stairway
    (``board.stairway``)."""
    hex_a, hex_b = np.asarray(hex_a, np.int64), np.asarray(hex_b, np.int64)
    level_a, level_b = np.asarray(level_a, np.int64), np.asarray(level_b, np.int64)
    out = (hex_a == hex_b) & (level_a != level_b)
    if not out.any():
        return out
    roof_a = board.rooftop[hex_a] & (level_a == board.top_level[hex_a])
    roof_b = board.rooftop[hex_b] & (level_b == board.top_level[hex_b])
    apart = (np.abs(level_a - level_b) > 1) | ~board.stairway[hex_a]
    return out & (board.building_levels[hex_a] > 0) & ~roof_a & ~roof_b & apart


def _stairless_cells(board, hexes, levels, rows) -> tuple[np.ndarray, np.ndarray]:
    """``(row, column)`` of the matrix cells over Locations (hexes, levels) whose pair :func:`stairless`
    blocks, for the rows listed."""
    hexes = np.asarray(hexes, np.int64)
    order = np.argsort(hexes, kind="stable")
    repeated = np.flatnonzero(np.diff(hexes[order]) == 0)
    if repeated.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    shared = np.unique(hexes[order][repeated])
    members = np.flatnonzero(np.isin(hexes, shared))
    i, j = np.meshgrid(members, members, indexing="ij")
    i, j = i.ravel(), j.ravel()
    keep = np.isin(i, rows) & stairless(board, hexes[i], np.asarray(levels)[i], hexes[j], np.asarray(levels)[j])
    return i[keep], j[keep]


def end_rule_cells(board, hexes, levels, rows) -> tuple[np.ndarray, np.ndarray]:
    """``(row, column)`` of the cells of rows ``rows`` of the matrix over Locations (hexes, levels), viewer
    in the row, that :func:`vasl_end_rules` blocks: the stairless pairs and those whose LOS stays in its building
    (:func:`inside_building`)."""
    hexes = np.asarray(hexes, np.int64)
    levels = np.asarray(levels, np.int64)
    i, j = _stairless_cells(board, hexes, levels, rows)
    rows = np.asarray(rows, np.int64)
    inside = rows[(board.terrain[hexes[rows]] & _building_mask(board)) != 0]   # viewers in a building hex
    step = max(1, END_RULE_PAIRS // max(1, len(hexes)))   # viewer rows per call: bounded scratch on big maps
    found_i, found_j = [i], [j]
    for first in range(0, inside.size, step):
        part = inside[first:first + step]
        ni = np.repeat(part, len(hexes))
        nj = np.tile(np.arange(len(hexes), dtype=np.int64), part.size)
        keep = inside_building(board, hexes[ni], levels[ni], hexes[nj], levels[nj])
        found_i.append(ni[keep])
        found_j.append(nj[keep])
    return np.concatenate(found_i), np.concatenate(found_j)
