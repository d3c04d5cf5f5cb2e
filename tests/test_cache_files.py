"""The kernels' numba cache (kernel/_cache_files.py) recompiles, with one warning, instead of failing:
damaged index and data files, data files swapped between signatures, a cache folder that cannot be
written (never the package's own folders instead), and a full disk."""

from __future__ import annotations

import errno
import importlib.util
import os
import sys
import warnings

import numba
import pytest
from numba.core import config

from kernel import _cache_files
from kernel._cache_files import CheckedFunctionCache, DamagedCacheWarning, UnwritableCacheWarning

SOURCE = '''
import numba

def add_one(x):
    return x + 1
'''


@pytest.fixture
def module(tmp_path, monkeypatch):
    """A module of its own with one plain function, the numba cache folder in ``tmp_path/cache``."""
    folder = tmp_path / "source"
    folder.mkdir()
    (folder / "cached_example.py").write_text(SOURCE)
    spec = importlib.util.spec_from_file_location("cached_example", folder / "cached_example.py")
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(_cache_files, "_warned", set())
    return loaded


def dispatcher(module):
    """A new dispatcher of the module's function (as a fresh process has), with the checked cache."""
    compiled = numba.njit(module.add_one)
    compiled._cache = CheckedFunctionCache(compiled.py_func)
    return compiled


def compiles(compiled) -> int:
    return sum(compiled._cache_misses.values())


def cache_files(tmp_path, suffix):
    return sorted(path for path in (tmp_path / "cache").rglob(f"*{suffix}"))


def test_a_second_dispatcher_loads_what_the_first_saved(module, tmp_path):
    first = dispatcher(module)
    assert first(1) == 2 and first(1.5) == 2.5 and compiles(first) == 2
    second = dispatcher(module)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert second(1) == 2 and second(1.5) == 2.5
    assert compiles(second) == 0 and sum(second._cache_hits.values()) == 2


@pytest.mark.parametrize("damage", ["emptied", "cut", "random"])
@pytest.mark.parametrize("suffix", [".nbi", ".nbc"])
def test_a_damaged_file_recompiles_with_one_warning_and_is_replaced(module, tmp_path, damage, suffix):
    dispatcher(module)(1)
    (path,) = cache_files(tmp_path, suffix)
    content = path.read_bytes()
    path.write_bytes({"emptied": b"", "cut": content[: len(content) // 2], "random": os.urandom(len(content))}[damage])
    again = dispatcher(module)
    with pytest.warns(DamagedCacheWarning, match=rf"kernel cache file .*{path.name}.* is damaged .*: compiling"):
        assert again(1) == 2
    assert compiles(again) == 1
    healed = dispatcher(module)          # the compile replaced the entry: the next process loads it
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert healed(1) == 2
    assert compiles(healed) == 0


def test_data_files_swapped_between_signatures_recompile_not_fail_at_the_call(module, tmp_path):
    first = dispatcher(module)
    assert first(1) == 2 and first(1.5) == 2.5
    one, two = cache_files(tmp_path, ".nbc")
    a, b = one.read_bytes(), two.read_bytes()
    one.write_bytes(b)
    two.write_bytes(a)
    again = dispatcher(module)
    with pytest.warns(DamagedCacheWarning, match="holds the code of another kernel or signature"):
        assert again(1) == 2 and again(1.5) == 2.5
    assert compiles(again) == 2


@pytest.mark.parametrize("root", ["read-only", "regular file"])
def test_a_cache_folder_that_cannot_be_written_writes_nothing_beside_the_sources(module, tmp_path, monkeypatch,
                                                                                 root):
    if root == "read-only" and os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    cache = tmp_path / "cache"
    if root == "read-only":
        cache.mkdir()
        cache.chmod(0o500)
    else:
        cache.write_text("not a folder")
    compiled = dispatcher(module)
    with pytest.warns(UnwritableCacheWarning, match=r"cannot write the kernel cache in .*: kernels compile again"):
        assert compiled(1) == 2
    written = [path for path in (tmp_path / "source").rglob("*") if path.name != "cached_example.py"]
    assert [path for path in written if path.suffix in (".nbi", ".nbc")] == []


def test_a_full_disk_under_the_cache_warns_once_and_the_call_answers(module, tmp_path, monkeypatch):
    def full(self, path):
        raise OSError(errno.ENOSPC, "No space left on device", path)

    monkeypatch.setattr(_cache_files._CheckedIndexDataCacheFile, "_open_for_write", full)
    compiled = dispatcher(module)
    with pytest.warns(UnwritableCacheWarning, match="No space left on device"):
        assert compiled(1) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # once per process
        assert compiled(1.5) == 2.5
    assert cache_files(tmp_path, ".nbc") == []


def test_the_kernels_use_the_checked_cache():
    from kernel import _numba_cache

    assert issubclass(_numba_cache._CacheLoadedWithoutRefresh, CheckedFunctionCache)
    assert "kernel._cache_files" in sys.modules


def test_a_damage_warning_is_one_line_whatever_the_error_says(tmp_path):
    """An unpickler's message can hold a line break (random bytes in an index file gave one)."""
    path = str(tmp_path / "k.nbi")
    with pytest.warns(DamagedCacheWarning) as record:
        _cache_files._damaged(path, "UnpicklingError: an instruction was encountered,\nbut no function")
    assert str(record[0].message) == (f"the kernel cache file {path} is damaged (UnpicklingError: an instruction "
                                      f"was encountered, but no function): compiling that kernel again")
