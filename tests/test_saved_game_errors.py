"""Bad VASL saved games: each refused with one line naming the file and the part of it, before it costs much.

A zip that is not a save, member names that are paths, a wrong key, a cut
or damaged stream, a ``bd`` record naming an unknown board or odd numbers,
absurd pixel positions, pieces past the limits (thousands are fine), groups
nested too deep; and the command line's one-line error with no output left.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import pytest

import kernel
from kernel._limits import MAX_PIECE_TRAITS, MAX_SAVE_BYTES, MAX_SAVE_NESTING, MAX_SAVE_PIECES
from kernel.importers.vasl.save_writer import (SaveBoard, SavePiece, join_sequence, obfuscated, save_text,
                                               write_saved_game)
from tests.vasl_saves import map_pixel, write_boards

BOARD = [SaveBoard(0, 0, "05", "1.0")]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_boards(tmp_path_factory.mktemp("vasl") / "boards", names=("05",))


def read(path, folder):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        return kernel.read_saved_game(path, folder)


def archive(path: Path, members: dict) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in members.items():
            out.writestr(name, data)
    return path


def good_stream(pieces=(), boards=BOARD) -> str:
    return save_text(list(boards), list(pieces) or [SavePiece("9-2", *map_pixel("G7"), "ge")])


def with_stream(path: Path, stream: bytes) -> Path:
    return archive(path, {"savedGame": stream, "savedata": "x", "moduledata": "x"})


@pytest.mark.parametrize("make, message", [
    (lambda p: (p.write_bytes(b"not a zip at all" * 10), p)[1], r"bad\.vsav: not a zip archive or a damaged one"),
    (lambda p: archive(p, {"notes.txt": "hello"}), r"bad\.vsav: a zip archive without a savedGame member "
                                                   r"\('notes.txt'\): expected a VASL saved game"),
    (lambda p: archive(p, {"savedGame": "a", "../savedGame": "b"}), r"bad\.vsav: member '\.\./savedGame' reaches "
                                                                     r"outside the archive"),
    (lambda p: archive(p, {"/etc/savedGame": "b"}), r"bad\.vsav: member '/etc/savedGame' is an absolute path"),
    (lambda p: archive(p, {"C:savedGame": "b"}), r"bad\.vsav: member 'C:savedGame' is an absolute path"),
    (lambda p: archive(p, {"savedGame": "b", "d/savedGame": "c", **{f"m{k}": "" for k in range(101)}}),
     r"bad\.vsav: holds 103 members: expected at most 100"),
])
def test_archives_that_are_not_saves(tmp_path, folder, make, message):
    path = make(tmp_path / "bad.vsav")
    with pytest.raises(kernel.SavedGameError, match=message):
        read(path, folder)


def test_a_stream_too_large_is_refused_before_it_is_decoded(tmp_path, folder):
    path = with_stream(tmp_path / "bad.vsav", b"!VCSK5a" + b"00" * (MAX_SAVE_BYTES // 2 + 10))
    with pytest.raises(kernel.SavedGameError, match=rf"bad\.vsav!savedGame: {MAX_SAVE_BYTES + 27} bytes: expected at "
                                                    rf"most {MAX_SAVE_BYTES}"):
        read(path, folder)


def test_a_member_whose_directory_lies_about_its_size_is_refused(tmp_path, folder, monkeypatch):
    """A zip whose directory understates the member's size: read as far as it says, then refused as damaged."""
    path = with_stream(tmp_path / "bad.vsav", b"!VCSK5a" + b"00" * 5000)
    real = zipfile.ZipFile.infolist

    def lying(self):
        infos = real(self)
        for info in infos:
            info.file_size = 100
        return infos

    monkeypatch.setattr(zipfile.ZipFile, "infolist", lying)
    with pytest.raises(kernel.SavedGameError, match=r"bad\.vsav: not a zip archive or a damaged one \(Bad CRC-32 "
                                                    r"for file 'savedGame'\)"):
        read(path, folder)


@pytest.mark.parametrize("stream, message", [
    (lambda t: b"!VCSKzz" + obfuscated(t)[7:], r"key b'zz' after !VCSK: expected two hex digits"),
    (lambda t: b"!VCSK5b" + obfuscated(t)[7:], r"decoded text starts with '.*': expected 'begin_save' \(a wrong "
                                               r"key"),
    (lambda t: obfuscated(t)[:-1], r"truncated: \d+ hex digits after the key: expected two per byte"),
    (lambda t: obfuscated(t)[:-400], r"truncated: the stream ends before 'end_save'"),
    (lambda t: obfuscated(t)[:30] + b"zz" + obfuscated(t)[32:], r"character 'z' at byte 30: expected hex digits"),
    (lambda t: b"hello, world", r"decoded text starts with 'hello, world'.*not a VASSAL save"),
    (lambda t: b"!VCSK00" + bytes(b ^ 0 for b in b"\xff\xfe").hex().encode(), r"not UTF-8 text at byte 0"),
])
def test_streams_that_cannot_be_decoded(tmp_path, folder, stream, message):
    path = with_stream(tmp_path / "bad.vsav", stream(good_stream()))
    with pytest.raises(kernel.SavedGameError, match=r"bad\.vsav!savedGame: " + message):
        read(path, folder)


def layout_save(tmp_path, record: str) -> Path:
    text = join_sequence(["begin_save", "", record, "end_save"], "\x1b")
    return with_stream(tmp_path / "bad.vsav", obfuscated(text))


@pytest.mark.parametrize("record, message", [
    ("bd\t", r"the bd record names no board"),
    ("bd\t-1\t0\t05\tVER\t1.0\t", r"bd record, board 1: column is -1: expected 0..255"),
    ("bd\tx\t0\t05\tVER\t1.0\t", r"bd record, board 1: column is 'x': expected a whole number 0..255"),
    ("bd\t0\t99999999999\t05\t", r"bd record, board 1: row is '99999999999': expected a whole number"),
    ("bd\t0\t0\t05\tbd\t0\t0\t05\t", r"bd record, board 2 \(05\): column 0, row 0 also holds board 05"),
    ("bd\t0\t0\t../05\t", r"bd record, board 1: board name '\.\./05': expected a VASL board name"),
    ("bd\t0\t0\t05\t1\t2\tVER\t1.0\t", r"bd record, board 1 \(05\): crop '1 2 VER 1.0': expected four whole numbers"),
    ("bd\t0\t0\t05\t1\t2\t0\t9\t", r"bd record, board 1 \(05\): crop 1 2 0 9: expected x, y >= 0 and a "
                                  r"width and height above 0"),
    ("bd\t0\t0\t05\tVER\t", r"bd record, board 1 \(05\): VER without a version"),
    ("bd\t0\t0\t05\tOVR\tx1\t", r"bd record, board 1 \(05\): OVR 'x1': expected an overlay name and two hexes"),
    ("bd\t0\t0\t05\tZOOM\t500\t", r"bd record, board 1 \(05\): ZOOM 500.0: expected a magnification 0.1..10"),
    ("bd\t0\t0\t05\tHUH\t", r"bd record, board 1 \(05\): 'HUH': expected a crop rectangle \(four whole "
                             r"numbers\), VER, OVR, SSR, ZOOM or FH"),
    ("bd\t0\t0\t", r"bd record, board 1 '0\\t0\\t': expected a column, a row and a board name"),
    ("UNMASK\t", r"no bd record: expected the board picker's layout"),
])
def test_bd_records_with_odd_numbers(tmp_path, folder, record, message):
    with pytest.raises(kernel.SavedGameError, match=r"bad\.vsav!savedGame: " + message):
        read(layout_save(tmp_path, record), folder)


def test_a_board_that_is_not_in_the_folder_is_named_with_the_folder(tmp_path, folder):
    path = write_saved_game(tmp_path / "game.vsav", [SaveBoard(0, 0, "07", "1.0")], [SavePiece("9-2", 500, 500)])
    with pytest.raises(FileNotFoundError, match=r"game\.vsav!savedGame: board '07' \(bd record, board 1\) is not in "
                                                r"the VASL boards folder '.*boards': looked for bd07 and bd07\.zip"):
        read(path, folder)
    with pytest.raises(FileNotFoundError, match=r"the VASL boards folder '.*nowhere' does not exist"):
        kernel.read_saved_game(path, tmp_path / "nowhere")


@pytest.mark.parametrize("x, message", [
    ("1000000000000", r"position x is '1000000000000': expected a whole number of pixels"),
    ("5000000", r"position x is 5000000 pixels: expected -1000000..1000000"),
    ("12.5", r"position x is '12.5': expected a whole number of pixels"),
    ("", r"position x is '': expected a whole number of pixels"),
])
def test_absurd_pixel_positions(tmp_path, folder, x, message):
    command = SavePiece("9-2", 0, 0, "ge", piece_id="42").command().replace("Main Map;0;0;0", f"Main Map;{x};0;0")
    text = join_sequence(["begin_save", join_sequence(["", command], "\x1b"), "bd\t0\t0\t05\tVER\t1.0\t", "end_save"],
                         "\x1b")
    with pytest.raises(kernel.SavedGameError, match=r"bad\.vsav!savedGame: piece 42 \('9-2'\): " + message):
        read(with_stream(tmp_path / "bad.vsav", obfuscated(text)), folder)


def test_a_far_away_piece_is_off_the_boards(tmp_path, folder):
    path = write_saved_game(tmp_path / "far.vsav", BOARD, [SavePiece("9-2", -900_000, 999_999, "ge")])
    piece = read(path, folder).pieces[0]
    assert not piece.on_board and "margin" in piece.notes[0]


def test_thousands_of_pieces_load_and_more_than_the_limit_are_refused(tmp_path, folder):
    x, y = map_pixel("G7")
    many = [SavePiece("4-6-7 1sq", x, y, "ge") for _ in range(5000)]
    game = read(write_saved_game(tmp_path / "many.vsav", BOARD, many), folder)
    assert len(game.units) == 5000 and game.state.units_in("5G7") == {"axis": 5000}
    too_many = [SavePiece("LMG", 10, 10, "ge", counter_type="common") for _ in range(MAX_SAVE_PIECES + 1)]
    with pytest.raises(kernel.SavedGameError, match=rf"too\.vsav!savedGame: more than {MAX_SAVE_PIECES} pieces"):
        read(write_saved_game(tmp_path / "too.vsav", BOARD, too_many), folder)


def test_pieces_past_their_limits(tmp_path, folder):
    piece = SavePiece("9-2", 500, 500, "ge", piece_id="77").command()
    _, _, ident, rest = piece.split("/", 3)
    type_text, state_text = rest.split("/", 1)
    for _ in range(MAX_PIECE_TRAITS):
        type_text = join_sequence(["mark;X", type_text], "\t")
        state_text = join_sequence(["1", state_text], "\t")
    deep = "+/" + join_sequence(["77", type_text, state_text], "/")
    for command, message in ((deep, rf"piece 77: more than {MAX_PIECE_TRAITS} traits in its type"),
                             ("+/78/", r"piece 78: an add command without a type"),
                             ("+/79/mark;X/1", r"piece 79: its innermost trait is 'mark': expected the basic piece"),
                             ("+/80/" + "x" * 300_000, r"piece 1: its command has 300005 characters: expected at most 100000")):
        text = join_sequence(["begin_save", join_sequence(["", command], "\x1b"), "bd\t0\t0\t05\tVER\t1.0\t",
                              "end_save"], "\x1b")
        with pytest.raises(kernel.SavedGameError, match=r"bad\.vsav!savedGame: " + message):
            read(with_stream(tmp_path / "bad.vsav", obfuscated(text)), folder)


def test_groups_nested_too_deep(tmp_path, folder):
    inner = "x"
    for _ in range(MAX_SAVE_NESTING + 2):
        inner = join_sequence(["", inner, "y"], "\x1b")
    text = join_sequence(["begin_save", inner, "end_save"], "\x1b")
    with pytest.raises(kernel.SavedGameError, match=rf"command groups nested more than {MAX_SAVE_NESTING} deep"):
        read(with_stream(tmp_path / "bad.vsav", obfuscated(text)), folder)


@pytest.mark.slow
def test_the_cli_gives_one_line_and_leaves_nothing(tmp_path, folder):
    bad = with_stream(tmp_path / "bad.vsav", b"!VCSK5b" + obfuscated(good_stream())[7:])
    out = tmp_path / "fire.png"
    done = subprocess.run([sys.executable, "-m", "kernel.cli", "fire", "--map", str(bad), "--vasl-boards", str(folder),
                           "--from", "5G7", "--png", str(out)], capture_output=True, text=True)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hexkernel fire: error: ") and "bad.vsav!savedGame: decoded" in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.vsav"]   # no picture, no temporary file
    missing = subprocess.run([sys.executable, "-m", "kernel.cli", "info", "--map", str(tmp_path / "none.vsav")],
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "saved game" in missing.stderr and "does not exist" in missing.stderr
