"""Helpers shared by the geometry tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.shapes import Polygon


@dataclass(frozen=True)
class Motion:
    """A move of the whole table: rotate about ``about``, then translate."""

    dx: float
    dy: float
    rotation: float
    about: Point

    def pose(self, p: Pose) -> Pose:
        return p.transformed(self.dx, self.dy, self.rotation, self.about)

    def point(self, p: Point) -> Point:
        return self.pose(Pose(p[0], p[1], 0.0)).point

    def poly(self, poly: Sequence[Point]) -> Polygon:
        return tuple(self.point(v) for v in poly)
