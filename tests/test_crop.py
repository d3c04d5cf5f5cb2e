"""``--around HEX --radius N`` and ``--area HEX:HEX``: every picture command crops its picture."""

from __future__ import annotations

import argparse
import subprocess
import sys

import numpy as np
import pytest

import kernel
from kernel.cli import main
from kernel.cli.common import UserError
from kernel.cli.crop import picture_view
from kernel.render.common import Frame, full_box


@pytest.fixture(scope="module")
def board():
    return kernel.load("default")


def view_of(board, **options):
    args = argparse.Namespace(around=None, radius=None, area=None)
    vars(args).update(options)
    return picture_view(board, args)


def test_around_is_the_hexes_within_the_radius(board):
    view = view_of(board, around="71I4", radius=2)
    centre = board.index("71I4")
    want = [i for i in range(len(board)) if board.distance(centre, i) <= 2]
    assert view.tolist() == want and len(want) == 19
    assert len(view_of(board, around="71I4")) > len(view)   # default radius 6


def test_area_is_the_rectangle_between_two_corners(board):
    view = view_of(board, area="71A1:71C3")
    # the hexes whose centres lie in the rectangle of the two corners' centres (B3 sits half a hex lower)
    assert sorted(board.names[i] for i in view) == ["71A1", "71A2", "71A3", "71B1", "71B2", "71C1", "71C2", "71C3"]
    assert view_of(board, area="71C3:71A1").tolist() == view.tolist()
    assert view_of(board) is None


@pytest.mark.parametrize(("options", "message"), [
    ({"around": "71I4", "area": "71A1:71C3"}, "--around and --area both given"),
    ({"radius": 3}, "--radius 3 needs --around HEX"),
    ({"area": "71A1"}, "--area '71A1': expected two hexes at opposite corners"),
    ({"around": "71ZZ9"}, "--around: hex '71ZZ9' is not on this map"),
])
def test_crop_mistakes(board, options, message):
    with pytest.raises(UserError, match=message):
        view_of(board, **options)


def test_pictures_are_cropped(board):
    view = view_of(board, around="71I4", radius=3)
    full = full_box(Frame(board))
    fire = kernel.field_of_fire(board, "71I4")
    field = kernel.movement_field(board, "71I4", allowance=4)
    pictures = [kernel.board_picture(board, hexes=view, dpi=40), kernel.fire_picture(board, fire, view=view, dpi=40),
                kernel.movement_picture(board, field, allowance=4, view=view, dpi=40),
                kernel.los_picture(board, kernel.los(board, "71I4", "71K5"), view=view, dpi=40),
                kernel.values_picture(board, np.arange(len(board)), title="t", label="n", view=view, dpi=40)]
    for figure in pictures:
        low, high = figure.axes[0].get_xlim()
        assert high - low < (full[1] - full[0]) / 3


@pytest.mark.parametrize("command", [["info"], ["fire", "--from", "71I4"], ["move", "--from", "71I4"],
                                     ["los", "71I4", "71K5"], ["vantage"]], ids=lambda c: c[0])
def test_every_picture_command_crops(tmp_path, command, capsys):
    out = tmp_path / "crop.png"
    assert main([*command, "--around", "71I4", "--radius", "3", "--png", str(out), "--dpi", "40"]) == 0
    assert out.stat().st_size > 1000


def test_crop_mistake_exits_2(tmp_path):
    process = subprocess.run([sys.executable, "-m", "kernel.cli", "info", "--radius", "3", "--png", "x.png"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert process.returncode == 2 and "--radius 3 needs --around HEX" in process.stderr
    assert not (tmp_path / "x.png").exists()


def test_radius_must_be_a_range(tmp_path):
    process = subprocess.run([sys.executable, "-m", "kernel.cli", "info", "--around", "71I4", "--radius", "-2"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert process.returncode == 2 and "argument --radius: -2 is negative: expected 0 or more hexes" in process.stderr
    process = subprocess.run([sys.executable, "-m", "kernel.cli", "info", "--around", "71I4", "--radius", "x"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert process.returncode == 2 and "argument --radius: 'x' is not an integer" in process.stderr
