"""The depiction LOS model on maps without VASL art: the map's art rasterised from the hex model, the
pixel-walk kernel against its slow reference on random boards, the hex model's answers on boards without
art, the explanation, the command line and the errors. The same on real VASL boards, with golden cases
from ASL B.1: ``test_depiction_vasl.py``.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pytest

import kernel
from kernel.line_of_sight.depiction import DepictionWarning
from kernel.grid.pixels import UNIT_X, UNIT_Y
from kernel.maps.art import board_art, map_size, pixel_hexes
from tests.comparisons import COMPARISONS, depiction_counters
from tests.depiction_checks import check_against_reference, depiction, explained_against_reference
from tests.shared_data import quiet

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def small_board():
    return kernel.random_board("asl", 9, 6, seed=3, max_level=2)


# --- the art in the compiled board -----------------------------------------------------------------

def test_art_of_a_board_without_art_is_its_hex_model_rasterised():
    board = kernel.load("default")
    art = board_art(board)
    assert not art.drawn and art.terrain.shape == map_size(board) == art.elevation.shape
    assert art.bytes_per_pixel == 2
    # the centre dot of every hex shows that hex's terrain and ground level
    px = np.rint(board.x * UNIT_X).astype(int)
    py = np.rint(board.y * UNIT_Y).astype(int)
    assert (art.class_terrain[art.terrain[px, py]] == board.terrain).all()
    assert (art.elevation[px, py] == board.ground_level).all()


def test_pixel_hexes_is_the_nearest_centre_dot():
    board = kernel.load("default")
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    rng = np.random.default_rng(7)
    width, height = map_size(board)
    px = rng.integers(0, width, 3000).astype(float)
    py = rng.integers(0, height, 3000).astype(float)
    px[:50] = 129.0   # a pixel row of exact ties between two centre dots of a column
    py[:50] = 129.0
    assert (pixel_hexes(board, px, py) == reference.hex_of(px, py)).all()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kernel_matches_reference_on_random_boards(seed):
    board = kernel.random_board("asl", 12, 8, seed=seed, max_level=3)
    rng = np.random.default_rng(seed)
    pairs = rng.integers(0, len(board), (150, 2))
    top = board.top_level
    levels = np.stack([rng.integers(0, top[pairs[:, 0]] + 1), rng.integers(0, top[pairs[:, 1]] + 1)], axis=1)
    check_against_reference(board, pairs, levels)


def test_matrix_is_symmetric_and_parallel_equals_serial(small_board):
    previous = kernel.set_thread_count(1)
    try:
        serial = quiet(kernel.los_matrix, small_board, model="depiction")
    finally:
        kernel.set_thread_count(previous)
    parallel = quiet(kernel.los_matrix, small_board, model="depiction")
    assert (serial == parallel).all() and (parallel == parallel.T).all() and (np.diag(parallel) == 0).all()


def test_los_pairs_agrees_with_the_matrix(small_board):
    matrix = quiet(kernel.los_matrix, small_board, model="depiction")
    n = len(small_board)
    a, b = np.divmod(np.arange(n * n), n)
    result = quiet(kernel.los_pairs, small_board, a, b, model="depiction")
    expected = matrix[a, b]
    assert ((expected == kernel.BLOCKED) == ~result.visible).all()
    assert (result.hindrance[result.visible] == expected[result.visible]).all()


# --- a board without art: the hex model, apart from documented edge cases -----------------------------

def _nearest_vertex_px(board, a, b, trace_hexes):
    """How near (pixels) the segment from a's centre dot to b's passes a vertex of a hex it meets (between
    the two ends)."""
    corner_x, corner_y = np.array([2, 1, -1, -2, -1, 1]), np.array([0, 1, 1, 0, -1, -1])
    ax, ay, bx, by = board.x[a] * UNIT_X, board.y[a] * UNIT_Y, board.x[b] * UNIT_X, board.y[b] * UNIT_Y
    length = np.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    hexes = np.asarray(trace_hexes)
    vx = ((board.x[hexes][:, None] + corner_x) * UNIT_X).ravel() - ax
    vy = ((board.y[hexes][:, None] + corner_y) * UNIT_Y).ravel() - ay
    along = vx * ux + vy * uy
    between = (along > 0) & (along < length)
    return np.abs(vx * uy - vy * ux)[between].min()


def _depth_px(board, a, b, h):
    """How deep (pixels from its boundary) the segment from a to b gets into hex h's hexagon."""
    t = np.linspace(0, 1, 20001)
    x = board.x[a] + t * (board.x[b] - board.x[a]) - board.x[h]
    y = board.y[a] + t * (board.y[b] - board.y[a]) - board.y[h]
    flat = (1 - np.abs(y)) * UNIT_Y                                     # the N and S hexsides
    slanted = (2 - np.abs(x) - np.abs(y)) / np.hypot(1 / UNIT_X, 1 / UNIT_Y)   # the four others
    return np.minimum(flat, slanted).max()


@pytest.mark.slow
def test_on_a_board_without_art_it_follows_the_hex_model():
    """On a board without art the depiction model gives the hex model's answer (blocked or clear, the
    hindrance, the continuous slope) on every pair of the default map but the documented edge cases
    (docs/los-semantics.md section 6, docs/vasl-agreement.md): a trace with a hexside run or a vertex
    touch (A6.1 lets the hex model pass an obstacle on one side, the pixels do not), a segment passing
    within HEXSIDE_BAND + 3/4 pixels of a vertex (a rasterised wall's band, or a rounded pixel in the hex
    beyond), and a blocking hex the segment enters by less than a pixel (its pixels round onto the
    hexside).  Each class may not grow beyond what was measured (2026-11-26)."""
    from kernel.line_of_sight._templates.tracer import trace
    from kernel.maps._art_kernels import HEXSIDE_BAND

    board = kernel.load("default")
    with pytest.warns(DepictionWarning, match="no drawn art: its hexes are rasterised"):
        ours = kernel.los_matrix(board, model="depiction")
    hex_model = kernel.los_matrix(board)
    rows, cols = np.triu_indices(len(board), 1)
    differ = np.flatnonzero(ours[rows, cols] != hex_model[rows, cols])
    classes = {"hexside run or vertex": 0, "near a vertex": 0, "graze": 0}
    unexplained = []
    for k in differ.tolist():
        a, b = int(rows[k]), int(cols[k])
        met = trace(board, a, b)
        if any(kind != "interior" for _, kind in met):
            classes["hexside run or vertex"] += 1
        elif _nearest_vertex_px(board, a, b, [h for h, _ in met]) < HEXSIDE_BAND + 0.75:
            classes["near a vertex"] += 1
        elif hex_model[a, b] == kernel.BLOCKED and ours[a, b] != kernel.BLOCKED and \
                _depth_px(board, a, b, kernel.los(board, a, b).blocked_at) < 1:
            classes["graze"] += 1
        else:
            unexplained.append((board.name(a), board.name(b), int(ours[a, b]), int(hex_model[a, b])))
    assert unexplained == []
    # measured: 9,132 of the 886,446 pairs differ: 9,018 with a hexside run or a vertex touch, 114 near a vertex
    assert classes["hexside run or vertex"] <= 9_018 and classes["near a vertex"] <= 114 and classes["graze"] <= 5, \
        classes
    # the hexside-run class is the hex model's A6.1 reading against the pixels: the depiction model blocks more
    more = ((ours[rows, cols] == kernel.BLOCKED) & (hex_model[rows, cols] != kernel.BLOCKED)).sum()
    fewer = ((ours[rows, cols] != kernel.BLOCKED) & (hex_model[rows, cols] == kernel.BLOCKED)).sum()
    # (measured 2026-11-26: 6,310 and 288 before walls drawn past the far vertex of an end's walled hexspine
    # were ignored (B9, section 6); since then 6,015 and 302: the 14 more pairs the depiction model sees
    # cross such a hexspine within 6 px of its far vertex, which B9.2 as VASL applies it ignores and the
    # hex model's B9.2 does not)
    # a hex the segment touches at a vertex alone: both models count only its inherent hindrance there (B.6),
    # but the walk meets such a hex only where a pixel of the walk falls in it; the pairs where the hex model
    # counts an inherent hindrance at a vertex that no step of the walk counts are a class of their own
    # (measured 2026-11-27: 40 pairs, 26 of them among the 302 above and 14 more since grain, brush and marsh
    # touched at a vertex stopped hindering in the depiction model, which had counted them in place of the
    # missed orchards); the rest of ``fewer`` is bounded tighter than before (276, was 302 with these 26)
    missed_vertex = 0
    for k in np.flatnonzero((ours[rows, cols] != kernel.BLOCKED) & (hex_model[rows, cols] == kernel.BLOCKED)):
        a, b = int(rows[k]), int(cols[k])
        at_vertex = {s.hex for s in kernel.los(board, a, b).steps if s.kind == "vertex" and s.hindrance > 0}
        walked = {s.hex for s in quiet(kernel.los, board, a, b, model="depiction").steps if s.hindrance > 0}
        missed_vertex += bool(at_vertex - walked)
    assert more <= 5_967 and fewer - missed_vertex <= 276 and missed_vertex <= 40, (more, fewer, missed_vertex)
    # the continuous slope (B.5): 912 pairs have one in the hex model; the depiction model agrees on all
    # but 59 LOS of range 2 exactly along a hexside (the pixels lie beside one of the two hexes)
    levels = kernel.los_pairs(board, rows, cols).continuous_slope
    pixels = quiet(kernel.los_pairs, board, rows, cols, model="depiction").continuous_slope
    assert levels.sum() > 900
    odd = np.flatnonzero(levels != pixels)
    assert len(odd) <= 59
    assert all(board.distance(int(rows[k]), int(cols[k])) == 2
               and "hexside" in {kind for _, kind in trace(board, int(rows[k]), int(cols[k]))} for k in odd)


def test_the_warning_is_given_once_per_board():
    board = kernel.random_board("asl", 6, 5, seed=9)
    with pytest.warns(DepictionWarning):
        kernel.los_matrix(board, model="depiction")
    with warnings.catch_warnings():
        warnings.simplefilter("error", DepictionWarning)
        kernel.los_matrix(board, model="depiction")


# --- hexes from the exact tracer, the recorded walk (explain) -------------------------------------------

@pytest.fixture(scope="module")
def long_board():
    """A 52 x 60 random map: long enough for LOS whose rounded pixels cross a hexside near a vertex."""
    return kernel.random_board("asl", 52, 60, seed=1)


def walked_pixels(board, a, b):
    """The pixels the walk from the smaller index visits (docs/los-semantics.md section 6)."""
    a, b = min(a, b), max(a, b)
    ax, ay = board.x[a] * UNIT_X, board.y[a] * UNIT_Y
    dx, dy = board.x[b] * UNIT_X - ax, board.y[b] * UNIT_Y - ay
    n = int(np.ceil(max(abs(dx), abs(dy))))
    t = np.arange(1, n) / n
    return np.rint(ax + t * dx).astype(np.int64), np.rint(ay + t * dy).astype(np.int64)


#: LOS on ``long_board`` where a walked pixel showing terrain is rounded into a hex the segment does
#: not meet (found by search; an earlier walk blocked T53-XX9 at T52 and H3-RR58 at I4,
#: hexes off the exact trace).
ROUNDED_ACROSS = [("T53", "XX9"), ("N57", "VV7"), ("H3", "RR58")]


@pytest.mark.parametrize("viewer, target", ROUNDED_ACROSS)
def test_walk_names_only_hexes_of_the_exact_trace(long_board, viewer, target):
    from kernel.line_of_sight._templates.tracer import trace

    board = long_board
    a, b = board.index(viewer), board.index(target)
    on_trace = {h for h, _ in trace(board, a, b)}
    px, py = walked_pixels(board, a, b)
    nearest = pixel_hexes(board, px, py)
    drawn = (board_art(board).pixels[py, px] >> 8) > 0
    assert any(h >= 0 and int(h) not in on_trace for h in nearest[drawn])   # the case is exercised
    result = quiet(kernel.los, board, viewer, target, model="depiction")
    assert {board.index(step.hex) for step in result.steps} <= on_trace
    assert result.visible or result.blocked_at in on_trace
    detail = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board)).detail(a, b)
    assert (not result.visible, result.hindrance) == (detail["blocked"], detail["hindrance"])
    assert result.blocked_at == detail["blocked_at"]


def random_counters(board, rng, smoke_hexes: int, vehicle_hexes: int):
    """Seeded SMOKE (+1..+3) and vehicles on distinct random hexes: the ``Counters`` and the reference's
    per-hex arrays (SMOKE DRM, SMOKE top in half levels, vehicle)."""
    from kernel.line_of_sight.counters import counter_arrays

    smoke = {board.name(int(h)): int(rng.integers(1, 4)) for h in rng.choice(len(board), smoke_hexes, replace=False)}
    vehicles = [board.name(int(h)) for h in rng.choice(len(board), vehicle_hexes, replace=False)]
    counters = kernel.Counters.on(board, smoke=smoke, vehicles=vehicles)
    smoke_drm, smoke_top, vehicle, _, _ = counter_arrays(board, counters)
    return counters, (smoke_drm, smoke_top, vehicle)


@pytest.mark.parametrize("seed", [31, 32])
def test_explain_matches_the_reference_walk(seed):
    board = kernel.random_board("asl", 14, 9, seed=seed, max_level=3)
    rng = np.random.default_rng(seed)
    counters, tables = random_counters(board, rng, 20, 10)
    pairs = rng.integers(0, len(board), (120, 2))
    top = board.top_level
    levels = np.stack([rng.integers(0, top[pairs[:, 0]] + 1), rng.integers(0, top[pairs[:, 1]] + 1)], axis=1)
    explained_against_reference(board, pairs, levels)
    explained_against_reference(board, pairs, levels, counters, tables)


#: Pairs where the kernel and the reference once disagreed (found by review, 2026-11-26): a pixel that is both a
#: bare-crest blind hex and an obstacle block (the block wins, section 2), and wall pixels equally near two
#: hexsides (either touching an end is enough, section 6).  (map, seed of a 14 x 9 random map, viewer, target)
FOUND_CASES = [("default", None, "73T4", "72V8"), ("default", None, "73T3", "72V8"), ("random", 7, "A6", "M4"),
               ("random", 18, "M6", "C5"), ("random", 8, "L7", "N4"), ("random", 16, "D3", "F6"),
               ("random", 3, "H5", "J2")]


@pytest.mark.parametrize("kind, seed, viewer, target", FOUND_CASES, ids=lambda v: str(v))
def test_kernel_and_reference_agree_on_the_cases_review_found(kind, seed, viewer, target):
    board = kernel.load("default") if kind == "default" else kernel.random_board("asl", 14, 9, seed=seed,
                                                                                    max_level=3)
    a, b = board.index(viewer), board.index(target)
    explained_against_reference(board, np.array([[a, b], [b, a]]), np.zeros((2, 2), np.int64))
    if kind == "default":   # the block outranks the blind hex, as in the hex model
        assert quiet(kernel.los, board, viewer, target, model="depiction").reason_name == "obstacle" == \
            kernel.los(board, viewer, target).reason_name


@pytest.mark.parametrize("seed", [51, 52])
def test_explain_matches_the_reference_walk_among_many_walls(seed):
    board = kernel.random_board("asl", 14, 9, seed=seed, max_level=3, hexside_density=0.35)
    rng = np.random.default_rng(seed)
    pairs = rng.integers(0, len(board), (150, 2))
    explained_against_reference(board, pairs, np.zeros_like(pairs))


def test_a_hex_or_range_counts_its_largest_hindrance(tmp_path):
    # brush made a +2 hindrance: where a +1 (grain, orchard, ...) and then a +2 meet at one range,
    # model="vasl" keeps the larger, the +2 adding the difference (+1); the kernel agrees with the
    # reference on those pairs and on others, in both models
    text = (REPO / "data" / "rulesets" / "asl.toml").read_text()
    brush = text.index("[terrain.brush]")
    text = text[:brush] + text[brush:].replace("hindrance = 1", "hindrance = 2", 1)
    (tmp_path / "asl-brush2.toml").write_text(text)
    board = kernel.random_board(str(tmp_path / "asl-brush2.toml"), 30, 20, seed=10, max_level=0,
                                terrain_density=0.6)
    pairs = np.random.default_rng(10).integers(0, len(board), (3000, 2)).tolist()
    topped_up = [(a, b) for a, b in pairs
                 if any(step.kind.startswith("brush") and step.hindrance == 1
                        for step in quiet(kernel.los, board, a, b, model="vasl").steps)]
    assert len(topped_up) >= 5   # the case is exercised (18 of these 3000 pairs)
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    for a, b in topped_up[:8] + pairs[:30]:
        for model, per_range in (("depiction", False), ("vasl", True)):
            result = quiet(kernel.los, board, a, b, model=model)
            detail = reference.detail(a, b, per_range=per_range)
            assert (not result.visible, result.hindrance) == (detail["blocked"], detail["hindrance"]), (a, b, model)
            per_hex = {}
            for step in result.steps:
                if step.hindrance:
                    per_hex[board.index(step.hex)] = per_hex.get(board.index(step.hex), 0) + step.hindrance
            assert per_hex == detail["drm_by_hex"], (a, b, model)


def test_depression_banks_block_as_in_the_hex_model_and_the_reference():
    # A6.3: from inside a gully (72Y7, 73GG6 at level -1) the banks block, though lower than the other end;
    # before, the depiction model saw over them (a continuous slope 72Y7 -> 72Y9; 73GG6 -> 71H3 on a hill)
    board = kernel.load("default")
    for viewer, target, bank in (("72Y7", "72Y9", "72Y8"), ("73GG6", "71H3", "73GG7")):
        for a, b in ((viewer, target), (target, viewer)):
            result = quiet(kernel.los, board, a, b, model="depiction")
            assert (result.visible, result.blocked_at_name, result.reason_name) == (False, bank, "hill"), (a, b)
            assert kernel.los(board, a, b).reason_name == "hill"
        # a bank next to the viewer is seen: nothing lies between the two ends' hexes
        assert quiet(kernel.los, board, viewer, bank, model="depiction").visible
    names = board.ruleset.terrain_names
    depression = [h for h in range(len(board))
                  if any(board.terrain[h] >> t & 1 and names[t] in ("gully", "stream") for t in range(len(names)))]
    rng = np.random.default_rng(3)
    starts = rng.choice(depression, 20, replace=False)
    pairs = np.stack([np.repeat(starts, 6), np.clip(np.repeat(starts, 6) + rng.integers(-50, 50, 120), 0,
                                                     len(board) - 1)], axis=1)
    explained_against_reference(board, pairs, np.zeros_like(pairs))


def test_smoke_in_an_end_hex_counts_as_in_the_hex_model():
    # A24: SMOKE in the firer's or the target's own hex hinders; the hex model gives +3 for 71I4 -> 71L5
    board = kernel.load("default")
    for where in ("71L5", "71I4"):
        counters = kernel.Counters.on(board, smoke={where: 3})
        hex_model = kernel.los(board, "71I4", "71L5", counters=counters)
        result = quiet(kernel.los, board, "71I4", "71L5", counters=counters, model="depiction")
        assert (result.visible, result.hindrance) == (hex_model.visible, hex_model.hindrance) == (True, 3)
        assert [(s.hex, s.kind, s.hindrance) for s in result.steps if s.hindrance] == [(where, "counters", 3)]
        pairs = quiet(kernel.los_pairs, board, ["71I4"], ["71L5"], counters=counters, model="depiction")
        assert pairs.hindrance[0] == 3
    plain = quiet(kernel.los, board, "71I4", "71L5", model="depiction")
    assert plain.hindrance == 0


def test_result_names_its_model():
    board = kernel.load("default")
    assert kernel.los(board, "71I4", "71I6").model == "hex"
    for model in ("depiction", "vasl"):
        result = quiet(kernel.los, board, "71I4", "71I6", model=model)
        assert result.model == model and result.to_dict()["model"] == model
        assert result.explain().startswith(f"LOS 71I4 -> 71I6 (asl, {model} model): ")


# --- every parameter changes the output, every error is raised -----------------------------------------

def test_model_changes_the_output():
    board = kernel.load("default")
    hexes = np.arange(0, len(board), 5)
    ours = quiet(kernel.los_matrix, board, hexes, model="depiction")
    assert (ours != kernel.los_matrix(board, hexes)).any()


def test_location_levels_change_the_output():
    board = kernel.load("default")
    tall = board.index("71P5")
    assert board.top_level[tall] >= 2
    others = np.array([j for j in range(0, len(board), 7) if j != tall])
    ground = quiet(kernel.los_pairs, board, np.full(len(others), tall), others, model="depiction")
    upper = quiet(kernel.los_pairs, board, np.full(len(others), tall), others, levels=2, model="depiction")
    assert upper.visible.sum() > ground.visible.sum()


def test_unknown_model_is_an_error(small_board):
    with pytest.raises(ValueError, match=r"model is 'pixels': expected one of 'hex', 'depiction', 'vasl'"):
        kernel.los_matrix(small_board, model="pixels")


@pytest.mark.parametrize("seed", [21, 22])
def test_smoke_and_vehicles_match_the_reference(seed):
    board = kernel.random_board("asl", 12, 8, seed=seed, max_level=2)
    rng = np.random.default_rng(seed)
    counters, tables = random_counters(board, rng, 15, 10)
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    pairs = rng.integers(0, len(board), (150, 2))
    result = quiet(kernel.los_pairs, board, pairs[:, 0], pairs[:, 1], counters=counters, model="depiction")
    plain = quiet(kernel.los_pairs, board, pairs[:, 0], pairs[:, 1], model="depiction")
    assert (result.hindrance[result.visible & plain.visible] > plain.hindrance[result.visible & plain.visible]).any()
    for k, (a, b) in enumerate(pairs):
        blocked, hindrance = reference.walk(int(a), int(b), counters=tables)
        assert (not result.visible[k]) == blocked, (board.name(int(a)), board.name(int(b)))
        if not blocked:
            assert result.hindrance[k] == hindrance, (board.name(int(a)), board.name(int(b)))
    matrix = quiet(kernel.los_matrix, board, counters=counters, model="depiction")
    assert ((matrix[pairs[:, 0], pairs[:, 1]] == kernel.BLOCKED) == ~result.visible).all()


def test_other_rulesets_are_refused():
    board = kernel.load("ccn-ridge")
    with pytest.raises(ValueError, match=r"model='depiction' needs ASL LOS rules: .*'ccn'"):
        kernel.los_matrix(board, model="depiction")


# --- the command line -------------------------------------------------------------------------------------

def test_cli_depiction_switch(tmp_path, capsys):
    from kernel.cli import main
    import json

    assert main(["los", "71I4", "72M6", "--depiction", "--json"]) in (0, None)
    captured = capsys.readouterr()
    ours = json.loads(captured.out)
    expected = quiet(kernel.los, kernel.load("default"), "71I4", "72M6", model="depiction")
    assert (ours["visible"], ours["hindrance"], ours["model"]) == (expected.visible, expected.hindrance, "depiction")
    # the warning reaches a person as one line, without the Python source location
    assert captured.err.splitlines() == [
        f"hexkernel los: note: {REPO / 'data' / 'scenarios' / 'default.scenario'}: model='depiction' on a map with "
        "no drawn art: its hexes are rasterised, so it follows the hex model (see kernel.maps.art)"]
    assert main(["matrix", "--map", "71", "--depiction", "--out", str(tmp_path / "m.npy"), "--quiet"]) in (0, None)
    assert "note: " in capsys.readouterr().err
    board = kernel.load("71")
    assert (np.load(tmp_path / "m.npy") == quiet(kernel.los_matrix, board, model="depiction")).all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["fire", "--from", "71I4", "--map", "71", "--depiction", "--json"]) in (0, None)
    fire = json.loads(capsys.readouterr().out)
    expected = quiet(kernel.field_of_fire, board, "71I4", model="depiction")
    assert fire["visible"] == expected.visible.tolist()
    assert fire["visible"] != quiet(kernel.field_of_fire, board, "71I4").visible.tolist()


def test_cli_vasl_hindrance_switch(tmp_path, capsys):
    from kernel.cli import main

    board = kernel.load("71")
    for switch, model in (["--depiction"], "depiction"), (["--vasl-hindrance"], "vasl"):
        out = tmp_path / f"{model}.npy"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert main(["matrix", "--map", "71", *switch, "--out", str(out), "--quiet"]) in (0, None)
        capsys.readouterr()
        assert (np.load(out) == quiet(kernel.los_matrix, board, model=model)).all()
    assert (np.load(tmp_path / "depiction.npy") != np.load(tmp_path / "vasl.npy")).any()


def test_cli_depiction_user_error(tmp_path, capsys):
    from kernel.cli import main

    out = tmp_path / "unused.npy"
    assert main(["matrix", "--map", "ccn-ridge", "--depiction", "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "model='depiction' needs ASL LOS rules" in err[0]
    assert not out.exists()   # no partial output


def test_too_many_pixel_classes_is_an_error(monkeypatch):
    import kernel.maps.art as art_module

    board = kernel.random_board("asl", 6, 5, seed=4)
    monkeypatch.setattr(art_module, "MAX_CLASSES", 2)
    with pytest.raises(ValueError, match=r"the map's art has \d+ distinct pixel classes: expected at most 2"):
        art_module.board_art(board)


def test_art_off_whole_pixels_is_an_error():
    from dataclasses import replace

    from kernel.maps.art import LocalArt, PixelClass, _paste
    from kernel.maps.specs import BoardPlacement, BoardSpec

    spec = BoardSpec("even.board", "board", "9", "asl", "geomorphic", "flat", 32, 10)
    spec = replace(spec, art=LocalArt((PixelClass(),), np.zeros((4, 4), np.uint8), np.zeros((4, 4), np.int8)))
    keys = np.zeros((10, 10), np.int64)
    with pytest.raises(ValueError, match=r"even.board: a 32x10 board lies at pixel offset \(1743.75, 0.0\): "
                                         r"expected whole pixels"):
        _paste(keys, np.zeros((10, 10), np.int8), BoardPlacement(spec, 0, 1, False, "9", 3), np.zeros(1, np.int64))


def test_a_hindrance_cap_beyond_the_walk_memory_is_an_error(monkeypatch):
    board = kernel.random_board("asl", 6, 5, seed=5)
    for cap in (64, 0):   # 0, no cap, would let a walk remember more hexes than it has room for
        monkeypatch.setitem(board.ruleset.rules, "hindrance_cap", cap)
        with pytest.raises(ValueError, match=rf"hindrance cap {cap}: expected 1..63 for model='depiction'"):
            kernel.los_matrix(board, model="depiction")


def test_blocks_bits_and_field_of_fire_agree_with_the_matrix(small_board):
    matrix = quiet(kernel.los_matrix, small_board, model="depiction")
    blocks = np.concatenate([rows for _, rows in quiet(kernel.los_matrix_blocks, small_board, block_rows=7,
                                                       model="depiction")])
    assert (blocks == matrix).all()
    bits = quiet(kernel.visibility_bits, small_board, block_rows=5, model="depiction")
    n = len(small_board)
    assert (np.unpackbits(bits, axis=1)[:, :n].astype(bool) == (matrix != kernel.BLOCKED)).all()
    sources = [0, 17, 40]
    fire = quiet(kernel.field_of_fire, small_board, [small_board.name(s) for s in sources], model="depiction")
    seen = matrix[sources] != kernel.BLOCKED
    assert (fire.visible == seen.any(axis=0)).all()
    least = np.where(seen, matrix[sources], 10_000).min(axis=0)
    assert (fire.hindrance == np.where(seen.any(axis=0), least, kernel.BLOCKED)).all()


@pytest.mark.parametrize("first, second, keep, match", [
    ([0, 1], [2], 16, "must be 1-D of one length, got shapes \\(2,\\) and \\(1,\\)"),
    ([0], [10_000], 16, "second holds hex index 10000: expected 0 .. 47"),
    ([-1], [3], 16, "first holds hex index -1"),
    ([0], [3], 0, "keep=0: expected 1 .. 255"),
])
def test_judged_runs_refuses_bad_pairs(first, second, keep, match):
    from kernel.line_of_sight.depiction import judged_runs

    board = kernel.random_board("asl", 8, 6, seed=3)
    with pytest.raises(ValueError, match=match):
        judged_runs(board, np.array(first), np.array(second), keep=keep)


def test_judged_runs_keep_bounds_the_runs_per_pair():
    from kernel.line_of_sight.depiction import judged_runs

    board = kernel.random_board("asl", 8, 6, seed=3)
    n = len(board)
    first, second = np.triu_indices(n, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DepictionWarning)
        _, many = judged_runs(board, first, second, keep=16)
        _, one = judged_runs(board, first, second, keep=1)
    assert many.max() > 1 and one.max() == 1
    assert np.array_equal(one, np.minimum(many, 1))


def test_pixel_point_is_the_centre_of_a_square_pixel_or_the_pixel_itself():
    from kernel.maps._art_kernels import pixel_point

    assert pixel_point(10, 20, 100, 50, 0.5) == (10.5, 20.5)
    assert pixel_point(10, 20, 100, 50, 0.0) == (10.0, 20.0)
    # the map's last column and row lie on the line where it ends: their corner
    assert pixel_point(99, 20, 100, 50, 0.5) == (99.0, 20.0)
    assert pixel_point(10, 49, 100, 50, 0.5) == (10.0, 49.0)


def test_the_rasteriser_samples_square_pixels_at_their_centres(small_board):
    from kernel.maps import _art_kernels as K

    board = small_board
    width, height = map_size(board)
    hex_class = np.arange(len(board), dtype=np.int32) + 1   # each hex its own class
    side_class = np.full((len(board), 6), -1, np.int32)
    out = {}
    for half in (0.0, 0.5):
        out_class = np.zeros((height, width), np.int32)
        out_level = np.zeros((height, width), np.int8)
        K.rasterise_kernel(np.zeros((height, width), np.bool_), np.ascontiguousarray(board.cell_index),
                           board.x.astype(np.int64), board.y.astype(np.int64), hex_class, side_class,
                           board.ground_level.astype(np.int8), half, out_class, out_level)
        out[half] = out_class
    assert (out[0.0] != out[0.5]).any()   # the convention changes the picture near every hexside
    y, x = np.mgrid[0:height - 1, 0:width - 1]
    for half, shown in out.items():
        expected = pixel_hexes(board, (x + half).astype(float).ravel(), (y + half).astype(float).ravel()) + 1
        assert (shown[:height - 1, :width - 1].ravel() == np.where(expected > 0, expected, 0)).all()



# --- a LOS along hexsides: VASL's reading (model="vasl") and the rules' (model="depiction") ----------------

def _hexside_run_board(tmp_path, hexes, level=0):
    """A hand-built 7 x 5 board of open ground at ``level`` but ``hexes``: C3 -> E3 runs at 0 degrees along
    the hexside D2/D3, both at range 1 from either end."""
    from tests.board_text import board_from_text, board_text

    return board_from_text(board_text(hexes, columns=7, rows=5, default_level=level), tmp_path)


def test_an_orchard_beside_a_hexside_run_blocks_from_above_in_vasls_reading(tmp_path):
    # docs/vasl-agreement.md, "A LOS along hexsides": VASL judges each pixel of the run (an odd range from the
    # viewer) as each hex beside the hexside, the orchard D3 as its terrain at the pixel's ground whatever is
    # drawn there: a one-level obstacle to a LOS from above it (B14.2), which the level-1 hill C3 has no
    # height advantage over (A6.2): blocked at D3.  The rules' reading (B.6): the orchard only hinders, +1.
    board = _hexside_run_board(tmp_path, {"C3": (1, []), "D3": (0, ["orchard"])})
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    for viewer, target in (("C3", "E3"), ("E3", "C3")):
        a, b = board.index(viewer), board.index(target)
        assert reference.along_hexsides(a, b)
        vasl = reference.detail(a, b, per_range=True)
        assert (vasl["blocked"], vasl["reason"], board.name(vasl["blocked_at"])) == (True, "obstacle", "D3")
        assert reference.walk(a, b) == (False, 1)
        result = quiet(kernel.los, board, viewer, target, model="vasl")
        assert (result.visible, result.blocked_at_name, result.reason_name) == (False, "D3", "obstacle")
        result = quiet(kernel.los, board, viewer, target, model="depiction")
        assert (result.visible, result.hindrance) == (True, 1)
    # a run past no orchard (C2 -> E2, along D1/D2): the same answer in both readings
    a, b = board.index("C2"), board.index("E2")
    assert reference.along_hexsides(a, b) and reference.walk(a, b, per_range=True) == reference.walk(a, b) == (False, 0)


@pytest.mark.parametrize("hexes", [
    # D2's woods art on the run, where another hex's art shows shellholes alone (an exact class)
    {"D2": (0, ["woods", "shellholes"]), "A1": (0, ["shellholes"])},
    # no class shows shellholes alone: the hex beside the run is judged as that terrain, not as its art's class
    {"D2": (0, ["woods", "shellholes"])},
    {"D3": (0, ["woods", "shellholes"])},
    {"D3": (0, ["brush", "shellholes"])},
], ids=["art beside an exact class", "woods art, D2", "woods art, D3", "brush art, D3"])
def test_a_hex_of_inherent_terrain_beside_a_hexside_run_is_that_terrain_alone_in_vasls_reading(tmp_path, hexes):
    # docs/vasl-agreement.md, "A LOS along hexsides": VASL judges a pixel of the run in a hex of inherent terrain
    # as that terrain whatever is drawn under it, and the other hex beside the hexside as its inherent terrain
    # too: shellholes (inherent, no hindrance, B2.2) with woods or brush drawn over them neither block nor
    # hinder C3 -> E3 (the vasl model had judged the woods art, blocked, or the class drawing the shellholes
    # with brush, +1)
    board = _hexside_run_board(tmp_path, hexes)
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    for viewer, target in (("C3", "E3"), ("E3", "C3")):
        a, b = board.index(viewer), board.index(target)
        assert reference.walk(a, b, per_range=True) == (False, 0)
        result = quiet(kernel.los, board, viewer, target, model="vasl")
        assert (result.visible, result.hindrance) == (True, 0), (viewer, target)


@pytest.mark.parametrize("seed, viewer, target, expected", [
    (15, "C5", "E5", (False, 3)),   # D5 shellholes with brush beside D4's SMOKE +2 and vehicle: brush not counted
    (26, "F3", "G5", (False, 0)),   # G4 shellholes in a wooden building's art: no obstacle on the run
    (29, "F2", "G1", (False, 0)),   # G2 shellholes with woods: the woods art spills into F1 across the hexside
    (34, "B4", "D4", (True, 0)),    # building art in C5 (of inherent terrain) is judged as C4 across: blocks
], ids=lambda value: str(value))
def test_the_vasl_model_judges_the_hexes_beside_a_run_as_the_reference_on_the_registrys_maps(seed, viewer,
                                                                                            target, expected):
    # the registry's maps (tests.comparisons.case), counters included: a pixel of a run in a hex of inherent
    # terrain is that terrain; its art counts only as the hex across, where that hex has none (B.6 spill rule)
    from tests.comparisons import case

    board, counters = case("asl", seed)
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    a, b = board.index(viewer), board.index(target)
    for first, second in ((a, b), (b, a)):
        assert reference.walk(first, second, per_range=True, counters=depiction_counters(board, counters)) == expected
        result = quiet(kernel.los, board, first, second, model="vasl", counters=counters)
        assert (not result.visible, result.hindrance) == expected, (board.name(first), board.name(second))


def test_the_vasl_reading_adds_a_pixel_class_for_inherent_terrain_the_art_draws_only_with_other_terrain():
    from kernel.line_of_sight._depiction.vasl_runs import inherent_classes

    # classes: open, orchard + brush (levels 0), woods + shellholes (building levels 2 as a marker), shellholes
    class_terrain = np.array([0, 0b0011, 0b1100, 0b1000], np.uint32)
    class_levels = np.array([0, 0, 2, 0], np.int8)
    # hexes: orchard (drawn only with brush), shellholes (has an exact class), orchard + shellholes (no class)
    terrain, levels = inherent_classes(np.array([0b0011, 0b1100, 0b1001]), class_terrain, class_levels, 0b1001)
    assert terrain.tolist() == [0b0001] and levels.tolist() == [0] and terrain.dtype == np.uint32


def test_smoke_beside_a_hexside_run_counts_once_per_range_in_vasls_reading(tmp_path):
    # docs/vasl-agreement.md, "Counters beside a hexside run" and "SMOKE and vehicles once per range": the run
    # C3 -> E3 meets the SMOKE of both D2 (+2) and D3 (+3), at one range: VASL keeps the larger, +3 (D2's +2,
    # then D3's difference; not +5); the rules' walk counts the SMOKE of the hex its pixels lie in, D2: +2
    board = _hexside_run_board(tmp_path, {})
    counters = kernel.Counters.on(board, smoke={"D2": 2, "D3": 3})
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    tables = depiction_counters(board, counters)
    d2, d3 = board.index("D2"), board.index("D3")
    for viewer, target in (("C3", "E3"), ("E3", "C3")):
        a, b = board.index(viewer), board.index(target)
        vasl = reference.detail(a, b, per_range=True, counters=tables)
        assert (vasl["blocked"], vasl["hindrance"], vasl["drm_by_hex"]) == (False, 3, {d2: 2, d3: 1})
        rules = reference.detail(a, b, counters=tables)
        assert (rules["blocked"], rules["hindrance"], rules["drm_by_hex"]) == (False, 2, {d2: 2})
        result = quiet(kernel.los, board, viewer, target, counters=counters, model="vasl")
        assert (result.visible, result.hindrance) == (True, 3)
        assert [(step.hex, step.hindrance) for step in result.steps if step.hindrance] == [("D2", 2), ("D3", 1)]
        result = quiet(kernel.los, board, viewer, target, counters=counters, model="depiction")
        assert (result.visible, result.hindrance) == (True, 2)


def test_the_vasl_reference_reads_art_a_pixel_past_an_ends_hexside_as_that_ends(tmp_path):
    # docs/vasl-agreement.md, "An end's hex": VASL's engine reads a pixel inside an end's extended border
    # (its vertices truncated to whole pixels and moved a pixel outwards, java.awt.Polygon.contains) as that
    # end's.  E3's centre dot is pixel (225, 161.25): the border reaches x = 186 .. 262 on its centre row.
    board = _hexside_run_board(tmp_path, {})
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    e3 = board.index("E3")
    inside = [(225, 161), (186, 161), (262, 161), (248, 187), (225, 128)]
    outside = [(263, 161), (185, 161), (250, 187), (225, 195), (300, 161)]
    assert [reference.in_extended_border(e3, x, y) for x, y in inside] == [True] * len(inside)
    assert [reference.in_extended_border(e3, x, y) for x, y in outside] == [False] * len(outside)
    # the registry's seed-7 map: C2 -> D3 (60 degrees, along C3/D2) leaves C2 at a vertex over marsh art drawn
    # in C2, which the pixel's corner puts nearest C3's centre dot: inside C2's extended border, not counted
    from tests.comparisons import case

    board, _ = case("asl", 7)
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    for viewer, target in (("C2", "D3"), ("D3", "C2")):
        a, b = board.index(viewer), board.index(target)
        assert reference.along_hexsides(a, b) and reference.walk(a, b, per_range=True) == (False, 0)
        result = quiet(kernel.los, board, viewer, target, model="vasl")
        assert (result.visible, result.hindrance) == (True, 0)


def _crest_beside_a_run(tmp_path):
    """D2 (level 1) -> B2 (level 0) runs along the hexside C2/C3 at range 1 from D2, C2 at D2's level and C3
    below it; pixels of the run are drawn at level 1 (C2's art)."""
    return _hexside_run_board(tmp_path, {"C2": (1, []), "D2": (1, [])})


def test_ground_at_the_higher_ends_level_beside_a_run_blocks_in_the_reference(tmp_path):
    # A pixel of the run at D2's level judged as C2 is ground at the higher end's level in a hex whose own
    # ground is not lower (A6.2; the crest line exception, B10.2 EXC, is for a hex below it): blocked at C2,
    # as VASL's engine blocks such a pixel ("Must have a height advantage"; it has no crest exception) and as
    # the depiction model does
    board = _crest_beside_a_run(tmp_path)
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    for viewer, target in (("D2", "B2"), ("B2", "D2")):
        a, b = board.index(viewer), board.index(target)
        vasl = reference.detail(a, b, per_range=True)
        assert (vasl["blocked"], vasl["reason"], board.name(vasl["blocked_at"])) == (True, "hill", "C2")
        assert reference.walk(a, b) == (True, 0)
        result = quiet(kernel.los, board, viewer, target, model="depiction")
        assert (result.visible, result.blocked_at_name, result.reason_name) == (False, "C2", "hill")


def test_the_vasl_model_blocks_at_ground_at_the_higher_ends_level_beside_a_run(tmp_path):
    # as the reference: the run's pixels at D2's level drawn in the lower C3 are also C2's, whose own ground is
    # at D2's level: no crest line there (docs/vasl-agreement.md, 'A LOS along hexsides')
    board = _crest_beside_a_run(tmp_path)
    for viewer, target in (("D2", "B2"), ("B2", "D2")):
        result = quiet(kernel.los, board, viewer, target, model="vasl")
        assert (result.visible, result.blocked_at_name, result.reason_name) == (False, "C2", "hill")
        assert not quiet(kernel.can_see, board, viewer, target, model="vasl")
    # the same hill without C2 raised: the crest exception holds, the LOS is clear
    (tmp_path / "flat").mkdir()
    board = _hexside_run_board(tmp_path / "flat", {"D2": (1, [])})
    assert quiet(kernel.los, board, "D2", "B2", model="vasl").visible


def test_the_vasl_reference_binds_a_lower_end_in_a_depression_only_within_the_range(tmp_path):
    # docs/vasl-agreement.md, "Into a depression": VASL's A6.3 binds a LOS to a lower end IN its depression
    # only while the other end is fewer levels higher than the range.  C3 is a gully at level 0 among level-1
    # hexes: E4 (level 2, range 2) sees it past the bank D3 in VASL's reading, F4 (level 2, range 3) does not;
    # the rules' reading keeps the banks around C3 for both
    board = _hexside_run_board(tmp_path, {"C3": (0, ["gully"]), "E4": (2, []), "F4": (2, [])}, level=1)
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    for other, vasl_sees in (("E4", True), ("F4", False)):
        for viewer, target in (("C3", other), (other, "C3")):
            a, b = board.index(viewer), board.index(target)
            assert reference.walk(a, b, per_range=True)[0] is not vasl_sees
            assert reference.detail(a, b)["reason"] == "hill" and board.name(reference.detail(a, b)["blocked_at"]) == "D3"
            assert quiet(kernel.los, board, viewer, target, model="vasl").visible is vasl_sees
            assert not quiet(kernel.los, board, viewer, target, model="depiction").visible


# --- a LOS out of a building: VASL's reading of A6.8 Example 2 (model="vasl") and the rules' ----------------

def _vasl_and_rules(board, viewer, target):
    """The reference's answers for one viewer -> target pair of Locations: VASL's reading (per range) as
    ``(blocked, reason, blocked_at name)``, the same walk without the viewer's rules, and the rules' reading."""
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    (a, la), (b, lb) = board.location(viewer), board.location(target)
    vasl = reference.detail(a, b, la, lb, per_range=True)
    walk_alone = reference.detail(a, b, la, lb, per_range=True, viewer_rules=False)
    where = board.name(vasl["blocked_at"]) if vasl["blocked_at"] >= 0 else None
    return (vasl["blocked"], vasl["reason"], where), walk_alone["blocked"], reference.walk(a, b, la, lb)[0]


@pytest.mark.parametrize("viewer, target, vasl_blocks", [
    ("C4", "C3h1", True), ("C3h1", "C4", True),    # at different heights, the viewer no higher than the building
    ("C4", "C3h2", True), ("C3h2", "C4", False),   # one way only: C3h2 stands above C4's single storey
    ("C3", "C4", False),                           # one height: no such rule
])
def test_the_vasl_reference_blocks_a_los_that_must_first_leave_its_building(tmp_path, viewer, target, vasl_blocks):
    # docs/vasl-agreement.md, "Leaving the building": a LOS from a building Location to one at another height
    # that enters another hex over building art before it leaves its building is blocked, at the target's hex
    # (docs/los-semantics.md section 6), unless the viewer stands above that hex's building (its ground plus
    # its upper levels, at least one); VASL tests it from the viewer.  C3 (two upper levels) and C4 (a single
    # storey) are drawn as one building.  The rules' reading keeps the ends' hexes out of every LOS: clear
    board = _hexside_run_board(tmp_path, {"C3": (0, ["stone-building"], "levels=2"), "C4": (0, ["wooden-building"])})
    vasl, walk_alone, rules_blocked = _vasl_and_rules(board, viewer, target)
    assert vasl == ((True, "inside building", target[:2]) if vasl_blocks else (False, None, None))
    assert not walk_alone and not rules_blocked
    assert quiet(kernel.los, board, viewer, target, model="vasl").visible is not vasl_blocks
    assert quiet(kernel.los, board, viewer, target, model="depiction").visible


def test_the_vasl_reference_follows_vasls_trace_out_of_the_building(tmp_path):
    # the rule holds along VASL's pixel trace at any range: D2h1 -> D4 (range 2) enters D3, a single storey
    # of the same building art, before leaving it, and D2h1 is no higher than D3's building: blocked, where the
    # walk alone sees over D3 (D2h1 as high as its top); D4 -> D2h1 stands above both, and with open ground
    # in D3 the trace leaves the building there: clear
    from tests.reference.vasl_building_reference import must_leave_building_at

    hexes = {"D2": (0, ["stone-building"], "levels=1"), "D3": (0, ["wooden-building"]), "D4": (2, ["wooden-building"])}
    board = _hexside_run_board(tmp_path, hexes)
    assert _vasl_and_rules(board, "D2h1", "D4") == ((True, "inside building", "D4"), False, False)
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    assert board.name(must_leave_building_at(reference, *board.location("D2h1"), *board.location("D4"))) == "D3"
    assert _vasl_and_rules(board, "D4", "D2h1") == ((False, None, None), False, False)
    assert not quiet(kernel.los, board, "D2h1", "D4", model="vasl").visible
    assert quiet(kernel.los, board, "D4", "D2h1", model="vasl").visible
    (tmp_path / "open").mkdir()
    board = _hexside_run_board(tmp_path / "open", {name: hexes[name] for name in ("D2", "D4")})
    assert _vasl_and_rules(board, "D2h1", "D4") == ((False, None, None), False, False)
    assert quiet(kernel.los, board, "D2h1", "D4", model="vasl").visible


@pytest.mark.parametrize("seed, viewer, target, vasl_blocks", [
    (8, "F1", "G2", True), (8, "G2", "F1", True), (8, "G2", "F1h2", True), (8, "F1h1", "G2", False),
    (11, "C4", "C5h1", True), (11, "C5h1", "C4", True),
], ids=lambda value: str(value))
def test_the_vasl_reference_leaves_the_building_as_the_vasl_model_on_the_registrys_maps(seed, viewer, target,
                                                                                        vasl_blocks):
    # the registry's maps (tests.comparisons.case): seed 8's F1 (a stone building of two upper levels on level 1)
    # and G2 (a single storey at level 0), seed 11's C4 (a single storey) and C5 (a stone building of one upper
    # level), both at level 0: adjacent hexes drawn as one building, the ends at different heights
    from tests.comparisons import case

    board, _ = case("asl", seed)
    vasl, walk_alone, rules_blocked = _vasl_and_rules(board, viewer, target)
    assert vasl[0] is vasl_blocks and not walk_alone and not rules_blocked
    assert quiet(kernel.los, board, viewer, target, model="vasl").visible is not vasl_blocks


def _depressions_at_both_ends(tmp_path, higher_end_terrain):
    """C2 -> E2 (range 2) runs at 0 degrees along the hexside D1/D2: C2 a stream at level 0 whose banks D1 and D2
    are at level 1, E2 at level 2 with ``higher_end_terrain``."""
    hexes = {"C2": (0, ["stream"]), "D1": (1, []), "D2": (1, []), "E2": (2, higher_end_terrain)}
    return _hexside_run_board(tmp_path, hexes)


@pytest.mark.parametrize("higher_end_terrain", [["gully"], []], ids=["E2 in a gully", "E2 open"])
def test_the_vasl_reference_frees_a_lower_end_whatever_the_higher_end_is_in(tmp_path, higher_end_terrain):
    # docs/vasl-agreement.md, "Into a depression": the lower end C2's banks bind only while the other end is
    # fewer levels higher than the range; E2 is two levels higher at range 2, in a depression of its own or
    # not (the registry's seed-4 map has this pair): VASL's reading sees, the rules' (A6.3) block at a bank
    board = _depressions_at_both_ends(tmp_path, higher_end_terrain)
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    for viewer, target in (("C2", "E2"), ("E2", "C2")):
        a, b = board.index(viewer), board.index(target)
        assert reference.walk(a, b, per_range=True) == (False, 0)
        rules = reference.detail(a, b)
        assert (rules["blocked"], rules["reason"], board.name(rules["blocked_at"])) == (True, "hill", "D2")
        assert not quiet(kernel.los, board, viewer, target, model="depiction").visible


@pytest.mark.parametrize("higher_end_terrain", [["gully"], []], ids=["E2 in a gully", "E2 open"])
def test_the_vasl_model_frees_a_lower_end_whatever_the_higher_end_is_in(tmp_path, higher_end_terrain):
    board = _depressions_at_both_ends(tmp_path, higher_end_terrain)
    for viewer, target in (("C2", "E2"), ("E2", "C2")):
        assert quiet(kernel.los, board, viewer, target, model="vasl").visible
        assert not quiet(kernel.los, board, viewer, target, model="depiction").visible   # the rules (A6.3)


LEFT_THE_BUILDING = [(14, "G4h1", "G5"), (34, "E2", "D5h1"), (39, "B1", "F5")]


@pytest.mark.parametrize("seed, viewer, target", LEFT_THE_BUILDING, ids=lambda value: str(value))
def test_the_vasl_reference_lets_a_los_that_left_its_building_through(seed, viewer, target):
    # the registry's maps (tests.comparisons.case): VASL's trace from the building hex's centre meets ground that
    # is no building terrain (in the viewer's hex or the next) and no building art beyond it (an open hex, a
    # bridge deck): outside its building from there on, the LOS is clear (docs/vasl-agreement.md, "Leaving the
    # building"), and no other rule blocks it
    from tests.comparisons import case
    from tests.reference.vasl_building_reference import must_leave_building_at

    board, _ = case("asl", seed)
    (a, la), (b, lb) = board.location(viewer), board.location(target)
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    assert reference.building[int(reference.art_class[math.floor(reference.cx[a]), math.floor(reference.cy[a])])]
    assert must_leave_building_at(reference, a, la, b, lb) == -1
    assert reference.walk(a, b, la, lb, per_range=True) == (False, 0)


@pytest.mark.parametrize("seed, viewer, target", LEFT_THE_BUILDING, ids=lambda value: str(value))
def test_the_vasl_model_lets_a_los_that_left_its_building_through(seed, viewer, target):
    # a pixel on the hexside row below the viewer's hex lies in its extended border: VASL reads it as the
    # viewer's hex, not as the hex below, so the building art there enters no other hex
    from tests.comparisons import case

    board, _ = case("asl", seed)
    assert quiet(kernel.los, board, viewer, target, model="vasl").visible
