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


def card_path(pose: Pose, card: Card, base_length: float, steps: int = 16) -> list[Point]:
    """The path of the centre dot, for drawing: centre -> nose, the card's arrow as a
    cubic curve tangent to both headings, then arrowhead -> new centre."""
    start = nose(pose, base_length)
    head = arrowhead(pose, card, base_length)
    end = head.moved(base_length / 2.0, 0.0, 0.0)
    span = math.hypot(head.x - start.x, head.y - start.y)
    handle = span / 3.0
    if abs(card.turn) > 150:
        handle = max(handle, 2.0)
    x0, y0 = start.point
    x1, y1 = start.to_world(handle, 0.0)
    x2, y2 = head.to_world(-handle, 0.0) if abs(card.turn) <= 150 else head.to_world(handle, 0.0)
    x3, y3 = head.point
    points: list[Point] = [pose.point]
    # the Bernstein weights of each step, worked out once: u**3 * x0 + 3*u*u*t * x1 + ...
    # with each weight a product taken in the same order, so bit for bit the same sums
    for a, b, c, d in _bezier_weights(steps):
        points.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
    points.append(end.point)
    return points


@functools.cache
def _bezier_weights(steps: int) -> tuple[tuple[float, float, float, float], ...]:
    """(u**3, 3*u*u*t, 3*u*t*t, t**3) for t = 0, 1/steps, ..., 1 (u = 1 - t)."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        u = 1.0 - t
        out.append((u**3, 3 * u * u * t, 3 * u * t * t, t**3))
    return tuple(out)
