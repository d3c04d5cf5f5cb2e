"""The section grammar shared by the board, overlay and scenario files, and file lookup.

The format is documented in ``docs/board-format.md``.  Files are split into
``[sections]``; ``[board]``, ``[scenario]`` and ``[switches]`` hold
``key = value`` lines, the other sections are whitespace-separated tables.
``#`` starts a comment.  Every error names the file, the line and, where
there is one, the grid coordinate, and no half-built board is ever returned.
"""

from __future__ import annotations

from pathlib import Path

from kernel._limits import MAX_FILE_BYTES, read_limited
from kernel.maps.bundled import data_dir
from kernel.maps.specs import BoardFileError


def read_sections(path: Path, allowed: dict[str, str]) -> dict[str, list[tuple[int, str]]]:
    """Split a file into sections of (line number, text) with comments removed."""
    try:
        raw = read_limited(path)
    except FileNotFoundError:
        raise FileNotFoundError(f"file {str(path)!r} does not exist") from None
    except IsADirectoryError:
        raise BoardFileError(f"{path}: is a folder: expected a text file") from None
    except ValueError:
        raise BoardFileError(f"{path}: larger than {MAX_FILE_BYTES} bytes: expected a text file of at most that") from None
    try:
        text = raw.decode("utf-8-sig")  # a byte order mark, as some editors write, is not part of line 1
    except UnicodeDecodeError as error:
        raise BoardFileError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    if "\0" in text:
        raise BoardFileError(f"{path}:{text[:text.index(chr(0))].count(chr(10)) + 1}: holds a NUL byte: expected text")
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


def parse_integer(path: Path, number: int, what: str, text: str, minimum: int | None = None,
                  maximum: int | None = None) -> int:
    """An integer of at most 9 ASCII digits in ``minimum..maximum``, or a BoardFileError naming file and line."""
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
        raise BoardFileError(f"{path}:{number}: {what} is {text[:40]!r}: expected an integer"
                             + (" of at most 9 digits" if digits.isascii() and digits.isdigit() else ""))
    value = int(text)
    if minimum is not None and value < minimum:
        raise BoardFileError(f"{path}:{number}: {what} is {value}: expected at least {minimum}")
    if maximum is not None and value > maximum:
        raise BoardFileError(f"{path}:{number}: {what} is {value}: expected at most {maximum}")
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
    suffixes = (".scenario",) if kind == "scenario" else (".board", ".overlay")
    found = None
    if base is not None and not candidate.is_absolute() and (base / candidate).is_file():
        found = base / candidate
    elif candidate.is_file():
        found = candidate
    if found is not None:
        if found.suffix not in suffixes:
            # never read (nor quote) a file that does not say it is one of ours
            raise FileNotFoundError(f"{kind} {str(name_or_path)!r} is not a {' or '.join(suffixes)} file: "
                                    f"expected a {kind} file or a bundled {kind} name")
        return found
    bundled = data_dir() / folders[kind] / f"{name_or_path}.{kind}"
    if bundled.is_file():
        return bundled
    known = sorted(p.stem for p in (data_dir() / folders[kind]).glob(f"*.{kind}"))
    raise FileNotFoundError(
        f"no {kind} {str(name_or_path)!r}: expected a file path or a bundled {kind} name ({', '.join(known) or 'none'})"
    )
