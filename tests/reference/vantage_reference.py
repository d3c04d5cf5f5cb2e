"""Naive vantage statistics of a batch job (``kernel/batch/blocks.py``), from the LOS reference pair by pair.

For viewer hex ``i`` at ground level: how many other hexes it sees, how many
of them with no hindrance, and the range of the farthest one it sees (0 when
it sees none).  Slow: one exact reference LOS per ordered pair.
"""

from __future__ import annotations

from tests.reference.los_reference import hex_range, reference_los


def reference_vantage(board, counters: dict | None = None) -> list[list[int]]:
    """Per hex ``[sees, sees_clear, farthest]`` (ground Locations, hex index order)."""
    rows = []
    for i in range(len(board)):
        sees = clear = farthest = 0
        for j in range(len(board)):
            if j == i:
                continue
            result = reference_los(board, i, j, counters=counters)
            if result["visible"]:
                sees += 1
                clear += result["hindrance"] == 0
                farthest = max(farthest, hex_range(board, i, j))
        rows.append([sees, clear, farthest])
    return rows
