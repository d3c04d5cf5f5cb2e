"""Ctrl-C and SIGTERM held back across steps that must not stop half-way.

Python raises ``KeyboardInterrupt`` (or what a SIGTERM handler raises) at
whatever line the main thread is running when the signal comes.  Some steps
leave the process broken when they stop half-way, and a caller who catches
the exception and goes on meets the damage later:

* an import: the modules it had started stay half-initialised for the rest
  of the process ("partially initialized module ... has no attribute");
* loading or compiling a kernel: numba's registries and the dispatcher keep
  what was half set up;
* a clean-up after a first Ctrl-C (deleting staged outputs, closing a
  cluster): a second Ctrl-C there left temporary files behind and printed a
  traceback from inside the clean-up.

:func:`deferred_signals` runs such a step with SIGINT and SIGTERM held: a
signal that arrives is recorded, and once the step is over it is delivered
to the handler it was meant for (``deliver=True``, for steps of normal work,
so the interrupt comes a moment later, at a point where stopping is safe),
or dropped (``deliver=False``, for clean-ups that run because the process is
already stopping).  Only signals with a Python handler are held (a SIGTERM
left at its default still ends the process at once), and only in the main
thread, the one Python runs signal handlers in.

Examples
--------
>>> with deferred_signals():
...     pass
>>> holding()
False
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

#: The signals held back: Ctrl-C and SIGTERM (``kill``, ``timeout``).
HELD = (signal.SIGINT, signal.SIGTERM)

_depth = 0
_pending: list[tuple[int, object]] = []


def _hold(signum, frame) -> None:
    _pending.append((signum, frame))


def holding() -> bool:
    """Whether the main thread is inside :func:`deferred_signals` now."""
    return _depth > 0


@contextmanager
def deferred_signals(deliver: bool = True):
    """Run the block with SIGINT and SIGTERM held; deliver the first that came once it is over (or drop it).

    Parameters
    ----------
    deliver : bool
        ``True``: a signal that came while the block ran reaches its handler
        when the block ends normally (an exception ending the block wins, and
        the signal is dropped).  ``False``: it is dropped (a clean-up that
        runs because the process is already stopping).

    Nested blocks hold until the outermost ends.  Outside the main thread the
    block just runs (signals are handled in the main thread only).
    """
    global _depth
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if _depth:
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
        return
    handlers = {}
    for signum in HELD:
        handler = signal.getsignal(signum)
        if callable(handler):
            handlers[signum] = handler
            signal.signal(signum, _hold)
    _depth = 1
    ended = False
    try:
        yield
        ended = True
    finally:
        _depth = 0
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
        pending = list(_pending)
        _pending.clear()
        if pending and ended and deliver:
            signum, frame = pending[0]
            handlers[signum](signum, frame)
