"""The board: its hexes, the six airfields in its corners with their airstrips, clouds.

The board game puts "in each corner ... an airfield, each having three runways, one
running towards the center and one along each of the sides forming the corner". 004
names them: "At airfields the three airstrips will be noted, from left to right, as
ALPHA, BETA, GAMMA [or Left, Centre, Right]". Left to right is as seen by a plane taking
off towards the centre of the board: ALPHA runs along the board's side on its left,
BETA towards the centre, GAMMA along the side on its right. Each strip is the two hexes
next to the corner hex in its direction (004: "players must move Ahead on the two hexes
of the airstrip"); the corner hex itself is the airfield, where landed planes stand.

Airfields are named by the compass corner they stand in (``N``, ``NE``, ``SE``, ``S``,
``SW``, ``NW``).

Clouds: 004 "Clouds will be placed by the GM ... They will be moved once at the end of
each Turn". A cloud is one or more hexes moved together, one hex at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from dogfight.sopwith.hexes import (
    FACING_NAMES,
    Hex,
    board_hexes,
    corner,
    neighbour,
    on_board,
    radius,
)
from dogfight.sopwith.model import Strip

AIRFIELD_ORDER = {
    1: ("S",),
    2: ("S", "N"),
    3: ("S", "NE", "NW"),
    4: ("S", "N", "NE", "SW"),
    5: ("S", "N", "NE", "SW", "NW"),
    6: ("S", "N", "NE", "SW", "NW", "SE"),
}
"""Airfields handed out to ``n`` planes by default, spread round the board; more than six
planes share them in the six-plane order."""


@dataclass(frozen=True, slots=True)
class Airstrip:
    """One airstrip: its two hexes, the first next to the airfield's corner hex, and the
    facing of a plane taking off along it."""

    airfield: str
    strip: Strip
    hexes: tuple[Hex, Hex]
    facing: int


@dataclass(frozen=True, slots=True)
class Airfield:
    name: str
    corner: Hex
    strips: tuple[Airstrip, Airstrip, Airstrip]
    """ALPHA, BETA, GAMMA."""

    def strip(self, which: Strip) -> Airstrip:
        return self.strips[(Strip.ALPHA, Strip.BETA, Strip.GAMMA).index(which)]


def make_airfield(side: int, facing_out: int) -> Airfield:
    """The airfield in the board's corner in direction ``facing_out`` from the centre."""
    home = corner(side, facing_out)
    inward = (facing_out + 3) % 6
    strips = tuple(
        Airstrip(
            FACING_NAMES[facing_out],
            strip,
            (neighbour(home, facing), neighbour(home, facing, 2)),
            facing,
        )
        for strip, facing in (
            (Strip.ALPHA, (inward - 1) % 6),
            (Strip.BETA, inward),
            (Strip.GAMMA, (inward + 1) % 6),
        )
    )
    return Airfield(FACING_NAMES[facing_out], home, (strips[0], strips[1], strips[2]))


@dataclass(frozen=True)
class Board:
    """The hexes of a board of ``side`` hexes a side and its six airfields."""

    side: int

    @cached_property
    def hexes(self) -> tuple[Hex, ...]:
        return board_hexes(self.side)

    @cached_property
    def airfields(self) -> dict[str, Airfield]:
        return {FACING_NAMES[f]: make_airfield(self.side, f) for f in range(6)}

    @cached_property
    def airfield_hexes(self) -> frozenset[Hex]:
        """Corner and strip hexes: where random clouds may not go."""
        out: set[Hex] = set()
        for field in self.airfields.values():
            out.add(field.corner)
            for strip in field.strips:
                out.update(strip.hexes)
        return frozenset(out)

    def on_board(self, h: Hex) -> bool:
        return on_board(h, self.side)

    def on_edge(self, h: Hex) -> bool:
        """Whether ``h`` is one of the board's outermost hexes (its edge)."""
        return radius(h) == self.side - 1

    def airfield(self, name: str) -> Airfield:
        return self.airfields[name]

    def strip_at(self, a: Hex, b: Hex) -> Airstrip | None:
        """The airstrip whose two hexes are ``a`` and ``b`` (either order), if any."""
        for field in self.airfields.values():
            for strip in field.strips:
                if {a, b} == set(strip.hexes):
                    return strip
        return None


def default_airfields(count: int) -> list[str]:
    """Airfields for ``count`` planes in the order the planes are listed."""
    order = AIRFIELD_ORDER[min(max(count, 1), 6)]
    return [order[i % len(order)] for i in range(count)]


# --- clouds -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cloud:
    """A cloud: numbered from 1 in the order the Games Master placed them."""

    number: int
    hexes: tuple[Hex, ...]

    def moved(self, facing: int | None) -> Cloud:
        if facing is None:
            return self
        return Cloud(self.number, tuple(neighbour(h, facing) for h in self.hexes))


def cloud_hexes(clouds: tuple[Cloud, ...]) -> frozenset[Hex]:
    return frozenset(h for c in clouds for h in c.hexes)


def cloud_moves_allowed(board: Board, clouds: tuple[Cloud, ...], cloud: Cloud) -> list[int]:
    """Directions a cloud may be moved at random: it stays on the board, off the
    airfields and off the other clouds."""
    others = cloud_hexes(tuple(c for c in clouds if c.number != cloud.number))
    allowed = []
    for facing in range(6):
        moved = cloud.moved(facing).hexes
        if all(
            board.on_board(h) and h not in board.airfield_hexes and h not in others for h in moved
        ):
            allowed.append(facing)
    return allowed


def move_clouds(
    board: Board,
    clouds: tuple[Cloud, ...],
    entered: dict[int, int | None] | None,
    mode: str,
    rng: np.random.Generator,
) -> tuple[tuple[Cloud, ...], dict[int, int | None]]:
    """The clouds after the end-of-turn move and the direction each went (None: stayed).

    A cloud the Games Master entered goes where he said (``entered[number]``); the others
    move one hex in a direction drawn from ``rng`` among :func:`cloud_moves_allowed`
    (``mode == "random"``) or stay (``"none"``). Clouds move one after another in number
    order, so two never meet.
    """
    current = list(clouds)
    went: dict[int, int | None] = {}
    for i, cloud in enumerate(current):
        if entered is not None and cloud.number in entered:
            facing = entered[cloud.number]
        elif mode == "random":
            allowed = cloud_moves_allowed(board, tuple(current), cloud)
            facing = allowed[int(rng.integers(len(allowed)))] if allowed else None
        else:
            facing = None
        current[i] = cloud.moved(facing)
        went[cloud.number] = facing
    return tuple(current), went


def random_clouds(board: Board, count: int, rng: np.random.Generator) -> tuple[Cloud, ...]:
    """``count`` one-hex clouds at random anywhere off the airfields, never two in one
    hex (for a Games Master who does not want to place them himself)."""
    free = [h for h in board.hexes if h not in board.airfield_hexes]
    picks = rng.choice(len(free), size=min(count, len(free)), replace=False)
    return tuple(Cloud(i + 1, (free[int(p)],)) for i, p in enumerate(picks))
