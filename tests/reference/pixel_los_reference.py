"""Pixel-accurate LOS over VASL pixel grids, and its agreement with our hex-level LOS.

This is the yardstick for how well the hex model of an imported VASL board
(:mod:`kernel.importers.vasl.build`) reproduces the LOS that the board's *depiction* gives.
It is slow and literal, and shares nothing with the kernels but the reading of
the VASL files (``kernel.importers.vasl.build.read_board_files`` and its pixel-to-hex map):

* the LOS runs from the centre dot of the viewer's hex to the centre dot of
  the target's hex, one pixel at a time (``max(|dx|, |dy|)`` steps, each point
  rounded to its pixel);
* every pixel carries its ground elevation and its VASL terrain; the terrain's
  LOS role and height come from VASL's terrain table (``isLOSObstacle``,
  ``isLOSHindrance``, ``height``, ``isHalfLevelHeight``, ``split`` with
  ``isLowerLOSHindrance``), never from our ruleset;
* each pixel is judged by the ASL rules of ``docs/los-semantics.md`` section 2
  as if it were a hex of its own at that ground level: hills (``G > S`` blocks,
  bare crests may make the lower end blind), obstacles (``O > S`` same level,
  ``O >= S`` from above, blind hexes A6.4 with ranges counted in hexes from the
  pixel's hex), hexside obstacles (walls, hedges: no blind hexes; ignored
  within ``HEXSIDE_END_MARGIN`` pixels of the viewer's or target's hex, B9.2),
  continuous slope (B.5, on the pixels' levels) and hindrances (+1 per hex
  whose pixels hold an applicable hindrance, +6 blocks, B.10);
* pixels of the viewer's and target's own hexes never count;
* a terrain with a ``split`` and ``isLowerLOSHindrance`` (orchard: an
  obstacle one level high whose lower part is a hindrance) is a hindrance to
  a LOS at its own level (both ends at the pixel's ground level) and an
  obstacle to any other LOS [reading of the VASL table];
* the ends' levels are the elevations under their centre dots.

:func:`compare_board` measures, over a seeded sample of ground-level pairs,
how often ``kernel.los_matrix`` on the imported board agrees with this
walk on blocked versus clear, and sorts the disagreements into classes
(``classify``).  Run ``python -m tests.reference.pixel_los_reference`` to rebuild the
table of ``docs/vasl-agreement.md``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kernel.importers.vasl.files import VaslBoardFiles, read_board_files
from kernel.grid.pixels import UNIT_X, UNIT_Y
from kernel.importers.vasl.pixels import pixel_grid

#: Hexside-obstacle pixels (walls, hedges) closer than this to the viewer's or
#: target's hex belong to that hex's hexsides and are ignored (B9.2).
HEXSIDE_END_MARGIN = 7.0

#: The eight boards of ``../shared/vasl``.
BOARDS = ("bd01", "bd02", "bd03", "bd04", "bd06", "bd13", "bd14", "bd15")

# Unit vectors towards the N, NE and SE neighbours and half the centre distance.
_STEPS = np.array([[0.0, -2.0], [3.0, -1.0], [3.0, 1.0]]) * np.array([UNIT_X, UNIT_Y])
_HALF = np.hypot(_STEPS[:, 0], _STEPS[:, 1]) / 2
_UNITS = _STEPS / (2 * _HALF[:, None])


@dataclass
class PixelResult:
    """Outcome of one pixel walk."""

    blocked: bool
    reason: str | None = None          # "hill", "blind hill", "obstacle", "blind", "hexside", "hindrance"
    terrain: str | None = None         # VASL terrain name of the blocking pixel
    pixel: tuple[int, int] | None = None
    hex: int = -1                      # index (into the board's cells) of the blocking pixel's hex
    hindrance: int = 0
    hindrance_hexes: list[int] = field(default_factory=list)
    continuous_slope: bool = False
    levels: tuple[int, int] = (0, 0)   # the ends' levels (centre dots)


class PixelBoard:
    """A VASL board's pixels, ready for pixel walks.

    Parameters
    ----------
    files : kernel.importers.vasl.build.VaslBoardFiles
        The board's files (``kernel.importers.vasl.build.read_board_files(path)``).
    orchards_in_season : bool
        Use VASL's ``Orchard`` row (else ``Orchard, Out of Season``).
    """

    def __init__(self, files: VaslBoardFiles, orchards_in_season: bool = True):
        self.files = files
        los = files.los_data
        self.grid = pixel_grid(los.width, los.height, los.grid_width, los.grid_height)
        self.hex_of = self.grid.hex_of
        self.ground2 = 2 * los.elevation.astype(np.int32)
        self.code = los.terrain
        self.width, self.height = los.grid_width, los.grid_height
        table = files.terrain_table
        by_name = {t.name: t for t in table.values()}
        self.names = {code: t.name for code, t in table.items()}
        # per-code roles (lookup tables over the 256 possible codes)
        self.obstacle_h = np.zeros(256, np.int32)      # obstacle height, half levels (0 = none)
        self.hindrance_h = np.zeros(256, np.int32)     # hindrance height, half levels (0 = none)
        self.split_hindrance = np.zeros(256, np.bool_)  # hindrance to same-level LOS, obstacle otherwise
        self.hexside = np.zeros(256, np.bool_)          # hexside obstacle (wall, hedge, bocage)
        for code, t in table.items():
            if not 0 <= code <= 255:
                continue
            if t.name == "Orchard" and not orchards_in_season and "Orchard, Out of Season" in by_name:
                t = by_name["Orchard, Out of Season"]
            height = max(t.height_half_levels, 1)
            if t.obstacle:
                self.obstacle_h[code] = height
                self.hexside[code] = t.category == "HEXSIDE"
                self.split_hindrance[code] = t.split > 0 and t.lower_hindrance
            elif t.hindrance:
                self.hindrance_h[code] = height
        # axial coordinates of the hexes, for ranges
        cols = np.array([c for c, _ in self.grid.cells])
        nums = np.array([n for _, n in self.grid.cells])
        y = 2 * nums - 1 + cols % 2
        self.q = cols
        self.r = (y - cols - 1) // 2

    # ------------------------------------------------------------------ helpers
    def hex_range(self, a, b):
        dq = self.q[a] - self.q[b]
        dr = self.r[a] - self.r[b]
        return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2

    def centre(self, i: int) -> tuple[float, float]:
        return float(self.grid.centre_x[i]), float(self.grid.centre_y[i])

    def centre_pixel(self, i: int) -> tuple[int, int]:
        x, y = self.centre(i)
        return min(int(round(x)), self.width - 1), min(int(round(y)), self.height - 1)

    def end_level2(self, i: int) -> int:
        """An end's level in half levels: the elevation under its centre dot."""
        x, y = self.centre_pixel(i)
        return int(self.ground2[x, y])

    def _near_end(self, px, py, end: int) -> np.ndarray:
        """Pixels within the end hex's hexagon grown by HEXSIDE_END_MARGIN."""
        cx, cy = self.centre(end)
        dx, dy = px - cx, py - cy
        inside = np.ones(px.shape, np.bool_)
        for k in range(3):
            inside &= np.abs(dx * _UNITS[k, 0] + dy * _UNITS[k, 1]) <= _HALF[k] + HEXSIDE_END_MARGIN
        return inside

    # ------------------------------------------------------------------ the walk
    def walk(self, a: int, b: int) -> PixelResult:
        """The pixel LOS between the ground levels of hexes ``a`` and ``b`` (cell indices)."""
        la, lb = self.end_level2(a), self.end_level2(b)
        if a == b:
            return PixelResult(False, levels=(la // 2, lb // 2))
        ax, ay = self.centre(a)
        bx, by = self.centre(b)
        steps = int(np.ceil(max(abs(bx - ax), abs(by - ay))))
        t = np.arange(steps + 1) / steps
        px = np.clip(np.rint(ax + t * (bx - ax)).astype(np.int64), 0, self.width - 1)
        py = np.clip(np.rint(ay + t * (by - ay)).astype(np.int64), 0, self.height - 1)
        hexes = self.hex_of[px, py]
        keep = (hexes != a) & (hexes != b)
        px, py, hexes = px[keep], py[keep], hexes[keep]
        code = self.code[px, py]
        g = self.ground2[px, py]
        # the higher end: S2, rS from it; the lower: T2, rT to it
        if la >= lb:
            high, low, s2, t2 = a, b, la, lb
        else:
            high, low, s2, t2 = b, a, lb, la
            px, py, hexes, code, g = px[::-1], py[::-1], hexes[::-1], code[::-1], g[::-1]
        rs = self.hex_range(high, hexes)
        rt = self.hex_range(hexes, low)
        same = s2 == t2
        slope = (not same) and hexes.size > 0 and bool(np.all(s2 - g == 2 * rs))
        result = PixelResult(False, levels=(la // 2, lb // 2), continuous_slope=slope)

        obst = self.obstacle_h[code]
        hexside = self.hexside[code]
        if hexside.any():
            ignore = hexside & (self._near_end(px, py, a) | self._near_end(px, py, b))
            obst = np.where(ignore, 0, obst)
        split = self.split_hindrance[code] & (obst > 0)
        hind = self.hindrance_h[code].copy()
        # split terrain (orchard): a hindrance to a LOS at its own level, else an obstacle
        at_own_level = same & (g == s2)
        hind = np.where(split & at_own_level, obst, hind)
        obst = np.where(split & at_own_level, 0, obst)
        top = g + obst

        effect = np.zeros(g.shape, np.int8)   # 0 none, 1 blind, 2 block
        why = np.zeros(g.shape, np.int8)      # 1 hill, 2 blind hill, 3 obstacle, 4 blind, 5 hexside
        if slope:
            # every pixel is judged as a same-level LOS at its own ground level
            block = obst > 0
            effect[block] = 2
            why[block] = np.where(hexside[block], 5, 3)
            hind_applies = hind > 0
        else:
            ground_block = g > s2
            effect[ground_block] = 2
            why[ground_block] = 1
            if not same:
                bound = np.maximum((2 * g + 2 * (rs // 5) - s2 - t2) // 2, 0)
                crest = (g > t2) & (g <= s2) & (rt <= bound) & (effect == 0)
                effect[crest] = 1
                why[crest] = 2
            has = obst > 0
            if same:
                ob_block = has & (top > s2)
            else:
                ob_block = has & (top >= s2)
            new = ob_block & (effect < 2)
            effect[new] = 2
            why[new] = np.where(hexside[new], 5, 3)
            if not same:
                bound = np.maximum((2 * top + 2 * (rs // 5) - s2 - t2 + 2) // 2, 1)
                blind = has & ~hexside & (top > t2) & (top < s2) & (rt <= bound) & (effect == 0)
                effect[blind] = 1
                why[blind] = 4
            hind_top = g + hind
            if same:
                hind_applies = (hind > 0) & (hind_top > s2) & (g <= s2)
            else:
                hind_applies = (hind > 0) & (hind_top >= s2)
        # hindrance: +1 per hex entered whose pixels hold an applicable hindrance
        first_hind = {}
        for k in np.flatnonzero(hind_applies):
            first_hind.setdefault(int(hexes[k]), int(k))
        order = sorted(first_hind.items(), key=lambda item: item[1])
        blocking = np.flatnonzero(effect > 0)
        first_block = int(blocking[0]) if blocking.size else None
        cap_at = int(order[5][1]) if len(order) >= 6 else None
        result.hindrance = len(order)
        result.hindrance_hexes = [h for h, _ in order]
        if first_block is None and cap_at is None:
            return result
        result.blocked = True
        if cap_at is not None and (first_block is None or cap_at < first_block):
            k = cap_at
            result.reason = "hindrance"
        else:
            k = first_block
            result.reason = {1: "hill", 2: "blind hill", 3: "obstacle", 4: "blind", 5: "hexside"}[int(why[k])]
        result.pixel = (int(px[k]), int(py[k]))
        result.hex = int(hexes[k])
        result.terrain = self.names.get(int(code[k]), str(int(code[k])))
        return result


# ============================================================================
# Agreement with the hex-level LOS
# ============================================================================


@dataclass
class Agreement:
    """Agreement of one board: pairs compared, agreeing pairs, disagreement classes."""

    board: str
    pairs: int
    agree: int
    classes: Counter
    examples: dict[str, list[tuple[str, str]]]

    @property
    def percent(self) -> float:
        return 100.0 * self.agree / self.pairs if self.pairs else 100.0


def sample_pairs(n_hexes: int, count: int | None, seed: int) -> np.ndarray:
    """``count`` distinct unordered pairs ``i < j`` (all pairs when ``count`` is None)."""
    i, j = np.triu_indices(n_hexes, k=1)
    pairs = np.stack([i, j], axis=1)
    if count is None or count >= len(pairs):
        return pairs
    rng = np.random.default_rng(seed)
    chosen = rng.choice(len(pairs), size=count, replace=False)
    return pairs[np.sort(chosen)]


def _obstacle_kind(board, index: int) -> str | None:
    """The LOS obstacle terrain of a hex of the compiled board ("woods", "building", ...)."""
    rs = board.ruleset
    for name in board.terrain_of(index):
        if rs.terrain_los_role[rs.terrain_index(name)] == 2:
            return "building" if name.endswith("building") else name
    return None


def _vasl_kind(name: str) -> str:
    lowered = name.lower()
    if "building" in lowered:
        return "building"
    return lowered


def classify(pixel_board: PixelBoard, board, cells_to_index, a: int, b: int, pixel: PixelResult, hex_result) -> str:
    """The class of one disagreement between a pixel walk and ``kernel.los`` (same pair, ground level)."""
    ia, ib = int(cells_to_index[a]), int(cells_to_index[b])
    hex_levels = (int(board.ground_level[ia]), int(board.ground_level[ib]))
    if pixel.levels != hex_levels:
        return "end level: centre dot elevation differs from the hex's dominant level"
    if not hex_result.visible:   # the hex model blocks, the depiction does not
        reason = hex_result.reason
        at = board.index(hex_result.blocked_at)
        kind = _obstacle_kind(board, at)
        if reason == "obstacle" or (reason == "blind hex" and kind is not None and int(board.obstacle_height[at]) > 0):
            if kind is None:
                return f"hex blocks ({reason})"
            return f"{kind} hex crossed, depiction smaller than the hex (not met)"
        if reason == "hindrance":
            return "hindrance: hex model counts more hindrance hexes"
        if reason == "hexside":
            return "wall/hedge hexside crossed, depiction not met (gap, end)"
        return "hill hex crossed where the depicted hill is lower (hill smaller than its hexes)"
    # the depiction blocks, the hex model does not
    reason, terrain = pixel.reason, pixel.terrain or "?"
    if reason in ("obstacle", "blind"):
        kind = _vasl_kind(terrain)
        hex_kind = _obstacle_kind(board, int(cells_to_index[pixel.hex]))
        if kind == "orchard":
            orchard = board.has_terrain("orchard")
            crossed = [board.index(step.hex) for step in hex_result.steps] + [int(cells_to_index[pixel.hex])]
            if any(orchard[h] for h in crossed):
                return "orchard: VASL obstacle to a LOS from above, asl.toml hindrance"
        if hex_kind == kind:
            return f"{kind} hex touched only at a vertex or along a hexside (A6.1), depiction met"
        return f"{kind} depiction spills into a hex not imported as {kind}"
    if reason == "hexside":
        if any(step.kind == "hexside run" for step in hex_result.steps):
            return "wall/hedge met by a hexspine LOS (along hexsides, through wall vertices)"
        return "wall/hedge depiction met where no imported hexside is crossed (vertex, off-hexside)"
    if reason == "hindrance":
        return "hindrance: depiction crosses more hindrance hexes"
    if terrain == "Elevated Road":
        return "elevated road embankment (level-1 pixels) in a level-0 hex"
    if "Bridge" in terrain:
        return "bridge deck pixels above the depression beneath it, met like a hill"
    hex_level = int(board.ground_level[cells_to_index[pixel.hex]])
    if hex_level < 0:
        return "depression (stream, sunken road) narrower than its hexes: level-0 banks inside a level -1 hex"
    return "hill depiction reaches beyond its hexes (depicted level above the hex's level)"


def compare_board(path, sample: int | None = 3000, seed: int = 5, shared_metadata=None,
                  spec=None, keep_examples: int = 1) -> Agreement:
    """Agreement of ``kernel.los_matrix`` on the imported board with the pixel walk.

    Parameters
    ----------
    path : str or Path
        VASL board folder or archive.
    sample : int or None
        Number of random ground-level pairs (seeded); ``None``: all pairs.
    seed : int
        Seed of the sample.
    spec : BoardSpec, optional
        An already imported spec of the board (default: import it).
    """
    from kernel import los_matrix
    from kernel import BLOCKED
    from kernel import los
    from kernel.importers.vasl.build import compile_spec, read_vasl_board

    files = read_board_files(path, shared_metadata)
    pixel_board = PixelBoard(files)
    if spec is None:
        spec = read_vasl_board(path, shared_metadata)
    board = compile_spec(spec)
    names = [f"{spec.id}{spec.local_name(cell)}" for cell in pixel_board.grid.cells]
    cells_to_index = np.array([board.index(name) for name in names])
    matrix = los_matrix(board)
    pairs = sample_pairs(len(names), sample, seed)
    classes: Counter = Counter()
    examples: dict[str, list[tuple[str, str]]] = {}
    agree = 0
    for a, b in pairs:
        pixel = pixel_board.walk(int(a), int(b))
        hex_blocked = matrix[cells_to_index[a], cells_to_index[b]] == BLOCKED
        if hex_blocked == pixel.blocked:
            agree += 1
            continue
        hex_result = los(board, int(cells_to_index[a]), int(cells_to_index[b]))
        label = classify(pixel_board, board, cells_to_index, int(a), int(b), pixel, hex_result)
        classes[label] += 1
        found = examples.setdefault(label, [])
        if len(found) < keep_examples:
            found.append((names[a], names[b]))
    return Agreement(Path(path).name, len(pairs), agree, classes, examples)


def agreement_table(results: list[Agreement], top: int = 3) -> str:
    """Markdown table of agreement results."""
    lines = ["| board | pairs | agreement | top disagreement classes (count; example pair) |",
             "| --- | ---: | ---: | --- |"]
    for r in results:
        shown = "; ".join(f"{label} ({count}; e.g. {r.examples[label][0][0]}-{r.examples[label][0][1]})"
                          for label, count in r.classes.most_common(top)) or "none"
        lines.append(f"| {r.board} | {r.pairs} | {r.percent:.1f} % | {shown} |")
    total = sum(r.pairs for r in results)
    agree = sum(r.agree for r in results)
    lines.append(f"| all | {total} | {100.0 * agree / total:.1f} % | |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vasl", default=str(Path(__file__).resolve().parents[3] / "shared" / "vasl"),
                        help="folder holding the VASL boards (default: ../shared/vasl)")
    parser.add_argument("--boards", nargs="*", default=list(BOARDS))
    parser.add_argument("--sample", type=int, default=3000, help="pairs per board (0: all pairs)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--all-classes", action="store_true", help="list every disagreement class per board")
    parser.add_argument("--examples", type=int, default=1, help="example pairs kept per class")
    args = parser.parse_args(argv)
    results = []
    for name in args.boards:
        result = compare_board(Path(args.vasl) / name, None if args.sample == 0 else args.sample, args.seed,
                               keep_examples=args.examples)
        results.append(result)
        print(f"{name}: {result.agree}/{result.pairs} = {result.percent:.1f} %", file=sys.stderr, flush=True)
        if args.all_classes:
            for label, count in result.classes.most_common():
                print(f"    {count:5d}  {label}  e.g. {' '.join(a + '-' + b for a, b in result.examples[label])}",
                      file=sys.stderr)
    print(agreement_table(results, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
