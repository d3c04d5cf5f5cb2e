"""Fuzz suite: the command line.

hypothesis builds command lines from the real commands and options with
values good and bad (hexes, Locations, levels, units, counters files, maps,
output names); each runs through :func:`kernel.cli.main` in a fresh folder.
Asserted: the exit code is 0 or 2 (argparse's own errors included), never a
traceback; an exit 2 prints exactly one line and creates or changes no file;
an exit 0 leaves every requested output complete and no temporary file.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from kernel.cli import main
from tests.fuzzing import fuzz, tried

HEXES = st.sampled_from(["71I4", "71I6", "71P5h1", "71P5h2", "71P5h3", "71oI9", "71I99", "0I4", "I4", "", "-",
                         "Bridge/71I4", "71P5h-1", "٧١I4", "71I4-71J4", "72M6"])
NUMBERS = st.sampled_from(["0", "1", "2", "-1", "40000", "1e3", "nan", "inf", "4.5", "", "99999999999999999999"])
UNITS = st.sampled_from(["infantry", "vehicle", "", "cavalry", "INFANTRY"])
MAPS = st.sampled_from(["71", "72", "vv-village", "ccn-ridge", "nope", "", "board.board", "counters.json",
                        "/dev/null", "missing.scenario"])
COUNTERS = st.sampled_from(["counters.json", "deep.json", "bad.json", "missing.json", "board.board", ""])
OUTPUTS = st.sampled_from(["out.json", "exists.json", "sub/out.json", "board.board", ".", "out.npy"])
PICTURES = st.sampled_from(["a.svg", "exists.png", "a.txt"])     # each refused before any drawing

FILES = {
    "counters.json": '{"smoke": {"71I9": 3}, "vehicles": ["71J9"]}',
    "deep.json": "[" * 5000 + "]" * 5000,
    "bad.json": '{"smoke": {"71I9": 3, "71I9": 4}}',
    "board.board": "[board]\nid = 5\nruleset = asl\ncolumns = 3\nrows = 2\n",
    "exists.json": "keep me",
    "exists.png": "keep me too",
}


@st.composite
def command_lines(draw):
    command = draw(st.sampled_from(["info", "los", "fire", "move", "matrix", "import-vasl", "bogus"]))
    argv = [command]
    if command == "los":
        argv += [draw(HEXES), draw(HEXES)]
    elif command == "fire":
        for _ in range(draw(st.integers(0, 2))):
            argv += ["--from", draw(HEXES)]
        argv += draw(st.sampled_from([[], ["--level", draw(NUMBERS)], ["--target-level", draw(NUMBERS)]]))
    elif command == "move":
        argv += ["--from", draw(HEXES)] + draw(st.sampled_from([[], ["--to", draw(HEXES)],
                                                                ["--allowance", draw(NUMBERS)]]))
    elif command == "matrix":
        argv += ["--quiet"] + draw(st.sampled_from([[], ["--out", draw(OUTPUTS)], ["--block-rows", draw(NUMBERS)]]))
    elif command == "import-vasl":
        argv += [draw(st.sampled_from(["missing", "board.board", "counters.json", "."])), "--out",
                 draw(st.sampled_from(["x.board", "exists.json", "y.txt"]))]
    if command in ("los", "fire", "move") and draw(st.booleans()):
        argv += ["--unit", draw(UNITS)]
    if command in ("los", "fire", "move", "matrix") and draw(st.booleans()):
        argv += ["--counters", draw(COUNTERS)]
    if command != "import-vasl":
        argv += ["--map", draw(MAPS)] if draw(st.integers(0, 3)) else []
        if draw(st.booleans()):
            argv += ["--json-out", draw(OUTPUTS)]
        if draw(st.integers(0, 4)) == 0:
            argv += [draw(st.sampled_from(["--png", "--svg"])), draw(PICTURES)]
        if draw(st.integers(0, 5)) == 0:
            argv += ["--json"]
    return argv


def snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@fuzz(200)
@given(argv=command_lines())
def test_fuzz_command_lines(tmp_path_factory, capsys, argv):
    folder = tmp_path_factory.mktemp("cli")
    for name, text in FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    before = snapshot(folder)
    capsys.readouterr()
    here = os.getcwd()
    os.chdir(folder)
    try:
        try:
            code = main(argv)
        except SystemExit as exit_:                  # argparse: --help or a malformed command line
            code = exit_.code
    finally:
        os.chdir(here)
    err = capsys.readouterr().err
    assert code in (0, 2), (argv, code, err)
    after = snapshot(folder)
    assert not [name for name in after if name.endswith(".part")], argv
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (argv, err)
        assert after == before, (argv, sorted(set(after) ^ set(before)))
        tried("command lines", False)
        return
    tried("command lines", True)
    for option in ("--json-out", "--out"):
        if option in argv and argv[0] != "import-vasl":
            written = folder / argv[argv.index(option) + 1]
            assert written.is_file() and after[str(written.relative_to(folder))] != before.get(
                str(written.relative_to(folder))), argv
            if option == "--out":                      # matrix --out: the .npy file
                matrix = np.load(written)
                assert matrix.shape[0] == matrix.shape[1] and matrix.dtype == np.int8
    for name, content in before.items():             # nothing there before was touched without --force
        assert after[name] == content, (argv, name)
