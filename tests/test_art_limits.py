"""The depiction model's art is bounded up front: a board whose art cannot lie at whole pixels, or a map of
too many pixels, is refused before any pixel array is allocated."""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import pytest

import kernel
import kernel.maps.art as art_module
from kernel.maps.art import LocalArt, PixelClass
from kernel.maps.specs import BoardPlacement, BoardSpec


def test_a_board_off_whole_pixels_fails_before_the_map_is_rasterised():
    board = kernel.random_board("asl", 51, 200, seed=2)
    spec = BoardSpec("tall.board", "board", "9", "asl", "geomorphic", "flat", 51, 200)
    spec = replace(spec, art=LocalArt((PixelClass(),), np.zeros((4, 4), np.uint8), np.zeros((4, 4), np.int8)))
    board.placements = (BoardPlacement(spec, 0, 0, False, "9", 3),)
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"tall.board: a 51x200 board lies at pixel offset \(0.0, 0.0\): expected "
                                         r"whole pixels \(its art would be 2812.5 x 12900.0 pixels; a column count "
                                         r"of 4k \+ 1, such as 33, and an even row count give whole pixels\)"):
        art_module.board_art(board)
    assert time.perf_counter() - start < 2.0  # not after the map's 36 million pixels


def test_a_map_of_too_many_pixels_is_refused(monkeypatch):
    board = kernel.random_board("asl", 8, 6, seed=3)
    monkeypatch.setattr(art_module, "MAX_ART_PIXELS", 1000)
    with pytest.raises(ValueError, match=r"the map's art would be \d+ x \d+ = [\d,]+ pixels: expected at most 1,000 "
                                         r"for model='depiction'"):
        art_module.board_art(board)
    with pytest.raises(ValueError, match=r"expected at most 1,000 for model='depiction'"):
        kernel.los_matrix(board, model="depiction")


@pytest.mark.slow   # the command line in subprocesses
def test_a_vasl_board_off_whole_pixels_imports_without_its_art_and_draws(tmp_path):
    """A VASL header of 32 columns (art 1743.75 pixels wide) imported, and then 'expected whole pixels' came
    as a traceback from info --png, fire, los and move."""
    import subprocess
    import sys

    from tests.test_vasl import BOARD_METADATA
    from tests.test_vasl_import_bounds import TABLE, random_los_data

    board = tmp_path / "bd05"
    board.mkdir()
    (board / "LOSData").write_bytes(random_los_data(32, 10))
    (board / "BoardMetadata.xml").write_text(BOARD_METADATA.format(buildings="").replace('width="33"', 'width="32"'))
    (tmp_path / "SharedBoardMetadata.xml").write_text(TABLE)
    with pytest.warns(kernel.VaslImportWarning, match=r"a 32x10 board's art would be 1743.75 x 645.0 pixels, not "
                                                      r"whole ones .*: its art is left out"):
        spec = kernel.read_vasl_board(board)
    assert spec.art is None
    for arguments in (["info", "--png", tmp_path / "i.png"], ["fire", "--from", "5I5", "--png", tmp_path / "f.png"],
                      ["los", "5I5", "5K5", "--depiction", "--png", tmp_path / "l.png"],
                      ["move", "--from", "5I5", "--png", tmp_path / "m.png"]):
        result = subprocess.run([sys.executable, "-m", "kernel.cli", *map(str, arguments), "--map", str(board)],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0 and "Traceback" not in result.stderr, (arguments, result.stderr[-800:])
        assert all(line.startswith(f"hexkernel {arguments[0]}: note: ") for line in result.stderr.splitlines())
        assert (tmp_path / arguments[-1]).stat().st_size > 1000
