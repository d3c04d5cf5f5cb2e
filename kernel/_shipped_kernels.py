"""Machine code of every kernel for a portable x86-64 target, built into the wheel and loaded without compiling.

A wheel built with numba in its build environment (``setup.py``) holds, in
``kernel/_machine_code``, numba's cache files of every kernel that
``hexkernel warm`` compiles, compiled for :data:`TARGET` (a CPU every x86-64
machine of the last decade runs, not the build machine's), and a manifest of
what they were built with. numba's own cache keys an entry by its source
file's content, the function's bytecode and the CPU it was compiled for; the
files here are laid out by the source file's folder inside the package, so
they are found wherever the package is installed.

The numba cache (``kernel._jit``) looks here when its own folder has no
entry: that folder wins, so the code that ``hexkernel warm`` compiles for
this very CPU replaces the portable code once it exists. The shipped code is
used only when the manifest matches this installation (:func:`usable`): the
same numba, llvmlite, Python (bytecode) and machine type, and the same package
sources; otherwise the kernels compile as they do without it.
``HEXKERNEL_SHIPPED_KERNELS=0`` turns it off (``hexkernel warm`` does, to
compile tuned code).

``python -m kernel.cli.build_shipped FOLDER`` (run by the build, with
:func:`build_environment`) compiles every kernel and writes FOLDER.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
from pathlib import Path

#: numba's CPU name and features of the shipped code (``NUMBA_CPU_NAME``, ``NUMBA_CPU_FEATURES``): LLVM's
#: x86-64-v3 level (AVX2, FMA, BMI1/2, MOVBE: x86-64 processors since 2013-2015), from the measured losses of
#: the portable levels against code tuned for the build machine (docs/benchmarks.md).
TARGET = {"NUMBA_CPU_NAME": "x86-64-v3", "NUMBA_CPU_FEATURES": ""}
#: The CPU features each portable level needs (LLVM's names): shipped code runs only on a CPU that has them all.
LEVEL_FEATURES = {
    "generic": (),
    "x86-64-v2": ("cx16", "popcnt", "sahf", "sse3", "sse4.1", "sse4.2", "ssse3"),
}
LEVEL_FEATURES["x86-64-v3"] = LEVEL_FEATURES["x86-64-v2"] + ("avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt",
                                                             "movbe", "xsave")
#: The folder of the shipped code inside the package.
FOLDER_NAME = "_machine_code"
#: The manifest of a build (the versions it needs, the target, the kernels' fingerprint).
MANIFEST_NAME = "manifest.json"
#: The environment variable that turns the shipped code off (``0``).
SWITCH = "HEXKERNEL_SHIPPED_KERNELS"

#: The package's folder (the shipped code is laid out by the source files' folders inside it).
PACKAGE = Path(__file__).resolve().parent


def folder() -> Path:
    """Where an installed wheel keeps its machine code (absent in a source tree or an sdist's install)."""
    return PACKAGE / FOLDER_NAME


def enabled() -> bool:
    """Whether the shipped code may be used (``HEXKERNEL_SHIPPED_KERNELS`` is not ``0``)."""
    return os.environ.get(SWITCH, "1") != "0"


def source_fingerprint() -> str:
    """A digest of the package's source files (paths inside the package and contents, from the package's one
    reading of its sources): the shipped code is for these exact files."""
    from kernel._disk_cache import package_files

    digest = hashlib.sha256()
    for path, content in package_files():
        digest.update(str(path.relative_to(PACKAGE)).encode() + b"\0")
        digest.update(content)
    return digest.hexdigest()[:32]


def environment() -> dict[str, str]:
    """What shipped code must have been built with to run here: numba, llvmlite, the Python (bytecode) and the
    machine type."""
    import llvmlite
    import numba

    return {"numba": numba.__version__, "llvmlite": llvmlite.__version__,
            "python": sys.implementation.cache_tag, "machine": platform.machine().lower(),
            "platform": sys.platform}


_manifest: list[dict | None] = []
#: The kernels loaded from the shipped code in this process (``module.qualname``), in order.
LOADED: list[str] = []


def manifest() -> dict | None:
    """The shipped code's manifest when it can be used here (:func:`usable`), else ``None`` (read once)."""
    if not _manifest:
        _manifest.append(_read_manifest())
    return _manifest[0]


def _read_manifest() -> dict | None:
    if not enabled():
        return None
    try:
        found = json.loads((folder() / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict) or found.get("environment") != environment():
        return None
    if found.get("sources") != source_fingerprint() or missing_features(found):
        return None
    magic = found.get("magic_tuple")
    if not (isinstance(magic, list) and len(magic) == 3 and all(isinstance(part, str) for part in magic)):
        return None
    return found


def forget() -> None:
    """Read the manifest again at the next use (after :data:`SWITCH` changed in this process)."""
    _manifest.clear()


def missing_features(found: dict) -> list[str]:
    """The CPU features the shipped code of manifest ``found`` needs that this CPU lacks."""
    import llvmlite.binding as llvm

    needed = found.get("cpu_features")
    if not isinstance(needed, list):
        return ["(the manifest names none)"]
    here = llvm.get_host_cpu_features()
    return [feature for feature in needed if not here.get(feature, False)]


def usable() -> bool:
    """Whether this installation has shipped code that matches it."""
    return manifest() is not None


def mismatch() -> str | None:
    """Why shipped code present here is not used (another numba, llvmlite or Python than the build's), or
    ``None`` (none shipped, turned off, or used)."""
    try:
        found = json.loads((folder() / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not enabled() or usable() or not isinstance(found, dict):
        return None
    built, here = found.get("environment") or {}, environment()
    differences = [f"{name} {built.get(name)} (here {here[name]})" for name in here if built.get(name) != here[name]]
    if differences:
        return "built for " + ", ".join(differences)
    if found.get("sources") != source_fingerprint():
        return "built from other package sources"
    lacking = missing_features(found)
    if lacking:
        return f"built for a CPU with {', '.join(lacking)}, which this one lacks"
    return "not readable"


def load(cache, sig, target_context):
    """The compile result of ``sig`` for the kernel of ``cache`` (numba's ``FunctionCache`` of it) from the
    shipped code, or ``None`` when there is none for it here."""
    found = manifest()
    if found is None:
        return None
    from numba.core.caching import IndexDataCacheFile

    source = Path(cache._impl.locator._py_file).resolve()
    try:
        relative = source.parent.relative_to(PACKAGE)
    except ValueError:
        return None
    codegen = target_context.codegen()
    key = cache._index_key(sig, codegen)
    key = (key[0], tuple(found["magic_tuple"]), key[2])
    shipped = IndexDataCacheFile(cache_path=str(folder().joinpath(relative)), filename_base=cache._impl.filename_base,
                                 source_stamp=cache._cache_file._source_stamp)
    cres = cache.rebuild_checked(shipped.load(key), sig, target_context, shipped._index_path)
    if cres is not None:
        LOADED.append(f"{cache._py_func.__module__}.{cache._py_func.__qualname__}")
    return cres


def build_environment(cache: str) -> dict[str, str]:
    """The environment of a process that builds the shipped code into a fresh cache folder ``cache``."""
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith(("NUMBA_", "HEXKERNEL_"))}
    environment.update(TARGET)
    environment.update({"HEXKERNEL_CACHE_DIR": cache, SWITCH: "0", "HEXKERNEL_NUMBA_CACHE": "1"})
    return environment
