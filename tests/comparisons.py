"""One registry of the public functions that run kernels, each with its slow reference.

Every entry names a public function, the LOS model it is called with and the
kernel path it takes; :meth:`Comparison.check` calls the function on a seeded
random map and the reference (``tests/reference/``: slow, naive, independent
of the kernels) on the same map, and returns the mismatches.
``tests/test_registry.py`` runs every entry on every ruleset it lists, and the
benchmarks in ``bench/`` time the same kernels (``COMPARISONS[...].kernel``),
so what is benchmarked is what is tested.  The keys are derived from the
entries (the function's name, and the model where it is not the hex model),
never written by hand.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import kernel
from kernel import (Counters, GameState, HeldLOSMatrix, can_see, field_of_fire, fields_of_fire, los, los_matrix,
                    los_matrix_blocks, los_matrix_rows, los_pairs, movement_field, movement_matrix, reachable,
                    threat_map, visibility_bits)
from kernel.line_of_sight.single import trace
from tests.reference.depiction_reference import ReferenceDepiction
from tests.reference.los_reference import reference_los, reference_trace
from tests.reference.movement_reference import reference_movement

ALL_RULESETS = ("asl", "valor-victory", "ccn")
#: The random maps of the registry's cases: small enough for the references' pair-by-pair walks.
CASE_COLUMNS, CASE_ROWS = 7, 5
#: The matrix's saturation (int8).
SATURATION = 127


@dataclass(frozen=True)
class Comparison:
    """A public function (called through ``kernel``), its slow reference and how the two are compared.

    ``kernel`` and ``reference`` keep the call shapes the tests and benchmarks use directly;
    ``compare(board, counters, rng)`` returns a list of mismatches and how many values it compared.
    """

    function: Callable
    path: str
    kernel: Callable
    reference: Callable
    compare: Callable = field(repr=False)
    model: str = "hex"
    rulesets: tuple[str, ...] = ALL_RULESETS

    @property
    def name(self) -> str:
        return self.function.__name__ + ("" if self.model == "hex" else f"[{self.model}]")

    def check(self, ruleset: str, seed: int) -> tuple[list, int]:
        board, counters = case(ruleset, seed)
        return self.compare(board, counters, np.random.default_rng(seed))


# --- the cases: seeded random maps, with counters on odd seeds ---------------------------------------------

@functools.lru_cache(maxsize=None)
def case(ruleset: str, seed: int):
    """A random map and, on odd seeds, counters on it (SMOKE, vehicles, units)."""
    board = kernel.random_board(ruleset, CASE_COLUMNS, CASE_ROWS, seed=seed, max_level=3)
    if seed % 2 == 0:
        return board, None
    rng = np.random.default_rng(10_000 + seed)
    n = len(board)
    smoke = np.where(rng.random(n) < 0.1, rng.integers(2, 4, n), 0)
    # SMOKE in any Location of its hex (A24): the ground, an upper level or a rooftop
    base = np.where(smoke > 0, np.floor(rng.random(n) * (board.top_level + 1)), 0).astype(np.int64)
    counters = Counters(smoke=smoke, smoke_height=rng.integers(1, 3, n), vehicles=rng.random(n) < 0.06,
                        units=rng.random(n) < 0.08, smoke_base=base)
    return board, counters


def counter_dict(counters):
    """:class:`kernel.Counters` as the LOS reference reads them (plain per-hex arrays), or None."""
    if counters is None:
        return None
    return {"smoke": counters.smoke, "smoke_height": counters.smoke_height, "smoke_base": counters.smoke_base,
            "vehicles": counters.vehicles, "units": counters.units}


def depiction_counters(board, counters):
    """:class:`kernel.Counters` as the depiction reference reads them: SMOKE DRM, SMOKE top (half levels,
    absolute), vehicle, SMOKE base (half levels, absolute: its Location's height, a rooftop half a level
    lower); or None."""
    if counters is None:
        return None
    level = np.zeros(len(board), np.int64) if counters.smoke_base is None else np.asarray(counters.smoke_base, np.int64)
    roof = np.asarray(board.rooftop, bool) & (level > 0) & (level == np.asarray(board.top_level))
    base = 2 * (board.ground_level.astype(np.int64) + level) - roof
    top = base + 2 * np.asarray(counters.smoke_height, np.int64)
    return counters.smoke.astype(np.int64), top, counters.vehicles.astype(bool), base


@functools.lru_cache(maxsize=None)
def reference_matrix(ruleset: str, seed: int) -> np.ndarray:
    """The LOS matrix of :func:`case` from the LOS reference, pair by pair: hindrance (saturated) or -1."""
    board, counters = case(ruleset, seed)
    n = len(board)
    out = np.zeros((n, n), np.int64)
    for a in range(n):
        for b in range(n):
            if a != b:
                result = reference_los(board, a, b, counters=counter_dict(counters))
                out[a, b] = min(result["hindrance"], SATURATION) if result["visible"] else kernel.BLOCKED
    return out


_CASE_KEYS: list[tuple[str, int]] = []


def _matrix_of(board) -> np.ndarray:
    for key in _CASE_KEYS:
        if case(*key)[0] is board:
            return reference_matrix(*key)
    raise KeyError("the board is not one of the registry's cases")


def _differences(name: str, fast: np.ndarray, slow: np.ndarray) -> tuple[list, int]:
    fast, slow = np.asarray(fast), np.asarray(slow)
    if fast.shape != slow.shape:
        return [(name, "shape", fast.shape, slow.shape)], 1
    bad = np.argwhere(fast != slow)
    return [(name, tuple(int(i) for i in index), fast[tuple(index)].item(), slow[tuple(index)].item())
            for index in bad[:5]], fast.size


# --- the call shapes the tests and benchmarks use directly ----------------------------------------------------

def kernel_los(board, a, b, level_a=0, level_b=0, counters=None, unit_class=0):
    unit = board.ruleset.unit_classes[unit_class]
    return los(board, a, b, level=level_a, target_level=level_b, counters=counters, unit=unit)


def mask_counters(board, smoke=None, units=None):
    """The references' SMOKE and unit masks (bool per hex) as the :class:`kernel.Counters` the API takes
    (movement reads only whether a hex holds SMOKE: any DRM will do)."""
    if smoke is None and units is None:
        return None
    n = len(board)
    smoke = np.zeros(n, bool) if smoke is None else np.asarray(smoke, bool)
    return Counters(smoke=np.where(smoke, 2, 0), units=np.zeros(n, bool) if units is None else np.asarray(units, bool))


def kernel_movement(board, starts, unit_class, smoke=None, units=None, **options):
    return movement_field(board, starts, unit=unit_class, counters=mask_counters(board, smoke, units), **options)


def kernel_depiction_pairs(board, a, b, level_a=0, level_b=0, counters=None, model="depiction"):
    return los_pairs(board, a, b, levels=level_a, target_levels=level_b, counters=counters, model=model)


def kernel_depiction_matrix(board, locations=None, counters=None, model="depiction"):
    return los_matrix(board, locations, counters=counters, model=model)


# --- the comparisons ---------------------------------------------------------------------------------------------

def _pairs(board, rng, count=150):
    return rng.integers(0, len(board), count), rng.integers(0, len(board), count)


def _compare_trace(board, counters, rng):
    a, b = _pairs(board, rng, 200)
    bad = [(board.name(int(i)), board.name(int(j))) for i, j in zip(a, b)
           if trace(board, int(i), int(j)) != reference_trace(board, int(i), int(j))]
    return bad, len(a)


def _compare_los(board, counters, rng):
    a, b = _pairs(board, rng, 120)
    top = board.top_level
    bad = []
    for i, j in zip(a.tolist(), b.tolist()):
        li, lj = int(rng.integers(0, top[i] + 1)), int(rng.integers(0, top[j] + 1))
        unit_class = int(rng.integers(0, len(board.ruleset.unit_classes)))
        fast = kernel_los(board, i, j, li, lj, counters, unit_class)
        slow = reference_los(board, i, j, li, lj, counter_dict(counters), unit_class)
        got = {"visible": fast.visible, "hindrance": fast.hindrance, "blocked_at": fast.blocked_at,
               "reason": fast.reason_name, "blind": fast.blind, "cover": fast.cover}
        want = {key: slow[key] for key in got}
        if got != want:
            bad.append((board.name(i), li, board.name(j), lj, got, want))
    return bad, len(a)


def _compare_can_see(board, counters, rng):
    a, b = _pairs(board, rng, 150)
    bad = [(board.name(i), board.name(j)) for i, j in zip(a.tolist(), b.tolist())
           if can_see(board, i, j, counters=counters) != reference_los(board, i, j, counters=counter_dict(counters))["visible"]]
    return bad, len(a)


def _compare_los_pairs(board, counters, rng):
    sources, targets = rng.integers(0, len(board), 6), rng.integers(0, len(board), 9)
    result = los_pairs(board, sources, targets, product=True, counters=counters)
    slow = _matrix_of(board)[np.ix_(sources, targets)]
    fast = np.where(result.visible, np.minimum(result.hindrance, SATURATION), kernel.BLOCKED)
    fast[sources[:, None] == targets[None, :]] = 0
    return _differences("los_pairs", fast, np.where(sources[:, None] == targets[None, :], 0, slow))


def _compare_matrix(board, counters, rng):
    return _differences("los_matrix", los_matrix(board, counters=counters), _matrix_of(board))


def _compare_blocks(board, counters, rng):
    rows = np.concatenate([block for _, block in los_matrix_blocks(board, counters=counters, block_rows=7)])
    return _differences("los_matrix_blocks", rows, _matrix_of(board))


def _compare_rows(board, counters, rng):
    first = int(rng.integers(0, len(board) - 5))
    return _differences("los_matrix_rows", los_matrix_rows(board, first, 5, counters=counters),
                        _matrix_of(board)[first:first + 5])


def _compare_bits(board, counters, rng):
    n = len(board)
    bits = np.unpackbits(visibility_bits(board, counters=counters), axis=1, count=n).astype(bool)
    return _differences("visibility_bits", bits, _matrix_of(board) != kernel.BLOCKED)


def _row_reference(board, sources):
    """The reference's rows of ``sources`` as a field of fire has them: the DRM not saturated beyond int8's
    range, BLOCKED, and 0 at the source."""
    return _matrix_of(board)[sources]


def _compare_fields_of_fire(board, counters, rng):
    sources = rng.choice(len(board), 4, replace=False)
    rows = fields_of_fire(board, sources, counters=counters)
    return _differences("fields_of_fire", rows.hindrance, _row_reference(board, sources))


def _compare_field_of_fire(board, counters, rng):
    sources = rng.choice(len(board), 3, replace=False)
    fire = field_of_fire(board, sources, counters=counters)
    rows = _row_reference(board, sources)
    seen = rows != kernel.BLOCKED
    best = np.where(seen.any(axis=0), np.where(seen, rows, np.iinfo(np.int64).max).min(axis=0), kernel.BLOCKED)
    bad, count = _differences("field_of_fire.hindrance", fire.hindrance, best)
    more, _ = _differences("field_of_fire.visible", fire.visible, seen.any(axis=0))
    return bad + more, count


def _compare_threat_map(board, counters, rng):
    sources = rng.choice(len(board), 4, replace=False)
    threat = threat_map(board, sources, counters=counters)
    rows = _row_reference(board, sources)
    seen = rows != kernel.BLOCKED
    bad, count = _differences("threat_map.count", threat.count, seen.sum(axis=0))
    best = np.where(seen.any(axis=0), np.where(seen, rows, np.iinfo(np.int64).max).min(axis=0), kernel.BLOCKED)
    more, _ = _differences("threat_map.hindrance", threat.hindrance, best)
    return bad + more, count


def _compare_held_matrix(board, counters, rng):
    """A held matrix refreshed after seeded SMOKE and vehicle changes, against a fresh reference walk of the
    final state (its counters as plain arrays)."""
    state = GameState(board)
    held = HeldLOSMatrix(board, state)
    n = len(board)
    for _ in range(4):
        hex_ = int(rng.integers(0, n))
        if state.counters().smoke[hex_]:
            state.remove_smoke(hex_)
        else:
            state.place_smoke(hex_, int(rng.integers(2, 4)))
        vehicle = int(rng.integers(0, n))
        if not state.counters().vehicles[vehicle]:
            state.place_vehicle(vehicle)
        held.refresh()
    final = state.counters()
    slow = np.zeros((n, n), np.int64)
    for a in range(n):
        for b in range(n):
            if a != b:
                result = reference_los(board, a, b, counters=counter_dict(final))
                slow[a, b] = min(result["hindrance"], SATURATION) if result["visible"] else kernel.BLOCKED
    return _differences("HeldLOSMatrix", held.matrix, slow)


def _depiction_compare(model: str, matrix: bool):
    per_range = model == "vasl"

    def compare(board, counters, rng):
        reference = ReferenceDepiction(board, kernel.board_art(board))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", kernel.DepictionWarning)
            if matrix:
                hexes = rng.choice(len(board), 12, replace=False)
                fast = los_matrix(board, hexes, counters=counters, model=model)
                a, b = np.repeat(hexes, len(hexes)), np.tile(hexes, len(hexes))
                fast = fast.ravel()
            else:
                a, b = _pairs(board, rng, 100)
                result = los_pairs(board, a, b, counters=counters, model=model)
                fast = np.where(result.visible, np.minimum(result.hindrance, SATURATION), kernel.BLOCKED)
        on_map = depiction_counters(board, counters)
        slow = np.empty(len(a), np.int64)
        for k, (i, j) in enumerate(zip(a.tolist(), b.tolist())):
            blocked, hindrance = reference.walk(i, j, per_range=per_range, counters=on_map)
            slow[k] = 0 if i == j else (kernel.BLOCKED if blocked else min(hindrance, SATURATION))
        fast = np.where(a == b, 0, fast)
        return _differences(f"{'los_matrix' if matrix else 'los_pairs'}[{model}]", fast, slow)

    return compare


def _compare_movement_field(board, counters, rng):
    start = int(rng.integers(0, len(board)))
    unit = board.ruleset.unit_classes[int(rng.integers(0, len(board.ruleset.unit_classes)))]
    if counters is None:
        fast = movement_field(board, start, unit=unit).cost
        slow = reference_movement(board, start, unit)["cost"]
        return _differences("movement_field", fast, slow)
    units = counters.units.copy()
    units[start] = False   # the moving unit's own hex
    # SMOKE in any Location of its hex: the ground, an upper level or a rooftop (each counts where it is)
    fast = movement_field(board, start, unit=unit, counters=Counters(
        smoke=counters.smoke, smoke_height=counters.smoke_height, units=units, smoke_base=counters.smoke_base)).cost
    slow = reference_movement(board, start, unit, smoke=counters.smoke > 0, units=units,
                              smoke_base=counters.smoke_base, smoke_height=counters.smoke_height)["cost"]
    return _differences("movement_field", fast, slow)


def _compare_reachable(board, counters, rng):
    start = int(rng.integers(0, len(board)))
    unit = board.ruleset.unit_classes[0]
    allowance = float(rng.integers(2, 6))
    fast = reachable(board, start, unit=unit, allowance=allowance)
    slow = reference_movement(board, start, unit, allowance=allowance)["cost"] <= allowance
    return _differences("reachable", fast, slow)


def _compare_movement_matrix(board, counters, rng):
    sources = rng.choice(len(board), 3, replace=False)
    unit = board.ruleset.unit_classes[0]
    fast = movement_matrix(board, sources, unit=unit)
    slow = np.stack([reference_movement(board, int(s), unit)["cost"] for s in sources])
    slow = np.where(np.isfinite(slow), np.round(2 * np.where(np.isfinite(slow), slow, 0)), 65535).astype(np.int64)
    return _differences("movement_matrix", fast.astype(np.int64), slow)


ENTRIES = [
    Comparison(trace, "the exact tracer", trace, reference_trace, _compare_trace),
    Comparison(los, "per-pair evaluator, recorded", kernel_los, reference_los, _compare_los),
    Comparison(can_see, "per-pair evaluator, first block", can_see, reference_los, _compare_can_see),
    Comparison(los_pairs, "per-pair evaluator in chunks", los_pairs, reference_los, _compare_los_pairs),
    Comparison(los_matrix, "per-source sweep (ASL), rows (V&V), pairs (CCN)", los_matrix, reference_los,
               _compare_matrix),
    Comparison(los_matrix_blocks, "matrix rows in blocks", los_matrix_blocks, reference_los, _compare_blocks),
    Comparison(los_matrix_rows, "matrix rows", los_matrix_rows, reference_los, _compare_rows),
    Comparison(visibility_bits, "matrix rows, bit-packed", visibility_bits, reference_los, _compare_bits),
    Comparison(fields_of_fire, "per-source sweep", fields_of_fire, reference_los, _compare_fields_of_fire),
    Comparison(field_of_fire, "per-source sweep, best source", field_of_fire, reference_los, _compare_field_of_fire),
    Comparison(threat_map, "per-source sweep, counted", threat_map, reference_los, _compare_threat_map),
    Comparison(HeldLOSMatrix, "incremental refresh", HeldLOSMatrix, reference_los, _compare_held_matrix),
    Comparison(los_pairs, "depiction walk", kernel_depiction_pairs, ReferenceDepiction,
               _depiction_compare("depiction", False), model="depiction", rulesets=("asl",)),
    Comparison(los_matrix, "depiction walk, matrix", kernel_depiction_matrix, ReferenceDepiction,
               _depiction_compare("depiction", True), model="depiction", rulesets=("asl",)),
    Comparison(los_pairs, "depiction walk, VASL's hindrance", kernel_depiction_pairs, ReferenceDepiction,
               _depiction_compare("vasl", False), model="vasl", rulesets=("asl",)),
    Comparison(los_matrix, "depiction walk, VASL's hindrance, matrix", kernel_depiction_matrix, ReferenceDepiction,
               _depiction_compare("vasl", True), model="vasl", rulesets=("asl",)),
    Comparison(movement_field, "Dijkstra over Locations and Bypass", kernel_movement, reference_movement,
               _compare_movement_field),
    Comparison(reachable, "Dijkstra with an allowance", reachable, reference_movement, _compare_reachable),
    Comparison(movement_matrix, "Dijkstra per source, half MF", movement_matrix, reference_movement,
               _compare_movement_matrix),
]

COMPARISONS: dict[str, Comparison] = {entry.name: entry for entry in ENTRIES}
assert len(COMPARISONS) == len(ENTRIES), "two entries share a name"

#: The registry's cases, as ``(ruleset, seed)``: one without counters and one with, per ruleset.
CASE_SEEDS = (0, 1)
_CASE_KEYS.extend((ruleset, seed) for ruleset in ALL_RULESETS for seed in CASE_SEEDS)

__all__ = ["COMPARISONS", "CASE_SEEDS", "Comparison", "case", "counter_dict", "kernel", "mask_counters"]
