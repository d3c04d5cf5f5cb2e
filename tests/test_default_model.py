"""The LOS model a call uses when it names none: the depiction model on a map with VASL art, else hex.

The rules read LOS off the drawing (B.1): on a VASL board a user who does not know the ``model``
keyword must get the depiction model's answer, and every result says which model gave it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import kernel
from kernel.cli import main
from tests.shared_data import needs, quiet, vasl_folder

VASL = vasl_folder()
needs_vasl = needs("vasl")


@pytest.fixture(scope="module")
def vasl_board():
    if not VASL.is_dir():
        pytest.skip("VASL board data (../shared/vasl) not present")
    return quiet(kernel.load_vasl_board, VASL / "bd02")


@pytest.fixture(scope="module")
def differing_pairs(vasl_board):
    """Pairs of board 2 where the hex and the depiction models disagree on blocked/clear."""
    rng = np.random.default_rng(11)
    a = rng.integers(0, len(vasl_board), 3000)
    b = rng.integers(0, len(vasl_board), 3000)
    hex_ = kernel.los_pairs(vasl_board, a, b, model="hex").visible
    art = quiet(kernel.los_pairs, vasl_board, a, b, model="depiction").visible
    differ = np.flatnonzero(hex_ != art)
    assert differ.size >= 5, "board 2 should have pairs the two models call differently"
    return a[differ[:20]], b[differ[:20]]


def test_a_map_of_hexes_defaults_to_the_hex_model():
    board = kernel.load("default")
    assert kernel.default_model(board) == "hex"
    assert kernel.default_model(kernel.random_board("valor-victory", 6, 5, seed=2)) == "hex"
    assert kernel.los(board, "71I4", "72M6").model == "hex"
    fire = kernel.field_of_fire(board, "71I4")
    assert fire.model == "hex" and fire.to_dict()["model"] == "hex"
    assert "hex model" in kernel.los(board, "71I4", "72M6").headline


@needs_vasl
def test_a_vasl_board_defaults_to_the_depiction_model(vasl_board, differing_pairs):
    assert kernel.default_model(vasl_board) == "depiction"
    a, b = differing_pairs
    default = kernel.los_pairs(vasl_board, a, b)
    art = kernel.los_pairs(vasl_board, a, b, model="depiction")
    hex_ = kernel.los_pairs(vasl_board, a, b, model="hex")
    assert (default.visible == art.visible).all() and (default.hindrance == art.hindrance).all()
    assert (default.visible != hex_.visible).all()   # the default changes the answer where the models differ
    names = [vasl_board.name(int(i)) for i in (a[0], b[0])]
    one = kernel.los(vasl_board, *names)
    assert one.model == "depiction" and one.visible == bool(art.visible[0]) and "depiction model" in one.headline
    assert kernel.los(vasl_board, *names, model="hex").model == "hex"
    for i, j, seen in zip(a, b, art.visible):
        assert kernel.can_see(vasl_board, int(i), int(j)) == bool(seen)
        assert kernel.can_see(vasl_board, int(i), int(j), model="hex") != bool(seen)


@needs_vasl
def test_fields_of_fire_and_threat_map_follow_the_model(vasl_board, differing_pairs):
    sources = [int(s) for s in differing_pairs[0][:3]]
    rows = kernel.fields_of_fire(vasl_board, sources)
    assert rows.model == "depiction"
    for k, s in enumerate(sources):
        assert (rows.hindrance[k] == kernel.field_of_fire(vasl_board, s, model="depiction").hindrance).all()
    hex_rows = kernel.fields_of_fire(vasl_board, sources, model="hex")
    assert hex_rows.model == "hex" and (hex_rows.hindrance != rows.hindrance).any()
    assert (kernel.field_of_fire(vasl_board, sources).hindrance
            == kernel.field_of_fire(vasl_board, sources, model="depiction").hindrance).all()
    threat = kernel.threat_map(vasl_board, sources)
    assert (threat.count == np.count_nonzero(rows.visible, axis=0)).all()
    assert (kernel.threat_map(vasl_board, sources, model="hex").count != threat.count).any()


@needs_vasl
def test_the_cli_names_the_model_and_takes_model(vasl_board, differing_pairs, capsys):
    a, b = (vasl_board.name(int(h)) for h in (differing_pairs[0][0], differing_pairs[1][0]))
    folder = str(VASL / "bd02")
    assert main(["los", a, b, "--map", folder, "--json"]) == 0
    default = json.loads(capsys.readouterr().out)
    assert main(["los", a, b, "--map", folder, "--model", "hex", "--json"]) == 0
    hex_ = json.loads(capsys.readouterr().out)
    assert default["model"] == "depiction" and hex_["model"] == "hex"
    assert default["visible"] != hex_["visible"]
    assert main(["fire", "--from", a, "--map", folder]) == 0
    assert "depiction model" in capsys.readouterr().out


def test_two_models_on_the_command_line_are_refused(capsys):
    assert main(["los", "71I4", "72M6", "--model", "hex", "--depiction"]) == 2
    assert "two LOS models given (depiction, hex)" in capsys.readouterr().err


def test_the_cli_names_the_hex_model_on_a_map_of_hexes(capsys):
    assert main(["los", "71I4", "72M6"]) == 0
    assert "hex model" in capsys.readouterr().out
    assert main(["fire", "--from", "71I4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["model"] == "hex"


def test_an_unknown_model_is_refused():
    with pytest.raises(ValueError, match="model is 'pixels': expected one of 'hex', 'depiction', 'vasl'"):
        kernel.los(kernel.load("default"), "71I4", "72M6", model="pixels")
