"""Every entry of the registry (:mod:`tests.comparisons`): the public function against its slow reference on
seeded random maps of each ruleset it lists, without counters (even seeds) and with them (odd seeds)."""

from __future__ import annotations

import pytest

import kernel
from tests.comparisons import CASE_SEEDS, COMPARISONS, ENTRIES

CASES = [pytest.param(entry, ruleset, seed, id=f"{entry.name}-{ruleset}-seed{seed}")
         for entry in ENTRIES for ruleset in entry.rulesets for seed in CASE_SEEDS]


@pytest.mark.parametrize(("entry", "ruleset", "seed"), CASES)
def test_the_public_function_matches_its_reference(entry, ruleset, seed):
    mismatches, compared = entry.check(ruleset, seed)
    assert compared > 0, f"{entry.name} compared nothing"
    assert mismatches == [], f"{entry.name} ({entry.path}) differs from its reference: {mismatches}"


def test_the_keys_are_the_public_names_and_models():
    for name, entry in COMPARISONS.items():
        assert entry.function.__name__ in kernel.__all__ or entry.function.__name__ == "trace"
        assert name == entry.function.__name__ + ("" if entry.model == "hex" else f"[{entry.model}]")
    covered = {entry.function.__name__ for entry in ENTRIES}
    assert {"los", "can_see", "los_pairs", "los_matrix", "los_matrix_blocks", "los_matrix_rows", "visibility_bits",
            "field_of_fire", "fields_of_fire", "threat_map", "HeldLOSMatrix", "movement_field", "reachable",
            "movement_matrix"} <= covered
    assert {entry.model for entry in ENTRIES} == {"hex", "depiction", "vasl"}


def test_a_comparison_can_fail(monkeypatch):
    """A kernel that answers wrongly is caught: the matrix entry against a matrix with one pair changed."""
    entry = COMPARISONS["los_matrix"]
    from tests import comparisons

    def wrong(board, counters=None, **options):
        matrix = kernel.los_matrix(board, counters=counters, **options)
        matrix[0, 1] = 5 if matrix[0, 1] != 5 else 4
        return matrix

    monkeypatch.setattr(comparisons, "los_matrix", wrong)
    mismatches, _ = entry.check("asl", CASE_SEEDS[0])
    assert mismatches and mismatches[0][1] == (0, 1)
