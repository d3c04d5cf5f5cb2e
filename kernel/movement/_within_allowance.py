"""numba kernel of a movement field whose hexes cost a penalty on top of their MF, within an allowance
(private; see :func:`kernel.movement.fields.penalised_field`).

A plain search orders states by one cost.  With a penalty per hex entered
(a hex an enemy sees, in a concealed move) the cheapest path counting the
penalties may spend more MF than the allowance, and a path within the
allowance may cost more penalties: each state keeps *labels*, ``(MF spent,
cost)`` pairs of the paths that reach it, and a label is kept only where
every label of the state settled before it (none costlier) spent more MF.
Labels are settled in order of cost (Dial's buckets, as
:func:`kernel.movement._kernels.dijkstra`), so a state's first label is its
cheapest path within the allowance, and its later ones reach it with fewer
MF left unspent, for the states beyond.  A state has at most one label per
MF value it can be reached with, usually one or two; the labels live in one
pool that grows as needed.

Costs are whole half MF: an edge spends its weight with the SMOKE of its
target (as in the plain search) and costs that plus the target's penalty;
``limit`` bounds the MF spent, not the cost.
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit
from kernel.movement._kernels import (
    INF_HALF, _CODE_SHIFT, _TARGET_MASK, _WEIGHT_MASK, _WEIGHT_SHIFT, field_outputs, field_starts,
)


@jit
def _grown(array, size):
    """``array`` copied into one twice as long (at least ``size``)."""
    bigger = np.empty(max(size, 2 * array.shape[0]), array.dtype)
    bigger[:array.shape[0]] = array
    return bigger


@jit
def label_search(edge_bounds, edges, state_smoke, state_penalty, n_buckets, start_states, start_costs,
                 start_is_first, limit):
    """The labels of every state (module docstring): returns ``(best, label_state, label_pred, label_cost)``:
    per state its cheapest label (-1: not reached within ``limit`` MF), and per label its state, the label
    it was reached from (-1 at a start) and its cost (half MF with penalties).  ``state_penalty`` is per
    state the penalty of entering it (half MF; negative: it may not be entered)."""
    n_states = (edge_bounds.shape[0] - 1) // 2
    floor = np.full(n_states, limit + 1, np.int64)  # the least MF spent by a settled label of each state
    best = np.full(n_states, -1, np.int64)
    capacity = edges.shape[0] + start_states.shape[0] + 16
    label_state = np.empty(capacity, np.int64)
    label_spent = np.empty(capacity, np.int64)
    label_cost = np.empty(capacity, np.int64)
    label_pred = np.empty(capacity, np.int64)
    label_next = np.empty(capacity, np.int64)
    heads = np.full(n_buckets, -1, np.int64)
    used = 0
    pending = 0
    current = INF_HALF
    start_label = np.full(start_states.shape[0], -1, np.int64)
    for k in range(start_states.shape[0]):
        if start_costs[k] <= limit:
            start_label[k] = used
            label_state[used], label_spent[used] = start_states[k], start_costs[k]
            label_cost[used], label_pred[used] = start_costs[k], -1
            used += 1
    for k in range(start_states.shape[0]):  # all-MF moves: a unit's first move only
        s = start_states[k]
        if start_label[k] < 0 or not (start_is_first[k] and start_costs[k] == 0):
            continue
        for e in range(edge_bounds[2 * s + 1], edge_bounds[2 * s + 2]):
            packed = edges[e]
            t = np.int64(packed & _TARGET_MASK)
            spent = np.int64((packed >> _WEIGHT_SHIFT) & _WEIGHT_MASK)
            code = np.int64(packed >> _CODE_SHIFT)
            if code > 0:
                spent += state_smoke[t] << (code - 1)
            if state_penalty[t] < 0 or spent > limit:
                continue
            if used == label_state.shape[0]:
                label_state, label_spent = _grown(label_state, used + 1), _grown(label_spent, used + 1)
                label_cost, label_pred = _grown(label_cost, used + 1), _grown(label_pred, used + 1)
                label_next = _grown(label_next, used + 1)
            label_state[used], label_spent[used] = t, spent
            label_cost[used], label_pred[used] = spent + state_penalty[t], start_label[k]
            used += 1
    for label in range(used):  # into the buckets
        cost = label_cost[label]
        label_next[label] = heads[cost % n_buckets]
        heads[cost % n_buckets] = label
        pending += 1
        current = min(current, cost)
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
            label = entry
            entry = label_next[label]
            state = label_state[label]
            spent = label_spent[label]
            if spent >= floor[state]:
                continue  # a label of this state at no more cost spent no more MF
            floor[state] = spent
            if best[state] < 0:
                best[state] = label
            cost = label_cost[label]
            for e in range(edge_bounds[2 * state], edge_bounds[2 * state + 1]):
                packed = edges[e]
                t = np.int64(packed & _TARGET_MASK)
                weight = np.int64((packed >> _WEIGHT_SHIFT) & _WEIGHT_MASK)
                code = np.int64(packed >> _CODE_SHIFT)
                if code > 0:
                    weight += state_smoke[t] << (code - 1)
                penalty = state_penalty[t]
                if penalty < 0 or spent + weight > limit or spent + weight >= floor[t]:
                    continue
                step = weight + penalty
                if used == label_state.shape[0]:
                    label_state, label_spent = _grown(label_state, used + 1), _grown(label_spent, used + 1)
                    label_cost, label_pred = _grown(label_cost, used + 1), _grown(label_pred, used + 1)
                    label_next = _grown(label_next, used + 1)
                label_state[used], label_spent[used] = t, spent + weight
                label_cost[used], label_pred[used] = cost + step, label
                bucket_t = bucket + step  # (cost + step) % n_buckets without a division: step < n_buckets
                if bucket_t >= n_buckets:
                    bucket_t -= n_buckets
                label_next[used] = heads[bucket_t]
                heads[bucket_t] = used
                used += 1
                pending += 1
    return best, label_state[:used], label_pred[:used], label_cost[:used]


@jit
def within_allowance_kernel(edge_bounds, edges, state_smoke, state_penalty, n_buckets, limit, start_hexes,
                            start_levels, entry_states, entry_costs, location_offset, bypass_start, deck_location,
                            n_locations, exit_hexes, leave_cost, cot_all, allowance_all):
    """One penalised field within ``limit`` MF, all in one call: returns ``(state_cost, cost, pred, exit_cost,
    exit_hex, best, label_state, label_pred)`` (as :func:`kernel.movement._kernels.field_kernel`, the costs
    with penalties; ``pred`` the state each state's cheapest label was reached from, and the labels, whose
    chains are the paths)."""
    start_states, start_costs, start_is_first, buckets, first_hexes = field_starts(
        n_buckets, start_hexes, start_levels, entry_states, entry_costs, location_offset)
    best, label_state, label_pred, label_cost = label_search(edge_bounds, edges, state_smoke, state_penalty, buckets,
                                                             start_states, start_costs, start_is_first, limit)
    n_states = best.shape[0]
    dist = np.full(n_states, INF_HALF + 1, np.int64)
    pred = np.full(n_states, -1, np.int32)
    for s in range(n_states):
        if best[s] >= 0:
            dist[s] = label_cost[best[s]]
            if label_pred[best[s]] >= 0:
                pred[s] = label_state[label_pred[best[s]]]
    state_cost = np.empty(n_states, np.float64)
    cost = np.empty(location_offset.shape[0] - 1, np.float64)
    exit_cost, exit_hex = field_outputs(dist, INF_HALF, location_offset, bypass_start, deck_location, n_locations,
                                        exit_hexes, leave_cost, state_smoke, cot_all, first_hexes, allowance_all,
                                        state_cost, cost)
    return state_cost, cost, pred, exit_cost, exit_hex, best, label_state, label_pred
