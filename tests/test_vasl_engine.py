"""Agreement of our ground-level LOS with VASL's own LOS engine on boards 1-4.

Runs :func:`bench.vasl_engine.compare_board` on each board and fails when the
agreement on blocked versus clear drops below the floor reached, or when the
comparison leaves out other pairs than it should (a mapping bug that drops
pairs would raise the agreement without anything being fixed).  Skipped when
``../shared/vasl`` (the VASL boards and ``engine/``) is absent.

The floors are the measured agreement minus 0.05 percentage points; raise
them when a rule fix raises the agreement (``.venv/bin/python -m
bench.vasl_engine`` prints the figures).
"""

from __future__ import annotations

import pytest

from bench.vasl_engine import BOARD_NUMBERS, board_folder_name, compare_board, engine_folder, overall, vasl_folder

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
#: Measured: 99.778, 99.822, 99.641, 99.132 (overall 99.594); hindrance DRM equal on 96.81 % of the
#: pairs both call clear (once per hex, the rules; VASL counts once per range: ``model="vasl"`` below).
DEPICTION_FLOORS = {1: 99.72, 2: 99.77, 3: 99.59, 4: 99.08}
DEPICTION_OVERALL_FLOOR = 99.54
DEPICTION_HINDRANCE_FLOOR = 96.70
#: ``model="vasl"`` (the depiction model counting hindrance as VASL's engine does), against the depiction
#: model's targets: 99 % on every board, 99.5 % overall, the same hindrance on 98 % of the both-clear pairs.
#: Measured: 99.778, 99.822, 99.641, 99.360 (overall 99.651); hindrance 99.56 %.
VASL_MODEL_FLOORS = {1: 99.0, 2: 99.0, 3: 99.0, 4: 99.0}
VASL_MODEL_OVERALL_FLOOR = 99.5
VASL_MODEL_HINDRANCE_FLOOR = 98.0


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
