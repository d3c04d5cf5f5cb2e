"""numba kernels of movement (private; see :mod:`kernel.movement` for the API).

The expanded state graph is assembled once per board, unit class and
counters as CSR arrays (``kernel.movement.StateGraph``); the kernels here only
walk it.  States (``docs/movement-semantics.md``):

* Location ``loc`` (``location_offset[h] + level``) in mode moving has state
  id ``2 * loc``, stopped ``2 * loc + 1``;
* Bypass position ``(h, d)`` has state id ``2 * n_locations + bypass_id[h, d]``.

Costs are whole numbers of half MF (int64); the wrapper converts them to
float64 MF with ``inf`` for unreachable (no fastmath anywhere).
"""

from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np

from kernel._jit import jit, jit_parallel

FLAG_STOP = 1
FLAG_ALL = 2

#: Costs inside the kernels are whole numbers of half MF (int64).  An edge that
#: cannot be taken costs INF_HALF; a state never reached holds UNREACHED_HALF.
INF_HALF = 1 << 40
UNREACHED_HALF = 1 << 62

#: Packing of one CSR edge into an int64 (see :func:`dijkstra`).
EDGE_TARGET_MASK = (1 << 32) - 1
EDGE_WEIGHT_SHIFT = 32
EDGE_WEIGHT_MASK = (1 << 30) - 1
EDGE_FIRST_SHIFT = 62


def pack_edges(target, weight, first_only):
    """Pack CSR edge arrays into the int64 form :func:`dijkstra` reads."""
    if weight.size and (weight.min() < 0 or weight.max() > EDGE_WEIGHT_MASK):
        raise ValueError(f"edge weights span {weight.min()}..{weight.max()} half MF: expected 0..{EDGE_WEIGHT_MASK}")
    if target.size and (target.min() < 0 or target.max() > EDGE_TARGET_MASK):
        raise ValueError(f"edge targets span {target.min()}..{target.max()}: expected 0..{EDGE_TARGET_MASK}")
    return (target.astype(np.int64) | (weight.astype(np.int64) << EDGE_WEIGHT_SHIFT)
            | (first_only.astype(np.int64) << EDGE_FIRST_SHIFT))

#: uint16 sentinel for unreachable in half-MF matrices.
UNREACHABLE = 65535

#: The per-class edge tables (built by kernel.movement.movement_tables), from
#: which the expanded state graph is assembled.
KernelTables = namedtuple("KernelTables", [
    "neighbours", "location_offset", "location_hex", "location_level", "building_levels",
    "enter_cost", "enter_flags", "climb_cost", "climb_all", "bypass_id", "bypass_hex",
    "bypass_dir", "bypass_in", "bypass_along", "n_locations",
    "deck_location", "deck_in", "deck_across", "deck_out", "deck_out_flags",
])


@jit
def dijkstra(indptr, edges, start_states, start_costs, start_is_first, limit,
             dist, pred, first_move, pool_state, pool_next, heads):
    """Least cost (whole half MF) from the start states over the expanded state graph (CSR).

    ``edges[e]`` packs an out-edge: target state in bits 0-31, weight (whole
    half MF) in bits 32-61, bit 62 set for an all-MF move (one load per edge).

    Dial's algorithm with lazy deletion: every edge weight, and the spread of
    the start costs, is a whole number of half MF smaller than
    ``heads.shape[0]``, so a circular array of bucket lists replaces the
    heap.  A relaxed state is pushed again rather than moved between lists;
    an entry whose cost is no longer the state's is skipped when popped.  The
    lists live in one pool (``pool_state``, ``pool_next``; at least as long
    as ``edges`` plus the starts), ``heads`` holds each bucket's first entry.
    The queue updates are written out in the loop on purpose: as separate
    jitted helpers their call overhead made the kernel many times slower.

    An all-MF edge is taken only from a start state marked in
    ``start_is_first`` while its cost is still 0.  ``dist`` holds
    :data:`UNREACHED_HALF` for states not reached; states costlier than
    ``limit`` are neither stored nor expanded.  Returns the number of states
    settled.
    """
    dist[:] = UNREACHED_HALF
    pred[:] = -1
    first_move[:] = False
    heads[:] = -1
    n_buckets = heads.shape[0]
    used = 0
    pending = 0
    current = UNREACHED_HALF
    for k in range(start_states.shape[0]):
        t = start_states[k]
        c = start_costs[k]
        if start_is_first[k]:
            first_move[t] = True
        if c < dist[t] and c <= limit:
            dist[t] = c
            bucket = c % n_buckets
            pool_state[used] = t
            pool_next[used] = heads[bucket]
            heads[bucket] = used
            used += 1
            pending += 1
            if c < current:
                current = c
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
        heads[bucket] = pool_next[entry]
        pending -= 1
        state = pool_state[entry]
        cost = dist[state]
        if cost != current:
            continue  # a stale entry: the state was reached more cheaply since
        settled += 1
        first = cost == 0 and first_move[state]
        for e in range(indptr[state], indptr[state + 1]):
            packed = edges[e]
            t = packed & EDGE_TARGET_MASK
            weight = (packed >> EDGE_WEIGHT_SHIFT) & EDGE_WEIGHT_MASK
            c = cost + weight
            if c < dist[t] and c <= limit:
                if (packed >> EDGE_FIRST_SHIFT) & 1 and not first:
                    continue
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
def search(indptr, edges, n_buckets, start_states, start_costs, start_is_first, limit):
    """:func:`dijkstra` with its work arrays allocated here: returns ``(dist, pred)``."""
    n_states = indptr.shape[0] - 1
    dist = np.empty(n_states, np.int64)
    pred = np.empty(n_states, np.int32)
    first_move = np.empty(n_states, np.bool_)
    pool = edges.shape[0] + start_states.shape[0] + 1  # every state is expanded once: a push per edge at most
    pool_state = np.empty(pool, np.int32)
    pool_next = np.empty(pool, np.int32)
    heads = np.empty(n_buckets, np.int32)
    dijkstra(indptr, edges, start_states, start_costs, start_is_first, limit,
             dist, pred, first_move, pool_state, pool_next, heads)
    return dist, pred


@jit
def field_kernel(indptr, edges, n_buckets, start_states, start_costs, start_is_first, limit,
                 location_offset, bypass_id, deck_location, n_locations, leave_cost, cot_all, first_hexes,
                 allowance_all):
    """One movement field, all in one call: returns (state_cost, cost, pred, exit_cost, exit_hex).

    Runs :func:`search` and :func:`field_outputs`; ``state_cost`` and
    ``cost`` are float64 MF with ``inf`` for unreachable.
    """
    dist, pred = search(indptr, edges, n_buckets, start_states, start_costs, start_is_first, limit)
    state_cost = np.empty(dist.shape[0], np.float64)
    cost = np.empty(location_offset.shape[0] - 1, np.float64)
    exit_cost, exit_hex = field_outputs(dist, location_offset, bypass_id, deck_location, n_locations, leave_cost,
                                        cot_all, first_hexes, allowance_all, state_cost, cost)
    return state_cost, cost, pred, exit_cost, exit_hex


@jit
def hex_costs(dist, location_offset, bypass_id, deck_location, n_locations, out):
    """Field cost per hex: least over its ground Location and bridge deck (both
    modes) and its Bypass positions (whole half MF or float MF, as ``dist``)."""
    n = out.shape[0]
    for h in range(n):
        loc = location_offset[h]
        best = dist[2 * loc]
        if dist[2 * loc + 1] < best:
            best = dist[2 * loc + 1]
        deck = deck_location[h]
        if deck >= 0:
            if dist[2 * deck] < best:
                best = dist[2 * deck]
            if dist[2 * deck + 1] < best:
                best = dist[2 * deck + 1]
        for d in range(6):
            b = bypass_id[h, d]
            if b >= 0 and dist[2 * n_locations + b] < best:
                best = dist[2 * n_locations + b]
        out[h] = best


@jit_parallel
def movement_matrix_kernel(indptr, edges, location_offset, bypass_id, deck_location, n_locations, n_buckets, limit,
                           sources, out):
    """One field per source hex, in parallel; iteration k writes only row k (half-MF uint16)."""
    n = out.shape[1]
    for k in numba.prange(sources.shape[0]):
        starts = np.empty(1, np.int64)
        starts[0] = 2 * location_offset[sources[k]]
        dist, pred = search(indptr, edges, n_buckets, starts, np.zeros(1, np.int64), np.ones(1, np.bool_), limit)
        row = np.empty(n, np.int64)
        hex_costs(dist, location_offset, bypass_id, deck_location, n_locations, row)
        for h in range(n):
            value = row[h]
            out[k, h] = np.uint16(value) if value < UNREACHABLE else UNREACHABLE


@jit
def field_outputs(dist, location_offset, bypass_id, deck_location, n_locations, leave_cost, cot_all, first_hexes,
                  allowance_all, state_cost, cost):
    """Float outputs of one field: MF per state and per hex, and the cheapest exit.

    ``leave_cost[h]`` is the MF cost of leaving the map from edge hex ``h``
    (inf elsewhere); from an all-MF hex leaving is an all-MF move, allowed
    only from the ``first_hexes`` (start hexes at cost 0), where it costs
    ``allowance_all``.  Returns ``(exit_cost, exit_hex)``.
    """
    for s in range(dist.shape[0]):
        state_cost[s] = np.inf if dist[s] >= UNREACHED_HALF else dist[s] / 2.0
    hex_costs(state_cost, location_offset, bypass_id, deck_location, n_locations, cost)
    best = np.inf
    best_hex = -1
    for h in range(cost.shape[0]):
        if not cot_all[h]:
            leave = state_cost[2 * location_offset[h]] + leave_cost[h]
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
