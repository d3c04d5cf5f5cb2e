"""What LOS queries return: the sentinel, reason names, one LOS with its explanation, batches, fields of fire."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from typing import Callable

import numpy as np

from kernel.line_of_sight import _rules as rules


#: Sentinel of a blocked pair in LOS matrices and fields of fire.
BLOCKED = rules.BLOCKED


#: Names of the reasons a LOS is blocked (``LOSResult.reason``).
REASONS = (None, "hill", "obstacle", "hexside", "blind hex", "hindrance", "unit")


RULE_REFERENCE = {
    "asl": {"hill": "A6.2 hill", "obstacle": "A6.1 obstacle", "hexside": "B9.2 wall/hedge",
            "blind hex": "A6.4 blind hex", "hindrance": "B.10 hindrance", "unit": "-"},
    "valor-victory": {"hill": "10.7 hill", "obstacle": "9 blocking terrain", "hexside": "9.4/10.101 hexside",
                      "blind hex": "-", "hindrance": "10.8-10.10 hindrance", "unit": "-"},
    "ccn": {"hill": "hill", "obstacle": "blocking terrain", "hexside": "hexside", "blind hex": "-",
            "hindrance": "-", "unit": "unit or leader"},
}


STEP_KINDS = ("interior", "hexside run", "vertex", "hexside crossing")


EFFECT_NAMES = ("none", "blind", "blocks")


@dataclass
class LOSStep:
    """One step of an explained LOS: a hex (or hexside) and what it did."""

    hex: str
    kind: str
    effect: str
    hindrance: int
    reason: str | None
    rule: str


@dataclass
class LOSResult:
    """The outcome of one LOS check (see ``docs/los-semantics.md`` section 5).

    Attributes
    ----------
    visible : bool
    hindrance : int
        Total hindrance DRM of all steps.
    blocked_at : str or None
        Name of the hex where the LOS is first blocked (from the viewer).
    reason : str or None
        ``"hill"``, ``"obstacle"``, ``"hexside"``, ``"blind hex"``,
        ``"hindrance"`` or ``"unit"``.
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
        The range in hexes between the two ends (:func:`~kernel.los` always
        gives it; -1 only in a result built without it, the fields before it
        keeping their 0.1 positions).
    blocked_at_index : int
        The hex index of ``blocked_at`` (-1 when not blocked): what
        :class:`PairsResult` and :func:`~kernel.line_of_sight.bulk.los_pairs`
        give for the same pair.
    steps : list of LOSStep
        Every hex (or hexside) that had an effect, from the viewer (in the
        depiction models: every run of art judged, from the end with the
        smaller index); decoded
        from the kernel's records on first use (``step_decoder``), so a
        caller that reads only the verdict does not pay for them.
    """

    viewer: str
    target: str
    visible: bool
    hindrance: int
    blocked_at: str | None
    reason: str | None
    blind: bool
    continuous_slope: bool
    cover: int
    ruleset: str
    model: str = "hex"
    range: int = -1
    blocked_at_index: int = -1
    step_decoder: Callable[[], list[LOSStep]] | None = field(default=None, repr=False, compare=False)

    @cached_property
    def steps(self) -> list[LOSStep]:
        """The explained steps (see the class docstring)."""
        return self.step_decoder() if self.step_decoder is not None else []

    def to_dict(self) -> dict:
        """The result as plain data (JSON-ready): every field and the steps, each a dict.

        >>> import kernel
        >>> board = kernel.load("default")
        >>> data = kernel.los(board, "71I4", "71I6").to_dict()
        >>> sorted(data)[:4], type(data["steps"])
        (['blind', 'blocked_at', 'blocked_at_index', 'continuous_slope'], <class 'list'>)
        """
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "step_decoder"}
        data["steps"] = [asdict(step) for step in self.steps]
        return data

    def explain(self) -> str:
        """A LOS report: every hex that mattered, its effect and the rule.

        >>> import kernel
        >>> board = kernel.load("default")
        >>> print(kernel.los(board, "71I4", "71I6").explain().splitlines()[0])  # doctest: +ELLIPSIS
        LOS 71I4 -> 71I6 (asl): ...
        """
        verdict = "clear" if self.visible else f"BLOCKED at {self.blocked_at} ({self.reason})"
        model = "" if self.model == "hex" else f", {self.model} model"
        lines = [f"LOS {self.viewer} -> {self.target} ({self.ruleset}{model}): {verdict}; "
                 f"hindrance +{self.hindrance}; target cover {self.cover}"
                 + ("; continuous slope" if self.continuous_slope else "")]
        for step in self.steps:
            what = step.effect if step.effect != "none" else "no effect"
            drm = f" +{step.hindrance}" if step.hindrance else ""
            rule = f" [{step.rule}]" if step.rule != "-" else ""
            lines.append(f"  {step.hex:<8} {step.kind:<17} {what}{drm}{rule}")
        if not self.steps:
            lines.append("  (no hex between the two ends affects this LOS)")
        return "\n".join(lines)


@dataclass
class PairsResult:
    """Results of :func:`~kernel.line_of_sight.bulk.los_pairs`, one entry per pair (numpy arrays).

    The fields of :class:`LOSResult`, as arrays: ``blocked_at`` is a hex
    index (-1: not blocked; :attr:`LOSResult.blocked_at_index`, and
    :meth:`blocked_at_names` gives the names :attr:`LOSResult.blocked_at`
    holds) and ``reason`` a code into :data:`REASONS` (:meth:`reason_names`);
    ``range`` is the range in hexes between the two ends and ``cover`` the
    target's cover against the firing unit class, as :attr:`LOSResult.range`
    and :attr:`LOSResult.cover` give them for one pair.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> pairs = kernel.los_pairs(board, ["71I4", "71I4"], ["71I6", "72M6"])
    >>> one = kernel.los(board, "71I4", "72M6")
    >>> pairs.blocked_at_names(board)[1] == one.blocked_at, pairs.reason_names()[1] == one.reason
    (True, True)
    >>> int(pairs.blocked_at[1]) == one.blocked_at_index, int(pairs.range[1]) == one.range
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

    def blocked_at_names(self, board) -> list:
        """Per pair, the name of the hex where the LOS is blocked, as :attr:`LOSResult.blocked_at`.

        Parameters
        ----------
        board : Board
            The board the pairs were evaluated on.

        Returns
        -------
        list of str or None
            One entry per pair; None where the pair is visible.
        """
        names = board.names
        return [names[h] if h >= 0 else None for h in self.blocked_at.tolist()]

    def reason_names(self) -> list:
        """Per pair, the name of the reason it is blocked, as :attr:`LOSResult.reason`.

        Returns
        -------
        list of str or None
            One entry per pair (:data:`REASONS`); None where the pair is visible.
        """
        return [REASONS[r] for r in self.reason.tolist()]


@dataclass
class FieldOfFire:
    """Per-target results of :func:`field_of_fire` (arrays of length N)."""

    visible: np.ndarray
    hindrance: np.ndarray
    source: np.ndarray
    cover: np.ndarray
    sources: np.ndarray
