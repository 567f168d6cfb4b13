"""The polygon loops of ``geometry/shapes.py`` (:func:`nearest_point`,
:func:`convex_overlap`) carry the previous vertex along instead of indexing
``poly[(i + 1) % n]`` (issue 13: fewer instructions per phase). Here the indexed loops
are kept as oracles (and :func:`clip_half_plane` is held to the frozen reference
resolver's indexed copy), and the results must agree to the bit: same arithmetic, same
ties."""

from __future__ import annotations

import math
from collections.abc import Sequence

from geometry_oracles import bits, nearest_indexed
from hypothesis import given, settings
from hypothesis import strategies as st

from dogfight.bench.reference import clip_half_plane as _clip_indexed
from dogfight.geometry.hexbase import hexagon
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.shapes import (
    EPSILON,
    clip_half_plane,
    convex_overlap,
    nearest_point,
    rectangle,
)


def _overlap_indexed(a: Sequence[Point], b: Sequence[Point]) -> bool:
    for poly, other in ((a, b), (b, a)):
        n = len(poly)
        for i in range(n):
            (px, py), (qx, qy) = poly[i], poly[(i + 1) % n]
            ex, ey = qx - px, qy - py
            for vx, vy in other:
                if not ex * (vy - py) - ey * (vx - px) <= EPSILON:
                    break
            else:
                return False
    return True


coords = st.floats(-60.0, 60.0)
headings = st.one_of(st.floats(0.0, 360.0), st.sampled_from([0.0, 45.0, 90.0, 180.0, 270.0]))
poses = st.builds(Pose, coords, coords, headings)


@st.composite
def polygons(draw: st.DrawFn) -> list[Point]:
    """Bases (rectangles, hexagons), their in-arc parts (clipped), and degenerate ones."""
    pose = draw(poses)
    kind = draw(st.sampled_from(["rectangle", "hexagon", "clipped", "empty", "point"]))
    if kind == "rectangle":
        return list(rectangle(pose, draw(st.floats(0.5, 12.0)), draw(st.floats(0.5, 12.0))))
    if kind == "hexagon":
        return list(hexagon(pose, draw(st.floats(1.0, 6.0))))
    if kind == "empty":
        return []
    if kind == "point":
        return [(pose.x, pose.y)]
    base = rectangle(pose, 6.0, 4.5)
    angle = math.radians(draw(st.floats(0.0, 360.0)))
    return clip_half_plane(base, (draw(coords), draw(coords)), (math.cos(angle), math.sin(angle)))


SETTINGS = settings(max_examples=400, deadline=None)


@SETTINGS
@given(polygons(), coords, coords, st.floats(0.0, 360.0))
def test_clip_half_plane_matches_the_indexed_loop(
    poly: list[Point], x: float, y: float, degrees: float
) -> None:
    direction = (math.cos(math.radians(degrees)), math.sin(math.radians(degrees)))
    for shape in (poly, tuple(poly)):
        assert bits(clip_half_plane(shape, (x, y), direction)) == bits(
            _clip_indexed(shape, (x, y), direction)
        )


@SETTINGS
@given(polygons(), st.one_of(st.tuples(coords, coords), st.just((0.0, 0.0))))
def test_nearest_point_matches_the_indexed_loop(poly: list[Point], point: Point) -> None:
    for shape in (poly, tuple(poly)):
        assert bits(nearest_point(shape, point)) == bits(nearest_indexed(shape, point))


@SETTINGS
@given(polygons(), st.floats(-10.0, 10.0), st.floats(-10.0, 10.0))
def test_nearest_point_matches_the_indexed_loop_at_vertices_and_edges(
    poly: list[Point], dx: float, dy: float
) -> None:
    """Points on or near a vertex (where two edges tie) pick the same edge's point."""
    for vx, vy in poly:
        for point in ((vx, vy), (vx + dx * 1e-9, vy + dy * 1e-9), (vx + dx, vy + dy)):
            assert bits(nearest_point(poly, point)) == bits(nearest_indexed(poly, point))


@SETTINGS
@given(polygons(), polygons())
def test_convex_overlap_matches_the_indexed_loop(a: list[Point], b: list[Point]) -> None:
    assert convex_overlap(a, b) == _overlap_indexed(a, b)
    assert convex_overlap(tuple(b), tuple(a)) == _overlap_indexed(b, a)


@SETTINGS
@given(poses, st.floats(-3.0, 3.0), st.floats(-3.0, 3.0), headings)
def test_convex_overlap_matches_the_indexed_loop_for_close_bases(
    pose: Pose, dx: float, dy: float, heading: float
) -> None:
    a = rectangle(pose, 6.0, 4.5)
    b = rectangle(Pose(pose.x + dx * 2.0, pose.y + dy * 2.0, heading), 6.0, 4.5)
    assert convex_overlap(a, b) == _overlap_indexed(a, b)
