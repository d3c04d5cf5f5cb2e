"""numba kernel of the targets' cover and the pairs' range in bulk LOS results (private; see
:func:`kernel.line_of_sight.inputs.cover_of`).

The cover rules are those of ``docs/los-semantics.md`` sections 2-4 (the
target's terrain, a wall/hedge hexside the LOS enters the target's hex by in
ASL, the uphill/downhill dice of CCN; none on a bridge deck).
"""

from __future__ import annotations

from kernel._jit import jit
from kernel.line_of_sight._hex.rules import RULESET_ASL, RULESET_CCN


@jit
def cover_and_range(ruleset, sources, source_levels, targets, target_levels, per_hex, side_cover, bridge_deck, col, y,
                    ground, entry_sides, max_dc, max_dy, width, uphill, downhill, cover, ranges):
    """Write ``cover[k]`` (of target ``targets[k]`` at ``target_levels[k]`` against source
    ``sources[k]``) and ``ranges[k]`` (hexes between them) for every pair ``k``."""
    for k in range(targets.shape[0]):
        a = sources[k]
        b = targets[k]
        dcol = col[b] - col[a]
        dy = y[b] - y[a]
        across = abs(dcol)
        ranges[k] = max(across, (across + abs(dy)) // 2)
        value = 0 if (bridge_deck[b] and target_levels[k] == 1) else per_hex[b]
        if ruleset == RULESET_ASL:
            if a != b:
                entry = entry_sides[(dcol + max_dc) * width + dy + max_dy]
                for d in range(6):
                    if (entry >> d) & 1 and side_cover[b, d] > value:
                        value = side_cover[b, d]
        elif ruleset == RULESET_CCN:
            viewer = ground[a] + source_levels[k]
            seen = ground[b] + target_levels[k]
            if seen > viewer:
                value += uphill
            if seen < viewer:
                value += downhill
        cover[k] = value
