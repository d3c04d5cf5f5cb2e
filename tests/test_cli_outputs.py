"""The CLI's outputs are complete or absent, never overwritten without --force,
and every user mistake is exit code 2 with one line.

Outputs are claimed before any work, written under a temporary name in their
own folder and renamed only when the whole command has succeeded
(:mod:`kernel.cli.outputs`); an error, an interruption (a real SIGINT during
``hexkernel matrix``) or an unexpected exception leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from kernel.cli import main
from tests.cli_processes import wait_for_part_file
from kernel.cli.errors import UserError
from kernel.cli.outputs import Outputs, staged
from tests.shared_data import vasl_folder

ROOT = Path(__file__).resolve().parent.parent


def run(argv, capsys):
    """``main(argv)``: (exit code, stdout, stderr lines)."""
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err.splitlines()


def user_error(argv, capsys, fragment):
    """Run a command that must fail as a user error: exit 2, one line holding ``fragment``."""
    code, _, err = run(argv, capsys)
    assert code == 2 and len(err) == 1, (code, err)
    assert fragment in err[0], err
    return err[0]


def leftovers(folder: Path) -> list[str]:
    """Every file in ``folder`` (temporary ones included)."""
    return sorted(p.name for p in folder.iterdir())


# ---------------------------------------------------------------- existing files and --force

def test_an_existing_output_is_kept_without_force_and_replaced_with_it(tmp_path, capsys):
    out = tmp_path / "info.json"
    out.write_text("precious")
    user_error(["info", "--map", "71", "--json-out", out], capsys,
               f"--json-out: {out} already exists: expected a new file name, or --force to replace it")
    assert out.read_text() == "precious" and leftovers(tmp_path) == ["info.json"]
    code, _, _ = run(["info", "--map", "71", "--json-out", out, "--force"], capsys)
    assert code == 0 and json.loads(out.read_text())["hexes"] == 346
    assert leftovers(tmp_path) == ["info.json"]


def test_matrix_refuses_to_overwrite_and_a_wrong_suffix(tmp_path, capsys):
    board = tmp_path / "x.board"
    board.write_text("not to be destroyed")
    user_error(["matrix", "--map", "71", "--out", board, "--quiet"], capsys,
               f"--out is '{board}': expected a file name ending in .npy")
    existing = tmp_path / "m.npy"
    np.save(existing, np.arange(3))
    user_error(["matrix", "--map", "71", "--out", existing, "--quiet"], capsys, "--out: ")
    assert np.load(existing).tolist() == [0, 1, 2]
    assert leftovers(tmp_path) == ["m.npy", "x.board"]


@pytest.mark.parametrize("argv, fragment", [
    (["los", "71I4", "71I6", "--png", "{d}/a.svg"], "--png is '{d}/a.svg': expected a file name ending in .png"),
    (["los", "71I4", "71I6", "--svg", "{d}/a.png"], "--svg is '{d}/a.png': expected a file name ending in .svg"),
    (["matrix", "--out", "{d}/m.npy", "--json-out", "{d}/m.npy"], "--json-out and --out both name {d}/m.npy"),
    (["los", "71I4", "71I6", "--json-out", "{d}/a.png", "--png", "{d}/./a.png"], "--png and --json-out both name"),
    (["fire", "--from", "71I4", "--json-out", "{d}/nofolder/a.json"], "folder '{d}/nofolder' does not exist"),
    (["fire", "--from", "71I4", "--json-out", "{d}"], "cannot write {d}: it is a directory"),
    (["import-vasl", "{d}/nothing", "--out", "{d}/x.txt"], "--out is '{d}/x.txt': expected a file name ending in .board"),
], ids=["png-suffix", "svg-suffix", "same-file-twice", "same-file-two-spellings", "no-folder", "a-folder",
        "import-suffix"])
def test_outputs_are_checked_before_any_work(tmp_path, capsys, argv, fragment):
    d = str(tmp_path)
    user_error([a.format(d=d) for a in argv] + ["--map", "71"] * (argv[0] != "import-vasl"), capsys,
               fragment.format(d=d))
    assert leftovers(tmp_path) == []


def test_import_vasl_refuses_to_overwrite(tmp_path, capsys):
    out = tmp_path / "2.board"
    out.write_text("mine")
    vasl = vasl_folder() / "bd02"
    user_error(["import-vasl", vasl, "--out", out], capsys, f"--out: {out} already exists")
    assert out.read_text() == "mine"


# ---------------------------------------------------------------- nothing left behind on a later error

def test_a_failing_picture_leaves_no_json_behind(tmp_path, capsys):
    ok = tmp_path / "ok.json"
    blocked = tmp_path / "ro"
    blocked.mkdir()
    target = blocked / "x.png"
    # a picture path that passes the early checks but cannot be created when the picture is saved
    import kernel.cli.outputs as outputs_module

    original = outputs_module._create_private

    def refuse(path):
        if Path(path).parent == blocked:
            raise PermissionError(13, "Permission denied")
        return original(path)

    outputs_module._create_private = refuse
    try:
        user_error(["fire", "--map", "71", "--from", "71I4", "--json-out", ok, "--png", target], capsys,
                   f"cannot write {target}: Permission denied")
    finally:
        outputs_module._create_private = original
    assert leftovers(tmp_path) == ["ro"] and leftovers(blocked) == []


def test_proc_is_not_a_place_for_pictures(tmp_path, capsys):
    ok = tmp_path / "ok.json"
    code, _, err = run(["fire", "--map", "71", "--from", "71I4", "--json-out", ok, "--png", "/proc/x.png"], capsys)
    assert code == 2 and len(err) == 1 and "/proc/x.png" in err[0]
    assert leftovers(tmp_path) == []


def test_an_unexpected_exception_discards_the_staged_files(tmp_path):
    with pytest.raises(RuntimeError, match="boom"):
        with Outputs() as outputs:
            outputs.claim("--json-out", str(tmp_path / "a.json"))
            Path(staged(str(tmp_path / "a.json"))).write_text("half")
            raise RuntimeError("boom")
    assert leftovers(tmp_path) == []


def test_an_interruption_right_after_a_part_file_is_created_leaves_nothing(tmp_path, monkeypatch):
    # the file exists before stage() returns: it is known to discard() from before its creation
    import kernel.cli.outputs as outputs_module

    original = outputs_module._create_private

    def create_then_interrupt(path):
        original(path)
        raise KeyboardInterrupt

    monkeypatch.setattr(outputs_module, "_create_private", create_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        with Outputs() as outputs:
            outputs.claim("--json-out", str(tmp_path / "a.json"))
            staged(str(tmp_path / "a.json"))
    assert leftovers(tmp_path) == []


def test_a_part_name_already_taken_is_drawn_again(tmp_path, monkeypatch):
    import kernel.cli.outputs as outputs_module

    taken = tmp_path / f".a.json.{os.getpid()}.0000000a.part"   # this process's, so not stale
    taken.write_text("another stage's")
    tokens = iter(["0000000a", "0000000b"])
    monkeypatch.setattr(outputs_module.secrets, "token_hex", lambda n: next(tokens))
    with Outputs() as outputs:
        outputs.claim("--json-out", str(tmp_path / "a.json"))
        part = staged(str(tmp_path / "a.json"))
        assert Path(part).name == f".a.json.{os.getpid()}.0000000b.part" and list(outputs.finals) == [part]
        Path(part).write_text("{}")
        outputs.commit()
    assert leftovers(tmp_path) == [taken.name, "a.json"] and taken.read_text() == "another stage's"


def test_a_file_that_appears_while_the_command_runs_is_not_replaced(tmp_path):
    target = tmp_path / "a.json"
    with pytest.raises(UserError, match=f"{target} appeared while the command ran"):
        with Outputs() as outputs:
            outputs.claim("--json-out", str(target))
            Path(staged(str(target))).write_text("new")
            target.write_text("someone else's")
            outputs.commit()
    assert target.read_text() == "someone else's" and leftovers(tmp_path) == ["a.json"]


def test_outside_a_command_staged_is_the_path_itself(tmp_path):
    assert staged(str(tmp_path / "x.npy")) == str(tmp_path / "x.npy")


# ---------------------------------------------------------------- user mistakes: exit 2, one line

@pytest.mark.parametrize("content, fragment", [
    ("[" * 100_000 + "]" * 100_000, "JSON nested deeper than 8 levels"),
    ('{"smoke": {"71I9": ' + "9" * 5001 + "}}", "an integer of 5001 digits: expected at most 6"),
    ('{"smoke": {"71I9": 1, "71I9": 2}}', "key '71I9' given twice in one object"),
    ('{"smoke": {"71I9": 1, " 71I9": 2}}', "smoke: ' 71I9' names 71I9 again: expected each hex once"),
    ('{"smoke": {"71I9": NaN}}', "NaN: expected a number"),
    ('{"smoke": {"71I9": 40000}}', "smoke DRM of 71I9 is 40000: expected an integer 0..100"),
    ("\ufeff{}", None),
], ids=["deep", "digits", "duplicate-key", "duplicate-hex", "nan", "smoke-40000", "bom"])
def test_counters_files_that_cannot_be_counters(tmp_path, capsys, content, fragment):
    path = tmp_path / "c.json"
    path.write_text(content, encoding="utf-8")
    argv = ["los", "--map", "default", "71I4", "71I6", "--counters", path]
    if fragment is None:
        assert run(argv, capsys)[0] == 0
    else:
        user_error(argv, capsys, f"counters file {path}: {fragment}")


@pytest.mark.parametrize("argv, fragment", [
    (["los", "71I4", "71I6", "--unit", ""], "--unit: unknown unit class ''"),
    (["move", "--from", "71I4", "--unit", ""], "--unit: unknown unit class ''"),
    (["fire", "--from", "71I4", "--target-level", "40000"], "a field of fire: target_levels is 40000: expected 0..20"),
    (["fire", "--from", "71I4", "--level", "40000"], "--level 40000: 71I4 has Location levels 0..0"),
], ids=["los-unit-empty", "move-unit-empty", "target-level", "level"])
def test_command_line_values_out_of_range(capsys, argv, fragment):
    user_error(argv + ["--map", "default"], capsys, fragment)


# ---------------------------------------------------------------- a real SIGINT during `hexkernel matrix`

def test_sigint_during_matrix_leaves_nothing_and_keeps_the_old_file(tmp_path):
    lines = ["[boards]"] + [f"{r} {c} {'71' if (r + c) % 2 == 0 else '72'}{' rotated' if r % 2 else ''} as {10 + 5 * r + c}"
                            for r in range(5) for c in range(5)]
    scenario = tmp_path / "big.scenario"
    scenario.write_text("\n".join(lines) + "\n")
    out = tmp_path / "m.npy"
    np.save(out, np.arange(7, dtype=np.int8))
    before = out.read_bytes()
    process = subprocess.Popen([sys.executable, "-m", "kernel.cli", "matrix", "--map", str(scenario), "--out", str(out),
                                "--force", "--quiet", "--block-rows", "4"], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_part_file(process, tmp_path)
    time.sleep(0.5)                       # well into the blocks (or the templates) of a 8,650-hex matrix
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=300)
    # 130, or killed by the re-raised SIGINT (Python's own exit for an interrupt; seen about 1 run in 18 under
    # load, cause not found): a shell shows 130 for both
    assert process.returncode in (130, -signal.SIGINT), (process.returncode, stderr[-2000:])
    assert stderr.strip().splitlines() == ["hexkernel matrix: interrupted"]
    assert out.read_bytes() == before                       # the old file is untouched
    assert sorted(os.listdir(tmp_path)) == ["big.scenario", "m.npy"]   # no partial matrix, no temporary file


def test_outputs_get_the_mode_of_a_plain_new_file(tmp_path, capsys):
    """Staged files are private (0600) while written; the finished output has 0666 less the umask,
    as ``open(path, "w")`` would give it, whatever wrote it (json, numpy, matplotlib, the page)."""
    old = os.umask(0o022)
    try:
        code, _, _ = run(["info", "--map", "71", "--json-out", tmp_path / "info.json"], capsys)
        assert code == 0
        code, _, _ = run(["page", "--map", "71", "--out", tmp_path / "map.html"], capsys)
        assert code == 0
        os.umask(0o077)
        code, _, _ = run(["matrix", "--map", "71", "--out", tmp_path / "m.npy", "--quiet"], capsys)
        assert code == 0
    finally:
        os.umask(old)
    modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir()}
    assert modes == {"info.json": 0o644, "map.html": 0o644, "m.npy": 0o600}


def test_page_refuses_to_overwrite_without_force(tmp_path, capsys):
    page = tmp_path / "map.html"
    page.write_text("precious")
    user_error(["page", "--map", "71", "--out", page], capsys, "already exists: expected a new file name, or --force")
    assert page.read_text() == "precious" and leftovers(tmp_path) == ["map.html"]
    code, _, _ = run(["page", "--map", "71", "--out", page, "--force"], capsys)
    assert code == 0 and page.read_text().startswith("<!DOCTYPE html>") and leftovers(tmp_path) == ["map.html"]
