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

from dogfight.geometry.frozen import fast_init
from dogfight.geometry.hexbase import Side, side_midpoint, side_normal
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.shapes import EPSILON, Polygon


@dataclass(frozen=True, slots=True)
class RulerSpec:
    """A heat-ray ruler: length, half mark, width and the clipped corner's tilt."""

    length: float
    half: float
    width: float
    tilt: float


@fast_init
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
    dx: float
    """The cosine of ``direction``, taken once (the same value every use would take)."""
    dy: float
    """Its sine."""

    def end(self, length: float) -> Point:
        return (self.start[0] + length * self.dx, self.start[1] + length * self.dy)


@fast_init
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
            rad = math.radians(normal + tilt)
            out.append(
                Placement(side, tilt, edge, start, normal + tilt, math.cos(rad), math.sin(rad))
            )
    return tuple(out)


Box = tuple[float, float, float, float]
Circle = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class Body:
    """A base or card a ruler may meet or cross, with what the tests need taken once: its
    edges (start x, start y, x and y of the edge vector), its bounding box (x min, x max,
    y min, y max) and a circle holding it (its vertices' mean and the farthest vertex),
    the bounds that rule most rulers out before any exact test."""

    poly: Polygon
    edges: tuple[tuple[float, float, float, float], ...]
    box: Box
    circle: Circle


@lru_cache(maxsize=2048)
def body(poly: Polygon) -> Body:
    """The polygon with its edges and bounds (cached: a step meets the same bases many
    times)."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    n = len(poly)
    cx = sum(xs) / n
    cy = sum(ys) / n
    radius = max(math.hypot(p[0] - cx, p[1] - cy) for p in poly)
    edges = []
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        edges.append((ax, ay, bx - ax, by - ay))
    return Body(poly, tuple(edges), (min(xs), max(xs), min(ys), max(ys)), (cx, cy, radius))


@dataclass(frozen=True, slots=True)
class Fan:
    """Every placement against one side, with a circle holding their starting points and
    the side's outward normal: every edge leaves the side forwards (the tilt is below 90
    degrees), so nothing wholly behind the side can be reached."""

    laid: tuple[Placement, ...]
    origin: Circle
    normal: Point


@lru_cache(maxsize=512)
def fan(pose: Pose, hex_side: float, side: Side, ruler: RulerSpec) -> Fan:
    """The :class:`Fan` of :func:`placements` (cached the same way)."""
    laid = placements(pose, hex_side, side, ruler)
    n = len(laid)
    cx = sum(p.start[0] for p in laid) / n
    cy = sum(p.start[1] for p in laid) / n
    radius = max(math.hypot(p.start[0] - cx, p.start[1] - cy) for p in laid)
    rad = math.radians(side_normal(pose, side))
    return Fan(laid, (cx, cy, radius), (math.cos(rad), math.sin(rad)))


def reaching(ruler: Fan, length: float, target: Body) -> list[Placement]:
    """The placements whose edge may meet the target: none when the target lies wholly
    behind the side, else those that do not certainly miss the circle holding it (a
    margin keeps every near case for the exact test)."""
    cx, cy, radius = target.circle
    ox, oy, _ = ruler.origin
    if (cx - ox) * ruler.normal[0] + (cy - oy) * ruler.normal[1] < -radius - 1e-6:
        return []
    out: list[Placement] = []
    for placement in ruler.laid:
        dx, dy = placement.dx, placement.dy
        vx, vy = cx - placement.start[0], cy - placement.start[1]
        # the point of the edge nearest the centre: min(max(along, 0), length)
        along = vx * dx + vy * dy
        along = 0.0 if along < 0.0 else length if along > length else along
        if math.hypot(vx - along * dx, vy - along * dy) <= radius + 1e-6:
            out.append(placement)
    return out


def in_between(origin: Circle, target: Body, others: Sequence[Body]) -> list[Body]:
    """The bodies of ``others`` a segment from a point of the ``origin`` circle to a point
    of the target may touch. Such a segment stays within the larger of the two radii of
    the segment joining their centres, so a body whose circle is farther than that (with a
    margin) is left out before any exact test."""
    sx, sy, s_radius = origin
    cx, cy, t_radius = target.circle
    vx, vy = cx - sx, cy - sy
    length2 = vx * vx + vy * vy
    slack = max(s_radius, t_radius) + 1e-6
    out: list[Body] = []
    for other in others:
        ox, oy, o_radius = other.circle
        wx, wy = ox - sx, oy - sy
        t = 0.0 if length2 == 0.0 else (wx * vx + wy * vy) / length2
        t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
        if math.hypot(wx - t * vx, wy - t * vy) <= o_radius + slack:
            out.append(other)
    return out


def first_contact(start: Point, direction: float, length: float, poly: Polygon) -> float | None:
    """Distance along the ray from ``start`` to the first point of the convex polygon it
    meets within ``length`` (Cyrus-Beck clipping), or None."""
    rad = math.radians(direction)
    return _contact(start, math.cos(rad), math.sin(rad), length, body(poly))


def _contact(start: Point, dx: float, dy: float, length: float, shape: Body) -> float | None:
    """:func:`first_contact` along the unit direction (dx, dy)."""
    sx, sy = start
    t_in, t_out = 0.0, length
    for ax, ay, ex, ey in shape.edges:
        # inward side is left of a->b (counter-clockwise polygon)
        num = ex * (sy - ay) - ey * (sx - ax)  # cross(e, start - a)
        den = ex * dy - ey * dx  # cross(e, d)
        if abs(den) < EPSILON:
            if num < 0:
                return None
            continue
        t = -num / den
        if den > 0:
            if t > t_in:
                t_in = t
        elif t < t_out:
            t_out = t
        if t_in > t_out + EPSILON:
            return None
    return t_in


def crosses_interior(a: Point, b: Point, poly: Polygon) -> bool:
    """Whether segment ab passes through the polygon's interior (touching does not)."""
    return _crosses(a, b, body(poly))


def _crosses(a: Point, b: Point, other: Body) -> bool:
    """:func:`crosses_interior` of a body: its box first."""
    # the segment's box apart from the polygon's: it cannot pass through it
    x0, x1, y0, y1 = other.box
    ax, ay = a
    bx, by = b
    if (
        (ax < x0 and bx < x0)
        or (ax > x1 and bx > x1)
        or (ay < y0 and by < y0)
        or (ay > y1 and by > y1)
    ):
        return False
    rad = math.atan2(b[1] - a[1], b[0] - a[0])
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    ahead = math.radians(math.degrees(rad))
    enter = _contact(a, math.cos(ahead), math.sin(ahead), length, other)
    if enter is None:
        return False
    # find the exit: the segment is inside between enter and exit
    behind = math.radians(math.degrees(rad) + 180.0)
    back = _contact(b, math.cos(behind), math.sin(behind), length, other)
    if back is None:
        return False
    exit_t = length - back
    if exit_t - enter <= 1e-9:
        return False
    mid_t = (enter + exit_t) / 2.0
    mx, my = a[0] + mid_t * math.cos(rad), a[1] + mid_t * math.sin(rad)
    # strictly inside: left of every edge (shapes.cross of the edge and the midpoint)
    return all(ex * (my - ay) - ey * (mx - ax) > 1e-9 for ax, ay, ex, ey in other.edges)


def shots(
    laid: Sequence[Placement], ruler: RulerSpec, target: Body, others: Sequence[Body] = ()
) -> list[RayShot]:
    """Every placement of ``laid`` (those :func:`reaching` the target) whose edge meets
    the target unblocked by ``others``, in placement order."""
    out: list[RayShot] = []
    for placement in laid:
        t = _contact(placement.start, placement.dx, placement.dy, ruler.length, target)
        if t is None:
            continue
        point = placement.end(t)
        if any(_crosses(placement.start, point, other) for other in others):
            continue
        out.append(RayShot(placement, t, point, t <= ruler.half + 1e-9))
    return out


def nearest(found: Sequence[RayShot]) -> RayShot | None:
    """The shot at the shortest distance (the first of equals)."""
    best: RayShot | None = None
    for shot in found:
        if best is None or shot.distance < best.distance - 1e-12:
            best = shot
    return best


def all_shots(
    pose: Pose,
    hex_side: float,
    side: Side,
    ruler: RulerSpec,
    target: Polygon,
    others: Sequence[Polygon] = (),
) -> list[RayShot]:
    """Every unblocked placement reaching the target, in placement order."""
    aim = body(target)
    laid = reaching(fan(pose, hex_side, side, ruler), ruler.length, aim)
    return shots(laid, ruler, aim, [body(o) for o in others]) if laid else []


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
    return nearest(all_shots(pose, hex_side, side, ruler, target, others))
