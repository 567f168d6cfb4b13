"""Rectangles and hexagons work out the terms their corners share once (issue 13:
fewer instructions per phase): here the corner-by-corner forms are kept as oracles and
the vertices must agree with them to the bit."""

from __future__ import annotations

import math

from geometry_oracles import bits
from hypothesis import given, settings
from hypothesis import strategies as st

from dogfight.geometry.hexbase import _polar, hexagon
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.shapes import local_rectangle, rectangle

coordinates = st.one_of(st.floats(-300, 300), st.sampled_from([0.0, -0.0, 1e-300, -1e-300]))
headings = st.one_of(
    st.floats(-720, 720), st.sampled_from([0.0, -0.0, 90.0, 180.0, 270.0, 359.99999999999994])
)
lengths = st.floats(0.0, 50.0)


def _corners_one_by_one(
    pose: Pose, f0: float, f1: float, l0: float, l1: float
) -> tuple[Point, ...]:
    rad = math.radians(pose.heading)
    c, s = math.cos(rad), math.sin(rad)
    x, y = pose.x, pose.y
    return tuple(
        (x + f * c - left * s, y + f * s + left * c)
        for f, left in ((f0, l0), (f1, l0), (f1, l1), (f0, l1))
    )


def _hexagon_one_by_one(pose: Pose, side: float) -> tuple[Point, ...]:
    rad = math.radians(pose.heading)
    c, s = math.cos(rad), math.sin(rad)
    out = []
    for i in range(6):
        forward, left = _polar(side, -30.0 + 60.0 * i)
        out.append((pose.x + forward * c - left * s, pose.y + forward * s + left * c))
    return tuple(out)


@settings(max_examples=400, deadline=None)
@given(coordinates, coordinates, headings, lengths, lengths, st.floats(-20.0, 20.0))
def test_rectangle_corners_to_the_bit(
    x: float, y: float, heading: float, length: float, width: float, offset: float
) -> None:
    pose = Pose(x, y, heading)
    half_l, half_w = length / 2.0, width / 2.0
    expected = _corners_one_by_one(pose, offset - half_l, offset + half_l, -half_w, half_w)
    assert bits(rectangle(pose, length, width, offset)) == bits(expected)
    assert bits(local_rectangle(pose, -1.5, length, -width, 0.25)) == bits(
        _corners_one_by_one(pose, -1.5, length, -width, 0.25)
    )


@settings(max_examples=400, deadline=None)
@given(coordinates, coordinates, headings, st.floats(0.5, 20.0))
def test_hexagon_vertices_to_the_bit(x: float, y: float, heading: float, side: float) -> None:
    pose = Pose(x, y, heading)
    assert bits(hexagon(pose, side)) == bits(_hexagon_one_by_one(pose, side))
