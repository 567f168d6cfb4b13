"""Maneuver cards as rigid moves of a base, the area a card covers, and the path drawn."""

from __future__ import annotations

import functools
import math
from typing import Protocol

from dogfight.geometry.pose import Point, Pose, normalize_heading
from dogfight.geometry.shapes import Polygon, local_rectangle


class Card(Protocol):
    """What a move needs of a card: where its arrowhead lies (see ``ManeuverCard``)."""

    @property
    def forward(self) -> float: ...
    @property
    def left(self) -> float: ...
    @property
    def turn(self) -> float: ...


def nose(pose: Pose, base_length: float) -> Pose:
    """The middle of the base's front edge, facing the same way."""
    return pose.moved(base_length / 2.0, 0.0, 0.0)


def arrowhead(pose: Pose, card: Card, base_length: float, backward: bool = False) -> Pose:
    """Where the card's arrowhead lies (and points) when laid against the base.

    ``backward`` applies the card to the rear of the base (a tripod's reverse, 000).
    """
    if backward:
        rear = Pose(pose.x, pose.y, pose.heading + 180.0)
        return nose(rear, base_length).moved(card.forward, card.left, card.turn)
    return nose(pose, base_length).moved(card.forward, card.left, card.turn)


def apply_card(pose: Pose, card: Card, base_length: float) -> Pose:
    """The base's pose after the move: its rear edge's middle put on the arrowhead.

    The three rigid moves of ``arrowhead(pose, card, base_length).moved(half, 0, 0)``
    (to the nose, along the card, back onto the base) in plain floats, with the very
    operations of :meth:`Pose.moved`: bit for bit the same pose, without building the
    poses in between (a random game flies thousands of trial cards)."""
    heading = pose.heading
    rad = math.radians(heading)
    x, y, h, _, _ = fly_card(
        pose.x, pose.y, heading, math.cos(rad), math.sin(rad), card, base_length / 2.0
    )
    return Pose(x, y, h)


_radians, _cos, _sin = math.radians, math.cos, math.sin
"""Read as one global each in :func:`fly_card` (a random bot flies thousands of cards)."""


def fly_card(
    x: float, y: float, heading: float, c: float, s: float, card: Card, half: float
) -> tuple[float, float, float, float, float]:
    """:func:`apply_card` on plain floats, given the cosine and sine of ``heading`` in
    radians; returns the new pose and the cosine and sine of its heading, so that a
    sequence of cards works out one cosine and sine per card (a move along a heading
    already in [0, 360) keeps it: the three moves of a card need only two). The very
    values of :meth:`Pose.moved`, bit for bit.

    A move straight ahead by ``half`` is :meth:`Pose.to_world`'s
    ``(x + half * c - 0.0 * s, y + half * s + 0.0 * c)`` with two terms dropped or
    shortened, to the same bits: ``x + half * c`` is never a zero of either sign (a cosine
    is never zero), so taking ``0.0 * s`` away changes nothing; ``0.0 * c`` is ``-0.0``
    only when the cosine is negative, where the sine is not ``-0.0`` and so ``y + half *
    s`` is not ``-0.0`` either: adding ``0.0`` gives the same sum (``-0.0 + 0.0`` is the
    one case where the two differ)."""
    x, y = x + half * c, y + half * s + 0.0
    # normalize_heading is the identity on [0, 360) (fmod leaves such a value, either
    # zero included, as it is): it is called only for a heading outside
    h = heading + 0.0
    if not 0.0 <= h < 360.0:
        h = normalize_heading(h)
    if h != heading or h == 0.0:  # not already in [0, 360), or a zero of either sign
        rad = _radians(h)
        c, s = _cos(rad), _sin(rad)
    forward, left = card.forward, card.left
    x, y = x + forward * c - left * s, y + forward * s + left * c
    turned = h + card.turn
    if not 0.0 <= turned < 360.0:
        turned = normalize_heading(turned)
    rad = _radians(turned)
    c, s = _cos(rad), _sin(rad)
    x, y = x + half * c, y + half * s + 0.0
    h = turned + 0.0
    if not 0.0 <= h < 360.0:
        h = normalize_heading(h)
    if h != turned or h == 0.0:
        rad = _radians(h)
        c, s = _cos(rad), _sin(rad)
    return x, y, h, c, s


def card_area(pose: Pose, card: Card, base_length: float, length: float, width: float) -> Polygon:
    """The rectangle the card covers on the table, laid in front of the base's nose."""
    front = nose(pose, base_length)
    own = getattr(card, "length", None)
    return local_rectangle(front, 0.0, own or length, -width / 2.0, width / 2.0)


PATH_STEPS = 16
"""Steps of the curve of a drawn path (:func:`card_path`)."""


def card_path(pose: Pose, card: Card, base_length: float, steps: int = PATH_STEPS) -> list[Point]:
    """The path of the centre dot, for drawing: centre -> nose, the card's arrow as a
    cubic curve tangent to both headings (:func:`card_curve_numbers`), then arrowhead
    -> new centre."""
    x, y, sx, sy, x1, y1, x2, y2, hx, hy, ex, ey = card_curve_numbers(pose, card, base_length)
    points = [(x, y)]
    append = points.append
    for a, b, w, d in _bezier_weights(steps):
        append((a * sx + b * x1 + w * x2 + d * hx, a * sy + b * y1 + w * y2 + d * hy))
    append((ex, ey))
    return points


def card_curve_numbers(pose: Pose, card: Card, base_length: float) -> tuple[float, ...]:
    """What defines :func:`card_path`, as the flat tuple of six points' coordinates: the
    centre, the nose (where the curve starts), the curve's two handles, the arrowhead
    (where it ends) and the new centre. A page is sent these and draws the curve itself
    (making and writing the ~20 points of every move was 8% of the server's work on a
    turn). Worked out as :func:`nose`, :func:`arrowhead` and
    :meth:`Pose.to_world` do, on plain floats (``tests/test_server_records.py`` holds
    them to those, bit for bit), without making a pose or a point for each."""
    x, y, heading = pose.x, pose.y, pose.heading
    half = base_length / 2.0
    # start = nose(pose): pose.moved(half, 0, 0)
    rad = math.radians(heading)
    c, s = math.cos(rad), math.sin(rad)
    sx, sy = x + half * c - 0.0 * s, y + half * s + 0.0 * c
    sh = normalize_heading(heading + 0.0)
    # head = arrowhead(pose, card): start.moved(forward, left, turn)
    rad = math.radians(sh)
    c1, s1 = math.cos(rad), math.sin(rad)
    forward, left, turn = card.forward, card.left, card.turn
    hx, hy = sx + forward * c1 - left * s1, sy + forward * s1 + left * c1
    rad = math.radians(normalize_heading(sh + turn))
    c2, s2 = math.cos(rad), math.sin(rad)
    # end = head.moved(half, 0, 0)
    ex, ey = hx + half * c2 - 0.0 * s2, hy + half * s2 + 0.0 * c2
    handle = math.hypot(hx - sx, hy - sy) / 3.0
    if abs(turn) > 150:
        # a reversal: the second handle lies ahead of the arrowhead, not behind it
        handle = max(handle, 2.0)
        back = handle
    else:
        back = -handle
    # the curve's handles: start.to_world(handle, 0), head.to_world(back, 0)
    x1, y1 = sx + handle * c1 - 0.0 * s1, sy + handle * s1 + 0.0 * c1
    x2, y2 = hx + back * c2 - 0.0 * s2, hy + back * s2 + 0.0 * c2
    return (x, y, sx, sy, x1, y1, x2, y2, hx, hy, ex, ey)


@functools.cache
def _bezier_weights(steps: int) -> tuple[tuple[float, float, float, float], ...]:
    """(u**3, 3*u*u*t, 3*u*t*t, t**3) for t = 0, 1/steps, ..., 1 (u = 1 - t)."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        u = 1.0 - t
        out.append((u**3, 3 * u * u * t, 3 * u * t * t, t**3))
    return tuple(out)
