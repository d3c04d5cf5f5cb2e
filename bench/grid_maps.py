"""Square maps of the bundled boards 71 and 72 for the benchmarks: one scenario writer for every size."""

from __future__ import annotations

from pathlib import Path


def write_board_grid(folder: str | Path, side: int, *, first_number: int, title: str) -> Path:
    """Write a ``side`` x ``side`` scenario of boards 71 and 72 in a chequer, every other row rotated.

    The boards are renumbered from ``first_number`` (``as N``) so that every hex name is unique.

    Examples
    --------
    >>> import tempfile, kernel
    >>> path = write_board_grid(tempfile.mkdtemp(), 2, first_number=81, title="four boards")
    >>> len(kernel.load(path))
    1332
    """
    lines = ["[scenario]", f"title = {title}", "ruleset = asl", "[boards]"]
    number = first_number
    for row in range(side):
        for column in range(side):
            name = "71" if (row + column) % 2 == 0 else "72"
            lines.append(f"{row} {column} {name}{' rotated' if row % 2 else ''} as {number}")
            number += 1
    path = Path(folder) / f"{title.replace(' ', '-')}.scenario"
    path.write_text("\n".join(lines) + "\n")
    return path
