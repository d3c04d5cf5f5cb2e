"""Fuzz suite: VASL archives and LOSData, and the API's array arguments.

VASL: mutated LOSData streams (header sizes, records, gzip bytes) and mutated
board archives (bytes flipped, truncated, members renamed, flags set) are
refused with ValueError / FileNotFoundError or read into arrays of the sizes
their header gives.  API: arrays of any dtype, shape and value for
``los_pairs``, ``los_matrix``, ``field_of_fire`` and ``movement_field`` are
refused with TypeError / ValueError / KeyError / IndexError, or answered as
the references answer.
"""

from __future__ import annotations

import gzip
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import kernel
from kernel.importers.vasl.files import parse_los_data, read_board_files
from tests.fuzzing import fuzz, tried
from tests.reference.los_reference import reference_los
from tests.reference.movement_reference import reference_movement
from tests.shared_data import require, vasl_folder

REPO = Path(__file__).resolve().parent.parent
VASL = vasl_folder()
API_ERRORS = (TypeError, ValueError, KeyError, IndexError)


def los_stream(width, height, grid_width, grid_height, pixels=None, extra=b""):
    """A Java object stream of one long block-data record: an LOSData header, pixels and stairway flags."""
    count = grid_width * grid_height if pixels is None else pixels
    hexes = sum(max(0, min(height, 60)) + (c % 2) for c in range(max(0, min(width, 60))))  # the test's own bytes stay small
    block = struct.pack(">4i", width, height, grid_width, grid_height) + bytes(2 * max(0, count) + hexes) + extra
    return b"\xac\xed\x00\x05\x7a" + struct.pack(">i", len(block)) + block


SIZES = st.one_of(st.integers(-3, 60), st.sampled_from([0, 999, 2**31 - 1, -2**31]))


@fuzz(150)
@given(width=SIZES, height=SIZES, dw=st.integers(-4, 4), dh=st.integers(-4, 4),
       cut=st.one_of(st.none(), st.none(), st.none(), st.integers(0, 200)),
       flip=st.one_of(st.none(), st.none(), st.none(), st.integers(0, 100)))
def test_fuzz_los_data(width, height, dw, dh, cut, flip):
    w = max(1, min(width, 60)) if 0 < width < 60 else 5
    h = max(1, min(height, 60)) if 0 < height < 60 else 3
    grid_w, grid_h = max(1, round((w - 1) * 56.25) + dw), max(1, round(h * 64.5) + dh)
    stream = bytearray(los_stream(width, height, grid_w, grid_h))
    if flip is not None:
        stream[flip % len(stream)] ^= 0xFF
    raw = gzip.compress(bytes(stream), compresslevel=1)
    if cut is not None:
        raw = raw[:len(raw) - cut]
    try:
        data = parse_los_data(raw)
    except ValueError as error:
        assert str(error).startswith("LOSData: ")
        tried("LOSData streams", False)
        return
    tried("LOSData streams", True)
    assert data.elevation.shape == data.terrain.shape == (data.grid_width, data.grid_height)


def board_archive(path: Path) -> bytes:
    require("vasl", "bd02")
    with zipfile.ZipFile(path, "w") as archive:
        for member in ("LOSData", "BoardMetadata.xml"):
            archive.write(VASL / "bd02" / member, member)
    return path.read_bytes()


@pytest.fixture(scope="module")
def archive_bytes(tmp_path_factory):
    return board_archive(tmp_path_factory.mktemp("vasl") / "bd02")


@fuzz(80)
@given(data=st.data())
def test_fuzz_vasl_archives(tmp_path, archive_bytes, data):
    require("vasl", "SharedBoardMetadata.xml")
    raw = bytearray(archive_bytes)
    kind = data.draw(st.sampled_from(["flip", "truncate", "rename", "flags", "none"]))
    if kind == "flip":
        for _ in range(data.draw(st.integers(1, 6))):
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    elif kind == "truncate":
        raw = raw[:data.draw(st.integers(0, len(raw) - 1))]
    elif kind == "rename":
        start = raw.find(b"BoardMetadata.xml")
        raw[start:start + 5] = data.draw(st.binary(min_size=5, max_size=5))
    elif kind == "flags":
        for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
            at = raw.find(signature)
            raw[at + offset:at + offset + 4] = data.draw(st.binary(min_size=4, max_size=4))
    path = tmp_path / "bd02"
    path.write_bytes(bytes(raw))
    # the terrain table given, or beside the archive as a VASL install keeps it
    table_beside = data.draw(st.booleans())
    if table_beside and not (tmp_path / "SharedBoardMetadata.xml").is_file():
        (tmp_path / "SharedBoardMetadata.xml").write_bytes((VASL / "SharedBoardMetadata.xml").read_bytes())
    try:
        files = read_board_files(path, None if table_beside else VASL / "SharedBoardMetadata.xml")
    except (ValueError, FileNotFoundError) as error:
        assert str(path) in str(error) or "LOSData" in str(error)
        tried("VASL archives", False)
        return
    tried("VASL archives", True)
    assert files.los_data.elevation.shape == (files.los_data.grid_width, files.los_data.grid_height)


# ---------------------------------------------------------------- the API's array arguments

@pytest.fixture(scope="module")
def small_board():
    return kernel.random_board("asl", 7, 5, seed=16, max_level=2)


INDEX_DTYPES = st.sampled_from([np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64, np.float64, np.bool_,
                                np.float32, np.complex64])


def arrays(n_max=40):
    return st.one_of(
        hnp.arrays(INDEX_DTYPES, hnp.array_shapes(min_dims=0, max_dims=2, max_side=4)),
        hnp.arrays(np.int64, hnp.array_shapes(min_dims=1, max_dims=1, max_side=4), elements=st.integers(-1, n_max)),
        st.lists(st.one_of(st.integers(-3, n_max), st.floats(allow_nan=True), st.booleans(), st.text(max_size=4),
                           st.none()), max_size=4),
        st.integers(-3, n_max), st.floats(), st.none(), st.text(max_size=4),
        st.tuples(st.integers(-1, n_max), st.integers(-1, 2)),
        st.lists(st.integers(0, n_max - 1), min_size=1, max_size=4),
    )


def check_pairs(board, result, a, b, level_a, level_b):
    for k in range(len(result.visible)):
        slow = reference_los(board, int(a[k]), int(b[k]), int(level_a[k]), int(level_b[k]), None, 0)
        assert (bool(result.visible[k]), int(result.hindrance[k]), int(result.cover[k])) == \
            (slow["visible"], slow["hindrance"], slow["cover"])


@fuzz(300)
@given(call=st.sampled_from(["los_pairs", "los_matrix", "field_of_fire", "movement_field", "los"]),
       first=st.one_of(st.integers(0, 34), arrays()), second=st.one_of(st.integers(0, 34), arrays()),
       levels=st.one_of(st.just(0), arrays(3)))
def test_fuzz_api_arguments(small_board, call, first, second, levels):
    board = small_board
    n = len(board)
    try:
        if call == "los_pairs":
            result = kernel.los_pairs(board, first, second, levels=levels)
        elif call == "los_matrix":
            result = kernel.los_matrix(board, first)
        elif call == "field_of_fire":
            result = kernel.field_of_fire(board, first, levels=levels)
        elif call == "movement_field":
            result = kernel.movement_field(board, first, unit="infantry")
        else:
            result = kernel.los(board, first, second, level=levels)
    except API_ERRORS:
        tried(f"API {call}", False)
        return
    tried(f"API {call}", True)
    if call == "los_pairs":
        a = board.indices(np.atleast_1d(np.asarray(first)) if not isinstance(first, (list, tuple)) else first)
        b = board.indices(np.atleast_1d(np.asarray(second)) if not isinstance(second, (list, tuple)) else second)
        check_pairs(board, result, a, b, np.broadcast_to(np.asarray(levels, np.int64), a.shape), np.zeros(len(b)))
    elif call == "los_matrix":
        assert result.shape[0] == result.shape[1] and result.dtype == np.int8
    elif call == "field_of_fire":
        assert result.visible.shape == (n,)
    elif call == "movement_field":
        start = board.indices([first] if isinstance(first, (int, np.integer, str)) else first)
        assert np.array_equal(result.cost, reference_movement(board, [int(s) for s in start], "infantry")["cost"])
    else:
        slow = reference_los(board, board.index(first), board.index(second), int(levels), 0, None, 0)
        assert (result.visible, result.hindrance) == (slow["visible"], slow["hindrance"])
