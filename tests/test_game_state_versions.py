"""Every query given a shared GameState answers for one version of it, while another thread changes it:
its result equals a fresh computation on the counters of a version the state had while the query ran.

The mutator changes SMOKE (placed, moved, removed, at several heights), vehicles and units of two sides in
steps of one lock, recording the counters (and the enemies of side ``a``) of each version it makes; two
readers query and note the version before and after.  Before ``concealed_movement`` held the state's lock
for its whole run, its threat, field and hidden parts came from different versions in 9 to 29 of 200
queries.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import kernel

#: Seconds each race runs, and results checked per race (each against fresh computations).
SECONDS, CHECKED = 1.5, 80


def _queries(board, sources):
    def fire(counters, enemies):
        result = kernel.field_of_fire(board, sources, counters=counters)
        return result.hindrance, result.visible, result.source

    def fires(counters, enemies):
        return (kernel.fields_of_fire(board, sources, counters=counters).hindrance,)

    def threat(counters, enemies):
        result = kernel.threat_map(board, sources, counters=counters)
        return result.count, result.hindrance

    def concealed(counters, enemies):
        if isinstance(counters, kernel.GameState):
            result = kernel.concealed_movement(board, sources[0], enemies_of="a", counters=counters, allowance=6)
        else:   # the same watchers, named: the other side's units of that version
            result = kernel.concealed_movement(board, sources[0], [int(h) for h in enemies], counters=counters,
                                               allowance=6)
        return result.threat.count, result.exposed, result.reachable, result.field.cost

    def movement(counters, enemies):
        return (kernel.movement_field(board, sources[0], counters=counters, allowance=8).cost,)

    return {"field_of_fire": fire, "fields_of_fire": fires, "threat_map": threat, "concealed_movement": concealed,
            "movement_field": movement}


@pytest.fixture(scope="module")
def board():
    return kernel.load("default")


@pytest.mark.parametrize("kind", ["field_of_fire", "fields_of_fire", "threat_map", "concealed_movement",
                                  "movement_field"])
def test_a_query_during_changes_answers_for_one_version(board, kind):
    rng = np.random.default_rng(7)
    hexes = [int(h) for h in rng.choice(len(board), 60, replace=False)]
    sources, places = hexes[:4], hexes[4:]
    query = _queries(board, sources)[kind]
    state = kernel.GameState(board, sides=("a", "b"))
    state.place_unit(places[0], side="b")   # an enemy of side a from the start
    versions = {state.version: (state.counters(), state.units_not_of("a"))}
    stop, results, errors = threading.Event(), [], []

    def mutate():
        k = 0
        try:
            while not stop.is_set():
                with state.lock:
                    h, g = places[1 + k % 50], places[1 + (3 * k + 1) % 50]
                    if state.smoke[h] and not state.smoke[g]:
                        state.move_smoke(h, g)
                    elif state.smoke[h]:
                        state.remove_smoke(h)
                    else:
                        state.place_smoke(h, 1 + k % 4, height=1 + k % 3)
                    v, w = places[1 + 7 * k % 50], places[1 + 11 * k % 50]
                    if state.vehicles[v] and not state.vehicles[w]:
                        state.move_vehicle(v, w)
                    else:
                        state.remove_vehicle(v) if state.vehicles[v] else state.place_vehicle(v)
                    u = places[1 + 5 * k % 50]
                    state.remove_unit(u) if state.units[u] else state.place_unit(u, side="ab"[k % 2])
                    versions[state.version] = (state.counters(), state.units_not_of("a"))
                k += 1
                time.sleep(0.0005)
        except Exception as error:  # noqa: BLE001 - reported by the test
            errors.append(error)

    def read():
        try:
            while not stop.is_set():
                first = state.version
                answer = tuple(np.array(part, copy=True) for part in query(state, None))
                results.append((first, state.version, answer))
        except Exception as error:  # noqa: BLE001 - reported by the test
            errors.append(error)

    threads = [threading.Thread(target=mutate)] + [threading.Thread(target=read) for _ in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(SECONDS)
    stop.set()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    assert len(results) >= 20 and state.version > 50

    fresh = {}

    def at(version):
        if version not in fresh:
            fresh[version] = query(*versions[version])
        return fresh[version]

    torn = [(first, last) for first, last, answer in results[::max(1, len(results) // CHECKED)]
            if not any(all(np.array_equal(a, b) for a, b in zip(answer, at(v)))
                       for v in range(first, last + 1) if v in versions)]
    assert torn == [], f"{len(torn)} results match no version of their window, e.g. {torn[:3]}"
