"""``hexkernel vantage``: the best observation posts and the hill hexes, checked against the LOS matrix."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import kernel
from kernel.cli import main
from kernel.cli.vantage_command import hexes_seen


@pytest.fixture(scope="module")
def board():
    return kernel.load("71")


def run_json(capsys, *args):
    assert main(["vantage", "--map", "71", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_counts_are_row_sums_of_the_los_matrix(board):
    seen = hexes_seen(board)
    ground = [count for _, level, count in seen if level == 0]
    assert ground == (kernel.los_matrix(board) != kernel.BLOCKED).sum(axis=1).tolist()
    upper = [(i, level, count) for i, level, count in seen if level > 0]
    assert len(upper) == int(board.top_level.sum())
    for i, level, count in upper:
        assert count == int(kernel.field_of_fire(board, [i], levels=[level]).visible.sum())


def test_best_locations_are_ranked_and_top_limits_them(board, capsys):
    payload = run_json(capsys, "--top", "4")
    counts = [b["hexes_seen"] for b in payload["best"]]
    assert len(counts) == 4 and counts == sorted(counts, reverse=True)
    best_overall = max(count for _, _, count in hexes_seen(board))
    # the rooftop of the two-level building 71P5 (level 3, above the village) sees a few hexes more than the
    # level-3 hill 71I4
    assert counts[0] == best_overall and payload["best"][0]["location"] == "71P5roof"
    assert [b["location"] for b in payload["best"]][:2] == ["71P5roof", "71I4"]
    assert len(run_json(capsys, "--top", "2")["best"]) == 2


def test_hills_list_every_hill_hex_by_level(board, capsys):
    payload = run_json(capsys)
    for level, hill in payload["hills"].items():
        assert hill["hexes"] == sorted(n for n, v in zip(board.names, board.ground_level) if v == int(level))
    assert set(payload["hills"]) == {str(v) for v in set(board.ground_level.tolist()) if v > 0}


def test_counters_change_the_counts(tmp_path, capsys):
    counters = tmp_path / "c.json"
    counters.write_text('{"smoke": {"71J4": 3, "71H4": 3, "71I5": 3, "71I3": 3, "71H3": 3, "71J3": 3}}')
    plain = run_json(capsys)["hexes_seen_ground_level"]
    smoked = run_json(capsys, "--counters", str(counters))["hexes_seen_ground_level"]
    assert sum(smoked) < sum(plain)


def test_text_and_picture(tmp_path, capsys):
    assert main(["vantage", "--map", "71", "--top", "3", "--png", str(tmp_path / "v.png")]) == 0
    text = capsys.readouterr().out
    assert "1. 71P5roof" in text and "2. 71I4" in text and "hill level 3" in text
    assert (tmp_path / "v.png").stat().st_size > 10_000


def test_top_must_be_positive(tmp_path):
    process = subprocess.run([sys.executable, "-m", "kernel.cli", "vantage", "--top", "0"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300)
    assert process.returncode == 2 and "argument --top: 0: expected a positive integer" in process.stderr
