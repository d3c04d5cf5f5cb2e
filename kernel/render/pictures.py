"""Pictures for people: the board, fields of fire, movement fields and one LOS.

Every function returns a matplotlib :class:`~matplotlib.figure.Figure` on an
A4 page (landscape for wide maps, portrait for tall ones) drawn on the Agg
canvas; :func:`save` writes it as PNG or SVG.  Nothing here touches pyplot or
the global matplotlib backend, so the module is safe to use from a server or
a notebook alike.

Geometry follows :mod:`kernel.grid.lattice`: a hex centred at lattice ``(x, y)``
is drawn at ``(x, -sqrt(3) y)`` (units of s/2; ``y`` grows southwards), with
its vertices at the centre plus ``VERTEX_OFFSETS``.  Pointy-topped maps
(``orientation = pointy`` in the board file, e.g. CCN) are stored transposed,
so they are drawn transposed: ``(sqrt(3) y, -x)``.

Hexes are drawn as polygons in one ``PolyCollection`` per layer; hexside
features (walls, hedges, ...) as thick coloured segments on the hexsides;
roads as lines from the hex centre to the midpoint of each road hexside.

Functions
---------
board_picture(board)                    terrain, hill levels, hexsides, roads, names
fire_picture(board, fire)               a field of fire (visible / hindered / blocked, cover)
movement_picture(board, field, ...)     movement costs, the reachable area and a path
los_picture(board, result)              one LOS: the line, the hexes it crosses, where it is blocked
values_picture(board, values, ...)      any per-hex number as a colour map (e.g. hexes seen)
save(figure, path)                      write PNG or SVG
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from kernel.grid.lattice import CENTRE_STEP, VERTEX_OFFSETS

SQRT3 = math.sqrt(3.0)

#: A4 page sizes in inches (width, height).
A4_LANDSCAPE = (11.69, 8.27)
A4_PORTRAIT = (8.27, 11.69)
#: Resolution of PNG pictures: an A4 landscape page is 2338 x 1654 pixels.
DEFAULT_DPI = 200

# Page layout, inches.
_TITLE = 0.62
_SIDE = 0.3
_BAND = 1.25          # legend band under the map
_FOOT = 0.25
_BAND_PORTRAIT = 1.9

# Hill levels: light to dark browns; below ground a blue-grey.
_LEVEL_COLOURS = {-2: "#b0bec5", -1: "#cfd8dc", 0: "#f8f5e9", 1: "#ecd9a8", 2: "#d5b377",
                  3: "#b48a4f", 4: "#8e6a3a", 5: "#6d4f2a"}

# Terrain colours by name (all three bundled rulesets); others get a palette colour.
_TERRAIN_COLOURS = {
    "grain": "#f1d54a", "crops": "#f1d54a", "field": "#efe7b0",
    "brush": "#a9b95e", "woods": "#2f8a3a", "forest": "#2f8a3a", "jungle": "#165c22",
    "orchard": "#9ccc65", "graveyard": "#b39ddb", "marsh": "#7fcdbb", "shellholes": "#a1887f",
    "rubble": "#9e9e9e", "crag": "#6d5747", "rugged-hill": "#8d6e63", "quarry": "#bdbdbd",
    "gully": "#c8a98a", "stream": "#64b5f6", "river": "#3f8fdc", "water": "#1e6fc8",
    "ford": "#9fd3f5", "bridge": "#8d6e63", "road": "#e0cfb4",
    "stone-building": "#5f6368", "wooden-building": "#b5651d", "building": "#6b5e57",
    "town": "#b5544c",
}
# Terrain drawn as a building block in the middle of the hex rather than a fill.
_BUILDINGS = {"stone-building", "wooden-building", "building"}
_HEXSIDE_STYLES = {   # name: (colour, width in multiples of the base hexside width)
    "wall": ("#37474f", 1.0), "hedge": ("#2e8b2e", 0.9), "bocage": ("#0d4d14", 1.35),
    "hedgerow": ("#0b3d0b", 1.5), "cliff": ("#4e2a1e", 1.35), "stream": ("#1e88e5", 1.0),
    "fieldworks": ("#8b3a1a", 1.1),
}
_ROAD_COLOUR = "#c45a1a"
# Where things sit in a hex (display units; a hex is 2*sqrt(3) high): the name
# near the top, building blocks and values below the centre.
_NAME_RISE = 0.95
_BLOCK_DROP = 0.4
_VALUE_DROP = 0.45
_MIN_NAME_SIZE = 4.5   # points: below this, names lose their board number
_PALETTE = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6",
            "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324")

# Field of fire and LOS colours.
_CLEAR = "#43a047"
_HINDERED = "#fb8c00"
_BLOCKED = "#37474f"
_SOURCE = "#d50000"


# ---------------------------------------------------------------------------
# geometry
# ---------------------------------------------------------------------------

def orientation(board) -> str:
    """``"flat"`` or ``"pointy"``: how the map is printed (from its board file).

    Uses ``board.orientation`` when the Board has it; otherwise reads the
    ``orientation`` key of the (first) board file behind ``board.source``.
    Maps with no readable source (random boards) are flat.
    """
    value = getattr(board, "orientation", None)
    if value in ("flat", "pointy"):
        return value
    cached = board.__dict__.get("_picture_orientation")
    if cached is not None:
        return cached
    from kernel.maps.board_text import read_board_file
    from kernel.loading import read_scenario

    source = Path(str(board.source))
    value = "flat"
    try:
        if source.suffix == ".scenario":
            scenario = read_scenario(source)
            if scenario.boards:
                value = scenario.boards[0].board.orientation
        elif source.suffix == ".board":
            value = read_board_file(source).orientation
    except (OSError, ValueError):
        value = "flat"
    board.__dict__["_picture_orientation"] = value
    return value


class _Frame:
    """Lattice -> display coordinates (transposed for pointy-topped maps)."""

    def __init__(self, board):
        self.board = board
        self.pointy = orientation(board) == "pointy"
        self.cx, self.cy = self.xy(board.x, board.y)

    def xy(self, x, y):
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        if self.pointy:
            return y * SQRT3, -x
        return x, -y * SQRT3

    def hexagons(self, scale=1.0, hexes=None):
        """(n, 6, 2) polygon vertices of the hexes, scaled about their centres."""
        b = self.board
        idx = np.arange(len(b)) if hexes is None else np.asarray(hexes)
        x = b.x[idx].astype(float)[:, None] + scale * VERTEX_OFFSETS[:, 0][None, :]
        y = b.y[idx].astype(float)[:, None] + scale * VERTEX_OFFSETS[:, 1][None, :]
        dx, dy = self.xy(x, y)
        return np.stack([dx, dy], axis=-1)

    def hexside_segments(self, hexes, directions):
        """(n, 2, 2) end points of hexside ``directions[k]`` of ``hexes[k]``."""
        b = self.board
        hexes = np.asarray(hexes, dtype=np.int64)
        directions = np.asarray(directions, dtype=np.int64)
        first = VERTEX_OFFSETS[(directions - 1) % 6]
        second = VERTEX_OFFSETS[directions]
        x0, y0 = self.xy(b.x[hexes] + first[:, 0], b.y[hexes] + first[:, 1])
        x1, y1 = self.xy(b.x[hexes] + second[:, 0], b.y[hexes] + second[:, 1])
        return np.stack([np.stack([x0, y0], -1), np.stack([x1, y1], -1)], axis=1)

    def hexside_midpoint(self, hex_index, direction):
        """Display point of the middle of hexside ``direction`` of a hex."""
        b = self.board
        dx, dy = CENTRE_STEP[direction]
        return self.xy(b.x[hex_index] + dx / 2.0, b.y[hex_index] + dy / 2.0)

    def hexside_vertices(self, hex_index, direction):
        """Exact lattice end points of a hexside, as a set of (x, y) tuples."""
        b = self.board
        out = set()
        for k in ((direction - 1) % 6, direction):
            out.add((int(b.x[hex_index] + VERTEX_OFFSETS[k, 0]), int(b.y[hex_index] + VERTEX_OFFSETS[k, 1])))
        return out

    @property
    def hex_width(self) -> float:
        """Smallest width of a hex (flat side to flat side) in display units."""
        return 2 * SQRT3

    def bounds(self, hexes=None, margin=0.0):
        idx = np.arange(len(self.board)) if hexes is None else np.asarray(hexes)
        poly = self.hexagons(hexes=idx)
        return (float(poly[..., 0].min()) - margin, float(poly[..., 0].max()) + margin,
                float(poly[..., 1].min()) - margin, float(poly[..., 1].max()) + margin)


def _unique_hexsides(board, mask):
    """(hexes, directions) of each hexside where ``mask`` (N, 6) holds, once per hexside."""
    nb = board.neighbours
    own = np.arange(len(board))[:, None]
    once = mask & ((nb < 0) | (own < nb))
    return np.nonzero(once)


def local_names(board) -> list[str]:
    """Hex names without their board number (``71I4`` -> ``I4``) for labels inside hexes."""
    out = []
    for name, board_id in zip(board.names, board.board_id):
        if board_id and name.startswith(str(board_id)) and len(name) > len(str(board_id)) \
                and name[len(str(board_id))].isalpha():
            out.append(name[len(str(board_id)):])
        else:
            out.append(name)
    return out


# ---------------------------------------------------------------------------
# colours
# ---------------------------------------------------------------------------

def level_colour(level: int) -> str:
    """Fill colour of a hex at ground ``level`` (hills darker)."""
    level = int(level)
    if level in _LEVEL_COLOURS:
        return _LEVEL_COLOURS[level]
    return _LEVEL_COLOURS[max(_LEVEL_COLOURS)] if level > 0 else _LEVEL_COLOURS[min(_LEVEL_COLOURS)]


def terrain_colour(ruleset, terrain: int) -> str:
    """Fill colour of terrain type index ``terrain`` of a ruleset."""
    name = ruleset.terrain_names[terrain]
    return _TERRAIN_COLOURS.get(name, _PALETTE[terrain % len(_PALETTE)])


def _mute(colour, amount=0.55):
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(colour)
    return (r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount)


# ---------------------------------------------------------------------------
# page
# ---------------------------------------------------------------------------

class _Page:
    """An A4 figure with a title, one map axes fitted to a data box, and a legend band."""

    def __init__(self, frame, box, title, subtitle=None, band=_BAND, dpi=DEFAULT_DPI, page=None):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        xmin, xmax, ymin, ymax = box
        dw, dh = xmax - xmin, ymax - ymin
        if page is None:
            # the page whose map area fits the box best
            best = None
            for size in (A4_LANDSCAPE, A4_PORTRAIT):
                aw, ah = size[0] - 2 * _SIDE, size[1] - _TITLE - band - _FOOT
                scale = min(aw / dw, ah / dh)
                if best is None or scale > best[0] * 1.02:
                    best = (scale, size)
            page = best[1]
        self.size = page
        width, height = page
        if height > width and band == _BAND:
            band = _BAND_PORTRAIT   # a portrait page has room for a taller legend
        self.figure = Figure(figsize=page, dpi=dpi)
        FigureCanvasAgg(self.figure)
        self.frame = frame
        avail_w = width - 2 * _SIDE
        avail_h = height - _TITLE - band - _FOOT
        scale = min(avail_w / dw, avail_h / dh)
        aw, ah = dw * scale, dh * scale
        left = (width - aw) / 2
        top = height - _TITLE
        self.ax = self.figure.add_axes((left / width, (top - ah) / height, aw / width, ah / height))
        self.ax.set_xlim(xmin, xmax)
        self.ax.set_ylim(ymin, ymax)
        self.ax.set_aspect("equal")
        self.ax.set_axis_off()
        #: points per display unit
        self.ppu = scale * 72.0
        self.band_top = (top - ah) / height      # figure fraction where the band starts
        self.band_height = band
        self.band_bottom = max(0.0, (top - ah - band) / height)
        self.box = box
        # hex labels: full names where they fit, else names without the board
        # number (the board numbers are then written at the map's edges)
        board = frame.board
        self.multi_board = len(set(board.board_id)) > 1
        self.labels = list(board.names)
        shown = self.inside()
        self.name_size = _name_fontsize(self, self.labels, shown)
        self.local = False
        if self.name_size < _MIN_NAME_SIZE:
            local = local_names(board)
            local_size = _name_fontsize(self, local, shown)
            if local_size > self.name_size:
                self.labels, self.name_size, self.local = local, local_size, True
        if self.local and self.multi_board:
            subtitle = (subtitle + "  ·  " if subtitle else "") + "hex names omit their board number (board labels at the edges)"
        self.figure.text(0.5, 1 - 0.28 / height, title, ha="center", va="center", fontsize=13, weight="bold")
        if subtitle:
            self.figure.text(0.5, 1 - 0.52 / height, subtitle, ha="center", va="center", fontsize=8.5,
                             color="#444444")

    def inside(self, hexes=None):
        """Indices of the hexes whose centre is inside the view."""
        xmin, xmax, ymin, ymax = self.box
        cx, cy = self.frame.cx, self.frame.cy
        keep = (cx >= xmin - 1) & (cx <= xmax + 1) & (cy >= ymin - 1) & (cy <= ymax + 1)
        if hexes is not None:
            mask = np.zeros(len(cx), bool)
            mask[np.asarray(hexes, dtype=np.int64)] = True
            keep &= mask
        return np.flatnonzero(keep)

    def legend(self, handles, *, right=1.0, title=None, rows=None):
        """A legend in the band under the map, in as many columns as it needs."""
        if not handles:
            return
        n = len(handles)
        width_in = self.size[0] * right - 2 * _SIDE
        rows_fit = rows or max(1, int((self.band_height - 0.15) / 0.165))
        for fontsize in (7.5, 6.5, 5.5):
            longest = max(len(h.get_label()) for h in handles)
            column_in = longest * 0.52 * fontsize / 72 + 0.5
            max_cols = max(1, int(width_in / column_in))
            ncol = max(1, min(max_cols, -(-n // rows_fit)))
            if -(-n // ncol) <= rows_fit:
                break
        self.legend_rows = -(-n // ncol)
        self.figure.legend(
            handles=handles, loc="upper left", ncol=ncol, fontsize=fontsize, frameon=False,
            bbox_to_anchor=(_SIDE / self.size[0], self.band_top - 0.08 / self.size[1]),
            handlelength=2.2, columnspacing=1.0, borderaxespad=0.2, title=title, title_fontsize=8, alignment="left",
        )

    def colorbar(self, mappable, label, *, left=0.68):
        height = self.size[1]
        cax = self.figure.add_axes((left, self.band_top - 0.42 / height, 0.97 - left - _SIDE / self.size[0] + 0.03,
                                    0.12 / height))
        bar = self.figure.colorbar(mappable, cax=cax, orientation="horizontal")
        bar.set_label(label, fontsize=7.5)
        bar.ax.tick_params(labelsize=7)
        return bar

    def note(self, text, *, y_offset=0.0, fontsize=7.0, family=None, x=None):
        self.figure.text(x if x is not None else _SIDE / self.size[0], self.band_top - y_offset / self.size[1],
                         text, ha="left", va="top", fontsize=fontsize, family=family, color="#222222")


def _name_fontsize(page, names, hexes):
    """Font size (points) that fits the longest hex name into a hex."""
    longest = max((len(names[i]) for i in hexes), default=3)
    width_pt = page.frame.hex_width * 0.78 * page.ppu
    return float(np.clip(width_pt / (0.62 * max(longest, 3)), 1.5, 9.0))


def _fit_box(frame, box, page_size=None, band=_BAND, limit=None):
    """Grow a data box to the aspect of the page's map area (clipped to ``limit``)."""
    xmin, xmax, ymin, ymax = box
    dw, dh = xmax - xmin, ymax - ymin
    if page_size is None:
        page_size = A4_LANDSCAPE if dw >= dh else A4_PORTRAIT
    aw, ah = page_size[0] - 2 * _SIDE, page_size[1] - _TITLE - band - _FOOT
    target = aw / ah
    if dw / dh < target:
        grow = dh * target - dw
        xmin, xmax = xmin - grow / 2, xmax + grow / 2
    else:
        grow = dw / target - dh
        ymin, ymax = ymin - grow / 2, ymax + grow / 2
    if limit is not None:
        lx0, lx1, ly0, ly1 = limit
        # slide the box back inside the map where it can, never shrink it
        if xmax - xmin <= lx1 - lx0:
            shift = max(0.0, lx0 - xmin) - max(0.0, xmax - lx1)
            xmin, xmax = xmin + shift, xmax + shift
        if ymax - ymin <= ly1 - ly0:
            shift = max(0.0, ly0 - ymin) - max(0.0, ymax - ly1)
            ymin, ymax = ymin + shift, ymax + shift
    return (xmin, xmax, ymin, ymax), page_size


def _zoom_box(frame, hexes, margin_hexes=2.0, band=_BAND):
    """A page-shaped box around ``hexes`` (or the whole map when that is smaller)."""
    full = _full_box(frame)
    box = frame.bounds(hexes, margin=margin_hexes * frame.hex_width)
    fitted, size = _fit_box(frame, box, band=band, limit=full)
    if (fitted[1] - fitted[0]) >= (full[1] - full[0]) or (fitted[3] - fitted[2]) >= (full[3] - full[2]):
        return full, None
    return fitted, size


# ---------------------------------------------------------------------------
# the board layer
# ---------------------------------------------------------------------------

def _draw_board(page, board, *, muted=0.0, names=True):
    """Draw terrain, hill levels, contours, roads, hexside features and names.

    Returns legend handles for what was drawn.
    """
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    ax, frame, rs = page.ax, page.frame, board.ruleset
    ppu = page.ppu
    shade = (lambda c: _mute(c, muted)) if muted else (lambda c: c)
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
        for i in has:
            scale = max(0.3, 0.74 - 0.22 * counts[i])
            counts[i] += 1
            polys.append(frame.hexagons(scale, [i])[0])
            colours.append(colour)
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
    hexes, dirs = _unique_hexsides(board, (nb >= 0) & (other != levels[:, None]))
    if hexes.size:
        ax.add_collection(LineCollection(frame.hexside_segments(hexes, dirs), colors=shade("#6b4a2b"),
                                         linewidths=max(0.4, 0.05 * ppu), zorder=4, capstyle="round"))

    # roads: centre to the middle of each road hexside
    base_width = max(1.0, 0.34 * ppu)
    road_bits = [k for k in range(len(rs.hexside_names)) if rs.hexside_road[k]]
    if road_bits:
        mask = np.zeros(board.hexside.shape, bool)
        for k in road_bits:
            mask |= (board.hexside & np.uint16(1 << k)) != 0
        hexes, dirs = np.nonzero(mask)
        if hexes.size:
            mx, my = frame.xy(board.x[hexes] + CENTRE_STEP[dirs, 0] / 2.0, board.y[hexes] + CENTRE_STEP[dirs, 1] / 2.0)
            segments = np.stack([np.stack([frame.cx[hexes], frame.cy[hexes]], -1), np.stack([mx, my], -1)], axis=1)
            ax.add_collection(LineCollection(segments, colors=shade(_ROAD_COLOUR), linewidths=0.8 * base_width,
                                             zorder=5, capstyle="round"))
            if in_view[hexes].any():
                handles.append(Line2D([], [], color=shade(_ROAD_COLOUR), lw=2.0, label="road"))

    # hexside features: thick coloured segments on the hexsides
    for k, name in enumerate(rs.hexside_names):
        if k in road_bits:
            continue
        mask = (board.hexside & np.uint16(1 << k)) != 0
        hexes, dirs = _unique_hexsides(board, mask)
        if hexes.size == 0:
            continue
        colour, width = _HEXSIDE_STYLES.get(name, (_PALETTE[(k + 5) % len(_PALETTE)], 1.0))
        ax.add_collection(LineCollection(frame.hexside_segments(hexes, dirs), colors=shade(colour),
                                         linewidths=width * base_width, zorder=6, capstyle="butt"))
        if in_view[hexes].any() or in_view[np.maximum(board.neighbours[hexes, dirs], 0)].any():
            handles.append(Line2D([], [], color=shade(colour), lw=3.0 * width, label=f"{name} (hexside)"))

    # names, in the top part of the hex (buildings and values sit below)
    if names:
        _names(page, board)
    return handles


def _names(page, board, *, dim=None, scale=0.9, skip=()):
    """Hex names in the top part of each hex in view (not the ``skip`` hexes); returns the font size."""
    import matplotlib.patheffects as effects

    frame = page.frame
    labels = page.labels
    shown = page.inside()
    size = page.name_size * scale
    halo = [effects.withStroke(linewidth=max(0.6, size * 0.3), foreground="white")]
    rise = _NAME_RISE
    skip = {int(i) for i in skip}
    for i in shown:
        if i in skip:
            continue
        faint = dim is not None and dim[i]
        page.ax.text(frame.cx[i], frame.cy[i] + rise, labels[i], ha="center", va="center", fontsize=size,
                     color="#d8d8d8" if faint else "#111111", zorder=10, clip_on=True,
                     path_effects=None if faint else halo)
    return size


def _board_labels(page, board):
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


def _full_box(frame):
    """The whole map, with room at the top and bottom edges for board labels."""
    xmin, xmax, ymin, ymax = frame.bounds()
    if len(set(frame.board.board_id)) > 1:
        ymin, ymax = ymin - 2.2, ymax + 2.2
    return xmin, xmax, ymin, ymax


def _subtitle(board, extra=""):
    text = f"{board.title}  ·  ruleset {board.ruleset.name}  ·  {len(board)} hexes"
    return text + (f"  ·  {extra}" if extra else "")


# ---------------------------------------------------------------------------
# public pictures
# ---------------------------------------------------------------------------

def board_picture(board, *, title: str | None = None, hexes=None, dpi: int = DEFAULT_DPI):
    """The map itself: terrain per type, hill levels, hexside features, roads and hex names.

    Parameters
    ----------
    board : Board
    title : str, optional
    hexes : sequence of hexes, optional
        Zoom on these hexes (names or indices); default the whole map.
    dpi : int
        Resolution of the PNG (an A4 page is 11.69 x 8.27 inches).

    Returns
    -------
    matplotlib.figure.Figure
    """
    frame = _Frame(board)
    box, size = (_full_box(frame), None) if hexes is None else _zoom_box(frame, board.indices(list(hexes)))
    page = _Page(frame, box, title or "The map: terrain, hill levels, hexside features and roads", _subtitle(board),
                 dpi=dpi, page=size)
    handles = _draw_board(page, board)
    _board_labels(page, board)
    page.legend(handles)
    return page.figure


def fire_picture(board, fire, *, levels=None, title: str | None = None, dpi: int = DEFAULT_DPI):
    """A field of fire: visible, hindered (with the DRM written in the hex) and blocked hexes.

    Parameters
    ----------
    board : Board
    fire : kernel.line_of_sight.api.FieldOfFire
        The result of :func:`kernel.line_of_sight.api.field_of_fire`.
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

    frame = _Frame(board)
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
    page = _Page(frame, _full_box(frame), title or f"Field of fire from {', '.join(names)}",
                 _subtitle(board, counts), dpi=dpi)
    handles = _draw_board(page, board, muted=0.45, names=False)
    ax, ppu = page.ax, page.ppu
    polys = frame.hexagons(0.97)
    layers = [(clear, _CLEAR, 0.45, "visible, no hindrance"), (hindered, _HINDERED, 0.62, "visible through hindrance (+DRM)"),
              (blocked, _BLOCKED, 0.6, "blocked (no LOS)")]
    status_handles = []
    for mask, colour, alpha, label in layers:
        if mask.any():
            ax.add_collection(PolyCollection(polys[mask], facecolors=colour, alpha=alpha, edgecolors="none", zorder=3.5))
        status_handles.append(Patch(facecolor=colour, alpha=alpha, label=f"{label}: {int(mask.sum())}"))

    name_size = _names(page, board, dim=blocked, skip=sources)
    value_size = float(np.clip(name_size * 1.4, 2.0, 11.0))
    for i in page.inside():
        if hindered[i]:
            ax.text(frame.cx[i] - (0.55 if cover[i] > 0 else 0.0), frame.cy[i] - _VALUE_DROP, f"+{int(hindrance[i])}", ha="center", va="center",
                    fontsize=value_size, weight="bold", color="#6d2c00", zorder=10, clip_on=True)
        if visible[i] and cover[i] > 0:
            x, y = frame.cx[i] + (0.8 if hindered[i] else 0.0), frame.cy[i] - _VALUE_DROP
            ax.text(x, y, f"{int(cover[i])}", ha="center", va="center", fontsize=value_size * 0.8, color="#0d47a1",
                    weight="bold", zorder=10, clip_on=True,
                    bbox=dict(boxstyle="circle,pad=0.15", facecolor="white", edgecolor="#0d47a1",
                              linewidth=max(0.3, 0.03 * ppu)))
    status_handles.append(Line2D([], [], marker="o", ls="none", markerfacecolor="white", markeredgecolor="#0d47a1",
                                 markersize=8, label="n: target cover (TEM / cover) vs the firer"))
    star = max(8.0, 1.6 * ppu)
    ax.plot(frame.cx[sources], frame.cy[sources], ls="none", marker="*", markersize=star, markerfacecolor=_SOURCE,
            markeredgecolor="white", markeredgewidth=max(0.6, star / 14), zorder=12)
    for s, n in zip(sources, names):
        ax.annotate(n, (frame.cx[s], frame.cy[s]), xytext=(0, star * 0.75), textcoords="offset points", ha="center",
                    fontsize=8, weight="bold", color=_SOURCE, zorder=13,
                    path_effects=[effects.withStroke(linewidth=2.2, foreground="white")])
    status_handles.append(Line2D([], [], marker="*", ls="none", markerfacecolor=_SOURCE, markeredgecolor="white",
                                 markersize=11, label=f"firer: {heights}"))
    _board_labels(page, board)
    page.legend(status_handles + handles)
    return page.figure


def _path_points(board, frame, field, states):
    """Display points of a movement path; Bypass states sit on their hexside.

    Between two Bypass positions whose hexsides share a vertex the path goes
    through that vertex, so it runs along the hexsides.  Returns
    ``(xs, ys, kinds)`` with kinds ``"hex"``, ``"bypass"`` or ``"vertex"``.
    """
    n_loc = field.tables.n_locations
    bypass_hex = field.tables.tables.bypass_hex
    bypass_dir = field.tables.tables.bypass_dir
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


def _format_cost(value: float) -> str:
    """``4``, ``1.5``, ``10.5``: costs are whole or half MF/MP."""
    return f"{float(value):g}"


def movement_picture(board, field, *, allowance: float | None = None, to=None, full=None, zoom: bool = True,
                     title: str | None = None, dpi: int = DEFAULT_DPI):
    """A movement field: the cost of each hex written in it and colour-scaled.

    Parameters
    ----------
    board : Board
    field : kernel.movement.api.MovementField
        The field to draw (its costs, start and paths).
    allowance : float, optional
        The movement allowance: hexes within it are coloured by cost and the
        reachable area is outlined; costlier hexes are grey.
    to : hex, optional
        Draw the cheapest path to this hex (Bypass moves along the hexsides).
    full : MovementField, optional
        An unlimited field from the same start, to write the cost of hexes
        beyond the allowance (``field`` has ``inf`` there).
    zoom : bool
        Zoom on the reachable area and the path (default) or show the whole map.
    """
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.colors import Normalize
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    import matplotlib.patheffects as effects

    frame = _Frame(board)
    cost = np.asarray(field.cost, float)
    shown_cost = cost.copy()
    if full is not None:
        beyond_cost = np.asarray(full.cost, float)
        shown_cost = np.where(np.isfinite(cost), cost, beyond_cost)
    finite = np.isfinite(shown_cost)
    limit = float(allowance) if allowance is not None else (float(shown_cost[finite].max()) if finite.any() else 1.0)
    within = np.isfinite(cost) & (cost <= limit + 1e-9)
    start_states = field.start_states()  # a start may be above ground, e.g. 71P5h1
    starts = np.unique(np.array([board.location_hex[st >> 1] for st in start_states], dtype=np.int64))
    path_states, path_hex, path_field = [], None, field
    if to is not None:
        path_hex = board.index(to)
        path_states = field.path_states(path_hex)
        if not path_states and full is not None:
            path_field = full
            path_states = full.path_states(path_hex)
    path_hexes = sorted({int(board.location_hex[s >> 1]) if s < 2 * field.tables.n_locations
                         else int(path_field.tables.tables.bypass_hex[s - 2 * field.tables.n_locations])
                         for s in path_states})
    focus = np.union1d(np.flatnonzero(within), np.array(path_hexes + list(starts), dtype=np.int64))
    box, size = (_full_box(frame), None)
    if zoom and focus.size:
        box, size = _zoom_box(frame, focus, margin_hexes=1.5)
    start_names = ", ".join(field.state_name(st) for st in start_states[:4]) + ("..." if len(start_states) > 4 else "")
    what = f"{int(within.sum())} hexes within {_format_cost(limit)} {'MF' if board.ruleset.los_model == 'asl' else 'MP'}" \
        if allowance is not None else f"{int(finite.sum())} hexes reachable"
    page = _Page(frame, box, title or f"Movement of {field.unit} from {start_names}", _subtitle(board, what), dpi=dpi,
                 page=size)
    handles = _draw_board(page, board, muted=0.5, names=False)
    ax, ppu = page.ax, page.ppu
    cmap = colormaps["YlGnBu"]
    norm = Normalize(vmin=0.0, vmax=max(limit, 1.0))
    polys = frame.hexagons(0.97)
    if within.any():
        colours = cmap(norm(np.clip(cost[within], 0, limit)) * 0.8 + 0.05)
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
    name_size = _names(page, board)
    value_size = float(np.clip(name_size * 1.5, 2.0, 12.0))
    for i in page.inside():
        if finite[i]:
            inside = within[i]
            colour = "#000000" if inside else "#666666"
            if inside and norm(cost[i]) * 0.8 + 0.05 > 0.55:
                colour = "white"
            ax.text(frame.cx[i], frame.cy[i] - _VALUE_DROP, _format_cost(shown_cost[i]), ha="center", va="center",
                    fontsize=value_size if inside else value_size * 0.85, weight="bold" if inside else "normal",
                    color=colour, zorder=10, clip_on=True)
    status = []
    if allowance is not None:
        status.append(Line2D([], [], color="#b71c1c", lw=2.5, label=f"reachable within {_format_cost(limit)}"))
        if beyond.any():
            status.append(Patch(facecolor="#f3f3f3", edgecolor="#bbbbbb", label="beyond the allowance (grey cost)"))
    star = max(8.0, 1.6 * ppu)
    ax.plot(frame.cx[starts], frame.cy[starts], ls="none", marker="*", markersize=star, markerfacecolor=_SOURCE,
            markeredgecolor="white", markeredgewidth=max(0.6, star / 14), zorder=12)
    status.append(Line2D([], [], marker="*", ls="none", markerfacecolor=_SOURCE, markeredgecolor="white", markersize=11,
                         label=f"start {start_names}"))
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
        label = f"path to {board.names[path_hex]} ({_format_cost(float(path_cost))})"
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
        status.append(Line2D([], [], color="none", label=f"{board.names[path_hex]}: not reachable"))
    _board_labels(page, board)
    page.legend(status + handles, right=0.64)
    page.colorbar(ScalarMappable(norm=Normalize(0, max(limit, 1.0)),
                                 cmap=_truncated(cmap, 0.05, 0.85)),
                  f"cost to enter ({field.unit}, {'MF' if board.ruleset.los_model == 'asl' else 'MP'})")
    return page.figure


def _truncated(cmap, low, high):
    from matplotlib.colors import LinearSegmentedColormap

    return LinearSegmentedColormap.from_list(f"{cmap.name}_part", cmap(np.linspace(low, high, 128)))


def los_picture(board, result, *, zoom: bool = True, explain: bool = True, title: str | None = None,
                dpi: int = DEFAULT_DPI):
    """One LOS: the centre-to-centre line, the hexes it crosses, hindrances and where it is blocked.

    Parameters
    ----------
    board : Board
    result : kernel.line_of_sight.api.LOSResult
        The result of :func:`kernel.line_of_sight.api.los`.
    zoom : bool
        Zoom on the line (default) or show the whole map.
    explain : bool
        Print the LOS report (:meth:`LOSResult.explain`) under the map.
    """
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    import matplotlib.patheffects as effects
    from kernel.line_of_sight.tracer import trace

    frame = _Frame(board)
    a, _ = board.location(result.viewer)
    b, _ = board.location(result.target)
    crossed = trace(board, a, b)
    report = result.explain().splitlines()
    band = _BAND + (min(len(report), 16) * 0.105 if explain else 0.0)
    hexes = [h for h, _ in crossed] + [a, b]
    box, size = (_full_box(frame), None)
    if zoom:
        box, size = _zoom_box(frame, hexes, margin_hexes=2.0, band=band)
    verdict = "clear" if result.visible else f"BLOCKED at {result.blocked_at} ({result.reason})"
    sub = f"{verdict}; hindrance +{result.hindrance}; target cover {result.cover}"
    page = _Page(frame, box, title or f"LOS {result.viewer} \u2192 {result.target}", _subtitle(board, sub), dpi=dpi,
                 page=size, band=band)
    handles = _draw_board(page, board, muted=0.35, names=False)
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
    if result.blocked_at:
        blocks.add(board.index(result.blocked_at))
    polys = frame.hexagons(0.97)
    status = []
    if interior:
        ax.add_collection(PolyCollection(polys[interior], facecolors="#fff176", alpha=0.55, edgecolors="#f9a825",
                                         linewidths=max(0.4, 0.04 * ppu), zorder=3.5))
        status.append(Patch(facecolor="#fff176", edgecolor="#f9a825", label="hex the LOS crosses"))
    if touched:
        ax.add_collection(PolyCollection(polys[touched], facecolors="#fffde7", alpha=0.55, edgecolors="#f9a825",
                                         linewidths=max(0.4, 0.04 * ppu), linestyles="--", zorder=3.5))
        status.append(Patch(facecolor="#fffde7", edgecolor="#f9a825", ls="--",
                            label="hex the LOS runs along / touches"))
    if drm:
        ax.add_collection(PolyCollection(polys[list(drm)], facecolors=_HINDERED, alpha=0.6, edgecolors="none", zorder=3.6))
        status.append(Patch(facecolor=_HINDERED, alpha=0.6, label="hindrance (+DRM)"))
    if blocks:
        ax.add_collection(PolyCollection(polys[sorted(blocks)], facecolors="#e53935", alpha=0.55, edgecolors="#b71c1c",
                                         linewidths=max(0.6, 0.08 * ppu), zorder=3.7))
        status.append(Patch(facecolor="#e53935", alpha=0.55, edgecolor="#b71c1c", label="blocks the LOS"))
    name_size = _names(page, board, skip=(a, b))
    halo = [effects.withStroke(linewidth=max(0.6, name_size * 0.3), foreground="white")]
    value_size = float(np.clip(name_size * 1.4, 3, 12))
    for h, value in drm.items():
        ax.text(frame.cx[h], frame.cy[h] - _VALUE_DROP, f"+{value}", ha="center", va="center", fontsize=value_size,
                weight="bold", color="#6d2c00", zorder=12, clip_on=True, path_effects=halo)
    ax_, ay = float(frame.cx[a]), float(frame.cy[a])
    bx, by = float(frame.cx[b]), float(frame.cy[b])
    lw = max(1.5, 0.2 * ppu)
    outline = [effects.withStroke(linewidth=lw + 1.8, foreground="white")]
    if result.visible:
        ax.plot([ax_, bx], [ay, by], color="#1b5e20", lw=lw, zorder=11, path_effects=outline, solid_capstyle="round")
        status.append(Line2D([], [], color="#1b5e20", lw=2.5, label="line of sight (clear)"))
    else:
        blocked = board.index(result.blocked_at) if result.blocked_at else b
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
                             label=f"blocked at {result.blocked_at} ({result.reason})"))
    for h, name, marker in ((a, result.viewer, "o"), (b, result.target, "s")):
        ax.plot([frame.cx[h]], [frame.cy[h]], marker=marker, markersize=max(7, 1.0 * ppu), markerfacecolor=_SOURCE
                if h == a else "#1565c0", markeredgecolor="white", markeredgewidth=1.2, zorder=14, ls="none")
        ax.annotate(name, (frame.cx[h], frame.cy[h]), xytext=(0, max(8, 1.0 * ppu)), textcoords="offset points",
                    ha="center", fontsize=8.5, weight="bold", color=_SOURCE if h == a else "#1565c0", zorder=15,
                    path_effects=[effects.withStroke(linewidth=2.4, foreground="white")])
    status.append(Line2D([], [], marker="o", ls="none", markerfacecolor=_SOURCE, markeredgecolor="white", markersize=8,
                         label=f"viewer {result.viewer}"))
    status.append(Line2D([], [], marker="s", ls="none", markerfacecolor="#1565c0", markeredgecolor="white",
                         markersize=8, label=f"target {result.target}"))
    _board_labels(page, board)
    page.legend(status + handles, rows=5)
    if explain:
        lines = report if len(report) <= 16 else report[:15] + [f"  ... {len(report) - 15} more steps"]
        page.note("\n".join(lines), y_offset=0.25 + 0.17 * getattr(page, "legend_rows", 0), fontsize=6.5,
                  family="monospace")
    return page.figure


def values_picture(board, values, *, title: str, label: str, cmap: str = "YlGnBu", names: bool = True,
                   dpi: int = DEFAULT_DPI):
    """Any number per hex as a colour map over the board (e.g. how many hexes each hex sees)."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.collections import PolyCollection
    from matplotlib.colors import Normalize

    frame = _Frame(board)
    values = np.asarray(values, float)
    if values.shape != (len(board),):
        raise ValueError(f"values has shape {values.shape}: expected ({len(board)},), one value per hex")
    finite = np.isfinite(values)
    low = float(values[finite].min()) if finite.any() else 0.0
    high = float(values[finite].max()) if finite.any() else 1.0
    page = _Page(frame, _full_box(frame), title, _subtitle(board, f"{label}: {low:g} to {high:g}"), dpi=dpi)
    handles = _draw_board(page, board, muted=0.6, names=False)
    colours = colormaps[cmap]
    norm = Normalize(low, high if high > low else low + 1)
    polys = frame.hexagons(0.97)
    page.ax.add_collection(PolyCollection(polys[finite], facecolors=colours(norm(values[finite])), alpha=0.75,
                                          edgecolors="none", zorder=3.5))
    if names:
        _names(page, board)
    _board_labels(page, board)
    page.legend([h for h in handles if "hexside" in h.get_label() or h.get_label() == "road"], right=0.64)
    page.colorbar(ScalarMappable(norm=norm, cmap=colours), label)
    return page.figure


def save(figure, path, *, format: str | None = None) -> Path:
    """Write a picture as PNG or SVG (by ``format`` or the file's suffix; default PNG)."""
    path = Path(path)
    fmt = (format or path.suffix.lstrip(".") or "png").lower()
    if fmt not in ("png", "svg"):
        raise ValueError(f"picture format {fmt!r}: expected png or svg")
    figure.savefig(path, format=fmt, dpi="figure", metadata=None if fmt == "svg" else {"Software": "hexkernel"})
    return path
