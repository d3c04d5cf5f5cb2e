"""VASL saved games written by the project's own encoder, on synthetic VASL boards (these tests always run).

The saves hold units on every kind of Location (ground level, a building's
upper levels, a roof and a level the map lacks, a bridge deck and beneath
it), two boards one of them rotated, SMOKE on an upper level, a wreck, a
vehicle, stacked units of one name, pieces in the margin and on another map.
Every expected hex is computed here from the pixel geometry of the board
format (:mod:`tests.vasl_saves`), not by the importer.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kernel
from kernel.importers.vasl.save_writer import SaveBoard, SavePiece, write_saved_game
from tests.vasl_saves import map_pixel, write_boards


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_boards(tmp_path_factory.mktemp("vasl") / "boards")


def piece(name, hex_name, nationality="ge", *, board=(0, 0, False), **options):
    x, y = map_pixel(hex_name, *board)
    return SavePiece(name, x, y, nationality, **options)


def read(path, folder, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        return kernel.read_saved_game(path, folder, **options)


ROTATED = (1, 0, True)   # board 06 right of board 05, rotated 180 degrees


@pytest.fixture(scope="module")
def game(folder, tmp_path_factory):
    def counter(name, hex_name, board=(0, 0, False)):
        return piece(name, hex_name, "", board=board, counter_type="common")

    squads = [piece("4-6-7 1sq", "I9"), piece("4-6-7 1sq", "I9"), piece("8-1", "I9")]
    upper = [piece("4-6-7 1sq", "C3", piece_id="7001"), piece("8-0", "C3", piece_id="7002"),
             piece("2-3-7 hs", "C3", piece_id="7003"), piece("9-1", "C3", piece_id="7004"),
             piece("8-3-8 Esq", "C3", piece_id="7007")]
    levels = [counter("Building Level 1", "C3"), counter("Building Level 2", "C3"),
              counter("Building Roof Level", "C3"), counter("Building Level 1", "C3"),
              counter("Building Level 2", "C3"), counter("Building Level 3", "C3")]
    deck = counter("Building Level 1", "R5")
    on_deck, beneath = piece("6-2-8 Esq", "R5", "ru", piece_id="7005"), piece("4-4-7 1sq", "R5", "ru", piece_id="7006")
    smoke_level = counter("Building Level 1", "C3", ROTATED)
    smoke = piece("White +3 Smoke", "C3", "", board=ROTATED, counter_type="common", piece_id="7010")
    ground_smoke = piece("Gray +1 WP", "J5", "", counter_type="common", piece_id="7011")
    roof = counter("Building Roof Level", "C3")
    roof_smoke = piece("White +2 Smoke", "C3", "", counter_type="common", piece_id="7012")
    pieces = [*squads, *levels, *upper, deck, on_deck, beneath, smoke_level, smoke, ground_smoke, roof, roof_smoke,
              piece("T-34 M43", "M6", "ru", board=ROTATED, hindrance=True, piece_id="7020"),
              piece("T-34 M43 Wreck", "N6", "", board=ROTATED, counter_type="common", piece_id="7021"),
              piece("LMG", "I9", counter_type="common", piece_id="7022"),
              piece("8-3-8 Esq", "E4", "", owner="taka", piece_id="7023"),
              SavePiece("6-2-8 Esq", 120, 130, "ru", piece_id="7030"),
              SavePiece("9-2", 50, 60, "ge", map_name="Casualties", piece_id="7031")]
    # bottom first: a unit stands at the level of the nearest level counter beneath it
    stacks = [[levels[0], upper[0]], [levels[1], upper[1]], [levels[2], upper[2]], [levels[3], levels[4], upper[3]],
              [levels[5], upper[4]], [beneath, deck, on_deck], [smoke_level, smoke],
              [roof, roof_smoke]]
    path = write_saved_game(tmp_path_factory.mktemp("save") / "game.vsav",
                            [SaveBoard(0, 0, "05", "1.0"), SaveBoard(1, 0, "06", "1.0", rotated=True)], pieces,
                            stacks)
    return read(path, folder)


def test_the_map_is_laid_out_as_the_save_says(game):
    board = game.board
    assert [(b, r, c, rot) for b, r, c, rot in board.boards] == [("5", 0, 0, False), ("6", 0, 1, True)]
    assert len(board) == 2 * 346 - 10   # two boards butted side by side: one shared column of half hexes
    assert game.refused == []
    assert board.source.endswith("game.vsav")


def test_units_of_each_side_at_their_locations(game):
    where = {(u.piece_id, u.location, u.side, u.kind) for u in game.units if u.piece_id.startswith("70")}
    assert where >= {("7001", "5C3h1", "axis", "infantry"), ("7002", "5C3h2", "axis", "leader"),
                     ("7004", "5C3h2", "axis", "leader"), ("7005", "5R5h1", "allies", "infantry"),
                     ("7006", "5R5", "allies", "infantry"), ("7023", "5E4", "taka", "infantry"),
                     ("7020", "6M6", "allies", "vehicle")}
    assert game.board.bridge_deck[game.board.index("5R5")]


@pytest.mark.parametrize("piece_id, asked", [("7003", "the roof asked"), ("7007", "level 3 asked")])
def test_a_location_the_map_lacks_gives_the_highest_with_a_note(game, piece_id, asked):
    unit = next(u for u in game.units if u.piece_id == piece_id)
    assert unit.location == "5C3h2"   # no rooftop, no third level on the map: its highest Location
    notes = next(p for p in game.pieces if p.piece_id == piece_id).notes
    assert any(note.startswith(asked) and "placed at its highest, 5C3h2" in note for note in notes)


def test_stacked_units_of_one_name_stay_two(game):
    in_i9 = [u for u in game.units if u.location == "5I9"]
    assert sorted(u.name for u in in_i9) == ["4-6-7 1sq", "4-6-7 1sq", "8-1"]
    assert len({u.piece_id for u in in_i9}) == 3
    assert game.state.units_in("5I9") == {"axis": 3}
    assert len(game.state.units_named("4-6-7 1sq")) == 3


def test_smoke_vehicles_and_wrecks(game):
    board, state = game.board, game.state
    c3 = board.index("6C3")
    assert int(state.smoke[c3]) == 3 and int(state.smoke_height[c3]) == 2
    j5 = board.index("5J5")
    assert int(state.smoke[j5]) == 1 and int(state.smoke_height[j5]) == 4    # WP rises four levels
    assert [board.names[h] for h in np.flatnonzero(state.vehicles)] == sorted(["6M6", "6N6"], key=board.index)
    wreck = next(p for p in game.pieces if p.piece_id == "7021")
    assert wreck.kind == "wreck" and wreck.location == "6N6"
    assert all(u.piece_id != "7021" for u in game.units)   # a wreck is no unit


def test_smoke_on_an_upper_level_is_placed_in_its_location(game):
    board, state = game.board, game.state
    smoke = next(p for p in game.pieces if p.piece_id == "7010")
    assert smoke.location == "6C3h1" and smoke.smoke == (3, 2) and smoke.notes == []
    c3 = board.index("6C3")
    assert int(state.smoke_base[c3]) == 1 and int(state.smoke[c3]) == 3


def test_smoke_on_a_roof_the_map_lacks_goes_to_the_highest_location_with_a_note(game):
    smoke = next(p for p in game.pieces if p.piece_id == "7012")
    assert smoke.location == "5C3h2"   # 5C3 is a building of one hex: no rooftop
    assert int(game.state.smoke_base[game.board.index("5C3")]) == 2
    assert any(note.startswith("the roof asked") and "placed at its highest, 5C3h2" in note for note in smoke.notes)


def test_pieces_off_the_boards_are_listed_not_placed(game):
    off = {p.piece_id: p for p in game.off_board}
    assert {"7030", "7031"} <= set(off)
    assert "margin" in off["7030"].notes[0] and "Casualties" in off["7031"].notes[0]
    assert all(u.piece_id not in ("7030", "7031") for u in game.units)


def test_each_unit_says_which_piece_it_came_from(game):
    unit = next(u for u in game.units if u.piece_id == "7005")
    assert "game.vsav!savedGame: piece 7005 ('6-2-8 Esq') at pixel" in unit.origin
    assert game.state.source.endswith("game.vsav")


def test_the_state_changes_los_like_counters_placed_by_hand(game):
    board = game.board
    by_hand = kernel.Counters.on(board, smoke={"6C3h1": 3, "5J5": 1, "5C3h2": 2}, vehicles=["6M6", "6N6"])
    heights = np.asarray(by_hand.smoke_height).copy()
    heights[board.index("5J5")] = 4
    by_hand.smoke_height = heights
    sources = [board.index(n) for n in ("5I9", "5E4", "6M6")]
    ours = kernel.los_pairs(board, sources, np.arange(len(board)), product=True, counters=game.state)
    theirs = kernel.los_pairs(board, sources, np.arange(len(board)), product=True, counters=by_hand)
    assert np.array_equal(ours.visible, theirs.visible) and np.array_equal(ours.hindrance, theirs.hindrance)
    # SMOKE at its Location: from the ground beneath the SMOKE of 6C3h1 the LOS passes under it (+0), from
    # 6C3h1 itself it counts (+3; VASL adds one for the viewer's own SMOKE); SMOKE on the ground counts for both
    ends = [board.index("6C3")] * 2, [board.index("6C5")] * 2
    for model, own in (("hex", 3), ("vasl", 4)):
        upper = kernel.los_pairs(board, *ends, levels=[0, 1], counters=game.state, model=model)
        ground = kernel.los_pairs(board, *ends, levels=[0, 1], counters=kernel.Counters.on(board, smoke={"6C3": 3}),
                                  model=model)
        assert upper.visible.all() and upper.hindrance.tolist() == [0, own], model
        assert ground.hindrance.tolist() == [own, own], model
    plain = kernel.los_pairs(board, sources, np.arange(len(board)), product=True)
    assert not np.array_equal(ours.hindrance, plain.hindrance)   # the save's counters do change LOS


def test_load_gives_the_same_map(game, folder):
    board = kernel.load(game.source, boards=folder)
    assert board.names == game.board.names and np.array_equal(board.terrain, game.board.terrain)


def test_the_environment_names_the_boards_folder(game, folder, monkeypatch):
    monkeypatch.setenv("HEXKERNEL_VASL_BOARDS", str(folder))
    assert len(kernel.load(game.source)) == len(game.board)
    monkeypatch.delenv("HEXKERNEL_VASL_BOARDS")
    with pytest.raises(kernel.SavedGameError, match=r"game.vsav: no folder of VASL boards: pass boards=DIR"):
        kernel.load(game.source)


def test_the_roster_follows_the_states_changes(game):
    state = kernel.SavedGameState(game.board)
    state.place_unit("5I9", "axis", name="4-6-7 1sq")
    state.place_unit("5C3h1", "axis", name="8-1")
    assert [u.location for u in state.roster] == ["5I9", "5C3h1"]
    state.move_unit("5C3", "5C3h2", name="8-1")
    state.remove_unit("5I9", name="4-6-7 1sq")
    assert [(u.name, u.location) for u in state.roster] == [("8-1", "5C3h2")]
    with pytest.raises(ValueError, match=r"remove_unit\('5I9'\): no unit called '9-2' in 5I9"):
        state.remove_unit("5I9", name="9-2")
    with pytest.raises(ValueError, match=r"level is 3 in 5C3: expected 0..2"):
        state.place_unit("5C3", "axis", name="x", level=3)


def test_rotation_turns_the_pixels_about_the_boards_centre(folder, tmp_path):
    """A piece at the pixel of 6A1 on the rotated board lies at its far corner: 6A1, not 6GG10."""
    pieces = [piece("4-6-7 1sq", name, board=ROTATED, piece_id=str(9000 + k))
              for k, name in enumerate(("A1", "B1", "Q5", "FF9"))]
    path = write_saved_game(tmp_path / "rotated.vsav", [SaveBoard(0, 0, "05", "1.0"),
                                                        SaveBoard(1, 0, "06", "1.0", rotated=True)], pieces)
    game = read(path, folder)
    assert [u.location for u in game.units] == ["6A1", "6B1", "6Q5", "6FF9"]


def test_boards_in_one_column(folder, tmp_path):
    pieces = [piece("4-6-7 1sq", "K4", board=(0, 1, False), piece_id="1"),
              piece("4-6-7 1sq", "K4", board=(0, 0, False), piece_id="2")]
    path = write_saved_game(tmp_path / "column.vsav", [SaveBoard(0, 0, "06", "1.0"), SaveBoard(0, 1, "05", "1.0")],
                            pieces)
    game = read(path, folder)
    assert [u.location for u in game.units] == ["5K4", "6K4"]
    assert [(b, r, c) for b, r, c, _ in game.board.boards] == [("6", 0, 0), ("5", 1, 0)]


def test_an_unobfuscated_stream_and_any_key_read_alike(folder, tmp_path):
    boards = [SaveBoard(0, 0, "05", "1.0")]
    names = []
    for k, options in enumerate(({"key": 0x00}, {"key": 0xFF}, {"obfuscate": False})):
        path = write_saved_game(tmp_path / f"k{k}.vsav", boards, [piece("9-2", "G7")], **options)
        names.append([u.location for u in read(path, folder).units])
    assert names == [["5G7"]] * 3


def test_a_board_numbered_00_gets_a_spare_number(folder, tmp_path):
    zero = tmp_path / "zero"
    write_boards(zero, names=("00",))
    path = write_saved_game(tmp_path / "zero.vsav", [SaveBoard(0, 0, "00", "1.0")], [piece("9-2", "G7")])
    with pytest.warns(kernel.VaslSaveWarning, match=r"board 00: its hexes are named 901A1"):
        game = kernel.read_saved_game(path, zero)
    assert [u.location for u in game.units] == ["901G7"]


@pytest.mark.parametrize("board, message", [
    (SaveBoard(0, 0, "05", "1.0", overlays=[("og1", "C3", "C4")]), r"overlay og1 on C3-C4 is not applied"),
    (SaveBoard(0, 0, "05", "1.0", ssr=("NoWoodsRoads", "OrchardsToCrags")),
     r"SSR terrain changes NoWoodsRoads, OrchardsToCrags not applied"),
    (SaveBoard(0, 0, "05", "1.0", crop=(0, 0, 1000, 645)), r"cropped to 1000x645 pixels at 0,0 in the save; the map "
                                                           r"holds the whole board"),
    (SaveBoard(0, 0, "05", "6.4"), r"the save was made with version 6.4, the folder '.*boards' holds version 1.0"),
])
def test_what_cannot_be_applied_is_named_and_refused_when_strict(folder, tmp_path, board, message):
    path = write_saved_game(tmp_path / "part.vsav", [board], [piece("9-2", "G7")])
    with pytest.warns(kernel.VaslSaveWarning, match=message):
        game = kernel.read_saved_game(path, folder)
    assert len(game.refused) == 1
    with pytest.raises(kernel.SavedGameError, match=message + r".*\(strict: expected a save whose every part "
                                                              r"applies\)"):
        kernel.read_saved_game(path, folder, strict=True)


def test_a_cropped_board_places_its_pieces_by_the_cropped_layout(folder, tmp_path):
    """Board 05 cropped to its columns from D (x 150): board 06 starts 150 pixels further left on the map."""
    crop = (150, 0, 1650, 645)
    x, y = map_pixel("K4", 1, 0)
    pieces = [SavePiece("9-2", x - 150, y, "ge", piece_id="1"),
              SavePiece("8-1", map_pixel("K4")[0] - 150, y, "ge", piece_id="2")]
    path = write_saved_game(tmp_path / "crop.vsav", [SaveBoard(0, 0, "05", "1.0", crop=crop),
                                                     SaveBoard(1, 0, "06", "1.0")], pieces)
    with pytest.warns(kernel.VaslSaveWarning, match="cropped"):
        game = kernel.read_saved_game(path, folder)
    assert [u.location for u in game.units] == ["6K4", "5K4"]


def test_a_zoomed_board_places_its_pieces_in_its_own_pixels(folder, tmp_path):
    x, y = map_pixel("K4")
    zoomed = SavePiece("9-2", int(round(400 + (x - 400) * 2)), int(round(400 + (y - 400) * 2)), "ge")
    path = write_saved_game(tmp_path / "zoom.vsav", [SaveBoard(0, 0, "05", "1.0", zoom=2.0)], [zoomed])
    assert [u.location for u in read(path, folder).units] == ["5K4"]


def test_a_crop_to_the_nearest_full_hex_row_reads_as_vasl_writes_it(folder, tmp_path):
    """VASL ends the entry of a board cropped to full hex rows with FH and true (after SSR's text and ZOOM)."""
    from kernel.importers.vasl.save_stream import board_records

    entry = "bd\t0\t0\t05\t0\t0\t1000\t645\tVER\t1.0\tSSR\tNoWoodsRoads\t\tZOOM\t3.0\tFH\ttrue"
    (record,) = board_records(entry, "save")
    assert (record.crop, record.ssr, record.zoom, record.full_hex_crop) == ((0, 0, 1000, 645), ("NoWoodsRoads",),
                                                                           3.0, True)
    path = write_saved_game(tmp_path / "fh.vsav", [SaveBoard(0, 0, "05", "1.0", crop=(0, 0, 1000, 645),
                                                             full_hex_crop=True)], [piece("9-2", "G7")])
    with pytest.warns(kernel.VaslSaveWarning, match="cropped to 1000x645"):
        game = kernel.read_saved_game(path, folder)
    assert [u.location for u in game.units] == ["5G7"] and game.layout.boards[0].record.full_hex_crop


def test_a_crop_to_the_boards_edge_keeps_the_boards_whole_size(folder, tmp_path):
    """A crop width (or height) of -1 runs to the board's edge, and VASL's board is then as wide as its whole
    picture (VASL sizes a cropped board by the crop's width only where it is above 0): board 06 starts 1800
    pixels right of board 05, not 1800 - 150."""
    x, y = map_pixel("K4", 1, 0)
    pieces = [SavePiece("9-2", x, y, "ge", piece_id="1"), SavePiece("8-1", map_pixel("K4")[0] - 150, y, "ge",
                                                                    piece_id="2")]
    path = write_saved_game(tmp_path / "edge.vsav", [SaveBoard(0, 0, "05", "1.0", crop=(150, 0, -1, 645)),
                                                     SaveBoard(1, 0, "06", "1.0")], pieces)
    with pytest.warns(kernel.VaslSaveWarning, match="cropped"):
        game = kernel.read_saved_game(path, folder)
    assert [(b.left, b.shown_width) for b in game.layout.boards] == [(400, 1800), (2200, 1800)]
    assert [u.location for u in game.units] == ["6K4", "5K4"]


def test_a_piece_beyond_a_cropped_boards_picture_lies_on_no_hex(folder, tmp_path):
    """Board 05 cropped from x 1500 to its edge keeps its whole width on the map (VASL's), so most of its
    rectangle lies beyond its picture: a piece there is in no hex of the board, not in its last column."""
    inside = SavePiece("9-2", 400 + 290, map_pixel("GG4")[1], "ge", piece_id="1")   # board x 1790: column GG
    beyond = SavePiece("8-1", 400 + 1000, map_pixel("GG4")[1], "ge", piece_id="2")  # board x 2500: past it
    path = write_saved_game(tmp_path / "beyond.vsav", [SaveBoard(0, 0, "05", "1.0", crop=(1500, 0, -1, 645))],
                            [inside, beyond])
    with pytest.warns(kernel.VaslSaveWarning, match="cropped"):
        game = kernel.read_saved_game(path, folder)
    assert [u.location for u in game.units] == ["5GG4"]
    off = next(p for p in game.pieces if p.piece_id == "2")
    assert not off.on_board and "on no board" in off.notes[0]


def test_a_magnified_boards_size_and_pixels_round_half_up_as_vasl(folder, tmp_path):
    """At ZOOM 0.5 a board 645 pixels high is 323 on VASL's map (Java's Math.round: halves up), not 322, so
    map row 722 (400 + 322) is still board 05's bottom row, and board 06 starts at 723."""
    boards = [SaveBoard(0, 0, "05", "1.0", zoom=0.5), SaveBoard(0, 1, "06", "1.0", zoom=0.5)]
    path = write_saved_game(tmp_path / "half.vsav", boards, [SavePiece("9-2", 681, 722, "ge", piece_id="1"),
                                                             SavePiece("8-1", 681, 724, "ge", piece_id="2")])
    game = read(path, folder)
    assert [(b.top, b.shown_height) for b in game.layout.boards] == [(400, 323), (723, 323)]
    assert [u.location for u in game.units] == ["5K10", "6K1"]


def test_a_unit_of_an_unknown_nationality_says_why_it_has_no_side(folder, tmp_path):
    pieces = [piece("9-1", "G7", "xx", piece_id="1"), piece("8-1", "G7", "xx", owner="taka", piece_id="2")]
    game = read(write_saved_game(tmp_path / "nation.vsav", [SaveBoard(0, 0, "05", "1.0")], pieces), folder)
    assert [(u.name, u.side) for u in game.units] == [("9-1", None), ("8-1", "taka")]
    notes = {p.piece_id: p.notes for p in game.pieces}
    assert notes["1"] == ["nationality 'xx' is none of VASL's codes that hexkernel knows (ge, ru, ...): no side"]
    assert notes["2"] == ["nationality 'xx' is none of VASL's codes that hexkernel knows (ge, ru, ...): its side "
                          "is its owner's name"]


@pytest.mark.parametrize("name", ["Stone Rubble", "Wood Rubble"])
def test_a_rubble_counter_is_named_not_applied_and_refused_when_strict(folder, tmp_path, name):
    """VASL's LOS turns a rubble counter's hex into rubble; the map keeps the board's terrain, and says so."""
    pieces = [SavePiece(name, *map_pixel("G7"), "", counter_type="common", piece_id="1"), piece("9-2", "G7")]
    path = write_saved_game(tmp_path / "rubble.vsav", [SaveBoard(0, 0, "05", "1.0")], pieces)
    message = rf"piece 1 \('{name}'\) .*: a rubble counter in 5G7 is not applied \(the map keeps the board's terrain\)"
    with pytest.warns(kernel.VaslSaveWarning, match=message):
        game = kernel.read_saved_game(path, folder)
    rubble = next(p for p in game.pieces if p.piece_id == "1")
    assert rubble.kind == "terrain counter" and rubble.location == "5G7" and rubble in game.counters
    assert rubble.notes == ["not applied: the map keeps the board's terrain in its hex"]
    with pytest.raises(kernel.SavedGameError, match=message + r" \(strict\)"):
        kernel.read_saved_game(path, folder, strict=True)


def test_a_second_smoke_in_a_hex_is_named_and_refused_when_strict(folder, tmp_path):
    pieces = [SavePiece("White +3 Smoke", *map_pixel("K6"), "", counter_type="common", piece_id="1"),
              SavePiece("White +2 WP", *map_pixel("K6"), "", counter_type="common", piece_id="2")]
    path = write_saved_game(tmp_path / "smokes.vsav", [SaveBoard(0, 0, "05", "1.0")], pieces)
    message = r"piece 2 \('White \+2 WP'\) .*: a second SMOKE counter in 5K6 \(which holds \+3\): not placed"
    with pytest.warns(kernel.VaslSaveWarning, match=message):
        game = kernel.read_saved_game(path, folder)
    assert int(game.state.smoke[game.board.index("5K6")]) == 3
    with pytest.raises(kernel.SavedGameError, match=message + r" \(a hex of the state holds one SMOKE counter\) "
                                                              r"\(strict\)"):
        kernel.read_saved_game(path, folder, strict=True)
