"""The line-of-sight resolver as it stood before issue 13, frozen for differential tests.

``dogfight bench --differential`` and ``tests/test_differential.py`` measure every shot
of random crowded tables with both this reference and :mod:`dogfight.rules.firing`, and
require the same targets, order, ranges, points, blockers and armour. Nothing else
imports it; do not optimise it: its value is that it is the old, obviously-correct code
(every firer x target x blocker in Python, a shapely shadow per blocker).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import shapely
import shapely.geometry
import shapely.ops

from dogfight.geometry.hexbase import Side
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.protection import unprotected_point
from dogfight.geometry.reach import Arc
from dogfight.geometry.shapes import EPSILON, Polygon, convex_overlap
from dogfight.rules.state import GameState, Vehicle

SLIVER = 1e-9


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
    sides = [dx * (p[1] - oy) - dy * (p[0] - ox) for p in poly]
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
    """Distance from ``p`` to a convex polygon (0 inside) and the polygon's nearest point."""
    if len(poly) >= 3 and contains(poly, p):
        return 0.0, p
    best = (math.inf, p)
    n = len(poly)
    for i in range(n):
        d = point_segment_distance(p, poly[i], poly[(i + 1) % n])
        if d[0] < best[0]:
            best = d
    return best


def area(poly: Sequence[Point]) -> float:
    """Signed area (positive when counter-clockwise)."""
    n = len(poly)
    return 0.5 * sum(
        poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n)
    )


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


@dataclass(frozen=True, slots=True)
class Option:
    """A shot ``firer``'s ``weapon`` could take at ``target``."""

    firer: str
    weapon: str
    target: str
    sight: Sight
    short: bool
    blockers: tuple[str, ...]
    protected: bool = False
    """A shot at a tripod that cannot reach it without crossing its electrified armour."""


@dataclass(slots=True)
class Table:
    """The bases in play at one firing step, with their overlaps, computed once."""

    bases: dict[str, Polygon]
    overlaps: dict[str, set[str]]

    def overlap(self, a: str, b: str) -> bool:
        return b in self.overlaps[a]


def possible_blockers(table: Table, firer: str, target: str) -> list[str]:
    """Bases that may block a shot: all but the firer, the target and any base that
    overlaps either of them (000: overlapping airplanes do not block each other's line
    of sight, nor that of airplanes firing at them)."""
    return [
        v
        for v in table.bases
        if v not in (firer, target) and not table.overlap(v, firer) and not table.overlap(v, target)
    ]


def table_of(state: GameState) -> Table:
    """Bases of every vehicle in play and which of them overlap."""
    vehicles = state.in_play()
    bases = {v.id: state.base(v) for v in vehicles}
    overlaps: dict[str, set[str]] = {v.id: set() for v in vehicles}
    reach = 2.0 * state.rules.base_radius
    for i, a in enumerate(vehicles):
        for b in vehicles[i + 1 :]:
            if abs(a.pose.x - b.pose.x) > reach or abs(a.pose.y - b.pose.y) > reach:
                continue
            if convex_overlap(bases[a.id], bases[b.id]):
                overlaps[a.id].add(b.id)
                overlaps[b.id].add(a.id)
    return Table(bases, overlaps)


def options(state: GameState, table: Table, firer: Vehicle, weapon: str) -> list[Option]:
    """Every enemy ``firer``'s ``weapon`` can reach, nearest first (ties by id)."""
    rules = state.rules
    arc = rules.arc(weapon)
    radius = rules.base_radius
    out: list[Option] = []
    for target in state.in_play():
        if target.side == firer.side or target.id == firer.id:
            continue
        if table.overlap(firer.id, target.id):
            continue  # 002: "If two planes overlap: Neither can fire at each other."
        if (
            math.hypot(target.pose.x - firer.pose.x, target.pose.y - firer.pose.y)
            > rules.ruler + radius
        ):
            continue
        ids = possible_blockers(table, firer.id, target.id)
        seen = sight(
            firer.pose, arc, table.bases[target.id], rules.ruler, [table.bases[v] for v in ids]
        )
        if seen.reachable(rules.ruler):
            out.append(
                Option(
                    firer.id,
                    weapon,
                    target.id,
                    seen,
                    seen.short(rules.half),
                    tuple(ids[i] for i in seen.blockers),
                    is_protected(state, firer, target, seen),
                )
            )
    out.sort(key=lambda o: (o.sight.distance, o.target))
    return out


def is_protected(state: GameState, firer: Vehicle, target: Vehicle, seen: Sight) -> bool:
    """000: "the earthling player checks with the ruler if he can reach its base without
    crossing the orange line. If he can, then the tripod is hit on an unprotected side" /
    "If a tripod is hit across an unprotected side, while laying down, or at 0 Energy, it
    takes damage normally." """
    if target.tripod is None or target.tripod.toppled or target.tripod.energy < 1:
        return False
    shielded = [Side.parse(s) for s in state.rules.tripod(target.type).protected]
    if not shielded:
        return False
    point = unprotected_point(
        target.pose,
        state.rules.hex_side,
        shielded,
        firer.pose.point,
        seen.visible(),
        state.rules.ruler,
    )
    return point is None


def blocked_shots(
    state: GameState, table: Table, firer: Vehicle, weapon: str
) -> list[tuple[str, tuple[str, ...]]]:
    """Enemies in arc and within the ruler that other bases hide completely (for rulings)."""
    rules = state.rules
    arc = rules.arc(weapon)
    found: list[tuple[str, tuple[str, ...]]] = []
    reachable = {o.target for o in options(state, table, firer, weapon)}
    for target in state.in_play():
        if (
            target.side == firer.side
            or target.id in reachable
            or table.overlap(firer.id, target.id)
        ):
            continue
        bare = sight(firer.pose, arc, table.bases[target.id], rules.ruler)
        if bare.reachable(rules.ruler):
            ids = possible_blockers(table, firer.id, target.id)
            seen = sight(
                firer.pose, arc, table.bases[target.id], rules.ruler, [table.bases[v] for v in ids]
            )
            found.append((target.id, tuple(ids[i] for i in seen.blockers)))
    return found


def why_not(state: GameState, table: Table, firer: Vehicle, weapon: str, target: Vehicle) -> str:
    """In words, why ``firer``'s ``weapon`` cannot fire at ``target`` this step."""
    if not target.in_play:
        return "is out of the game"
    if table.overlap(firer.id, target.id):
        return "overlaps the firer (overlapping airplanes cannot fire at each other)"
    rules = state.rules
    bare = sight(firer.pose, rules.arc(weapon), table.bases[target.id], rules.ruler)
    if bare.arc_point is None:
        return "is outside the firing arc"
    if not bare.reachable(rules.ruler):
        return f"is beyond the ruler ({bare.arc_distance:.1f} cm)"
    ids = possible_blockers(table, firer.id, target.id)
    seen = sight(
        firer.pose,
        rules.arc(weapon),
        table.bases[target.id],
        rules.ruler,
        [table.bases[v] for v in ids],
    )
    return "is blocked by " + ", ".join(ids[i] for i in seen.blockers)
