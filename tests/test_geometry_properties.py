"""Property tests (and a few exact examples) for the table geometry.

Poses, maneuver cards, overlaps, ruler reach, firing arcs and line of sight must not depend
on where the table is or how it is turned, must measure whole bases (never centre to
centre) and must agree with an independent shapely computation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest
import shapely
from geometry_helpers import Motion
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dogfight.catalog.loader import load_catalog
from dogfight.catalog.models import ManeuverCard, ManeuverDeck
from dogfight.geometry.hexbase import hexagon
from dogfight.geometry.maneuver import apply_card, arrowhead, card_area, fly_card, nose
from dogfight.geometry.pose import Point, Pose, normalize_heading
from dogfight.geometry.reach import Arc, Sight, _shadow_points, shadow, shadows, sight
from dogfight.geometry.shapes import Polygon, area, contains, convex_overlap, rectangle
from dogfight.rules.firing import blocked_shots, options, table_of
from dogfight.rules.state import GameState
from dogfight.situation.format import build, parse_situation

CATALOG = load_catalog()
CONSTANTS = CATALOG.constants
BASE_L = CONSTANTS.airplane_base.length
BASE_W = CONSTANTS.airplane_base.width
RULER = CONSTANTS.ruler.length
HALF = CONSTANTS.ruler.half
FRONT = Arc(CONSTANTS.arcs.front.centre, CONSTANTS.arcs.front.width)
REAR = Arc(CONSTANTS.arcs.rear.centre, CONSTANTS.arcs.rear.width)
DECKS: list[ManeuverDeck] = [CATALOG.maneuver_decks[k] for k in sorted(CATALOG.maneuver_decks)]

SETTINGS = settings(max_examples=150, deadline=None)
FEW = settings(max_examples=80, deadline=None)


# --------------------------------------------------------------------------- helpers


def angle_diff(a: float, b: float) -> float:
    """a - b brought into [-180, 180)."""
    return (a - b + 180.0) % 360.0 - 180.0


def assert_pose_close(p: Pose, q: Pose, tol: float = 1e-9) -> None:
    assert math.isclose(p.x, q.x, abs_tol=tol), (p, q)
    assert math.isclose(p.y, q.y, abs_tol=tol), (p, q)
    assert abs(angle_diff(p.heading, q.heading)) <= tol, (p, q)


def base(pose: Pose) -> Polygon:
    return rectangle(pose, BASE_L, BASE_W)


def shp(poly: Sequence[Point]) -> shapely.Polygon:
    return shapely.Polygon(poly)


def overlap_area(a: Sequence[Point], b: Sequence[Point]) -> float:
    return float(shp(a).intersection(shp(b)).area)


def gap(a: Sequence[Point], b: Sequence[Point]) -> float:
    return float(shp(a).distance(shp(b)))


def bearing(origin: Point, p: Point) -> float:
    return math.atan2(p[1] - origin[1], p[0] - origin[0])


def wrap(rad: float) -> float:
    return (rad + math.pi) % (2 * math.pi) - math.pi


def polar(origin: Pose, distance: float, degrees: float) -> Point:
    """A point ``distance`` from ``origin``'s dot, ``degrees`` off its heading."""
    rad = math.radians(degrees)
    return origin.to_world(distance * math.cos(rad), distance * math.sin(rad))


def wedge(pose: Pose, arc: Arc, far: float = 1000.0) -> shapely.Polygon:
    """The arc's wedge as an independent shapely polygon (exact along its two edges)."""
    axis = pose.heading + arc.centre
    steps = 16
    points = [pose.point]
    for i in range(steps + 1):
        a = math.radians(axis - arc.width / 2.0 + arc.width * i / steps)
        points.append((pose.x + far * math.cos(a), pose.y + far * math.sin(a)))
    return shapely.Polygon(points)


def disk(centre: Point, radius: float, outer: bool) -> shapely.Geometry:
    """A polygon containing (``outer``) or contained in the disk of ``radius``."""
    quad_segs = 64
    slack = radius * (1 - math.cos(math.pi / (4 * quad_segs)))
    r = radius + slack + 1e-6 if outer else radius - 1e-6
    return shapely.Point(centre).buffer(r, quad_segs=quad_segs)


def oracle_distance(pose: Pose, arc: Arc, target: Polygon) -> float:
    """Nearest point of (target base ∩ arc wedge) by shapely: the reference for ``sight``."""
    part = shp(target).intersection(wedge(pose, arc))
    if part.is_empty:
        return math.inf
    return float(part.distance(shapely.Point(pose.point)))


def angular_extent(origin: Point, geom: shapely.Geometry, mid: float) -> tuple[float, float]:
    """Lowest and highest bearing (radians, relative to ``mid``) of a geometry's vertices."""
    coords: list[tuple[float, float]] = []
    parts = getattr(geom, "geoms", [geom])
    for g in parts:
        if isinstance(g, shapely.Polygon):
            coords.extend(g.exterior.coords)
        else:
            coords.extend(g.coords)
    offsets = [wrap(bearing(origin, (x, y)) - mid) for x, y in coords]
    return min(offsets), max(offsets)


coords = st.floats(-200.0, 200.0, allow_nan=False, allow_infinity=False)
small = st.floats(-50.0, 50.0, allow_nan=False, allow_infinity=False)
headings = st.floats(-720.0, 720.0, allow_nan=False, allow_infinity=False)
poses = st.builds(Pose, coords, coords, headings)
table_poses = st.builds(
    Pose, st.floats(0.0, 90.0), st.floats(0.0, 90.0), st.floats(0.0, 360.0, exclude_max=True)
)
motions = st.builds(Motion, small, small, headings, st.tuples(small, small))
arcs = st.sampled_from([FRONT, REAR])


def close(a: float, b: float, tol: float) -> bool:
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= tol


def stable_sight(pose: Pose, arc: Arc, target: Polygon, others: Sequence[Polygon] = ()) -> Sight:
    """``sight`` with the ruler, after rejecting (``assume``) configurations that sit on a
    threshold: an arc edge, a shadow edge or the ruler / half-mark length."""
    seen = sight(pose, arc, target, RULER, others)
    tiny = 1e-5  # degrees
    about = pose.point
    variants = [
        sight(pose, Arc(arc.centre, arc.width + tiny), target, RULER, others),
        sight(pose, Arc(arc.centre, arc.width - tiny), target, RULER, others),
    ]
    for turn in (tiny, -tiny):
        m = Motion(0.0, 0.0, turn, about)
        variants.append(sight(pose, arc, m.poly(target), RULER, others))
        variants.append(sight(pose, arc, target, RULER, [m.poly(o) for o in others]))
    for v in variants:
        assume(close(v.distance, seen.distance, 1e-3))
    if math.isfinite(seen.distance):
        assume(abs(seen.distance - RULER) > 1e-6 and abs(seen.distance - HALF) > 1e-6)
    if math.isfinite(seen.arc_distance):
        assume(abs(seen.arc_distance - RULER) > 1e-6)
    return seen


@st.composite
def shots(
    draw: st.DrawFn, near: float = 3.0, far: float = RULER + 6.0
) -> tuple[Pose, Arc, Polygon]:
    """A firer, one of its arcs and a target base near that arc, not overlapping the firer."""
    firer = draw(poses)
    arc = draw(arcs)
    distance = draw(st.floats(near, far))
    off = draw(st.floats(-arc.width / 2.0 - 40.0, arc.width / 2.0 + 40.0))
    centre = polar(firer, distance, arc.centre + off)
    target = base(Pose(centre[0], centre[1], draw(headings)))
    assume(overlap_area(target, base(firer)) == 0.0)
    return firer, arc, target


def random_base(draw: st.DrawFn, firer: Pose, lo: float = 4.5, hi: float = RULER + 5) -> Polygon:
    centre = polar(firer, draw(st.floats(lo, hi)), draw(st.floats(-180.0, 180.0)))
    return base(Pose(centre[0], centre[1], draw(headings)))


# --------------------------------------------------------------------------- poses


@SETTINGS
@given(poses, st.tuples(coords, coords))
def test_to_world_to_local_round_trip(pose: Pose, local: Point) -> None:
    world = pose.to_world(*local)
    back = pose.to_local(world)
    assert math.isclose(back[0], local[0], abs_tol=1e-9)
    assert math.isclose(back[1], local[1], abs_tol=1e-9)
    again = pose.to_world(*pose.to_local(world))
    assert math.isclose(again[0], world[0], abs_tol=1e-9)
    assert math.isclose(again[1], world[1], abs_tol=1e-9)


@SETTINGS
@given(poses, small, small, headings, small, small, headings)
def test_moved_composes(
    pose: Pose, f1: float, l1: float, t1: float, f2: float, l2: float, t2: float
) -> None:
    step = Pose(0.0, 0.0, 0.0).moved(f1, l1, t1).moved(f2, l2, t2)
    assert_pose_close(
        pose.moved(f1, l1, t1).moved(f2, l2, t2), pose.moved(step.x, step.y, step.heading)
    )
    moved = pose.moved(f1, l1, t1)
    assert all(
        math.isclose(a, b, abs_tol=1e-9)
        for a, b in zip(pose.to_local(moved.point), (f1, l1), strict=True)
    )
    assert_pose_close(
        pose.moved(0.0, 0.0, 0.0), Pose(pose.x, pose.y, normalize_heading(pose.heading))
    )


@SETTINGS
@given(
    st.one_of(
        st.floats(-1e6, 1e6),
        st.sampled_from(
            [0.0, -0.0, 360.0, -360.0, 720.0, -1e-15, 1e-15, 359.9999999999999, -359.9999999999999]
        ),
    )
)
def test_normalize_heading_range(degrees: float) -> None:
    value = normalize_heading(degrees)
    assert 0.0 <= value < 360.0
    assert abs(angle_diff(value, degrees)) <= 1e-9 * max(1.0, abs(degrees))


def test_normalize_heading_examples() -> None:
    assert normalize_heading(-90.0) == 270.0
    assert normalize_heading(360.0) == 0.0
    assert normalize_heading(450.0) == 90.0
    assert normalize_heading(-1e-15) == 0.0


@SETTINGS
@given(poses, motions, motions)
def test_transformed_is_rigid(pose: Pose, m1: Motion, m2: Motion) -> None:
    a, b = (pose.x + 3.0, pose.y - 2.0), (pose.x - 7.0, pose.y + 1.5)
    d = math.dist(a, b)
    assert math.isclose(math.dist(m1.point(a), m1.point(b)), d, abs_tol=1e-9)
    # a point fixed in the pose's frame stays fixed after moving the table
    local = (2.5, -1.25)
    assert all(
        math.isclose(u, v, abs_tol=1e-9)
        for u, v in zip(
            m1.pose(pose).to_world(*local), m1.point(pose.to_world(*local)), strict=True
        )
    )


# --------------------------------------------------------------------------- maneuvers

cards = st.sampled_from([(deck, card) for deck in DECKS for card in deck.cards])


@SETTINGS
@given(poses, cards, motions)
def test_apply_card_is_a_rigid_move(
    pose: Pose, deck_card: tuple[ManeuverDeck, ManeuverCard], m: Motion
) -> None:
    _, card = deck_card
    after_then_move = m.pose(apply_card(pose, card, BASE_L))
    move_then_after = apply_card(m.pose(pose), card, BASE_L)
    assert_pose_close(after_then_move, move_then_after, 1e-9)


@SETTINGS
@given(poses, cards)
def test_apply_card_matches_documented_formula(
    pose: Pose, deck_card: tuple[ManeuverDeck, ManeuverCard]
) -> None:
    _, card = deck_card
    after = apply_card(pose, card, BASE_L)
    half = BASE_L / 2.0
    rad = math.radians(card.turn)
    expected = pose.moved(
        half + card.forward + half * math.cos(rad), card.left + half * math.sin(rad), card.turn
    )
    assert_pose_close(after, expected, 1e-9)
    # the rear edge's middle of the moved base lies on the arrowhead
    rear = after.to_world(-half, 0.0)
    head = nose(pose, BASE_L).to_world(card.forward, card.left)
    assert math.isclose(rear[0], head[0], abs_tol=1e-9)
    assert math.isclose(rear[1], head[1], abs_tol=1e-9)


@SETTINGS
@given(poses, cards)
def test_apply_card_is_bit_for_bit_the_three_moves(
    pose: Pose, deck_card: tuple[ManeuverDeck, ManeuverCard]
) -> None:
    """The plain-float apply_card gives exactly the pose of its three rigid moves (nose,
    card, base put down), so transcripts do not move by a bit."""
    _, card = deck_card
    moves = arrowhead(pose, card, BASE_L).moved(BASE_L / 2.0, 0.0, 0.0)
    assert apply_card(pose, card, BASE_L) == moves


@SETTINGS
@given(
    st.floats(-200, 200),
    st.floats(-200, 200),
    st.one_of(
        st.floats(-1080, 1080),
        st.sampled_from(
            [0.0, -0.0, 90.0, 180.0, 270.0, 315.0, 360.0, -360.0, 359.99999999999994, -1e-15]
        ),
    ),
    cards,
)
def test_apply_card_keeps_every_bit_of_the_three_moves(
    x: float, y: float, heading: float, deck_card: tuple[ManeuverDeck, ManeuverCard]
) -> None:
    """fly_card calls normalize_heading only for a heading outside [0, 360): the pose
    is the three rigid moves' to the bit, the sign of a zero included (== would not
    see it)."""
    _, card = deck_card
    pose = Pose(x, y, heading)
    moves = arrowhead(pose, card, BASE_L).moved(BASE_L / 2.0, 0.0, 0.0)
    after = apply_card(pose, card, BASE_L)
    assert [v.hex() for v in (after.x, after.y, after.heading)] == [
        v.hex() for v in (moves.x, moves.y, moves.heading)
    ]


@SETTINGS
@given(
    st.floats(-200, 200),
    st.floats(-200, 200),
    st.one_of(st.floats(-1080, 1080), st.sampled_from([0.0, -0.0, 360.0, 90.0, 180.0])),
    st.lists(cards, min_size=1, max_size=4),
)
def test_fly_card_chains_bit_for_bit_as_apply_card(
    x: float, y: float, heading: float, chain: list[tuple[ManeuverDeck, ManeuverCard]]
) -> None:
    """fly_card, which carries the heading's cosine and sine from card to card, gives
    exactly the poses of apply_card flown one card after another, whatever the heading
    (outside [0, 360), zero of either sign)."""
    pose = Pose(x, y, heading)
    rad = math.radians(heading)
    state = (x, y, heading, math.cos(rad), math.sin(rad))
    for _, card in chain:
        pose = apply_card(pose, card, BASE_L)
        state = fly_card(*state, card, BASE_L / 2.0)
        assert Pose(*state[:3]) == pose
        assert math.copysign(1.0, state[0]) == math.copysign(1.0, pose.x)
        assert math.copysign(1.0, state[1]) == math.copysign(1.0, pose.y)


@SETTINGS
@given(poses, st.sampled_from(DECKS))
def test_straight_card_moves_forward_by_forward_plus_base_length(
    pose: Pose, deck: ManeuverDeck
) -> None:
    for card in deck.cards:
        if card.symbol.value != "straight":
            continue
        after = apply_card(pose, card, BASE_L)
        assert abs(angle_diff(after.heading, pose.heading)) <= 1e-9
        f, left = pose.to_local(after.point)
        assert math.isclose(f, card.forward + BASE_L, abs_tol=1e-9)
        assert math.isclose(left, 0.0, abs_tol=1e-9)


def mirror_twin(deck: ManeuverDeck, card: ManeuverCard) -> ManeuverCard:
    """The card of the deck with the same forward and opposite left and turn (a straight,
    stall or Immelmann is its own twin)."""
    for other in [card, *deck.cards]:
        if (
            other.forward == card.forward
            and other.left == -card.left
            and abs(angle_diff(other.turn, -card.turn)) < 1e-12
        ):
            return other
    raise AssertionError(f"deck {deck.deck}: card {card.id} has no mirror twin")


def test_every_card_has_a_mirror_twin() -> None:
    for deck in DECKS:
        for card in deck.cards:
            twin = mirror_twin(deck, card)
            if card.left or card.turn % 180:
                assert twin.id != card.id


@SETTINGS
@given(poses, cards)
def test_mirrored_cards_give_mirrored_moves(
    pose: Pose, deck_card: tuple[ManeuverDeck, ManeuverCard]
) -> None:
    deck, card = deck_card
    twin = mirror_twin(deck, card)
    a = apply_card(pose, card, BASE_L)
    b = apply_card(pose, twin, BASE_L)
    fa, la = pose.to_local(a.point)
    fb, lb = pose.to_local(b.point)
    assert math.isclose(fa, fb, abs_tol=1e-9)
    assert math.isclose(la, -lb, abs_tol=1e-9)
    assert abs(angle_diff(a.heading - pose.heading, -(b.heading - pose.heading))) <= 1e-9


@SETTINGS
@given(poses, cards)
def test_card_area_is_the_card_rectangle_in_front_of_the_nose(
    pose: Pose, deck_card: tuple[ManeuverDeck, ManeuverCard]
) -> None:
    deck, card = deck_card
    length = card.length or deck.card_length
    poly = card_area(pose, card, BASE_L, deck.card_length, deck.card_width)
    assert len(poly) == 4
    assert math.isclose(area(poly), length * deck.card_width, rel_tol=1e-9)  # positive: CCW
    front = pose.to_world(BASE_L / 2.0, 0.0)
    near_mid = ((poly[0][0] + poly[3][0]) / 2.0, (poly[0][1] + poly[3][1]) / 2.0)
    assert math.dist(near_mid, front) <= 1e-9
    local = sorted(
        (round(f, 9) + 0.0, round(left, 9) + 0.0) for f, left in map(pose.to_local, poly)
    )
    h, w = BASE_L / 2.0, deck.card_width / 2.0
    expected = sorted([(h, -w), (h, w), (h + length, -w), (h + length, w)])
    assert all(math.dist(p, q) <= 1e-6 for p, q in zip(local, expected, strict=True))
    # the card's own base-length straight keeps the moved base's rear middle on the card
    for c in deck.cards:
        if c.symbol.value == "straight":
            rear = apply_card(pose, c, BASE_L).to_world(-BASE_L / 2.0, 0.0)
            assert shp(poly).buffer(1e-6).covers(shapely.Point(rear))


# --------------------------------------------------------------------------- overlaps

rect_poses = st.builds(Pose, st.floats(-10.0, 10.0), st.floats(-10.0, 10.0), st.floats(0.0, 360.0))
sizes = st.floats(0.5, 12.0)


@SETTINGS
@given(rect_poses, sizes, sizes, rect_poses, sizes, sizes)
def test_convex_overlap_agrees_with_shapely(
    pa: Pose, la: float, wa: float, pb: Pose, lb: float, wb: float
) -> None:
    a = rectangle(pa, la, wa)
    b = rectangle(pb, lb, wb)
    inter = overlap_area(a, b)
    # skip touching / nearly touching pairs: the threshold is not robust there
    assume(inter > 1e-6 or gap(a, b) > 1e-6)
    assert convex_overlap(a, b) == (inter > 1e-9)
    assert convex_overlap(a, b) == convex_overlap(b, a)


@SETTINGS
@given(poses, sizes, sizes)
def test_rectangle_overlaps_itself(pose: Pose, length: float, width: float) -> None:
    r = rectangle(pose, length, width)
    assert convex_overlap(r, r)


@SETTINGS
@given(poses, sizes, sizes, st.floats(-1.0, 1.0), st.booleans())
def test_rectangles_sharing_only_an_edge_do_not_overlap(
    pose: Pose, length: float, width: float, slide: float, sideways: bool
) -> None:
    a = rectangle(pose, length, width)
    if sideways:  # side by side, sharing (part of) a long edge
        other = pose.moved(slide * length, width, 0.0)
    else:  # nose to tail, sharing (part of) the front edge
        other = pose.moved(length, slide * width, 0.0)
    b = rectangle(other, length, width)
    assume(abs(slide) < 0.999)
    assert not convex_overlap(a, b)
    assert not convex_overlap(b, a)
    # pushed 1 mm into each other they do overlap
    push = (
        pose.moved(slide * length, width - 0.1, 0.0)
        if sideways
        else pose.moved(length - 0.1, slide * width, 0.0)
    )
    assert convex_overlap(a, rectangle(push, length, width))


def test_overlap_examples() -> None:
    a = base(Pose(10.0, 10.0, 0.0))
    assert not convex_overlap(a, base(Pose(10.0 + BASE_L, 10.0, 0.0)))  # nose to tail
    assert not convex_overlap(a, base(Pose(10.0 + BASE_L, 10.0 + BASE_W, 0.0)))  # corner only
    assert convex_overlap(a, base(Pose(10.0 + BASE_L - 0.01, 10.0, 0.0)))
    assert convex_overlap(a, base(Pose(10.0, 10.0, 45.0)))


# --------------------------------------------------------------------------- reach


@SETTINGS
@given(shots(), motions)
def test_bare_sight_is_the_nearest_in_arc_point(shot: tuple[Pose, Arc, Polygon], m: Motion) -> None:
    firer, arc, target = shot
    seen = stable_sight(firer, arc, target)
    expected = oracle_distance(firer, arc, target)
    assert close(seen.distance, expected, 1e-6)
    assert close(seen.arc_distance, expected, 1e-6)
    assert seen.blockers == ()
    if math.isfinite(expected):
        assert seen.point is not None
        assert math.isclose(math.dist(firer.point, seen.point), seen.distance, abs_tol=1e-9)
        assert shp(target).buffer(1e-6).covers(shapely.Point(seen.point))
        assert wedge(firer, arc).buffer(1e-6).covers(shapely.Point(seen.point))
    # whole-table move: same reach, same range, and the nearest point moves with the table
    moved = sight(m.pose(firer), arc, m.poly(target), RULER)
    assert close(moved.distance, seen.distance, 1e-6)
    assert moved.reachable(RULER) == seen.reachable(RULER)
    assert moved.short(HALF) == seen.short(HALF)
    if seen.point is not None:
        assert moved.point is not None
        assert math.dist(moved.point, m.point(seen.point)) <= 1e-6


@SETTINGS
@given(shots())
def test_distance_never_exceeds_the_centre_distance(shot: tuple[Pose, Arc, Polygon]) -> None:
    firer, arc, target = shot
    centre = shp(target).centroid
    assume(wedge(firer, arc).buffer(-1e-6).contains(centre))
    seen = sight(firer, arc, target, RULER)
    centre_distance = math.dist(firer.point, (centre.x, centre.y))
    assert seen.distance <= centre_distance + 1e-9
    # and the base is measured, not the dot: strictly nearer by at least half a base length
    assert seen.distance <= centre_distance - min(BASE_L, BASE_W) / 2.0 + 1e-9


@SETTINGS
@given(poses, arcs, st.floats(0.0, 12.0), st.floats(1.0, 179.0), headings, st.booleans())
def test_target_wholly_outside_the_arc_is_never_reachable(
    firer: Pose, arc: Arc, distance: float, beyond: float, heading: float, left: bool
) -> None:
    off = arc.width / 2.0 + beyond
    centre = polar(firer, distance, arc.centre + (off if left else -off))
    target = base(Pose(centre[0], centre[1], heading))
    assume(float(shp(target).distance(wedge(firer, arc))) > 1e-6)
    seen = sight(firer, arc, target, RULER)
    assert not seen.reachable(RULER)
    assert seen.distance == math.inf and seen.point is None


@SETTINGS
@given(poses, arcs, st.floats(0.01, 4.0), st.floats(-0.45, 0.45), headings, motions)
def test_reachable_when_nearest_in_arc_point_is_within_the_ruler(
    firer: Pose, arc: Arc, beyond: float, off: float, heading: float, m: Motion
) -> None:
    centre = polar(firer, RULER + beyond, arc.centre + off * arc.width)
    target = base(Pose(centre[0], centre[1], heading))
    expected = oracle_distance(firer, arc, target)
    assume(expected < RULER - 1e-6)
    seen = sight(firer, arc, target, RULER)
    assert seen.reachable(RULER)
    assert math.isclose(seen.distance, expected, abs_tol=1e-6)
    assert sight(m.pose(firer), arc, m.poly(target), RULER).reachable(RULER)


@st.composite
def hidden_shots(draw: st.DrawFn) -> tuple[Pose, Arc, Polygon, Polygon]:
    """A target whose only part within the ruler is hidden by one blocker straddling the
    ruler, wide enough to cover that part's whole angular extent."""
    arc = draw(arcs)
    firer = Pose(0.0, 0.0, 0.0)
    off = draw(st.floats(-arc.width / 2.0 - 5.0, arc.width / 2.0 + 5.0))
    centre = polar(firer, draw(st.floats(RULER - 1.0, RULER + 4.0)), arc.centre + off)
    target = base(Pose(centre[0], centre[1], draw(headings)))
    reach = shp(target).intersection(wedge(firer, arc)).intersection(disk(firer.point, RULER, True))
    assume(not reach.is_empty and reach.area > 1e-4)
    c = reach.centroid
    mid = bearing(firer.point, (c.x, c.y))
    lo, hi = angular_extent(firer.point, reach, mid)
    at = polar(firer, draw(st.floats(8.0, 18.0)), math.degrees(mid) + draw(st.floats(-2.0, 2.0)))
    blocker = base(Pose(at[0], at[1], math.degrees(mid) + draw(st.floats(-20.0, 20.0))))
    blo, bhi = angular_extent(firer.point, shp(blocker), mid)
    assume(blo < lo - 1e-4 and bhi > hi + 1e-4)
    assert max(math.dist(firer.point, v) for v in blocker) < RULER - 5.0
    return firer, arc, target, blocker


@SETTINGS
@given(hidden_shots(), poses, motions, st.integers(0, 2))
def test_blocker_hiding_the_only_reachable_part_blocks(
    shot: tuple[Pose, Arc, Polygon, Polygon], place: Pose, m: Motion, index: int
) -> None:
    local_firer, arc, target, blocker = shot
    # a decoy base square to the firer's left: outside both arcs, never in the way
    decoy = base(Pose(0.0, 12.0, 30.0))
    others: list[Polygon] = [decoy, decoy]
    others.insert(index, blocker)
    assert sight(local_firer, arc, target, RULER, others).blockers == (index,)
    # put the whole situation somewhere on the table, then move the table
    where = Motion(place.x, place.y, place.heading, (0.0, 0.0))
    for move in (where, Motion(m.dx + place.x, m.dy + place.y, 0.0, (0.0, 0.0))):
        firer = move.pose(local_firer)
        t = move.poly(target)
        bare = sight(firer, arc, t, RULER)
        assert bare.reachable(RULER)
        seen = sight(firer, arc, t, RULER, [move.poly(o) for o in others])
        assert not seen.reachable(RULER)
        assert seen.distance == math.inf or seen.distance > RULER
        assert seen.blockers == (index,)
        final = sight(m.pose(firer), arc, m.poly(t), RULER, [m.poly(move.poly(o)) for o in others])
        assert not final.reachable(RULER)
        assert final.blockers == (index,)


@st.composite
def side_blocked_shots(draw: st.DrawFn) -> tuple[Pose, Arc, Polygon, Polygon]:
    """A target and a blocker whose shadow cannot reach the target's in-arc part: off to
    the side (disjoint bearings) or wholly behind it."""
    firer, arc, target = draw(shots(near=6.0))
    part = shp(target).intersection(wedge(firer, arc))
    assume(not part.is_empty)
    blocker = random_base(draw, firer)
    assume(gap(blocker, base(firer)) > 1e-6 and gap(blocker, target) > 1e-6)
    c = part.centroid
    mid = bearing(firer.point, (c.x, c.y))
    lo, hi = angular_extent(firer.point, part, mid)
    blo, bhi = angular_extent(firer.point, shp(blocker), mid)
    aside = bhi < lo - 1e-4 or blo > hi + 1e-4
    behind = (
        min(math.dist(firer.point, v) for v in blocker)
        > max(math.dist(firer.point, v) for v in target) + 1e-6
    )
    assume(aside or behind)
    return firer, arc, target, blocker


@SETTINGS
@given(side_blocked_shots())
def test_blocker_whose_shadow_misses_the_target_changes_nothing(
    shot: tuple[Pose, Arc, Polygon, Polygon],
) -> None:
    firer, arc, target, blocker = shot
    bare = sight(firer, arc, target, RULER)
    seen = sight(firer, arc, target, RULER, [blocker])
    assert close(seen.distance, bare.distance, 1e-9)
    assert seen.blockers == ()


@st.composite
def partly_blocked_shots(draw: st.DrawFn) -> tuple[Pose, Arc, Polygon, Polygon]:
    """A blocker whose bearings overlap but do not cover the target's reachable part."""
    firer, arc, target = draw(shots(near=14.0, far=RULER + 2.0))
    reach = (
        shp(target).intersection(wedge(firer, arc)).intersection(disk(firer.point, RULER, False))
    )
    assume(not reach.is_empty and reach.area > 1e-3)
    c = reach.centroid
    mid = bearing(firer.point, (c.x, c.y))
    lo, hi = angular_extent(firer.point, reach, mid)
    # nearer than the target, straddling one edge of the reachable bearings
    near = math.dist(firer.point, (c.x, c.y)) - 5.0
    assume(near > 8.0)
    d = draw(st.floats(8.0, near))
    side = draw(st.sampled_from([-1.0, 1.0]))
    edge = (hi if side > 0 else lo) + side * draw(st.floats(0.0, 0.9)) * math.atan2(2.25, d)
    at = polar(firer, d, math.degrees(mid + edge) - firer.heading)
    blocker = base(Pose(at[0], at[1], draw(headings)))
    assume(gap(blocker, base(firer)) > 1e-6 and gap(blocker, target) > 1e-6)
    blo, bhi = angular_extent(firer.point, shp(blocker), mid)
    assume(blo < hi and bhi > lo)  # some overlap of bearings
    assume(blo > lo + 1e-4 or bhi < hi - 1e-4)  # but part of the reachable bearings is clear
    return firer, arc, target, blocker


@SETTINGS
@given(partly_blocked_shots(), motions)
def test_blocker_covering_part_of_the_target_leaves_the_shot(
    shot: tuple[Pose, Arc, Polygon, Polygon], m: Motion
) -> None:
    firer, arc, target, blocker = shot
    bare = sight(firer, arc, target, RULER)
    seen = stable_sight(firer, arc, target, [blocker])
    assert seen.reachable(RULER)
    assert seen.distance >= bare.distance - 1e-9
    assert seen.point is not None
    # the ruler to the reported point crosses no interior of the blocker
    ruler_edge = shapely.LineString([firer.point, seen.point])
    assert shp(blocker).buffer(-1e-6).intersection(ruler_edge).is_empty
    moved = sight(m.pose(firer), arc, m.poly(target), RULER, [m.poly(blocker)])
    assert close(moved.distance, seen.distance, 1e-6)
    assert moved.short(HALF) == seen.short(HALF)


@st.composite
def crowded_shots(draw: st.DrawFn) -> tuple[Pose, Arc, Polygon, list[Polygon]]:
    firer, arc, target = draw(shots(near=6.0))
    others = []
    for _ in range(draw(st.integers(0, 4))):
        b = random_base(draw, firer, 4.5, RULER)
        if gap(b, base(firer)) > 1e-6 and gap(b, target) > 1e-6:
            others.append(b)
    return firer, arc, target, others


@SETTINGS
@given(crowded_shots(), motions, st.randoms(use_true_random=False))
def test_sight_is_invariant_under_table_moves_and_blocker_order(
    shot: tuple[Pose, Arc, Polygon, list[Polygon]], m: Motion, rnd: Any
) -> None:
    firer, arc, target, others = shot
    seen = stable_sight(firer, arc, target, others)
    bare = sight(firer, arc, target, RULER)
    assert seen.distance >= bare.distance - 1e-9
    assert seen.arc_distance == bare.arc_distance
    assert all(0 <= i < len(others) for i in seen.blockers)
    moved = sight(m.pose(firer), arc, m.poly(target), RULER, [m.poly(o) for o in others])
    assert close(moved.distance, seen.distance, 1e-6)
    assert moved.reachable(RULER) == seen.reachable(RULER)
    assert moved.short(HALF) == seen.short(HALF)
    shuffled = list(others)
    rnd.shuffle(shuffled)
    named = {others[i] for i in seen.blockers}
    for order in (shuffled, others[::-1]):
        again = sight(firer, arc, target, RULER, order)
        assert {order[i] for i in again.blockers} == named
        assert close(again.distance, seen.distance, 1e-9)
        assert again.reachable(RULER) == seen.reachable(RULER)
        assert again.short(HALF) == seen.short(HALF)


def test_grazing_an_edge_or_a_corner_does_not_block() -> None:
    firer = Pose(0.0, 0.0, 0.0)
    target = base(Pose(25.0, 0.0, 0.0))  # near edge at x = 22.75, y in [-3, 3]
    along_edge = base(Pose(10.0, BASE_W / 2.0, 0.0))  # lower edge on the ruler line y = 0
    seen = sight(firer, FRONT, target, RULER, [along_edge])
    assert seen.distance == pytest.approx(25.0 - BASE_L / 2.0)
    # a turned base whose lowest corner touches the ruler line y = 0 at x = 10
    turned = base(Pose(0.0, 0.0, 30.0))
    low = min(turned, key=lambda v: v[1])
    corner = tuple((x - low[0] + 10.0, y - low[1]) for x, y in turned)
    assert min(v[1] for v in corner) == 0.0
    assert sight(firer, FRONT, target, RULER, [corner]).distance == pytest.approx(22.75)
    # pushed 1 mm across the ruler line the same bases hide the nearest point
    pushed = base(Pose(10.0, BASE_W / 2.0 - 0.1, 0.0))
    assert sight(firer, FRONT, target, RULER, [pushed]).distance > 22.75 + 1e-6


def test_blocker_hiding_only_points_beyond_the_ruler_is_not_named() -> None:
    """A long thin target running away from the firer; a small blocker hides its far end
    (40 cm away) but nothing within the ruler: no effect, and not named as a blocker."""
    firer = Pose(0.0, 0.0, 0.0)
    slope = math.degrees(math.atan2(-5.5, 15.0))
    target = rectangle(Pose(32.5, -2.75, slope), math.hypot(15.0, 5.5), 1.0)
    speck = rectangle(Pose(15.0, -15.0 * 5.5 / 40.0, 0.0), 0.4, 0.4)
    bare = sight(firer, FRONT, target, RULER)
    seen = sight(firer, FRONT, target, RULER, [speck])
    assert seen.distance == pytest.approx(bare.distance)
    assert seen.blockers == ()
    # the speck does hide part of the target: moved onto the near end it is named
    near_end = rectangle(Pose(15.0, 0.0, 0.0), 0.4, 0.4)
    assert sight(firer, FRONT, target, RULER, [near_end]).blockers == (0,)


@pytest.mark.parametrize("case", ["slit between two touching bases", "edge along the ruler"])
def test_a_way_through_of_no_width_is_closed(case: str) -> None:
    """R15: grazing an edge does not block, but the ruler needs a way through of positive
    width: a shot possible only along a line where bases meet is blocked."""
    firer = Pose(0.0, 0.0, 0.0)
    if case == "slit between two touching bases":
        # the ruler runs along y = 0, the common edge of two touching bases, to the target
        target = base(Pose(25.0, 0.0, 0.0))
        others = [base(Pose(10.0, BASE_W / 2.0, 0.0)), base(Pose(10.0, -BASE_W / 2.0, 0.0))]
        assert not convex_overlap(*others)
    else:
        # target and blocker both have their lower edge on y = 0; the ruler along y = 0
        # grazes the blocker's edge and reaches the target's lower-left corner
        target = base(Pose(25.0, BASE_W / 2.0, 0.0))
        others = [base(Pose(10.0, BASE_W / 2.0, 0.0))]
    seen = sight(firer, FRONT, target, RULER, others)
    assert seen.distance == math.inf
    assert not seen.reachable(RULER)


# --------------------------------------------------------------------------- shadows


@st.composite
def shadow_cases(draw: st.DrawFn) -> tuple[Point, Polygon]:
    origin = (draw(small), draw(small))
    blocker = random_base(draw, Pose(origin[0], origin[1], 0.0), 4.0, RULER)
    assume(not shp(blocker).buffer(1.0).contains(shapely.Point(origin)))
    return origin, blocker


@settings(max_examples=300, deadline=None)
@given(
    coords,
    coords,
    st.lists(st.tuples(coords, coords, headings, st.booleans()), min_size=1, max_size=5),
    st.floats(5.0, 80.0),
)
def test_batched_shadows_are_the_shadow_points_hulls_to_the_bit(
    ox: float, oy: float, laid: list[tuple[float, float, float, bool]], far: float
) -> None:
    """shadows() works its points out on plain floats for every blocker at once; each
    shadow is still exactly the hull of _shadow_points, numpy array by array (the
    transcripts depend on these bits)."""
    origin = (ox, oy)
    blockers = [
        hexagon(Pose(x, y, h), 4.2) if hexed else rectangle(Pose(x, y, h), BASE_L, BASE_W)
        for x, y, h, hexed in laid
    ]
    assume(all(not contains(b, origin) for b in blockers))
    batched = shadows(origin, blockers, far)
    for blocker, shade in zip(blockers, batched, strict=True):
        alone = shapely.orient_polygons(
            shapely.convex_hull(shapely.multipoints(_shadow_points(origin, blocker, far))),
            exterior_cw=False,
        )
        assert shapely.get_coordinates(shade).tobytes() == shapely.get_coordinates(alone).tobytes()


@SETTINGS
@given(shadow_cases(), st.lists(st.floats(0.0, 1.0), min_size=4, max_size=4), st.floats(0.0, 1.0))
def test_shadow_contains_the_blocker_and_what_lies_beyond_it(
    case: tuple[Point, Polygon], weights: list[float], t: float
) -> None:
    origin, blocker = case
    vertices = shadow(origin, blocker, RULER)
    assert area(vertices) > 0  # counter-clockwise, like every Polygon
    shade = shp(vertices).buffer(1e-7)
    assert shade.covers(shp(blocker))
    total = sum(weights)
    assume(total > 1e-3)
    p = (
        sum(w * v[0] for w, v in zip(weights, blocker, strict=True)) / total,
        sum(w * v[1] for w, v in zip(weights, blocker, strict=True)) / total,
    )
    d = math.dist(origin, p)
    # beyond the blocker on the ray from the origin, out to the ruler's reach and more
    far = RULER + BASE_L + BASE_W
    for s in (1.0, 1.0 + t * (far / d - 1.0) if far > d else 1.0):
        q = (origin[0] + s * (p[0] - origin[0]), origin[1] + s * (p[1] - origin[1]))
        assert shade.covers(shapely.Point(q))
        assert contains(vertices, q) or shp(vertices).exterior.distance(shapely.Point(q)) < 1e-7
    # nearer to the origin than any point of the blocker: never in the shadow
    nearest = float(shp(blocker).distance(shapely.Point(origin)))
    s = t * (nearest - 1e-6) / d
    q = (origin[0] + s * (p[0] - origin[0]), origin[1] + s * (p[1] - origin[1]))
    assert not shp(shadow(origin, blocker, RULER)).contains(shapely.Point(q))


@SETTINGS
@given(shadow_cases(), st.floats(-math.pi, math.pi), st.floats(0.0, 2.0 * RULER))
def test_shadow_is_exactly_the_blocker_and_its_cone_beyond(
    case: tuple[Point, Polygon], angle: float, distance: float
) -> None:
    """A point within the ruler (+ a base) is in the shadow iff the segment from the
    origin to it meets the blocker."""
    origin, blocker = case
    assume(distance < RULER + BASE_L + BASE_W)
    q = (origin[0] + distance * math.cos(angle), origin[1] + distance * math.sin(angle))
    segment = shapely.LineString([origin, q]) if distance > 0 else shapely.Point(origin)
    hit = segment.intersects(shp(blocker))
    margin = float(shp(blocker).distance(segment))
    shade = shp(shadow(origin, blocker, RULER))
    inner = float(shade.exterior.distance(shapely.Point(q)))
    assume(margin > 1e-6 or hit)
    assume(inner > 1e-6)
    assert shade.contains(shapely.Point(q)) == hit


def test_shadow_is_counter_clockwise_like_every_polygon() -> None:
    blocker = base(Pose(10.0, 0.0, 0.0))
    shade = shadow((0.0, 0.0), blocker, RULER)
    assert area(shade) > 0
    assert contains(shade, (20.0, 0.0))
    assert not contains(shade, (5.0, 0.0))


def test_every_blocker_hiding_the_target_is_named_whatever_the_order() -> None:
    firer = Pose(0.0, 0.0, 0.0)
    target = base(Pose(25.0, 0.0, 0.0))
    near = base(Pose(8.0, 0.0, 0.0))
    behind = base(Pose(14.0, 0.0, 0.0))
    a = sight(firer, FRONT, target, RULER, [near, behind])
    b = sight(firer, FRONT, target, RULER, [behind, near])
    assert not a.reachable(RULER) and not b.reachable(RULER)
    assert {[near, behind][i] for i in a.blockers} == {[behind, near][i] for i in b.blockers}


# --------------------------------------------------------------------------- firing rules


def state_of(planes: Sequence[tuple[str, str, str, Pose]]) -> GameState:
    situation = parse_situation(
        {
            "ruleset": "wog",
            "vehicles": [
                {
                    "id": pid,
                    "type": kind,
                    "side": side,
                    "pose": {"x": p.x, "y": p.y, "heading": p.heading},
                }
                for pid, kind, side, p in planes
            ],
        }
    )
    return build(situation, CATALOG, seed=0)


def option_targets(
    state: GameState, firer: str
) -> dict[str, dict[str, tuple[float, tuple[str, ...]]]]:
    table = table_of(state)
    vehicle = state.vehicles[firer]
    out: dict[str, dict[str, tuple[float, tuple[str, ...]]]] = {}
    for weapon, _ in state.rules.weapons(vehicle.type):
        out[weapon] = {
            o.target: (o.sight.distance, o.blockers) for o in options(state, table, vehicle, weapon)
        }
    return out


TWO_SEATERS = ("bristol-f2b", "breguet-14")


@FEW
@given(
    table_poses,
    st.floats(-BASE_L, BASE_L),
    st.floats(-BASE_W, BASE_W),
    st.floats(-180.0, 180.0),
    st.floats(-180.0, 180.0),
    st.floats(-20.0, 20.0),
    st.floats(-20.0, 20.0),
)
def test_overlapping_planes_never_fire_at_each_other(
    a: Pose, f: float, left: float, turn: float, rotation: float, dx: float, dy: float
) -> None:
    b = a.moved(f, left, turn)
    assume(overlap_area(base(a), base(b)) > 1e-6)
    m = Motion(dx, dy, rotation, (45.0, 45.0))
    state = state_of(
        [
            ("a", TWO_SEATERS[0], "allies", m.pose(a)),
            ("b", TWO_SEATERS[1], "central", m.pose(b)),
        ]
    )
    assert table_of(state).overlap("a", "b")
    for firer, other in (("a", "b"), ("b", "a")):
        for targets in option_targets(state, firer).values():
            assert other not in targets


@FEW
@given(
    table_poses,
    st.floats(10.0, RULER - 6.0),
    st.floats(-8.0, 8.0),
    headings,
    st.floats(1.0, 4.0),
    st.floats(-2.0, 2.0),
    st.floats(-30.0, 30.0),
    st.floats(-180.0, 180.0),
)
def test_plane_overlapping_the_target_does_not_block(
    firer: Pose,
    distance: float,
    off: float,
    heading: float,
    ahead: float,
    left: float,
    turn: float,
    rotation: float,
) -> None:
    at = polar(firer, distance, off)
    target = Pose(at[0], at[1], heading)
    # the third plane sits on the firer's side of the target, overlapping it
    toward = math.degrees(bearing(at, firer.point))
    c_at = Pose(at[0], at[1], toward).to_world(ahead, left)
    third = Pose(c_at[0], c_at[1], toward + turn)
    assume(overlap_area(base(third), base(target)) > 1e-6)
    assume(gap(base(third), base(firer)) > 1e-6)
    m = Motion(0.0, 0.0, rotation, (45.0, 45.0))
    state = state_of(
        [
            ("f", "sopwith-camel", "allies", m.pose(firer)),
            ("t", "albatros-d5a", "central", m.pose(target)),
            ("c", "spad-xiii", "allies", m.pose(third)),
        ]
    )
    front = option_targets(state, "f")["front"]
    expected = sight(m.pose(firer), FRONT, base(m.pose(target)), RULER)
    if expected.reachable(RULER):
        assert "t" in front
        distance_seen, blockers = front["t"]
        assert "c" not in blockers
        assert math.isclose(distance_seen, expected.distance, abs_tol=1e-9)
    else:
        assert "t" not in front


def assert_only_target(
    found: dict[str, tuple[float, tuple[str, ...]]], target: str, distance: float
) -> None:
    assert list(found) == [target]
    assert found[target][0] == pytest.approx(distance)
    assert found[target][1] == ()


def test_overlap_and_blocking_examples() -> None:
    firer = Pose(20.0, 45.0, 0.0)
    target = Pose(40.0, 45.0, 0.0)  # near edge 17.75 from the firer's dot
    # a friend overlapping the target, squarely in the way: does not block
    state = state_of(
        [
            ("f", "sopwith-camel", "allies", firer),
            ("t", "albatros-d5a", "central", target),
            ("c", "spad-xiii", "allies", Pose(37.0, 45.0, 0.0)),
        ]
    )
    assert_only_target(option_targets(state, "f")["front"], "t", 17.75)
    # a friend overlapping the firer does not block its shot either
    state = state_of(
        [
            ("f", "sopwith-camel", "allies", firer),
            ("t", "albatros-d5a", "central", target),
            ("c", "spad-xiii", "allies", Pose(23.0, 45.0, 0.0)),
        ]
    )
    assert_only_target(option_targets(state, "f")["front"], "t", 17.75)
    # the same friend clear of both bases hides the whole target
    state = state_of(
        [
            ("f", "sopwith-camel", "allies", firer),
            ("t", "albatros-d5a", "central", target),
            ("c", "spad-xiii", "allies", Pose(28.0, 45.0, 0.0)),
        ]
    )
    table = table_of(state)
    assert option_targets(state, "f")["front"] == {}
    assert blocked_shots(state, table, state.vehicles["f"], "front") == [("t", ("c",))]


def test_worked_example_of_the_docs() -> None:
    """docs/geometry.md: two planes facing each other, 20 cm and then 17 cm apart."""
    for apart, distance, short in ((20.0, 17.75, False), (17.0, 14.75, True)):
        state = state_of(
            [
                ("camel", "sopwith-camel", "allies", Pose(45.0, 30.0, 90.0)),
                ("albatros", "albatros-d5a", "central", Pose(45.0, 30.0 + apart, 270.0)),
            ]
        )
        table = table_of(state)
        for firer, target in (("camel", "albatros"), ("albatros", "camel")):
            (option,) = options(state, table, state.vehicles[firer], "front")
            assert option.target == target
            assert option.sight.distance == pytest.approx(distance)
            assert option.short is short
            assert option.sight.point == pytest.approx(
                (45.0, 30.0 + BASE_L / 2.0)
                if firer == "albatros"
                else (45.0, 30.0 + apart - BASE_L / 2.0)
            )
    # a target whose centre is 31 cm away (beyond the 30 cm ruler) is still reachable
    state = state_of(
        [
            ("camel", "sopwith-camel", "allies", Pose(45.0, 30.0, 90.0)),
            ("albatros", "albatros-d5a", "central", Pose(45.0, 61.0, 0.0)),
        ]
    )
    (option,) = options(state, table_of(state), state.vehicles["camel"], "front")
    assert option.sight.distance == pytest.approx(31.0 - BASE_W / 2.0)


def test_worked_examples_of_the_docs_geometry() -> None:
    """The numbers quoted in docs/geometry.md."""
    deck = CATALOG.maneuver_decks["B"]
    card = {c.id: c for c in deck.cards}
    start = Pose(45.0, 10.0, 90.0)
    assert rectangle(start, BASE_L, BASE_W) == (
        (48.0, 7.75),
        (48.0, 12.25),
        (42.0, 12.25),
        (42.0, 7.75),
    )
    assert_pose_close(apply_card(start, card["2"], BASE_L), Pose(45.0, 20.5, 90.0))
    assert_pose_close(
        apply_card(start, card["4"], BASE_L), Pose(41.00900974233027, 19.74099025766973, 135.0)
    )
    assert_pose_close(apply_card(start, card["8"], BASE_L), Pose(39.85, 15.15, 180.0))
    area_b = card_area(start, card["1"], BASE_L, deck.card_length, deck.card_width)
    expected_area = [(50.0, 12.25), (50.0, 24.25), (40.0, 24.25), (40.0, 12.25)]
    assert all(math.dist(p, q) < 1e-9 for p, q in zip(area_b, expected_area, strict=True))

    firer = Pose(45.0, 30.0, 90.0)
    target = base(Pose(45.0, 50.0, 270.0))
    wall = base(Pose(45.0, 38.0, 0.0))
    hidden = sight(firer, FRONT, target, RULER, [wall])
    assert hidden.distance == math.inf and hidden.blockers == (0,)
    corner = base(Pose(42.5, 38.0, 90.0))
    partly = sight(firer, FRONT, target, RULER, [corner])
    assert partly.distance == pytest.approx(17.816981370079976)
    assert partly.point == pytest.approx((46.54347826086956, 47.75))
    assert partly.short(HALF) is False
    aside = sight(firer, FRONT, base(Pose(60.0, 50.0, 0.0)), RULER)
    assert aside.distance == pytest.approx(25.5)
    assert aside.point is not None and aside.point[0] == pytest.approx(57.75)
