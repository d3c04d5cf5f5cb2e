"""One registry of fast kernels and their slow references.

Tests (``tests/test_*_oracle.py``) check every kernel against its reference
on the cases listed here, and the benchmarks in ``bench/`` time the same
kernels, so what is benchmarked is what is tested.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

import kernel
from kernel import Counters, los, los_matrix, los_pairs, movement_field
from kernel.line_of_sight._templates.tracer import trace
from tests.reference.depiction_reference import ReferenceDepiction
from tests.reference.los_reference import reference_los, reference_trace
from tests.reference.movement_reference import reference_movement


@dataclass(frozen=True)
class Comparison:
    """A kernel, its reference, and the rulesets it is compared on."""

    name: str
    kernel: Callable
    reference: Callable
    rulesets: tuple[str, ...] = ("asl", "valor-victory", "ccn")


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


def kernel_depiction_pairs(board, a, b, level_a=0, level_b=0, counters=None):
    return los_pairs(board, a, b, levels=level_a, target_levels=level_b, counters=counters, model="depiction")


def kernel_depiction_matrix(board, locations=None, counters=None):
    return los_matrix(board, locations, counters=counters, model="depiction")


COMPARISONS = {
    "trace": Comparison("trace", trace, reference_trace),
    "los": Comparison("los", kernel_los, reference_los),
    "los_matrix": Comparison("los_matrix", los_matrix, reference_los),
    "movement_field": Comparison("movement_field", kernel_movement, reference_movement),
    # the depiction model: the reference is a class, ReferenceDepiction(board, art).walk(...)
    "depiction_pairs": Comparison("depiction_pairs", kernel_depiction_pairs, ReferenceDepiction, ("asl",)),
    "depiction_matrix": Comparison("depiction_matrix", kernel_depiction_matrix, ReferenceDepiction, ("asl",)),
}

__all__ = ["COMPARISONS", "Comparison", "kernel", "mask_counters"]
