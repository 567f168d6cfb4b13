"""Which side of a tripod a ruler crosses: the electrified armour test.

000: "When a plane is firing at a tripod, the earthling player checks with the ruler if
he can reach its base without crossing the orange line. If he can, then the tripod is hit
on an unprotected side; otherwise, the electric field is in effect."

From a firing dot outside a convex base, a ruler reaches the base first through one of
the sides that face the dot. The shot is unprotected when some point of such a facing,
unprotected side can be reached (inside the arc, within the ruler, not blocked).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import shapely
import shapely.ops

from dogfight.geometry.hexbase import Side, hexagon, side_segment
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.shapes import area, cross, nearest_point, point_segment_distance

SIDES = tuple(Side)
"""The six sides in the enum's order (iterating the enum itself is slow)."""

ON_SIDE = 1e-11
"""cm from a side's line within which a vertex of the in-arc region lies on that side (the
region is the base clipped by the arc: its vertices on a side are the side's own points,
a rounding error away)."""

MARGIN = 1e-7
"""cm: a region vertex nearer a side than this without lying on it, or a distance this
close to the ruler's end, leaves :func:`open_side` unsure (the exact test decides)."""


def facing_sides(tripod: Pose, hex_side: float, origin: Point) -> list[Side]:
    """The sides whose outside the origin lies strictly on (the sides a ruler can enter)."""
    out = []
    vertices = hexagon(tripod, hex_side)  # side i runs from vertex i to i + 1
    for side in SIDES:
        a, b = vertices[side], vertices[(side + 1) % 6]
        if cross(a, b, origin) < -1e-12:
            out.append(side)
    return out


def unprotected_point(
    tripod: Pose,
    hex_side: float,
    protected: Iterable[Side],
    origin: Point,
    reachable: shapely.Geometry,
    ruler: float,
) -> Point | None:
    """The nearest point of an unprotected facing side inside ``reachable`` (the part of
    the base a ruler from ``origin`` can reach unblocked in the arc) within ``ruler``, or
    None when every way in crosses a protected side."""
    shielded = set(protected)
    origin_point = shapely.Point(origin)
    best: tuple[float, Point] | None = None
    for side in facing_sides(tripod, hex_side, origin):
        if side in shielded:
            continue
        a, b = side_segment(tripod, hex_side, side)
        # A side lies on the boundary of ``reachable``: a hair of tolerance keeps rounding
        # from losing it (or cutting it) whatever the table's orientation.
        part = shapely.LineString([a, b]).intersection(reachable.buffer(1e-9))
        if part.is_empty:
            continue
        distance = float(part.distance(origin_point))
        if distance <= ruler + 1e-9 and (best is None or distance < best[0]):
            near = shapely.ops.nearest_points(origin_point, part)[1]
            best = (distance, (float(near.x), float(near.y)))
    return None if best is None else best[1]


def open_side(
    tripod: Pose,
    hex_side: float,
    protected: Iterable[Side],
    origin: Point,
    region: Sequence[Point],
    ruler: float,
    sees: Callable[[Point], bool],
) -> bool | None:
    """Whether :func:`unprotected_point` finds a point, decided without shapely when the
    answer is clear: True when an unprotected facing side has a stretch of the in-arc
    ``region`` on it whose point nearest ``origin`` is well within ``ruler`` and that
    ``sees`` says a ruler reaches clear of every shadow; False when no unprotected facing
    side comes near the region, or the stretch on it lies well beyond the ruler; None
    (the exact test decides) when anything is within a hair of a threshold.

    The region is convex and inside the base, so it meets a side only along a stretch
    between two of its own vertices lying on that side, or not at all; the exact test
    grows the visible region by 1e-9 cm, so a region vertex near a side without lying on
    it, or a side's end near the region, is too close to call here."""
    if len(region) < 3 or abs(area(region)) < 1e-6:
        return None
    shielded = set(protected)
    unsure = False
    for side in facing_sides(tripod, hex_side, origin):
        if side in shielded:
            continue
        a, b = side_segment(tripod, hex_side, side)
        ex, ey = b[0] - a[0], b[1] - a[1]
        length = math.hypot(ex, ey)
        ux, uy = ex / length, ey / length
        on: list[tuple[float, Point]] = []
        for p in region:
            wx, wy = p[0] - a[0], p[1] - a[1]
            along = wx * ux + wy * uy
            if abs(wx * uy - wy * ux) <= ON_SIDE and -ON_SIDE <= along <= length + ON_SIDE:
                on.append((along, p))
            elif point_segment_distance(p, a, b)[0] <= MARGIN:
                unsure = True
        if not on:
            if nearest_point(region, a)[0] <= MARGIN or nearest_point(region, b)[0] <= MARGIN:
                unsure = True
            continue
        start, end = min(on)[1], max(on)[1]
        if math.dist(start, end) <= 1e-6:
            unsure = True  # the region touches the side at a point
            continue
        distance, point = point_segment_distance(origin, start, end)
        if distance > ruler + 1e-9 + MARGIN:
            continue
        if distance < ruler + 1e-9 - MARGIN and sees(point):
            return True
        unsure = True
    return None if unsure else False
