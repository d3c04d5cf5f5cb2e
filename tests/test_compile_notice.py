"""The first compile of a process logs one line saying what compiles, about how long, and that 'hexkernel warm'
does it once; the compiles are counted from numba's own events; warm and --quiet show nothing."""

from __future__ import annotations

import logging

import numba
import pytest

from kernel import _compile_notice


@pytest.fixture
def fresh_notice(monkeypatch):
    _compile_notice.install()
    monkeypatch.setitem(_compile_notice._state, "noticed", False)
    monkeypatch.setitem(_compile_notice._state, "quiet", False)
    return _compile_notice


def test_the_first_compile_logs_one_line_and_later_ones_none(fresh_notice, caplog):
    before = len(fresh_notice.compiles())
    with caplog.at_level(logging.WARNING, logger="hexkernel.compile"):
        numba.njit(lambda x: x + 1)(1)
        numba.njit(lambda x: x + 2)(1)
    lines = [record.getMessage() for record in caplog.records if record.name == "hexkernel.compile"]
    assert len(lines) == 1 and "\n" not in lines[0]
    assert lines[0].startswith("hexkernel: compiling numba kernels for this machine (")
    assert "test_compile_notice.test_the_first_compile_logs_one_line_and_later_ones_none.<locals>.<lambda> first" \
        in lines[0]
    assert "about 10 to 60 s on a first call" in lines[0] and "'hexkernel warm' compiles every kernel once" in lines[0]
    assert len(fresh_notice.compiles()) == before + 2


def test_quiet_logs_nothing_but_still_counts(fresh_notice, caplog, monkeypatch):
    monkeypatch.setitem(_compile_notice._state, "quiet", True)
    before = len(fresh_notice.compiles())
    with caplog.at_level(logging.WARNING, logger="hexkernel.compile"):
        numba.njit(lambda x: x * 3)(2)
    assert not [record for record in caplog.records if record.name == "hexkernel.compile"]
    assert len(fresh_notice.compiles()) == before + 1


def test_the_logger_silences_it_the_usual_way(fresh_notice, caplog):
    logger = logging.getLogger("hexkernel.compile")
    logger.setLevel(logging.ERROR)
    try:
        with caplog.at_level(logging.WARNING):
            numba.njit(lambda x: x * 5)(2)
        assert not [record for record in caplog.records if record.name == "hexkernel.compile"]
    finally:
        logger.setLevel(logging.NOTSET)


def test_the_notice_says_why_a_wheels_code_is_not_used(monkeypatch):
    from kernel import _shipped_kernels

    monkeypatch.setattr(_shipped_kernels, "mismatch", lambda: "built for numba 0.1 (here 9.9)")
    assert "this wheel's compiled kernels are built for numba 0.1 (here 9.9), so they compile" in \
        _compile_notice.notice("x")


class Terminal:
    """A stand-in for stderr on a terminal."""

    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text

    def flush(self):
        pass

    def isatty(self):
        return True


def test_on_a_terminal_the_cli_shows_the_compile_and_its_seconds(fresh_notice, monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setattr(_compile_notice, "SHOWN_FROM", 0.0)
    monkeypatch.setitem(_compile_notice._state, "noticed", True)     # the one-line notice was given already
    fresh_notice.show_progress()
    try:
        numba.njit(lambda x: x - 7)(2)
    finally:
        fresh_notice.show_progress(False)
    assert terminal.text.startswith("\rhexkernel: compiled tests.test_compile_notice.")
    assert terminal.text.endswith(" s\x1b[K\n") and terminal.text.count("\n") == 1


def test_off_a_terminal_no_display(fresh_notice, monkeypatch):
    terminal = Terminal()
    terminal.isatty = lambda: False
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setitem(_compile_notice._state, "noticed", True)
    fresh_notice.show_progress()
    try:
        numba.njit(lambda x: x - 8)(2)
    finally:
        fresh_notice.show_progress(False)
    assert terminal.text == ""
