"""Tiny hostile inputs cannot make hexkernel allocate unbounded memory.

The inputs of the issue (a one-line ``rows = 100000`` edit, a LOSData header
claiming 52 x 999 hexes, a gzip bomb, a zip holding a member that inflates
past the limit or lies about its size, a counters file nested 100,000 deep,
a hex at level 28 under ASL's doubled climbing costs) are fed to a fresh
process whose address space is capped with ``resource.setrlimit(RLIMIT_AS)``
at :data:`ADDRESS_SPACE` bytes.  Each must be refused with its documented
error (or answered), never end in a MemoryError or a killed process.
"""

from __future__ import annotations

import gzip
import json
import re
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from kernel._limits import MAX_MEMBER_BYTES
from kernel.maps.bundled import data_dir
from tests.shared_data import needs, vasl_folder

REPO = Path(__file__).resolve().parent.parent
VASL = vasl_folder()
#: The child's whole address space: numba, numpy and a compiled map fit in about 1 GiB.
ADDRESS_SPACE = 1536 * 2**20

CHILD = r"""
import json, resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import numpy as np
import kernel
from kernel.cli.common import read_counters
from kernel.cli.errors import UserError
from kernel.importers.vasl.files import parse_los_data, read_board_files

cases = json.loads(sys.argv[2])
results = {}
for name, (kind, path) in cases.items():
    try:
        if kind == "load":
            board = kernel.load(path)
            kernel.movement_field(board, "71I8", unit="infantry")
            kernel.movement_matrix(board, unit="infantry")
            kernel.los_matrix(board)
            results[name] = "answered"
            continue
        if kind == "los_data":
            parse_los_data(open(path, "rb").read(), path)
        elif kind == "archive":
            read_board_files(path, sys.argv[3])
        elif kind == "counters":
            read_counters(kernel.load("default"), path)
        results[name] = "answered"
    except (ValueError, FileNotFoundError, UserError) as error:
        results[name] = "refused: " + type(error).__name__ + ": " + str(error)[:300]
    except MemoryError:
        results[name] = "MemoryError"
print(json.dumps(results))
"""


def hostile_inputs(folder: Path, vasl: bool = False) -> tuple[dict, dict]:
    """The inputs (kind, path) and, per input, a pattern its outcome must match: VASL archives made of real
    board 2 (``../shared``) when ``vasl``, the others otherwise."""
    board = (data_dir() / "boards" / "71.board").read_text(encoding="utf-8")
    cases, expected = {}, {}

    def add(name, kind, path, pattern):
        cases[name] = (kind, str(path))
        expected[name] = pattern

    if vasl:
        big = folder / "big-member"
        with zipfile.ZipFile(big, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(VASL / "bd02" / "LOSData", "LOSData")
            archive.writestr("BoardMetadata.xml", bytes(MAX_MEMBER_BYTES + 2**20))
        add("zip member over the limit", "archive", big, r"refused: ValueError: .*BoardMetadata.xml: \d+ bytes: expected")
        lying = folder / "lying-member"
        data = bytearray(big.read_bytes())
        entry = data.find(b"PK\x01\x02", data.find(b"BoardMetadata.xml") - 100)
        data[entry + 24:entry + 28] = struct.pack("<I", 1000)      # the central directory claims 1000 bytes
        lying.write_bytes(bytes(data))
        add("zip member lying about its size", "archive", lying, r"refused: ValueError: .*(inflates to more than|damaged)")
        return cases, expected
    for rows in ("100000", "10000000"):
        path = folder / f"rows{rows}.board"
        path.write_text(re.sub(r"^rows\s*=\s*10", f"rows = {rows}", board, flags=re.M))
        add(f"rows = {rows}", "load", path, r"refused: BoardFileError: .*rows\d+\.board:23: rows is")
    steep = folder / "steep.board"
    steep.write_text(re.sub(r"^I9\s+0", "I9 28", board, flags=re.M))
    add("a hex at level 28", "load", steep, "answered")
    header = struct.pack(">4i", 52, 999, 2869, 64436)
    stream = b"\xac\xed\x00\x05\x7a" + struct.pack(">i", len(header) + 1000) + header + bytes(1000)
    (folder / "LOSData-header").write_bytes(gzip.compress(stream))
    add("LOSData header 52 x 999", "los_data", folder / "LOSData-header", r"refused: ValueError: .*header says 52x999")
    (folder / "LOSData-bomb").write_bytes(gzip.compress(bytes(MAX_MEMBER_BYTES + 2**20), compresslevel=9))
    add("gzip bomb", "los_data", folder / "LOSData-bomb", "refused: ValueError: .*inflates to more than")
    deep = folder / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    add("counters nested 100,000 deep", "counters", deep, "refused: UserError: .*nested deeper than")
    return cases, expected


@pytest.mark.parametrize("vasl", [False, pytest.param(True, id="vasl", marks=needs("vasl", "bd02"))])
def test_hostile_inputs_are_refused_within_a_capped_address_space(tmp_path, vasl):
    cases, expected = hostile_inputs(tmp_path, vasl)
    process = subprocess.run([sys.executable, "-c", CHILD, str(ADDRESS_SPACE), json.dumps(cases),
                              str(VASL / "SharedBoardMetadata.xml")], capture_output=True, text=True, timeout=600,
                             cwd=REPO)
    assert process.returncode == 0, process.stderr[-3000:]
    results = json.loads(process.stdout.strip().splitlines()[-1])
    for name, pattern in expected.items():
        assert re.match(pattern, results[name]), (name, results[name])


def test_the_cap_is_real():
    """The same child under a cap too small for the gzip bomb's allowed buffer runs out of memory."""
    process = subprocess.run([sys.executable, "-c", "import resource; lim = 200 * 2**20; "
                              "resource.setrlimit(resource.RLIMIT_AS, (lim, lim)); bytearray(300 * 2**20)"],
                             capture_output=True, text=True, timeout=60)
    assert process.returncode != 0 and "MemoryError" in process.stderr


@pytest.mark.parametrize("rows", [1, 200])
def test_the_row_limit_itself_is_accepted(tmp_path, rows):
    import kernel

    board = (data_dir() / "boards" / "71.board").read_text(encoding="utf-8")
    path = tmp_path / "tall.board"
    path.write_text(re.sub(r"^rows\s*=\s*10", f"rows = {rows}", board, flags=re.M))
    try:
        loaded = kernel.load(path)
    except ValueError as error:          # board 71's own hexes lie below row 1: refused as off the board
        assert rows == 1 and "is off this 33x1 board" in str(error)
        return
    assert len(loaded) == sum(rows + (c % 2) for c in range(33))


PAIRS_CHILD = r"""
import resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import numpy as np
import kernel
from kernel._limits import MAX_PAIRS
board = kernel.load("default")
for k, m in ((20_000, 20_000), (10**6, 10**6), (MAX_PAIRS // 1000 + 1, 1000)):
    try:
        kernel.los_pairs(board, np.zeros(k, np.int32), np.zeros(m, np.int32), product=True)
        print("answered")
    except ValueError as error:
        print(error)
print(kernel.los_pairs(board, np.arange(40), np.arange(100), product=True).visible.shape)
"""


def test_pair_products_beyond_the_limit_are_refused_before_allocating():
    """20,000 x 20,000 passed every check and allocated past 6 GB; 10^6 x 10^6 ended in numpy's MemoryError
    traceback ('Unable to allocate 3.64 TiB')."""
    process = subprocess.run([sys.executable, "-c", PAIRS_CHILD, str(ADDRESS_SPACE)], capture_output=True,
                             text=True, timeout=600, cwd=REPO)
    assert process.returncode == 0, process.stderr[-3000:]
    lines = process.stdout.strip().splitlines()
    assert lines[0] == ("los_pairs: 20,000 sources x 20,000 targets = 400,000,000 pairs: expected at most "
                        "25,000,000 per call (about 44 bytes a pair while it runs): ask for fewer sources at a time")
    assert lines[1].startswith("los_pairs: 1,000,000 sources x 1,000,000 targets = 1,000,000,000,000 pairs:")
    assert lines[2].startswith("los_pairs: 25,001 sources x 1,000 targets = 25,001,000 pairs: expected at most")
    assert lines[3] == "(40, 100)"


def test_a_target_list_beyond_the_limit_is_refused_by_coverage_and_vantage(tmp_path, monkeypatch, capsys):
    """vantage --targets listing every hex of a 6-board grid used 5.7 GB and gave no answer in 120 s."""
    import kernel
    import kernel.line_of_sight.vantage as vantage
    from kernel.cli import main

    board = kernel.load("default")
    monkeypatch.setattr(vantage, "MAX_PAIRS", 100_000)
    locations = len(board) + int(board.top_level.sum())
    with pytest.raises(ValueError, match=rf"coverage: {locations:,} Locations x {len(board):,} targets = "
                                         rf"{locations * len(board):,} LOS pairs: expected at most 100,000 .*: give "
                                         rf"at most {100_000 // locations} targets on this map"):
        kernel.coverage(board, np.arange(len(board)))
    assert kernel.coverage(board, np.arange(50)).seen.shape == (locations,)
    targets = tmp_path / "every-hex.txt"
    targets.write_text("\n".join(board.names))
    assert main(["vantage", "--targets", str(targets)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("hexkernel vantage: error: coverage: ") and "LOS pairs: expected" in err[0]
