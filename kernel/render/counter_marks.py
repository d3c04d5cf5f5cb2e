"""Counters on a picture: SMOKE (grey disc with its DRM), vehicles or wrecks, and units, with legend entries.

:func:`draw_counters` marks the hexes of a :class:`kernel.Counters` on any
picture's map, at the hex's right (SMOKE) and left (vehicles, units) edge
level with the centre, clear of the hex name above and the values below.
"""

from __future__ import annotations

import numpy as np

SMOKE_COLOUR = "#9e9e9e"
VEHICLE_COLOUR = "#4e342e"
UNIT_COLOUR = "#1565c0"


def draw_counters(page, board, counters) -> list:
    """Draw the counters in view; returns their legend handles (none when there are no counters).

    Parameters
    ----------
    page : kernel.render.common.Page
    board : Board
    counters : kernel.Counters or None
    """
    from matplotlib.lines import Line2D

    from kernel.maps.counters import smoke_base_values
    from kernel.render.labels import draw_labels

    if counters is None:
        return []
    frame, ax, ppu = page.frame, page.ax, page.ppu
    in_view = np.zeros(len(board), bool)
    in_view[page.inside()] = True
    size = max(3.0, 0.9 * ppu)   # marker size in points: about a quarter of a hex
    handles = []
    smoke = np.zeros(len(board), int) if counters.smoke is None else np.asarray(counters.smoke, int)
    hexes = np.flatnonzero((smoke > 0) & in_view)
    if hexes.size:
        x, y = frame.cx[hexes] + 1.25, frame.cy[hexes] + 0.05
        ax.plot(x, y, ls="none", marker="o", markersize=size * 1.15, markerfacecolor=SMOKE_COLOUR,
                markeredgecolor="#424242", markeredgewidth=max(0.4, 0.04 * ppu), zorder=12)
        draw_labels(page, x, y, [f"+{int(smoke[h])}" for h in hexes], size=size * 0.6, colour="white",
                    weight="bold", zorder=12.5)
        base = smoke_base_values(board, counters)
        upper = base[hexes] > 0   # SMOKE above ground: its Location's suffix ("h1", "roof") above the disc
        label = "SMOKE counter (+N: its hindrance DRM)"
        if upper.any():
            names = [board.location_name(int(h), int(base[h]))[len(board.names[h]):] for h in hexes[upper]]
            draw_labels(page, x[upper], y[upper] + 0.68, names, size=size * 0.45, colour="#212121", weight="bold",
                        zorder=12.5)
            label = "SMOKE counter (+N: its hindrance DRM; h1, roof: its Location above ground)"
        handles.append(Line2D([], [], ls="none", marker="o", markersize=10, markerfacecolor=SMOKE_COLOUR,
                              markeredgecolor="#424242", label=label))
    for values, colour, label in ((counters.vehicles, VEHICLE_COLOUR, "vehicle or wreck counter"),
                                  (counters.units, UNIT_COLOUR, "unit counter")):
        if values is None:
            continue
        hexes = np.flatnonzero(np.asarray(values, bool) & in_view)
        if hexes.size == 0:
            continue
        ax.plot(frame.cx[hexes] - 1.25, frame.cy[hexes] + 0.05, ls="none", marker="s", markersize=size * 0.9,
                markerfacecolor=colour, markeredgecolor="white", markeredgewidth=max(0.4, 0.04 * ppu), zorder=12)
        handles.append(Line2D([], [], ls="none", marker="s", markersize=9, markerfacecolor=colour,
                              markeredgecolor="white", label=label))
    return handles
