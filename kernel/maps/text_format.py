"""The section grammar shared by the board, overlay and scenario files, and file lookup.

The format is documented in ``docs/board-format.md``.  Files are split into
``[sections]``; ``[board]``, ``[scenario]`` and ``[switches]`` hold
``key = value`` lines, the other sections are whitespace-separated tables.
``#`` starts a comment.  Every error names the file, the line and, where
there is one, the grid coordinate, and no half-built board is ever returned.
"""

from __future__ import annotations

from pathlib import Path

from kernel.maps.bundled import data_dir
from kernel.maps.specs import BoardFileError

def read_sections(path: Path, allowed: dict[str, str]) -> dict[str, list[tuple[int, str]]]:
    """Split a file into sections of (line number, text) with comments removed."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"file {str(path)!r} does not exist") from None
    except UnicodeDecodeError as error:
        raise BoardFileError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    sections: dict[str, list[tuple[int, str]]] = {}
    current = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                raise BoardFileError(f"{path}:{number}: section header {line!r} has no closing ']'")
            current = line[1:-1].strip()
            if current not in allowed:
                raise BoardFileError(
                    f"{path}:{number}: unknown section [{current}]: expected one of "
                    + ", ".join(f"[{name}]" for name in allowed)
                )
            if current in sections:
                raise BoardFileError(f"{path}:{number}: section [{current}] appears twice")
            sections[current] = []
            continue
        if current is None:
            raise BoardFileError(f"{path}:{number}: {line!r} comes before any [section] header")
        sections[current].append((number, line))
    return sections


def key_values(path: Path, lines, allowed: set[str]) -> dict[str, tuple[int, str]]:
    values: dict[str, tuple[int, str]] = {}
    for number, line in lines:
        if "=" not in line:
            raise BoardFileError(f"{path}:{number}: {line!r}: expected 'key = value'")
        key, value = (part.strip() for part in line.split("=", 1))
        if key not in allowed:
            raise BoardFileError(f"{path}:{number}: unknown key {key!r}: expected one of {', '.join(sorted(allowed))}")
        if key in values:
            raise BoardFileError(f"{path}:{number}: key {key!r} given twice (first on line {values[key][0]})")
        values[key] = (number, value)
    return values


def parse_integer(path: Path, number: int, what: str, text: str, minimum: int | None = None) -> int:
    try:
        value = int(text)
    except ValueError:
        raise BoardFileError(f"{path}:{number}: {what} is {text!r}: expected an integer") from None
    if minimum is not None and value < minimum:
        raise BoardFileError(f"{path}:{number}: {what} is {value}: expected at least {minimum}")
    return value


def parse_boolean(path: Path, number: int, what: str, text: str) -> bool:
    lowered = text.lower()
    if lowered in ("yes", "true", "on"):
        return True
    if lowered in ("no", "false", "off"):
        return False
    raise BoardFileError(f"{path}:{number}: {what} is {text!r}: expected yes/no (or true/false)")


def resolve_file(name_or_path: str | Path, base: Path | None, kind: str) -> Path:
    """Find a board/overlay/scenario by path (relative to ``base``) or bundled name."""
    folders = {"board": "boards", "overlay": "overlays", "scenario": "scenarios"}
    candidate = Path(name_or_path)
    if base is not None and not candidate.is_absolute():
        relative = base / candidate
        if relative.is_file():
            return relative
    if candidate.is_file():
        return candidate
    bundled = data_dir() / folders[kind] / f"{name_or_path}.{kind}"
    if bundled.is_file():
        return bundled
    known = sorted(p.stem for p in (data_dir() / folders[kind]).glob(f"*.{kind}"))
    raise FileNotFoundError(
        f"no {kind} {str(name_or_path)!r}: expected a file path or a bundled {kind} name ({', '.join(known) or 'none'})"
    )
