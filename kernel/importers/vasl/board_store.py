"""Imported VASL boards kept on disk between processes (:mod:`kernel._disk_cache`), so a saved game loads fast.

Importing a VASL board classifies every hex and hexside from its pixels (a
few tenths of a second per board); a saved game of three boards would pay
that on every load.  :func:`board_spec` imports a board's files
(:class:`~kernel.importers.vasl.files.VaslBoardFiles`, already read) once and
keeps the resulting :class:`~kernel.maps.specs.BoardSpec` (its hexes,
hexsides and art) and the import's warnings in the on-disk cache, keyed by a
digest of the files' contents, the board number and the package's code; the
next load of the same board reads it back and shows the same warnings.  An
entry that cannot be read is a miss: the board is imported again.
"""

from __future__ import annotations

import json
import warnings

import numpy as np

from kernel import _disk_cache
from kernel.importers.vasl.build import board_spec_from_files
from kernel.importers.vasl.files import VaslBoardFiles, VaslImportWarning
from kernel.maps.art import LocalArt, PixelClass
from kernel.maps.specs import BoardSpec, HexSpec

_KIND = "vasl-boards"
_NAMES = ("meta", "cells", "art_terrain", "art_elevation")


def board_spec(files: VaslBoardFiles, board_id: str | None = None) -> BoardSpec:
    """The :class:`BoardSpec` of a read VASL board (:func:`~kernel.importers.vasl.build.board_spec_from_files`),
    from the on-disk cache when this board was imported before.

    Warns
    -----
    VaslImportWarning
        The import's own warnings, on a cached load too.
    """
    key = _key(files, board_id)
    stored = _disk_cache.load(_KIND, key, _NAMES)
    if stored is not None:
        try:
            spec, messages = _decode(stored, files.source)
        except (ValueError, KeyError, TypeError, IndexError):
            spec = None
        if spec is not None:
            for message in messages:
                warnings.warn(message, VaslImportWarning, stacklevel=2)
            return spec
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", VaslImportWarning)
        spec = board_spec_from_files(files, board_id=board_id)
    messages = [str(w.message) for w in caught if issubclass(w.category, VaslImportWarning)]
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    _disk_cache.save(_KIND, key, _encode(spec, messages))
    return spec


def _key(files: VaslBoardFiles, board_id) -> str:
    los, metadata = files.los_data, files.metadata
    table = sorted((code, repr(terrain)) for code, terrain in files.terrain_table.items())
    return _disk_cache.digest(["vasl-board", los.elevation, los.terrain, los.stairways,
                               (los.width, los.height, los.grid_width, los.grid_height), repr(metadata), table,
                               files.source, board_id])


def _encode(spec: BoardSpec, messages: list[str]) -> dict[str, np.ndarray]:
    cells = sorted(spec.hexes)
    art = spec.art
    meta = {
        "board": [spec.source, spec.kind, spec.id, spec.ruleset, spec.layout, spec.orientation, spec.columns,
                  spec.rows, spec.title, spec.default_level],
        "terrain": [list(spec.hexes[c].terrain) for c in cells],
        "hexsides": [[c[0], c[1], d, list(features)] for (c, d), features in sorted(spec.hexsides.items())],
        "classes": [[list(k.terrain), k.building_levels, list(k.hexsides)] for k in art.classes] if art else None,
        "warnings": messages,
    }
    table = np.array([[c[0], c[1], spec.hexes[c].level, spec.hexes[c].building_levels,
                       -1 if spec.hexes[c].touch is None else spec.hexes[c].touch,
                       -1 if spec.hexes[c].rooftop is None else int(spec.hexes[c].rooftop),
                       -1 if spec.hexes[c].stairway is None else int(spec.hexes[c].stairway)] for c in cells],
                     np.int32).reshape(-1, 7)
    empty = np.zeros((0, 0), np.uint8)
    return {"meta": np.frombuffer(json.dumps(meta).encode("utf-8"), np.uint8), "cells": table,
            "art_terrain": art.terrain if art else empty, "art_elevation": art.elevation if art else empty}


def _decode(stored: dict[str, np.ndarray], source: str) -> tuple[BoardSpec | None, list[str]]:
    meta = json.loads(bytes(stored["meta"]).decode("utf-8"))
    values = meta["board"]
    if values[0] != source:
        return None, []
    spec = BoardSpec(*values[:8], title=values[8], default_level=values[9])
    for row, terrain in zip(stored["cells"].tolist(), meta["terrain"]):
        column, number, level, levels, touch, rooftop, stairway = row
        spec.hexes[(column, number)] = HexSpec(level, tuple(terrain), levels, None if touch < 0 else touch, 0,
                                               None if rooftop < 0 else bool(rooftop),
                                               None if stairway < 0 else bool(stairway))
    for column, number, direction, features in meta["hexsides"]:
        spec.hexsides[((column, number), direction)] = tuple(features)
    if meta["classes"] is not None:
        classes = tuple(PixelClass(tuple(t), int(levels), tuple(h)) for t, levels, h in meta["classes"])
        spec.art = LocalArt(classes, np.ascontiguousarray(stored["art_terrain"]),
                            np.ascontiguousarray(stored["art_elevation"]))
    return spec, list(meta["warnings"])
