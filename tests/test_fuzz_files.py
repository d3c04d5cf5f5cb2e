"""Fuzz suite: coordinates, board, overlay and scenario files, and counters files.

Each test feeds hypothesis-made inputs (derandomized, see ``tests/fuzzing.py``;
``HEXKERNEL_FUZZ=long`` for 20 times as many) and asserts that the reader
either refuses the input with one of its documented exception types, or
accepts it and then the kernels give the same answers as the slow references
of ``tests/reference/`` (LOS: :func:`reference_los`; movement:
:func:`reference_movement`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import kernel
from kernel._limits import MAX_BUILDING_LEVELS, MAX_LEVEL, MIN_LEVEL
from kernel.cli.common import read_counters
from kernel.cli.errors import UserError
from kernel.grid.coordinates import format_coordinate, parse_coordinate
from kernel.maps.bundled import data_dir
from kernel.maps.specs import BoardFileError
from tests.fuzzing import fuzz, tried
from tests.reference.los_reference import reference_los
from tests.reference.movement_reference import reference_movement

#: What a file reader may raise (BoardFileError is a ValueError): nothing else.
READER_ERRORS = (BoardFileError, FileNotFoundError, ValueError)


def agree_with_references(board, seed: int, pairs: int = 6, counters=None) -> None:
    """LOS of a few seeded pairs (and one movement field) equal to the references' on an accepted board."""
    rng = np.random.default_rng(seed)
    n = len(board)
    a = rng.integers(0, n, pairs)
    b = rng.integers(0, n, pairs)
    level_a = np.array([int(rng.integers(0, board.top_level[h] + 1)) for h in a], np.int64)
    level_b = np.array([int(rng.integers(0, board.top_level[h] + 1)) for h in b], np.int64)
    fast = kernel.los_pairs(board, a, b, levels=level_a, target_levels=level_b, counters=counters)
    as_dict = None if counters is None else {"smoke": counters.smoke, "smoke_height": counters.smoke_height,
                                             "vehicles": counters.vehicles, "units": counters.units}
    for k in range(pairs):
        slow = reference_los(board, int(a[k]), int(b[k]), int(level_a[k]), int(level_b[k]), as_dict, 0)
        got = (bool(fast.visible[k]), int(fast.hindrance[k]), int(fast.cover[k]))
        assert got == (slow["visible"], slow["hindrance"], slow["cover"]), (board.names[a[k]], board.names[b[k]])
    start = int(rng.integers(0, n))
    unit = board.ruleset.unit_classes[0]
    field = kernel.movement_field(board, start, unit=unit)
    assert np.array_equal(field.cost, reference_movement(board, [start], unit)["cost"])


# ---------------------------------------------------------------- coordinates

COORDINATE_TEXT = st.one_of(
    st.text(alphabet="0123456789oOhHABCDEFGIZabz-/:ca. _\t\u0660\uff11", max_size=14),
    st.from_regex(r"\A(Bridge/)?[0-9]{0,4}o?[A-Z]{1,3}[0-9]{0,4}(h-?[0-9]{1,3})?\Z"),
    st.text(max_size=12),
)


@pytest.fixture(scope="module")
def default_board():
    return kernel.load("default")


@fuzz(1500)
@given(text=COORDINATE_TEXT)
def test_fuzz_coordinates(default_board, text):
    board = default_board
    accepted = False
    try:
        parsed = parse_coordinate(text)
        assert parse_coordinate(format_coordinate(parsed)) == parsed
        accepted = True
    except ValueError:
        pass
    try:
        index = board.index(text)
        assert board.index(board.names[index]) == index
        assert text.replace("o", "") == board.names[index] or board.overlay[index] is not None or \
            parse_coordinate(text) is not None
        accepted = True
    except (KeyError, ValueError):
        pass
    try:
        hex_index, level = board.location(text)
        assert 0 <= level <= board.top_level[hex_index]
        accepted = True
    except (KeyError, ValueError):
        pass
    tried("coordinates", accepted)


# ---------------------------------------------------------------- board files, made to be mostly valid

@st.composite
def board_files(draw):
    ruleset = draw(st.sampled_from(["asl", "valor-victory", "ccn"]))
    rs = kernel.maps.rulesets.load_ruleset(ruleset)
    columns = draw(st.integers(1, 6))
    rows = draw(st.integers(1, 5))
    layout = draw(st.sampled_from(["rectangular", "staggered"] + (["geomorphic"] if ruleset == "asl" else [])))
    level_range = st.integers(MIN_LEVEL, MAX_LEVEL) if draw(st.booleans()) else st.integers(-1, 3)
    lines = ["[board]", f"id = {draw(st.integers(1, 999))}", f"ruleset = {ruleset}", f"layout = {layout}",
             f"columns = {columns}", f"rows = {rows}", f"default_level = {draw(level_range)}", "[hexes]"]
    letters = "ABCDEF"
    spec = kernel.maps.specs.BoardSpec("", "board", "1", ruleset, layout, "flat", columns, rows)
    cells = list(spec.cells())
    chosen = draw(st.lists(st.sampled_from(cells), max_size=12, unique=True))
    if draw(st.integers(0, 9)) == 0:                     # now and then a hex off the board, or listed twice
        chosen.append(draw(st.sampled_from(cells + [(0, rows + 1), (columns - 1, 0)])))
    for column, number in chosen:
        terrain = draw(st.lists(st.sampled_from(rs.terrain_names), max_size=2, unique=True))
        multi = any(rs.terrain_multi_level[rs.terrain_index(t)] for t in terrain)
        option = f" levels={draw(st.integers(1, MAX_BUILDING_LEVELS))}" if multi and draw(st.booleans()) else ""
        lines.append(f"{letters[column]}{number} {draw(level_range)} {' '.join(terrain) or '.'}{option}")
    lines.append("[hexsides]")
    for column, number in draw(st.lists(st.sampled_from(cells), max_size=6, unique=True)):
        direction = draw(st.sampled_from([0, 1, 2] if draw(st.integers(0, 9)) else [0, 1, 2, 3, 4, 5]))
        features = draw(st.lists(st.sampled_from(rs.hexside_names), min_size=1, max_size=2, unique=True))
        lines.append(f"{letters[column]}{number}:{direction} {' '.join(features)}")
    return "\n".join(lines) + "\n"


@fuzz(60)
@given(text=board_files(), seed=st.integers(0, 2**16))
def test_fuzz_generated_board_files(tmp_path, text, seed):
    path = tmp_path / "fuzz.board"
    path.write_text(text, encoding="utf-8")
    try:
        board = kernel.load(path)
    except READER_ERRORS as error:
        assert str(path) in str(error)
        tried("generated board files", False)
        return
    tried("generated board files", True)
    agree_with_references(board, seed)


# ---------------------------------------------------------------- mutated real files

BOARD_71 = (data_dir() / "boards" / "71.board").read_text(encoding="utf-8")
SCENARIO = (data_dir() / "scenarios" / "default.scenario").read_text(encoding="utf-8")
OVERLAYS = sorted((data_dir() / "overlays").glob("*.overlay"))
OVERLAY = OVERLAYS[0].read_text(encoding="utf-8") if OVERLAYS else ""

TOKENS = st.one_of(st.integers(-2**40, 2**40).map(str), st.sampled_from(
    ["0", "-0", "00", "071", "1000", "16384", "32767", "40000", "99999999999", "1e3", "nan", "inf", "levels=9",
     "levels=99", "touch=7", "rotated", "as", "as 0", "as 71", "=", "[", "]", "[board]", "#", "\ufeff", "\0", "h1",
     "woods", "stone-building", "wall", "Bridge/", "/etc/passwd", "../boards/71", "71", "72", "default"]),
    st.text(max_size=6))


@st.composite
def mutations(draw, text):
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["token", "token", "delete", "duplicate", "insert", "swap"]))
        words = lines[i].split()
        if kind == "token" and words:
            words[draw(st.integers(0, len(words) - 1))] = draw(TOKENS)
            lines[i] = " ".join(words)
        elif kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "insert":
            lines.insert(i, " ".join(draw(st.lists(TOKENS, max_size=4))))
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("kind", ["board", "scenario", "overlay"])
@fuzz(70)
@given(data=st.data())
def test_fuzz_mutated_files(tmp_path, kind, data):
    if kind == "overlay" and not OVERLAY:
        pytest.skip("no bundled overlay")
    base = {"board": BOARD_71, "scenario": SCENARIO, "overlay": OVERLAY}[kind]
    text = data.draw(mutations(base))
    if kind == "overlay":
        (tmp_path / "fuzz.overlay").write_text(text, encoding="utf-8")
        path = tmp_path / "fuzz.scenario"
        path.write_text("[boards]\n0 0 71\n[overlays]\nfuzz.overlay 71F5 71F6\n", encoding="utf-8")
    else:
        path = tmp_path / f"fuzz.{kind}"
        path.write_text(text, encoding="utf-8")
    try:
        board = kernel.load(path)
    except READER_ERRORS as error:
        message = str(error)
        assert "\n" not in message and len(message) < 2000
        assert re.search(r"\.(board|scenario|overlay)\b|no (board|overlay|scenario)", message), message
        tried(f"mutated {kind} files", False)
        return
    tried(f"mutated {kind} files", True)
    if len(board) <= 2000:
        agree_with_references(board, data.draw(st.integers(0, 2**16)), pairs=3)


# ---------------------------------------------------------------- counters files

JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**8, 10**8), st.floats(allow_nan=False), st.text(max_size=8),
              st.sampled_from(["71I9", "71J5", " 71I9", "71i9", "72M6", "71oI9", "99A1"])),
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(st.text(max_size=6), children,
                                                                                max_size=4)),
    max_leaves=12)

COUNTERS = st.fixed_dictionaries({}, optional={
    "smoke": st.dictionaries(st.sampled_from(["71I9", "71J5", "72M6", " 71J5", "71I10", "71Z99"]),
                             st.one_of(st.integers(-3, 120), JSON_VALUES), max_size=4),
    "smoke_height": st.one_of(st.integers(-2, 25), JSON_VALUES),
    "vehicles": st.one_of(st.lists(st.sampled_from(["71I9", "71K5", "72M6", "nope"]), max_size=3), JSON_VALUES),
    "units": st.one_of(st.lists(st.sampled_from(["71I9", "72J5"]), max_size=3), JSON_VALUES),
    "extra": JSON_VALUES,
})


@fuzz(250)
@given(content=st.one_of(COUNTERS.map(json.dumps), JSON_VALUES.map(json.dumps), st.text(max_size=40),
                         st.integers(1, 60).map(lambda d: "[" * d + "]" * d),
                         st.integers(1, 9000).map(lambda d: '{"smoke": {"71I9": ' + "1" * d + "}}")),
       seed=st.integers(0, 2**16))
def test_fuzz_counters_files(tmp_path, default_board, content, seed):
    path = tmp_path / "counters.json"
    path.write_text(content, encoding="utf-8")
    try:
        counters, normalised = read_counters(default_board, str(path))
    except UserError as error:
        assert str(error).startswith(f"counters file {path}") and "\n" not in str(error)
        tried("counters files", False)
        return
    tried("counters files", True)
    assert set(normalised["smoke"]) <= set(default_board.names)
    agree_with_references(default_board, seed, pairs=4, counters=counters)


def test_the_reference_comparison_can_fail(default_board, monkeypatch):
    """agree_with_references is a real check: a kernel answer turned wrong is caught."""
    real = kernel.los_pairs

    def wrong(*args, **kwargs):
        result = real(*args, **kwargs)
        result.visible = ~result.visible
        return result

    monkeypatch.setattr(kernel, "los_pairs", wrong)
    with pytest.raises(AssertionError):
        agree_with_references(default_board, 0)


@pytest.mark.parametrize("hexes, level_b", [
    ("A2 0 grain stone-building levels=1\nA3 0 .\nA1 1 orchard\n", 1),
    ("A1 0 .\nA2 0 .\nA3 0 .\nB0 1 .\nB1 1 orchard\n", 0),
], ids=["to-a-building-level", "from-a-hill"])
def test_long_fuzz_finding_hexside_run_beside_an_orchard_hill(tmp_path, hexes, level_b):
    """Found by HEXKERNEL_FUZZ=long: a LOS along the hexside between a level-1 orchard hill hex
    and a level-0 hex, between levels 0 and 1. The higher end is on the orchard's own level, not above it, so
    B14.2's "obstacle to a LOS from higher ground" does not apply (docs/los-semantics.md: ``S2 > G``); the
    slow reference read it as "ends on different levels" and blocked. Both now give clear, +1 (the orchard's
    inherent hindrance, counted from one side of the run, B.6)."""
    text = ("[board]\nid = 1\nruleset = asl\nlayout = geomorphic\ncolumns = 2\nrows = 3\ndefault_level = 0\n"
            "[hexes]\n" + hexes + "[hexsides]\n")
    path = tmp_path / "finding.board"
    path.write_text(text, encoding="utf-8")
    board = kernel.load(path)
    fast = kernel.los(board, "1B0", "1A2", target_level=level_b)
    slow = reference_los(board, board.index("1B0"), board.index("1A2"), 0, level_b, None, 0)
    assert (fast.visible, fast.hindrance) == (slow["visible"], slow["hindrance"]) == (True, 1)


def test_long_fuzz_finding_orchard_obstacle_beside_woods_counts_from_one_side(tmp_path):
    """Found by HEXKERNEL_FUZZ=long: a LOS from level 0 up to a level-2 hill runs along the hexside of a
    level-0 woods + orchard hex (and an open hex). From the higher end the orchard in season is a one-level
    inherent obstacle (B14.2, B.6), which counts from one side of a run; the kernel dropped it because the
    woods (not inherent) in the same hex is as tall. The lower end is in its blind hex (A6.4: rS = 1,
    O = 1, S = 2, T = 0: max(2 + 0 - 2 - 0 + 1, 1) = 1 >= rT = 1)."""
    text = ("[board]\nid = 1\nruleset = asl\nlayout = geomorphic\ncolumns = 2\nrows = 3\ndefault_level = 0\n"
            "[hexes]\nA3 0 .\nB0 0 .\nB1 0 .\nB2 0 .\nA1 0 woods orchard\nA2 2 .\n[hexsides]\n")
    path = tmp_path / "finding.board"
    path.write_text(text, encoding="utf-8")
    board = kernel.load(path)
    fast = kernel.los(board, "1B0", "1A2")
    slow = reference_los(board, board.index("1B0"), board.index("1A2"), 0, 0, None, 0)
    assert (fast.visible, fast.reason_name) == (slow["visible"], slow["reason"]) == (False, "blind hex")
    assert fast.blocked_at == slow["blocked_at"] and fast.blocked_at_name in ("1A1", "1B1")  # the run's sides


def test_long_fuzz_finding_valor_victory_upper_level_sees_across_its_plateau(tmp_path):
    """Found by HEXKERNEL_FUZZ=long: in V&V a unit on a building's upper level (level 1) sees a unit on a
    Level 1 hill across another Level 1 hill hex (10.7: same-level hill hexes see each other); from the
    building's ground level the hill blocks. The kernel used the Location level; the slow reference ignored
    it. Both now take the absolute level (docs/los-semantics.md section 3)."""
    text = ("[board]\nid = 1\nruleset = valor-victory\nlayout = rectangular\ncolumns = 1\nrows = 3\n"
            "default_level = 0\n[hexes]\nA1 1 .\nA3 0 building levels=1\nA2 1 .\n[hexsides]\n")
    path = tmp_path / "finding.board"
    path.write_text(text, encoding="utf-8")
    board = kernel.load(path)
    for level, expected in ((0, (False, "hill")), (1, (True, None))):
        fast = kernel.los(board, "A3", "A1", level=level)
        slow = reference_los(board, board.index("A3"), board.index("A1"), level, 0, None, 0)
        assert (fast.visible, fast.reason_name) == (slow["visible"], slow["reason"]) == expected
