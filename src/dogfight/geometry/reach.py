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

import numpy as np
import numpy.typing as npt
import shapely
import shapely.geometry
import shapely.ops

from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.shapes import (
    EPSILON,
    Polygon,
    area,
    clip_half_plane,
    contains,
    cross,
    nearest_point,
    point_segment_distance,
)


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
    points keep the far edge beyond ``far`` whatever the blocker's angular size). The
    points go to shapely as one array, not one vertex object at a time.
    """
    hull = shapely.convex_hull(shapely.multipoints(_shadow_points(origin, blocker, far)))
    return _corners(shapely.geometry.polygon.orient(hull, 1.0))


def _shadow_points(origin: Point, blocker: Polygon, far: float) -> npt.NDArray[np.float64]:
    """The blocker's corners and its far points, whose convex hull is its shadow."""
    ox, oy = origin
    corners = np.asarray(blocker, dtype=np.float64)
    centre_x, centre_y = corners.mean(axis=0)
    axis = math.atan2(centre_y - oy, centre_x - ox)
    angles = np.arctan2(corners[:, 1] - oy, corners[:, 0] - ox) - axis
    angles = (angles + math.pi) % (2 * math.pi) - math.pi
    low, high = float(angles.min()), float(angles.max())
    steps = max(2, math.ceil((high - low) / math.radians(20.0)) + 1)
    reach = far * 2.0
    turns = axis + low + (high - low) * np.arange(steps) / (steps - 1)
    far_points = np.column_stack((ox + reach * np.cos(turns), oy + reach * np.sin(turns)))
    return np.concatenate((corners, far_points))


def shadows(origin: Point, blockers: Sequence[Polygon], far: float) -> npt.NDArray[np.object_]:
    """The shadows of :func:`shadow` as shapely polygons (counter-clockwise, the very
    corners :func:`shadow` gives), built in one batch: every hull from one array of points,
    no polygon rebuilt from Python tuples.

    The points are :func:`_shadow_points`' to the bit: the same operations in the same
    order, on plain floats, with numpy's own arctangent, cosine and sine (which differ from
    :mod:`math`'s in the last bit now and then) taken for every blocker at once."""
    ox, oy = origin
    dx: list[float] = []
    dy: list[float] = []
    axes: list[float] = []
    for blocker in blockers:
        # numpy's mean over the corners: a sum in order, then one division
        sum_x, sum_y = blocker[0]
        for x, y in blocker[1:]:
            sum_x += x
            sum_y += y
        count = len(blocker)
        axes.append(math.atan2(sum_y / count - oy, sum_x / count - ox))
        for x, y in blocker:
            dx.append(x - ox)
            dy.append(y - oy)
    bearings: list[float] = np.arctan2(dy, dx).tolist()
    two_pi = 2 * math.pi
    reach = far * 2.0
    turns: list[float] = []
    spans: list[int] = []
    at = 0
    for blocker, axis in zip(blockers, axes, strict=True):
        angles = [(a - axis + math.pi) % two_pi - math.pi for a in bearings[at : at + len(blocker)]]
        at += len(blocker)
        low, high = min(angles), max(angles)
        steps = max(2, math.ceil((high - low) / math.radians(20.0)) + 1)
        start = axis + low
        turns.extend(start + (high - low) * k / (steps - 1) for k in range(steps))
        spans.append(steps)
    cosines: list[float] = np.cos(turns).tolist()
    sines: list[float] = np.sin(turns).tolist()
    coords: list[tuple[float, float]] = []
    sizes: list[int] = []
    at = 0
    for blocker, steps in zip(blockers, spans, strict=True):
        coords.extend(blocker)
        coords.extend(
            (ox + reach * cosines[k], oy + reach * sines[k]) for k in range(at, at + steps)
        )
        at += steps
        sizes.append(len(blocker) + steps)
    indices = np.repeat(np.arange(len(sizes)), sizes)
    points = np.array(coords, dtype=np.float64)
    hulls = shapely.convex_hull(shapely.multipoints(points, indices=indices))
    out: npt.NDArray[np.object_] = shapely.orient_polygons(hulls, exterior_cw=False)
    return out


def _corners(shape: shapely.Geometry) -> Polygon:
    """A polygon's exterior ring as corners (first vertex not repeated)."""
    ring = shapely.get_coordinates(shape)[:-1]
    return tuple((float(x), float(y)) for x, y in ring)


def _geometry(points: Sequence[Point]) -> shapely.Geometry:
    if len(points) >= 3 and abs(area(points)) > EPSILON:
        # shapely.polygons makes the very polygon shapely.Polygon makes, a few times faster
        return shapely.polygons(points)
    if len(points) >= 2:
        return shapely.LineString(points)
    return shapely.Point(points[0])


Candidate = tuple[int, Polygon]
"""A base that may block a shot: its index among the caller's bases, and its corners."""


class Sight:
    """How a ruler from a firing dot meets a target base.

    ``arc_distance`` ignores other bases; ``distance`` and ``point`` are those of the
    nearest point a ruler can reach without crossing another base (``inf``/``None`` when
    every in-arc point is hidden). ``blockers`` are the indexes of the bases whose shadow
    hides some in-arc point of the target within ``ruler``; ``region`` is the part of the
    target inside the arc's wedge and ``shades`` the shadows of the bases that hide some of
    it. When the nearest in-arc point was seen directly, ``blockers`` and ``shades`` are
    worked out only when asked for (the firing step never needs them for an airplane).
    """

    __slots__ = (
        "_blockers",
        "_pending",
        "_shades",
        "_shapes",
        "arc_distance",
        "arc_point",
        "distance",
        "point",
        "region",
    )

    def __init__(
        self,
        arc_distance: float,
        arc_point: Point | None,
        distance: float,
        point: Point | None,
        blockers: tuple[int, ...] = (),
        region: tuple[Point, ...] = (),
        shades: tuple[Polygon, ...] = (),
        pending: tuple[Point, float, list[Candidate]] | None = None,
        shapes: tuple[shapely.Geometry, ...] | None = None,
    ) -> None:
        self.arc_distance = arc_distance
        self.arc_point = arc_point
        self.distance = distance
        self.point = point
        self.region = region
        self._blockers = blockers
        self._shades: tuple[Polygon, ...] | None = None if shapes is not None else shades
        self._shapes = shapes
        """The shades as shapely polygons, when they were built (their corners are taken
        only when asked for)."""
        self._pending = pending

    def __repr__(self) -> str:
        return (
            f"Sight(arc_distance={self.arc_distance!r}, distance={self.distance!r}, "
            f"point={self.point!r}, blockers={self.blockers!r})"
        )

    def _settle(self) -> None:
        if self._pending is not None:
            origin, ruler, candidates = self._pending
            self._pending = None
            _, _, self._blockers, self._shapes = _shadows(origin, self.region, ruler, candidates)
            self._shades = None

    @property
    def blockers(self) -> tuple[int, ...]:
        self._settle()
        return self._blockers

    @property
    def shades(self) -> tuple[Polygon, ...]:
        """The shadows of the bases that hide some of ``region``."""
        self._settle()
        if self._shades is None:
            self._shades = tuple(_corners(s) for s in self._shapes or ())
        return self._shades

    def visible(self) -> shapely.Geometry:
        """The part of the target in the arc that a ruler reaches without crossing another
        base (whatever the distance)."""
        if not self.region:
            return shapely.Polygon()
        shape = _geometry(self.region)
        self._settle()
        if self._shapes is not None:
            if self._shapes:
                shape = shape.difference(shapely.union_all(self._shapes))
        elif self.shades:
            shape = shape.difference(shapely.union_all([shapely.Polygon(s) for s in self.shades]))
        return shape

    def sees(self, point: Point) -> bool:
        """Whether a ruler from the firing dot reaches ``point`` (of the region) clear of
        every shadow by a margin, without building shadows not yet built: the ruler to it
        passes :data:`CLEARANCE` clear of each base that may hide the region, or the point
        lies a hair outside every shadow already built. False near a shadow."""
        if self._pending is not None:
            origin, _, candidates = self._pending
            return all(_segment_clear(origin, point, base, CLEARANCE) for _, base in candidates)
        return all(nearest_point(shade, point)[0] > 1e-6 for shade in self.shades)

    def reachable(self, ruler: float) -> bool:
        return self.distance <= ruler + 1e-9

    def short(self, half: float) -> bool:
        return self.distance <= half + 1e-9


ShadeCache = dict[tuple[Point, Polygon, float], shapely.Geometry]
"""Shadows already built, by (firing dot, blocking base, ruler): a firer's weapons measure
several targets past the same bases."""


def _shades(
    origin: Point, bases: list[Polygon], ruler: float, cache: ShadeCache | None
) -> npt.NDArray[np.object_]:
    """:func:`shadows` of ``bases``, those in ``cache`` taken from it (and new ones kept)."""
    if cache is None:
        return shadows(origin, bases, ruler)
    missing = [b for b in bases if (origin, b, ruler) not in cache]
    if missing:
        for base, shade in zip(missing, shadows(origin, missing, ruler), strict=True):
            cache[origin, base, ruler] = shade
    out = np.empty(len(bases), dtype=object)
    for i, base in enumerate(bases):
        out[i] = cache[origin, base, ruler]
    return out


def _shadows(
    origin: Point,
    region: Sequence[Point],
    ruler: float,
    candidates: list[Candidate],
    cache: ShadeCache | None = None,
) -> tuple[shapely.Geometry, shapely.Geometry, tuple[int, ...], tuple[shapely.Geometry, ...]]:
    """The exact test: each candidate's shadow against the in-arc region (all at once,
    through shapely's array functions). Returns the region and its visible part, the
    indexes of the bases hiding some of the region within ``ruler`` and the shadows
    hiding any of it (shapely polygons)."""
    region_shape = _geometry(region)
    shades = _shades(origin, [base for _, base in candidates], ruler, cache)
    hidden = shapely.intersection(region_shape, shades)
    hides = ~shapely.is_empty(hidden)
    near = shapely.distance(hidden, shapely.points(origin)) <= ruler + 1e-9
    blockers = tuple(candidates[i][0] for i in np.flatnonzero(hides & near))
    kept = tuple(shades[hides])
    visible = region_shape.difference(shapely.union_all(shades[hides])) if kept else region_shape
    return region_shape, visible, blockers, kept


ANGLE_MARGIN = 1e-7
"""Radians of slack in the angular test that rules a base out as a blocker: it only ever
keeps a base the exact test then clears, never drops one the exact test would keep."""

CLEARANCE = 1e-3
"""cm a ruler to the nearest in-arc point must pass clear of every possible blocker for
that point to be taken as seen without building the shadows (a point a hair's breadth
from a shadow goes to the exact test)."""

MIN_REGION = 1e-3
"""cm² below which an in-arc region always goes to the exact test (a sliver of a target
behind a blocker counts as hidden there, see :data:`SLIVER`)."""


Extent = tuple[float, float, float]
"""A shape's angular extent seen from a point: (axis, lowest offset, highest offset), in
radians (see :func:`angular_extent`)."""

Blocker = tuple[int, Polygon, float, Extent]
"""A base that may block a shot: its index among the caller's bases, its corners, its
distance from the firing dot and its angular extent from there."""


def angular_extent(origin: Point, points: Sequence[Point]) -> Extent:
    """The angular extent of a convex shape not containing ``origin``: the direction of
    its vertices' mean and the lowest and highest offsets of its vertices from it.

    Written as plain loops (the firing step takes the extent of every base near a firing
    dot): the sums are added in order from 0.0 as ``sum`` adds floats, and a comparison
    keeps the earlier value on a tie as ``min`` and ``max`` do, so the very same floats
    (``tests/test_geometry_fast_loops.py``)."""
    ox, oy = origin
    sx = sy = 0.0
    for px, py in points:
        sx += px
        sy += py
    count = len(points)
    axis = math.atan2(sy / count - oy, sx / count - ox)
    low = high = 0.0
    pi = math.pi
    two_pi = 2.0 * pi
    atan2 = math.atan2
    for px, py in points:
        a = (atan2(py - oy, px - ox) - axis + pi) % two_pi - pi
        if a < low:
            low = a
        if a > high:
            high = a
    return axis, low, high


def _may_hide(
    region_extent: tuple[float, float, float],
    region_far: float,
    base_extent: tuple[float, float, float],
    base_near: float,
) -> bool:
    """Whether a base's shadow may reach the region: their angular extents overlap (with
    :data:`ANGLE_MARGIN`) and some of the region lies no nearer than the base's nearest
    point (a shadow starts at its base)."""
    if region_far < base_near - 1e-7:
        return False
    r_axis, r_low, r_high = region_extent
    b_axis, b_low, b_high = base_extent
    offset = (r_axis - b_axis + math.pi) % (2.0 * math.pi) - math.pi
    for shift in (0.0, 2.0 * math.pi, -2.0 * math.pi):
        lo, hi = offset + shift + r_low, offset + shift + r_high
        if hi >= b_low - ANGLE_MARGIN and lo <= b_high + ANGLE_MARGIN:
            return True
    return False


def _segment_clear(a: Point, b: Point, poly: Sequence[Point], margin: float) -> bool:
    """Whether segment ab stays more than ``margin`` away from a convex polygon."""
    if contains(poly, a) or contains(poly, b):
        return False
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        d1, d2 = cross(a, b, p), cross(a, b, q)
        d3, d4 = cross(p, q, a), cross(p, q, b)
        if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)):
            return False  # the segment crosses this edge
        if (
            point_segment_distance(p, a, b)[0] <= margin
            or point_segment_distance(a, p, q)[0] <= margin
            or point_segment_distance(b, p, q)[0] <= margin
        ):
            return False
    return True


def measure(
    origin: Point,
    region: Sequence[Point],
    nearest: tuple[float, Point],
    ruler: float,
    candidates: Sequence[Blocker],
    cache: ShadeCache | None = None,
) -> Sight:
    """Measure a shot at a target whose in-arc part is ``region`` (non-empty, its point
    nearest ``origin`` given as (distance, point)), given the bases that may block it
    (:data:`Blocker`), each within ``ruler``: the angular test rules out the bases whose
    shadow cannot reach the region, the ruler to the nearest in-arc point is tried first,
    and only when something may cross it are the exact shadows built (:func:`sight` is
    the same measure), or taken from ``cache``."""
    arc_distance, arc_point = nearest
    region_t = tuple(region)
    if arc_distance > ruler + 1e-9 or not candidates:
        return Sight(arc_distance, arc_point, arc_distance, arc_point, (), region_t)
    extent = angular_extent(origin, region)
    far = max(math.hypot(p[0] - origin[0], p[1] - origin[1]) for p in region)
    kept: list[Candidate] = [
        (index, base)
        for index, base, near, base_extent in candidates
        if _may_hide(extent, far, base_extent, near)
    ]
    if not kept:
        return Sight(arc_distance, arc_point, arc_distance, arc_point, (), region_t)
    if (
        arc_distance > CLEARANCE
        and abs(area(region)) >= MIN_REGION
        and all(_segment_clear(origin, arc_point, base, CLEARANCE) for _, base in kept)
    ):
        return Sight(
            arc_distance,
            arc_point,
            arc_distance,
            arc_point,
            region=region_t,
            pending=(origin, ruler, kept),
        )
    region_shape, visible, blockers, shapes = _shadows(origin, region, ruler, kept, cache)
    # Floating-point slivers left along a shadow's edge are not a way through.
    if visible.is_empty or (region_shape.area > 0 and visible.area < SLIVER):
        return Sight(arc_distance, arc_point, math.inf, None, blockers, region_t, shapes=shapes)
    near_point = shapely.ops.nearest_points(shapely.points(origin), visible)[1]
    point = (float(near_point.x), float(near_point.y))
    distance = math.hypot(point[0] - origin[0], point[1] - origin[1])
    return Sight(arc_distance, arc_point, distance, point, blockers, region_t, shapes=shapes)


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
    origin = pose.point
    nearest = nearest_point(region, origin)
    candidates: list[Blocker] = []
    if nearest[0] <= ruler + 1e-9:
        for index, base in enumerate(others):
            d, _ = nearest_point(base, origin)
            if d <= ruler:
                candidates.append((index, base, d, angular_extent(origin, base)))
    return measure(origin, region, nearest, ruler, candidates)
