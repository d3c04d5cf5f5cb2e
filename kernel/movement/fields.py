"""Movement fields, reachability, paths and all-sources matrices: the public movement API.

The state graph and costs are those of ``docs/movement-semantics.md``: Locations (ground and building levels) in a
*moving* or *stopped* mode, plus Bypass positions along obstacle hexsides for the ruleset's bypass classes.  Per
unit class and counters, :func:`~kernel.movement.tables.movement_tables` precomputes every edge cost once (numpy,
vectorised); the numba Dijkstra of :mod:`kernel.movement._kernels` only reads those tables.  Costs are MF/MP,
float64 with ``inf`` where unreachable (``MovementField.cost``), or ``uint16`` half-MF steps with
:data:`~kernel.movement.tables.UNREACHABLE` (65535) where a hex cannot be reached (:func:`movement_matrix`).
"""

from __future__ import annotations

import numpy as np

from kernel.movement import _kernels as K
from kernel.movement._within_allowance import within_allowance_kernel
from kernel.movement.counters import counter_masks, state_smoke
from kernel.movement.inputs import NO_ENTRIES, check_allowance, hex_list, start_locations
from kernel.movement.field_result import MovementField, ReachableHexes  # noqa: F401  (the result's home)
from kernel.movement.tables import tables_for
from kernel.maps.state_lock import holding_state


@holding_state
def movement_field(board, sources, *, levels=0, unit: str | None = None, allowance: float | None = None,
                   counters=None, entry_hexes=None) -> MovementField:
    """Least movement cost from one or several start Locations to every hex and state.

    Parameters
    ----------
    board : Board
    sources : hex, Location or sequence of them, or None
        Where the unit starts (names, indices): at ground level, moving, at cost 0 (an all-MF move is allowed as its
        first move); a Location such as ``"2I9h1"`` (a bridge deck, an upper building level) starts there.  None:
        only from ``entry_hexes``.
    levels : int or sequence of int
        Location levels of the sources (where the names do not give them).
    unit : str, optional
        Unit class (default: the ruleset's first, e.g. ``"infantry"``).
    allowance : float, optional
        Movement allowance, a multiple of 1/2 up to :data:`MAX_ALLOWANCE`: states costlier than it are not expanded,
        and all-MF moves cost it.  None (the default in every movement function): no limit, and all-MF moves cost
        the class's ``default_allowance``.
    counters : Counters or GameState, optional
        The counters on the map, as LOS takes them: SMOKE adds to the COT (B.2; per-hex data for the search, nothing
        is rebuilt), units block where the ruleset says occupied hexes cannot be entered (CCN).
    entry_hexes : hex or sequence, optional
        Hexes entered from off the map (A2.5): each starts at its own entry cost.  ``board_edge_hexes(board, side)``
        lists a side's hexes.

    Raises
    ------
    ValueError
        No start and no entry hex, unknown unit class, negative allowance.

    See Also
    --------
    kernel.MovementField : the result: costs and paths.
    kernel.reachable : the hexes within an allowance alone.
    kernel.movement_matrix : costs from many sources in one parallel call.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> field = kernel.movement_field(board, "71I4", unit="infantry")
    >>> float(field.cost[board.index("71I4")]), field.path_to("71I6")[0], field.path_to("71I6")[-1], field.allowance
    (0.0, '71I4', '71I6', None)
    """
    return penalised_field(board, sources, levels=levels, unit=unit, allowance=allowance, counters=counters,
                           entry_hexes=entry_hexes)


@holding_state
def penalised_field(board, sources, *, levels=0, unit: str | None = None, allowance: float | None = None,
                    counters=None, entry_hexes=None, hex_penalty=None) -> MovementField:
    """:func:`movement_field` where entering a hex also costs ``hex_penalty[h]`` half MF (int64 per hex, checked by
    the caller; -1: the hex may not be entered).  With a positive penalty the costs include the penalties, and a
    path spends at most ``allowance`` MF as in :func:`movement_field` (the cheapest such path:
    :mod:`kernel.movement._within_allowance`); with penalties of 0 and -1 only, they are MF and bounded as usual."""
    unit = unit if unit is not None else board.ruleset.unit_classes[0]
    check_allowance(allowance)
    starts, start_levels = start_locations(board, sources, levels)
    if starts.size == 0 and entry_hexes is None:
        raise ValueError("movement_field: no start hex and no entry hex given: expected at least one")
    smoke, units = counter_masks(board, counters)
    tables = tables_for(board, unit, units, allowance)
    extra = state_smoke(board, tables, counters, smoke)
    location_offset = tables.location_offset
    entry_states = entry_half = NO_ENTRIES
    if entry_hexes is not None:
        entries = hex_list(board, entry_hexes, "entry_hexes")
        if starts.size == 0 and entries.size == 0:
            raise ValueError("movement_field: no start hex and no entry hex given: expected at least one")
        occupied = units  # where occupied hexes block movement (else None)
        states, costs = [], []
        for e in entries:
            if occupied is not None and occupied[e]:
                continue  # entering from off the map is an entry: not into an occupied hex
            cost = tables.allowance_all if tables.cot_all[e] else float(tables.cot[e]) + 0.5 * float(
                extra[2 * location_offset[e]])
            if not np.isfinite(cost):
                continue
            stopped = bool(tables.cot_stop[e] or tables.cot_all[e])
            states.append(2 * int(location_offset[e]) + (1 if stopped else 0))
            costs.append(int(round(2 * cost)))
        entry_states, entry_half = np.array(states, np.int64), np.array(costs, np.int64)
    limit = int(2 * allowance) if allowance is not None else K.INF_HALF  # a multiple of 1/2 (checked)
    penalty, buckets = K.NO_PENALTY, tables.n_buckets
    arguments = (starts, start_levels, entry_states, entry_half, location_offset, tables.bypass_start,
                 tables.kernel_tables.deck_location, tables.n_locations, tables.exit_hexes, tables.leave_cost,
                 tables.cot_all, tables.allowance_all)
    if hex_penalty is not None:
        penalty = hex_penalty[tables.state_hex]
        buckets += max(int(hex_penalty.max(initial=0)), 0)  # Dial's queue: the largest edge weight grows
        if hex_penalty.max(initial=0) > 0 and allowance is not None:  # MF within the allowance, least cost
            state_cost, cost, pred, exit_cost, exit_hex, *labels = within_allowance_kernel(
                tables.edge_bounds, tables.edges, extra, penalty, buckets, limit, *arguments)
            return MovementField(board, unit, cost, state_cost, pred, exit_cost, exit_hex, tables, allowance,
                                 tuple(labels))
    state_cost, cost, pred, exit_cost, exit_hex = K.field_kernel(
        tables.edge_bounds, tables.edges, extra, penalty, buckets, limit, *arguments)
    return MovementField(board, unit, cost, state_cost, pred, exit_cost, exit_hex, tables, allowance)


def reachable(board, sources, *, levels=0, unit: str | None = None, allowance: float | None = None,
              counters=None, entry_hexes=None) -> np.ndarray:
    """Boolean array: hexes a unit can reach from ``sources`` within ``allowance`` (None: at any cost).

    Honours stop-on-entry, all-MF moves (only as the first move, costing the whole allowance) and every rule of
    :func:`movement_field`, which takes the same arguments.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> mask = reachable(board, "71I4", unit="infantry", allowance=4)
    >>> bool(mask[board.index("71I4")]), int(mask.sum()) > 1
    (True, True)
    """
    field = movement_field(board, sources, levels=levels, unit=unit, allowance=allowance, counters=counters,
                           entry_hexes=entry_hexes)
    return field.cost <= allowance if allowance is not None else np.isfinite(field.cost)


@holding_state
def movement_matrix(board, sources=None, *, unit: str | None = None, allowance: float | None = None,
                    counters=None) -> np.ndarray:
    """Movement cost from every source hex (default: all) to every hex, in parallel.

    ``sources`` are hexes (names or indices; each starts at its ground level); ``unit``, ``allowance`` and
    ``counters`` as for :func:`movement_field`.

    Returns
    -------
    numpy.ndarray of uint16, shape (len(sources), N)
        Costs in half-MF steps (``cost * 2``); :data:`UNREACHABLE` (65535) where a hex cannot be reached (or lies
        beyond ``allowance``).

    See Also

    --------

    movement_field : one source's costs, with paths.


    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("71")
    >>> costs = kernel.movement_matrix(board, ["71I4", "71Q5"], unit="infantry", allowance=4)
    >>> costs.shape, int(costs[0, board.index("71I6")])  # half MF: 2 MF
    ((2, 346), 4)
    >>> bool(((costs[1] != kernel.UNREACHABLE) == kernel.reachable(board, "71Q5", unit="infantry", allowance=4)).all())
    True
    """
    unit = unit if unit is not None else board.ruleset.unit_classes[0]
    check_allowance(allowance)
    source_hexes = np.arange(len(board), dtype=np.int64) if sources is None else ground_sources(board, sources)
    smoke, units = counter_masks(board, counters)
    tables = tables_for(board, unit, units, allowance)
    extra = state_smoke(board, tables, counters, smoke)
    out = np.empty((len(source_hexes), len(board)), np.uint16)
    limit = int(2 * allowance) if allowance is not None else K.INF_HALF
    K.movement_matrix_kernel(tables.edge_bounds, tables.edges, extra, tables.location_offset, tables.bypass_start,
                             tables.kernel_tables.deck_location, tables.n_locations, tables.n_buckets, limit,
                             source_hexes, out)
    return out


def ground_sources(board, sources) -> np.ndarray:
    """int64 hexes of :func:`movement_matrix`'s sources (hexes or ground-level Locations), checked."""
    hexes, levels = start_locations(board, sources)
    if levels.any():
        k = int(np.flatnonzero(levels)[0])
        raise ValueError(f"movement_matrix: sources[{k}] is {board.location_name(int(hexes[k]), int(levels[k]))}: "
                         "expected hexes (each row starts at its hex's ground level; movement_field starts anywhere)")
    return hexes


@holding_state
def movement_graph(board, sources, *, levels=0, unit: str | None = None, allowance: float | None = None,
                   counters=None):
    """The expanded state graph the kernel walks, as a ``scipy.sparse.csr_matrix`` in MF.

    For peers such as scipy: all-MF moves are kept only out of the start states (they are legal only as the first
    move), so a plain shortest-path search from a start state gives the kernel's costs.  Returns
    ``(csr, start_states)``.  scipy is imported lazily: it needs the ``graph`` extra (``pip install
    'hexkernel[graph]'``); without it an ``ImportError`` names the extra.

    See Also

    --------

    movement_field : the same costs from the compiled search.


    Examples
    --------
    >>> import kernel, numpy as np, scipy.sparse.csgraph as csgraph
    >>> board = kernel.load("71")
    >>> graph, starts = kernel.movement_graph(board, "71I4", unit="infantry")
    >>> costs = csgraph.dijkstra(graph, indices=starts[0])
    >>> bool(np.allclose(costs, kernel.movement_field(board, "71I4", unit="infantry").state_cost))
    True
    """
    from kernel._extras import require

    require("graph", "movement graphs")
    from scipy.sparse import csr_matrix

    unit = unit if unit is not None else board.ruleset.unit_classes[0]
    check_allowance(allowance)
    smoke, units = counter_masks(board, counters)
    tables = tables_for(board, unit, units, allowance)
    extra = state_smoke(board, tables, counters, smoke)
    hexes, levels = start_locations(board, sources, levels)
    starts = sorted({2 * (int(board.location_offset[h]) + int(level)) for h, level in zip(hexes, levels)})
    counts = np.diff(tables.edge_bounds)  # ordinary then all-MF edges, state by state
    source = np.repeat(np.repeat(np.arange(tables.n_states), 2), counts)
    first_only = np.repeat(np.tile([False, True], tables.n_states), counts)
    target, weight, smoke_code = K.unpack_edges(tables.edges)
    weight = K.smoke_weights(weight, smoke_code, extra[target])
    keep = ~first_only | np.isin(source, starts)
    weights = weight[keep] / 2.0
    weights = np.where(weights == 0, 1e-12, weights)  # scipy drops explicit zero weights
    csr = csr_matrix((weights, (source[keep], target[keep])), shape=(tables.n_states, tables.n_states))
    return csr, starts
