"""Movement benchmarks on the bundled four-board scenario, as ratios to peers in the same run.

Peers: ``scipy.sparse.csgraph.dijkstra`` and networkx's Dijkstra on the
identical expanded state graph (``kernel.movement_graph``: the CSR
the kernel walks, built once outside the timing), checked to give the same
costs before timing.
"""

from __future__ import annotations

import networkx as nx
import numba
import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra

from bench.conftest import FIGURES, RATIOS, measure, ratio
from kernel import movement_graph, movement_matrix
from tests.comparisons import COMPARISONS

movement_field = COMPARISONS["movement_field"].kernel
START = "71I4"
KERNEL = "movement_field, infantry with Bypass, default"
SCIPY = "scipy dijkstra, same graph"
NETWORKX = "networkx dijkstra, same graph"


@pytest.fixture(scope="module")
def board(default_board):
    return default_board


@pytest.fixture(scope="module")
def graph(board):
    csr, starts = movement_graph(board, START, unit="infantry")
    field = movement_field(board, START, "infantry")
    scipy_costs = dijkstra(csr, indices=starts[0])
    assert np.allclose(np.nan_to_num(scipy_costs, posinf=-1), np.nan_to_num(field.state_cost, posinf=-1), atol=1e-9)
    assert field.tables.n_bypass > 0, "the benchmark field should include Bypass states"
    return csr, starts


def test_field_kernel(benchmark, board, graph):
    measure(benchmark, KERNEL, lambda: movement_field(board, START, "infantry"), rounds=50)


def test_field_scipy_same_graph(benchmark, graph):
    csr, starts = graph
    measure(benchmark, SCIPY, lambda: dijkstra(csr, indices=starts[0]), rounds=50)
    FIGURES["expanded graph: states / edges"] = (float(csr.shape[0]), f"states, {csr.nnz} edges")


def test_field_networkx_same_graph(benchmark, graph):
    csr, starts = graph
    digraph = nx.from_scipy_sparse_array(csr, create_using=nx.DiGraph)
    measure(benchmark, NETWORKX, lambda: nx.single_source_dijkstra_path_length(digraph, starts[0]), rounds=5)


def test_field_is_not_slower_than_scipy():
    RATIOS.append((SCIPY, KERNEL, "scipy / kernel, one field (target >= 5)", None))
    RATIOS.append((NETWORKX, KERNEL, "networkx / kernel, one field (target >= 100)", None))
    RATIOS.append((KERNEL, SCIPY, "kernel / scipy, one field", 1.0))
    assert ratio(KERNEL, SCIPY) < 1.0, "a movement field became slower than scipy on the same graph"


LIMITED = "movement_field, infantry within its 4 MF, default"
SCIPY_LIMITED = "scipy dijkstra, same graph, limit 4 MF"
LIMIT = 4.0 + 1e-6


def test_field_within_the_allowance(benchmark, board, graph):
    """The field a game AI asks for (a squad's 4 MF), checked against scipy's ``limit`` on the same graph."""
    csr, starts = graph
    limited = movement_field(board, START, "infantry", allowance=4)
    # the CSR weighs MF, zero weights as 1e-12 (scipy drops explicit zeros): a hair above 4 MF
    scipy_costs = dijkstra(csr, indices=starts[0], limit=LIMIT)
    reached = limited.state_cost <= 4
    assert reached.sum() > 1 and np.array_equal(reached, scipy_costs <= LIMIT)
    assert np.allclose(limited.state_cost[reached], scipy_costs[reached])
    measure(benchmark, LIMITED, lambda: movement_field(board, START, "infantry", allowance=4), rounds=50)


def test_field_within_the_allowance_scipy(benchmark, graph):
    csr, starts = graph
    measure(benchmark, SCIPY_LIMITED, lambda: dijkstra(csr, indices=starts[0], limit=LIMIT), rounds=50)
    RATIOS.append((SCIPY_LIMITED, LIMITED, "scipy / kernel, one field within 4 MF", None))


def test_movement_matrix_all_starts(benchmark, board):
    measure(benchmark, f"movement_matrix, all {len(board)} start hexes ({numba.get_num_threads()} threads)",
            lambda: movement_matrix(board, unit="infantry"), rounds=3)
