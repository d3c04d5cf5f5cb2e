"""Pictures: produced, non-empty, A4-sized, and geometrically where they should be."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

import kernel
from kernel import field_of_fire, los, movement_field
from kernel.render.board_map import board_picture
from kernel.render.common import A4_LANDSCAPE, Frame, fitted_page, orientation, save
from kernel.render.fire_map import fire_picture
from kernel.render.labels import label_texts
from kernel.render.los_trace import los_picture
from kernel.render.matrix_map import values_picture
from kernel.render.movement_map import _path_points, movement_picture

DPI = 60  # small and quick; an A4 page is then 701 x 496 pixels


def png_size(path) -> tuple[int, int]:
    """Width and height from a PNG file's IHDR header."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def a4_pixels(figure) -> tuple[int, int]:
    width, height = figure.get_size_inches()
    return round(width * figure.dpi), round(height * figure.dpi)


@pytest.fixture(scope="module")
def board71():
    return kernel.load("71")


@pytest.fixture(scope="module")
def ccn():
    return kernel.load("ccn-ridge")


def texts(figure) -> str:
    """Every text of a figure (titles, legend entries), for checks."""
    found = [t.get_text() for t in figure.texts]
    for legend in figure.legends:
        found += [t.get_text() for t in legend.get_texts()]
    return "\n".join(found)


def test_board_picture_png_and_svg(board71, tmp_path):
    figure = board_picture(board71, dpi=DPI)
    # board 71 is a wide strip: an A4 landscape width, and a page no higher than the map needs
    assert tuple(figure.get_size_inches()) == fitted_page(*np.diff(figure.axes[0].get_xlim() + figure.axes[0].get_ylim())[::2])
    assert figure.get_size_inches()[0] == A4_LANDSCAPE[0] and figure.get_size_inches()[1] < A4_LANDSCAPE[1]
    png = save(figure, tmp_path / "board.png")
    svg = save(figure, tmp_path / "board.svg")
    assert png_size(png) == a4_pixels(figure) == (701, 381)
    head = svg.read_bytes()[:400]
    assert head.startswith(b"<?xml") and b"<svg" in head
    assert svg.stat().st_size > 10_000
    legend = texts(figure)
    for entry in ("woods", "stone-building", "hill level 3", "road", "wall (hexside)", "hedge (hexside)"):
        assert entry in legend
    # every hex has its name written in it (single board: full names fit)
    drawn = {t.get_text() for t in figure.axes[0].texts} | set(label_texts(figure))
    assert set(board71.names) <= drawn
    # in the SVG the names are text, not glyph outlines
    written = svg.read_text()
    assert all(f">{name}</text>" in written for name in board71.names)


def test_save_rejects_unknown_format(board71, tmp_path):
    figure = values_picture(board71, np.arange(len(board71)), title="t", label="n", names=False, dpi=DPI)
    with pytest.raises(ValueError, match="png or svg"):
        save(figure, tmp_path / "x.jpg")
    with pytest.raises(ValueError, match="one value per hex"):
        values_picture(board71, [1, 2], title="t", label="n")


def test_hexside_segments_lie_on_the_hexsides(board71):
    frame = Frame(board71)
    hexes, dirs = np.nonzero(board71.hexside != 0)
    segments = frame.hexside_segments(hexes, dirs)
    other = board71.neighbours[hexes, dirs]
    inside = other >= 0
    middle = segments.mean(axis=1)[inside]
    between = np.stack([(frame.cx[hexes] + frame.cx[np.maximum(other, 0)]) / 2,
                        (frame.cy[hexes] + frame.cy[np.maximum(other, 0)]) / 2], -1)[inside]
    np.testing.assert_allclose(middle, between, atol=1e-9)
    length = np.hypot(*(segments[:, 1] - segments[:, 0]).T)
    np.testing.assert_allclose(length, 2.0)  # a hexside is s long: 2 units of s/2


def test_pointy_maps_are_drawn_transposed(ccn, board71, tmp_path):
    assert orientation(ccn) == "pointy"
    assert orientation(board71) == "flat"
    frame = Frame(ccn)
    np.testing.assert_allclose(frame.cx, ccn.y * math.sqrt(3))
    np.testing.assert_allclose(frame.cy, -ccn.x)
    polygon = frame.hexagons(hexes=[0])[0]
    # pointy-topped: the top and bottom of each hex are single vertices
    assert np.isclose(polygon[:, 1].max() - frame.cy[0], 2.0) and (np.isclose(polygon[:, 1], polygon[:, 1].max()).sum() == 1)
    # the printed map is 13 hexes wide and 9 rows high: wider than tall
    xmin, xmax, ymin, ymax = frame.bounds()
    assert xmax - xmin > ymax - ymin
    fire = field_of_fire(ccn, "C8")
    figure = fire_picture(ccn, fire, dpi=DPI)
    width, height = figure.get_size_inches()
    assert height == A4_LANDSCAPE[1] and height < width <= A4_LANDSCAPE[0]   # landscape, bound by its height
    assert png_size(save(figure, tmp_path / "fire.png")) == a4_pixels(figure)


def test_fire_picture_marks_source_and_counts(board71):
    fire = field_of_fire(board71, "71P5", levels=2)
    figure = fire_picture(board71, fire, levels=2, dpi=DPI)
    words = texts(figure)
    assert "Field of fire from 71P5h2" in words
    assert f"visible, no hindrance: {int((fire.visible & (fire.hindrance <= 0)).sum())}" in words
    assert f"blocked (no LOS): {int((~fire.visible).sum())}" in words
    assert "firer: 71P5h2" in words
    # the field's own levels name the firer when none are given
    assert "Field of fire from 71P5h2" in texts(fire_picture(board71, fire, dpi=DPI))


def test_movement_picture_puts_bypass_on_the_hexside():
    board = kernel.load("default")
    field = movement_field(board, "71I4", unit="infantry", allowance=4)
    states = field.path_states("71E4")
    names = [field.state_name(s) for s in states]
    assert names[-2:] == ["71F3-71F4", "71E4"], names
    frame = Frame(board)
    xs, ys, kinds = _path_points(board, frame, field, states)
    assert kinds[0] == "hex" and kinds[-2] == "bypass" and kinds[-1] == "hex"
    h, n = board.index("71F3"), board.index("71F4")
    assert math.isclose(xs[-2], (frame.cx[h] + frame.cx[n]) / 2)
    assert math.isclose(ys[-2], (frame.cy[h] + frame.cy[n]) / 2)
    assert math.isclose(xs[0], frame.cx[board.index("71I4")])
    full = movement_field(board, "71I4", unit="infantry")
    figure = movement_picture(board, field, allowance=4, to="71E4", full=full, dpi=DPI)
    words = texts(figure)
    assert "Bypass: along the hexside" in words
    assert "path to 71E4 (4 MF)" in words
    assert "reachable within 4" in words
    # costs written in the hexes agree with the field
    drawn = [t.get_text() for t in figure.axes[0].texts] + label_texts(figure)
    assert "4" in drawn and "1" in drawn and "0" not in drawn   # the start has its star, not a 0


def test_los_picture_marks_the_block(board71):
    result = los(board71, "71P5h2", "71I9")
    figure = los_picture(board71, result, dpi=DPI)
    words = texts(figure)
    assert f"LOS {result.viewer} \u2192 {result.target}" in words
    if result.visible:
        assert "line of sight (clear)" in words
    else:
        assert f"blocked at {result.blocked_at_name}" in words
        assert result.explain().splitlines()[0] in words


def test_default_map_svgs_stay_under_1_mb_with_names_as_text(tmp_path):
    """SVGs of the default scenario <= 1 MB; names are <text>, path data cut to 0.01 pt."""
    board = kernel.load("default")
    fire = field_of_fire(board, "71I4", counters=kernel.Counters.on(board, smoke={"71L5": 2}))
    field = movement_field(board, "71I4", allowance=4)
    figures = {"board": board_picture(board), "fire": fire_picture(board, fire),
               "move": movement_picture(board, field, allowance=4, full=movement_field(board, "71I4")),
               "los": los_picture(board, los(board, "71I4", "72M6")),
               "values": values_picture(board, np.arange(len(board)), title="t", label="n")}
    for name, figure in figures.items():
        svg = save(figure, tmp_path / f"{name}.svg")
        text = svg.read_text()
        assert svg.stat().st_size <= 1_000_000, (name, svg.stat().st_size)
        assert text.count("</text>") >= 300, name   # hex names (and values) as text elements (move: zoomed)
        assert "scale(0.015625)" in text or "<use" not in text, name   # glyph scales were not rounded


@pytest.mark.parametrize("kind", ["fire", "los", "move"])
def test_counters_are_drawn_with_legend_entries(board71, kind):
    counters = kernel.Counters.on(board71, smoke={"71J5": 3}, vehicles=["71K5"])
    if kind == "fire":
        figure = fire_picture(board71, field_of_fire(board71, "71I4", counters=counters), counters=counters, dpi=DPI)
    elif kind == "los":
        figure = los_picture(board71, los(board71, "71I4", "71L5", counters=counters), counters=counters, dpi=DPI)
    else:
        field = movement_field(board71, "71I4", allowance=4, counters=counters)
        figure = movement_picture(board71, field, allowance=4, counters=counters, dpi=DPI)
    words = texts(figure)
    assert "SMOKE counter (+N: its hindrance DRM)" in words and "vehicle or wreck counter" in words
    assert "+3" in label_texts(figure)
    plain = fire_picture(board71, field_of_fire(board71, "71I4"), dpi=DPI)
    assert "SMOKE counter" not in texts(plain)


def test_smoke_at_an_upper_location_is_labelled_with_it(board71):
    counters = kernel.Counters.on(board71, smoke={"71P5h1": 3, "71J5": 2})
    figure = fire_picture(board71, field_of_fire(board71, "71R6", counters=counters), counters=counters, dpi=DPI)
    labels = label_texts(figure)
    assert {"+3", "+2", "h1"} <= set(labels) and labels.count("h1") == 1   # the ground SMOKE of 71J5 has none
    assert "SMOKE counter (+N: its hindrance DRM; h1, roof: its Location above ground)" in texts(figure)
    ground = kernel.Counters.on(board71, smoke={"71P5": 3})
    figure = fire_picture(board71, field_of_fire(board71, "71R6", counters=ground), counters=ground, dpi=DPI)
    assert "h1" not in label_texts(figure) and "SMOKE counter (+N: its hindrance DRM)" in texts(figure)


def test_los_picture_wraps_long_explanation_lines_and_loses_no_word(board71):
    from kernel.line_of_sight.report import los_report
    from kernel.render.los_trace import NOTE_WIDTH

    result = los(board71, "71I4", "71Q7")
    report = los_report(board71, result)
    assert max(len(line) for line in report.splitlines()) > NOTE_WIDTH   # the check has a long line to wrap
    figure = los_picture(board71, result, dpi=DPI)
    note = next(t.get_text() for t in figure.texts if t.get_text().startswith("LOS 71I4 -> 71Q7"))
    assert max(len(line) for line in note.splitlines()) <= NOTE_WIDTH
    assert note.split() == report.split()
