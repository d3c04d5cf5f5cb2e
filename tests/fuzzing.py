"""Shared settings of the fuzz suite (``tests/test_fuzz_*.py``): hypothesis, derandomized, short or long.

``make test`` runs the short suite.  ``HEXKERNEL_FUZZ=long`` runs every fuzz
test with :data:`LONG_FACTOR` times as many inputs; ``HEXKERNEL_FUZZ_REPORT=FILE``
writes how many inputs each fuzz test tried (and how many were accepted) to
FILE as JSON when the test process ends.  Every run tries the same inputs:
hypothesis is derandomized (its seed is the test's name) and keeps no
example database, so a failure reproduces with the same command.
"""

from __future__ import annotations

import atexit
import collections
import json
import os

from hypothesis import HealthCheck, settings

LONG = os.environ.get("HEXKERNEL_FUZZ", "").lower() == "long"
LONG_FACTOR = 20

#: inputs tried and accepted, per fuzz test
TRIED: collections.Counter = collections.Counter()
ACCEPTED: collections.Counter = collections.Counter()


def fuzz(examples: int):
    """hypothesis settings for a fuzz test of ``examples`` inputs (``LONG_FACTOR`` times more when long)."""
    return settings(max_examples=examples * (LONG_FACTOR if LONG else 1), derandomize=True, database=None,
                    deadline=None, print_blob=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])


def tried(name: str, accepted: bool) -> None:
    """Count one input of fuzz test ``name``."""
    TRIED[name] += 1
    if accepted:
        ACCEPTED[name] += 1


def _report() -> None:
    path = os.environ.get("HEXKERNEL_FUZZ_REPORT")
    if path and TRIED:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump({"long": LONG, "tried": dict(TRIED), "accepted": dict(ACCEPTED),
                       "total_tried": sum(TRIED.values()), "total_accepted": sum(ACCEPTED.values())}, handle, indent=1)


atexit.register(_report)
