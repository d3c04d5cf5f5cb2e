"""The picture of a movement field: the cost of each hex, the reachable area and a path.

:func:`movement_picture` draws a :class:`~kernel.MovementField` over the
muted board: the MF spent to be in each hex (cumulative: to enter it, what
``field.cost_at(hex)`` gives) written in it and colour-scaled, and above it,
where moving along a hexside of the hex without entering it (Bypass, A4.3)
costs less, that cost after a "B"; the area within the movement allowance
outlined, the start as a red star and the cheapest path to a hex or
Location (Bypass moves along the hexsides).
"""

from __future__ import annotations

import numpy as np

from kernel._extras import require
from kernel.render.board_map import draw_board_labels, draw_names
from kernel.render.common import DEFAULT_DPI, SOURCE_COLOUR, VALUE_DROP, Frame, Page, full_box, map_subtitle, zoom_box


def _path_points(board, frame, field, states):
    """Display points of a movement path; Bypass states sit on their hexside.

    Between two Bypass positions whose hexsides share a vertex the path goes
    through that vertex, so it runs along the hexsides.  Returns
    ``(xs, ys, kinds)`` with kinds ``"hex"``, ``"bypass"`` or ``"vertex"``.
    """
    n_loc = field.tables.n_locations
    bypass_hex = field.tables.bypass_hex
    bypass_dir = field.tables.bypass_dir
    xs, ys, kinds = [], [], []
    previous_side = None
    for state in states:
        if state < 2 * n_loc:
            h = int(board.location_hex[state >> 1])
            point = (float(frame.cx[h]), float(frame.cy[h]))
            kind = "hex"
            side = None
        else:
            b = state - 2 * n_loc
            h, d = int(bypass_hex[b]), int(bypass_dir[b])
            mx, my = frame.hexside_midpoint(h, d)
            point = (float(mx), float(my))
            kind = "bypass"
            side = frame.hexside_vertices(h, d)
            if previous_side is not None and side != previous_side:
                shared = side & previous_side
                if len(shared) == 1:
                    vx, vy = next(iter(shared))
                    px, py = frame.xy(vx, vy)
                    xs.append(float(px))
                    ys.append(float(py))
                    kinds.append("vertex")
        if xs and (xs[-1], ys[-1]) == point:
            continue
        xs.append(point[0])
        ys.append(point[1])
        kinds.append(kind)
        previous_side = side
    return xs, ys, kinds


def hex_numbers(field, full=None) -> tuple[np.ndarray, np.ndarray]:
    """What :func:`movement_picture` writes in each hex: ``(entered, bypass)`` float64 per hex, the cost
    to be in the hex (from ``full`` where ``field`` does not reach it: the grey numbers beyond the
    allowance) and, where it is less, the cost along one of its hexsides (Bypass; ``nan`` elsewhere).

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> field = kernel.movement_field(board, "71I4", unit="infantry", allowance=4)
    >>> entered, bypass = hex_numbers(field)
    >>> float(entered[board.index("71E4")]) == field.cost_at("71E4")
    True
    """
    entered = np.asarray(field.location_cost, float)
    if full is not None:
        entered = np.where(np.isfinite(entered), entered, np.asarray(full.location_cost, float))
    bypass = np.asarray(field.bypass_cost, float)
    return entered, np.where(bypass < entered, bypass, np.nan)


def _format_cost(value: float) -> str:
    """``4``, ``1.5``, ``10.5``: costs are whole or half MF/MP."""
    return f"{float(value):g}"


def movement_picture(board, field, *, allowance: float | None = None, to=None, full=None, zoom: bool = True,
                     view=None, counters=None, art: bool | None = None, title: str | None = None,
                     dpi: int = DEFAULT_DPI):
    """A movement field: the cost of each hex written in it and colour-scaled.

    Parameters
    ----------
    board : Board
    field : kernel.MovementField
        The field to draw (its costs, start and paths).
    allowance : float, optional
        The movement allowance: hexes within it are coloured by cost and the
        reachable area is outlined; costlier hexes are grey.
    to : hex or Location, optional
        Draw the cheapest path to this hex (its Location) or Location (``"71P5h1"``; Bypass moves along
        the hexsides).
    full : MovementField, optional
        An unlimited field from the same start, to write the cost of hexes
        beyond the allowance (``field`` has ``inf`` there).
    zoom : bool
        Zoom on the reachable area and the path (default) or show the whole map.
    view : sequence of hexes, optional
        Crop the picture to these hexes (names or indices) instead.
    counters : kernel.Counters, optional
        The counters the field was computed with (SMOKE, units): drawn, with legend entries.
    art : bool, optional
        Draw the board's art under the field (:mod:`kernel.render.art_layer`) or, with False, the hex
        model's colours; default the art where a board of the map has art of its own (VASL boards).

    See Also
    --------
    kernel.movement_field : computes ``field``.
    kernel.save_picture : writes it as PNG or SVG.
    kernel.map_page : every hex's field in one interactive page.

    Examples
    --------
    >>> import kernel, matplotlib
    >>> matplotlib.use("Agg")
    >>> board = kernel.load("71")
    >>> field = kernel.movement_field(board, "71I4", unit="infantry", allowance=4)
    >>> figure = kernel.movement_picture(board, field, allowance=4, to="71I6")
    >>> figure.texts[0].get_text()
    'Movement of infantry from 71I4'
    >>> f"{int((field.cost <= 4).sum())} hexes within 4 MF" in figure.texts[1].get_text()
    True
    """
    require("plot", "pictures")
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.colors import Normalize
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    import matplotlib.patheffects as effects

    from kernel.render.labels import draw_labels

    frame = Frame(board)
    points = "MF" if board.ruleset.los_model == "asl" else "MP"
    cost = np.asarray(field.cost, float)   # in the hex or beside it (Bypass), for the reachable area
    entered = np.asarray(field.location_cost, float)   # in the hex: the number written in it
    shown_cost, bypass = hex_numbers(field, full)
    finite = np.isfinite(shown_cost)
    limit = float(allowance) if allowance is not None else (float(shown_cost[finite].max()) if finite.any() else 1.0)
    within = np.isfinite(cost) & (cost <= limit + 1e-9)
    entered_within = np.isfinite(entered) & (entered <= limit + 1e-9)
    fill_cost = np.where(entered_within, entered, cost)   # a hex reached only beside it: its Bypass cost
    bypassed = within & np.isfinite(bypass)   # cheaper along a hexside than in the hex: written "B" + cost
    start_states = field.start_states()  # a start may be above ground, e.g. 71P5h1
    starts = np.unique(np.array([board.location_hex[st >> 1] for st in start_states], dtype=np.int64))
    path_states, path_hex, path_field = [], None, field
    if to is not None:
        path_hex = board.location(to)[0] if isinstance(to, str) and board.names_a_location(to) else board.index(to)
        target_name = to if isinstance(to, str) and board.names_a_location(to) else board.names[path_hex]
        path_states = field.path_states(to) or []
        if not path_states and full is not None:
            path_field = full
            path_states = full.path_states(to) or []
    path_hexes = sorted({int(board.location_hex[s >> 1]) if s < 2 * field.tables.n_locations
                         else int(path_field.tables.bypass_hex[s - 2 * field.tables.n_locations])
                         for s in path_states})
    focus = np.union1d(np.flatnonzero(within), np.array(path_hexes + list(starts), dtype=np.int64))
    box, size = (full_box(frame), None)
    if view is not None:
        box, size = zoom_box(frame, board.indices(list(view)), margin_hexes=0.5)
    elif zoom and focus.size:
        box, size = zoom_box(frame, focus, margin_hexes=1.5)
    start_names = ", ".join(field.state_name(st) for st in start_states[:4]) + ("..." if len(start_states) > 4 else "")
    what = f"{int(within.sum())} hexes within {_format_cost(limit)} {'MF' if board.ruleset.los_model == 'asl' else 'MP'}" \
        if allowance is not None else f"{int(finite.sum())} hexes reachable"
    from kernel.render.art_layer import backdrop_text, uses_art
    from kernel.render.board_map import draw_backdrop
    from kernel.render.common import counters_text

    drawn_art = uses_art(board, art)
    page = Page(frame, box, title or f"Movement of {field.unit} from {start_names}",
                map_subtitle(board, f"{what}  ·  {counters_text(counters)}  ·  {backdrop_text(board, drawn_art)}"),
                dpi=dpi, page=size)
    handles = draw_backdrop(page, board, art=drawn_art, muted=0.35 if drawn_art else 0.5)
    ax, ppu = page.ax, page.ppu
    cmap = colormaps["YlGnBu"]
    norm = Normalize(vmin=0.0, vmax=max(limit, 1.0))
    polys = frame.hexagons(0.97)
    if within.any():
        colours = cmap(norm(np.clip(fill_cost[within], 0, limit)) * 0.8 + 0.05)
        ax.add_collection(PolyCollection(polys[within], facecolors=colours, alpha=0.8, edgecolors="none", zorder=3.5))
    beyond = finite & ~within
    if beyond.any():
        ax.add_collection(PolyCollection(polys[beyond], facecolors="#ffffff", alpha=0.35, edgecolors="none", zorder=3.5))
    # outline of the reachable area
    nb = board.neighbours
    out = np.where(nb >= 0, within[np.maximum(nb, 0)], False)
    edge_h, edge_d = np.nonzero(within[:, None] & ~out)
    if edge_h.size and allowance is not None:
        ax.add_collection(LineCollection(frame.hexside_segments(edge_h, edge_d), colors="#b71c1c",
                                         linewidths=max(1.2, 0.16 * ppu), zorder=7, capstyle="round"))
    name_size = draw_names(page, board)
    value_size = float(np.clip(name_size * 1.5, 2.0, 12.0))
    shown = np.setdiff1d(page.inside(), starts)   # the start's 0 would sit under its star
    inside = shown[finite[shown] & entered_within[shown]]
    outside = shown[finite[shown] & ~entered_within[shown]]
    dark = norm(fill_cost[inside]) * 0.8 + 0.05 > 0.55
    draw_labels(page, frame.cx[inside], frame.cy[inside] - VALUE_DROP, [_format_cost(shown_cost[i]) for i in inside],
                size=value_size, colour=["white" if d else "#000000" for d in dark], weight="bold")
    draw_labels(page, frame.cx[outside], frame.cy[outside] - VALUE_DROP,
                [_format_cost(shown_cost[i]) for i in outside], size=value_size * 0.85, colour="#666666")
    beside = np.intersect1d(shown, np.flatnonzero(bypassed))
    if beside.size:   # above the number, clear of the name: the Bypass cost
        draw_labels(page, frame.cx[beside], frame.cy[beside] + 0.45 * VALUE_DROP,
                    [f"B{_format_cost(bypass[i])}" for i in beside], size=value_size * 0.7, colour="#4a148c",
                    weight="bold", halo=max(1.0, value_size * 0.25), zorder=10.5)
    status = []
    if allowance is not None:
        status.append(Line2D([], [], color="#b71c1c", lw=2.5,
                             label=f"reachable within {_format_cost(limit)} {points}"))
        if beyond.any():
            status.append(Patch(facecolor="#f3f3f3", edgecolor="#bbbbbb",
                                label=f"beyond the allowance (grey: {points} it would take)"))
    if bypassed.any():
        status.append(Line2D([], [], color="none", label=f"B1: {points} along a hexside, not entering (Bypass)"))
    star = max(8.0, 1.6 * ppu)
    ax.plot(frame.cx[starts], frame.cy[starts], ls="none", marker="*", markersize=star, markerfacecolor=SOURCE_COLOUR,
            markeredgecolor="white", markeredgewidth=max(0.6, star / 14), zorder=12)
    status.append(Line2D([], [], marker="*", ls="none", markerfacecolor=SOURCE_COLOUR, markeredgecolor="white",
                         markersize=11, label=f"start {start_names}"))
    if path_states:
        xs, ys, kinds = _path_points(board, frame, path_field, path_states)
        dashed = path_field is not field
        lw = max(1.4, 0.22 * ppu)
        ax.plot(xs, ys, color="#d50000", lw=lw, ls="--" if dashed else "-", zorder=11, solid_capstyle="round",
                path_effects=[effects.withStroke(linewidth=lw + 1.6, foreground="white")])
        if len(xs) >= 2:
            ax.annotate("", xy=(xs[-1], ys[-1]), xytext=(xs[-2], ys[-2]), zorder=12,
                        arrowprops=dict(arrowstyle="-|>", color="#d50000", lw=lw, mutation_scale=max(8, 1.2 * ppu),
                                        shrinkA=0, shrinkB=0))
        hx = [x for x, k in zip(xs, kinds) if k == "hex"]
        hy = [y for y, k in zip(ys, kinds) if k == "hex"]
        ax.plot(hx, hy, ls="none", marker="o", markersize=max(3, 0.45 * ppu), color="#d50000", zorder=12)
        bx = [x for x, k in zip(xs, kinds) if k == "bypass"]
        by = [y for y, k in zip(ys, kinds) if k == "bypass"]
        path_cost = path_field.state_cost[path_states[-1]]
        label = f"path to {target_name} ({_format_cost(float(path_cost))} {points})"
        if dashed:
            label += ", beyond the allowance"
        status.append(Line2D([], [], color="#d50000", lw=2, ls="--" if dashed else "-", marker="o", markersize=4,
                             label=label))
        if bx:
            ax.plot(bx, by, ls="none", marker="D", markersize=max(4, 0.6 * ppu), markerfacecolor="#ffeb3b",
                    markeredgecolor="#d50000", markeredgewidth=1.2, zorder=13)
            status.append(Line2D([], [], ls="none", marker="D", markerfacecolor="#ffeb3b", markeredgecolor="#d50000",
                                 markersize=7, label="Bypass: along the hexside"))
    elif to is not None:
        status.append(Line2D([], [], color="none", label=f"{target_name}: not reachable"))
    draw_board_labels(page, board)
    from kernel.render.counter_marks import draw_counters

    status += draw_counters(page, board, counters)
    page.legend(status + handles, right=0.64)
    page.colorbar(ScalarMappable(norm=Normalize(0, max(limit, 1.0)),
                                 cmap=_truncated(cmap, 0.05, 0.85)),
                  f"{points} spent to be in the hex (cumulative, {field.unit})")
    return page.figure


def _truncated(cmap, low, high):
    from matplotlib.colors import LinearSegmentedColormap

    return LinearSegmentedColormap.from_list(f"{cmap.name}_part", cmap(np.linspace(low, high, 128)))
