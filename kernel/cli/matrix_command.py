"""``hexkernel matrix``: the full LOS matrix, computed block by block straight into a ``.npy`` file."""

from __future__ import annotations

import os
import time
from pathlib import Path

from kernel.cli.arguments import (add_common_options, add_counters_option, add_depiction_option, los_model, picture_art,
                                  positive_int)
from kernel.cli.common import UserError, check_writable, draw_pictures, emit, load_map, output_paths, read_counters
from kernel.cli.outputs import final_name, staged

#: Maps with at least this many hexes get a progress bar for ``matrix``.
PROGRESS_MIN_HEXES = 1000


def register(commands) -> None:
    """Add the ``matrix`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    matrix = commands.add_parser(
        "matrix", help="full LOS matrix to a .npy file",
        description="Compute the full N x N LOS matrix between the ground Locations of all hexes, block by "
                    "block, straight into a .npy file (numpy.load reads it): int8, the hindrance DRM of each "
                    "visible pair, -1 where blocked. A progress bar goes to stderr on large maps.",
        epilog="example: hexkernel matrix --out los.npy --png seen.png")
    matrix.add_argument("--out", default="los_matrix.npy", metavar="FILE.npy",
                        help="the .npy file to write (default: %(default)s); written under a temporary name "
                             "and renamed when complete, so an interrupted run leaves nothing")
    matrix.add_argument("--block-rows", type=positive_int, default=1024, metavar="N",
                        help="rows computed per block (memory: N x hexes bytes; default %(default)s)")
    matrix.add_argument("--quiet", action="store_true", help="no progress bar")
    matrix.add_argument("--scale", choices=("quantile", "log", "linear"), default="quantile",
                        help="the picture's colour scale (default: %(default)s: ten bands of equal hex counts, so a "
                             "few hills that see far do not wash out the rest)")
    add_counters_option(matrix)
    add_depiction_option(matrix)
    add_common_options(matrix)
    matrix.set_defaults(run=command_matrix)


def progress_bar(total: int, enabled: bool):
    """A progress display on stderr counting the matrix's rows (:class:`kernel.cli.progress.Progress`).

    On a terminal it redraws itself in place; elsewhere (a log, a pipe) it
    writes its status about every 10 % of the rows.

    Parameters
    ----------
    total : int
        Rows to compute (the map's hexes).
    enabled : bool
        ``False`` gives a display that shows nothing.
    """
    from kernel.cli.progress import Progress

    return Progress(total, "LOS matrix", "rows", enabled=enabled)


def write_matrix(board, path, *, counters=None, block_rows: int = 1024, progress: bool | None = None,
                 model: str = "hex"):
    """Write the full LOS matrix to a ``.npy`` file block by block; returns counts.

    The file holds the ``int8`` matrix of :func:`kernel.los_matrix`
    (hindrance DRM of each visible pair, ``-1`` blocked), written as each
    block of ``block_rows`` rows is computed, so memory stays at one block.

    Parameters
    ----------
    board : kernel.maps.board.Board
        The compiled map.
    path : str or pathlib.Path
        The ``.npy`` file to write.
    counters : kernel.Counters, optional
        SMOKE, vehicles and units on the map.
    block_rows : int
        Rows computed per block.
    progress : bool, optional
        Show a progress bar on stderr; default: on maps of at least
        :data:`PROGRESS_MIN_HEXES` hexes.
    model : {"hex", "depiction", "vasl"}
        The LOS model (:func:`kernel.los_matrix`).

    Returns
    -------
    dict
        ``visible_pairs``, ``hindered_pairs``, ``blocked_pairs``, ``pairs`` and
        ``hexes_seen`` (an array: how many other hexes each hex sees).
    """
    import numpy as np

    from kernel import BLOCKED, los_matrix_blocks

    n = len(board)
    if progress is None:
        progress = n >= PROGRESS_MIN_HEXES
    if model != "hex":   # a map the model cannot trace fails here, before the file exists
        from kernel.line_of_sight.depiction import checked_model, depiction_tables

        checked_model(model)
        depiction_tables(board)
    try:
        out = np.lib.format.open_memmap(path, mode="w+", dtype=np.int8, shape=(n, n))
        # the blocks are written through a memory map: reserve the file's blocks now, so that a full file
        # system is an error here (ENOSPC), not a SIGBUS when a page of the map is first written
        with open(path, "r+b") as handle:
            os.posix_fallocate(handle.fileno(), 0, os.fstat(handle.fileno()).st_size)
    except OSError as error:
        out = None
        if final_name(path) == str(path):  # a library call wrote the file itself: leave nothing behind
            Path(path).unlink(missing_ok=True)
        raise UserError(f"cannot write {final_name(path)}: {error.strerror or error}") from None
    visible = hindered = 0
    sees = np.zeros(n, np.int64)
    with progress_bar(n, progress) as bar:
        for first, rows in los_matrix_blocks(board, counters=counters, block_rows=block_rows, model=model):
            out[first:first + rows.shape[0]] = rows
            seen = rows != BLOCKED
            sees[first:first + rows.shape[0]] = seen.sum(axis=1) - 1
            visible += int(seen.sum())
            hindered += int((rows > 0).sum())
            bar.update(rows.shape[0])
    out.flush()
    del out
    pairs = n * (n - 1)
    return {"visible_pairs": visible - n, "hindered_pairs": hindered, "blocked_pairs": pairs - (visible - n),
            "pairs": pairs, "hexes_seen": sees}


def command_matrix(args) -> None:
    """Run ``hexkernel matrix``: the ``.npy`` file, its counts as text or JSON, a picture of hexes seen.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    check_writable(("--out", args.out, (".npy",)), *output_paths(args))
    board = load_map(args.map, args)
    counters, counters_json = read_counters(board, args.counters)
    started = time.perf_counter()
    model = los_model(args, board)
    try:
        counts = write_matrix(board, staged(args.out), counters=counters, block_rows=args.block_rows,
                              progress=False if args.quiet else None, model=model)
    except ValueError as error:
        raise UserError(str(error)) from None
    seconds = time.perf_counter() - started
    n = len(board)
    seen = counts.pop("hexes_seen")
    payload = {
        "map": board.title, "ruleset": board.ruleset.name, "model": model, "file": str(args.out), "shape": [n, n], "dtype": "int8",
        "encoding": "hindrance DRM of each visible pair (saturated at 127), -1 blocked; row = viewer, "
                    "column = target, both in hex index order (see 'hexes'); diagonal 0",
        "block_rows": args.block_rows, "counters": counters_json, "seconds": round(seconds, 4), **counts,
        "hexes": list(board.names),
    }

    def text():
        share = 100.0 * counts["visible_pairs"] / max(1, counts["pairs"])
        return [f"LOS matrix {n} x {n} of {board.title} ({board.ruleset.name}, {model} model) written to {args.out} "
                f"(int8: hindrance DRM, -1 blocked; {n * n / 1e6:.1f} MB) in {seconds:.2f} s",
                f"visible pairs: {counts['visible_pairs']} of {counts['pairs']} ({share:.1f}%), "
                f"through hindrance: {counts['hindered_pairs']}",
                "load it with: numpy.load(" + repr(str(args.out)) + ", mmap_mode='r')"]

    emit(args, payload, text)

    def figure(dpi):
        from kernel.render.matrix_map import values_picture

        return values_picture(board, seen, title=f"How many hexes each hex sees (ground level, {model} model)",
                              label="hexes in LOS", scale=args.scale, art=picture_art(args), dpi=dpi)

    draw_pictures(args, figure)
