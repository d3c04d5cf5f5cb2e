"""The module paths of hexkernel 0.1's flat layout, kept as deprecated aliases for one version.

``from kernel.board import load`` still works: a meta-path finder serves each
old module name as a small alias module whose attributes are looked up, on
access, in the modules that now define them, and each access warns with a
:class:`DeprecationWarning` naming the new import path.  Old names that were
renamed are mapped too (``kernel.vasl.read_board_spec`` ->
``kernel.read_vasl_board``).

``kernel.los`` is not aliased: that name is now the function
:func:`kernel.los` (the module and the function sharing a name was the
mistake the new layout removes); import from ``kernel`` instead.
``kernel.movement`` is the movement package; its old names are served by the
package's own ``__getattr__`` through :func:`old_name`.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

#: Old module -> the modules that now define its names (searched in order).
OLD_MODULES: dict[str, tuple[str, ...]] = {
    "kernel.board": ("kernel.loading", "kernel.maps.board"),
    "kernel.boardfile": ("kernel.maps.specs", "kernel.maps.board_text", "kernel.maps.scenario_text",
                         "kernel.maps.text_format"),
    "kernel.coordinates": ("kernel.grid.coordinates", "kernel.grid.references", "kernel.grid.columns"),
    "kernel.geometry": ("kernel.grid.lattice",),
    "kernel.mapboard": ("kernel.maps.composition",),
    "kernel.rulesets": ("kernel.maps.rulesets",),
    "kernel.random_board": ("kernel.maps.random_maps",),
    "kernel.paths": ("kernel.maps.bundled",),
    "kernel.trace": ("kernel.line_of_sight.tracer",),
    "kernel.vasl": ("kernel.importers.vasl.build", "kernel.importers.vasl.files", "kernel.importers.vasl.pixels",
                    "kernel.importers.vasl.terrain_map"),
    "kernel.pictures": ("kernel.render.common", "kernel.render.board_map", "kernel.render.fire_map",
                        "kernel.render.movement_map", "kernel.render.los_trace", "kernel.render.matrix_map"),
    "kernel.movement": ("kernel.movement.fields", "kernel.movement.tables", "kernel.movement.inputs"),
}

#: Old (module, name) -> new name, for names that were renamed.
RENAMED: dict[tuple[str, str], str] = {
    ("kernel.vasl", "read_board_spec"): "read_vasl_board",
    ("kernel.vasl", "load_board"): "load_vasl_board",
}


def old_name(old_module: str, name: str):
    """The object the old path ``old_module.name`` now names, with a DeprecationWarning.

    Raises
    ------
    AttributeError
        ``name`` was not a public name of ``old_module`` (or is private).
    """
    if name.startswith("_"):
        raise AttributeError(f"module {old_module!r} has no attribute {name!r}")
    new_name = RENAMED.get((old_module, name), name)
    for module_name in OLD_MODULES[old_module]:
        module = importlib.import_module(module_name)
        if hasattr(module, new_name):
            public = importlib.import_module("kernel")
            where = f"kernel.{new_name}" if new_name in public.__all__ else f"{module_name}.{new_name}"
            warnings.warn(f"{old_module}.{name} is deprecated and will be removed in hexkernel 0.3: use {where}",
                          DeprecationWarning, stacklevel=3)
            return getattr(module, new_name)
    raise AttributeError(f"module {old_module!r} has no attribute {name!r}")


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the old flat module names (not ``kernel.movement``, a real package) as alias modules."""

    def find_spec(self, fullname, path, target=None):
        if fullname in OLD_MODULES and fullname != "kernel.movement":
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        old_module = module.__name__
        module.__doc__ = f"Deprecated alias of {', '.join(OLD_MODULES[old_module])} (see kernel._deprecated)."

        def __getattr__(name):
            return old_name(old_module, name)

        module.__getattr__ = __getattr__


def install() -> None:
    """Add the finder to ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, _AliasFinder) for finder in sys.meta_path):
        sys.meta_path.append(_AliasFinder())
