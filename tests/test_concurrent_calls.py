"""Calls from several Python threads at once on one board give the serial answers.

The board is loaded fresh, so its lazily built tables (trace templates, LOS
and movement tables) are built while the threads race for them.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

import kernel


def answers(board):
    fire = kernel.field_of_fire(board, ["71I4", "72M6"])
    one = kernel.los(board, "71I4", "72M6")
    return (kernel.los_matrix(board), fire.visible, fire.hindrance, kernel.movement_field(board, "71I4").cost,
            kernel.movement_matrix(board, unit="infantry", sources=[0, 5, 9]), (one.visible, one.hindrance, one.cover))


def same(first, second) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(first, second))


def test_threads_sharing_a_fresh_board_get_the_serial_answers():
    serial = answers(kernel.load("default"))
    board = kernel.load("default")
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda _: answers(board), range(12)))
    assert all(same(result, serial) for result in results)
    different = list(serial)
    different[0] = serial[0].copy()
    different[0][0, 1] += 1
    assert not same(different, serial)      # the comparison sees a one-entry difference
