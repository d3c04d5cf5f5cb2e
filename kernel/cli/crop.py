"""Cropping a picture to a region: ``--around HEX --radius N`` or ``--area HEX:HEX`` (every picture command)."""

from __future__ import annotations

import argparse

import numpy as np

from kernel.cli.common import UserError, parse_location


def radius_type(text: str) -> int:
    """argparse type of ``--radius``: a range of 0 or more hexes."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative: expected 0 or more hexes")
    return value


def add_crop_options(group) -> None:
    """Add ``--around``, ``--radius`` and ``--area`` to a parser's picture options."""
    group.add_argument("--around", metavar="HEX", help="crop the picture to the hexes within --radius of HEX")
    group.add_argument("--radius", type=radius_type, default=None, metavar="N",
                       help="with --around: range in hexes (default 6)")
    group.add_argument("--area", metavar="HEX:HEX",
                       help="crop the picture to the hexes whose centres lie in the rectangle between these two "
                            "hexes' centres (opposite corners), e.g. 71A1:71M10")


def picture_view(board, args):
    """The hex indices a picture is cropped to, or ``None`` for the whole map (UserError on a mistake)."""
    around, radius, area = getattr(args, "around", None), getattr(args, "radius", None), getattr(args, "area", None)
    if around and area:
        raise UserError("--around and --area both given: expected one of them")
    if radius is not None and not around:
        raise UserError(f"--radius {radius} needs --around HEX")
    if around:
        centre, _ = parse_location(board, around, "--around")
        distance = board.distance(np.full(len(board), centre), np.arange(len(board)))
        return np.flatnonzero(distance <= (6 if radius is None else radius))
    if area:
        corners = area.split(":")
        if len(corners) != 2 or not all(corners):
            raise UserError(f"--area {area!r}: expected two hexes at opposite corners, like 71A1:71M10")
        (a, _), (b, _) = (parse_location(board, c, "--area") for c in corners)
        x0, x1 = sorted((int(board.x[a]), int(board.x[b])))
        y0, y1 = sorted((int(board.y[a]), int(board.y[b])))
        return np.flatnonzero((board.x >= x0) & (board.x <= x1) & (board.y >= y0) & (board.y <= y1))
    return None
