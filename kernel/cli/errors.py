"""The command line's own exceptions: a user's mistake (exit code 2) and a SIGTERM (exit code 143)."""

from __future__ import annotations


class UserError(Exception):
    """A mistake in the command line or its inputs (exit code 2)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, ``timeout``): stops a command like Ctrl-C, so its staged outputs are deleted."""
