"""Poses: where a vehicle's centre dot is and where its nose points."""

from __future__ import annotations

import math
from dataclasses import dataclass

from dogfight.geometry.frozen import fast_init

Point = tuple[float, float]


def normalize_heading(degrees: float) -> float:
    """Bring an angle into [0, 360)."""
    value = math.fmod(degrees, 360.0)
    if value < 0:
        value += 360.0
    # fmod of e.g. -1e-15 gives 360.0 after the addition
    return 0.0 if value >= 360.0 else value


@fast_init  # made at every move: see dogfight.geometry.frozen
@dataclass(frozen=True, slots=True)
class Pose:
    """A position (cm) and heading (degrees counter-clockwise from +x) on the table."""

    x: float
    y: float
    heading: float

    @property
    def point(self) -> Point:
        return (self.x, self.y)

    def forward(self) -> Point:
        """Unit vector along the heading."""
        rad = math.radians(self.heading)
        return (math.cos(rad), math.sin(rad))

    def to_world(self, forward: float, left: float) -> Point:
        """World coordinates of a point given in this pose's local frame."""
        rad = math.radians(self.heading)
        c, s = math.cos(rad), math.sin(rad)
        return (self.x + forward * c - left * s, self.y + forward * s + left * c)

    def to_local(self, point: Point) -> Point:
        """(forward, left) coordinates of a world point in this pose's frame."""
        rad = math.radians(self.heading)
        c, s = math.cos(rad), math.sin(rad)
        dx, dy = point[0] - self.x, point[1] - self.y
        return (dx * c + dy * s, -dx * s + dy * c)

    def moved(self, forward: float, left: float, turn: float) -> Pose:
        """The pose reached by a rigid move given in this pose's local frame."""
        x, y = self.to_world(forward, left)
        return Pose(x, y, normalize_heading(self.heading + turn))

    def transformed(self, dx: float, dy: float, rotation: float, about: Point = (0.0, 0.0)) -> Pose:
        """This pose after rotating the whole table about ``about`` and then translating it."""
        rad = math.radians(rotation)
        c, s = math.cos(rad), math.sin(rad)
        px, py = self.x - about[0], self.y - about[1]
        return Pose(
            about[0] + px * c - py * s + dx,
            about[1] + px * s + py * c + dy,
            normalize_heading(self.heading + rotation),
        )
