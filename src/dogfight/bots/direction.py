"""How a computer player places its action token at the reveal of secret action cards
(001: "places the action token to specify its facing change or fire direction"): towards
the nearest enemy, airplane or tripod, where the table stands at that moment."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from dogfight.geometry.hexbase import Side
from dogfight.geometry.pose import Pose
from dogfight.rules.decisions import Answer, Decision


def _pose(view: Mapping[str, Any]) -> Pose:
    p = view["pose"]
    return Pose(float(p["x"]), float(p["y"]), float(p["heading"]))


def bearing_off(normal: float, bearing: float) -> float:
    """How far (degrees, 0..180) a side's outward normal points from a bearing."""
    return abs((normal - bearing + 180.0) % 360.0 - 180.0)


def nearest_enemy(observation: Mapping[str, Any], vehicle: str) -> tuple[float, float] | None:
    """(distance, heading) from ``vehicle`` to the nearest enemy in play (None: none)."""
    views = {v["id"]: v for v in observation["vehicles"]}
    me = views[vehicle]
    here = _pose(me)
    best: tuple[float, float] | None = None
    for other in observation["vehicles"]:
        if other["side"] == me["side"] or other.get("eliminated"):
            continue
        there = _pose(other)
        dx, dy = there.x - here.x, there.y - here.y
        distance = math.hypot(dx, dy)
        if distance == 0.0:
            continue
        bearing = math.degrees(math.atan2(dy, dx))
        if best is None or distance < best[0]:
            best = (distance, bearing)
    return best


def nearest_enemy_bearing(observation: Mapping[str, Any], vehicle: str) -> float | None:
    """The heading from ``vehicle`` to the nearest enemy in play (None: no enemy)."""
    best = nearest_enemy(observation, vehicle)
    return None if best is None else best[1]


def face_nearest(observation: Mapping[str, Any], decision: Decision) -> Answer:
    """A heat-ray card: the projector whose side faces the nearest enemy most squarely; a
    change of facing: the turn that brings the front side most squarely to it. The
    written direction wins ties; no enemy: the written direction."""
    bearing = nearest_enemy_bearing(observation, decision.vehicle)
    if bearing is None:
        return decision.default
    heading = _pose(next(v for v in observation["vehicles"] if v["id"] == decision.vehicle)).heading
    turning = decision.shown.get("card") == "change_facing"

    def off(option: str) -> float:
        if turning:
            return bearing_off(heading + 60.0 * int(option), bearing)
        return bearing_off(heading + 60.0 * int(Side.parse(option)), bearing)

    best = decision.default[0]
    for option in decision.options:
        if off(option) < off(best) - 1e-9:
            best = option
    return (best,)
