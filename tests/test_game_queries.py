"""Game-loop queries: per-source fields, threat maps, concealed movement, can_see;
checked against brute force from ``los`` and from a plain shortest-path search."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra

import kernel
from kernel import (BLOCKED, GameState, can_see, concealed_movement, fields_of_fire, los, movement_field,
                    movement_graph, random_board, threat_map)
from tests.reference.movement_reference import MOVING, STOPPED, bypass, loc, path_cost, reference_penalised_within
from tests.test_game_state import random_changes

RULESETS = ["asl", "valor-victory", "ccn"]


def game(ruleset, seed):
    board = random_board(ruleset, 12, 9, seed=seed)
    rng = np.random.default_rng(seed)
    state = GameState(board)
    random_changes(board, state, rng, 8)
    if board.ruleset.rules["units_block_los"]:
        for h in np.flatnonzero(state.units):
            state.remove_unit(int(h))  # CCN units block LOS: keep the map readable for the brute force
    enemies = rng.choice(len(board), 3, replace=False)
    return board, rng, state, enemies


def brute_force_threat(board, enemies, state, level=0):
    count = np.zeros(len(board), np.int64)
    best = np.full(len(board), 127, np.int64)
    for e in enemies:
        for h in range(len(board)):
            result = los(board, int(e), h, target_level=min(level, int(board.top_level[h])), counters=state)
            if result.visible:
                count[h] += 1
                best[h] = min(best[h], min(result.hindrance, 127))
    return count, np.where(count > 0, best, BLOCKED)


@pytest.mark.parametrize("seed", range(2), ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_fields_of_fire_and_threat_map_against_los(ruleset, seed):
    board, rng, state, enemies = game(ruleset, seed)
    rows = fields_of_fire(board, enemies, counters=state)
    for k, e in enumerate(enemies):
        for h in rng.choice(len(board), 25, replace=False):
            result = los(board, int(e), int(h), counters=state)
            assert rows.hindrance[k, h] == (min(result.hindrance, 127) if result.visible else BLOCKED), (e, h)
            assert rows.visible[k, h] == result.visible and rows.source[k, h] == (k if result.visible else -1)
            assert rows.cover[k, h] == result.cover
    threat = threat_map(board, enemies, counters=state)
    count, best = brute_force_threat(board, enemies, state)
    assert np.array_equal(threat.count, count) and np.array_equal(threat.hindrance, best)


@pytest.mark.parametrize("seed", range(3), ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_can_see_is_los_visible(ruleset, seed):
    board, rng, state, _ = game(ruleset, seed)
    upper = np.flatnonzero(board.top_level > 0)
    for a, b in rng.integers(len(board), size=(60, 2)):
        a, b = int(a), int(b)
        assert can_see(board, a, b, counters=state) == los(board, a, b, counters=state).visible
        assert can_see(board, a, b) == los(board, a, b).visible
        assert can_see(board, board.names[a], board.names[b], counters=state) == los(board, a, b, counters=state).visible
    for h in upper[:10]:
        name = board.location_name(int(h), 1)
        assert can_see(board, name, 0, counters=state) == los(board, name, 0, counters=state).visible


def test_can_see_follows_every_change_of_a_game_state():
    """can_see keeps its arguments per GameState version: each change must reach the next query."""
    board = kernel.load("default")
    state = kernel.GameState(board)
    assert can_see(board, "71I4", "71L5", counters=state)
    for h in ("71J4", "71K5"):
        state.place_smoke(h, 3)
    assert not can_see(board, "71I4", "71L5", counters=state) and not los(board, "71I4", "71L5", counters=state).visible
    state.remove_smoke("71K5")
    assert can_see(board, "71I4", "71L5", counters=state) == los(board, "71I4", "71L5", counters=state).visible
    state.move_smoke("71J4", "71K5")
    assert can_see(board, "71I4", "71L5", counters=state) == los(board, "71I4", "71L5", counters=state).visible
    state.remove_smoke("71K5")
    assert can_see(board, "71I4", "71L5", counters=state)
    # the same state on another board is refused as los refuses it
    other = kernel.load("71")
    for query in (los, can_see):
        with pytest.raises(ValueError, match="counters is a GameState of another board: expected one made for this"):
            query(other, "71I4", "71L5", counters=state)


def scipy_costs(board, start, unit, allowance, state, blocked_states, penalty_states=None, penalty=0.0):
    """Shortest-path costs on the peer graph, with edges into ``blocked_states`` removed or penalised."""
    graph, starts = movement_graph(board, start, unit=unit, allowance=allowance, counters=state)
    graph = graph.tocsc(copy=True)
    for s in blocked_states:
        graph.data[graph.indptr[s]:graph.indptr[s + 1]] = np.inf if penalty_states is None else \
            graph.data[graph.indptr[s]:graph.indptr[s + 1]] + penalty
    graph = graph.tocsr()
    graph.data[~np.isfinite(graph.data)] = 0
    graph.eliminate_zeros()
    return dijkstra(graph, indices=starts, min_only=True)


@pytest.mark.parametrize("seed", range(3), ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_concealed_movement_against_brute_force(ruleset, seed):
    board, rng, state, enemies = game(ruleset, seed)
    unit = board.ruleset.unit_classes[0]
    start = int(rng.integers(len(board)))
    allowance = 6
    hidden = concealed_movement(board, start, enemies, unit=unit, allowance=allowance, counters=state)
    count, _ = brute_force_threat(board, enemies, state)
    assert np.array_equal(hidden.exposed, count > 0)
    plain = movement_field(board, start, unit=unit, allowance=allowance, counters=state)
    assert np.array_equal(hidden.hidden, (plain.cost <= allowance) & (count == 0))
    tables = hidden.field.tables
    exposed_states = np.flatnonzero(hidden.exposed[tables.state_hex])
    expected = scipy_costs(board, start, unit, allowance, state, exposed_states)
    got = hidden.field.state_cost
    within = expected <= allowance + 1e-9
    assert np.array_equal(np.isfinite(got), within)
    assert np.allclose(got[within], expected[within], atol=1e-6)
    for h in np.flatnonzero(np.isfinite(hidden.field.cost))[:10]:
        path = hidden.field.path_array(int(h))
        assert (path is None) == (hidden.field.cost_at(int(h)) == np.inf)  # (a hex reached only in Bypass)
        if path is not None:
            assert not hidden.exposed[path[1:, 0]].any()  # (the start may be exposed: the unit is there)
    priced = concealed_movement(board, start, enemies, unit=unit, allowance=allowance, counters=state, exposure_penalty=1.5)
    reference = reference_penalised_within(board, start, unit, allowance=allowance, penalty=1.5,
                                           penalised_hexes=np.flatnonzero(hidden.exposed), smoke=state.smoke > 0,
                                           units=state.units if board.ruleset.rules["occupied_hexes_block_movement"]
                                           else None)
    assert np.array_equal(np.isfinite(priced.field.cost), plain.cost <= allowance)  # the allowance, as movement_field
    assert np.allclose(priced.field.cost, reference["cost"], atol=1e-6, equal_nan=False)


@pytest.mark.parametrize("penalty", [None, 2, 0.5])
def test_a_concealed_move_spends_no_more_than_its_allowance(penalty):
    """With an exposure penalty the cheapest path may spend more MF than the allowance: the field
    takes the cheapest within it, as movement_field does (the README's bot moved 10 hexes on 4 MF)."""
    board = kernel.load("default")
    state = GameState(board, sides=("allies", "axis"))
    for hex_, side in (("71I4", "allies"), ("71P5", "allies"), ("72M6", "axis"), ("71Q5", "axis")):
        state.place_unit(hex_, side=side)
    threat = threat_map(board, counters=state, enemies_of="allies")
    move = concealed_movement(board, "71J4", threat, counters=state, unit="infantry", allowance=4,
                              exposure_penalty=penalty)
    plain = movement_field(board, "71J4", unit="infantry", allowance=4, counters=state)
    reached = np.isfinite(move.field.cost)
    assert (reached <= (plain.cost <= 4)).all()
    if penalty is not None:
        assert np.array_equal(reached, plain.cost <= 4)
    assert move.field.path_to("72EE1") is None and plain.path_to("72EE1") is None
    field = move.field
    for h in np.flatnonzero(reached):
        states = field.path_states(int(h))
        if states is None:
            continue  # a hex reached in a Bypass position only
        nodes = [reference_node(field, s) for s in states]
        spent = path_cost(board, nodes, "infantry", allowance=4)
        assert spent <= 4, (board.names[h], field.path_to(int(h)), spent)
        exposed_steps = sum(bool(threat.seen[node[1]]) for node in nodes[1:])
        assert field.cost_at(int(h)) == pytest.approx(spent + (penalty or 0) * exposed_steps)
    reference = reference_penalised_within(board, board.index("71J4"), "infantry", allowance=4,
                                           penalised_hexes=np.flatnonzero(threat.seen), penalty=penalty or 0)
    if penalty is not None:
        assert np.allclose(field.cost, reference["cost"])


def reference_node(field, state: int) -> tuple:
    """The reference's node of a field's state id (a Location in its mode, or a Bypass position)."""
    board, n_locations = field.board, field.tables.n_locations
    if state < 2 * n_locations:
        location = state >> 1
        return loc(int(board.location_hex[location]), int(board.location_level[location]),
                   STOPPED if state & 1 else MOVING)
    return bypass(int(field.tables.bypass_hex[state - 2 * n_locations]),
                  int(field.tables.bypass_dir[state - 2 * n_locations]))


def test_every_parameter_changes_the_answer():
    board = kernel.load("default")
    base = concealed_movement(board, "71I4", ["72M6", "71Q5"], unit="infantry", allowance=4)
    assert not np.array_equal(concealed_movement(board, "71I4", ["72M6", "71Q5"], unit="infantry", allowance=4,
                                                 exposure_penalty=1).field.cost, base.field.cost)
    assert not np.array_equal(concealed_movement(board, "71I4", ["72M6"], unit="infantry", allowance=4).exposed, base.exposed)
    assert not np.array_equal(concealed_movement(board, "71I4", ["72M6", "71Q5"], unit="infantry", allowance=2).reachable,
                              base.reachable)
    state = GameState(board)
    state.place_smoke("72M6", 3)
    assert not np.array_equal(threat_map(board, ["72M6", "71Q5"], counters=state).hindrance,
                              threat_map(board, ["72M6", "71Q5"]).hindrance)
    building = "71P5"
    assert not np.array_equal(fields_of_fire(board, [building], levels=2), fields_of_fire(board, [building]))
    assert not np.array_equal(fields_of_fire(board, ["71I4"], target_levels=1), fields_of_fire(board, ["71I4"]))
    assert not np.array_equal(concealed_movement(board, "71I4", [building], unit="infantry", allowance=4, watcher_levels=2).exposed,
                              concealed_movement(board, "71I4", [building], unit="infantry", allowance=4).exposed)
    assert not np.array_equal(concealed_movement(board, "71J5", ["71I4"], unit="infantry", allowance=4, target_levels=1).exposed,
                              concealed_movement(board, "71J5", ["71I4"], unit="infantry", allowance=4).exposed)


def test_fields_of_fire_parallel_equals_serial():
    board = kernel.load("default")
    sources = ["71I4", "72M6", "71Q5", "71P5h1"]
    previous = kernel.set_thread_count(1)
    try:
        serial = fields_of_fire(board, sources)
    finally:
        kernel.set_thread_count(previous)
    assert np.array_equal(serial.hindrance, fields_of_fire(board, sources).hindrance)


@pytest.mark.parametrize("call, error, match", [
    (lambda b: fields_of_fire(b, []), ValueError, "fields_of_fire: no sources given: expected at least one hex or Location"),
    (lambda b: fields_of_fire(b, ["71I4"], levels=3), ValueError, r"levels\[0\] is 3 in 71I4: expected 0\.\.0"),
    (lambda b: fields_of_fire(b, ["71P5h1"], levels=2), ValueError, r"levels\[0\]=2 contradicts the Location '71P5h1'"),
    (lambda b: fields_of_fire(b, ["71I4"], target_levels=-1), ValueError,
     r"a field of fire: target_levels is -1: expected 0\.\.20"),
    (lambda b: threat_map(b), ValueError, "threat_map: no sources: expected sources or enemies_of=side"),
    (lambda b: threat_map(b, ["71I4"], enemies_of="axis", counters=kernel.GameState(b)), ValueError,
     "threat_map: sources and enemies_of both given: expected one of them"),
    (lambda b: threat_map(b, enemies_of="axis"), TypeError, "threat_map: enemies_of='axis' needs counters= a kernel.GameState"),
    (lambda b: concealed_movement(b, "71I4"), ValueError, "concealed_movement: no watchers: expected watchers or enemies_of=side"),
    (lambda b: concealed_movement(b, "71I4", ["72M6"], exposure_penalty=0.3), ValueError,
     r"exposure_penalty is 0\.3: expected a multiple of 1/2 MF from 0 to 1000, or None"),
    (lambda b: can_see(b, "71I4", "71Z99"), KeyError, "71Z99"),
    (lambda b: concealed_movement(b, "71I4", ["72M6"], threat=threat_map(b, ["72M6"])), ValueError,
     "concealed_movement: threat= and watchers given: expected the watchers once"),
    (lambda b: concealed_movement(b, "71I4", threat=np.zeros(len(b), np.int32)), TypeError,
     "concealed_movement: threat is a ndarray: expected a kernel.ThreatMap"),
    (lambda b: concealed_movement(b, "71I4", threat_map(b, ["72M6"]), enemies_of="axis"), ValueError,
     "concealed_movement: a threat map as watchers and enemies_of given"),
    (lambda b: concealed_movement(b, "71I4", threat_map(kernel.load("71"), ["71I4"])), ValueError,
     r"concealed_movement: threat has \d+ hexes and the board 1332: expected the threat map of this board"),
])
def test_bad_input_gets_a_clear_error(call, error, match):
    with pytest.raises(error, match=match):
        call(kernel.load("default"))


def test_concealed_movement_takes_a_threat_map():
    """A precomputed threat map gives what the watchers give, and it decides the result (another map,
    another answer)."""
    board = kernel.load("default")
    state = kernel.GameState(board, sides=("allies", "axis"))
    state.place_unit("72M6", side="allies")
    state.place_unit("71Q5", side="allies")
    computed = concealed_movement(board, "71I4", counters=state, enemies_of="axis", unit="infantry", allowance=4)
    threat = threat_map(board, counters=state, enemies_of="axis")
    given = concealed_movement(board, "71I4", threat, counters=state, unit="infantry", allowance=4)
    assert given.threat is threat
    for name in ("exposed", "reachable", "hidden"):
        assert np.array_equal(getattr(given, name), getattr(computed, name))
    assert np.array_equal(given.field.cost, computed.field.cost)
    nobody = concealed_movement(board, "71I4", threat_map(board, counters=kernel.GameState(board, sides=["axis"]),
                                                          enemies_of="axis"), unit="infantry", allowance=4)
    assert not nobody.exposed.any() and nobody.hidden.sum() > given.hidden.sum()


def test_threat_keyword_still_works_with_a_deprecation_warning():
    board = kernel.load("default")
    threat = threat_map(board, ["72M6"])
    with pytest.warns(DeprecationWarning, match="threat= is deprecated: pass the threat map as watchers"):
        old = concealed_movement(board, "71I4", unit="infantry", allowance=4, threat=threat)
    new = concealed_movement(board, "71I4", threat, unit="infantry", allowance=4)
    assert old.threat is new.threat is threat and np.array_equal(old.field.cost, new.field.cost)
