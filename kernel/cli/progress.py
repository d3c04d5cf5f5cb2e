"""A plain progress display on a stream (stderr): no dependency beyond the standard library."""

from __future__ import annotations

import math
import sys
import time


class Progress:
    """Count work done out of ``total`` and show it on ``stream``.

    On a terminal the line is redrawn in place (at most ten times a second);
    elsewhere (a log, a pipe) a line is written about every 10 % of the
    total, and always at the end.  Used as a context manager, it ends the
    line when the work ends.

    Parameters
    ----------
    total : int
        Units of work in all (at least 1 is assumed).
    label : str
        What is counted, before the figures.
    unit : str
        The unit's name after the count.
    enabled : bool
        ``False`` shows nothing.
    stream : file, optional
        Where to write (default: ``sys.stderr`` at the time of the call).

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> with Progress(4, "LOS matrix", "rows", stream=out) as bar:
    ...     bar.update(2); bar.update(2)
    >>> print(out.getvalue().splitlines()[-1].split(" [")[0])
    LOS matrix: 100% |##############################| 4/4 rows
    """

    WIDTH = 30

    def __init__(self, total: int, label: str, unit: str, enabled: bool = True, stream=None):
        self.total = max(1, int(total))
        self.label, self.unit, self.enabled = label, unit, enabled
        self.stream = sys.stderr if stream is None else stream
        self.done = 0
        self.started = time.perf_counter()
        self._terminal = bool(getattr(self.stream, "isatty", lambda: False)())
        self._step = max(1, math.ceil(self.total / 10))
        self._next = self._step
        self._drawn_at = -math.inf

    def line(self) -> str:
        """The current status: percentage, bar, count, elapsed seconds and rate."""
        share = min(1.0, self.done / self.total)
        filled = round(self.WIDTH * share)
        elapsed = time.perf_counter() - self.started
        rate = f", {self.done / elapsed:.0f} {self.unit}/s" if elapsed > 0 and self.done else ""
        return (f"{self.label}: {100 * share:3.0f}% |{'#' * filled}{' ' * (self.WIDTH - filled)}| "
                f"{self.done}/{self.total} {self.unit} [{elapsed:.1f} s{rate}]")

    def update(self, count: int = 1) -> None:
        """Add ``count`` units done, and show the status when it is due."""
        self.done += count
        if not self.enabled:
            return
        if self._terminal:
            now = time.perf_counter()
            if now - self._drawn_at >= 0.1 or self.done >= self.total:
                self.stream.write("\r" + self.line())
                self.stream.flush()
                self._drawn_at = now
        elif self.done >= self._next or self.done >= self.total:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self._next = (self.done // self._step + 1) * self._step

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        if self.enabled and self._terminal:
            self.stream.write("\n")
            self.stream.flush()
