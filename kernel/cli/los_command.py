"""``hexkernel los``: one line of sight between two Locations, explained and drawn."""

from __future__ import annotations

from kernel.cli.arguments import add_common_options, add_counters_option, add_depiction_option, los_model, picture_art
from kernel.cli.common import (UserError, check_writable, draw_pictures, emit, load_map, output_paths, parse_location,
                               read_counters, unit_class)
from kernel.cli.crop import picture_view


def register(commands) -> None:
    """Add the ``los`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    los_parser = commands.add_parser(
        "los", help="one LOS between two Locations",
        description="Check one line of sight between two Locations. A Location is a hex name, optionally with "
                    "a building level: 71P5h1 is level 1 of hex 71P5.",
        epilog="example: hexkernel los 71P5h2 71I9 --explain --png los.png")
    los_parser.add_argument("viewer", help="viewer Location, e.g. 71I4 or 71P5h2 (on a saved game also a unit's "
                                           "name: NAME, NAME@HEX or #ID)")
    los_parser.add_argument("target", help="target Location (or a unit's name)")
    los_parser.add_argument("--explain", action="store_true",
                            help="the ends' levels and range, and the steps that matter: hindrances, blind hexes "
                                 "(with the A6.4 arithmetic), the blocking step, each with its rule")
    los_parser.add_argument("--all-steps", action="store_true",
                            help="with --explain: list every step of the trace, 'no effect' ones too")
    los_parser.add_argument("--unit", metavar="CLASS", help="firing unit class, for the target's cover")
    add_counters_option(los_parser)
    add_depiction_option(los_parser)
    add_common_options(los_parser)
    los_parser.set_defaults(run=command_los)


def los_payload(board, result) -> dict:
    """The JSON of one LOS: :class:`kernel.LOSResult` field by field."""
    return {"map": board.title, **result.to_dict()}


def command_los(args) -> None:
    """Run ``hexkernel los``: the verdict (every step with ``--explain``), its JSON and picture.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    check_writable(*output_paths(args))
    board = load_map(args.map, args)
    view = picture_view(board, args)
    a, level_a = parse_location(board, args.viewer, "viewer")
    b, level_b = parse_location(board, args.target, "target")
    unit = unit_class(board, args.unit) if args.unit is not None else None
    counters, _ = read_counters(board, args.counters)
    from kernel import los

    try:
        result = los(board, a, b, level=level_a, target_level=level_b, counters=counters, unit=unit,
                     model=los_model(args, board))
    except ValueError as error:
        raise UserError(str(error)) from None
    explain = args.explain or args.all_steps
    emit(args, los_payload(board, result),
         lambda: result.explain(all_steps=args.all_steps).splitlines() if explain else [result.headline])

    def figure(dpi):
        from kernel.render.los_trace import los_picture

        return los_picture(board, result, all_steps=args.all_steps, view=view, counters=counters, art=picture_art(args),
                           dpi=dpi)

    draw_pictures(args, figure)
