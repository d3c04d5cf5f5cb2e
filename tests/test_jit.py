"""The numba cache of kernel/_numba_cache.py: the on-disk cache follows every kernel source file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kernel import _disk_cache, _numba_cache as _jit


def test_kernel_sources_include_the_inlined_rule_steps():
    package = Path(_jit.__file__).resolve().parent
    names = {path.relative_to(package).as_posix() for path in _jit.kernel_sources()}
    assert {"line_of_sight/_hex/rules.py", "line_of_sight/_hex/pairs.py", "movement/_kernels.py"} <= names
    assert "cli/app.py" not in names


def test_an_edited_rule_file_gets_a_new_cache_folder(tmp_path, monkeypatch):
    """numba checks only a cached function's own file; the folder name covers the files it inlines."""
    rules = next(p for p in _jit.kernel_sources() if p.name == "rules.py" and p.parent.name == "_hex")
    before = _jit.cache_fingerprint()
    monkeypatch.setattr(_disk_cache, "_package_files", [])  # the sources are read again, once
    original = rules.read_bytes
    monkeypatch.setattr(type(rules), "read_bytes",
                        lambda self: original.__func__(self) + (b"# edited" if self == rules else b""))
    assert _jit.cache_fingerprint() != before


def test_cache_folder_setting():
    env = {**os.environ, "HEXKERNEL_CACHE_DIR": "somewhere-else", "HEXKERNEL_NUMBA_CACHE": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    code = "import numba, kernel._numba_cache as j; print(numba.config.CACHE_DIR == str(j.cache_dir()), j.cache_dir().parent)"
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


def _code_lines(function) -> list[str]:
    """The statements of ``function``'s body: no docstring, comments or blank lines."""
    import ast
    import inspect
    import textwrap

    tree = ast.parse(textwrap.dedent(inspect.getsource(function))).body[0]
    body = tree.body[1:] if isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant) \
        else tree.body
    return [ast.unparse(node) for node in body]


def test_numba_still_loads_a_cached_kernel_as_the_replacement_assumes():
    """The kernels' cache replaces numba's ``Cache.load_overload`` (a refresh of the target, then the load) and
    is put where ``enable_caching`` puts numba's own: fails if numba changes either."""
    from numba.core import caching, dispatcher

    assert _code_lines(caching.Cache.load_overload) == [
        "target_context.refresh()",
        "with self._guard_against_spurious_io_errors():\n    return self._load_overload(sig, target_context)"]
    assert _code_lines(dispatcher.Dispatcher.enable_caching) == ["self._cache = FunctionCache(self.py_func)"]
    assert _code_lines(_jit._CacheLoadedWithoutRefresh.load_overload)[-1] == _code_lines(caching.Cache.load_overload)[-1]


def test_every_kernel_caches_through_the_loader_without_refresh():
    from kernel.line_of_sight._hex import pairs as _kernels
    from kernel.line_of_sight._templates import tracer
    from kernel.movement import _kernels as movement_kernels

    kernels = [value for module in (_kernels, tracer, movement_kernels) for value in vars(module).values()
               if hasattr(value, "overloads") and hasattr(value, "py_func")]
    assert len(kernels) > 5
    assert all(type(kernel._cache) is _jit._CacheLoadedWithoutRefresh for kernel in kernels)


def test_a_process_that_loads_cached_kernels_sets_up_no_numba_registries_and_compiles_after():
    """A fresh process whose kernels come from the cache sets up none of numba's registries (its array
    math module among them), imports no scipy.linalg (nor the depiction model's kernels, unused here),
    gets the same answers, and still compiles new code (which sets them up)."""
    code = ("import sys, numpy as np, kernel\n"
            "b = kernel.load('default')\n"
            "los = kernel.los(b, '71I4', '72M6'); pairs = kernel.los_pairs(b, ['71I4', '72M6'], ['71Q5', '71I4'])\n"
            "field = kernel.movement_field(b, '71I4', unit='infantry', allowance=4)\n"
            "registries = ['numba.np.arraymath' in sys.modules, 'kernel.line_of_sight._depiction.walk' in sys.modules]\n"
            "s = kernel.GameState(b); h = kernel.HeldLOSMatrix(b, s, ['71I4', '72M6']); s.place_smoke('71J5', 3)\n"
            "h.refresh()  # its kernel's machine code refers to numba's arraymath, imported on loading it\n"
            "registries.append('scipy.linalg' in sys.modules)\n"
            "import numba\n"
            "extra = numba.njit(lambda x: np.zeros(3) + x.sum())(np.arange(3.0))\n"
            "print(registries, los.visible, los.hindrance, pairs.visible.tolist(), pairs.hindrance.tolist(),"
            " float(np.where(np.isinf(field.cost), 0, field.cost).sum()), extra.tolist())")
    # the first process may compile (a cold cache); the second loads what the first cached
    first, second = (subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
                     for _ in range(2))
    registries, answers = second.split("]", 1)
    assert registries + "]" == "[False, False, False]", second
    assert answers == first.split("]", 1)[1]
    assert answers.strip().endswith("[3.0, 3.0, 3.0]")


def test_a_kernel_compiled_first_in_a_process_imports_no_scipy_linalg(tmp_path):
    """The BLAS question is answered without scipy before a process's first kernel compile (here a kernel
    of this test, through the project's options and a cold cache), and numba's own check is put back."""
    (tmp_path / "probe_kernel.py").write_text("from kernel._jit import jit\n\n\n@jit\ndef plus_one(x):\n"
                                              "    return x + 1\n", encoding="utf-8")
    code = ("import sys, importlib.util, numpy as np, numba, probe_kernel\n"
            "value = probe_kernel.plus_one(1)\n"
            "after_compile = 'scipy.linalg' in sys.modules\n"
            "import numba.np.arraymath as arraymath, numba.np.linalg as linalg\n"
            "has_scipy = importlib.util.find_spec('scipy') is not None\n"
            "dot = numba.njit(lambda x, y: np.dot(x, y))(np.arange(3.0), np.arange(3.0)) if has_scipy else 5.0\n"
            "print(value, after_compile, linalg.ensure_blas.__name__, arraymath.ensure_blas is linalg.ensure_blas,"
            " arraymath._HAVE_BLAS == has_scipy, dot)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
           "HEXKERNEL_CACHE_DIR": str(tmp_path / "cache"), "HEXKERNEL_NUMBA_CACHE": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert result.stdout.split() == ["2", "False", "ensure_blas", "True", "True", "5.0"]


def test_thread_count_starts_no_numba_threads_until_the_setting_changes():
    """Reading and setting the thread count start none of numba's threads (numba's own functions would: the
    setting is the package's, handed to numba only before a call of one of its parallel loops, and not even
    then while it is numba's default). Fails if numba's functions no longer start the threads first."""
    from numba.np.ufunc import parallel

    for function in (parallel.get_num_threads, parallel.set_num_threads):
        assert any(line.startswith("_launch_threads()") for line in _code_lines(function))
    code = ("import numba, numba.np.ufunc.parallel as parallel, kernel, kernel._threads as T\n"
            "count, started = kernel.thread_count(), parallel._is_initialized\n"
            "previous = kernel.set_thread_count(1)\n"
            "T.numba_threads(kernel.max_threads())\n"
            "still = parallel._is_initialized\n"
            "T.numba_threads(1)\n"
            "print(1 <= count <= kernel.max_threads(), started, previous, kernel.thread_count(), still,"
            " parallel._is_initialized, numba.get_num_threads())")
    env = {**os.environ}
    env.pop("HEXKERNEL_THREADS", None)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert result.stdout.split() == ["True", "False", "None", "1", "False", "True", "1"]

def test_the_compile_cost_table_refuses_to_run_with_the_cache_on(monkeypatch):
    """``python -m bench.compile_costs`` counts compiles, which a cache hit hides: with the cache on it stops."""
    from bench import compile_costs

    monkeypatch.setattr(_jit, "CACHE", True)
    with pytest.raises(SystemExit, match="the cache must be off"):
        compile_costs.main([])
