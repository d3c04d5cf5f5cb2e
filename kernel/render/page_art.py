"""The board's art as the interactive page's background: a PNG of :func:`kernel.board_art`, in terrain colours.

Every pixel of the map's art (:class:`kernel.maps.art.MapArt`) gets the
colour the pictures draw it in (:mod:`kernel.render.art_layer`: one choice of
what shows where a pixel holds several things, one table of colours): the
most prominent building, hexside feature or terrain of its class, else its
ground level.  The image is an
8-bit palette PNG written here with :mod:`zlib` (no imaging library), one
image pixel per art pixel; the page lays it under the hexes so that pixel
``(x, y)`` sits at lattice point ``(x / UNIT_X, y / UNIT_Y)``.
"""

from __future__ import annotations

import base64
import struct
import zlib

import numpy as np

from kernel.render.art_layer import art_colour, art_level_colour, drawn_class_names


def _rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def class_colours(board, art) -> list[str | None]:
    """Per pixel class of ``art``: the colour it is drawn in, or ``None`` where its ground level shows
    (the pictures' own choice and colours: :mod:`kernel.render.art_layer`)."""
    return [art_colour(name) if name is not None else None for name in drawn_class_names(board, art)]


def png_bytes(indices: np.ndarray, palette: list[tuple[int, int, int]]) -> bytes:
    """An 8-bit palette PNG of ``indices`` (uint8, rows top first) with ``palette`` (RGB triples).

    >>> import numpy as np
    >>> png_bytes(np.zeros((2, 3), np.uint8), [(255, 0, 0)])[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    height, width = indices.shape

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    rows = np.zeros((height, width + 1), np.uint8)   # each row: filter type 0, then its pixels
    rows[:, 1:] = indices
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    colours = b"".join(bytes(c) for c in palette)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"PLTE", colours)
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)) + chunk(b"IEND", b""))


def art_background(board) -> dict | None:
    """The page's background image of a map with drawn art, or ``None`` (no board brings art of its own,
    or the map is printed pointy-topped).

    Returns
    -------
    dict or None
        ``image``: a ``data:image/png;base64,...`` URL; ``width``, ``height``: its size in pixels;
        ``unit_x``, ``unit_y``: pixels per lattice unit (:data:`kernel.grid.pixels.UNIT_X`, ``UNIT_Y``);
        ``legend``: the colour and label of each terrain, feature and ground level the image shows.

    Examples
    --------
    >>> import kernel
    >>> art_background(kernel.load("71")) is None   # a text board: its art is the hex model's
    True
    """
    from kernel.grid.pixels import UNIT_X, UNIT_Y
    from kernel.maps.art import board_art

    if board.orientation != "flat" or not any(p.board.art is not None for p in board.placements):
        return None
    art = board_art(board)
    levels = (art.pixels & 0xFF).astype(np.int16) - 128
    classes = (art.pixels >> 8).astype(np.int64)
    low = int(levels.min())
    span = int(levels.max()) - low + 1
    by_class = class_colours(board, art)
    # one colour per (class, level): the class's colour, else the level's
    colour_of = [by_class[c] or art_level_colour(low + v) for c in range(len(by_class)) for v in range(span)]
    # the colours come from fixed tables (terrain, palette, levels, hexsides): far fewer than 256
    palette = sorted(set(colour_of))
    lookup = np.array([palette.index(c) for c in colour_of], np.uint8)
    indices = lookup[classes * span + (levels - low)]
    data = png_bytes(indices, [_rgb(c) for c in palette])
    names = drawn_class_names(board, art)
    shown = sorted({names[c] for c in np.unique(classes).tolist() if names[c] is not None})
    legend = [{"colour": art_colour(name), "label": f"{name} (art)"} for name in shown]
    legend += [{"colour": art_level_colour(v), "label": "open ground (art)" if v == 0 else f"ground level {v} (art)"}
               for v in np.unique(levels).tolist()]
    return {"image": "data:image/png;base64," + base64.b64encode(data).decode("ascii"),
            "width": int(indices.shape[1]), "height": int(indices.shape[0]), "unit_x": UNIT_X, "unit_y": UNIT_Y,
            "legend": legend}
