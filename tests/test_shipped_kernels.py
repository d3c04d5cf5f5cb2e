"""The wheel's portable machine code (kernel/_shipped_kernels.py) is used only where its manifest matches the
installation: the same numba, llvmlite, Python and machine type, and the same package sources."""

from __future__ import annotations

import json

import pytest

from kernel import _shipped_kernels


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """A shipped-code folder of its own, the manifest read anew."""
    monkeypatch.setattr(_shipped_kernels, "folder", lambda: tmp_path)
    monkeypatch.delenv(_shipped_kernels.SWITCH, raising=False)
    _shipped_kernels.forget()
    yield tmp_path
    _shipped_kernels.forget()


def write_manifest(folder, **changes):
    manifest = {"environment": _shipped_kernels.environment(), "sources": _shipped_kernels.source_fingerprint(),
                "target": _shipped_kernels.TARGET, "magic_tuple": ["x86_64-unknown-linux-gnu", "x86-64-v3", ""],
                "cpu_features": ["sse4.2"]}
    for name, value in changes.items():
        if name in manifest["environment"]:
            manifest["environment"][name] = value
        else:
            manifest[name] = value
    (folder / _shipped_kernels.MANIFEST_NAME).write_text(json.dumps(manifest))


def test_a_source_tree_has_no_shipped_code():
    _shipped_kernels.forget()
    assert not _shipped_kernels.folder().exists()
    assert not _shipped_kernels.usable() and _shipped_kernels.mismatch() is None


def test_a_matching_manifest_is_used(shipped):
    write_manifest(shipped)
    assert _shipped_kernels.usable() and _shipped_kernels.mismatch() is None


def test_the_switch_turns_it_off(shipped, monkeypatch):
    write_manifest(shipped)
    monkeypatch.setenv(_shipped_kernels.SWITCH, "0")
    _shipped_kernels.forget()
    assert not _shipped_kernels.usable() and _shipped_kernels.mismatch() is None


@pytest.mark.parametrize("name", ["numba", "llvmlite", "python", "machine"])
def test_another_version_falls_back_to_compiling_and_says_why(shipped, name):
    write_manifest(shipped, **{name: "0.0-other"})
    assert not _shipped_kernels.usable()
    here = _shipped_kernels.environment()[name]
    assert _shipped_kernels.mismatch() == f"built for {name} 0.0-other (here {here})"


def test_other_kernel_sources_fall_back(shipped):
    write_manifest(shipped, sources="0" * 32)
    assert not _shipped_kernels.usable()
    assert _shipped_kernels.mismatch() == "built from other package sources"


def test_a_cpu_without_the_levels_features_falls_back(shipped):
    write_manifest(shipped, cpu_features=["sse4.2", "no-such-feature"])
    assert not _shipped_kernels.usable()
    assert _shipped_kernels.mismatch() == "built for a CPU with no-such-feature, which this one lacks"


def test_the_levels_features_grow_with_the_level():
    levels = _shipped_kernels.LEVEL_FEATURES
    assert set(levels["generic"]) < set(levels["x86-64-v2"]) < set(levels["x86-64-v3"])
    assert {"avx2", "fma", "bmi2"} <= set(levels["x86-64-v3"]) and "avx2" not in levels["x86-64-v2"]


@pytest.mark.parametrize("content", ["", "not json", "[1, 2]", '{"environment": 3}'])
def test_a_damaged_manifest_is_no_shipped_code(shipped, content):
    (shipped / _shipped_kernels.MANIFEST_NAME).write_text(content)
    assert not _shipped_kernels.usable()


def test_the_target_is_a_portable_x86_64_level():
    assert _shipped_kernels.TARGET == {"NUMBA_CPU_NAME": "x86-64-v3", "NUMBA_CPU_FEATURES": ""}
    environment = _shipped_kernels.build_environment("/cache")
    assert environment["NUMBA_CPU_NAME"] == "x86-64-v3" and environment["NUMBA_CPU_FEATURES"] == ""
    assert environment[_shipped_kernels.SWITCH] == "0" and environment["HEXKERNEL_CACHE_DIR"] == "/cache"
