"""What the ``hexkernel`` commands share: map and counters input, text, JSON and picture output, errors.

Every command writes text for people on stdout, JSON for programs (``--json``
on stdout instead of the text, or ``--json-out FILE``) and a picture
(``--png FILE`` / ``--svg FILE``); the options are in :mod:`kernel.cli.arguments`.
User mistakes raise :class:`UserError`, which :func:`kernel.cli.app.main` turns
into exit code 2 and a one-line message, never a traceback.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from kernel._limits import MAX_JSON_DEPTH, MAX_JSON_DIGITS, read_limited
from kernel.cli.errors import UserError
from kernel.cli.outputs import claim, staged
from kernel.loading import load
from kernel.maps.rulesets import RulesetError
from kernel.maps.specs import BoardFileError

# ---------------------------------------------------------------------------
# inputs: the map, Locations, unit classes, counters
# ---------------------------------------------------------------------------

def check_writable(*paths) -> None:
    """Claim outputs before any work (:meth:`kernel.cli.outputs.Outputs.claim`).

    Each item is a path (``None`` where an option was not given) or an
    ``(option, path, suffixes)`` triple as :func:`output_paths` gives.
    """
    for item in paths:
        option, path, suffixes = item if isinstance(item, tuple) else ("output", item, ())
        if not path:
            continue
        claim(option, path, suffixes)
        if Path(path).is_dir():
            raise UserError(f"cannot write {path}: it is a directory")
        parent = Path(path).parent
        if not parent.is_dir():
            raise UserError(f"cannot write {path}: folder {str(parent)!r} does not exist")


def load_map(name: str, args=None):
    """The compiled :class:`kernel.maps.board.Board` of ``--map``, or a UserError naming the bundled maps.

    A saved game (``.vsav``) is read with ``args``' ``--vasl-boards`` and
    ``--strict`` (:mod:`kernel.cli.saved_games`).
    """
    from kernel.cli.saved_games import is_save, load_saved_map

    try:
        if is_save(name):
            return load_saved_map(name, args)
        return load(name)
    except FileNotFoundError as error:
        if Path(name).suffix.lower() in (".scenario", ".board", ".vsav") or Path(name).exists():
            raise UserError(error_message(error)) from None
        from kernel.maps.bundled import data_dir

        known = [p.stem for folder in ("scenarios", "boards") for p in sorted((data_dir() / folder).glob(f"*.{folder[:-1]}"))]
        raise UserError(f"unknown map {name!r}: expected a .scenario or .board file, or a bundled name "
                        f"({', '.join(known)})") from None
    except (OSError, BoardFileError, RulesetError, ValueError, KeyError) as error:
        raise UserError(error_message(error)) from None


def error_message(error: BaseException) -> str:
    """One line for a user: a KeyError's own text, an OSError's file and reason."""
    if isinstance(error, KeyError) and error.args:
        return str(error.args[0])
    if isinstance(error, OSError) and error.strerror and error.filename:
        return f"{error.filename}: {error.strerror}"
    return str(error)


def parse_counters_json(text: str, where: str):
    """A counters file's JSON, refusing what cannot be a counters file before it costs time or memory.

    Refused with a UserError naming ``where`` (and the line and column of a
    syntax error): nesting deeper
    than :data:`kernel._limits.MAX_JSON_DEPTH`, an integer of more than
    :data:`kernel._limits.MAX_JSON_DIGITS` digits, ``NaN``/``Infinity``, and
    a key given twice in one object.
    """
    def integer(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_JSON_DIGITS:
            raise _CountersJsonError(f"an integer of {len(digits.lstrip('-'))} digits: expected at most "
                                     f"{MAX_JSON_DIGITS}")
        return int(digits)

    def constant(name: str):
        raise _CountersJsonError(f"{name}: expected a number")

    def unique(pairs):
        seen = {}
        for key, value in pairs:
            if key in seen:
                raise _CountersJsonError(f"key {key!r} given twice in one object: expected each key once")
            seen[key] = value
        return seen

    depth = 0
    deepest = 0
    in_string = escaped = False
    for char in text:  # a cheap scan: json's own recursion on deep nesting is slow and ends in RecursionError
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if depth > MAX_JSON_DEPTH:
                break
        elif char in "]}":
            depth -= 1
    if deepest > MAX_JSON_DEPTH:
        raise UserError(f"{where}: JSON nested deeper than {MAX_JSON_DEPTH} levels: expected a flat counters object")
    try:
        return json.loads(text, parse_int=integer, parse_constant=constant, object_pairs_hook=unique)
    except json.JSONDecodeError as error:
        raise UserError(f"{where}: not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except (_CountersJsonError, ValueError, RecursionError) as error:
        raise UserError(f"{where}: {error}") from None


class _CountersJsonError(ValueError):
    """A counters file's JSON holds something no counters file needs."""


def parse_location(board, text: str, what: str) -> tuple[int, int]:
    """``(hex index, level)`` of a hex or Location name (or, on a saved game's map, a unit's name), or a
    UserError naming ``what``."""
    from kernel.cli.saved_games import unit_location, unit_names_hint

    try:
        return board.location(text)
    except (KeyError, ValueError) as error:
        unit = unit_location(board, text, what)
        if unit is not None:
            return unit
        raise UserError(f"{what}: {error_message(error)}{unit_names_hint(board)}") from None


def unit_class(board, unit: str | None) -> str:
    """``--unit`` checked against the ruleset's unit classes (default: the first)."""
    rs = board.ruleset
    if unit is None:
        return rs.unit_classes[0]
    if unit not in rs.unit_classes:
        raise UserError(f"--unit: unknown unit class {unit!r} for ruleset {rs.name!r}: "
                        f"expected one of {', '.join(rs.unit_classes)}")
    return unit


def read_counters(board, path: str | None):
    """Counters from a JSON file: ``(kernel.Counters, normalised dict)`` or ``(None, {})``; on a saved
    game's map, the save's state (:class:`kernel.SavedGameState`) and its counters.

    The file's JSON is screened here (size, depth, numbers); its meaning is read by
    :meth:`kernel.Counters.from_dict`, the parser the map page shares.
    """
    from kernel.cli.saved_games import game_counters, saved_game_of

    if saved_game_of(board) is not None:
        if path:
            raise UserError(f"--counters {path} with a saved game: its counters are the save's: expected one of them")
        return game_counters(board)
    if not path:
        return None, {}
    try:
        raw = read_limited(path, "counters file")
    except OSError as error:
        raise UserError(f"counters file {path}: {error.strerror or error}") from None
    except ValueError as error:
        raise UserError(f"counters file {error}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"counters file {path}: not UTF-8 text") from None
    data = parse_counters_json(text, f"counters file {path}")
    from kernel.maps.counters import Counters

    try:
        counters = Counters.from_dict(board, data, where=f"counters file {path}")
    except (KeyError, ValueError, TypeError, IndexError) as error:
        raise UserError(error_message(error)) from None
    return counters, counters.to_dict(board)


# ---------------------------------------------------------------------------
# outputs: text, JSON, pictures
# ---------------------------------------------------------------------------

def json_number(value):
    """A float for JSON: ``None`` for inf / NaN, ints where exact."""
    value = float(value)
    if not math.isfinite(value):
        return None
    return int(value) if value == int(value) else value


def format_points(value) -> str:
    """A cost in MF/MP for text: ``4``, ``2.5``."""
    value = float(value)
    return str(int(value)) if value == int(value) else f"{value:g}"


def format_step(name: str) -> str:
    """A path step for text: a Bypass state ``HEX-HEX`` gets ``(Bypass)``."""
    return f"{name}(Bypass)" if "-" in name else name


def to_json(value, indent: int = 0) -> str:
    """JSON with objects indented and lists of plain values on one line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{pad}{json.dumps(str(k))}: {to_json(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, (list, tuple)):
        if all(not isinstance(v, (dict, list, tuple)) for v in value):
            return json.dumps(list(value), allow_nan=False, separators=(", ", ": "))
        items = [pad + to_json(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value, allow_nan=False)


def write_text(path: str, text: str) -> None:
    """Write a text file, or a UserError saying why not."""
    try:
        Path(staged(path)).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None


def emit(args, payload: dict, text_lines) -> None:
    """Text on stdout (or the JSON with ``--json``), JSON to ``--json-out``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``json`` and ``json_out`` are read if present).
    payload : dict
        The JSON for programs.
    text_lines : list of str or callable
        The text for people, or a function returning it (called only when printed).
    """
    encoded = None
    if getattr(args, "json", False) or getattr(args, "json_out", None):
        encoded = to_json(payload) + "\n"
    if getattr(args, "json_out", None):
        write_text(args.json_out, encoded)
    if getattr(args, "json", False):
        sys.stdout.write(encoded)
    else:
        lines = text_lines() if callable(text_lines) else text_lines
        print("\n".join(lines))


def save_picture(figure, path: str, fmt: str) -> None:
    """Save a figure as ``fmt`` (``png`` or ``svg``), or a UserError saying why not."""
    from kernel.render.common import save

    try:
        save(figure, staged(path), format=fmt)
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None


def draw_pictures(args, make_figure) -> list[str]:
    """Draw ``make_figure(dpi)`` once and save it to ``--png`` / ``--svg``; returns the paths written."""
    targets = [(p, f) for p, f in ((getattr(args, "png", None), "png"), (getattr(args, "svg", None), "svg")) if p]
    if not targets:
        return []
    figure = make_figure(getattr(args, "dpi", 200))
    for path, fmt in targets:
        save_picture(figure, path, fmt)
    return [p for p, _ in targets]


def output_paths(args) -> list:
    """The files a command will write: ``(option, path, suffixes)`` of ``--json-out``, ``--png``, ``--svg``.

    ``path`` is ``None`` where the option was not given; a picture's name must
    end in its format's suffix.
    """
    return [(option, getattr(args, name, None), suffixes) for option, name, suffixes in
            (("--json-out", "json_out", ()), ("--png", "png", (".png",)), ("--svg", "svg", (".svg",)))]
