"""Opening a VASL saved game (``.vsav``): the zip archive, its ``savedGame`` member and VASSAL's obfuscation.

A ``.vsav`` is a zip archive whose ``savedGame`` member holds the game's
command stream (with ``savedata`` and ``moduledata`` beside it: when and with
which module it was saved).  VASSAL writes the stream obfuscated: the text
``!VCSK``, two hex digits of a key, then every byte of the commands as two
hex digits of the byte XOR the key.  A stream without that header is taken
as plain text.  :func:`read_save_text` checks the archive against the limits
of :mod:`kernel._limits` (members, their names and sizes, declared and
inflated) before reading it, and returns the decoded text; a decoded text
must start with VASSAL's ``begin_save`` and end with ``end_save``, so a wrong
key or a cut stream is named as such.
"""

from __future__ import annotations

import binascii
import zipfile
import zlib
from pathlib import Path

from kernel._limits import MAX_SAVE_BYTES, MAX_SAVE_MEMBERS
from kernel.importers.vasl.save_stream import SavedGameError

#: The member of a saved game that holds its commands.
SAVED_GAME_MEMBER = "savedGame"
#: VASSAL's header of an obfuscated stream.
OBFUSCATION_HEADER = b"!VCSK"
#: The first and last commands of every saved game.
BEGIN_SAVE, END_SAVE = "begin_save", "end_save"


def is_saved_game(path: str | Path) -> bool:
    """Whether ``path`` names a VASL saved game by its suffix (``.vsav``, any case)."""
    return Path(path).suffix.lower() == ".vsav"


def read_save_text(path: str | Path) -> str:
    """The decoded command stream of a saved game.

    Raises
    ------
    FileNotFoundError
        No such file.
    SavedGameError
        Not a zip archive, a damaged one, too many members, a member name
        that is a path (absolute, with ``..`` or a drive), no ``savedGame``
        member or two, one that is encrypted or larger than
        :data:`MAX_SAVE_BYTES`, a stream with a header but no key, an odd
        number of hex digits or a character that is not one, a decoded text
        that is not UTF-8 or does not start with ``begin_save`` (a wrong key)
        or does not end with ``end_save`` (cut short); each message names the
        file and the part.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"saved game {str(path)!r} does not exist")
    if not path.is_file():
        raise SavedGameError(f"{path}: not a regular file: expected a VASL saved game (.vsav)")
    try:
        with zipfile.ZipFile(path) as archive:
            raw = _saved_game_bytes(archive, path)
    except zipfile.BadZipFile as error:
        raise SavedGameError(f"{path}: not a zip archive or a damaged one ({error}): expected a VASL saved game "
                             "(a zip archive holding savedGame)") from None
    except (zlib.error, EOFError) as error:
        raise SavedGameError(f"{path}!{SAVED_GAME_MEMBER}: damaged compressed data ({error}): expected a whole "
                             "archive") from None
    return decode_stream(raw, f"{path}!{SAVED_GAME_MEMBER}")


def _saved_game_bytes(archive: zipfile.ZipFile, path: Path) -> bytes:
    members = archive.infolist()
    if len(members) > MAX_SAVE_MEMBERS:
        raise SavedGameError(f"{path}: holds {len(members)} members: expected at most {MAX_SAVE_MEMBERS} (a VASL "
                             "save holds three)")
    for info in members:
        problem = _member_name_problem(info.filename)
        if problem:
            raise SavedGameError(f"{path}: member {info.filename[:80]!r} {problem}: expected plain member names "
                                 "(savedGame, savedata, moduledata)")
    found = [info for info in members if info.filename == SAVED_GAME_MEMBER]
    if not found:
        names = ", ".join(repr(info.filename[:40]) for info in members[:5]) or "no members"
        raise SavedGameError(f"{path}: a zip archive without a {SAVED_GAME_MEMBER} member ({names}): expected a "
                             "VASL saved game (.vsav)")
    if len(found) > 1:
        raise SavedGameError(f"{path}: {len(found)} members named {SAVED_GAME_MEMBER}: expected one")
    info = found[0]
    where = f"{path}!{SAVED_GAME_MEMBER}"
    if info.flag_bits & 0x1:
        raise SavedGameError(f"{where}: encrypted: expected an unencrypted saved game")
    if info.file_size > MAX_SAVE_BYTES:
        raise SavedGameError(f"{where}: {info.file_size} bytes: expected at most {MAX_SAVE_BYTES}")
    try:
        with archive.open(info) as handle:
            data = handle.read(MAX_SAVE_BYTES + 1)
    except NotImplementedError as error:
        raise SavedGameError(f"{where}: {error}: expected a stored or deflated member") from None
    if len(data) > MAX_SAVE_BYTES:
        raise SavedGameError(f"{where}: inflates to more than {MAX_SAVE_BYTES} bytes: expected at most that")
    return data


def _member_name_problem(name: str) -> str | None:
    """Why a member's name is not a plain name inside the archive, or None."""
    if "\x00" in name:
        return "holds a NUL character"
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return "is an absolute path"
    if ".." in parts:
        return "reaches outside the archive ('..')"
    return None


def decode_stream(raw: bytes, where: str) -> str:
    """The text of a ``savedGame`` member's bytes: de-obfuscated when it starts with ``!VCSK``, else as it is.

    >>> key = 0x2A
    >>> text = "begin_save\\x1bend_save"
    >>> decode_stream(b"!VCSK2a" + bytes(b ^ key for b in text.encode()).hex().encode(), "x") == text
    True
    """
    if raw.startswith(OBFUSCATION_HEADER):
        header = len(OBFUSCATION_HEADER)
        key_digits = raw[header:header + 2]
        try:
            key = int(key_digits.decode("ascii"), 16)
        except (UnicodeDecodeError, ValueError):
            raise SavedGameError(f"{where}: key {key_digits[:2]!r} after {OBFUSCATION_HEADER.decode()}: expected two "
                                 "hex digits") from None
        body = memoryview(raw)[header + 2:]
        while body and body[-1:] in (b"\n", b"\r"):
            body = body[:-1]
        if len(body) % 2:
            raise SavedGameError(f"{where}: truncated: {len(body)} hex digits after the key: expected two per byte "
                                 "(an even number)")
        try:
            packed = binascii.unhexlify(body)
        except binascii.Error:
            bad = next(i for i, b in enumerate(bytes(body)) if chr(b) not in "0123456789abcdefABCDEF")
            raise SavedGameError(f"{where}: character {chr(body[bad])!r} at byte {header + 2 + bad}: expected hex "
                                 "digits") from None
        del body
        table = bytes(b ^ key for b in range(256))
        data = packed.translate(table)
        del packed
    else:
        data = raw
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SavedGameError(f"{where}: not UTF-8 text at byte {error.start} once decoded: a wrong key or not a "
                             "VASSAL save") from None
    if not text.startswith(BEGIN_SAVE):
        head = text[:12].encode("unicode_escape").decode("ascii")
        raise SavedGameError(f"{where}: decoded text starts with {head!r}: expected {BEGIN_SAVE!r} (a wrong key, or "
                             "not a VASSAL save)")
    if not text.rstrip("\x1b\r\n").endswith(END_SAVE):
        raise SavedGameError(f"{where}: truncated: the stream ends before {END_SAVE!r}: expected a whole saved game")
    return text
