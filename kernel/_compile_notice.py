"""The one-line notice of a first compile, and the CLI's display while it runs.

A call whose kernels have no machine code yet (no wheel code for this
installation, nothing cached) compiles them, which takes seconds to a minute
on a first call. Rather than freeze silently, the first compile of a process
logs one line on stderr through the ``hexkernel.compile`` logger (a warning:
``logging.getLogger("hexkernel.compile").setLevel(logging.ERROR)`` or any
logging configuration silences it) saying which kernel compiles, about how
long it takes, and that ``hexkernel warm`` does it once for all. The commands
of the CLI also show the seconds spent compiling, redrawn in place on a
terminal, until the compile ends (:func:`show_progress`).

The notice listens to numba's own compile events (``numba:compile``), so it
sees every compile whatever its cause, and it counts them (:func:`compiles`):
the wheel check asserts that a wheel's first calls compile nothing.
"""

from __future__ import annotations

import logging
import sys
import threading
import time

#: The logger of the notice.
LOGGER = logging.getLogger("hexkernel.compile")
#: What a first compile usually costs, for the notice (the seconds of ``hexkernel warm``'s steps on 2 cores).
USUAL_SECONDS = "10 to 60 s"

#: A compile shorter than this gets no closing line on the terminal (seconds).
SHOWN_FROM = 0.5

_state = {"installed": False, "noticed": False, "progress": False, "quiet": False}
_lock = threading.Lock()
#: Compiles seen in this process, outermost ones (a kernel and the kernels it calls compile as one).
_compiles: list[str] = []


def compiles() -> list[str]:
    """The kernels compiled in this process since the notice was installed (outermost compiles only)."""
    return list(_compiles)


def _name(event) -> str:
    dispatcher = (event.data or {}).get("dispatcher")
    function = getattr(dispatcher, "py_func", None)
    if function is None:
        return "a kernel"
    return f"{function.__module__.removeprefix('kernel.')}.{function.__qualname__}"


def _reason() -> str:
    from kernel import _shipped_kernels

    mismatch = _shipped_kernels.mismatch()
    if mismatch:
        return f"this wheel's compiled kernels are {mismatch}, so they compile"
    return "no compiled code for it here yet"


def notice(what: str) -> str:
    """The one line logged at the first compile of a process, ``what`` being the kernel that compiles first.

    Examples
    --------
    >>> print(notice("movement._kernels.dijkstra"))  # doctest: +ELLIPSIS
    hexkernel: compiling numba kernels for this machine (movement._kernels.dijkstra first; ...): about 10 to 60 s on a first call, cached after; 'hexkernel warm' compiles every kernel once for all
    """
    return (f"hexkernel: compiling numba kernels for this machine ({what} first; {_reason()}): about {USUAL_SECONDS} "
            "on a first call, cached after; 'hexkernel warm' compiles every kernel once for all")


class _Ticker:
    """The seconds of a running compile on stderr, redrawn about twice a second on a terminal."""

    def __init__(self, what: str):
        self.what = what
        self.started = time.perf_counter()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, name="hexkernel-compile-display", daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop.wait(0.5):
            sys.stderr.write(f"\rhexkernel: compiling {self.what}: {time.perf_counter() - self.started:5.1f} s")
            sys.stderr.flush()

    def end(self):
        self.stop.set()
        self.thread.join()
        seconds = time.perf_counter() - self.started
        if seconds >= SHOWN_FROM:
            sys.stderr.write(f"\rhexkernel: compiled {self.what} in {seconds:.1f} s\x1b[K\n")
            sys.stderr.flush()


def _listener():
    from numba.core.event import Listener

    class CompileNotice(Listener):
        """Counts outermost compiles; logs the first one; runs the CLI's display during each."""

        depth = threading.local()

        def on_start(self, event):
            depth = getattr(self.depth, "value", 0)
            self.depth.value = depth + 1
            if depth:
                return
            what = _name(event)
            with _lock:
                _compiles.append(what)
                first = not _state["noticed"]
                _state["noticed"] = True
            if _state["quiet"]:
                return
            if first:
                LOGGER.warning(notice(what))
            if _state["progress"] and sys.stderr.isatty():
                self.ticker = _Ticker(what)

        def on_end(self, event):
            self.depth.value = getattr(self.depth, "value", 1) - 1
            ticker = getattr(self, "ticker", None)
            if self.depth.value == 0 and ticker is not None:
                self.ticker = None
                ticker.end()

    return CompileNotice()


def install() -> None:
    """Listen to numba's compile events (once per process; numba is imported then)."""
    with _lock:
        if _state["installed"]:
            return
        _state["installed"] = True
    from numba.core import event

    event.register("numba:compile", _listener())


def show_progress(on: bool = True) -> None:
    """Let compiles show their running seconds on stderr (the CLI's commands, on a terminal)."""
    _state["progress"] = on


def quiet(on: bool = True) -> None:
    """No notice and no display (``hexkernel warm``, whose compiles are the point)."""
    _state["quiet"] = on
