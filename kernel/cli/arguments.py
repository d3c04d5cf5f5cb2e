"""The command line's shared argument types and options (``--map``, JSON, pictures, counters).

Every command takes a map (``--map``: a scenario or board file, or a bundled
name; default: the bundled four-board scenario ``default``).
"""

from __future__ import annotations

import argparse
import math

DEFAULT_MAP = "default"


# ---------------------------------------------------------------------------
# argument types
# ---------------------------------------------------------------------------

def non_negative_int(text: str) -> int:
    """argparse type: an integer 0 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative: expected 0 or more")
    return value


def positive_int(text: str) -> int:
    """argparse type: an integer 1 or more."""
    value = non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: expected a positive integer")
    return value


def movement_allowance(text: str) -> float:
    """argparse type: a finite, non-negative number of MF/MP."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text}: expected a non-negative number of MF/MP")
    return value


def picture_formats(text: str) -> list[str]:
    """argparse type: ``png``, ``svg`` or ``png,svg``, as a list without repeats."""
    formats = [part.strip().lower() for part in text.split(",") if part.strip()]
    bad = [f for f in formats if f not in ("png", "svg")]
    if bad or not formats:
        raise argparse.ArgumentTypeError(f"{text!r}: expected png, svg or png,svg")
    return list(dict.fromkeys(formats))


def picture_dpi(text: str) -> int:
    """argparse type: a PNG resolution of 30..600 dpi."""
    value = positive_int(text)
    if not 30 <= value <= 600:
        raise argparse.ArgumentTypeError(f"{value}: expected 30..600")
    return value


# ---------------------------------------------------------------------------
# shared options
# ---------------------------------------------------------------------------

def add_common_options(parser: argparse.ArgumentParser, *, picture: bool = True, json_: bool = True) -> None:
    """Add ``--map`` and, if asked, the JSON (``--json``, ``--json-out``) and picture options.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser.
    picture : bool
        Add ``--png``, ``--svg`` and ``--dpi``.
    json_ : bool
        Add ``--json`` and ``--json-out``.
    """
    group = parser.add_argument_group("map and output")
    group.add_argument("--map", default=DEFAULT_MAP, metavar="MAP",
                       help="scenario or board file, VASL board or saved game (.vsav), or bundled name (default: "
                            "%(default)s)")
    add_saved_game_options(group)
    if json_:
        group.add_argument("--json", action="store_true", help="write JSON for programs on stdout instead of text")
        group.add_argument("--json-out", metavar="FILE", help="also write the JSON to FILE")
    if json_ or picture:
        add_force_option(group)
    if picture:
        group.add_argument("--png", metavar="FILE", help="draw a picture (PNG, A4 page)")
        group.add_argument("--svg", metavar="FILE", help="draw a picture (SVG, A4 page)")
        group.add_argument("--dpi", type=picture_dpi, default=200, help="PNG resolution (default: %(default)s)")
        group.add_argument("--hex-colours", action="store_true",
                           help="draw the picture's map in the hex model's colours, not the board's art (the "
                                "default where the map has art: VASL boards, and depiction-model LOS)")
        from kernel.cli.crop import add_crop_options

        add_crop_options(group)


def add_saved_game_options(group) -> None:
    """Add ``--vasl-boards DIR`` and ``--strict``: how ``--map game.vsav`` (a VASL saved game) is read."""
    group.add_argument("--vasl-boards", metavar="DIR",
                       help="with a saved game: the folder of your VASL boards (default: $HEXKERNEL_VASL_BOARDS)")
    group.add_argument("--strict", action="store_true",
                       help="with a saved game: refuse it when part of it (an overlay, an SSR change, a crop, another "
                            "board version) cannot be applied, instead of a note")


def add_depiction_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--model hex|depiction|vasl`` (default: :func:`kernel.default_model` of the map) and its two
    short forms ``--depiction`` (``--model depiction``) and ``--vasl-hindrance`` (``--model vasl``)."""
    parser.add_argument("--model", choices=("hex", "depiction", "vasl"), default=None,
                        help="the LOS model: hex (hex by hex), depiction (over the map's drawn art), vasl (the "
                             "depiction read as VASL's engine reads it); default: depiction on an ASL map whose "
                             "boards carry their own art (VASL boards), else hex")
    parser.add_argument("--depiction", action="store_true",
                        help="the same as --model depiction: trace LOS over the map's drawn art (VASL boards; "
                             "other boards rasterised), not hex by hex (ASL maps)")
    parser.add_argument("--vasl-hindrance", action="store_true",
                        help="the same as --model vasl: trace over the drawn art and count hindrance as VASL's "
                             "engine does (the largest DRM once per range, not once per hex)")


def picture_art(args):
    """The pictures' ``art`` keyword from ``--hex-colours``: False (the hex model's colours) or None (the
    art where the map has it)."""
    return False if getattr(args, "hex_colours", False) else None


def chosen_model(args) -> str | None:
    """The LOS model named on the command line (``--model``, ``--depiction``, ``--vasl-hindrance``), or None
    where none is; two different ones are a :class:`~kernel.cli.common.UserError`."""
    from kernel.cli.common import UserError

    named = {getattr(args, "model", None)} - {None}
    if getattr(args, "depiction", False):
        named.add("depiction")
    if getattr(args, "vasl_hindrance", False):
        named.add("vasl")
    if len(named) > 1:
        raise UserError(f"two LOS models given ({', '.join(sorted(named))}): expected one of --model, "
                        "--depiction (--model depiction), --vasl-hindrance (--model vasl)")
    return named.pop() if named else None


def los_model(args, board) -> str:
    """The LOS model of a command on ``board``: the one named on the command line, else the map's
    default (:func:`kernel.default_model`: depiction on a map with VASL art, else hex)."""
    from kernel.line_of_sight.depiction import default_model

    return chosen_model(args) or default_model(board)


def add_force_option(parser) -> None:
    """Add ``--force``: replace existing output files (without it an existing file is an error)."""
    parser.add_argument("--force", action="store_true",
                        help="replace output files that already exist (default: refuse)")


def add_counters_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--counters FILE`` (read by :func:`read_counters`)."""
    parser.add_argument("--counters", metavar="FILE",
                        help='JSON file of counters: {"smoke": {"71I9": 3}, "vehicles": ["71J9"], "units": []} '
                             '(optional "smoke_height": levels, default 2; a smoke key may be a Location, '
                             '"15G5h1": SMOKE at that level, one per hex)')
