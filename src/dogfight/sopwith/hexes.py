"""Hex geometry of the Sopwith board: coordinates, facings, distance, labels.

The board is "a large hexagon with ten hexagons on a side" of flat-topped hexes, so a
plane can face straight up the page ("planes face a hex side"). A hex is written in
axial coordinates ``Hex(q, r)`` (the cube coordinate ``s`` is ``-q - r``); the centre of
the board is ``Hex(0, 0)`` and a board of side ``n`` holds every hex with
``max(|q|, |r|, |s|) <= n - 1``: ``3n(n-1) + 1`` hexes, 271 for side 10.

Facings are numbered clockwise from north: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW. Facing ``f``
points through a side of the hex at the neighbour ``neighbour(h, f)``; ``f - 1`` is the
front-left side and ``f + 1`` the front-right side.

Players and the Games Master name hexes by a label: the column letter (``A`` at the
far west, the centre column is the ``side``-th letter) and the row number counted from
the top of the board, rows running across the board in the usual zig-zag of a printed
hex map (odd columns half a hex lower). The centre of a side-10 board is ``J10``.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import NamedTuple

FACING_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
"""Compass names of the six facings, clockwise from north."""

DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""Axial step through each hex side, indexed by facing."""

MAX_SIDE = 13
"""Largest board side with single-letter column labels (2 * 13 - 1 = 25 columns)."""


class Hex(NamedTuple):
    """One hex in axial coordinates."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r


def rotate(facing: int, sixths: int) -> int:
    """The facing ``sixths`` hex sides clockwise (negative: anticlockwise) of ``facing``."""
    return (facing + sixths) % 6


def neighbour(h: Hex, facing: int, steps: int = 1) -> Hex:
    """The hex ``steps`` hexes from ``h`` through the side ``facing`` faces."""
    dq, dr = DIRECTIONS[facing % 6]
    return Hex(h.q + dq * steps, h.r + dr * steps)


def distance(a: Hex, b: Hex) -> int:
    """Hexes between ``a`` and ``b`` (a neighbour is at distance 1)."""
    dq = a.q - b.q
    dr = a.r - b.r
    return max(abs(dq), abs(dr), abs(dq + dr))


def radius(h: Hex) -> int:
    """Distance from the centre of the board."""
    return max(abs(h.q), abs(h.r), abs(h.q + h.r))


def on_board(h: Hex, side: int) -> bool:
    """Whether ``h`` is one of the board's hexes."""
    return radius(h) <= side - 1


@lru_cache(maxsize=16)
def board_hexes(side: int) -> tuple[Hex, ...]:
    """Every hex of a board of ``side`` hexes a side, column by column, top to bottom."""
    n = side - 1
    return tuple(
        Hex(q, r) for q in range(-n, n + 1) for r in range(max(-n, -q - n), min(n, -q + n) + 1)
    )


def corner(side: int, facing: int) -> Hex:
    """The corner hex of the board in the direction ``facing`` from the centre."""
    return neighbour(Hex(0, 0), facing, side - 1)


def ray(h: Hex, facing: int, length: int) -> tuple[Hex, ...]:
    """The straight row of hexes leaving ``h`` through side ``facing``: distances 1 to
    ``length`` (``h`` itself excluded)."""
    dq, dr = DIRECTIONS[facing % 6]
    return tuple(Hex(h.q + dq * k, h.r + dr * k) for k in range(1, length + 1))


def facing_name(facing: int) -> str:
    return FACING_NAMES[facing % 6]


def parse_facing(text: str) -> int:
    """A facing from its compass name (``N``, ``ne``...); ``ValueError`` otherwise."""
    try:
        return FACING_NAMES.index(text.strip().upper())
    except ValueError:
        raise ValueError(f"{text!r} is not a facing; facings: {', '.join(FACING_NAMES)}") from None


# --- labels ---------------------------------------------------------------------------


def offset_row(h: Hex) -> int:
    """The zig-zag row of ``h`` (0 at the centre row), odd columns half a hex lower."""
    return h.r + (h.q - (h.q & 1)) // 2


def label(h: Hex, side: int) -> str:
    """The map label of a hex: column letter and row number (``J10`` is the centre of a
    side-10 board)."""
    n = side - 1
    return f"{chr(ord('A') + h.q + n)}{offset_row(h) + n + 1}"


_LABEL = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")


def parse_label(text: str, side: int) -> Hex:
    """The hex a label names; ``ValueError`` (saying what is allowed) when it names none."""
    n = side - 1
    last = chr(ord("A") + 2 * n)
    match = _LABEL.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not a hex label (a column A-{last} and a row, e.g. J10)")
    q = ord(match.group(1).upper()) - ord("A") - n
    row = int(match.group(2)) - n - 1
    h = Hex(q, row - (q - (q & 1)) // 2)
    if not on_board(h, side):
        raise ValueError(f"{text!r} is not on a board of side {side}")
    return h


# --- drawing ----------------------------------------------------------------------------

SQRT3 = math.sqrt(3.0)


def centre_xy(h: Hex, size: float) -> tuple[float, float]:
    """Centre of a flat-topped hex of circumradius ``size``; y grows down the page."""
    return size * 1.5 * h.q, size * SQRT3 * (h.r + h.q / 2)


def corners_xy(h: Hex, size: float) -> tuple[tuple[float, float], ...]:
    """The six corners of a flat-topped hex, starting east and going clockwise on the
    page (y down)."""
    x, y = centre_xy(h, size)
    return tuple(
        (x + size * math.cos(math.radians(60 * k)), y + size * math.sin(math.radians(60 * k)))
        for k in range(6)
    )


def facing_angle(facing: int) -> float:
    """Heading of a facing in degrees on the page, clockwise from straight up."""
    return 60.0 * (facing % 6)
