"""``import kernel`` in a fresh interpreter: the public face loads nothing heavy (target <= 0.3 s).

Each round starts a new Python process.  The peer measured in the same run is
a process that imports nothing (``python -c pass``), so the difference is
the import itself, whatever the machine's load; numpy's import is timed too
for scale.  The figures are the best of the rounds.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench.conftest import FIGURES, RATIOS, TIMINGS, measure, ratio

BARE = "interpreter start-up (python -c pass)"
KERNEL = "interpreter start-up + import kernel"
NUMPY = "interpreter start-up + import numpy"


def _run(code: str):
    return lambda: subprocess.run([sys.executable, "-c", code], check=True)


def test_start_up_bare(benchmark):
    measure(benchmark, BARE, _run("pass"), rounds=7)


def test_start_up_import_kernel(benchmark):
    measure(benchmark, KERNEL, _run("import kernel"), rounds=7)


def test_start_up_import_numpy(benchmark):
    measure(benchmark, NUMPY, _run("import numpy"), rounds=7)


def test_import_kernel_is_lighter_than_numpy():
    """``import kernel`` alone (start-up subtracted) is reported; CI fails only on a gross regression:
    a fresh ``import kernel`` as slow as a fresh ``import numpy`` (it imports no numpy at all)."""
    value = ratio(KERNEL, NUMPY)
    FIGURES["import kernel alone, ms (start-up subtracted; target <= 300)"] = (
        1e3 * max(TIMINGS[KERNEL] - TIMINGS[BARE], 0.0), "ms")
    RATIOS.append((KERNEL, NUMPY, "start-up + import kernel / start-up + import numpy", 1.0))
    assert value < 1.0, f"a fresh 'import kernel' takes {value:.2f} x a fresh 'import numpy': expected less"


LOADED = "fresh process: import kernel + load the default scenario"
FIRST_LOS = "fresh process: ... + the first los() (numba, cache, templates)"
FIRST_MOVE = "fresh process: ... + the first movement_field()"


def test_fresh_process_loaded(benchmark):
    measure(benchmark, LOADED, _run("import kernel; kernel.load('default')"), rounds=5)


def test_fresh_process_first_los(benchmark):
    measure(benchmark, FIRST_LOS, _run("import kernel; b = kernel.load('default'); kernel.los(b, '71I4', '71Q5')"),
            rounds=5)


def test_fresh_process_first_movement_field(benchmark):
    measure(benchmark, FIRST_MOVE, _run(
        "import kernel; b = kernel.load('default'); kernel.movement_field(b, '71I4', unit='infantry')"), rounds=5)


def test_first_calls_figures():
    """The first call of a fresh process after ``hexkernel warm`` (target: at most 0.5 s)."""
    if not {LOADED, FIRST_LOS, FIRST_MOVE} <= set(TIMINGS):
        pytest.skip("needs the fresh-process timings of this run")
    first_los = TIMINGS[FIRST_LOS] - TIMINGS[LOADED]
    first_move = TIMINGS[FIRST_MOVE] - TIMINGS[LOADED]
    FIGURES["first los() in a fresh process, ms (after warm; target <= 500)"] = (1e3 * first_los, "ms")
    FIGURES["first movement_field() in a fresh process, ms (after warm)"] = (1e3 * first_move, "ms")
    assert first_los > 0 and first_move > 0


MATPLOTLIB = "interpreter start-up + import matplotlib"
PICTURE_COMMAND = "fresh process: hexkernel los 71I4 72M6 --png (whole run)"


def test_start_up_import_matplotlib(benchmark):
    measure(benchmark, MATPLOTLIB, _run("import matplotlib"), rounds=3)


def test_cli_picture_command(benchmark, tmp_path):
    """A CLI picture command's whole run, from the shell's point of view: the ``hexkernel`` script in a new
    process (interpreter start-up, imports, the cached kernels, the LOS, the picture drawn and written as
    PNG, the exit), after ``hexkernel warm`` (target <= 1.5 s on an idle machine)."""
    from pathlib import Path

    script = Path(sys.executable).with_name("hexkernel")
    if not script.exists():
        pytest.skip(f"no hexkernel script beside {sys.executable} (the package is not installed)")
    picture = tmp_path / "los.png"
    command = [str(script), "los", "71I4", "72M6", "--png", str(picture), "--force"]
    measure(benchmark, PICTURE_COMMAND, lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL),
            rounds=3)
    assert picture.stat().st_size > 100_000   # a whole A4 page at 200 dpi was written
    FIGURES["CLI picture command, whole run, s (hexkernel los ... --png after warm; target <= 1.5)"] = (
        TIMINGS[PICTURE_COMMAND], "s")
    RATIOS.append((PICTURE_COMMAND, MATPLOTLIB, "CLI picture command / a fresh import matplotlib", 10.0))
    assert ratio(PICTURE_COMMAND, MATPLOTLIB) < 10.0, "a picture command at 10 x a fresh matplotlib import or more"
