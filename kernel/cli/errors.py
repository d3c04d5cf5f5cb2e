"""The one exception of the command line: a user's mistake, reported in one line with exit code 2."""

from __future__ import annotations


class UserError(Exception):
    """A mistake in the command line or its inputs (exit code 2)."""
