"""Pictures for analysts: the board's art under the map, the LOS model and counters named, blind hexes apart
from blocking ones, the colour scale of the LOS matrix picture.

Tests that need ``../shared/vasl`` skip cleanly without it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import kernel
from kernel import field_of_fire, los
from kernel.cli import main
from kernel.render.art_layer import ART_COLOURS, art_image, uses_art
from kernel.render.board_map import board_picture
from kernel.render.fire_map import fire_picture
from kernel.render.los_trace import BLIND_COLOUR, BLOCKING_COLOUR, blind_hexes, los_picture, pixel_runs
from kernel.render.matrix_map import value_norm, values_picture
from tests.shared_data import needs, vasl_folder

DPI = 60
VASL = vasl_folder()
needs_vasl = needs("vasl", "bd04")


def texts(figure) -> str:
    found = [t.get_text() for t in figure.texts]
    for legend in figure.legends:
        found += [t.get_text() for t in legend.get_texts()]
    return "\n".join(found)


def legend_patches(figure) -> dict:
    """Legend label -> its handle's face colour (RGBA), for the patches of the figure's legends."""
    out = {}
    for legend in figure.legends:
        for handle, text in zip(legend.legend_handles, legend.get_texts()):
            if hasattr(handle, "get_facecolor"):
                out[text.get_text()] = tuple(np.round(handle.get_facecolor(), 3))
    return out


@pytest.fixture(scope="module")
def default():
    return kernel.load("default")


@pytest.fixture(scope="module")
def board4():
    return kernel.load(str(VASL / "bd04"))


# ---------------------------------------------------------------------------
# the art
# ---------------------------------------------------------------------------

def test_art_image_colours_the_terrain_of_the_pixels():
    """A small synthetic art (board 71 rasterised from its hex model): a woods hex's centre is woods-green."""
    from matplotlib.colors import to_rgb

    from kernel.grid.pixels import UNIT_X, UNIT_Y

    board = kernel.load("71")
    image, extent, names, levels = art_image(board)
    woods = next(i for i in range(len(board)) if "woods" in board.terrain_of(i) and not board.building_levels[i])
    px, py = int(round(int(board.x[woods]) * UNIT_X)), int(round(int(board.y[woods]) * UNIT_Y))
    assert tuple(image[py, px, :3]) == tuple(int(round(255 * c)) for c in to_rgb(ART_COLOURS["woods"]))
    assert "woods" in names and levels == sorted(set(int(v) for v in board.ground_level))
    assert extent[0] < 0 < extent[1] and extent[2] < 0 < extent[3]


def test_art_image_is_cropped_to_the_box():
    board = kernel.load("71")
    whole = art_image(board)[0]
    part = art_image(board, (0.0, 20.0, -20.0, 0.0))[0]
    assert part.shape[0] < whole.shape[0] and part.shape[1] < whole.shape[1]


def test_art_default_and_keyword(default):
    assert not uses_art(default, None) and uses_art(default, None, model="vasl")
    assert uses_art(default, True) and not uses_art(default, False, model="depiction")
    assert not uses_art(kernel.load("ccn-ridge"), True)   # pointy maps: the hex model's colours
    plain = board_picture(default, dpi=DPI, hexes=["71I4", "71J5"])
    drawn = board_picture(default, art=True, dpi=DPI, hexes=["71I4", "71J5"])
    assert not plain.axes[0].images and len(drawn.axes[0].images) == 1
    assert "hex model colours" in texts(plain) and "art rasterised from the hex model" in texts(drawn)


@needs_vasl
def test_a_vasl_board_is_drawn_from_its_art(board4):
    figure = board_picture(board4, dpi=DPI)
    assert len(figure.axes[0].images) == 1
    words = texts(figure)
    assert "board art (VASL)" in words and "woods (art)" in words and "grain (art)" in words
    assert "hedge (art)" in words and "road (hex model)" in words
    hexes = board_picture(board4, art=False, dpi=DPI)
    assert not hexes.axes[0].images and "hex model colours" in texts(hexes)


@needs_vasl
def test_depiction_los_picture_draws_the_art_and_the_judged_pixel_runs(board4):
    result = los(board4, "4I6", "4P6", model="depiction")
    runs = pixel_runs(result)
    assert runs and {effect for _, effect, _ in runs} >= {"blocks", "hindrance"}
    figure = los_picture(board4, result, dpi=DPI)
    words = texts(figure)
    assert "(depiction model)" in words and "LOS model: depiction" in words and "board art (VASL)" in words
    assert "art pixels judged: blocks" in words and "art pixels judged: hindrance" in words
    assert len(figure.axes[0].images) == 1
    plain = los_picture(board4, result, art=False, dpi=DPI)
    assert not plain.axes[0].images


@needs_vasl
def test_fire_pictures_of_two_models_are_told_apart(board4):
    hexes = fire_picture(board4, field_of_fire(board4, "4L5", model="hex"), dpi=DPI)
    drawn = fire_picture(board4, field_of_fire(board4, "4L5", model="depiction"), model="depiction", dpi=DPI)
    assert "Field of fire from 4L5 (hex model)" in texts(hexes) and "LOS model: hex" in texts(hexes)
    assert "Field of fire from 4L5 (depiction model)" in texts(drawn)


# ---------------------------------------------------------------------------
# the LOS picture that settles a LOS
# ---------------------------------------------------------------------------

def test_blind_hexes_blocking_hexes_and_hindrances_have_their_own_colours(default):
    from matplotlib.colors import to_rgba

    result = los(default, "71I4", "72M6")
    assert result.reason_name == "blind hex"
    figure = los_picture(default, result, dpi=DPI)
    patches = legend_patches(figure)
    assert "blind hex (in the A6.4 zone, along the line)" in patches
    assert "casts a blind zone (A6.4 obstacle or crest)" in patches
    assert "blocking hex" not in patches   # nothing blocks this LOS but the blind zone
    assert "A6.4: higher end 71I4 at level 3, lower end 72M6 at level 0" in texts(figure)
    from kernel.line_of_sight._templates.tracer import trace

    zones = blind_hexes(default, result, trace(default, default.index("71I4"), default.index("72M6")))
    assert default.index("72M6") in zones[default.index("72K6")]
    assert all(default.distance(h, "72K6") <= 6 for h in zones[default.index("72K6")])
    assert to_rgba(BLOCKING_COLOUR)[:3] != to_rgba(BLIND_COLOUR)[:3]


def test_hindrance_and_blocking_legend_entries(default):
    counters = kernel.Counters.on(default, smoke={"71L5": 2})
    result = los(default, "71K5", "71N6", counters=counters)   # SMOKE +2 in 71L5, then the block in 71M6
    figure = los_picture(default, result, counters=counters, dpi=DPI)
    words = texts(figure)
    assert "hindrance hex (+DRM)" in words and "counters: SMOKE in 1 hex" in words and "LOS model: hex" in words
    patches = legend_patches(figure)
    assert patches["blocking hex"] != patches["hindrance hex (+DRM)"] and "blind hex" not in words


# ---------------------------------------------------------------------------
# the colour scale
# ---------------------------------------------------------------------------

def test_quantile_scale_is_not_swamped_by_a_few_large_values():
    values = np.concatenate([np.arange(1, 101), [5000, 6000]]).astype(float)
    linear, quantile, log = (value_norm(values, s) for s in ("linear", "quantile", "log"))
    assert float(linear(50)) < 0.01                    # the linear scale puts the median at the bottom
    assert 0.3 < float(quantile(50)) / 255 < 0.7          # the quantile scale: mid-scale (a colour index 0..255)
    assert float(log(50)) > 0.4


def test_unknown_scale_is_refused():
    with pytest.raises(ValueError, match="scale 'rank': expected one of quantile, log, linear"):
        value_norm(np.arange(3.0), "rank")


def test_scale_marks_and_outline_change_the_picture(default):
    seen = np.unpackbits(kernel.visibility_bits(default), axis=1, count=len(default)).sum(axis=1)
    linear = values_picture(default, seen, title="t", label="hexes", dpi=DPI)
    quantile = values_picture(default, seen, title="t", label="hexes", scale="quantile", dpi=DPI,
                              marks=[("71I4", "1")], outlined=["71J5"], outlined_label="target: road hexes")
    colours = [c.get_facecolors() for c in linear.axes[0].collections if len(c.get_facecolors()) == len(default)]
    quantiles = [c.get_facecolors() for c in quantile.axes[0].collections if len(c.get_facecolors()) == len(default)]
    assert not np.allclose(colours[-1], quantiles[-1])
    words = texts(quantile)
    assert "quantile colour scale" in words and "ranked post (its rank)" in words and "target: road hexes" in words


# ---------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------

def test_hex_colours_flag(tmp_path, default):
    assert main(["los", "71I4", "71I6", "--png", str(tmp_path / "a.png"), "--dpi", "40", "--depiction"]) == 0
    assert main(["los", "71I4", "71I6", "--png", str(tmp_path / "b.png"), "--dpi", "40", "--depiction",
                 "--hex-colours"]) == 0
    assert (tmp_path / "a.png").read_bytes() != (tmp_path / "b.png").read_bytes()
