"""Helpers for tests that start the CLI in a child process and interrupt it mid-write."""

from __future__ import annotations

import os
import time
from pathlib import Path


def wait_for_part_file(process, folder: Path, timeout: float = 300.0) -> None:
    """Return once ``folder`` holds a ``.part`` file (an output being written); fail if ``process`` ends first.

    >>> import subprocess, sys, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> child = subprocess.Popen([sys.executable, "-c", f"open({str(folder / 'x.part')!r}, 'w'); import time; time.sleep(5)"])
    >>> wait_for_part_file(child, folder)
    >>> child.kill(); child.wait() != 0
    True
    """
    deadline = time.monotonic() + timeout
    while not (folder.is_dir() and any(name.endswith(".part") for name in os.listdir(folder))):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"no .part file in {folder} after {timeout} s"
        time.sleep(0.01)


def wait_until_catching_sigterm(process, timeout: float = 30.0) -> bool:
    """Return once ``process`` catches SIGTERM (its first handler is set: the console script's first lines
    ran); False where ``/proc`` cannot tell (not Linux) or it ended first.

    Before that instant only Python's own start-up runs, where no program can catch a signal.
    """
    deadline = time.monotonic() + timeout
    status = Path(f"/proc/{process.pid}/status")
    while process.poll() is None and time.monotonic() < deadline:
        try:
            caught = next(line for line in status.read_text().splitlines() if line.startswith("SigCgt:"))
        except (OSError, StopIteration):
            return False
        if int(caught.split()[1], 16) >> 14 & 1:   # bit 15 - 1: SIGTERM
            return True
        time.sleep(0.001)
    return False


def leftovers(folder: Path) -> list[str]:
    """Everything under ``folder``, relative to it (what an interrupted command left behind)."""
    return sorted(str(path.relative_to(folder)) for path in Path(folder).rglob("*"))
