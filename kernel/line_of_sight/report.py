"""A LOS report for people: the ends' levels and range, the steps that matter, the blind-hex arithmetic.

:func:`los_report` is the text of :meth:`kernel.LOSResult.explain` and of
``hexkernel los --explain``: the verdict line, the ends' levels and the
range, and only the steps that change something (a hindrance, a blind hex,
a block), each with its ranges from both ends and its level; for an ASL
blind hex it writes the A6.4 arithmetic of ``docs/los-semantics.md``
(section 2) with the numbers of this LOS, in levels.

The arithmetic's text lives here and only here, as module-level templates with
named ``{placeholders}`` filled by :meth:`str.format` (:func:`blind_arithmetic`
for the CLI and the pictures; a page can embed the same templates and fill
them itself): :data:`OBSTACLE_BLIND_FORMULA`, :data:`CREST_BLIND_FORMULA`,
:data:`BLIND_ENDS_TEXT`, :data:`BLIND_VERDICT` and :data:`NOT_BLIND_VERDICT`.
Their placeholders and units:

``{O}``, ``{G}``
    the obstacle's top (ground level + obstacle height), the bare crest's
    ground level, in levels; a half level is written ``.5`` (``1.5``).
``{two_O}``, ``{two_G}``
    twice that, a whole number (``3`` for ``1.5``).
``{S}``, ``{T}``
    the higher and the lower end's level (ground level + Location level).
``{high}``, ``{low}``
    the names of the higher and the lower end.
``{rS}``, ``{rT}``, ``{fifths}``
    the ranges in hexes from the higher end to the hex and from the hex to
    the lower end, and ``⌊rS/5⌋``.
``{zone}``
    the blind zone in hexes: the lower end is blind when ``rT ≤ zone``.

:func:`blind_values` gives the numbers as a dict keyed by these names.  With
``all_steps=True`` every step is listed, those with no effect too.
"""

from __future__ import annotations

#: The A6.4 test behind an obstacle (woods, building, orchard seen from above), in levels.  Placeholders:
#: ``{O}`` the obstacle's top (ground + obstacle height) in levels, a half level written ``.5`` (``1.5``);
#: ``{two_O}`` twice that, a whole number (``3``); ``{fifths}`` ``⌊rS/5⌋``, whole hexes; ``{S}`` and
#: ``{T}`` the higher and the lower end's level; ``{zone}`` the blind zone in hexes.
OBSTACLE_BLIND_FORMULA = ("obstacle top O = level {O}; blind zone = max(2·O + ⌊rS/5⌋ − S − T + 1, 1) "
                          "= max({two_O} + {fifths} − {S} − {T} + 1, 1) = {zone} hexes")
#: The A6.4 test behind a bare crest (a hill hex with no obstacle), in levels.  Placeholders as
#: :data:`OBSTACLE_BLIND_FORMULA`, with ``{G}`` the crest's ground level and ``{two_G}`` twice it.
CREST_BLIND_FORMULA = ("crest G = level {G}; blind zone = max(2·G + ⌊rS/5⌋ − S − T, 0) "
                       "= max({two_G} + {fifths} − {S} − {T}, 0) = {zone} hexes")
#: The ends of the test: ``{high}``/``{low}`` the names of the higher and the lower end, ``{S}``/``{T}``
#: their levels, ``{rS}`` the range in hexes from the higher end to the hex, ``{rT}`` from the hex to the
#: lower end.
BLIND_ENDS_TEXT = "higher end {high} at level {S}, lower end {low} at level {T}; rS = {rS}, rT = {rT}"
#: The verdict when ``rT ≤ zone`` (placeholders ``{rT}``, ``{zone}``).
BLIND_VERDICT = "rT = {rT} ≤ {zone}: blind"
#: The verdict when ``rT > zone``.
NOT_BLIND_VERDICT = "rT = {rT} > {zone}: not blind by this test (see docs/los-semantics.md section 2)"


def level_text(half: int) -> str:
    """A height given in half levels, written in levels with a half level as ``.5``.

    Examples
    --------
    >>> level_text(3), level_text(4), level_text(-1)
    ('1.5', '2', '-0.5')
    """
    return str(half // 2) if half % 2 == 0 else f"{half / 2:g}"


def blind_values(board, result, hex_name: str) -> dict:
    """The numbers of the A6.4 blind-hex test at one step of an ASL LOS, keyed by the templates' placeholders.

    Returns
    -------
    dict
        ``kind`` (``"obstacle"`` or ``"crest"``: which template applies), ``blind`` (bool), and every
        placeholder of :data:`OBSTACLE_BLIND_FORMULA`, :data:`CREST_BLIND_FORMULA`,
        :data:`BLIND_ENDS_TEXT` and the verdicts as text (levels written by :func:`level_text`).

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> v = blind_values(board, kernel.los(board, "71I4", "72M6"), "72K6")
    >>> v["kind"], v["O"], v["two_O"], v["fifths"], v["S"], v["T"], v["zone"], v["rT"], v["blind"]
    ('obstacle', '1', '2', '6', '3', '0', '6', '2', True)
    """
    ia, la = board.location(result.viewer)
    ib, lb = board.location(result.target)
    def height2(index, level):   # a rooftop sees from half a level lower (docs/los-semantics.md)
        return 2 * (int(board.ground_level[index]) + level) - int(level > 0 and board.is_rooftop(index, level))

    ends = sorted([(height2(ia, la), ia), (height2(ib, lb), ib)], reverse=True)
    (s2, high), (t2, low) = ends
    h = board.index(hex_name)
    rs, rt = board.distance(high, h), board.distance(h, low)
    ground = 2 * int(board.ground_level[h])
    obstacle = int(board.obstacle_height[h])
    if s2 != t2 and s2 > ground:   # B14.2: an orchard in season is an obstacle seen from above
        obstacle = max(obstacle, int(board.obstacle_from_above[h]))
    # in half levels the zone is (2·top + 2·⌊rS/5⌋ − S2 − T2 [+ 2]) // 2: the kernel's integer form
    top = ground + obstacle
    if obstacle > 0:
        zone = max((2 * top + 2 * (rs // 5) - s2 - t2 + 2) // 2, 1)
    else:
        zone = max((2 * top + 2 * (rs // 5) - s2 - t2) // 2, 0)
    values = {"kind": "obstacle" if obstacle > 0 else "crest", "blind": rt <= zone,
              "high": board.names[high], "low": board.names[low], "S": level_text(s2), "T": level_text(t2),
              "rS": str(rs), "rT": str(rt), "fifths": str(rs // 5), "zone": str(zone)}
    values.update({"O": level_text(top), "two_O": str(top)} if obstacle > 0
                  else {"G": level_text(top), "two_G": str(top)})
    return values


def blind_arithmetic(board, result, hex_name: str) -> str:
    """The A6.4 blind-hex test of one step, with the numbers of this LOS (ASL), in levels.

    Two lines: :data:`BLIND_ENDS_TEXT`, then :data:`OBSTACLE_BLIND_FORMULA` (or
    :data:`CREST_BLIND_FORMULA` where the hex has no obstacle) and the verdict, filled from
    :func:`blind_values`.  Levels are written in levels, a half level as ``.5``.

    Examples
    --------
    >>> import kernel
    >>> board = kernel.load("default")
    >>> print(blind_arithmetic(board, kernel.los(board, "71I4", "72M6"), "72K6"))
    higher end 71I4 at level 3, lower end 72M6 at level 0; rS = 34, rT = 2
    obstacle top O = level 1; blind zone = max(2·O + ⌊rS/5⌋ − S − T + 1, 1) = max(2 + 6 − 3 − 0 + 1, 1) = 6 hexes; rT = 2 ≤ 6: blind
    """
    values = blind_values(board, result, hex_name)
    formula = OBSTACLE_BLIND_FORMULA if values["kind"] == "obstacle" else CREST_BLIND_FORMULA
    verdict = BLIND_VERDICT if values["blind"] else NOT_BLIND_VERDICT
    return f"{BLIND_ENDS_TEXT.format(**values)}\n{formula.format(**values)}; {verdict.format(**values)}"


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
    LOS 71I4 -> 71I6 (asl, hex model): clear; hindrance +0; target cover 0...
      viewer 71I4: ground level 3; target 71I6: ground level 1; range 2
      no step has an effect (1 step; all_steps=True or --all-steps lists it)
    """
    ia, la = board.location(result.viewer)
    ib, lb = board.location(result.target)

    def where(index, level):
        if level and board.is_rooftop(index, level):
            return f"ground level {int(board.ground_level[index])}, rooftop (level {level}, seeing from {level - 0.5:g})"
        return f"ground level {int(board.ground_level[index])}" + (f", building level {level}" if level else "")

    lines = [result.headline,
             f"  viewer {result.viewer}: {where(ia, la)}; target {result.target}: {where(ib, lb)}; "
             f"range {board.distance(ia, ib)}"]
    matter = [s for s in result.steps if all_steps or s.effect != "none" or s.hindrance]
    for step in matter:
        h = board.index(step.hex)
        what = step.effect_text
        drm = f" +{step.hindrance}" if step.hindrance else ""
        rule = f" [{step.rule}]" if step.rule != "-" else ""
        lines.append(f"  {step.hex:<8} {step.kind:<17} {what}{drm}{rule}  (ground level "
                     f"{int(board.ground_level[h])}; range {board.distance(ia, h)} from the viewer, "
                     f"{board.distance(h, ib)} to the target)")
        if step.hex in result.smoke and (step.hindrance or all_steps):
            lines.append(f"           {result.smoke[step.hex]}")
        if step.effect == "blind" and board.ruleset.los_model == "asl" and result.model == "hex":
            first, second = blind_arithmetic(board, result, step.hex).split("\n")
            lines += [f"           A6.4: {first}", f"           {second}"]
    hidden = len(result.steps) - len(matter)
    if not result.steps:
        lines.append("  (no hex between the two ends affects this LOS)")
    elif not matter:
        lines.append(f"  no step has an effect ({hidden} step{'s' if hidden > 1 else ''}; all_steps=True or "
                     f"--all-steps lists {'them' if hidden > 1 else 'it'})")
    elif hidden:
        lines.append(f"  ({hidden} more step{'s' if hidden > 1 else ''} with no effect; all_steps=True or --all-steps "
                     f"lists {'them' if hidden > 1 else 'it'})")
    return "\n".join(lines)


def smoke_texts(board, counters) -> dict:
    """Hex name -> where the hex's SMOKE is (A24), for a LOS report: ``"SMOKE +3 at 15G5h1, levels 1 to
    3 of the hex"`` (its Location and the levels it fills); empty without counters."""
    if counters is None:
        return {}
    import numpy as np

    from kernel.maps.counters import counter_values, smoke_base_values

    smoke, height, _, _ = counter_values(board, counters)
    base = smoke_base_values(board, counters)
    return {board.names[h]: f"SMOKE +{int(smoke[h])} at {board.location_name(h, int(base[h]))}, levels "
                            f"{int(base[h])} to {int(base[h]) + int(height[h])} of the hex"
            for h in np.flatnonzero(smoke).tolist()}


def listed_steps(board, counters, keys, hindered):
    """The steps that matter of many ground-level LOS at once, walked as :meth:`~kernel.LOSResult.explain`
    walks one (the hex model; the interactive page's step lists).

    Parameters
    ----------
    board : Board
    counters : Counters or None
    keys : int64 array
        Pair ``k`` is viewer ``keys[k] // N``, target ``keys[k] % N`` (hex indices, both at ground level).
    hindered : bool array, one per key
        True: the pair's steps that add hindrance are listed, as ``(hex, DRM saturated at 127)``;
        False: its blind steps, as ``(hex, -1)``.

    Returns
    -------
    counts : uint8 array, one per key
        Entries per pair (at most 255, in walking order).
    hexes, values : int32 and int8 arrays
        The entries of every pair, pairs in the order of ``keys``.

    Examples
    --------
    >>> import numpy as np, kernel
    >>> board = kernel.load("default")
    >>> key = board.index("71I4") * len(board) + board.index("72M6")
    >>> counts, hexes, values = listed_steps(board, None, np.array([key]), np.array([False]))
    >>> int(counts[0]), [board.names[h] for h in hexes], values.tolist()
    (2, ['72G6', '72K6'], [-1, -1])
    """
    import numpy as np

    from kernel.line_of_sight._hex.queries import listed_steps_kernel
    from kernel.line_of_sight.counters import counter_tables, query_tables

    _, _, _, no_counters, arguments = query_tables(board, 0)
    on_map = no_counters if counters is None else counter_tables(board, counters, bulk=False)
    keys = np.ascontiguousarray(keys, np.int64)
    hindered = np.ascontiguousarray(hindered, np.bool_)
    return listed_steps_kernel(keys, hindered, len(board), *arguments, *on_map)
