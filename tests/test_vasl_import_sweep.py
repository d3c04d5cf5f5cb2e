"""The importer threshold sweep (:mod:`bench.vasl_import_sweep`): its settings change the import and are undone.

The parts that read boards are skipped when ``../shared/vasl`` (the VASL
boards and ``engine/``) is absent.
"""

from __future__ import annotations

import pytest

from bench.vasl_engine import agreement_figures, board_folder_name, engine_folder, vasl_folder
from bench.vasl_import_sweep import hex_agreement, import_rule, parse_point, summary
from kernel.importers.vasl import hex_terrain, hexsides

BOARD = 2
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
