"""A frozen copy of the heat-ray geometry as it stood before the per-step ray scene
(``rules/rays.py`` and ``geometry/heatray.py``, November 2026): the reference the new
code must agree with exactly (``tests/test_heat_ray_differential.py``). Do not edit."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from dogfight.geometry.heatray import RulerSpec
from dogfight.geometry.hexbase import Side, side_midpoint, side_normal
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.shapes import EPSILON, Polygon, cross
from dogfight.rules.state import GameState, Vehicle

TargetKind = Literal["airplane", "tripod", "bombs"]


def convex_overlap(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """``geometry.shapes.convex_overlap`` as it was (separating axes)."""
    for poly, other in ((a, b), (b, a)):
        n = len(poly)
        for i in range(n):
            p, q = poly[i], poly[(i + 1) % n]
            if all(cross(p, q, v) <= EPSILON for v in other):
                return False
    return True


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


@dataclass(frozen=True, slots=True)
class RayOption:
    """A target a heat-ray ruler reaches: how far along the edge, at which range, from
    where; for a tripod target whether the ray crosses its working electrified armour."""

    target: str
    distance: float
    short: bool
    origin: tuple[float, float]
    point: tuple[float, float]
    tilt: float
    kind: TargetKind = "airplane"
    protected: bool = False


def _option(target: str, shot: RayShot, kind: TargetKind, protected: bool = False) -> RayOption:
    return RayOption(
        target,
        shot.distance,
        shot.short,
        shot.placement.start,
        shot.point,
        shot.placement.tilt,
        kind,
        protected,
    )


def entry_sides(base: Polygon, point: Point) -> list[Side]:
    """The sides of a hexagonal base a point on its outline lies on (two at a corner)."""
    out = []
    for i in range(6):
        (ax, ay), (bx, by) = base[i], base[(i + 1) % 6]
        ex, ey = bx - ax, by - ay
        t = max(0.0, min(1.0, ((point[0] - ax) * ex + (point[1] - ay) * ey) / (ex * ex + ey * ey)))
        if math.dist(point, (ax + t * ex, ay + t * ey)) < 1e-6:
            out.append(Side(i))
    return out


def shielded(state: GameState, target: Vehicle, energy: Mapping[str, int] | None) -> bool:
    """001: "the tripod has at least 1 energy counter in its reserve" at the start of the
    firing step (``energy``: the reserves then); 000: "A toppled tripod is considered at 0
    Energy"."""
    assert target.tripod is not None
    if target.tripod.toppled:
        return False
    reserve = target.tripod.energy if energy is None else energy.get(target.id, 0)
    return reserve >= 1


def heat_ray_options(
    state: GameState,
    tripod: Vehicle,
    projector: Side,
    overlaps: Callable[[str, str], bool],
    energy: Mapping[str, int] | None = None,
    bases: Mapping[str, Polygon] | None = None,
) -> list[RayOption]:
    """Every enemy airplane, enemy tripod and enemy bomb card the heat-ray ruler can reach
    from ``projector``, nearest first. Against a tripod the ruler is laid the way most
    favourable to the firer (000: "checking its most favorable orientation"): across an
    unprotected side if one can be reached, then at the shortest distance. ``bases``: the
    bases in play already computed (``firing.Table.bases``)."""
    rules = state.rules
    if bases is None:
        bases = {v.id: state.base(v) for v in state.in_play()}
    spec = rules.heat_ray_ruler(tripod.type)
    ruler = RulerSpec(spec.length, spec.half, spec.width, spec.tilt)
    reach = rules.hex_apothem() + spec.length + math.hypot(rules.base_length, rules.base_width)
    # only bases within the ruler's reach can block it
    near = [v for v in state.in_play() if math.dist(v.pose.point, tripod.pose.point) <= reach]
    out: list[RayOption] = []
    for target in sorted(state.in_play(), key=lambda v: v.id):
        if target.side == tripod.side or target.id == tripod.id:
            continue
        if overlaps(tripod.id, target.id):
            continue  # 000: "An airplane overlapping a tripod cannot ... be fired at by it."
        if math.dist(tripod.pose.point, target.pose.point) > reach:
            continue
        others = [
            bases[v.id]
            for v in near
            if v.id not in (tripod.id, target.id)
            and not overlaps(v.id, target.id)
            and not overlaps(v.id, tripod.id)
        ]
        body = bases[target.id]
        if target.tripod is None:
            shot = best_shot(tripod.pose, rules.hex_side, projector, ruler, body, others)
            if shot is not None:
                out.append(_option(target.id, shot, "airplane"))
            continue
        armour = {Side.parse(s) for s in rules.tripod(target.type).protected}
        powered = shielded(state, target, energy)
        best: tuple[tuple[bool, float], RayShot, bool] | None = None
        for shot in all_shots(tripod.pose, rules.hex_side, projector, ruler, body, others):
            sides = entry_sides(body, shot.point)
            protected = powered and bool(sides) and all(s in armour for s in sides)
            key = (protected, shot.distance)
            if best is None or key < best[0]:
                best = (key, shot, protected)
        if best is not None:
            out.append(_option(target.id, best[1], "tripod", best[2]))
    size = rules.catalog.constants.tripods.bomb_card
    for card in state.bomb_cards:
        if card.side == tripod.side or card.destroyed:
            continue
        if math.dist(card.pose.point, tripod.pose.point) > reach + math.hypot(
            size.length, size.width
        ):
            continue
        outline = state.bomb_card(card)
        # Bases under the falling card do not hide it (the bombs are in the air above them).
        others = [
            bases[v.id]
            for v in near
            if v.id != tripod.id
            and not overlaps(v.id, tripod.id)
            and not convex_overlap(bases[v.id], outline)
        ]
        shot = best_shot(tripod.pose, rules.hex_side, projector, ruler, outline, others)
        if shot is not None:
            out.append(_option(card.id, shot, "bombs"))
    out.sort(key=lambda o: (o.distance, o.target))
    return out
