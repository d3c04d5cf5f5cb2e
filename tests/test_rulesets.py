"""Rulesets as data (kernel.maps.rulesets): the bundled TOML files, switches, validation.

Every validation error is provoked by a small bad TOML file in ``tmp_path``;
messages must name the file, the entry, the value found and the value expected.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from kernel.maps.rulesets import (
    LOS_HINDRANCE,
    LOS_NONE,
    LOS_OBSTACLE,
    MAX_HEXSIDE_TYPES,
    MAX_TERRAIN_TYPES,
    Ruleset,
    RulesetError,
    load_ruleset,
    ruleset_path,
)

BUNDLED = {
    # name: (unit classes, terrain types, hexside types, switches with their defaults)
    "asl": (6, 16, 6, {"orchards_in_season": True, "grain_in_season": True}),
    "valor-victory": (3, 12, 4, {"crops_in_season": True}),
    "ccn": (3, 9, 1, {}),
}

TERRAIN_TABLES = ("terrain_los_role", "terrain_hindrance", "terrain_height", "terrain_inherent",
                  "terrain_half_level", "terrain_bypass", "terrain_stop_on_entry", "terrain_bridge", "terrain_art_only",
                  "terrain_obstacle_in_own_hex")
HEXSIDE_TABLES = ("hexside_los_role", "hexside_hindrance", "hexside_height", "hexside_road", "hexside_stop_on_cross")
CLASS_TERRAIN_TABLES = ("terrain_cover", "terrain_move", "terrain_move_all")
CLASS_HEXSIDE_TABLES = ("hexside_cover", "hexside_move")


# ---------------------------------------------------------------- bundled rulesets


@pytest.mark.parametrize("name", list(BUNDLED), ids=list(BUNDLED))
def test_bundled_ruleset_loads(name):
    rs = load_ruleset(name)
    n_class, n_terrain, n_hexside, switches = BUNDLED[name]
    assert isinstance(rs, Ruleset)
    assert rs.name == name and rs.los_model == name
    assert (len(rs.unit_classes), len(rs.terrain_names), len(rs.hexside_names)) == (n_class, n_terrain, n_hexside)
    assert rs.switches == switches
    assert rs.source == str(ruleset_path(name))
    assert repr(rs).startswith(f"<Ruleset {name!r}: {n_terrain} terrain, {n_hexside} hexside types")


@pytest.mark.parametrize("name", list(BUNDLED), ids=list(BUNDLED))
def test_table_shapes_and_read_only(name):
    rs = load_ruleset(name)
    n_class, n_terrain, n_hexside = len(rs.unit_classes), len(rs.terrain_names), len(rs.hexside_names)
    for table in TERRAIN_TABLES:
        assert getattr(rs, table).shape == (n_terrain,), table
    for table in HEXSIDE_TABLES:
        assert getattr(rs, table).shape == (n_hexside,), table
    for table in CLASS_TERRAIN_TABLES:
        assert getattr(rs, table).shape == (n_class, n_terrain), table
    for table in CLASS_HEXSIDE_TABLES:
        assert getattr(rs, table).shape == (n_class, n_hexside), table
    assert rs.terrain_move.dtype == np.float64
    for table in TERRAIN_TABLES + HEXSIDE_TABLES + CLASS_TERRAIN_TABLES + CLASS_HEXSIDE_TABLES:
        assert not getattr(rs, table).flags.writeable, table
    # A hindrance has a positive DRM; an obstacle a positive height.
    hindrances = rs.terrain_los_role == LOS_HINDRANCE
    assert (rs.terrain_hindrance[hindrances] > 0).all()
    assert (rs.terrain_height[rs.terrain_los_role == LOS_OBSTACLE] > 0).all()
    assert set(rs.rules["default_allowance"]) == set(rs.unit_classes)


@pytest.mark.parametrize(
    "name, unit, terrain, cost",
    [
        ("asl", "infantry", "woods", 2.0),
        ("asl", "leader", "woods", 2.0),
        ("asl", "fully-tracked", "woods", 4.0),
        ("asl", "truck", "woods", math.inf),
        ("asl", "infantry", "grain", 1.5),
        ("asl", "infantry", "stone-building", 2.0),
        ("asl", "half-track", "stone-building", math.inf),
        ("asl", "infantry", "rubble", 3.0),
        ("valor-victory", "infantry", "woods", 2.0),
        ("valor-victory", "vehicle", "building", math.inf),
        ("ccn", "cavalry", "forest", 1.0),
        ("ccn", "infantry", "rugged-hill", math.inf),
    ],
    ids=lambda v: str(v),
)
def test_movement_costs(name, unit, terrain, cost):
    rs = load_ruleset(name)
    assert float(rs.terrain_move[rs.unit_index(unit), rs.terrain_index(terrain)]) == cost


def test_asl_marsh_costs_all_mf():
    rs = load_ruleset("asl")
    marsh = rs.terrain_index("marsh")
    assert rs.terrain_move_all[rs.unit_index("infantry"), marsh]
    assert math.isinf(rs.terrain_move[rs.unit_index("fully-tracked"), marsh])
    assert not rs.terrain_move_all[rs.unit_index("infantry"), rs.terrain_index("woods")]


def test_asl_hexside_tables():
    rs = load_ruleset("asl")
    wall = rs.hexside_index("wall")
    assert rs.hexside_los_role[wall] == LOS_OBSTACLE and rs.hexside_height[wall] == 1   # half a level
    assert rs.hexside_height[rs.hexside_index("bocage")] == 2
    assert rs.hexside_road[rs.hexside_index("road")]
    assert math.isinf(rs.hexside_move[rs.unit_index("infantry"), rs.hexside_index("cliff")])
    assert rs.terrain_height[rs.terrain_index("woods")] == 2
    assert rs.terrain_bypass[rs.terrain_index("woods")] and rs.terrain_inherent[rs.terrain_index("orchard")]
    assert rs.bypass_classes == ("infantry", "leader")


def test_ccn_per_class_cover():
    rs = load_ruleset("ccn")
    forest = rs.terrain_index("forest")
    assert rs.terrain_cover[:, forest].tolist() == [1, 2, 1]
    assert rs.rules["uphill_cover"].tolist() == [1, 1, 0]
    assert rs.terrain_stop_on_entry[forest]


@pytest.mark.parametrize(
    "name, switch, terrain",
    [("asl", "orchards_in_season", "orchard"), ("asl", "grain_in_season", "grain"),
     ("valor-victory", "crops_in_season", "crops")],
    ids=["asl-orchards", "asl-grain", "vv-crops"],
)
def test_switch_out_of_season_removes_hindrance(name, switch, terrain):
    on = load_ruleset(name)
    off = load_ruleset(name, {switch: False})
    t = on.terrain_index(terrain)
    assert on.terrain_los_role[t] == LOS_HINDRANCE and on.terrain_hindrance[t] == 1
    assert off.terrain_los_role[t] == LOS_NONE and off.terrain_hindrance[t] == 0
    assert off.switches[switch] is False and on.switches[switch] is True
    # Nothing else changes.
    others = np.arange(len(on.terrain_names)) != t
    assert (on.terrain_los_role[others] == off.terrain_los_role[others]).all()


def test_grain_out_of_season_costs_one():
    on = load_ruleset("asl")
    off = load_ruleset("asl", {"grain_in_season": False})
    grain = on.terrain_index("grain")
    assert on.terrain_move[on.unit_index("infantry"), grain] == 1.5
    assert on.terrain_half_level[grain]
    assert (off.terrain_move[:, grain] == 1.0).all()
    assert not off.terrain_half_level[grain]
    # Orchards keep their in-season values when only grain is switched.
    assert off.terrain_hindrance[off.terrain_index("orchard")] == 1


def test_explicit_default_switch_value_is_the_default():
    assert load_ruleset("asl", {"orchards_in_season": True}).switches == load_ruleset("asl").switches


def test_rulesets_are_cached():
    assert load_ruleset("asl") is load_ruleset("asl")
    assert load_ruleset("asl", {"grain_in_season": False}) is not load_ruleset("asl")


@pytest.mark.parametrize(
    "method, argument, message",
    [
        ("terrain_index", "jungle", "unknown terrain 'jungle' for ruleset 'asl': expected one of grain, brush, woods"),
        ("hexside_index", "moat", "unknown hexside feature 'moat' for ruleset 'asl': expected one of wall, hedge"),
        ("unit_index", "cavalry", "unknown unit class 'cavalry' for ruleset 'asl': expected one of infantry, leader"),
    ],
    ids=["terrain", "hexside", "unit"],
)
def test_index_lookups_name_the_known_values(method, argument, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        getattr(load_ruleset("asl"), method)(argument)


def test_ruleset_path_errors(tmp_path):
    with pytest.raises(ValueError, match=r"unknown ruleset 'chess': expected one of asl, ccn, valor-victory or a \.toml path"):
        load_ruleset("chess")
    missing = tmp_path / "missing.toml"
    with pytest.raises(FileNotFoundError, match=re.escape(f"ruleset file {str(missing)!r} does not exist")):
        load_ruleset(missing)


# ---------------------------------------------------------------- validation errors

TOP = """\
name = "mini"
title = "Mini"
unit_classes = ["infantry", "tank"]
bypass_classes = ["infantry"]
"""
RULES = """
[rules]
los_model = "asl"
elevation_cost = "double"
"""
SWITCHES = """
[switches.dry]
default = true
off = { terrain = { grain = { los = "none", hindrance = 0 } } }
"""
TERRAIN = """
[terrain.woods]
los = "obstacle"
height = 1
bypass = true
move = { default = 2, tank = "prohibited" }

[terrain.grain]
los = "hindrance"
hindrance = 1
half_level = true
move = 1.5
"""
HEXSIDE = """
[hexside.wall]
los = "obstacle"
height = 0.5
move = { default = 1 }
"""


def mini(top=TOP, rules=RULES, switches=SWITCHES, terrain=TERRAIN, hexside=HEXSIDE):
    return top + rules + switches + terrain + hexside


def write(tmp_path, text, name="mini.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_mini_ruleset_is_valid(tmp_path):
    rs = load_ruleset(write(tmp_path, mini()))
    assert rs.name == "mini" and rs.title == "Mini"
    assert rs.terrain_names == ("woods", "grain") and rs.hexside_names == ("wall",)
    assert rs.terrain_move.tolist() == [[2.0, 1.5], [math.inf, 1.5]]
    assert rs.hexside_height.tolist() == [1]
    assert rs.rules["default_allowance"] == {"infantry": 4.0, "tank": 4.0}
    assert rs.rules["cost_combine"] == "sum" and rs.rules["hindrance_cap"] == 0
    assert load_ruleset(write(tmp_path, mini()), {"dry": False}).terrain_hindrance.tolist() == [0, 0]


def with_terrain(extra: str) -> str:
    """The mini ruleset with lines added to [terrain.woods]."""
    return mini(terrain=TERRAIN.replace("[terrain.woods]\n", "[terrain.woods]\n" + extra + "\n", 1))


def with_rules(extra: str) -> str:
    return mini(rules=RULES + extra + "\n")


def many(kind: str, count: int) -> str:
    return "".join(f"\n[{kind}.t{i}]\nlos = \"none\"\n" for i in range(count))


ERRORS = [
    ("not-toml", "name = \n", "not valid TOML"),
    ("unknown-top-level-key", "colour = \"red\"\n" + mini(),
     "unknown top-level keys ['colour']: expected some of ['bypass_classes', 'hexside', 'name'"),
    ("missing-name", mini(top=TOP.replace('name = "mini"\n', "")), "missing required key 'name'"),
    ("missing-unit-classes", mini(top=TOP.replace('unit_classes = ["infantry", "tank"]\n', "")
                                 .replace('bypass_classes = ["infantry"]\n', "")),
     "missing required key 'unit_classes'"),
    ("missing-rules", mini(rules=""), "missing required key 'rules'"),
    ("empty-unit-classes", mini(top=TOP.replace('["infantry", "tank"]', "[]").replace('bypass_classes = ["infantry"]\n', "")),
     "unit_classes is []: expected a non-empty list of names"),
    ("unit-classes-not-names", mini(top=TOP.replace('["infantry", "tank"]', "[1, 2]").replace('bypass_classes = ["infantry"]\n', "")),
     "unit_classes is [1, 2]: expected a non-empty list of names"),
    ("duplicate-unit-classes", mini(top=TOP.replace('["infantry", "tank"]', '["infantry", "infantry"]')),
     "unit_classes ['infantry', 'infantry'] has duplicates"),
    ("unknown-bypass-class", mini(top=TOP.replace('bypass_classes = ["infantry"]', 'bypass_classes = ["horse"]')),
     "bypass_classes names 'horse': expected one of ['infantry', 'tank']"),
    ("bad-los-role", with_terrain('los = "wall"').replace('los = "obstacle"\nheight = 1\nbypass', 'height = 1\nbypass', 1),
     "terrain 'woods': los is 'wall': expected one of ('none', 'hindrance', 'obstacle')"),
    ("hindrance-zero-for-hindrance", mini(terrain=TERRAIN.replace("hindrance = 1", "hindrance = 0")),
     "terrain 'grain': los is 'hindrance' but hindrance is 0: expected a positive DRM"),
    ("hindrance-missing-for-hindrance", mini(terrain=TERRAIN.replace("hindrance = 1\n", "")),
     "terrain 'grain': los is 'hindrance' but hindrance is 0: expected a positive DRM"),
    ("negative-hindrance", mini(terrain=TERRAIN.replace("hindrance = 1", "hindrance = -1")),
     "terrain 'grain': hindrance is -1: expected a non-negative integer DRM"),
    ("fractional-hindrance", mini(terrain=TERRAIN.replace("hindrance = 1", "hindrance = 1.5")),
     "terrain 'grain': hindrance is 1.5: expected a non-negative integer DRM"),
    ("obstacle-height-zero", mini(terrain=TERRAIN.replace("height = 1\n", "height = 0\n", 1)),
     "terrain 'woods': los is 'obstacle' but height is 0: expected a positive height"),
    ("obstacle-without-height", mini(terrain=TERRAIN.replace("height = 1\n", "", 1)),
     "terrain 'woods': los is 'obstacle' but height is 0: expected a positive height"),
    ("hexside-obstacle-height-zero", mini(hexside=HEXSIDE.replace("height = 0.5", "height = 0")),
     "hexside 'wall': los is 'obstacle' but height is 0: expected a positive height"),
    ("height-0.3", mini(terrain=TERRAIN.replace("height = 1\n", "height = 0.3\n", 1)),
     "terrain 'woods': height is 0.3: expected a non-negative multiple of 0.5 levels"),
    ("height-negative", mini(hexside=HEXSIDE.replace("height = 0.5", "height = -0.5")),
     "hexside 'wall': height is -0.5: expected a non-negative multiple of 0.5 levels"),
    ("height-text", mini(terrain=TERRAIN.replace("height = 1\n", 'height = "tall"\n', 1)),
     "terrain 'woods': height is 'tall': expected a non-negative multiple of 0.5 levels"),
    ("height-bool", mini(terrain=TERRAIN.replace("height = 1\n", "height = true\n", 1)),
     "terrain 'woods': height is True: expected a non-negative multiple of 0.5 levels"),
    ("move-0.3", mini(terrain=TERRAIN.replace("move = 1.5", "move = 0.3")),
     "terrain 'grain': move cost for 'infantry' is 0.3: expected a multiple of 0.5, 'all' or 'prohibited'"),
    ("move-negative", mini(terrain=TERRAIN.replace("default = 2,", "default = -1,")),
     "terrain 'woods': move cost for 'infantry' is -1: expected a multiple of 0.5, 'all' or 'prohibited'"),
    ("move-word", mini(terrain=TERRAIN.replace('tank = "prohibited"', 'tank = "never"')),
     "terrain 'woods': move cost for 'tank' is 'never': expected a multiple of 0.5, 'all' or 'prohibited'"),
    ("hexside-move-all", mini(hexside=HEXSIDE.replace("default = 1", 'default = "all"')),
     "hexside 'wall': move cost for 'infantry' is 'all': expected a multiple of 0.5 or 'prohibited'"),
    ("move-unknown-class", mini(terrain=TERRAIN.replace('tank = "prohibited"', "horse = 3")),
     "terrain 'woods': move names unit class 'horse': expected 'default' or one of ['infantry', 'tank']"),
    ("move-no-default", mini(terrain=TERRAIN.replace("default = 2, ", "")),
     "terrain 'woods': no move cost for unit class 'infantry' and no 'default'"),
    ("terrain-not-table", mini(terrain="\n[terrain]\nwoods = 3\n"), "terrain 'woods': expected a table of properties"),
    ("terrain-unknown-key", with_terrain('colour = "green"'),
     "terrain 'woods': unknown keys ['colour']: expected some of ['art_only', 'bridge', 'bypass', 'cover'"),
    ("hexside-unknown-key", mini(hexside=HEXSIDE + "bypass = true\n"),
     "hexside 'wall': unknown keys ['bypass']: expected some of ['cover', 'height', 'hindrance'"),
    ("flag-not-bool", with_terrain("inherent = 1"), "terrain 'woods': inherent is 1: expected true or false"),
    ("cover-fraction", with_terrain("cover = 1.5"),
     "terrain 'woods' cover is 1.5: expected an integer or a table of integers per unit class"),
    ("cover-unknown-class", with_terrain("cover = { horse = 1 }"),
     "terrain 'woods' cover names unit class 'horse': expected one of ['infantry', 'tank']"),
    ("switch-without-default", mini(switches="\n[switches.dry]\ndescription = \"x\"\n"),
     "switch 'dry': expected a table with a boolean 'default'"),
    ("switch-default-not-bool", mini(switches="\n[switches.dry]\ndefault = \"yes\"\n"),
     "switch 'dry': expected a table with a boolean 'default'"),
    ("switch-bad-section", mini(switches="\n[switches.dry]\ndefault = true\non = { units = { } }\n"),
     "switch 'dry' overrides 'units': expected terrain, hexside or rules"),
    ("switch-override-invalid", mini(switches=SWITCHES.replace("default = true", "default = false")
                                     .replace('los = "none", hindrance = 0', 'hindrance = 0')),
     "terrain 'grain': los is 'hindrance' but hindrance is 0: expected a positive DRM"),
    ("unknown-rules-key", with_rules("speed = 3"),
     "[rules] has unknown keys ['speed']: expected some of ['bridge_road_only_classes', 'cost_combine'"),
    ("bad-los-model", mini(rules=RULES.replace('los_model = "asl"', 'los_model = "chess"')),
     "rules.los_model is 'chess': expected one of ('asl', 'valor-victory', 'ccn')"),
    ("missing-los-model", mini(rules=RULES.replace('los_model = "asl"\n', "")),
     "rules.los_model is None: expected one of ('asl', 'valor-victory', 'ccn')"),
    ("bad-elevation-cost", mini(rules=RULES.replace('"double"', '"triple"')),
     "rules.elevation_cost is 'triple': expected one of ('none', 'double', 'plus-one')"),
    ("missing-elevation-cost", mini(rules=RULES.replace('elevation_cost = "double"\n', "")),
     "rules.elevation_cost is None: expected one of ('none', 'double', 'plus-one')"),
    ("negative-hindrance-cap", with_rules("hindrance_cap = -1"),
     "rules.hindrance_cap is -1: expected a non-negative integer (0 = never blocks)"),
    ("bad-cost-combine", with_rules('cost_combine = "min"'), "rules.cost_combine is 'min': expected 'sum' or 'max'"),
    ("bad-open-cost", with_rules("open_cost = 0.3"), "rules.open_cost is 0.3: expected a non-negative multiple of 0.5"),
    ("bad-smoke-cost", with_rules("smoke_cost = -1"), "rules.smoke_cost is -1: expected a non-negative multiple of 0.5"),
    ("bad-road-cost", with_rules('road_cost = "one"'), "rules.road_cost is 'one': expected a non-negative multiple of 0.5"),
    ("road-cost-bool", with_rules("road_cost = true"), "rules.road_cost is True: expected a non-negative multiple of 0.5"),
    ("default-allowance-zero", with_rules("default_allowance = 0"),
     "rules.default_allowance for 'infantry' is 0: expected a positive number"),
    ("default-allowance-text", with_rules('default_allowance = { infantry = 4, tank = "fast" }'),
     "rules.default_allowance for 'tank' is 'fast': expected a positive number"),
    ("default-allowance-missing-class", with_rules("default_allowance = { infantry = 4 }"),
     "rules.default_allowance for 'tank' is None: expected a positive number"),
    ("default-allowance-unknown-class", with_rules("default_allowance = { infantry = 4, tank = 8, horse = 6 }"),
     "rules.default_allowance names unit class 'horse': expected one of ['infantry', 'tank']"),
    ("road-classes-unknown", with_rules('road_classes = ["horse"]'),
     "rules.road_classes names unit class 'horse': expected one of ['infantry', 'tank']"),
    ("no-climb-classes-unknown", with_rules('no_climb_classes = ["horse"]'),
     "rules.no_climb_classes names unit class 'horse': expected one of ['infantry', 'tank']"),
    ("uphill-cover-fraction", with_rules("uphill_cover = 0.5"),
     "rules.uphill_cover is 0.5: expected an integer or a table of integers per unit class"),
    ("downhill-cover-unknown-class", with_rules("downhill_cover = { horse = 1 }"),
     "rules.downhill_cover names unit class 'horse': expected one of ['infantry', 'tank']"),
    ("deck-on-an-obstacle", with_terrain("deck = true"),
     "terrain 'woods': deck is true with los 'obstacle' and bypass: expected los 'none' and no bypass"),
    ("deck-not-boolean", with_terrain("deck = 1"), "terrain 'woods': deck is 1: expected true or false"),
    ("art-only-not-boolean", with_terrain("art_only = 1"), "terrain 'woods': art_only is 1: expected true or false"),
    ("obstacle-in-own-hex-on-a-hindrance",
     mini(terrain=TERRAIN.replace("half_level = true\n", "half_level = true\nobstacle_in_own_hex = true\n", 1)),
     "terrain 'grain': obstacle_in_own_hex is true with los 'hindrance': expected los 'obstacle'"),
    ("obstacle-in-own-hex-not-boolean", with_terrain("obstacle_in_own_hex = 1"),
     "terrain 'woods': obstacle_in_own_hex is 1: expected true or false"),
    ("rule-not-text", with_terrain("rule = 23"),
     "terrain 'woods': rule is 23: expected the rule's reference as text, e.g. 'B23.71 rowhouse wall'"),
    ("rule-empty", with_terrain('rule = " "'),
     "terrain 'woods': rule is ' ': expected the rule's reference as text"),
    ("too-many-terrain-types", mini(terrain=many("terrain", MAX_TERRAIN_TYPES + 1)),
     f"{MAX_TERRAIN_TYPES + 1} terrain types: at most {MAX_TERRAIN_TYPES} are supported"),
    ("too-many-hexside-types", mini(hexside=many("hexside", MAX_HEXSIDE_TYPES + 1)),
     f"{MAX_HEXSIDE_TYPES + 1} hexside types: at most {MAX_HEXSIDE_TYPES} are supported"),
]


@pytest.mark.parametrize("text, fragment", [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_validation_errors(tmp_path, text, fragment):
    path = write(tmp_path, text)
    with pytest.raises(RulesetError, match=re.escape(f"{path}: ") + ".*" + re.escape(fragment)):
        load_ruleset(path)


def test_exactly_the_maximum_types_is_fine(tmp_path):
    rs = load_ruleset(write(tmp_path, mini(terrain=many("terrain", MAX_TERRAIN_TYPES),
                                           hexside=many("hexside", MAX_HEXSIDE_TYPES))))
    assert len(rs.terrain_names) == MAX_TERRAIN_TYPES and len(rs.hexside_names) == MAX_HEXSIDE_TYPES


@pytest.mark.parametrize(
    "switches, fragment",
    [
        ({"winter": True}, "unknown switch 'winter': this ruleset's switches are dry"),
        ({"dry": "yes"}, "switch 'dry' set to 'yes': expected true or false"),
        ({"dry": 1}, "switch 'dry' set to 1: expected true or false"),
    ],
    ids=["unknown-switch", "switch-value-text", "switch-value-int"],
)
def test_switch_value_errors(tmp_path, switches, fragment):
    path = write(tmp_path, mini())
    with pytest.raises(RulesetError, match=re.escape(f"{path}: {fragment}")):
        load_ruleset(path, switches)


def test_unknown_switch_without_switches(tmp_path):
    path = write(tmp_path, mini(switches=""))
    with pytest.raises(RulesetError, match=re.escape(f"{path}: unknown switch 'dry': this ruleset's switches are none")):
        load_ruleset(path, {"dry": False})


def test_unknown_switch_on_bundled():
    with pytest.raises(RulesetError, match=r"asl\.toml: unknown switch 'winter': this ruleset's switches are grain_in_season, orchards_in_season"):
        load_ruleset("asl", {"winter": True})


def test_switch_replaces_per_class_move_table_whole(tmp_path):
    """A switch's ``move = { default = 1 }`` means 1 for every class, not just the default."""
    switches = SWITCHES + '\n[switches.frozen]\ndefault = false\non = { terrain = { woods = { move = { default = 1 } } } }\n'
    path = write(tmp_path, mini(switches=switches))
    normal = load_ruleset(path)
    frozen = load_ruleset(path, {"frozen": True})
    woods = normal.terrain_index("woods")
    assert normal.terrain_move[:, woods].tolist() == [2.0, math.inf]
    assert frozen.terrain_move[:, woods].tolist() == [1.0, 1.0]
    # Other properties of the entry are merged, not replaced.
    assert frozen.terrain_los_role[woods] == LOS_OBSTACLE and frozen.terrain_bypass[woods]


def test_switch_overrides_rules(tmp_path):
    switches = SWITCHES + '\n[switches.fast]\ndefault = false\non = { rules = { cost_combine = "max", open_cost = 0.5 } }\n'
    path = write(tmp_path, mini(switches=switches))
    assert load_ruleset(path).rules["cost_combine"] == "sum"
    fast = load_ruleset(path, {"fast": True})
    assert fast.rules["cost_combine"] == "max" and fast.rules["open_cost"] == 0.5
    assert fast.rules["los_model"] == "asl"


def test_asl_grain_out_of_season_is_open_ground_for_vehicles():
    off = load_ruleset("asl", {"grain_in_season": False})
    grain = off.terrain_index("grain")
    for unit in off.unit_classes:
        assert off.terrain_move[off.unit_index(unit), grain] == 1.0, unit


def test_art_only_terrain_is_never_placed_by_random_boards(tmp_path):
    """``art_only`` (asl.toml's rowhouse walls, B23.71: drawn only in a map's art) keeps a terrain out of
    random boards; the same ruleset with it off places the terrain in some hexes."""
    from kernel.maps.random_maps import random_board

    text = ruleset_path("asl").read_text(encoding="utf-8")
    assert text.count("art_only = true") == 1
    drawn = write(tmp_path, text, "drawn.toml")
    placed = write(tmp_path, text.replace("art_only = true", "art_only = false"), "placed.toml")
    assert load_ruleset(drawn).terrain_art_only.tolist().count(True) == 1
    bit = 1 << load_ruleset(drawn).terrain_index("rowhouse-wall")
    counts = {}
    for name, path in (("drawn", drawn), ("placed", placed)):
        boards = [random_board(str(path), 20, 12, seed=seed, terrain_density=0.9) for seed in range(3)]
        counts[name] = sum(int(((board.terrain.astype(np.int64) & bit) != 0).sum()) for board in boards)
    assert counts["drawn"] == 0 and counts["placed"] > 0


def test_a_terrain_s_rule_reference_is_kept_by_name():
    rs = load_ruleset("asl")
    assert rs.terrain_rules == {"rowhouse-wall": "B23.71 rowhouse wall"}
