"""Convex polygons for bases and card areas, with the few exact operations the rules need.

Bases and maneuver cards are rectangles; we keep them as plain vertex tuples
(counter-clockwise) so the hot paths (reach, range) run without allocating shapely
objects. Shapely is used where regions must be subtracted (line-of-sight shadows).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from dogfight.geometry.pose import Point, Pose

Polygon = tuple[Point, ...]
"""A convex polygon as counter-clockwise vertices (first vertex not repeated)."""

EPSILON = 1e-9


def rectangle(pose: Pose, length: float, width: float, forward_offset: float = 0.0) -> Polygon:
    """A rectangle ``length`` long (along the heading) and ``width`` wide.

    Its centre lies ``forward_offset`` ahead of the pose's point.
    """
    half_l, half_w = length / 2.0, width / 2.0
    f0, f1 = forward_offset - half_l, forward_offset + half_l
    return _corners(pose, f0, f1, -half_w, half_w)


def _corners(pose: Pose, f0: float, f1: float, l0: float, l1: float) -> Polygon:
    """:meth:`Pose.to_world` of the four corners, its cosine and sine taken once."""
    rad = math.radians(pose.heading)
    c, s = math.cos(rad), math.sin(rad)
    x, y = pose.x, pose.y
    # each corner is (x + f * c - l * s, y + f * s + l * c), evaluated left to right; the
    # products and first sums two corners share are taken once (the same values)
    xf0, xf1, yf0, yf1 = x + f0 * c, x + f1 * c, y + f0 * s, y + f1 * s
    l0s, l0c, l1s, l1c = l0 * s, l0 * c, l1 * s, l1 * c
    return (
        (xf0 - l0s, yf0 + l0c),
        (xf1 - l0s, yf1 + l0c),
        (xf1 - l1s, yf1 + l1c),
        (xf0 - l1s, yf0 + l1c),
    )


def local_rectangle(
    pose: Pose, forward_min: float, forward_max: float, left_min: float, left_max: float
) -> Polygon:
    """A rectangle given by its extent in the pose's local frame."""
    return _corners(pose, forward_min, forward_max, left_min, left_max)


def cross(o: Point, a: Point, b: Point) -> float:
    """z of (a - o) x (b - o): positive when o->a->b turns left."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def clip_half_plane(poly: Sequence[Point], origin: Point, direction: Point) -> list[Point]:
    """Keep the part of a convex polygon left of (or on) the line through ``origin``
    along ``direction`` (Sutherland-Hodgman against one edge)."""
    ox, oy = origin
    dx, dy = direction
    out: list[Point] = []
    n = len(poly)
    if n == 0:
        return out
    sides = []  # a plain loop: a comprehension costs a function object and a frame
    for p in poly:
        sides.append(dx * (p[1] - oy) - dy * (p[0] - ox))
    for i in range(n):
        cur, nxt = poly[i], poly[(i + 1) % n]
        s_cur, s_nxt = sides[i], sides[(i + 1) % n]
        if s_cur >= 0:
            out.append(cur)
        if (s_cur >= 0) != (s_nxt >= 0):
            t = s_cur / (s_cur - s_nxt)
            out.append((cur[0] + t * (nxt[0] - cur[0]), cur[1] + t * (nxt[1] - cur[1])))
    return out


def point_segment_distance(p: Point, a: Point, b: Point) -> tuple[float, Point]:
    """Distance from ``p`` to segment ab and the nearest point of the segment."""
    ax, ay = a
    vx, vy = b[0] - ax, b[1] - ay
    length2 = vx * vx + vy * vy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * vx + (p[1] - ay) * vy) / length2))
    nearest = (ax + t * vx, ay + t * vy)
    return math.hypot(p[0] - nearest[0], p[1] - nearest[1]), nearest


def contains(poly: Sequence[Point], p: Point) -> bool:
    """Whether a convex counter-clockwise polygon contains ``p`` (boundary included)."""
    n = len(poly)
    return n >= 3 and all(cross(poly[i], poly[(i + 1) % n], p) >= -EPSILON for i in range(n))


def nearest_point(poly: Sequence[Point], p: Point) -> tuple[float, Point]:
    """Distance from ``p`` to a convex polygon (0 inside) and the polygon's nearest point.

    :func:`contains` and :func:`point_segment_distance` written out in one loop each (the
    firing step measures every pair of bases with it): the same arithmetic, the same
    results."""
    n = len(poly)
    if n == 0:
        return math.inf, p
    px, py = p
    # Each edge is (the vertex before, this vertex), carried along rather than indexed:
    # the inside test from the closing edge on (every edge must pass, in any order),
    # the distances from the first edge on (ties keep the earlier edge's point).
    if n >= 3:
        ox, oy = poly[-1]
        for ax, ay in poly:
            if not (ax - ox) * (py - oy) - (ay - oy) * (px - ox) >= -EPSILON:
                break
            ox, oy = ax, ay
        else:
            return 0.0, p
    best = (math.inf, p)
    ax, ay = poly[0]
    for bx, by in (*poly[1:], poly[0]):
        vx, vy = bx - ax, by - ay
        length2 = vx * vx + vy * vy
        if length2 == 0:
            t = 0.0
        else:
            # max(0.0, min(1.0, t)) as comparisons (each keeps the first value on a tie)
            t = ((px - ax) * vx + (py - ay) * vy) / length2
            if not t < 1.0:
                t = 1.0
            if not t > 0.0:
                t = 0.0
        nx, ny = ax + t * vx, ay + t * vy
        d = math.hypot(px - nx, py - ny)
        if d < best[0]:
            best = (d, (nx, ny))
        ax, ay = bx, by
    return best


def area(poly: Sequence[Point]) -> float:
    """Signed area (positive when counter-clockwise)."""
    n = len(poly)
    return 0.5 * sum(
        poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n)
    )


def circumradius(poly: Sequence[Point], centre: Point) -> float:
    """Largest distance from ``centre`` to a vertex."""
    return max(math.hypot(v[0] - centre[0], v[1] - centre[1]) for v in poly)


def convex_overlap(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """Whether two convex polygons share interior (touching edges do not count).

    Separating-axis test: they are disjoint (or merely touching) when some edge of either
    polygon has the whole other polygon on its outer side.
    """
    for poly, other in ((a, b), (b, a)):
        if not poly:
            continue
        # each edge (p, q) with q the vertex after p, p carried along rather than indexed
        # (from the closing edge on: any separating edge answers, in any order)
        px, py = poly[-1]
        for qx, qy in poly:
            ex, ey = qx - px, qy - py
            for vx, vy in other:
                if not ex * (vy - py) - ey * (vx - px) <= EPSILON:  # cross(p, q, v)
                    break
            else:
                return False  # every vertex of the other on or outside this edge
            px, py = qx, qy
    return True
