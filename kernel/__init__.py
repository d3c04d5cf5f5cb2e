"""hexkernel: exact line of sight and movement for hex-and-counter wargames.

Everything a user needs is a name of this package, listed in ``__all__``;
each has this one import path (``from kernel import los_matrix``).  The
subpackages follow a map's path from its files to the kernels' results (see
``docs/architecture.md``)::

    grid/ -> maps/, importers/vasl/ -> loading -> line_of_sight/, movement/ -> render/, cli/

Names are loaded on first use, so ``import kernel`` stays light: it imports
neither numba nor matplotlib, scipy or networkx until a name needs them.

* Maps: :func:`load` (scenario, board file, VASL board, VASL saved game or
  bundled name) gives a :class:`Board` of dense numpy arrays;
  :func:`read_saved_game` gives a saved game's map with its pieces as a
  :class:`SavedGameState`; :func:`random_board` makes seeded random maps;
  :func:`load_ruleset` reads a ruleset.
* LOS: :func:`los` (one LOS, with ``explain()``), :func:`can_see`,
  :func:`los_matrix`, :func:`los_matrix_blocks`, :func:`visibility_bits`,
  :func:`los_pairs` (pairs, or ``product=True``: sources x targets),
  :func:`field_of_fire`, :func:`fields_of_fire`, :func:`threat_map`, each
  with ``model=`` (:func:`default_model`: the depiction model on a map with
  VASL art, else the hex model); :class:`Counters` and :class:`GameState` put SMOKE, vehicles and units on
  the map (``counters=`` everywhere); :data:`BLOCKED` is the blocked sentinel.
* Movement: :func:`movement_field`, :func:`reachable`, :func:`movement_matrix`
  (:data:`UNREACHABLE` sentinel), :func:`movement_tables`, :func:`movement_graph`,
  :func:`concealed_movement`.

One vocabulary (the README's API tour): ``viewer``/``target`` for one pair,
``sources``/``targets`` for many, ``level``/``target_level`` and
``levels``/``target_levels`` for their Location levels, ``unit=``,
``allowance=`` and ``counters=`` keyword-only.
* Pictures (need the ``plot`` extra): :func:`board_picture`,
  :func:`fire_picture`, :func:`movement_picture`, :func:`los_picture`,
  :func:`values_picture`, :func:`save_picture`.

Examples
--------
>>> import kernel
>>> board = kernel.load("default")
>>> kernel.los(board, "71I4", "71I6").visible
True
>>> sorted(kernel.__all__) == sorted(set(kernel.__all__))
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.2.0"

#: Public name -> (module that defines it, name there).
_API: dict[str, tuple[str, str]] = {
    # maps: loading, boards, rulesets, files
    "load": ("kernel.loading", "load"),
    "read_scenario": ("kernel.loading", "read_scenario"),
    "Board": ("kernel.maps.board", "Board"),
    "compile_scenario": ("kernel.maps.board", "compile_scenario"),
    "random_board": ("kernel.maps.random_maps", "random_board"),
    "load_ruleset": ("kernel.maps.rulesets", "load_ruleset"),
    "Ruleset": ("kernel.maps.rulesets", "Ruleset"),
    "RulesetError": ("kernel.maps.rulesets", "RulesetError"),
    "BoardFileError": ("kernel.maps.specs", "BoardFileError"),
    "BoardSpec": ("kernel.maps.specs", "BoardSpec"),
    "HexSpec": ("kernel.maps.specs", "HexSpec"),
    "ScenarioSpec": ("kernel.maps.specs", "ScenarioSpec"),
    "read_board_file": ("kernel.maps.board_text", "read_board_file"),
    "write_board_file": ("kernel.maps.board_text", "write_board_file"),
    "data_dir": ("kernel.maps.bundled", "data_dir"),
    # VASL boards
    "read_vasl_board": ("kernel.importers.vasl.build", "read_vasl_board"),
    "load_vasl_board": ("kernel.importers.vasl.build", "load_vasl_board"),
    "VaslImportWarning": ("kernel.importers.vasl.build", "VaslImportWarning"),
    # VASL saved games
    "read_saved_game": ("kernel.importers.vasl.saved_game", "read_saved_game"),
    "SavedGame": ("kernel.importers.vasl.saved_game", "SavedGame"),
    "SavedGameError": ("kernel.importers.vasl.save_stream", "SavedGameError"),
    "SavedGameState": ("kernel.maps.saved_state", "SavedGameState"),
    "VaslSaveWarning": ("kernel.importers.vasl.save_map", "VaslSaveWarning"),
    # grid
    "parse_hex": ("kernel.grid.coordinates", "parse_hex"),
    "parse_coordinate": ("kernel.grid.coordinates", "parse_coordinate"),
    "format_coordinate": ("kernel.grid.coordinates", "format_coordinate"),
    "hex_distance": ("kernel.grid.lattice", "hex_distance"),
    # line of sight
    "los": ("kernel.line_of_sight.single", "los"),
    # the depiction LOS model: a map's drawn art
    "DepictionWarning": ("kernel.line_of_sight.depiction", "DepictionWarning"),
    "default_model": ("kernel.line_of_sight.depiction", "default_model"),
    "board_art": ("kernel.maps.art", "board_art"),
    "los_matrix": ("kernel.line_of_sight.bulk", "los_matrix"),
    "los_matrix_blocks": ("kernel.line_of_sight.bulk", "los_matrix_blocks"),
    "los_matrix_rows": ("kernel.line_of_sight.bulk", "los_matrix_rows"),
    "visibility_bits": ("kernel.line_of_sight.bulk", "visibility_bits"),
    "los_pairs": ("kernel.line_of_sight.bulk", "los_pairs"),
    "field_of_fire": ("kernel.line_of_sight.fields", "field_of_fire"),
    "coverage": ("kernel.line_of_sight.vantage", "coverage"),
    "Coverage": ("kernel.line_of_sight.vantage", "Coverage"),
    "Counters": ("kernel.maps.counters", "Counters"),
    "GameState": ("kernel.maps.counters", "GameState"),
    "HeldLOSMatrix": ("kernel.line_of_sight.incremental", "HeldLOSMatrix"),
    "fields_of_fire": ("kernel.line_of_sight.fields", "fields_of_fire"),
    "threat_map": ("kernel.line_of_sight.fields", "threat_map"),
    "ThreatMap": ("kernel.line_of_sight.fields", "ThreatMap"),
    "can_see": ("kernel.line_of_sight.single", "can_see"),
    "LOSResult": ("kernel.line_of_sight.results", "LOSResult"),
    "LOSStep": ("kernel.line_of_sight.results", "LOSStep"),
    "PairsResult": ("kernel.line_of_sight.results", "PairsResult"),
    "FieldOfFire": ("kernel.line_of_sight.results", "FieldOfFire"),
    "BLOCKED": ("kernel.line_of_sight.results", "BLOCKED"),
    "REASONS": ("kernel.line_of_sight.results", "REASONS"),
    # movement
    "movement_field": ("kernel.movement.fields", "movement_field"),
    "reachable": ("kernel.movement.fields", "reachable"),
    "movement_matrix": ("kernel.movement.fields", "movement_matrix"),
    "movement_graph": ("kernel.movement.fields", "movement_graph"),
    "MovementField": ("kernel.movement.fields", "MovementField"),
    "movement_tables": ("kernel.movement.tables", "movement_tables"),
    "MovementTables": ("kernel.movement.tables", "MovementTables"),
    "UNREACHABLE": ("kernel.movement.tables", "UNREACHABLE"),
    "board_edge_hexes": ("kernel.movement.inputs", "board_edge_hexes"),
    "concealed_movement": ("kernel.concealment", "concealed_movement"),
    "ConcealedMovement": ("kernel.concealment", "ConcealedMovement"),
    # pictures (matplotlib is imported when a picture is drawn)
    "board_picture": ("kernel.render.board_map", "board_picture"),
    "fire_picture": ("kernel.render.fire_map", "fire_picture"),
    "movement_picture": ("kernel.render.movement_map", "movement_picture"),
    "los_picture": ("kernel.render.los_trace", "los_picture"),
    "values_picture": ("kernel.render.matrix_map", "values_picture"),
    "save_picture": ("kernel.render.common", "save"),
    # batch jobs on a dask cluster (dask is imported when a job runs)
    "run_batch": ("kernel.batch.run", "run_batch"),
    "read_batch_job": ("kernel.batch.spec", "read_job"),
    "BatchJobError": ("kernel.batch.spec", "BatchJobError"),
    "batch_result": ("kernel.batch.storage", "batch_result"),
    # the interactive map page
    "map_page": ("kernel.render.page", "map_page"),
    "map_page_html": ("kernel.render.page", "map_page_html"),
    # numba
    "thread_count": ("kernel._threads", "thread_count"),
    "set_thread_count": ("kernel._threads", "set_thread_count"),
    "max_threads": ("kernel._threads", "max_threads"),
}

__all__ = sorted(_API)


def __getattr__(name: str):
    """Load a public name on first use (PEP 562) and keep it as a module attribute.

    The import runs with Ctrl-C and SIGTERM held (:func:`kernel._signals.deferred_signals`): an interrupt
    cutting an import short leaves its modules (numpy's, numba's) half-initialised for the rest of the
    process, so it is delivered once the import is complete.
    """
    try:
        module_name, attribute = _API[name]
    except KeyError:
        raise AttributeError(f"module 'kernel' has no attribute {name!r}") from None
    from kernel._signals import deferred_signals

    with deferred_signals():
        value = getattr(importlib.import_module(module_name), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only; the same names as _API (a test checks)
    from kernel._threads import max_threads, set_thread_count, thread_count
    from kernel.batch.run import run_batch
    from kernel.batch.spec import BatchJobError, read_job as read_batch_job
    from kernel.batch.storage import batch_result
    from kernel.concealment import ConcealedMovement, concealed_movement
    from kernel.grid.coordinates import format_coordinate, parse_coordinate, parse_hex
    from kernel.grid.lattice import hex_distance
    from kernel.importers.vasl.build import VaslImportWarning, load_vasl_board, read_vasl_board
    from kernel.importers.vasl.save_map import VaslSaveWarning
    from kernel.importers.vasl.save_stream import SavedGameError
    from kernel.importers.vasl.saved_game import SavedGame, read_saved_game
    from kernel.line_of_sight.bulk import (
        los_matrix,
        los_matrix_blocks,
        los_matrix_rows,
        los_pairs,
        visibility_bits,
    )
    from kernel.line_of_sight.vantage import Coverage, coverage
    from kernel.line_of_sight.depiction import DepictionWarning, default_model
    from kernel.line_of_sight.fields import ThreatMap, field_of_fire, fields_of_fire, threat_map
    from kernel.line_of_sight.incremental import HeldLOSMatrix
    from kernel.line_of_sight.results import BLOCKED, FieldOfFire, LOSResult, LOSStep, PairsResult, REASONS
    from kernel.line_of_sight.single import can_see, los
    from kernel.loading import load, read_scenario
    from kernel.maps.art import board_art
    from kernel.maps.board import Board, compile_scenario
    from kernel.maps.board_text import read_board_file, write_board_file
    from kernel.maps.bundled import data_dir
    from kernel.maps.counters import Counters, GameState
    from kernel.maps.random_maps import random_board
    from kernel.maps.saved_state import SavedGameState
    from kernel.maps.rulesets import Ruleset, RulesetError, load_ruleset
    from kernel.maps.specs import BoardFileError, BoardSpec, HexSpec, ScenarioSpec
    from kernel.movement.fields import MovementField, movement_field, movement_graph, movement_matrix, reachable
    from kernel.movement.inputs import board_edge_hexes
    from kernel.movement.tables import MovementTables, UNREACHABLE, movement_tables
    from kernel.render.board_map import board_picture
    from kernel.render.common import save as save_picture
    from kernel.render.fire_map import fire_picture
    from kernel.render.los_trace import los_picture
    from kernel.render.matrix_map import values_picture
    from kernel.render.movement_map import movement_picture
    from kernel.render.page import map_page, map_page_html
