"""The ``hexkernel`` console script: Ctrl-C and SIGTERM stop it in one line from its first instant.

The command line's own handling (:func:`kernel.cli.app.main`) starts only
once its modules are imported and the arguments parsed, a fraction of a
second that numpy, numba's loader and the commands' modules take.  A signal
in that time used to end the process with Python's traceback of the
interrupted import (SIGINT) or no word at all (SIGTERM, exit -15).  This
module imports nothing heavy: :func:`script` first makes SIGINT and SIGTERM
stop the start-up with one line (exit 130 and 143, as for a running
command), then imports and runs the command line.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys

from kernel.cli.errors import Terminated


def _command_name(argv: list[str]) -> str:
    """``hexkernel COMMAND`` for messages (the first argument that is not an option), or ``hexkernel``."""
    words = [word for word in argv if not word.startswith("-")]
    return f"hexkernel {words[0][:40]}" if words else "hexkernel"


def script() -> None:
    """The ``hexkernel`` console script: :func:`kernel.cli.app.main`, then a quick exit.

    A signal before the command starts its own handling (while the modules
    load or the arguments are parsed) ends it with one line and exit code
    130 (SIGINT) or 143 (SIGTERM); the first signal decides, later ones are
    ignored while it ends.

    When :func:`~kernel.cli.app.main` returns, every output is written,
    renamed and closed.  The exit then flushes the standard streams and runs
    the ``atexit`` handlers (logging, multiprocessing, temporary files,
    numba's and llvmlite's shutdown hooks) as a normal exit would, but skips
    the interpreter's teardown of every loaded module: with numba's compiled
    kernels and matplotlib loaded that teardown took 0.2-0.4 s, a sixth of a
    picture command's whole run.  Signals arriving then are ignored: the
    command has finished.  An exception escaping ``main`` (a bug: user
    mistakes return 2) exits the normal way, with its traceback.
    ``python -m kernel.cli`` exits the normal way (profilers and coverage
    tools write their results at that exit).
    """
    stopped = []

    def stop(signum, frame):
        if stopped:
            return   # the first signal is ending the start-up already
        stopped.append(signum)
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    stop.hexkernel_startup = True   # main() takes SIGINT over from this handler as from Python's default
    # SIGINT first: whoever sees SIGTERM caught (a supervisor reading /proc) may count on both being caught
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:   # (not where Ctrl-C is ignored)
        signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        from kernel.cli.app import main

        status = main()
    except BaseException as error:   # before main's own handling began
        if not stopped and not isinstance(error, KeyboardInterrupt):
            raise   # a bug: its traceback
        # the signal's exception, or what an interrupted import made of it (numpy's import turns it into an
        # ImportError)
        stopped.append(True)
        terminated = isinstance(error, Terminated) or stopped[0] == signal.SIGTERM
        try:
            print(f"{_command_name(sys.argv[1:])}: {'terminated' if terminated else 'interrupted'}", file=sys.stderr)
        except (OSError, ValueError):
            pass
        status = 143 if terminated else 130
    stopped.append(True)   # from here on a signal is ignored: the command has finished
    for signum in (signal.SIGTERM, signal.SIGINT):
        if callable(signal.getsignal(signum)):
            signal.signal(signum, stop)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # a closed pipe or stream: nothing left to write to it
            pass
    atexit._run_exitfuncs()
    os._exit(status)
