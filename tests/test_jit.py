"""The numba options of kernel/_jit.py: the on-disk cache follows every kernel source file."""

from __future__ import annotations

import os
import subprocess
import sys

from kernel import _jit


def test_kernel_sources_include_the_inlined_rule_steps():
    names = {path.relative_to(path.parents[1]).as_posix() for path in _jit.kernel_sources()}
    assert {"line_of_sight/_rules.py", "line_of_sight/_kernels.py", "movement/_kernels.py"} <= names
    assert "cli/app.py" not in names


def test_an_edited_rule_file_gets_a_new_cache_folder(tmp_path, monkeypatch):
    """numba checks only a cached function's own file; the folder name covers the files it inlines."""
    rules = next(p for p in _jit.kernel_sources() if p.name == "_rules.py")
    before = _jit.cache_fingerprint()
    original = rules.read_bytes
    monkeypatch.setattr(type(rules), "read_bytes",
                        lambda self: original.__func__(self) + (b"# edited" if self == rules else b""))
    assert _jit.cache_fingerprint() != before


def test_cache_folder_setting():
    env = {**os.environ, "HEXKERNEL_CACHE_DIR": "somewhere-else", "HEXKERNEL_NUMBA_CACHE": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    code = "import numba, kernel._jit as j; print(numba.config.CACHE_DIR == str(j.cache_dir()), j.cache_dir().parent)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert result.stdout.split() == ["True", "somewhere-else"]
