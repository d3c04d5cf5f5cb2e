"""The lattice's extent, not only the hex count, is bounded: boards placed far apart (few hexes, a huge
extent) are refused when the map is compiled, before the trace templates could take gigabytes."""

from __future__ import annotations

import subprocess
import sys

import pytest

import kernel
from kernel._limits import MAX_TRACE_ENTRIES, trace_entries_bound
from kernel.maps.specs import BoardFileError

FAR = "[boards]\n0 0 71\n20 20 72\n"


def test_boards_far_apart_are_refused_with_the_extent(tmp_path):
    path = tmp_path / "far.scenario"
    path.write_text(FAR)
    with pytest.raises(BoardFileError, match=r"far.scenario: the map spans 673 hex columns by 211 hex rows for 692 "
                                             r"hexes; its trace templates would take about 1,771,371,504 entries: "
                                             r"expected at most 200,000,000"):
        kernel.load(str(path))


def test_the_bound_admits_the_largest_measured_map_and_tracks_the_builder():
    from kernel.line_of_sight._templates.tracer import _bounds

    assert trace_entries_bound(256, 160) < MAX_TRACE_ENTRIES  # the 64-board map of the README
    for dc, dy in ((256, 160), (672, 420), (51, 400), (10, 30), (0, 5), (100, 0)):
        exact = int(_bounds(dc, dy)[-1])
        assert 0.9 * exact <= trace_entries_bound(dc, dy) <= 1.4 * exact, (dc, dy)


def test_the_los_command_on_far_boards_is_one_line_in_little_memory(tmp_path):
    path = tmp_path / "far.scenario"
    path.write_text(FAR)
    limit = 1536 * 2**20
    child = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (%d, %d)); from kernel.cli import main; "
             "sys.exit(main(['los', '71I4', '72M6', '--map', %r]))" % (limit, limit, str(path)))
    result = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.count("\n") == 1 and "trace templates would take about" in result.stderr
