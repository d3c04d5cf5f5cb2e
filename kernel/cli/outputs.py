"""The files a ``hexkernel`` command writes: claimed before any work, staged, and renamed only when all are complete.

Every command's outputs (``--json-out``, ``--png``, ``--svg``, ``matrix --out``,
``import-vasl --out``, the files of ``demo --out``) go through one
:class:`Outputs` transaction that :func:`kernel.cli.app.main` opens:

1. :meth:`Outputs.claim` checks each output before any work: its suffix
   (``--png`` ends in ``.png``...), its folder exists and is writable, it is
   not a folder, no two options name the same file, and it does not exist
   unless ``--force`` was given;
2. :func:`staged` gives the path a command writes to instead: a hidden
   temporary file in the same folder (``.NAME.PID.XXXXXXXX.part``, PID the
   writing process), so the final rename never crosses a file system; parts
   of the same output left by a process that no longer runs (killed by
   SIGKILL, a power cut) are deleted then;
3. when the command has finished, :meth:`Outputs.commit` renames every staged
   file onto its final name; on any error, an interruption (Ctrl-C, SIGTERM)
   or an unexpected exception, :meth:`Outputs.discard` deletes them instead,
   and an existing file at an output's name is left as it was.  A folder made
   for outputs (:func:`make_folder`: ``demo --out``) is removed with them.
   Signals are held while either runs (:func:`kernel._signals.deferred_signals`),
   so a second Ctrl-C cannot leave half of them.

An existing output that is not a regular file (a symlink, a device, a FIFO)
is refused even with ``--force``: replacing it would not write where it points.

Outside a command (a library call of :func:`kernel.cli.matrix_command.write_matrix`)
:func:`staged` returns the path itself.

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with Outputs(force=False) as outputs:
...     outputs.claim("--json-out", str(folder / "a.json"))
...     _ = pathlib.Path(staged(str(folder / "a.json"))).write_text("{}")
...     sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
...     outputs.commit()
[]
>>> sorted(p.name for p in folder.iterdir())
['a.json']
"""

from __future__ import annotations

import contextvars
import os
import re
import secrets
import stat
from pathlib import Path

from kernel._signals import deferred_signals
from kernel.cli.errors import UserError

_ACTIVE: contextvars.ContextVar[Outputs | None] = contextvars.ContextVar("hexkernel_outputs", default=None)


class Outputs:
    """One command's output files: claimed, staged in their folders, committed or discarded together.

    Parameters
    ----------
    force : bool
        Allow replacing existing files (``--force``).
    """

    def __init__(self, force: bool = False):
        self.force = force
        self.claimed: dict[str, str] = {}     # final path (resolved) -> option that named it
        self.staged: dict[str, str] = {}      # final path (as given) -> temporary path
        self.finals: dict[str, str] = {}      # every temporary path staged -> its final path (for messages)
        self.folders: list[Path] = []          # folders made for outputs (removed again unless committed)
        self._token = None

    def __enter__(self) -> Outputs:
        self._token = _ACTIVE.set(self)
        return self

    def __exit__(self, kind, value, traceback) -> None:
        try:
            # held while staged files are deleted: a second Ctrl-C would leave some behind (and is dropped
            # when the command is stopping already)
            with deferred_signals(deliver=kind is None):
                self.discard()
        finally:
            _ACTIVE.reset(self._token)

    def claim(self, option: str, path: str | None, suffixes: tuple[str, ...] = ()) -> None:
        """Check an output before any work; ``None`` (option not given) is skipped.

        Raises
        ------
        UserError
            A wrong suffix, a missing or read-only folder, a folder at the
            path, a file already named by another option, or an existing file
            without ``--force``.
        """
        if not path:
            return
        target = Path(path)
        if suffixes and target.suffix.lower() not in suffixes:
            raise UserError(f"{option} is {path!r}: expected a file name ending in {' or '.join(suffixes)}")
        if target.is_dir():
            raise UserError(f"cannot write {path}: it is a directory")
        parent = target.parent
        if not parent.is_dir():
            raise UserError(f"cannot write {path}: folder {str(parent)!r} does not exist")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise UserError(f"cannot write {path}: folder {str(parent)!r} is not writable")
        key = str(target.resolve())
        if key in self.claimed:
            raise UserError(f"{option} and {self.claimed[key]} both name {path}: expected a different file for each")
        if (target.exists() or target.is_symlink()) and not self.force:
            raise UserError(f"{option}: {path} already exists: expected a new file name, or --force to replace it")
        _check_regular(option, path)
        self.claimed[key] = option

    def stage(self, path: str) -> str:
        """A new temporary file beside ``path`` to write instead of it (claimed now if it was not)."""
        if path in self.staged:
            return self.staged[path]
        if str(Path(path).resolve()) not in self.claimed:
            self.claim("output", path)
        target = Path(path)
        remove_stale_parts(target)
        while True:
            temporary = str(target.parent / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.part")
            # registered before it exists: an interruption (Ctrl-C, SIGTERM) at any point from here on
            # leaves no file that discard() does not know of
            self.staged[path] = temporary
            self.finals[temporary] = path
            try:
                _create_private(temporary)
                return temporary
            except FileExistsError:
                pass    # the name is taken: draw another
            except OSError as error:
                del self.staged[path], self.finals[temporary]
                raise UserError(f"cannot write {path}: {error.strerror or error}") from None
            del self.staged[path], self.finals[temporary]

    def make_folder(self, path: str) -> None:
        """Create folder ``path`` (and its missing parents) for outputs; :meth:`discard` removes what was made
        here unless the command committed (a folder something else put files into is left).

        Raises
        ------
        UserError
            The folder cannot be made (the reason and the path).
        """
        missing = []
        folder = Path(path)
        while not folder.exists() and not folder.is_symlink() and folder != folder.parent:
            missing.append(folder)
            folder = folder.parent
        for folder in reversed(missing):
            self.folders.append(folder)   # registered first: an interruption leaves no folder discard() misses
            try:
                folder.mkdir()
            except FileExistsError:
                self.folders.pop()
            except OSError as error:
                self.folders.pop()
                raise UserError(f"cannot create {path}: {error.strerror or error}") from None
        if not Path(path).is_dir():
            raise UserError(f"cannot create {path}: it is not a folder")

    def commit(self) -> None:
        """Rename every staged file onto its final name (then nothing is left to discard).

        A staged file is made private (mode 0600) while it is written; before the rename it gets
        the mode a plain new file would have (0666 less the process's umask).
        """
        umask = os.umask(0)
        os.umask(umask)
        for path, temporary in list(self.staged.items()):
            if not self.force and (Path(path).exists() or Path(path).is_symlink()):
                raise UserError(f"{path} appeared while the command ran: expected a new file name, or --force")
            _check_regular("output", path)
            try:
                os.chmod(temporary, 0o666 & ~umask)
                os.replace(temporary, path)
            except OSError as error:
                raise UserError(f"cannot write {path}: {error.strerror or error}") from None
            del self.staged[path]
        self.folders.clear()

    def discard(self) -> None:
        """Delete every staged file that was not committed, then the folders made for them (when empty)."""
        while self.staged:
            _, temporary = self.staged.popitem()
            try:
                os.unlink(temporary)
            except FileNotFoundError:
                pass
        while self.folders:
            try:
                self.folders.pop().rmdir()   # deepest first
            except OSError:
                pass    # gone, or holding what someone else put there


def _create_private(path: str) -> None:
    """Create ``path`` as a new empty file only its owner may read (FileExistsError where a file is)."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))


def final_name(path) -> str:
    """The output a staged temporary file stands for (for messages); any other path as it is."""
    outputs = _ACTIVE.get()
    return outputs.finals.get(str(path), str(path)) if outputs is not None else str(path)


def _check_regular(option: str, path: str) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None
    if not stat.S_ISREG(mode):
        kind = ("a symbolic link" if stat.S_ISLNK(mode) else "a directory" if stat.S_ISDIR(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a FIFO" if stat.S_ISFIFO(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
        raise UserError(f"{option}: {path} is {kind}: expected a regular file to replace (or a new name); "
                        "--force replaces only regular files")


_PART = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[A-Za-z0-9_]+\.part$")


def remove_stale_parts(target: Path) -> list[str]:
    """Delete the staged parts of output ``target`` left by processes that no longer run; returns their names.

    Parts of a running process (another command writing the same output now)
    are left alone; so are files that merely look alike (other names).
    """
    removed = []
    try:
        candidates = list(Path(target).parent.glob(f".{glob_escape(Path(target).name)}.*.part"))
    except OSError:
        return removed
    for part in candidates:
        match = _PART.match(part.name)
        if match is None or match["name"] != Path(target).name or not part.is_file() or part.is_symlink():
            continue
        pid = int(match["pid"])
        if pid == os.getpid() or _running(pid):
            continue
        try:
            part.unlink()
            removed.append(part.name)
        except OSError:
            pass
    return removed


def glob_escape(name: str) -> str:
    """``name`` with glob's special characters taken literally."""
    return re.sub(r"([*?\[])", r"[\1]", name)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def staged(path: str) -> str:
    """The file to write for output ``path``: a staged temporary one inside a command, else ``path``."""
    outputs = _ACTIVE.get()
    return outputs.stage(str(path)) if outputs is not None else str(path)


def make_folder(path: str) -> None:
    """:meth:`Outputs.make_folder` inside a command; outside one, ``mkdir -p`` (OSError as a UserError)."""
    outputs = _ACTIVE.get()
    if outputs is not None:
        outputs.make_folder(str(path))
        return
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot create {path}: {error.strerror or error}") from None


def claim(option: str, path: str | None, suffixes: tuple[str, ...] = ()) -> None:
    """:meth:`Outputs.claim` on the running command's outputs (nothing outside a command)."""
    outputs = _ACTIVE.get()
    if outputs is not None:
        outputs.claim(option, path, suffixes)
