"""Heat-ray rulers laid against a tripod's side, and the shot most favourable to it.

000: "the ruler is placed against the side of the tripod's base where the player
previously placed 1 Energy, making sure that the black line on the ruler's base
coincides with the black line on the tripod's base ... place the ruler either at a right
angle against the appropriate side of the tripod's base, or tilted using the clipped
corner of the ruler. (The player may choose freely how to position the ruler, checking
its most favorable orientation)." / "If an edge of the ruler can reach any point of the
base of an enemy airplane, the attacking tripod hits its opponent."

The ruler is a strip ``width`` wide, its base centred on the side's midpoint (the black
lines). It lies at a right angle to the side, or tilted ``tilt`` degrees to the left or
to the right (the ruler flipped, pivoting on its clipped corner). Each long edge is a
segment from the side outwards; a target is reached by an edge that meets its base, at
the distance along the edge of the first point met, and the edge up to that point may
not cross another base's interior.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from dogfight.geometry.hexbase import Side, side_midpoint, side_normal
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.shapes import EPSILON, Polygon, cross


@dataclass(frozen=True, slots=True)
class RulerSpec:
    """A heat-ray ruler: length, half mark, width and the clipped corner's tilt."""

    length: float
    half: float
    width: float
    tilt: float


@dataclass(frozen=True, slots=True)
class Placement:
    """One way of laying the ruler: its direction and which long edge reaches."""

    side: Side
    tilt: float
    """0 for a right angle, +tilt to the left, -tilt to the right (degrees)."""
    edge: str
    """"left" or "right" edge of the ruler, seen looking outwards from the tripod."""
    start: Point
    direction: float

    def end(self, length: float) -> Point:
        rad = math.radians(self.direction)
        return (self.start[0] + length * math.cos(rad), self.start[1] + length * math.sin(rad))


@dataclass(frozen=True, slots=True)
class RayShot:
    """The best placement reaching a target: distance along the edge, the point met,
    whether it is short range, and the bases blocking the other placements."""

    placement: Placement
    distance: float
    point: Point
    short: bool


@lru_cache(maxsize=512)
def placements(pose: Pose, hex_side: float, side: Side, ruler: RulerSpec) -> tuple[Placement, ...]:
    """Every way of laying the ruler against ``side``: right angle or tilted either way,
    and each of its two long edges (cached: a step lays the same ruler at each target)."""
    normal = side_normal(pose, side)
    middle = side_midpoint(pose, hex_side, side)
    tangent = math.radians(normal + 90.0)
    out: list[Placement] = []
    for tilt in (0.0, ruler.tilt, -ruler.tilt):
        for edge, offset in (("left", ruler.width / 2.0), ("right", -ruler.width / 2.0)):
            start = (
                middle[0] + offset * math.cos(tangent),
                middle[1] + offset * math.sin(tangent),
            )
            out.append(Placement(side, tilt, edge, start, normal + tilt))
    return tuple(out)


def _circle(poly: Polygon) -> tuple[float, float, float]:
    """A circle holding the polygon: its vertices' mean and the farthest vertex."""
    n = len(poly)
    cx = sum(p[0] for p in poly) / n
    cy = sum(p[1] for p in poly) / n
    return cx, cy, max(math.hypot(p[0] - cx, p[1] - cy) for p in poly)


def _misses(start: Point, direction: float, length: float, circle: tuple[float, ...]) -> bool:
    """Whether the edge from ``start`` certainly misses everything inside the circle
    (a margin keeps every near case for the exact test)."""
    cx, cy, radius = circle
    rad = math.radians(direction)
    dx, dy = math.cos(rad), math.sin(rad)
    vx, vy = cx - start[0], cy - start[1]
    along = min(max(vx * dx + vy * dy, 0.0), length)
    gap = math.hypot(vx - along * dx, vy - along * dy)
    return gap > radius + 1e-6


def first_contact(start: Point, direction: float, length: float, poly: Polygon) -> float | None:
    """Distance along the ray from ``start`` to the first point of the convex polygon it
    meets within ``length`` (Cyrus-Beck clipping), or None."""
    rad = math.radians(direction)
    dx, dy = math.cos(rad), math.sin(rad)
    t_in, t_out = 0.0, length
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        # inward side is left of a->b (counter-clockwise polygon)
        ex, ey = b[0] - a[0], b[1] - a[1]
        num = ex * (start[1] - a[1]) - ey * (start[0] - a[0])  # cross(e, start - a)
        den = ex * dy - ey * dx  # cross(e, d)
        if abs(den) < EPSILON:
            if num < 0:
                return None
            continue
        t = -num / den
        if den > 0:
            t_in = max(t_in, t)
        else:
            t_out = min(t_out, t)
        if t_in > t_out + EPSILON:
            return None
    return t_in


Box = tuple[float, float, float, float]


@lru_cache(maxsize=1024)
def _box(poly: Polygon) -> Box:
    """The polygon's bounding box (x min, x max, y min, y max), cached: a step tests the
    same bases against many ruler edges."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return min(xs), max(xs), min(ys), max(ys)


def crosses_interior(a: Point, b: Point, poly: Polygon) -> bool:
    """Whether segment ab passes through the polygon's interior (touching does not)."""
    # the segment's box apart from the polygon's: it cannot pass through it
    x0, x1, y0, y1 = _box(poly)
    if max(a[0], b[0]) < x0 or min(a[0], b[0]) > x1 or max(a[1], b[1]) < y0 or min(a[1], b[1]) > y1:
        return False
    rad = math.atan2(b[1] - a[1], b[0] - a[0])
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    enter = first_contact(a, math.degrees(rad), length, poly)
    if enter is None:
        return False
    # find the exit: the segment is inside between enter and exit
    back = first_contact(b, math.degrees(rad) + 180.0, length, poly)
    if back is None:
        return False
    exit_t = length - back
    if exit_t - enter <= 1e-9:
        return False
    mid_t = (enter + exit_t) / 2.0
    mid = (a[0] + mid_t * math.cos(rad), a[1] + mid_t * math.sin(rad))
    n = len(poly)
    return all(cross(poly[i], poly[(i + 1) % n], mid) > 1e-9 for i in range(n))


def all_shots(
    pose: Pose,
    hex_side: float,
    side: Side,
    ruler: RulerSpec,
    target: Polygon,
    others: Sequence[Polygon] = (),
) -> list[RayShot]:
    """Every unblocked placement reaching the target, in placement order."""
    out: list[RayShot] = []
    circle = _circle(target)
    for placement in placements(pose, hex_side, side, ruler):
        if _misses(placement.start, placement.direction, ruler.length, circle):
            continue
        t = first_contact(placement.start, placement.direction, ruler.length, target)
        if t is None:
            continue
        point = placement.end(t)
        if any(crosses_interior(placement.start, point, other) for other in others):
            continue
        out.append(RayShot(placement, t, point, t <= ruler.half + 1e-9))
    return out


def best_shot(
    pose: Pose,
    hex_side: float,
    side: Side,
    ruler: RulerSpec,
    target: Polygon,
    others: Sequence[Polygon] = (),
) -> RayShot | None:
    """The placement most favourable to the tripod: an unblocked edge reaching the target
    at the shortest distance (short range first), or None when no placement reaches."""
    best: RayShot | None = None
    for shot in all_shots(pose, hex_side, side, ruler, target, others):
        if best is None or shot.distance < best.distance - 1e-12:
            best = shot
    return best
