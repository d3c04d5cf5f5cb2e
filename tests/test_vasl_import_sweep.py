"""The importer threshold sweep (:mod:`bench.vasl_import_sweep`): its settings change the import and are undone.

The parts that read boards are skipped when ``../shared/vasl`` (the VASL
boards and ``engine/``) is absent.
"""

from __future__ import annotations

import pytest

from bench.vasl_engine import agreement_figures, board_folder_name, engine_folder, vasl_folder
from bench.vasl_import_sweep import best_toggles, hex_agreement, import_rule, parse_point, summary, toggle_gains
from kernel.importers.vasl import hex_terrain, hexsides

BOARD = 2
HEXES = 346  # every hex of a geomorphic board, half hexes included
HAVE_BOARD = (engine_folder() / f"{board_folder_name(BOARD)}.npz").is_file() and \
    (vasl_folder() / board_folder_name(BOARD)).is_dir()
needs_board = pytest.mark.skipif(not HAVE_BOARD, reason="VASL board 2 and its engine results not present")


def test_import_rule_sets_the_constants_and_restores_them_even_after_an_error():
    features = hex_terrain._hex_features
    with pytest.raises(RuntimeError, match="inside"):
        with import_rule({"BUILDING_SHARE": 0.3, "HEXSIDE_MIN_SHARE": 0.1, "GROUND_FROM_CENTRE_DOT": 0},
                         min_share={"grain": 0.6}):
            assert hex_terrain.BUILDING_SHARE == 0.3 and hexsides.HEXSIDE_MIN_SHARE == 0.1
            assert hex_terrain.GROUND_FROM_CENTRE_DOT is False
            assert hex_terrain._hex_features is not features
            raise RuntimeError("inside")
    assert hex_terrain.BUILDING_SHARE == 0.06 and hexsides.HEXSIDE_MIN_SHARE == 0.15
    assert hex_terrain.GROUND_FROM_CENTRE_DOT is True
    assert hex_terrain._hex_features is features


def test_import_rule_refuses_a_constant_it_does_not_know():
    with pytest.raises(ValueError, match="import constant 'ROAD_SHARE': expected one of BUILDING_SHARE"):
        with import_rule({"ROAD_SHARE": 0.2}):
            pass


def test_parse_point_reads_every_kind_of_setting_and_refuses_one_without_a_value():
    assert parse_point("") == {"constants": {}, "min_share": {}, "centre_keeps": True}
    assert parse_point("min:woods=0.5,centre_keeps=false,SHARED_SHARE=0.2") == {
        "constants": {"SHARED_SHARE": 0.2}, "min_share": {"woods": 0.5}, "centre_keeps": False}
    with pytest.raises(ValueError, match="sweep setting 'min:woods': expected NAME=VALUE"):
        parse_point("min:woods")
    with pytest.raises(ValueError, match="sweep setting 'min:woods=abc': expected a number after '=', got 'abc'"):
        parse_point("min:woods=abc")


@needs_board
def test_the_importer_defaults_count_what_agreement_figures_counts():
    counts = hex_agreement([BOARD])[BOARD]
    figures = agreement_figures(BOARD, ("hex",))["hex"]
    assert counts == {key: figures[key] for key in ("compared", "agree", "both_clear", "hindrance_equal")}
    agreement, wrong, _ = summary({BOARD: counts})
    assert agreement == pytest.approx(figures["agreement"])
    assert wrong == figures["compared"] - figures["agree"]


@needs_board
def test_each_setting_changes_the_import():
    """Board 2: reading levels by the dominant elevation, and keeping only woods hexes half covered by trees,
    lose agreement; keeping a woods hex whose centre dot lies in its trees loses less than dropping it."""
    base = hex_agreement([BOARD])[BOARD]["agree"]
    dominant_level = hex_agreement([BOARD], constants={"GROUND_FROM_CENTRE_DOT": False})[BOARD]["agree"]
    half_woods = hex_agreement([BOARD], min_share={"woods": 0.5})[BOARD]["agree"]
    half_woods_only = hex_agreement([BOARD], min_share={"woods": 0.5}, centre_keeps=False)[BOARD]["agree"]
    assert dominant_level < base
    assert half_woods_only < half_woods < base


def test_hex_agreement_reads_the_boards_of_the_shared_folder_it_is_given(tmp_path):
    with pytest.raises(FileNotFoundError, match="bd02.npz"):
        hex_agreement([BOARD], shared=tmp_path)


@needs_board
def test_toggle_gains_tries_the_features_and_levels_asked_for_and_best_toggles_keeps_only_gains():
    base = hex_agreement([BOARD])[BOARD]["agree"]
    agree, woods = toggle_gains(BOARD, features=("woods",), least_level_share=1.1)
    assert agree == base
    assert woods and all(t["feature"] == "woods" for t in woods)
    assert all(t["imported"] or t["share"] >= 0.01 for t in woods)
    # a woods hex whose trees cover most of it loses agreement when read as open ground
    assert all(t["gain"] < 0 for t in woods if t["imported"] and t["share"] > 0.7)
    _, grain = toggle_gains(BOARD, features=("grain",), least_level_share=1.1)
    _, every_hex = toggle_gains(BOARD, features=("grain",), least_share=0.0, least_level_share=1.1)
    assert 0 < len(grain) < len(every_hex) == HEXES
    _, levels = toggle_gains(BOARD, features=(), least_level_share=0.05)
    assert levels and all("level" in t and t["share"] >= 0.05 for t in levels)
    gaining = [t for t in woods + levels if t["gain"] > 0]
    best = best_toggles(BOARD, woods + levels)
    assert base < best <= base + sum(t["gain"] for t in gaining)
    assert best_toggles(BOARD, [t for t in woods + levels if t["gain"] <= 0]) == base
