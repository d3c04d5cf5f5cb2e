"""``hexkernel warm``: compile every kernel once, so that a fresh process starts at cached speed."""

from __future__ import annotations

import time
import warnings

from kernel.cli.common import emit


def register(commands) -> None:
    """Add the ``warm`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    warm = commands.add_parser(
        "warm", help="compile every kernel once (after install), so first calls run at cached speed",
        description="Compile every numba kernel once and keep the machine code in the cache folder, so that "
                    "the first call of every public function in a fresh process costs what a cached call costs.")
    warm.add_argument("--json", action="store_true", help="print the report as JSON")
    warm.set_defaults(run=command_warm)


def warm_kernels() -> list[tuple[str, float]]:
    """Call every public function that runs a kernel once on a small map; ``(what, seconds)`` per call.

    Returns
    -------
    list of (str, float)
        Each call and the seconds it took (compiling, or loading the cache).
    """
    import kernel

    board = kernel.random_board("asl", 8, 6, seed=0)
    first, last = board.names[0], board.names[-1]
    steps = [
        ("trace templates and los", lambda: kernel.los(board, first, last)),
        ("los_matrix", lambda: kernel.los_matrix(board)),
        ("los_matrix_blocks", lambda: list(kernel.los_matrix_blocks(board, block_rows=16))),
        ("visibility_bits", lambda: kernel.visibility_bits(board)),
        ("los_pairs", lambda: kernel.los_pairs(board, [0, 1], [len(board) - 1, 2])),
        ("field_of_fire", lambda: kernel.field_of_fire(board, [first])),
        ("movement_field", lambda: kernel.movement_field(board, first, unit="infantry")),
        ("reachable", lambda: kernel.reachable(board, first, unit="infantry", allowance=4)),
        ("movement_matrix", lambda: kernel.movement_matrix(board, unit="infantry")),
        ("can_see", lambda: kernel.can_see(board, first, last)),
        ("fields_of_fire and threat_map", lambda: kernel.threat_map(board, [first, last])),
        ("concealed_movement", lambda: kernel.concealed_movement(board, first, [last], unit="infantry", allowance=4)),
        ("HeldLOSMatrix refresh", lambda: _refresh_once(kernel, board)),
    ]
    def depiction():   # the board has no art: the model's warning is expected here
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", kernel.DepictionWarning)
            kernel.los_matrix(board, model="depiction")
            list(kernel.los_matrix_blocks(board, block_rows=16, model="depiction"))
            kernel.los_pairs(board, [0, 1], [len(board) - 1, 2], model="depiction")
            kernel.los(board, first, last, model="depiction")

    steps.append(("depiction model: los_matrix, los_matrix_blocks, los_pairs, los", depiction))
    vv = kernel.random_board("valor-victory", 6, 5, seed=0)
    steps.append(("los_matrix (every ordered pair: Valor & Victory)", lambda: kernel.los_matrix(vv)))
    done = []
    for what, call in steps:
        start = time.perf_counter()
        call()
        done.append((what, time.perf_counter() - start))
    return done


def _refresh_once(kernel, board) -> None:
    """A held LOS matrix refreshed after one SMOKE placed (the incremental kernels), and a movement
    field with the state before and after another (its SMOKE costs updated in place)."""
    state = kernel.GameState(board)
    held = kernel.HeldLOSMatrix(board, state)
    state.place_smoke(0, 2)
    held.refresh()
    kernel.movement_field(board, 1, counters=state)
    state.place_smoke(1, 2)
    kernel.movement_field(board, 1, counters=state)


def command_warm(args) -> None:
    """Run ``hexkernel warm``: compile (or load) every kernel and say where the cache is.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from kernel._jit import CACHE, cache_dir

    done = warm_kernels()
    folder = str(cache_dir()) if CACHE else None
    payload = {"cache": folder, "seconds": {what: round(seconds, 3) for what, seconds in done}}

    def text():
        lines = [f"hexkernel warm: {len(done)} calls in {sum(s for _, s in done):.1f} s; "
                 + (f"machine code cached in {folder}" if folder else "caching is off (HEXKERNEL_NUMBA_CACHE=0)")]
        lines += [f"  {what:<50} {seconds:7.2f} s" for what, seconds in done]
        return lines

    emit(args, payload, text)
