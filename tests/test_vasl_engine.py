"""Agreement of our ground-level LOS with VASL's own LOS engine on every board it was run on.

Two parts.  On boards 1-4, :func:`bench.vasl_engine.compare_board` with its
classes: fails when the agreement on blocked versus clear drops below the
floor reached, when the comparison leaves out other pairs than it should (a
mapping bug that drops pairs would raise the agreement without anything being
fixed) or when a disagreement is left unclassified.  On every board with
engine results (:func:`bench.vasl_engine.engine_boards`, 36 boards),
:func:`bench.vasl_engine.agreement_figures` for the three models against a
floor per board and model, and overall floors (blocked/clear and the same
hindrance on pairs both call clear).  Skipped when ``../shared/vasl`` (the
VASL boards and ``engine/``) is absent.

The floors are the measured agreement minus 0.05 percentage points; raise
them when a rule fix raises the agreement (``.venv/bin/python -m
bench.vasl_engine --model MODEL`` prints the figures and the classes).
"""

from __future__ import annotations

import numpy as np
import pytest

import kernel
from bench.vasl_centre import centre_level
from bench.vasl_engine import (
    BLOCKED_BY_VASL, EXCEPTION, FIRST_BOARDS, agreement_figures, board_folder_name, board_indices, compare_board,
    engine_boards, engine_folder, load_board, load_engine_results, overall, vasl_folder,
)

BOARD_NUMBERS = FIRST_BOARDS

if not all((engine_folder() / f"{board_folder_name(b)}.npz").is_file() and (vasl_folder() / board_folder_name(b)).is_dir()
           for b in BOARD_NUMBERS):
    pytest.skip("VASL boards and engine results (../shared/vasl, ../shared/vasl/engine) not present",
                allow_module_level=True)

#: Board -> least agreement (percent of compared ordered pairs) on blocked versus clear.
#: Measured: 97.876, 98.506, 98.257, 96.771 (overall 97.852).
FLOORS = {1: 97.82, 2: 98.45, 3: 98.20, 4: 96.72}
OVERALL_FLOOR = 97.80

#: Board -> ordered pairs VASL answered with an exception (its README: board 3, 58 pairs
#: along the bottom half-hex row), left out of the comparison.
EXCEPTION_PAIRS = {1: 0, 2: 0, 3: 58, 4: 0}

HEXES = 346  # every hex of a geomorphic board, half hexes included


@pytest.fixture(scope="module")
def results() -> dict[int, dict]:
    return {b: compare_board(b, examples=1, explain_limit=20) for b in BOARD_NUMBERS}


@pytest.mark.parametrize("board", BOARD_NUMBERS)
def test_agreement_floor(results, board):
    r = results[board]
    assert r["agreement"] >= FLOORS[board], (
        f"board {board}: {r['agreement']:.3f} % agree with VASL's engine, floor {FLOORS[board]} %")


@pytest.mark.parametrize("board", BOARD_NUMBERS)
def test_every_pair_is_compared_or_accounted_for(results, board):
    r = results[board]
    assert (r["hexes"], r["board_hexes"]) == (HEXES, HEXES)
    assert r["missing_hexes"] == [] and r["extra_hexes"] == []
    assert r["ordered_pairs"] == HEXES * (HEXES - 1)
    assert (r["excluded_exception"], r["excluded_missing"]) == (EXCEPTION_PAIRS[board], 0)
    assert r["compared"] == r["ordered_pairs"] - r["excluded_exception"] - r["excluded_missing"]
    assert (r["both_blocked"] + r["both_clear"] + r["vasl_blocks_we_see"] + r["we_block_vasl_sees"]
            == r["compared"])
    assert r["agree"] == r["both_blocked"] + r["both_clear"]


@pytest.mark.parametrize("board", BOARD_NUMBERS)
def test_every_disagreement_is_classified(results, board):
    r = results[board]
    assert sum(c["count"] for c in r["classes"]["vasl_blocks"]) == r["vasl_blocks_we_see"]
    assert sum(c["count"] for c in r["classes"]["we_block"]) == r["we_block_vasl_sees"]
    for side in ("vasl_blocks", "we_block"):
        for c in r["classes"][side]:
            assert c["examples"] and all(name.startswith(str(board)) for name in c["examples"][0].split("-"))
            assert sum(c["along_hexside"].values()) == c["count"]
    for c in r["classes"]["we_block"]:
        assert c["explained"] == min(20, c["count"]) == sum(c["blocking_steps"].values())
        assert "no blocking step" not in c["blocking_steps"]


def test_overall_floor(results):
    total = overall([results[b] for b in BOARD_NUMBERS])
    assert total["compared"] == 4 * HEXES * (HEXES - 1) - sum(EXCEPTION_PAIRS.values())
    assert total["agreement"] >= OVERALL_FLOOR, f"{total['agreement']:.3f} % overall, floor {OVERALL_FLOOR} %"


@pytest.mark.parametrize("board", BOARD_NUMBERS)
def test_vasl_hexside_blocks_are_sorted_into_kinds_and_none_is_ours(results, board):
    """VASL's "Intervening hexside terrain (B9.2)" blocks, sorted by the art VASL met
    (:mod:`bench.vasl_hexside_art`): every pair gets a kind, and none is a wall or hedge
    hexside that the line crosses or runs along away from both ends (a gap in our rules)."""
    hexside = [c for c in results[board]["classes"]["vasl_blocks"] if "(B9.2)" in c["class"]]
    for c in hexside:
        assert sum(kind["count"] for kind in c["kinds"]) == c["count"]
        assert "crossed imported hexside" not in {kind["kind"] for kind in c["kinds"]}
        assert all(kind["examples"] for kind in c["kinds"])


# --- the depiction model -------------------------------------------------------------------

#: Board -> least agreement of ``model="depiction"`` on blocked versus clear.
#: Measured (2026-11-26, after the readings of docs/los-semantics.md section 6 of that day): 99.778, 99.837,
#: 99.708, 99.275 (overall 99.650); hindrance DRM equal on 96.81 % of the pairs both call clear (once per
#: hex, the rules; VASL counts once per range: ``model="vasl"`` below).  After the B.6 hexside-run rule
#: (two hindrance hexes beside a hexside the LOS runs along count once): 99.778, 99.837, 99.708, 99.318
#: (overall 99.660), hindrance 97.29 %.  After drawn art's pixels became squares judged at their centres
#: (VASL's convention): 99.862, 99.904, 99.797, 99.505 (overall 99.766), hindrance 97.25 %; and the
#: map's last pixels showing the drawn art beside them: 99.862, 99.904, 99.811, 99.507 (overall 99.771),
#: hindrance 97.27 %.
DEPICTION_FLOORS = {1: 99.81, 2: 99.85, 3: 99.76, 4: 99.45}
DEPICTION_OVERALL_FLOOR = 99.72
DEPICTION_HINDRANCE_FLOOR = 97.24
#: ``model="vasl"`` (the depiction model counting hindrance as VASL's engine does), against its
#: targets: 99 % on every board, 99.5 % overall, the same hindrance on 98 % of the both-clear pairs.
#: Measured (2026-11-26, VASL's pixels and readings): 99.969, 99.965, 99.883, 99.876 (overall 99.923);
#: hindrance 99.89 %; with the map's last pixels showing the drawn art beside them 99.969, 99.968, 99.896,
#: 99.879 (overall 99.928), hindrance 99.91 %.
VASL_MODEL_FLOORS = {1: 99.91, 2: 99.91, 3: 99.84, 4: 99.82}
VASL_MODEL_OVERALL_FLOOR = 99.87
VASL_MODEL_HINDRANCE_FLOOR = 99.84


@pytest.fixture(scope="module")
def depiction_results() -> dict[int, dict]:
    return {b: compare_board(b, examples=1, explain_limit=0, model="depiction") for b in BOARD_NUMBERS}


@pytest.mark.parametrize("board", BOARD_NUMBERS)
def test_depiction_agreement_floor(depiction_results, board):
    r = depiction_results[board]
    assert r["model"] == "depiction" and r["compared"] == results_compared(board)
    assert r["agreement"] >= DEPICTION_FLOORS[board], (
        f"board {board}: {r['agreement']:.3f} % agree with VASL's engine in depiction mode, "
        f"floor {DEPICTION_FLOORS[board]} %")
    assert sum(c["count"] for c in r["classes"]["we_block"]) == r["we_block_vasl_sees"]


def results_compared(board: int) -> int:
    return HEXES * (HEXES - 1) - EXCEPTION_PAIRS[board]


def test_depiction_overall_floor(depiction_results):
    total = overall([depiction_results[b] for b in BOARD_NUMBERS])
    assert total["agreement"] >= DEPICTION_OVERALL_FLOOR, f"{total['agreement']:.3f} % overall"
    same_hindrance = 100.0 * total["hindrance_equal"] / total["both_clear"]
    assert same_hindrance >= DEPICTION_HINDRANCE_FLOOR, f"{same_hindrance:.2f} % equal hindrance"


@pytest.fixture(scope="module")
def vasl_model_results() -> dict[int, dict]:
    return {b: compare_board(b, examples=1, explain_limit=0, model="vasl") for b in BOARD_NUMBERS}


def test_vasl_model_meets_the_targets(vasl_model_results):
    for board in BOARD_NUMBERS:
        r = vasl_model_results[board]
        assert r["model"] == "vasl" and r["compared"] == results_compared(board)
        assert r["agreement"] >= VASL_MODEL_FLOORS[board], f"board {board}: {r['agreement']:.3f} %"
    total = overall([vasl_model_results[b] for b in BOARD_NUMBERS])
    assert total["agreement"] >= VASL_MODEL_OVERALL_FLOOR, f"{total['agreement']:.3f} % overall"
    same_hindrance = 100.0 * total["hindrance_equal"] / total["both_clear"]
    assert same_hindrance >= VASL_MODEL_HINDRANCE_FLOOR, f"{same_hindrance:.2f} % equal hindrance"


# --- every board with engine results, the three models --------------------------------------------------

#: The boards with engine results beside this clone (36 in ``../shared/vasl/engine``).
ENGINE_BOARDS = engine_boards()

#: Model -> board -> least agreement on blocked versus clear (percent of compared ordered pairs): the
#: measured figures less 0.05 points, rounded down; raised whenever a reading raises them, never lowered.
#: Measured over the 36 boards: hex 97.23 % overall (worst board 57, 92.17 %), depiction 99.55 % (board 35,
#: 98.21 %), vasl 99.89 % (board 24, 99.69 %).  ``docs/vasl-agreement.md`` gives each reading.
ALL_BOARD_FLOORS: dict[str, dict[int, float]] = {
    "hex": {1: 97.82, 2: 98.45, 3: 98.20, 4: 96.72, 7: 95.33, 8: 97.54, 9: 97.92, 10: 97.34, 11: 98.31, 16: 95.42,
            20: 97.90, 21: 98.21, 22: 96.75, 24: 97.02, 34: 99.49, 35: 94.70, 43: 96.78, 44: 95.51, 45: 97.82,
            47: 97.49, 50: 98.31, 53: 96.16, 55: 98.97, 57: 92.11, 58: 97.11, 59: 96.80, 60: 98.18, 62: 97.01,
            64: 97.93, 65: 97.24, 66: 96.99, 68: 98.15, 70: 94.11, 71: 97.94, 75: 98.83, 81: 97.66},
    "depiction": {1: 99.81, 2: 99.85, 3: 99.76, 4: 99.48, 7: 99.45, 8: 99.64, 9: 99.75, 10: 99.72, 11: 99.74,
                  16: 98.36, 20: 99.78, 21: 99.70, 22: 99.69, 24: 99.47, 34: 99.88, 35: 98.16, 43: 98.52, 44: 99.50,
                  45: 99.74, 47: 99.58, 50: 99.68, 53: 99.44, 55: 99.74, 57: 98.57, 58: 99.49, 59: 99.49, 60: 99.66,
                  62: 99.50, 64: 99.54, 65: 99.56, 66: 99.42, 68: 99.77, 70: 99.25, 71: 99.73, 75: 99.66, 81: 99.58},
    "vasl": {1: 99.93, 2: 99.92, 3: 99.91, 4: 99.82, 7: 99.90, 8: 99.88, 9: 99.88, 10: 99.87, 11: 99.82, 16: 99.76,
             20: 99.91, 21: 99.85, 22: 99.85, 24: 99.63, 34: 99.91, 35: 99.91, 43: 99.68, 44: 99.78, 45: 99.85,
             47: 99.76, 50: 99.85, 53: 99.86, 55: 99.85, 57: 99.87, 58: 99.82, 59: 99.82, 60: 99.90, 62: 99.93,
             64: 99.64, 65: 99.69, 66: 99.80, 68: 99.91, 70: 99.85, 71: 99.78, 75: 99.94, 81: 99.75},
}
#: Model -> (least overall agreement, least share of both-clear pairs with VASL's hindrance DRM), percent:
#: measured 97.227 / 88.54 (hex), 99.545 / 95.08 (depiction), 99.887 / 99.42 (vasl), less about 0.05.
ALL_BOARD_OVERALL_FLOORS: dict[str, tuple[float, float]] = {
    "hex": (97.18, 88.49),
    "depiction": (99.49, 95.03),
    "vasl": (99.83, 99.37),
}


def floor_of(model: str, board: int) -> float:
    """The board's floor; a board without a recorded one (measured elsewhere) gets the model's least."""
    floors = ALL_BOARD_FLOORS[model]
    return floors.get(board, min(floors.values()))


@pytest.fixture(scope="module")
def all_figures() -> dict[int, dict]:
    return {b: agreement_figures(b) for b in ENGINE_BOARDS}


def test_every_board_with_engine_results_has_a_floor():
    assert set(ALL_BOARD_FLOORS["hex"]) <= set(ENGINE_BOARDS)
    for model in ("depiction", "vasl"):
        assert set(ALL_BOARD_FLOORS[model]) == set(ALL_BOARD_FLOORS["hex"])


@pytest.mark.parametrize("model", ("hex", "depiction", "vasl"))
def test_agreement_floor_on_every_board(all_figures, model):
    low = {b: round(f[model]["agreement"], 3) for b, f in all_figures.items()
           if f[model]["agreement"] < floor_of(model, b)}
    assert not low, f"{model}: boards below their floor (board: measured %): {low}"
    for b, f in all_figures.items():
        r = f[model]
        assert r["excluded_missing"] == 0, f"board {b}: hexes VASL lists and the import lacks"
        assert r["agree"] + r["vasl_blocks_we_see"] + r["we_block_vasl_sees"] == r["compared"]
        assert r["compared"] + r["excluded_exception"] == HEXES * (HEXES - 1)


@pytest.mark.parametrize("model", ("hex", "depiction", "vasl"))
def test_overall_agreement_and_hindrance_over_every_board(all_figures, model):
    figures = [f[model] for f in all_figures.values()]
    agreement = 100.0 * sum(r["agree"] for r in figures) / sum(r["compared"] for r in figures)
    same_hindrance = 100.0 * sum(r["hindrance_equal"] for r in figures) / sum(r["both_clear"] for r in figures)
    floor, hindrance_floor = ALL_BOARD_OVERALL_FLOORS[model]
    assert agreement >= floor, f"{model}: {agreement:.3f} % over {len(figures)} boards, floor {floor} %"
    assert same_hindrance >= hindrance_floor, f"{model}: {same_hindrance:.2f} % equal hindrance"


@pytest.mark.skipif(20 not in ENGINE_BOARDS, reason="board 20 or its engine results not in ../shared/vasl")
@pytest.mark.parametrize("model", ("hex", "vasl"))
def test_vasl_answers_a_bridge_over_a_gully_from_the_bridge(model):
    # 20Q6: a road bridge over the gully (ground level -1).  VASL's answers from the hex are those of
    # the deck (level 0, no depression rule), not of the gully beneath it.
    engine = load_engine_results(20)
    board, _ = load_board(20)
    names = [str(name) for name in engine["hexes"]]
    index = board_indices(board, names)
    row = names.index("20Q6")
    asked = (engine["status"][row] != EXCEPTION) & (index >= 0)
    asked[row] = False
    vasl_blocked = engine["status"][row][asked] == BLOCKED_BY_VASL
    hexes = index[asked]
    assert centre_level(board, board.index("20Q6")) == 1
    agreement = {}
    for level in (0, 1):
        pairs = kernel.los_pairs(board, np.full(len(hexes), board.index("20Q6")), hexes, levels=level, model=model)
        agreement[level] = float(np.mean(~pairs.visible == vasl_blocked))
    assert agreement[1] >= agreement[0] + 0.05, agreement
    assert agreement[1] >= (0.99 if model == "vasl" else 0.95), agreement
