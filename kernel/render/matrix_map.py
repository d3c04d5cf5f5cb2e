"""The picture of any number per hex as a colour map, e.g. how many hexes each hex sees.

:func:`values_picture` colours each hex of the muted board by a value, with
a colour bar; ``hexkernel demo`` uses it for the row sums of the LOS matrix
(how many hexes each hex sees at ground level).
"""

from __future__ import annotations

import numpy as np

from kernel._extras import require
from kernel.render.board_map import draw_board, draw_board_labels, draw_names
from kernel.render.common import DEFAULT_DPI, Frame, Page, full_box, map_subtitle, zoom_box


def values_picture(board, values, *, title: str, label: str, cmap: str = "YlGnBu", names: bool = True,
                   view=None, dpi: int = DEFAULT_DPI):
    """Any number per hex as a colour map over the board (e.g. how many hexes each hex sees).

    ``label`` names the values and their unit (the colour bar's label);
    ``view`` crops the picture to these hexes (names or indices).
    """
    require("plot", "pictures")
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.collections import PolyCollection
    from matplotlib.colors import Normalize

    frame = Frame(board)
    values = np.asarray(values, float)
    if values.shape != (len(board),):
        raise ValueError(f"values has shape {values.shape}: expected ({len(board)},), one value per hex")
    finite = np.isfinite(values)
    low = float(values[finite].min()) if finite.any() else 0.0
    high = float(values[finite].max()) if finite.any() else 1.0
    box, size = (full_box(frame), None) if view is None else zoom_box(frame, board.indices(list(view)), margin_hexes=0.5)
    page = Page(frame, box, title, map_subtitle(board, f"{label}: {low:g} to {high:g}"), dpi=dpi, page=size)
    handles = draw_board(page, board, muted=0.6, names=False)
    colours = colormaps[cmap]
    norm = Normalize(low, high if high > low else low + 1)
    polys = frame.hexagons(0.97)
    page.ax.add_collection(PolyCollection(polys[finite], facecolors=colours(norm(values[finite])), alpha=0.75,
                                          edgecolors="none", zorder=3.5))
    if names:
        draw_names(page, board)
    draw_board_labels(page, board)
    page.legend([h for h in handles if "hexside" in h.get_label() or h.get_label() == "road"], right=0.64)
    page.colorbar(ScalarMappable(norm=norm, cmap=colours), label)
    return page.figure
