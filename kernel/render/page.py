"""The interactive map page: one self-contained HTML file that works offline from disk.

:func:`map_page` writes the map as SVG (drawn by the page's script from the
embedded centres, names and terrain), with the tables of
:mod:`kernel.render.page_data` embedded as JSON.  Click a hex: its field of
fire (ground level, or an upper Location chosen in the level list); shift-click
a second hex: the LOS between them, with the verdict line of
:meth:`kernel.LOSResult.explain`, the ends' levels and range, and the
blocking hex, every blind hex with its A6.4 arithmetic and the hindrance
steps; switch to the movement view: the hexes a unit class reaches from the
clicked hex, with the allowance as a slider, and the path to the hovered or
shift-clicked hex.  On a map with a board's own art (a VASL board) a second
LOS model, the depiction model, draws that art under the hexes and answers
from it.  SMOKE, vehicles and units from the counters are drawn (each its own
mark) and change the LOS tables.  No server, no
network: the HTML, CSS and script are in the file, and the tables are
inflated by the browser's ``DecompressionStream``.

The page's template is ``page_template.html`` beside this module.  Every
name the page shows (terrain and hexside labels from the ruleset, hex names,
the title) is inserted as text, never as HTML.

The page embeds LOS tables of every pair of hexes, so its size and the time
to build it grow with the square of the hex count: a map of more than
:data:`MAX_PAGE_HEXES` hexes is refused before any work (about 40 s, 0.3 GB
and 30 MB of file at the limit).
"""

from __future__ import annotations

import html
import json
from importlib import resources

#: Hexes of the largest map a page is made for (its tables hold every pair: N² bytes and time).
MAX_PAGE_HEXES = 5_000

from kernel.render.page_data import DEFAULT_MAX_ALLOWANCE, page_data


def map_page_html(board, *, counters=None, unit: str | None = None,
              max_allowance: int = DEFAULT_MAX_ALLOWANCE, title: str | None = None, pieces: dict | None = None) -> str:
    """The interactive page of a map as one HTML string.

    Parameters
    ----------
    board : Board
    counters : Counters or GameState, optional
        SMOKE, vehicles and units on the map (a counters file's JSON:
        ``kernel.Counters.from_dict(board, data)``).
    unit : str, optional
        Unit class for the movement view and the targets' cover (default: the ruleset's first).
    max_allowance : int
        The movement slider's largest allowance in MF.
    title : str, optional
        The page's title (default: the map's title).
    pieces : dict, optional
        Named units and counters listed beside the map (a saved game's; see
        :func:`kernel.render.page_data.page_data`): click a unit for its field of fire.

    Returns
    -------
    str

    See Also
    --------
    kernel.map_page : writes the page to a file.
    kernel.board_picture : a still picture of the map.
    kernel.read_saved_game : a save's ``pieces`` to list.

    Examples
    --------
    >>> import kernel
    >>> text = kernel.map_page_html(kernel.load("71"), max_allowance=2)
    >>> text.startswith("<!DOCTYPE html>"), "src=" in text, "<link" in text  # nothing loaded from elsewhere
    (True, False, False)
    """
    if len(board) > MAX_PAGE_HEXES:
        raise ValueError(f"{board.title} has {len(board)} hexes: expected at most {MAX_PAGE_HEXES} for a page (its "
                         "tables hold every pair of hexes; use 'hexkernel matrix' or 'batch' for larger maps)")
    data = page_data(board, counters=counters, unit=unit, max_allowance=max_allowance, pieces=pieces)
    template = resources.files("kernel.render").joinpath("page_template.html").read_text(encoding="utf-8")
    # JSON inside <script>: no '<' at all (as \u003c, the same string to the script), so no '</script>' can
    # close the element and no '<!--' with '<script' can put the parser in the state where '</script>' no
    # longer closes it (a name holding '<!--<script>' left the page at "loading..."); '>' and '&' likewise
    payload = (json.dumps(data, separators=(",", ":"), allow_nan=False)
               .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
    name = html.escape(title or f"{board.title}: interactive map")
    before, marker, after = template.partition("__DATA__")  # each marker replaced once, in the template only
    return before.replace("__TITLE__", name) + payload + after


def map_page(board, path, **options) -> int:
    """Write the interactive page of a map to ``path``; returns its size in bytes.

    The keyword options are those of :func:`map_page_html`.  The file is
    written whole (to a temporary name beside it, then renamed), so a failed
    run leaves no partial page behind.

    See Also
    --------
    kernel.map_page_html : the page as a string.
    kernel.save_picture : a still picture to a file.

    Examples
    --------
    >>> import kernel, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> size = kernel.map_page(kernel.load("71"), folder / "map.html", max_allowance=2)
    >>> 10_000 < size < 3_000_000
    True
    """
    import os
    from pathlib import Path

    text = map_page_html(board, **options)
    path = Path(path)
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    finally:
        if partial.exists():
            partial.unlink()
    return path.stat().st_size
