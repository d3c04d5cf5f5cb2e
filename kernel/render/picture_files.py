"""How :func:`kernel.render.common.save` writes a picture: :func:`svg_text` and :func:`write_figure_png`.

The SVG is matplotlib's, written faster but to the same bytes
(:mod:`kernel.render.svg_paths`, :class:`kernel.render.labels.hollow_label_paths`),
with path data to 0.01 pt and the labels as ``<text>`` (:mod:`kernel.render.labels`).

The PNG of an opaque page is its RGB pixels, unfiltered and deflated at zlib
level 1 (:func:`write_png`).  The pictures are mostly flat colour (hex fills,
white page, legend): for them PNG's "none" filter with zlib level 1 writes a
file about a sixth smaller than Pillow's adaptive filtering, in about a third
of the time (Pillow tries every filter on every row).  The pixels are the
same: PNG is lossless, whatever the filter.

Examples
--------
>>> import io, numpy as np
>>> from PIL import Image
>>> pixels = np.zeros((3, 4, 3), np.uint8); pixels[1, 2] = (255, 128, 0)
>>> buffer = io.BytesIO(); write_png(buffer, pixels, dpi=200, text={"Software": "hexkernel"})
>>> image = Image.open(buffer)
>>> np.array_equal(np.asarray(image), pixels), image.info["Software"], round(image.info["dpi"][0])
(True, 'hexkernel', 200)
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(file, pixels: np.ndarray, *, dpi: float, text: dict[str, str] | None = None) -> None:
    """Write ``pixels`` (height, width, 3) uint8 RGB to ``file`` (a path or a binary file object) as a PNG.

    ``dpi`` goes into the ``pHYs`` chunk (pixels per metre, as Pillow writes it), ``text`` into ``tEXt``
    chunks (Latin-1 keys and values).

    Raises
    ------
    ValueError
        ``pixels`` is not a (height, width, 3) uint8 array.
    """
    pixels = np.asarray(pixels)
    if pixels.ndim != 3 or pixels.shape[2] != 3 or pixels.dtype != np.uint8 or 0 in pixels.shape:
        raise ValueError(f"PNG pixels are a {pixels.dtype} array of shape {pixels.shape}: "
                         f"expected uint8 of shape (height, width, 3)")
    height, width = pixels.shape[:2]
    rows = np.empty((height, 1 + 3 * width), np.uint8)
    rows[:, 0] = 0                                  # filter type "none" on every row
    rows[:, 1:] = pixels.reshape(height, 3 * width)
    per_metre = int(dpi / 0.0254 + 0.5)
    parts = [_SIGNATURE,
             _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),   # 8-bit RGB
             _chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1))]
    for key, value in (text or {}).items():
        parts.append(_chunk(b"tEXt", key.encode("latin-1") + b"\0" + value.encode("latin-1")))
    parts.append(_chunk(b"IDAT", zlib.compress(rows.data, 1)))
    parts.append(_chunk(b"IEND", b""))
    if hasattr(file, "write"):
        for part in parts:
            file.write(part)
        return
    with open(file, "wb") as handle:
        for part in parts:
            handle.write(part)


def svg_text(figure) -> str:
    """The SVG of ``figure``: matplotlib's, path data to 0.01 pt, labels as ``<text>``."""
    import io

    from kernel.render.labels import hollow_label_paths, svg_with_text, two_decimal_svg_paths
    from kernel.render.svg_paths import fast_svg_collections

    buffer = io.StringIO()
    with two_decimal_svg_paths(), fast_svg_collections(), hollow_label_paths(figure):
        figure.savefig(buffer, format="svg", dpi="figure")
    return svg_with_text(figure, buffer.getvalue())


def write_figure_png(figure, file) -> None:
    """Draw ``figure`` on its Agg canvas and write its RGB pixels to ``file`` (a path or a binary file object)."""
    canvas = figure.canvas
    canvas.draw()
    write_png(file, np.asarray(canvas.buffer_rgba())[..., :3], dpi=figure.dpi, text={"Software": "hexkernel"})
