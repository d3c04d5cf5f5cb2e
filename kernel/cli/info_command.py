"""``hexkernel info``: summarise a map (hexes, terrain, levels, hexside features) and draw it."""

from __future__ import annotations

from kernel.cli.arguments import add_common_options, picture_art
from kernel.cli.common import check_writable, draw_pictures, emit, load_map, output_paths
from kernel.cli.crop import picture_view


def register(commands) -> None:
    """Add the ``info`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    info = commands.add_parser("info", help="summarise a map: hexes, terrain counts, levels; draw it",
                               description="Summarise a map (hexes, terrain, levels, hexside features) and draw it; "
                                           "for a saved game also its boards, what of it is not applied, its counters "
                                           "and its units per side.")
    add_common_options(info)
    info.set_defaults(run=command_info)


def command_info(args) -> None:
    """Run ``hexkernel info``: the map's summary as text or JSON, and its picture.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    check_writable(*output_paths(args))
    board = load_map(args.map, args)
    view = picture_view(board, args)
    summary = board.summary()
    from kernel.cli.saved_games import game_lines, game_payload, saved_game_of

    game = saved_game_of(board)
    if game is not None:
        summary["saved_game"] = game_payload(game)

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
        return lines + (game_lines(game) if game is not None else [])

    emit(args, summary, text)

    def figure(dpi):
        from kernel.render.board_map import board_picture

        return board_picture(board, hexes=view, art=picture_art(args), dpi=dpi)

    draw_pictures(args, figure)
