"""The README's "API tour" and "Game loop" code run as written, and say what the API gives."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import numpy as np
import pytest

import kernel

README = Path(__file__).resolve().parent.parent / "README.md"


def section_code(heading: str) -> str:
    """The ```python block of the README section ``## heading`` (exactly one)."""
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    blocks = re.findall(r"```python\n(.*?)```", text[start:end if end >= 0 else None], re.S)
    assert len(blocks) == 1, f"{heading}: {len(blocks)} python blocks"
    return blocks[0]


def run(code: str) -> dict:
    names: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, str(README), "exec"), names)  # noqa: S102 - the README's own code
    return names


def test_the_api_tour_runs_as_written():
    names = run(section_code("API tour"))
    board, result = names["board"], names["result"]
    assert (result.blocked_at, result.blocked_at_name, result.reason, result.reason_name) == (
        784, "72G6", 4, "blind hex")   # the values the tour's comments give
    assert names["pairs"].visible.shape == (3, 2)
    assert names["fire"].shape == (len(board),) and names["rows"].shape == (3, len(board))
    field = names["field"]
    assert field.path_to("71E4") == ["71I4", "71H3", "71G4", "71F3-71F4", "71E4"]
    assert field.cost_at("71P5h1") == np.inf and field.path_to("71P5h1") is None


def test_the_game_loop_runs_as_written():
    names = run(section_code("Game loop"))
    board, state = names["board"], names["state"]
    assert names["seen"].shape == names["watched"].shape == (2, 2)
    assert names["rows"].shape == (2, len(board))
    assert names["threat"].sources.tolist() == state.units_of("axis").tolist()
    held = names["held"]
    assert held.version == state.version and names["recomputed"] == 0   # as its comment says
    assert np.array_equal(held.matrix, kernel.los_matrix(board, counters=state))
    assert names["path"][-1] == board.names[names["nearest"]]   # a path within the allowance exists
    plain = kernel.movement_field(board, "71J4", unit="infantry", allowance=4, counters=state)
    assert plain.cost_at(names["path"][-1]) <= 4
    assert names["field"].reachable.dtype == np.bool_ and len(str(names["move"])) < 160


@pytest.mark.parametrize("heading", ["API tour", "Game loop"])
def test_the_sections_use_the_one_vocabulary(heading):
    """No 0.1 names in the code a user copies."""
    code = section_code(heading)
    for old in ("level_a", "level_b", "enemy_levels", "blocked_at_index", "blocked_at_names(", "reason_names(",
                "smoke=smoke", '"infantry", 4'):
        assert old not in code, f"{heading}: {old}"
