"""Ruler reach, firing arcs and line of sight, measured on whole bases.

A target is *reachable* when some point of its base lies inside the firing arc and within
the ruler's length of the firing dot, and some such point can be reached by a straight
ruler edge that crosses no other base. The range is that of the nearest such point:
short when it is within the half mark. Nothing here measures centre to centre.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import shapely
import shapely.geometry
import shapely.ops

from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.shapes import EPSILON, Polygon, area, clip_half_plane, nearest_point


@dataclass(frozen=True, slots=True)
class Arc:
    """A firing arc: ``width`` degrees wide, centred ``centre`` degrees off the heading
    (0 = front arc, 180 = rear arc). Widths are below 180 so the wedge is convex."""

    centre: float
    width: float


SLIVER = 1e-9
"""Visible area (cm²) below which a partly hidden target counts as wholly hidden."""


def _direction(degrees: float) -> Point:
    rad = math.radians(degrees)
    return (math.cos(rad), math.sin(rad))


def in_arc_region(target: Polygon, pose: Pose, arc: Arc) -> list[Point]:
    """The part of ``target`` inside the arc's wedge, whatever the distance (convex)."""
    axis = pose.heading + arc.centre
    right_edge = _direction(axis - arc.width / 2.0)
    left_edge = _direction(axis + arc.width / 2.0)
    part = clip_half_plane(target, pose.point, right_edge)
    return clip_half_plane(part, pose.point, (-left_edge[0], -left_edge[1]))


def point_in_arc(point: Point, pose: Pose, arc: Arc) -> bool:
    """Whether a point lies inside the arc's wedge (edges included)."""
    dx, dy = point[0] - pose.x, point[1] - pose.y
    if abs(dx) < EPSILON and abs(dy) < EPSILON:
        return True
    bearing = math.degrees(math.atan2(dy, dx)) - pose.heading - arc.centre
    bearing = (bearing + 180.0) % 360.0 - 180.0
    return abs(bearing) <= arc.width / 2.0 + 1e-7


def shadow(origin: Point, blocker: Polygon, far: float) -> Polygon:
    """The points a ruler from ``origin`` cannot reach without crossing ``blocker``.

    For a convex blocker not containing the origin this is the convex hull of the blocker
    and its projection away from the origin, out to distance ``far`` (intermediate far
    points keep the far edge beyond ``far`` whatever the blocker's angular size).
    """
    ox, oy = origin
    centre_x = sum(v[0] for v in blocker) / len(blocker)
    centre_y = sum(v[1] for v in blocker) / len(blocker)
    axis = math.atan2(centre_y - oy, centre_x - ox)
    angles = []
    for vx, vy in blocker:
        a = math.atan2(vy - oy, vx - ox) - axis
        angles.append((a + math.pi) % (2 * math.pi) - math.pi)
    low, high = min(angles), max(angles)
    steps = max(2, math.ceil((high - low) / math.radians(20.0)) + 1)
    reach = far * 2.0
    far_points = [
        (
            ox + reach * math.cos(axis + low + (high - low) * i / (steps - 1)),
            oy + reach * math.sin(axis + low + (high - low) * i / (steps - 1)),
        )
        for i in range(steps)
    ]
    hull = shapely.geometry.polygon.orient(
        shapely.convex_hull(shapely.MultiPoint([*blocker, *far_points])), 1.0
    )
    return tuple((float(x), float(y)) for x, y in list(hull.exterior.coords)[:-1])


def _geometry(points: Sequence[Point]) -> shapely.Geometry:
    if len(points) >= 3 and abs(area(points)) > EPSILON:
        return shapely.Polygon(points)
    if len(points) >= 2:
        return shapely.LineString(points)
    return shapely.Point(points[0])


@dataclass(frozen=True, slots=True)
class Sight:
    """How a ruler from a firing dot meets a target base.

    ``arc_distance`` ignores other bases; ``distance`` and ``point`` are those of the
    nearest point a ruler can reach without crossing another base (``inf``/``None`` when
    every in-arc point is hidden). ``blockers`` are the indexes of the bases whose shadow
    hides some in-arc point of the target within ``ruler``.
    """

    arc_distance: float
    arc_point: Point | None
    distance: float
    point: Point | None
    blockers: tuple[int, ...]
    region: tuple[Point, ...] = ()
    """The part of the target inside the arc's wedge."""
    shades: tuple[Polygon, ...] = ()
    """The shadows of the bases that hide some of ``region``."""

    def visible(self) -> shapely.Geometry:
        """The part of the target in the arc that a ruler reaches without crossing another
        base (whatever the distance)."""
        if not self.region:
            return shapely.Polygon()
        shape = _geometry(self.region)
        if self.shades:
            shape = shape.difference(shapely.union_all([shapely.Polygon(s) for s in self.shades]))
        return shape

    def reachable(self, ruler: float) -> bool:
        return self.distance <= ruler + 1e-9

    def short(self, half: float) -> bool:
        return self.distance <= half + 1e-9


def sight(
    pose: Pose, arc: Arc, target: Polygon, ruler: float, others: Sequence[Polygon] = ()
) -> Sight:
    """Measure a shot from ``pose``'s dot through ``arc`` at ``target``.

    ``others`` are the bases that may block (the caller leaves out the firer, the target
    and any base the rules say does not block this shot).
    """
    region = in_arc_region(target, pose, arc)
    if not region:
        return Sight(math.inf, None, math.inf, None, ())
    arc_distance, arc_point = nearest_point(region, pose.point)
    region_t = tuple(region)
    if arc_distance > ruler + 1e-9:
        return Sight(arc_distance, arc_point, arc_distance, arc_point, (), region_t)
    origin = pose.point
    candidates: list[int] = []
    for index, base in enumerate(others):
        d, _ = nearest_point(base, origin)
        if d <= ruler:
            candidates.append(index)
    if not candidates:
        return Sight(arc_distance, arc_point, arc_distance, arc_point, (), region_t)
    region_shape = _geometry(region)
    origin_point = shapely.Point(origin)
    shades: list[shapely.Geometry] = []
    shade_points: list[Polygon] = []
    blockers: list[int] = []
    for index in candidates:
        points = shadow(origin, others[index], ruler)
        shade = shapely.Polygon(points)
        hidden = region_shape.intersection(shade)
        if hidden.is_empty:
            continue
        shades.append(shade)
        shade_points.append(points)
        # Named whatever the order of ``others``: it hides part of the target in reach.
        if hidden.distance(origin_point) <= ruler + 1e-9:
            blockers.append(index)
    visible = region_shape.difference(shapely.union_all(shades)) if shades else region_shape
    # Floating-point slivers left along a shadow's edge are not a way through.
    if visible.is_empty or (region_shape.area > 0 and visible.area < SLIVER):
        return Sight(
            arc_distance, arc_point, math.inf, None, tuple(blockers), region_t, tuple(shade_points)
        )
    near = shapely.ops.nearest_points(origin_point, visible)[1]
    point = (float(near.x), float(near.y))
    distance = math.hypot(point[0] - origin[0], point[1] - origin[1])
    return Sight(
        arc_distance, arc_point, distance, point, tuple(blockers), region_t, tuple(shade_points)
    )
