"""``hexkernel vantage``: the Locations that see the most of the map, and the hill hexes, from the LOS matrix."""

from __future__ import annotations

import numpy as np

from kernel.cli.arguments import add_common_options, add_counters_option, positive_int
from kernel.cli.common import check_writable, draw_pictures, emit, load_map, output_paths, read_counters
from kernel.cli.crop import picture_view


def register(commands) -> None:
    """Add the ``vantage`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    vantage = commands.add_parser(
        "vantage", help="the Locations that see the most of the map, and the hill hexes",
        description="Rank every Location (ground level of every hex, and every upper building level or bridge "
                    "deck) by how many hexes (targets at ground level) it sees, from the full LOS matrix; list the "
                    "hill hexes by level with the best observation posts of each level.",
        epilog="example: hexkernel vantage --top 10 --png vantage.png")
    vantage.add_argument("--top", type=positive_int, default=10, metavar="K",
                         help="how many Locations to list (default: %(default)s)")
    add_counters_option(vantage)
    add_common_options(vantage)
    vantage.set_defaults(run=command_vantage)


def hexes_seen(board, counters=None):
    """Per Location, how many hexes (targets at ground level, itself included) it sees.

    Returns
    -------
    list of (hex index, level, count)
        Ground level of every hex (from :func:`kernel.visibility_bits`), then
        every upper Location (from :func:`kernel.field_of_fire`), in hex order.
    """
    from kernel import field_of_fire, visibility_bits

    bits = visibility_bits(board, counters=counters)
    ground = np.unpackbits(bits, axis=1, count=len(board)).sum(axis=1)
    out = [(i, 0, int(ground[i])) for i in range(len(board))]
    for i in np.flatnonzero(board.top_level > 0):
        for level in range(1, int(board.top_level[i]) + 1):
            fire = field_of_fire(board, [int(i)], levels=[level], counters=counters)
            out.append((int(i), level, int(fire.visible.sum())))
    return out


def vantage_payload(board, seen, top: int) -> dict:
    """The JSON of ``hexkernel vantage``: the best Locations, the hills, and every ground-level count."""
    n = len(board)
    ranked = sorted(seen, key=lambda item: (-item[2], item[0], item[1]))

    def entry(i, level, count):
        return {"location": board.location_name(i, level), "ground_level": int(board.ground_level[i]),
                "level": int(level), "hexes_seen": count, "share": round(count / n, 4)}

    ground = [count for i, level, count in seen if level == 0]
    hills = {}
    for level in sorted({int(v) for v in board.ground_level if v > 0}):
        members = [item for item in ranked if item[1] == 0 and int(board.ground_level[item[0]]) == level]
        hills[str(level)] = {"hexes": sorted(board.names[i] for i, _, _ in members),
                             "best": [entry(*item) for item in members[:3]]}
    return {"map": board.title, "ruleset": board.ruleset.name, "hexes": n, "locations": len(seen),
            "best": [entry(*item) for item in ranked[:top]], "hills": hills,
            "hex_names": list(board.names), "hexes_seen_ground_level": ground}


def command_vantage(args) -> None:
    """Run ``hexkernel vantage``: the ranking as text or JSON, and a picture of hexes seen per hex.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    check_writable(*output_paths(args))
    board = load_map(args.map)
    view = picture_view(board, args)
    counters, _ = read_counters(board, args.counters)
    seen = hexes_seen(board, counters)
    payload = vantage_payload(board, seen, args.top)

    def text():
        n = len(board)
        lines = [f"best observation posts of {board.title} ({board.ruleset.name}, {n} hexes, "
                 f"{len(seen)} Locations), targets at ground level:"]
        for rank, item in enumerate(payload["best"], start=1):
            where = f"ground level {item['ground_level']}" + (f", building level {item['level']}" if item["level"] else "")
            lines.append(f"  {rank:>3}. {item['location']:<9} sees {item['hexes_seen']:>5} hexes "
                         f"({100 * item['share']:.1f} %)  [{where}]")
        if not payload["hills"]:
            lines.append("hills: none")
        for level, hill in payload["hills"].items():
            best = ", ".join(f"{b['location']} ({b['hexes_seen']})" for b in hill["best"])
            shown = " ".join(hill["hexes"][:40]) + (f" ... ({len(hill['hexes']) - 40} more)" if len(hill["hexes"]) > 40 else "")
            lines.append(f"hill level {level}: {len(hill['hexes'])} hexes; best: {best}")
            lines.append(f"  {shown}")
        return lines

    emit(args, payload, text)

    def figure(dpi):
        from kernel.render.matrix_map import values_picture

        return values_picture(board, payload["hexes_seen_ground_level"], title="Hexes seen from each hex (ground level)",
                              label="hexes in LOS (targets at ground level)", view=view, dpi=dpi)

    draw_pictures(args, figure)
