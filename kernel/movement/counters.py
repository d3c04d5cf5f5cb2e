"""The counters movement reads: SMOKE as per-state costs for the search, units where they block.

SMOKE (B.2: artificial terrain, part of the COT of the hex entered) is in one
Location of its hex and fills it up ``smoke_height`` levels from there (the
LOS's reading, ``docs/los-semantics.md``): ``state_smoke[s]`` is the SMOKE
cost in half MF of state ``s`` when its Location lies inside its hex's SMOKE
(a Bypass position: the hex's ground), 0 where it does not, which the Dijkstra
adds to the edges into ``s`` (:mod:`kernel.movement._kernels`).  A unit
entering the ground Location beneath SMOKE at an upper level pays no SMOKE,
one climbing into it pays.  From a
:class:`~kernel.maps.counters.GameState` the array is prepared once per
movement tables and updated in place for the hexes whose SMOKE changed since.
Units matter only where the ruleset says occupied hexes block movement (CCN);
there they are part of the movement tables (a rebuilt graph per set of
occupied hexes, kept in a small cache).
"""

from __future__ import annotations

import numpy as np

from kernel.maps.counters import GameState, counter_values, smoke_base_values
from kernel.maps.smoke_locations import location_heights2, smoke_extent2
from kernel.movement import _kernels as K


def counter_masks(board, counters):
    """``(smoke, units)``: the SMOKE of plain :class:`Counters` as ``(held, bottom2, top2)`` per hex (None for a
    :class:`GameState`, whose SMOKE costs are prepared on it, or for none; :func:`smoke_extent2`) and the units
    where they block movement (else None)."""
    if counters is None:
        return None, None
    blocks = bool(board.ruleset.rules["occupied_hexes_block_movement"])  # else units change no cost
    if isinstance(counters, GameState):
        if counters.board is not board:
            counter_values(board, counters)  # raises: the state belongs to another board
        return None, counters.units if blocks else None
    smoke_drm, height, _, unit_mask = counter_values(board, counters)
    bottom2, top2 = smoke_extent2(board, smoke_base_values(board, counters), height)
    return (smoke_drm > 0, bottom2, top2), unit_mask if blocks else None


def state_heights2(board, tables) -> np.ndarray:
    """Per state of ``tables``, the height of its Location in half levels (:func:`location_heights2`; a Bypass
    position: its hex's ground), int64, cached on the tables."""
    cached = tables.__dict__.get("_state_heights2")
    if cached is None:
        locations = location_heights2(board, board.location_hex, board.location_level)
        bypass = 2 * board.ground_level[tables.state_hex[2 * tables.n_locations:]].astype(np.int64)
        cached = np.concatenate([np.repeat(locations, 2), bypass])
        tables.__dict__["_state_heights2"] = cached
    return cached


def state_smoke(board, tables, counters=None, smoke=None) -> np.ndarray:
    """Per-state SMOKE costs (int64 half MF) for ``tables`` from a :class:`GameState` (prepared
    and kept up to date on it) or the SMOKE of :func:`counter_masks` (built per call); zeros when there is
    none."""
    if isinstance(counters, GameState):
        return _prepared_state_smoke(board, tables, counters)
    if smoke is None or tables.smoke_half == 0 or not smoke[0].any():
        cached = tables.__dict__.get("_no_smoke")
        if cached is None:
            cached = np.zeros(tables.n_states, np.int64)
            tables.__dict__["_no_smoke"] = cached
        return cached
    held, bottom2, top2 = smoke
    values = np.zeros(tables.n_states, np.int64)
    hexes = np.flatnonzero(held)
    _write(board, tables, hexes, np.ones(len(hexes), np.bool_), bottom2[hexes], top2[hexes], values)
    return values


def _write(board, tables, hexes, held, bottom2, top2, values) -> None:
    K.write_state_smoke(np.asarray(hexes, np.int64), held, bottom2, top2, state_heights2(board, tables),
                        int(tables.smoke_half), tables.state_start, tables.bypass_start, int(tables.n_locations),
                        values)


def _write_from_state(board, tables, state: GameState, hexes, values) -> None:
    """The SMOKE costs of the states of ``hexes`` from ``state`` (the extent of those hexes' SMOKE alone)."""
    hexes = np.asarray(hexes, np.int64)
    bottom2, top2 = smoke_extent2(board, state._base[hexes], state._height[hexes], hexes)
    _write(board, tables, hexes, state._smoke[hexes] > 0, bottom2, top2, values)


def _prepared_state_smoke(board, tables, state: GameState) -> np.ndarray:
    if state.board is not board:
        counter_values(board, state)  # raises: the state belongs to another board
    key = ("movement", id(tables))
    prepared = state.prepared.get(key)
    if prepared is None or prepared[0] is not tables:
        values = np.zeros(tables.n_states, np.int64)
        _write_from_state(board, tables, state, np.arange(len(board)), values)  # as every update after
        state.prepared[key] = [tables, state.smoke_version, values]
        return values
    _, version, values = prepared
    if version != state.smoke_version:  # units and vehicles moved since change no SMOKE cost
        _write_from_state(board, tables, state, state.smoke_changed_since(version), values)
        prepared[1] = state.smoke_version
    return values
