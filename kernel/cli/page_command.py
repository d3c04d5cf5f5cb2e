"""``hexkernel page``: the interactive map page, one self-contained HTML file that works offline from disk."""

from __future__ import annotations

from kernel.cli.arguments import add_common_options, add_counters_option, add_force_option, positive_int
from kernel.cli.common import UserError, check_writable, load_map, read_counters, unit_class
from kernel.cli.outputs import staged


def register(commands) -> None:
    """Add the ``page`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    page = commands.add_parser(
        "page", help="the interactive map page (HTML, works offline): fields of fire, LOS, movement",
        description="Write one self-contained HTML page of the map: click a hex for its field of fire (from the "
                    "embedded LOS matrix), shift-click a second hex for the LOS between them, switch to the "
                    "movement view for the hexes a unit reaches with the allowance on the slider. On a saved game "
                    "(--map game.vsav) its units and counters are drawn and listed: click a unit for its field of "
                    "fire.",
        epilog="example: hexkernel page --counters counters.json --out map.html  (then open map.html in a browser)")
    page.add_argument("--out", required=True, metavar="FILE", help="the HTML file to write")
    page.add_argument("--unit", metavar="CLASS", help="unit class of the movement view and the cover (default: the "
                                                      "ruleset's first)")
    page.add_argument("--max-allowance", type=positive_int, default=8, metavar="MF",
                      help="largest allowance on the movement slider, 1..127 MF (default: %(default)s)")
    add_counters_option(page)
    add_common_options(page, picture=False, json_=False)
    add_force_option(page)
    page.set_defaults(run=command_page)


def command_page(args) -> None:
    """Run ``hexkernel page``: compute the tables, write the page and say its size.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    if not args.out.lower().endswith((".html", ".htm")):
        raise UserError(f"--out {args.out}: expected a file name ending in .html")
    if args.max_allowance > 127:
        raise UserError(f"--max-allowance {args.max_allowance}: expected 1..127 MF")
    check_writable(("--out", args.out, (".html", ".htm")))
    board = load_map(args.map, args)
    unit = unit_class(board, args.unit)
    counters, _ = read_counters(board, args.counters)
    from kernel.cli.saved_games import page_pieces
    from kernel.render.page import map_page

    try:
        size = map_page(board, staged(args.out), counters=counters, unit=unit, max_allowance=args.max_allowance,
                        pieces=page_pieces(board))
    except OSError as error:
        raise UserError(f"cannot write {args.out}: {error.strerror or error}") from None
    except ValueError as error:
        raise UserError(str(error)) from None
    print(f"wrote {args.out}: {size / 1e6:.2f} MB, {len(board)} hexes of {board.title}; open it in a browser "
          f"(no server needed)")
