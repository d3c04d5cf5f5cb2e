"""The other name of a merged edge half hex (A2.2) names no hex: the API's and the CLI's errors name the merged hex."""

from __future__ import annotations

import re

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
def test_api_error_names_the_merged_hex(board, name, merged):
    assert merged_half_hex_names(board)[name] == board.index(merged)
    message = f"hex '{name}' is not on this map: it is the edge half hex merged into {merged} (A2.2): " \
              f"expected '{merged}'"
    with pytest.raises(KeyError, match=re.escape(message)):
        board.index(name)
    with pytest.raises(KeyError, match=re.escape(message)):
        kernel.los(board, "71I4", name)
    with pytest.raises(KeyError, match=re.escape(message)):
        board.location(name + "h1")


def test_a_hex_off_the_map_gets_the_plain_error(board):
    with pytest.raises(KeyError, match=r"hex '71GG11' is not on this map \(Hexkernel default"):
        board.index("71GG11")


def test_cli_error_names_the_merged_hex(capsys):
    assert main(["los", "71I4", "71GG7"]) == 2
    err = capsys.readouterr().err
    assert "target: hex '71GG7' is not on this map: it is the edge half hex merged into 72A7 (A2.2): " \
           "expected '72A7'" in err and len(err.strip().splitlines()) == 1
