"""Each optional feature without its extra raises an ImportError that names the extra to install.

A package is made missing by putting ``None`` in ``sys.modules`` under its
name (what Python does for a package that cannot be imported), so these run
in the full test environment.
"""

from __future__ import annotations

import sys

import pytest

import kernel
from kernel import _extras
from kernel.cli.app import main


@pytest.fixture(scope="module")
def board():
    return kernel.load("71")


def missing(monkeypatch, *packages):
    for package in packages:
        monkeypatch.setitem(sys.modules, package, None)


@pytest.mark.parametrize("package", ["matplotlib"])
def test_pictures_without_the_plot_extra(monkeypatch, board, package):
    missing(monkeypatch, package)
    with pytest.raises(ImportError, match=r"pictures need the package matplotlib.*pip install 'hexkernel\[plot\]'"):
        kernel.board_picture(board)


@pytest.mark.parametrize("package", ["dask", "distributed", "zarr"])
def test_batch_jobs_without_the_batch_extra(monkeypatch, tmp_path, package):
    job = tmp_path / "job.toml"
    job.write_text('[job]\ncompute = ["visibility"]\n[[maps]]\nsource = "71"\n')
    missing(monkeypatch, package)
    with pytest.raises(ImportError, match=rf"batch jobs need the package {package}.*'hexkernel\[batch\]'"):
        kernel.run_batch(job, tmp_path / "out")
    assert not (tmp_path / "out").exists()   # refused before anything is written


def test_batch_results_without_the_batch_extra(monkeypatch, tmp_path):
    missing(monkeypatch, "zarr")
    with pytest.raises(ImportError, match=r"batch results need the package zarr.*'hexkernel\[batch\]'"):
        kernel.batch_result(tmp_path, "71", "visibility")


def test_movement_graph_without_the_graph_extra(monkeypatch, board):
    missing(monkeypatch, "scipy")
    with pytest.raises(ImportError, match=r"movement graphs need the package scipy.*'hexkernel\[graph\]'"):
        kernel.movement_graph(board, "71I4", unit="infantry")


def test_the_command_line_names_the_extra_in_one_line(monkeypatch, tmp_path, capsys):
    missing(monkeypatch, "matplotlib")
    status = main(["fire", "--map", "71", "--from", "71I4", "--png", str(tmp_path / "fire.png")])
    err = capsys.readouterr().err
    assert status == 2 and not (tmp_path / "fire.png").exists()
    assert err.strip().splitlines() == ["hexkernel fire: error: pictures need the package matplotlib, which is not "
                                        "installed: pip install 'hexkernel[plot]'"]


def test_every_extra_is_in_the_package_metadata():
    """kernel/_extras.py and pyproject.toml's optional dependencies name the same packages per extra."""
    import re
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    for extra, packages in _extras.EXTRAS.items():
        assert [re.split(r"[<>=\[ ]", requirement)[0] for requirement in extras[extra]] == list(packages), extra
    core = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"]
    assert [re.split(r"[<>=\[ ]", requirement)[0] for requirement in core] == ["numpy", "numba"]


def test_require_passes_when_the_packages_are_there():
    assert _extras.require("graph", "movement graphs") is None
