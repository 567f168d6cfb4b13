"""The geometry loops written out for speed (``angular_extent``, ``nearest_point``)
against their plain forms (``angular_extent`` as it was written before, kept here;
``nearest_point``'s indexed oracle in ``geometry_oracles.py``): the very same floats,
signs of zero included, on random polygons and points."""

from __future__ import annotations

import math
from collections.abc import Sequence

from geometry_oracles import bits, nearest_indexed
from hypothesis import given, settings
from hypothesis import strategies as st

from dogfight.geometry.pose import Point
from dogfight.geometry.reach import angular_extent
from dogfight.geometry.shapes import nearest_point


def plain_angular_extent(origin: Point, points: Sequence[Point]) -> tuple[float, float, float]:
    ox, oy = origin
    cx = sum(p[0] for p in points) / len(points) - ox
    cy = sum(p[1] for p in points) / len(points) - oy
    axis = math.atan2(cy, cx)
    low = high = 0.0
    two_pi = 2.0 * math.pi
    for px, py in points:
        a = (math.atan2(py - oy, px - ox) - axis + math.pi) % two_pi - math.pi
        low = min(low, a)
        high = max(high, a)
    return axis, low, high


COORD = st.one_of(
    st.floats(min_value=-200.0, max_value=200.0, allow_nan=False),
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 45.0]),
)
POINT = st.tuples(COORD, COORD)


@st.composite
def convex(draw: st.DrawFn) -> list[Point]:
    """A convex polygon: a rotated rectangle, or points drawn on a circle in order (some
    degenerate, repeated or collinear)."""
    if draw(st.booleans()):
        cx, cy = draw(POINT)
        heading = math.radians(draw(st.floats(min_value=0.0, max_value=360.0)))
        half_l = draw(st.floats(min_value=0.0, max_value=10.0))
        half_w = draw(st.floats(min_value=0.0, max_value=10.0))
        c, s = math.cos(heading), math.sin(heading)
        return [
            (cx + f * c - w * s, cy + f * s + w * c)
            for f, w in ((-half_l, -half_w), (half_l, -half_w), (half_l, half_w), (-half_l, half_w))
        ]
    cx, cy = draw(POINT)
    radius = draw(st.floats(min_value=0.0, max_value=30.0))
    angles = sorted(
        draw(st.lists(st.floats(min_value=0.0, max_value=6.28), min_size=1, max_size=7))
    )
    return [(cx + radius * math.cos(a), cy + radius * math.sin(a)) for a in angles]


@settings(deadline=None)  # no timing: the machine may be loaded
@given(origin=POINT, poly=convex())
def test_angular_extent_is_the_plain_one(origin: Point, poly: list[Point]) -> None:
    assert bits(angular_extent(origin, poly)) == bits(plain_angular_extent(origin, poly))


@settings(deadline=None)  # no timing: the machine may be loaded
@given(points=st.lists(POINT, min_size=1, max_size=7), origin=POINT)
def test_angular_extent_on_any_points(points: list[Point], origin: Point) -> None:
    assert bits(angular_extent(origin, points)) == bits(plain_angular_extent(origin, points))


@settings(deadline=None)  # no timing: the machine may be loaded
@given(p=POINT, poly=convex())
def test_nearest_point_is_the_plain_one(p: Point, poly: list[Point]) -> None:
    assert bits(nearest_point(poly, p)) == bits(nearest_indexed(poly, p))


@settings(deadline=None)  # no timing: the machine may be loaded
@given(p=POINT, poly=st.lists(POINT, min_size=0, max_size=7))
def test_nearest_point_on_any_points(p: Point, poly: list[Point]) -> None:
    assert bits(nearest_point(poly, p)) == bits(nearest_indexed(poly, p))
