"""Many short labels (hex names, DRMs, costs) as one artist: fast to draw, small in SVG.

A picture of the default map writes some 1,700 labels; as matplotlib
``Text`` artists with a white halo they took about 80 % of the time of a
picture and most of an SVG's size.  :func:`draw_labels` draws a whole set of
labels as **one** compound path (glyph outlines from a per-character cache,
placed with numpy) under one white halo path, so Agg renders them in one go;
for SVG, :func:`svg_with_text` then swaps each such path for plain ``<text>``
elements (the halo as an SVG stroke painted under the fill), so an SVG
carries a few bytes per label instead of its glyph outlines.

Layers are remembered on the figure (``figure.hexkernel_labels``) so
:func:`kernel.render.common.save` can find them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

#: The font of every label (matplotlib's bundled DejaVu Sans).
FONT_FAMILY = "DejaVu Sans"
#: Height of a capital letter or digit of DejaVu Sans, in em: labels are centred on it.
_CAP_HEIGHT = 0.729


@dataclass
class LabelLayer:
    """One set of labels: where they are (data units), what they say, how they look."""

    x: np.ndarray
    y: np.ndarray
    texts: list
    size: float          # points
    colours: list
    weight: str
    halo: float          # halo width in points (0: none)
    gid: str
    axes: object
    patches: tuple = ()  # the glyph path and its halo (what hollow_label_paths empties)


@lru_cache(maxsize=None)
def _glyph(char: str, weight: str):
    """Outline (vertices, codes) of one character at size 1 and its advance, in em."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    prop = FontProperties(family=FONT_FAMILY, weight=weight)
    one = TextPath((0, 0), char, size=1, prop=prop)
    two = TextPath((0, 0), char * 2, size=1, prop=prop)
    if len(one.vertices):
        advance = float(two.vertices[:, 0].max() - one.vertices[:, 0].max())
    else:  # a space: no outline
        advance = float(TextPath((0, 0), "x" + char + "x", size=1, prop=prop).vertices[:, 0].max()
                        - TextPath((0, 0), "xx", size=1, prop=prop).vertices[:, 0].max())
    return np.asarray(one.vertices, float), np.asarray(one.codes, np.uint8), advance


@lru_cache(maxsize=None)
def _label(text: str, weight: str):
    """Outline of a whole label at size 1, centred on its middle and on the cap height."""
    verts, codes, x = [], [], 0.0
    for char in text:
        v, c, advance = _glyph(char, weight)
        if len(v):
            verts.append(v + (x, 0.0))
            codes.append(c)
        x += advance
    if not verts:
        return np.zeros((0, 2)), np.zeros(0, np.uint8)
    v = np.concatenate(verts)
    return v - (x / 2.0, _CAP_HEIGHT / 2.0), np.concatenate(codes)


def draw_labels(page, x, y, texts, *, size: float, colour="#111111", weight: str = "normal", halo: float = 0.0,
                zorder: float = 10.0):
    """Draw labels centred on data points ``(x[k], y[k])`` as one path (and one halo path).

    Parameters
    ----------
    page : kernel.render.common.Page
    x, y : array-like
        Centres in data units.
    texts : sequence of str
    size : float
        Font size in points.
    colour : colour or sequence of colours
        One colour for all, or one per label (labels are grouped by colour).
    weight : str
        ``"normal"`` or ``"bold"``.
    halo : float
        Width in points of a white outline under the labels (0: none).
    zorder : float
    """
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    x = np.asarray(x, float)
    y = np.asarray(y, float)
    texts = [str(t) for t in texts]
    if not texts:
        return
    colours = [colour] * len(texts) if isinstance(colour, (str, tuple)) else list(colour)
    scale = size / page.ppu   # data units per em
    figure = page.figure
    layers = figure.__dict__.setdefault("hexkernel_labels", [])
    for group in dict.fromkeys(map(str, colours)):
        members = [k for k, c in enumerate(colours) if str(c) == group]
        verts, codes = [], []
        for k in members:
            v, c = _label(texts[k], weight)
            if len(v):
                verts.append(v * scale + (x[k], y[k]))
                codes.append(c)
        if not verts:
            continue
        path = Path(np.concatenate(verts), np.concatenate(codes))
        gid = f"hexkernel-labels-{len(layers)}"
        col = colours[members[0]]
        if halo:
            figure_halo = PathPatch(path, facecolor="white", edgecolor="white", linewidth=halo, zorder=zorder - 0.01,
                                    joinstyle="round")
            figure_halo.set_gid(gid + "-halo")
            page.ax.add_artist(figure_halo)   # add_patch would walk every curve for the data limits
        patch = PathPatch(path, facecolor=col, edgecolor="none", zorder=zorder)
        patch.set_gid(gid)
        page.ax.add_artist(patch)
        layers.append(LabelLayer(x[members], y[members], [texts[k] for k in members], size, [col] * len(members),
                                 weight, halo, gid, page.ax, (patch, figure_halo) if halo else (patch,)))


def _svg_colour(colour) -> str:
    from matplotlib.colors import to_hex

    return to_hex(colour)


def svg_with_text(figure, svg: str) -> str:
    """Replace each label path of an SVG written from ``figure`` with ``<text>`` elements.

    Call it right after ``figure.savefig(..., format="svg")``: the axes'
    transforms are then those of the SVG (72 units per inch, y downwards).
    """
    layers = figure.__dict__.get("hexkernel_labels", [])
    if not layers:
        return svg
    height = figure.get_figheight() * 72.0
    to_points = 72.0 / figure.dpi
    for layer in layers:
        ax = layer.axes
        px, py = ax.transData.transform(np.column_stack([layer.x, layer.y])).T
        px, py = px * to_points, height - py * to_points
        box = ax.get_window_extent()
        x0, x1 = box.x0 * to_points, box.x1 * to_points
        y0, y1 = height - box.y1 * to_points, height - box.y0 * to_points
        keep = (px >= x0) & (px <= x1) & (py >= y0) & (py <= y1)
        baseline = layer.size * _CAP_HEIGHT / 2.0
        fill = _svg_colour(layer.colours[0])
        stroke = (f' stroke="#ffffff" stroke-width="{layer.halo:.2f}" stroke-linejoin="round" paint-order="stroke"'
                  if layer.halo else "")
        head = (f'<g id="{layer.gid}" font-family="{FONT_FAMILY}, sans-serif" font-size="{layer.size:.2f}" '
                f'font-weight="{layer.weight}" text-anchor="middle" fill="{fill}"{stroke}>')
        items = [f'<text x="{a:.1f}" y="{b + baseline:.1f}">{_escape(t)}</text>'
                 for a, b, t, k in zip(px, py, layer.texts, keep) if k]
        text = head + "".join(items) + "</g>"
        svg = _replace_group(svg, layer.gid, text)
        if layer.halo:
            svg = _replace_group(svg, layer.gid + "-halo", "")
    return svg


class hollow_label_paths:
    """While active, the label paths of ``figure`` (:func:`draw_labels`) are empty.

    An SVG written meanwhile has each label layer's group with an empty path in it, which
    :func:`svg_with_text` replaces with the ``<text>`` elements as it would the glyph outlines: the same
    SVG, without converting and escaping the outlines of every label only to throw them away.
    """

    def __init__(self, figure):
        self.patches = [patch for layer in figure.__dict__.get("hexkernel_labels", []) for patch in layer.patches]

    def __enter__(self):
        from matplotlib.path import Path

        self.paths = [patch.get_path() for patch in self.patches]
        empty = Path(np.zeros((0, 2)))
        for patch in self.patches:
            patch.set_path(empty)
        return self

    def __exit__(self, *exc):
        for patch, path in zip(self.patches, self.paths):
            patch.set_path(path)
        return False


class two_decimal_svg_paths:
    """While active, matplotlib writes SVG path data with 2 decimals (0.01 pt) instead of 6.

    Far below what anyone sees, and about a fifth of an SVG's bytes.  It
    replaces the private ``RendererSVG._convert_path`` for the duration (the
    same call with precision 2); where this matplotlib has no such method or
    no ``matplotlib._path.convert_to_string``, it does nothing.
    """

    def __enter__(self):
        from matplotlib.backends import backend_svg

        self.renderer = backend_svg.RendererSVG
        self.original = getattr(self.renderer, "_convert_path", None)
        try:
            from matplotlib import _path
        except ImportError:
            return self
        if self.original is None or not hasattr(_path, "convert_to_string"):
            return self

        def convert(renderer, path, transform=None, clip=None, simplify=None, sketch=None):
            box = (0.0, 0.0, renderer.width, renderer.height) if clip else None
            return _path.convert_to_string(path, transform, box, simplify, sketch, 2,
                                           [b"M", b"L", b"Q", b"C", b"z"], False).decode("ascii")

        self.renderer._convert_path = convert
        return self

    def __exit__(self, *exc):
        if self.original is not None:
            self.renderer._convert_path = self.original
        return False


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _replace_group(svg: str, gid: str, replacement: str) -> str:
    """Replace matplotlib's ``<g id="gid">...</g>`` (one path inside) with ``replacement``."""
    pattern = re.compile(r'<g id="' + re.escape(gid) + r'">.*?</g>', re.S)
    result, count = pattern.subn(lambda _: replacement, svg, count=1)
    if count != 1:
        raise ValueError(f"SVG has no group {gid!r}: expected the label path matplotlib wrote")
    return result


def label_texts(figure, axes=None) -> list[str]:
    """Every label drawn with :func:`draw_labels` on ``figure`` (on ``axes`` only, when given), for checks.

    >>> label_texts(object.__new__(type("Figure", (), {})))
    []
    """
    return [t for layer in getattr(figure, "__dict__", {}).get("hexkernel_labels", [])
            if axes is None or layer.axes is axes for t in layer.texts]
