"""The package metadata: every package of the source tree is listed for the wheel, with the bundled data."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_package_is_listed_for_the_wheel():
    found = {".".join(path.parent.relative_to(ROOT).parts) for path in (ROOT / "kernel").rglob("__init__.py")}
    assert set(SETUPTOOLS["packages"]) == found | {"kernel._data"}


def test_every_bundled_data_file_is_in_the_package_data():
    patterns = SETUPTOOLS["package-data"]["kernel._data"]
    data = ROOT / SETUPTOOLS["package-dir"]["kernel._data"]
    files = {path for path in data.rglob("*") if path.is_file()}
    covered = {path for pattern in patterns for path in data.glob(pattern)}
    assert files and files == covered, sorted(str(path.relative_to(data)) for path in files - covered)
