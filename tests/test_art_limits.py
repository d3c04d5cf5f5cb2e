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
