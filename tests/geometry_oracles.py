"""Plain forms of the geometry loops written out for speed, kept as the tests' oracles:
the results of the fast loops must agree with them to the bit (same arithmetic, same
ties)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from dogfight.geometry.pose import Point
from dogfight.geometry.shapes import EPSILON


def nearest_indexed(poly: Sequence[Point], p: Point) -> tuple[float, Point]:
    """:func:`dogfight.geometry.shapes.nearest_point` with indexed edges."""
    n = len(poly)
    px, py = p
    if n >= 3:
        for i in range(n):
            (ox, oy), (ax, ay) = poly[i], poly[(i + 1) % n]
            if not (ax - ox) * (py - oy) - (ay - oy) * (px - ox) >= -EPSILON:
                break
        else:
            return 0.0, p
    best = (math.inf, p)
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        vx, vy = bx - ax, by - ay
        length2 = vx * vx + vy * vy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * vx + (py - ay) * vy) / length2))
        nx, ny = ax + t * vx, ay + t * vy
        d = math.hypot(px - nx, py - ny)
        if d < best[0]:
            best = (d, (nx, ny))
    return best


def bits(value: object) -> object:
    """Floats as their hex spelling (the sign of a zero counts), recursively."""
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, list | tuple):
        return [bits(v) for v in value]
    return value
