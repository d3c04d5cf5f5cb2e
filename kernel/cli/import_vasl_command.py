"""``hexkernel import-vasl``: read a VASL board (folder or archive) and write it as a hexkernel ``.board`` file."""

from __future__ import annotations

import json
from pathlib import Path

from kernel.cli.arguments import add_force_option
from kernel.cli.common import UserError, check_writable, error_message
from kernel.cli.outputs import staged
from kernel.maps.rulesets import RulesetError
from kernel.maps.specs import BoardFileError


def register(commands) -> None:
    """Add the ``import-vasl`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    importer = commands.add_parser(
        "import-vasl", help="write our board file from a VASL board folder or archive",
        description="Read a VASL board (a folder or a board archive holding LOSData and BoardMetadata.xml) "
                    "with VASL's terrain table (SharedBoardMetadata.xml: given, or found beside the board) and "
                    "write it as a hexkernel .board file.")
    importer.add_argument("board", metavar="VASL_BOARD", help="VASL board folder or archive")
    importer.add_argument("--out", required=True, metavar="FILE.board", help="board file to write")
    importer.add_argument("--metadata", metavar="FILE", help="SharedBoardMetadata.xml (default: found beside the board)")
    importer.add_argument("--board-id", metavar="NUMBER",
                          help="board number for the hex names (default: the board's name in BoardMetadata.xml; "
                               "needed when that name is not a number 1..999, like 00 or RB)")
    importer.add_argument("--json", action="store_true", help="print a JSON summary")
    add_force_option(importer)
    importer.set_defaults(run=command_import_vasl)


def command_import_vasl(args) -> None:
    """Read a VASL board (folder or archive) and write it in our board file format.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from kernel.maps.board_text import read_board_file, write_board_file
    from kernel import read_vasl_board

    out = Path(args.out)
    if out.suffix != ".board":
        raise UserError(f"--out is {args.out!r}: expected a file name ending in .board")
    if not out.parent.is_dir():
        raise UserError(f"--out folder {str(out.parent)!r} does not exist")
    check_writable(("--out", args.out, (".board",)))
    written = None
    try:
        spec = read_vasl_board(args.board, args.metadata, board_id=args.board_id)
        written = staged(args.out)
        write_board_file(spec, written)
        check = read_board_file(written)
    except (OSError, BoardFileError, RulesetError, ValueError) as error:
        message = error_message(error)
        if written is not None and written != str(out):
            message = message.replace(written, str(out))  # name the user's file, never the staging file
        raise UserError(message) from None
    summary = {"board": check.id, "source": str(args.board), "out": str(out), "hexes_listed": len(check.hexes),
               "hexsides_listed": len(check.hexsides)}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"board {check.id}: {len(check.hexes)} hexes and {len(check.hexsides)} hexsides written to {out}")
