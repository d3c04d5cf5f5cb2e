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
    steps : list of LOSStep
        Every hex (or hexside) that had an effect, from the viewer; decoded
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
        >>> sorted(data)[:3], type(data["steps"])
        (['blind', 'blocked_at', 'continuous_slope'], <class 'list'>)
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
        lines = [f"LOS {self.viewer} -> {self.target} ({self.ruleset}): {verdict}; "
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

    ``blocked_at`` is a hex index (-1: not blocked) and ``reason`` a code
    into :data:`REASONS`; ``range`` is the range in hexes between the two
    ends and ``cover`` the target's cover against the firing unit class, as
    :attr:`LOSResult.cover` gives it for one pair.
    """

    visible: np.ndarray
    hindrance: np.ndarray
    blocked_at: np.ndarray
    reason: np.ndarray
    blind: np.ndarray
    continuous_slope: np.ndarray
    range: np.ndarray
    cover: np.ndarray


@dataclass
class FieldOfFire:
    """Per-target results of :func:`field_of_fire` (arrays of length N)."""

    visible: np.ndarray
    hindrance: np.ndarray
    source: np.ndarray
    cover: np.ndarray
    sources: np.ndarray
