"""After ``hexkernel warm``, no public entry point compiles: the CLI, the demo, the page and the API's first calls.

Two fresh processes: the first runs ``warm`` (loading the cached machine
code, or compiling it where the cache is cold) and lists every kernel
signature it then holds; the second runs the entry points a user reaches
(every command that runs kernels, the demo with its page and pictures,
``page`` with counters and the first call of each public function) on the
bundled scenario, and lists the signatures it needed and numba's compile
events. Every signature the entry points use must be one ``warm`` holds,
whatever the cache held before, and with the cache just warmed nothing
compiles.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

LIST_SIGNATURES = '''
def signatures():
    from numba.core.registry import CPUDispatcher
    found = set()
    for name, module in list(sys.modules.items()):
        if name.startswith("kernel") and module is not None:
            for value in vars(module).values():
                value = getattr(value, "compiled", value)  # a kernel run on several threads: its dispatcher
                if isinstance(value, CPUDispatcher):
                    qualified = value.py_func.__module__ + "." + value.py_func.__qualname__
                    found.update(qualified + str(signature) for signature in value.overloads)
    return sorted(found)
'''

WARM = LIST_SIGNATURES + '''
import sys, json
from kernel.cli.app import main
from kernel.cli.warm_command import warm_kernels
warm_kernels(main)
print(json.dumps(signatures()))
'''

ENTRY_POINTS = LIST_SIGNATURES + '''
import json, os, sys, tempfile, warnings
from numba.core import event
import kernel
from kernel.cli.app import main

out = sys.argv[1]
counters = os.path.join(out, "counters.json")
with open(counters, "w") as handle:
    json.dump({"smoke": {"71J5": 3}, "vehicles": ["71K5"], "units": ["72M6"]}, handle)
commands = [
    ["demo", "--out", os.path.join(out, "demo"), "--quiet", "--formats", "png"],
    ["page", "--counters", counters, "--out", os.path.join(out, "map.html")],
    ["los", "71I4", "72M6", "--explain", "--json"], ["los", "71P5h1", "71I9", "--json"],
    ["fire", "--from", "71I4", "--from", "72M6", "--counters", counters, "--json"],
    ["fire", "--from", "71P5", "--level", "1", "--json"],
    ["move", "--from", "71I4", "--allowance", "4", "--to", "71E4", "--json"],
    ["move", "--from", "71P5h1", "--allowance", "4", "--counters", counters, "--json"],
    ["vantage", "--top", "3", "--json"],
    ["matrix", "--out", os.path.join(out, "m.npy"), "--quiet", "--counters", counters, "--json"],
]
b = kernel.load("default"); a = ["71I4", "72M6", "71Q5"]; s = kernel.GameState(b)
calls = [
    lambda: kernel.los(b, "71I4", "72M6"), lambda: kernel.can_see(b, "71I4", "72M6"),
    lambda: kernel.los_pairs(b, a, a[::-1]), lambda: kernel.los_pairs(b, a, a, product=True), lambda: kernel.los_matrix(b, a),
    lambda: list(kernel.los_matrix_blocks(b, a, block_rows=2)), lambda: kernel.visibility_bits(b, a),
    lambda: kernel.field_of_fire(b, "71I4"), lambda: kernel.fields_of_fire(b, a), lambda: kernel.threat_map(b, a),
    lambda: (s.place_smoke("71J5", 3), kernel.los_pairs(b, a, a[::-1], counters=s)),
    lambda: (held := kernel.HeldLOSMatrix(b, s, a), s.place_smoke("71K5", 2), held.refresh()),
    lambda: kernel.movement_field(b, "71I4", unit="infantry", allowance=4, counters=s),
    lambda: kernel.movement_field(b, "71I4", unit="infantry", allowance=4), lambda: kernel.reachable(b, "71I4", unit="infantry", allowance=4),
    lambda: kernel.movement_matrix(b, unit="infantry"),
    lambda: kernel.concealed_movement(b, "71I4", ["72M6"], unit="infantry", allowance=4),
    lambda: kernel.los(b, "71I4", "72M6", model="depiction"),
    lambda: kernel.los_pairs(b, a, a[::-1], model="depiction"),
]
with event.install_recorder("numba:compile") as recorder, warnings.catch_warnings():
    warnings.simplefilter("ignore")
    for argv in commands:
        assert main(argv) in (0, None), argv
    for call in calls:
        call()
compiled = sorted({item.data["dispatcher"].py_func.__qualname__ for _, item in recorder.buffer})
print(json.dumps({"signatures": signatures(), "compiled": compiled}))
'''


def run_python(code: str, *args: str, cwd=None) -> str:
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "HEXKERNEL_NUMBA_CACHE": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_no_public_entry_point_compiles_after_warm(tmp_path):
    warmed = set(json.loads(run_python(WARM)))
    used = json.loads(run_python(ENTRY_POINTS, str(tmp_path), cwd=tmp_path))
    assert used["signatures"], "the entry points ran no kernel: the check would be empty"
    missing = sorted(set(used["signatures"]) - warmed)
    assert not missing, f"{len(missing)} kernel signatures the entry points use are not warmed: {missing}"
    assert used["compiled"] == [], f"compiled after warm: {used['compiled']}"


def test_every_grouped_step_is_a_step_and_each_once():
    from kernel.cli.app import main
    from kernel.cli.warm_command import STEP_GROUPS, share_out, warm_steps

    names = [name for name, _ in warm_steps(main)]
    grouped = [name for _, group in STEP_GROUPS for name in group]
    assert len(grouped) == len(set(grouped)) and set(grouped) <= set(names)
    for workers in (1, 2, 3, 8):
        shares = share_out(names, workers)
        assert sorted(name for share in shares for name in share) == sorted(names)
        assert len(shares) <= workers
