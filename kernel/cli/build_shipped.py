"""Compile every kernel for the wheel's portable target and lay numba's cache files out for the package
(``python -m kernel.cli.build_shipped FOLDER``, run by the build in ``setup.py`` with
:func:`kernel._shipped_kernels.build_environment`); see :mod:`kernel._shipped_kernels`."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

from kernel._shipped_kernels import LEVEL_FEATURES, MANIFEST_NAME, PACKAGE, TARGET, environment, source_fingerprint
from kernel.cli.warm_command import default_workers, warm_kernels


def _cache_subfolders(cache_root: Path) -> dict[str, Path]:
    """numba's cache folder of each package folder (as a path inside the package) under ``cache_root``."""
    from numba.core.caching import _CacheLocator

    found = {}
    for package_folder in [PACKAGE, *sorted(path for path in PACKAGE.rglob("*") if path.is_dir())]:
        subfolder = cache_root / _CacheLocator.get_suitable_cache_subpath(str(package_folder / "x.py"))
        if subfolder.is_dir():
            found[str(package_folder.relative_to(PACKAGE))] = subfolder
    return found


def build(out: Path) -> dict:
    """Compile every kernel of ``hexkernel warm`` into a fresh cache and lay its files out in ``out``.

    Run in a process whose environment holds :data:`TARGET` (the build does so): numba reads it at import.
    """
    import numba

    from kernel._numba_cache import CACHE

    if not CACHE or os.environ.get("NUMBA_CPU_NAME") != TARGET["NUMBA_CPU_NAME"]:
        raise SystemExit(f"build the shipped kernels with {TARGET} in the environment and the numba cache on")
    from kernel.cli.app import main

    cache_root = Path(numba.config.CACHE_DIR)
    seconds = warm_kernels(main, default_workers())["seconds"]
    out = Path(out)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    files = 0
    for relative, subfolder in _cache_subfolders(cache_root).items():
        target = out / relative
        target.mkdir(parents=True, exist_ok=True)
        for path in sorted(subfolder.iterdir()):
            if path.suffix in (".nbi", ".nbc") and ".tmp." not in path.name:
                shutil.copyfile(path, target / path.name)
                files += 1
    from numba.core.registry import cpu_target

    report = {"environment": environment(), "sources": source_fingerprint(), "target": TARGET,
              "cpu_features": list(LEVEL_FEATURES[TARGET["NUMBA_CPU_NAME"]]),
              "magic_tuple": list(cpu_target.target_context.codegen().magic_tuple()), "files": files,
              "seconds": round(seconds, 1)}
    (out / MANIFEST_NAME).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m kernel.cli.build_shipped FOLDER")
    print(json.dumps(build(Path(sys.argv[1]))))
