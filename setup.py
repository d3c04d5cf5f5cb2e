"""The build step that puts the kernels' machine code into the wheel (the rest of the build is pyproject.toml).

When the build's Python has numba (``python -m build --no-isolation``, as
``make test``'s wheel check builds), ``build_py`` compiles every kernel for
the portable x86-64 target of ``kernel/_shipped_kernels.py`` into the
package's ``_machine_code`` folder, and the wheel is a platform wheel for
this Python and machine type. Without numba (an isolated build, an install
from the sdist), on another machine type, or with
``HEXKERNEL_SHIPPED_KERNELS=0``, the wheel is pure Python and the kernels
compile on first use (or in ``hexkernel warm``), as from a source tree.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # older setuptools: the wheel package's
    from wheel.bdist_wheel import bdist_wheel

ROOT = Path(__file__).resolve().parent


def ships_machine_code() -> bool:
    """Whether this build compiles the kernels into the wheel."""
    return (os.environ.get("HEXKERNEL_SHIPPED_KERNELS", "1") != "0" and platform.machine().lower() in ("x86_64", "amd64")
            and importlib.util.find_spec("numba") is not None)


class BuildWithMachineCode(build_py):
    """``build_py`` that adds ``kernel/_machine_code`` (see the module docstring)."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False) or not ships_machine_code():
            return
        sys.path.insert(0, str(ROOT))
        try:
            from kernel._shipped_kernels import FOLDER_NAME, build_environment
        finally:
            sys.path.remove(str(ROOT))
        out = Path(self.build_lib) / "kernel" / FOLDER_NAME
        with tempfile.TemporaryDirectory(prefix="hexkernel-build-") as cache:
            self.announce(f"compiling the kernels for the portable target into {out}", level=2)
            subprocess.run([sys.executable, "-m", "kernel.cli.build_shipped", str(out.resolve())], cwd=ROOT,
                           env=build_environment(cache), check=True)


class PlatformWheelWithMachineCode(bdist_wheel):
    """A platform wheel (this Python, this machine type) when it holds machine code; else a pure one."""

    def get_tag(self):
        python, abi, plat = super().get_tag()
        if ships_machine_code():
            abi = "none"   # no extension module: the code runs through numba, for this Python's bytecode
        return python, abi, plat


class DistributionWithMachineCode(Distribution):
    """A distribution installed as a platform one (site-packages' platlib, a platform wheel) when it holds
    machine code."""

    def has_ext_modules(self):
        return ships_machine_code()


setup(cmdclass={"build_py": BuildWithMachineCode, "bdist_wheel": PlatformWheelWithMachineCode},
      distclass=DistributionWithMachineCode)
