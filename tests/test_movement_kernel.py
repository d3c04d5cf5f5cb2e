"""The movement kernels: golden cases, the networkx reference, paths, parallel runs, errors."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

import kernel
from kernel import board_edge_hexes, movement_field, movement_matrix, random_board, reachable, UNREACHABLE
from tests.comparisons import COMPARISONS, mask_counters
from tests.reference.movement_reference import bypass, loc, path_cost
from tests.test_movement_reference import CASES, per_hex, query, write_board

INF = math.inf


def has_all_mf_edges(tables, states):
    """Whether each of ``states`` has an all-MF edge (the second range of ``edge_bounds``)."""
    bounds = tables.edge_bounds
    return bounds[2 * states + 2] > bounds[2 * states + 1]


def as_reference_node(board, field, state):
    """A kernel state id as the reference's node tuple."""
    n_loc = field.tables.n_locations
    if state < 2 * n_loc:
        location = state >> 1
        mode = "stopped" if state & 1 else "moving"
        return loc(int(board.location_hex[location]), int(board.location_level[location]), mode)
    b = state - 2 * n_loc
    return bypass(int(field.tables.bypass_hex[b]), int(field.tables.bypass_dir[b]))


def as_reference_result(board, field):
    states = np.flatnonzero(np.isfinite(field.state_cost))
    return {"cost": field.cost, "exit_cost": field.exit_cost,
            "state_cost": {as_reference_node(board, field, int(s)): float(field.state_cost[s]) for s in states}}


@pytest.mark.parametrize("board_spec, unit_class, starts, options, expected", CASES)
def test_golden_cases_of_the_digest(tmp_path, board_spec, unit_class, starts, options, expected):
    spec = dict(board_spec)
    board = write_board(tmp_path, spec.pop("hexes", ""), spec.pop("hexsides", ""), **spec)
    masks = {key: per_hex(board, options[key]) for key in ("smoke", "units") if key in options}
    allowance = options.get("allowance")
    entries = options.get("entry_hexes") or None
    field = movement_field(board, starts, unit=unit_class, allowance=allowance, entry_hexes=entries,
                           counters=mask_counters(board, **masks))
    result = as_reference_result(board, field)
    assert {what: query(board, result, what) for what in expected} == expected


@pytest.mark.parametrize("seed", range(4), ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("ruleset", ["asl", "valor-victory", "ccn"])
def test_fields_match_the_networkx_reference(ruleset, seed):
    comparison = COMPARISONS["movement_field"]
    board = random_board(ruleset, 11, 8, seed=seed)
    rng = np.random.default_rng(seed)
    n = len(board)
    for unit in board.ruleset.unit_classes:
        smoke = rng.random(n) < 0.05
        units = rng.random(n) < 0.06 if ruleset == "ccn" else None
        starts = [int(x) for x in rng.integers(0, n, 2)]
        entries = [int(x) for x in rng.integers(0, n, 2)] if seed % 2 else []
        allowance = [None, 4.0, 6.5][seed % 3]
        field = comparison.kernel(board, starts, unit, allowance=allowance, smoke=smoke, units=units,
                                  entry_hexes=entries or None)
        reference = comparison.reference(board, starts, unit, allowance=allowance, smoke=smoke, units=units,
                                         entry_hexes=entries)
        expected = np.asarray(reference["cost"], float)
        exit_expected = reference["exit_cost"]
        if allowance is not None:
            expected = np.where(expected <= allowance, expected, INF)
        assert np.array_equal(field.cost, expected), f"{unit}: costs differ at {np.flatnonzero(field.cost != expected)[:5]}"
        if allowance is None or exit_expected <= allowance:
            assert field.exit_cost == exit_expected
        # every path is legal and re-costs to the field's value
        if not entries:
            for h in np.flatnonzero(np.isfinite(field.cost))[:40]:
                states = field.path_states(int(h))  # to the hex's Location (its cost may exceed a Bypass's)
                if states is None:
                    assert field.cost_at(int(h)) == INF
                    continue
                path = [as_reference_node(board, field, s) for s in states]
                assert path_cost(board, path, unit, starts=starts, smoke=smoke, units=units,
                                 allowance=allowance) == field.cost_at(int(h)) >= field.cost[h]


@pytest.mark.parametrize("seed", range(3), ids=lambda s: f"seed{s}")
def test_whole_allowance_climbs_match_the_networkx_reference(seed):
    """V&V 10.7 on boards with cliffs: ground <-> Level 2 takes the whole allowance, as a first move only."""
    comparison = COMPARISONS["movement_field"]
    board = random_board("valor-victory", 12, 9, seed=seed, hills=3, cliffs=1.0)
    ground = 2 * board.location_offset[:-1].astype(np.int64)
    climbers = np.flatnonzero(has_all_mf_edges(kernel.movement_tables(board, unit="infantry"), ground))
    assert climbers.size, "a board with cliffs should have whole-allowance climbs"
    for unit in board.ruleset.unit_classes:
        for allowance in (None, 4.0):
            starts = [int(climbers[0]), int(climbers[-1])]
            field = comparison.kernel(board, starts, unit, allowance=allowance)
            reference = comparison.reference(board, starts, unit, allowance=allowance)
            expected = np.asarray(reference["cost"], float)
            if allowance is not None:
                expected = np.where(expected <= allowance, expected, INF)
            assert np.array_equal(field.cost, expected), f"{unit}: costs differ at {np.flatnonzero(field.cost != expected)[:5]}"


def test_path_names_use_bypass_notation(tmp_path):
    hexes = "\n".join(f"{h} 0 water" for h in ("A1", "A3", "B1", "B3", "C1", "C2")) + "\nB2 0 woods stone-building"
    board = write_board(tmp_path, hexes, columns=3, rows=3)
    field = movement_field(board, "A2", unit="infantry")
    path = field.path_to("C3")
    assert path[0] == "A2" and path[-1] == "C3"
    assert any("-" in step for step in path[1:-1]), path  # goes round B2 in Bypass (A4.3)
    assert field.cost[board.index("C3")] == 3.0


def test_matrix_rows_equal_single_fields_and_sentinel():
    board = random_board("asl", 12, 8, seed=5)
    matrix = movement_matrix(board, unit="infantry")
    assert matrix.dtype == np.uint16
    for source in (0, 17, 50):
        field = movement_field(board, source, unit="infantry")
        expected = np.where(np.isfinite(field.cost), np.round(field.cost * 2), UNREACHABLE).astype(np.uint16)
        assert np.array_equal(matrix[source], expected)
    assert (matrix == UNREACHABLE).any(), "the random board should have unreachable hexes (water, prohibited)"


def test_matrix_allowance_limits_and_marks_unreachable():
    board = random_board("asl", 12, 8, seed=5)
    full = movement_matrix(board, unit="infantry")
    limited = movement_matrix(board, unit="infantry", allowance=4)
    beyond = (full != UNREACHABLE) & (full > 8)
    assert beyond.any()
    assert (limited[beyond] == UNREACHABLE).all()
    assert np.array_equal(limited[~beyond], full[~beyond])


def test_parallel_matrix_equals_serial():
    board = random_board("asl", 14, 9, seed=6)
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        serial = movement_matrix(board, unit="infantry")
        numba.set_num_threads(max(2, previous))
        parallel = movement_matrix(board, unit="infantry")
    finally:
        numba.set_num_threads(previous)
    assert np.array_equal(serial, parallel)


def test_reachable_respects_allowance_and_unit_class():
    board = kernel.load("default")
    infantry = reachable(board, "71I4", unit="infantry", allowance=4)
    more = reachable(board, "71I4", unit="infantry", allowance=6)
    assert infantry.sum() < more.sum() and not (infantry & ~more).any()
    truck = reachable(board, "71I4", unit="truck", allowance=4)
    assert truck.sum() != infantry.sum()


def test_entry_from_board_edge_and_leaving_the_map():
    board = random_board("asl", 10, 6, seed=2, terrain_density=0.0, hexside_density=0.0, max_level=0)
    west = board_edge_hexes(board, "W")
    field = movement_field(board, None, unit="infantry", entry_hexes=west)
    assert (field.cost[west] == 1.0).all()  # Open Ground entered from off the map (A2.5)
    inside = movement_field(board, "E3", unit="infantry")
    assert inside.exit_cost == float(board_edge_hexes(board, "N").size and inside.cost[board_edge_hexes(board, "N")].min() + 1)


@pytest.mark.parametrize("call, match", [
    (lambda b: movement_field(b, "71I4", unit="cavalry"), "unknown unit class 'cavalry'"),
    (lambda b: movement_field(b, "71I4", unit="infantry", allowance=-1), "allowance is -1"),
    (lambda b: movement_field(b, "71I4", unit="infantry", allowance=10**9), "allowance is 1000000000: expected at most 1000 MF/MP"),
    (lambda b: movement_field(b, None, unit="infantry"), "no start hex and no entry hex"),
    (lambda b: movement_field(b, None, unit="infantry", entry_hexes=[]), "no start hex and no entry hex given"),
    (lambda b: movement_field(b, "71I4h1", unit="infantry"), "level 1 does not exist: 71I4 has levels 0..0"),
    (lambda b: movement_field(b, "71I4", unit="infantry", counters=kernel.Counters(smoke=np.zeros(3))),
     r"counters.smoke has shape \(3,\)"),
    (lambda b: movement_matrix(b, unit="infantry", allowance="four"), "allowance is 'four'"),
    (lambda b: board_edge_hexes(b, "up"), "side is 'up'"),
])
def test_bad_input_gets_a_clear_error(call, match):
    board = kernel.load("default")
    with pytest.raises(ValueError, match=match):
        call(board)


def test_unknown_start_hex_names_the_hex():
    board = kernel.load("default")
    with pytest.raises(KeyError, match="'71Z99' is not on this map"):
        movement_field(board, "71Z99", unit="infantry")


def test_edge_packing_refuses_values_it_cannot_hold():
    from kernel.movement._kernels import EDGE_CODE_MAX, EDGE_WEIGHT_MASK, pack_edges
    codes = np.array([1, 1])
    with pytest.raises(ValueError, match=rf"edge weights span 0\.\.{EDGE_WEIGHT_MASK + 1} half MF: expected 0\.\.{EDGE_WEIGHT_MASK}"):
        pack_edges(np.array([1, 2]), np.array([0, EDGE_WEIGHT_MASK + 1]), codes)
    with pytest.raises(ValueError, match=r"edge targets span -1\.\.2: expected 0\.\."):
        pack_edges(np.array([-1, 2]), np.array([1, 1]), codes)
    with pytest.raises(ValueError, match=rf"edge SMOKE codes span 0\.\.16 \(a climb of 15 levels in one move\): "
                                         rf"expected 0\.\.{EDGE_CODE_MAX}"):
        pack_edges(np.array([1, 2]), np.array([1, 1]), np.array([0, EDGE_CODE_MAX + 1]))


def test_edges_unpack_to_what_was_packed():
    from kernel.movement._kernels import EDGE_CODE_MAX, EDGE_TARGET_MASK, EDGE_WEIGHT_MASK, pack_edges, unpack_edges
    target = np.array([0, 5, EDGE_TARGET_MASK])
    weight = np.array([EDGE_WEIGHT_MASK, 0, 7])
    code = np.array([EDGE_CODE_MAX, 0, 1])
    packed = pack_edges(target, weight, code)
    assert packed.dtype == np.uint64
    unpacked_target, unpacked_weight, unpacked_code = unpack_edges(packed)
    assert np.array_equal(unpacked_target, target) and np.array_equal(unpacked_weight, weight)
    assert np.array_equal(unpacked_code, code)


@pytest.mark.parametrize("seed", range(3), ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("ruleset", ["asl", "valor-victory", "ccn"])
def test_the_scipy_peer_graph_gives_the_field_costs(ruleset, seed):
    """``movement_graph`` (the benchmarks' peer graph) agrees with the kernel, all-MF first moves included."""
    from scipy.sparse.csgraph import dijkstra

    board = random_board(ruleset, 14, 10, seed=seed)
    all_mf_starts = 0
    for unit in board.ruleset.unit_classes:
        moving = 2 * np.arange(int(board.location_offset[-1]))  # moving Location states
        with_all_mf = moving[has_all_mf_edges(kernel.movement_tables(board, unit=unit), moving)] // 2
        starts = [board.names[0], board.names[len(board) // 2]] + [
            board.location_name(int(board.location_hex[loc]), int(board.location_level[loc])) for loc in with_all_mf[:2]]
        for start in starts:
            field = movement_field(board, start, unit=unit)
            csr, start_states = kernel.movement_graph(board, start, unit=unit)
            peer = dijkstra(csr, indices=start_states[0])
            assert np.allclose(peer, field.state_cost, rtol=0, atol=1e-9), f"{unit} from {start}"
        all_mf_starts += len(with_all_mf[:2])
    if ruleset == "asl":
        assert all_mf_starts > 0, "random ASL boards have all-MF terrain: some start should have an all-MF edge"
