"""The other name of a merged edge half hex (A2.2) names the merged hex, in the API and on the command line."""

from __future__ import annotations

import pytest

import kernel
from kernel.cli import main
from kernel.grid.references import merged_half_hex_names


@pytest.fixture(scope="module")
def board():
    return kernel.load("default")


def test_every_merged_hex_has_its_other_name(board):
    other = merged_half_hex_names(board)
    assert sorted(set(other.values())) == [int(i) for i in board.merged.nonzero()[0]]
    assert other["71GG7"] == board.index("72A7")
    for name, index in other.items():
        assert name not in board.names and board.index(name) == index


def test_one_board_has_no_other_names():
    assert merged_half_hex_names(kernel.load("71")) == {}


def test_api_accepts_the_other_name(board):
    result = kernel.los(board, "71I4", "71GG7")
    assert result.target == "72A7" and result == kernel.los(board, "71I4", "72A7")
    assert board.location("71GG7") == (board.index("72A7"), 0)
    assert board.indices(["71GG7", "72A7"]).tolist() == [board.index("72A7")] * 2


def test_a_hex_off_the_map_is_still_an_error(board):
    with pytest.raises(KeyError, match="hex '71GG11' is not on this map"):
        board.index("71GG11")


def test_cli_answers_the_merged_hex_and_says_so(capsys):
    main(["los", "71I4", "71GG7"])
    out, err = capsys.readouterr()
    assert out.startswith("LOS 71I4 -> 72A7 (asl)")
    assert "note: target 71GG7 is the edge half hex merged into 72A7 (A2.2)" in err
    main(["los", "71I4", "72A7"])
    assert capsys.readouterr().err == ""
