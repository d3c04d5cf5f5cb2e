"""numba kernels of movement (private; see :mod:`kernel.movement` for the API).

States (``docs/movement-semantics.md``):

* Location ``loc`` (``location_offset[h] + level``) in mode moving has state
  id ``2 * loc``, stopped ``2 * loc + 1``;
* Bypass position ``(h, d)`` has state id ``2 * n_locations + bypass_id[h, d]``.

Edge costs come from per-class tables precomputed by the wrapper; the
Dijkstra loop only reads them.  Costs are float64 with ``inf`` unreachable
(no fastmath anywhere).
"""

from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np

from kernel._jit import jit, jit_parallel

FLAG_STOP = 1
FLAG_ALL = 2
INF = np.inf

#: uint16 sentinel for unreachable in half-MF matrices.
UNREACHABLE = 65535

#: The per-class edge tables the kernels read (built by kernel.movement.movement_tables).
KernelTables = namedtuple("KernelTables", [
    "neighbours", "location_offset", "location_hex", "location_level", "building_levels",
    "enter_cost", "enter_flags", "climb_cost", "climb_all", "bypass_id", "bypass_hex",
    "bypass_dir", "bypass_in", "bypass_along", "n_locations",
])


@jit
def _push(heap_cost, heap_state, size, cost, state):
    i = size
    heap_cost[i] = cost
    heap_state[i] = state
    while i > 0:
        parent = (i - 1) >> 1
        if heap_cost[parent] <= cost:
            break
        heap_cost[i] = heap_cost[parent]
        heap_state[i] = heap_state[parent]
        i = parent
    heap_cost[i] = cost
    heap_state[i] = state
    return size + 1


@jit
def _pop(heap_cost, heap_state, size):
    top_cost = heap_cost[0]
    top_state = heap_state[0]
    size -= 1
    last_cost = heap_cost[size]
    last_state = heap_state[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and heap_cost[child + 1] < heap_cost[child]:
            child += 1
        if heap_cost[child] >= last_cost:
            break
        heap_cost[i] = heap_cost[child]
        heap_state[i] = heap_state[child]
        i = child
    if size > 0:
        heap_cost[i] = last_cost
        heap_state[i] = last_state
    return top_cost, top_state, size


@jit
def _relax(dist, pred, heap_cost, heap_state, size, state, cost, from_state):
    if cost < dist[state]:
        dist[state] = cost
        pred[state] = from_state
        size = _push(heap_cost, heap_state, size, cost, state)
    return size


@jit
def dijkstra(tables, start_states, start_costs, start_is_first, allowance_all, limit, dist, pred, heap_cost, heap_state):
    """Least cost to every state from the given start states.

    ``tables`` = (neighbours, location_offset, location_hex, location_level,
    building_levels, enter_cost, enter_flags, climb_cost, climb_all, bypass_id,
    bypass_hex, bypass_dir, bypass_in, bypass_along, n_locations).  ``start_is_first[k]``
    marks a start state at which an all-MF move is still allowed (a start hex
    at cost 0).  States costlier than ``limit`` are not expanded.
    """
    (neighbours, location_offset, location_hex, location_level, building_levels, enter_cost, enter_flags,
     climb_cost, climb_all, bypass_id, bypass_hex, bypass_dir, bypass_in, bypass_along, n_locations) = tables
    dist[:] = INF
    pred[:] = -1
    size = 0
    first_move = np.zeros(dist.shape[0], np.bool_)
    for k in range(start_states.shape[0]):
        s = start_states[k]
        if start_costs[k] < dist[s]:
            dist[s] = start_costs[k]
            size = _push(heap_cost, heap_state, size, start_costs[k], s)
        if start_is_first[k]:
            first_move[s] = True
    n_loc_states = 2 * n_locations
    while size > 0:
        cost, state, size = _pop(heap_cost, heap_state, size)
        if cost > dist[state] or cost > limit:
            continue
        if state < n_loc_states:
            if state & 1:
                continue  # stopped: may not move on
            loc = state >> 1
            h = location_hex[loc]
            level = location_level[loc]
            first = first_move[state] and cost == 0.0
            # climbing within a building (an all-MF hex: first move only, ends stopped)
            if climb_cost[h] < INF:
                step = climb_cost[h]
                stop = 0
                if climb_all[h]:
                    step = allowance_all if first else INF
                    stop = 1
                if step < INF:
                    if level > 0:
                        size = _relax(dist, pred, heap_cost, heap_state, size, state - 2 + stop, cost + step, state)
                    if level < building_levels[h]:
                        size = _relax(dist, pred, heap_cost, heap_state, size, state + 2 + stop, cost + step, state)
            if level != 0:
                continue
            for d in range(6):
                q = neighbours[h, d]
                if q < 0:
                    continue
                step = enter_cost[h, d]
                if step < INF:
                    flags = enter_flags[h, d]
                    if flags & FLAG_ALL:
                        if not first:
                            step = INF
                        else:
                            step = allowance_all
                    if step < INF:
                        target = 2 * location_offset[q] + (1 if flags & FLAG_STOP else 0)
                        size = _relax(dist, pred, heap_cost, heap_state, size, target, cost + step, state)
                # Bypass entry into q's positions along the hexsides touching this hex
                e = (d + 3) % 6
                if bypass_in[q, e] < INF:
                    for j in range(-1, 2):
                        b = bypass_id[q, (e + j) % 6]
                        if b >= 0:
                            size = _relax(dist, pred, heap_cost, heap_state, size, n_loc_states + b,
                                          cost + bypass_in[q, e], state)
        else:
            b = state - n_loc_states
            h = bypass_hex[b]
            d0 = bypass_dir[b]
            for j in (-1, 1):
                other = bypass_id[h, (d0 + j) % 6]
                if other >= 0:
                    size = _relax(dist, pred, heap_cost, heap_state, size, n_loc_states + other,
                                  cost + bypass_along[h], state)
            for j in range(-1, 2):
                d = (d0 + j) % 6
                q = neighbours[h, d]
                if q < 0:
                    continue
                step = enter_cost[h, d]
                flags = enter_flags[h, d]
                if step < INF and not flags & FLAG_ALL:
                    target = 2 * location_offset[q] + (1 if flags & FLAG_STOP else 0)
                    size = _relax(dist, pred, heap_cost, heap_state, size, target, cost + step, state)
    return 0


@jit
def hex_costs(dist, location_offset, bypass_id, n_locations, out):
    """Field cost per hex: least over its ground Location (both modes) and Bypass positions."""
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
def movement_matrix_kernel(tables, n_states, allowance_all, limit, first_state_of_hex, sources, out):
    """One field per source hex, in parallel; iteration k writes only row k (half-MF uint16)."""
    location_offset = tables.location_offset
    bypass_id = tables.bypass_id
    n_locations = tables.n_locations
    n = out.shape[1]
    for k in numba.prange(sources.shape[0]):
        dist = np.empty(n_states, np.float64)
        pred = np.empty(n_states, np.int32)
        heap_cost = np.empty(n_states * 12 + 16, np.float64)
        heap_state = np.empty(n_states * 12 + 16, np.int32)
        starts = np.empty(1, np.int64)
        starts[0] = first_state_of_hex[sources[k]]
        costs = np.zeros(1, np.float64)
        first = np.ones(1, np.bool_)
        dijkstra(tables, starts, costs, first, allowance_all, limit, dist, pred, heap_cost, heap_state)
        row = np.empty(n, np.float64)
        hex_costs(dist, location_offset, bypass_id, n_locations, row)
        for h in range(n):
            value = row[h]
            if value <= limit and value < 32767.0:
                out[k, h] = np.uint16(2.0 * value + 0.5)
            else:
                out[k, h] = UNREACHABLE
