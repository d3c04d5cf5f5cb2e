"""The expanded state graph the Dijkstra kernel walks: Locations moving or stopped, Bypass positions, packed CSR edges."""

from __future__ import annotations

import numpy as np

from kernel.movement import _kernels as K


def build_state_graph(tables, allowance_half: int, ground_level, double: bool):
    """The expanded state graph of ``docs/movement-semantics.md`` as CSR arrays.

    Returns ``(edge_bounds, target, weight, smoke_code)``: the ordinary
    out-edges of state ``s`` are ``edge_bounds[2s]:edge_bounds[2s+1]`` and its
    all-MF edges (legal only as the first move; they weigh the allowance)
    ``edge_bounds[2s+1]:edge_bounds[2s+2]``, with weights in half MF without
    SMOKE.  SMOKE (B.2: part of the COT of the hex entered) is not in the
    weights: ``smoke_code`` says how it enters each edge, 0 not at all (an
    all-MF move), ``k > 0`` as ``2 ** (k - 1)`` times the SMOKE cost of the
    target state's hex (the COT doubled per level up, B.2 and
    ``elevation_cost = "double"``), so the kernel adds it from per-hex data.
    Stopped states have no out-edges.  Built with numpy, once per unit class.
    """
    (neighbours, location_offset, location_hex, location_level, building_levels, enter_cost, enter_flags,
     climb_cost, climb_all, bypass_id, bypass_hex, bypass_dir, bypass_in, bypass_along, n_locations,
     deck_location, deck_in, deck_across, deck_out, deck_out_flags) = tables
    n = neighbours.shape[0]
    n_loc_states = 2 * n_locations
    ground = 2 * location_offset[:-1]            # moving ground state of each hex
    INF = K.INF_HALF
    sources, targets, weights, firsts, codes = [], [], [], [], []

    def add(src, dst, w, first, up):
        """Edges src -> dst of weight w (half MF), all-MF where ``first``, climbing ``up`` levels."""
        keep = w < INF
        first = np.broadcast_to(first, keep.shape)
        doubling = np.maximum(np.broadcast_to(up, keep.shape), 0) if double else np.zeros(keep.shape, np.int64)
        code = np.where(first, 0, 1 + doubling)
        sources.append(src[keep])
        targets.append(dst[keep])
        weights.append(w[keep])
        firsts.append(first[keep])
        codes.append(code[keep])

    hexes = np.repeat(np.arange(n), 6)
    dirs = np.tile(np.arange(6), n)
    q = neighbours[hexes, dirs]
    valid = q >= 0
    hexes, dirs, q = hexes[valid], dirs[valid], q[valid]
    step = enter_cost[hexes, dirs]
    flags = enter_flags[hexes, dirs]
    all_mf = (flags & K.FLAG_ALL) != 0
    stop = ((flags & K.FLAG_STOP) != 0).astype(np.int64)
    # 1. entering a neighbour (an all-MF move weighs the allowance, first move only)
    add(ground[hexes], ground[q] + stop, np.where(all_mf & (step < INF), allowance_half, step), all_mf,
        ground_level[q] - ground_level[hexes])
    # 2. climbing within a building
    locations = np.arange(n_locations)
    h_of = location_hex
    climb = np.where(climb_all[h_of], allowance_half, climb_cost[h_of])
    climb = np.where(climb_cost[h_of] < INF, climb, INF)
    stop_climb = climb_all[h_of].astype(np.int64)
    up = location_level < building_levels[h_of]
    down = (location_level > 0) & (location_level <= building_levels[h_of])  # not off a bridge deck
    add(2 * locations[up], 2 * (locations[up] + 1) + stop_climb[up], climb[up], climb_all[h_of][up], 0)
    add(2 * locations[down], 2 * (locations[down] - 1) + stop_climb[down], climb[down], climb_all[h_of][down], 0)
    # 3. Bypass entry from the hexes touching a Bypass hexside
    for j in (-1, 0, 1):
        e = (dirs + 3) % 6                      # hexside of q facing the mover
        b = bypass_id[q, (e + j) % 6]
        ok = b >= 0
        add(ground[hexes[ok]], n_loc_states + b[ok], bypass_in[q[ok], e[ok]], False,
            ground_level[q[ok]] - ground_level[hexes[ok]])
    # 4. Bypass along to the next hexside and 5. Bypass exit
    for j in (-1, 1):
        other = bypass_id[bypass_hex, (bypass_dir + j) % 6]
        ok = other >= 0
        add(n_loc_states + np.flatnonzero(ok), n_loc_states + other[ok], bypass_along[bypass_hex[ok]], False, 0)
    for j in (-1, 0, 1):
        d = (bypass_dir + j) % 6
        q_exit = neighbours[bypass_hex, d]
        ok = q_exit >= 0
        ids = np.flatnonzero(ok)
        step = enter_cost[bypass_hex[ok], d[ok]]
        flags = enter_flags[bypass_hex[ok], d[ok]]
        step = np.where((flags & K.FLAG_ALL) != 0, INF, step)
        add(n_loc_states + ids, ground[q_exit[ok]] + ((flags & K.FLAG_STOP) != 0), step, False,
            ground_level[q_exit[ok]] - ground_level[bypass_hex[ok]])

    # 6. bridge decks: onto a deck (from ground or from a deck) and off it, across road hexsides
    p_hexes = np.repeat(np.arange(n), 6)
    p_dirs = np.tile(np.arange(6), n)
    q_all = neighbours[p_hexes, p_dirs]
    ok = q_all >= 0
    p_hexes, p_dirs, q_all = p_hexes[ok], p_dirs[ok], q_all[ok]
    to_deck = deck_location[q_all]
    has = to_deck >= 0
    add(ground[p_hexes[has]], 2 * to_deck[has], deck_in[p_hexes[has], p_dirs[has]], False,
        ground_level[q_all[has]] + 1 - ground_level[p_hexes[has]])
    from_deck = deck_location[p_hexes]
    both = has & (from_deck >= 0)
    add(2 * from_deck[both], 2 * to_deck[both], deck_across[p_hexes[both], p_dirs[both]], False,
        ground_level[q_all[both]] - ground_level[p_hexes[both]])
    leave = from_deck >= 0
    step = deck_out[p_hexes[leave], p_dirs[leave]]
    flags = deck_out_flags[p_hexes[leave], p_dirs[leave]]
    all_mf = (flags & K.FLAG_ALL) != 0
    add(2 * from_deck[leave], ground[q_all[leave]] + ((flags & K.FLAG_STOP) != 0).astype(np.int64),
        np.where(all_mf & (step < INF), allowance_half, step), all_mf,
        ground_level[q_all[leave]] - (ground_level[p_hexes[leave]] + 1))

    src = np.concatenate(sources).astype(np.int64)
    first_only = np.concatenate(firsts).astype(np.bool_)
    order = np.lexsort((first_only, src))  # by state, its all-MF edges last
    n_states = n_loc_states + len(bypass_hex)
    edge_bounds = np.zeros(2 * n_states + 1, np.int64)
    ranges = np.zeros(2 * n_states, np.int64)  # edge counts: ordinary and all-MF, state by state
    ranges[0::2] = np.bincount(src[~first_only], minlength=n_states)
    ranges[1::2] = np.bincount(src[first_only], minlength=n_states)
    np.cumsum(ranges, out=edge_bounds[1:])
    return (edge_bounds, np.concatenate(targets).astype(np.int64)[order],
            np.concatenate(weights).astype(np.int64)[order], np.concatenate(codes).astype(np.int64)[order])
