"""The board's own art under a picture: the terrain of every pixel in familiar colours, the hex grid over it.

A map with art (:func:`kernel.maps.art.board_art`: a VASL board keeps the
terrain of every pixel of its drawing) is drawn from that art by
:func:`draw_art`: woods dark green, buildings grey (stone) or brown (wooden),
grain yellow, orchards light green, walls dark grey, hedges green, water
blue, open ground pale and hills darker brown per level with a contour where
the level changes; the hex grid, the roads of the hex model and the hex
names go over it.  :func:`kernel.render.board_map.draw_backdrop` chooses between the art and
the hex model's colours (:func:`kernel.render.board_map.draw_board`): every picture
takes ``art=None`` (the art where the map has art of its own or the picture
shows a depiction-model LOS), ``art=True`` or ``art=False`` (the hex model's
colours; ``--hex-colours`` on the command line).

Pixel ``(px, py)`` of the art lies at lattice ``(px / UNIT_X, py / UNIT_Y)``
(:mod:`kernel.maps.art`), drawn at display ``(px / UNIT_X, -sqrt(3) py /
UNIT_Y)`` like every hex centre (:mod:`kernel.render.common`).

Examples
--------
>>> import kernel
>>> board = kernel.load("default")
>>> uses_art(board, None), uses_art(board, None, model="depiction"), uses_art(board, False, model="depiction")
(False, True, False)
>>> art_colour("woods"), art_colour("no-such-terrain") is None
('#2e6b2f', True)
"""

from __future__ import annotations

import numpy as np

from kernel.render.common import SQRT3, mute, road_segments

#: Colours of the terrain drawn in the art, by terrain or hexside feature name.
ART_COLOURS = {
    "stone-building": "#7d8186", "wooden-building": "#a8662e", "building": "#8a7a70", "rowhouse-wall": "#1a1a1a",
    "wall": "#4a4a4a", "bocage": "#1d4d1f", "hedge": "#3c8a34", "hedgerow": "#1d4d1f", "cliff": "#4e2a1e",
    "woods": "#2e6b2f", "forest": "#2e6b2f", "jungle": "#1b4d22", "orchard": "#8cc063",
    "brush": "#9fae55", "grain": "#e6cf6a", "crops": "#e6cf6a", "field": "#ece3a6",
    "rubble": "#a39b90", "crag": "#7a6a5a", "graveyard": "#b9a9dc", "marsh": "#86c9b8",
    "shellholes": "#b0967c", "gully": "#c7a27c", "stream": "#5aa7e8", "river": "#3d86d6", "water": "#2f74c8",
    "ford": "#9fd3f5", "bridge": "#8d6e63", "quarry": "#bdbdbd",
}
#: When a pixel shows several things, the first of these is drawn.
_PRIORITY = ("rowhouse-wall", "stone-building", "wooden-building", "building", "wall", "bocage", "hedgerow", "hedge", "cliff",
             "bridge", "woods", "forest", "jungle", "orchard", "rubble", "crag", "graveyard", "brush", "shellholes",
             "grain", "crops", "field", "water", "river", "stream", "ford", "marsh", "gully", "quarry")
#: Open ground and hills by ground level (pale green-yellow to brown), below ground a blue-grey.
ART_LEVEL_COLOURS = {-2: "#a9b8bf", -1: "#c5d1d4", 0: "#e9ecc6", 1: "#dcc58f", 2: "#c9a465", 3: "#ad8344",
                     4: "#8e6a3a", 5: "#6d4f2a"}
CONTOUR_COLOUR = "#5d4024"
#: Most pixels drawn across the view (the art is thinned beyond this: a map many boards wide).
MAX_DRAWN_WIDTH = 3600


def art_colour(name: str) -> str | None:
    """The art's colour of a terrain or hexside feature name (None: not drawn, e.g. roads)."""
    return ART_COLOURS.get(name)


def has_own_art(board) -> bool:
    """Whether some board of the map brought art of its own (a VASL board)."""
    return any(p.board.art is not None for p in board.placements)


def uses_art(board, art, *, model: str = "hex") -> bool:
    """Whether a picture draws the art: ``art`` when given, else where the map has art of its own or
    ``model`` is a depiction model (``"depiction"``, ``"vasl"``); never on pointy-topped maps."""
    if board.orientation == "pointy":
        return False
    if art is not None:
        return bool(art)
    return has_own_art(board) or model in ("depiction", "vasl")


def art_level_colour(level: int) -> str:
    """The art's colour of open ground at ``level`` (levels beyond the table take its last colour).

    >>> art_level_colour(0), art_level_colour(9) == art_level_colour(5)
    ('#e9ecc6', True)
    """
    return ART_LEVEL_COLOURS[min(max(int(level), min(ART_LEVEL_COLOURS)), max(ART_LEVEL_COLOURS))]


def _level_rgb(level: int) -> np.ndarray:
    from matplotlib.colors import to_rgb

    return np.array(to_rgb(art_level_colour(level)))


def drawn_class_names(board, art) -> list:
    """Per pixel class of ``art``: the name of the terrain or hexside feature drawn for it (by
    :data:`_PRIORITY`), or ``None`` where its ground level shows."""
    rs = board.ruleset
    out = []
    for c in range(len(art.class_terrain)):
        names = {n for t, n in enumerate(rs.terrain_names) if int(art.class_terrain[c]) >> t & 1}
        names |= {n for k, n in enumerate(rs.hexside_names) if int(art.class_hexside[c]) >> k & 1}
        drawn = [n for n in _PRIORITY if n in names] + sorted(n for n in names if n not in _PRIORITY
                                                              and art_colour(n) is not None)
        out.append(drawn[0] if drawn else None)
    return out


def art_image(board, box=None, *, max_width: int = MAX_DRAWN_WIDTH):
    """The art as an RGBA image (uint8, rows top to bottom) and its display extent, cropped to ``box``.

    Returns
    -------
    (image, extent, names, levels)
        ``extent`` for :meth:`matplotlib.axes.Axes.imshow` (left, right, bottom, top), ``names`` the
        terrain and feature names drawn, ``levels`` the ground levels shown (for the legend).

    Examples
    --------
    >>> import kernel
    >>> image, extent, names, levels = art_image(kernel.load("71"))
    >>> image.dtype, image.shape[2], "woods" in names, 0 in levels
    (dtype('uint8'), 4, True, True)
    """
    from matplotlib.colors import to_rgb

    from kernel._dtypes import LEVEL_BIAS
    from kernel.grid.pixels import UNIT_X, UNIT_Y
    from kernel.maps.art import board_art

    art = board_art(board)
    height, width = art.pixels.shape
    x0, x1, y0, y1 = 0, width, 0, height
    if box is not None:
        xmin, xmax, ymin, ymax = box
        x0, x1 = max(0, int(np.floor(xmin * UNIT_X))), min(width, int(np.ceil(xmax * UNIT_X)) + 1)
        y0, y1 = max(0, int(np.floor(-ymax / SQRT3 * UNIT_Y))), min(height, int(np.ceil(-ymin / SQRT3 * UNIT_Y)) + 1)
        if x1 <= x0 or y1 <= y0:
            x0, x1, y0, y1 = 0, 1, 0, 1
    step = max(1, -(-(x1 - x0) // max_width))
    words = art.pixels[y0:y1:step, x0:x1:step]
    drawn = drawn_class_names(board, art)
    # one RGBA colour per pixel word (class << 8 | elevation byte): a drawn class's colour, else its level's
    class_rgba = np.zeros((256, 4), np.uint8)
    ground = np.ones(256, bool)
    for c, name in enumerate(drawn):
        if name is not None:
            class_rgba[c, :3] = [int(round(255 * v)) for v in to_rgb(art_colour(name))]
            ground[c] = False
    level_rgba = np.zeros((256, 4), np.uint8)
    for byte in range(256):
        level_rgba[byte, :3] = [int(round(255 * v)) for v in _level_rgb(byte - LEVEL_BIAS)]
    table = np.where(ground[:, None, None], level_rgba[None, :, :], class_rgba[:, None, :]).reshape(-1, 4)
    table[:, 3] = 255
    image = table[words]
    elevation = (words & 0xFF).astype(np.uint8)
    contour = np.zeros(elevation.shape, bool)
    contour[:, 1:] |= elevation[:, 1:] != elevation[:, :-1]
    contour[1:, :] |= elevation[1:, :] != elevation[:-1, :]
    image[contour, :3] = [int(round(255 * v)) for v in to_rgb(CONTOUR_COLOUR)]
    shown = np.flatnonzero(np.bincount((words >> 8).ravel(), minlength=256))
    names = [drawn[c] for c in shown if drawn[c] is not None]
    levels = [int(v) - LEVEL_BIAS for v in np.flatnonzero(np.bincount(elevation.ravel(), minlength=256))]
    extent = ((x0 - step / 2) / UNIT_X, (x0 + (words.shape[1] - 0.5) * step) / UNIT_X,
              -(y0 + (words.shape[0] - 0.5) * step) / UNIT_Y * SQRT3, -(y0 - step / 2) / UNIT_Y * SQRT3)
    order = {n: i for i, n in enumerate(_PRIORITY)}
    names = sorted(set(names), key=lambda n: (order.get(n, len(order)), n))
    return image, extent, names, levels


def draw_art(page, board, *, muted: float = 0.0) -> list:
    """Draw the map's art in the page's view, the hex grid and the roads over it; returns legend handles.

    ``muted`` (0..1) fades the art towards white, as :func:`kernel.render.board_map.draw_board` fades
    the hex model's colours under a field of fire.
    """
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    frame, ax, ppu = page.frame, page.ax, page.ppu
    image, extent, names, levels = art_image(board, page.box)
    if muted:
        image = image.copy()
        image[..., :3] = image[..., :3] + ((255 - image[..., :3].astype(np.float32)) * muted).astype(np.uint8)
    ax.imshow(image, extent=extent, origin="upper", interpolation="nearest", zorder=1, aspect="equal")
    ax.set_xlim(page.box[0], page.box[1])
    ax.set_ylim(page.box[2], page.box[3])
    ax.add_collection(PolyCollection(frame.hexagons(), facecolors="none", edgecolors="#6f6f6f",
                                     linewidths=max(0.15, 0.012 * ppu), alpha=0.8, zorder=1.5))
    shade = (lambda c: mute(c, muted)) if muted else (lambda c: c)
    handles = [Patch(facecolor=shade(art_colour(n)), label=f"{n} (art)") for n in names]
    for v in levels:
        if v != 0 or len(levels) > 1:
            label = "open ground" if v == 0 else (f"hill level {v}" if v > 0 else f"depression level {v}")
            handles.append(Patch(facecolor=shade(ART_LEVEL_COLOURS[min(max(v, -2), 5)]), label=label))
    hexes, segments = road_segments(board, frame)
    if hexes.size:
        ax.add_collection(LineCollection(segments, colors=shade("#c45a1a"), linewidths=max(0.6, 0.2 * ppu),
                                         alpha=0.7, zorder=5, capstyle="round"))
        handles.append(Line2D([], [], color=shade("#c45a1a"), lw=2.0, label="road (hex model)"))
    return handles


def backdrop_text(board, art: bool) -> str:
    """What the picture's map shows, for its subtitle: ``"board art"`` (VASL) or ``"hex model colours"``."""
    if not art:
        return "hex model colours"
    return "board art (VASL)" if has_own_art(board) else "art rasterised from the hex model"
