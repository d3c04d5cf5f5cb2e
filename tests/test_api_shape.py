"""The shape of the 0.2 API: owned caches (nothing written onto a Board), results as plain data, one kind of
field of fire, the cross product, paths that end at their Location."""

from __future__ import annotations

import gc
import json
import warnings

import numpy as np
import pytest

import kernel
from kernel._cache import BoardCache
from kernel.line_of_sight.inputs import LOS_CACHE
from kernel.movement.tables import MOVEMENT_CACHE


@pytest.fixture(scope="module")
def board():
    return kernel.load("default")


def test_no_layer_writes_onto_the_board():
    """Every layer keeps its derived data in a cache it owns: a Board's attributes are its own."""
    board = kernel.load("default")
    own = dict(vars(board))
    state = kernel.GameState(board)
    state.place_smoke("71J5", 3)
    kernel.los(board, "71I4", "72M6").steps
    kernel.can_see(board, 0, 5)
    kernel.can_see(board, 0, 5, counters=state)
    kernel.los_matrix(board, counters=state)
    kernel.fields_of_fire(board, ["71I4"]).cover
    kernel.threat_map(board, ["72M6"])
    kernel.HeldLOSMatrix(board, state, ["71I4", "72M6"]).refresh()
    kernel.movement_field(board, "71I4", unit="infantry", allowance=4, counters=state)
    kernel.movement_matrix(board, [0], unit="infantry")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the depiction model on a map without art
        kernel.los(board, "71I4", "72M6", model="depiction")
    assert vars(board).keys() == own.keys()
    assert all(vars(board)[key] is value for key, value in own.items())
    assert LOS_CACHE.entries(board) and MOVEMENT_CACHE.entries(board)


def test_a_cache_lets_its_board_go():
    cache = BoardCache("test")
    board = kernel.random_board("asl", 6, 5, seed=1)
    cache.get(board, "x", lambda: np.zeros(3))
    assert len(cache) == 1
    del board
    gc.collect()
    assert len(cache) == 0


def test_the_board_keeps_its_orientation():
    assert kernel.load("default").orientation == "flat"
    assert kernel.load("ccn-ridge").orientation == "pointy"
    assert kernel.random_board("ccn", 6, 5, seed=1).orientation == "flat"


def test_every_result_is_plain_data(board):
    state = kernel.GameState(board, sides=("allies", "axis"))
    state.place_unit("72M6", side="axis")
    results = [
        kernel.los(board, "71I4", "72M6"),
        kernel.los_pairs(board, ["71I4", "71P5h1"], ["72M6", "71Q5", "71I6"], product=True),
        kernel.field_of_fire(board, ["71I4", "72M6"]),
        kernel.fields_of_fire(board, ["71I4", "72M6"]),
        kernel.threat_map(board, counters=state, enemies_of="allies"),
        kernel.movement_field(board, "71I4", unit="infantry", allowance=2),
        kernel.concealed_movement(board, "71I4", ["72M6"], unit="infantry", allowance=2),
    ]
    for result in results:
        data = result.to_dict()
        assert json.loads(json.dumps(data, allow_nan=False)) == data, type(result).__name__


def test_field_of_fire_and_fields_of_fire_are_one_kind_of_result(board):
    sources = ["71I4", "72M6", "71P5h1"]
    merged, rows = kernel.field_of_fire(board, sources), kernel.fields_of_fire(board, sources)
    assert type(merged) is type(rows) is kernel.FieldOfFire
    assert merged.shape == (len(board),) and rows.shape == (3, len(board))
    for name in ("visible", "hindrance", "source", "cover"):
        assert getattr(merged, name).dtype == getattr(rows, name).dtype, name
    assert np.array_equal(merged.visible, rows.visible.any(axis=0))
    best = np.where(rows.visible, rows.hindrance, 10**6).min(axis=0)
    assert np.array_equal(merged.hindrance[merged.visible], best[merged.visible])
    assert merged.sources.tolist() == rows.sources.tolist() and rows.levels.tolist() == [0, 0, 1]
    for k in range(3):
        one = kernel.field_of_fire(board, sources[k])
        assert np.array_equal(rows.hindrance[k], np.where(one.visible, np.minimum(one.hindrance, 127), -1))
        assert np.array_equal(rows.cover[k], one.cover)


def test_the_cross_product_is_every_source_against_every_target(board):
    rng = np.random.default_rng(26)
    sources, targets = rng.integers(0, len(board), 8), rng.integers(0, len(board), 5)
    product = kernel.los_pairs(board, sources, targets, product=True)
    assert product.visible.shape == product.blocked_at_name.shape == (8, 5)
    for k in range(8):
        for m in range(5):
            one = kernel.los(board, int(sources[k]), int(targets[m]))
            assert (product.visible[k, m], product.hindrance[k, m], product.blocked_at[k, m], product.reason[k, m],
                    product.cover[k, m], product.range[k, m]) == (one.visible, one.hindrance, one.blocked_at,
                                                                    one.reason, one.cover, one.range)
            assert product.blocked_at_name[k, m] == one.blocked_at_name
            assert product.reason_name[k, m] == one.reason_name
    square = kernel.los_pairs(board, sources, targets[[0, 1, 2, 3, 4, 0, 1, 2]], product=True).visible
    assert np.array_equal(np.diag(square), kernel.los_pairs(board, sources, targets[[0, 1, 2, 3, 4, 0, 1, 2]]).visible)
    with pytest.raises(ValueError, match=r"sources has 8 hexes and targets 5: expected equal lengths \(or product=True"):
        kernel.los_pairs(board, sources, targets)


def test_every_result_has_a_short_repr(board):
    """Printing a MovementField or a ConcealedMovement dumped about 14,000 characters: every result object
    (and the game state, the counters and the held matrix) prints as one short line that says what it is."""
    state = kernel.GameState(board, sides=("allies", "axis"))
    state.place_unit("72M6", side="axis")
    field = kernel.movement_field(board, "71I4", unit="infantry", allowance=2)
    results = {
        "LOSResult": kernel.los(board, "71I4", "72M6"),
        "PairsResult": kernel.los_pairs(board, ["71I4", "71P5h1"], ["72M6", "71Q5", "71I6"], product=True),
        "FieldOfFire": kernel.field_of_fire(board, ["71I4", "72M6"]),
        "ThreatMap": kernel.threat_map(board, counters=state, enemies_of="allies"),
        "MovementField": field,
        "ConcealedMovement": kernel.concealed_movement(board, "71I4", ["72M6"], unit="infantry", allowance=2),
        "Coverage": kernel.coverage(board, ["71I4", "72M6"]),
        "MovementTables": field.tables,
        "HeldLOSMatrix": kernel.HeldLOSMatrix(board, state),
        "GameState": state,
        "Counters": kernel.Counters.on(board, smoke={"71I9": 3}),
    }
    for name, result in results.items():
        text = repr(result)
        assert text.startswith(f"<{name}") and len(text) < 160 and "\n" not in text, text
    assert repr(field) == "<MovementField infantry from 71I4, allowance 2: 19 hexes reached>"
    assert repr(results["LOSResult"]) == "<LOSResult 71I4 -> 72M6: blocked at 72G6 (blind hex); hindrance +0, range 36>"


def test_movement_field_and_concealed_movement_have_one_reachable(board):
    """reachable was a method of MovementField and an array of ConcealedMovement: both are arrays now, and
    the old call form still works for one release, with a DeprecationWarning."""
    import warnings

    field = kernel.movement_field(board, "71I4", unit="infantry", allowance=4)
    hidden = kernel.concealed_movement(board, "71I4", ["72M6"], unit="infantry", allowance=4)
    assert field.reachable.dtype == hidden.reachable.dtype == np.bool_
    assert field.reachable.shape == hidden.reachable.shape == (len(board),)
    assert np.array_equal(field.reachable, hidden.reachable)
    assert np.array_equal(field.reachable, kernel.reachable(board, "71I4", unit="infantry", allowance=4))
    assert type(field.reachable & ~hidden.exposed) is np.ndarray   # what is computed from it is a plain array
    with pytest.warns(DeprecationWarning, match=r"MovementField\.reachable\(allowance\) is deprecated"):
        two = field.reachable(2)
    assert np.array_equal(two, field.cost <= 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.flatnonzero(field.reachable)   # the array form warns of nothing
    with pytest.raises(TypeError, match="this array is not callable"):
        field.reachable[:10](2)


#: The API's names for Locations a call takes, and the level parameter that goes with each: one Location
#: (singular) or several (plural: one name, a sequence of names or an index array).
ONE_LOCATION = {"viewer": "level", "target": "target_level"}
SEVERAL_LOCATIONS = {"sources": "levels", "targets": "target_levels", "watchers": "watcher_levels"}


def _public_calls():
    import inspect

    for name in kernel.__all__:
        value = getattr(kernel, name)
        if inspect.isfunction(value):
            yield name, inspect.signature(value).parameters


def test_location_parameters_are_singular_for_one_and_plural_for_several():
    """Every public function names its Locations and their levels from one vocabulary: a level parameter
    belongs to a Location parameter of the same number (``level`` to ``viewer``, ``levels`` to ``sources``,
    ``target_levels`` to ``targets``, or to every hex as targets where a call has no ``targets``)."""
    singular_levels = {level: where for where, level in ONE_LOCATION.items()}
    plural_levels = {level: where for where, level in SEVERAL_LOCATIONS.items()}
    checked = 0
    for name, parameters in _public_calls():
        for parameter in parameters:
            if parameter in singular_levels:
                assert singular_levels[parameter] in parameters, f"{name}({parameter}=...) has no one Location"
                checked += 1
            if parameter in plural_levels:
                owner = plural_levels[parameter]
                # (or the call takes a result that holds them: a field of fire's sources)
                assert owner in parameters or (owner == "targets" and "sources" in parameters) or (
                    owner == "sources" and "fire" in parameters), (
                    f"{name}({parameter}=...) has no {owner}")
                checked += 1
            assert parameter not in ("hex", "location", "locations", "source", "viewers"), (
                f"{name}({parameter}=...): the API's words are {sorted(ONE_LOCATION) + sorted(SEVERAL_LOCATIONS)}")
    assert checked >= 20, checked   # the vocabulary is the API's: los, can_see, the fields, pairs, movement


def test_a_singular_parameter_refuses_several_and_a_plural_one_takes_one(board):
    """``viewer``, ``target`` and ``level`` take one value and name themselves when given several; ``sources``,
    ``targets`` and ``levels`` take one name as a sequence of one."""
    with pytest.raises(TypeError, match=r"viewer is \['71I4', '71A5'\]: expected a hex or Location name"):
        kernel.los(board, ["71I4", "71A5"], "71A1")
    with pytest.raises(TypeError, match=r"target is \['71A1'\]: expected a hex or Location name"):
        kernel.can_see(board, "71I4", ["71A1"])
    with pytest.raises(TypeError, match=r"level is \[0, 1\]: expected an integer Location level"):
        kernel.los(board, "71I4", "71A1", level=[0, 1])
    one = kernel.field_of_fire(board, "71I4")
    assert np.array_equal(one.visible, kernel.field_of_fire(board, ["71I4"]).visible)
    assert kernel.los_pairs(board, "71I4", "71A1").visible.shape == (1,)
    assert np.array_equal(kernel.movement_field(board, "71I4").cost, kernel.movement_field(board, ["71I4"]).cost)
    assert kernel.los_matrix(board, "71I4").shape == (1, 1)
