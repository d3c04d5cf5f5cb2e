"""The ``hexkernel`` command line: LOS, fields of fire, movement and LOS matrices.

Every command takes a map (``--map``: a scenario or board file, or a bundled
name; default: the bundled four-board scenario ``default``), writes text for
people on stdout, JSON for programs (``--json`` on stdout instead of the text,
or ``--json-out FILE``) and a picture (``--png FILE`` / ``--svg FILE``).
User mistakes end with exit code 2 and a one-line message, never a traceback.

Commands
--------
info      summarise a map and draw it
los       one LOS between two Locations (``71P5h1`` is level 1 of 71P5)
fire      a field of fire from one or more Locations
move      the movement field of a unit class from a hex, and a path
matrix    the full LOS matrix, computed block by block, to a ``.npy`` file
demo      the main job on a map: matrix, field of fire, movement, pictures, JSON
import-vasl  a VASL board folder or archive written as a ``.board`` file
warm         compile every kernel once (after install), so first calls run at cached speed
batch        a job of many or huge maps on a dask cluster (embedded by default), resumable
page         the interactive map page: one HTML file, offline (fields of fire, LOS, movement)
vantage      the Locations that see the most of the map, and the hill hexes

Each command is a module of this package (``info_command``, ``los_command``,
...) with a ``register`` function that adds its parser; this module builds
the parser from them and runs the chosen command. What the commands share is
in :mod:`kernel.cli.arguments` and :mod:`kernel.cli.common`.

Run as ``hexkernel COMMAND ...`` or ``python -m kernel.cli COMMAND ...``.
"""

from __future__ import annotations

import argparse
import atexit
import errno
import gc
import os
import signal
import sys
import threading
import warnings

from kernel import _compile_notice
from kernel.cli import (batch_command, demo_command, fire_command, import_vasl_command, info_command,
                        los_command, matrix_command, move_command, page_command, vantage_command,
                        warm_command)
from kernel._extras import MissingExtraError
from kernel.cli.common import UserError
from kernel.cli.outputs import Outputs

#: The commands' modules, in the order ``hexkernel --help`` lists them.
COMMANDS = (info_command, los_command, fire_command, move_command, matrix_command, demo_command,
            import_vasl_command, warm_command, page_command, vantage_command, batch_command)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``hexkernel los: error: ... (see --help)``."""

    def error(self, message):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """The ``hexkernel`` parser, one subcommand per module of :data:`COMMANDS`.

    Returns
    -------
    argparse.ArgumentParser
        Each subcommand's namespace has ``run``, the function that runs it, and ``main``
        (:func:`main`), for a command that runs other command lines (``warm``; the command
        modules do not import this one).
    """
    parser = _Parser(
        prog="hexkernel",
        description="Exact line of sight and movement for hex wargames (ASL, Valor & Victory, "
                    "Commands & Colors: Napoleonics).",
        epilog="Maps: a .scenario or .board file, or a bundled name (default, 71, 72, vv-village, ccn-ridge, ...). "
               "Every command writes text, JSON (--json / --json-out FILE) and pictures (--png / --svg). "
               "Errors exit with code 2.",
    )
    from kernel import __version__

    parser.add_argument("--version", action="version", version=f"hexkernel {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.register(commands)
    parser.set_defaults(main=main)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 user mistake).

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 when the command ran, 2 for a user mistake, 130 when interrupted.
    """
    parser = build_parser()
    args = parser.parse_args(argv)

    def note(message, category, filename, lineno, file=None, line=None):
        # a warning for a person: one line, no source location
        print(f"hexkernel {args.command}: note: {message}", file=sys.stderr)

    # set by SIGTERM and SIGINT, even where the exception their handler raised was swallowed
    terminated, interrupted = threading.Event(), threading.Event()
    previous = _stop_on_signals(terminated, interrupted)
    unraisable = sys.unraisablehook
    sys.unraisablehook = _quiet_stops(unraisable, lambda: terminated.is_set() or interrupted.is_set())
    outputs = None
    try:
        # outputs are staged beside their final names and renamed only when the command completes
        with Outputs(force=getattr(args, "force", False)) as outputs, warnings.catch_warnings():
            warnings.showwarning = note
            # a first compile shows its running seconds (a terminal) after its one-line notice
            _compile_notice.show_progress(not getattr(args, "quiet", False))
            args.run(args)
            # a SIGTERM or Ctrl-C whose exception a C callback swallowed: no output is kept
            if terminated.is_set():
                raise Terminated()
            if interrupted.is_set():
                raise KeyboardInterrupt()
            outputs.commit()
    except (UserError, MissingExtraError) as error:
        print(f"hexkernel {args.command}: error: {error}", file=sys.stderr)
        return 2
    except Terminated:
        print(f"hexkernel {args.command}: terminated", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print(f"hexkernel {args.command}: interrupted", file=sys.stderr)
        return 130
    except OSError as error:
        if error.errno not in _STORAGE_ERRORS:
            raise
        # a full or read-only file system met outside a command's own checks: the file and the reason
        where = str(error.filename) if error.filename else "an output file"
        where = outputs.finals.get(where, where) if outputs is not None else where
        print(f"hexkernel {args.command}: error: cannot write {where}: {error.strerror}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (e.g. '| head'): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    finally:
        if terminated.is_set() or interrupted.is_set():
            # objects the stop left half-built and in reference cycles are finalized while the quiet hook holds
            gc.collect()
        sys.unraisablehook = unraisable
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return 0


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, ``timeout``): stops a command like Ctrl-C, so its staged outputs are deleted."""


#: errno values of a file system that cannot take what a command writes.
_STORAGE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG}


def _quiet_stops(hook, stopping):
    """``sys.unraisablehook`` that drops a :class:`Terminated` or ``KeyboardInterrupt`` raised where Python
    cannot propagate it (the command stops at its end, through the event its signal handler set), and,
    once ``stopping()`` is true, every error of a finalizer: an object the stop interrupted while it was
    being built (a dask ``Future`` whose ``__init__`` a Ctrl-C cut short fails in its ``__del__``) is the
    stop's doing, which the command reports in one line. Everything else goes to ``hook``."""
    def quiet(unraisable):
        if not isinstance(unraisable.exc_value, KeyboardInterrupt) and not stopping():
            hook(unraisable)
    return quiet


def _stop_on_signals(terminated: threading.Event, interrupted: threading.Event) -> dict:
    """Make SIGTERM set ``terminated`` and raise :class:`Terminated`, and SIGINT set ``interrupted`` and
    raise ``KeyboardInterrupt``, in the main thread: inside a C callback (numba compiles its runtime and
    reports each compiled module through one, even when every kernel comes from its cache) Python only
    prints that exception, and the event still stops the command at its end. SIGINT keeps its handler where it
    is not Python's default (ignored, or the caller's own). Returns the handlers it replaces, by signal
    (none when not in the main thread, where signals cannot be handled)."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def terminate(signum, frame):
        terminated.set()
        raise Terminated()

    def interrupt(signum, frame):
        interrupted.set()
        raise KeyboardInterrupt()

    replaced = {signal.SIGTERM: signal.signal(signal.SIGTERM, terminate)}
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:   # (not where Ctrl-C is ignored)
        replaced[signal.SIGINT] = signal.signal(signal.SIGINT, interrupt)
    return replaced


def script() -> None:
    """The ``hexkernel`` console script: :func:`main`, then a quick exit.

    When :func:`main` returns, every output is written, renamed and closed.
    The exit then flushes the standard streams and runs the ``atexit``
    handlers (logging, multiprocessing, temporary files, numba's and
    llvmlite's shutdown hooks) as a normal exit would, but skips the
    interpreter's teardown of every loaded module: with numba's compiled
    kernels and matplotlib loaded that teardown took 0.2-0.4 s, a sixth of a
    picture command's whole run.  An exception escaping :func:`main` (a bug:
    user mistakes return 2) exits the normal way, with its traceback.
    ``python -m kernel.cli`` exits the normal way (profilers and coverage
    tools write their results at that exit).
    """
    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # a closed pipe or stream: nothing left to write to it
            pass
    atexit._run_exitfuncs()
    os._exit(status)


if __name__ == "__main__":
    sys.exit(main())
