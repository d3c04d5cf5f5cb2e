"""Batch job files that must be refused in one line before any output folder exists: holes in the schema,
unbounded sizes, deep nesting, huge integers, binary and endless files, map names that leave ``OUT/maps``."""

from __future__ import annotations

import json

import pytest

from kernel.batch import spec
from kernel.batch.spec import BatchJobError, job_from_text, read_job

SOURCE = "[[maps]]\nsource = '71'\n"

BAD = [
    ("[job]\nallowance = nan\n" + SOURCE, r"'job.allowance' is nan: expected a positive number of MF"),
    ("[job]\nallowance = inf\n" + SOURCE, r"'job.allowance' is inf: expected a positive number"),
    ("[job]\nallowance = 1e9\n" + SOURCE, r"'job.allowance' is 1000000000.0: expected .* at most 1000"),
    ("[job]\nallowance = 2.3\n" + SOURCE, r"'job.allowance' is 2.3: expected .* a multiple of 1/2"),
    (f"[job]\nblock_rows = {2 ** 62}\n" + SOURCE, r"'job.block_rows' is 4611686018427387904: expected a positive "
                                                  r"integer, at most 30000"),
    ("[[maps]]\nrandom = { count = 1000000000 }\n", r"'maps\[0\].random.count' is 1000000000: expected a positive "
                                                    r"integer, at most 10000"),
    ("[[maps]]\nrandom = { rows = 100000 }\n", r"'maps\[0\].random.rows' is 100000: expected 1..200"),
    ("[[maps]]\nrandom = { columns = 60 }\n", r"'maps\[0\].random.columns' is 60: expected 1..52"),
    ("[[maps]]\nrandom = { hills = 1000000000 }\n", r"'maps\[0\].random.hills' is 1000000000: expected 0..240"),
    ("[[maps]]\nrandom = { max_level = 40000 }\n", r"'maps\[0\].random.max_level' is 40000: expected 0..100"),
    ("[[maps]]\nrandom = { terrain_density = nan }\n", r"'maps\[0\].random.terrain_density' is nan"),
    ("[[maps]]\nrandom = { seed = -1 }\n", r"'maps\[0\].random.seed' is -1: expected 0.."),
    ("[[maps]]\nsource = '.'\n", r"'maps\[0\].source' is '.', which gives the map the name '.': expected a name"),
    ("[[maps]]\nsource = '..'\n", r"'maps\[0\].source' is '..', which gives the map the name '..'"),
    ("[[maps]]\nsource = '../'\n", r"'maps\[0\].source' is '../', which gives the map the name '..'"),
    ("[[maps]]\nsource = '71'\ncounters = { smoke = { '71I9' = " + "9" * 30 + " } }\n",
     r"job.toml: an integer of more than 19 digits"),
    ("x = " + "[" * 100_000 + "]" * 100_000 + "\n", r"job.toml: TOML nested deeper than 8 levels"),
    ("[[maps]]\nrandom = { count = 5001 }\n" * 2, r"'maps\[1\]' brings the job to 10002 maps: expected at most "
                                                  r"10000"),
]


@pytest.mark.parametrize("text, message", BAD, ids=[f"bad-{k}" for k in range(len(BAD))])
def test_a_job_outside_the_limits_is_refused_when_read(text, message):
    with pytest.raises(BatchJobError, match=message):
        job_from_text(text, "job.toml")


def test_json_nested_deep_or_with_a_huge_integer_is_refused():
    with pytest.raises(BatchJobError, match=r"x.json: JSON nested deeper than 8 levels"):
        job_from_text("[" * 100_000 + "]" * 100_000, "x.json")
    with pytest.raises(BatchJobError, match=r"x.json: not a valid job file: an integer of 5001 digits: expected at "
                                            r"most 19"):
        job_from_text('{"job": {"block_rows": ' + "1" * 5001 + '}, "maps": [{"source": "71"}]}', "x.json")


def test_a_bracket_inside_a_string_is_not_nesting():
    text = 'x = "' + "[" * 50 + '"\n' + SOURCE
    with pytest.raises(BatchJobError, match=r"unknown top-level key 'x'"):  # parsed, not refused as nested
        job_from_text(text, "job.toml")


def test_a_binary_or_endless_job_file_is_one_line(tmp_path):
    binary = tmp_path / "job.toml"
    binary.write_bytes(b"\x00\xff\xfe" * 100)
    with pytest.raises(BatchJobError, match=r"job.toml: the job file is not UTF-8 text \(byte 1\)"):
        read_job(binary)
    with pytest.raises(BatchJobError, match=r"/dev/zero: the job file is not a regular file"):
        read_job("/dev/zero")
    big = tmp_path / "big.toml"
    with open(big, "wb") as handle:
        handle.truncate(64 * 1024 * 1024 + 1)
    with pytest.raises(BatchJobError, match=r"big.toml: the job file is larger than 67108864 bytes"):
        read_job(big)


def test_the_limits_let_the_largest_allowed_values_through():
    job = job_from_text("[job]\nallowance = 1000\nblock_rows = 30000\n[[maps]]\nrandom = { count = 2, rows = 200, "
                        "columns = 52, hills = 10400, max_level = 100, seed = 7 }\n", "job.toml")
    assert len(job.maps) == 2 and job.block_rows == 30000 and job.allowance == 1000.0
    assert spec.MAX_JOB_MAPS == 10_000
