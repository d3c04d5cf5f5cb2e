"""Reading and checking a batch job file (TOML or JSON; schema in ``docs/batch-jobs.md``).

Examples
--------
>>> job = job_from_text('''
... [job]
... compute = ["visibility", "vantage"]
... block_rows = 64
... [[maps]]
... source = "71"
... [[maps]]
... random = { ruleset = "asl", columns = 12, rows = 8, seed = 5, count = 2 }
... ''', "job.toml")
>>> [entry.name for entry in job.maps]
['71', 'random-asl-12x8-seed5', 'random-asl-12x8-seed6']
>>> job.block_rows, job.compute
(64, ('visibility', 'vantage'))
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from kernel._limits import MAX_BOARD_COLUMNS, MAX_BOARD_ROWS, MAX_LEVEL, MAX_MAP_HEXES, nesting_depth, read_limited
from kernel.movement.inputs import MAX_ALLOWANCE

#: What a job may compute per map (``docs/batch-jobs.md`` describes each array).
OUTPUTS = ("visibility", "hindrance", "vantage", "movement")
#: Keys of a ``random`` map that go to :func:`kernel.random_board` as they are.
RANDOM_KEYS = {"ruleset": str, "columns": int, "rows": int, "seed": int, "layout": str,
               "terrain_density": float, "hexside_density": float, "max_level": int, "hills": int,
               "cliffs": float}
DEFAULT_BLOCK_ROWS = 512
#: Maps one job may name (a ``random`` table's ``count`` included).
MAX_JOB_MAPS = 10_000
#: Nesting depth of a job file's tables and lists, and digits of one of its integers.
MAX_JOB_DEPTH = 8
MAX_JOB_DIGITS = 19
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class BatchJobError(ValueError):
    """A job file that cannot be read or does not follow the schema (the message names file and key).

    See Also
    --------
    kernel.read_batch_job : raises it.
    kernel.run_batch : runs a job read without error.

    Examples
    --------
    >>> import kernel
    >>> try:
    ...     kernel.read_batch_job("no-such-job.toml")
    ... except kernel.BatchJobError as error:
    ...     print(error)
    no-such-job.toml: cannot read the job file (No such file or directory)
    """


@dataclass(frozen=True)
class MapEntry:
    """One map of a job: a file or bundled name (``source``) or a random map (``random``).

    ``source`` is already resolved against the job file's folder when it names
    an existing file or folder; ``counters`` is the counters table as written
    (``smoke``, ``vehicles``, ``units``).
    """

    name: str
    source: str | None = None
    random: dict | None = None
    counters: dict = field(default_factory=dict)
    units: tuple[str, ...] = ()

    def describe(self) -> dict:
        """The entry as plain JSON data (for the manifest)."""
        return {"name": self.name, "source": self.source, "random": self.random, "counters": self.counters,
                "units": list(self.units)}


@dataclass(frozen=True)
class BatchJob:
    """A parsed job: its maps, the outputs to compute, rows per block and the movement options."""

    path: str
    maps: tuple[MapEntry, ...]
    compute: tuple[str, ...] = ("visibility",)
    block_rows: int = DEFAULT_BLOCK_ROWS
    units: tuple[str, ...] = ()
    allowance: float | None = None
    text: str = ""
    #: The LOS model of every map (``hex``, ``depiction`` or ``vasl``); None: each map's
    #: :func:`kernel.default_model`.
    model: str | None = None

    @property
    def digest(self) -> str:
        """sha256 of the job as parsed: a rerun resumes only into a folder written by the same job."""
        data = {"maps": [m.describe() for m in self.maps], "compute": list(self.compute),
                "block_rows": self.block_rows, "units": list(self.units), "allowance": self.allowance}
        if self.model is not None:
            data["model"] = self.model
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def read_job(path: str | Path) -> BatchJob:
    """Read a job file (``.toml`` or ``.json``) and check it against the schema.

    Raises
    ------
    BatchJobError
        The file is missing or unreadable, or a key has a wrong type or value;
        the message names the file, the key and what was expected.

    See Also
    --------
    kernel.run_batch : runs the job on a dask cluster.
    kernel.batch_result : reads a map's results back.

    Examples
    --------
    >>> import kernel, pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "job.toml").write_text('[[maps]]\\nname = "board-71"\\nsource = "71"\\n')
    >>> job = kernel.read_batch_job(folder / "job.toml")
    >>> [entry.name for entry in job.maps]
    ['board-71']
    """
    path = Path(path)
    try:
        if path.exists() and not path.is_file():
            raise BatchJobError(f"{path}: the job file is not a regular file: expected a .toml or .json file")
        raw = read_limited(path, "the job file")
    except OSError as error:
        raise BatchJobError(f"{path}: cannot read the job file ({error.strerror or error})") from None
    except ValueError as error:
        raise BatchJobError(str(error)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BatchJobError(f"{path}: the job file is not UTF-8 text (byte {error.start}): expected a TOML or "
                            "JSON text file") from None
    return job_from_text(text, str(path))


def _integer(digits: str) -> int:
    if len(digits.lstrip("+-").replace("_", "")) > MAX_JOB_DIGITS:
        raise ValueError(f"an integer of {len(digits.lstrip('+-'))} digits: expected at most {MAX_JOB_DIGITS}")
    return int(digits)


def job_from_text(text: str, name: str) -> BatchJob:
    """Parse a job from its text; ``name`` is the file name (its suffix picks JSON or TOML).

    Relative map paths are taken from the folder of ``name``.
    """
    kind = "JSON" if name.endswith(".json") else "TOML"
    if nesting_depth(text, MAX_JOB_DEPTH) > MAX_JOB_DEPTH:
        raise BatchJobError(f"{name}: {kind} nested deeper than {MAX_JOB_DEPTH} levels: expected the flat tables of "
                            "docs/batch-jobs.md")
    try:
        data = json.loads(text, parse_int=_integer) if kind == "JSON" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise BatchJobError(f"{name}: not valid {kind}: {' '.join(str(error).split())}") from None
    except (ValueError, RecursionError, MemoryError) as error:
        raise BatchJobError(f"{name}: not a valid job file: {' '.join(str(error).split())[:200]}") from None
    _check_integers(data, name)
    if not isinstance(data, dict):
        raise BatchJobError(f"{name}: the top level is {type(data).__name__}: expected a table")
    unknown = sorted(set(data) - {"job", "maps"})
    if unknown:
        raise BatchJobError(f"{name}: unknown top-level key {unknown[0]!r}: expected 'job' and 'maps'")
    settings = _table(data.get("job", {}), name, "job")
    unknown = sorted(set(settings) - {"compute", "block_rows", "units", "allowance", "model"})
    if unknown:
        raise BatchJobError(f"{name}: unknown key 'job.{unknown[0]}': expected compute, block_rows, units, allowance, "
                            "model")
    from kernel.line_of_sight.depiction import MODELS as LOS_MODELS

    model = settings.get("model")
    if model is not None and model not in LOS_MODELS:
        raise BatchJobError(f"{name}: 'job.model' is {model!r}: expected one of {', '.join(LOS_MODELS)} (or no key: "
                            "each map's default model)")
    compute = settings.get("compute", ["visibility"])
    if not isinstance(compute, list) or not compute or any(c not in OUTPUTS for c in compute):
        raise BatchJobError(f"{name}: 'job.compute' is {compute!r}: expected a non-empty list of {', '.join(OUTPUTS)}")
    block_rows = settings.get("block_rows", DEFAULT_BLOCK_ROWS)
    if isinstance(block_rows, bool) or not isinstance(block_rows, int) or not 1 <= block_rows <= MAX_MAP_HEXES:
        raise BatchJobError(f"{name}: 'job.block_rows' is {block_rows!r}: expected a positive integer, at most "
                            f"{MAX_MAP_HEXES}")
    units = settings.get("units", [])
    if not isinstance(units, list) or any(not isinstance(u, str) for u in units):
        raise BatchJobError(f"{name}: 'job.units' is {units!r}: expected a list of unit class names")
    allowance = settings.get("allowance")
    if allowance is not None and (isinstance(allowance, bool) or not isinstance(allowance, (int, float))
                                  or not 0 < allowance <= MAX_ALLOWANCE or 2 * allowance != int(2 * allowance)):
        raise BatchJobError(f"{name}: 'job.allowance' is {allowance!r}: expected a positive number of MF, a "
                            f"multiple of 1/2, at most {MAX_ALLOWANCE}")
    raw_maps = data.get("maps")
    if not isinstance(raw_maps, list) or not raw_maps:
        raise BatchJobError(f"{name}: 'maps' is {raw_maps!r}: expected a non-empty list of map tables ([[maps]])")
    base = Path(name).parent
    maps: list[MapEntry] = []
    for k, raw in enumerate(raw_maps):
        maps += _map_entries(_table(raw, name, f"maps[{k}]"), name, f"maps[{k}]", base)
        if len(maps) > MAX_JOB_MAPS:
            raise BatchJobError(f"{name}: 'maps[{k}]' brings the job to {len(maps)} maps: expected at most "
                                f"{MAX_JOB_MAPS}")
    seen: dict[str, int] = {}
    for k, entry in enumerate(maps):
        if entry.name in seen:
            raise BatchJobError(f"{name}: two maps are named {entry.name!r}: expected unique names "
                                "(give each a 'name')")
        seen[entry.name] = k
    return BatchJob(name, tuple(maps), tuple(dict.fromkeys(compute)), block_rows, tuple(units),
                    None if allowance is None else float(allowance), text, model)


def _table(value, name: str, key: str) -> dict:
    if not isinstance(value, dict):
        raise BatchJobError(f"{name}: '{key}' is {value!r}: expected a table")
    return value


def _map_entries(raw: dict, name: str, key: str, base: Path) -> list[MapEntry]:
    unknown = sorted(set(raw) - {"name", "source", "random", "counters", "units"})
    if unknown:
        raise BatchJobError(f"{name}: unknown key '{key}.{unknown[0]}': expected name, source, random, counters, "
                            "units")
    units = raw.get("units", [])
    if not isinstance(units, list) or any(not isinstance(u, str) for u in units):
        raise BatchJobError(f"{name}: '{key}.units' is {units!r}: expected a list of unit class names")
    units = tuple(units)
    if ("source" in raw) == ("random" in raw):
        raise BatchJobError(f"{name}: '{key}' has {'both' if 'source' in raw else 'neither'} 'source' and "
                            "'random': expected exactly one")
    counters = _counters(raw.get("counters", {}), name, f"{key}.counters")
    given = raw.get("name")
    if given is not None and (not isinstance(given, str) or not _NAME.match(given)):
        raise BatchJobError(f"{name}: '{key}.name' is {given!r}: expected letters, digits, '.', '_' or '-'")
    if "source" in raw:
        source = raw["source"]
        if not isinstance(source, str) or not source:
            raise BatchJobError(f"{name}: '{key}.source' is {source!r}: expected a file, folder or bundled map name")
        resolved = base / source
        text = str(resolved) if resolved.exists() else source
        default = re.sub(r"[^A-Za-z0-9._-]", "_", Path(source).stem or source)
        if given is None and not _NAME.match(default):
            raise BatchJobError(f"{name}: '{key}.source' is {source!r}, which gives the map the name {default!r}: "
                                "expected a name of letters, digits, '.', '_' or '-' starting with a letter or "
                                f"digit (give '{key}.name')")
        return [MapEntry(given or default, text, None, counters, units)]
    random = _table(raw["random"], name, f"{key}.random")
    count = random.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_JOB_MAPS:
        raise BatchJobError(f"{name}: '{key}.random.count' is {count!r}: expected a positive integer, at most "
                            f"{MAX_JOB_MAPS}")
    if given is not None and count > 1:
        raise BatchJobError(f"{name}: '{key}' has a name and count = {count}: expected no name with a count "
                            "(each map is named by its seed)")
    options = {}
    for option, value in random.items():
        if option == "count":
            continue
        kind = RANDOM_KEYS.get(option)
        if kind is None:
            raise BatchJobError(f"{name}: unknown key '{key}.random.{option}': expected count, "
                                f"{', '.join(RANDOM_KEYS)}")
        ok = isinstance(value, kind) and not isinstance(value, bool) or (kind is float and isinstance(value, int)
                                                                         and not isinstance(value, bool))
        if not ok:
            raise BatchJobError(f"{name}: '{key}.random.{option}' is {value!r}: expected {kind.__name__}")
        options[option] = value
    _check_random(options, name, f"{key}.random")
    first = options.pop("seed", 0)
    entries = []
    for seed in range(first, first + count):
        params = {"ruleset": "asl", "columns": 20, "rows": 12, **options, "seed": seed}
        label = given or f"random-{params['ruleset']}-{params['columns']}x{params['rows']}-seed{seed}"
        entries.append(MapEntry(re.sub(r"[^A-Za-z0-9._-]", "_", label), None, params, counters, units))
    return entries


def _counters(raw, name: str, key: str) -> dict:
    table = _table(raw, name, key)
    unknown = sorted(set(table) - {"smoke", "vehicles", "units"})
    if unknown:
        raise BatchJobError(f"{name}: unknown key '{key}.{unknown[0]}': expected smoke, vehicles, units")
    smoke = table.get("smoke", {})
    if not isinstance(smoke, dict) or any(isinstance(v, bool) or not isinstance(v, int) for v in smoke.values()):
        raise BatchJobError(f"{name}: '{key}.smoke' is {smoke!r}: expected a table of hex = DRM")
    for part in ("vehicles", "units"):
        value = table.get(part, [])
        if not isinstance(value, list) or any(not isinstance(h, str) for h in value):
            raise BatchJobError(f"{name}: '{key}.{part}' is {value!r}: expected a list of hex names")
    return {"smoke": dict(smoke), "vehicles": list(table.get("vehicles", [])), "units": list(table.get("units", []))}


def _check_integers(data, name: str) -> None:
    """Refuse an integer with more than :data:`MAX_JOB_DIGITS` digits anywhere in the parsed job (TOML's)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_JOB_DIGITS:
            raise BatchJobError(f"{name}: an integer of more than {MAX_JOB_DIGITS} digits: expected at most "
                                f"{MAX_JOB_DIGITS}")


def _check_random(options: dict, name: str, key: str) -> None:
    """A random map's sizes, levels, hills and densities, checked against :func:`kernel.random_board`'s limits
    when the job is read (not on a worker, after the output folder exists)."""
    columns, rows = options.get("columns", 20), options.get("rows", 12)
    bounds = {"columns": (1, MAX_BOARD_COLUMNS), "rows": (1, MAX_BOARD_ROWS), "max_level": (0, MAX_LEVEL),
              "hills": (0, columns * rows), "terrain_density": (0.0, 1.0), "hexside_density": (0.0, 1.0),
              "cliffs": (0.0, 1.0), "seed": (0, 2 ** 63 - 1 - MAX_JOB_MAPS)}
    for option, (low, high) in bounds.items():
        value = options.get(option)
        if value is not None and not low <= value <= high:
            raise BatchJobError(f"{name}: '{key}.{option}' is {value!r}: expected {low}..{high}")
