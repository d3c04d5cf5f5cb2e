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
from kernel._signals import deferred_signals
from kernel.cli.common import UserError
from kernel.cli.errors import Terminated
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
        0 when the command ran, 2 for a user mistake or a full disk, 130 when interrupted (Ctrl-C), 143 when
        terminated (SIGTERM), 141 for a pipe closed elsewhere than standard output (a reader of standard
        output going away, ``| head``, only discards the rest of its text: the command completes).
    """
    parser = build_parser()
    args = parser.parse_args(argv)

    def note(message, category, filename, lineno, file=None, line=None):
        # a warning for a person: one line, no source location
        print(f"hexkernel {args.command}: note: {' '.join(str(message).split())}", file=sys.stderr)

    # set by SIGTERM and SIGINT, even where the exception their handler raised was swallowed
    terminated, interrupted, cleaning = threading.Event(), threading.Event(), threading.Event()
    previous = _stop_on_signals(terminated, interrupted, cleaning)
    unraisable = sys.unraisablehook
    sys.unraisablehook = _quiet_stops(unraisable, lambda: terminated.is_set() or interrupted.is_set())
    outputs = None
    stdout = sys.stdout
    sys.stdout = _ReaderMayLeave(stdout)
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
            with deferred_signals(deliver=False):   # the command is done: all its outputs or none
                outputs.commit()
        return 0
    except BaseException as error:
        cleaning.set()   # a later signal is recorded, never raised inside the report or the clean-up
        return _report(args.command, error, outputs)
    finally:
        cleaning.set()
        if terminated.is_set() or interrupted.is_set():
            # objects the stop left half-built and in reference cycles are finalized while the quiet hook holds
            gc.collect()
        sys.unraisablehook = unraisable
        sys.stdout = stdout
        for signum, handler in previous.items():
            signal.signal(signum, handler)


class _ReaderMayLeave:
    """Standard output whose reader may go away (``| head``): what is written after that is discarded, and the
    command goes on to complete its output files, as if its text had been read to the end."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._discard()
            return len(text)

    def flush(self):
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._discard()

    def _discard(self):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self._stream.fileno())
        os.close(devnull)
        try:
            self._stream.flush()   # what was buffered goes to the null device now
        except OSError:
            pass

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _report(command: str, error: BaseException, outputs) -> int:
    """The exit status of a command that ``error`` stopped, after its one line on stderr; a bug (any other
    exception) is raised again, with its traceback."""
    if isinstance(error, (UserError, MissingExtraError)):
        _say(f"hexkernel {command}: error: {error}")
        return 2
    if isinstance(error, Terminated):
        _say(f"hexkernel {command}: terminated")
        return 143
    if isinstance(error, KeyboardInterrupt):
        _say(f"hexkernel {command}: interrupted")
        return 130
    if isinstance(error, BrokenPipeError):
        # a closed pipe met outside standard output's own writes: the command did not finish
        _say(f"hexkernel {command}: stopped: {error.strerror or 'broken pipe'}; no output file was written")
        return 141
    if isinstance(error, OSError) and error.errno in _STORAGE_ERRORS:
        # a full or read-only file system met outside a command's own checks: the file and the reason
        where = str(error.filename) if error.filename else "an output file"
        where = outputs.finals.get(where, where) if outputs is not None else where
        _say(f"hexkernel {command}: error: cannot write {where}: {error.strerror}")
        return 2
    raise error


def _say(line: str) -> None:
    """``line`` on stderr, if stderr can still take it."""
    try:
        print(line, file=sys.stderr)
    except (OSError, ValueError):
        pass


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


def _stop_on_signals(terminated: threading.Event, interrupted: threading.Event, cleaning: threading.Event) -> dict:
    """Make SIGTERM set ``terminated`` and raise :class:`Terminated`, and SIGINT set ``interrupted`` and
    raise ``KeyboardInterrupt``, in the main thread: inside a C callback (numba compiles its runtime and
    reports each compiled module through one, even when every kernel comes from its cache) Python only
    prints that exception, and the event still stops the command at its end. Once ``cleaning`` is set (the
    command is reporting how it ended and cleaning up), a signal is recorded and not raised, so a second
    Ctrl-C cannot cut the clean-up short. SIGINT keeps its handler where it is not Python's default or
    the console script's (ignored, or the caller's own). Returns the handlers it replaces, by signal
    (none when not in the main thread, where signals cannot be handled)."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def terminate(signum, frame):
        terminated.set()
        if not cleaning.is_set():
            raise Terminated()

    def interrupt(signum, frame):
        interrupted.set()
        if not cleaning.is_set():
            raise KeyboardInterrupt()

    replaced = {signal.SIGTERM: signal.signal(signal.SIGTERM, terminate)}
    handler = signal.getsignal(signal.SIGINT)
    if handler is signal.default_int_handler or getattr(handler, "hexkernel_startup", False):
        replaced[signal.SIGINT] = signal.signal(signal.SIGINT, interrupt)   # (not where Ctrl-C is ignored)
    return replaced


if __name__ == "__main__":
    sys.exit(main())
