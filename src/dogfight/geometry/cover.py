"""What a firer can reach of a target, and what a blocker hides: areas for rulings.

:mod:`dogfight.geometry.reach` answers the firing step's questions (can the ruler reach,
how far is the nearest point); a referee looking at a table also wants to *see* the
answer: the part of the target's base the ruler can touch (inside the arc, within the
ruler's length, not behind another base) and the part of the table each blocker hides
from the firing dot. These are the same measures as the engine's, turned into areas.

The ruler's reach is a disc; it is drawn as a polygon of :data:`SEGMENTS` sides inscribed
in the circle, so an area here never reaches beyond the ruler (it falls short of the
circle by at most ``ruler * (1 - cos(pi / SEGMENTS))``, under 0.01 mm for a 30 cm ruler).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import shapely

from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.reach import SLIVER, Arc, Sight, shadow, sight
from dogfight.geometry.shapes import Polygon

SEGMENTS = 256
"""Sides of the polygon standing for the ruler's circle."""

EDGE_HAIR = 1e-7
"""cm a blocker's base is grown by before its shadow is cut out of the table."""


def sector(pose: Pose, arc: Arc, ruler: float) -> shapely.Polygon:
    """The arc's wedge from ``pose``'s firing dot out to the ruler's length: every point
    a ruler laid inside the arc can touch (before other bases are considered)."""
    ox, oy = pose.point
    axis = pose.heading + arc.centre
    steps = max(2, math.ceil(arc.width / 360.0 * SEGMENTS))
    start = axis - arc.width / 2.0
    rim = []
    for i in range(steps + 1):
        turn = math.radians(start + arc.width * i / steps)
        rim.append((ox + ruler * math.cos(turn), oy + ruler * math.sin(turn)))
    return shapely.Polygon([(ox, oy), *rim])


def polygons(shape: shapely.Geometry) -> tuple[Polygon, ...]:
    """The pieces of an area with more than :data:`~dogfight.geometry.reach.SLIVER` of
    surface, each as its outline (counter-clockwise, no repeated last corner), biggest
    first; lines and points left by floating-point rounding are dropped."""
    pieces: list[shapely.Polygon] = []
    for part in shapely.get_parts(shape):
        if isinstance(part, shapely.Polygon) and part.area > SLIVER:
            pieces.append(part)
    pieces.sort(key=lambda p: -p.area)
    out = []
    for piece in pieces:
        ring = shapely.get_coordinates(shapely.geometry.polygon.orient(piece, 1.0).exterior)
        out.append(tuple((float(x), float(y)) for x, y in ring[:-1]))
    return tuple(out)


def reachable_part(pose: Pose, arc: Arc, ruler: float, seen: Sight) -> shapely.Geometry:
    """The part of the target a ruler from ``pose``'s dot can touch: inside the arc,
    within ``ruler`` and not hidden by another base. ``seen`` is the engine's measure of
    that shot (:func:`~dogfight.geometry.reach.sight` with the bases that may block it)."""
    return _solid(seen.visible().intersection(sector(pose, arc, ruler)))


def reachable(
    pose: Pose, arc: Arc, target: Polygon, ruler: float, others: Sequence[Polygon] = ()
) -> shapely.Geometry:
    """:func:`reachable_part` of a shot measured here (``others``: the bases that may
    block it, as for :func:`~dogfight.geometry.reach.sight`)."""
    return reachable_part(pose, arc, ruler, sight(pose, arc, target, ruler, others))


def hidden_by(pose: Pose, arc: Arc, ruler: float, blocker: Polygon) -> shapely.Geometry:
    """The part of the table ``blocker`` hides from ``pose``'s firing dot inside the arc
    and within the ruler: the points a ruler cannot reach without crossing it (its
    shadow), less the blocker's own base. Empty when the blocker holds the firing dot."""
    origin: Point = pose.point
    base = shapely.Polygon(blocker)
    if base.covers(shapely.Point(origin)):
        return shapely.Polygon()
    cone = shapely.Polygon(shadow(origin, blocker, ruler))
    # the cone's sides run through the base's corners: cut out a base grown by a hair,
    # so that no edge of the shadow lies on an edge of the base (GEOS can then take a
    # piece of the base for outside it)
    grown = base.buffer(EDGE_HAIR, join_style="mitre")
    return _solid(cone.intersection(sector(pose, arc, ruler)).difference(grown))


def _solid(shape: shapely.Geometry) -> shapely.Geometry:
    """``shape`` without the pieces of no surface (at most
    :data:`~dogfight.geometry.reach.SLIVER`) that floating-point rounding leaves where
    two edges nearly meet: such a degenerate piece is harmless to draw but can make a
    later overlay of the area answer wrongly (GEOS once found a whole base inside a
    shadow that had been cut out of it)."""
    parts = shapely.get_parts(shape)
    pieces = [p for p in parts if isinstance(p, shapely.Polygon) and p.area > SLIVER]
    if len(pieces) == len(parts):
        return shape
    return shapely.MultiPolygon(pieces) if len(pieces) != 1 else pieces[0]
