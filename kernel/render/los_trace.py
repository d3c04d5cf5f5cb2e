"""The picture of one line of sight: the line, the hexes it crosses and where it is blocked.

:func:`los_picture` draws a :class:`~kernel.LOSResult` over the muted
board (or its art, :mod:`kernel.render.art_layer`): the centre-to-centre
line (green where clear, red and dashed past the block), the hexes it
crosses or runs along, each in its own colour with a legend entry: the
blocking hexes (red), the obstacle or crest that casts a blind zone (A6.4,
magenta outline) and the blind hexes behind it along the line (magenta
hatching), the hindrance hexes with their DRM (orange); in the depiction
models the runs of art pixels the walk judged (:attr:`LOSStep.kind` names
them) are drawn on the line.  The LOS report (with the A6.4 arithmetic of
:mod:`kernel.line_of_sight.report`) is printed under the map, and the
subtitle names the LOS model and the counters applied.
"""

from __future__ import annotations

import re
import textwrap

import numpy as np

from kernel._extras import require
from kernel.render.board_map import _NAME_RISE, draw_board_labels, draw_names
from kernel.render.common import (BAND, DEFAULT_DPI, HINDERED_COLOUR, SOURCE_COLOUR, VALUE_DROP, Frame, Page,
                                  full_box, map_subtitle, model_text, zoom_box)

# crossed hexes: a purple outline on a faint lilac, unlike any terrain colour (grain is yellow)
_CROSSED_EDGE = "#7b1fa2"
_CROSSED_FILL = (0.88, 0.75, 0.91, 0.35)
BLOCKING_COLOUR = "#e53935"
BLIND_COLOUR = "#d500f9"
#: Characters per line of the explanation under a LOS picture (longer steps continue on the next line).
NOTE_WIDTH = 118
# a depiction step's run of pixels: "woods art at level 0, pixels 997,168-1008,163"
_RUN = re.compile(r"(?P<what>.+) art at level (?P<level>-?\d+), pixels (?P<x0>\d+),(?P<y0>\d+)-(?P<x1>\d+),(?P<y1>\d+)")


def pixel_runs(result) -> list[tuple[str, str, tuple[int, int, int, int]]]:
    """The runs of art pixels a depiction-model LOS judged: ``(what, effect, (x0, y0, x1, y1))`` per step,
    ``effect`` one of ``"blocks"``, ``"blind"``, ``"hindrance"`` or ``"no effect"`` (none in the hex model).

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> pixel_runs(kernel.los(board, "71I4", "72M6"))
    []
    """
    out = []
    for step in result.steps:
        found = _RUN.fullmatch(step.kind)
        if found:
            effect = step.effect_text
            out.append((found["what"], effect, tuple(int(found[k]) for k in ("x0", "y0", "x1", "y1"))))
    return out


def blind_hexes(board, result, crossed) -> dict[int, list[int]]:
    """Per hex whose step is *blind* (the obstacle or crest casting the zone), the hexes of the line
    behind it, towards the lower end, within its A6.4 blind zone (hex model, ASL)."""
    from kernel.line_of_sight.report import blind_values

    out: dict[int, list[int]] = {}
    if result.model != "hex" or board.ruleset.los_model != "asl":
        return out
    a, _ = board.location(result.viewer)
    b, _ = board.location(result.target)
    line = [h for h, _ in crossed] + [b]
    for step in result.steps:
        if step.effect != "blind" or step.kind != "interior":
            continue
        h = board.index(step.hex)
        values = blind_values(board, result, step.hex)
        low = board.index(values["low"])
        zone = int(values["zone"])
        behind = [k for k in dict.fromkeys(line + [a]) if k != h
                  and board.distance(k, low) < board.distance(h, low) and board.distance(h, k) <= zone]
        out[h] = behind
    return out


def wrapped_lines(text: str, width: int = NOTE_WIDTH) -> list[str]:
    """The lines of ``text``, each longer than ``width`` continued on indented lines.

    >>> wrapped_lines("  71I4 " + "word " * 30, width=40)[1]
    '         word word word word word word'
    """
    lines = []
    for line in text.splitlines():
        indent = " " * (len(line) - len(line.lstrip()) + 7)
        lines += textwrap.wrap(line, width, subsequent_indent=indent, drop_whitespace=True) or [""]
    return lines


def los_picture(board, result, *, zoom: bool = True, explain: bool = True, all_steps: bool = False,
                view=None, counters=None, art: bool | None = None, title: str | None = None, dpi: int = DEFAULT_DPI):
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
    art : bool, optional
        Draw the board's art under the line (:mod:`kernel.render.art_layer`) or, with False, the hex
        model's colours; default the art on maps with art of their own and for depiction-model LOS.

    See Also
    --------
    kernel.los : computes ``result``; :meth:`kernel.LOSResult.explain` is the same explanation as text.
    kernel.save_picture : writes it as PNG or SVG.

    Examples
    --------
    >>> import kernel, matplotlib
    >>> matplotlib.use("Agg")
    >>> board = kernel.load("default")
    >>> figure = kernel.los_picture(board, kernel.los(board, "71I4", "72M6"))
    >>> len(figure.axes) >= 1
    True
    """
    require("plot", "pictures")
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    import matplotlib.patheffects as effects
    from kernel.line_of_sight.report import los_report
    from kernel.line_of_sight.single import trace
    from kernel.render.art_layer import backdrop_text, uses_art
    from kernel.render.board_map import draw_backdrop
    from kernel.render.labels import draw_labels

    frame = Frame(board)
    drawn_art = uses_art(board, art, model=result.model)
    a, _ = board.location(result.viewer)
    b, _ = board.location(result.target)
    crossed = trace(board, a, b)
    report = wrapped_lines(los_report(board, result, all_steps=all_steps))
    band = BAND + (min(len(report), 16) * 0.105 if explain else 0.0)
    hexes = [h for h, _ in crossed] + [a, b]
    box, size = (full_box(frame), None)
    if view is not None:
        box, size = zoom_box(frame, board.indices(list(view)), margin_hexes=0.5, band=band)
    elif zoom:
        box, size = zoom_box(frame, hexes, margin_hexes=2.0, band=band)
    verdict = "clear" if result.visible else f"BLOCKED at {result.blocked_at_name} ({result.reason_name})"
    sub = (f"{verdict}; hindrance +{result.hindrance}; target cover {result.cover}  ·  "
           f"{model_text(result.model, counters, backdrop_text(board, drawn_art))}")
    page = Page(frame, box, title or f"LOS {result.viewer} \u2192 {result.target} ({result.model} model)",
                map_subtitle(board, sub), dpi=dpi, page=size, band=band)
    handles = draw_backdrop(page, board, art=drawn_art, muted=0.15 if drawn_art else 0.35)
    ax, ppu = page.ax, page.ppu
    interior = [h for h, k in crossed if k == "interior" and h not in (a, b)]
    touched = [h for h, k in crossed if k != "interior" and h not in (a, b)]
    drm = {}
    blocks, casts = set(), set()
    for step in result.steps:
        h = board.index(step.hex)
        if step.hindrance:
            drm[h] = drm.get(h, 0) + step.hindrance
        if step.effect == "blocks":
            blocks.add(h)
        elif step.effect == "blind":
            casts.add(h)
    if result.blocked_at >= 0 and not result.blind:
        blocks.add(result.blocked_at)
    blind = blind_hexes(board, result, crossed)
    blind_cells = sorted({k for behind in blind.values() for k in behind} - blocks)
    polys = frame.hexagons(0.97)
    status = []
    if interior:   # over the art only an outline: the art is what the verdict comes from
        ax.add_collection(PolyCollection(polys[interior], facecolors="none" if drawn_art else _CROSSED_FILL, edgecolors=_CROSSED_EDGE,
                                         linewidths=max(0.6, 0.07 * ppu), zorder=3.5))
        status.append(Patch(facecolor="none" if drawn_art else _CROSSED_FILL, edgecolor=_CROSSED_EDGE,
                            label="hex the LOS crosses"))
    if touched:
        ax.add_collection(PolyCollection(polys[touched], facecolors="none", edgecolors=_CROSSED_EDGE,
                                         linewidths=max(0.6, 0.07 * ppu), linestyles="--", zorder=3.5))
        status.append(Patch(facecolor="none", edgecolor=_CROSSED_EDGE, ls="--",
                            label="hex the LOS runs along / touches"))
    if drm:
        fill = 0.3 if drawn_art else 0.6   # over the art: light, the art shows through
        ax.add_collection(PolyCollection(polys[list(drm)], facecolors=HINDERED_COLOUR, alpha=fill,
                                         edgecolors="#e65100" if drawn_art else "none",
                                         linewidths=max(0.6, 0.08 * ppu), zorder=3.6))
        status.append(Patch(facecolor=HINDERED_COLOUR, alpha=fill, edgecolor="#e65100" if drawn_art else "none",
                            label="hindrance hex (+DRM)"))
    if blocks:
        fill = 0.3 if drawn_art else 0.55
        ax.add_collection(PolyCollection(polys[sorted(blocks)], facecolors=BLOCKING_COLOUR, alpha=fill,
                                         edgecolors="#b71c1c", linewidths=max(0.6, 0.08 * ppu), zorder=3.7))
        status.append(Patch(facecolor=BLOCKING_COLOUR, alpha=fill, edgecolor="#b71c1c", label="blocking hex"))
    if casts:
        ax.add_collection(PolyCollection(polys[sorted(casts)], facecolors="none", edgecolors=BLIND_COLOUR,
                                         linewidths=max(1.2, 0.14 * ppu), zorder=3.8))
        status.append(Patch(facecolor="none", edgecolor=BLIND_COLOUR, lw=2,
                            label="casts a blind zone (A6.4 obstacle or crest)"))
    if blind_cells:
        ax.add_collection(PolyCollection(polys[blind_cells], facecolors=(1.0, 0.6, 1.0, 0.35), hatch="////",
                                         edgecolors=BLIND_COLOUR, linewidths=max(0.4, 0.04 * ppu), zorder=3.75))
        status.append(Patch(facecolor=(1.0, 0.6, 1.0, 0.35), hatch="////", edgecolor=BLIND_COLOUR,
                            label="blind hex (in the A6.4 zone, along the line)"))
    runs = pixel_runs(result)
    if runs:
        from kernel.grid.pixels import UNIT_X, UNIT_Y
        from kernel.render.common import SQRT3

        colours = {"blocks": "#b71c1c", "blind": BLIND_COLOUR, "hindrance": "#e65100", "no effect": "#0277bd"}
        for what, effect, (x0, y0, x1, y1) in runs:
            ax.plot([x0 / UNIT_X, x1 / UNIT_X], [-y0 / UNIT_Y * SQRT3, -y1 / UNIT_Y * SQRT3],
                    color=colours.get(effect, "#e65100"), lw=max(3.0, 0.45 * ppu), solid_capstyle="butt",
                    zorder=11.5 if effect == "no effect" else 11.6,   # a run that decided something on top
                    marker="|", markersize=max(4.0, 0.6 * ppu))
        for effect in sorted({e for _, e, _ in runs}):
            status.append(Line2D([], [], color=colours.get(effect, "#e65100"), lw=4, marker="|",
                                 label=f"art pixels judged: {effect}"))
    name_size = draw_names(page, board, skip=(a, b))
    value_size = float(np.clip(name_size * 1.4, 3, 12))
    drm_hexes = list(drm)
    # the DRM low in the hex, away from the line through the centre (over the art: the pixel runs on it)
    drop = 1.0 if drawn_art else VALUE_DROP
    draw_labels(page, frame.cx[drm_hexes], frame.cy[drm_hexes] - drop, [f"+{drm[h]}" for h in drm_hexes],
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
