"""Ctrl-C and SIGTERM at random moments of a command's first second, once or twice: exit 130 or 143 with
one line, and nothing left behind (no ``.part`` file, no ``demo`` folder, no output).

Each trial is a real ``hexkernel`` process; the trials run a few at a time.  The clock of a trial starts
once the process catches SIGTERM (its console script's first lines ran; before that only Python's own
start-up runs, which no program can handle a signal in) and the first signal comes 0..1 s later, the
second, in half the trials, 0..0.3 s after it.  Before the fixes these trials found a traceback of the
interrupted import or of ``gc.collect()`` (SIGINT), a silent exit -15 (SIGTERM during the imports), and
the ``demo`` folder left behind, in most of the trials.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.cli_processes import leftovers, wait_until_catching_sigterm

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="trials time signals by /proc")

HEXKERNEL = [sys.executable, "-c", "import sys; sys.argv[0] = 'hexkernel'; from kernel.cli.entry import script; "
             "script()"]
#: Trials per command and trials run at once.
TRIALS, AT_ONCE = 40, 8
COMMANDS = {
    "matrix": lambda folder: ["matrix", "--map", "71", "--out", str(folder / "m.npy")],
    "demo": lambda folder: ["demo", "--map", "71", "--out", str(folder / "demo"), "--quiet"],
    "fire": lambda folder: ["fire", "--from", "71I4", "--png", str(folder / "f.png"), "--json-out",
                            str(folder / "f.json")],
}


def _trial(command: str, seed: int, base: Path) -> tuple[str, str]:
    rng = random.Random(seed)
    folder = base / f"{command}-{seed}"
    folder.mkdir()
    signals = [rng.choice([signal.SIGINT, signal.SIGTERM])]
    if rng.random() < 0.5:
        signals.append(rng.choice([signal.SIGINT, signal.SIGTERM]))
    process = subprocess.Popen(HEXKERNEL + COMMANDS[command](folder), cwd=folder, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    wait_until_catching_sigterm(process)
    time.sleep(rng.uniform(0.0, 1.0))
    for k, signum in enumerate(signals):
        if process.poll() is not None:
            break
        process.send_signal(signum)
        time.sleep(rng.uniform(0.0, 0.3) if k == 0 else 0)
    try:
        _, stderr = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return "hang", ""
    left = leftovers(folder)
    shutil.rmtree(folder, ignore_errors=True)
    lines = stderr.strip().splitlines()
    if process.returncode == 0:
        return "completed", ""   # the signal came after the command had finished
    word = {130: "interrupted", 143: "terminated"}.get(process.returncode)
    if word is not None and lines == [f"hexkernel {command}: {word}"] and not left:
        return "stopped", ""
    return "wrong", f"{command} seed {seed}: rc {process.returncode}, left {left[:4]}, stderr {lines[-3:]}"


def test_signals_at_random_moments_stop_every_command_cleanly(tmp_path):
    jobs = [(command, seed) for command in COMMANDS for seed in range(TRIALS)]
    with ThreadPoolExecutor(AT_ONCE) as pool:
        outcomes = list(pool.map(lambda job: _trial(*job, tmp_path), jobs))
    wrong = [detail for kind, detail in outcomes if kind not in ("stopped", "completed")]
    assert wrong == []
    stopped = sum(kind == "stopped" for kind, _ in outcomes)
    assert stopped >= 0.9 * len(jobs), stopped   # the signals came while the commands ran


def test_a_closed_standard_output_does_not_stop_the_files(tmp_path):
    """``hexkernel info | head``: a BrokenPipeError traceback; now the text is cut and the files are written."""
    for arguments in (["info", "--png", str(tmp_path / "b.png")], ["vantage", "--json"]):
        read, write = os.pipe()
        os.close(read)   # the reader is gone before the first line
        process = subprocess.run(HEXKERNEL + arguments, stdout=write, stderr=subprocess.PIPE, text=True,
                                 timeout=300)
        os.close(write)
        assert (process.returncode, process.stderr) == (0, ""), arguments
    assert (tmp_path / "b.png").stat().st_size > 1000


def test_the_first_signal_of_the_start_up_is_one_line():
    """A signal while the command line's modules are still being imported (SIGTERM: exit -15 without a
    word before; SIGINT: the import's traceback)."""
    for signum, code, word in ((signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")):
        process = subprocess.Popen(HEXKERNEL + ["info", "--map", "71"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
        assert wait_until_catching_sigterm(process)
        process.send_signal(signum)   # at once: numpy and the commands' modules are not imported yet
        _, stderr = process.communicate(timeout=60)
        assert (process.returncode, stderr.strip()) == (code, f"hexkernel info: {word}")


BATCH_JOB = ("[job]\ncompute = ['visibility', 'hindrance']\nblock_rows = 16\n[[maps]]\n"
             "random = { ruleset = 'asl', columns = 6, rows = 8, seed = 1, count = 2 }\n")


def _batch_trial(seed: int, base: Path, job: Path, span: float) -> tuple[str, str]:
    rng = random.Random(seed)
    out = base / f"out{seed}"
    signals = [rng.choice([signal.SIGINT, signal.SIGTERM]) for _ in range(1 + (rng.random() < 0.5))]
    process = subprocess.Popen(HEXKERNEL + ["batch", str(job), "--out", str(out), "--workers", "1"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_until_catching_sigterm(process)
    # the stops that went wrong: while the cluster starts (the lock is taken first), and after the maps are
    # prepared but before a block is finished; the others anywhere in the run
    sign = {0: lambda: (out / ".lock").exists(), 1: lambda: any(out.glob("maps/*/map.json"))}.get(seed % 3)
    deadline = time.monotonic() + 120
    while sign is not None and not sign() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(rng.uniform(0.0, {0: 1.5, 1: 0.2}.get(seed % 3, span)))
    for signum in signals:
        if process.poll() is None:
            process.send_signal(signum)
            time.sleep(rng.uniform(0.0, 0.3))
    _, stderr = process.communicate(timeout=300)
    lines = stderr.strip().splitlines()
    if process.returncode == 0:
        return "completed", ""
    word = {130: "interrupted", 143: "terminated"}.get(process.returncode)
    markers = list(out.glob("maps/*/done/*/*.json"))
    if word is None or lines != [f"hexkernel batch: {word}"] or (out.exists() and not markers):
        return "wrong", f"seed {seed}: rc {process.returncode}, left {leftovers(out)[:5]}, stderr {lines[-3:]}"
    return ("resumable" if out.exists() else "stopped"), ""


def test_an_interrupted_batch_is_one_line_and_leaves_no_folder_without_a_finished_block(tmp_path):
    """Ctrl-C while the embedded cluster started printed distributed's exit-hook traceback (AssertionError:
    Status.init) after 'interrupted'; a stop before the first finished block left OUT/maps behind."""
    import kernel

    job = tmp_path / "job.toml"
    job.write_text(BATCH_JOB)
    started = time.perf_counter()
    assert subprocess.run(HEXKERNEL + ["batch", str(job), "--out", str(tmp_path / "whole"), "--workers", "1"],
                          capture_output=True, timeout=300).returncode == 0
    span = time.perf_counter() - started
    with ThreadPoolExecutor(4) as pool:
        outcomes = list(pool.map(lambda seed: _batch_trial(seed, tmp_path, job, span), range(9)))
    assert [detail for kind, detail in outcomes if kind == "wrong"] == []
    assert sum(kind != "completed" for kind, _ in outcomes) >= 6
    for seed, (kind, _) in enumerate(outcomes):
        if kind == "resumable":   # a rerun completes it, with the whole run's arrays
            out = tmp_path / f"out{seed}"
            assert subprocess.run(HEXKERNEL + ["batch", str(job), "--out", str(out), "--workers", "1"],
                                  capture_output=True, timeout=300).returncode == 0
            for name in ("random-asl-6x8-seed1", "random-asl-6x8-seed2"):
                assert (kernel.batch_result(out, name, "hindrance")
                        == kernel.batch_result(tmp_path / "whole", name, "hindrance")).all()
