"""Coverage of a chosen set of hexes: ``kernel.coverage`` and ``hexkernel vantage --targets``, against los_pairs."""

from __future__ import annotations

import json

import numpy as np
import pytest

import kernel
from kernel.cli import main
from kernel.line_of_sight.vantage import feature_hexes, target_hexes


@pytest.fixture(scope="module")
def board():
    return kernel.load("default")


@pytest.fixture(scope="module")
def roads(board):
    return kernel.coverage(board, "road")


def test_road_hexes_are_the_hexes_a_road_runs_through(board):
    road = board.ruleset.hexside_names.index("road")
    expected = [i for i in range(len(board)) if any(int(m) >> road & 1 for m in board.hexside[i])]
    assert feature_hexes(board, "road").tolist() == expected
    woods = feature_hexes(board, "woods")
    assert woods.size and all("woods" in board.terrain_of(i) for i in woods)


def test_counts_agree_with_los_pairs(board, roads):
    rows = [board.index("71I4"), board.index("72M6"), len(board)]   # two ground Locations and the first upper one
    for row in rows:
        h, level = int(roads.hexes[row]), int(roads.levels[row])
        pairs = kernel.los_pairs(board, [h] * len(roads.targets), roads.targets, levels=level)
        assert roads.seen[row] == int(pairs.visible.sum())
        assert roads.clear[row] == int((pairs.visible & (pairs.hindrance == 0)).sum())
        if pairs.visible.any():
            assert roads.mean_hindrance[row] == pytest.approx(float(pairs.hindrance[pairs.visible].mean()))
    assert len(roads.hexes) == len(board) + int(board.top_level.sum())


def test_ranking_is_seen_then_clear_then_least_hindrance(board, roads):
    best = roads.best(board, top=30)
    keys = [(-b["targets_seen"], -b["seen_clear"], b["mean_hindrance"] if b["mean_hindrance"] is not None
             else np.inf) for b in best]
    assert keys == sorted(keys)
    assert best[0]["targets_seen"] == int(roads.seen.max())


def test_counters_change_the_coverage(board, roads):
    counters = kernel.Counters.on(board, smoke={"71J4": 3, "71J5": 3, "71H5": 3})
    smoked = kernel.coverage(board, "road", counters=counters)
    row = board.index("71I4")
    assert (smoked.seen[row], smoked.mean_hindrance[row]) != (roads.seen[row], roads.mean_hindrance[row])


def test_targets_forms(board):
    assert target_hexes(board, "71I4").tolist() == [board.index("71I4")]
    assert target_hexes(board, ["71P5h1", "71I4", "71I4"]).tolist() == sorted({board.index("71P5"), board.index("71I4")})
    assert target_hexes(board, np.array([7, 3])).tolist() == [3, 7]


def test_bad_targets_are_refused(board):
    with pytest.raises(ValueError, match="'river' is not a terrain type or hexside feature of ruleset 'asl'"):
        feature_hexes(board, "river")
    with pytest.raises(ValueError, match="targets: no hexes given: expected at least one hex"):
        kernel.coverage(board, [])
    with pytest.raises(TypeError, match="targets must be hexes or a feature name, not float"):
        kernel.coverage(board, 1.5)
    with pytest.raises(KeyError, match="hex '71ZZ4' is not on this map"):
        kernel.coverage(board, ["71ZZ4"])


def test_cli_targets_feature_names_and_file(tmp_path, capsys, board):
    assert main(["vantage", "--targets", "road", "--top", "3", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    roads = kernel.coverage(board, "road")
    assert payload["best"] == roads.best(board, 3) and len(payload["targets"]) == len(roads.targets)
    names = tmp_path / "hexes.txt"
    names.write_text("# the crossroads\n71I4, 71I5\n71J5  # and one more\n")
    assert main(["vantage", "--targets", str(names), "--top", "2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("best posts over 3 hexes of hexes.txt") and "sees    3 of 3" in text
    assert main(["vantage", "--targets", "71I4,71I5", "--top", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["targets"] == ["71I4", "71I5"]


def test_cli_targets_picture_and_mistakes(tmp_path, capsys):
    assert main(["vantage", "--targets", "road", "--top", "3", "--png", str(tmp_path / "road.png"), "--dpi", "40"]) == 0
    assert (tmp_path / "road.png").stat().st_size > 10_000
    capsys.readouterr()
    assert main(["vantage", "--targets", "river"]) == 2
    assert "--targets: 'river' is not a terrain type or hexside feature" in capsys.readouterr().err
    assert main(["vantage", "--depiction"]) == 2
    assert "--depiction and --vasl-hindrance rank only with --targets" in capsys.readouterr().err


def test_cli_targets_bad_hexes_and_unreadable_file(tmp_path, capsys):
    assert main(["vantage", "--targets", "71I4,71ZZ4"]) == 2
    assert "--targets: hex '71ZZ4' is not on this map" in capsys.readouterr().err
    binary = tmp_path / "hexes.bin"
    binary.write_bytes(b"\xff\xfe71I4")
    assert main(["vantage", "--targets", str(binary)]) == 2
    assert f"--targets {binary}: 'utf-8' codec can't decode" in capsys.readouterr().err


def test_cli_scale_changes_the_vantage_picture(tmp_path):
    for scale in ("quantile", "linear"):
        assert main(["vantage", "--map", "71", "--top", "2", "--scale", scale, "--png", str(tmp_path / f"{scale}.png"),
                     "--dpi", "40"]) == 0
    assert (tmp_path / "quantile.png").read_bytes() != (tmp_path / "linear.png").read_bytes()
