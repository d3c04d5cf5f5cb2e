"""Ruleset files that cannot be rulesets are refused in one line before they cost time: deep nesting,
binary bytes, huge files."""

from __future__ import annotations

import time

import pytest

from kernel.maps.rulesets import RulesetError, load_ruleset


def test_a_ruleset_nested_100000_deep_is_refused_at_once(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    start = time.perf_counter()
    with pytest.raises(RulesetError, match=r"deep.toml: TOML nested deeper than 16 levels: expected the tables of "
                                           r"a ruleset"):
        load_ruleset(path)
    assert time.perf_counter() - start < 2.0


def test_a_binary_or_huge_ruleset_is_one_line(tmp_path):
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00" * 50)
    with pytest.raises(RulesetError, match=r"bin.toml: not UTF-8 text"):
        load_ruleset(binary)
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as handle:
        handle.truncate(64 * 1024 * 1024 + 1)
    with pytest.raises(RulesetError, match=r"huge.toml: ruleset is larger than 67108864 bytes"):
        load_ruleset(huge)


def test_the_bundled_rulesets_still_load():
    for name in ("asl", "valor-victory", "ccn"):
        assert load_ruleset(name).name == name
