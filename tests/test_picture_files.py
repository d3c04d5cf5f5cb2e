"""The picture files: the fast SVG collection writer writes matplotlib's bytes; the PNG writer keeps the pixels."""

from __future__ import annotations

import io

import numpy as np
import pytest

pytest.importorskip("matplotlib")


def _svg(figure, fast: bool) -> str:
    import matplotlib

    from kernel.render.svg_paths import fast_svg_collections

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "hexkernel-test"}):
        if fast:
            with fast_svg_collections():
                figure.savefig(buffer, format="svg", metadata={"Date": None})
        else:
            figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def _figure():
    """Collections of every kind the writer covers, and some it leaves to matplotlib."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.figure import Figure

    figure = Figure(figsize=(4, 3))
    FigureCanvasAgg(figure)
    ax = figure.add_axes((0.1, 0.1, 0.8, 0.8))
    ax.set_xlim(-1, 11)
    ax.set_ylim(-1, 11)
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    polys = [square + (i % 10, i // 10) for i in range(60)]
    faces = [(0.2, 0.4, 0.6, 1.0), (1.0, 0.0, 0.0, 0.5), (0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)]
    edges = [(0.1, 0.1, 0.1, 1.0), (0.0, 0.0, 0.0, 0.0), (0.9, 0.9, 0.2, 0.7)]
    ax.add_collection(PolyCollection(polys, facecolors=faces, edgecolors=edges, linewidths=[0.5, 2.0]))
    ax.add_collection(PolyCollection(polys[:20], facecolors="none", edgecolors="#6f6f6f", linewidths=0.3,
                                     alpha=0.8, zorder=3))
    ax.add_collection(PolyCollection(polys[20:30], facecolors="#ffcc00", edgecolors="none", zorder=4))
    segments = [[(i, 0), (i + 0.5, 10)] for i in range(10)] + [[(-5, 5), (20, 5)]]   # one runs off the canvas
    ax.add_collection(LineCollection(segments, colors=["#c45a1a", "#1e88e5"], linewidths=[1.5, 3.0],
                                     linestyles=["solid", "dashed", "dotted"], capstyle="round", zorder=5))
    ax.add_collection(PolyCollection(polys[:5], facecolors="#00ff00", hatch="//", zorder=6))   # matplotlib's
    ax.scatter([1, 2, 3], [4, 5, 6], s=[10, 20, 30], c=["r", "g", "b"], zorder=7)              # offsets: matplotlib's
    return figure


def test_fast_collections_write_the_same_svg_as_matplotlib():
    figure = _figure()
    assert _svg(figure, fast=True) == _svg(figure, fast=False)


def test_fast_collections_write_the_same_svg_of_a_demo_picture(tmp_path):
    import kernel

    board = kernel.load("71")
    figure = kernel.fire_picture(board, kernel.field_of_fire(board, "71I4"))
    assert _svg(figure, fast=True) == _svg(figure, fast=False)


def test_fast_collections_restore_matplotlib_afterwards():
    from matplotlib.backends.backend_svg import RendererSVG

    from kernel.render.svg_paths import fast_svg_collections

    before = RendererSVG.draw_path_collection
    with fast_svg_collections():
        assert RendererSVG.draw_path_collection is not before
    assert RendererSVG.draw_path_collection is before


def test_png_file_round_trips_the_pixels_and_names_a_wrong_array(tmp_path):
    from PIL import Image

    from kernel.render.picture_files import write_png

    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 256, (37, 53, 3), dtype=np.uint8)
    pixels[:10] = 255   # flat rows too
    write_png(tmp_path / "x.png", pixels, dpi=200, text={"Software": "hexkernel"})
    with Image.open(tmp_path / "x.png") as image:
        assert image.mode == "RGB" and image.info["Software"] == "hexkernel"
        assert np.array_equal(np.asarray(image), pixels)
    expected = r"uint8 array of shape \(4, 5, 4\): expected uint8 of shape \(height, width, 3\)"
    with pytest.raises(ValueError, match=expected):
        write_png(tmp_path / "y.png", np.zeros((4, 5, 4), np.uint8), dpi=200)
