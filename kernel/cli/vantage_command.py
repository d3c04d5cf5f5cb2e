"""``hexkernel vantage``: the Locations that see the most of the map (or of ``--targets``), and the hill hexes."""

from __future__ import annotations

import os

import numpy as np

from kernel.cli.arguments import (add_common_options, add_counters_option, add_depiction_option, chosen_model, los_model,
                                  picture_art, positive_int)
from kernel.cli.common import UserError, check_writable, draw_pictures, emit, load_map, output_paths, read_counters
from kernel.cli.crop import picture_view


def register(commands) -> None:
    """Add the ``vantage`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    vantage = commands.add_parser(
        "vantage", help="the Locations that see the most of the map, and the hill hexes",
        description="Rank every Location (ground level of every hex, and every upper building level or bridge "
                    "deck) by how many hexes (targets at ground level) it sees, from the full LOS matrix; list the "
                    "hill hexes by level with the best observation posts of each level.",
        epilog="examples: hexkernel vantage --top 10 --png vantage.png; "
               "hexkernel vantage --targets road --png road.png (which Locations cover the roads best)")
    vantage.add_argument("--top", type=positive_int, default=10, metavar="K",
                         help="how many Locations to list (default: %(default)s)")
    vantage.add_argument("--targets", metavar="HEXES|FILE|FEATURE",
                         help="rank the Locations by how many of these hexes they see, then by how many clear, "
                              "then by the least mean hindrance: hex names separated by commas (71I4,71I5), a "
                              "file of hex names, or a terrain or hexside feature of the ruleset (road, woods)")
    vantage.add_argument("--side", metavar="SIDE",
                         help="on a saved game (--map game.vsav): rank the Locations by how many units of the other "
                              "sides they see (SIDE: axis, allies, ...), then by how many clear, then by the least mean "
                              "hindrance")
    vantage.add_argument("--scale", choices=("quantile", "log", "linear"), default="quantile",
                         help="the picture's colour scale (default: %(default)s: ten bands of equal hex counts, "
                              "so a few hills that see far do not wash out the rest)")
    add_counters_option(vantage)
    add_depiction_option(vantage)
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


def read_targets(board, text: str):
    """The ``--targets`` hexes (sorted indices) and how to name them: a file of hex names, a feature name, or
    hex names separated by commas (UserError on a mistake)."""
    from kernel._limits import read_limited
    from kernel.line_of_sight.vantage import feature_hexes, target_hexes

    rs = board.ruleset
    if text in rs.terrain_names or text in rs.hexside_names or not (os.path.isfile(text) or
                                                                      any(c.isdigit() for c in text)):
        try:   # a word without digits is a feature name: an unknown one gets the list of known ones
            return feature_hexes(board, text), f"{text} hexes"
        except ValueError as error:
            raise UserError(f"--targets: {error}") from None
    elif os.path.isfile(text):
        try:
            content = read_limited(text, "targets file").decode("utf-8")
        except (OSError, ValueError) as error:
            raise UserError(f"--targets {text}: {error}") from None
        lines = [line.split("#")[0] for line in content.splitlines()]
        names, what = " ".join(lines).replace(",", " ").split(), f"hexes of {os.path.basename(text)}"
    else:
        names, what = [part.strip() for part in text.split(",") if part.strip()], "target hexes"
    try:
        return target_hexes(board, names), what
    except (KeyError, ValueError, TypeError) as error:
        from kernel.cli.common import error_message

        raise UserError(f"--targets: {error_message(error)}") from None


def command_targets(args, board, view, counters) -> None:
    """``hexkernel vantage --targets``: the Locations ranked by coverage of the target hexes."""
    from kernel.line_of_sight.vantage import coverage

    goal, what = read_targets(board, args.targets)
    model = los_model(args, board)
    try:
        covered = coverage(board, goal, counters=counters, model=model)
    except ValueError as error:
        raise UserError(str(error)) from None
    best = covered.best(board, args.top)
    payload = {"map": board.title, "ruleset": board.ruleset.name, "model": model, "targets_given": args.targets,
               "targets": [board.names[i] for i in covered.targets], "locations": len(covered.hexes), "best": best,
               "hex_names": list(board.names),
               "targets_seen_ground_level": [int(v) for v in covered.seen_from_ground(len(board))]}

    header = (f"best posts over {len(goal)} {what} of {board.title} ({board.ruleset.name}, {model} model, "
              f"{len(covered.hexes)} Locations), ranked by targets seen, then seen clear, then least mean hindrance:")
    emit_ranking(args, board, view, payload, header, "targets_seen", f"of {len(goal)}", 4,
                 values=payload["targets_seen_ground_level"],
                 title=f"How many of the {len(goal)} {what} each hex sees ({model} model)",
                 label=f"{what} in LOS (from ground level)", outlined=covered.targets, outlined_label=f"target: {what}")


def emit_ranking(args, board, view, payload, header: str, seen_key: str, out_of: str, width: int, *, values,
                 title: str, label: str, outlined=None, outlined_label: str | None = None) -> None:
    """Write a ranking of posts (``payload["best"]``, each seeing ``item[seen_key]`` ``out_of``) as text or JSON,
    and its picture: ``values`` per hex, the posts marked by rank."""
    best = payload["best"]

    def text():
        lines = [header]
        for rank, item in enumerate(best, start=1):
            where = f"ground level {item['ground_level']}" + (f", building level {item['level']}" if item["level"] else "")
            mean = "-" if item["mean_hindrance"] is None else f"+{item['mean_hindrance']:.2f}"
            lines.append(f"  {rank:>3}. {item['location']:<9} sees {item[seen_key]:>{width}} {out_of} "
                         f"({item['seen_clear']} clear, mean hindrance {mean})  [{where}]")
        return lines

    emit(args, payload, text)

    def figure(dpi):
        from kernel.render.matrix_map import values_picture

        marks = [(board.location(item["location"])[0], str(rank)) for rank, item in enumerate(best, start=1)]
        return values_picture(board, values, view=view, dpi=dpi, scale=args.scale, title=title, label=label,
                              marks=marks, outlined=outlined, outlined_label=outlined_label or "target hex",
                              art=picture_art(args))

    draw_pictures(args, figure)


def side_coverage(board, side: str, counters=None, model: str = "hex"):
    """Every Location of the map against the Locations of the units of the sides other than ``side``: the
    Locations (hexes, levels) and per Location the units seen, the units seen clear and the mean hindrance."""
    from kernel import los_pairs
    from kernel.cli.saved_games import side_targets

    goal, goal_levels, weights = side_targets(board, side)
    n = len(board)
    upper = [(int(h), v) for h in np.flatnonzero(board.top_level > 0) for v in range(1, int(board.top_level[h]) + 1)]
    hexes = np.concatenate([np.arange(n), np.array([h for h, _ in upper], np.int64)]).astype(np.int32)
    levels = np.concatenate([np.zeros(n, np.int64), np.array([v for _, v in upper], np.int64)])
    try:
        pairs = los_pairs(board, hexes, goal, levels=levels, target_levels=goal_levels, product=True,
                          counters=counters, model=model)
    except ValueError as error:
        raise UserError(str(error)) from None
    visible = np.asarray(pairs.visible, bool)
    hindrance = np.where(visible, np.asarray(pairs.hindrance), 0)
    seen = (visible * weights).sum(axis=1)
    clear = ((visible & (hindrance == 0)) * weights).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(seen > 0, (hindrance * weights).sum(axis=1) / np.maximum(seen, 1), np.nan)
    return hexes, levels, seen, clear, mean, int(weights.sum())


def command_side(args, board, view, counters) -> None:
    """``hexkernel vantage --side``: the Locations ranked by how many of the other sides' units they see."""
    model = los_model(args, board)
    hexes, levels, seen, clear, mean, total = side_coverage(board, args.side, counters, model)
    order = np.lexsort((levels, hexes, np.where(np.isnan(mean), np.inf, mean), -clear, -seen))[:args.top]
    best = [{"location": board.location_name(int(hexes[r]), int(levels[r])), "ground_level": int(board.ground_level[hexes[r]]),
             "level": int(levels[r]), "units_seen": int(seen[r]), "seen_clear": int(clear[r]),
             "mean_hindrance": None if np.isnan(mean[r]) else round(float(mean[r]), 3)} for r in order]
    n = len(board)
    payload = {"map": board.title, "ruleset": board.ruleset.name, "model": model, "side": args.side,
               "enemy_units": total, "locations": int(hexes.size), "best": best, "hex_names": list(board.names),
               "units_seen_ground_level": [int(v) for v in seen[:n]]}

    header = (f"best posts of side {args.side} on {board.title} ({model} model, {hexes.size} Locations) against "
              f"the {total} units of the other sides, ranked by units seen, then seen clear, then least mean "
              "hindrance:")
    emit_ranking(args, board, view, payload, header, "units_seen", f"of {total} units", 3,
                 values=payload["units_seen_ground_level"],
                 title=f"Units of the other sides seen from each hex by side {args.side} ({model} model)",
                 label="enemy units in LOS (from ground level)")


def command_vantage(args) -> None:
    """Run ``hexkernel vantage``: the ranking as text or JSON, and a picture of hexes seen per hex.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    check_writable(*output_paths(args))
    board = load_map(args.map, args)
    view = picture_view(board, args)
    counters, _ = read_counters(board, args.counters)
    if args.side is not None:
        if args.targets is not None:
            raise UserError("--side and --targets both given: expected one of them")
        return command_side(args, board, view, counters)
    if args.targets is not None:
        return command_targets(args, board, view, counters)
    if chosen_model(args) not in (None, "hex"):
        raise UserError("--depiction and --vasl-hindrance rank only with --targets: expected --targets HEXES|FILE|"
                        "FEATURE (the ranking of the whole map counts the hex model's LOS matrix)")
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

        marks = [(board.location(item["location"])[0], str(rank)) for rank, item in enumerate(payload["best"], 1)]
        return values_picture(board, payload["hexes_seen_ground_level"], title="Hexes seen from each hex (ground level, hex model)",
                              label="hexes in LOS (targets at ground level)", view=view, dpi=dpi, scale=args.scale,
                              marks=marks, art=picture_art(args))

    draw_pictures(args, figure)
