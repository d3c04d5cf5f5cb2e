"""The one way tests and benchmarks find the project's shared data, ``../shared`` beside the clone.

A user's fresh clone has no ``../shared``; CI has it. Every test that reads it
asks this module for the folder and skips, with a reason, when the part it
needs is absent: :func:`needs` (a skip mark), :func:`require` (a path, or a
skip inside a test or fixture) or :func:`present`; benchmarks and bench tools
find it here too (:func:`shared_folder`).

``HEXKERNEL_HIDE_SHARED=1`` hides the folder as if the clone had none
(``make test`` runs the tests that touch it once more that way): this module
then answers with a folder that does not exist, and the root ``conftest.py``
fails any test that opens or lists the real folder anyway (through a path of
its own, not through this module), so a test that would fail in a fresh
clone fails in CI too.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

#: The environment variable that hides ``../shared`` (any value but empty or ``0``).
HIDE_VARIABLE = "HEXKERNEL_HIDE_SHARED"
#: The repository root (this file is ``tests/shared_data.py``).
REPO = Path(__file__).resolve().parents[1]
#: Where ``../shared`` really is, hidden or not (for the guard of the root ``conftest.py`` only).
REAL_SHARED = REPO.parent / "shared"


def hidden() -> bool:
    """Whether ``HEXKERNEL_HIDE_SHARED`` hides ``../shared``."""
    return os.environ.get(HIDE_VARIABLE, "") not in ("", "0")


def shared_folder() -> Path:
    """``../shared`` seen from the repository root; while hidden, a folder that does not exist."""
    if hidden():
        return REPO / "build" / f"shared hidden by {HIDE_VARIABLE}"
    return REAL_SHARED


def vasl_folder() -> Path:
    """The VASL board data, ``../shared/vasl``."""
    return shared_folder() / "vasl"


def present(*parts: str) -> bool:
    """Whether ``../shared/<parts>`` exists (a file or a folder)."""
    return shared_folder().joinpath(*parts).exists()


def reason(*parts: str) -> str:
    """Why a test that needs ``../shared/<parts>`` is skipped."""
    where = "/".join(("../shared",) + parts)
    why = f"hidden by {HIDE_VARIABLE}" if hidden() else "not beside this clone"
    return f"needs {where} ({why})"


def needs(*parts: str):
    """A mark that skips a test (or a module, as ``pytestmark``) when ``../shared/<parts>`` is absent."""
    import pytest

    return pytest.mark.skipif(not present(*parts), reason=reason(*parts))


def require(*parts: str) -> Path:
    """``../shared/<parts>``, or a skip of the calling test (or fixture) when it is absent."""
    import pytest

    path = shared_folder().joinpath(*parts)
    if not path.exists():
        pytest.skip(reason(*parts))
    return path


class SharedReadWhileHidden(RuntimeError):
    """A test opened or listed the real ``../shared`` while ``HEXKERNEL_HIDE_SHARED`` hides it: in a fresh
    clone it would fail instead of skipping."""


def guard_hidden_folder() -> None:
    """While hidden, make every open, listing or glob of the real ``../shared`` in this process raise
    :class:`SharedReadWhileHidden` (an audit hook, installed once by the root ``conftest.py``)."""
    if not hidden():
        return
    real = os.path.realpath(REAL_SHARED)
    events = {"open", "os.listdir", "os.scandir", "glob.glob", "os.chdir", "shutil.copytree", "zipfile.ZipFile"}

    def hook(event, arguments):
        if event not in events or not arguments:
            return
        target = arguments[0]
        if isinstance(target, int) or not isinstance(target, (str, bytes, os.PathLike)):
            return
        text = os.fsdecode(os.fspath(target))
        if "shared" not in text:
            return
        resolved = os.path.realpath(text)
        if resolved == real or resolved.startswith(real + os.sep):
            raise SharedReadWhileHidden(f"{event} of {text} while {HIDE_VARIABLE} hides ../shared: the test "
                                        "must find it through tests/shared_data.py and skip when it is absent")

    import sys

    sys.addaudithook(hook)


def quiet(function, *args, **kwargs):
    """Call ``function`` with every warning silenced (a VASL board's import notes, the depiction model's)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)
