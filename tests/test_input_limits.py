"""Every documented limit is checked when the input is read, with the actual and the allowed value
and the file and line; files that cannot be used are refused (classes 2, 3, 4, 6 and 8).

Each case is an example of the issue, reproduced before it was fixed.
"""

from __future__ import annotations

import gzip
import re
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest

import kernel
from kernel._limits import (MAX_BOARD_ROWS, MAX_BUILDING_LEVELS, MAX_LEVEL, MAX_MAP_HEXES, MAX_MEMBER_BYTES,
                            MIN_LEVEL, check_range, read_limited)
from kernel.importers.vasl.files import parse_los_data, read_board_files
from kernel.maps.bundled import data_dir
from kernel.maps.specs import BoardFileError
from tests.shared_data import needs, require, vasl_folder

REPO = Path(__file__).resolve().parent.parent
VASL = vasl_folder()
BOARD_71 = (data_dir() / "boards" / "71.board").read_text(encoding="utf-8")


def variant(tmp_path, name, pattern, replacement, count=1):
    """Board 71 with one line changed; returns the path and the changed line's number."""
    text, done = re.subn(pattern, replacement, BOARD_71, count=count, flags=re.M)
    assert done == count
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    start = re.search(pattern, BOARD_71, flags=re.M).start()
    return path, BOARD_71[:start].count("\n") + 1


# ---------------------------------------------------------------- board files: sizes and levels

@pytest.mark.parametrize("pattern, replacement, message", [
    (r"^rows\s*=\s*10", "rows = 100000", f"rows is 100000: expected at most {MAX_BOARD_ROWS}"),
    (r"^rows\s*=\s*10", "rows = 10000000000", "rows is '10000000000': expected an integer of at most 9 digits"),
    (r"^default_level\s*=\s*0", "default_level = 40000", f"default_level is 40000: expected at most {MAX_LEVEL}"),
    (r"^default_level\s*=\s*0", "default_level = -21", f"default_level is -21: expected at least {MIN_LEVEL}"),
    (r"^I9\s+0", "I9 16384", f"level of I9 is 16384: expected at most {MAX_LEVEL}"),
    (r"^I9\s+0", "I9 32767", f"level of I9 is 32767: expected at most {MAX_LEVEL}"),
    (r"^I9\s+0", "I9 ４", "level of I9 is '４': expected an integer"),
    (r"^P5(\s+\S+\s+stone-building\s+)levels=2", r"P5\1levels=21",
     f"levels of P5 is 21: expected at most {MAX_BUILDING_LEVELS}"),
], ids=["rows-100000", "rows-11-digits", "default-level-40000", "default-level-minus-21", "level-16384",
        "level-32767", "level-fullwidth-digit", "building-levels-21"])
def test_board_sizes_and_levels_out_of_range_name_file_and_line(tmp_path, pattern, replacement, message):
    path, line = variant(tmp_path, "x.board", pattern, replacement)
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:{line}: {message}")):
        kernel.load(path)


def test_the_largest_level_accepted_compiles_and_sees_over_lower_ground(tmp_path):
    path, _ = variant(tmp_path, "hill.board", r"^I9\s+0", f"I9 {MAX_LEVEL}")
    board = kernel.load(path)
    assert int(board.ground_level[board.index("71I9")]) == MAX_LEVEL
    # the int16 arithmetic does not wrap: a LOS over a hill of MAX_LEVEL between two ground hexes is blocked
    result = kernel.los(board, "71I8", "71I10")
    assert not result.visible and result.blocked_at_name == "71I9"


@pytest.mark.parametrize("level", [28, MAX_LEVEL])
def test_a_steep_hill_keeps_movement_bounded(tmp_path, level):
    # a 7-line board with one hex at level 28 once took 2.3 GB for `move` (level 29: an internal error)
    path, _ = variant(tmp_path, "steep.board", r"^I9\s+0", f"I9 {level}")
    board = kernel.load(path)
    field = kernel.movement_field(board, "71I8", unit="infantry")
    assert np.isinf(field.cost[board.index("71I9")])        # a climb costing more than 1000 MF is impossible
    assert np.isfinite(field.cost[board.index("71I10")])
    matrix = kernel.movement_matrix(board, unit="infantry")
    assert matrix.shape == (len(board), len(board))


def test_a_map_of_more_hexes_than_the_limit_is_refused_at_the_line_that_exceeds_it(tmp_path):
    lines = ["[boards]"] + [f"{r} {c} 71 as {1 + r * 10 + c}" for r in range(10) for c in range(10)]
    path = tmp_path / "huge.scenario"
    path.write_text("\n".join(lines) + "\n")
    per_board = len(kernel.load("71"))
    first_over = MAX_MAP_HEXES // per_board + 1          # boards up to and including the one that exceeds
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:{first_over + 1}: the boards up to this line hold "
                                                       f"{first_over * per_board} hexes: expected a map of at most "
                                                       f"{MAX_MAP_HEXES}")):
        kernel.load(path)


# ---------------------------------------------------------------- board files that cannot be used

@pytest.mark.parametrize("board_id, reason", [("0", "board number '0' does not exist"), ("071", "leading zero"),
                                              ("1000", "more than 3 digits"), ("٧١", "")])
def test_board_ids_no_hex_name_can_use_are_refused(tmp_path, board_id, reason):
    path, line = variant(tmp_path, "id.board", r"^id\s*=\s*71", f"id = {board_id}")
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:{line}: board id is {board_id!r}: expected a board "
                                                       "number 1..999 without leading zeros")):
        kernel.load(path)
    assert reason == "" or reason in (kernel.grid.columns.board_problem(board_id) or "")


@pytest.mark.parametrize("number", ["0071", "0", "1000"])
def test_scenario_renumbering_to_an_unusable_id_is_refused(tmp_path, number):
    path = tmp_path / "as.scenario"
    path.write_text(f"[boards]\n0 0 71 as {number}\n")
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:2: 'as {number}': ")):
        kernel.load(path)


def test_levels_on_terrain_without_upper_levels_are_refused(tmp_path):
    for terrain in ("woods", "."):
        path, line = variant(tmp_path, "lv.board", r"^F2\s+1\s+woods.*$", f"F2  1  {terrain}  levels=2")
        with pytest.raises(BoardFileError, match=re.escape(f"{path}:{line}: hex F2: levels=2 on terrain {terrain}: "
                                                           "expected a terrain with upper levels")):
            kernel.load(path)


def test_a_utf8_byte_order_mark_is_not_part_of_line_1(tmp_path):
    path = tmp_path / "bom.board"
    path.write_bytes(b"\xef\xbb\xbf" + BOARD_71.encode("utf-8"))
    assert kernel.load(path).names == kernel.load("71").names


def test_a_nul_byte_is_refused_with_its_line(tmp_path):
    path = tmp_path / "nul.board"
    path.write_text(BOARD_71.replace("[hexes]", "[hexes]\0", 1))
    line = BOARD_71[:BOARD_71.index("[hexes]")].count("\n") + 1
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:{line}: holds a NUL byte")):
        kernel.load(path)


def test_a_bad_ruleset_names_file_and_line(tmp_path):
    path, line = variant(tmp_path, "rs.board", r"^ruleset\s*=\s*asl", "ruleset = nope")
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:{line}: ruleset 'nope': unknown ruleset 'nope'")):
        kernel.load(path)
    scenario = tmp_path / "rs.scenario"
    scenario.write_text("[scenario]\nruleset = nope\n[boards]\n0 0 71\n")
    with pytest.raises(BoardFileError, match=re.escape(f"{scenario}:2: boards use rulesets ['asl']: expected all "
                                                       "to use 'nope'")):
        kernel.load(scenario)


def test_an_overlay_marker_on_a_hex_without_overlay_is_not_that_hex():
    board = kernel.load("default")
    with pytest.raises(KeyError, match=re.escape("hex '71oI9': 71I9 is not covered by an overlay: expected '71I9'")):
        board.index("71oI9")


def test_a_scenario_naming_a_file_that_is_not_a_board_never_quotes_it(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-LINE: the first line of a private file\n")
    scenario = tmp_path / "leak.scenario"
    scenario.write_text(f"[boards]\n0 0 {secret}\n")
    with pytest.raises(BoardFileError, match=re.escape(f"{scenario}:2: board {str(secret)!r} is not a .board or "
                                                       ".overlay file")) as caught:
        kernel.load(scenario)
    assert "SECRET" not in str(caught.value)
    with pytest.raises(FileNotFoundError, match="is not a .board or .overlay file") as caught:
        kernel.load(str(secret))
    assert "SECRET" not in str(caught.value)


def test_a_folder_named_as_a_board_file_is_refused(tmp_path):
    (tmp_path / "dir.board").mkdir()
    with pytest.raises(FileNotFoundError, match=re.escape(f"no board {str(tmp_path / 'dir.board')!r}: expected a "
                                                          "file path or a bundled board name")):
        kernel.load(tmp_path / "dir.board")


def test_check_range_and_read_limited(tmp_path):
    assert check_range(5, 0, 5, "x", "here") == 5
    with pytest.raises(ValueError, match="here: x is 6: expected 0..5"):
        check_range(6, 0, 5, "x", "here")
    small = tmp_path / "small"
    small.write_bytes(b"abc")
    import tracemalloc

    tracemalloc.start()
    assert read_limited(small) == b"abc"
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 1 << 20, peak   # read(MAX_FILE_BYTES + 1) allocated the whole 64 MiB for three bytes
    big = tmp_path / "big"
    with open(big, "wb") as handle:
        handle.truncate(kernel._limits.MAX_FILE_BYTES + 1)     # sparse: no disk used
    with pytest.raises(ValueError, match=re.escape(f"{big}: file is larger than")):
        read_limited(big)


# ---------------------------------------------------------------- VASL archives and LOSData

def los_stream(width, height, grid_width, grid_height, payload_pixels=None):
    """A Java object stream with one long block-data record: the LOSData header and pixels."""
    pixels = grid_width * grid_height if payload_pixels is None else payload_pixels
    hexes = sum(height + (c % 2) for c in range(width))
    block = struct.pack(">4i", width, height, grid_width, grid_height) + bytes(2 * pixels + hexes)
    return b"\xac\xed\x00\x05" + b"\x7a" + struct.pack(">i", len(block)) + block


def test_a_header_claiming_a_huge_board_is_refused_before_any_allocation():
    raw = gzip.compress(los_stream(52, 999, 2869, 64436, payload_pixels=0))
    with pytest.raises(ValueError, match=re.escape("LOSData: header says 52x999 hexes on 2869x64436 pixels: "
                                                   f"expected 1..52 x 1..{MAX_BOARD_ROWS} hexes")):
        parse_los_data(raw)
    raw = gzip.compress(los_stream(33, 10, 1800, 20000, payload_pixels=0))
    with pytest.raises(ValueError, match=re.escape("header says 33x10 hexes on 1800x20000 pixels: expected about "
                                                   "1800x645 pixels")):
        parse_los_data(raw)


def test_a_gzip_bomb_stops_inflating_at_the_limit():
    bomb = gzip.compress(b"\0" * (MAX_MEMBER_BYTES + 1024), compresslevel=9)
    assert len(bomb) < MAX_MEMBER_BYTES // 500
    with pytest.raises(ValueError, match=re.escape(f"LOSData: inflates to more than {MAX_MEMBER_BYTES} bytes")):
        parse_los_data(bomb)
    with pytest.raises(ValueError, match="LOSData: truncated gzip data"):
        parse_los_data(gzip.compress(los_stream(33, 10, 1800, 645))[:-40])


def board_archive(tmp_path, name="bd02", **replace):
    """A zip of real board 2's files; ``replace`` maps a member name to (bytes, compress_type) (a skip where
    ``../shared`` is absent)."""
    require("vasl", "bd02")
    require("vasl", "SharedBoardMetadata.xml")
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as archive:
        for member in ("LOSData", "BoardMetadata.xml"):
            data, kind = replace.get(member, ((VASL / "bd02" / member).read_bytes(), zipfile.ZIP_DEFLATED))
            archive.writestr(member, data, compress_type=kind)
    return path


def test_a_member_larger_than_the_limit_is_not_read(tmp_path):
    huge = b"<boardMetadata " + b" " * (MAX_MEMBER_BYTES + 10) + b"/>"
    path = board_archive(tmp_path, **{"BoardMetadata.xml": (huge, zipfile.ZIP_DEFLATED)})
    assert path.stat().st_size < 2_000_000
    with pytest.raises(ValueError, match=re.escape(f"{path}!BoardMetadata.xml: {len(huge)} bytes: expected at most "
                                                   f"{MAX_MEMBER_BYTES}")):
        read_board_files(path, VASL / "SharedBoardMetadata.xml")


def test_encrypted_unknown_method_and_truncated_archives_are_named(tmp_path):
    path = board_archive(tmp_path)
    data = bytearray(path.read_bytes())
    # set the "encrypted" flag of every entry, in the local headers and the central directory
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        start = 0
        while (start := data.find(signature, start)) >= 0:
            data[start + offset] |= 1
            start += 4
    encrypted = tmp_path / "encrypted"
    encrypted.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=re.escape(f"{encrypted}!LOSData: encrypted: expected an unencrypted")):
        read_board_files(encrypted, VASL / "SharedBoardMetadata.xml")
    data = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        start = 0
        while (start := data.find(signature, start)) >= 0:
            data[start + offset:start + offset + 2] = struct.pack("<H", 99)   # an AES-style unknown method
            start += 4
    unknown = tmp_path / "unknown"
    unknown.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=re.escape(f"{unknown}!LOSData: ") + ".*expected a stored or deflated member"):
        read_board_files(unknown, VASL / "SharedBoardMetadata.xml")
    truncated = tmp_path / "truncated"
    truncated.write_bytes(path.read_bytes()[:5000])
    with pytest.raises(ValueError, match=re.escape(f"{truncated}: damaged board archive")):
        read_board_files(truncated, VASL / "SharedBoardMetadata.xml")
    with pytest.raises(ValueError, match="damaged board archive"):
        kernel.load(truncated)


@needs("vasl", "bd02")
def test_terrain_table_and_metadata_numbers_out_of_range(tmp_path):
    table = (VASL / "SharedBoardMetadata.xml").read_text(encoding="utf-8")
    bad = re.sub(r'height="\d+"', 'height="inf"', table, count=1)
    assert bad != table
    (tmp_path / "SharedBoardMetadata.xml").write_text(bad, encoding="utf-8")
    path = board_archive(tmp_path)
    with pytest.raises(ValueError, match=r"height='inf': expected a typeCode 0\.\.255, a split and a height in "
                                         rf"levels {MIN_LEVEL}\.\.{MAX_LEVEL}"):
        read_board_files(path, tmp_path / "SharedBoardMetadata.xml")
    metadata = (VASL / "bd02" / "BoardMetadata.xml").read_bytes()
    for attribute, value in ((b'width="', b"1e9"), (b'name="', b"1234")):
        changed = re.sub(re.escape(attribute) + rb'[^"]*', attribute + value, metadata, count=1)
        archive = board_archive(tmp_path, f"meta-{value.decode()}",
                                **{"BoardMetadata.xml": (changed, zipfile.ZIP_DEFLATED)})
        expected = "expected a whole number of hexes" if value == b"1e9" else "expected a board number 1..999"
        with pytest.raises(ValueError, match=re.escape(expected)):
            kernel.read_vasl_board(archive, VASL / "SharedBoardMetadata.xml")


# ---------------------------------------------------------------- the remaining limits, one test each

def test_more_boards_than_the_limit_are_refused(tmp_path):
    from kernel._limits import MAX_BOARDS

    path = tmp_path / "many.scenario"
    path.write_text("[boards]\n" + "".join(f"0 {c} missing{c}\n" for c in range(MAX_BOARDS + 1)))
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:2: ")):    # the first board is already missing
        kernel.load(path)
    path.write_text("[boards]\n0 300 71\n")
    with pytest.raises(BoardFileError, match=re.escape(f"{path}:2: board column is 300: expected at most "
                                                       f"{MAX_BOARDS - 1}")):
        kernel.load(path)


def test_a_board_file_larger_than_the_file_limit_is_refused(tmp_path):
    path = tmp_path / "big.board"
    with open(path, "wb") as handle:
        handle.truncate(kernel._limits.MAX_FILE_BYTES + 1)
    with pytest.raises(BoardFileError, match=re.escape(f"{path}: larger than {kernel._limits.MAX_FILE_BYTES} bytes")):
        kernel.load(path)


def test_an_archive_with_too_many_members_is_refused(tmp_path, monkeypatch):
    import kernel.importers.vasl.files as files

    monkeypatch.setattr(files, "MAX_ARCHIVE_MEMBERS", 1)
    path = board_archive(tmp_path)
    with pytest.raises(ValueError, match=re.escape(f"{path}: holds 2 members: expected at most 1")):
        read_board_files(path, VASL / "SharedBoardMetadata.xml")


def test_board_indices_refuse_a_string_and_a_map_too_large(tmp_path, monkeypatch):
    board = kernel.load("71")
    with pytest.raises(TypeError, match="hexes must be a sequence of names or indices, not str"):
        board.indices("71I9")
    with pytest.raises(ValueError, match=re.escape("hexes have shape (1, 1): expected a one-dimensional array")):
        board.indices(np.array([[1]]))
    with pytest.raises(TypeError, match="hexes have dtype float64: expected integer indices or names"):
        board.indices(np.array([1.0]))
    monkeypatch.setattr(kernel.maps.board, "MAX_MAP_HEXES", 15)      # random maps are not read from a file
    with pytest.raises(BoardFileError, match=re.escape("the map has 16 hexes: expected 1..15")):
        kernel.random_board("asl", 4, 4)


def test_a_counters_file_larger_than_the_file_limit_is_one_line(tmp_path, capsys):
    from kernel.cli import main

    path = tmp_path / "c.json"
    with open(path, "wb") as handle:
        handle.truncate(kernel._limits.MAX_FILE_BYTES + 1)
    assert main(["los", "71I4", "71I6", "--counters", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (f"hexkernel los: error: counters file {path}: counters file is larger "
                                               f"than {kernel._limits.MAX_FILE_BYTES} bytes: expected at most that")


def test_a_file_read_whole_that_is_a_fifo_or_a_device_is_refused_without_waiting(tmp_path, capsys):
    """A FIFO with no writer held open() (a counters file: no answer in 20 s); a device never ends."""
    import os
    import threading

    from kernel.cli import main

    fifo = tmp_path / "c.json"
    os.mkfifo(fifo)
    answers = []
    reader = threading.Thread(target=lambda: answers.append(main(["los", "71I4", "71I6", "--counters", str(fifo)])),
                              daemon=True)
    reader.start()
    reader.join(30)
    if reader.is_alive():   # free the blocked open() so the test process can go on
        with open(fifo, "wb"):
            pass
        reader.join(5)
        pytest.fail("a counters file that is a FIFO with no writer held the command")
    assert answers == [2]
    assert capsys.readouterr().err.strip() == (f"hexkernel los: error: counters file {fifo}: counters file is a "
                                               "FIFO: expected a regular file")
    with pytest.raises(ValueError, match=r"^/dev/zero: ruleset is a device: expected a regular file$"):
        read_limited("/dev/zero", "ruleset")
    with pytest.raises(IsADirectoryError):
        read_limited(tmp_path)


def test_an_unwritable_output_folder_is_refused_before_work(tmp_path, capsys, monkeypatch):
    import kernel.cli.outputs as outputs
    from kernel.cli import main

    monkeypatch.setattr(outputs.os, "access", lambda path, mode: False)   # the tests may run as root
    assert main(["info", "--map", "71", "--json-out", str(tmp_path / "a.json")]) == 2
    assert f"folder {str(tmp_path)!r} is not writable" in capsys.readouterr().err
