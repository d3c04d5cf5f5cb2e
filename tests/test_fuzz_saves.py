"""Fuzzing VASL saved games: damaged archives, streams and commands either load or fail with one clear line.

Each input is a valid save (written by the project's encoder on a synthetic
board) damaged by hypothesis: bytes of the archive flipped or cut, the
decoded stream's characters replaced, inserted or deleted before it is
obfuscated again, or a piece's fields (position, traits, stack) replaced.
Every one must give a :class:`~kernel.SavedGame` or a ``SavedGameError`` /
``FileNotFoundError`` whose message is one line naming the file, never
another exception.
"""

from __future__ import annotations

import warnings
import zipfile

import pytest
from hypothesis import given, strategies as st

import kernel
from kernel.importers.vasl.save_writer import SaveBoard, SavePiece, obfuscated, save_text
from tests.fuzzing import fuzz, tried
from tests.vasl_saves import map_pixel, write_boards

BOARDS = [SaveBoard(0, 0, "05", "1.0")]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_boards(tmp_path_factory.mktemp("vasl") / "boards", names=("05",))


def stream() -> str:
    level = SavePiece("Building Level 1", *map_pixel("C3"), "", counter_type="common")
    leader = SavePiece("8-1", *map_pixel("C3"), "ge", piece_id="11", label="leader")
    pieces = [level, leader, SavePiece("White +3 Smoke", *map_pixel("K6"), "", counter_type="common"),
              SavePiece("T-34 M43", *map_pixel("M6"), "ru", hindrance=True, layer_names=("T-34 M43", "+ BU"))]
    return save_text(BOARDS, pieces, [[level, leader]])


STREAM = stream()


def outcome(path, folder, name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        try:
            game = kernel.read_saved_game(path, folder)
        except (kernel.SavedGameError, FileNotFoundError) as error:
            message = str(error)
            assert "\n" not in message and str(path) in message, message
            tried(name, False)
            return
    assert game.board is not None and all(p.on_board or p.notes for p in game.pieces)
    tried(name, True)


def write(path, data: bytes):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("savedGame", data)
    return path


@fuzz(60)
@given(data=st.data())
def test_fuzz_damaged_streams(tmp_path_factory, folder, data):
    text = list(STREAM)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text) - 1))
        action = data.draw(st.sampled_from(("replace", "insert", "delete")))
        char = data.draw(st.sampled_from(["\t", "\x1b", "/", ";", "\\", "'", ",", "+", "0", "9", "-", "x", "é",
                                          "bd\t", "+/"]))
        if action == "replace":
            text[at] = char
        elif action == "insert":
            text.insert(at, char)
        else:
            del text[at]
    path = write(tmp_path_factory.mktemp("f") / "game.vsav", obfuscated("".join(text)))
    outcome(path, folder, "damaged streams")


@fuzz(40)
@given(data=st.data())
def test_fuzz_damaged_archives(tmp_path_factory, folder, data):
    path = tmp_path_factory.mktemp("f") / "game.vsav"
    write(path, obfuscated(STREAM))
    raw = bytearray(path.read_bytes())
    if data.draw(st.booleans()):
        raw = raw[:data.draw(st.integers(0, len(raw)))]
    for _ in range(data.draw(st.integers(0, 6))):
        if raw:
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    path.write_bytes(bytes(raw))
    outcome(path, folder, "damaged archives")


@fuzz(40)
@given(x=st.one_of(st.integers(-2_000_000, 2_000_000), st.text(max_size=12)),
       y=st.one_of(st.integers(-2_000_000, 2_000_000), st.text(max_size=12)),
       map_name=st.sampled_from(["Main Map", "Map0", "null", "Casualties", ""]),
       name=st.text(max_size=30), nationality=st.text(max_size=4))
def test_fuzz_piece_fields(tmp_path_factory, folder, x, y, map_name, name, nationality):
    piece = SavePiece(name or "x", 0, 0, nationality, map_name=map_name, piece_id="5")
    command = piece.command().replace(f"{map_name};0;0;0" if map_name else ";0;0;0", f"{map_name};{x};{y};0", 1)
    text = save_text(BOARDS, [SavePiece("9-2", *map_pixel("G7"), "ge")])
    text = text.replace("begin_save\x1b", "begin_save\x1b" + command.replace("\x1b", "") + "\x1b", 1)
    path = write(tmp_path_factory.mktemp("f") / "game.vsav", obfuscated(text))
    outcome(path, folder, "piece fields")
