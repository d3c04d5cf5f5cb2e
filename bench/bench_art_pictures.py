"""Picture benchmarks over a VASL board's art: board 4 of ``../shared/vasl`` (skipped without it), drawn
and written as PNG, warm, with the depiction model's LOS computed in the call.  Target: each picture
<= 0.8 s warm; the short mode (``make test``) only prints the figures.
"""

from __future__ import annotations

import pytest

import kernel
from bench.bench_pictures import _write
from bench.conftest import measure


@pytest.fixture(scope="module")
def board_4():
    """VASL board 4 with its art, from ``../shared/vasl`` (skipped where the clone has none beside it)."""
    from bench.vasl_engine import vasl_folder

    folder = vasl_folder() / "bd04"
    if not folder.is_dir():
        pytest.skip("no VASL board 4 beside the clone (../shared/vasl/bd04)")
    return kernel.load(folder)


ART_PICTURES = {
    "board": lambda b: kernel.board_picture(b),
    "depiction fire": lambda b: kernel.fire_picture(b, kernel.field_of_fire(b, "4L5", model="depiction"),
                                                    model="depiction"),
    "depiction los": lambda b: kernel.los_picture(b, kernel.los(b, "4I6", "4P6", model="depiction")),
}


@pytest.mark.parametrize("name", list(ART_PICTURES))
def test_art_picture_png(benchmark, board_4, name):
    """A picture of VASL board 4 over its art (target <= 0.8 s warm), the LOS computed in the call."""
    make = ART_PICTURES[name]
    measure(benchmark, f"{name} picture + PNG, VASL board 4 with its art (target <= 0.8 s)",
            lambda: _write(make(board_4), "png"), rounds=2)
