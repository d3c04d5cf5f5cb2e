"""Checks shared by the depiction model's tests (``test_depiction*.py``): one depiction LOS, and the
kernel's answers and explanations compared pair by pair with the slow pixel reference walk
(``tests/reference/depiction_reference.py``, through :data:`tests.comparisons.COMPARISONS`)."""

from __future__ import annotations

import numpy as np

import kernel
from kernel.maps.art import board_art
from tests.comparisons import COMPARISONS
from tests.shared_data import quiet


def depiction(board, a, b, **kwargs):
    return quiet(kernel.los_pairs, board, [a], [b], model="depiction", **kwargs)


def check_against_reference(board, pairs, levels=None, per_range=False):
    comparison = COMPARISONS["los_pairs[depiction]"]
    reference = comparison.reference(board, board_art(board))
    a, b = pairs[:, 0], pairs[:, 1]
    la = np.zeros(len(a), np.int64) if levels is None else levels[:, 0]
    lb = np.zeros(len(a), np.int64) if levels is None else levels[:, 1]
    result = quiet(comparison.kernel, board, a, b, level_a=la, level_b=lb)
    mismatches = []
    for k in range(len(a)):
        blocked, hindrance = reference.walk(int(a[k]), int(b[k]), int(la[k]), int(lb[k]), per_range)
        ours = (not result.visible[k], int(result.hindrance[k]) if result.visible[k] else None)
        if ours != (blocked, hindrance if not blocked else None):
            mismatches.append((board.name(int(a[k])), board.name(int(b[k])), ours, (blocked, hindrance)))
    assert mismatches == []


def explained_against_reference(board, pairs, levels, counters=None, counter_tables=None):
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    for (a, b), (la, lb) in zip(pairs.tolist(), levels.tolist()):
        result = quiet(kernel.los, board, a, b, level=la, target_level=lb, model="depiction", counters=counters)
        detail = reference.detail(a, b, la, lb, counters=counter_tables)
        where = (board.location_name(a, la), board.location_name(b, lb))
        assert not result.visible == detail["blocked"], where
        assert result.hindrance == detail["hindrance"], where
        assert result.blocked_at_name == (board.name(detail["blocked_at"]) if detail["blocked_at"] >= 0 else None), where
        assert result.reason_name == detail["reason"], where
        assert result.blind == (detail["reason"] == "blind hex"), where
        assert result.continuous_slope == detail["slope"], where
        # the steps: the DRM each hex added, and the blocking step last
        per_hex = {}
        for step in result.steps:
            if step.hindrance:
                per_hex[board.index(step.hex)] = per_hex.get(board.index(step.hex), 0) + step.hindrance
        assert per_hex == detail["drm_by_hex"], where
        assert sum(step.hindrance for step in result.steps) == result.hindrance, where
        if not result.visible:
            assert result.steps[-1].effect != "none" and result.steps[-1].hex == result.blocked_at_name, where
            assert sum(step.effect != "none" for step in result.steps) == 1, where
        else:
            assert all(step.effect == "none" for step in result.steps), where


def pair_with_squares(board, viewer, target, squares):
    """The depiction matrix entry of one pair with the tables' pixel convention set to ``squares``."""
    from kernel.line_of_sight._depiction import walk as D
    from kernel.line_of_sight.depiction import kernel_tables, location_levels2

    tables = quiet(kernel_tables, board, None)
    assert isinstance(tables.squares, bool) and tables.squares == board_art(board).drawn
    tables = tables._replace(squares=squares)
    hexes = np.array([board.index(viewer), board.index(target)], np.int64)
    out = np.zeros((2, 2), np.int8)
    D.depiction_matrix_kernel(hexes, location_levels2(board, hexes, np.zeros(2, np.int64)), tables, out)
    return int(out[0, 1])
