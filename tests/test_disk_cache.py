"""The on-disk cache of derived arrays (kernel/_disk_cache.py) and its use for a map's rasterised art:
a hit gives the same art without rasterising, a changed input or code gives a new key, a damaged file is
computed again and replaced, and HEXKERNEL_NUMBA_CACHE=0 reads and writes nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import kernel
from kernel import _disk_cache
from kernel.line_of_sight._templates import store as _template_store
from kernel.line_of_sight._templates import tracer
from kernel.maps import _art_kernels
from kernel.maps import art as art_module


@pytest.fixture
def cache_root(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXKERNEL_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("HEXKERNEL_NUMBA_CACHE", "1")
    return tmp_path


def _files(root):
    return sorted(path.name for path in (root / "art").glob("*.npz")) if (root / "art").is_dir() else []


def _same(a, b):
    return all(np.array_equal(getattr(a, name), getattr(b, name)) for name in art_module._STORED) and a.drawn == b.drawn


def _no_rasterising(monkeypatch):
    def refuse(*args):
        raise AssertionError("rasterised although the art is on disk")
    monkeypatch.setattr(_art_kernels, "rasterise_kernel", refuse)


def test_art_is_read_back_from_disk_without_rasterising(cache_root, monkeypatch):
    first = art_module.board_art(kernel.load("default"))
    assert len(_files(cache_root)) == 1
    _no_rasterising(monkeypatch)
    again = art_module.board_art(kernel.load("default"))   # a new Board: nothing in memory
    assert _same(first, again)


def test_a_changed_input_or_code_is_a_new_key(cache_root, monkeypatch):
    board = kernel.load("default")
    art_module.board_art(board)
    for seed in (0, 1):   # other maps: their own keys, their own art
        art_module.board_art(kernel.random_board("asl", 8, 6, seed=seed))
    assert len(_files(cache_root)) == 3
    assert not _same(art_module.board_art(kernel.random_board("asl", 8, 6, seed=0)),
                     art_module.board_art(kernel.random_board("asl", 8, 6, seed=1)))
    monkeypatch.setattr(_disk_cache, "_package_digest", [b"the package code, edited"])   # stale key: rebuilt, not read
    calls = []
    original = _art_kernels.rasterise_kernel
    monkeypatch.setattr(_art_kernels, "rasterise_kernel", lambda *args: (calls.append(1), original(*args)))
    rebuilt = art_module.board_art(kernel.load("default"))
    assert calls == [1] and len(_files(cache_root)) == 4
    assert _same(rebuilt, art_module.board_art(board))


@pytest.mark.parametrize("damage", [b"", b"not a zip file", "truncated", "missing array"])
def test_a_damaged_file_is_computed_again_and_replaced(cache_root, damage):
    expected = art_module.board_art(kernel.load("default"))
    [name] = _files(cache_root)
    path = cache_root / "art" / name
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif damage == "missing array":
        np.savez(path, pixels=expected.pixels)
    else:
        path.write_bytes(damage)
    assert _same(art_module.board_art(kernel.load("default")), expected)   # no crash, the same art
    stored = _disk_cache.load("art", name[:-4], art_module._STORED)
    assert stored is not None and np.array_equal(stored["pixels"], expected.pixels)   # the file was replaced


def test_a_file_of_another_shape_is_not_used(cache_root):
    expected = art_module.board_art(kernel.load("default"))
    [name] = _files(cache_root)
    np.savez(cache_root / "art" / name, pixels=expected.pixels[:-1], class_terrain=expected.class_terrain,
             class_levels=expected.class_levels, class_hexside=expected.class_hexside)
    assert _same(art_module.board_art(kernel.load("default")), expected)


def test_cache_off_reads_and_writes_nothing(cache_root, monkeypatch):
    monkeypatch.setenv("HEXKERNEL_NUMBA_CACHE", "0")
    art_module.board_art(kernel.load("default"))
    assert not (cache_root / "art").exists()
    monkeypatch.setenv("HEXKERNEL_NUMBA_CACHE", "1")
    expected = art_module.board_art(kernel.load("default"))
    assert len(_files(cache_root)) == 1
    monkeypatch.setenv("HEXKERNEL_NUMBA_CACHE", "0")   # a file is there, but the cache is off: not read
    calls = []
    original = _art_kernels.rasterise_kernel
    monkeypatch.setattr(_art_kernels, "rasterise_kernel", lambda *args: (calls.append(1), original(*args)))
    assert _same(art_module.board_art(kernel.load("default")), expected) and calls == [1]


def test_an_unwritable_folder_only_costs_the_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv("HEXKERNEL_CACHE_DIR", str(blocker))   # the cache root is a file: no folder can be made
    monkeypatch.setenv("HEXKERNEL_NUMBA_CACHE", "1")
    _disk_cache.save("art", "key", {"values": np.arange(3)})
    assert _disk_cache.load("art", "key", ("values",)) is None


def test_digest_tells_arrays_apart_by_dtype_shape_and_values():
    values = np.arange(6, dtype=np.int32)
    keys = {_disk_cache.digest([values]), _disk_cache.digest([values.astype(np.int64)]),
            _disk_cache.digest([values.reshape(2, 3)]), _disk_cache.digest([values + 1]), _disk_cache.digest([6])}
    assert len(keys) == 5
    assert _disk_cache.digest([values]) == _disk_cache.digest([values.copy()])


def _template_files(root):
    folder = root / "templates"
    return sorted(folder.glob("*.npz")) if folder.is_dir() else []


def _same_templates(a, b):
    return all(np.array_equal(getattr(a, name), getattr(b, name)) for name in _template_store.TABLE_NAMES + (
        "grid", "offset", "base", "packed"))


def _counting_build(monkeypatch):
    calls = []
    original = tracer._build_tables

    def build(*args):
        calls.append(args)
        return original(*args)
    monkeypatch.setattr(tracer, "_build_tables", build)
    return calls


def test_templates_are_read_back_and_shared_by_maps_of_one_size(cache_root, monkeypatch):
    board = kernel.random_board("asl", 8, 6, seed=0)
    built = tracer.TraceTemplates(board)
    assert len(_template_files(cache_root)) == 1
    calls = _counting_build(monkeypatch)
    again = tracer.TraceTemplates(kernel.random_board("asl", 8, 6, seed=1))   # same size, other terrain
    assert calls == [] and _same_templates(built, again)
    tracer.TraceTemplates(kernel.random_board("asl", 9, 6, seed=0))          # another size: built, stored
    assert len(calls) == 1 and len(_template_files(cache_root)) == 2


def test_templates_stale_damaged_or_off(cache_root, monkeypatch):
    board = kernel.random_board("asl", 8, 6, seed=0)
    expected = tracer.TraceTemplates(board)
    [path] = _template_files(cache_root)
    calls = _counting_build(monkeypatch)
    path.write_bytes(path.read_bytes()[:100])                 # damaged: built again, no crash, file replaced
    assert _same_templates(tracer.TraceTemplates(board), expected) and len(calls) == 1
    assert _same_templates(tracer.TraceTemplates(board), expected) and len(calls) == 1
    stored = dict(np.load(path))
    stored["start"] = stored["start"][:-1]                    # whole file, wrong sizes: not used
    np.savez(path, **stored)
    assert _same_templates(tracer.TraceTemplates(board), expected) and len(calls) == 2
    monkeypatch.setattr(_disk_cache, "_package_digest", [b"the package code, edited"])   # stale key: built again
    assert _same_templates(tracer.TraceTemplates(board), expected) and len(calls) == 3
    assert len(_template_files(cache_root)) == 2
    monkeypatch.setenv("HEXKERNEL_NUMBA_CACHE", "0")          # off: neither read nor written
    assert _same_templates(tracer.TraceTemplates(board), expected) and len(calls) == 4
    monkeypatch.setattr(_disk_cache, "_package_digest", [b"edited again"])
    tracer.TraceTemplates(board)
    assert len(calls) == 5 and len(_template_files(cache_root)) == 2


def test_templates_over_the_size_limit_are_not_stored(cache_root, monkeypatch):
    monkeypatch.setattr(_template_store, "MAX_STORED_BYTES", 1000)
    tracer.TraceTemplates(kernel.random_board("asl", 8, 6, seed=0))
    assert _template_files(cache_root) == []


def test_warm_computes_the_arrays_anew_and_stores_them(cache_root, monkeypatch):
    """``hexkernel warm`` reads no file (so the kernels computing the arrays are compiled whatever the disk
    holds) and leaves the bundled maps' art and templates on disk."""
    from kernel.cli.warm_command import run_steps

    step = "bundled maps: art and trace templates on disk"
    run_steps(None, [step])
    assert len(_files(cache_root)) == 2 and len(_template_files(cache_root)) == 2
    rasterised = []
    original = _art_kernels.rasterise_kernel
    monkeypatch.setattr(_art_kernels, "rasterise_kernel", lambda *args: (rasterised.append(1), original(*args)))
    built = _counting_build(monkeypatch)
    run_steps(None, [step])
    assert len(rasterised) == 2 and len(built) == 2
    assert _disk_cache.READ is True   # put back after warm's steps
    art_module.board_art(kernel.load("default"))
    assert len(rasterised) == 2


def test_an_edit_anywhere_in_the_package_changes_every_key(tmp_path):
    """The keys hold a digest of every source file of the package, not only of the modules that compute the
    arrays: an edit of a module they import (here one of the movement package) gives new keys."""
    shutil.copytree(Path(kernel.__file__).parent, tmp_path / "kernel",
                    ignore=shutil.ignore_patterns("__pycache__"))
    code = "from kernel import _disk_cache; print(_disk_cache.digest(['templates', 3, 4]))"

    def key():
        return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                              check=True, env={**os.environ, "PYTHONPATH": str(tmp_path)}).stdout

    before = key()
    assert before == key()
    edited = tmp_path / "kernel" / "movement" / "__init__.py"
    edited.write_text(edited.read_text() + "\n# an edit\n")
    assert key() != before


# ---------------------------------------------------------------- content digests: a crafted file is not used
def _tamper(path, change):
    """Rewrite a cache file with ``change`` applied to its arrays, keeping its stored digest (as a file edited
    by hand, or crafted, would)."""
    stored = dict(np.load(path))
    change(stored)
    np.savez(path, **stored)


def test_crafted_templates_of_the_right_shapes_are_not_used(cache_root, monkeypatch):
    """Templates with dcol + 1 (shapes and dtypes kept) changed los, matrix and fire answers, with rc 0."""
    board = kernel.random_board("asl", 8, 6, seed=0)
    expected, fire = kernel.los_matrix(board), kernel.field_of_fire(board, [3, 17]).hindrance
    [path] = _template_files(cache_root)
    _tamper(path, lambda stored: stored.__setitem__("dcol", stored["dcol"] + 1))
    calls = _counting_build(monkeypatch)
    again = kernel.random_board("asl", 8, 6, seed=0)   # a new board: its templates come from the disk, or are built
    assert np.array_equal(kernel.los_matrix(again), expected) and len(calls) == 1
    assert np.array_equal(kernel.field_of_fire(again, [3, 17]).hindrance, fire)
    assert _disk_cache.load("templates", path.stem, _template_store.TABLE_NAMES) is not None   # replaced, whole


def test_crafted_art_of_the_right_shapes_is_not_used(cache_root):
    expected = art_module.board_art(kernel.load("default"))
    [name] = _files(cache_root)
    _tamper(cache_root / "art" / name, lambda stored: stored.__setitem__("pixels", np.roll(stored["pixels"], 7)))
    assert _same(art_module.board_art(kernel.load("default")), expected)


def test_a_file_copied_from_another_key_is_not_used(cache_root):
    _disk_cache.save("art", "one", {"values": np.arange(3)})
    _disk_cache.save("art", "two", {"values": np.arange(4)})
    shutil.copy(cache_root / "art" / "one.npz", cache_root / "art" / "two.npz")
    assert _disk_cache.load("art", "two", ("values",)) is None
    assert _disk_cache.load("art", "one", ("values",))["values"].tolist() == [0, 1, 2]


def test_the_content_digest_covers_key_names_dtypes_shapes_and_bytes():
    base = {"a": np.arange(6, dtype=np.int16), "b": np.zeros((2, 2), np.bool_)}
    digest = _disk_cache.content_digest("k", base)
    variants = [("j", base), ("k", {**base, "a": base["a"] + 1}), ("k", {**base, "a": base["a"].astype(np.int32)}),
                ("k", {**base, "a": base["a"].reshape(2, 3)}), ("k", {"c": base["a"], "b": base["b"]}),
                ("k", {"a": base["a"]})]
    assert all(_disk_cache.content_digest(key, arrays) != digest for key, arrays in variants)
    assert _disk_cache.content_digest("k", {name: array.copy() for name, array in base.items()}) == digest
