"""The ``hexkernel`` command line: one module per command, wired up in :mod:`kernel.cli.app`.

``build_parser`` and ``main`` are loaded on first use, so that the console
script (:mod:`kernel.cli.entry`) can set up its signal handling before the
commands' modules are imported.
"""

__all__ = ["build_parser", "main"]


def __getattr__(name: str):
    if name in __all__:
        from kernel.cli import app

        return getattr(app, name)
    raise AttributeError(f"module 'kernel.cli' has no attribute {name!r}")
