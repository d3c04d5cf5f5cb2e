"""``hexkernel move``: the movement field of a unit class from a hex, the hexes in reach and a cheapest path."""

from __future__ import annotations

import math

from kernel.cli.arguments import add_common_options, add_counters_option, movement_allowance, picture_art
from kernel.cli.common import (UserError, check_writable, draw_pictures, emit, format_points, format_step,
                               json_number, load_map, output_paths, parse_location, read_counters, unit_class)
from kernel.cli.crop import picture_view


def register(commands) -> None:
    """Add the ``move`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    move = commands.add_parser(
        "move", help="movement field of a unit class from a hex",
        description="Least movement cost from a hex to every hex for one unit class, the hexes reachable "
                    "within the allowance (the cost of entering each, and where moving along one of its "
                    "hexsides without entering it is cheaper, that Bypass cost) and, with --to, the cheapest "
                    "path (Bypass moves shown as HEX-HEX).",
        epilog="example: hexkernel move --from 71I4 --unit infantry --allowance 4 --to 71M6 --png move.png")
    move.add_argument("--from", dest="start", action="append", required=True, metavar="HEX",
                      help="start hex or Location, e.g. 71P5h1 (repeat for several)")
    move.add_argument("--unit", metavar="CLASS", help="unit class (default: the ruleset's first, e.g. infantry)")
    move.add_argument("--allowance", type=movement_allowance, metavar="N",
                      help="movement allowance in MF/MP (default: the class's default allowance)")
    move.add_argument("--to", metavar="LOCATION",
                      help="destination hex or Location (71P5h1): print and draw the cheapest path")
    add_counters_option(move)
    add_common_options(move)
    move.set_defaults(run=command_move)


def move_payload(board, field, allowance, to=None) -> dict:
    """The JSON of a movement field: costs per hex (``null`` = unreachable; ``cost`` the least over the hex's
    Locations and Bypass positions, ``location_cost`` to be in it, ``bypass_cost`` along its hexsides),
    reachable hexes, path (``to``: a hex or a Location name)."""
    cost = [json_number(c) for c in field.cost]
    starts = [field.state_name(state) for state in field.start_states()]
    payload = {
        "map": board.title,
        "ruleset": board.ruleset.name,
        "unit": field.unit,
        "start": starts,
        "allowance": json_number(allowance) if allowance is not None else None,
        "reachable": [n for n, c in zip(board.names, field.cost) if c <= (allowance if allowance is not None else math.inf)],
        "exit_cost": json_number(field.exit_cost),
        "exit_hex": board.names[field.exit_hex] if field.exit_hex >= 0 else None,
        "hexes": list(board.names),
        "cost": cost,
        "location_cost": [json_number(c) for c in field.location_cost],
        "bypass_cost": [json_number(c) for c in field.bypass_cost],
    }
    if to is not None:
        states = field.path_states(to) or []
        payload["to"] = to if isinstance(to, str) else board.names[to]
        payload["path"] = [field.state_name(s) for s in states]
        payload["path_cost"] = json_number(field.state_cost[states[-1]]) if states else None
    return payload


def command_move(args) -> None:
    """Run ``hexkernel move``: the hexes in reach by cost, the path to ``--to``, the JSON and a picture.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    check_writable(*output_paths(args))
    board = load_map(args.map, args)
    view = picture_view(board, args)
    starts = []
    for text in args.start:
        index, level = parse_location(board, text, "--from")
        # a start Location above ground (upper building level, bridge deck) by its name
        starts.append(board.location_name(index, level) if level else index)
    unit = unit_class(board, args.unit)
    to = None
    if args.to:
        index, level = parse_location(board, args.to, "--to")
        # a hex means its Location (the path ends in it); a Location above ground by its name
        to = board.location_name(index, level) if board.names_a_location(args.to) else index
    counters, _ = read_counters(board, args.counters)
    allowance = args.allowance
    if allowance is None:
        allowance = float(board.ruleset.rules["default_allowance"][unit])
    from kernel import movement_field

    try:
        field = movement_field(board, starts, unit=unit, allowance=allowance, counters=counters)
    except ValueError as error:
        raise UserError(str(error)) from None
    payload = move_payload(board, field, allowance, to)
    points = "MF" if board.ruleset.los_model == "asl" else "MP"
    full = None

    def unlimited():
        nonlocal full
        if full is None:
            full = movement_field(board, starts, unit=unit, counters=counters)
        return full

    def text():
        entered, bypass = field.location_cost, field.bypass_cost
        beside = (bypass < entered) & (bypass <= allowance)   # cheaper along a hexside than in the hex
        lines = [f"{unit} from {', '.join(s if isinstance(s, str) else board.names[s] for s in starts)} "
                 f"on {board.title} ({board.ruleset.name}), "
                 f"allowance {format_points(allowance)} {points}: {len(payload['reachable'])} hexes reachable"
                 + (f" ({int(beside.sum())} cheaper along a hexside: Bypass, below)" if beside.any() else "")]

        def by_cost(costs, chosen):
            grouped: dict[float, list[str]] = {}
            for name, c, keep in zip(board.names, costs.tolist(), chosen.tolist()):
                if keep:
                    grouped.setdefault(float(c), []).append(name)
            for c in sorted(grouped):
                names = grouped[c]
                shown = " ".join(names[:24]) + (f" ... ({len(names) - 24} more)" if len(names) > 24 else "")
                lines.append(f"  {format_points(c):>5} {points}: {shown}")

        by_cost(entered, entered <= allowance)
        if beside.any():
            rule = " (A4.3)" if board.ruleset.los_model == "asl" else ""
            lines.append(f"  Bypass{rule}: along a hexside of the hex, without entering it")
            by_cost(bypass, beside)
        if to is not None:
            name = payload["to"]
            if payload["path"]:
                lines.append(f"path to {name} ({format_points(payload['path_cost'])} {points}): "
                             + " ".join(format_step(step) for step in payload["path"]))
            else:
                beyond = unlimited().cost_at(to)  # its Location (the path ends there)
                extra = f" (it costs {format_points(beyond)} {points})" if math.isfinite(beyond) else " at all"
                lines.append(f"{name} is not reachable within {format_points(allowance)} {points}{extra}")
        return lines

    emit(args, payload, text)

    def figure(dpi):
        from kernel.render.movement_map import movement_picture

        return movement_picture(board, field, allowance=allowance, to=to, full=unlimited(), view=view,
                                counters=counters, art=picture_art(args), dpi=dpi)

    draw_pictures(args, figure)
