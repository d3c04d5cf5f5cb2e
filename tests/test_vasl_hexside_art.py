"""The exact segment/hexside test that sorts VASL's B9.2 blocks (``bench/vasl_hexside_art.py``)."""

from __future__ import annotations

import pytest

from bench.vasl_hexside_art import segment_meets_hexside


@pytest.mark.parametrize(("segment", "hexside", "expected"), [
    (((0, 0), (6, 0)), ((3, -1), (3, 1)), "crosses"),
    (((0, 0), (6, 0)), ((1, 0), (3, 0)), "along"),
    (((0, 0), (6, 0)), ((5, 0), (9, 0)), "along"),     # overlaps past the end
    (((0, 0), (6, 0)), ((6, 0), (8, 0)), "vertex"),    # collinear, meets at the end point only
    (((0, 0), (6, 0)), ((7, 0), (9, 0)), "apart"),     # collinear, beyond the end
    (((0, 0), (6, 0)), ((3, 0), (4, 1)), "vertex"),
    (((0, 0), (6, 0)), ((3, 1), (4, 2)), "apart"),
    (((0, 0), (6, 2)), ((3, 1), (3, 3)), "vertex"),    # the segment passes through the hexside's end
    (((0, 0), (6, 2)), ((3, 0), (3, 2)), "crosses"),
])
def test_segment_meets_hexside(segment, hexside, expected):
    assert segment_meets_hexside(*segment, *hexside) == expected
    assert segment_meets_hexside(*segment[::-1], *hexside[::-1]) == expected
