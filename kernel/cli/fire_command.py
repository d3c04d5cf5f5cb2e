"""``hexkernel fire``: the field of fire of one or more firers: visibility, hindrance and cover per hex."""

from __future__ import annotations

from kernel.cli.arguments import (add_common_options, add_counters_option, add_depiction_option, los_model,
                                  non_negative_int, picture_art)
from kernel.cli.common import (UserError, check_writable, draw_pictures, emit, load_map, output_paths,
                               parse_location, read_counters, unit_class)
from kernel.cli.crop import picture_view


def register(commands) -> None:
    """Add the ``fire`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    fire = commands.add_parser(
        "fire", help="field of fire from one or more Locations",
        description="What one or more firers see: for every hex whether it is visible, the least hindrance "
                    "DRM and the target's cover.",
        epilog="example: hexkernel fire --from 71I4 --counters counters.json --png fire.png")
    fire.add_argument("--from", dest="sources", action="append", required=True, metavar="HEX",
                      help="firing hex or Location, or on a saved game a unit's name (NAME, NAME@HEX or #ID; repeat "
                           "for several firers)")
    fire.add_argument("--level", type=non_negative_int, default=None, metavar="N",
                      help="building level of the firers (default 0; a Location name's hN wins)")
    fire.add_argument("--target-level", type=non_negative_int, default=0, metavar="N",
                      help="level of the targets (capped at each hex's highest Location level; default 0)")
    fire.add_argument("--unit", metavar="CLASS", help="firing unit class, for cover (default: the ruleset's first)")
    add_counters_option(fire)
    add_depiction_option(fire)
    add_common_options(fire)
    fire.set_defaults(run=command_fire)


def firer_locations(board, texts, level):
    """Hex indices and levels of the ``--from`` firers; ``--level`` for plain hex names."""
    from kernel.cli.saved_games import names_a_unit

    hexes, levels = [], []
    for text in texts:
        index, parsed = parse_location(board, text, "--from")
        if names_a_unit(board, text):
            if level is not None and level != parsed:
                raise UserError(f"--level {level} contradicts the unit {text!r} at {board.location_name(index, parsed)}")
            chosen = parsed
        elif board.names_a_location(text):
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
    """The JSON of a field of fire: the arrays of :class:`kernel.FieldOfFire`, in hex index order."""
    visible = [bool(v) for v in fire.visible]
    hindrance = [int(v) for v in fire.hindrance]
    sources = [int(s) for s in fire.sources]
    return {
        "map": board.title,
        "ruleset": board.ruleset.name,
        "model": fire.model,
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
    """Run ``hexkernel fire``: counts of visible, hindered and blocked hexes, the JSON arrays and a picture.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    check_writable(*output_paths(args))
    board = load_map(args.map, args)
    view = picture_view(board, args)
    hexes, levels = firer_locations(board, args.sources, args.level)
    unit = unit_class(board, args.unit)
    counters, counters_json = read_counters(board, args.counters)
    from kernel import field_of_fire

    try:
        fire = field_of_fire(board, hexes, levels=levels, target_levels=args.target_level, counters=counters,
                             unit=unit, model=los_model(args, board))
    except ValueError as error:
        raise UserError(str(error)) from None
    payload = fire_payload(board, fire, levels, target_level=args.target_level, unit=unit, counters=counters_json)

    def text():
        names = ", ".join(payload["sources"])
        grounds = ", ".join(str(int(board.ground_level[h])) for h in hexes)
        s = payload["summary"]
        lines = [f"field of fire from {names} (ground level {grounds}) on {board.title} ({board.ruleset.name}, "
                 f"{fire.model} model), firer {unit}, targets at level {args.target_level}",
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

    emit(args, payload, text)

    def figure(dpi):
        from kernel.render.fire_map import fire_picture

        return fire_picture(board, fire, levels=levels, counters=counters, view=view, model=fire.model,
                            art=picture_art(args), dpi=dpi)

    draw_pictures(args, figure)
