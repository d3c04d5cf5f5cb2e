"""``hexkernel demo``: the main job on a map: matrix, field of fire, movement, one LOS, pictures and JSON."""

from __future__ import annotations

import time
from pathlib import Path

from kernel.cli.arguments import DEFAULT_MAP, add_force_option, add_saved_game_options, picture_formats
from kernel.cli.common import (UserError, check_writable, emit, format_points, format_step, load_map,
                               parse_location, save_picture, to_json, unit_class, write_text)
from kernel.cli.fire_command import fire_payload
from kernel.cli.los_command import los_payload
from kernel.cli.matrix_command import write_matrix
from kernel.cli.move_command import move_payload
from kernel.cli.outputs import make_folder, staged

_DEMO_STRONG = ("71I4",)

#: The files ``demo`` writes into ``--out`` besides the pictures.
DEMO_FILES = ("info.json", "los_matrix.npy", "matrix.json", "fire.json", "move.json", "los.json", "los.txt",
              "map.html", "summary.json")


def register(commands) -> None:
    """Add the ``demo`` command to the subparsers ``commands`` of :func:`kernel.cli.app.build_parser`."""
    demo = commands.add_parser(
        "demo", help="the main job: matrix, field of fire, movement, LOS, pictures and JSON",
        description="Run the main job on a map (default: the bundled four-board scenario): the full LOS matrix, "
                    "a field of fire from a strong position, an infantry movement field with a path, one "
                    "explained LOS; write pictures and JSON to the output folder and print the time of each step.")
    demo.add_argument("--out", default="out", metavar="DIR", help="output folder (default: %(default)s)")
    demo.add_argument("--map", default=DEFAULT_MAP, metavar="MAP",
                      help="scenario or board file, VASL board or saved game (.vsav), or bundled name (default: "
                           "%(default)s)")
    add_saved_game_options(demo)
    demo.add_argument("--from", dest="source", metavar="HEX",
                      help="the firer's Location and the mover's hex (default: 71I4, else the hex that sees most)")
    demo.add_argument("--unit", metavar="CLASS", help="moving unit class (default: the ruleset's first)")
    demo.add_argument("--formats", type=picture_formats, default=["png", "svg"], metavar="LIST",
                      help="picture formats, comma-separated (default: png,svg)")
    demo.add_argument("--no-pictures", action="store_true", help="skip the pictures")
    demo.add_argument("--quiet", action="store_true", help="no progress bar")
    demo.add_argument("--json", action="store_true", help="print the summary as JSON instead of text")
    demo.add_argument("--json-out", metavar="FILE", help="also write the summary JSON to FILE")
    add_force_option(demo)
    demo.set_defaults(run=command_demo)


def _strong_position(board, seen) -> tuple[int, int]:
    """A commanding Location: 71I4 on the bundled map, else the hex that sees the most hexes."""
    for name in _DEMO_STRONG:
        if name in board.names:
            return board.index(name), 0
    import numpy as np

    return int(np.argmax(seen)), 0


def _demo_destination(board, field, allowance) -> int:
    """The costliest hex within the allowance, preferring a path with a Bypass move."""
    best, key = -1, None
    for i, c in enumerate(field.cost):
        if not c <= allowance:
            continue
        states = field.path_states(i)  # to the hex's Location: None where only a Bypass position is in reach
        if states is None:
            continue
        c = field.state_cost[states[-1]]
        if not c <= allowance:
            continue
        bypass = any(s >= 2 * field.tables.n_locations for s in states)
        candidate = (float(c), bypass, len(states), -i)
        if key is None or candidate > key:
            best, key = i, candidate
    return best


def _demo_target(board, viewer, level) -> int:
    """A LOS worth drawing: the nearest hex 6+ hexes away that is hindered, else blocked by something."""
    import numpy as np

    from kernel.grid.lattice import hex_distance
    from kernel import los

    distance = hex_distance(board.col[viewer], board.row[viewer], board.col, board.row)
    order = np.lexsort((np.arange(len(board)), np.abs(distance - 8)))
    fallback = -1
    for i in order[:400]:
        if distance[i] < 6:
            continue
        result = los(board, int(viewer), int(i), level=level)
        if result.visible and result.hindrance > 0:
            return int(i)
        if not result.visible and fallback < 0 and result.reason_name in ("obstacle", "hexside", "hill"):
            fallback = int(i)
    return fallback if fallback >= 0 else int(order[-1])


def command_demo(args) -> None:
    """Run ``hexkernel demo``: every step's result and time as text or JSON, the files in ``--out``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    out = Path(args.out)
    make_folder(str(out))   # removed again, with everything staged in it, unless the demo completes
    pictures = [] if args.no_pictures else [f"{name}.{fmt}" for name in ("board", "los_matrix", "fire", "move", "los")
                                            for fmt in args.formats]
    check_writable(("--json-out", args.json_out, ()),
                   *[("--out", str(out / name), ()) for name in DEMO_FILES + tuple(pictures)])
    steps: list[tuple[str, float, str]] = []
    files: list[str] = []
    total_start = time.perf_counter()

    def step(label, started, note=""):
        steps.append((label, time.perf_counter() - started, note))

    def save_json(name, payload):
        path = out / name
        write_text(str(path), to_json(payload) + "\n")
        files.append(str(path))

    started = time.perf_counter()
    board = load_map(args.map, args)
    step("load and compile the map", started, f"{len(board)} hexes, ruleset {board.ruleset.name}")
    save_json("info.json", board.summary())

    # 1. the full LOS matrix, block by block
    started = time.perf_counter()
    matrix_path = out / "los_matrix.npy"
    counts = write_matrix(board, staged(str(matrix_path)), progress=False if args.quiet else None)
    seen = counts.pop("hexes_seen")
    files.append(str(matrix_path))
    share = 100.0 * counts["visible_pairs"] / max(1, counts["pairs"])
    step(f"LOS matrix {len(board)} x {len(board)}", started, f"{share:.1f}% of pairs visible -> {matrix_path}")
    save_json("matrix.json", {"map": board.title, "file": str(matrix_path), "shape": [len(board), len(board)],
                              "dtype": "int8", **counts, "hexes_seen": [int(v) for v in seen],
                              "hexes": list(board.names)})

    # 2. a field of fire from a strong position
    from kernel import field_of_fire, los

    if args.source:
        source, level = parse_location(board, args.source, "--from")
    else:
        source, level = _strong_position(board, seen)
    source_name = board.location_name(source, level)
    started = time.perf_counter()
    fire = field_of_fire(board, [source], levels=[level])
    fire_json = fire_payload(board, fire, [level])
    s = fire_json["summary"]
    step(f"field of fire from {source_name}", started,
         f"{s['visible']} hexes visible ({s['hindered']} hindered), {s['blocked']} blocked")
    save_json("fire.json", fire_json)

    # 3. an infantry movement field from the same hex, with a path
    from kernel import movement_field

    unit = unit_class(board, args.unit)
    allowance = float(board.ruleset.rules["default_allowance"][unit])
    points = "MF" if board.ruleset.los_model == "asl" else "MP"
    started = time.perf_counter()
    field = movement_field(board, [source], unit=unit, allowance=allowance)
    destination = _demo_destination(board, field, allowance)
    move_json = move_payload(board, field, allowance, destination)
    step(f"movement of {unit} from {board.names[source]}", started,
         f"{len(move_json['reachable'])} hexes within {format_points(allowance)} {points}; path to {move_json['to']} "
         f"({format_points(move_json['path_cost'])} {points}): {' '.join(format_step(p) for p in move_json['path'])}")
    save_json("move.json", move_json)
    full = movement_field(board, [source], unit=unit)

    # 4. one LOS, explained
    started = time.perf_counter()
    target = _demo_target(board, source, level)
    result = los(board, source, target, level=level)
    step(f"LOS {result.viewer} -> {result.target}", started,
         "clear" + (f", hindrance +{result.hindrance}" if result.hindrance else "") if result.visible
         else f"blocked at {result.blocked_at_name} ({result.reason_name})")
    save_json("los.json", los_payload(board, result))
    write_text(str(out / "los.txt"), result.explain() + "\n")
    files.append(str(out / "los.txt"))

    # 5. the interactive map page
    from kernel.render.page import map_page

    started = time.perf_counter()
    page_path = out / "map.html"
    size = map_page(board, staged(str(page_path)), unit=unit)
    files.append(str(page_path))
    step("interactive map page", started, f"{size / 1e6:.2f} MB -> {page_path} (open it in a browser)")

    # 6. pictures
    if not args.no_pictures:
        from kernel.render.board_map import board_picture
        from kernel.render.fire_map import fire_picture
        from kernel.render.los_trace import los_picture
        from kernel.render.matrix_map import values_picture
        from kernel.render.movement_map import movement_picture

        started = time.perf_counter()
        figures = {
            "board": lambda: board_picture(board),
            "los_matrix": lambda: values_picture(board, seen, title="How many hexes each hex sees (ground level)",
                                                 label="hexes in LOS (targets at ground level)", scale="quantile"),
            "fire": lambda: fire_picture(board, fire, levels=[level]),
            "move": lambda: movement_picture(board, field, allowance=allowance, to=destination, full=full),
            "los": lambda: los_picture(board, result),
        }
        formats = args.formats
        for name, make in figures.items():
            figure = make()
            for fmt in formats:
                path = out / f"{name}.{fmt}"
                save_picture(figure, str(path), fmt)
                files.append(str(path))
        step(f"pictures ({len(figures)} x {'+'.join(f.upper() for f in formats)})", started,
             ", ".join(f"{name}.png" for name in figures))

    total = time.perf_counter() - total_start
    summary = {"map": board.title, "ruleset": board.ruleset.name, "hexes": len(board), "out": str(out),
               "steps": [{"step": label, "seconds": round(seconds, 4), "result": note} for label, seconds, note in steps],
               "total_seconds": round(total, 4), "files": files}
    save_json("summary.json", summary)
    width = max(len(label) for label, _, _ in steps)

    def text():
        lines = [f"hexkernel demo: {board.title} ({board.ruleset.name}, {len(board)} hexes) -> {out}/"]
        for label, seconds, note in steps:
            lines.append(f"  {label:<{width}}  {seconds:7.2f} s  {note}")
        lines.append(f"  {'total':<{width}}  {total:7.2f} s  {len(files)} files in {out}/ (summary.json lists them)")
        return lines

    emit(args, summary, text)
