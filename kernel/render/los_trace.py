"""The picture of one line of sight: the line, the hexes it crosses and where it is blocked.

:func:`los_picture` draws a :class:`~kernel.LOSResult` over the muted
board: the centre-to-centre line (green where clear, red and dashed past
the block), the hexes it crosses or runs along, hindrances with their DRM,
blocking hexes, and the LOS report under the map.
"""

from __future__ import annotations

import numpy as np

from kernel._extras import require
from kernel.render.board_map import _NAME_RISE, draw_board, draw_board_labels, draw_names
from kernel.render.common import (BAND, DEFAULT_DPI, HINDERED_COLOUR, SOURCE_COLOUR, VALUE_DROP, Frame, Page,
                                  full_box, map_subtitle, zoom_box)

# crossed hexes: a purple outline on a faint lilac, unlike any terrain colour (grain is yellow)
_CROSSED_EDGE = "#7b1fa2"
_CROSSED_FILL = (0.88, 0.75, 0.91, 0.35)


def los_picture(board, result, *, zoom: bool = True, explain: bool = True, all_steps: bool = False,
                view=None, counters=None, title: str | None = None, dpi: int = DEFAULT_DPI):
    """One LOS: the centre-to-centre line, the hexes it crosses, hindrances and where it is blocked.

    Parameters
    ----------
    board : Board
    result : kernel.LOSResult
        The result of :func:`kernel.los`.
    zoom : bool
        Zoom on the line (default) or show the whole map.
    explain : bool
        Print the LOS report under the map (:func:`kernel.line_of_sight.report.los_report`: the
        ends' levels and range, the steps that matter, the blind-hex arithmetic).
    all_steps : bool
        In the report, list every step of the trace ("no effect" ones too).
    view : sequence of hexes, optional
        Crop the picture to these hexes instead of zooming on the line.
    counters : kernel.Counters, optional
        The counters the LOS was computed with: drawn, with legend entries.
    """
    require("plot", "pictures")
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    import matplotlib.patheffects as effects
    from kernel.line_of_sight.report import los_report
    from kernel.line_of_sight.tracer import trace
    from kernel.render.labels import draw_labels

    frame = Frame(board)
    a, _ = board.location(result.viewer)
    b, _ = board.location(result.target)
    crossed = trace(board, a, b)
    report = los_report(board, result, all_steps=all_steps).splitlines()
    band = BAND + (min(len(report), 16) * 0.105 if explain else 0.0)
    hexes = [h for h, _ in crossed] + [a, b]
    box, size = (full_box(frame), None)
    if view is not None:
        box, size = zoom_box(frame, board.indices(list(view)), margin_hexes=0.5, band=band)
    elif zoom:
        box, size = zoom_box(frame, hexes, margin_hexes=2.0, band=band)
    verdict = "clear" if result.visible else f"BLOCKED at {result.blocked_at_name} ({result.reason_name})"
    sub = f"{verdict}; hindrance +{result.hindrance}; target cover {result.cover}"
    page = Page(frame, box, title or f"LOS {result.viewer} \u2192 {result.target}", map_subtitle(board, sub), dpi=dpi,
                 page=size, band=band)
    handles = draw_board(page, board, muted=0.35, names=False)
    ax, ppu = page.ax, page.ppu
    interior = [h for h, k in crossed if k == "interior" and h not in (a, b)]
    touched = [h for h, k in crossed if k != "interior" and h not in (a, b)]
    drm = {}
    blocks = set()
    for step in result.steps:
        h = board.index(step.hex)
        if step.hindrance:
            drm[h] = drm.get(h, 0) + step.hindrance
        if step.effect in ("blocks", "blind"):
            blocks.add(h)
    if result.blocked_at >= 0:
        blocks.add(result.blocked_at)
    polys = frame.hexagons(0.97)
    status = []
    if interior:
        ax.add_collection(PolyCollection(polys[interior], facecolors=_CROSSED_FILL, edgecolors=_CROSSED_EDGE,
                                         linewidths=max(0.6, 0.07 * ppu), zorder=3.5))
        status.append(Patch(facecolor=_CROSSED_FILL, edgecolor=_CROSSED_EDGE, label="hex the LOS crosses"))
    if touched:
        ax.add_collection(PolyCollection(polys[touched], facecolors="none", edgecolors=_CROSSED_EDGE,
                                         linewidths=max(0.6, 0.07 * ppu), linestyles="--", zorder=3.5))
        status.append(Patch(facecolor="none", edgecolor=_CROSSED_EDGE, ls="--",
                            label="hex the LOS runs along / touches"))
    if drm:
        ax.add_collection(PolyCollection(polys[list(drm)], facecolors=HINDERED_COLOUR, alpha=0.6, edgecolors="none",
                                         zorder=3.6))
        status.append(Patch(facecolor=HINDERED_COLOUR, alpha=0.6, label="hindrance (+DRM)"))
    if blocks:
        ax.add_collection(PolyCollection(polys[sorted(blocks)], facecolors="#e53935", alpha=0.55, edgecolors="#b71c1c",
                                         linewidths=max(0.6, 0.08 * ppu), zorder=3.7))
        status.append(Patch(facecolor="#e53935", alpha=0.55, edgecolor="#b71c1c", label="blocks the LOS"))
    name_size = draw_names(page, board, skip=(a, b))
    value_size = float(np.clip(name_size * 1.4, 3, 12))
    drm_hexes = list(drm)
    draw_labels(page, frame.cx[drm_hexes], frame.cy[drm_hexes] - VALUE_DROP, [f"+{drm[h]}" for h in drm_hexes],
                size=value_size, colour="#6d2c00", weight="bold", halo=max(0.6, name_size * 0.3), zorder=12)
    ax_, ay = float(frame.cx[a]), float(frame.cy[a])
    bx, by = float(frame.cx[b]), float(frame.cy[b])
    lw = max(1.5, 0.2 * ppu)
    outline = [effects.withStroke(linewidth=lw + 1.8, foreground="white")]
    if result.visible:
        ax.plot([ax_, bx], [ay, by], color="#1b5e20", lw=lw, zorder=11, path_effects=outline, solid_capstyle="round")
        status.append(Line2D([], [], color="#1b5e20", lw=2.5, label="line of sight (clear)"))
    else:
        blocked = result.blocked_at if result.blocked_at >= 0 else b
        dx, dy = bx - ax_, by - ay
        length2 = dx * dx + dy * dy or 1.0
        t = ((frame.cx[blocked] - ax_) * dx + (frame.cy[blocked] - ay) * dy) / length2
        t = float(np.clip(t, 0.0, 1.0))
        px, py = ax_ + t * dx, ay + t * dy
        ax.plot([ax_, px], [ay, py], color="#1b5e20", lw=lw, zorder=11, path_effects=outline, solid_capstyle="round")
        ax.plot([px, bx], [py, by], color="#c62828", lw=lw, ls=(0, (2, 1.5)), zorder=11, path_effects=outline)
        ax.plot([px], [py], marker="X", markersize=max(9, 1.5 * ppu), markerfacecolor="#c62828",
                markeredgecolor="white", zorder=13, ls="none")
        status.append(Line2D([], [], color="#1b5e20", lw=2.5, label="line of sight up to the block"))
        status.append(Line2D([], [], color="#c62828", lw=2.5, ls="--", marker="X", markersize=8,
                             label=f"blocked at {result.blocked_at_name} ({result.reason_name})"))
    for h, name, marker in ((a, result.viewer, "o"), (b, result.target, "s")):
        ax.plot([frame.cx[h]], [frame.cy[h]], marker=marker, markersize=max(7, 1.0 * ppu), markerfacecolor=SOURCE_COLOUR
                if h == a else "#1565c0", markeredgecolor="white", markeredgewidth=1.2, zorder=14, ls="none")
        # the end's name where its hex name goes: no neighbour's name is covered
        draw_labels(page, [frame.cx[h]], [frame.cy[h] + _NAME_RISE], [name], size=name_size * 1.1, weight="bold",
                    colour=SOURCE_COLOUR if h == a else "#1565c0", halo=max(0.8, name_size * 0.35), zorder=15)
    status.append(Line2D([], [], marker="o", ls="none", markerfacecolor=SOURCE_COLOUR, markeredgecolor="white",
                         markersize=8, label=f"viewer {result.viewer}"))
    status.append(Line2D([], [], marker="s", ls="none", markerfacecolor="#1565c0", markeredgecolor="white",
                         markersize=8, label=f"target {result.target}"))
    draw_board_labels(page, board)
    from kernel.render.counter_marks import draw_counters

    status += draw_counters(page, board, counters)
    page.legend(status + handles, rows=5)
    if explain:
        lines = report if len(report) <= 16 else report[:15] + [f"  ... {len(report) - 15} more lines "
                                                                 "(hexkernel los --explain prints them all)"]
        page.note("\n".join(lines), y_offset=0.25 + 0.17 * getattr(page, "legend_rows", 0), fontsize=6.5,
                  family="monospace")
    return page.figure
