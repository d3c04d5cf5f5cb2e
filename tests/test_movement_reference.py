"""Tests of the movement reference (tests/reference/movement_reference.py).

Golden cases from the rules digest (section 6 and 8) on tiny boards written in
the board file format (docs/board-format.md), and self-consistency checks of
the reference on seeded random boards of every ruleset: Bellman optimality of
the state costs and step-by-step re-costing of every cheapest path.

Most golden boards are a single row of a ``rectangular`` layout, which is a
line of hexes: A1 -SE- B1 -NE- C1 -SE- D1 ... (columns B, D, ... sit half a
hex lower), so A1 and C1 are connected only through B1.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest

import kernel
from kernel import random_board
from tests.reference.movement_reference import (
    MOVING,
    STOPPED,
    IllegalPath,
    build_state_graph,
    bypass,
    loc,
    make_context,
    offmap_entry_cost,
    path_cost,
    reference_movement,
)

INF = math.inf
_COUNTER = itertools.count()


# --------------------------------------------------------------------------- boards from text
def write_board(tmp_path, hexes: str = "", hexsides: str = "", *, ruleset: str = "asl",
                columns: int = 3, rows: int = 1):
    """Write a small rectangular board file under ``tmp_path`` and ``kernel.load`` it."""
    text = "\n".join([
        "[board]",
        "id = 1",
        f"ruleset = {ruleset}",
        "layout = rectangular",
        "orientation = flat",
        f"columns = {columns}",
        f"rows = {rows}",
        "title = movement reference test",
        "default_level = 0",
        "",
        "[hexes]",
        hexes,
        "",
        "[hexsides]",
        hexsides,
        "",
    ])
    path = Path(tmp_path) / f"movement{next(_COUNTER)}.board"
    path.write_text(text, encoding="utf-8")
    return kernel.load(path)


def per_hex(board, names, value=1):
    array = np.zeros(len(board), dtype=np.int64)
    for name in names:
        array[board.index(name)] = value
    return array


def query(board, result, what):
    """``"B1"``: field cost; ``("loc", "B1", level, mode)`` / ``("bypass", "B2", d)``: state cost;
    ``"exit"``: exit cost."""
    if what == "exit":
        return result["exit_cost"]
    if isinstance(what, str):
        return float(result["cost"][board.index(what)])
    if what[0] == "loc":
        node = loc(board.index(what[1]), what[2], what[3])
    else:
        node = bypass(board.index(what[1]), what[2])
    return result["state_cost"].get(node, INF)


def G(name, mode=MOVING, level=0):
    """Shorthand for a ground (or upper) Location query."""
    return ("loc", name, level, mode)


# --------------------------------------------------------------------------- golden cases
# Each case: board (hexes, hexsides, ruleset, columns, rows), unit class,
# starts, options, and the expected costs {query: value}.
CASES = [
    # A2.4: building + woods costs 2 + 2 = 4 MF to enter (the ground Location);
    # the field cost of the hex is 1 through its Bypass position (A4.3).
    pytest.param(dict(hexes="B1 0 woods stone-building"), "infantry", ["A1"], {},
                 {G("B1"): 4, G("B1", STOPPED): INF, ("bypass", "B1", 5): 1, "B1": 1},
                 id="asl-infantry-enters-building-woods-4MF"),
    pytest.param(dict(hexes="B1 0 woods wooden-building"), "leader", ["A1"], {},
                 {G("B1"): 4}, id="asl-leader-enters-building-woods-4MF"),
    # B.2: crossing a wall costs 1 + COT.
    pytest.param(dict(hexsides="A1-B1 wall"), "infantry", ["A1"], {},
                 {"B1": 2, "C1": 3}, id="asl-wall-into-open-ground-2MF"),
    pytest.param(dict(hexes="B1 0 woods", hexsides="A1-B1 wall"), "infantry", ["A1"], {},
                 {G("B1"): 3, ("bypass", "B1", 5): 2}, id="asl-wall-into-woods-3MF"),
    pytest.param(dict(hexsides="A1-B1 hedge"), "fully-tracked", ["A1"], {},
                 {"B1": 2}, id="asl-vehicle-hedge-into-open-2MP"),
    pytest.param(dict(hexsides="A1-B1 wall"), "truck", ["A1"], {},
                 {"B1": INF}, id="asl-truck-wall-prohibited"),
    # B.2: uphill doubles the COT including SMOKE: 2 x (1 + 1) = 4.
    pytest.param(dict(hexes="B1 1 ."), "infantry", ["A1"], {"smoke": ["B1"]},
                 {"B1": 4}, id="asl-uphill-open-ground-with-smoke-4MF"),
    pytest.param(dict(hexes="B1 1 ."), "infantry", ["A1"], {},
                 {"B1": 2}, id="asl-uphill-open-ground-2MF"),
    pytest.param(dict(hexes="B1 0 ."), "infantry", ["A1"], {"smoke": ["B1"]},
                 {"B1": 2}, id="asl-level-open-ground-with-smoke-2MF"),
    pytest.param(dict(hexes="B1 2 ."), "infantry", ["A1"], {},
                 {"B1": 4}, id="asl-two-levels-up-open-ground-4MF"),
    pytest.param(dict(hexes="A1 1 .\nB1 0 ."), "infantry", ["A1"], {},
                 {"B1": 1}, id="asl-downhill-open-ground-1MF"),
    # Road hexside: COT = road_cost, whatever is in the hex; doubled uphill.
    pytest.param(dict(hexes="B1 0 woods", hexsides="A1-B1 road"), "infantry", ["A1"], {},
                 {G("B1"): 1, "B1": 1}, id="asl-road-hexside-into-woods-1MF"),
    pytest.param(dict(hexes="B1 0 woods", hexsides="A1-B1 road"), "fully-tracked", ["A1"], {},
                 {"B1": 1}, id="asl-fully-tracked-road-into-woods-1MP"),
    pytest.param(dict(hexes="B1 0 woods"), "fully-tracked", ["A1"], {},
                 {"B1": 4}, id="asl-fully-tracked-woods-without-road-4MP"),
    pytest.param(dict(hexes="B1 1 woods", hexsides="A1-B1 road"), "infantry", ["A1"], {},
                 {G("B1"): 2}, id="asl-road-uphill-into-woods-2MF"),
    pytest.param(dict(hexes="B1 0 woods", hexsides="A1-B1 wall road"), "infantry", ["A1"], {},
                 {G("B1"): 1}, id="asl-road-cancels-wall-cost"),
    # SPEC (reading): a road does not lift a prohibition of the hex entered.
    pytest.param(dict(hexes="B1 0 woods", hexsides="A1-B1 road"), "armoured-car", ["A1"], {},
                 {"B1": INF}, id="asl-armoured-car-road-into-woods-still-prohibited"),
    # Marsh: all MF, only as the first move; the unit stops there.
    pytest.param(dict(hexes="B1 0 marsh"), "infantry", ["A1"], {},
                 {G("B1", STOPPED): 4, G("B1"): INF, "B1": 4, "C1": INF},
                 id="asl-marsh-all-MF-first-move-default-allowance"),
    pytest.param(dict(hexes="B1 0 marsh"), "infantry", ["A1"], {"allowance": 7},
                 {G("B1", STOPPED): 7, "C1": INF}, id="asl-marsh-all-MF-given-allowance"),
    pytest.param(dict(hexes="B1 0 marsh"), "leader", ["A1"], {},
                 {"B1": 6}, id="asl-marsh-all-MF-leader-6MF"),
    pytest.param(dict(hexes="C1 0 marsh"), "infantry", ["A1"], {},
                 {"B1": 1, "C1": INF}, id="asl-marsh-unreachable-after-a-first-move"),
    pytest.param(dict(hexes="A1 0 marsh"), "infantry", ["A1"], {},
                 {"A1": 0, "B1": 1, "C1": 2}, id="asl-start-in-marsh-moves-out-normally"),
    pytest.param(dict(hexes="B1 0 marsh"), "fully-tracked", ["A1"], {},
                 {"B1": INF}, id="asl-vehicle-marsh-prohibited"),
    # Cliff hexsides are not crossable.
    pytest.param(dict(hexsides="A1-B1 cliff"), "infantry", ["A1"], {},
                 {"B1": INF, "C1": INF}, id="asl-cliff-hexside-impassable-infantry"),
    pytest.param(dict(hexsides="A1-B1 cliff road"), "infantry", ["A1"], {},
                 {"B1": INF}, id="asl-cliff-with-road-still-impassable"),
    pytest.param(dict(hexsides="A1-B1 cliff"), "fully-tracked", ["A1"], {},
                 {"B1": INF}, id="asl-cliff-hexside-impassable-vehicle"),
    # Vehicles where prohibited.
    pytest.param(dict(hexes="B1 0 stone-building"), "fully-tracked", ["A1"], {},
                 {"B1": INF, "C1": INF}, id="asl-fully-tracked-into-building-unreachable"),
    pytest.param(dict(hexes="B1 0 crag"), "half-track", ["A1"], {},
                 {"B1": INF}, id="asl-half-track-into-crag-unreachable"),
    pytest.param(dict(hexes="B1 0 woods"), "truck", ["A1"], {},
                 {"B1": INF}, id="asl-truck-into-woods-unreachable"),
    pytest.param(dict(hexes="B1 0 stone-building"), "infantry", ["A1"], {},
                 {G("B1"): 2, "C1": 3}, id="asl-infantry-through-building-2MF"),
    # Sum of terrain features (A2.4) and half MF.
    pytest.param(dict(hexes="B1 0 grain"), "infantry", ["A1"], {},
                 {"B1": 1.5, "C1": 2.5}, id="asl-grain-1.5MF"),
    # Upper building Locations: climbing costs the building's COT (reading in the spec).
    pytest.param(dict(hexes="B1 0 stone-building levels=2"), "infantry", ["A1"], {},
                 {G("B1"): 2, G("B1", level=1): 4, G("B1", level=2): 6},
                 id="asl-building-upper-levels-cost-COT-per-level"),
    # Entry from off the map (A2.5) and leaving it (A2.6).
    pytest.param(dict(hexes="A1 0 woods"), "infantry", [], {"entry_hexes": ["A1"]},
                 {G("A1"): 2, "B1": 3}, id="asl-entry-from-offmap-into-woods-2MF"),
    pytest.param(dict(hexes="A1 0 marsh"), "infantry", [], {"entry_hexes": ["A1"]},
                 {G("A1", STOPPED): 4, "B1": INF}, id="asl-entry-from-offmap-into-marsh-all-MF"),
    pytest.param(dict(hexes="A1 0 woods\nB1 0 woods\nC1 0 woods"), "infantry", ["B1"], {},
                 {"exit": 2}, id="asl-leaving-map-from-woods-costs-its-COT"),
    pytest.param(dict(hexes="A1 0 .\nB1 0 woods\nC1 0 woods", hexsides="A1:N cliff\nA1:NE cliff\nA1:NW hedge\nA1:SW cliff\nA1:S cliff"),
                 "infantry", ["A1"], {}, {"exit": 2}, id="asl-leaving-map-across-hedge-costs-COT-plus-1"),

    # --- CCN: moves counted in hexes; stop on entry; occupied hexes block.
    pytest.param(dict(hexes="B1 0 forest", ruleset="ccn", columns=4), "cavalry", ["A1"], {},
                 {G("B1", STOPPED): 1, G("B1"): INF, "C1": INF, "D1": INF},
                 id="ccn-unit-stops-in-forest"),
    pytest.param(dict(hexes="B1 0 town", ruleset="ccn", columns=4), "infantry", ["A1"], {},
                 {G("B1", STOPPED): 1, "C1": INF}, id="ccn-unit-stops-in-town"),
    pytest.param(dict(hexes="B1 0 forest", ruleset="ccn", columns=3, rows=2), "cavalry", ["A1"], {},
                 {G("B1", STOPPED): 1, "C2": 3, "C1": 4}, id="ccn-forest-stop-means-going-around"),
    pytest.param(dict(hexsides="A1-B1 fieldworks", ruleset="ccn", columns=4), "cavalry", ["A1"], {},
                 {G("B1", STOPPED): 1, G("B1"): INF, "C1": INF},
                 id="ccn-crossing-fieldworks-stops"),
    pytest.param(dict(ruleset="ccn", columns=4), "cavalry", ["A1"], {"units": ["B1"]},
                 {"B1": INF, "C1": INF}, id="ccn-occupied-hex-cannot-be-entered"),
    pytest.param(dict(ruleset="ccn", columns=4), "cavalry", ["A1"], {"units": ["A1"]},
                 {"B1": 1, "C1": 2, "D1": 3}, id="ccn-start-hex-own-unit-does-not-block"),
    pytest.param(dict(hexes="B1 0 rugged-hill", ruleset="ccn"), "infantry", ["A1"], {},
                 {"B1": INF}, id="ccn-rugged-hill-impassable"),
    pytest.param(dict(hexes="B1 0 marsh", ruleset="ccn"), "artillery", ["A1"], {},
                 {"B1": INF}, id="ccn-artillery-marsh-prohibited"),
    pytest.param(dict(hexes="B1 0 marsh", ruleset="ccn"), "infantry", ["A1"], {},
                 {G("B1", STOPPED): 1, "C1": INF}, id="ccn-infantry-marsh-stops"),
    pytest.param(dict(hexes="B1 1 .", ruleset="ccn"), "infantry", ["A1"], {},
                 {"B1": 1}, id="ccn-no-elevation-cost"),

    # --- Valor & Victory: +1 per level; Level 2 climb; bridges.
    pytest.param(dict(hexes="B1 2 .\nC1 2 .", ruleset="valor-victory"), "infantry", ["A1"], {},
                 {G("B1", STOPPED): 4, G("B1"): INF, "C1": INF},
                 id="vv-infantry-ground-to-level-2-takes-whole-allowance"),
    pytest.param(dict(hexes="B1 2 .", ruleset="valor-victory"), "infantry", ["A1"], {"allowance": 5},
                 {"B1": 5}, id="vv-infantry-ground-to-level-2-given-allowance"),
    pytest.param(dict(hexes="A1 2 .", ruleset="valor-victory"), "infantry", ["A1"], {},
                 {G("B1", STOPPED): 4, "C1": INF}, id="vv-infantry-level-2-down-to-ground-whole-allowance"),
    pytest.param(dict(hexes="B1 2 .", ruleset="valor-victory"), "vehicle", ["A1"], {},
                 {"B1": INF}, id="vv-vehicle-ground-to-level-2-prohibited"),
    pytest.param(dict(hexes="A1 2 .", ruleset="valor-victory"), "gun", ["A1"], {},
                 {"B1": INF}, id="vv-gun-level-2-to-ground-prohibited"),
    pytest.param(dict(hexes="B1 1 .\nC1 2 .\nD1 1 .", ruleset="valor-victory", columns=4), "vehicle", ["A1"], {},
                 {"B1": 2, "C1": 4, "D1": 5}, id="vv-plus-one-per-level-up"),
    pytest.param(dict(hexes="B1 1 woods", ruleset="valor-victory"), "infantry", ["A1"], {},
                 {"B1": 3}, id="vv-uphill-woods-2-plus-1"),
    pytest.param(dict(hexes="B1 0 woods stream", ruleset="valor-victory"), "vehicle", ["A1"], {},
                 {"B1": 3}, id="vv-features-combine-by-max"),
    pytest.param(dict(hexsides="A1-B1 hedge", ruleset="valor-victory"), "infantry", ["A1"], {},
                 {"B1": 2}, id="vv-hedge-plus-1"),
    pytest.param(dict(hexes="B1 0 building", ruleset="valor-victory"), "vehicle", ["A1"], {},
                 {"B1": INF}, id="vv-vehicle-into-building-prohibited"),
    pytest.param(dict(hexes="B1 0 bridge", hexsides="B1-C1 road", ruleset="valor-victory"), "vehicle", ["A1"], {},
                 {"B1": INF, "C1": INF}, id="vv-vehicle-bridge-refused-from-non-road-hexside"),
    pytest.param(dict(hexes="B1 0 bridge", hexsides="B1-C1 road", ruleset="valor-victory"), "vehicle", ["C1"], {},
                 {"B1": 1, "A1": 2}, id="vv-vehicle-bridge-entered-from-road-hexside"),
    pytest.param(dict(hexes="B1 0 bridge", hexsides="B1-C1 road", ruleset="valor-victory"), "gun", ["A1"], {},
                 {"B1": INF}, id="vv-gun-bridge-refused-from-non-road-hexside"),
    pytest.param(dict(hexes="B1 0 bridge", hexsides="B1-C1 road", ruleset="valor-victory"), "infantry", ["A1"], {},
                 {"B1": 1, "C1": 2}, id="vv-infantry-bridge-from-any-hexside"),
]


@pytest.mark.parametrize("board_spec, unit_class, starts, options, expected", CASES)
def test_golden(tmp_path, board_spec, unit_class, starts, options, expected):
    spec = dict(board_spec)
    board = write_board(tmp_path, spec.pop("hexes", ""), spec.pop("hexsides", ""), **spec)
    kwargs = {}
    if "smoke" in options:
        kwargs["smoke"] = per_hex(board, options["smoke"])
    if "units" in options:
        kwargs["units"] = per_hex(board, options["units"])
    if "allowance" in options:
        kwargs["allowance"] = options["allowance"]
    entry = [board.index(e) for e in options.get("entry_hexes", [])]
    result = reference_movement(board, [board.index(s) for s in starts], unit_class, entry_hexes=entry, **kwargs)
    got = {what: query(board, result, what) for what in expected}
    assert got == expected
    # Every reached hex's path re-costs to its field cost.
    for h in np.flatnonzero(np.isfinite(result["cost"])):
        path = result["paths"](int(h))
        assert path_cost(board, path, unit_class, starts=[board.index(s) for s in starts], **kwargs) == result["cost"][h]


# --------------------------------------------------------------------------- Bypass (A4.3)
# A 3 x 3 board: B2 is a building-woods hex (4 MF) whose neighbours are
# B1 (N), C2 (NE), C3 (SE), B3 (S), A3 (SW), A2 (NW).  Every hex but A2 (start),
# B2 and C3 (target) is water, so C3 is reached only through or around B2.
BYPASS_HEXES = "\n".join(f"{h} 0 water" for h in ("A1", "A3", "B1", "B3", "C1", "C2"))


def bypass_board(tmp_path, options=""):
    return write_board(tmp_path, BYPASS_HEXES + f"\nB2 0 woods stone-building {options}", columns=3, rows=3)


def test_bypass_board_layout(tmp_path):
    board = bypass_board(tmp_path)
    names = [board.names[j] for j in board.neighbours[board.index("B2")]]
    assert names == ["B1", "C2", "C3", "B3", "A3", "A2"]


def test_bypass_costs_1MF_per_hexside_along_woods(tmp_path):
    board = bypass_board(tmp_path)
    b2, c3 = board.index("B2"), board.index("C3")
    result = reference_movement(board, [board.index("A2")], "infantry")
    sc = result["state_cost"]
    # Entry from A2 (across hexside 5) onto the positions of hexsides 4, 5, 0: 1 MF
    # (the hex's other terrain: Open Ground); then 1 MF per hexside along.
    assert [sc.get(bypass(b2, d)) for d in range(6)] == [1, 2, 3, 2, 1, 1]
    assert sc[loc(b2)] == 4                     # entering the building-woods Location
    assert result["cost"][b2] == 1              # field cost: its cheapest Bypass position
    # C3: bypass to hexside 1 (or 3) for 2 MF, then enter C3 (Open Ground) for 1: 3 MF,
    # cheaper than through the hex (4 + 1).
    assert result["cost"][c3] == 3
    path = result["paths"](c3)
    assert path[0] == loc(board.index("A2")) and path[-1] == loc(c3)
    assert all(node[0] == "bypass" for node in path[1:-1]) and len(path) == 4
    assert path_cost(board, path, "infantry") == 3


def test_bypass_not_along_touched_hexsides(tmp_path):
    # The obstacle touches hexsides 0, 1, 3, 4: only positions 2 and 5 exist, and
    # they are not adjacent, so no Bypass movement leads from A2 to C3.
    board = bypass_board(tmp_path, "touch=0,1,3,4")
    b2, c3 = board.index("B2"), board.index("C3")
    graph = build_state_graph(board, "infantry")
    assert {node for node in graph if node[0] == "bypass"} == {bypass(b2, 2), bypass(b2, 5)}
    result = reference_movement(board, [board.index("A2")], "infantry")
    assert result["state_cost"][bypass(b2, 5)] == 1
    assert result["cost"][c3] == 5              # through the hex: 4 + 1
    # Position 2 is reached only from C3, after entering C3 through the hex.
    assert result["state_cost"][bypass(b2, 2)] == 6
    assert result["paths"](c3) == [loc(board.index("A2")), loc(b2), loc(c3)]


def test_bypass_none_when_obstacle_touches_all_hexsides(tmp_path):
    board = bypass_board(tmp_path, "touch=all")
    result = reference_movement(board, [board.index("A2")], "infantry")
    assert not any(node[0] == "bypass" for node in result["graph"])
    assert result["cost"][board.index("B2")] == 4
    assert result["cost"][board.index("C3")] == 5


def test_bypass_default_touch_from_adjacent_woods(tmp_path):
    # B2 and C2 both woods: by default each obstacle touches the shared hexside
    # (B2's hexside 1), so B2 has no Bypass position there.
    board = write_board(tmp_path, "B2 0 woods\nC2 0 woods", columns=3, rows=3)
    b2 = board.index("B2")
    graph = build_state_graph(board, "infantry")
    assert bypass(b2, 1) not in graph and bypass(b2, 0) in graph and bypass(b2, 2) in graph


def test_bypass_only_for_bypass_classes(tmp_path):
    board = bypass_board(tmp_path)
    graph = build_state_graph(board, "fully-tracked")
    assert not any(node[0] == "bypass" for node in graph)
    result = reference_movement(board, [board.index("A2")], "fully-tracked")
    assert result["cost"][board.index("B2")] == INF  # building prohibited, no Bypass


# --------------------------------------------------------------------------- all-MF edges and illegal paths
def test_all_mf_edges_are_flagged_and_cost_the_allowance(tmp_path):
    board = write_board(tmp_path, "B1 0 marsh")
    a1, b1 = board.index("A1"), board.index("B1")
    graph = build_state_graph(board, "infantry", allowance=6)
    edge = graph.edges[loc(a1), loc(b1, 0, STOPPED)]
    assert edge == {"cost": 6.0, "all_mf": True}
    assert not graph.has_edge(loc(a1), loc(b1, 0, MOVING))
    assert graph.out_degree(loc(b1, 0, STOPPED)) == 0   # stopped states have no moves


def test_path_cost_refuses_a_second_all_mf_move(tmp_path):
    board = write_board(tmp_path, "C1 0 marsh")
    a1, b1, c1 = (board.index(n) for n in ("A1", "B1", "C1"))
    assert path_cost(board, [loc(b1), loc(c1, 0, STOPPED)], "infantry") == 4
    with pytest.raises(IllegalPath, match="all-MF"):
        path_cost(board, [loc(a1), loc(b1), loc(c1, 0, STOPPED)], "infantry")


def test_path_cost_refuses_moving_on_from_a_stopped_state(tmp_path):
    board = write_board(tmp_path, "B1 0 forest", ruleset="ccn")
    a1, b1, c1 = (board.index(n) for n in ("A1", "B1", "C1"))
    assert path_cost(board, [loc(a1), loc(b1, 0, STOPPED)], "cavalry") == 1
    with pytest.raises(IllegalPath, match="stopped"):
        path_cost(board, [loc(a1), loc(b1, 0, STOPPED), loc(c1)], "cavalry")
    with pytest.raises(IllegalPath, match="ends stopped"):
        path_cost(board, [loc(a1), loc(b1, 0, MOVING), loc(c1)], "cavalry")


def test_path_cost_refuses_jumps_and_prohibited_moves(tmp_path):
    board = write_board(tmp_path, "B1 0 stone-building", columns=4)
    a1, c1, b1 = board.index("A1"), board.index("C1"), board.index("B1")
    with pytest.raises(IllegalPath, match="not adjacent"):
        path_cost(board, [loc(a1), loc(c1)], "infantry")
    with pytest.raises(IllegalPath, match="no move"):
        path_cost(board, [loc(a1), loc(b1)], "fully-tracked")
    with pytest.raises(IllegalPath, match="start"):
        path_cost(board, [loc(b1), loc(c1)], "infantry", starts=[a1])


def test_occupied_hex_refused_by_path_cost(tmp_path):
    board = write_board(tmp_path, "", ruleset="ccn")
    a1, b1 = board.index("A1"), board.index("B1")
    with pytest.raises(IllegalPath, match="no move"):
        path_cost(board, [loc(a1), loc(b1)], "infantry", units=per_hex(board, ["B1"]))


# --------------------------------------------------------------------------- random boards
RANDOM = [
    pytest.param(ruleset, seed, id=f"{ruleset}-seed{seed}")
    for ruleset in ("asl", "valor-victory", "ccn")
    for seed in (1, 2, 3, 4, 5)
]


def random_setup(ruleset, seed):
    board = random_board(ruleset, columns=9, rows=7, seed=seed, terrain_density=0.55, hexside_density=0.2)
    rng = np.random.default_rng(1000 + seed)
    n = len(board)
    smoke = (rng.random(n) < 0.1).astype(np.int64)
    units = (rng.random(n) < 0.1).astype(np.int64)
    starts = [int(h) for h in rng.choice(n, size=4, replace=False)]
    edge = [h for h in range(n) if (board.neighbours[h] < 0).any()]
    entries = [int(h) for h in rng.choice(edge, size=4, replace=False)]
    return board, smoke, units, starts, entries


@pytest.mark.parametrize("ruleset, seed", RANDOM)
def test_random_board_bellman_optimality_and_paths(ruleset, seed):
    board, smoke, units, starts, entries = random_setup(ruleset, seed)
    checked_paths = 0
    for unit_class in board.ruleset.unit_classes:
        kwargs = dict(smoke=smoke, units=units)
        result = reference_movement(board, starts, unit_class, entry_hexes=entries, **kwargs)
        graph = result["graph"]
        state_cost = result["state_cost"]
        start_nodes = {loc(s) for s in starts}
        # Units of the start hexes do not block (the moving unit itself).
        cleared = units.copy()
        cleared[starts] = 0
        ctx = make_context(board, unit_class, smoke=smoke, units=cleared)
        entry_cost = {}
        for e in entries:
            move = offmap_entry_cost(ctx, e)
            if move is not None:
                node = loc(e, 0, move.mode)
                entry_cost[node] = min(entry_cost.get(node, INF), move.cost)

        # Bellman optimality: every state's cost is the least of its sources and
        # of (predecessor cost + edge cost); all-MF edges count only out of starts.
        for v in graph.nodes:
            best = 0.0 if v in start_nodes else INF
            best = min(best, entry_cost.get(v, INF))
            for u in graph.predecessors(v):
                data = graph.edges[u, v]
                if data["all_mf"] and u not in start_nodes:
                    continue
                best = min(best, state_cost.get(u, INF) + data["cost"])
            assert state_cost.get(v, INF) == best, (unit_class, v)

        # Field cost = least over ground Location (either mode), Bypass
        # positions and, in a bridge hex, its deck Location (either mode).
        for h in range(len(board)):
            states = [loc(h, 0, MOVING), loc(h, 0, STOPPED)] + [bypass(h, d) for d in range(6)]
            if board.bridge_deck[h]:
                states += [loc(h, 1, MOVING), loc(h, 1, STOPPED)]
            assert result["cost"][h] == min(state_cost.get(s, INF) for s in states)

        # Every cheapest path re-costs, step by step, to the field / state cost.
        for h in np.flatnonzero(np.isfinite(result["cost"])):
            path = result["paths"](int(h))
            assert path_cost(board, path, unit_class, starts=starts, **kwargs) == result["cost"][h]
            checked_paths += 1
        for node, path in result["state_paths"].items():
            assert path_cost(board, path, unit_class, starts=starts, **kwargs) == state_cost[node]
        if math.isfinite(result["exit_cost"]):
            assert path_cost(board, result["exit_path"], unit_class, starts=starts, **kwargs) == result["exit_cost"]
        # Start hexes are reached at cost 0.
        assert all(result["cost"][s] == 0 for s in starts)
    assert checked_paths > 0


@pytest.mark.parametrize("ruleset, seed", RANDOM)
def test_random_board_every_edge_recosts_as_a_first_move(ruleset, seed):
    # The state graph (build_state_graph) and the step-by-step re-costing
    # (path_cost) agree on every edge out of a ground Location or a bridge
    # deck (a path may start on a deck).
    board, smoke, _, _, _ = random_setup(ruleset, seed)
    for unit_class in board.ruleset.unit_classes:
        graph = build_state_graph(board, unit_class, smoke=smoke)
        for u, v, data in graph.edges(data=True):
            if u[0] == "loc" and (u[2] == 0 or (board.bridge_deck[u[1]] and u[2] == 1)):
                assert path_cost(board, [u, v], unit_class, smoke=smoke) == data["cost"], (unit_class, u, v)
