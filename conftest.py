"""The test suite's one marker, ``slow``: what ``make check`` leaves out (``make test`` runs everything).

Slow are the tests that start a real browser or cluster, run ``hexkernel warm`` or the command line in
subprocesses, interrupt fresh processes or fill a disk under them, read the real VASL boards of ``../shared``,
fuzz at length, and the benchmarks: the files
below as a whole, and single tests marked ``@pytest.mark.slow`` in their own files.
``docs/developing.md`` lists the slowest files and how long they take.

While ``HEXKERNEL_HIDE_SHARED`` hides ``../shared``, a test that opens or lists the real folder fails
(``tests/shared_data.py``).
"""

from __future__ import annotations

import pytest

from tests.shared_data import guard_hidden_folder

guard_hidden_folder()

#: Whole test files that are slow, by why.
SLOW_FILES = {
    "browser": ("tests/test_page_browser.py", "tests/test_page_browser_vasl.py", "tests/test_saved_game_page.py"),
    "cluster": ("tests/test_batch_cluster.py", "tests/test_batch_scheduler.py"),
    "warm": ("tests/test_warm.py",),
    "subprocess command line": ("tests/test_cli.py", "tests/test_cli_safety.py", "tests/test_crop.py"),
    "interrupts, signals and a full disk in fresh processes": ("tests/test_api_interrupt.py", "tests/test_cli_signals.py",
                                                               "tests/test_cache_full_disk.py"),
    "real boards": ("tests/test_vasl_engine.py", "tests/test_vasl_boards.py", "tests/test_vasl_import_sweep.py",
                    "tests/test_vasl_hexside_art.py", "tests/test_vasl.py", "tests/test_saved_games_real.py",
                    "tests/test_saved_games_grid.py"),
    "long fuzz": ("tests/test_fuzz_files.py", "tests/test_fuzz_reliability.py", "tests/test_fuzz_vasl_api.py",
                  "tests/test_fuzz_cli.py", "tests/test_fuzz_saves.py"),
}


#: Fixtures that import real VASL boards from ``../shared`` (their tests are slow wherever they are).
REAL_BOARD_FIXTURES = {"vasl_boards", "more_vasl_boards", "rowhouse_board"}


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: left out of `make check` (browser, cluster, warm, subprocess CLI, "
                                       "real boards, long fuzz, benchmarks)")


def pytest_collection_modifyitems(config, items):
    slow = {path for paths in SLOW_FILES.values() for path in paths}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        if path in slow or path.startswith("bench/") or REAL_BOARD_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
