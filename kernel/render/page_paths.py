"""The movement paths the interactive page draws: one cheapest path from every hex to every hex it reaches.

A path is stored as a tree per start hex: for each hex ``t`` the start
reaches, the direction (0..5, an index into :attr:`Board.neighbours`) of the
hex before ``t`` on the cheapest path to ``t`` (to the state of ``t``
:meth:`kernel.MovementField.best_state` gives: its Location, or a Bypass
position of it where bypassing is cheaper, so the path costs the number the
page writes in ``t``).  The
page follows these pointers from ``t`` back to the start.  The pointer of
``t`` names the hex before it on *its* path; following it gives the path of
that hex, which is the beginning of ``t``'s path in nearly every case.  Where
it is not (the path to ``t`` passes the previous hex in a Bypass position or
on another level than that hex's own cheapest path does), ``t``'s pointer is
:data:`FULL_PATH` and its whole hex sequence is listed instead, so the page
always draws exactly the hexes of that path (Bypass positions and levels
drawn as their hex, repeated hexes once).

The tree is that of the largest allowance.  A smaller allowance ``a`` gives
the same cost to every hex it reaches, except the hexes entered by an
all-MF first move (costing ``a``: A4.134 and the like, legal only as the
first move): those are reached in one step.  The page tells them apart by
their cost (the cost under ``a`` differs from the cost under the largest
allowance) and draws them as the single step from the start.
"""

from __future__ import annotations

import numpy as np

#: Pointer of a hex not reached (or of the start itself).
NO_PATH = 255
#: Pointer of a hex whose whole path is listed in ``full`` (the pointers do not give it).
FULL_PATH = 254


def _state_hexes(field) -> np.ndarray:
    """The hex of every state of a movement field (Locations, then Bypass positions)."""
    board, tables = field.board, field.tables
    n_loc = tables.n_locations
    location_states = board.location_hex[np.arange(2 * n_loc) >> 1].astype(np.int64)
    return np.concatenate([location_states, tables.bypass_hex.astype(np.int64)])


def _candidate_states(field) -> np.ndarray:
    """Per hex, the states :meth:`~kernel.MovementField.best_state` chooses among, in its order (-1: none)."""
    board, tables = field.board, field.tables
    loc = board.location_offset[:len(board)].astype(np.int64)
    deck = board.bridge_deck.astype(bool)
    bypass = tables.bypass_id.astype(np.int64)
    out = np.full((len(board), 4 + bypass.shape[1]), -1, np.int64)
    out[:, 0], out[:, 1] = 2 * loc, 2 * loc + 1
    out[deck, 2], out[deck, 3] = 2 * loc[deck] + 2, 2 * loc[deck] + 3
    out[:, 4:] = np.where(bypass >= 0, 2 * tables.n_locations + bypass, -1)
    return out


def _hex_sequences(field, reachable_states: np.ndarray, state_hex: np.ndarray) -> dict[int, tuple]:
    """Per reachable state, the hexes of its path (a hex met twice in a row written once), as a tuple."""
    predecessor = field.predecessor
    order = reachable_states[np.argsort(field.state_cost[reachable_states], kind="stable")]
    states = order.tolist()     # Python ints: one dict operation per state, no array scalars
    preds = predecessor[order].tolist()
    hexes = state_hex[order].tolist()
    sequences: dict[int, tuple] = {}

    def sequence(state: int) -> tuple:   # a predecessor not met yet (a zero-cost step): walk its chain
        chain = []
        while state >= 0 and state not in sequences:
            chain.append(state)
            state = int(predecessor[state])
        known = sequences[state] if state >= 0 else ()
        for s in reversed(chain):
            h = int(state_hex[s])
            known = known if known and known[-1] == h else known + (h,)
            sequences[s] = known
        return known

    for state, before, h in zip(states, preds, hexes):
        if state in sequences:
            continue
        known = () if before < 0 else sequences.get(before)
        if known is None:
            known = sequence(before)
        sequences[state] = known if known and known[-1] == h else known + (h,)
    return sequences


def movement_paths(board, unit: str, allowance: int, counters=None) -> tuple[np.ndarray, list]:
    """The page's path trees: a direction per (start, hex) pair and the full paths the pointers miss.

    Returns
    -------
    parent : numpy.ndarray of uint8, shape (N, N)
        Row = start, column = hex: the direction (into :attr:`Board.neighbours`)
        to the hex before it; :data:`NO_PATH` where not reached or the start,
        :data:`FULL_PATH` where ``full`` holds the path.
    full : list
        ``[start, hex, [hexes of the path, start first]]`` of those pairs.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("71")
    >>> parent, full = movement_paths(board, "infantry", 2)
    >>> start, step = board.index("71I4"), board.index("71I5")
    >>> int(board.neighbours[step, parent[start, step]]) == start, int(parent[start, start]) == NO_PATH
    (True, True)
    """
    from kernel.movement.fields import movement_field

    n = len(board)
    neighbours = board.neighbours.tolist()   # Python lists: one lookup per hex reached, no array calls
    parent = np.full((n, n), NO_PATH, np.uint8)
    full = []
    candidates = state_hex = None
    for start in range(n):
        field = movement_field(board, start, unit=unit, allowance=allowance, counters=counters)
        if candidates is None:   # the same states for every start: the tables depend on the unit and allowance
            candidates, state_hex = _candidate_states(field), _state_hexes(field)
            candidate_valid = candidates >= 0
            candidate_index = np.maximum(candidates, 0)
        reachable = np.flatnonzero(np.isfinite(field.state_cost))
        sequences = _hex_sequences(field, reachable, state_hex)
        targets = np.flatnonzero(np.isfinite(field.cost) & (field.cost <= allowance))
        # the best state of each hex a path can meet (those with a reachable state): the first of its cheapest
        # candidates, as best_state
        hexes = np.unique(state_hex[reachable])
        costs = np.where(candidate_valid[hexes], field.state_cost[candidate_index[hexes]], np.inf)
        best = dict(zip(hexes.tolist(), candidates[hexes, np.argmin(costs, axis=1)].tolist()))
        for t in targets.tolist():
            if t == start:
                continue
            path = sequences[best[t]]
            if len(path) < 2:
                continue
            previous = path[-2]
            around = neighbours[t]
            if previous in around and sequences[best[previous]] + (t,) == path:
                parent[start, t] = around.index(previous)
            else:
                parent[start, t] = FULL_PATH
                full.append([start, t, list(path)])
    return parent, full
