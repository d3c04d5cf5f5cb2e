"""Tests of kernel.grid.coordinates: ASL grid coordinates (A2.2) round-trip exactly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.grid.columns import column_index, column_letters
from kernel import format_coordinate, parse_coordinate, parse_hex
from kernel.grid.references import BypassRef, CoveredArcRef, HexRef, LocationRef, VertexRef

FUZZ = settings(max_examples=300, deadline=None)

# --- examples of every form (rules digest section 1, A2.2, A2.73) ----------

EXAMPLES = {
    "I9": LocationRef(HexRef(None, "I", 9), None),
    "2I9": LocationRef(HexRef("2", "I", 9), None),
    "32I9": LocationRef(HexRef("32", "I", 9), None),
    "32oE7": LocationRef(HexRef("32", "E", 7, overlay=True), None),
    "1E4h1": LocationRef(HexRef("1", "E", 4), 1),
    "1E4h-1": LocationRef(HexRef("1", "E", 4), -1),
    "1E4h0": LocationRef(HexRef("1", "E", 4), 0),
    "32oE7h2": LocationRef(HexRef("32", "E", 7, overlay=True), 2),
    "F3-E3": BypassRef(HexRef(None, "F", 3), HexRef(None, "E", 3)),
    "2F3-2E3": BypassRef(HexRef("2", "F", 3), HexRef("2", "E", 3)),
    "2F3-E3": BypassRef(HexRef("2", "F", 3), HexRef(None, "E", 3)),
    "X0-W1-W0": VertexRef(HexRef(None, "X", 0), HexRef(None, "W", 1), HexRef(None, "W", 0)),
    "1E4caD3/D4": CoveredArcRef(HexRef("1", "E", 4), (HexRef(None, "D", 3), HexRef(None, "D", 4))),
    "GG10": LocationRef(HexRef(None, "GG", 10), None),
    "ZZ999": LocationRef(HexRef(None, "ZZ", 999), None),
}


@pytest.mark.parametrize(("text", "expected"), EXAMPLES.items())
def test_examples_parse_and_format_back(text, expected):
    parsed = parse_coordinate(text)
    assert parsed == expected
    assert format_coordinate(parsed) == text


def test_level_zero_is_distinct_from_no_level():
    assert parse_coordinate("1E4h0") != parse_coordinate("1E4")


def test_bypass_keeps_the_occupied_hex_first():
    ref = parse_coordinate("F3-E3")
    assert (ref.hex.column, ref.along.column) == ("F", "E")


@pytest.mark.parametrize("index", range(33))
@pytest.mark.parametrize("board", [None, "2", "32"])
def test_every_asl_board_hex_round_trips(index, board):
    letters = column_letters(index)
    for number in range(11):
        text = f"{board or ''}{letters}{number}"
        hex_ref = HexRef(board, letters, number)
        assert parse_hex(text) == hex_ref
        assert parse_coordinate(text) == LocationRef(hex_ref, None)
        assert format_coordinate(hex_ref) == text
        assert format_coordinate(parse_coordinate(text)) == text


def test_surrounding_whitespace_is_stripped():
    assert parse_coordinate("  2I9\n") == parse_coordinate("2I9")
    assert parse_hex("\t32oE7 ") == HexRef("32", "E", 7, overlay=True)


def test_hex_ref_formats_to_a_plain_location():
    hex_ref = HexRef("32", "E", 7, overlay=True)
    assert parse_coordinate(format_coordinate(hex_ref)) == LocationRef(hex_ref, None)
    assert parse_hex(format_coordinate(hex_ref)) == hex_ref


# --- column letters ---------------------------------------------------------


@pytest.mark.parametrize("index", range(52))
def test_column_letters_round_trip(index):
    letters = column_letters(index)
    assert column_index(letters) == index
    assert HexRef(None, letters, 1).column_index == index


def test_column_letters_values():
    assert [column_letters(i) for i in (0, 25, 26, 32, 51)] == ["A", "Z", "AA", "GG", "ZZ"]


@pytest.mark.parametrize(
    ("letters", "message"),
    [
        ("AB", r"'AB' is not a valid column: doubled letters must be the same letter"),
        ("a", r"'a' is not a valid column: column letters are uppercase"),
        ("AAA", r"'AAA' is not a valid column: a column has one letter"),
        ("", r"'' is not a valid column: no column letters"),
        ("1", r"'1' is not a valid column: column letters are A\.\.Z"),
        ("É", r"'É' is not a valid column"),
    ],
)
def test_column_index_rejects(letters, message):
    with pytest.raises(ValueError, match=message):
        column_index(letters)


@pytest.mark.parametrize("index", [-1, 52])
def test_column_letters_rejects_out_of_range(index):
    with pytest.raises(ValueError, match=rf"{index} is not a valid column index"):
        column_letters(index)


@pytest.mark.parametrize("value", [1.0, "1", True, None])
def test_column_letters_rejects_non_int(value):
    with pytest.raises(TypeError, match=type(value).__name__):
        column_letters(value)


def test_column_index_rejects_non_str():
    with pytest.raises(TypeError, match="int"):
        column_index(1)


# --- malformed input ----------------------------------------------------------

MALFORMED = [
    ("2iX9", r"'2iX9': expected board digits.*like '2I9'.*column 'iX'.*uppercase"),  # no hex meant: the long form
    ("AB1", r"'AB1': .*column 'AB': doubled letters must be the same letter"),
    ("GGG1", r"'GGG1': .*column 'GGG'"),
    ("2I09", r"'2I09': .*hex number '09' has a leading zero"),
    ("02I9", r"'02I9': .*board number '02' has a leading zero"),
    ("0I9", r"'0I9': .*board number '0'"),
    ("2I1000", r"'2I1000': .*hex number '1000' has more than 3 digits"),
    ("1000I9", r"'1000I9': .*board number '1000' has more than 3 digits"),
    ("2I", r"'2I': .*missing hex number"),
    ("29", r"'29': .*missing column letters"),
    ("oE7", r"'oE7': .*'o' needs a board number"),
    ("F3-", r"'F3-': expected two hexes joined by '-'.*missing hex after '-'"),
    ("-E3", r"'-E3': .*missing hex before '-'"),
    ("F3--E3", r"'F3--E3': .*missing hex after '-'"),
    ("A1-B1-C1-D1", r"'A1-B1-C1-D1': .*4 hexes"),
    ("1E4caD3", r"'1E4caD3': expected a hex, 'ca'.*exactly one '/'"),
    ("1E4ca", r"'1E4ca': .*missing hexspine after 'ca'"),
    ("1E4caD3/", r"'1E4caD3/': .*missing hex after '/'"),
    ("1E4ca/D4", r"'1E4ca/D4': .*missing hex before '/'"),
    ("caD3/D4", r"'caD3/D4': .*missing hex before 'ca'"),
    ("1E4caD3/D4/D5", r"'1E4caD3/D4/D5': .*exactly one '/'"),
    ("1E4caD3/d4", r"'1E4caD3/d4': .*column 'd'"),
    ("1E4caD3/D4ca", r"'1E4caD3/D4ca': .*more than one 'ca'"),
    ("1E4 caD3/D4", r"'1E4 caD3/D4': .*unexpected ' '"),
    ("1E4h", r"'1E4h': expected a hex, 'h' and a level.*missing level"),
    ("1E4h01", r"'1E4h01': .*level '01' has a leading zero"),
    ("1E4h-0", r"'1E4h-0': .*'-0'"),
    ("1E4h+1", r"'1E4h\+1': .*not a whole number"),
    ("1E4h1h2", r"'1E4h1h2': .*more than one 'h'"),
    ("F3-E3h1", r"'F3-E3h1': .*unexpected '-E3' after 'F3'"),
    ("", r"'': expected a hex like '2I9'.*empty input"),
    ("   ", r"'   ': .*empty input"),
    ("2I9x", r"'2I9x': .*unexpected 'x' after '2I9'"),
    ("2I9!", r"'2I9!': .*unexpected '!'"),
    ("2I 9", r"'2I 9': .*unexpected ' 9'"),
    ("é", r"'é': .*unexpected 'é' at the start"),
    ("2I\u0669", r"'2I\u0669': .*unexpected '\u0669' after '2I'"),  # not an ASCII digit
    ("2I9\x00", r"'2I9\\x00': .*unexpected '\\x00' after '2I9'"),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED)
def test_malformed_coordinates_are_rejected(text, message):
    with pytest.raises(ValueError, match="^invalid grid coordinate " + message):
        parse_coordinate(text)


@pytest.mark.parametrize("text", ["1E4h1", "F3-E3", "1E4caD3/D4", ""])
def test_parse_hex_accepts_only_plain_hexes(text):
    with pytest.raises(ValueError, match=r"^invalid grid coordinate .*expected board digits"):
        parse_hex(text)


@pytest.mark.parametrize(("text", "meant"), [("2i9", "2I9"), ("71gg7", "71GG7"), ("32oe7", "32oE7"), ("i9", "I9")])
def test_lower_case_columns_get_the_hex_meant_in_one_short_line(text, meant):
    with pytest.raises(ValueError, match=rf"^invalid grid coordinate '{text}': expected '{meant}' "
                                         r"\(column letters are upper-case\)$"):
        parse_hex(text)
    with pytest.raises(ValueError, match=rf"^invalid grid coordinate '{text}': expected '{meant}' "):
        parse_coordinate(text)


@pytest.mark.parametrize("value", [None, 29, b"2I9", ["2I9"], 2.5])
def test_non_strings_raise_type_error(value):
    for parse in (parse_coordinate, parse_hex):
        with pytest.raises(TypeError, match=type(value).__name__):
            parse(value)


def test_format_rejects_other_types():
    with pytest.raises(TypeError, match="cannot format .* from str"):
        format_coordinate("2I9")


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda: HexRef(None, "E", 7, overlay=True), ValueError, "needs a board number"),
        (lambda: HexRef("02", "E", 7), ValueError, "leading zero"),
        (lambda: HexRef("2a", "E", 7), ValueError, "expected digits"),
        (lambda: HexRef(2, "E", 7), TypeError, "board must be a str or None, not int"),
        (lambda: HexRef("2", "AB", 7), ValueError, "doubled letters"),
        (lambda: HexRef("2", "E", -1), ValueError, "invalid hex number -1"),
        (lambda: HexRef("2", "E", 1000), ValueError, "invalid hex number 1000"),
        (lambda: HexRef("2", "E", "7"), TypeError, "hex number must be an int"),
        (lambda: HexRef("2", "E", 7, overlay=1), TypeError, "overlay must be a bool"),
        (lambda: LocationRef(HexRef("2", "E", 7), 1000), ValueError, "invalid level 1000"),
        (lambda: LocationRef(HexRef("2", "E", 7), True), TypeError, "level must be an int"),
        (lambda: LocationRef("2E7", None), TypeError, "hex must be a HexRef, not str"),
        (lambda: BypassRef(HexRef(None, "F", 3), None), TypeError, "along must be a HexRef"),
        (lambda: CoveredArcRef(HexRef(None, "E", 4), [HexRef(None, "D", 3)] * 2),
         TypeError, "spine must be a tuple, not list"),
        (lambda: CoveredArcRef(HexRef(None, "E", 4), (HexRef(None, "D", 3),)),
         ValueError, "spine must hold two hexes, not 1"),
    ],
)
def test_invalid_objects_are_refused(build, error, message):
    with pytest.raises(error, match=message):
        build()


# --- property-based -----------------------------------------------------------


@FUZZ
@given(st.text())
def test_fuzz_parse_returns_or_raises_value_error(text):
    from kernel._limits import MAX_COORDINATE_CHARS

    try:
        parsed = parse_coordinate(text)
    except ValueError as error:
        too_long = len(text.strip()) > MAX_COORDINATE_CHARS  # quoted by its start and its length
        assert repr(text.strip()[:24]) in str(error) if too_long else repr(text) in str(error)
    else:
        assert format_coordinate(parsed) == text.strip()


@FUZZ
@given(st.text(alphabet="0123456789oAEGhca-/ ", max_size=14))
def test_fuzz_near_valid_text_returns_or_raises_value_error(text):
    try:
        parsed = parse_coordinate(text)
    except ValueError as error:
        assert repr(text) in str(error)
    else:
        assert format_coordinate(parsed) == text.strip()


boards = st.none() | st.integers(1, 999).map(str)
levels = st.none() | st.integers(-999, 999)


@st.composite
def hex_refs(draw):
    board = draw(boards)
    overlay = board is not None and draw(st.booleans())
    column = column_letters(draw(st.integers(0, 51)))
    return HexRef(board, column, draw(st.integers(0, 999)), overlay)


coordinates = st.one_of(
    st.builds(LocationRef, hex_refs(), levels),
    st.builds(BypassRef, hex_refs(), hex_refs()),
    st.builds(VertexRef, hex_refs(), hex_refs(), hex_refs()),
    st.builds(CoveredArcRef, hex_refs(), st.tuples(hex_refs(), hex_refs())),
)


@FUZZ
@given(coordinates)
def test_objects_round_trip(coordinate):
    assert parse_coordinate(format_coordinate(coordinate)) == coordinate


@FUZZ
@given(hex_refs())
def test_hex_refs_round_trip(hex_ref):
    text = format_coordinate(hex_ref)
    assert parse_hex(text) == hex_ref
    assert parse_coordinate(text) == LocationRef(hex_ref, None)


_COLUMN = "(?:" + "|".join(column_letters(i) for i in range(52)) + ")"
_NUMBER = "(?:0|[1-9][0-9]{0,2})"
_HEX = f"(?:[1-9][0-9]{{0,2}}o?)?{_COLUMN}{_NUMBER}"
_VALID = (
    f"{_HEX}(?:h(?:0|-?[1-9][0-9]{{0,2}}))?"
    f"|{_HEX}-{_HEX}(?:-{_HEX})?"
    f"|{_HEX}ca{_HEX}/{_HEX}"
)


@FUZZ
@given(st.from_regex(_VALID, fullmatch=True))
def test_valid_strings_round_trip(text):
    assert format_coordinate(parse_coordinate(text)) == text


# ---------------------------------------------------------------- long names: a length limit, a linear parse
@pytest.mark.parametrize("letter", ["o", "h", "a", "c", "2", "-", "I"])
def test_a_name_longer_than_the_limit_is_refused_before_parsing(letter):
    from kernel._limits import MAX_COORDINATE_CHARS

    for parse in (parse_coordinate, parse_hex):
        with pytest.raises(ValueError, match=rf"\(200000 characters\): expected at most {MAX_COORDINATE_CHARS} "):
            parse(letter * 200_000)
    longest = "999oZZ999caZZ999/999oZZ999"
    assert len(longest) <= MAX_COORDINATE_CHARS
    assert format_coordinate(parse_coordinate(f"  {longest}  ")) == longest


@pytest.mark.parametrize("letter", ["o", "h", "a", "c"])
def test_the_parse_is_linear_in_the_name_s_length(letter):
    """The pieces the length limit protects scan a long run of letters once: 100,000 letters took minutes
    when the lower-case hint's pattern tried every split of the run (16,000 took 1.7-3.7 s); a gross
    bound, not a speed target."""
    import time

    from kernel.grid import coordinates

    body = letter * 100_000
    start = time.perf_counter()
    for parse in (coordinates._parse_plain_location, coordinates._parse_level_location):
        with pytest.raises(coordinates.Malformed):
            parse(body)
    assert coordinates._lower_case_hint(body, body) is None
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("text, meant", [("2i9", "2I9"), ("o7", "O7"), ("32oe7", "32oE7"), ("aA7", "AA7"),
                                         ("2ii10", "2II10")])
def test_the_lower_case_hint_names_the_hex_meant(text, meant):
    with pytest.raises(ValueError, match=rf"expected '{meant}' \(column letters are upper-case\)"):
        parse_hex(text)


@pytest.mark.parametrize("text", ["ab7", "oE7", "0oE7", "2I9x"])
def test_no_lower_case_hint_where_upper_case_would_not_be_a_hex(text):
    with pytest.raises(ValueError, match=r"expected board digits"):
        parse_hex(text)
