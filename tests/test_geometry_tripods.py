"""Property tests (and exact examples) for the tripod geometry of Tripods & Triplanes.

Hexagonal bases (:mod:`dogfight.geometry.hexbase`), heat-ray ruler placements
(:mod:`dogfight.geometry.heatray`) and the electrified-armour test
(:mod:`dogfight.geometry.protection`): the answers must follow the documented geometry
(``docs/geometry.md``, section *Tripods*), must not depend on where the table is or how
it is turned, and must agree with independent shapely computations.
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Callable, Sequence

import pytest
import shapely
from geometry_helpers import Motion
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from dogfight.catalog.loader import load_catalog
from dogfight.catalog.models import HeatRayRulerSpec, ManeuverCard, Symbol, TripodCard
from dogfight.geometry.heatray import (
    RayShot,
    RulerSpec,
    best_shot,
    crosses_interior,
    first_contact,
    placements,
)
from dogfight.geometry.hexbase import (
    Side,
    apothem,
    hexagon,
    side_midpoint,
    side_normal,
    side_segment,
    turned,
)
from dogfight.geometry.maneuver import apply_card
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.protection import facing_sides, unprotected_point
from dogfight.geometry.reach import Arc, point_in_arc, sight
from dogfight.geometry.shapes import Polygon, area, convex_overlap, cross, rectangle

CATALOG = load_catalog()
CONSTANTS = CATALOG.constants
TRIPODS = CONSTANTS.tripods
HEX = TRIPODS.base_side
APOTHEM = apothem(HEX)
BASE_L = CONSTANTS.airplane_base.length
BASE_W = CONSTANTS.airplane_base.width
EARTH = CONSTANTS.ruler.length
FRONT_ARC = Arc(CONSTANTS.arcs.front.centre, CONSTANTS.arcs.front.width)


def ruler_of(spec: HeatRayRulerSpec) -> RulerSpec:
    return RulerSpec(spec.length, spec.half, spec.width, spec.tilt)


MEDIUM = ruler_of(TRIPODS.medium)
HEAVY = ruler_of(TRIPODS.heavy)
RULERS = [MEDIUM, HEAVY]

SETTINGS = settings(max_examples=100, deadline=None)
FEW = settings(max_examples=50, deadline=None)

ALL_SIDES = list(Side)


# --------------------------------------------------------------------------- helpers


def angle_diff(a: float, b: float) -> float:
    """a - b brought into [-180, 180)."""
    return (a - b + 180.0) % 360.0 - 180.0


def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def close_point(a: Point, b: Point, tol: float = 1e-9) -> bool:
    return dist(a, b) <= tol


def plane(pose: Pose) -> Polygon:
    return rectangle(pose, BASE_L, BASE_W)


def local_plane(tripod: Pose, forward: float, left: float, heading: float = 0.0) -> Polygon:
    """An airplane base centred at (forward, left) in the tripod's frame, ``heading``
    degrees off the tripod's heading."""
    x, y = tripod.to_world(forward, left)
    return plane(Pose(x, y, tripod.heading + heading))


def local_poly(tripod: Pose, points: Sequence[Point]) -> Polygon:
    return tuple(tripod.to_world(f, left) for f, left in points)


def grown(poly: Sequence[Point], delta: float) -> Polygon:
    """The polygon with every vertex moved ``delta`` away from the centroid (shrunk when
    ``delta`` is negative)."""
    cx = sum(p[0] for p in poly) / len(poly)
    cy = sum(p[1] for p in poly) / len(poly)
    out = []
    for x, y in poly:
        d = math.hypot(x - cx, y - cy)
        out.append((x + delta * (x - cx) / d, y + delta * (y - cy) / d))
    return tuple(out)


def shot_distance(shot: RayShot | None) -> float:
    return math.inf if shot is None else shot.distance


def same(a: float, b: float, tol: float) -> bool:
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= tol


coords = st.floats(-200.0, 200.0, allow_nan=False, allow_infinity=False)
small = st.floats(-50.0, 50.0, allow_nan=False, allow_infinity=False)
headings = st.floats(-720.0, 720.0, allow_nan=False, allow_infinity=False)
poses = st.builds(Pose, coords, coords, headings)
motions = st.builds(Motion, small, small, headings, st.tuples(small, small))
sides = st.sampled_from(ALL_SIDES)
rulers = st.sampled_from(RULERS)


# --------------------------------------------------------------------------- hex bases


@SETTINGS
@given(poses, st.floats(0.5, 12.0))
def test_hexagon_is_counter_clockwise_with_equal_sides(pose: Pose, side: float) -> None:
    vertices = hexagon(pose, side)
    assert len(vertices) == 6
    assert area(vertices) == pytest.approx(3.0 * math.sqrt(3.0) / 2.0 * side**2)
    for i in range(6):
        a, b, c = vertices[i], vertices[(i + 1) % 6], vertices[(i + 2) % 6]
        assert cross(a, b, c) > 0  # every corner turns left
        assert dist(a, b) == pytest.approx(side)
        assert dist(a, pose.point) == pytest.approx(side)  # circumradius = side


@SETTINGS
@given(poses, st.floats(0.5, 12.0), sides)
def test_side_midpoints_normals_and_apothem(pose: Pose, side: float, which: Side) -> None:
    a, b = side_segment(pose, side, which)
    middle = side_midpoint(pose, side, which)
    assert close_point(middle, ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0), 1e-9)
    assert dist(middle, pose.point) == pytest.approx(apothem(side))
    normal = side_normal(pose, which)
    assert angle_diff(normal, pose.heading + 60.0 * int(which)) == pytest.approx(0.0, abs=1e-9)
    # the midpoint lies along the outward normal, and the side is perpendicular to it
    rad = math.radians(normal)
    assert close_point(
        middle,
        (pose.x + apothem(side) * math.cos(rad), pose.y + apothem(side) * math.sin(rad)),
        1e-9,
    )
    assert (b[0] - a[0]) * math.cos(rad) + (b[1] - a[1]) * math.sin(rad) == pytest.approx(
        0.0, abs=1e-9
    )
    # counter-clockwise ends: the centre is on the left of a -> b
    assert cross(a, b, pose.point) > 0


@SETTINGS
@given(poses)
def test_front_side_faces_the_heading(pose: Pose) -> None:
    assert angle_diff(side_normal(pose, Side.FRONT), pose.heading) == pytest.approx(0.0, abs=1e-9)
    forward, left = pose.to_local(side_midpoint(pose, HEX, Side.FRONT))
    assert forward == pytest.approx(APOTHEM)
    assert left == pytest.approx(0.0, abs=1e-9)
    a, b = side_segment(pose, HEX, Side.FRONT)
    # a flat front: both ends are APOTHEM ahead, half a side to the right then the left
    assert pose.to_local(a) == pytest.approx((APOTHEM, -HEX / 2.0))
    assert pose.to_local(b) == pytest.approx((APOTHEM, HEX / 2.0))


def test_hexagon_exact_example() -> None:
    pose = Pose(45.0, 10.0, 90.0)
    h = APOTHEM
    expected = [(47.5, 10 + h), (42.5, 10 + h), (40.0, 10.0), (42.5, 10 - h), (47.5, 10 - h)]
    vertices = hexagon(pose, 5.0)
    assert vertices[0] == pytest.approx(expected[0])
    assert vertices[1] == pytest.approx(expected[1])
    assert vertices[2] == pytest.approx(expected[2])
    assert vertices[3] == pytest.approx(expected[3])
    assert vertices[4] == pytest.approx(expected[4])
    assert vertices[5] == pytest.approx((50.0, 10.0))
    assert apothem(5.0) == pytest.approx(4.330127018922193)
    assert side_midpoint(pose, 5.0, Side.FRONT) == pytest.approx((45.0, 10 + h))
    assert side_midpoint(pose, 5.0, Side.REAR) == pytest.approx((45.0, 10 - h))


def test_side_names_go_counter_clockwise_from_the_front() -> None:
    pose = Pose(20.0, 30.0, 37.0)
    where = {s: pose.to_local(side_midpoint(pose, HEX, s)) for s in Side}
    assert where[Side.FRONT][0] > 0 and where[Side.FRONT][1] == pytest.approx(0.0, abs=1e-9)
    assert where[Side.FRONT_LEFT][0] > 0 and where[Side.FRONT_LEFT][1] > 0
    assert where[Side.REAR_LEFT][0] < 0 and where[Side.REAR_LEFT][1] > 0
    assert where[Side.REAR][0] < 0 and where[Side.REAR][1] == pytest.approx(0.0, abs=1e-9)
    assert where[Side.REAR_RIGHT][0] < 0 and where[Side.REAR_RIGHT][1] < 0
    assert where[Side.FRONT_RIGHT][0] > 0 and where[Side.FRONT_RIGHT][1] < 0
    labels = ["front", "front-left", "rear-left", "rear", "rear-right", "front-right"]
    assert [s.label for s in Side] == labels
    assert [Side.parse(label) for label in labels] == list(Side)


@SETTINGS
@given(poses, st.integers(-7, 7))
def test_turned_keeps_the_footprint_and_renames_the_sides(pose: Pose, k: int) -> None:
    after = turned(pose, k)
    assert after.point == pose.point
    assert 0.0 <= after.heading <= 360.0  # 360.0 itself: see the xfail test below
    assert angle_diff(after.heading, pose.heading + 60.0 * k) == pytest.approx(0.0, abs=1e-9)
    # a regular hexagon turned by whole sides covers the same ground ...
    before_vertices = hexagon(pose, HEX)
    for v in hexagon(after, HEX):
        assert min(dist(v, w) for w in before_vertices) < 1e-9
    # ... and its side s is the old side s + k
    for s in Side:
        old = side_segment(pose, HEX, Side((int(s) + k) % 6))
        new = side_segment(after, HEX, s)
        assert close_point(new[0], old[0], 1e-9) and close_point(new[1], old[1], 1e-9)
    assert angle_diff(turned(pose, 6).heading, pose.heading) == pytest.approx(0.0, abs=1e-9)


# --------------------------------------------------------------------------- heat-ray rulers


def test_placements_lie_on_the_side_and_point_outwards() -> None:
    pose = Pose(30.0, 40.0, 20.0)
    for which in Side:
        found = placements(pose, HEX, which, MEDIUM)
        assert len(found) == 6  # right angle, tilted left, tilted right; two edges each
        normal = side_normal(pose, which)
        middle = side_midpoint(pose, HEX, which)
        a, b = side_segment(pose, HEX, which)
        assert {(p.tilt, p.edge) for p in found} == {
            (t, e) for t in (0.0, MEDIUM.tilt, -MEDIUM.tilt) for e in ("left", "right")
        }
        for p in found:
            assert dist(p.start, middle) == pytest.approx(MEDIUM.width / 2.0)
            assert cross(a, b, p.start) == pytest.approx(0.0, abs=1e-9)  # on the side
            assert angle_diff(p.direction, normal) == pytest.approx(p.tilt, abs=1e-9)
            # the left edge is on the left looking outwards
            f, left = Pose(middle[0], middle[1], normal).to_local(p.start)
            assert f == pytest.approx(0.0, abs=1e-9)
            assert left == pytest.approx(MEDIUM.width / 2.0 * (1 if p.edge == "left" else -1))


@SETTINGS
@given(poses, rulers, st.floats(0.05, 40.0), st.booleans(), st.floats(-0.9, 0.9))
def test_target_straight_ahead_is_reached_at_its_near_edge(
    tripod: Pose, ruler: RulerSpec, gap: float, crosswise: bool, shift: float
) -> None:
    """A plane ``gap`` cm in front of the front side (its centre ``gap`` + half its depth
    further) is reached at ``gap``: short iff within the half mark, none beyond the ruler."""
    half_depth = BASE_W / 2.0 if crosswise else BASE_L / 2.0
    assume(abs(gap - ruler.length) > 1e-6 and abs(gap - ruler.half) > 1e-6)
    target = local_plane(tripod, APOTHEM + gap + half_depth, shift, 90.0 if crosswise else 0.0)
    shot = best_shot(tripod, HEX, Side.FRONT, ruler, target)
    if gap > ruler.length:
        assert shot is None
        return
    assert shot is not None
    assert shot.distance == pytest.approx(gap, abs=1e-9)
    assert shot.short is (gap <= ruler.half)
    assert shot.placement.tilt == 0.0
    assert tripod.to_local(shot.point)[0] == pytest.approx(APOTHEM + gap, abs=1e-9)


@pytest.mark.parametrize("ruler", RULERS, ids=["medium", "heavy"])
def test_heat_ray_range_examples(ruler: RulerSpec) -> None:
    tripod = Pose(45.0, 20.0, 90.0)
    # the near edge exactly on the half mark: short range
    target = local_plane(tripod, APOTHEM + ruler.half + BASE_L / 2.0, 0.0)
    shot = best_shot(tripod, HEX, Side.FRONT, ruler, target)
    assert shot is not None and shot.short and shot.distance == pytest.approx(ruler.half)
    # the near edge exactly at the end of the ruler: long range
    target = local_plane(tripod, APOTHEM + ruler.length + BASE_L / 2.0, 0.0)
    shot = best_shot(tripod, HEX, Side.FRONT, ruler, target)
    assert shot is not None and not shot.short
    assert shot.distance == pytest.approx(ruler.length)
    # a little beyond: out of range for every placement of every side
    target = local_plane(tripod, APOTHEM + ruler.length + 0.01 + BASE_L / 2.0, 0.0)
    for which in Side:
        assert best_shot(tripod, HEX, which, ruler, target) is None


@pytest.mark.parametrize("sign", [1, -1], ids=["left", "right"])
def test_tilted_ruler_reaches_a_target_off_to_the_side(sign: int) -> None:
    tripod = Pose(40.0, 35.0, 110.0)
    tilt = math.radians(MEDIUM.tilt)
    # 15 cm along the edge tilted towards the target, from the edge's start
    forward = APOTHEM + 15.0 * math.cos(tilt)
    left = sign * (MEDIUM.width / 2.0 + 15.0 * math.sin(tilt))
    target = local_plane(tripod, forward, left)
    right_angle = [p for p in placements(tripod, HEX, Side.FRONT, MEDIUM) if p.tilt == 0.0]
    assert all(
        first_contact(p.start, p.direction, MEDIUM.length, target) is None for p in right_angle
    )
    shot = best_shot(tripod, HEX, Side.FRONT, MEDIUM, target)
    assert shot is not None
    assert shot.placement.tilt == sign * MEDIUM.tilt
    assert shot.distance < 15.0  # the target's near edge, before its centre line


def test_blocked_placement_gives_way_to_an_unblocked_one() -> None:
    tripod = Pose(30.0, 30.0, 200.0)
    # a target whose near edge slants: the left edge of the ruler meets it first
    target = local_poly(tripod, [(18.0, -3.0), (22.0, -3.0), (22.0, 3.0), (16.0, 3.0)])
    free = best_shot(tripod, HEX, Side.FRONT, MEDIUM, target)
    assert free is not None
    assert (free.placement.tilt, free.placement.edge) == (0.0, "left")
    assert free.distance == pytest.approx(16.5 - APOTHEM)
    # a plane in front of the left edge (local x 9.75..14.25, y 0.5..6.5)
    blocker = local_plane(tripod, 12.0, 3.5)
    shot = best_shot(tripod, HEX, Side.FRONT, MEDIUM, target, [blocker])
    assert shot is not None
    assert (shot.placement.tilt, shot.placement.edge) == (0.0, "right")
    assert shot.distance == pytest.approx(17.5 - APOTHEM)
    assert crosses_interior(free.placement.start, free.point, blocker)
    assert not crosses_interior(shot.placement.start, shot.point, blocker)
    # a wall across the whole front blocks every placement
    wall = local_poly(tripod, [(9.0, -12.0), (11.0, -12.0), (11.0, 12.0), (9.0, 12.0)])
    assert best_shot(tripod, HEX, Side.FRONT, MEDIUM, target, [wall]) is None
    # a base behind the target or off to the side changes nothing
    for other in (local_plane(tripod, 30.0, 0.0), local_plane(tripod, 10.0, -20.0)):
        again = best_shot(tripod, HEX, Side.FRONT, MEDIUM, target, [other])
        assert again is not None and again.distance == pytest.approx(free.distance)


@st.composite
def behind(draw: st.DrawFn) -> tuple[Pose, Side, Polygon]:
    """A tripod, one of its sides and a plane wholly behind that side's line."""
    tripod = draw(poses)
    which = draw(sides)
    normal = side_normal(tripod, which)
    side_frame = Pose(tripod.x, tripod.y, normal)
    centre = side_frame.to_world(draw(st.floats(-40.0, APOTHEM)), draw(st.floats(-40.0, 40.0)))
    target = plane(Pose(centre[0], centre[1], draw(headings)))
    assume(all(side_frame.to_local(v)[0] <= APOTHEM for v in target))
    return tripod, which, target


@SETTINGS
@given(behind(), rulers)
def test_nothing_behind_the_side_is_reached(
    case: tuple[Pose, Side, Polygon], ruler: RulerSpec
) -> None:
    tripod, which, target = case
    assert best_shot(tripod, HEX, which, ruler, target) is None


@st.composite
def ray_cases(draw: st.DrawFn) -> tuple[Pose, Side, RulerSpec, Polygon, list[Polygon]]:
    """A tripod firing from one side at a plane near that side, maybe with a plane between."""
    tripod = draw(poses)
    which = draw(sides)
    ruler = draw(rulers)
    frame = Pose(tripod.x, tripod.y, side_normal(tripod, which))

    def near(lo: float, hi: float) -> Polygon:
        centre = frame.to_world(
            APOTHEM + draw(st.floats(lo, hi)), draw(st.floats(-(hi * 0.8), hi * 0.8))
        )
        return plane(Pose(centre[0], centre[1], draw(headings)))

    hexa = hexagon(tripod, HEX)
    target = near(3.0, ruler.length + 5.0)
    assume(not convex_overlap(target, hexa))
    others: list[Polygon] = []
    if draw(st.booleans()):
        blocker = near(3.0, 20.0)
        assume(not convex_overlap(blocker, hexa) and not convex_overlap(blocker, target))
        others.append(blocker)
    return tripod, which, ruler, target, others


def stable_shot(
    tripod: Pose, which: Side, ruler: RulerSpec, target: Polygon, others: Sequence[Polygon]
) -> RayShot | None:
    """``best_shot``, after rejecting (``assume``) configurations sitting on a threshold:
    an edge grazing the target or a blocker, or a distance on the ruler or half mark."""
    shot = best_shot(tripod, HEX, which, ruler, target, others)
    d = shot_distance(shot)
    for delta in (1e-6, -1e-6):
        variant = best_shot(
            tripod, HEX, which, ruler, grown(target, delta), [grown(o, -delta) for o in others]
        )
        assume(same(shot_distance(variant), d, 1e-4))
    if shot is not None:
        assume(abs(d - ruler.length) > 1e-6 and abs(d - ruler.half) > 1e-6)
    return shot


@SETTINGS
@given(ray_cases(), motions)
def test_heat_ray_is_invariant_when_the_table_moves(
    case: tuple[Pose, Side, RulerSpec, Polygon, list[Polygon]], m: Motion
) -> None:
    tripod, which, ruler, target, others = case
    shot = stable_shot(tripod, which, ruler, target, others)
    moved = best_shot(
        m.pose(tripod), HEX, which, ruler, m.poly(target), [m.poly(o) for o in others]
    )
    assert (shot is None) == (moved is None)
    if shot is not None and moved is not None:
        assert moved.distance == pytest.approx(shot.distance, abs=1e-6)
        assert moved.short is shot.short
        assert close_point(moved.point, m.point(shot.point), 1e-6)


GRAZES: list[tuple[Pose, Side, RulerSpec, Polygon, list[Polygon]]] = [
    # a plane turned as the tripod (3.75 and 4 degrees), one ruler edge running along
    # its side: found by hypothesis, where the engine and shapely disagreed on whether a
    # line on the side meets the base (a 1.75 cm contact against none, none against a
    # 4.26 cm run along the side), each by the last bit of a coordinate
    (
        Pose(0.0, 0.0, 3.75),
        Side.FRONT,
        MEDIUM,
        (
            (6.165213694100853, -1.0991290517036525),
            (10.655578848674569, -0.8048149701680085),
            (10.263160073293712, 5.182338569263612),
            (5.772794918719995, 4.888024487727968),
        ),
        [],
    ),
    (
        Pose(0.0, 0.0, 4.0),
        Side.FRONT,
        MEDIUM,
        (
            (4.963117374214201, 1.8507178224020038),
            (9.45215560038341, 2.164621954250567),
            (9.033616757918658, 8.150006255809512),
            (4.544578531749449, 7.8361021239609485),
        ),
        [],
    ),
]


@SETTINGS
@given(ray_cases())
@example(GRAZES[0])
@example(GRAZES[1])
def test_heat_ray_shot_is_a_real_unblocked_ruler_edge(
    case: tuple[Pose, Side, RulerSpec, Polygon, list[Polygon]],
) -> None:
    """The reported shot: an edge leaving the side, within the tilt, meeting the target's
    boundary first at the reported distance, crossing no other base; and no placement
    reaches the target sooner without being blocked."""
    tripod, which, ruler, target, others = case
    shot = best_shot(tripod, HEX, which, ruler, target, others)
    target_shape = shapely.Polygon(target)
    hexa = shapely.Polygon(hexagon(tripod, HEX))
    for p in placements(tripod, HEX, which, ruler):
        t = first_contact(p.start, p.direction, ruler.length, target)
        edge = shapely.LineString([p.start, p.end(ruler.length)])
        if (
            edge.distance(target_shape) < 1e-9
            and edge.intersection(target_shape.buffer(-1e-9)).is_empty
        ):
            # the edge only grazes the base: running along one of its sides (the target
            # turned as the tripod), it meets it or misses it by the last bit of a
            # coordinate, in the engine's sign test and in shapely's alike
            continue
        hits = edge.intersection(target_shape)
        if hits.is_empty:
            assert t is None
            continue
        if t is None:
            # only a floating-point graze of the target
            assert hits.length < 1e-6
            continue
        assert hits.distance(shapely.Point(p.start)) == pytest.approx(t, abs=1e-6)
        # the ruler never runs through the firing tripod's own base
        assert edge.intersection(hexa).length < 1e-9
        met = p.end(t)
        free = not any(crosses_interior(p.start, met, o) for o in others)
        if free:
            assert shot is not None and shot.distance <= t + 1e-9
    if shot is None:
        return
    p = shot.placement
    assert abs(p.tilt) in (0.0, ruler.tilt)
    assert dist(p.start, shot.point) == pytest.approx(shot.distance, abs=1e-9)
    assert shot.distance <= ruler.length + 1e-9
    assert target_shape.exterior.distance(shapely.Point(shot.point)) < 1e-7
    for o in others:
        assert (
            shapely.LineString([p.start, shot.point]).intersection(shapely.Polygon(o)).length < 1e-7
        )


# --------------------------------------------------------------------------- crosses_interior

SQUARE: Polygon = ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0))


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((-1.0, -1.0), (5.0, 5.0), True),  # through the middle, corner to corner
        ((-1.0, 2.0), (5.0, 2.0), True),  # straight through
        ((0.0, 2.0), (2.0, 2.0), True),  # from the boundary inwards
        ((1.0, 1.0), (2.0, 3.0), True),  # wholly inside
        ((-1.0, 1.0), (1.0, -1.0), False),  # touching a corner
        ((-1.0, 0.0), (5.0, 0.0), False),  # along an edge, past both corners
        ((1.0, 4.0), (3.0, 4.0), False),  # along part of an edge
        ((4.0, -2.0), (4.0, 6.0), False),  # along the right edge
        ((-2.0, 2.0), (0.0, 2.0), False),  # ending on the boundary from outside
        ((5.0, 5.0), (6.0, 9.0), False),  # wholly outside
        ((-1.0, 6.0), (6.0, 5.0), False),  # passing by
    ],
)
def test_crosses_interior_examples(a: Point, b: Point, expected: bool) -> None:
    assert crosses_interior(a, b, SQUARE) is expected
    assert crosses_interior(b, a, SQUARE) is expected


def test_crosses_interior_on_a_hexagon() -> None:
    pose = Pose(10.0, 10.0, 33.0)
    v = hexagon(pose, HEX)
    assert crosses_interior(v[0], v[3], v)  # a long diagonal
    assert crosses_interior(v[0], v[2], v)  # a short diagonal
    for i in range(6):
        assert not crosses_interior(v[i], v[(i + 1) % 6], v)  # a side
        # a line touching only the corner v[i], along the tangent there
        out = pose.to_world(*Pose(0.0, 0.0, 60.0 * i - 30.0).to_world(HEX, 3.0))
        back = pose.to_world(*Pose(0.0, 0.0, 60.0 * i - 30.0).to_world(HEX, -3.0))
        assert not crosses_interior(out, back, v)
        # a ruler from outside stopping on the middle of a side
        m = side_midpoint(pose, HEX, Side(i))
        far = pose.to_world(*Pose(0.0, 0.0, 60.0 * i).to_world(APOTHEM + 10.0, 0.0))
        assert not crosses_interior(far, m, v)


@SETTINGS
@given(
    st.tuples(small, small),
    st.tuples(small, small),
    st.builds(Pose, small, small, headings),
    st.floats(1.0, 20.0),
)
def test_crosses_interior_agrees_with_shapely(a: Point, b: Point, pose: Pose, side: float) -> None:
    assume(dist(a, b) > 1e-3)
    poly = hexagon(pose, side)
    line = shapely.LineString([a, b])
    shape = shapely.Polygon(poly)
    inside = line.intersection(shape).length - line.intersection(shape.exterior).length
    assume(inside > 1e-6 or inside < 1e-12)
    assume(line.distance(shapely.Point(pose.point)) < side * 0.999 or inside < 1e-12)
    assert crosses_interior(a, b, poly) is (inside > 1e-6)


# --------------------------------------------------------------------------- protection


def test_facing_sides_examples() -> None:
    tripod = Pose(50.0, 40.0, 70.0)

    def at(forward: float, left: float) -> Point:
        return tripod.to_world(forward, left)

    # just in front: only the front side faces the point
    assert facing_sides(tripod, HEX, at(APOTHEM + 2.0, 0.0)) == [Side.FRONT]
    # beyond the corner between front and front-left: those two
    assert facing_sides(tripod, HEX, at(7.0 * math.cos(math.radians(30)), 3.5)) == [
        Side.FRONT,
        Side.FRONT_LEFT,
    ]
    # far ahead: the front side and both front flanks
    assert facing_sides(tripod, HEX, at(20.0, 0.0)) == [
        Side.FRONT,
        Side.FRONT_LEFT,
        Side.FRONT_RIGHT,
    ]
    assert facing_sides(tripod, HEX, at(-APOTHEM - 2.0, 0.0)) == [Side.REAR]
    assert facing_sides(tripod, HEX, at(0.0, 0.0)) == []  # inside
    # on the extension of the front side's line: the front does not face it
    assert facing_sides(tripod, HEX, at(APOTHEM, -20.0)) == [Side.REAR_RIGHT, Side.FRONT_RIGHT]


@SETTINGS
@given(poses, st.floats(0.0, 360.0), st.floats(HEX + 1e-3, 60.0), motions)
def test_facing_sides_from_outside(pose: Pose, bearing: float, distance: float, m: Motion) -> None:
    origin = pose.to_world(
        distance * math.cos(math.radians(bearing)), distance * math.sin(math.radians(bearing))
    )
    found = facing_sides(pose, HEX, origin)
    assert 1 <= len(found) <= 3
    # contiguous: k consecutive sides
    ks = sorted(int(s) for s in found)
    assert any(sorted((ks[0] + j + i) % 6 for i in range(len(ks))) == ks for j in range(6))
    # the side facing the point's bearing most directly is among them
    best = min(Side, key=lambda s: abs(angle_diff(bearing, 60.0 * int(s))))
    assert best in found
    # invariant when the table moves, unless the point sits on a side's line
    margins = []
    for s in Side:
        a, b = side_segment(pose, HEX, s)
        margins.append(abs(cross(a, b, origin)) / HEX)
    assume(min(margins) > 1e-6)
    assert facing_sides(m.pose(pose), HEX, m.point(origin)) == found


def protection_point(
    firer: Pose, tripod: Pose, protected: Sequence[Side], others: Sequence[Polygon] = ()
) -> Point | None:
    """The unprotected point a plane at ``firer`` reaches on a tripod at ``tripod`` (None:
    the electrified armour is in effect, or no shot at all)."""
    target = hexagon(tripod, HEX)
    seen = sight(firer, FRONT_ARC, target, EARTH, others)
    return unprotected_point(tripod, HEX, protected, firer.point, seen.visible(), EARTH)


def firing_from(tripod: Pose, forward: float, left: float) -> Pose:
    """A plane at (forward, left) in the tripod's frame, pointing at the tripod's centre."""
    x, y = tripod.to_world(forward, left)
    return Pose(x, y, math.degrees(math.atan2(tripod.y - y, tripod.x - x)))


def on_side(point: Point, tripod: Pose, which: Side, tol: float = 1e-7) -> bool:
    a, b = side_segment(tripod, HEX, which)
    return float(shapely.LineString([a, b]).distance(shapely.Point(point))) <= tol


FRONT_ONLY = [Side.FRONT]
ARMOURED_FRONT = [Side.FRONT, Side.FRONT_LEFT, Side.FRONT_RIGHT]


@given(motions)
@FEW
def test_front_only_armour_is_decided_by_the_side_crossed(m: Motion) -> None:
    """Tripod with only its front side protected, anywhere and any way round."""
    tripod = m.pose(Pose(45.0, 45.0, 0.0))
    # straight in front and close: only the front side can be reached -> protected
    assert protection_point(firing_from(tripod, 7.5, 0.0), tripod, FRONT_ONLY) is None
    # straight in front but far: the ruler can reach a front flank without crossing the
    # front side -> unprotected
    far = protection_point(firing_from(tripod, 20.0, 0.0), tripod, FRONT_ONLY)
    assert far is not None
    assert on_side(far, tripod, Side.FRONT_LEFT) or on_side(far, tripod, Side.FRONT_RIGHT)
    # from behind: the rear side, at its middle
    rear = protection_point(firing_from(tripod, -20.0, 0.0), tripod, FRONT_ONLY)
    assert rear is not None
    assert close_point(rear, side_midpoint(tripod, HEX, Side.REAR), 1e-6)
    # from either side: the flank on that side (the corner they share is the nearest)
    for left, flanks in (
        (20.0, (Side.FRONT_LEFT, Side.REAR_LEFT)),
        (-20.0, (Side.FRONT_RIGHT, Side.REAR_RIGHT)),
    ):
        point = protection_point(firing_from(tripod, 0.0, left), tripod, FRONT_ONLY)
        assert point is not None
        assert any(on_side(point, tripod, s) for s in flanks)


@given(motions)
@FEW
def test_armoured_front_protects_against_frontal_shots_only(m: Motion) -> None:
    tripod = m.pose(Pose(30.0, 60.0, 135.0))
    for forward, left in [(20.0, 0.0), (7.5, 0.0), (15.0, 8.0), (15.0, -8.0), (25.0, 3.0)]:
        assert protection_point(firing_from(tripod, forward, left), tripod, ARMOURED_FRONT) is None
    rear = protection_point(firing_from(tripod, -20.0, 0.0), tripod, ARMOURED_FRONT)
    assert rear is not None and close_point(rear, side_midpoint(tripod, HEX, Side.REAR), 1e-6)
    flank = protection_point(firing_from(tripod, 0.0, 20.0), tripod, ARMOURED_FRONT)
    assert flank is not None and on_side(flank, tripod, Side.REAR_LEFT)
    # nothing protected: every shot in reach is unprotected
    for forward, left in [(20.0, 0.0), (-20.0, 0.0), (0.0, 20.0), (12.0, -12.0)]:
        assert protection_point(firing_from(tripod, forward, left), tripod, []) is not None
    # out of the ruler's reach: no point at all
    assert protection_point(firing_from(tripod, -(EARTH + 6.0), 0.0), tripod, []) is None


@given(motions)
@FEW
def test_blocker_hiding_the_unprotected_side_leaves_the_armour_in_effect(m: Motion) -> None:
    """From above-left only the (protected) front-left and the rear-left sides face the
    plane; a plane in between hides the whole rear-left side but not the front-left."""
    tripod = m.pose(Pose(40.0, 40.0, 0.0))
    firer = m.pose(Pose(40.0, 60.0, 270.0))
    protected = [Side.FRONT_LEFT]
    assert facing_sides(tripod, HEX, firer.point) == [Side.FRONT_LEFT, Side.REAR_LEFT]
    free = protection_point(firer, tripod, protected)
    assert free is not None and on_side(free, tripod, Side.REAR_LEFT)
    blocker = plane(m.pose(Pose(38.5, 51.0, 0.0)))  # x 36.25..40.75, y 48..54 before moving
    assert protection_point(firer, tripod, protected, [blocker]) is None
    # the front-left side is still in sight: the shot itself is possible
    seen = sight(firer, FRONT_ARC, hexagon(tripod, HEX), EARTH, [blocker])
    assert seen.reachable(EARTH)


@pytest.mark.parametrize("rotation", [float(r) for r in range(0, 360, 15)])
def test_plane_close_in_front_reaches_the_unprotected_front_whatever_the_rotation(
    rotation: float,
) -> None:
    """A plane 8 cm straight in front, facing the tripod: its arc cuts the hexagon, and the
    nearest point it reaches is the middle of the (unprotected) front side, however the
    table is turned. (Regression: the side lies on the boundary of ``visible()`` only up to
    rounding, and a plain intersection came out empty or as a wrong piece.)"""
    tripod = Pose(0.0, 0.0, rotation)
    point = protection_point(firing_from(tripod, 8.0, 0.0), tripod, [Side.REAR])
    assert point is not None
    assert close_point(point, side_midpoint(tripod, HEX, Side.FRONT), 1e-6)


@st.composite
def plane_shots(draw: st.DrawFn) -> tuple[Pose, Pose, list[Side], list[Polygon]]:
    """A plane near a tripod, roughly pointing at it; protected sides; maybe a blocker."""
    tripod = draw(poses)
    bearing = draw(st.floats(0.0, 360.0))
    distance = draw(st.floats(8.0, EARTH + 8.0))
    x, y = tripod.to_world(
        distance * math.cos(math.radians(bearing)), distance * math.sin(math.radians(bearing))
    )
    aim = math.degrees(math.atan2(tripod.y - y, tripod.x - x)) + draw(st.floats(-35.0, 35.0))
    firer = Pose(x, y, aim)
    hexa = hexagon(tripod, HEX)
    assume(not convex_overlap(plane(firer), hexa))
    protected = sorted(draw(st.sets(sides)))
    others: list[Polygon] = []
    if draw(st.booleans()):
        t = draw(st.floats(0.2, 0.8))
        bx = x + t * (tripod.x - x) + draw(st.floats(-6.0, 6.0))
        by = y + t * (tripod.y - y) + draw(st.floats(-6.0, 6.0))
        blocker = plane(Pose(bx, by, draw(headings)))
        assume(not convex_overlap(blocker, hexa) and not convex_overlap(blocker, plane(firer)))
        others.append(blocker)
    return firer, tripod, protected, others


def stable_protection(
    firer: Pose, tripod: Pose, protected: Sequence[Side], others: Sequence[Polygon]
) -> Point | None:
    """The protection answer, after rejecting (``assume``) configurations on a threshold:
    moving the plane by a micrometre, turning it or growing/shrinking the blocker by a
    micrometre must not change the answer."""
    point = protection_point(firer, tripod, protected, others)
    tiny = 1e-4
    variants: list[Callable[[], Point | None]] = [
        lambda: protection_point(
            Pose(firer.x + tiny, firer.y, firer.heading), tripod, protected, others
        ),
        lambda: protection_point(
            Pose(firer.x, firer.y - tiny, firer.heading), tripod, protected, others
        ),
        lambda: protection_point(
            Pose(firer.x, firer.y, firer.heading + 1e-3), tripod, protected, others
        ),
        lambda: protection_point(
            Pose(firer.x, firer.y, firer.heading - 1e-3), tripod, protected, others
        ),
        lambda: protection_point(firer, tripod, protected, [grown(o, tiny) for o in others]),
        lambda: protection_point(firer, tripod, protected, [grown(o, -tiny) for o in others]),
    ]
    for variant in variants:
        assume((variant() is None) == (point is None))
    if point is not None:
        assume(abs(dist(firer.point, point) - EARTH) > 1e-3)
    return point


@SETTINGS
@given(plane_shots(), motions)
def test_protection_is_invariant_when_the_table_moves(
    case: tuple[Pose, Pose, list[Side], list[Polygon]], m: Motion
) -> None:
    """PROPERTY: protection is decided by which side the reaching ruler crosses, whatever
    the table's orientation: rotating and translating everything changes nothing."""
    firer, tripod, protected, others = case
    point = stable_protection(firer, tripod, protected, others)
    moved = protection_point(m.pose(firer), m.pose(tripod), protected, [m.poly(o) for o in others])
    assert (point is None) == (moved is None)
    if point is not None and moved is not None:
        assert dist(m.point(point), m.pose(firer).point) == pytest.approx(
            dist(point, firer.point), abs=1e-6
        )


@SETTINGS
@given(plane_shots())
def test_protection_agrees_with_a_sampled_ruler(
    case: tuple[Pose, Pose, list[Side], list[Polygon]],
) -> None:
    """The point found is a real way in through an unprotected side (in the arc, within
    the ruler, crossing neither the tripod's base nor another base); and when none is
    found, no sampled point of an unprotected side can be reached with a margin."""
    firer, tripod, protected, others = case
    point = protection_point(firer, tripod, protected, others)
    hexa = shapely.Polygon(hexagon(tripod, HEX))
    if point is not None:
        assert any(on_side(point, tripod, s) for s in Side if s not in protected)
        assert dist(firer.point, point) <= EARTH + 1e-9
        assert point_in_arc(point, firer, FRONT_ARC)
        ray = shapely.LineString([firer.point, point])
        assert ray.intersection(hexa).length < 1e-7
        for o in others:
            assert ray.intersection(shapely.Polygon(o)).length < 1e-7
        return
    margin = 1e-4
    for s in Side:
        if s in protected:
            continue
        a, b = side_segment(tripod, HEX, s)
        normal = math.radians(side_normal(tripod, s))
        for i in range(1, 40):
            q = (a[0] + (b[0] - a[0]) * i / 40, a[1] + (b[1] - a[1]) * i / 40)
            if dist(firer.point, q) > EARTH - margin:
                continue
            if not point_in_arc(q, firer, Arc(FRONT_ARC.centre, FRONT_ARC.width - 1e-3)):
                continue
            # aim a hair outside the side: the ruler must stay clear of every base
            out = (q[0] + margin * math.cos(normal), q[1] + margin * math.sin(normal))
            ray = shapely.LineString([firer.point, out])
            if ray.distance(hexa) < margin / 10:
                continue
            if any(ray.distance(shapely.Polygon(o)) < margin for o in others):
                continue
            raise AssertionError(f"side {s.label} reachable at {q}, yet reported protected")


def test_turned_heading_stays_below_360() -> None:
    """Headings are kept in [0, 360) (docs/geometry.md). (Regression: ``% 360.0`` gives
    360.0 for (59.99999999999999 - 60).)"""
    assert turned(Pose(0.0, 0.0, 59.99999999999999), -1).heading < 360.0


def test_protection_module_imports_what_it_uses() -> None:
    """``unprotected_point`` in a fresh interpreter (no other module imported first)."""
    code = (
        "import shapely\n"
        "from dogfight.geometry.hexbase import hexagon\n"
        "from dogfight.geometry.pose import Pose\n"
        "from dogfight.geometry.protection import unprotected_point\n"
        "t = Pose(0.0, 0.0, 0.0)\n"
        "hexa = shapely.Polygon(hexagon(t, 5.0))\n"
        "print(unprotected_point(t, 5.0, [], (20.0, 0.0), hexa, 30.0))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


# --------------------------------------------------------------------------- docs examples


def tripod_move(pose: Pose, card: TripodCard, backward: bool = False) -> Pose:
    """docs/geometry.md, *Tripod maneuver cards*: an airplane card with the hexagon's
    depth as the base length; backwards, the card is applied to the rear side."""
    as_plane = ManeuverCard(
        id=card.id, symbol=Symbol.STRAIGHT, forward=card.forward, left=card.left, turn=card.turn
    )
    depth = 2.0 * APOTHEM
    if not backward:
        return apply_card(pose, as_plane, depth)
    rear = apply_card(Pose(pose.x, pose.y, pose.heading + 180.0), as_plane, depth)
    return Pose(rear.x, rear.y, (rear.heading + 180.0) % 360.0)


def test_docs_tripod_move_examples() -> None:
    deck = CATALOG.tripod_decks["T1"]
    start = Pose(45.0, 20.0, 90.0)
    expected = {
        ("1", False): (45.0, 32.66, 90.0),
        ("1", True): (45.0, 7.34, 90.0),
        ("5", False): (39.5, 29.5, 150.0),
        ("5", True): (50.5, 10.5, 150.0),
    }
    for (card_id, backward), (x, y, heading) in expected.items():
        after = tripod_move(start, deck.card(card_id), backward)
        assert (after.x, after.y) == pytest.approx((x, y), abs=0.01)
        assert angle_diff(after.heading, heading) == pytest.approx(0.0, abs=1e-9)


@SETTINGS
@given(poses, st.sampled_from(sorted(CATALOG.tripod_decks)), st.data())
def test_tripod_cards_move_by_the_documented_formula(
    pose: Pose, deck_id: str, data: st.DataObject
) -> None:
    card = data.draw(st.sampled_from(CATALOG.tripod_decks[deck_id].cards))
    rad = math.radians(card.turn)
    d_forward = APOTHEM + card.forward + APOTHEM * math.cos(rad)
    d_left = card.left + APOTHEM * math.sin(rad)
    ahead = tripod_move(pose, card)
    assert pose.to_local(ahead.point) == pytest.approx((d_forward, d_left), abs=1e-9)
    assert angle_diff(ahead.heading, pose.heading + card.turn) == pytest.approx(0.0, abs=1e-9)
    # backwards: the same move, mirrored, behind the tripod; the heading turns the same way
    back = tripod_move(pose, card, backward=True)
    assert pose.to_local(back.point) == pytest.approx((-d_forward, -d_left), abs=1e-9)
    assert angle_diff(back.heading, pose.heading + card.turn) == pytest.approx(0.0, abs=1e-9)


def test_shipped_tripod_decks_are_mirrored_and_legal() -> None:
    for deck in CATALOG.tripod_decks.values():
        symbols = {c.symbol.value for c in deck.cards}
        assert {"move", "run", "stand", "reverse"} <= symbols, deck.deck
        assert any(c.symbol.value == "stand" and not c.stop and not c.energy for c in deck.cards)
        assert [c.id for c in deck.cards] == [str(i) for i in range(1, len(deck.cards) + 1)]
        assert 10 <= len(deck.cards) <= 14
        assert deck.card_width >= HEX
        for c in deck.cards:
            if c.stationary:
                assert (c.forward, c.left, c.turn) == (0.0, 0.0, 0.0)
            elif c.turn:
                assert any(
                    (m.forward, m.left, m.turn, m.stop, m.energy)
                    == (c.forward, -c.left, -c.turn, c.stop, c.energy)
                    for m in deck.cards
                ), (deck.deck, c.id)


def test_docs_heat_ray_examples() -> None:
    locust = Pose(45.0, 20.0, 90.0)
    shot = best_shot(locust, HEX, Side.FRONT, MEDIUM, plane(Pose(45.0, 40.0, 270.0)))
    assert shot is not None and not shot.short
    assert shot.placement.tilt == 0.0 and shot.distance == pytest.approx(13.42, abs=0.005)
    shot = best_shot(locust, HEX, Side.FRONT, MEDIUM, plane(Pose(45.0, 38.0, 270.0)))
    assert shot is not None and shot.short and shot.distance == pytest.approx(11.42, abs=0.005)
    shot = best_shot(locust, HEX, Side.FRONT, MEDIUM, plane(Pose(56.0, 35.0, 0.0)))
    assert shot is not None and not shot.short
    assert (shot.placement.tilt, shot.placement.edge) == (-MEDIUM.tilt, "right")
    assert shot.placement.start == pytest.approx((46.5, 24.33), abs=0.005)
    assert shot.point == pytest.approx((53.75, 36.89), abs=0.005)
    assert shot.distance == pytest.approx(14.5)
    blocker = plane(Pose(43.0, 30.0, 0.0))
    target = plane(Pose(45.0, 40.0, 270.0))
    shot = best_shot(locust, HEX, Side.FRONT, MEDIUM, target, [blocker])
    assert shot is not None and shot.placement.edge == "right"
    assert shot.distance == pytest.approx(13.42, abs=0.005)


def test_docs_protection_examples() -> None:
    locust = Pose(45.0, 45.0, 90.0)
    assert protection_point(Pose(45.0, 70.0, 270.0), locust, ARMOURED_FRONT) is None
    rear = protection_point(Pose(45.0, 20.0, 90.0), locust, ARMOURED_FRONT)
    assert rear is not None and rear == pytest.approx((45.0, 40.67), abs=0.005)
    side = Pose(70.0, 45.0, 180.0)
    assert facing_sides(locust, HEX, side.point) == [Side.REAR_RIGHT, Side.FRONT_RIGHT]
    corner = protection_point(side, locust, ARMOURED_FRONT)
    assert corner is not None and corner == pytest.approx((50.0, 45.0), abs=1e-6)
    close = Pose(45.0, 52.5, 270.0)
    assert facing_sides(locust, HEX, close.point) == [Side.FRONT]
    assert protection_point(close, locust, FRONT_ONLY) is None
    far = protection_point(Pose(45.0, 70.0, 270.0), locust, FRONT_ONLY)
    assert far is not None and far == pytest.approx((42.5, 49.33), abs=0.005)
