"""What every picture shares: the hex geometry, the A4 page, the colours and :func:`save`.

The picture modules (:mod:`~kernel.render.board_map`,
:mod:`~kernel.render.fire_map`, :mod:`~kernel.render.movement_map`,
:mod:`~kernel.render.los_trace`, :mod:`~kernel.render.matrix_map`) each
draw one kind of picture with these pieces: every picture is a matplotlib
:class:`~matplotlib.figure.Figure` on an A4 page (landscape for wide maps,
portrait for tall ones) drawn on the Agg canvas, and :func:`save` writes it
as PNG or SVG.  Nothing here touches pyplot or the global matplotlib backend,
so pictures are safe to draw from a server or a notebook alike; matplotlib is
imported only inside the functions that draw.

Geometry follows :mod:`kernel.grid.lattice`: a hex centred at lattice ``(x, y)``
is drawn at ``(x, -sqrt(3) y)`` (units of s/2; ``y`` grows southwards), with
its vertices at the centre plus ``VERTEX_OFFSETS``.  Pointy-topped maps
(``orientation = pointy`` in the board file, e.g. CCN) are stored transposed,
so they are drawn transposed: ``(sqrt(3) y, -x)``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from kernel._extras import require
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
BAND = 1.25          # legend band under the map
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
    "stone-building": "#5f6368", "wooden-building": "#b5651d", "building": "#6b5e57", "rowhouse-wall": "#1a1a1a",
    "town": "#b5544c",
}
PALETTE = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6",
           "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324")
# Where values sit in a hex (display units; a hex is 2*sqrt(3) high): below the centre.
VALUE_DROP = 0.45
_MIN_NAME_SIZE = 4.5   # points: below this, names lose their board number

# Field of fire and LOS colours.
CLEAR_COLOUR = "#43a047"
HINDERED_COLOUR = "#fb8c00"
BLOCKED_COLOUR = "#37474f"
SOURCE_COLOUR = "#d50000"


# ---------------------------------------------------------------------------
# geometry
# ---------------------------------------------------------------------------

def orientation(board) -> str:
    """``"flat"`` or ``"pointy"``: how the map is printed (``board.orientation``, from its board file)."""
    return board.orientation


class Frame:
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
        """(n, 6, 2) polygon vertices of the hexes, scaled about their centres (by one scale, or one per hex)."""
        b = self.board
        idx = np.arange(len(b)) if hexes is None else np.asarray(hexes)
        scale = np.asarray(scale, dtype=float)
        scale = scale[:, None] if scale.ndim else scale
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


def unique_hexsides(board, mask):
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
    return _TERRAIN_COLOURS.get(name, PALETTE[terrain % len(PALETTE)])


def mute(colour, amount=0.55):
    """``colour`` faded towards white by ``amount`` (0..1), as an RGB tuple."""
    if isinstance(colour, str):   # the pictures fade a few colours thousands of times: once each
        return _muted(colour, float(amount))
    return _muted.__wrapped__(colour, amount)


@lru_cache(maxsize=1024)
def _muted(colour, amount):
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(colour)
    return (r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount)


# ---------------------------------------------------------------------------
# page
# ---------------------------------------------------------------------------

def fitted_page(dw: float, dh: float, band: float = BAND) -> tuple[float, float]:
    """A page (inches) for a map box of ``dw`` x ``dh`` display units: A4 in its bound dimension, shorter in the other.

    The A4 orientation whose map area fits the box best is chosen, then the
    dimension with room to spare is shrunk to the map (a wide strip of boards
    gets a short page, not a blank A4 one); at least 4 inches high and 7 wide,
    for the title and the legend.

    >>> fitted_page(100.0, 10.0)   # a wide strip: A4 landscape width, a short page
    (11.69, 4.0)
    >>> fitted_page(100.0, 60.0)   # bound by the height: A4 high, a little narrower
    (10.85, 8.27)
    """
    best = None
    for size in (A4_LANDSCAPE, A4_PORTRAIT):
        page_band = _BAND_PORTRAIT if size[1] > size[0] and band == BAND else band
        aw, ah = size[0] - 2 * _SIDE, size[1] - _TITLE - page_band - _FOOT
        scale = min(aw / dw, ah / dh)
        if best is None or scale > best[0] * 1.02:
            best = (scale, size, page_band)
    scale, (width, height), page_band = best
    height = min(height, max(4.0, _TITLE + page_band + _FOOT + dh * scale))
    width = min(width, max(7.0, 2 * _SIDE + dw * scale))
    return (round(width, 2), round(height, 2))


class Page:
    """An A4 figure with a title, one map axes fitted to a data box, and a legend band."""

    def __init__(self, frame, box, title, subtitle=None, band=BAND, dpi=DEFAULT_DPI, page=None):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        xmin, xmax, ymin, ymax = box
        dw, dh = xmax - xmin, ymax - ymin
        if page is None:
            page = fitted_page(dw, dh, band)
        self.size = page
        width, height = page
        if height > width and band == BAND and height > A4_LANDSCAPE[1]:
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
        self.name_size = name_fontsize(self, self.labels, shown)
        self.local = False
        if self.name_size < _MIN_NAME_SIZE:
            local = local_names(board)
            local_size = name_fontsize(self, local, shown)
            if local_size > self.name_size:
                self.labels, self.name_size, self.local = local, local_size, True
        if self.local and self.multi_board:
            subtitle = (subtitle + "  ·  " if subtitle else "") + "hex names omit their board number (board labels at the edges)"
        lines = subtitle_lines(subtitle, width) if subtitle else []
        self.figure.text(0.5, 1 - (0.28 if len(lines) < 2 else 0.22) / height, title, ha="center", va="center",
                         fontsize=13, weight="bold")
        if lines:
            self.figure.text(0.5, 1 - (0.52 if len(lines) < 2 else 0.49) / height, "\n".join(lines), ha="center",
                             va="center", fontsize=8.5 if len(lines) < 2 else 7.5, color="#444444", linespacing=1.15)

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


def subtitle_lines(text: str, width_in: float) -> list[str]:
    """A subtitle as one line, or two split at a ``"  ·  "`` where one line would be wider than the page.

    >>> subtitle_lines("map  ·  ruleset asl", 11.69)
    ['map  ·  ruleset asl']
    >>> subtitle_lines("a" * 150 + "  ·  " + "b" * 100, 11.69)[1] == "b" * 100
    True
    """
    fits = int((width_in - 0.3) * 72 / (8.5 * 0.56))
    if len(text) <= fits or "  ·  " not in text:
        return [text]
    parts = text.split("  ·  ")
    best = min(range(1, len(parts)), key=lambda k: abs(len("  ·  ".join(parts[:k])) - len(text) / 2))
    return ["  ·  ".join(parts[:best]), "  ·  ".join(parts[best:])]


def name_fontsize(page, names, hexes):
    """Font size (points) that fits the longest hex name into a hex."""
    longest = max((len(names[i]) for i in hexes), default=3)
    width_pt = page.frame.hex_width * 0.78 * page.ppu
    return float(np.clip(width_pt / (0.62 * max(longest, 3)), 1.5, 9.0))


def fit_box(frame, box, page_size=None, band=BAND, limit=None):
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


def zoom_box(frame, hexes, margin_hexes=2.0, band=BAND):
    """A page-shaped box around ``hexes`` (or the whole map when that is smaller)."""
    full = full_box(frame)
    box = frame.bounds(hexes, margin=margin_hexes * frame.hex_width)
    fitted, size = fit_box(frame, box, band=band, limit=full)
    if (fitted[1] - fitted[0]) >= (full[1] - full[0]) or (fitted[3] - fitted[2]) >= (full[3] - full[2]):
        return full, None
    return fitted, size


def full_box(frame):
    """The whole map, with room at the top and bottom edges for board labels."""
    xmin, xmax, ymin, ymax = frame.bounds()
    if len(set(frame.board.board_id)) > 1:
        ymin, ymax = ymin - 2.2, ymax + 2.2
    return xmin, xmax, ymin, ymax


def map_subtitle(board, extra=""):
    """The line under a picture's title: the map, its ruleset, its size and ``extra``."""
    text = f"{board.title}  ·  ruleset {board.ruleset.name}  ·  {len(board)} hexes"
    return text + (f"  ·  {extra}" if extra else "")


def counters_text(counters) -> str:
    """The counters a picture applies, in a few words: ``"no counters"``, ``"counters: SMOKE in 1 hex, 2 units"``.

    >>> import kernel
    >>> board = kernel.load("default")
    >>> counters_text(None), counters_text(kernel.Counters.on(board, smoke={"71I9": 3}, units=["71J9", "71K9"]))
    ('no counters', 'counters: SMOKE in 1 hex, 2 units')
    """
    if counters is None:
        return "no counters"
    parts = []
    for values, one, many in ((counters.smoke, "SMOKE in 1 hex", "SMOKE in {} hexes"),
                              (counters.vehicles, "1 vehicle or wreck", "{} vehicles or wrecks"),
                              (counters.units, "1 unit", "{} units")):
        count = 0 if values is None else int(np.count_nonzero(values))
        if count:
            parts.append(one if count == 1 else many.format(count))
    return "counters: " + ", ".join(parts) if parts else "no counters"


def model_text(model: str | None, counters=None, backdrop: str | None = None) -> str:
    """The LOS model, the counters and what the map shows, for a picture's subtitle.

    >>> model_text("depiction", None, "board art (VASL)")
    'LOS model: depiction  ·  no counters  ·  board art (VASL)'
    """
    parts = ([f"LOS model: {model}"] if model else []) + [counters_text(counters)] + ([backdrop] if backdrop else [])
    return "  ·  ".join(parts)


def save(figure, path, *, format: str | None = None) -> Path:
    """Write a picture as PNG or SVG (by ``format`` or the file's suffix; default PNG).

    See Also
    --------
    kernel.board_picture, kernel.fire_picture, kernel.movement_picture, kernel.los_picture,
    kernel.values_picture : the pictures it writes.

    Examples
    --------
    >>> import kernel, matplotlib, pathlib, tempfile
    >>> matplotlib.use("Agg")
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "board.svg"
    >>> kernel.save_picture(kernel.board_picture(kernel.load("71")), path).suffix
    '.svg'
    """
    require("plot", "pictures")
    path = Path(path)
    fmt = (format or path.suffix.lstrip(".") or "png").lower()
    if fmt not in ("png", "svg"):
        raise ValueError(f"picture format {fmt!r}: expected png or svg")
    from kernel.render.picture_files import svg_text, write_figure_png

    if fmt == "svg":
        path.write_text(svg_text(figure), encoding="utf-8")
        return path
    if not hasattr(figure.canvas, "buffer_rgba") or figure.patch.get_alpha() not in (None, 1.0):
        figure.savefig(path, format=fmt, dpi="figure", metadata={"Software": "hexkernel"})
        return path
    write_figure_png(figure, path)   # an opaque page: RGB, unfiltered (kernel.render.picture_files)
    return path


def road_segments(board, frame) -> tuple[np.ndarray, np.ndarray]:
    """The roads as drawn: ``(hexes, segments)``, one segment from a hex's centre to the middle of each of
    its road hexsides (display units of ``frame``; ``segments`` shape ``(K, 2, 2)``)."""
    rs = board.ruleset
    bits = sum(1 << k for k in range(len(rs.hexside_names)) if rs.hexside_road[k])
    hexes, dirs = np.nonzero(board.hexside & np.uint16(bits))
    mx, my = frame.xy(board.x[hexes] + CENTRE_STEP[dirs, 0] / 2.0, board.y[hexes] + CENTRE_STEP[dirs, 1] / 2.0)
    segments = np.stack([np.stack([frame.cx[hexes], frame.cy[hexes]], -1), np.stack([mx, my], -1)], axis=1)
    return hexes, segments
