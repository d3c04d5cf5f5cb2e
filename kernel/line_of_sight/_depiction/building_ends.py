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


def inside_building(board, hex_a, level_a, hex_b, level_b) -> np.ndarray:
    """Which viewer -> target pairs VASL blocks because the LOS enters another hex of the viewer's building
    before it leaves it (A6.8 Example 2, VASL's reading; ``model="vasl"``): adjacent hexes of one building
    (both building hexes whose building reaches their common hexside, ``board.touches``), the viewer no
    higher than the target hex's building (its upper levels, or one level for a single storey, above its
    ground) and the two ends at different heights."""
    hex_a, hex_b = np.asarray(hex_a, np.int64), np.asarray(hex_b, np.int64)
    level_a, level_b = np.asarray(level_a, np.int64), np.asarray(level_b, np.int64)
    across = board.neighbours[hex_a] == hex_b[:, None]
    out = across.any(axis=1)
    if not out.any():
        return out
    side = np.argmax(across, axis=1)
    rs = board.ruleset
    building = np.uint32(sum(1 << t for t in range(len(rs.terrain_names)) if rs.terrain_multi_level[t]))
    in_a = (board.terrain[hex_a] & building) != 0
    in_b = (board.terrain[hex_b] & building) != 0
    touch_a = (board.touches[hex_a] >> side) & 1 == 1
    touch_b = (board.touches[hex_b] >> ((side + 3) % 6)) & 1 == 1
    viewer = board.ground_level[hex_a].astype(np.int64) + level_a
    target = board.ground_level[hex_b].astype(np.int64) + level_b
    top_b = board.ground_level[hex_b].astype(np.int64) + np.maximum(board.building_levels[hex_b], 1)
    return out & in_a & in_b & touch_a & touch_b & (viewer <= top_b) & (viewer != target)


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
    in the row, that :func:`vasl_end_rules` blocks: the stairless pairs and those of adjacent hexes."""
    hexes = np.asarray(hexes, np.int64)
    levels = np.asarray(levels, np.int64)
    i, j = _stairless_cells(board, hexes, levels, rows)
    order = np.argsort(hexes, kind="stable")   # the Locations of each hex, for the pairs of adjacent hexes
    rows = np.asarray(rows, np.int64)
    near_i, near_j = [], []
    by_hex: dict[int, list[int]] = {}
    for k in order.tolist():
        by_hex.setdefault(int(hexes[k]), []).append(k)
    for r in rows.tolist():
        for n in board.neighbours[hexes[r]].tolist():
            for k in by_hex.get(n, ()):
                near_i.append(r)
                near_j.append(k)
    if near_i:
        ni, nj = np.array(near_i, np.int64), np.array(near_j, np.int64)
        keep = inside_building(board, hexes[ni], levels[ni], hexes[nj], levels[nj])
        i, j = np.concatenate([i, ni[keep]]), np.concatenate([j, nj[keep]])
    return i, j
