"""Stage by stage, a VASL board's pixels become a :class:`~kernel.maps.specs.BoardSpec` (and a compiled board).

:func:`read_vasl_board` reads the files (:mod:`kernel.importers.vasl.files`),
classifies each hex (:mod:`kernel.importers.vasl.hex_terrain`), applies the
building types of ``BoardMetadata.xml``, classifies each hexside
(:mod:`kernel.importers.vasl.hexsides`) and warns about what it could not map.
:func:`load_vasl_board` also compiles the board.

The VASL data is not shipped with hexkernel, so this example does not run as
a doctest; ``tests/test_vasl.py`` checks the same facts on the real board.

>>> spec = read_vasl_board("shared/vasl/bd02")  # doctest: +SKIP
>>> print(spec.id, spec.columns, spec.rows, spec.hexes[(8, 9)].terrain)  # doctest: +SKIP
2 33 10 ('woods', 'wooden-building')
"""

from __future__ import annotations

from pathlib import Path
import warnings

import numpy as np

from kernel.grid.columns import board_problem
from kernel.importers.vasl.art import local_art
from kernel.importers.vasl.files import BoardMetadata, VaslBoardFiles, VaslImportWarning, read_board_files
from kernel.importers.vasl.hex_terrain import HexClasses, classify_hexes, hex_code_counts, hexes_holding
from kernel.importers.vasl.hexsides import classify_hexsides
from kernel.importers.vasl.pixels import PixelGrid, cell_name, pixel_grid
from kernel.importers.vasl.terrain_map import (BUILDING_TYPES, KIND_TERRAIN, KIND_UNKNOWN, KIND_UNMAPPED, TerrainLookup,
                                               terrain_lookup)
from kernel.maps.art import art_size
from kernel.maps.rulesets import load_ruleset
from kernel.maps.specs import BoardPlacement, BoardSpec, HexSpec, ScenarioSpec


def read_vasl_board(path: str | Path, shared_metadata: str | Path | None = None, *,
                    board_id: str | int | None = None) -> BoardSpec:
    """Import a VASL board (folder or archive) as a board of our model.

    Parameters
    ----------
    path : str or Path
        A VASL board folder holding ``LOSData`` and ``BoardMetadata.xml``, or a
        board archive (zip) holding them.
    shared_metadata : str or Path, optional
        VASL's terrain table ``SharedBoardMetadata.xml``; default: found in
        the archive, beside the board or in its parent folder.
    board_id : str or int, optional
        The board number our hex names carry (``"2"`` in ``2I9``); default:
        the board's name in ``BoardMetadata.xml`` without leading zeros
        (``"02"`` -> ``"2"``). Needed when that name is not a number 1..999
        (VASL's ``00``, or letters such as ``RB``).

    Returns
    -------
    BoardSpec
        ``ruleset = asl``, ``layout = geomorphic``, ``id`` the board number
        (``"2"``), every hex listed with its terrain (possibly none) and level.

    Raises
    ------
    FileNotFoundError, ValueError
        Missing or malformed files (the message names the file); a pixel code
        missing from the terrain table; a building type override naming no
        hex of the board or a building type that is not a VASL terrain; a
        board name that is not a board number 1..999 and no ``board_id``.

    Warns
    -----
    VaslImportWarning
        A VASL terrain with no ``asl`` equivalent decided a hex or hexside
        (imported as Open Ground / left out), or a building type override
        names one (the hex keeps the building its pixels show), naming its
        code or name and the hexes.

    See Also
    --------
    kernel.load_vasl_board : the same, compiled into a :class:`~kernel.Board`.
    kernel.write_board_file : writes the spec as a ``.board`` file.

    Examples
    --------
    >>> import kernel
    >>> try:
    ...     kernel.read_vasl_board("no-such-folder")
    ... except FileNotFoundError as error:
    ...     print(error)
    VASL board 'no-such-folder' does not exist: expected a board folder or archive
    """
    files = read_board_files(path, shared_metadata)
    return board_spec_from_files(files, board_id=board_id)


def board_number(metadata: BoardMetadata, board_id: str | int | None, source: str) -> str:
    """The board number of an imported board: ``board_id`` when given, else the board's name.

    Raises
    ------
    ValueError
        ``board_id`` is not a board number 1..999 without leading zeros, or
        (none given) the board's name is not a number 1..999.
    """
    if board_id is not None:
        text = str(board_id) if isinstance(board_id, int) and not isinstance(board_id, bool) else board_id
        if not isinstance(text, str) or not (text.isascii() and text.isdigit()) or board_problem(text):
            problem = board_problem(text) if isinstance(text, str) and text.isascii() and text.isdigit() else None
            raise ValueError(f"{source}: board_id {board_id!r}: {problem or 'not a number'}: expected a board "
                             "number 1..999 without leading zeros, like \"2\"")
        return text
    number = metadata.board_id
    if not (number.isascii() and number.isdigit()) or board_problem(number):
        raise ValueError(
            f"{source}: board name {metadata.name!r} (BoardMetadata.xml): expected a board number 1..999, which hex "
            f"names need (2I9 is hex I9 of board 2): give it one with board_id=\"N\" (kernel.load(path, "
            "board_id=\"N\"); hexkernel import-vasl --board-id N)")
    return number


def board_spec_from_files(files: VaslBoardFiles, *, board_id: str | int | None = None) -> BoardSpec:
    """Build the :class:`BoardSpec` of an already read VASL board.

    The stages: check every pixel code against the terrain table; per hex,
    its terrain, ground level, bridge and building levels
    (:func:`~kernel.importers.vasl.hex_terrain.classify_hexes`); the building
    types of ``BoardMetadata.xml``; per hexside, walls, hedges, roads and the
    hexes' ``touch`` bits (:func:`~kernel.importers.vasl.hexsides.classify_hexsides`);
    then one :class:`HexSpec` per hex and the import's warnings.
    """
    los, metadata = files.los_data, files.metadata
    number = board_number(metadata, board_id, files.source)
    ruleset = load_ruleset("asl")
    lookup = terrain_lookup(files.terrain_table, ruleset)
    grid = pixel_grid(los.width, los.height, los.grid_width, los.grid_height)
    _check_codes(files, lookup, grid)
    # the title is written into board files, whose comments start at '#' and which hold one title line
    version = " ".join(metadata.version.replace("#", " ").split())
    named = metadata.board_id if number == metadata.board_id else f"{metadata.name.strip()} as board {number}"
    spec = BoardSpec(
        source=files.source, kind="board", id=number, ruleset="asl", layout="geomorphic",
        orientation="flat", columns=los.width, rows=los.height,
        title=f"VASL board {named}" + (f" (version {version})" if version else ""),
        default_level=0,
    )
    unmapped_hits: dict[int, list[str]] = {}
    counts = hex_code_counts(los, grid)
    hexes = classify_hexes(los, grid, lookup, ruleset, unmapped_hits, counts)
    kept = _apply_building_types(metadata, spec, hexes, ruleset, files)
    touch = classify_hexsides(los, grid, lookup, ruleset, spec, hexes, unmapped_hits)
    for cell in grid.cells:
        terrain = hexes.terrain[cell]
        spec.hexes[cell] = HexSpec(
            level=hexes.level[cell], terrain=terrain,
            building_levels=hexes.building_levels[cell] if any(t.endswith("building") for t in terrain) else 0,
            touch=touch.get(cell), line=0,
        )
    overrides = {parse_building_cell(name, spec, files.source): type_name
                 for name, type_name in metadata.building_types.items() if type_name in BUILDING_TYPES}
    width_px, height_px = art_size(spec.columns, spec.rows)
    if width_px == int(width_px) and height_px == int(height_px):
        spec.art = local_art(los, lookup, ruleset, grid, overrides)
    else:   # art off whole pixels cannot be placed on a map (pictures and the depiction model refused it)
        warnings.warn(
            f"{files.source}: a {spec.columns}x{spec.rows} board's art would be {width_px} x {height_px} pixels, "
            "not whole ones (a column count of 4k + 1, such as 33, and an even row count give whole pixels): "
            "its art is left out, so pictures and model='depiction' draw and read its hexes",
            VaslImportWarning, stacklevel=3)
    _warn(files.source, lookup, hexes, unmapped_hits, kept,
          _unmapped_pixels(los, lookup, grid, unmapped_hits, counts[0]))
    _warn_art_only(files.source, lookup, _art_only_pixels(los, lookup, ruleset, grid, counts[0]))
    return spec


def _art_only_pixels(los, lookup: TerrainLookup, ruleset, grid: PixelGrid, counts) -> dict[int, list[str]]:
    """VASL codes drawn on the board whose ``asl`` terrain is drawn only in the art (``art_only``: rowhouse
    walls): code -> the hexes holding their pixels (from the hexes' code counts: no scan of the board per
    code)."""
    drawn: dict[int, list[str]] = {}
    for code in np.flatnonzero(counts.sum(axis=0)):
        code = int(code)
        if lookup.kind[code] == KIND_TERRAIN and ruleset.terrain_art_only[lookup.feature[code]]:
            drawn[code] = [cell_name(grid.cells[int(i)]) for i in hexes_holding(counts, code)]
    return drawn


def _warn_art_only(source: str, lookup: TerrainLookup, drawn: dict[int, list[str]]) -> None:
    """A warning per art-only VASL terrain drawn on the board: the depiction models see it, the hex model not."""
    for code, where in sorted(drawn.items()):
        shown = ", ".join(where[:8]) + (f" and {len(where) - 8} more" if len(where) > 8 else "")
        warnings.warn(
            f"{source}: VASL terrain {code} {lookup.names.get(code, '?')!r} is drawn only in the board's art: "
            f"its pixels in {shown} are obstacles of model='depiction' and model='vasl'; it decides no hex or "
            "hexside, so the hex model does not see it",
            VaslImportWarning, stacklevel=4,
        )


def _check_codes(files: VaslBoardFiles, lookup: TerrainLookup, grid: PixelGrid) -> None:
    """Raise when a pixel's terrain code is missing from the terrain table (naming the first hex and pixel)."""
    los = files.los_data
    unknown = [int(c) for c in np.unique(los.terrain) if lookup.kind[c] == KIND_UNKNOWN]
    if unknown:
        code = unknown[0]
        xs, ys = np.nonzero(los.terrain == code)
        cell = grid.cells[int(grid.hex_of[xs[0], ys[0]])]
        raise ValueError(
            f"{los.source}: terrain code {code} (first in hex {cell_name(cell)}, pixel {int(xs[0])},{int(ys[0])}) "
            f"is not in the terrain table {files.terrain_table_source}: expected one of its typeCodes"
        )


def _unmapped_pixels(los, lookup: TerrainLookup, grid: PixelGrid, unmapped_hits: dict[int, list[str]],
                     counts) -> dict[int, list[str]]:
    """VASL codes with no asl equivalent that are drawn on the board but decided no hex or hexside:
    code -> the hexes holding their pixels (they are Open Ground in the board's art; from the hexes' code
    counts: no scan of the board per code)."""
    drawn: dict[int, list[str]] = {}
    for code in np.flatnonzero(counts.sum(axis=0)):
        code = int(code)
        if lookup.kind[code] == KIND_UNMAPPED and code not in unmapped_hits:
            drawn[code] = [cell_name(grid.cells[int(i)]) for i in hexes_holding(counts, code)]
    return drawn


def _apply_building_types(metadata: BoardMetadata, spec: BoardSpec, hexes: HexClasses, ruleset,
                          files: VaslBoardFiles) -> dict[str, list[str]]:
    """Building types of ``BoardMetadata.xml`` override the pixels' (kind and upper levels).

    A type that VASL's terrain table names but that has no ``asl`` building
    leaves the hex as its pixels show it; returned as ``{type name: [hex names]}``
    for the warning. A type the table does not name is an error.
    """
    source = files.source
    known = {terrain.name for terrain in files.terrain_table.values()}
    kept: dict[str, list[str]] = {}
    for hex_name, type_name in metadata.building_types.items():
        cell = parse_building_cell(hex_name, spec, source)
        mapping = BUILDING_TYPES.get(type_name)
        if mapping is None and type_name in known:
            kept.setdefault(type_name, []).append(hex_name)
            continue
        if mapping is None:
            raise ValueError(
                f"{source}: buildingType of hex {hex_name} is {type_name!r}: expected one of "
                + ", ".join(sorted(BUILDING_TYPES))
                + f" (or another terrainType name of the terrain table {files.terrain_table_source})"
            )
        others = tuple(t for t in hexes.terrain[cell] if not t.endswith("building"))
        hexes.terrain[cell] = tuple(sorted(others + (mapping.name,), key=ruleset.terrain_index))
        hexes.building_levels[cell] = mapping.levels
    return kept


def _warn(source: str, lookup: TerrainLookup, hexes: HexClasses, unmapped_hits: dict[int, list[str]],
          kept_buildings: dict[str, list[str]], unmapped_drawn: dict[int, list[str]]) -> None:
    """The import's warnings: ground levels read at the centre dot that differ from most of the hex,
    bridge decks drawn at another level, VASL terrain and building types with no asl equivalent."""
    if hexes.centre_levels:
        warnings.warn(
            f"{source}: the ground level of {len(hexes.centre_levels)} hexes is read under the centre dot (B.1) "
            f"and differs from the elevation of most of the hex: {', '.join(hexes.centre_levels)}",
            VaslImportWarning, stacklevel=4,
        )
    bridge_decks = hexes.bridge_decks
    if bridge_decks:
        warnings.warn(
            f"{source}: a bridge deck is the Location one level above its hex's ground, which VASL "
            f"depicts at another level in {', '.join(bridge_decks)}",
            VaslImportWarning, stacklevel=4,
        )
    for code, where in sorted(unmapped_hits.items()):
        shown = ", ".join(where[:8]) + (f" and {len(where) - 8} more" if len(where) > 8 else "")
        warnings.warn(
            f"{source}: VASL terrain {code} {lookup.names.get(code, '?')!r} has no asl equivalent "
            f"(see kernel.importers.vasl.terrain_map.TERRAIN_CODES): imported as Open Ground in {shown}",
            VaslImportWarning, stacklevel=4,
        )
    for code, where in sorted(unmapped_drawn.items()):
        shown = ", ".join(where[:8]) + (f" and {len(where) - 8} more" if len(where) > 8 else "")
        warnings.warn(
            f"{source}: VASL terrain {code} {lookup.names.get(code, '?')!r} has no asl equivalent "
            f"(see kernel.importers.vasl.terrain_map.TERRAIN_CODES): it decides no hex or hexside, and its pixels "
            f"in {shown} are Open Ground in the board's art",
            VaslImportWarning, stacklevel=4,
        )
    for type_name, where in sorted(kept_buildings.items()):
        warnings.warn(
            f"{source}: building type {type_name!r} of BoardMetadata.xml has no asl equivalent "
            f"(see kernel.importers.vasl.terrain_map.TERRAIN_CODES): {', '.join(where)} kept the building "
            "its pixels show",
            VaslImportWarning, stacklevel=4,
        )


def parse_building_cell(text: str, spec: BoardSpec, source: str) -> tuple[int, int]:
    from kernel.grid.coordinates import parse_hex

    try:
        ref = parse_hex(text)
    except ValueError as error:
        raise ValueError(f"{source}: buildingType hexName {text!r}: {error}") from None
    cell = (ref.column_index, ref.number)
    if not spec.contains(cell):
        raise ValueError(f"{source}: buildingType hexName {text!r} is not a hex of this {spec.columns}x{spec.rows} board")
    return cell


def load_vasl_board(path: str | Path, shared_metadata: str | Path | None = None, *,
                    board_id: str | int | None = None, **switches: bool):
    """Import a VASL board and compile it: a :class:`kernel.maps.board.Board` of one board.

    ``board_id`` as in :func:`read_vasl_board`; ``switches`` set ruleset
    switches (``orchards_in_season=False``).

    See Also
    --------
    kernel.read_vasl_board : the board's spec, not compiled.
    kernel.load : takes a VASL board folder too, or a scenario naming VASL boards.

    Examples
    --------
    A VASL board folder or archive (``bdNN``, from the user's VASL installation):

    >>> board = kernel.load_vasl_board("vasl/boards/bd02")   # doctest: +SKIP
    >>> board.name(0)                                       # doctest: +SKIP
    '2A1'

    A missing one is refused:

    >>> import kernel
    >>> try:
    ...     kernel.load_vasl_board("no-such-folder")
    ... except FileNotFoundError as error:
    ...     print(error)
    VASL board 'no-such-folder' does not exist: expected a board folder or archive
    """
    spec = read_vasl_board(path, shared_metadata, board_id=board_id)
    return compile_spec(spec, **switches)


def compile_spec(spec: BoardSpec, **switches: bool):
    """Compile one board spec on its own into a :class:`kernel.maps.board.Board`."""
    from kernel.maps.board import compile_scenario

    scenario = ScenarioSpec(
        source=spec.source, title=spec.title or f"board {spec.id}", ruleset=spec.ruleset,
        boards=[BoardPlacement(spec, 0, 0, False, spec.id, 0)], overlays=[], switches=dict(switches),
    )
    return compile_scenario(scenario)
