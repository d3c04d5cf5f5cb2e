"""numba kernels of movement (private; see :mod:`kernel.movement.fields` for the API).

The expanded state graph is assembled once per board, unit class and
counters as CSR arrays (``kernel.MovementTables``); the kernels here
only walk it.  States (``docs/movement-semantics.md``):

* Location ``loc`` (``location_offset[h] + level``) in mode moving has state
  id ``2 * loc``, stopped ``2 * loc + 1``;
* Bypass position ``(h, d)`` has state id ``2 * n_locations + bypass_id[h, d]``.

Edges (:func:`pack_edges`): each a uint64, the target state in the low 32 bits,
the weight in whole half MF without SMOKE in the next 28 and the edge's SMOKE
code in the top 4 (see :func:`kernel.movement.state_graph.build_state_graph`):
SMOKE enters the search as per-state data, ``state_smoke[t]`` half MF (the
SMOKE cost of the hex of state ``t``, 0 where there is none) shifted left by
``code - 1`` and added to an edge into ``t`` whose code is not 0.  ``edge_bounds`` has ``2 * S + 1``
entries for ``S`` states: state ``s``'s ordinary edges are
``edges[edge_bounds[2 * s]:edge_bounds[2 * s + 1]]`` and its all-MF edges
(legal only as a unit's first move) follow, up to ``edge_bounds[2 * s + 2]``.

Costs are whole numbers of half MF (int64); a state not reached within the
search's ``limit`` holds a value above ``limit`` (:func:`dijkstra`), which the
outputs turn into float64 ``inf`` (no fastmath anywhere).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from kernel._jit import jit, jit_parallel

FLAG_STOP = 1
FLAG_ALL = 2

#: An edge that cannot be taken costs INF_HALF (whole half MF) while the graph
#: is built; such edges are dropped from it.  It is also the search limit
#: meaning "no limit".
INF_HALF = 1 << 40

#: Packing of one edge into a uint64 (see :func:`pack_edges`).
EDGE_TARGET_MASK = (1 << 32) - 1
EDGE_WEIGHT_SHIFT = 32
EDGE_WEIGHT_MASK = (1 << 28) - 1
EDGE_CODE_SHIFT = 60
EDGE_CODE_MAX = 15
_TARGET_MASK = np.uint64(EDGE_TARGET_MASK)
_WEIGHT_SHIFT = np.uint64(EDGE_WEIGHT_SHIFT)
_WEIGHT_MASK = np.uint64(EDGE_WEIGHT_MASK)
_CODE_SHIFT = np.uint64(EDGE_CODE_SHIFT)


def pack_edges(target, weight, smoke_code):
    """Pack edge targets, weights (whole half MF) and SMOKE codes into the uint64 form :func:`dijkstra` reads."""
    if weight.size and (weight.min() < 0 or weight.max() > EDGE_WEIGHT_MASK):
        raise ValueError(f"edge weights span {weight.min()}..{weight.max()} half MF: expected 0..{EDGE_WEIGHT_MASK}")
    if target.size and (target.min() < 0 or target.max() > EDGE_TARGET_MASK):
        raise ValueError(f"edge targets span {target.min()}..{target.max()}: expected 0..{EDGE_TARGET_MASK}")
    if smoke_code.size and (smoke_code.min() < 0 or smoke_code.max() > EDGE_CODE_MAX):
        raise ValueError(f"edge SMOKE codes span {smoke_code.min()}..{smoke_code.max()} (a climb of "
                         f"{smoke_code.max() - 1} levels in one move): expected 0..{EDGE_CODE_MAX}")
    return (target.astype(np.uint64) | (weight.astype(np.uint64) << _WEIGHT_SHIFT)
            | (smoke_code.astype(np.uint64) << _CODE_SHIFT))


def unpack_edges(edges):
    """``(target, weight, smoke_code)`` int64 arrays of packed edges (the inverse of :func:`pack_edges`)."""
    return ((edges & _TARGET_MASK).astype(np.int64), ((edges >> _WEIGHT_SHIFT) & _WEIGHT_MASK).astype(np.int64),
            (edges >> _CODE_SHIFT).astype(np.int64))


def smoke_weights(weight, smoke_code, target_smoke):
    """Edge weights with SMOKE: ``target_smoke`` is each edge's target state's SMOKE cost in half MF."""
    return weight + np.where(smoke_code > 0, target_smoke << np.maximum(smoke_code - 1, 0), 0)


#: No per-state penalty (an empty array: :func:`dijkstra` adds nothing).
NO_PENALTY = np.zeros(0, np.int64)

#: uint16 sentinel for unreachable in half-MF matrices.
UNREACHABLE = 65535

#: The per-class edge tables (built by kernel.movement_tables), from
#: which the expanded state graph is assembled.
KernelTables = namedtuple("KernelTables", [
    "neighbours", "location_offset", "location_hex", "location_level", "building_levels",
    "enter_cost", "enter_flags", "climb_cost", "climb_all", "bypass_id", "bypass_hex",
    "bypass_dir", "bypass_in", "bypass_along", "n_locations",
    "deck_location", "deck_in", "deck_across", "deck_out", "deck_out_flags",
])


@jit
def _push(pool_state, pool_next, heads, entry, state, bucket):
    """Put ``state`` at the head of ``bucket``'s list, in pool entry ``entry`` (see :func:`dijkstra`)."""
    pool_state[entry] = state
    pool_next[entry] = heads[bucket]
    heads[bucket] = entry


@jit
def dijkstra(edge_bounds, edges, state_smoke, state_penalty, start_states, start_costs, start_is_first, limit,
             dist, pred, pool_state, pool_next, heads):
    """Least cost (whole half MF) from the start states over the expanded state graph.

    Dial's algorithm: every edge weight, and the spread of the start costs, is
    a whole number of half MF smaller than ``heads.shape[0]``, so a circular
    array of bucket lists replaces the heap.  A relaxed state is pushed again
    rather than moved between lists (lazy deletion); an entry whose cost is no
    longer the state's is skipped when popped.  The lists live in one pool
    (``pool_state``, ``pool_next``; at least as long as ``edges`` plus the
    starts), ``heads`` holds each bucket's first entry.  The queue updates of
    the main loop are written out on purpose: as separate jitted helpers their
    call overhead made the kernel many times slower (the starts use
    :func:`_push`).

    A bucket is taken whole: it is detached from ``heads`` and its list walked,
    so the next pop does not wait on the bucket's head being rewritten
    (entries pushed into it meanwhile, by a zero-weight edge, are taken on the
    next turn).

    ``state_smoke[t]`` is the SMOKE cost (half MF) of the hex of state ``t``,
    added to each edge into ``t`` as its SMOKE code says (module docstring).
    ``state_penalty`` is empty, or holds per state a cost added to every edge
    into it (half MF; negative: the state may not be entered), e.g. for
    entering a hex the enemy sees.

    All-MF edges are relaxed only out of a start marked in ``start_is_first``
    whose start cost is 0, before the search proper.  On return ``dist[s]``
    is the cost of state ``s``, or ``limit + 1`` when it is not reached
    within ``limit`` (such states are neither stored nor expanded), and
    ``pred[s]`` its predecessor (-1 at a start or not reached).  Returns the
    number of states settled.
    """
    bound = limit + 1
    penalised = state_penalty.shape[0] > 0
    dist[:] = bound
    pred[:] = -1
    heads[:] = -1
    n_buckets = heads.shape[0]
    used = 0
    pending = 0
    current = bound
    for k in range(start_states.shape[0]):
        s = start_states[k]
        c = start_costs[k]
        if c < dist[s]:
            dist[s] = c
            _push(pool_state, pool_next, heads, used, s, c % n_buckets)
            used += 1
            pending += 1
            if c < current:
                current = c
    for k in range(start_states.shape[0]):  # all-MF moves: a unit's first move only
        s = start_states[k]
        if start_is_first[k] and start_costs[k] == 0:
            for e in range(edge_bounds[2 * s + 1], edge_bounds[2 * s + 2]):
                packed = edges[e]
                t = np.intp(packed & _TARGET_MASK)
                c = np.int64((packed >> _WEIGHT_SHIFT) & _WEIGHT_MASK)
                code = np.int64(packed >> _CODE_SHIFT)
                if code > 0:
                    c += state_smoke[t] << (code - 1)
                if penalised:
                    if state_penalty[t] < 0:
                        continue
                    c += state_penalty[t]
                if c < dist[t]:
                    dist[t] = c
                    pred[t] = s
                    _push(pool_state, pool_next, heads, used, t, c % n_buckets)
                    used += 1
                    pending += 1
    settled = 0
    bucket = current % n_buckets
    while pending > 0:
        entry = heads[bucket]
        if entry < 0:
            current += 1
            bucket += 1
            if bucket == n_buckets:
                bucket = 0
            continue
        heads[bucket] = -1
        while entry >= 0:
            pending -= 1
            state = pool_state[entry]
            entry = pool_next[entry]
            cost = dist[state]
            if cost != current:
                continue  # a stale entry: the state was reached more cheaply since
            settled += 1
            for e in range(edge_bounds[2 * state], edge_bounds[2 * state + 1]):
                packed = edges[e]
                t = np.intp(packed & _TARGET_MASK)
                weight = np.int64((packed >> _WEIGHT_SHIFT) & _WEIGHT_MASK)
                code = np.int64(packed >> _CODE_SHIFT)
                if code > 0:
                    weight += state_smoke[t] << (code - 1)
                if penalised:
                    if state_penalty[t] < 0:
                        continue
                    weight += state_penalty[t]
                c = cost + weight
                if c < dist[t]:
                    dist[t] = c
                    pred[t] = state
                    bucket_t = bucket + weight  # (c % n_buckets without a division: weight < n_buckets)
                    if bucket_t >= n_buckets:
                        bucket_t -= n_buckets
                    pool_state[used] = t
                    pool_next[used] = heads[bucket_t]
                    heads[bucket_t] = used
                    used += 1
                    pending += 1
    return settled


@jit
def search(edge_bounds, edges, state_smoke, state_penalty, n_buckets, start_states, start_costs, start_is_first, limit):
    """:func:`dijkstra` with its work arrays allocated here: returns ``(dist, pred)``."""
    n_states = (edge_bounds.shape[0] - 1) // 2
    dist = np.empty(n_states, np.int64)
    pred = np.empty(n_states, np.int32)
    pool = edges.shape[0] + start_states.shape[0] + 1  # every state is expanded once: a push per edge at most
    pool_state = np.empty(pool, np.int32)
    pool_next = np.empty(pool, np.int32)
    heads = np.empty(n_buckets, np.int32)
    dijkstra(edge_bounds, edges, state_smoke, state_penalty, start_states, start_costs, start_is_first, limit,
             dist, pred, pool_state, pool_next, heads)
    return dist, pred


@jit
def field_starts(n_buckets, start_hexes, start_levels, entry_states, entry_costs, location_offset):
    """The start states of a field: ``(states, costs, is_first, buckets, first_hexes)``.

    The starts are Locations (``start_hexes``, ``start_levels``; moving, at
    cost 0, an all-MF move allowed) and entries from off the map
    (``entry_states`` at ``entry_costs`` whole half MF); ``buckets`` is
    ``n_buckets`` grown to the spread of the start costs, ``first_hexes``
    the start hexes at ground level (leaving the map from them may be an
    all-MF move).
    """
    n_starts = start_hexes.shape[0]
    n_all = n_starts + entry_states.shape[0]
    start_states = np.empty(n_all, np.int64)
    start_costs = np.zeros(n_all, np.int64)
    start_is_first = np.zeros(n_all, np.bool_)
    buckets = n_buckets
    n_first = 0
    for k in range(n_starts):
        start_states[k] = 2 * (location_offset[start_hexes[k]] + start_levels[k])
        start_is_first[k] = True
        if start_levels[k] == 0:
            n_first += 1
    for k in range(entry_states.shape[0]):
        start_states[n_starts + k] = entry_states[k]
        start_costs[n_starts + k] = entry_costs[k]
        buckets = max(buckets, entry_costs[k] + 1)  # the spread of the start costs
    first_hexes = np.empty(n_first, np.int64)  # start hexes at ground level: leaving the map may be all-MF
    n_first = 0
    for k in range(n_starts):
        if start_levels[k] == 0:
            first_hexes[n_first] = start_hexes[k]
            n_first += 1
    return start_states, start_costs, start_is_first, buckets, first_hexes


@jit
def field_kernel(edge_bounds, edges, state_smoke, state_penalty, n_buckets, limit, start_hexes, start_levels, entry_states, entry_costs,
                 location_offset, bypass_start, deck_location, n_locations, exit_hexes, leave_cost, cot_all,
                 allowance_all):
    """One movement field, all in one call: returns (state_cost, cost, pred, exit_cost, exit_hex).

    The starts are Locations (``start_hexes``, ``start_levels``; moving, at
    cost 0, an all-MF move allowed) and entries from off the map
    (``entry_states`` at ``entry_costs`` whole half MF).  Runs :func:`search`
    and :func:`field_outputs`; ``state_cost`` and ``cost`` are float64 MF
    with ``inf`` for unreachable.
    """
    start_states, start_costs, start_is_first, buckets, first_hexes = field_starts(
        n_buckets, start_hexes, start_levels, entry_states, entry_costs, location_offset)
    dist, pred = search(edge_bounds, edges, state_smoke, state_penalty, buckets, start_states, start_costs, start_is_first, limit)
    state_cost = np.empty(dist.shape[0], np.float64)
    cost = np.empty(location_offset.shape[0] - 1, np.float64)
    exit_cost, exit_hex = field_outputs(dist, limit, location_offset, bypass_start, deck_location, n_locations,
                                        exit_hexes, leave_cost, state_smoke, cot_all, first_hexes, allowance_all,
                                        state_cost, cost)
    return state_cost, cost, pred, exit_cost, exit_hex


@jit
def hex_costs(dist, location_offset, bypass_start, deck_location, n_locations, out):
    """Field cost per hex: least over its ground Location and bridge deck (both
    modes) and its Bypass positions (``bypass_start[h]:bypass_start[h + 1]``
    are hex ``h``'s Bypass ids), in the units of ``dist``."""
    n = out.shape[0]
    for h in range(n):
        loc = location_offset[h]
        best = min(dist[2 * loc], dist[2 * loc + 1])
        deck = deck_location[h]
        if deck >= 0:
            best = min(best, dist[2 * deck], dist[2 * deck + 1])
        for b in range(bypass_start[h], bypass_start[h + 1]):
            best = min(best, dist[2 * n_locations + b])
        out[h] = best


# run in parts by the package's threads (numba's parfor lowering of this kernel costs compile time and buys nothing)
@jit_parallel(split=("sources", "out"), work=lambda *arguments: 0.1 * arguments[-1].size)
def movement_matrix_kernel(edge_bounds, edges, state_smoke, location_offset, bypass_start, deck_location, n_locations, n_buckets,
                           limit, sources, out):
    """One field per source hex, in parallel; source k writes only row k (half-MF uint16)."""
    n = out.shape[1]
    for k in range(sources.shape[0]):
        starts = np.empty(1, np.int64)
        starts[0] = 2 * location_offset[sources[k]]
        # no penalty: an empty view of a writable int64 argument (the global NO_PENALTY would be a read-only
        # constant here, of another type: a second compiled search and dijkstra)
        dist, pred = search(edge_bounds, edges, state_smoke, state_smoke[:0], n_buckets, starts, np.zeros(1, np.int64),
                            np.ones(1, np.bool_), limit)
        row = np.empty(n, np.int64)
        hex_costs(dist, location_offset, bypass_start, deck_location, n_locations, row)
        for h in range(n):
            value = row[h]
            out[k, h] = np.uint16(value) if value <= limit and value < UNREACHABLE else UNREACHABLE


@jit
def field_outputs(dist, limit, location_offset, bypass_start, deck_location, n_locations, exit_hexes,
                  leave_cost, state_smoke, cot_all, first_hexes, allowance_all, state_cost, cost):
    """Float outputs of one field: MF per state and per hex, and the cheapest exit.

    ``leave_cost[h]`` is the MF cost of leaving the map from hex ``h`` (inf
    where no hexside allows it) without SMOKE, to which the SMOKE in ``h``
    adds (``state_smoke`` of its ground Location, half MF); ``exit_hexes`` lists the hexes where it is
    finite.
    From an all-MF hex leaving is an all-MF move, allowed only from the
    ``first_hexes`` (start hexes at ground level, cost 0), where it costs
    ``allowance_all``.  Returns ``(exit_cost, exit_hex)``.
    """
    for s in range(dist.shape[0]):
        state_cost[s] = dist[s] * 0.5 if dist[s] <= limit else np.inf
    hex_costs(state_cost, location_offset, bypass_start, deck_location, n_locations, cost)
    best = np.inf
    best_hex = -1
    for k in range(exit_hexes.shape[0]):
        h = exit_hexes[k]
        if not cot_all[h]:
            ground = 2 * location_offset[h]
            leave = state_cost[ground] + leave_cost[h] + 0.5 * state_smoke[ground]
            if leave < best:
                best = leave
                best_hex = h
    for k in range(first_hexes.shape[0]):
        h = first_hexes[k]
        if cot_all[h] and leave_cost[h] < np.inf and state_cost[2 * location_offset[h]] == 0.0:
            if allowance_all < best:
                best = allowance_all
                best_hex = h
    return best, best_hex


@jit
def write_state_smoke(hexes, held, smoke_bottom2, smoke_top2, state_height2, smoke_half, state_start, bypass_start,
                      n_locations, out):
    """``out[s]`` = ``smoke_half`` for every state of the hexes ``hexes`` whose Location lies inside its hex's
    SMOKE, 0 for the others: hex ``hexes[k]`` holds SMOKE where ``held[k]``, filling the half levels
    ``smoke_bottom2[k] .. smoke_top2[k] - 1``, and a state is inside it when its ``state_height2`` lies there.
    The states of hex ``h`` are its Location states ``state_start[h]:state_start[h + 1]`` and Bypass states
    ``2 * n_locations + bypass_start[h]:...[h + 1]`` (at the hex's ground).  In place; the other states are
    untouched."""
    for k in range(hexes.shape[0]):
        h = hexes[k]
        bottom = smoke_bottom2[k] if held[k] else 1 << 40   # (no SMOKE: a range no height is in)
        top = smoke_top2[k]
        for s in range(state_start[h], state_start[h + 1]):
            out[s] = smoke_half if bottom <= state_height2[s] and state_height2[s] < top else 0
        for s in range(2 * n_locations + bypass_start[h], 2 * n_locations + bypass_start[h + 1]):
            out[s] = smoke_half if bottom <= state_height2[s] and state_height2[s] < top else 0
