"""Rulesets as data: terrain and hexside types, movement costs, cover, switches.

A ruleset is a TOML file under ``data/rulesets/`` (schema in
``docs/rulesets.md``).  :func:`load_ruleset` validates it, applies the
scenario's switches (e.g. orchards out of season) and compiles it into numpy
tables indexed by terrain type, hexside type and unit class, which the kernels
read.  Nothing about a particular game is hard-coded in the kernels beyond the
``los_model`` they implement.

Examples
--------
>>> asl = load_ruleset("asl")
>>> asl.terrain_names[:3]
('grain', 'brush', 'woods')
>>> float(asl.terrain_move[asl.unit_index("infantry"), asl.terrain_index("woods")])
2.0
"""

from __future__ import annotations

import copy
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kernel._dtypes import HINDRANCE, LEVEL
from kernel._limits import MAX_RULESET_DEPTH, nesting_depth, read_limited
from kernel.maps.bundled import data_dir

#: LOS roles of terrain and hexside types, as stored in ``*_los_role`` tables.
LOS_NONE, LOS_HINDRANCE, LOS_OBSTACLE = 0, 1, 2
_LOS_ROLES = {"none": LOS_NONE, "hindrance": LOS_HINDRANCE, "obstacle": LOS_OBSTACLE}

#: Elevation cost modes (``rules.elevation_cost``).
ELEVATION_MODES = {"none": 0, "double": 1, "plus-one": 2}
LOS_MODELS = ("asl", "valor-victory", "ccn")

MAX_TERRAIN_TYPES = 32   # bits of TERRAIN_MASK
MAX_HEXSIDE_TYPES = 16   # bits of HEXSIDE_MASK

_TERRAIN_KEYS = {
    "los", "hindrance", "height", "inherent", "half_level", "bypass",
    "stop_on_entry", "bridge", "deck", "cover", "move", "multi_level", "obstacle_from_above",
    "depression", "art_only", "obstacle_in_own_hex", "rule",
}
_HEXSIDE_KEYS = {"los", "hindrance", "height", "cover", "move", "road", "stop_on_cross"}
_RULE_KEYS = {
    "los_model", "elevation_cost", "hindrance_cap", "units_block_los", "road_cost",
    "road_classes", "occupied_hexes_block_movement", "uphill_cover", "downhill_cover",
    "whole_allowance_climb", "whole_allowance_classes", "no_climb_classes",
    "cost_combine", "open_cost", "smoke_cost", "bridge_road_only_classes", "default_allowance",
    "cover_combine",
}
_TOP_KEYS = {"name", "title", "unit_classes", "bypass_classes", "rules", "switches", "terrain", "hexside"}


class RulesetError(ValueError):
    """A ruleset file is invalid; the message names the file and the entry.

    See Also
    --------
    kernel.Ruleset : what a valid ruleset file compiles to.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "bad.toml"
    >>> _ = path.write_text('name = "bad"\\n')
    >>> try:
    ...     load_ruleset(path)
    ... except RulesetError as error:
    ...     print(str(error).split(": ", 1)[1])
    missing required key 'unit_classes'
    """


def _deep_merge(base: dict, override: dict, where: tuple[str, ...] = ()) -> dict:
    """Merge a switch override into the raw tables.

    A terrain or hexside type's ``move`` and ``cover`` tables are one value per
    unit class: an override replaces them whole (its ``default`` then covers
    every class it does not name) instead of keeping the old per-class entries.
    """
    merged = copy.deepcopy(base)
    for key, value in override.items():
        path = where + (key,)
        whole = len(path) == 3 and path[0] in ("terrain", "hexside") and key in ("move", "cover")
        if isinstance(value, dict) and isinstance(merged.get(key), dict) and not whole:
            merged[key] = _deep_merge(merged[key], value, path)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


@dataclass(frozen=True, eq=False)
class Ruleset:
    """A validated ruleset compiled to numpy tables.

    Tables are indexed ``[terrain]``, ``[hexside_type]`` or
    ``[unit_class, terrain]``.  Heights are in half levels (a wall is 1, a
    one-level obstacle 2).  Movement costs are float64 with ``inf`` for
    prohibited; ``*_move_all`` marks "all MF/MP" entries.

    See Also
    --------
    kernel.RulesetError : a ruleset file that does not follow the schema (``docs/rulesets.md``).

    Examples
    --------
    >>> import kernel
    >>> rules = kernel.load("default").ruleset
    >>> rules.name, rules.unit_classes[:2]
    ('asl', ('infantry', 'leader'))
    """

    name: str
    title: str
    source: str
    unit_classes: tuple[str, ...]
    bypass_classes: tuple[str, ...]
    switches: dict[str, bool]
    rules: dict[str, Any]
    terrain_names: tuple[str, ...]
    hexside_names: tuple[str, ...]
    terrain_los_role: np.ndarray
    terrain_hindrance: np.ndarray
    terrain_height: np.ndarray
    terrain_inherent: np.ndarray
    terrain_half_level: np.ndarray
    terrain_bypass: np.ndarray
    terrain_stop_on_entry: np.ndarray
    terrain_bridge: np.ndarray
    terrain_deck: np.ndarray
    terrain_multi_level: np.ndarray
    terrain_obstacle_from_above: np.ndarray
    terrain_depression: np.ndarray
    terrain_art_only: np.ndarray
    terrain_obstacle_in_own_hex: np.ndarray
    terrain_cover: np.ndarray
    terrain_move: np.ndarray
    terrain_move_all: np.ndarray
    hexside_los_role: np.ndarray
    hexside_hindrance: np.ndarray
    hexside_height: np.ndarray
    hexside_cover: np.ndarray
    hexside_move: np.ndarray
    hexside_road: np.ndarray
    hexside_stop_on_cross: np.ndarray
    descriptions: dict[str, str] = field(default_factory=dict)
    #: A terrain's own rule reference (its ``rule`` key), cited where that terrain blocks a LOS.
    terrain_rules: dict[str, str] = field(default_factory=dict)

    def terrain_index(self, name: str) -> int:
        """Index of terrain type ``name``; ValueError naming the known types."""
        try:
            return self.terrain_names.index(name)
        except ValueError:
            raise ValueError(
                f"unknown terrain {name!r} for ruleset {self.name!r}: expected one of "
                f"{', '.join(self.terrain_names)}"
            ) from None

    def hexside_index(self, name: str) -> int:
        """Index of hexside type ``name``; ValueError naming the known types."""
        try:
            return self.hexside_names.index(name)
        except ValueError:
            raise ValueError(
                f"unknown hexside feature {name!r} for ruleset {self.name!r}: expected one of "
                f"{', '.join(self.hexside_names)}"
            ) from None

    def unit_index(self, name: str) -> int:
        """Index of unit class ``name``; ValueError naming the known classes."""
        try:
            return self.unit_classes.index(name)
        except ValueError:
            raise ValueError(
                f"unknown unit class {name!r} for ruleset {self.name!r}: expected one of "
                f"{', '.join(self.unit_classes)}"
            ) from None

    @property
    def los_model(self) -> str:
        return self.rules["los_model"]

    def __repr__(self) -> str:
        switches = ", ".join(f"{k}={v}" for k, v in self.switches.items())
        return f"<Ruleset {self.name!r}: {len(self.terrain_names)} terrain, {len(self.hexside_names)} hexside types; {switches}>"


def ruleset_path(name_or_path: str | Path) -> Path:
    """Path of a bundled ruleset name (``asl``) or of a given ``.toml`` file."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".toml" or candidate.exists():
        if not candidate.is_file():
            raise FileNotFoundError(f"ruleset file {str(candidate)!r} does not exist")
        return candidate
    bundled = data_dir() / "rulesets" / f"{name_or_path}.toml"
    if not bundled.is_file():
        known = sorted(p.stem for p in (data_dir() / "rulesets").glob("*.toml"))
        raise ValueError(f"unknown ruleset {str(name_or_path)!r}: expected one of {', '.join(known)} or a .toml path")
    return bundled


_CACHE: dict[tuple, Ruleset] = {}


def load_ruleset(name_or_path: str | Path, switches: dict[str, bool] | None = None) -> Ruleset:
    """Load, validate and compile a ruleset, with scenario switches applied.

    Parameters
    ----------
    name_or_path : str or Path
        A bundled ruleset name (``"asl"``, ``"valor-victory"``, ``"ccn"``) or a
        path to a ruleset TOML file.
    switches : dict, optional
        Values for the ruleset's switches (e.g. ``{"orchards_in_season": False}``);
        unspecified switches take their defaults.

    Raises
    ------
    RulesetError
        If the file is invalid or a switch is unknown; the message names the
        file and the offending entry, the value found and the value expected.

    See Also
    --------
    kernel.Ruleset : the compiled ruleset's tables.
    kernel.load : a map compiled under its scenario's ruleset.
    kernel.RulesetError : what a bad ruleset file raises.

    Examples
    --------
    >>> r = load_ruleset("asl", {"orchards_in_season": False})
    >>> int(r.terrain_los_role[r.terrain_index("orchard")]) == LOS_NONE
    True
    """
    path = ruleset_path(name_or_path)
    key = (str(path.resolve()), path.stat().st_mtime_ns, tuple(sorted((switches or {}).items())))
    if key not in _CACHE:
        try:
            text = read_limited(path, "ruleset").decode("utf-8")
        except (ValueError, UnicodeDecodeError) as error:
            reason = "not UTF-8 text" if isinstance(error, UnicodeDecodeError) else str(error)
            raise RulesetError(reason if reason.startswith(str(path)) else f"{path}: {reason}") from None
        if nesting_depth(text, MAX_RULESET_DEPTH) > MAX_RULESET_DEPTH:
            raise RulesetError(f"{path}: TOML nested deeper than {MAX_RULESET_DEPTH} levels: expected the tables "
                               "of a ruleset")
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise RulesetError(f"{path}: not valid TOML: {error}") from None
        except (RecursionError, ValueError) as error:
            raise RulesetError(f"{path}: not a valid ruleset: {' '.join(str(error).split())[:200]}") from None
        _CACHE[key] = _compile(raw, str(path), dict(switches or {}))
    return _CACHE[key]


def _compile(raw: dict, source: str, switch_values: dict[str, bool]) -> Ruleset:
    """Validate a ruleset's TOML and compile it, stage by stage: top-level keys and unit classes,
    switches (merged into the tables), ``[rules]``, then the terrain and hexside tables."""
    def fail(message: str) -> None:
        raise RulesetError(f"{source}: {message}")

    classes, bypass_classes = _check_top_level(raw, fail)
    raw, values, descriptions = _apply_switches(raw, switch_values, fail)
    rules = _compile_rules(raw, classes, fail)
    terrain, hexsides, tables = _compile_features(raw, classes, fail)

    for array in tables.values():
        array.setflags(write=False)
    return Ruleset(
        name=raw["name"],
        title=raw.get("title", raw["name"]),
        source=source,
        unit_classes=tuple(classes),
        bypass_classes=tuple(bypass_classes),
        switches=values,
        rules=rules,
        terrain_names=tuple(terrain),
        hexside_names=tuple(hexsides),
        descriptions=descriptions,
        terrain_rules={name: spec["rule"] for name, spec in terrain.items() if "rule" in spec},
        **tables,
    )


def _check_top_level(raw: dict, fail):
    """Top-level keys and the unit classes: ``(classes, bypass_classes)``."""
    unknown = set(raw) - _TOP_KEYS
    if unknown:
        fail(f"unknown top-level keys {sorted(unknown)}: expected some of {sorted(_TOP_KEYS)}")
    for required in ("name", "unit_classes", "rules"):
        if required not in raw:
            fail(f"missing required key {required!r}")
    classes = raw["unit_classes"]
    if not (isinstance(classes, list) and classes and all(isinstance(c, str) for c in classes)):
        fail(f"unit_classes is {classes!r}: expected a non-empty list of names")
    if len(set(classes)) != len(classes):
        fail(f"unit_classes {classes!r} has duplicates")
    bypass_classes = raw.get("bypass_classes", [])
    for name in bypass_classes:
        if name not in classes:
            fail(f"bypass_classes names {name!r}: expected one of {classes}")
    return classes, bypass_classes


def _apply_switches(raw: dict, switch_values: dict[str, bool], fail):
    """Validate the switches and merge each one's overrides into ``raw``: ``(raw, values, descriptions)``."""
    # Switches: validate names, then merge their overrides into the raw tables.
    declared = raw.get("switches", {})
    for name in switch_values:
        if name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            fail(f"unknown switch {name!r}: this ruleset's switches are {known}")
    values: dict[str, bool] = {}
    descriptions: dict[str, str] = {}
    for name, spec in declared.items():
        if not isinstance(spec, dict) or not isinstance(spec.get("default"), bool):
            fail(f"switch {name!r}: expected a table with a boolean 'default'")
        value = switch_values.get(name, spec["default"])
        if not isinstance(value, bool):
            fail(f"switch {name!r} set to {value!r}: expected true or false")
        values[name] = value
        descriptions[name] = spec.get("description", "")
        override = spec.get("on" if value else "off", {})
        for section in override:
            if section not in ("terrain", "hexside", "rules"):
                fail(f"switch {name!r} overrides {section!r}: expected terrain, hexside or rules")
        raw = _deep_merge(raw, override)
    return raw, values, descriptions


def _compile_rules(raw: dict, classes: list[str], fail):
    """The ``[rules]`` table, checked, with its defaults filled in."""
    rules = dict(raw["rules"])
    unknown = set(rules) - _RULE_KEYS
    if unknown:
        fail(f"[rules] has unknown keys {sorted(unknown)}: expected some of {sorted(_RULE_KEYS)}")
    if rules.get("los_model") not in LOS_MODELS:
        fail(f"rules.los_model is {rules.get('los_model')!r}: expected one of {LOS_MODELS}")
    if rules.get("elevation_cost") not in ELEVATION_MODES:
        fail(f"rules.elevation_cost is {rules.get('elevation_cost')!r}: expected one of {tuple(ELEVATION_MODES)}")
    cap = rules.setdefault("hindrance_cap", 0)
    if not isinstance(cap, int) or cap < 0:
        fail(f"rules.hindrance_cap is {cap!r}: expected a non-negative integer (0 = never blocks)")
    rules.setdefault("units_block_los", False)
    rules.setdefault("road_cost", 1)
    rules.setdefault("road_classes", [])
    rules.setdefault("occupied_hexes_block_movement", False)
    rules.setdefault("whole_allowance_climb", 0)
    rules.setdefault("whole_allowance_classes", [])
    rules.setdefault("no_climb_classes", [])
    rules.setdefault("bridge_road_only_classes", [])
    for key in ("cost_combine", "cover_combine"):
        if rules.setdefault(key, "sum" if key == "cost_combine" else "max") not in ("sum", "max"):
            fail(f"rules.{key} is {rules[key]!r}: expected 'sum' or 'max'")
    for key in ("open_cost", "smoke_cost", "road_cost"):
        value = rules.setdefault(key, 1)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or 2 * value != int(2 * value):
            fail(f"rules.{key} is {value!r}: expected a non-negative multiple of 0.5")
    allowance = rules.get("default_allowance", 4)
    if not isinstance(allowance, dict):
        allowance = {name: allowance for name in classes}
    for name in allowance:
        if name not in classes:
            fail(f"rules.default_allowance names unit class {name!r}: expected one of {classes}")
    for name in classes:
        value = allowance.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            fail(f"rules.default_allowance for {name!r} is {value!r}: expected a positive number")
    rules["default_allowance"] = {name: float(allowance[name]) for name in classes}
    for key in ("road_classes", "whole_allowance_classes", "no_climb_classes", "bridge_road_only_classes"):
        for name in rules[key]:
            if name not in classes:
                fail(f"rules.{key} names unit class {name!r}: expected one of {classes}")
    for key in ("uphill_cover", "downhill_cover"):
        rules[key] = _per_class(rules.get(key, 0), classes, f"rules.{key}", fail)
    return rules


def _compile_features(raw: dict, classes: list[str], fail):
    """The per-terrain and per-hexside tables: ``(terrain, hexsides, tables)``."""
    terrain = raw.get("terrain", {})
    hexsides = raw.get("hexside", {})
    if len(terrain) > MAX_TERRAIN_TYPES:
        fail(f"{len(terrain)} terrain types: at most {MAX_TERRAIN_TYPES} are supported")
    if len(hexsides) > MAX_HEXSIDE_TYPES:
        fail(f"{len(hexsides)} hexside types: at most {MAX_HEXSIDE_TYPES} are supported")

    n_terrain, n_hexside, n_class = len(terrain), len(hexsides), len(classes)
    tables: dict[str, np.ndarray] = {
        "terrain_los_role": np.zeros(n_terrain, np.int8),
        "terrain_hindrance": np.zeros(n_terrain, HINDRANCE),
        "terrain_height": np.zeros(n_terrain, LEVEL),
        "terrain_inherent": np.zeros(n_terrain, np.bool_),
        "terrain_half_level": np.zeros(n_terrain, np.bool_),
        "terrain_bypass": np.zeros(n_terrain, np.bool_),
        "terrain_stop_on_entry": np.zeros(n_terrain, np.bool_),
        "terrain_bridge": np.zeros(n_terrain, np.bool_),
        "terrain_deck": np.zeros(n_terrain, np.bool_),
        "terrain_multi_level": np.zeros(n_terrain, np.bool_),
        "terrain_obstacle_from_above": np.zeros(n_terrain, np.bool_),
        "terrain_depression": np.zeros(n_terrain, np.bool_),
        "terrain_art_only": np.zeros(n_terrain, np.bool_),
        "terrain_obstacle_in_own_hex": np.zeros(n_terrain, np.bool_),
        "terrain_cover": np.zeros((n_class, n_terrain), np.int16),
        "terrain_move": np.zeros((n_class, n_terrain), np.float64),
        "terrain_move_all": np.zeros((n_class, n_terrain), np.bool_),
        "hexside_los_role": np.zeros(n_hexside, np.int8),
        "hexside_hindrance": np.zeros(n_hexside, HINDRANCE),
        "hexside_height": np.zeros(n_hexside, LEVEL),
        "hexside_cover": np.zeros((n_class, n_hexside), np.int16),
        "hexside_move": np.zeros((n_class, n_hexside), np.float64),
        "hexside_road": np.zeros(n_hexside, np.bool_),
        "hexside_stop_on_cross": np.zeros(n_hexside, np.bool_),
    }
    for kind, entries, allowed in (("terrain", terrain, _TERRAIN_KEYS), ("hexside", hexsides, _HEXSIDE_KEYS)):
        for index, (name, spec) in enumerate(entries.items()):
            where = f"{kind} {name!r}"
            if not isinstance(spec, dict):
                fail(f"{where}: expected a table of properties")
            unknown = set(spec) - allowed
            if unknown:
                fail(f"{where}: unknown keys {sorted(unknown)}: expected some of {sorted(allowed)}")
            role = spec.get("los", "none")
            if role not in _LOS_ROLES:
                fail(f"{where}: los is {role!r}: expected one of {tuple(_LOS_ROLES)}")
            tables[f"{kind}_los_role"][index] = _LOS_ROLES[role]
            hindrance = spec.get("hindrance", 0)
            if not isinstance(hindrance, int) or hindrance < 0:
                fail(f"{where}: hindrance is {hindrance!r}: expected a non-negative integer DRM")
            if role == "hindrance" and hindrance == 0:
                fail(f"{where}: los is 'hindrance' but hindrance is 0: expected a positive DRM")
            tables[f"{kind}_hindrance"][index] = hindrance
            height = spec.get("height", 0)
            if isinstance(height, bool) or not isinstance(height, (int, float)) or height < 0 or (2 * height) != int(2 * height):
                fail(f"{where}: height is {height!r}: expected a non-negative multiple of 0.5 levels")
            tables[f"{kind}_height"][index] = int(2 * height)
            if role == "obstacle" and height == 0:
                fail(f"{where}: los is 'obstacle' but height is 0: expected a positive height")
            for flag in ("inherent", "half_level", "bypass", "stop_on_entry", "bridge", "deck", "multi_level",
                         "obstacle_from_above", "depression", "art_only", "obstacle_in_own_hex", "road",
                         "stop_on_cross"):
                if flag in spec:
                    if not isinstance(spec[flag], bool):
                        fail(f"{where}: {flag} is {spec[flag]!r}: expected true or false")
                    tables[f"{kind}_{flag}"][index] = spec[flag]
            if spec.get("deck") and (role != "none" or spec.get("bypass")):
                fail(f"{where}: deck is true with los {role!r}{' and bypass' if spec.get('bypass') else ''}: "
                     "expected los 'none' and no bypass (the deck is a Location, not an obstacle)")
            if "rule" in spec and (not isinstance(spec["rule"], str) or not spec["rule"].strip()):
                fail(f"{where}: rule is {spec['rule']!r}: expected the rule's reference as text, "
                     "e.g. 'B23.71 rowhouse wall'")
            if spec.get("obstacle_in_own_hex") and role != "obstacle":
                fail(f"{where}: obstacle_in_own_hex is true with los {role!r}: expected los 'obstacle'")
            tables[f"{kind}_cover"][:, index] = _per_class(spec.get("cover", 0), classes, f"{where} cover", fail)
            move = spec.get("move", {"default": 0 if kind == "hexside" else 1})
            if not isinstance(move, dict):
                move = {"default": move}
            for class_name in move:
                if class_name != "default" and class_name not in classes:
                    fail(f"{where}: move names unit class {class_name!r}: expected 'default' or one of {classes}")
            for class_index, class_name in enumerate(classes):
                value = move.get(class_name, move.get("default"))
                if value is None:
                    fail(f"{where}: no move cost for unit class {class_name!r} and no 'default'")
                if value == "prohibited":
                    tables[f"{kind}_move"][class_index, index] = math.inf
                elif value == "all" and kind == "terrain":
                    tables["terrain_move_all"][class_index, index] = True
                elif isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0 and 2 * value == int(2 * value):
                    tables[f"{kind}_move"][class_index, index] = float(value)
                else:
                    expected = "a multiple of 0.5, 'all' or 'prohibited'" if kind == "terrain" else "a multiple of 0.5 or 'prohibited'"
                    fail(f"{where}: move cost for {class_name!r} is {value!r}: expected {expected}")
    return terrain, hexsides, tables


def _per_class(value, classes, where, fail) -> np.ndarray:
    """A number for every class, or a ``{class: number}`` table (missing = 0)."""
    if isinstance(value, dict):
        for name in value:
            if name not in classes:
                fail(f"{where} names unit class {name!r}: expected one of {classes}")
        values = [value.get(name, 0) for name in classes]
    else:
        values = [value] * len(classes)
    for item in values:
        if isinstance(item, bool) or not isinstance(item, int):
            fail(f"{where} is {value!r}: expected an integer or a table of integers per unit class")
    return np.asarray(values, dtype=np.int16)
