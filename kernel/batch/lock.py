"""The lock of a batch output folder: one run at a time writes it.

:func:`locked_output` holds the operating system's lock on ``OUT/.lock``,
which records the owner's pid, host and start time for the message a second
run gets.
"""

from __future__ import annotations

import json
import os
import socket
import time
from contextlib import contextmanager
from pathlib import Path

from kernel.batch.chunks import BatchOutputError

LOCK = ".lock"


@contextmanager
def locked_output(out: Path):
    """Hold ``OUT/.lock`` for a run: an advisory lock of the operating system on that file, which
    records this process's pid, host and start time.

    The lock is the kernel's (``flock``), not the file's existence: it is
    released when its holder ends, however it ends, so a lock file left by a
    killed run is free and taken over, and of any number of processes
    starting at once exactly one holds it.  After locking, the holder checks
    that the path still names the file it locked (a holder that finished
    removes the file before it unlocks), else it tries again; so a process
    that opened the file just before it was removed cannot hold a lock beside
    the next one.  A record naming another host is respected even when no
    lock is held on it here (that run may live: its host's locks may not
    reach this one).

    Raises
    ------
    BatchOutputError
        Another run holds the lock (the message names its pid, host and start).
    OSError
        The lock file cannot be created or written (a full or read-only disk).
    """
    out = Path(out)
    lock = out / LOCK
    host = socket.gethostname()
    record = {"pid": os.getpid(), "host": host, "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    descriptor = None
    for _ in range(100):
        descriptor = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
                             | getattr(os, "O_NOFOLLOW", 0), 0o644)
        writing = False
        try:
            if not _try_lock(descriptor):
                raise _in_use(out, lock, _read_lock_record(descriptor))
            if not _names_file(lock, descriptor):
                os.close(descriptor)   # removed (or replaced) by the holder that just finished: try again
                descriptor = None
                continue
            owner = _read_lock_record(descriptor)
            if owner is not None and owner.get("host") != host:
                raise _in_use(out, lock, owner)
            writing = True
            os.ftruncate(descriptor, 0)
            os.pwrite(descriptor, json.dumps(record).encode(), 0)
            os.fsync(descriptor)
            break
        except BaseException:
            if descriptor is not None:
                if writing and _names_file(lock, descriptor):
                    lock.unlink(missing_ok=True)   # taken but not written (a full disk): leave no lock file
                os.close(descriptor)
            raise
    else:
        raise BatchOutputError(f"{lock}: cannot take the lock: expected it to be free")
    try:
        yield
    finally:
        try:
            lock.unlink()   # removed while still locked: see above
        except OSError:
            pass
        os.close(descriptor)


def _try_lock(descriptor: int) -> bool:
    """Take the operating system's exclusive lock on an open file without waiting; False when it is held."""
    try:
        import fcntl
    except ImportError:   # Windows: a lock on the file's first byte
        import msvcrt

        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _names_file(lock: Path, descriptor: int) -> bool:
    """Whether the path ``lock`` still names the file open as ``descriptor``."""
    try:
        named = os.stat(lock, follow_symlinks=False)
    except FileNotFoundError:
        return False
    opened = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)


def _read_lock_record(descriptor: int) -> dict | None:
    """The record in an open lock file; None when it is empty (created, not yet written)."""
    raw = os.pread(descriptor, 4096, 0)
    if not raw.strip():
        return None
    try:
        owner = json.loads(raw.decode("utf-8"))
    except ValueError:
        owner = None
    if not isinstance(owner, dict):
        return {"pid": "?", "host": "?", "started": "? (unreadable lock file)"}
    return owner


def _in_use(out: Path, lock: Path, owner: dict | None) -> BatchOutputError:
    owner = owner or {"pid": "?", "host": "?", "started": "? (starting)"}
    return BatchOutputError(f"{out} is in use by another batch run (pid {owner.get('pid')} on {owner.get('host')}, "
                            f"since {owner.get('started')}): expected one run per output folder (wait for it, or "
                            f"remove {lock} if that run is gone)")
