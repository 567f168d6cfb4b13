"""Which side of a rectangular base a ruler laid from its centre leaves through.

002 measures two rules this way: tailing ("Passes through rear side ... and front side")
and the rear gun's blind spot ("passes through rear side of two-seater").
"""

from __future__ import annotations

from dogfight.geometry.pose import Point, Pose

EPSILON = 1e-9

FRONT = 1
REAR = -1
LONG_SIDE = 0


def side_towards(pose: Pose, towards: Point, length: float, width: float) -> int:
    """The side of a ``length`` x ``width`` base centred on ``pose`` that a ruler from the
    centre towards ``towards`` crosses: FRONT, REAR or LONG_SIDE (left or right). A ruler
    through a corner crosses both sides that meet there, and counts as the short one."""
    forward, left = pose.to_local(towards)
    if forward == 0.0 and left == 0.0:
        return LONG_SIDE
    if abs(left) * length <= width * abs(forward) + EPSILON:
        return FRONT if forward > 0 else REAR
    return LONG_SIDE
