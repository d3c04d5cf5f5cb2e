"""Picture benchmarks on the bundled four-board scenario: each picture drawn and saved, warm.

Each timing is one picture drawn and written as PNG (or SVG) to memory, as
``hexkernel fire --png`` does after its computation.  The peer, in the same
run, is the board picture with its 1,332 hex names drawn the old way
(one matplotlib ``Text`` with a white halo per name); the
ratio shows what drawing the names as one glyph path saves.  Target: each picture <= 0.5 s warm; the short mode (``make test``) only prints
the figures.
"""

from __future__ import annotations

import io

import pytest

import kernel
import kernel.render.board_map as board_map
from bench.conftest import FIGURES, RATIOS, measure
from kernel.render.common import save

BOARD_PNG = "board picture + PNG, default"
PEER = "board picture + PNG, names as Text artists (the old way)"


@pytest.fixture(scope="module")
def inputs(default_board):
    board = default_board
    return {
        "board": board,
        "fire": kernel.field_of_fire(board, "71I4"),
        "field": kernel.movement_field(board, "71I4", allowance=4),
        "full": kernel.movement_field(board, "71I4"),
        "los": kernel.los(board, "71I4", "72M6"),
        "seen": (kernel.los_matrix(board) != kernel.BLOCKED).sum(axis=1),
    }


def _pictures(i):
    b = i["board"]
    return {
        "board": lambda: kernel.board_picture(b),
        "fire": lambda: kernel.fire_picture(b, i["fire"]),
        "move": lambda: kernel.movement_picture(b, i["field"], allowance=4, full=i["full"]),
        "los": lambda: kernel.los_picture(b, i["los"]),
        "values": lambda: kernel.values_picture(b, i["seen"], title="hexes seen", label="hexes in LOS"),
    }


def _write(figure, fmt):
    """The picture written to memory as :func:`kernel.render.common.save` writes it to a file; its size."""
    from kernel.render.picture_files import svg_text, write_figure_png

    if fmt == "svg":
        return len(svg_text(figure).encode())
    buffer = io.BytesIO()
    write_figure_png(figure, buffer)
    return buffer.tell()


@pytest.mark.parametrize("name", ["board", "fire", "move", "los", "values"])
def test_picture_png(benchmark, inputs, name):
    make = _pictures(inputs)[name]
    label = BOARD_PNG if name == "board" else f"{name} picture + PNG, default"
    measure(benchmark, label, lambda: _write(make(), "png"), rounds=2)


@pytest.mark.parametrize("name", ["board", "fire", "move", "los", "values"])
def test_picture_svg(benchmark, inputs, name, tmp_path):
    make = _pictures(inputs)[name]
    measure(benchmark, f"{name} picture + SVG, default", lambda: _write(make(), "svg"), rounds=1)
    figure = make()
    FIGURES[f"{name} SVG size, default"] = (save(figure, tmp_path / "x.svg").stat().st_size / 1e3, "kB")


def _names_as_text(page, board, *, dim=None, scale=0.9, skip=()):
    """The hex names the old way: one Text with a halo each."""
    import matplotlib.patheffects as effects

    frame = page.frame
    size = page.name_size * scale
    halo = [effects.withStroke(linewidth=max(0.6, size * 0.3), foreground="white")]
    for i in page.inside():
        if i in skip:
            continue
        page.ax.text(frame.cx[i], frame.cy[i] + 0.95, page.labels[i], ha="center", va="center", fontsize=size,
                     color="#111111", zorder=10, clip_on=True, path_effects=halo)
    return size


def test_peer_names_as_text(benchmark, inputs, monkeypatch):
    monkeypatch.setattr(board_map, "draw_names", _names_as_text)
    figure = kernel.board_picture(inputs["board"])
    assert len(figure.axes[0].texts) >= len(inputs["board"])   # the peer really draws Text artists
    measure(benchmark, PEER, lambda: _write(kernel.board_picture(inputs["board"]), "png"), rounds=3)
    RATIOS.append((PEER, BOARD_PNG, "board picture: names as Text / as one glyph path", None))
