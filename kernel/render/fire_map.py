"""The picture of a field of fire: visible, hindered (with the DRM in the hex) and blocked hexes.

:func:`fire_picture` draws the result of :func:`kernel.field_of_fire` over
the muted board: the firer as a red star, each hex coloured by what the
firer sees of it, the hindrance DRM and the target's cover written in the
hexes.
"""

from __future__ import annotations

import numpy as np

from kernel.render.board_map import draw_board, draw_board_labels, draw_names
from kernel.render.common import (BLOCKED_COLOUR, CLEAR_COLOUR, DEFAULT_DPI, HINDERED_COLOUR, SOURCE_COLOUR,
                                  VALUE_DROP, Frame, Page, full_box, map_subtitle)


def fire_picture(board, fire, *, levels=None, title: str | None = None, dpi: int = DEFAULT_DPI):
    """A field of fire: visible, hindered (with the DRM written in the hex) and blocked hexes.

    Parameters
    ----------
    board : Board
    fire : kernel.FieldOfFire
        The result of :func:`kernel.field_of_fire`.
    levels : int or sequence of int, optional
        Location level of each source (for the labels).
    title : str, optional

    The source is marked with a red star; the target's cover against its best
    source is written in a small circle in each visible hex where it is not 0.
    """
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    import matplotlib.patheffects as effects

    frame = Frame(board)
    sources = np.atleast_1d(np.asarray(fire.sources))
    source_levels = np.broadcast_to(np.asarray(0 if levels is None else levels), sources.shape)
    names = [board.names[s] + (f"h{int(v)}" if int(v) else "") for s, v in zip(sources, source_levels)]
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
    page = Page(frame, full_box(frame), title or f"Field of fire from {', '.join(names)}",
                 map_subtitle(board, counts), dpi=dpi)
    handles = draw_board(page, board, muted=0.45, names=False)
    ax, ppu = page.ax, page.ppu
    polys = frame.hexagons(0.97)
    layers = [(clear, CLEAR_COLOUR, 0.45, "visible, no hindrance"),
              (hindered, HINDERED_COLOUR, 0.62, "visible through hindrance (+DRM)"),
              (blocked, BLOCKED_COLOUR, 0.6, "blocked (no LOS)")]
    status_handles = []
    for mask, colour, alpha, label in layers:
        if mask.any():
            ax.add_collection(PolyCollection(polys[mask], facecolors=colour, alpha=alpha, edgecolors="none", zorder=3.5))
        status_handles.append(Patch(facecolor=colour, alpha=alpha, label=f"{label}: {int(mask.sum())}"))

    name_size = draw_names(page, board, dim=blocked, skip=sources)
    value_size = float(np.clip(name_size * 1.4, 2.0, 11.0))
    for i in page.inside():
        if hindered[i]:
            ax.text(frame.cx[i] - (0.55 if cover[i] > 0 else 0.0), frame.cy[i] - VALUE_DROP, f"+{int(hindrance[i])}", ha="center", va="center",
                    fontsize=value_size, weight="bold", color="#6d2c00", zorder=10, clip_on=True)
        if visible[i] and cover[i] > 0:
            x, y = frame.cx[i] + (0.8 if hindered[i] else 0.0), frame.cy[i] - VALUE_DROP
            ax.text(x, y, f"{int(cover[i])}", ha="center", va="center", fontsize=value_size * 0.8, color="#0d47a1",
                    weight="bold", zorder=10, clip_on=True,
                    bbox=dict(boxstyle="circle,pad=0.15", facecolor="white", edgecolor="#0d47a1",
                              linewidth=max(0.3, 0.03 * ppu)))
    status_handles.append(Line2D([], [], marker="o", ls="none", markerfacecolor="white", markeredgecolor="#0d47a1",
                                 markersize=8, label="n: target cover (TEM / cover) vs the firer"))
    star = max(8.0, 1.6 * ppu)
    ax.plot(frame.cx[sources], frame.cy[sources], ls="none", marker="*", markersize=star, markerfacecolor=SOURCE_COLOUR,
            markeredgecolor="white", markeredgewidth=max(0.6, star / 14), zorder=12)
    for s, n in zip(sources, names):
        ax.annotate(n, (frame.cx[s], frame.cy[s]), xytext=(0, star * 0.75), textcoords="offset points", ha="center",
                    fontsize=8, weight="bold", color=SOURCE_COLOUR, zorder=13,
                    path_effects=[effects.withStroke(linewidth=2.2, foreground="white")])
    status_handles.append(Line2D([], [], marker="*", ls="none", markerfacecolor=SOURCE_COLOUR, markeredgecolor="white",
                                 markersize=11, label=f"firer: {heights}"))
    draw_board_labels(page, board)
    page.legend(status_handles + handles)
    return page.figure
