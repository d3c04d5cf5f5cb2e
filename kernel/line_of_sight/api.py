"""TEMPORARY shim while the package is being split (removed before this change lands)."""
from kernel.line_of_sight.bulk import field_of_fire, los_matrix, los_matrix_blocks, los_pairs, visibility_bits  # noqa: F401
from kernel.line_of_sight.counters import Counters  # noqa: F401
from kernel.line_of_sight.results import BLOCKED, REASONS, FieldOfFire, LOSResult, LOSStep, PairsResult  # noqa: F401
from kernel.line_of_sight.single import los  # noqa: F401
