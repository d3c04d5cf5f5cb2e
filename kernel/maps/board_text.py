"""Reading and writing board and overlay files (``.board``, ``.overlay``).

Examples
--------
>>> from kernel.maps.bundled import data_dir
>>> spec = read_board_file(data_dir() / "boards" / "71.board")
>>> spec.id, spec.columns, spec.rows
('71', 33, 10)
"""

from __future__ import annotations

from pathlib import Path

from kernel._limits import MAX_BOARD_COLUMNS, MAX_BOARD_ROWS, MAX_BUILDING_LEVELS, MAX_LEVEL, MIN_LEVEL
from kernel.grid.columns import board_problem, column_letters
from kernel.grid.coordinates import parse_hex
from kernel.grid.lattice import DIRECTION_NAMES, direction_between
from kernel.maps.rulesets import load_ruleset
from kernel.maps.specs import LAYOUTS, ORIENTATIONS, BoardFileError, BoardSpec, HexSpec
from kernel.maps.text_format import parse_integer, key_values, read_sections

_BOARD_KEYS = {"id", "kind", "ruleset", "layout", "orientation", "columns", "rows", "title", "default_level", "anchors"}


def read_board_file(path: str | Path) -> BoardSpec:
    """Parse and validate a ``.board`` or ``.overlay`` file.

    Raises
    ------
    BoardFileError
        For any malformed line, unknown terrain, duplicate or out-of-range hex;
        the message gives ``file:line:`` and the coordinate.
    FileNotFoundError
        If the file does not exist.

    See Also
    --------
    kernel.write_board_file : the inverse.
    kernel.load : reads and compiles a board in one call.

    Examples
    --------
    >>> import kernel
    >>> spec = kernel.read_board_file(kernel.maps.bundled.data_dir() / "boards" / "71.board")
    >>> spec.id, spec.columns, spec.rows
    ('71', 33, 10)
    """
    path = Path(path)
    sections = read_sections(path, {"board": "", "hexes": "", "hexsides": ""})
    if "board" not in sections:
        raise BoardFileError(f"{path}: missing the [board] section")
    header = key_values(path, sections["board"], _BOARD_KEYS)
    for required in ("id", "ruleset", "columns", "rows"):
        if required not in header:
            raise BoardFileError(f"{path}: [board] lacks the required key {required!r}")

    def get(key, default=None):
        return header[key][1] if key in header else default

    kind = get("kind", "board")
    if kind not in ("board", "overlay"):
        raise BoardFileError(f"{path}:{header['kind'][0]}: kind is {kind!r}: expected 'board' or 'overlay'")
    ruleset_name = get("ruleset")
    try:
        ruleset = load_ruleset(ruleset_name)
    except (ValueError, OSError) as error:
        raise BoardFileError(f"{path}:{header['ruleset'][0]}: ruleset {ruleset_name!r}: {error}") from None
    layout = get("layout", "geomorphic" if ruleset_name == "asl" else "rectangular")
    if layout not in LAYOUTS:
        raise BoardFileError(f"{path}:{header['layout'][0]}: layout is {layout!r}: expected one of {', '.join(LAYOUTS)}")
    orientation = get("orientation", "flat")
    if orientation not in ORIENTATIONS:
        raise BoardFileError(
            f"{path}:{header['orientation'][0]}: orientation is {orientation!r}: expected one of {', '.join(ORIENTATIONS)}"
        )
    board_id = get("id")
    if kind == "board" and (not (board_id.isascii() and board_id.isdigit()) or board_problem(board_id)):
        raise BoardFileError(f"{path}:{header['id'][0]}: board id is {board_id!r}: expected a board number "
                             "1..999 without leading zeros, as hex names use it ('71I9')")
    columns = parse_integer(path, header["columns"][0], "columns", get("columns"), 1)
    rows = parse_integer(path, header["rows"][0], "rows", get("rows"), 1, MAX_BOARD_ROWS)
    if columns > MAX_BOARD_COLUMNS:
        raise BoardFileError(f"{path}:{header['columns'][0]}: columns is {columns}: expected at most "
                             f"{MAX_BOARD_COLUMNS} (A..ZZ)")
    default_level = (parse_integer(path, header["default_level"][0], "default_level", get("default_level"),
                                   MIN_LEVEL, MAX_LEVEL) if "default_level" in header else 0)
    spec = BoardSpec(
        source=str(path), kind=kind, id=board_id, ruleset=ruleset_name, layout=layout,
        orientation=orientation, columns=columns, rows=rows, title=get("title", ""),
        default_level=default_level,
    )

    def cell_of(number: int, text: str) -> tuple[int, int]:
        try:
            ref = parse_hex(text)
        except ValueError as error:
            raise BoardFileError(f"{path}:{number}: {error}") from None
        if ref.board is not None or ref.overlay:
            raise BoardFileError(f"{path}:{number}: hex {text!r}: expected a hex of this board without board number, like 'I9'")
        cell = (ref.column_index, ref.number)
        if not spec.contains(cell):
            numbers = spec.number_range(cell[0]) if cell[0] < columns else None
            expected = (
                f"column {ref.column} holds hexes {numbers.start}..{numbers.stop - 1}" if numbers is not None
                else f"columns are A..{column_letters(columns - 1)}"
            )
            raise BoardFileError(f"{path}:{number}: hex {text!r} is off this {columns}x{rows} board: {expected}")
        return cell

    if kind == "overlay":
        if "anchors" not in header:
            raise BoardFileError(f"{path}: an overlay needs 'anchors = HEX1 HEX2' (its hexes marked 1 and 2)")
        line, text = header["anchors"]
        parts = text.split()
        if len(parts) != 2:
            raise BoardFileError(f"{path}:{line}: anchors is {text!r}: expected two adjacent hexes like 'B2 B3'")
        first, second = cell_of(line, parts[0]), cell_of(line, parts[1])
        try:
            direction_between(first[0], spec.lattice_row(*first), second[0], spec.lattice_row(*second))
        except ValueError:
            raise BoardFileError(f"{path}:{line}: anchors {parts[0]} and {parts[1]} are not adjacent") from None
        spec.anchors = (first, second)

    for number, line in sections.get("hexes", []):
        parts = line.split()
        if len(parts) < 3:
            raise BoardFileError(f"{path}:{number}: {line!r}: expected 'HEX LEVEL TERRAIN... [options]', e.g. 'I9 0 woods'")
        cell = cell_of(number, parts[0])
        if cell in spec.hexes:
            raise BoardFileError(
                f"{path}:{number}: hex {parts[0]} is listed twice (first on line {spec.hexes[cell].line})"
            )
        if parts[1] == "-" and kind == "overlay":
            level = None
        else:
            level = parse_integer(path, number, f"level of {parts[0]}", parts[1], MIN_LEVEL, MAX_LEVEL)
        terrain: list[str] = []
        building_levels = 0
        touch = None
        for item in parts[2:]:
            if "=" in item:
                key, value = item.split("=", 1)
                if key == "levels":
                    building_levels = parse_integer(path, number, f"levels of {parts[0]}", value, 0,
                                                    MAX_BUILDING_LEVELS)
                elif key == "touch":
                    touch = _parse_touch(path, number, parts[0], value)
                else:
                    raise BoardFileError(
                        f"{path}:{number}: hex {parts[0]}: unknown option {key!r}: expected levels=N or touch=0,1,..."
                    )
            elif item == ".":
                continue
            else:
                if item not in ruleset.terrain_names:
                    raise BoardFileError(
                        f"{path}:{number}: hex {parts[0]}: unknown terrain {item!r} for ruleset {ruleset_name!r}: "
                        f"expected one of {', '.join(ruleset.terrain_names)}"
                    )
                if item in terrain:
                    raise BoardFileError(f"{path}:{number}: hex {parts[0]}: terrain {item!r} listed twice")
                if ruleset.terrain_art_only[ruleset.terrain_index(item)]:
                    raise BoardFileError(
                        f"{path}:{number}: hex {parts[0]}: terrain {item!r} is drawn only in a map's art (art_only "
                        f"in ruleset {ruleset_name!r}): expected a terrain a hex can hold")
                terrain.append(item)
        if building_levels and not any(ruleset.terrain_multi_level[ruleset.terrain_index(t)] for t in terrain):
            multi = [t for t, m in zip(ruleset.terrain_names, ruleset.terrain_multi_level) if m]
            raise BoardFileError(
                f"{path}:{number}: hex {parts[0]}: levels={building_levels} on terrain {' '.join(terrain) or '.'}: "
                f"expected a terrain with upper levels ({', '.join(multi) or 'none in this ruleset'})")
        spec.hexes[cell] = HexSpec(level, tuple(terrain), building_levels, touch, number)

    for number, line in sections.get("hexsides", []):
        parts = line.split()
        if len(parts) < 2:
            raise BoardFileError(f"{path}:{number}: {line!r}: expected 'HEX-HEX FEATURE...' or 'HEX:DIR FEATURE...'")
        key = _parse_hexside(path, number, parts[0], spec, cell_of)
        if key in spec.hexsides:
            raise BoardFileError(f"{path}:{number}: hexside {parts[0]} is listed twice")
        for item in parts[1:]:
            if item not in ruleset.hexside_names:
                raise BoardFileError(
                    f"{path}:{number}: hexside {parts[0]}: unknown hexside feature {item!r} for ruleset "
                    f"{ruleset_name!r}: expected one of {', '.join(ruleset.hexside_names)}"
                )
        if len(set(parts[1:])) != len(parts) - 1:
            raise BoardFileError(f"{path}:{number}: hexside {parts[0]}: a feature is listed twice")
        spec.hexsides[key] = tuple(parts[1:])
    return spec


def _parse_touch(path: Path, number: int, hex_name: str, value: str) -> int:
    if value == "none":
        return 0
    if value == "all":
        return 0b111111
    mask = 0
    for item in value.split(","):
        if item not in ("0", "1", "2", "3", "4", "5"):
            raise BoardFileError(
                f"{path}:{number}: hex {hex_name}: touch={value!r}: expected hexside numbers 0..5 separated by commas, 'none' or 'all'"
            )
        mask |= 1 << int(item)
    return mask


def _parse_hexside(path: Path, number: int, text: str, spec: BoardSpec, cell_of):
    """Normalise ``I9-I10`` or ``I9:S`` to (cell, direction) with one key per hexside."""
    if ":" in text:
        hex_text, direction_text = text.split(":", 1)
        cell = cell_of(number, hex_text)
        if direction_text in DIRECTION_NAMES:
            direction = DIRECTION_NAMES.index(direction_text)
        elif direction_text in ("0", "1", "2", "3", "4", "5"):
            direction = int(direction_text)
        else:
            raise BoardFileError(
                f"{path}:{number}: hexside {text!r}: direction {direction_text!r}: expected 0..5 or one of {', '.join(DIRECTION_NAMES)}"
            )
    else:
        if text.count("-") != 1:
            raise BoardFileError(f"{path}:{number}: hexside {text!r}: expected two adjacent hexes like 'I9-I10' or 'I9:S'")
        first_text, second_text = text.split("-")
        first, second = cell_of(number, first_text), cell_of(number, second_text)
        try:
            direction = direction_between(
                first[0], spec.lattice_row(*first), second[0], spec.lattice_row(*second)
            )
        except ValueError:
            raise BoardFileError(f"{path}:{number}: hexside {text!r}: {first_text} and {second_text} are not adjacent") from None
        cell = first
    # Store each hexside under the hex with the smaller cell that shares it, if on board.
    from kernel.grid.lattice import neighbour  # local import keeps module import light

    col, row = cell[0], spec.lattice_row(*cell)
    other_col, other_row = neighbour(col, row, direction)
    other_number = other_row + 1 - other_col % 2
    other = (other_col, other_number)
    if spec.contains(other) and other < cell:
        return other, (direction + 3) % 6
    return cell, direction


def write_board_file(spec: BoardSpec, path: str | Path) -> Path:
    """Write a board or overlay spec as a ``.board`` / ``.overlay`` file (``docs/board-format.md``).

    Every hex of ``spec.hexes`` is listed (``.`` for no terrain, ``-`` for an
    overlay hex that keeps the covered level), then every hexside, so that
    :func:`read_board_file` reads back an equal spec (up to ``source`` and the
    line numbers).

    Raises
    ------
    ValueError
        A value cannot be written so that it reads back (a title with ``#`` or
        a line break, a hex off the board).

    See Also
    --------
    kernel.read_board_file : the inverse.
    kernel.read_vasl_board : a VASL board as a spec to write (``hexkernel import-vasl``).

    Examples
    --------
    >>> import kernel, pathlib, tempfile
    >>> spec = kernel.read_board_file(kernel.maps.bundled.data_dir() / "boards" / "71.board")
    >>> path = kernel.write_board_file(spec, pathlib.Path(tempfile.mkdtemp()) / "copy.board")
    >>> back = kernel.read_board_file(path)
    >>> {k: (h.level, h.terrain) for k, h in back.hexes.items()} == {k: (h.level, h.terrain) for k, h in spec.hexes.items()}
    True
    """
    path = Path(path)
    if "#" in spec.title or "\n" in spec.title or "\r" in spec.title:
        raise ValueError(f"board {spec.id}: title {spec.title!r} holds '#' or a line break: it would not read back")
    for cell in list(spec.hexes) + [cell for cell, _ in spec.hexsides]:
        if not spec.contains(cell):
            raise ValueError(f"board {spec.id}: hex {spec.local_name(cell)} is off this {spec.columns}x{spec.rows} board")
    lines = [f"# {spec.title or spec.kind + ' ' + spec.id} (written by hexkernel)", "", "[board]",
             f"id = {spec.id}"]
    if spec.kind != "board":
        lines.append(f"kind = {spec.kind}")
    lines += [f"ruleset = {spec.ruleset}", f"layout = {spec.layout}", f"orientation = {spec.orientation}",
              f"columns = {spec.columns}", f"rows = {spec.rows}"]
    if spec.title:
        lines.append(f"title = {spec.title}")
    lines.append(f"default_level = {spec.default_level}")
    if spec.anchors is not None:
        lines.append(f"anchors = {spec.local_name(spec.anchors[0])} {spec.local_name(spec.anchors[1])}")
    lines += ["", "[hexes]", "# HEX  LEVEL  TERRAIN...  OPTIONS"]
    for cell in sorted(spec.hexes):
        hex_spec = spec.hexes[cell]
        items = [spec.local_name(cell), "-" if hex_spec.level is None else str(hex_spec.level)]
        items += list(hex_spec.terrain) or ["."]
        if hex_spec.building_levels:
            items.append(f"levels={hex_spec.building_levels}")
        if hex_spec.touch is not None:
            touch = hex_spec.touch
            items.append("touch=" + ("none" if touch == 0 else "all" if touch == 0b111111
                                     else ",".join(str(d) for d in range(6) if touch >> d & 1)))
        lines.append("  ".join(items))
    lines += ["", "[hexsides]", "# HEXSIDE  FEATURES..."]
    for (cell, direction), features in sorted(spec.hexsides.items()):
        lines.append(f"{spec.local_name(cell)}:{DIRECTION_NAMES[direction]}  " + "  ".join(features))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
