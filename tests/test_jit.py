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


def test_numba_start_up_imports_no_scipy_linalg_and_blas_still_works():
    """Loading a kernel does not import scipy.linalg (numba's BLAS question is answered without it); a
    jitted ``np.dot`` of floats still uses BLAS where scipy is installed, and gives the product."""
    code = ("import sys, importlib.util, numpy as np, numba, kernel\n"
            "b = kernel.load('default'); kernel.los(b, '71I4', '72M6')\n"
            "after_kernel = 'scipy.linalg' in sys.modules\n"
            "import numba.np.arraymath as arraymath, numba.np.linalg as linalg\n"
            "restored = arraymath.ensure_blas is linalg.ensure_blas and linalg.ensure_blas.__name__ == 'ensure_blas'\n"
            "has_scipy = importlib.util.find_spec('scipy') is not None\n"
            "dot = numba.njit(lambda x, y: np.dot(x, y))\n"
            "value = dot(np.arange(3.0), np.arange(3.0)) if has_scipy else 5.0\n"
            "print(after_kernel, restored, arraymath._HAVE_BLAS == has_scipy, value)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "True", "True", "5.0"]
