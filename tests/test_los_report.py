"""The LOS report of ``hexkernel los --explain``: the steps that matter, the ends, the blind-hex arithmetic."""

from __future__ import annotations

import numpy as np
import pytest

import kernel
from kernel.line_of_sight.report import blind_arithmetic, los_report


@pytest.fixture(scope="module")
def board():
    return kernel.load("default")


def test_golden_blind_hex_report(board):
    result = kernel.los(board, "71I4", "72M6")
    text = los_report(board, result)
    lines = text.splitlines()
    assert lines[0] == result.headline and text == result.explain()
    assert lines[1] == "  viewer 71I4: ground level 3; target 72M6: ground level 0; range 36"
    # 72K6 (woods, range 2 from the target) is the blind hex that decides; the A6.4 numbers are written out
    assert "72K6     interior          blind [A6.4 blind hex]  (ground level 0; range 34 from the viewer, 2 to " \
           "the target)" in text
    assert "higher end 71I4 at level 3, lower end 72M6 at level 0; rS = 34, rT = 2" in text
    assert "obstacle top O = level 1; blind zone = max(2·O + ⌊rS/5⌋ − S − T + 1, 1) = max(2 + 6 − 3 − 0 + 1, 1) " \
           "= 6 hexes; rT = 2 ≤ 6: blind" in text
    assert not any("no effect" in line for line in lines[2:-1]) and lines[-1].endswith(
        "more steps with no effect; all_steps=True or --all-steps lists them)")


def test_all_steps_lists_every_step(board):
    result = kernel.los(board, "71I4", "72M6")
    every = los_report(board, result, all_steps=True)
    assert every.count("no effect") == sum(1 for s in result.steps if s.effect == "none" and not s.hindrance)
    assert len(los_report(board, result).splitlines()) < len(every.splitlines())


def test_upper_location_ends(board):
    text = los_report(board, kernel.los(board, "71P5h2", "71I9"))
    assert "viewer 71P5h2: ground level 0, building level 2; target 71I9: ground level 0" in text


@pytest.mark.parametrize("seed", [21, 22])
def test_blind_arithmetic_confirms_every_interior_blind_step(board, seed):
    """The written arithmetic must agree with the kernel for every blind interior step of random LOS."""
    rng = np.random.default_rng(seed)
    checked = 0
    for a, b in rng.integers(0, len(board), size=(3000, 2)):
        result = kernel.los(board, int(a), int(b))
        for step in result.steps:
            if step.effect == "blind" and step.kind == "interior":
                assert ": blind" in blind_arithmetic(board, result, step.hex), (result.viewer, result.target, step)
                checked += 1
    assert checked > 20


def test_a_hindrance_step_reads_as_a_hindrance(board):
    sources = np.arange(0, len(board) - 3, 7)
    pairs = kernel.los_pairs(board, sources, sources + 3)
    k = int(np.flatnonzero(pairs.visible & (pairs.hindrance > 0))[0])
    result = kernel.los(board, board.names[sources[k]], board.names[sources[k] + 3])
    hindered = [s for s in result.steps if s.hindrance]
    assert hindered and all(s.effect_text == "hindrance" for s in hindered)
    for text in (result.explain(), los_report(board, result)):
        assert "hindrance +" in text and "no effect +" not in text


def test_explain_is_the_cli_s_report(board):
    """explain() printed every step (35, 33 of them "no effect") with no line for the ends and no A6.4
    arithmetic, where the CLI's --explain gave the report: now both give the report."""
    from kernel.cli.app import main
    import contextlib
    import io

    result = kernel.los(board, "71I4", "72M6")
    text = result.explain()
    assert "viewer 71I4: ground level 3; target 72M6: ground level 0; range 36" in text
    assert "A6.4: higher end 71I4 at level 3" in text and "no effect" not in text.splitlines()[-2]
    assert len(text.splitlines()) < len(result.steps)
    assert result.explain(all_steps=True).count("no effect") == 33
    for argv, expected in ((["los", "71I4", "72M6", "--explain"], text),
                           (["los", "71I4", "72M6", "--all-steps"], result.explain(all_steps=True))):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main([*argv, "--map", "default"])
        assert out.getvalue().strip() == expected
