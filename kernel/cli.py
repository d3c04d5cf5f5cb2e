"""The ``hexkernel`` command line.

Every command takes a map (``--map``: a scenario or board file, or a bundled
name; default: the bundled four-board scenario).  User mistakes end with exit
code 2 and a one-line message, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys

from kernel.board import load
from kernel.boardfile import BoardFileError
from kernel.rulesets import RulesetError

DEFAULT_MAP = "default"


class UserError(Exception):
    """A mistake in the command line or its inputs (exit code 2)."""


def _add_map(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--map", default=DEFAULT_MAP,
                        help="scenario or board file, or bundled name (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="write JSON for programs instead of text")


def _load(name: str):
    try:
        return load(name)
    except (FileNotFoundError, BoardFileError, RulesetError) as error:
        raise UserError(str(error)) from None


def command_info(args) -> None:
    board = _load(args.map)
    summary = board.summary()
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    print(f"{summary['title']}  ({summary['ruleset']}; {summary['source']})")
    for item in summary["boards"]:
        rotated = ", rotated 180" if item["rotated"] else ""
        print(f"  board {item['board']} at row {item['row']}, column {item['column']}{rotated}")
    print(f"hexes: {summary['hexes']}  (merged half hexes: {summary['merged_half_hexes']}, "
          f"under overlays: {summary['overlay_hexes']}, Locations: {summary['locations']})")
    levels = ", ".join(f"level {k}: {v}" for k, v in summary["ground_levels"].items())
    print(f"ground levels: {levels}")
    print("terrain: " + ", ".join(f"{k} {v}" for k, v in summary["terrain"].items()))
    print("hexsides: " + (", ".join(f"{k} {v}" for k, v in summary["hexsides"].items()) or "none"))
    print(f"multi-level buildings: {summary['multi_level_buildings']}")
    switches = ", ".join(f"{k}={'yes' if v else 'no'}" for k, v in summary["switches"].items())
    print(f"switches: {switches or 'none'}")
    print(f"compiled size: {summary['bytes_per_hex']} bytes per hex")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hexkernel", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    info = commands.add_parser("info", help="summarise a map: hexes, terrain counts, levels")
    _add_map(info)
    info.set_defaults(run=command_info)
    return parser




def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.run(args)
    except UserError as error:
        print(f"hexkernel: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
