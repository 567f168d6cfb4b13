"""Hexagonal tripod bases: a regular hexagon with a flat side facing the heading.

Sides are named counter-clockwise from the front, as seen from above:
front, front-left, rear-left, rear, rear-right, front-right. Side ``k`` (0 = front) has
its outward normal at ``heading + 60 * k`` degrees.
"""

from __future__ import annotations

import math
from enum import IntEnum
from functools import lru_cache

from dogfight.geometry.pose import Point, Pose, normalize_heading
from dogfight.geometry.shapes import Polygon


class Side(IntEnum):
    """A side of a hexagonal base, counter-clockwise from the front."""

    FRONT = 0
    FRONT_LEFT = 1
    REAR_LEFT = 2
    REAR = 3
    REAR_RIGHT = 4
    FRONT_RIGHT = 5

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", "-")

    @classmethod
    def parse(cls, text: str) -> Side:
        return cls[text.upper().replace("-", "_")]


def apothem(side: float) -> float:
    """Distance from the centre to the middle of a side."""
    return side * math.sqrt(3.0) / 2.0


@lru_cache(maxsize=1024)
def hexagon(pose: Pose, side: float) -> Polygon:
    """The base's vertices, counter-clockwise, starting at the front side's right end.

    Cached by pose: a phase measures the same bases many times. The arithmetic is
    :meth:`Pose.to_world` of each vertex's polar offset, the heading's cosine and sine
    taken once (the same floating-point values)."""
    rad = math.radians(pose.heading)
    c, s = math.cos(rad), math.sin(rad)
    x, y = pose.x, pose.y
    out = []
    for forward, left in _vertex_offsets(side):
        out.append((x + forward * c - left * s, y + forward * s + left * c))
    return tuple(out)


@lru_cache(maxsize=16)
def _vertex_offsets(side: float) -> tuple[Point, ...]:
    """The six vertices' polar offsets (:func:`_polar`) for a side length, worked out once:
    every tripod of a game has the same side."""
    return tuple(_polar(side, -30.0 + 60.0 * i) for i in range(6))


def _polar(radius: float, degrees: float) -> Point:
    rad = math.radians(degrees)
    return (radius * math.cos(rad), radius * math.sin(rad))


def side_segment(pose: Pose, side: float, which: Side) -> tuple[Point, Point]:
    """The two ends of a side, counter-clockwise around the base (the right end first, as
    seen from the tripod's centre)."""
    vertices = hexagon(pose, side)
    return vertices[int(which)], vertices[(int(which) + 1) % 6]


def side_normal(pose: Pose, which: Side) -> float:
    """The outward normal of a side, as a heading in degrees."""
    return pose.heading + 60.0 * int(which)


def side_midpoint(pose: Pose, side: float, which: Side) -> Point:
    return pose.to_world(*_polar(apothem(side), 60.0 * int(which)))


def turned(pose: Pose, sides: int) -> Pose:
    """The pose after turning the base by ``sides`` sides (positive: to the left)."""
    return Pose(pose.x, pose.y, normalize_heading(pose.heading + 60.0 * sides))
