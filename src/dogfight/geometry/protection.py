"""Which side of a tripod a ruler crosses: the electrified armour test.

000: "When a plane is firing at a tripod, the earthling player checks with the ruler if
he can reach its base without crossing the orange line. If he can, then the tripod is hit
on an unprotected side; otherwise, the electric field is in effect."

From a firing dot outside a convex base, a ruler reaches the base first through one of
the sides that face the dot. The shot is unprotected when some point of such a facing,
unprotected side can be reached (inside the arc, within the ruler, not blocked).
"""

from __future__ import annotations

from collections.abc import Iterable

import shapely
import shapely.ops

from dogfight.geometry.hexbase import Side, side_segment
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.shapes import cross


def facing_sides(tripod: Pose, hex_side: float, origin: Point) -> list[Side]:
    """The sides whose outside the origin lies strictly on (the sides a ruler can enter)."""
    out = []
    for side in Side:
        a, b = side_segment(tripod, hex_side, side)
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
