"""The other name of a merged edge half hex (A2.2) is another name of the merged hex: the API and the CLI accept it
(VASL names a merged seam hex after the board it places later) and answer with the A2.2 name."""

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
    assert not set(other) & set(board.names)


def test_one_board_has_no_other_names():
    assert merged_half_hex_names(kernel.load("71")) == {}


@pytest.mark.parametrize("name, merged", [("71GG7", "72A7"), ("71GG1", "72A1"), ("73A5", "74GG5")])
def test_the_other_name_is_the_merged_hex(board, name, merged):
    assert board.index(name) == board.index(merged) == merged_half_hex_names(board)[name]
    assert board.names[board.index(name)] == merged          # outputs keep the A2.2 name
    assert kernel.los(board, "71I4", name).explain() == kernel.los(board, "71I4", merged).explain()
    assert merged in kernel.los(board, "71I4", name).explain() and name not in kernel.los(board, "71I4", name).explain()
    assert board.location(name) == board.location(merged)


def test_a_hex_off_the_map_gets_the_plain_error(board):
    with pytest.raises(KeyError, match=r"hex '71GG11' is not on this map \(Hexkernel default"):
        board.index("71GG11")


def test_cli_answers_with_the_a22_name(capsys):
    assert main(["los", "71I4", "71GG7"]) == 0
    out = capsys.readouterr().out
    assert "72A7" in out and "71GG7" not in out
