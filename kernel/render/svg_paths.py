"""A faster SVG writer for the pictures' collections: the same bytes as matplotlib's, a fraction of the time.

Every picture draws its hexes, terrain insets, hexsides and roads as a few
``PolyCollection`` / ``LineCollection`` artists of hundreds or thousands of
paths each.  matplotlib's SVG backend writes such a collection (offsets all
``(0, 0)``, no per-path transforms) path by path through
``RendererBase.draw_path_collection``: per path it sets up a graphics
context, converts its colours again (``to_rgba`` of an array, which is not
cached), builds the flip transform and the CSS style anew.  That is most of
the time of writing a picture's SVG.

:class:`fast_svg_collections` replaces ``RendererSVG.draw_path_collection``
while it is active with one that walks the same graphics-context states in
the same order, but converts each distinct colour once, builds the flip
transform and the clip attributes once per collection and the style once per
distinct state, and writes each path with the same ``XMLWriter.element``
call as ``RendererSVG.draw_path``.  The SVG is byte for byte the same.
Collections it does not cover (offsets, per-path transforms, hatches, URLs:
what ``draw_path_collection`` may write as ``<defs>`` and ``<use>``) go to
matplotlib's own method.
"""

from __future__ import annotations


def _fast_draw_path_collection(original):
    """``RendererSVG.draw_path_collection`` with the per-path work done once per distinct state."""

    def draw_path_collection(self, gc, master_transform, paths, all_transforms, offsets, offset_trans, facecolors,
                             edgecolors, linewidths, linestyles, antialiaseds, urls, offset_position, **options):
        simple = (len(all_transforms) == 0 and len(offsets) <= max(1, len(paths)) and gc.get_hatch() is None
                  and gc.get_url() is None and all(url is None for url in urls)
                  and not offset_trans.transform(offsets).any())   # every offset (0, 0): no translation
        if not simple:   # matplotlib's own: it may write the paths once as <defs> and <use> them
            return original(self, gc, master_transform, paths, all_transforms, offsets, offset_trans, facecolors,
                            edgecolors, linewidths, linestyles, antialiaseds, urls, offset_position, **options)
        # hatchcolors: matplotlib 3.11's (not passed by older ones)
        hatchcolors = options.get("hatchcolors")
        hatchcolors = [] if hatchcolors is None else hatchcolors
        n_paths, n_faces, n_edges = len(paths), len(facecolors), len(edgecolors)
        if (n_faces == 0 and n_edges == 0 and len(hatchcolors) == 0) or n_paths == 0:
            return   # as RendererBase._iter_collection: nothing drawn
        _write_paths(self, gc, master_transform, paths, facecolors, edgecolors, linewidths, linestyles)

    draw_path_collection.original = original
    return draw_path_collection


def _write_paths(renderer, gc, master_transform, paths, facecolors, edgecolors, linewidths, linestyles):
    """What ``RendererBase.draw_path_collection`` and ``RendererSVG.draw_path`` write for each path, in order."""
    from matplotlib import colors
    from matplotlib.transforms import IdentityTransform

    gc0 = renderer.new_gc()
    gc0.copy_properties(gc)
    n_edges, n_widths, n_styles = len(edgecolors), len(linewidths), len(linestyles)
    faces = [tuple(c) for c in (facecolors.tolist() if hasattr(facecolors, "tolist") else facecolors)]
    edges = [tuple(c) for c in (edgecolors.tolist() if hasattr(edgecolors, "tolist") else edgecolors)]
    widths = linewidths.tolist() if hasattr(linewidths, "tolist") else list(linewidths)
    if n_edges == 0:
        gc0.set_linewidth(0.0)
    # every path has the same transform (no per-path transforms, offsets (0, 0)), the same clip and sketch
    flip = renderer._make_flip_transform(IdentityTransform() + master_transform)
    clip_attrs = renderer._get_clip_attrs(gc0)
    sketch = gc0.get_sketch_params()
    no_hatch = gc0.get_hatch_path() is None
    rgba_of: dict = {}
    styles: dict = {}
    element = renderer.writer.element
    convert = renderer._convert_path
    n = len(paths)
    for i in range(n):
        path = paths[i]
        if n_edges:
            if n_widths:
                gc0.set_linewidth(widths[i % n_widths])
            if n_styles:
                gc0.set_dashes(*linestyles[i % n_styles])
            ec = edges[i % n_edges]
            ec_rgba = rgba_of.get(ec)
            if ec_rgba is None:
                ec_rgba = rgba_of[ec] = colors.to_rgba(ec)
            if ec_rgba[3] == 0.0:   # fully transparent edges: no stroke
                gc0.set_linewidth(0)
            else:
                gc0.set_foreground(ec_rgba, isRGBA=True)
        fc = faces[i % len(faces)] if faces else None
        if fc is not None and len(fc) == 4 and fc[3] == 0:
            fc = None
        offset, dashes = gc0.get_dashes()
        key = (fc, gc0.get_linewidth(), offset, None if dashes is None else tuple(dashes), tuple(gc0.get_rgb()))
        style = styles.get(key)
        if style is None:
            style = styles[key] = renderer._get_style(gc0, fc)
        clip = fc is None and no_hatch
        data = convert(path, flip, clip=clip, simplify=path.should_simplify and clip, sketch=sketch)
        element("path", d=data, **clip_attrs, style=style)
    gc0.restore()


class fast_svg_collections:
    """While active, matplotlib's SVG backend writes plain path collections through :func:`_write_paths`.

    Where this matplotlib's ``RendererSVG`` lacks a method the writer relies on, it does nothing.
    """

    _NEEDED = ("draw_path_collection", "_make_flip_transform", "_get_clip_attrs", "_get_style", "_convert_path")

    def __enter__(self):
        from matplotlib.backends import backend_svg

        self.renderer = backend_svg.RendererSVG
        self.original = None
        if all(hasattr(self.renderer, name) for name in self._NEEDED):
            self.original = self.renderer.__dict__.get("draw_path_collection")
            if self.original is not None:
                self.renderer.draw_path_collection = _fast_draw_path_collection(self.original)
        return self

    def __exit__(self, *exc):
        if self.original is not None:
            self.renderer.draw_path_collection = self.original
        return False
