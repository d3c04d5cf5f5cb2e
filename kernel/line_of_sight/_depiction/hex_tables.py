"""Per-hex tables the depiction walk reads beside the art: the art that blocks in an end's own hex
(B23.71) and the wall hexspines whose far vertex is open (B9)."""

from __future__ import annotations

import numpy as np


def own_hex_obstacles(board, art) -> tuple[np.ndarray, np.ndarray]:
    """The art that blocks even in a LOS's end's own hex (terrain with ``obstacle_in_own_hex``: ASL's rowhouse
    walls, B23.71): per pixel class of ``art`` 1 where its terrain has it, else 0; per hex, whether a pixel of
    such a class lies within its circumradius and a pixel of its centre dot (only for such ends does the walk
    look at the pixels near its centre dot).

    Examples
    --------
    >>> import kernel
    >>> from kernel.maps.art import board_art
    >>> board = kernel.load("default")     # no rowhouse walls
    >>> from kernel.line_of_sight._depiction.hex_tables import own_hex_obstacles
    >>> class_own, hex_own = own_hex_obstacles(board, board_art(board))
    >>> int(class_own.sum()), int(hex_own.sum())
    (0, 0)
    """
    from kernel.grid.pixels import UNIT_X, UNIT_Y
    from kernel.maps.art import pixel_hexes

    rs = board.ruleset
    mask = sum(1 << t for t in range(len(rs.terrain_names)) if rs.terrain_obstacle_in_own_hex[t])
    class_own = ((art.class_terrain.astype(np.int64) & mask) != 0).astype(np.int64)
    hex_own = np.zeros(len(board), np.bool_)
    if class_own.any():
        ys, xs = np.nonzero(class_own[art.pixels >> 8])
        px, py = xs + 0.5, ys + 0.5     # drawn art's pixels are judged at their centres
        near = pixel_hexes(board, px, py)
        px, py, near = px[near >= 0], py[near >= 0], near[near >= 0]
        candidates = np.concatenate([near[:, None], board.neighbours[near].astype(np.int64)], axis=1)
        safe = np.maximum(candidates, 0)
        dist2 = (board.x[safe] * UNIT_X - px[:, None]) ** 2 + (board.y[safe] * UNIT_Y - py[:, None]) ** 2
        hex_own[candidates[(candidates >= 0) & (dist2 <= (2 * UNIT_X + 1.0) ** 2)]] = True
    return class_own, hex_own


def far_vertices_open(board) -> np.ndarray:
    """Per hex, bit k set when its hexspine between neighbour directions k and k + 1 has a wall, hedge or
    other obstacle hexside and the spine's far vertex does not have one on its two other hexsides too (B9:
    a LOS along a wall hexspine touching an end is blocked there only when all three have one)."""
    rs = board.ruleset
    obstacle_bits = sum(1 << k for k in range(len(rs.hexside_names)) if rs.hexside_los_role[k] == 2)
    walled = (board.hexside.astype(np.int64) & obstacle_bits) != 0      # (hex, direction)
    nb = board.neighbours.astype(np.int64)
    out = np.zeros(len(board), np.int64)

    def wall(x, y, d):
        """The hexside of hexes x in direction d (that of y opposite) has a wall, recorded on either hex."""
        return walled[x, d % 6] | walled[y, (d + 3) % 6]

    for k in range(6):
        p = nb[:, k]                             # P: the neighbour in direction k
        q = nb[:, (k + 1) % 6]                   # Q: in direction k + 1
        r = np.where(p >= 0, nb[np.maximum(p, 0), (k + 1) % 6], -1)   # R: beyond the far vertex
        there = (p >= 0) & (q >= 0) & (r >= 0)
        p, q, r = np.maximum(p, 0), np.maximum(q, 0), np.maximum(r, 0)
        spine = there & wall(p, q, k + 2)
        out |= np.where(spine & ~(wall(p, r, k + 1) & wall(q, r, k)), 1 << k, 0)
    return out
