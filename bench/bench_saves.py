"""VASL saved games: loading the public saves, ``hexkernel info`` and a ``fire`` picture of a unit, and memory.

Targets: each public save (``Hill 621``, three boards; ``The Streets Of
Stalingrad``, one) loads in at most 1 s after ``warm`` with its boards on
disk; ``hexkernel info`` on them takes at most 2 s as a whole command; a
``fire`` picture of a unit of a save over the boards' art at most 2 s as a
whole command; a save costs at most 50 MB of memory beyond the boards it uses.

Peers measured in the same run: loading the same boards as a plain scenario
(which imports them from their pixels each time, as ``kernel.load`` of a
scenario does), and loading the save with its boards imported anew (the
on-disk cache off: a save's first load); ``hexkernel info`` on the bundled
default scenario; for the picture, the same command from the unit's
Location on a VASL board loaded alone (board 1: the same size and art; the
real saves' only units on a board lie on board 00, which has no number of
its own).  Memory is the peak traced by ``tracemalloc`` while a save is read,
less the peak of composing and compiling its boards alone, for the public
saves and for saves at the limits (10,000 pieces in 16 MiB of stream; pieces
of the most traits, as many as 16 MiB holds; the most pieces in one stack);
the peak of decoding the stream and reading the pieces alone is reported
beside it (not in short mode, where it would double the test's time).  The load of the
largest public save is timed with one core kept busy too.
Skipped without ``../shared/vasl``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc
import warnings
from pathlib import Path

import pytest

import kernel
from bench.conftest import FIGURES, RATIOS, TIMINGS, measure
from tests.shared_data import needs, vasl_folder

VASL = vasl_folder()
SAVES = VASL / "saves"
HILL = SAVES / "Hill 621 (Scenario E).vsav"
STALINGRAD = SAVES / "The Streets Of Stalingrad (Scenario C).vsav"
FULL = SAVES / "full.vsav"
pytestmark = needs("vasl", "saves", "Hill 621 (Scenario E).vsav")

SAVE_BOARDS = {"Hill 621": (HILL, ("bd02", "bd04", "bd03")), "Stalingrad": (STALINGRAD, ("bd01",))}


def quietly(function, *args, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernel.VaslImportWarning)
        return function(*args, **options)


def scenario_of(folder: Path, name: str, boards) -> Path:
    path = folder / f"{name.replace(' ', '_')}.scenario"
    path.write_text("[scenario]\ntitle = boards of a save\nruleset = asl\n[boards]\n"
                    + "".join(f"{row} 0 {VASL / board}\n" for row, board in enumerate(boards)))
    return path


def loaded(label: str) -> str:
    return f"load the save {label} (boards on disk)"


def first_loaded(label: str) -> str:
    return f"load the save {label}, boards imported anew (first load)"


def plain_loaded(label: str) -> str:
    return f"load {label}'s boards as a plain scenario"


@pytest.mark.parametrize("name", list(SAVE_BOARDS))
def test_load_a_public_save(benchmark, name):
    save, _ = SAVE_BOARDS[name]
    quietly(kernel.read_saved_game, save, VASL)   # the boards on disk, imported once (the cache after warm)
    seconds = measure(benchmark, loaded(name), lambda: quietly(kernel.read_saved_game, save, VASL), rounds=5)
    FIGURES[f"load the save {name}, s (boards on disk; target <= 1)"] = (seconds, "s")
    RATIOS.append((loaded(name), plain_loaded(name), f"load of {name} / its boards as a plain scenario", 1.0))
    RATIOS.append((first_loaded(name), plain_loaded(name), f"first load of {name} / its boards as a plain scenario",
                   None))


@pytest.mark.parametrize("name", list(SAVE_BOARDS))
def test_load_the_same_boards_as_a_plain_scenario(benchmark, name, tmp_path):
    plain = scenario_of(tmp_path, name, SAVE_BOARDS[name][1])
    measure(benchmark, plain_loaded(name), lambda: quietly(kernel.load, plain), rounds=3)


@pytest.mark.parametrize("name", list(SAVE_BOARDS))
def test_first_load_of_a_public_save(benchmark, name, monkeypatch):
    monkeypatch.setenv("HEXKERNEL_NUMBA_CACHE", "0")   # the on-disk cache off: the boards imported anew
    save, _ = SAVE_BOARDS[name]
    measure(benchmark, first_loaded(name), lambda: quietly(kernel.read_saved_game, save, VASL), rounds=3)


def command(*args):
    environment = dict(os.environ, HEXKERNEL_VASL_BOARDS=str(VASL))
    return lambda: subprocess.run([sys.executable, "-m", "kernel.cli", *map(str, args)], check=True,
                                  capture_output=True, env=environment)


INFO_PEER = "fresh process: hexkernel info --map default (whole run)"


def test_info_of_the_default_scenario(benchmark):
    measure(benchmark, INFO_PEER, command("info"), rounds=3)


@pytest.mark.parametrize("name", list(SAVE_BOARDS))
def test_info_on_a_public_save(benchmark, name):
    save, _ = SAVE_BOARDS[name]
    label = f"fresh process: hexkernel info --map {name} (whole run)"
    seconds = measure(benchmark, label, command("info", "--map", save), rounds=3)
    FIGURES[f"hexkernel info on {name}, s (whole command; target <= 2)"] = (seconds, "s")
    RATIOS.append((label, INFO_PEER, f"hexkernel info on {name} / on the default scenario", 3.0))


FIRE = "fresh process: hexkernel fire --map full.vsav --from '6-4-8 Esq' --png (whole run)"
FIRE_PEER = "fresh process: hexkernel fire --map bd01 --from 1C2 --png (whole run)"


def test_fire_picture_of_a_unit(benchmark, tmp_path):
    picture = tmp_path / "fire.png"
    seconds = measure(benchmark, FIRE, command("fire", "--map", FULL, "--from", "6-4-8 Esq", "--png", picture,
                                               "--force"), rounds=3)
    FIGURES["fire picture of a unit of a save, s (whole command; target <= 2)"] = (seconds, "s")
    RATIOS.append((FIRE, FIRE_PEER, "fire picture of a save's unit / of a VASL board's hex", 2.0))
    assert picture.stat().st_size > 10_000


def test_fire_picture_of_a_vasl_boards_hex(benchmark, tmp_path):
    picture = tmp_path / "fire.png"
    measure(benchmark, FIRE_PEER, command("fire", "--map", VASL / "bd01", "--from", "1C2", "--png", picture,
                                          "--force"), rounds=3)


def peak_megabytes(function) -> float:
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def boards_alone(save):
    """Compose and compile a save's boards without its pieces (the boards' own memory)."""
    from kernel.importers.vasl.save_archive import read_save_text
    from kernel.importers.vasl.save_map import save_map
    from kernel.importers.vasl.save_stream import board_records, commands

    stream = commands(read_save_text(save), str(save))
    records = board_records([c for c in stream if c.startswith("bd\t")][-1], str(save))
    del stream
    return lambda: quietly(save_map, records, VASL, str(save), str(save))


def stream_and_pieces(save):
    """Decode a save's stream and read its pieces, without its boards."""
    from kernel.importers.vasl.save_archive import read_save_text
    from kernel.importers.vasl.save_stream import commands
    from kernel.importers.vasl.saved_game import _read_pieces

    return lambda: _read_pieces(commands(read_save_text(save), str(save)), str(save))


def widest_pieces(path: Path, traits: int) -> Path:
    """A save of pieces of ``traits`` traits each (every level of nesting one more backslash a tab), as many as
    the stream's limit holds: reading a piece costs its traits times its length."""
    import zipfile

    from kernel._limits import MAX_SAVE_BYTES
    from kernel.importers.vasl.save_stream import split_sequence
    from kernel.importers.vasl.save_writer import SavePiece, join_sequence, obfuscated

    ident, type_text, state_text = split_sequence(SavePiece("4-6-7 1sq", 900, 500, "ge").command()[2:], "/")
    for _ in range(traits - 6):
        type_text = join_sequence(["mark;Marker" + "y" * 40, type_text], "\t")
        state_text = join_sequence(["1", state_text], "\t")
    one = join_sequence(["0", type_text, state_text], "/")
    count = (MAX_SAVE_BYTES // 2 - 1000) // (len(one) + 10)
    pieces = ["+/" + join_sequence([str(k), type_text, state_text], "/") for k in range(count)]
    text = join_sequence(["begin_save", join_sequence(["", *pieces], "\x1b"), "bd\t0\t0\t01\tVER\t6.1\t",
                          "end_save"], "\x1b")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("savedGame", obfuscated(text))
    return path


def one_stack(path: Path) -> Path:
    """A save of as many pieces as a save holds, all in one stack (the stacks may list no more pieces than
    that): reading a stack costs its length."""
    from kernel._limits import MAX_SAVE_PIECES
    from kernel.importers.vasl.save_writer import SaveBoard, SavePiece, write_saved_game

    pieces = [SavePiece("4-6-7 1sq", 900, 500, "ge") for _ in range(MAX_SAVE_PIECES - 1)]
    return write_saved_game(path, [SaveBoard(0, 0, "01", "6.1")], pieces, [pieces])


def test_memory_beyond_the_boards(tmp_path, request):
    short = request.config.getoption("benchmark_disable")   # short mode: only the asserted bound, not the figures beside
    from kernel._limits import MAX_PIECE_TRAITS
    from kernel.importers.vasl.save_writer import SaveBoard, SavePiece, write_saved_game

    many = write_saved_game(tmp_path / "many.vsav", [SaveBoard(0, 0, "01", "6.1")],
                            [SavePiece("4-6-7 1sq", 900 + k % 700, 500 + k % 600, "ge", label="x" * 560)
                             for k in range(10_000)])
    wide = widest_pieces(tmp_path / "wide.vsav", MAX_PIECE_TRAITS)
    stacked = one_stack(tmp_path / "stacked.vsav")
    for name, save in (("Hill 621", HILL), ("Stalingrad", STALINGRAD), ("10,000 pieces in 16 MiB", many),
                       (f"pieces of {MAX_PIECE_TRAITS} traits in 16 MiB", wide),
                       ("9,999 pieces in one stack", stacked)):
        quietly(kernel.read_saved_game, save, VASL)
        started = time.perf_counter()
        quietly(kernel.read_saved_game, save, VASL)
        seconds = time.perf_counter() - started
        whole = peak_megabytes(lambda: quietly(kernel.read_saved_game, save, VASL))
        boards = peak_megabytes(boards_alone(save))
        FIGURES[f"memory of {name} beyond its boards, MB (traced peak; target <= 50)"] = (whole - boards, "MB")
        if not short:
            FIGURES[f"memory of reading {name}'s stream and pieces alone, MB (traced peak)"] = (
                peak_megabytes(stream_and_pieces(save)), "MB")
        FIGURES[f"load of {name}, s"] = (seconds, "s")
        assert whole - boards < 50, f"{name}: {whole - boards:.1f} MB beyond its boards"


BUSY = "load the save Hill 621 (boards on disk), one core busy"


def test_load_with_a_core_busy(benchmark):
    from bench.bench_fields import busy_core

    quietly(kernel.read_saved_game, HILL, VASL)
    spinner = busy_core()
    try:
        measure(benchmark, BUSY, lambda: quietly(kernel.read_saved_game, HILL, VASL), rounds=5)
    finally:
        spinner.kill()
        spinner.wait()
    RATIOS.append((BUSY, loaded("Hill 621"), "load of Hill 621 with a core busy / idle", None))
