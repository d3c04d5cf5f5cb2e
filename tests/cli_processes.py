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
