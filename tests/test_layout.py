"""The package's layout: one-way imports between layers, small modules, the public face and its one list of names.

The layers follow a map's path from its files to the results
(``docs/architecture.md``); a module may import its own layer and the layers
below it, never one above (imports inside functions included).
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import kernel

PACKAGE = Path(kernel.__file__).resolve().parent

#: Layer of each part of the package, lowest first.  Sibling parts of one
#: layer (line_of_sight and movement; render and cli are not siblings) may
#: not import each other either.
LAYERS = {
    "kernel._dtypes": 0, "kernel._limits": 0, "kernel._cache": 0, "kernel._extras": 0, "kernel._disk_cache": 0,
    "kernel._signals": -1,   # (held signals: below everything that loads, imports or cleans up)
    "kernel._threads": 0,
    "kernel._shipped_kernels": 0.5,   # a wheel's machine code, which numba's cache finds
    "kernel._cache_files": 0.75, "kernel._compile_notice": 0.75,   # numba's cache files; the first-compile notice
    "kernel._numba_cache": 1,   # (its folder is the on-disk cache's)
    "kernel._jit": 1.5,         # (the options, with the cache and the threads below them)
    "kernel.grid": 2,
    "kernel.maps": 3,
    "kernel.importers": 4,
    "kernel.loading": 5,
    "kernel.line_of_sight": 6, "kernel.movement": 6,
    "kernel.render": 7, "kernel.batch": 7, "kernel.concealment": 7,
    "kernel.cli": 8,
}
#: The public face sits above everything and may import anything.
FACE = {"kernel"}
MAX_LINES = 500


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _part(module: str) -> str | None:
    for prefix in sorted(LAYERS, key=len, reverse=True):
        if module == prefix or module.startswith(prefix + "."):
            return prefix
    return None


SOURCES = sorted(PACKAGE.rglob("*.py"))


def _module_names() -> set[str]:
    return {_module_name(path) for path in SOURCES}


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every ``kernel`` module imported by a file, with its line: ``from kernel import x`` names kernel.x, and
    ``from kernel.pkg import _mod`` names the module ``kernel.pkg._mod`` where there is one, else ``kernel.pkg``."""
    modules = _module_names()
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if alias.name.startswith("kernel")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kernel") and node.level == 0:
            if node.module == "kernel":
                found += [(node.lineno, f"kernel.{alias.name}") for alias in node.names]
                continue
            named = [f"{node.module}.{alias.name}" for alias in node.names]
            submodules = [name for name in named if name in modules]
            found += [(node.lineno, name) for name in submodules]
            if len(submodules) < len(named):
                found.append((node.lineno, node.module))
    return found


def test_every_module_has_a_layer():
    missing = [_module_name(p) for p in SOURCES if _module_name(p) not in FACE and _part(_module_name(p)) is None]
    assert missing == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: _module_name(p))
def test_imports_go_one_way(path):
    importer = _module_name(path)
    if importer in FACE:
        return
    own = _part(importer)
    wrong = []
    for line, imported in _imports(path):
        if imported.startswith("kernel.") and imported.split(".")[1] in kernel.__all__:
            # the public face sits above everything: only the CLI may use it
            if own != "kernel.cli":
                wrong.append(f"{path.name}:{line} imports {imported} from the public face")
            continue
        target = _part(imported)
        if target is None or target == own:
            continue
        if LAYERS[target] >= LAYERS[own]:
            wrong.append(f"{path.name}:{line} imports {imported} (layer {LAYERS[target]}, its own {LAYERS[own]})")
    assert wrong == []


def test_the_layer_check_can_fail(tmp_path):
    """The check above sees a lazy upward import inside a function, and a module imported from its package."""
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from kernel.render.common import save\n    import kernel.cli\n"
                     "from kernel.maps import _art_kernels, art as pictures\nfrom kernel.maps.art import board_art\n")
    assert sorted(name for _, name in _imports(probe)) == [
        "kernel.cli", "kernel.maps._art_kernels", "kernel.maps.art", "kernel.maps.art", "kernel.render.common"]


#: The kernels' own modules: a name starting with ``_`` below ``line_of_sight`` or ``movement``.
def _private_kernel(module: str) -> bool:
    parts = module.split(".")
    return len(parts) > 2 and parts[1] in ("line_of_sight", "movement") and any(p.startswith("_") for p in parts[2:])


@pytest.mark.parametrize("path", [p for p in SOURCES if _module_name(p).startswith(("kernel.render", "kernel.cli",
                                                                                      "kernel.batch"))],
                         ids=lambda p: _module_name(p))
def test_pictures_commands_and_batches_use_no_private_kernel(path):
    """Pictures, commands and batch jobs reach the kernels through the LOS and movement modules' public
    functions, never a private kernel module."""
    assert [f"{path.name}:{line} imports {name}" for line, name in _imports(path) if _private_kernel(name)] == []


def test_the_private_kernel_check_can_fail():
    assert _private_kernel("kernel.line_of_sight._hex.queries") and _private_kernel("kernel.movement._kernels")
    assert not _private_kernel("kernel.line_of_sight.report") and not _private_kernel("kernel.maps._art_kernels")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: _module_name(p))
def test_modules_are_small(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{_module_name(path)} has {lines} lines: expected at most {MAX_LINES}"


def test_no_run_time_import_of_test_only_packages():
    """networkx is only the tests' oracle; scipy is imported lazily by movement_graph alone."""
    for path in SOURCES:
        for line, node in [(n.lineno, n) for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                           if isinstance(n, (ast.Import, ast.ImportFrom))]:
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            assert not any(name.split(".")[0] == "networkx" for name in names), f"{path.name}:{line}"


def test_import_kernel_is_light():
    """None of the extras' packages (nor numba) is imported by ``import kernel`` or by the command line's parser."""
    heavy = ('numba', 'matplotlib', 'scipy', 'networkx', 'dask', 'distributed', 'zarr', 'tornado', 'tqdm')
    code = (f"import sys, kernel, kernel.cli.app; kernel.cli.app.build_parser(); "
            f"print(sorted(m for m in {heavy!r} if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"



def test_loading_a_text_map_leaves_the_vasl_importer_unimported():
    """``kernel.load`` of a hexkernel scenario imports the VASL board importer only for a VASL board."""
    code = ("import sys, kernel; kernel.load('default'); "
            "print('kernel.importers.vasl.build' in sys.modules, 'kernel.maps.art' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False False"

def test_public_names_resolve_and_are_listed():
    assert kernel.__all__ == sorted(set(kernel.__all__))
    for name in kernel.__all__:
        assert getattr(kernel, name) is not None, name
        assert name in dir(kernel)


def test_no_public_name_is_also_a_module():
    """``kernel.los`` is the function; no module or subpackage of kernel is called like a public name."""
    modules = {p.stem if p.name != "__init__.py" else p.parent.name for p in SOURCES}
    assert sorted(set(kernel.__all__) & modules) == []
    assert callable(kernel.los)
    with pytest.raises(ModuleNotFoundError, match="kernel.los"):
        __import__("kernel.los")


def test_unknown_public_name():
    with pytest.raises(AttributeError, match="module 'kernel' has no attribute 'lso'"):
        kernel.lso  # noqa: B018


@pytest.mark.parametrize("old", ["kernel.board", "kernel.boardfile", "kernel.vasl", "kernel.geometry"])
def test_no_old_module_paths(old):
    """0.2 dropped the 0.1 module aliases: one import path per name (``from kernel import ...``)."""
    with pytest.raises(ModuleNotFoundError, match=old.replace(".", r"\.")):
        importlib.import_module(old)
    import kernel.movement

    with pytest.raises(AttributeError, match="movement_field"):
        kernel.movement.movement_field  # noqa: B018
    assert not any(type(finder).__module__.startswith("kernel") for finder in sys.meta_path)


def _type_checking_names() -> dict[str, tuple[str, str]]:
    """Public name -> (module, name there) of the imports under ``if TYPE_CHECKING:`` in kernel/__init__.py."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom), ast.dump(statement)
                for alias in statement.names:
                    public = alias.asname or alias.name
                    assert public not in found, f"{public} imported twice for the type checker"
                    found[public] = (statement.module, alias.name)
    return found


def test_type_checker_and_all_share_one_list_of_public_names():
    """What a type checker sees (the TYPE_CHECKING imports) is exactly ``__all__``, from the same modules."""
    seen = _type_checking_names()
    assert sorted(seen) == kernel.__all__
    assert seen == kernel._API


def test_the_public_names_check_can_fail(monkeypatch):
    monkeypatch.setitem(kernel._API, "not_imported_for_type_checkers", ("kernel.loading", "load"))
    assert _type_checking_names() != kernel._API


def test_version():
    from importlib.metadata import version

    assert kernel.__version__ == "0.2.0" == version("hexkernel")


def _circles(graph: dict[str, set[str]], skip: set[str]) -> list[str]:
    """Every import circle of ``graph`` (module -> the modules it imports), as ``a -> b -> a``."""
    circles = set()

    def walk(node, stack):
        for nxt in graph.get(node, ()):
            if nxt in skip or nxt not in graph:
                continue
            if nxt in stack:
                circles.add(" -> ".join(stack[stack.index(nxt):] + [nxt]))
            else:
                walk(nxt, stack + [nxt])

    for start in graph:
        if start not in skip:
            walk(start, [start])
    return sorted(circles)


def _import_graph() -> dict[str, set[str]]:
    return {_module_name(path): {imported for _, imported in _imports(path)} - {_module_name(path)}
            for path in SOURCES}


#: Left out of the circle check: the public face and the packages whose ``__init__`` only lists or hooks names.
CIRCLE_SKIP = FACE | {"kernel.cli", "kernel.movement"}


def test_no_import_circle_inside_the_package():
    """No module reaches itself through imports (lazy and TYPE_CHECKING imports included)."""
    assert _circles(_import_graph(), CIRCLE_SKIP) == []


def test_the_circle_check_finds_the_old_circles():
    """The art kernels reading their constants from the art module, and ``warm`` importing the command line's
    entry point, were circles: put back into the graph, the check finds both."""
    graph = _import_graph()
    graph["kernel.maps._art_kernels"] = graph["kernel.maps._art_kernels"] | {"kernel.maps.art"}
    graph["kernel.cli.warm_command"] = graph["kernel.cli.warm_command"] | {"kernel.cli.app"}
    found = _circles(graph, CIRCLE_SKIP)
    assert any("kernel.maps._art_kernels" in c and "kernel.maps.art" in c for c in found)
    assert any("kernel.cli.warm_command" in c and "kernel.cli.app" in c for c in found)
