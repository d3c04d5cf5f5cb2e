"""A cache folder on a full disk costs only the cache: every command still answers (``hexkernel los`` failed
with "cannot write an output file: No space left on device", writing no output file at all).  The save is
kernel._cache_files'; these tests hold it to the command line's behaviour on a real full disk."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import warnings

import pytest


def test_a_kernel_that_cannot_be_saved_is_used_with_one_warning(monkeypatch):
    from numba.core.caching import Cache

    from kernel import _cache_files, _numba_cache
    from kernel._jit import jit

    def full(self, sig, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Cache, "_save_overload", full)
    monkeypatch.setattr(_cache_files, "_warned", set())
    if not _numba_cache.CACHE:
        pytest.skip("the kernels' cache is off (HEXKERNEL_NUMBA_CACHE=0)")

    @jit
    def twice(x):
        return 2 * x

    @jit
    def thrice(x):
        return 3 * x

    twice._cache.load_overload = lambda sig, context: None   # a miss: compiled, then saved (which fails)
    thrice._cache.load_overload = lambda sig, context: None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert twice(21) == 42 and thrice(2) == 6
    from numba.core import config

    assert [str(w.message) for w in caught] == [
        f"cannot write the kernel cache in {config.CACHE_DIR} (No space left on device): kernels compile again in "
        "every process; set HEXKERNEL_CACHE_DIR to a writable folder"]
    assert caught[0].category is _cache_files.UnwritableCacheWarning


def test_los_with_its_cache_folder_on_a_full_disk(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        (folder / "filler").write_bytes(b"\0" * 60_000)   # the disk is full before anything is cached
        environment = {**os.environ, "HEXKERNEL_CACHE_DIR": str(folder)}
        result = subprocess.run([sys.executable, "-m", "kernel.cli", "los", "71I4", "71I6"], capture_output=True,
                                text=True, timeout=900, env=environment)
        assert result.returncode == 0, result.stderr[-1000:]
        assert "71I4" in result.stdout
        notes = result.stderr.strip().splitlines()
        cache = [line for line in notes if "cannot write the kernel cache" in line]
        assert "Traceback" not in result.stderr and len(cache) == 1, notes   # (and the first compile's notice)
        assert cache[0].startswith("hexkernel los: note: cannot write the kernel cache in ") \
            and "(No space left on device): kernels compile again in every process" in cache[0], notes
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)
