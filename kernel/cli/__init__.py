"""The ``hexkernel`` command line: one module per command, wired up in :mod:`kernel.cli.app`."""

from kernel.cli.app import build_parser, main

__all__ = ["build_parser", "main"]
