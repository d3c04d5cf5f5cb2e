"""The picture of a field of fire: visible, hindered (with the DRM in the hex) and blocked hexes.

:func:`fire_picture` draws the result of :func:`kernel.field_of_fire` over
the muted board: the firer as a red star, each hex coloured by what the
firer sees of it, the hindrance DRM and the target's cover written in the
hexes.
"""

from __future__ import annotations

import numpy as np

from kernel._extras import require
from kernel.render.board_map import _NAME_RISE, draw_board_labels, draw_names
from kernel.render.common import (BLOCKED_COLOUR, CLEAR_COLOUR, DEFAULT_DPI, HINDERED_COLOUR, SOURCE_COLOUR,
                                  VALUE_DROP, Frame, Page, full_box, map_subtitle, model_text, zoom_box)


def fire_picture(board, fire, *, levels=None, counters=None, view=None, model: str | None = None,
                 art: bool | None = None, title: str | None = None, dpi: int = DEFAULT_DPI):
    """A field of fire: visible, hindered (with the DRM written in the hex) and blocked hexes.

    Parameters
    ----------
    board : Board
    fire : kernel.FieldOfFire
        The result of :func:`kernel.field_of_fire`.
    levels : int or sequence of int, optional
        Location level of each source (for the labels); default the field's own
        (:attr:`kernel.FieldOfFire.levels`).
    counters : kernel.Counters, optional
        The counters the field was computed with: drawn, with legend entries.
    view : sequence of hexes, optional
        Crop the picture to these hexes (names or indices); default the whole map.
    model : str, optional
        The LOS model the field was computed with (``"hex"``, ``"depiction"``, ``"vasl"``): named in the
        title and subtitle; default the one ``fire`` names (:attr:`kernel.FieldOfFire.model`).
    art : bool, optional
        Draw the board's art under the field (:mod:`kernel.render.art_layer`) or, with False, the hex
        model's colours; default the art on maps with art of their own and for the depiction models.
    title : str, optional

    The source is marked with a red star and its name written in red in its
    own hex; the hindrance DRM is written at the lower left of a hindered hex
    and the target's cover (where not 0) in a circle at its lower right, both
    under the hex name.  The tint is light enough to keep the terrain readable.

    See Also
    --------
    kernel.field_of_fire : computes ``fire``.
    kernel.save_picture : writes it as PNG or SVG.

    Examples
    --------
    >>> import kernel, matplotlib
    >>> matplotlib.use("Agg")
    >>> board = kernel.load("71")
    >>> figure = kernel.fire_picture(board, kernel.field_of_fire(board, "71I4"))
    >>> len(figure.axes) >= 1
    True
    """
    require("plot", "pictures")
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from kernel.render.counter_marks import draw_counters
    from kernel.render.labels import draw_labels

    frame = Frame(board)
    sources = np.atleast_1d(np.asarray(fire.sources))
    source_levels = np.broadcast_to(np.asarray(fire.levels if levels is None else levels), sources.shape)
    names = [board.location_name(int(s), int(v)) for s, v in zip(sources, source_levels)]
    visible = np.asarray(fire.visible, bool)
    hindrance = np.asarray(fire.hindrance)
    cover = np.asarray(fire.cover)
    clear = visible & (hindrance <= 0)
    hindered = visible & (hindrance > 0)
    blocked = ~visible
    counts = f"{int(visible.sum())} of {len(board)} hexes visible ({int(hindered.sum())} hindered), {int(blocked.sum())} blocked"
    heights = ", ".join(
        f"{n} (ground level {int(board.ground_level[s])}{', building level ' + str(int(v)) if int(v) else ''})"
        for n, s, v in zip(names, sources, source_levels))
    from kernel.render.art_layer import backdrop_text, uses_art
    from kernel.render.board_map import draw_backdrop

    if model is None:
        model = fire.model
    drawn_art = uses_art(board, art, model=model)
    box, size = (full_box(frame), None) if view is None else zoom_box(frame, board.indices(list(view)), margin_hexes=0.5)
    page = Page(frame, box, title or f"Field of fire from {', '.join(names)} ({model} model)",
                map_subtitle(board, f"{counts}  ·  {model_text(model, counters, backdrop_text(board, drawn_art))}"),
                dpi=dpi, page=size)
    handles = draw_backdrop(page, board, art=drawn_art, muted=0.15)
    ax, ppu = page.ax, page.ppu
    polys = frame.hexagons(0.97)
    layers = [(clear, CLEAR_COLOUR, 0.22, "visible, no hindrance"),
              (hindered, HINDERED_COLOUR, 0.42, "visible through hindrance (+DRM)"),
              (blocked, BLOCKED_COLOUR, 0.5, "blocked (no LOS)")]
    status_handles = []
    for mask, colour, alpha, label in layers:
        if mask.any():
            ax.add_collection(PolyCollection(polys[mask], facecolors=colour, alpha=alpha, edgecolors="none", zorder=3.5))
        status_handles.append(Patch(facecolor=colour, alpha=alpha, label=f"{label}: {int(mask.sum())}"))

    name_size = draw_names(page, board, dim=blocked, skip=sources)
    shown = page.inside()
    value_size = float(np.clip(name_size * 1.15, 2.0, 9.0))
    drm = shown[hindered[shown]]
    draw_labels(page, frame.cx[drm] - 0.75, frame.cy[drm] - 0.95, [f"+{int(hindrance[i])}" for i in drm],
                size=value_size, colour="#6d2c00", weight="bold", halo=max(0.6, value_size * 0.3))
    covered = shown[visible[shown] & (cover[shown] > 0)]
    if covered.size:
        badge = max(3.0, value_size * 1.45)
        ax.plot(frame.cx[covered] + 0.8, frame.cy[covered] - 0.95, ls="none", marker="o", markersize=badge,
                markerfacecolor="white", markeredgecolor="#0d47a1", markeredgewidth=max(0.3, 0.03 * ppu), zorder=10)
        draw_labels(page, frame.cx[covered] + 0.8, frame.cy[covered] - 0.95, [str(int(cover[i])) for i in covered],
                    size=value_size * 0.8, colour="#0d47a1", weight="bold", zorder=10.5)
    status_handles.append(Line2D([], [], marker="o", ls="none", markerfacecolor="white", markeredgecolor="#0d47a1",
                                 markersize=8, label="n: target cover (TEM / cover) vs the firer"))
    star = max(6.0, 1.3 * ppu)
    ax.plot(frame.cx[sources], frame.cy[sources] - 0.2, ls="none", marker="*", markersize=star,
            markerfacecolor=SOURCE_COLOUR, markeredgecolor="white", markeredgewidth=max(0.6, star / 14), zorder=12)
    # the firer's name where its hex name goes: nothing else is covered
    draw_labels(page, frame.cx[sources], frame.cy[sources] + _NAME_RISE, names, size=name_size * 1.05,
                colour=SOURCE_COLOUR, weight="bold", halo=max(0.8, name_size * 0.35), zorder=13)
    status_handles.append(Line2D([], [], marker="*", ls="none", markerfacecolor=SOURCE_COLOUR, markeredgecolor="white",
                                 markersize=11, label=f"firer: {heights}"))
    status_handles += draw_counters(page, board, counters)
    draw_board_labels(page, board)
    page.legend(status_handles + handles)
    return page.figure
