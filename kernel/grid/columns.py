"""ASL column letters (A..Z, AA..ZZ) and their indices, and the syntax checks that the coordinate types share."""

from __future__ import annotations


#: Number of columns: ``A``..``Z`` (0..25), then ``AA``..``ZZ`` (26..51).
COLUMN_COUNT = 52


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


MAX_DIGITS = 3


class Malformed(Exception):
    """Internal: why a piece of a coordinate is malformed (no input quoted)."""


def require_str(text: object) -> str:
    if not isinstance(text, str):
        raise TypeError(f"grid coordinate must be a str, not {type(text).__name__}")
    return text


def require_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    return value


def column_problem(letters: str) -> str | None:
    """Why ``letters`` is not a column, or None if it is one."""
    if not letters:
        return "no column letters"
    if any(letter not in _LETTERS for letter in letters):
        if letters.isascii() and letters.isalpha():
            return "column letters are uppercase A..Z; lowercase letters are markers"
        return "column letters are A..Z"
    if len(letters) > 2:
        return "a column has one letter or one doubled letter (AA..ZZ)"
    if len(letters) == 2 and letters[0] != letters[1]:
        return "doubled letters must be the same letter"
    return None


def digits_problem(digits: str, what: str) -> str | None:
    """Why ``digits`` (ASCII digits only) is not a canonical number, or None."""
    if not digits:
        return f"missing {what}"
    if len(digits) > 1 and digits[0] == "0":
        return f"{what} {digits!r} has a leading zero"
    if len(digits) > MAX_DIGITS:
        return f"{what} {digits!r} has more than {MAX_DIGITS} digits"
    return None


def board_problem(board: str) -> str | None:
    """Why ``board`` (ASCII digits only) is not a board number, or None."""
    if board == "0":
        return "board number '0' does not exist; boards count from 1"
    return digits_problem(board, "board number")


def column_index(letters: str) -> int:
    """Return the index of a column given by its letters.

    Parameters
    ----------
    letters : str
        ``A``..``Z`` (indices 0..25) or a doubled letter ``AA``..``ZZ``
        (26..51).  ASL boards use ``A``..``GG`` (0..32).

    Returns
    -------
    int
        The column index, counted from 0 at column ``A``.

    Raises
    ------
    ValueError
        If ``letters`` is not a column (lowercase, mixed doubled letters, ...).
    TypeError
        If ``letters`` is not a `str`.

    Examples
    --------
    >>> column_index("A"), column_index("Z"), column_index("AA"), column_index("GG")
    (0, 25, 26, 32)
    >>> column_index("AB")
    Traceback (most recent call last):
    ...
    ValueError: 'AB' is not a valid column: doubled letters must be the same letter
    """
    if not isinstance(letters, str):
        raise TypeError(f"column letters must be a str, not {type(letters).__name__}")
    problem = column_problem(letters)
    if problem is not None:
        raise ValueError(f"{letters!r} is not a valid column: {problem}")
    return _LETTERS.index(letters[0]) + len(_LETTERS) * (len(letters) - 1)


def column_letters(index: int) -> str:
    """Return the letters of the column with the given index.

    Parameters
    ----------
    index : int
        Column index, 0..51 (``A``..``Z``, then ``AA``..``ZZ``).

    Returns
    -------
    str
        The column letters; the inverse of `column_index`.

    Raises
    ------
    ValueError
        If ``index`` is outside 0..51.
    TypeError
        If ``index`` is not an `int` (`bool` is refused too).

    Examples
    --------
    >>> column_letters(8), column_letters(26), column_letters(32)
    ('I', 'AA', 'GG')
    >>> column_letters(52)
    Traceback (most recent call last):
    ...
    ValueError: 52 is not a valid column index: expected 0..51 (A..Z, AA..ZZ)
    """
    require_int(index, "column index")
    if not 0 <= index < COLUMN_COUNT:
        raise ValueError(
            f"{index!r} is not a valid column index: "
            f"expected 0..{COLUMN_COUNT - 1} (A..Z, AA..ZZ)"
        )
    repeat, position = divmod(index, len(_LETTERS))
    return _LETTERS[position] * (repeat + 1)
