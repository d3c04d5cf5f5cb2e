"""A full disk, SIGTERM and odd output targets: one line with exit code 2 (143 for SIGTERM) and nothing left.

A full file system is met for real on a small tmpfs where this process may
mount one (root), and simulated at the write everywhere; SIGTERM is sent to
a real ``hexkernel matrix``; stale parts of killed runs are removed by the
next run of the same output; symlinks, devices and FIFOs are never replaced.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kernel.cli import main
from tests.cli_processes import wait_for_part_file
from kernel.cli import matrix_command


def run(argv, capsys):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err.splitlines()


def _dead_pid() -> int:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    return gone.pid


@pytest.fixture
def small_tmpfs(tmp_path):
    """A 1 MiB tmpfs (skipped where mounting is not allowed)."""
    folder = tmp_path / "full"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


@pytest.fixture
def sized_tmpfs(tmp_path):
    """``mount(size)``: a tmpfs of that size at a new folder (skipped where mounting is not allowed); every
    mount is undone at the end."""
    mounted = []

    def mount(size: str) -> Path:
        folder = tmp_path / f"full{len(mounted)}"
        folder.mkdir()
        if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                                               capture_output=True).returncode != 0:
            pytest.skip("cannot mount a tmpfs here (needs root)")
        mounted.append(folder)
        return folder

    try:
        yield mount
    finally:
        for folder in mounted:
            subprocess.run(["umount", str(folder)], capture_output=True)


def _cli(*arguments):
    return subprocess.run([sys.executable, "-m", "kernel.cli", *map(str, arguments)], capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize("size", ["64k", "2m"])
def test_demo_on_a_full_file_system_is_one_line_and_leaves_no_folder(sized_tmpfs, size):
    """demo --out on a full disk left its demo/ folder (and whatever it had written)."""
    full = sized_tmpfs(size)
    result = _cli("demo", "--map", "71", "--out", full / "demo", "--quiet")
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])
    assert re.fullmatch(rf"hexkernel demo: error: cannot write {re.escape(str(full))}/demo/\S+: No space left on "
                        r"device", result.stderr.strip())
    assert os.listdir(full) == []


BATCH_JOB = ("[job]\ncompute = ['visibility', 'hindrance']\nblock_rows = 16\n[[maps]]\n"
             "random = { ruleset = 'asl', columns = 6, rows = 8, seed = 1, count = 2 }\n")


def test_batch_on_a_full_file_system_leaves_no_folder_or_a_resumable_one(sized_tmpfs, tmp_path):
    """batch --out on a full disk left job.toml, manifest.json, maps or a .lock.*.tmp in a folder with no
    finished block; a folder with finished blocks is kept, says so, and resumes once there is room."""
    import kernel

    job = tmp_path / "job.toml"
    job.write_text(BATCH_JOB)
    assert _cli("batch", job, "--out", tmp_path / "whole", "--workers", 1).returncode == 0
    kept = 0
    for size in ("8k", "40k", "96k"):
        full = sized_tmpfs(size)
        result = _cli("batch", job, "--out", full / "b", "--workers", 1)
        assert result.returncode == 2, (size, result.returncode, result.stderr[-500:])
        line = result.stderr.strip()
        assert "\n" not in line and line.startswith("hexkernel batch: error: ") and "No space left on device" in line
        left = sorted(str(p.relative_to(full)) for p in full.rglob("*"))
        assert not [name for name in left if name.endswith((".tmp", ".partial"))], left
        if not left:
            continue
        assert list(full.glob("b/maps/*/done/*/*.json")), (size, left)   # kept only with a finished block
        assert line.endswith("(its finished blocks are kept: run it again to resume)")
        kept += 1
        subprocess.run(["mount", "-o", "remount,size=4m", str(full)], check=True)
        assert _cli("batch", job, "--out", full / "b", "--workers", 1).returncode == 0
        for name in ("random-asl-6x8-seed1", "random-asl-6x8-seed2"):
            assert (kernel.batch_result(full / "b", name, "hindrance")
                    == kernel.batch_result(tmp_path / "whole", name, "hindrance")).all()
    assert kept >= 1


def test_matrix_on_a_full_file_system_is_one_line_and_leaves_nothing(small_tmpfs):
    result = subprocess.run([sys.executable, "-m", "kernel.cli", "matrix", "--out", str(small_tmpfs / "m.npy"),
                             "--quiet"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])  # not SIGBUS (-7)
    assert result.stderr.splitlines() == [f"hexkernel matrix: error: cannot write {small_tmpfs / 'm.npy'}: "
                                          "No space left on device"]
    assert os.listdir(small_tmpfs) == []


def test_a_full_disk_at_the_matrix_write_names_the_output(tmp_path, capsys, monkeypatch):
    def full(fd, offset, length):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(matrix_command.os, "posix_fallocate", full)
    code, _, err = run(["matrix", "--map", "71", "--out", tmp_path / "m.npy", "--quiet"], capsys)
    assert code == 2 and err == [f"hexkernel matrix: error: cannot write {tmp_path / 'm.npy'}: No space left on "
                                 "device"]
    assert os.listdir(tmp_path) == []


def test_a_full_disk_anywhere_else_names_the_output_not_its_part(tmp_path, capsys, monkeypatch):
    from kernel.cli.outputs import staged

    def full(board, path, **options):
        Path(path).write_bytes(b"x")
        raise OSError(errno.ENOSPC, "No space left on device", path)

    monkeypatch.setattr(matrix_command, "write_matrix", full)
    code, _, err = run(["matrix", "--map", "71", "--out", tmp_path / "m.npy", "--quiet"], capsys)
    assert code == 2 and err == [f"hexkernel matrix: error: cannot write {tmp_path / 'm.npy'}: No space left on "
                                 "device"]
    assert os.listdir(tmp_path) == [] and staged(str(tmp_path / "x")) == str(tmp_path / "x")


@pytest.mark.parametrize("signum, code, word", [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")],
                         ids=["SIGTERM", "SIGINT"])
def test_a_signal_swallowed_inside_a_c_callback_still_stops_and_keeps_nothing(tmp_path, capsys, monkeypatch, signum,
                                                                              code, word):
    # numba compiles its runtime and loads cached kernels through ctypes callbacks; an exception raised inside
    # one is only printed by Python, so the Terminated or KeyboardInterrupt of a signal arriving there never
    # reaches the command
    import ctypes

    write = matrix_command.write_matrix

    def write_then_signalled_inside_a_callback(board, path, **options):
        counts = write(board, path, **options)
        callback = ctypes.CFUNCTYPE(None)(lambda: (os.kill(os.getpid(), signum), time.sleep(0.05)))
        callback()
        return counts

    monkeypatch.setattr(matrix_command, "write_matrix", write_then_signalled_inside_a_callback)
    status, _, err = run(["matrix", "--map", "71", "--out", tmp_path / "m.npy", "--quiet"], capsys)
    assert status == code and err == [f"hexkernel matrix: {word}"]   # the swallowed exception is not printed
    assert os.listdir(tmp_path) == []


def test_a_finalizer_error_of_what_a_ctrl_c_cut_short_is_not_printed(tmp_path, capsys, monkeypatch):
    # a Ctrl-C inside a constructor (a dask Future's, during a batch job) leaves an object without its
    # attributes, whose __del__ then fails: the stop's doing, reported in one line, not a traceback
    import gc

    class HalfBuilt:
        def __init__(self):
            self.itself = self   # a reference cycle: freed by the garbage collector, not at once
            os.kill(os.getpid(), signal.SIGINT)
            self.client = None

        def __del__(self):
            self.client.release()

    def write_interrupted(board, path, **options):
        HalfBuilt()

    seen = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    monkeypatch.setattr(matrix_command, "write_matrix", write_interrupted)
    status, _, err = run(["matrix", "--map", "71", "--out", tmp_path / "m.npy", "--quiet"], capsys)
    gc.collect()
    assert status == 130 and err == ["hexkernel matrix: interrupted"] and seen == []
    assert os.listdir(tmp_path) == []


def test_finalizer_errors_are_dropped_only_while_a_command_stops():
    from kernel.cli.app import _quiet_stops

    class Unraisable:
        def __init__(self, error):
            self.exc_value = error

    seen, stopping = [], []
    quiet = _quiet_stops(seen.append, lambda: bool(stopping))
    error, interrupt = Unraisable(AttributeError("client")), Unraisable(KeyboardInterrupt())
    quiet(error)
    quiet(interrupt)
    assert seen == [error]
    stopping.append(True)
    quiet(error)
    quiet(interrupt)
    assert seen == [error]


def test_an_ignored_ctrl_c_stays_ignored_and_the_handlers_come_back(tmp_path, capsys):
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        seen = []
        write = matrix_command.write_matrix

        def write_and_look(board, path, **options):
            seen.append(signal.getsignal(signal.SIGINT))
            return write(board, path, **options)

        matrix_command.write_matrix = write_and_look
        try:
            status, _, _ = run(["matrix", "--map", "71", "--out", tmp_path / "m.npy", "--quiet"], capsys)
        finally:
            matrix_command.write_matrix = write
        assert status == 0 and seen == [signal.SIG_IGN] and signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
    before = signal.getsignal(signal.SIGINT)
    assert run(["matrix", "--map", "71", "--out", tmp_path / "m2.npy", "--quiet"], capsys)[0] == 0
    assert signal.getsignal(signal.SIGINT) is before


def test_sigterm_during_matrix_leaves_nothing(tmp_path):
    lines = ["[boards]"] + [f"{r} {c} {'71' if (r + c) % 2 == 0 else '72'}{' rotated' if r % 2 else ''} as "
                            f"{10 + 5 * r + c}" for r in range(5) for c in range(5)]
    scenario = tmp_path / "big.scenario"
    scenario.write_text("\n".join(lines) + "\n")
    out = tmp_path / "m.npy"
    process = subprocess.Popen([sys.executable, "-m", "kernel.cli", "matrix", "--map", str(scenario), "--out",
                                str(out), "--quiet", "--block-rows", "4"], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_part_file(process, tmp_path)
    time.sleep(0.5)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 143, (process.returncode, stderr[-2000:])
    assert stderr.strip().splitlines() == ["hexkernel matrix: terminated"]
    assert sorted(os.listdir(tmp_path)) == ["big.scenario"]


def test_a_later_run_removes_stale_parts_of_its_own_output_only(tmp_path, capsys):
    from kernel.cli.outputs import remove_stale_parts

    dead = _dead_pid()
    stale = tmp_path / f".m.npy.{dead}.abcd1234.part"
    alive = tmp_path / f".m.npy.{os.getppid()}.abcd1234.part"      # a running process's part: kept
    other = tmp_path / f".n.npy.{dead}.abcd1234.part"              # another output's: kept
    for path in (stale, alive, other):
        path.write_bytes(b"\0" * 100)
    code, _, err = run(["matrix", "--map", "71", "--out", tmp_path / "m.npy", "--quiet"], capsys)
    assert code == 0, err
    assert sorted(os.listdir(tmp_path)) == sorted(["m.npy", alive.name, other.name])
    assert remove_stale_parts(tmp_path / "n.npy") == [other.name]


def test_force_never_replaces_a_symlink_a_device_or_a_fifo(tmp_path, capsys):
    target = tmp_path / "elsewhere.json"
    target.write_text("keep")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for path, kind in ((link, "a symbolic link"), (fifo, "a FIFO"), (Path("/dev/null"), "a device")):
        code, _, err = run(["info", "--map", "71", "--json-out", path, "--force"], capsys)
        assert code == 2 and err == [f"hexkernel info: error: --json-out: {path} is {kind}: expected a regular file "
                                     "to replace (or a new name); --force replaces only regular files"], err
    assert link.is_symlink() and target.read_text() == "keep" and Path("/dev/null").is_char_device()
    assert sorted(os.listdir(tmp_path)) == ["elsewhere.json", "fifo.json", "link.json"]
    code, _, err = run(["info", "--map", "71", "--json-out", target, "--force"], capsys)
    assert code == 0 and target.read_text().startswith("{")


def test_an_unwritable_matrix_in_a_library_call_leaves_no_file(tmp_path, monkeypatch):
    import kernel

    def full(fd, offset, length):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(matrix_command.os, "posix_fallocate", full)
    with pytest.raises(Exception, match=r"cannot write .*m.npy: No space left on device"):
        matrix_command.write_matrix(kernel.load("71"), tmp_path / "m.npy")
    assert os.listdir(tmp_path) == []


def test_sigterm_during_demo_leaves_no_part_files(tmp_path):
    out = tmp_path / "demo"
    process = subprocess.Popen([sys.executable, "-m", "kernel.cli", "demo", "--out", str(out), "--quiet"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_part_file(process, out)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 143, (process.returncode, stderr[-2000:])
    assert stderr.strip().splitlines() == ["hexkernel demo: terminated"]
    assert [p.name for p in out.rglob("*")] == []
