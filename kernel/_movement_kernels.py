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
def dijkstra(indptr, target, weight, first_only, start_states, start_costs, start_is_first, limit,
             dist, pred, nxt, prv, where, heads):
    """Least cost (whole half MF) from the start states over the expanded state graph (CSR).

    Dial's algorithm: every edge weight is a whole number of half MF smaller
    than ``heads.shape[0]``, so a circular array of doubly linked bucket lists
    (``heads``, ``nxt``, ``prv``, ``where`` = bucket of a queued state or -1)
    replaces the heap: no log factor, no stale entries.  The bucket updates are
    written out in the loop on purpose: as separate jitted helpers their call
    overhead made the kernel twenty times slower.  An edge with ``first_only``
    set (an all-MF move) is taken only from a start state marked in
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
            if first_only[e] and not first:
                continue
            t = target[e]
            c = cost + weight[e]
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
def movement_matrix_kernel(indptr, target, weight, first_only, location_offset, bypass_id, n_locations,
                           n_buckets, limit, sources, out):
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
        dijkstra(indptr, target, weight, first_only, starts, costs, first, limit, dist, pred, nxt, prv, where, heads)
        row = np.empty(n, np.int64)
        hex_costs(dist, location_offset, bypass_id, n_locations, row)
        for h in range(n):
            value = row[h]
            out[k, h] = np.uint16(value) if value < UNREACHABLE else UNREACHABLE
