"""Writing VASL saved games (``.vsav``): the encoder that the reader's tests write their saves with.

:func:`write_saved_game` writes what :func:`~kernel.importers.vasl.saved_game.read_saved_game`
reads, the way VASSAL writes it: a zip archive holding ``savedGame`` (the
command stream, obfuscated with a key unless ``obfuscate=False``),
``savedata`` and ``moduledata``; the stream is ``begin_save``, a group of
add-piece commands (each piece's traits nested one tab level each, down to
its basic piece and position), a group of stacks, the board picker's ``bd``
record, then ``end_save``, every level in VASSAL's sequence encoding
(:func:`join_sequence`, the inverse of
:func:`~kernel.importers.vasl.save_stream.split_sequence`).

Examples
--------
>>> from kernel.importers.vasl.save_stream import split_sequence
>>> items = ["a", "b;c", "d\\\\", ""]
>>> split_sequence(join_sequence(items, ";"), ";") == items
True
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from kernel.importers.vasl.save_stream import COMMAND_SEPARATOR


def join_sequence(items, delimiter: str) -> str:
    """VASSAL's ``SequenceEncoder``: the items joined by ``delimiter``, each delimiter inside an item with a
    backslash before it, an item ending in a backslash (or quoted) wrapped in single quotes."""
    out = []
    for item in items:
        item = str(item)
        escaped = item.replace(delimiter, "\\" + delimiter)
        if item.endswith("\\") or (item.startswith("'") and item.endswith("'")):
            escaped = f"'{escaped}'"
        out.append(escaped)
    return delimiter.join(out)


@dataclass
class SaveBoard:
    """One board of the ``bd`` record: its place, VASL name (``"02"``), rotation and what else VASL records."""

    column: int
    row: int
    name: str
    version: str = ""
    rotated: bool = False
    crop: tuple[int, int, int, int] | None = None
    overlays: list[tuple[str, str, str]] = field(default_factory=list)
    ssr: tuple[str, ...] = ()
    zoom: float = 1.0

    def record(self) -> str:
        """This board's entry of the ``bd`` record."""
        parts = [str(self.column), str(self.row), ("r" if self.rotated else "") + self.name]
        if self.crop is not None:
            parts += [str(v) for v in self.crop]
        if self.version:
            parts += ["VER", self.version]
        for name, first, second in self.overlays:
            parts += ["OVR", name, first, second]
        if self.ssr:
            parts += ["SSR", *self.ssr]
        if self.zoom != 1.0:
            parts += ["ZOOM", repr(self.zoom)]
        return "\t".join(parts) + "\t"


@dataclass
class SavePiece:
    """One game piece: its name, position in the main map's pixels, and the traits VASL gives such a piece."""

    name: str
    x: int
    y: int
    nationality: str = ""           # the concealment trait's code: "ge", "ru", ...
    counter_type: str = "unit"      # DBCounterType: "unit", "common", "global" ("": no marker)
    hindrance: bool = False         # a vehicle
    label: str = ""
    owner: str = ""
    hidden_by: str = ""             # HIP: the player hiding it
    map_name: str = "Main Map"
    layer_names: tuple[str, ...] = ()   # an emb2 layer's level names, its first level active
    piece_id: str = ""

    def command(self) -> str:
        """The add-piece command ``+/ID/TYPE/STATE``."""
        traits: list[tuple[str, str]] = []
        if self.owner:
            traits.append(("PROP;Owner;false,0,100,false;", self.owner))
        if self.counter_type:
            traits.append(("mark;DBCounterType", self.counter_type))
        if self.hidden_by:
            traits.append(("hide;72,130;HIP;;player:;0.3", self.hidden_by))
        if self.nationality:
            traits.append((f"conceal;C;{self.nationality}/{self.nationality}qmark;{self.nationality};;", "null;"))
        traits.append(("label;76,130;Label;10;0,0,0;0,0,0;t;0;c;0;b;c;$pieceName$ ($label$);Dialog;0;0;TextLabel;",
                       self.label))
        if self.layer_names:
            fields = ["emb2", "", "0", "", "", "2", "E", "", "2", "Q", "", "", "0", "false", "0", "0",
                      join_sequence(["img"] * len(self.layer_names), ","), join_sequence(self.layer_names, ","),
                      "false", "", "", "", "false", "", "1", "1", "true", "", "", ""]
            traits.append((join_sequence(fields, ";"), "1"))
        if self.hindrance:
            traits.append(("mark;Hindrance", "true"))
        image = f"{self.nationality}/{self.name.replace(' ', '')}" if self.nationality else ""
        basic_type = join_sequence(["piece", "K", "D", image, self.name], ";")
        basic_state = join_sequence([self.map_name, self.x, self.y, "0"], ";")
        type_text, state_text = basic_type, basic_state
        for trait, state in reversed(traits):
            type_text = join_sequence([trait, type_text], "\t")
            state_text = join_sequence([state, state_text], "\t")
        return "+/" + join_sequence([self.piece_id, type_text, state_text], "/")


def stack_command(stack_id: str, pieces: list[SavePiece]) -> str:
    """A stack of pieces at the first one's position, bottom first."""
    first = pieces[0]
    state = join_sequence([first.map_name, first.x, first.y, *[p.piece_id for p in pieces]], ";")
    return "+/" + join_sequence([stack_id, "stack", state], "/")


def save_text(boards: list[SaveBoard], pieces: list[SavePiece], stacks: list[list[SavePiece]] = ()) -> str:
    """The command stream of a save (before obfuscation)."""
    for n, piece in enumerate(pieces):
        piece.piece_id = piece.piece_id or str(1_000_000 + n)
    group = join_sequence(["", *[p.command() for p in pieces]], COMMAND_SEPARATOR)
    stack_group = join_sequence(["", *[stack_command(str(2_000_000 + n), s) for n, s in enumerate(stacks)]],
                                COMMAND_SEPARATOR)
    layout = "bd\t" + "bd\t".join(b.record() for b in boards)
    return join_sequence(["begin_save", "", group, stack_group, "UNMASK\t", layout, "end_save"], COMMAND_SEPARATOR)


def obfuscated(text: str, key: int = 0x5A) -> bytes:
    """VASSAL's obfuscation of a stream: ``!VCSK``, the key as two hex digits, each byte XOR key as two hex
    digits."""
    return b"!VCSK" + f"{key:02x}".encode() + bytes(b ^ key for b in text.encode("utf-8")).hex().encode()


def write_saved_game(path, boards: list[SaveBoard], pieces: list[SavePiece], stacks: list[list[SavePiece]] = (),
                     *, key: int = 0x5A, obfuscate: bool = True) -> Path:
    """Write a ``.vsav`` file (module docstring); returns its path."""
    path = Path(path)
    text = save_text(boards, list(pieces), list(stacks))
    data = obfuscated(text, key) if obfuscate else text.encode("utf-8")
    info = ('<?xml version="1.0" encoding="UTF-8"?>\n<data version="1">\n  <version>6.6.1</version>\n'
            '  <VassalVersion>3.4.7</VassalVersion>\n  <name>VASL</name>\n</data>\n')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("savedGame", data)
        archive.writestr("savedata", info)
        archive.writestr("moduledata", info)
    return path
