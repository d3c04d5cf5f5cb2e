"""The ``hexkernel`` command line: LOS, fields of fire, movement and LOS matrices.

Every command takes a map (``--map``: a scenario or board file, or a bundled
name; default: the bundled four-board scenario ``default``), writes text for
people on stdout, JSON for programs (``--json`` on stdout instead of the text,
or ``--json-out FILE``) and a picture (``--png FILE`` / ``--svg FILE``).
User mistakes end with exit code 2 and a one-line message, never a traceback.

Commands
--------
info      summarise a map and draw it
los       one LOS between two Locations (``71P5h1`` is level 1 of 71P5)
fire      a field of fire from one or more Locations
move      the movement field of a unit class from a hex, and a path
matrix    the full LOS matrix, computed block by block, to a ``.npy`` file
demo      the main job on a map: matrix, field of fire, movement, pictures, JSON

Run as ``hexkernel COMMAND ...`` or ``python -m kernel.cli COMMAND ...``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from kernel.loading import load
from kernel.maps.specs import BoardFileError
from kernel.maps.rulesets import RulesetError

DEFAULT_MAP = "default"
#: Maps with at least this many hexes get a progress bar for ``matrix``.
PROGRESS_MIN_HEXES = 1000
_COUNTER_KEYS = ("smoke", "smoke_height", "vehicles", "units")


class UserError(Exception):
    """A mistake in the command line or its inputs (exit code 2)."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``hexkernel los: error: ... (see --help)``."""

    def error(self, message):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


# ---------------------------------------------------------------------------
# argument types
# ---------------------------------------------------------------------------

def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative: expected 0 or more")
    return value


def _positive_int(text: str) -> int:
    value = _non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: expected a positive integer")
    return value


def _allowance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text}: expected a non-negative number of MF/MP")
    return value


def _formats(text: str) -> list[str]:
    formats = [part.strip().lower() for part in text.split(",") if part.strip()]
    bad = [f for f in formats if f not in ("png", "svg")]
    if bad or not formats:
        raise argparse.ArgumentTypeError(f"{text!r}: expected png, svg or png,svg")
    return list(dict.fromkeys(formats))


def _dpi(text: str) -> int:
    value = _positive_int(text)
    if not 30 <= value <= 600:
        raise argparse.ArgumentTypeError(f"{value}: expected 30..600")
    return value


# ---------------------------------------------------------------------------
# shared options and helpers
# ---------------------------------------------------------------------------

def _add_common(parser: argparse.ArgumentParser, *, picture: bool = True, json_: bool = True) -> None:
    group = parser.add_argument_group("map and output")
    group.add_argument("--map", default=DEFAULT_MAP, metavar="MAP",
                       help="scenario or board file, or bundled name (default: %(default)s)")
    if json_:
        group.add_argument("--json", action="store_true", help="write JSON for programs on stdout instead of text")
        group.add_argument("--json-out", metavar="FILE", help="also write the JSON to FILE")
    if picture:
        group.add_argument("--png", metavar="FILE", help="draw a picture (PNG, A4 page)")
        group.add_argument("--svg", metavar="FILE", help="draw a picture (SVG, A4 page)")
        group.add_argument("--dpi", type=_dpi, default=200, help="PNG resolution (default: %(default)s)")


def _add_counters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--counters", metavar="FILE",
                        help='JSON file of counters: {"smoke": {"71I9": 3}, "vehicles": ["71J9"], "units": []} '
                             '(optional "smoke_height": levels, default 2)')


def _check_writable(*paths) -> None:
    """Fail early (before any work) when an output's folder does not exist."""
    for path in paths:
        if not path:
            continue
        parent = Path(path).parent
        if Path(path).is_dir():
            raise UserError(f"cannot write {path}: it is a directory")
        if not parent.is_dir():
            raise UserError(f"cannot write {path}: folder {str(parent)!r} does not exist")


def _load(name: str):
    try:
        return load(name)
    except FileNotFoundError as error:
        if Path(name).suffix in (".scenario", ".board") or Path(name).exists():
            raise UserError(_message(error)) from None
        from kernel.maps.bundled import data_dir

        known = [p.stem for folder in ("scenarios", "boards") for p in sorted((data_dir() / folder).glob(f"*.{folder[:-1]}"))]
        raise UserError(f"unknown map {name!r}: expected a .scenario or .board file, or a bundled name "
                        f"({', '.join(known)})") from None
    except (OSError, BoardFileError, RulesetError, ValueError, KeyError) as error:
        raise UserError(_message(error)) from None


def _message(error: BaseException) -> str:
    if isinstance(error, KeyError) and error.args:
        return str(error.args[0])
    if isinstance(error, OSError) and error.strerror and error.filename:
        return f"{error.filename}: {error.strerror}"
    return str(error)


def _location(board, text: str, what: str) -> tuple[int, int]:
    """``(hex index, level)`` of a hex or Location name, or a UserError naming ``what``."""
    try:
        return board.location(text)
    except (KeyError, ValueError) as error:
        raise UserError(f"{what}: {_message(error)}") from None


def _unit(board, unit: str | None) -> str:
    rs = board.ruleset
    if unit is None:
        return rs.unit_classes[0]
    if unit not in rs.unit_classes:
        raise UserError(f"--unit: unknown unit class {unit!r} for ruleset {rs.name!r}: "
                        f"expected one of {', '.join(rs.unit_classes)}")
    return unit


def _read_counters(board, path: str | None):
    """Counters from a JSON file: ``(kernel.line_of_sight.api.Counters, normalised dict)`` or ``(None, {})``."""
    if not path:
        return None, {}
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise UserError(f"counters file {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UserError(f"counters file {path}: not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(f"counters file {path}: not valid JSON: {error.msg} at line {error.lineno} "
                        f"column {error.colno}") from None
    where = f"counters file {path}"
    if not isinstance(data, dict):
        raise UserError(f"{where}: expected a JSON object like {{\"smoke\": {{\"71I9\": 3}}, \"vehicles\": [], \"units\": []}}")
    unknown = sorted(set(data) - set(_COUNTER_KEYS))
    if unknown:
        raise UserError(f"{where}: unknown key {unknown[0]!r}: expected {', '.join(_COUNTER_KEYS)}")

    def hex_name(name, key):
        if not isinstance(name, str):
            raise UserError(f"{where}: {key}: {name!r} is not a hex name like '71I9'")
        try:
            return board.names[board.index(name)]
        except (KeyError, ValueError) as error:
            raise UserError(f"{where}: {key}: {_message(error)}") from None

    smoke = data.get("smoke", {})
    if not isinstance(smoke, dict):
        raise UserError(f"{where}: smoke: expected an object of hex: DRM, like {{\"71I9\": 3}}")
    smoke_out = {}
    for name, drm in smoke.items():
        if isinstance(drm, bool) or not isinstance(drm, int) or not 0 <= drm <= 100:
            raise UserError(f"{where}: smoke DRM of {name} is {drm!r}: expected an integer 0..100")
        smoke_out[hex_name(name, "smoke")] = drm
    lists = {}
    for key in ("vehicles", "units"):
        value = data.get(key, [])
        if not isinstance(value, list):
            raise UserError(f"{where}: {key}: expected a list of hex names")
        lists[key] = [hex_name(name, key) for name in value]
    height = data.get("smoke_height", 2)
    if isinstance(height, bool) or not isinstance(height, int) or not 0 <= height <= 20:
        raise UserError(f"{where}: smoke_height is {height!r}: expected an integer number of levels 0..20")
    from kernel.line_of_sight.api import Counters

    counters = Counters.on(board, smoke=smoke_out, vehicles=lists["vehicles"], units=lists["units"],
                           smoke_height=height)
    return counters, {"smoke": smoke_out, "smoke_height": height, **lists}


def _number(value):
    """A float for JSON: ``None`` for inf / NaN, ints where exact."""
    value = float(value)
    if not math.isfinite(value):
        return None
    return int(value) if value == int(value) else value


def _to_json(value, indent: int = 0) -> str:
    """JSON with objects indented and lists of plain values on one line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{pad}{json.dumps(str(k))}: {_to_json(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, (list, tuple)):
        if all(not isinstance(v, (dict, list, tuple)) for v in value):
            return json.dumps(list(value), allow_nan=False, separators=(", ", ": "))
        items = [pad + _to_json(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value, allow_nan=False)


def _write_text(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None


def _emit(args, payload: dict, text_lines) -> None:
    """Text on stdout (or the JSON with ``--json``), JSON to ``--json-out``."""
    encoded = None
    if getattr(args, "json", False) or getattr(args, "json_out", None):
        encoded = _to_json(payload) + "\n"
    if getattr(args, "json_out", None):
        _write_text(args.json_out, encoded)
    if getattr(args, "json", False):
        sys.stdout.write(encoded)
    else:
        lines = text_lines() if callable(text_lines) else text_lines
        print("\n".join(lines))


def _save_picture(figure, path: str, fmt: str) -> None:
    from kernel.render.common import save

    try:
        save(figure, path, format=fmt)
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None


def _pictures(args, make_figure) -> list[str]:
    """Draw ``make_figure(dpi)`` once and save it to ``--png`` / ``--svg``."""
    targets = [(p, f) for p, f in ((getattr(args, "png", None), "png"), (getattr(args, "svg", None), "svg")) if p]
    if not targets:
        return []
    figure = make_figure(getattr(args, "dpi", 200))
    for path, fmt in targets:
        _save_picture(figure, path, fmt)
    return [p for p, _ in targets]


def _outputs(args) -> list:
    return [getattr(args, name, None) for name in ("json_out", "png", "svg")]


# ---------------------------------------------------------------------------
# info
# ---------------------------------------------------------------------------

def command_info(args) -> None:
    _check_writable(*_outputs(args))
    board = _load(args.map)
    summary = board.summary()

    def text():
        lines = [f"{summary['title']}  ({summary['ruleset']}; {summary['source']})"]
        for item in summary["boards"]:
            rotated = ", rotated 180" if item["rotated"] else ""
            lines.append(f"  board {item['board']} at row {item['row']}, column {item['column']}{rotated}")
        lines.append(f"hexes: {summary['hexes']}  (merged half hexes: {summary['merged_half_hexes']}, "
                     f"under overlays: {summary['overlay_hexes']}, Locations: {summary['locations']})")
        levels = ", ".join(f"level {k}: {v}" for k, v in summary["ground_levels"].items())
        lines.append(f"ground levels: {levels}")
        lines.append("terrain: " + ", ".join(f"{k} {v}" for k, v in summary["terrain"].items()))
        lines.append("hexsides: " + (", ".join(f"{k} {v}" for k, v in summary["hexsides"].items()) or "none"))
        lines.append(f"multi-level buildings: {summary['multi_level_buildings']}")
        switches = ", ".join(f"{k}={'yes' if v else 'no'}" for k, v in summary["switches"].items())
        lines.append(f"switches: {switches or 'none'}")
        lines.append(f"compiled size: {summary['bytes_per_hex']} bytes per hex")
        return lines

    _emit(args, summary, text)

    def figure(dpi):
        from kernel.render.board_map import board_picture

        return board_picture(board, dpi=dpi)

    _pictures(args, figure)


# ---------------------------------------------------------------------------
# los
# ---------------------------------------------------------------------------

def los_payload(board, result) -> dict:
    """The JSON of one LOS: :class:`kernel.line_of_sight.api.LOSResult` field by field."""
    from dataclasses import asdict

    return {"map": board.title, **asdict(result)}


def command_los(args) -> None:
    _check_writable(*_outputs(args))
    board = _load(args.map)
    a, level_a = _location(board, args.viewer, "viewer")
    b, level_b = _location(board, args.target, "target")
    unit = _unit(board, args.unit) if args.unit else None
    counters, _ = _read_counters(board, args.counters)
    from kernel.line_of_sight.api import los

    result = los(board, a, b, level_a=level_a, level_b=level_b, counters=counters, unit=unit)
    _emit(args, los_payload(board, result),
          lambda: result.explain().splitlines() if args.explain else result.explain().splitlines()[:1])

    def figure(dpi):
        from kernel.render.los_trace import los_picture

        return los_picture(board, result, dpi=dpi)

    _pictures(args, figure)


# ---------------------------------------------------------------------------
# fire
# ---------------------------------------------------------------------------

def _sources(board, texts, level):
    hexes, levels = [], []
    for text in texts:
        index, parsed = _location(board, text, "--from")
        if board.names_a_location(text):
            if level is not None and level != parsed:
                raise UserError(f"--level {level} contradicts the Location {text!r}")
            chosen = parsed
        else:
            chosen = level or 0
            top = int(board.top_level[index])
            if chosen > top:
                raise UserError(f"--level {chosen}: {board.names[index]} has Location levels 0..{top}")
        hexes.append(index)
        levels.append(chosen)
    return hexes, levels


def fire_payload(board, fire, levels, *, target_level=0, unit=None, counters=None) -> dict:
    """The JSON of a field of fire: the arrays of :class:`kernel.line_of_sight.api.FieldOfFire`, in hex index order."""
    visible = [bool(v) for v in fire.visible]
    hindrance = [int(v) for v in fire.hindrance]
    sources = [int(s) for s in fire.sources]
    return {
        "map": board.title,
        "ruleset": board.ruleset.name,
        "sources": [board.location_name(s, v) for s, v in zip(sources, levels)],
        "levels": [int(v) for v in levels],
        "target_level": int(target_level),
        "unit": unit or board.ruleset.unit_classes[0],
        "counters": counters or {},
        "summary": {
            "hexes": len(board),
            "visible": sum(visible),
            "hindered": sum(1 for v, h in zip(visible, hindrance) if v and h > 0),
            "blocked": len(board) - sum(visible),
        },
        "hexes": list(board.names),
        "visible": visible,
        "hindrance": hindrance,
        "source": [int(v) for v in fire.source],
        "cover": [int(v) for v in fire.cover],
    }


def command_fire(args) -> None:
    _check_writable(*_outputs(args))
    board = _load(args.map)
    hexes, levels = _sources(board, args.sources, args.level)
    unit = _unit(board, args.unit)
    counters, counters_json = _read_counters(board, args.counters)
    from kernel.line_of_sight.api import field_of_fire

    try:
        fire = field_of_fire(board, hexes, levels=levels, target_level=args.target_level, counters=counters,
                             unit=unit)
    except ValueError as error:
        raise UserError(str(error)) from None
    payload = fire_payload(board, fire, levels, target_level=args.target_level, unit=unit, counters=counters_json)

    def text():
        names = ", ".join(payload["sources"])
        grounds = ", ".join(str(int(board.ground_level[h])) for h in hexes)
        s = payload["summary"]
        lines = [f"field of fire from {names} (ground level {grounds}) on {board.title} ({board.ruleset.name}), "
                 f"firer {unit}, targets at level {args.target_level}",
                 f"visible: {s['visible']} of {s['hexes']} hexes ({s['hindered']} through hindrance); "
                 f"blocked: {s['blocked']}"]
        cover: dict[int, int] = {}
        for v, c in zip(payload["visible"], payload["cover"]):
            if v:
                cover[c] = cover.get(c, 0) + 1
        lines.append("cover of the visible hexes: " + ", ".join(f"{k}: {cover[k]}" for k in sorted(cover)))
        hindered = [f"{n} +{h}" for n, v, h in zip(board.names, payload["visible"], payload["hindrance"]) if v and h > 0]
        if hindered:
            shown = ", ".join(hindered[:30]) + (f", ... ({len(hindered) - 30} more)" if len(hindered) > 30 else "")
            lines.append(f"hindered: {shown}")
        return lines

    _emit(args, payload, text)

    def figure(dpi):
        from kernel.render.fire_map import fire_picture

        return fire_picture(board, fire, levels=levels, dpi=dpi)

    _pictures(args, figure)


# ---------------------------------------------------------------------------
# move
# ---------------------------------------------------------------------------

def move_payload(board, field, allowance, to=None) -> dict:
    """The JSON of a movement field: costs per hex (``null`` = unreachable), reachable hexes, path."""
    cost = [_number(c) for c in field.cost]
    starts = [field.state_name(state) for state in field.start_states()]
    payload = {
        "map": board.title,
        "ruleset": board.ruleset.name,
        "unit": field.unit,
        "start": starts,
        "allowance": _number(allowance) if allowance is not None else None,
        "reachable": [n for n, c in zip(board.names, field.cost) if c <= (allowance if allowance is not None else math.inf)],
        "exit_cost": _number(field.exit_cost),
        "exit_hex": board.names[field.exit_hex] if field.exit_hex >= 0 else None,
        "hexes": list(board.names),
        "cost": cost,
    }
    if to is not None:
        index = board.index(to)
        states = field.path_states(index)
        payload["to"] = board.names[index]
        payload["path"] = [field.state_name(s) for s in states]
        payload["path_cost"] = _number(field.state_cost[states[-1]]) if states else None
    return payload


def command_move(args) -> None:
    _check_writable(*_outputs(args))
    board = _load(args.map)
    starts = []
    for text in args.start:
        index, level = _location(board, text, "--from")
        # a start Location above ground (upper building level, bridge deck) by its name
        starts.append(board.location_name(index, level) if level else index)
    unit = _unit(board, args.unit)
    to = None
    if args.to:
        to, level = _location(board, args.to, "--to")
        if level:
            raise UserError(f"--to {args.to}: give the hex, like {board.names[to]!r}")
    counters, _ = _read_counters(board, args.counters)
    allowance = args.allowance
    if allowance is None:
        allowance = float(board.ruleset.rules["default_allowance"][unit])
    smoke = units = None
    if counters is not None:
        smoke = counters.smoke > 0
        units = counters.units
    from kernel.movement.api import movement_field

    try:
        field = movement_field(board, starts, unit, allowance, smoke=smoke, units=units)
    except ValueError as error:
        raise UserError(str(error)) from None
    payload = move_payload(board, field, allowance, to)
    points = "MF" if board.ruleset.los_model == "asl" else "MP"
    full = None

    def unlimited():
        nonlocal full
        if full is None:
            full = movement_field(board, starts, unit, smoke=smoke, units=units)
        return full

    def text():
        lines = [f"{unit} from {', '.join(s if isinstance(s, str) else board.names[s] for s in starts)} "
                 f"on {board.title} ({board.ruleset.name}), "
                 f"allowance {_fmt(allowance)} {points}: {len(payload['reachable'])} hexes reachable"]
        by_cost: dict[float, list[str]] = {}
        for name, c in zip(board.names, field.cost):
            if c <= allowance:
                by_cost.setdefault(float(c), []).append(name)
        for c in sorted(by_cost):
            names = by_cost[c]
            shown = " ".join(names[:24]) + (f" ... ({len(names) - 24} more)" if len(names) > 24 else "")
            lines.append(f"  {_fmt(c):>5} {points}: {shown}")
        if to is not None:
            if payload["path"]:
                lines.append(f"path to {payload['to']} ({_fmt(payload['path_cost'])} {points}): "
                             + " ".join(_step(name) for name in payload["path"]))
            else:
                beyond = unlimited().cost[to]
                extra = f" (it costs {_fmt(beyond)} {points})" if math.isfinite(beyond) else " at all"
                lines.append(f"{board.names[to]} is not reachable within {_fmt(allowance)} {points}{extra}")
        return lines

    _emit(args, payload, text)

    def figure(dpi):
        from kernel.render.movement_map import movement_picture

        return movement_picture(board, field, allowance=allowance, to=to, full=unlimited(), dpi=dpi)

    _pictures(args, figure)


def _fmt(value) -> str:
    value = float(value)
    return str(int(value)) if value == int(value) else f"{value:g}"


def _step(name: str) -> str:
    return f"{name}(Bypass)" if "-" in name else name


# ---------------------------------------------------------------------------
# matrix
# ---------------------------------------------------------------------------

class _Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, label: str, enabled: bool):
        self.total, self.label, self.enabled = total, label, enabled
        self.start = time.perf_counter()
        self.tty = sys.stderr.isatty()
        self.shown = -1

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        percent = int(100 * done / max(1, self.total))
        if not self.tty and percent < 100 and percent - self.shown < 10:
            return
        self.shown = percent
        filled = percent * 30 // 100
        bar = "#" * filled + "." * (30 - filled)
        elapsed = time.perf_counter() - self.start
        # on a terminal the bar redraws itself in place; in a log, one line per 10%
        start = "\r" if self.tty else ""
        end = "\n" if done >= self.total or not self.tty else ""
        sys.stderr.write(f"{start}{self.label} [{bar}] {percent:3d}% {done}/{self.total} rows {elapsed:.1f} s{end}")
        sys.stderr.flush()


def write_matrix(board, path, *, counters=None, block_rows: int = 1024, progress: bool | None = None):
    """Write the full LOS matrix to a ``.npy`` file block by block; returns counts.

    The file holds the ``int8`` matrix of :func:`kernel.line_of_sight.api.los_matrix`
    (hindrance DRM of each visible pair, ``-1`` blocked), written as each
    block of ``block_rows`` rows is computed, so memory stays at one block.
    """
    import numpy as np

    from kernel.line_of_sight.api import BLOCKED, los_matrix_blocks

    n = len(board)
    if progress is None:
        progress = n >= PROGRESS_MIN_HEXES
    bar = _Progress(n, "LOS matrix", progress)
    try:
        out = np.lib.format.open_memmap(path, mode="w+", dtype=np.int8, shape=(n, n))
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None
    visible = hindered = 0
    sees = np.zeros(n, np.int64)
    bar.update(0)
    for first, rows in los_matrix_blocks(board, counters=counters, block_rows=block_rows):
        out[first:first + rows.shape[0]] = rows
        seen = rows != BLOCKED
        sees[first:first + rows.shape[0]] = seen.sum(axis=1) - 1
        visible += int(seen.sum())
        hindered += int((rows > 0).sum())
        bar.update(first + rows.shape[0])
    out.flush()
    del out
    pairs = n * (n - 1)
    return {"visible_pairs": visible - n, "hindered_pairs": hindered, "blocked_pairs": pairs - (visible - n),
            "pairs": pairs, "hexes_seen": sees}


def command_matrix(args) -> None:
    _check_writable(args.out, *_outputs(args))
    board = _load(args.map)
    counters, counters_json = _read_counters(board, args.counters)
    started = time.perf_counter()
    counts = write_matrix(board, args.out, counters=counters, block_rows=args.block_rows,
                          progress=False if args.quiet else None)
    seconds = time.perf_counter() - started
    n = len(board)
    seen = counts.pop("hexes_seen")
    payload = {
        "map": board.title, "ruleset": board.ruleset.name, "file": str(args.out), "shape": [n, n], "dtype": "int8",
        "encoding": "hindrance DRM of each visible pair (saturated at 127), -1 blocked; row = viewer, "
                    "column = target, both in hex index order (see 'hexes'); diagonal 0",
        "block_rows": args.block_rows, "counters": counters_json, "seconds": round(seconds, 4), **counts,
        "hexes": list(board.names),
    }

    def text():
        share = 100.0 * counts["visible_pairs"] / max(1, counts["pairs"])
        return [f"LOS matrix {n} x {n} of {board.title} ({board.ruleset.name}) written to {args.out} "
                f"(int8: hindrance DRM, -1 blocked; {n * n / 1e6:.1f} MB) in {seconds:.2f} s",
                f"visible pairs: {counts['visible_pairs']} of {counts['pairs']} ({share:.1f}%), "
                f"through hindrance: {counts['hindered_pairs']}",
                "load it with: numpy.load(" + repr(str(args.out)) + ", mmap_mode='r')"]

    _emit(args, payload, text)

    def figure(dpi):
        from kernel.render.matrix_map import values_picture

        return values_picture(board, seen, title="How many hexes each hex sees (ground level)",
                              label="hexes in LOS", dpi=dpi)

    _pictures(args, figure)


# ---------------------------------------------------------------------------
# demo
# ---------------------------------------------------------------------------

_DEMO_STRONG = ("71I4",)


def _strong_position(board, seen) -> tuple[int, int]:
    """A commanding Location: 71I4 on the bundled map, else the hex that sees the most hexes."""
    for name in _DEMO_STRONG:
        if name in board.names:
            return board.index(name), 0
    import numpy as np

    return int(np.argmax(seen)), 0


def _demo_destination(board, field, allowance) -> int:
    """The costliest hex within the allowance, preferring a path with a Bypass move."""
    best, key = -1, None
    for i, c in enumerate(field.cost):
        if not c <= allowance:
            continue
        states = field.path_states(i)
        bypass = any(s >= 2 * field.tables.n_locations for s in states)
        candidate = (float(c), bypass, len(states), -i)
        if key is None or candidate > key:
            best, key = i, candidate
    return best


def _demo_target(board, viewer, level) -> int:
    """A LOS worth drawing: the nearest hex 6+ hexes away that is hindered, else blocked by something."""
    import numpy as np

    from kernel.grid.lattice import hex_distance
    from kernel.line_of_sight.api import los

    distance = hex_distance(board.col[viewer], board.row[viewer], board.col, board.row)
    order = np.lexsort((np.arange(len(board)), np.abs(distance - 8)))
    fallback = -1
    for i in order[:400]:
        if distance[i] < 6:
            continue
        result = los(board, int(viewer), int(i), level_a=level)
        if result.visible and result.hindrance > 0:
            return int(i)
        if not result.visible and fallback < 0 and result.reason in ("obstacle", "hexside", "hill"):
            fallback = int(i)
    return fallback if fallback >= 0 else int(order[-1])


def command_demo(args) -> None:
    _check_writable(args.json_out)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot create {out}: {error.strerror or error}") from None
    steps: list[tuple[str, float, str]] = []
    files: list[str] = []
    total_start = time.perf_counter()

    def step(label, started, note=""):
        steps.append((label, time.perf_counter() - started, note))

    def save_json(name, payload):
        path = out / name
        _write_text(str(path), _to_json(payload) + "\n")
        files.append(str(path))

    started = time.perf_counter()
    board = _load(args.map)
    step("load and compile the map", started, f"{len(board)} hexes, ruleset {board.ruleset.name}")
    save_json("info.json", board.summary())

    # 1. the full LOS matrix, block by block
    started = time.perf_counter()
    matrix_path = out / "los_matrix.npy"
    counts = write_matrix(board, matrix_path, progress=False if args.quiet else None)
    seen = counts.pop("hexes_seen")
    files.append(str(matrix_path))
    share = 100.0 * counts["visible_pairs"] / max(1, counts["pairs"])
    step(f"LOS matrix {len(board)} x {len(board)}", started, f"{share:.1f}% of pairs visible -> {matrix_path}")
    save_json("matrix.json", {"map": board.title, "file": str(matrix_path), "shape": [len(board), len(board)],
                              "dtype": "int8", **counts, "hexes_seen": [int(v) for v in seen],
                              "hexes": list(board.names)})

    # 2. a field of fire from a strong position
    from kernel.line_of_sight.api import field_of_fire, los

    if args.source:
        source, level = _location(board, args.source, "--from")
    else:
        source, level = _strong_position(board, seen)
    source_name = board.location_name(source, level)
    started = time.perf_counter()
    fire = field_of_fire(board, [source], levels=[level])
    fire_json = fire_payload(board, fire, [level])
    s = fire_json["summary"]
    step(f"field of fire from {source_name}", started,
         f"{s['visible']} hexes visible ({s['hindered']} hindered), {s['blocked']} blocked")
    save_json("fire.json", fire_json)

    # 3. an infantry movement field from the same hex, with a path
    from kernel.movement.api import movement_field

    unit = _unit(board, args.unit)
    allowance = float(board.ruleset.rules["default_allowance"][unit])
    points = "MF" if board.ruleset.los_model == "asl" else "MP"
    started = time.perf_counter()
    field = movement_field(board, [source], unit, allowance)
    destination = _demo_destination(board, field, allowance)
    move_json = move_payload(board, field, allowance, destination)
    step(f"movement of {unit} from {board.names[source]}", started,
         f"{len(move_json['reachable'])} hexes within {_fmt(allowance)} {points}; path to {move_json['to']} "
         f"({_fmt(move_json['path_cost'])} {points}): {' '.join(_step(p) for p in move_json['path'])}")
    save_json("move.json", move_json)
    full = movement_field(board, [source], unit)

    # 4. one LOS, explained
    started = time.perf_counter()
    target = _demo_target(board, source, level)
    result = los(board, source, target, level_a=level)
    step(f"LOS {result.viewer} -> {result.target}", started,
         "clear" + (f", hindrance +{result.hindrance}" if result.hindrance else "") if result.visible
         else f"blocked at {result.blocked_at} ({result.reason})")
    save_json("los.json", los_payload(board, result))
    _write_text(str(out / "los.txt"), result.explain() + "\n")
    files.append(str(out / "los.txt"))

    # 5. pictures
    if not args.no_pictures:
        from kernel.render.board_map import board_picture
        from kernel.render.fire_map import fire_picture
        from kernel.render.los_trace import los_picture
        from kernel.render.matrix_map import values_picture
        from kernel.render.movement_map import movement_picture

        started = time.perf_counter()
        figures = {
            "board": lambda: board_picture(board),
            "los_matrix": lambda: values_picture(board, seen, title="How many hexes each hex sees (ground level)",
                                                 label="hexes in LOS"),
            "fire": lambda: fire_picture(board, fire, levels=[level]),
            "move": lambda: movement_picture(board, field, allowance=allowance, to=destination, full=full),
            "los": lambda: los_picture(board, result),
        }
        formats = args.formats
        for name, make in figures.items():
            figure = make()
            for fmt in formats:
                path = out / f"{name}.{fmt}"
                _save_picture(figure, str(path), fmt)
                files.append(str(path))
        step(f"pictures ({len(figures)} x {'+'.join(f.upper() for f in formats)})", started,
             ", ".join(f"{name}.png" for name in figures))

    total = time.perf_counter() - total_start
    summary = {"map": board.title, "ruleset": board.ruleset.name, "hexes": len(board), "out": str(out),
               "steps": [{"step": label, "seconds": round(seconds, 4), "result": note} for label, seconds, note in steps],
               "total_seconds": round(total, 4), "files": files}
    save_json("summary.json", summary)
    width = max(len(label) for label, _, _ in steps)

    def text():
        lines = [f"hexkernel demo: {board.title} ({board.ruleset.name}, {len(board)} hexes) -> {out}/"]
        for label, seconds, note in steps:
            lines.append(f"  {label:<{width}}  {seconds:7.2f} s  {note}")
        lines.append(f"  {'total':<{width}}  {total:7.2f} s  {len(files)} files in {out}/ (summary.json lists them)")
        return lines

    _emit(args, summary, text)


# ---------------------------------------------------------------------------
# parser and entry point
# ---------------------------------------------------------------------------

def command_import_vasl(args) -> None:
    """Read a VASL board (folder or archive) and write it in our board file format."""
    from kernel.maps.board_text import read_board_file, write_board_file
    from kernel.importers.vasl.build import read_board_spec

    out = Path(args.out)
    if out.suffix != ".board":
        raise UserError(f"--out is {args.out!r}: expected a file name ending in .board")
    if not out.parent.is_dir():
        raise UserError(f"--out folder {str(out.parent)!r} does not exist")
    try:
        spec = read_board_spec(args.board, args.metadata)
        write_board_file(spec, out)
        check = read_board_file(out)
    except (OSError, BoardFileError, RulesetError, ValueError) as error:
        raise UserError(_message(error)) from None
    summary = {"board": check.id, "source": str(args.board), "out": str(out), "hexes_listed": len(check.hexes),
               "hexsides_listed": len(check.hexsides)}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"board {check.id}: {len(check.hexes)} hexes and {len(check.hexsides)} hexsides written to {out}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="hexkernel",
        description="Exact line of sight and movement for hex wargames (ASL, Valor & Victory, "
                    "Commands & Colors: Napoleonics).",
        epilog="Maps: a .scenario or .board file, or a bundled name (default, 71, 72, vv-village, ccn-ridge, ...). "
               "Every command writes text, JSON (--json / --json-out FILE) and pictures (--png / --svg). "
               "Errors exit with code 2.",
    )
    from kernel import __version__

    parser.add_argument("--version", action="version", version=f"hexkernel {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    info = commands.add_parser("info", help="summarise a map: hexes, terrain counts, levels; draw it",
                               description="Summarise a map (hexes, terrain, levels, hexside features) and draw it.")
    _add_common(info)
    info.set_defaults(run=command_info)

    los_parser = commands.add_parser(
        "los", help="one LOS between two Locations",
        description="Check one line of sight between two Locations. A Location is a hex name, optionally with "
                    "a building level: 71P5h1 is level 1 of hex 71P5.",
        epilog="example: hexkernel los 71P5h2 71I9 --explain --png los.png")
    los_parser.add_argument("viewer", help="viewer Location, e.g. 71I4 or 71P5h2")
    los_parser.add_argument("target", help="target Location")
    los_parser.add_argument("--explain", action="store_true", help="list every hex that mattered and its rule")
    los_parser.add_argument("--unit", metavar="CLASS", help="firing unit class, for the target's cover")
    _add_counters(los_parser)
    _add_common(los_parser)
    los_parser.set_defaults(run=command_los)

    fire = commands.add_parser(
        "fire", help="field of fire from one or more Locations",
        description="What one or more firers see: for every hex whether it is visible, the least hindrance "
                    "DRM and the target's cover.",
        epilog="example: hexkernel fire --from 71I4 --counters counters.json --png fire.png")
    fire.add_argument("--from", dest="sources", action="append", required=True, metavar="HEX",
                      help="firing hex or Location (repeat for several firers)")
    fire.add_argument("--level", type=_non_negative_int, default=None, metavar="N",
                      help="building level of the firers (default 0; a Location name's hN wins)")
    fire.add_argument("--target-level", type=_non_negative_int, default=0, metavar="N",
                      help="level of the targets (capped at each hex's highest Location level; default 0)")
    fire.add_argument("--unit", metavar="CLASS", help="firing unit class, for cover (default: the ruleset's first)")
    _add_counters(fire)
    _add_common(fire)
    fire.set_defaults(run=command_fire)

    move = commands.add_parser(
        "move", help="movement field of a unit class from a hex",
        description="Least movement cost from a hex to every hex for one unit class, the hexes reachable "
                    "within the allowance and, with --to, the cheapest path (Bypass moves shown as HEX-HEX).",
        epilog="example: hexkernel move --from 71I4 --unit infantry --allowance 4 --to 71M6 --png move.png")
    move.add_argument("--from", dest="start", action="append", required=True, metavar="HEX",
                      help="start hex or Location, e.g. 71P5h1 (repeat for several)")
    move.add_argument("--unit", metavar="CLASS", help="unit class (default: the ruleset's first, e.g. infantry)")
    move.add_argument("--allowance", type=_allowance, metavar="N",
                      help="movement allowance in MF/MP (default: the class's default allowance)")
    move.add_argument("--to", metavar="HEX", help="destination: print and draw the cheapest path")
    _add_counters(move)
    _add_common(move)
    move.set_defaults(run=command_move)

    matrix = commands.add_parser(
        "matrix", help="full LOS matrix to a .npy file",
        description="Compute the full N x N LOS matrix between the ground Locations of all hexes, block by "
                    "block, straight into a .npy file (numpy.load reads it): int8, the hindrance DRM of each "
                    "visible pair, -1 where blocked. A progress bar goes to stderr on large maps.",
        epilog="example: hexkernel matrix --out los.npy --png seen.png")
    matrix.add_argument("--out", default="los_matrix.npy", metavar="FILE",
                        help="the .npy file to write (default: %(default)s)")
    matrix.add_argument("--block-rows", type=_positive_int, default=1024, metavar="N",
                        help="rows computed per block (memory: N x hexes bytes; default %(default)s)")
    matrix.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_counters(matrix)
    _add_common(matrix)
    matrix.set_defaults(run=command_matrix)

    demo = commands.add_parser(
        "demo", help="the main job: matrix, field of fire, movement, LOS, pictures and JSON",
        description="Run the main job on a map (default: the bundled four-board scenario): the full LOS matrix, "
                    "a field of fire from a strong position, an infantry movement field with a path, one "
                    "explained LOS; write pictures and JSON to the output folder and print the time of each step.")
    demo.add_argument("--out", default="out", metavar="DIR", help="output folder (default: %(default)s)")
    demo.add_argument("--map", default=DEFAULT_MAP, metavar="MAP",
                      help="scenario or board file, or bundled name (default: %(default)s)")
    demo.add_argument("--from", dest="source", metavar="HEX",
                      help="the firer's Location and the mover's hex (default: 71I4, else the hex that sees most)")
    demo.add_argument("--unit", metavar="CLASS", help="moving unit class (default: the ruleset's first)")
    demo.add_argument("--formats", type=_formats, default=["png", "svg"], metavar="LIST",
                      help="picture formats, comma-separated (default: png,svg)")
    demo.add_argument("--no-pictures", action="store_true", help="skip the pictures")
    demo.add_argument("--quiet", action="store_true", help="no progress bar")
    demo.add_argument("--json", action="store_true", help="print the summary as JSON instead of text")
    demo.add_argument("--json-out", metavar="FILE", help="also write the summary JSON to FILE")
    demo.set_defaults(run=command_demo)

    importer = commands.add_parser(
        "import-vasl", help="write our board file from a VASL board folder or archive",
        description="Read a VASL board (a folder or a board archive holding LOSData and BoardMetadata.xml) "
                    "with VASL's terrain table (SharedBoardMetadata.xml: given, or found beside the board) and "
                    "write it as a hexkernel .board file.")
    importer.add_argument("board", metavar="VASL_BOARD", help="VASL board folder or archive")
    importer.add_argument("--out", required=True, metavar="FILE.board", help="board file to write")
    importer.add_argument("--metadata", metavar="FILE", help="SharedBoardMetadata.xml (default: found beside the board)")
    importer.add_argument("--json", action="store_true", help="print a JSON summary")
    importer.set_defaults(run=command_import_vasl)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 user mistake)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.run(args)
    except UserError as error:
        print(f"hexkernel {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"hexkernel {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. '| head'): stop quietly
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
