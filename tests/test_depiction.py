"""The depiction LOS model: the map's art, the pixel-walk kernel against its slow reference,
golden cases from ASL B.1 on real boards, and the hex model on boards without art.

Tests that need ``../shared/vasl`` skip cleanly without it.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import kernel
from kernel.line_of_sight.depiction import DepictionWarning, depiction_matrix
from kernel.grid.pixels import UNIT_X, UNIT_Y
from kernel.maps.art import board_art, map_size, pixel_hexes
from tests.comparisons import COMPARISONS
from tests.shared_data import needs, quiet, vasl_folder

REPO = Path(__file__).resolve().parents[1]
VASL = vasl_folder()
needs_vasl = needs("vasl")


@pytest.fixture(scope="module")
def vasl_boards():
    if not VASL.is_dir():
        pytest.skip("VASL board data (../shared/vasl) not present")
    return {n: quiet(kernel.load_vasl_board, VASL / f"bd0{n}") for n in (2, 4)}


@pytest.fixture(scope="module")
def small_board():
    return kernel.random_board("asl", 9, 6, seed=3, max_level=2)


def depiction(board, a, b, **kwargs):
    return quiet(kernel.los_pairs, board, [a], [b], model="depiction", **kwargs)


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


@needs_vasl
def test_a_vasl_board_keeps_its_pixels(vasl_boards):
    board = vasl_boards[2]
    art = board_art(board)
    spec_art = board.placements[0].board.art
    assert art.drawn and art.bytes_per_pixel == 2
    w, h = spec_art.terrain.shape
    assert (art.elevation[:w, :h] == spec_art.elevation).all()
    # each local class keeps its terrain: 2I9 holds woods and a wooden building's pixels
    names = {board.ruleset.terrain_names[t] for c in np.unique(art.terrain[400:500, 520:580])
             for t in range(32) if int(art.class_terrain[c]) >> t & 1}
    assert {"woods", "wooden-building"} <= names
    assert art.nbytes == 2 * art.pixels.size and art.pixels.shape == art.terrain.shape[::-1]


@needs_vasl
def test_the_last_row_and_column_of_a_drawn_map_show_the_art_beside_them(vasl_boards):
    # VASL's art covers [0, 1800) x [0, 645); the map's last pixels (x = 1800, y = 645) lie on the line where
    # it ends and show the drawn pixels beside them, not the hex model rasterised (a LOS along the board's
    # bottom edge, 2V10 -> 2T10, walks them: the woods hex 2U10's art does not reach the edge)
    board = vasl_boards[2]
    art = board_art(board)
    w, h = board.placements[0].board.art.terrain.shape
    assert art.terrain.shape == (w + 1, h + 1)
    assert (art.pixels[-1, :] == art.pixels[-2, :]).all() and (art.pixels[:, -1] == art.pixels[:, -2]).all()
    assert (art.elevation[:w, :h] == board.placements[0].board.art.elevation).all()
    assert quiet(kernel.los, board, "2V10", "2T10", model="depiction").visible
    assert _vasl_engine_sees(2, "2V10", "2T10") in (True, None)
    # a map without drawn art rasterises its last pixels from its hexes
    plain = board_art(kernel.load("default"))
    assert not plain.drawn and (plain.pixels[-1, :] != plain.pixels[-2, :]).any()


@needs_vasl
def test_a_rotated_vasl_board_is_placed_upside_down_beside_a_bundled_one(tmp_path):
    scenario = tmp_path / "mixed.scenario"
    scenario.write_text(f"[scenario]\ntitle = mixed\nruleset = asl\n\n[boards]\n0 0 {VASL / 'bd02'} rotated\n0 1 71\n")
    board = quiet(kernel.load, scenario)
    art = board_art(board)
    local = board.placements[0].board.art
    assert art.drawn and art.terrain.shape == map_size(board)
    w, h = local.terrain.shape
    # local pixel (x, y) of the rotated 1800 x 645 board lies at (1799 - x, 644 - y): its square turned, as VASL
    # flips a rotated board's pixels
    assert (w, h) == (1800, 645)
    x, y = np.meshgrid(np.arange(0, w, 37), np.arange(0, h, 23), indexing="ij")
    assert (art.elevation[1799 - x, 644 - y] == local.elevation[x, y]).all()
    # board 71 (no art of its own) is rasterised from its hexes right of the seam
    i = board.index("71I4")
    assert art.elevation[int(board.x[i] * UNIT_X), int(board.y[i] * UNIT_Y)] == board.ground_level[i]


# --- the kernel against its reference ----------------------------------------------------------------

def _check_against_reference(board, pairs, levels=None, per_range=False):
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


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kernel_matches_reference_on_random_boards(seed):
    board = kernel.random_board("asl", 12, 8, seed=seed, max_level=3)
    rng = np.random.default_rng(seed)
    pairs = rng.integers(0, len(board), (150, 2))
    top = board.top_level
    levels = np.stack([rng.integers(0, top[pairs[:, 0]] + 1), rng.integers(0, top[pairs[:, 1]] + 1)], axis=1)
    _check_against_reference(board, pairs, levels)


@needs_vasl
@pytest.mark.parametrize("seed", [11, 12])
def test_kernel_matches_reference_on_vasl_boards(vasl_boards, seed):
    board = vasl_boards[2 if seed == 11 else 4]
    rng = np.random.default_rng(seed)
    _check_against_reference(board, rng.integers(0, len(board), (120, 2)))


@needs_vasl
def test_vasl_hindrance_reading_matches_reference_and_changes_the_output(vasl_boards):
    board = vasl_boards[4]
    per_hex = quiet(kernel.los_matrix, board, model="depiction")
    per_range = quiet(kernel.los_matrix, board, model="vasl")
    assert (per_hex != per_range).any()
    hexes = np.arange(len(board))
    assert (quiet(depiction_matrix, board, hexes, np.zeros(len(board), np.int64), per_range=True) == per_range).all()
    pairs = quiet(kernel.los_pairs, board, np.repeat(hexes[:40], 40), np.tile(hexes[-40:], 40), model="vasl")
    assert (pairs.hindrance[pairs.visible] == per_range[np.repeat(hexes[:40], 40), np.tile(hexes[-40:], 40)][pairs.visible]).all()
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    rows, cols = np.nonzero(per_hex != per_range)
    for i, j in list(zip(rows, cols))[:20]:
        blocked, hindrance = reference.walk(int(i), int(j), per_range=True)
        assert (per_range[i, j] == kernel.BLOCKED) == blocked
        if not blocked:
            assert per_range[i, j] == hindrance


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


# --- golden cases from ASL B.1 on board 2 and board 4 --------------------------------------------------

@needs_vasl
@pytest.mark.parametrize("viewer, target", [("4X9", "4Y8"), ("4W8", "4Y10")])
def test_building_drawn_away_from_the_centre_dot_is_seen_past(vasl_boards, viewer, target):
    # B.1: 4X8 is a building hex whose centre dot does not touch the building: a LOS may be traced
    # through it as if it were Open Ground, provided the building depiction is not crossed (VASL: clear)
    board = vasl_boards[4]
    assert "stone-building" in board.terrain_of("4X8") or "wooden-building" in board.terrain_of("4X8")
    hex_model = kernel.los(board, viewer, target, model="hex")
    assert not hex_model.visible and hex_model.blocked_at_name == "4X8"
    assert depiction(board, viewer, target).visible[0]


@needs_vasl
@pytest.mark.parametrize("viewer, target", [("2H9", "2J9"), ("2I8", "2I10")])
def test_building_woods_hex_blocks(vasl_boards, viewer, target):
    # B.1: 2I9 is a combination building-woods hex; a LOS through its art is blocked (VASL: blocked)
    board = vasl_boards[2]
    result = depiction(board, viewer, target)
    assert not result.visible[0] and board.name(int(result.blocked_at[0])) == "2I9"


@needs_vasl
def test_building_woods_hex_touched_but_not_crossed(vasl_boards):
    # the hex model blocks 2I10-2J8 at 2I9; the line misses its drawn woods and building (VASL: clear)
    board = vasl_boards[2]
    assert not kernel.los(board, "2I10", "2J8", model="hex").visible
    assert depiction(board, "2I10", "2J8").visible[0]


@needs_vasl
def test_hedge_on_a_hexside_touching_an_end_is_ignored(vasl_boards):
    # B9.2 as VASL applies it: the line 4O3-4Q1 crosses hedge art in 4P1, on a hexside of 4P1 that
    # runs out from a vertex of the target 4Q1: the target's own, not intervening (VASL: clear)
    from bench.vasl_engine import BLOCKED_BY_VASL, load_engine_results

    board = vasl_boards[4]
    result = quiet(kernel.los, board, "4O3", "4Q1", model="depiction")
    met = [(step.hex, step.kind.split(" art")[0], step.effect) for step in result.steps]
    assert ("4P1", "hedge", "none") in met
    assert result.visible and depiction(board, "4O3", "4Q1").visible[0]
    engine = load_engine_results(4, None)
    names = [str(name) for name in engine["hexes"]]
    assert engine["status"][names.index("4O3"), names.index("4Q1")] != BLOCKED_BY_VASL


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


def _explained_against_reference(board, pairs, levels, counters=None, counter_tables=None):
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


@pytest.mark.parametrize("seed", [31, 32])
def test_explain_matches_the_reference_walk(seed):
    board = kernel.random_board("asl", 14, 9, seed=seed, max_level=3)
    rng = np.random.default_rng(seed)
    counters, tables = random_counters(board, rng, 20, 10)
    pairs = rng.integers(0, len(board), (120, 2))
    top = board.top_level
    levels = np.stack([rng.integers(0, top[pairs[:, 0]] + 1), rng.integers(0, top[pairs[:, 1]] + 1)], axis=1)
    _explained_against_reference(board, pairs, levels)
    _explained_against_reference(board, pairs, levels, counters, tables)


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
    _explained_against_reference(board, np.array([[a, b], [b, a]]), np.zeros((2, 2), np.int64))
    if kind == "default":   # the block outranks the blind hex, as in the hex model
        assert quiet(kernel.los, board, viewer, target, model="depiction").reason_name == "obstacle" == \
            kernel.los(board, viewer, target).reason_name


@pytest.mark.parametrize("seed", [51, 52])
def test_explain_matches_the_reference_walk_among_many_walls(seed):
    board = kernel.random_board("asl", 14, 9, seed=seed, max_level=3, hexside_density=0.35)
    rng = np.random.default_rng(seed)
    pairs = rng.integers(0, len(board), (150, 2))
    _explained_against_reference(board, pairs, np.zeros_like(pairs))


@needs_vasl
def test_explain_matches_the_reference_walk_on_a_vasl_board(vasl_boards):
    board = vasl_boards[4]
    rng = np.random.default_rng(41)
    pairs = rng.integers(0, len(board), (100, 2))
    _explained_against_reference(board, pairs, np.zeros_like(pairs))


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
    _explained_against_reference(board, pairs, np.zeros_like(pairs))


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


# --- rule readings checked on every board with VASL engine results (docs/vasl-agreement.md) --------------

@pytest.fixture(scope="module")
def more_vasl_boards():
    if not (VASL / "bd08").is_dir():
        pytest.skip("VASL boards 8, 9, 34 and 70 (../shared/vasl) not present")
    return {n: quiet(kernel.load_vasl_board, VASL / f"bd{n:02d}") for n in (8, 9, 34, 70)}


def _vasl_engine_sees(board_number: int, viewer: str, target: str) -> bool | None:
    """VASL's engine answer for the pair (None when its results are absent)."""
    from bench.vasl_engine import CLEAR, engine_folder, load_engine_results

    if not (engine_folder() / f"bd{board_number:02d}.npz").is_file():
        return None
    engine = load_engine_results(board_number)
    names = [str(name) for name in engine["hexes"]]
    return bool(engine["status"][names.index(viewer), names.index(target)] == CLEAR)


@pytest.mark.parametrize("model", ["depiction", "vasl"])
def test_crest_line_in_an_adjacent_lower_hex_does_not_block(more_vasl_boards, model):
    # B10.2 EXC: 8A3 (level 0) -> 8A5 (a water hex at level -1): the LOS meets level-0 art at the board's
    # edge inside 8A4, a water hex at level -1 next to the higher end: the crest line the LOS leaves 8A3
    # across, no height advantage (before: blocked at 8A4, "hill"; VASL: clear)
    board = more_vasl_boards[8]
    assert board.ground_level[board.index("8A4")] == -1
    result = quiet(kernel.los, board, "8A3", "8A5", model=model)
    assert result.visible and _vasl_engine_sees(8, "8A3", "8A5") in (True, None)
    _check_against_reference(board, np.array([[board.index("8A3"), board.index("8A5")]]))


def test_crest_line_exception_not_toward_a_unit_in_a_depression(more_vasl_boards):
    # A6.3 decides a LOS to a unit IN a depression: 34U7 (level -1, in the stream) -> 34W6 (level 0) meets
    # level-0 art in 34V6, next to the higher end and lower than it, and stays blocked there (VASL:
    # "Exits depression before range/elevation restrictions are satisfied")
    board = more_vasl_boards[34]
    result = quiet(kernel.los, board, "34U7", "34W6", model="depiction")
    assert (result.visible, result.reason_name, result.blocked_at_name) == (False, "hill", "34V6")
    assert _vasl_engine_sees(34, "34U7", "34W6") in (False, None)
    _check_against_reference(board, np.array([[board.index("34U7"), board.index("34W6")]]))


def test_inherent_terrain_drawn_into_another_hex_is_not_that_hexs_terrain(more_vasl_boards):
    # B.6: crag is inherent terrain, the whole hex; 9K7 -> 9DD8 crosses crag art spilling a pixel or two
    # into 9L7, 9R7, 9T7 and 9CC8, which are not crag hexes: only 9M7 and 9S8 hinder (+2, VASL +2;
    # before: +6, blocked)
    board = more_vasl_boards[9]
    result = quiet(kernel.los, board, "9K7", "9DD8", model="depiction")
    assert result.visible and result.hindrance == 2
    hindering = {step.hex for step in result.steps if step.hindrance > 0}
    assert hindering == {"9M7", "9S8"} and all("crag" in board.terrain_of(h) for h in hindering)
    spilled = {step.hex for step in result.steps if step.kind.startswith("crag") and step.hindrance == 0}
    assert spilled and not any("crag" in board.terrain_of(h) for h in spilled - hindering)
    _check_against_reference(board, np.array([[board.index("9K7"), board.index("9DD8")]]))


def test_hindrance_hexes_beside_a_hexside_the_los_runs_along_count_once():
    # B.6: a LOS exactly along a hexside shared by two hindrance hexes passes through one of them, not two
    # (the hex model's A6.1 reading of any hindrance along a hexside too).  35V9 -> 35Y5 runs along the
    # hexsides 35V8/35W9, 35W7/35X7 and 35X5/35Y6, orchard on both sides of each, and crosses 35W8: +4, as
    # the hex model and VASL (before: +6, blocked)
    if not (VASL / "bd35").is_dir():
        pytest.skip("VASL board 35 (../shared/vasl) not present")
    board = quiet(kernel.load_vasl_board, VASL / "bd35")
    result = quiet(kernel.los, board, "35V9", "35Y5", model="depiction")
    assert result.visible and result.hindrance == 4
    assert quiet(kernel.los, board, "35V9", "35Y5").hindrance == 4
    drm = {}
    for step in result.steps:
        drm[step.hex] = drm.get(step.hex, 0) + step.hindrance
    for pair in (("35V8", "35W9"), ("35W7", "35X7"), ("35X5", "35Y6")):
        assert all(hex_ in drm for hex_ in pair) and sum(drm[hex_] for hex_ in pair) == 1
    assert drm["35W8"] == 1
    assert _vasl_engine_sees(35, "35V9", "35Y5") in (True, None)
    # the kernel against the reference on LOS along hexsides (0 and +-60 degrees) of this orchard board
    x, y = board.x.astype(np.int64), board.y.astype(np.int64)
    dx, dy = x[None, :] - x[:, None], y[None, :] - y[:, None]
    spines = np.argwhere(((dy == 0) | (np.abs(dx) == np.abs(dy))) & (dx > 0))
    pairs = spines[np.random.default_rng(35).permutation(len(spines))[:60]]
    _check_against_reference(board, np.vstack([[board.index("35V9"), board.index("35Y5")], pairs]))


@pytest.mark.parametrize("model", ["depiction", "vasl"])
def test_hedge_art_past_the_far_vertex_of_an_ends_walled_hexspine_is_ignored(more_vasl_boards, model):
    # B9 (the hex model's reading of a LOS along a wall hexspine touching an end): 8K4 -> 8G4 runs along the
    # hedge on the 8H4/8H5 hexside, which runs out from a vertex of 8G4; its far vertex has no hedge on its
    # two other hexsides, so the hedge art drawn on past it into 8I4 does not block (before: blocked at 8I4;
    # VASL: clear)
    board = more_vasl_boards[8]
    result = quiet(kernel.los, board, "8K4", "8G4", model=model)
    assert result.visible
    assert any(step.hex == "8I4" and step.kind.startswith("hedge") for step in result.steps)
    assert _vasl_engine_sees(8, "8K4", "8G4") in (True, None)
    _check_against_reference(board, np.array([[board.index("8K4"), board.index("8G4")]]))


@pytest.mark.parametrize("seed", [8, 9])
def test_kernel_matches_reference_on_more_vasl_boards(more_vasl_boards, seed):
    board = more_vasl_boards[seed]
    rng = np.random.default_rng(seed)
    pairs = rng.integers(0, len(board), (100, 2))
    _check_against_reference(board, pairs)
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    per_range = quiet(kernel.los_pairs, board, pairs[:, 0], pairs[:, 1], model="vasl")
    for k in range(40):
        blocked, hindrance = reference.walk(int(pairs[k, 0]), int(pairs[k, 1]), per_range=True)
        assert (not per_range.visible[k]) == blocked
        if not blocked:
            assert per_range.hindrance[k] == hindrance


def test_vasl_model_counts_no_hindrance_hex_as_far_as_the_ends_are_apart(more_vasl_boards):
    # VASL's engine counts a hindrance hex only when it is nearer both ends than they are to each other;
    # model="vasl" does the same, the rules (model="depiction") count every hindrance hex met
    board = more_vasl_boards[9]
    rng = np.random.default_rng(4)
    checked = 0
    for a, b in rng.integers(0, len(board), (700, 2)):
        if a == b:
            continue
        result = quiet(kernel.los, board, int(a), int(b), model="vasl")
        full = board.distance(int(a), int(b))
        for step in result.steps:
            if step.hindrance > 0:
                checked += 1
                h = board.index(step.hex)
                assert board.distance(int(a), h) < full and board.distance(int(b), h) < full, (a, b, step.hex)
    assert checked > 20


def test_vasl_model_reads_crags_as_half_level_hindrances(more_vasl_boards):
    # VASL's terrain table makes crags (and graveyards) half-level hindrances: 9Z3 (level 3) -> 9U3 (level 2)
    # crosses crag art at level 2 in 9W3, a hindrance to this LOS for the rules' one-level crag (+1) and none
    # for VASL (+0); model="vasl" follows VASL
    board = more_vasl_boards[9]
    rules = quiet(kernel.los, board, "9Z3", "9U3", model="depiction")
    vasl = quiet(kernel.los, board, "9Z3", "9U3", model="vasl")
    assert (rules.visible, rules.hindrance) == (True, 1) and (vasl.visible, vasl.hindrance) == (True, 0)
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    a, b = board.index("9Z3"), board.index("9U3")
    assert reference.walk(a, b) == (False, 1) and reference.walk(a, b, per_range=True) == (False, 0)


def test_vasl_model_walks_the_pixels_vasls_engine_visits(more_vasl_boards):
    # VASL's engine visits, column by column, every row between where its line enters and leaves the
    # column: 70M4 -> 70N6 meets the building drawn in 70N5 that the segment's pixels of the depiction
    # model pass by (VASL: blocked, "Terrain is higher than both").  (70N5 -> 70G7, the example while the
    # depiction model rounded its points to the nearest pixel, is blocked by both models since its pixels
    # are squares: the segment's own pixels meet the building in 70H6.)
    board = more_vasl_boards[70]
    rules = quiet(kernel.los, board, "70M4", "70N6", model="depiction")
    vasl = quiet(kernel.los, board, "70M4", "70N6", model="vasl")
    assert rules.visible
    assert (vasl.visible, vasl.reason_name, vasl.blocked_at_name) == (False, "obstacle", "70N5")
    assert _vasl_engine_sees(70, "70M4", "70N6") in (False, None)
    assert not quiet(kernel.los, board, "70N5", "70G7", model="depiction").visible
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    a, b = board.index("70M4"), board.index("70N6")
    assert reference.walk(a, b)[0] is False and reference.walk(a, b, per_range=True)[0] is True
    pixels = reference.vasl_pixels(a, b)
    assert len(pixels) > len(reference.pixels(a, b))   # a column where the line crosses a row boundary: two


def test_inherent_terrain_beside_a_hexside_the_los_runs_along_counts_whatever_its_art():
    # B.6: inherent terrain is its whole hex, so a LOS traced exactly along one of its hexsides passes through
    # it.  45C7 -> 45E7 runs along the hexside 45D6/45D7; the orchard 45D6 counts +1 although the pixels
    # the walk visits beside that hexside hold none of its art (before: +0); VASL and the hex model: +1.
    # 45C7 -> 45G7 runs along 45D6/45D7 and 45F6/45F7, two orchard hexes: +2
    if not (VASL / "bd45").is_dir():
        pytest.skip("VASL board 45 (../shared/vasl) not present")
    board = quiet(kernel.load_vasl_board, VASL / "bd45")
    assert "orchard" in board.terrain_of(board.index("45D6"))
    result = quiet(kernel.los, board, "45C7", "45E7", model="depiction")
    assert result.visible and result.hindrance == 1
    run = [(step.hex, step.hindrance) for step in result.steps
           if step.kind.startswith("inherent terrain beside the hexside")]
    run_kind = [step.kind for step in result.steps if step.kind.startswith("inherent terrain beside the hexside")]
    assert len(run) == 1 and run[0][0] in ("45D6", "45D7") and run[0][1] == 1
    assert not any(step.hindrance for step in result.steps if " art at level " in step.kind)
    assert quiet(kernel.los, board, "45C7", "45E7").hindrance == 1
    assert _vasl_engine_sees(45, "45C7", "45E7") in (True, None)
    assert quiet(kernel.los, board, "45C7", "45G7", model="depiction").hindrance == 2
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    a, b = board.index("45C7"), board.index("45E7")
    assert reference.walk(a, b) == (False, 1)
    _check_against_reference(board, np.array([[a, b], [a, board.index("45G7")], [board.index("45A6"),
                                                                                  board.index("45E6")]]))
    # the page's judged runs hold that step as a step without pixels, named as explain() names it
    from kernel.line_of_sight._depiction import walk as D
    from kernel.line_of_sight.depiction import judged_runs
    from kernel.render.page_steps import HEXSIDE_RUN_CLASS, judged_pixel_runs

    runs, counts = quiet(judged_runs, board, np.array([a]), np.array([b]))
    assert counts.tolist() == [1] and runs[0, 0, 1] == D.HEXSIDE_RUN and runs[0, 0, 2:].tolist() == [0, 0, 0, 0, 1]
    matrix = np.zeros((len(board), len(board)), np.int8)
    matrix[min(a, b), max(a, b)] = 1
    page = quiet(judged_pixel_runs, board, None, matrix)
    assert page["classes"].tolist() == [HEXSIDE_RUN_CLASS] and page["pixels"].tolist() == [0, 0, 0, 0]
    assert page["hexside_run_name"] == run_kind[0]


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


def _pair_with_squares(board, viewer, target, squares):
    """The depiction matrix entry of one pair with the tables' pixel convention set to ``squares``."""
    from kernel.line_of_sight._depiction import walk as D
    from kernel.line_of_sight.depiction import kernel_tables, location_levels2

    tables = list(quiet(kernel_tables, board, None))
    assert isinstance(tables[15], bool) and tables[15] == board_art(board).drawn   # the squares flag
    tables[15] = squares
    hexes = np.array([board.index(viewer), board.index(target)], np.int64)
    out = np.zeros((2, 2), np.int8)
    D.depiction_matrix_kernel(hexes, location_levels2(board, hexes, np.zeros(2, np.int64)), tuple(tables), out)
    return int(out[0, 1])


def test_drawn_art_pixels_are_squares_judged_at_their_centres(more_vasl_boards):
    # VASL's art: pixel (x, y) covers [x, x + 1) x [y, y + 1), so a point of the LOS lies in the pixel of its
    # coordinates rounded down.  70N5 -> 70G7 then meets the building drawn in 70H6 (VASL: blocked); with
    # the points rounded to the nearest pixel (a map without drawn art) its pixels pass the building by
    # (clear, +3 hindrance there)
    board = more_vasl_boards[70]
    assert board_art(board).drawn
    result = quiet(kernel.los, board, "70N5", "70G7", model="depiction")
    assert (result.visible, result.reason_name, result.blocked_at_name) == (False, "obstacle", "70H6")
    assert _vasl_engine_sees(70, "70N5", "70G7") in (False, None)
    assert _pair_with_squares(board, "70N5", "70G7", True) == kernel.BLOCKED
    rounded = _pair_with_squares(board, "70N5", "70G7", False)
    assert rounded != kernel.BLOCKED
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    a, b = board.index("70N5"), board.index("70G7")
    assert reference.drawn and reference.walk(a, b)[0] is True
    reference.drawn = False
    assert reference.walk(a, b) == (False, rounded)


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


@pytest.fixture(scope="module")
def rowhouse_board():
    if not (VASL / "bd10").is_dir():
        pytest.skip("VASL board 10 (../shared/vasl) not present")
    return quiet(kernel.load_vasl_board, VASL / "bd10")


@pytest.mark.parametrize("model", ["depiction", "vasl"])
def test_a_rowhouse_wall_blocks(rowhouse_board, model):
    # B23.71: 10T5 -> 10V5 crosses the rowhouse wall drawn in the stone building 10U5 (a thin black bar
    # between two hexes of a rowhouse: VASL's "Rowhouse Wall" pixels); VASL blocks ("Cannot see through
    # rowhouse/factory wall (B23.71/O5.31)"), and so do the depiction models since the wall is an obstacle
    # of the art (asl.toml's art-only rowhouse-wall terrain); they saw past before
    result = quiet(kernel.los, rowhouse_board, "10T5", "10V5", model=model)
    assert (result.visible, result.reason_name, result.blocked_at_name) == (False, "obstacle", "10U5")
    assert result.steps[-1].kind.startswith("rowhouse-wall art")
    assert _vasl_engine_sees(10, "10T5", "10V5") in (False, None)


@pytest.mark.parametrize("model", ["depiction", "vasl"])
@pytest.mark.parametrize("viewer, target", [("10U5", "10U6"), ("10U6", "10U5")])
def test_a_rowhouse_wall_in_an_end_s_own_hex_blocks(rowhouse_board, model, viewer, target):
    # B23.71: 10U5 and 10U6 are two hexes of one rowhouse, adjacent across the wall between them (its bar
    # drawn along their hexside, in 10U5). The walk never counts the pixels of the ends' own hexes (a
    # building's outline does not block a LOS out of it), but a wall between two hexes does
    # (obstacle_in_own_hex in asl.toml): blocked in 10U5 both ways, as VASL ("Cannot see through
    # rowhouse/factory wall"); both art models saw through it before
    result = quiet(kernel.los, rowhouse_board, viewer, target, model=model)
    assert (result.visible, result.reason_name, result.blocked_at_name) == (False, "obstacle", "10U5")
    assert result.steps[-1].kind.startswith("rowhouse-wall art")
    assert result.steps[-1].rule == "B23.71 rowhouse wall"   # the terrain's own rule (asl.toml), not A6.1's
    assert _vasl_engine_sees(10, viewer, target) in (False, None)


@pytest.mark.parametrize("model", ["depiction", "vasl"])
def test_a_rowhouse_end_sees_out_where_its_walls_are_not_crossed(rowhouse_board, model):
    # 10U5 -> 10W5 leaves the rowhouse hex 10U5 away from its wall (its other hexsides have no bar): clear,
    # as VASL; the matrix answers as the single LOS does, both ways
    assert quiet(kernel.los, rowhouse_board, "10U5", "10W5", model=model).visible
    assert _vasl_engine_sees(10, "10U5", "10W5") in (True, None)
    matrix = quiet(kernel.los_matrix, rowhouse_board, ["10U5", "10U6", "10W5"], model=model)
    assert (matrix[0, 1], matrix[1, 0]) == (kernel.BLOCKED, kernel.BLOCKED)
    assert matrix[0, 2] != kernel.BLOCKED and matrix[2, 0] != kernel.BLOCKED


@pytest.mark.parametrize("model", ["depiction", "vasl"])
def test_obstacle_in_own_hex_changes_the_answer(model):
    """The ruleset flag ``obstacle_in_own_hex`` decides it: with it off for the rowhouse wall, the art of the
    ends' own hexes never counts and 10U5 -> 10U6 is clear again (the hex model never reads the art)."""
    import dataclasses

    if not (VASL / "bd10").is_dir():
        pytest.skip("VASL board 10 (../shared/vasl) not present")
    board = quiet(kernel.load_vasl_board, VASL / "bd10")   # a board of its own: its ruleset is replaced
    rs = board.ruleset
    assert rs.terrain_obstacle_in_own_hex.tolist().count(True) == 1
    assert rs.terrain_obstacle_in_own_hex[rs.terrain_index("rowhouse-wall")]
    hex_before = quiet(kernel.los_matrix, board, ["10U5", "10U6", "10T5", "10V5"], model="hex")
    board.ruleset = dataclasses.replace(rs, terrain_obstacle_in_own_hex=np.zeros_like(rs.terrain_obstacle_in_own_hex))
    result = quiet(kernel.los, board, "10U5", "10U6", model=model)
    assert result.visible
    # a wall between the ends (in 10U5, not an end's hex) still blocks
    assert not quiet(kernel.los, board, "10T5", "10V5", model=model).visible
    assert (quiet(kernel.los_matrix, board, ["10U5", "10U6", "10T5", "10V5"], model="hex") == hex_before).all()


@pytest.fixture(scope="module")
def grain_board():
    if not (VASL / "bd35").is_dir():
        pytest.skip("VASL board 35 (../shared/vasl) not present")
    return quiet(kernel.load_vasl_board, VASL / "bd35")


def _vasl_engine_hindrance(board_number: int, viewer: str, target: str) -> int | None:
    """VASL's engine hindrance DRM for the pair (None when its results are absent)."""
    from bench.vasl_engine import engine_folder, load_engine_results

    if not (engine_folder() / f"bd{board_number:02d}.npz").is_file():
        return None
    engine = load_engine_results(board_number)
    names = [str(name) for name in engine["hexes"]]
    return int(engine["hindrance"][names.index(viewer), names.index(target)])


@pytest.mark.parametrize("viewer, target, drm, touched", [("35A3", "35F1", 4, {"35C3", "35D1"}),
                                                          ("35A2", "35H0", 5, {"35C1"})])
def test_grain_touched_at_a_vertex_alone_does_not_hinder(grain_board, viewer, target, drm, touched):
    # B.6: inherent terrain hinders even a LOS to or through a vertex of its hex; grain is not inherent, so
    # a grain hex the segment meets at a single vertex does not hinder (the pixels the walk gave it lie off
    # the segment by their rounding). 35A3 -> 35F1 touches the grain hexes 35C3 and 35D1 at a vertex and
    # crosses four others: +4 (before: +6, blocked), as the hex model and VASL; 35A2 -> 35H0 touches 35C1:
    # +5 (before +6, blocked), as VASL. The vasl model counts per range, as VASL does, and sees both too.
    result = quiet(kernel.los, grain_board, viewer, target, model="depiction")
    assert (result.visible, result.hindrance) == (True, drm)
    counted = {step.hex for step in result.steps if step.hindrance}
    assert len(counted) == drm and not counted & touched
    assert quiet(kernel.los, grain_board, viewer, target, model="hex").hindrance == drm
    assert _vasl_engine_hindrance(35, viewer, target) in (drm, None)
    assert _vasl_engine_sees(35, viewer, target) in (True, None)


def test_inherent_terrain_touched_at_a_vertex_still_hinders(grain_board):
    # B.6: "mere entrance of the hex (even if only to trace a LOS to or through a vertex of such a hex)"
    # suffices for an orchard: 35E5 -> 35I8 touches the orchard 35H6 at a vertex, and it counts (+4, as the
    # hex model; VASL, counting per range, gives +3)
    result = quiet(kernel.los, grain_board, "35E5", "35I8", model="depiction")
    assert (result.visible, result.hindrance) == (True, 4)
    assert any(step.hex == "35H6" and step.hindrance == 1 for step in result.steps)
    assert quiet(kernel.los, grain_board, "35E5", "35I8", model="hex").hindrance == 4


def test_vertex_touch_is_exact(grain_board):
    """``vertex_touch`` in exact lattice integers: 35A3 -> 35F1 meets 35C3 and 35D1 at a vertex alone and
    crosses 35C2 and 35B2; a LOS at 0 degrees (35A3 -> 35E3) runs along hexsides and touches no hex at a
    vertex alone."""
    from kernel.line_of_sight._depiction.pixel_geometry import vertex_touch

    touch = getattr(vertex_touch, "py_func", vertex_touch)
    board = grain_board
    x, y = board.x.astype(np.int64), board.y.astype(np.int64)
    a, b, e3 = (board.names.index(name) for name in ("35A3", "35F1", "35E3"))
    ddx, ddy = x[b] - x[a], y[b] - y[a]
    touched = {name for name in board.names if touch(board.names.index(name), a, ddx, ddy, x, y)}
    assert {"35C3", "35D1"} <= touched and not touched & {"35C2", "35B2", "35D2", "35E2"}
    assert not any(touch(h, a, x[e3] - x[a], y[e3] - y[a], x, y) for h in range(len(board)))


def test_rowhouse_ends_match_the_reference_walk(rowhouse_board):
    """B23.71 against the naive reference: LOS from and to hexes whose art holds a rowhouse wall (the ends
    whose own pixels the walk looks at), in both art models; the explanation too in the depiction model."""
    from kernel.line_of_sight._depiction.hex_tables import own_hex_obstacles

    board = rowhouse_board
    _, hex_own = own_hex_obstacles(board, board_art(board))
    ends = np.flatnonzero(hex_own)
    assert len(ends) > 10
    rng = np.random.default_rng(23)
    pairs = np.column_stack([rng.choice(ends, 80), rng.integers(0, len(board), 80)])
    pairs = np.vstack([pairs, [[board.index("10U5"), board.index("10U6")]]])
    _explained_against_reference(board, pairs, np.zeros_like(pairs))
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    at_an_end = sum(reference.detail(int(a), int(b))["blocked_at"] in (a, b) for a, b in pairs.tolist())
    assert at_an_end >= 4, at_an_end   # walls in an end's own hex are met (4 of these pairs), not only elsewhere
    result = quiet(kernel.los_pairs, board, pairs[:, 0], pairs[:, 1], model="vasl")
    expected = [reference.walk(int(a), int(b), per_range=True) for a, b in pairs.tolist()]
    assert (~result.visible).tolist() == [blocked for blocked, _ in expected]
    assert [int(h) for h, seen in zip(result.hindrance, result.visible) if seen] == \
        [drm for blocked, drm in expected if not blocked]
