"""A LOS report for people: the ends' levels and range, the steps that matter, the blind-hex arithmetic.

:meth:`kernel.LOSResult.explain` lists every step of a trace, most of them
"no effect".  :func:`los_report` keeps its verdict line, adds the ends'
levels and the range, and lists only the steps that change something (a
hindrance, a blind hex, a block), each with its ranges from both ends and
its level; for an ASL blind hex it writes the A6.4 arithmetic of
``docs/los-semantics.md`` (section 2) with the numbers of this LOS.  With
``all_steps=True`` every step is listed, as in ``explain()``.
"""

from __future__ import annotations


def _level(half: int) -> str:
    return str(half // 2) if half % 2 == 0 else f"{half / 2:g}"


def blind_arithmetic(board, result, hex_name: str) -> str:
    """The A6.4 blind-hex test of one step, with the numbers of this LOS (ASL).

    Heights in half levels: ``S2``/``T2`` the higher and lower ends
    (``2 × (ground + Location level)``), ``O`` the obstacle's top (``2 ×
    ground + obstacle height``) or ``G`` the crest's ground (``2 × ground``)
    where the hex has no obstacle; ``rS``/``rT`` the ranges from the higher end
    to the hex and from the hex to the lower end.
    """
    ia, la = board.location(result.viewer)
    ib, lb = board.location(result.target)
    ends = sorted([(2 * (int(board.ground_level[ia]) + la), ia), (2 * (int(board.ground_level[ib]) + lb), ib)],
                  reverse=True)
    (s2, high), (t2, low) = ends
    h = board.index(hex_name)
    rs, rt = board.distance(high, h), board.distance(h, low)
    ground = 2 * int(board.ground_level[h])
    obstacle = int(board.obstacle_height[h])
    if s2 != t2 and s2 > ground:   # B14.2: an orchard in season is an obstacle seen from above
        obstacle = max(obstacle, int(board.obstacle_from_above[h]))
    if obstacle > 0:
        top = ground + obstacle
        zone = max((2 * top + 2 * (rs // 5) - s2 - t2 + 2) // 2, 1)
        formula = (f"obstacle top O = {_level(top)} levels; blind zone = max((2·O + 2·⌊rS/5⌋ − S2 − T2 + 2)/2, 1) "
                   f"= max(({2 * top} + {2 * (rs // 5)} − {s2} − {t2} + 2)/2, 1) = {zone}")
    else:
        top = ground
        zone = max((2 * top + 2 * (rs // 5) - s2 - t2) // 2, 0)
        formula = (f"crest G = level {_level(top)}; blind zone = max((2·G + 2·⌊rS/5⌋ − S2 − T2)/2, 0) "
                   f"= max(({2 * top} + {2 * (rs // 5)} − {s2} − {t2})/2, 0) = {zone}")
    verdict = (f"rT = {rt} ≤ {zone}: blind" if rt <= zone
               else f"rT = {rt} > {zone}: not blind by this test (see docs/los-semantics.md section 2)")
    return (f"higher end {board.names[high]} at level {_level(s2)} (S2 = {s2}), lower end {board.names[low]} at "
            f"level {_level(t2)} (T2 = {t2}), rS = {rs}, {formula.split('; ')[0]};\n"
            f"{formula.split('; ')[1]} hexes; {verdict}")


def los_report(board, result, *, all_steps: bool = False) -> str:
    """A LOS report: verdict, ends, and the steps that matter (every step with ``all_steps``).

    Parameters
    ----------
    board : Board
    result : kernel.LOSResult
        The result of :func:`kernel.los` on ``board``.
    all_steps : bool
        List every step of the trace, "no effect" ones too.

    Returns
    -------
    str

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> print(los_report(board, kernel.los(board, "71I4", "71I6")))  # doctest: +ELLIPSIS
    LOS 71I4 -> 71I6 (asl): clear; hindrance +0; target cover 0...
      viewer 71I4: ground level 3; target 71I6: ground level 1; range 2
      no step has an effect (1 step; --all-steps lists it)
    """
    ia, la = board.location(result.viewer)
    ib, lb = board.location(result.target)

    def where(index, level):
        return f"ground level {int(board.ground_level[index])}" + (f", building level {level}" if level else "")

    lines = [result.explain().splitlines()[0],
             f"  viewer {result.viewer}: {where(ia, la)}; target {result.target}: {where(ib, lb)}; "
             f"range {board.distance(ia, ib)}"]
    matter = [s for s in result.steps if all_steps or s.effect != "none" or s.hindrance]
    for step in matter:
        h = board.index(step.hex)
        what = step.effect if step.effect != "none" else "no effect"
        drm = f" +{step.hindrance}" if step.hindrance else ""
        rule = f" [{step.rule}]" if step.rule != "-" else ""
        lines.append(f"  {step.hex:<8} {step.kind:<17} {what}{drm}{rule}  (ground level "
                     f"{int(board.ground_level[h])}; range {board.distance(ia, h)} from the viewer, "
                     f"{board.distance(h, ib)} to the target)")
        if step.effect == "blind" and board.ruleset.los_model == "asl" and result.model == "hex":
            first, second = blind_arithmetic(board, result, step.hex).split("\n")
            lines += [f"           A6.4: {first}", f"           {second}"]
    hidden = len(result.steps) - len(matter)
    if not result.steps:
        lines.append("  (no hex between the two ends affects this LOS)")
    elif not matter:
        lines.append(f"  no step has an effect ({hidden} step{'s' if hidden > 1 else ''}; --all-steps lists "
                     f"{'them' if hidden > 1 else 'it'})")
    elif hidden:
        lines.append(f"  ({hidden} more steps with no effect; --all-steps lists them)")
    return "\n".join(lines)
