"""Bulk LOS: full matrices (in memory, block-wise, bit-packed), batches of pairs, and fields of fire.

Public wrappers validate and convert their inputs once, then call the numba
kernels of :mod:`kernel.line_of_sight._kernels`, which implement
``docs/los-semantics.md`` over the exact trace templates of
:mod:`kernel.line_of_sight.tracer`.

Output conventions
------------------
* :func:`los_matrix` and :func:`los_matrix_blocks` return ``int8`` matrices
  holding the total hindrance DRM of each visible pair (saturated at 127) and
  :data:`~kernel.line_of_sight.results.BLOCKED` (-1) for each blocked pair;
  the diagonal is 0.
* :func:`field_of_fire` gives, per target hex, ``visible``, the least
  ``hindrance`` over the sources (``BLOCKED`` where none sees it), the
  index of the best ``source`` (-1 where none) and the target's ``cover``.

Examples
--------
>>> import kernel
>>> board = kernel.load("default")
>>> matrix = kernel.los_matrix(board)
>>> matrix.shape == (len(board), len(board)) and bool((matrix == matrix.T).all())
True
"""

from __future__ import annotations

import numpy as np

from kernel._dtypes import HEX_INDEX
from kernel._limits import MAX_BUILDING_LEVELS, check_range
from kernel.line_of_sight import _kernels as K
from kernel.line_of_sight import _rules as rules
from kernel.line_of_sight.counters import Counters, counter_tables
from kernel.line_of_sight.depiction import (
    ART_MODELS, best_of_sources, checked_model, depiction_matrix, depiction_pairs, depiction_rows,
)
from kernel.line_of_sight.inputs import cover_and_ranges, cover_of, kernel_board_tables, locations_of, model_code, template_tuple
from kernel.line_of_sight.results import BLOCKED, FieldOfFire, PairsResult
from kernel.maps.locations import hex_array, level_array


def los_matrix(board, locations=None, *, counters: Counters | None = None, model: str = "hex") -> np.ndarray:
    """The full N x N LOS matrix between Locations, using symmetry and all threads.

    Parameters
    ----------
    board : Board
    locations : sequence of hexes, or (hexes, levels), optional
        The Locations (default: the ground level of every hex, in index order).
    counters : Counters, optional
    model : {"hex", "depiction", "vasl"}
        ``"depiction"`` reads the LOS off the map's drawn art
        (:mod:`kernel.line_of_sight.depiction`; ASL maps); ``"vasl"`` does
        the same but counts hindrance as VASL's engine does (the largest DRM
        once per range from the higher end, not once per hex as the rules).

    Returns
    -------
    numpy.ndarray of int8, shape (N, N)
        Total hindrance DRM of each visible pair (saturated at 127), or
        :data:`BLOCKED` (-1); row ``i`` is the viewer (firer), column ``j`` the
        target; diagonal 0.  Symmetric for ASL and CCN, computed once per
        pair; for Valor & Victory the hindrance may differ by direction (a
        wall or hedge on the target's hexside counts, the firer's own does
        not, 10.10), so every ordered pair is computed.  Memory: N² bytes (use
        :func:`los_matrix_blocks` or :func:`visibility_bits` for big maps).
    """
    hexes, levels = locations_of(board, locations)
    if checked_model(model) in ART_MODELS:
        return depiction_matrix(board, hexes, levels, counters=counters, per_range=model == "vasl")
    out = np.empty((len(hexes), len(hexes)), np.int8)
    model = model_code(board)
    if model == rules.MODEL_VV:
        K.los_rows_kernel(model, hexes, levels, 0, template_tuple(board), kernel_board_tables(board),
                          counter_tables(board, counters), out)
        return out
    K.los_matrix_kernel(model, hexes, levels, template_tuple(board), kernel_board_tables(board),
                        counter_tables(board, counters), out)
    K.mirror_lower(out)
    return out


def los_matrix_blocks(board, locations=None, *, counters: Counters | None = None, block_rows: int = 1024,
                      model: str = "hex"):
    """Yield ``(first_row, rows)`` blocks of the full matrix, ``block_rows`` rows at a time.

    Memory stays at ``block_rows × N`` bytes whatever the map size.  ``model``
    as in :func:`los_matrix`.
    """
    if isinstance(block_rows, bool) or not isinstance(block_rows, (int, np.integer)) or block_rows < 1:
        raise ValueError(f"block_rows is {block_rows!r}: expected a positive integer")
    hexes, levels = locations_of(board, locations)
    if checked_model(model) in ART_MODELS:
        for first in range(0, len(hexes), block_rows):
            yield first, depiction_rows(board, hexes, levels, first, min(block_rows, len(hexes) - first), counters,
                                        per_range=model == "vasl")
        return
    tpl = template_tuple(board)
    tables = kernel_board_tables(board)
    per_call = counter_tables(board, counters)
    for first in range(0, len(hexes), block_rows):
        rows = np.empty((min(block_rows, len(hexes) - first), len(hexes)), np.int8)
        K.los_rows_kernel(model_code(board), hexes, levels, first, tpl, tables, per_call, rows)
        yield first, rows


def visibility_bits(board, locations=None, *, counters: Counters | None = None, block_rows: int = 1024,
                    model: str = "hex") -> np.ndarray:
    """Bit-packed visibility matrix: ``np.unpackbits(bits[i])[j]`` is 1 when j is visible from i.

    Shape ``(N, ceil(N / 8))`` of uint8: N²/8 bytes, computed block by block
    (a 20,000-hex map needs 50 MB).  ``model`` as in :func:`los_matrix`.
    """
    hexes, _ = locations_of(board, locations)
    bits = np.empty((len(hexes), (len(hexes) + 7) // 8), np.uint8)
    for first, rows in los_matrix_blocks(board, locations, counters=counters, block_rows=block_rows, model=model):
        bits[first:first + rows.shape[0]] = np.packbits(rows != BLOCKED, axis=1)
    return bits


def los_pairs(board, a, b, *, level_a=0, level_b=0, counters: Counters | None = None,
              unit: str | None = None, model: str = "hex") -> PairsResult:
    """Evaluate a batch of LOS pairs ``a[k] -> b[k]`` in parallel (numpy in, numpy out).

    ``a`` and ``b`` are equal-length arrays of hex indices (or lists of names);
    ``level_a`` / ``level_b`` scalars or arrays of Location levels; ``unit``
    the firing unit class for the targets' cover (default: the ruleset's
    first).  ``reason`` holds codes into :data:`REASONS` (0 = visible).
    ``model="depiction"`` (or ``"vasl"``, see :func:`los_matrix`) reads the
    LOS off the map's art (:mod:`kernel.line_of_sight.depiction`).

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> result = kernel.los_pairs(board, ["71I4", "71I4"], ["71I6", "71Q5"])
    >>> result.range.tolist()
    [2, 8]
    """
    hex_a = hex_array(board, a, "a")
    hex_b = hex_array(board, b, "b")
    if hex_a.shape != hex_b.shape:
        raise ValueError(f"los_pairs: a has {hex_a.shape[0]} hexes and b {hex_b.shape[0]}: expected equal lengths")
    levels = [level_array(board, level_a, hex_a, "level_a"), level_array(board, level_b, hex_b, "level_b")]
    n = hex_a.shape[0]
    unit_index = board.ruleset.unit_index(unit) if unit is not None else 0
    cover, ranges = cover_and_ranges(board, hex_a, levels[0], hex_b, levels[1], unit_index)
    result = PairsResult(np.empty(n, np.bool_), np.empty(n, np.int32), np.empty(n, np.int32),
                         np.empty(n, np.int8), np.empty(n, np.bool_), np.empty(n, np.bool_), ranges, cover)
    if checked_model(model) in ART_MODELS:
        blocked, result.hindrance, result.blocked_at, result.reason, result.continuous_slope = depiction_pairs(
            board, hex_a, levels[0], hex_b, levels[1], counters, per_range=model == "vasl")
        result.blind = result.reason == rules.R_BLIND
        result.visible = ~blocked
        return result
    blocked = np.empty(n, np.bool_)
    outputs = (blocked, result.hindrance, result.blocked_at, result.reason, result.blind, result.continuous_slope)
    tables = (template_tuple(board), kernel_board_tables(board), counter_tables(board, counters))
    if n <= K.CHUNK:  # one chunk's work: on this thread (a parallel region waits for every thread)
        K.los_pairs_serial(model_code(board), hex_a, hex_b, levels[0], levels[1], *tables, *outputs)
    else:
        K.los_pairs_kernel(model_code(board), hex_a, hex_b, levels[0], levels[1], *tables, *outputs)
    result.visible = ~blocked
    return result


def field_of_fire(board, sources, *, levels=0, target_level: int = 0, counters: Counters | None = None,
                  unit: str | None = None, model: str = "hex") -> FieldOfFire:
    """What one or several sources see: visibility, best hindrance and cover per hex.

    Parameters
    ----------
    board : Board
    sources : hex or sequence of hexes
        Firing hexes (names or indices).
    levels : int or sequence of int
        Location level of each source.
    target_level : int
        Targets are at ground level (0) by default.
    counters : Counters, optional
    unit : str, optional
        Firing unit class, for the cover.
    model : {"hex", "depiction", "vasl"}
        As in :func:`los_matrix`.

    Returns
    -------
    FieldOfFire
        ``visible`` (bool), ``hindrance`` (least DRM over the sources that see
        the hex, :data:`BLOCKED` where none), ``source`` (index into
        ``sources`` of the best one, -1 where none) and ``cover`` (of each
        target against its best source; against the first source where none
        sees it).

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> fire = field_of_fire(board, "71I4")
    >>> bool(fire.visible[board.index("71I4")])
    True
    """
    source_hexes = hex_array(board, sources, "sources")
    if source_hexes.size == 0:
        raise ValueError("field_of_fire: no sources given: expected at least one hex")
    source_levels = level_array(board, levels, source_hexes, "levels")
    if isinstance(target_level, (bool, np.bool_)) or not isinstance(target_level, (int, np.integer)):
        raise TypeError(f"target_level is {target_level!r}: expected an integer level")
    check_range(int(target_level), 0, MAX_BUILDING_LEVELS, "target_level", "field_of_fire")
    target_level = int(target_level)
    targets = np.arange(len(board), dtype=HEX_INDEX)
    target_levels = np.minimum(target_level, board.top_level).astype(np.int64)
    unit_index = board.ruleset.unit_index(unit) if unit is not None else 0
    visible = np.empty(len(board), np.bool_)
    hindrance = np.empty(len(board), np.int32)
    best = np.empty(len(board), np.int32)
    if checked_model(model) in ART_MODELS:
        best_of_sources(board, source_hexes, source_levels, targets, target_levels, visible, hindrance, best,
                        counters, per_range=model == "vasl")
        chosen = np.where(best >= 0, best, 0)
        cover = cover_of(board, source_hexes[chosen], source_levels[chosen], targets, target_levels, unit_index)
        return FieldOfFire(visible, hindrance, best, cover, source_hexes)
    K.field_of_fire_kernel(model_code(board), source_hexes, source_levels, targets, target_levels,
                           template_tuple(board), kernel_board_tables(board), counter_tables(board, counters),
                           visible, hindrance, best)
    chosen = np.where(best >= 0, best, 0)
    cover = cover_of(board, source_hexes[chosen], source_levels[chosen], targets, target_levels, unit_index)
    return FieldOfFire(visible, hindrance, best, cover, source_hexes)


def los_matrix_rows(board, first_row: int, row_count: int, locations=None, *,
                    counters: Counters | None = None) -> np.ndarray:
    """Rows ``first_row .. first_row + row_count - 1`` of :func:`los_matrix`, alone (one block of a batch job).

    Memory: ``row_count × N`` bytes.  The rows are those of
    :func:`los_matrix_blocks` and :func:`los_matrix` (same kernel).

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("71")
    >>> rows = kernel.los_matrix_rows(board, 10, 3)
    >>> bool((rows == kernel.los_matrix(board)[10:13]).all())
    True
    """
    hexes, levels = locations_of(board, locations)
    for name, value in (("first_row", first_row), ("row_count", row_count)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"{name} is {value!r}: expected a non-negative integer")
    if first_row + row_count > len(hexes):
        raise ValueError(f"rows {first_row}..{first_row + row_count - 1} asked of a matrix with {len(hexes)} rows: "
                         f"expected first_row + row_count <= {len(hexes)}")
    rows = np.empty((row_count, len(hexes)), np.int8)
    K.los_rows_kernel(model_code(board), hexes, levels, first_row, template_tuple(board), kernel_board_tables(board),
                      counter_tables(board, counters), rows)
    return rows
