"""The picture of any number per hex as a colour map, e.g. how many hexes each hex sees.

:func:`values_picture` colours each hex of the board by a value, with a
colour bar, over the map's terrain (its art where it has art,
:mod:`kernel.render.art_layer`); ``hexkernel matrix``, ``demo`` and
``vantage`` use it for the row sums of the LOS matrix (how many hexes each
hex sees at ground level), ``vantage`` with its ranked posts marked.

The colour scale (``scale``):

``"quantile"``
    ten bands holding a tenth of the hexes each (fewer where values repeat):
    a few hill hexes that see far more than the rest get the top band and do
    not squeeze every other hex into one colour.  The colour bar's ticks are
    the band edges, in the values' own unit.
``"log"``
    logarithmic in ``1 + value``.
``"linear"``
    from the smallest to the largest value.
"""

from __future__ import annotations

import numpy as np

from kernel._extras import require
from kernel.render.board_map import draw_board_labels, draw_names
from kernel.render.common import DEFAULT_DPI, SOURCE_COLOUR, Frame, Page, full_box, map_subtitle, zoom_box

SCALES = ("quantile", "log", "linear")
#: Bands of the ``"quantile"`` scale.
QUANTILE_BANDS = 10


def value_norm(values, scale: str):
    """The matplotlib norm of a colour scale (see the module docstring) for finite ``values``.

    Examples
    --------
    >>> import numpy as np
    >>> norm = value_norm(np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 400, 500]), "quantile")
    >>> [int(norm(v)) for v in (1, 5.5, 10, 500)]   # colour indices 0..255: 1 to 10 spread over the scale
    [0, 113, 226, 255]
    """
    from matplotlib.colors import BoundaryNorm, LogNorm, Normalize

    if scale not in SCALES:
        raise ValueError(f"scale {scale!r}: expected one of {', '.join(SCALES)}")
    values = np.asarray(values, float)
    low = float(values.min()) if values.size else 0.0
    high = float(values.max()) if values.size else 1.0
    if scale == "linear" or high <= low:
        return Normalize(low, high if high > low else low + 1)
    if scale == "log":
        return _ShiftedLog(LogNorm(1.0 + max(low, 0.0), 1.0 + high))
    edges = np.unique(np.quantile(values, np.linspace(0.0, 1.0, QUANTILE_BANDS + 1), method="nearest"))
    if edges.size < 2:
        return Normalize(low, low + 1)
    edges[-1] = np.nextafter(edges[-1], np.inf)   # the largest value inside the top band
    return BoundaryNorm(edges, 256)


class _ShiftedLog:
    """``LogNorm`` of ``1 + value`` (a value of 0 stays on the scale)."""

    def __init__(self, log):
        self.log = log
        self.vmin, self.vmax = log.vmin - 1.0, log.vmax - 1.0

    def __call__(self, values, clip=None):
        return self.log(1.0 + np.asarray(values, float), clip)

    def inverse(self, values):
        return self.log.inverse(values) - 1.0


def values_picture(board, values, *, title: str, label: str, cmap: str = "YlGnBu", names: bool = True,
                   view=None, scale: str = "linear", marks=None, outlined=None, outlined_label: str = "target hex",
                   art: bool | None = None, dpi: int = DEFAULT_DPI):
    """Any number per hex as a colour map over the board's terrain (e.g. how many hexes each hex sees).

    Parameters
    ----------
    board : Board
    values : array of float, shape (N,)
        One value per hex; NaN leaves the hex uncoloured.
    title, label : str
        The title, and the values' name and unit (the colour bar's label).
    cmap : str
        A matplotlib colour map.
    names : bool
        Write the hex names.
    view : sequence of hexes, optional
        Crop the picture to these hexes (names or indices).
    scale : str
        ``"linear"``, ``"quantile"`` (ten bands of equal hex counts) or ``"log"``: see the module
        docstring.
    marks : sequence of (hex, text), optional
        Hexes to mark with a red ring and a short text (e.g. ranked observation posts: ``"1"``, ``"2"``).
    outlined : sequence of hexes, optional
        Hexes to outline (e.g. the targets of a coverage), with the legend entry ``outlined_label``.
    art : bool, optional
        The board's art under the colours (default where the map has art of its own) or, with False,
        the hex model's colours.

    See Also
    --------
    kernel.coverage : counts of hexes seen per Location, to draw with this.
    kernel.save_picture : writes it as PNG or SVG.

    Examples
    --------
    >>> import kernel, matplotlib, numpy as np
    >>> matplotlib.use("Agg")
    >>> board = kernel.load("71")
    >>> seen = (kernel.los_matrix(board) != kernel.BLOCKED).sum(axis=1)
    >>> figure = kernel.values_picture(board, seen, title="hexes seen", label="hexes")
    >>> type(figure).__name__
    'Figure'
    """
    require("plot", "pictures")
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D

    from kernel.render.art_layer import backdrop_text, uses_art
    from kernel.render.board_map import draw_backdrop
    from kernel.render.labels import draw_labels

    frame = Frame(board)
    values = np.asarray(values, float)
    if values.shape != (len(board),):
        raise ValueError(f"values has shape {values.shape}: expected ({len(board)},), one value per hex")
    norm = value_norm(values[np.isfinite(values)], scale)
    finite = np.isfinite(values)
    low = float(values[finite].min()) if finite.any() else 0.0
    high = float(values[finite].max()) if finite.any() else 1.0
    drawn_art = uses_art(board, art)
    box, size = (full_box(frame), None) if view is None else zoom_box(frame, board.indices(list(view)), margin_hexes=0.5)
    page = Page(frame, box, title, map_subtitle(board, f"{label}: {low:g} to {high:g}; {scale} colour scale  ·  "
                                                      f"{backdrop_text(board, drawn_art)}"), dpi=dpi, page=size)
    handles = draw_backdrop(page, board, art=drawn_art, muted=0.25)
    colours = colormaps[cmap]
    polys = frame.hexagons(0.97)
    page.ax.add_collection(PolyCollection(polys[finite], facecolors=colours(norm(values[finite])), alpha=0.62,
                                          edgecolors="none", zorder=3.5))
    if outlined is not None and len(outlined):
        from matplotlib.patches import Patch

        edge = board.indices(list(outlined)) if not isinstance(outlined, np.ndarray) else outlined
        page.ax.add_collection(PolyCollection(frame.hexagons(0.9)[edge], facecolors="none", edgecolors="#d84315",
                                              linewidths=max(0.8, 0.1 * page.ppu), zorder=3.8))
        handles = [Patch(facecolor="none", edgecolor="#d84315", lw=1.5, label=outlined_label)] + handles
    if names:
        draw_names(page, board)
    marked = []
    for hex_, text in (marks or ()):
        i = board.index(hex_)
        marked.append((i, str(text)))
    if marked:
        hexes = np.array([i for i, _ in marked])
        ring = max(8.0, 3.1 * page.ppu)   # about the hex: its name stays readable inside
        page.ax.plot(frame.cx[hexes], frame.cy[hexes], ls="none", marker="o", markersize=ring, markerfacecolor="none",
                     markeredgecolor=SOURCE_COLOUR, markeredgewidth=max(1.2, 0.2 * page.ppu), zorder=12)
        draw_labels(page, frame.cx[hexes] + 1.3, frame.cy[hexes] - 1.0, [t for _, t in marked],
                    size=float(np.clip(page.name_size * 1.5, 5, 14)), colour=SOURCE_COLOUR, weight="bold",
                    halo=max(0.8, page.name_size * 0.35), zorder=13)
        handles = [Line2D([], [], ls="none", marker="o", markersize=10, markerfacecolor="none",
                          markeredgecolor=SOURCE_COLOUR, markeredgewidth=2, label="ranked post (its rank)")] + handles
    draw_board_labels(page, board)
    page.legend(handles, right=0.64)
    bar = page.colorbar(ScalarMappable(norm=norm, cmap=colours), f"{label} ({scale} scale)")
    if scale == "quantile" and hasattr(norm, "boundaries"):
        edges = norm.boundaries
        bar.set_ticks(edges)
        bar.set_ticklabels([f"{v:.0f}" for v in edges], fontsize=6)
    return page.figure
