"""Bulk LOS: full matrices (in memory, block-wise, bit-packed) and batches of pairs.

Public wrappers validate and convert their inputs once, then call the numba
kernels of :mod:`kernel.line_of_sight._hex.pairs`, which implement
``docs/los-semantics.md`` over the exact trace templates of
:mod:`kernel.line_of_sight._templates.tracer`.

Output conventions
------------------
* :func:`los_matrix` and :func:`los_matrix_blocks` return ``int8`` matrices
  holding the total hindrance DRM of each visible pair (saturated at 127) and
  :data:`~kernel.line_of_sight.results.BLOCKED` (-1) for each blocked pair;
  the diagonal is 0.
* :func:`los_pairs` gives a :class:`~kernel.line_of_sight.results.PairsResult`
  per pair (``sources[k] -> targets[k]``) or, with ``product=True``, per
  source and target (``K x M`` arrays).

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

from kernel._limits import MAX_PAIRS
from kernel.line_of_sight._hex import pairs as K
from kernel.line_of_sight._hex import rules
from kernel.line_of_sight._sweep import matrix as M
from kernel.line_of_sight._sweep.rows import NO_SKIP
from kernel.line_of_sight._sweep.run import template_trie
from kernel.line_of_sight.counters import counter_tables, query_tables
from kernel.line_of_sight.depiction import (
    ART_MODELS, checked_model, depiction_matrix, depiction_pairs, depiction_rows,
)
from kernel.line_of_sight.inputs import (
    cell_steps, cover_and_ranges, kernel_board_tables, ruleset_code, source_arrays,
    cover_tables as board_cover_tables,
    template_tuple,
)
from kernel.line_of_sight._sweep.target_table import T_HEIGHT, target_table
from kernel.line_of_sight.results import BLOCKED, PairsResult
from kernel.maps.state_lock import holding_state
from kernel.maps.locations import location_arrays


@holding_state
def los_matrix(board, sources=None, *, levels=0, counters=None, model: str | None = None) -> np.ndarray:
    """The full N x N LOS matrix between Locations, using symmetry and all threads.

    Parameters
    ----------
    board : Board
    sources : hex, Location or sequence of them, optional
        The matrix's Locations, both its rows and its columns (default:
        the ground level of every hex, in index order).
    levels : int or sequence of int
        Their Location levels (where the names do not give them).
    counters : Counters or GameState, optional
    model : {"hex", "depiction", "vasl"}, optional
        Default (None): :func:`~kernel.default_model` (the depiction model on
        an ASL map with VASL art, else the hex model).
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

    See Also
    --------
    kernel.los_matrix_blocks : the same rows, a block at a time.
    kernel.visibility_bits : visibility alone, one bit per pair.
    kernel.HeldLOSMatrix : a matrix kept up to date as counters change.
    kernel.los : one pair, explained.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> matrix = kernel.los_matrix(board, ["71I4", "71I6", "72M6"])
    >>> matrix.shape, matrix.dtype.name, bool((matrix == matrix.T).all())  # ASL: symmetric
    ((3, 3), 'int8', True)
    >>> int(matrix[0, 2]) == kernel.BLOCKED, int(matrix[0, 1]) == kernel.los(board, "71I4", "71I6").hindrance
    (True, True)
    """
    hexes, levels = source_arrays(board, sources, levels)
    model = checked_model(model, board)
    if model in ART_MODELS:
        return depiction_matrix(board, hexes, levels, counters=counters, per_range=model == "vasl")
    return matrix_into(board, hexes, levels, counters, np.empty((len(hexes), len(hexes)), np.int8))


def matrix_into(board, hexes, levels, counters, out) -> np.ndarray:
    """The hex ruleset's :func:`los_matrix` of checked Locations (``source_arrays``) written into ``out``
    (int8, N x N; a held matrix computed anew in place); returns ``out``."""
    ruleset = ruleset_code(board)
    if ruleset == rules.RULESET_VV:
        K.los_rows_kernel(ruleset, hexes, levels, 0, template_tuple(board), kernel_board_tables(board),
                          counter_tables(board, counters), out)
        return out
    if ruleset == rules.RULESET_ASL:  # the per-source rows, each pair once
        tables, per_call = kernel_board_tables(board), counter_tables(board, counters)
        heights = target_table(hexes, levels, tables.col, tables.y, per_call.hex_info, tables.depression_group)[0][T_HEIGHT]
        lifted = M.lifted_height(heights)
        M.source_matrix_kernel(ruleset, hexes, levels, 0, lifted, template_tuple(board), tables, per_call,
                               cell_steps(board), template_trie(board), out)
        M.mirror_computed(heights, lifted, out)
        return out
    K.los_matrix_kernel(ruleset, hexes, levels, template_tuple(board), kernel_board_tables(board),
                        counter_tables(board, counters), out)
    K.mirror_lower(out)
    return out


@holding_state
def los_matrix_blocks(board, sources=None, *, levels=0, counters=None, block_rows: int = 1024,
                      model: str | None = None):
    """Yield ``(first_row, rows)`` blocks of the full matrix, ``block_rows`` rows at a time.

    Memory stays at ``block_rows × N`` bytes whatever the map size.
    ``sources``, ``levels``, ``counters`` and ``model`` as in :func:`los_matrix`.

    See Also
    --------
    kernel.los_matrix : the whole matrix at once.
    kernel.los_matrix_rows : one block, by its rows.
    kernel.visibility_bits : visibility alone, one bit per pair.

    Examples
    --------
    >>> import kernel, numpy as np
    >>> board = kernel.load("71")
    >>> blocks = list(kernel.los_matrix_blocks(board, block_rows=100))
    >>> [first for first, rows in blocks], blocks[-1][1].shape
    ([0, 100, 200, 300], (46, 346))
    >>> bool((np.vstack([rows for _, rows in blocks]) == kernel.los_matrix(board)).all())
    True
    """
    if isinstance(block_rows, bool) or not isinstance(block_rows, (int, np.integer)) or block_rows < 1:
        raise ValueError(f"block_rows is {block_rows!r}: expected a positive integer")
    hexes, levels = source_arrays(board, sources, levels)
    model = checked_model(model, board)
    if model in ART_MODELS:
        for first in range(0, len(hexes), block_rows):
            yield first, depiction_rows(board, hexes, levels, first, min(block_rows, len(hexes) - first), counters,
                                        per_range=model == "vasl")
        return
    tpl = template_tuple(board)
    tables = kernel_board_tables(board)
    per_call = counter_tables(board, counters)
    for first in range(0, len(hexes), block_rows):
        rows = np.empty((min(block_rows, len(hexes) - first), len(hexes)), np.int8)
        matrix_rows(board, hexes, levels, first, tpl, tables, per_call, rows)
        yield first, rows


def matrix_rows(board, hexes, levels, first, tpl, tables, per_call, rows) -> None:
    """Rows ``first ..`` of the matrix into ``rows`` (int8): ASL through the per-source rows, the other
    rule sets through the per-pair rows (the per-source rows are theirs there)."""
    ruleset = ruleset_code(board)
    if ruleset == rules.RULESET_ASL:
        M.source_matrix_kernel(ruleset, hexes, levels, first, np.int64(NO_SKIP), tpl, tables, per_call,
                               cell_steps(board), template_trie(board), rows)
    else:
        K.los_rows_kernel(ruleset, hexes, levels, first, tpl, tables, per_call, rows)


@holding_state
def visibility_bits(board, sources=None, *, levels=0, counters=None, block_rows: int = 1024,
                    model: str | None = None) -> np.ndarray:
    """Bit-packed visibility matrix: ``np.unpackbits(bits[i])[j]`` is 1 when j is visible from i.

    Shape ``(N, ceil(N / 8))`` of uint8: N²/8 bytes, computed block by block
    (a 20,000-hex map needs 50 MB).  The other arguments as in :func:`los_matrix`.

    See Also
    --------
    kernel.los_matrix : hindrance too, one byte per pair.
    kernel.los_matrix_blocks : the matrix a block at a time.
    kernel.can_see : one pair.

    Examples
    --------
    >>> import kernel, numpy as np
    >>> board = kernel.load("71")
    >>> bits = kernel.visibility_bits(board)
    >>> bits.shape, bits.dtype.name
    ((346, 44), 'uint8')
    >>> seen = np.unpackbits(bits, axis=1)[:, :len(board)].astype(bool)
    >>> bool((seen == (kernel.los_matrix(board) != kernel.BLOCKED)).all())
    True
    """
    hexes, levels = source_arrays(board, sources, levels)
    bits = np.empty((len(hexes), (len(hexes) + 7) // 8), np.uint8)
    for first, rows in los_matrix_blocks(board, hexes, levels=levels, counters=counters, block_rows=block_rows,
                                         model=model):
        bits[first:first + rows.shape[0]] = np.packbits(rows != BLOCKED, axis=1)
    return bits


@holding_state
def los_pairs(board, sources, targets, *, levels=0, target_levels=0, product: bool = False, counters=None,
              unit: str | None = None, model: str | None = None) -> PairsResult:
    """Evaluate many LOS at once (numpy in, numpy out): pairs ``sources[k] -> targets[k]``, or every
    source against every target (``product=True``).

    Parameters
    ----------
    board : Board
    sources, targets : hex, Location or sequence of them
        Viewers and targets: names, Locations (``"71P5h1"``) or hex indices,
        as lists or one-dimensional arrays.  Without ``product`` they pair
        element by element and must have one length.
    levels, target_levels : int or sequence of int
        Location levels of the sources and of the targets (where the names
        do not give them).
    product : bool
        ``True``: the cross product, every source against every target; the
        result's arrays are ``(K, M)`` for ``K`` sources and ``M`` targets.
    counters : Counters or GameState, optional
    unit : str, optional
        The firing unit class, for the targets' cover (default: the
        ruleset's first).
    model : {"hex", "depiction", "vasl"}, optional
        Default (None): :func:`~kernel.default_model` (the depiction model on
        an ASL map with VASL art, else the hex model).
        As in :func:`los_matrix`.

    Returns
    -------
    PairsResult
        ``reason`` holds codes into :data:`REASONS` (0 = visible),
        ``blocked_at`` hex indices (-1 = visible).

    See Also
    --------
    kernel.PairsResult : the result's arrays.
    kernel.los : one pair, with its explanation.
    kernel.los_matrix : every pair of a set of Locations, hindrance only.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> kernel.los_pairs(board, ["71I4", "71I4"], ["71I6", "71Q5"]).range.tolist()
    [2, 8]
    >>> kernel.los_pairs(board, ["71I4", "72M6"], ["71I6", "71Q5", "71P5h1"], product=True).visible.shape
    (2, 3)
    """
    hex_a, level_a = location_arrays(board, sources, levels, "sources", "levels")
    hex_b, level_b = location_arrays(board, targets, target_levels, "targets", "target_levels")
    if product:
        k, m = hex_a.shape[0], hex_b.shape[0]
        if k * m > MAX_PAIRS:   # before any pair is allocated
            raise ValueError(f"los_pairs: {k:,} sources x {m:,} targets = {k * m:,} pairs: expected at most "
                             f"{MAX_PAIRS:,} per call (about 44 bytes a pair while it runs): ask for fewer sources "
                             "at a time")
        hex_a, level_a = np.repeat(hex_a, m), np.repeat(level_a, m)
        hex_b, level_b = _tiled(hex_b, k), _tiled(level_b, k)
        return _pairs(board, hex_a, level_a, hex_b, level_b, counters, unit, model, (k, m))
    if hex_a.shape != hex_b.shape:
        raise ValueError(f"los_pairs: sources has {hex_a.shape[0]} hexes and targets {hex_b.shape[0]}: expected "
                         "equal lengths (or product=True for every source against every target)")
    if hex_a.shape[0] > MAX_PAIRS:
        raise ValueError(f"los_pairs: {hex_a.shape[0]:,} pairs: expected at most {MAX_PAIRS:,} per call (about 44 "
                         "bytes a pair while it runs): ask for fewer pairs at a time")
    return _pairs(board, hex_a, level_a, hex_b, level_b, counters, unit, model, hex_a.shape)


def _tiled(values: np.ndarray, times: int) -> np.ndarray:
    """``values`` repeated ``times`` times one after the other (``np.tile``, without its Python overhead)."""
    out = np.empty((times, values.shape[0]), values.dtype)
    out[:] = values
    return out.reshape(-1)


def _pairs(board, hex_a, level_a, hex_b, level_b, counters, unit, model, shape) -> PairsResult:
    """:func:`los_pairs` of checked, equal-length arrays; the result's arrays have ``shape`` (the kernels
    write them through flat views)."""
    n = hex_a.shape[0]
    unit_index = board.ruleset.unit_index(unit) if unit is not None else 0
    model = checked_model(model, board)
    art_model = model in ART_MODELS
    if art_model:   # the hex model's kernel tables are not built for the depiction model: only the cover's
        pair_cover_tables = board_cover_tables(board, unit_index)
    else:
        tpl, board_tables, pair_cover_tables, no_counters, _ = query_tables(board, unit_index)
    cover, ranges = cover_and_ranges(board, hex_a, level_a, hex_b, level_b, unit_index, pair_cover_tables)
    flat = len(shape) == 1
    result = PairsResult(np.empty(shape, np.bool_), np.empty(shape, np.int32), np.empty(shape, np.int32),
                         np.empty(shape, np.int8), np.empty(shape, np.bool_), np.empty(shape, np.bool_),
                         ranges if flat else ranges.reshape(shape), cover if flat else cover.reshape(shape),
                         names=board.names)
    if art_model:
        blocked, hindrance, blocked_at, reason, slope = depiction_pairs(
            board, hex_a, level_a, hex_b, level_b, counters, per_range=model == "vasl")
        result.hindrance, result.blocked_at, result.reason = (hindrance.reshape(shape), blocked_at.reshape(shape),
                                                              reason.reshape(shape))
        result.continuous_slope = slope.reshape(shape)
        result.blind = result.reason == rules.R_BLIND
        result.visible = ~blocked.reshape(shape)
        return result
    blocked = np.empty(n, np.bool_)
    outputs = (blocked, result.hindrance, result.blocked_at, result.reason, result.blind, result.continuous_slope)
    if not flat:
        outputs = tuple(array.reshape(n) for array in outputs)
    tables = (tpl, board_tables, no_counters if counters is None else counter_tables(board, counters))
    if n <= K.CHUNK:  # one chunk's work: on this thread (a parallel region waits for every thread)
        K.los_pairs_serial(ruleset_code(board), hex_a, hex_b, level_a, level_b, *tables, *outputs)
    else:
        K.los_pairs_kernel(ruleset_code(board), hex_a, hex_b, level_a, level_b, *tables, *outputs)
    result.visible = ~blocked if flat else ~blocked.reshape(shape)
    return result


@holding_state
def los_matrix_rows(board, first_row: int, row_count: int, sources=None, *, levels=0,
                    counters=None, model: str | None = None) -> np.ndarray:
    """Rows ``first_row .. first_row + row_count - 1`` of :func:`los_matrix`, alone (one block of a batch job).

    Memory: ``row_count × N`` bytes.  The rows are those of
    :func:`los_matrix_blocks` and :func:`los_matrix` (same kernel).

    See Also
    --------
    kernel.los_matrix : the whole matrix.
    kernel.los_matrix_blocks : every block in turn.
    kernel.run_batch : batch jobs, whose blocks these are.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("71")
    >>> rows = kernel.los_matrix_rows(board, 10, 3)
    >>> bool((rows == kernel.los_matrix(board)[10:13]).all())
    True
    """
    hexes, levels = source_arrays(board, sources, levels)
    for name, value in (("first_row", first_row), ("row_count", row_count)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"{name} is {value!r}: expected a non-negative integer")
    if first_row + row_count > len(hexes):
        raise ValueError(f"rows {first_row}..{first_row + row_count - 1} asked of a matrix with {len(hexes)} rows: "
                         f"expected first_row + row_count <= {len(hexes)}")
    model = checked_model(model, board)
    if model in ART_MODELS:
        return depiction_rows(board, hexes, levels, first_row, row_count, counters, per_range=model == "vasl")
    rows = np.empty((row_count, len(hexes)), np.int8)
    matrix_rows(board, hexes, levels, first_row, template_tuple(board), kernel_board_tables(board),
                counter_tables(board, counters), rows)
    return rows
