"""A GameState shared by threads: changes in one thread while others query (los_matrix, los_pairs, can_see,
a held matrix's refresh) leave every prepared table and the held matrix equal to a fresh computation."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import kernel
from kernel.line_of_sight.incremental import HeldLOSMatrix


@pytest.fixture(scope="module")
def board():
    return kernel.load("default")


def _mutator(state, board, seed, stop, errors):
    rng = np.random.default_rng(seed)
    names = board.names
    try:
        while not stop.is_set():
            h = names[int(rng.integers(len(names)))]
            kind = int(rng.integers(3))
            with state.lock:  # look, then change: one step against the other mutator (the lock is reentrant)
                if kind == 0:
                    if state.smoke[board.index(h)]:
                        state.remove_smoke(h)
                    else:
                        state.place_smoke(h, int(rng.integers(1, 4)))
                elif kind == 1:
                    if state.vehicles[board.index(h)]:
                        state.remove_vehicle(h)
                    else:
                        state.place_vehicle(h)
                else:
                    state.place_unit(h) if not state.units[board.index(h)] else state.remove_unit(h)
    except Exception as error:  # noqa: BLE001 - reported by the test
        errors.append(error)


def _querier(state, board, held, seed, stop, errors):
    rng = np.random.default_rng(seed)
    n = len(board)
    try:
        while not stop.is_set():
            a, b = rng.integers(n, size=64), rng.integers(n, size=64)
            kernel.los_pairs(board, a, b, counters=state)
            kernel.can_see(board, int(a[0]), int(b[0]), counters=state)
            if seed % 2:
                kernel.los_matrix(board, counters=state)
            else:
                held.refresh()
    except Exception as error:  # noqa: BLE001 - reported by the test
        errors.append(error)


@pytest.mark.parametrize("round_", range(3))
def test_concurrent_changes_and_queries_match_a_fresh_computation(board, round_):
    state = kernel.GameState(board)
    held = HeldLOSMatrix(board, state)
    stop, errors = threading.Event(), []
    threads = [threading.Thread(target=_mutator, args=(state, board, 10 * round_ + k, stop, errors)) for k in range(2)]
    threads += [threading.Thread(target=_querier, args=(state, board, held, 10 * round_ + k, stop, errors))
                for k in range(3)]
    for thread in threads:
        thread.start()
    stop.wait(4.0)
    stop.set()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    assert state.version > 20  # the state did change while the queries ran
    fresh = kernel.los_matrix(board, counters=state.counters())
    assert (kernel.los_matrix(board, counters=state) == fresh).all()
    held.refresh()
    assert (held.matrix == fresh).all()
    a, b = np.arange(len(board)), np.arange(len(board))[::-1]
    assert (kernel.los_pairs(board, a, b, counters=state).hindrance
            == kernel.los_pairs(board, a, b, counters=state.counters()).hindrance).all()


def test_a_query_holds_the_state_so_a_change_waits_for_it(board):
    state = kernel.GameState(board)
    entered, release = threading.Event(), threading.Event()
    changed = threading.Event()

    def change():
        entered.wait(10)
        state.place_smoke("71K5", 3)
        changed.set()

    thread = threading.Thread(target=change)
    thread.start()
    with state.lock:  # what a running query holds
        entered.set()
        assert not changed.wait(0.3)  # the change waits
        release.set()
    thread.join(10)
    assert changed.is_set() and state.version == 1


def test_holding_state_finds_the_state_by_keyword_or_position(board):
    from kernel.maps.state_lock import holding_state

    state = kernel.GameState(board)

    def held_elsewhere() -> bool:
        outcome = []

        def probe_lock():
            outcome.append(state.lock.acquire(blocking=False))
            if outcome[0]:
                state.lock.release()

        probe = threading.Thread(target=probe_lock)
        probe.start()
        probe.join()
        return not outcome[0]

    @holding_state
    def query(board, hexes, counters=None):
        return held_elsewhere()

    assert query(board, [0], state) and query(board, [0], counters=state)
    assert not query(board, [0], None) and not held_elsewhere()
    with pytest.raises(TypeError, match=r"has no 'counters' parameter to hold"):
        holding_state(lambda board: None)



def test_the_map_page_of_a_game_state_is_made_from_one_version(monkeypatch):
    """The page makes its LOS tables, then its movement tables, from the state: a change that comes between
    the two waits until the whole page is made, so the page never mixes two versions."""
    import kernel.render.page_paths as paths_module
    from kernel.render.page_data import page_data

    board = kernel.load("71")
    state = kernel.GameState(board)
    state.place_smoke("71I9", 3)
    original, changes = paths_module.movement_paths, []

    def paths_after_a_change(*args, **kwargs):   # page_data imports movement_paths when it runs
        change = threading.Thread(target=state.remove_smoke, args=("71I9",))
        change.start()
        change.join(0.3)
        changes.append((change, change.is_alive()))
        return original(*args, **kwargs)

    monkeypatch.setattr(paths_module, "movement_paths", paths_after_a_change)
    data = page_data(board, counters=state, max_allowance=2)
    [(change, waited)] = changes
    change.join(10)
    assert waited and data["counters"]["smoke"] == [[board.index("71I9"), 3, 0]]
    assert state.version == 2 and not state.smoke.any()   # the change ran once the page was made
