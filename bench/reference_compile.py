"""The anchor of ``hexkernel warm``'s time: the compile of one plain numba kernel in a fresh process.

``hexkernel warm`` from an empty cache is compared with the compile of a
reference kernel written here, independent of hexkernel: Dijkstra's
shortest paths with a binary heap over a grid of costs, with six neighbours
per cell (a movement field in miniature), written as numba users write such
code. :func:`timed_reference_compile` runs a fresh process with numba's cache
off, imports numba and numpy, and times the first call (the compile, almost
all of it) alone; ``python -m bench.first_run`` takes turns between it and
the warm, so that the ratio holds on a busy machine.

``python -m bench.reference_compile`` prints the seconds of one such compile.
"""

from __future__ import annotations

import os
import subprocess
import sys

CHILD = r'''
import time
import numba
import numpy as np


@numba.njit(cache=False)
def shortest_paths(costs, start_row, start_col):
    rows, cols = costs.shape
    distance = np.full((rows, cols), np.inf)
    heap_cost = np.empty(rows * cols * 6 + 1)
    heap_cell = np.empty(rows * cols * 6 + 1, dtype=np.int64)
    size = 0
    distance[start_row, start_col] = 0.0
    heap_cost[0] = 0.0
    heap_cell[0] = start_row * cols + start_col
    size = 1
    even = np.array([[-1, 0], [-1, 1], [0, 1], [1, 0], [0, -1], [-1, -1]])
    odd = np.array([[-1, 0], [0, 1], [1, 1], [1, 0], [1, -1], [0, -1]])
    while size > 0:
        cost, cell = heap_cost[0], heap_cell[0]
        size -= 1
        heap_cost[0], heap_cell[0] = heap_cost[size], heap_cell[size]
        i = 0
        while True:   # sift down
            left, smallest = 2 * i + 1, i
            if left < size and heap_cost[left] < heap_cost[smallest]:
                smallest = left
            if left + 1 < size and heap_cost[left + 1] < heap_cost[smallest]:
                smallest = left + 1
            if smallest == i:
                break
            heap_cost[i], heap_cost[smallest] = heap_cost[smallest], heap_cost[i]
            heap_cell[i], heap_cell[smallest] = heap_cell[smallest], heap_cell[i]
            i = smallest
        row, col = cell // cols, cell % cols
        if cost > distance[row, col]:
            continue
        steps = even if col % 2 == 0 else odd
        for k in range(6):
            r, c = row + steps[k, 0], col + steps[k, 1]
            if 0 <= r < rows and 0 <= c < cols and np.isfinite(costs[r, c]):
                new = cost + costs[r, c]
                if new < distance[r, c]:
                    distance[r, c] = new
                    j = size
                    size += 1
                    heap_cost[j], heap_cell[j] = new, r * cols + c
                    while j > 0:   # sift up
                        parent = (j - 1) // 2
                        if heap_cost[parent] <= heap_cost[j]:
                            break
                        heap_cost[j], heap_cost[parent] = heap_cost[parent], heap_cost[j]
                        heap_cell[j], heap_cell[parent] = heap_cell[parent], heap_cell[j]
                        j = parent
    return distance


costs = np.ones((10, 12))
costs[3, 4] = np.inf
start = time.perf_counter()
field = shortest_paths(costs, 0, 0)
seconds = time.perf_counter() - start
assert field[9, 11] > 0 and np.isinf(field[3, 4])
print(seconds)
'''


def timed_reference_compile() -> float:
    """Seconds of the reference kernel's compile (its first call) in a fresh process, numba's cache off."""
    environment = {**os.environ, "NUMBA_CACHE_DIR": "", "NUMBA_DISABLE_JIT": "0"}
    result = subprocess.run([sys.executable, "-c", CHILD], check=True, capture_output=True, text=True,
                            env=environment)
    return float(result.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    print(f"{timed_reference_compile():.2f} s")
