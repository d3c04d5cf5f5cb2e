"""What LOS queries return: the sentinel, reason names, one LOS with its explanation, batches, fields of fire."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from typing import Callable

import numpy as np

from kernel.line_of_sight._hex import rules


#: Sentinel of a blocked pair in LOS matrices and fields of fire.
BLOCKED = rules.BLOCKED


#: Names of the reasons a LOS is blocked (``LOSResult.reason``).
REASONS = (None, "hill", "obstacle", "hexside", "blind hex", "hindrance", "unit", "stairway", "inside building")


RULE_REFERENCE = {
    "asl": {"hill": "A6.2 hill", "obstacle": "A6.1 obstacle", "hexside": "B9.2 wall/hedge",
            "blind hex": "A6.4 blind hex", "hindrance": "B.10 hindrance", "unit": "-",
            "stairway": "VASL: levels of one hex without a stairway",
            "inside building": "VASL: A6.8 Example 2, the LOS must leave its building first"},
    "valor-victory": {"hill": "10.7 hill", "obstacle": "9 blocking terrain", "hexside": "9.4/10.101 hexside",
                      "blind hex": "-", "hindrance": "10.8-10.10 hindrance", "unit": "-"},
    "ccn": {"hill": "hill", "obstacle": "blocking terrain", "hexside": "hexside", "blind hex": "-",
            "hindrance": "-", "unit": "unit or leader"},
}


STEP_KINDS = ("interior", "hexside run", "vertex", "hexside crossing")


EFFECT_NAMES = ("none", "blind", "blocks")


@dataclass
class LOSStep:
    """One step of an explained LOS: a hex (or hexside) and what it did.

    See Also
    --------
    kernel.LOSResult : its ``steps`` are these.
    kernel.los : the LOS whose steps they are.

    Examples
    --------
    >>> import kernel
    >>> steps = kernel.los(kernel.load("default"), "71I4", "72M6").steps
    >>> step = next(step for step in steps if step.effect != "none")  # the first with an effect
    >>> step.hex, step.kind, step.effect, step.reason, step.rule, step.effect_text
    ('72G6', 'interior', 'blind', 'blind hex', 'A6.4 blind hex', 'blind')
    """

    hex: str
    kind: str
    effect: str
    hindrance: int
    reason: str | None
    rule: str

    @property
    def effect_text(self) -> str:
        """What the step did, in words: ``"blocks"``, ``"blind"``, ``"hindrance"`` (a DRM and nothing else) or ``"no effect"``.

        >>> LOSStep("71J5", "orchard", "none", 1, None, "B.10").effect_text
        'hindrance'
        """
        if self.effect != "none":
            return self.effect
        return "hindrance" if self.hindrance else "no effect"


def _plain(value):
    """A numpy array or scalar as plain Python data (lists, ints, bools), for ``to_dict``."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


@dataclass
class LOSResult:
    """The outcome of one LOS check (see ``docs/los-semantics.md`` section 5).

    The fields have the types :class:`PairsResult` gives per pair: a hex is
    an index (``blocked_at``, with its name in ``blocked_at_name``) and a
    reason a code into :data:`REASONS` (``reason``, with its name in
    :attr:`reason_name`).

    Attributes
    ----------
    viewer, target : str
        The two ends' Location names (``"71I4"``, ``"71P5h1"``).
    visible : bool
    hindrance : int
        Total hindrance DRM of all steps.
    blocked_at : int
        Index of the hex where the LOS is first blocked (from the viewer);
        -1 when it is not blocked.
    blocked_at_name : str or None
        That hex's name; None when the LOS is not blocked.
    reason : int
        Why it is blocked, a code into :data:`REASONS` (0: not blocked).
    blind : bool
        Blocked because the target is in a blind hex (A6.4).
    continuous_slope : bool
        The LOS is a continuous slope (B.5).
    cover : int
        The target's cover against the firing unit class (TEM, cover
        modifier or battle dice lost).
    ruleset : str
    model : str
        The LOS model that answered: ``"hex"``, ``"depiction"`` or ``"vasl"``.
    range : int
        The range in hexes between the two ends.
    steps : list of LOSStep
        Every hex (or hexside) that had an effect, from the viewer (in the
        depiction models: every run of art judged, from the end with the
        smaller index); decoded from the kernel's records on first use
        (``step_decoder``), so a caller that reads only the verdict does not
        pay for them.

    See Also
    --------
    kernel.los : the function that returns one.
    kernel.PairsResult : the same fields as arrays, for many pairs.
    kernel.LOSStep : one of its ``steps``.

    Examples
    --------
    >>> import kernel
    >>> result = kernel.los(kernel.load("default"), "71I4", "72M6")
    >>> result.visible, result.blocked_at_name, result.reason_name, result.blind, result.range
    (False, '72G6', 'blind hex', True, 36)
    >>> result.hindrance, result.cover, result.ruleset, result.model
    (0, 3, 'asl', 'hex')
    """

    viewer: str
    target: str
    visible: bool
    hindrance: int
    blocked_at: int
    blocked_at_name: str | None
    reason: int
    blind: bool
    continuous_slope: bool
    cover: int
    range: int
    ruleset: str
    model: str = "hex"
    step_decoder: Callable[[], list[LOSStep]] | None = field(default=None, repr=False, compare=False)
    #: The board the LOS was traced on (for :meth:`explain`'s levels and ranges; None: the steps alone).
    board: object = field(default=None, repr=False, compare=False)
    #: Hex name -> where its SMOKE is, for :meth:`explain` (``"SMOKE +3 at 15G5h1, levels 1 to 3"``).
    smoke: dict = field(default_factory=dict, repr=False, compare=False)

    def __repr__(self) -> str:
        verdict = "clear" if self.visible else f"blocked at {self.blocked_at_name} ({self.reason_name})"
        return f"<LOSResult {self.viewer} -> {self.target}: {verdict}; hindrance +{self.hindrance}, range {self.range}>"

    @property
    def reason_name(self) -> str | None:
        """The name of :attr:`reason` (``"hill"``, ``"obstacle"``, ``"hexside"``, ``"blind hex"``,
        ``"hindrance"``, ``"unit"``); None when the LOS is not blocked."""
        return REASONS[self.reason]

    @cached_property
    def steps(self) -> list[LOSStep]:
        """The explained steps (see the class docstring)."""
        return self.step_decoder() if self.step_decoder is not None else []

    def to_dict(self) -> dict:
        """The result as plain data (JSON-ready): every field, ``reason_name`` and the steps, each a dict.

        >>> import kernel
        >>> board = kernel.load("default")
        >>> data = kernel.los(board, "71I4", "72M6").to_dict()
        >>> data["blocked_at"], data["blocked_at_name"], data["reason"], data["reason_name"]
        (..., '72G6', 4, 'blind hex')
        >>> type(data["steps"])
        <class 'list'>
        """
        data = {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name not in ("step_decoder", "board")}
        data["reason_name"] = self.reason_name
        data["steps"] = [asdict(step) for step in self.steps]
        return data

    @property
    def headline(self) -> str:
        """The verdict in one line: the ends, the ruleset (and model), blocked or clear, hindrance, cover.

        >>> import kernel
        >>> board = kernel.load("default")
        >>> kernel.los(board, "71I4", "72M6").headline
        'LOS 71I4 -> 72M6 (asl, hex model): BLOCKED at 72G6 (blind hex); hindrance +0; target cover 3'
        """
        verdict = "clear" if self.visible else f"BLOCKED at {self.blocked_at_name} ({self.reason_name})"
        model = f", {self.model} model"
        return (f"LOS {self.viewer} -> {self.target} ({self.ruleset}{model}): {verdict}; "
                f"hindrance +{self.hindrance}; target cover {self.cover}"
                + ("; continuous slope" if self.continuous_slope else ""))

    def explain(self, all_steps: bool = False) -> str:
        """The LOS report of ``hexkernel los --explain``, the same text: the :attr:`headline`, the ends'
        levels and the range, and the steps that matter (a hindrance, a blind hex, a block), each with
        its rule, its ground level and ranges, and for an ASL blind hex the A6.4 arithmetic with this
        LOS's numbers (:func:`kernel.line_of_sight.report.los_report`).

        Parameters
        ----------
        all_steps : bool
            List every step of the trace, those with no effect too (``--all-steps``).

        Examples
        --------
        >>> import kernel
        >>> board = kernel.load("default")
        >>> print(kernel.los(board, "71I4", "72M6").explain())  # doctest: +ELLIPSIS
        LOS 71I4 -> 72M6 (asl, hex model): BLOCKED at 72G6 (blind hex); hindrance +0; target cover 3
          viewer 71I4: ground level 3; target 72M6: ground level 0; range 36
          72G6     interior          blind [A6.4 blind hex]  (ground level 0; range 30 from the viewer, 6 to the target)
                   A6.4: higher end 71I4 at level 3, lower end 72M6 at level 0; rS = 30, rT = 6
                   obstacle top O = level 1; blind zone = ... = 6 hexes; rT = 6 ≤ 6: blind
          72K6     interior          blind [A6.4 blind hex]  (ground level 0; range 34 from the viewer, 2 to the target)
        ...
          (33 more steps with no effect; all_steps=True or --all-steps lists them)
        """
        if self.board is not None:
            from kernel.line_of_sight.report import los_report

            return los_report(self.board, self, all_steps=all_steps)
        lines = [self.headline]  # a result made without its board: the steps alone
        for step in self.steps:
            if all_steps or step.effect != "none" or step.hindrance:
                what = step.effect_text
                drm = f" +{step.hindrance}" if step.hindrance else ""
                rule = f" [{step.rule}]" if step.rule != "-" else ""
                lines.append(f"  {step.hex:<8} {step.kind:<17} {what}{drm}{rule}")
        if not self.steps:
            lines.append("  (no hex between the two ends affects this LOS)")
        return "\n".join(lines)


@dataclass
class PairsResult:
    """Results of :func:`~kernel.line_of_sight.bulk.los_pairs`: the fields of :class:`LOSResult` as arrays.

    One entry per pair: shape ``(K,)`` for ``K`` pairs ``sources[k] ->
    targets[k]``, ``(K, M)`` for the cross product (``product=True``: row
    ``k`` is source ``k``, column ``m`` target ``m``).  ``blocked_at`` is a
    hex index (-1: not blocked) with its names in :attr:`blocked_at_name`,
    ``reason`` a code into :data:`REASONS` (0: not blocked) with its names in
    :attr:`reason_name`; ``hindrance`` and ``blocked_at`` are int32,
    ``range`` int32 and ``cover`` int16, as :class:`LOSResult` gives them for
    one pair.

    See Also
    --------
    kernel.los_pairs : the function that returns one.
    kernel.LOSResult : the same fields for one pair.
    kernel.los_matrix : hindrance or blocked only, for every pair of Locations.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> pairs = kernel.los_pairs(board, ["71I4", "71I4"], ["71I6", "72M6"])
    >>> one = kernel.los(board, "71I4", "72M6")
    >>> pairs.blocked_at_name[1] == one.blocked_at_name, pairs.reason_name[1] == one.reason_name
    (True, True)
    >>> int(pairs.blocked_at[1]) == one.blocked_at, int(pairs.reason[1]) == one.reason
    (True, True)
    """

    visible: np.ndarray
    hindrance: np.ndarray
    blocked_at: np.ndarray
    reason: np.ndarray
    blind: np.ndarray
    continuous_slope: np.ndarray
    range: np.ndarray
    cover: np.ndarray
    names: tuple = field(default=(), repr=False, compare=False)  # the board's hex names, for blocked_at_name

    def __repr__(self) -> str:
        return (f"<PairsResult of shape {self.visible.shape}: {int(self.visible.sum())} of {self.visible.size} "
                f"pairs visible>")

    def reshape(self, shape) -> "PairsResult":
        """The same result with every array reshaped (the cross product's ``(K, M)``)."""
        return PairsResult(*(getattr(self, f.name).reshape(shape) for f in fields(self) if f.name != "names"),
                           names=self.names)

    @property
    def blocked_at_name(self) -> np.ndarray:
        """Per pair, the name of the hex where the LOS is blocked (:attr:`LOSResult.blocked_at_name`):
        an object array of the result's shape, None where the pair is visible."""
        names = self.names
        flat = [names[h] if h >= 0 else None for h in self.blocked_at.ravel().tolist()]
        out = np.empty(len(flat), object)
        out[:] = flat
        return out.reshape(self.blocked_at.shape)

    @property
    def reason_name(self) -> np.ndarray:
        """Per pair, the name of the reason it is blocked (:attr:`LOSResult.reason_name`): an object
        array of the result's shape, None where the pair is visible."""
        flat = [REASONS[r] for r in self.reason.ravel().tolist()]
        out = np.empty(len(flat), object)
        out[:] = flat
        return out.reshape(self.reason.shape)

    def to_dict(self) -> dict:
        """Every field as (nested) lists, with ``blocked_at_name`` and ``reason_name`` (JSON-ready).

        >>> import kernel
        >>> board = kernel.load("default")
        >>> data = kernel.los_pairs(board, ["71I4"], ["71I6", "72M6"], product=True).to_dict()
        >>> data["visible"], data["reason_name"]
        ([[True, False]], [[None, 'blind hex']])
        """
        data = {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name != "names"}
        data["blocked_at_name"] = self.blocked_at_name.tolist()
        data["reason_name"] = self.reason_name.tolist()
        return data


class FieldOfFire:
    """What sources see of every hex: the result of both
    :func:`~kernel.line_of_sight.fields.field_of_fire` (the sources merged: arrays of shape ``(N,)``)
    and :func:`~kernel.line_of_sight.fields.fields_of_fire` (each source separately: ``(K, N)``).

    Attributes
    ----------
    visible : bool array
        Some source (the row's source) sees the hex.
    hindrance : int32 array
        Least hindrance DRM over the sources that see the hex,
        :data:`BLOCKED` (-1) where none does.
    source : int32 array
        Index into ``sources`` of the source that gives ``hindrance`` (the
        first of the best), -1 where none sees the hex; in a
        :func:`~kernel.line_of_sight.fields.fields_of_fire` result, the row's
        own source where it sees the hex.
    cover : int16 array
        The target's cover against its source (against the first source, or
        the row's, where none sees it), for the firing unit class; computed
        on first use.
    sources : int32 array (K,)
        The source hexes, in the order given.
    levels : int64 array (K,)
        Their Location levels.
    target_levels : int64 array (N,)
        The level of each target hex.
    model : str
        The LOS model that answered: ``"hex"``, ``"depiction"`` or ``"vasl"``.

    See Also
    --------
    kernel.field_of_fire : the sources merged, arrays of shape ``(N,)``.
    kernel.fields_of_fire : one row per source, ``(K, N)``.
    kernel.ThreatMap : how many sources see each hex.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> fire = kernel.field_of_fire(board, ["71I4", "72M6"])
    >>> fire.shape == (len(board),), fire.sources.tolist() == [board.index("71I4"), board.index("72M6")]
    (True, True)
    >>> seen = board.index("71I6")  # seen by the first source, not the second
    >>> bool(fire.visible[seen]), int(fire.source[seen]), int(fire.hindrance[seen])
    (True, 0, 0)
    >>> bool((fire.visible == (fire.hindrance != kernel.BLOCKED)).all())
    True
    """

    __slots__ = ("hindrance", "_source", "sources", "levels", "target_levels", "_visible", "_cover", "_cover_of",
                 "model", "__weakref__")

    def __init__(self, hindrance, source, sources, levels, target_levels, cover_of, visible=None, model="hex"):
        self.model = model
        self.hindrance = hindrance
        self._source = source  # None: one row per source, row k's own where it sees the hex (made on first use)
        self.sources = sources
        self.levels = levels
        self.target_levels = target_levels
        self._visible = visible
        self._cover = None
        self._cover_of = cover_of

    @property
    def visible(self) -> np.ndarray:
        if self._visible is None:
            self._visible = self.hindrance != BLOCKED
        return self._visible

    @property
    def source(self) -> np.ndarray:
        if self._source is None:
            rows = np.arange(self.hindrance.shape[0], dtype=np.int32)[:, None]
            self._source = np.where(self.visible, rows, np.int32(-1))
        return self._source

    @property
    def cover(self) -> np.ndarray:
        if self._cover is None:
            self._cover = self._cover_of(self)
        return self._cover

    @property
    def shape(self) -> tuple:
        """``(N,)`` for a merged field of fire, ``(K, N)`` for one row per source."""
        return self.hindrance.shape

    def to_dict(self) -> dict:
        """Every array as (nested) lists (JSON-ready)."""
        return {"model": self.model, **{name: _plain(getattr(self, name)) for name in
                ("visible", "hindrance", "source", "cover", "sources", "levels", "target_levels")}}

    def __repr__(self) -> str:
        return (f"<FieldOfFire of {len(self.sources)} source(s), shape {self.shape}, {self.model} model: "
                f"{int(self.visible.sum())} hexes seen>")
