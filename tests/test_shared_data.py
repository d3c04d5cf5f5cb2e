"""The one helper that finds ``../shared`` (tests/shared_data.py): hidden by its variable, skips with a reason,
and, while hidden, a test that reads the real folder anyway fails."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests import shared_data
from tests.shared_data import HIDE_VARIABLE, REAL_SHARED, REPO


def test_hidden_folder_does_not_exist_and_needs_skip(monkeypatch):
    monkeypatch.setenv(HIDE_VARIABLE, "1")
    assert shared_data.hidden()
    assert not shared_data.shared_folder().exists()
    assert shared_data.vasl_folder() == shared_data.shared_folder() / "vasl"
    assert not shared_data.present("vasl")
    mark = shared_data.needs("vasl", "bd02")
    assert mark.args == (True,) and mark.kwargs["reason"] == f"needs ../shared/vasl/bd02 (hidden by {HIDE_VARIABLE})"
    with pytest.raises(pytest.skip.Exception, match=r"needs \.\./shared/vasl/bd02 \(hidden by HEXKERNEL_HIDE_SHARED\)"):
        shared_data.require("vasl", "bd02")


@pytest.mark.parametrize("value", ["", "0"])
def test_the_variable_empty_or_zero_hides_nothing(monkeypatch, value):
    monkeypatch.setenv(HIDE_VARIABLE, value)
    assert not shared_data.hidden()
    assert shared_data.shared_folder() == REAL_SHARED


def test_a_missing_part_skips_with_where_it_was_looked_for(monkeypatch):
    monkeypatch.delenv(HIDE_VARIABLE, raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"needs \.\./shared/no-such-part \(not beside this clone\)"):
        shared_data.require("no-such-part")


GUARDED = r"""
import os, sys
from tests.shared_data import REAL_SHARED, SharedReadWhileHidden, guard_hidden_folder
guard_hidden_folder()
outcomes = []
for attempt in (lambda: open(REAL_SHARED / "rules" / "README.md", "rb"), lambda: os.listdir(REAL_SHARED),
                lambda: os.listdir(os.path.relpath(REAL_SHARED))):
    try:
        attempt()
        outcomes.append("read")
    except SharedReadWhileHidden as error:
        outcomes.append("refused" if "tests/shared_data.py" in str(error) else str(error))
    except FileNotFoundError:
        outcomes.append("refused")   # a clone without ../shared: nothing there to read anyway
open(os.devnull, "rb").close()
print(" ".join(outcomes))
"""


@pytest.mark.parametrize("hide", ["1", "0"])
def test_while_hidden_reading_the_real_folder_fails(hide):
    environment = {**os.environ, HIDE_VARIABLE: hide}
    result = subprocess.run([sys.executable, "-c", GUARDED], cwd=REPO, env=environment, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    if hide == "1":
        assert result.stdout.split() == ["refused"] * 3
    elif REAL_SHARED.is_dir():
        assert result.stdout.split() == ["read"] * 3
