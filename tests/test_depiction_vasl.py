"""The depiction LOS model on real VASL boards (``../shared/vasl``; each test skips cleanly without it):
the boards' pixels, the pixel-walk kernel against its slow reference, and golden cases from ASL B.1 and
from VASL's engine where the rules and the art decide (docs/vasl-agreement.md).
"""

from __future__ import annotations

import numpy as np
import pytest

import kernel
from kernel.grid.pixels import UNIT_X, UNIT_Y
from kernel.line_of_sight.depiction import depiction_matrix
from kernel.maps.art import board_art, map_size
from tests.comparisons import COMPARISONS
from tests.depiction_checks import check_against_reference, depiction, explained_against_reference, pair_with_squares
from tests.shared_data import needs, quiet, vasl_folder

VASL = vasl_folder()
needs_vasl = needs("vasl")


@pytest.fixture(scope="module")
def vasl_boards():
    if not VASL.is_dir():
        pytest.skip("VASL board data (../shared/vasl) not present")
    return {n: quiet(kernel.load_vasl_board, VASL / f"bd0{n}") for n in (2, 4)}


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


@needs_vasl
@pytest.mark.parametrize("seed", [11, 12])
def test_kernel_matches_reference_on_vasl_boards(vasl_boards, seed):
    board = vasl_boards[2 if seed == 11 else 4]
    rng = np.random.default_rng(seed)
    check_against_reference(board, rng.integers(0, len(board), (120, 2)))


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


@needs_vasl
def test_explain_matches_the_reference_walk_on_a_vasl_board(vasl_boards):
    board = vasl_boards[4]
    rng = np.random.default_rng(41)
    pairs = rng.integers(0, len(board), (100, 2))
    explained_against_reference(board, pairs, np.zeros_like(pairs))


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
    check_against_reference(board, np.array([[board.index("8A3"), board.index("8A5")]]))


def test_crest_line_exception_not_toward_a_unit_in_a_depression(more_vasl_boards):
    # A6.3 decides a LOS to a unit IN a depression: 34U7 (level -1, in the stream) -> 34W6 (level 0) meets
    # level-0 art in 34V6, next to the higher end and lower than it, and stays blocked there (VASL:
    # "Exits depression before range/elevation restrictions are satisfied")
    board = more_vasl_boards[34]
    result = quiet(kernel.los, board, "34U7", "34W6", model="depiction")
    assert (result.visible, result.reason_name, result.blocked_at_name) == (False, "hill", "34V6")
    assert _vasl_engine_sees(34, "34U7", "34W6") in (False, None)
    check_against_reference(board, np.array([[board.index("34U7"), board.index("34W6")]]))


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
    check_against_reference(board, np.array([[board.index("9K7"), board.index("9DD8")]]))


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
    check_against_reference(board, np.vstack([[board.index("35V9"), board.index("35Y5")], pairs]))


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
    check_against_reference(board, np.array([[board.index("8K4"), board.index("8G4")]]))


@pytest.mark.parametrize("seed", [8, 9])
def test_kernel_matches_reference_on_more_vasl_boards(more_vasl_boards, seed):
    board = more_vasl_boards[seed]
    rng = np.random.default_rng(seed)
    pairs = rng.integers(0, len(board), (100, 2))
    check_against_reference(board, pairs)
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
    check_against_reference(board, np.array([[a, b], [a, board.index("45G7")], [board.index("45A6"),
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
    assert pair_with_squares(board, "70N5", "70G7", True) == kernel.BLOCKED
    rounded = pair_with_squares(board, "70N5", "70G7", False)
    assert rounded != kernel.BLOCKED
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    a, b = board.index("70N5"), board.index("70G7")
    assert reference.drawn and reference.walk(a, b)[0] is True
    reference.drawn = False
    assert reference.walk(a, b) == (False, rounded)


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
    explained_against_reference(board, pairs, np.zeros_like(pairs))
    reference = COMPARISONS["los_pairs[depiction]"].reference(board, board_art(board))
    at_an_end = sum(reference.detail(int(a), int(b))["blocked_at"] in (a, b) for a, b in pairs.tolist())
    assert at_an_end >= 4, at_an_end   # walls in an end's own hex are met (4 of these pairs), not only elsewhere
    result = quiet(kernel.los_pairs, board, pairs[:, 0], pairs[:, 1], model="vasl")
    expected = [reference.walk(int(a), int(b), per_range=True) for a, b in pairs.tolist()]
    assert (~result.visible).tolist() == [blocked for blocked, _ in expected]
    assert [int(h) for h, seen in zip(result.hindrance, result.visible) if seen] == \
        [drm for blocked, drm in expected if not blocked]
