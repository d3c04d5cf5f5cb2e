"""The counters movement reads: SMOKE as per-state costs for the search, units where they block.

SMOKE (B.2: artificial terrain, part of the COT of the hex entered) is per-hex
data: ``state_smoke[s]`` is the SMOKE cost in half MF of the hex of state
``s`` (0 where there is none), which the Dijkstra adds to the edges into
``s`` (:mod:`kernel.movement._kernels`).  From a
:class:`~kernel.maps.counters.GameState` the array is prepared once per
movement tables and updated in place for the hexes whose SMOKE changed since.
Units matter only where the ruleset says occupied hexes block movement (CCN);
there they are part of the movement tables (a rebuilt graph per set of
occupied hexes, kept in a small cache).
"""

from __future__ import annotations

import numpy as np

from kernel.maps.counters import GameState, counter_values
from kernel.movement import _kernels as K


def counter_masks(board, counters):
    """``(smoke, units)``: the SMOKE bool mask of plain :class:`Counters` (None for a
    :class:`GameState`, whose SMOKE costs are prepared on it, or for none) and the units where
    they block movement (else None)."""
    if counters is None:
        return None, None
    blocks = bool(board.ruleset.rules["occupied_hexes_block_movement"])  # else units change no cost
    if isinstance(counters, GameState):
        if counters.board is not board:
            counter_values(board, counters)  # raises: the state belongs to another board
        return None, counters.units if blocks else None
    smoke_drm, _, _, unit_mask = counter_values(board, counters)
    return smoke_drm > 0, unit_mask if blocks else None


def state_smoke(board, tables, counters=None, smoke_mask=None) -> np.ndarray:
    """Per-state SMOKE costs (int64 half MF) for ``tables`` from a :class:`GameState` (prepared
    and kept up to date on it) or a bool SMOKE mask (built per call); zeros when there is none."""
    if isinstance(counters, GameState):
        return _prepared_state_smoke(board, tables, counters)
    if smoke_mask is None or tables.smoke_half == 0 or not smoke_mask.any():
        cached = tables.__dict__.get("_no_smoke")
        if cached is None:
            cached = np.zeros(tables.n_states, np.int64)
            tables.__dict__["_no_smoke"] = cached
        return cached
    return np.where(smoke_mask[tables.state_hex], tables.smoke_half, 0).astype(np.int64)


def _prepared_state_smoke(board, tables, state: GameState) -> np.ndarray:
    if state.board is not board:
        counter_values(board, state)  # raises: the state belongs to another board
    key = ("movement", id(tables))
    prepared = state.prepared.get(key)
    if prepared is None or prepared[0] is not tables:
        values = np.zeros(tables.n_states, np.int64)
        K.write_state_smoke(np.arange(len(board)), state._smoke, int(tables.smoke_half), tables.state_start,
                            tables.bypass_start, int(tables.n_locations), values)  # as every update after
        state.prepared[key] = [tables, state.smoke_version, values]
        return values
    _, version, values = prepared
    if version != state.smoke_version:  # units and vehicles moved since change no SMOKE cost
        K.write_state_smoke(state.smoke_changed_since(version), state._smoke, int(tables.smoke_half),
                            tables.state_start, tables.bypass_start, int(tables.n_locations), values)
        prepared[1] = state.smoke_version
    return values
