"""The game pieces of a VASL saved game: each add-piece command read into what a map needs of it.

An add-piece command is ``+/ID/TYPE/STATE``: ``TYPE`` and ``STATE`` each nest
the piece's *traits* (VASSAL's decorators) from the outermost in, one level of
tab encoding per trait, down to the basic piece: ``piece;...;IMAGE;NAME``
whose state ``MAP;X;Y;...`` is the map it lies on and its position in that
map's pixels.  A *stack* (``+/ID/stack/MAP;X;Y;ID1;ID2...``) lists the pieces
piled at one position, bottom first.

:func:`parse_piece` keeps, of all the traits, what says what the piece is and
where it lies:

* its **name**, as VASSAL shows it: the basic piece's name with every
  active layer's name applied (``emb2``: a layer name replaces the name,
  ``X +`` prefixes it, ``+ X`` appends to it); a label's text (``label``)
  is kept beside the name, not in it (as VASL's LOS engine strips it);
* the **marker properties** (``mark``): ``DBCounterType`` (``unit``: a unit
  that can spot; ``common``/``global``: other counters) and ``Hindrance``
  (a vehicle, a LOS hindrance);
* its **nationality** (the concealment traits' ``ge``, ``ru``, ...; else the
  image's folder, when it is a nationality's) and **owner** (the ``Owner``
  property);
* whether it is hidden (``hide``: HIP) or concealed (``conceal``), or moved.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernel._limits import MAX_PIECE_CHARS, MAX_PIECE_TRAITS, MAX_SAVE_DIGITS, MAX_SAVE_PIXEL
from kernel.importers.vasl.save_rules import NATIONS
from kernel.importers.vasl.save_stream import SavedGameError, split_sequence


@dataclass
class RawPiece:
    """One game piece of a save, as :func:`parse_piece` reads it."""

    piece_id: str
    name: str
    basic_name: str
    image: str
    map_name: str                 # "Main Map"; "null": on no map
    x: int | None
    y: int | None
    labels: tuple[str, ...] = ()
    properties: dict[str, str] = field(default_factory=dict)
    nationality: str | None = None
    owner: str | None = None
    hidden_by: str | None = None
    concealed: bool = False
    moved: bool = False
    traits: int = 0
    index: int = 0                # its add command's place among the save's pieces

    @property
    def counter_type(self) -> str:
        """VASL's ``DBCounterType`` marker (``unit``, ``common``, ``global``; ``""``: none)."""
        return self.properties.get("DBCounterType", "")


@dataclass
class StackRecord:
    """A stack: the pieces at one position of one map, bottom first."""

    stack_id: str
    map_name: str
    members: tuple[str, ...]


def parse_piece(command: str, index: int, where: str) -> RawPiece | StackRecord:
    """Read one add-piece command (``+/ID/TYPE/STATE``).

    Raises
    ------
    SavedGameError
        A command longer than :data:`MAX_PIECE_CHARS`, without a type, with
        more than :data:`MAX_PIECE_TRAITS` traits or without a basic piece,
        or a position that is not a whole number within
        :data:`MAX_SAVE_PIXEL` of the map's corner; the message names the
        piece by its id (and name).
    """
    if len(command) > MAX_PIECE_CHARS:
        raise SavedGameError(f"{where}: piece {index + 1}: its command has {len(command)} characters: expected at "
                             f"most {MAX_PIECE_CHARS}")
    fields = split_sequence(command[2:], "/", 3, f"{where}: piece {index + 1}", "fields")
    piece_id = fields[0][:40]
    shown = piece_id if piece_id.isprintable() and " " not in piece_id else repr(piece_id)
    label = f"{where}: piece {shown or index + 1}"
    if len(fields) < 2 or not fields[1]:
        raise SavedGameError(f"{label}: an add command without a type: expected +/ID/TYPE/STATE")
    type_text, state_text = fields[1], fields[2] if len(fields) > 2 else ""
    if type_text == "stack":
        state = split_sequence(state_text, ";", 3 + 10_000, label, "fields")
        return StackRecord(piece_id, state[0], tuple(s[:40] for s in state[3:] if s))
    types = _chain(type_text, label, "type")
    states = _chain(state_text, label, "state")
    states += [""] * (len(types) - len(states))
    basic = split_sequence(types[-1], ";", 16, label, "fields")
    if basic[0] != "piece":
        raise SavedGameError(f"{label}: its innermost trait is {basic[0][:20]!r}: expected the basic piece "
                             "('piece;...')")
    basic_name = basic[4] if len(basic) > 4 else ""
    label = f"{label} ({basic_name[:40]!r})"
    position = split_sequence(states[len(types) - 1], ";", 64, label, "fields")
    map_name = position[0][:80] if position else "null"
    x = _coordinate(position, 1, label) if map_name != "null" else None
    y = _coordinate(position, 2, label) if map_name != "null" else None
    piece = RawPiece(piece_id, basic_name, basic_name, basic[3] if len(basic) > 3 else "", map_name, x, y,
                     traits=len(types), index=index)
    _apply_traits(piece, types[:-1], states[:len(types) - 1], label)
    return piece


def _chain(text: str, label: str, what: str) -> list[str]:
    """The traits of a piece's type or state, outermost first (one level of tab encoding each)."""
    out = []
    rest: str | None = text
    while rest is not None:
        if len(out) >= MAX_PIECE_TRAITS:
            raise SavedGameError(f"{label}: more than {MAX_PIECE_TRAITS} traits in its {what}: expected at most "
                                 f"{MAX_PIECE_TRAITS}")
        parts = split_sequence(rest, "\t", 2, label, f"{what} traits")
        out.append(parts[0])
        rest = parts[1] if len(parts) > 1 else None
    return out


def _coordinate(position: list[str], i: int, label: str) -> int:
    text = position[i] if i < len(position) else ""
    axis = "xy"[i - 1]
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_SAVE_DIGITS:
        raise SavedGameError(f"{label}: position {axis} is {text[:20]!r}: expected a whole number of pixels")
    value = int(text)
    if abs(value) > MAX_SAVE_PIXEL:
        raise SavedGameError(f"{label}: position {axis} is {value} pixels: expected -{MAX_SAVE_PIXEL}.."
                             f"{MAX_SAVE_PIXEL} (no map reaches further)")
    return value


def _apply_traits(piece: RawPiece, types: list[str], states: list[str], label: str) -> None:
    """Fold the traits from the innermost out: the name's layers, markers, nationality, owner, hiding."""
    labels = []
    for trait, state in zip(reversed(types), reversed(states)):
        kind = trait.split(";", 1)[0]
        if kind == "emb2":
            piece.name = _layer_name(trait, state, piece.name, label)
        elif kind == "mark":
            keys = split_sequence(trait[5:], ",", 64, label, "marker keys")
            values = split_sequence(state, ",", 64, label, "marker values")
            for key, value in zip(keys, values + [""] * len(keys)):
                piece.properties.setdefault(key[:40], value[:80])
        elif kind == "PROP":
            parts = split_sequence(trait, ";", 8, label, "fields")
            if len(parts) > 1 and parts[1] == "Owner" and state and state != "null":
                piece.owner = piece.owner or state[:80]
        elif kind == "label":
            if state:
                labels.append(state[:200])
        elif kind in ("conceal", "concealment"):
            parts = split_sequence(trait, ";", 16, label, "fields")
            nation = parts[3] if kind == "conceal" and len(parts) > 3 else parts[2] if len(parts) > 2 else ""
            if nation and piece.nationality is None:
                piece.nationality = nation[:8].lower()
            if kind == "conceal" and state and not state.startswith("null"):
                piece.concealed = True
        elif kind == "hide":
            if state and state != "null":
                piece.hidden_by = state[:80]
        elif kind == "moved":
            piece.moved = state == "true"
    piece.labels = tuple(reversed(labels))  # outermost first, as VASSAL draws them
    if piece.nationality is None and "/" in piece.image:
        folder = piece.image.split("/", 1)[0].lower()
        if folder in NATIONS:
            piece.nationality = folder


def _layer_name(trait: str, state: str, name: str, label: str) -> str:
    """The name after an active layer (``emb2``): its level's name replaces, prefixes (``X +``) or appends
    (``+ X``); an inactive layer (value <= 0) or a level without a name leaves it."""
    parts = split_sequence(trait, ";", 64, label, "fields")
    if len(parts) <= 17:
        return name
    value_text = state.split(";", 1)[0]
    digits = value_text.lstrip("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_SAVE_DIGITS:
        return name
    value = int(value_text)
    names = split_sequence(parts[17], ",", 1000, label, "layer names")
    if value <= 0 or value > len(names) or not names[value - 1]:
        return name
    level_name = names[value - 1]
    if "+" not in level_name:
        return level_name
    before, _, after = level_name.partition("+")
    return f"{before}{name}{after}"
