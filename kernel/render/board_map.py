"""The picture of the map itself, and the board layer drawn under every other picture.

:func:`board_picture` draws terrain per type, hill levels, hexside features,
roads and hex names; :func:`draw_board`, :func:`draw_names` and
:func:`draw_board_labels` draw the same board (muted, for the other pictures)
underneath a field of fire, a movement field, one LOS or a colour map.  Hexes
are drawn as polygons in one ``PolyCollection`` per layer; hexside features
(walls, hedges, ...) as thick coloured segments on the hexsides; roads as
lines from the hex centre to the midpoint of each road hexside.
"""

from __future__ import annotations

import numpy as np

from kernel._extras import require
from kernel.render.common import (DEFAULT_DPI, PALETTE, SQRT3, Frame, Page, full_box, level_colour, map_subtitle,
                                  mute, road_segments, terrain_colour, unique_hexsides, zoom_box)

# Terrain drawn as a building block in the middle of the hex rather than a fill.
_BUILDINGS = {"stone-building", "wooden-building", "building"}
_HEXSIDE_STYLES = {   # name: (colour, width in multiples of the base hexside width)
    "wall": ("#37474f", 1.0), "hedge": ("#2e8b2e", 0.9), "bocage": ("#0d4d14", 1.35),
    "hedgerow": ("#0b3d0b", 1.5), "cliff": ("#4e2a1e", 1.35), "stream": ("#1e88e5", 1.0),
    "fieldworks": ("#8b3a1a", 1.1),
}
_ROAD_COLOUR = "#c45a1a"
# Where things sit in a hex (display units; a hex is 2*sqrt(3) high): the name
# near the top, building blocks below the centre (values: common.VALUE_DROP).
_NAME_RISE = 0.95
_BLOCK_DROP = 0.4


def draw_board(page, board, *, muted=0.0, names=True):
    """Draw terrain, hill levels, contours, roads, hexside features and names.

    Returns legend handles for what was drawn.
    """
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    ax, frame, rs = page.ax, page.frame, board.ruleset
    ppu = page.ppu
    shade = (lambda c: mute(c, muted)) if muted else (lambda c: c)
    handles = []
    in_view = np.zeros(len(board), bool)
    in_view[page.inside()] = True

    # hill levels: the whole hex
    levels = board.ground_level.astype(int)
    fills = [shade(level_colour(v)) for v in levels]
    ax.add_collection(PolyCollection(frame.hexagons(), facecolors=fills, edgecolors="#9a9a9a",
                                     linewidths=max(0.15, 0.012 * ppu), zorder=1))
    present_levels = sorted(set(levels[in_view].tolist()))
    if len(present_levels) > 1 or present_levels != [0]:
        for v in present_levels:
            label = "ground level 0" if v == 0 else (f"hill level {v}" if v > 0 else f"depression level {v}")
            handles.append(Patch(facecolor=shade(level_colour(v)), edgecolor="#9a9a9a", label=label))

    # area terrain: an inset hexagon (one per feature, smaller and smaller)
    polys, colours = [], []
    blocks, block_colours = [], []
    counts = np.zeros(len(board), int)
    seen_terrain = []
    for t, name in enumerate(rs.terrain_names):
        has = np.flatnonzero((board.terrain & np.uint32(1 << t)) != 0)
        if has.size == 0:
            continue
        if in_view[has].any():
            seen_terrain.append(t)
        colour = shade(terrain_colour(rs, t))
        if name in _BUILDINGS:
            for i in has:
                blocks.append(i)
                block_colours.append(colour)
            continue
        scales = np.maximum(0.3, 0.74 - 0.22 * counts[has])   # smaller for each feature the hex already has
        counts[has] += 1
        polys.extend(frame.hexagons(scales, has))
        colours.extend([colour] * has.size)
    if polys:
        ax.add_collection(PolyCollection(polys, facecolors=colours, edgecolors="none", zorder=2))
    if blocks:
        # a building: a square block in the middle of the hex
        half = 0.78
        squares = []
        for i in blocks:
            cx, cy = frame.cx[i], frame.cy[i] - _BLOCK_DROP
            squares.append([(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)])
        ax.add_collection(PolyCollection(squares, facecolors=block_colours, edgecolors="#222222",
                                         linewidths=max(0.2, 0.03 * ppu), zorder=3))
        upper = np.flatnonzero((board.building_levels > 0) & in_view) if not muted else []
        size = float(np.clip(0.9 * ppu, 2, 10))
        for i in upper:
            ax.text(frame.cx[i], frame.cy[i] - _BLOCK_DROP, f"+{int(board.building_levels[i])}", ha="center", va="center",
                    fontsize=size, color="white", weight="bold", zorder=11, clip_on=True)
    for t in seen_terrain:
        label = rs.terrain_names[t]
        if rs.terrain_names[t] in _BUILDINGS:
            label += " (square)"
        handles.append(Patch(facecolor=shade(terrain_colour(rs, t)), edgecolor="#555555" if rs.terrain_names[t] in _BUILDINGS else "none",
                             label=label))
    if not muted and ((board.building_levels > 0) & in_view).any():
        handles.append(Patch(facecolor="#5f6368", edgecolor="#222222", label="+N: upper building levels"))

    # contours: hexsides between hexes of different ground level
    nb = board.neighbours
    other = np.where(nb >= 0, levels[np.maximum(nb, 0)], levels[:, None])
    hexes, dirs = unique_hexsides(board, (nb >= 0) & (other != levels[:, None]))
    if hexes.size:
        ax.add_collection(LineCollection(frame.hexside_segments(hexes, dirs), colors=shade("#6b4a2b"),
                                         linewidths=max(0.4, 0.05 * ppu), zorder=4, capstyle="round"))

    # roads: centre to the middle of each road hexside
    base_width = max(1.0, 0.34 * ppu)
    road_bits = [k for k in range(len(rs.hexside_names)) if rs.hexside_road[k]]
    if road_bits:
        hexes, segments = road_segments(board, frame)
        if hexes.size:
            ax.add_collection(LineCollection(segments, colors=shade(_ROAD_COLOUR), linewidths=0.8 * base_width,
                                             zorder=5, capstyle="round"))
            if in_view[hexes].any():
                handles.append(Line2D([], [], color=shade(_ROAD_COLOUR), lw=2.0, label="road"))

    # hexside features: thick coloured segments on the hexsides
    for k, name in enumerate(rs.hexside_names):
        if k in road_bits:
            continue
        mask = (board.hexside & np.uint16(1 << k)) != 0
        hexes, dirs = unique_hexsides(board, mask)
        if hexes.size == 0:
            continue
        colour, width = _HEXSIDE_STYLES.get(name, (PALETTE[(k + 5) % len(PALETTE)], 1.0))
        ax.add_collection(LineCollection(frame.hexside_segments(hexes, dirs), colors=shade(colour),
                                         linewidths=width * base_width, zorder=6, capstyle="butt"))
        if in_view[hexes].any() or in_view[np.maximum(board.neighbours[hexes, dirs], 0)].any():
            handles.append(Line2D([], [], color=shade(colour), lw=3.0 * width, label=f"{name} (hexside)"))

    # names, in the top part of the hex (buildings and values sit below)
    if names:
        draw_names(page, board)
    return handles


def draw_backdrop(page, board, *, art: bool, muted: float = 0.0) -> list:
    """The map under a picture: its art (:func:`kernel.render.art_layer.draw_art`) or the hex model's colours
    (:func:`draw_board`, without names); returns legend handles."""
    if art:
        from kernel.render.art_layer import draw_art

        return draw_art(page, board, muted=muted)
    return draw_board(page, board, muted=muted, names=False)


def draw_names(page, board, *, dim=None, scale=0.9, skip=()):
    """Hex names in the top part of each hex in view (not the ``skip`` hexes); returns the font size.

    ``dim`` (bool per hex) writes those names faint and without a halo (e.g.
    blocked hexes of a field of fire).  All names are one artist per colour
    (:func:`kernel.render.labels.draw_labels`).
    """
    from kernel.render.labels import draw_labels

    frame = page.frame
    labels = page.labels
    size = page.name_size * scale
    skip = np.array(sorted({int(i) for i in skip}), dtype=np.int64)
    shown = np.setdiff1d(page.inside(), skip)
    faint = np.zeros(len(shown), bool) if dim is None else np.asarray(dim, bool)[shown]
    for mask, colour, halo in ((~faint, "#111111", max(0.6, size * 0.3)), (faint, "#c8c8c8", 0.0)):
        hexes = shown[mask]
        draw_labels(page, frame.cx[hexes], frame.cy[hexes] + _NAME_RISE, [labels[i] for i in hexes], size=size,
                    colour=colour, halo=halo, zorder=10)
    return size


def draw_board_labels(page, board):
    """Board numbers at the map's top or bottom edge (multi-board maps, full view)."""
    if not page.multi_board:
        return
    frame = page.frame
    xmin, xmax, ymin, ymax = page.box
    top, bottom = float(frame.cy.max()), float(frame.cy.min())
    rotated = {str(b[0]): bool(b[3]) for b in getattr(board, "boards", [])}
    ids_array = np.array(board.board_id, dtype=object)
    for board_id in sorted(set(board.board_id)):
        members = np.flatnonzero(ids_array == board_id)
        x = float(frame.cx[members].mean())
        text = f"board {board_id}" + (" (rotated)" if rotated.get(str(board_id)) else "")
        if abs(float(frame.cy[members].max()) - top) < 1.0:
            y, va = top + SQRT3 + 0.3, "bottom"
        elif abs(float(frame.cy[members].min()) - bottom) < 1.0:
            y, va = bottom - SQRT3 - 0.3, "top"
        else:
            continue
        if not (xmin <= x <= xmax and ymin <= y <= ymax):
            continue
        page.ax.text(x, y, text, ha="center", va=va, fontsize=8, weight="bold", color="#444444", zorder=9,
                     clip_on=False)


def board_picture(board, *, title: str | None = None, hexes=None, art: bool | None = None, dpi: int = DEFAULT_DPI):
    """The map itself: terrain per type, hill levels, hexside features, roads and hex names.

    Parameters
    ----------
    board : Board
    title : str, optional
    hexes : sequence of hexes, optional
        Zoom on these hexes (names or indices); default the whole map.
    art : bool, optional
        Draw the board's art (:mod:`kernel.render.art_layer`) or, with False, the hex model's
        colours; default the art where a board of the map has art of its own (VASL boards).
    dpi : int
        Resolution of the PNG (an A4 page is 11.69 x 8.27 inches).

    Returns
    -------
    matplotlib.figure.Figure

    See Also
    --------
    kernel.fire_picture, kernel.movement_picture, kernel.los_picture, kernel.values_picture : the same map
        with a result drawn over it.
    kernel.save_picture : writes it as PNG or SVG.

    Examples
    --------
    >>> import kernel, matplotlib
    >>> matplotlib.use("Agg")
    >>> figure = kernel.board_picture(kernel.load("71"), title="board 71")
    >>> type(figure).__name__
    'Figure'
    """
    require("plot", "pictures")
    from kernel.render.art_layer import backdrop_text, draw_art, uses_art

    frame = Frame(board)
    drawn_art = uses_art(board, art)
    box, size = (full_box(frame), None) if hexes is None else zoom_box(frame, board.indices(list(hexes)))
    page = Page(frame, box, title or ("The map: its art (terrain per pixel), the hex grid and roads" if drawn_art else
                                      "The map: terrain, hill levels, hexside features and roads"),
                map_subtitle(board, backdrop_text(board, drawn_art)), dpi=dpi, page=size)
    if drawn_art:
        handles = draw_art(page, board)
        draw_names(page, board)
    else:
        handles = draw_board(page, board)
    draw_board_labels(page, board)
    page.legend(handles)
    return page.figure
