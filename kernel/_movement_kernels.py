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
])


@jit
def dijkstra(indptr, edges, start_states, start_costs, start_is_first, limit,
             dist, pred, nxt, prv, where, heads):
    """Least cost (whole half MF) from the start states over the expanded state graph (CSR).

    ``edges[e]`` packs an out-edge: target state in bits 0-31, weight (whole
    half MF) in bits 32-61, bit 62 set for an all-MF move (one load per edge).
    Dial's algorithm: every edge weight is a whole number of half MF smaller
    than ``heads.shape[0]``, so a circular array of doubly linked bucket lists
    (``heads``, ``nxt``, ``prv``, ``where`` = bucket of a queued state or -1)
    replaces the heap: no log factor, no stale entries.  The bucket updates are
    written out in the loop on purpose: as separate jitted helpers their call
    overhead made the kernel twenty times slower.  An all-MF edge is taken
    only from a start state marked in
    ``start_is_first`` while its cost is still 0.  ``dist`` holds
    :data:`UNREACHED_HALF` for states not reached; states costlier than
    ``limit`` are neither stored nor expanded.
    """
    dist[:] = UNREACHED_HALF
    pred[:] = -1
    where[:] = -1
    heads[:] = -1
    n_buckets = heads.shape[0]
    first_move = np.zeros(dist.shape[0], np.bool_)
    count = 0
    current = UNREACHED_HALF
    for k in range(start_states.shape[0]):
        t = start_states[k]
        c = start_costs[k]
        if start_is_first[k]:
            first_move[t] = True
        if c < dist[t] and c <= limit:
            if where[t] >= 0:  # the same state given twice: unlink the dearer entry
                if prv[t] >= 0:
                    nxt[prv[t]] = nxt[t]
                else:
                    heads[where[t]] = nxt[t]
                if nxt[t] >= 0:
                    prv[nxt[t]] = prv[t]
            else:
                count += 1
            dist[t] = c
            bucket = c % n_buckets
            nxt[t] = heads[bucket]
            prv[t] = -1
            if heads[bucket] >= 0:
                prv[heads[bucket]] = t
            heads[bucket] = t
            where[t] = bucket
            if c < current:
                current = c
    while count > 0:
        bucket = current % n_buckets
        while heads[bucket] < 0:
            current += 1
            bucket = current % n_buckets
        state = heads[bucket]
        heads[bucket] = nxt[state]
        if nxt[state] >= 0:
            prv[nxt[state]] = -1
        where[state] = -1
        count -= 1
        cost = dist[state]
        first = first_move[state] and cost == 0
        for e in range(indptr[state], indptr[state + 1]):
            packed = edges[e]
            if (packed >> EDGE_FIRST_SHIFT) & 1 and not first:
                continue
            t = packed & EDGE_TARGET_MASK
            c = cost + ((packed >> EDGE_WEIGHT_SHIFT) & EDGE_WEIGHT_MASK)
            if c < dist[t] and c <= limit:
                queued = where[t]
                if queued >= 0:
                    if prv[t] >= 0:
                        nxt[prv[t]] = nxt[t]
                    else:
                        heads[queued] = nxt[t]
                    if nxt[t] >= 0:
                        prv[nxt[t]] = prv[t]
                else:
                    count += 1
                dist[t] = c
                pred[t] = state
                bucket_t = c % n_buckets
                nxt[t] = heads[bucket_t]
                prv[t] = -1
                if heads[bucket_t] >= 0:
                    prv[heads[bucket_t]] = t
                heads[bucket_t] = t
                where[t] = bucket_t
    return 0


@jit
def hex_costs(dist, location_offset, bypass_id, n_locations, out):
    """Field cost per hex (half MF): least over its ground Location (both modes) and Bypass positions."""
    n = out.shape[0]
    for h in range(n):
        loc = location_offset[h]
        best = dist[2 * loc]
        if dist[2 * loc + 1] < best:
            best = dist[2 * loc + 1]
        for d in range(6):
            b = bypass_id[h, d]
            if b >= 0 and dist[2 * n_locations + b] < best:
                best = dist[2 * n_locations + b]
        out[h] = best


@jit_parallel
def movement_matrix_kernel(indptr, edges, location_offset, bypass_id, n_locations, n_buckets, limit, sources, out):
    """One field per source hex, in parallel; iteration k writes only row k (half-MF uint16)."""
    n_states = indptr.shape[0] - 1
    n = out.shape[1]
    for k in numba.prange(sources.shape[0]):
        dist = np.empty(n_states, np.int64)
        pred = np.empty(n_states, np.int32)
        nxt = np.empty(n_states, np.int32)
        prv = np.empty(n_states, np.int32)
        where = np.empty(n_states, np.int32)
        heads = np.empty(n_buckets, np.int32)
        starts = np.empty(1, np.int64)
        starts[0] = 2 * location_offset[sources[k]]
        costs = np.zeros(1, np.int64)
        first = np.ones(1, np.bool_)
        dijkstra(indptr, edges, starts, costs, first, limit, dist, pred, nxt, prv, where, heads)
        row = np.empty(n, np.int64)
        hex_costs(dist, location_offset, bypass_id, n_locations, row)
        for h in range(n):
            value = row[h]
            out[k, h] = np.uint16(value) if value < UNREACHABLE else UNREACHABLE


@jit
def field_outputs(dist, location_offset, bypass_id, n_locations, leave_cost, cot_all, first_hexes,
                  allowance_all, state_cost, cost):
    """Float outputs of one field: MF per state and per hex, and the cheapest exit.

    ``leave_cost[h]`` is the MF cost of leaving the map from edge hex ``h``
    (inf elsewhere); from an all-MF hex leaving is an all-MF move, allowed
    only from the ``first_hexes`` (start hexes at cost 0), where it costs
    ``allowance_all``.  Returns ``(exit_cost, exit_hex)``.
    """
    for s in range(dist.shape[0]):
        state_cost[s] = np.inf if dist[s] >= UNREACHED_HALF else dist[s] / 2.0
    n = cost.shape[0]
    best = np.inf
    best_hex = -1
    for h in range(n):
        ground = 2 * location_offset[h]
        value = state_cost[ground]
        if state_cost[ground + 1] < value:
            value = state_cost[ground + 1]
        for d in range(6):
            b = bypass_id[h, d]
            if b >= 0 and state_cost[2 * n_locations + b] < value:
                value = state_cost[2 * n_locations + b]
        cost[h] = value
        if not cot_all[h]:
            leave = state_cost[ground] + leave_cost[h]
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
