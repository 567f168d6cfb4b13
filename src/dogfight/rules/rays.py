"""What a heat-ray can be fired at: enemy airplanes (000), enemy tripods (001, Tripods vs.
Tripods) and falling bomb cards (001, Bombing Tripods), each reached by the ruler laid
as 000 allows (``geometry/heatray.py``), nearest first.

001: "When a heat-ray projector fires against another tripod ..." / "If the tripod is hit
across a side protected by its electrified armor, and the tripod has at least 1 energy
counter in its reserve" / "A tripod may choose a falling bomb card as the target of its
heat-ray attack, instead of an airplane. Follow normal rules for firing, calculating the
range to any part of the bomb card."
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from dogfight.geometry.heatray import RayShot, RulerSpec, all_shots, best_shot
from dogfight.geometry.hexbase import Side
from dogfight.geometry.pose import Point
from dogfight.geometry.shapes import Polygon, convex_overlap
from dogfight.rules.state import GameState, Vehicle

TargetKind = Literal["airplane", "tripod", "bombs"]


@dataclass(frozen=True, slots=True)
class RayOption:
    """A target a heat-ray ruler reaches: how far along the edge, at which range, from
    where; for a tripod target whether the ray crosses its working electrified armour."""

    target: str
    distance: float
    short: bool
    origin: tuple[float, float]
    point: tuple[float, float]
    tilt: float
    kind: TargetKind = "airplane"
    protected: bool = False


def _option(target: str, shot: RayShot, kind: TargetKind, protected: bool = False) -> RayOption:
    return RayOption(
        target,
        shot.distance,
        shot.short,
        shot.placement.start,
        shot.point,
        shot.placement.tilt,
        kind,
        protected,
    )


def entry_sides(base: Polygon, point: Point) -> list[Side]:
    """The sides of a hexagonal base a point on its outline lies on (two at a corner)."""
    out = []
    for i in range(6):
        (ax, ay), (bx, by) = base[i], base[(i + 1) % 6]
        ex, ey = bx - ax, by - ay
        t = max(0.0, min(1.0, ((point[0] - ax) * ex + (point[1] - ay) * ey) / (ex * ex + ey * ey)))
        if math.dist(point, (ax + t * ex, ay + t * ey)) < 1e-6:
            out.append(Side(i))
    return out


def shielded(state: GameState, target: Vehicle, energy: Mapping[str, int] | None) -> bool:
    """001: "the tripod has at least 1 energy counter in its reserve" at the start of the
    firing step (``energy``: the reserves then); 000: "A toppled tripod is considered at 0
    Energy"."""
    assert target.tripod is not None
    if target.tripod.toppled:
        return False
    reserve = target.tripod.energy if energy is None else energy.get(target.id, 0)
    return reserve >= 1


def heat_ray_options(
    state: GameState,
    tripod: Vehicle,
    projector: Side,
    overlaps: Callable[[str, str], bool],
    energy: Mapping[str, int] | None = None,
    bases: Mapping[str, Polygon] | None = None,
) -> list[RayOption]:
    """Every enemy airplane, enemy tripod and enemy bomb card the heat-ray ruler can reach
    from ``projector``, nearest first. Against a tripod the ruler is laid the way most
    favourable to the firer (000: "checking its most favorable orientation"): across an
    unprotected side if one can be reached, then at the shortest distance. ``bases``: the
    bases in play already computed (``firing.Table.bases``)."""
    rules = state.rules
    if bases is None:
        bases = {v.id: state.base(v) for v in state.in_play()}
    spec = rules.heat_ray_ruler(tripod.type)
    ruler = RulerSpec(spec.length, spec.half, spec.width, spec.tilt)
    reach = rules.hex_apothem() + spec.length + math.hypot(rules.base_length, rules.base_width)
    # only bases within the ruler's reach can block it
    near = [v for v in state.in_play() if math.dist(v.pose.point, tripod.pose.point) <= reach]
    out: list[RayOption] = []
    for target in sorted(state.in_play(), key=lambda v: v.id):
        if target.side == tripod.side or target.id == tripod.id:
            continue
        if overlaps(tripod.id, target.id):
            continue  # 000: "An airplane overlapping a tripod cannot ... be fired at by it."
        if math.dist(tripod.pose.point, target.pose.point) > reach:
            continue
        others = [
            bases[v.id]
            for v in near
            if v.id not in (tripod.id, target.id)
            and not overlaps(v.id, target.id)
            and not overlaps(v.id, tripod.id)
        ]
        body = bases[target.id]
        if target.tripod is None:
            shot = best_shot(tripod.pose, rules.hex_side, projector, ruler, body, others)
            if shot is not None:
                out.append(_option(target.id, shot, "airplane"))
            continue
        armour = {Side.parse(s) for s in rules.tripod(target.type).protected}
        powered = shielded(state, target, energy)
        best: tuple[tuple[bool, float], RayShot, bool] | None = None
        for shot in all_shots(tripod.pose, rules.hex_side, projector, ruler, body, others):
            sides = entry_sides(body, shot.point)
            protected = powered and bool(sides) and all(s in armour for s in sides)
            key = (protected, shot.distance)
            if best is None or key < best[0]:
                best = (key, shot, protected)
        if best is not None:
            out.append(_option(target.id, best[1], "tripod", best[2]))
    size = rules.catalog.constants.tripods.bomb_card
    for card in state.bomb_cards:
        if card.side == tripod.side or card.destroyed:
            continue
        if math.dist(card.pose.point, tripod.pose.point) > reach + math.hypot(
            size.length, size.width
        ):
            continue
        outline = state.bomb_card(card)
        # Bases under the falling card do not hide it (the bombs are in the air above them).
        others = [
            bases[v.id]
            for v in near
            if v.id != tripod.id
            and not overlaps(v.id, tripod.id)
            and not convex_overlap(bases[v.id], outline)
        ]
        shot = best_shot(tripod.pose, rules.hex_side, projector, ruler, outline, others)
        if shot is not None:
            out.append(_option(card.id, shot, "bombs"))
    out.sort(key=lambda o: (o.distance, o.target))
    return out
