"""The README and docs/: links that resolve, a README of a user's length, no ticket numbers or load figures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_relative_links_resolve(page):
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" not in target:
            assert (page.parent / target).exists(), f"{page.name} links to {target}, which does not exist"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_no_ticket_numbers_or_load_averages(page):
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"\bissues? #\d+|\(#\d+\)|load average", text, re.I), page.name


def test_readme_is_short():
    lines = len((ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    assert lines <= 270, f"README.md has {lines} lines: expected about 250 at most"
