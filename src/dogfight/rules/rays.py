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

from dogfight.geometry.frozen import fast_init
from dogfight.geometry.heatray import (
    Body,
    RayShot,
    RulerSpec,
    body,
    fan,
    in_between,
    nearest,
    reaching,
    shots,
)
from dogfight.geometry.hexbase import Side
from dogfight.geometry.pose import Point
from dogfight.geometry.shapes import Polygon, convex_overlap
from dogfight.rules.state import BY_ID, BombCard, GameState, Vehicle

TargetKind = Literal["airplane", "tripod", "bombs"]


@fast_init
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


def _across(base: Polygon, point: Point, armour: frozenset[Side]) -> bool:
    """Whether a point of a base's outline lies on its armoured sides only."""
    sides = entry_sides(base, point) if armour else []
    return bool(sides) and all(s in armour for s in sides)


def shielded(state: GameState, target: Vehicle, energy: Mapping[str, int] | None) -> bool:
    """001: "the tripod has at least 1 energy counter in its reserve" at the start of the
    firing step (``energy``: the reserves then); 000: "A toppled tripod is considered at 0
    Energy"."""
    assert target.tripod is not None
    if target.tripod.toppled:
        return False
    reserve = target.tripod.energy if energy is None else energy.get(target.id, 0)
    return reserve >= 1


def _close(a: Body, b: Body) -> bool:
    """Whether the circles holding two bodies meet (with a margin): bodies farther apart
    cannot overlap."""
    ax, ay, a_radius = a.circle
    bx, by, b_radius = b.circle
    return math.hypot(ax - bx, ay - by) <= a_radius + b_radius + 1e-6


class RayScene:
    """The geometry every heat-ray of one firing step shares: the bases in play with their
    bounds (:class:`~dogfight.geometry.heatray.Body`), each tripod's armour, the falling
    bomb cards and the bases under each of them. The step builds it once and asks it for
    each projector (:meth:`options`); nothing on the table moves in between."""

    def __init__(
        self,
        state: GameState,
        overlaps: Callable[[str, str], bool],
        energy: Mapping[str, int] | None = None,
        bases: Mapping[str, Polygon] | None = None,
    ) -> None:
        self.state = state
        self.overlaps = overlaps
        self.energy = energy
        self.in_play = state.in_play()
        if bases is None:
            bases = {v.id: state.base(v) for v in self.in_play}
        self.bases = bases
        self._bodies: dict[str, Body] = {}
        self.targets = sorted(self.in_play, key=BY_ID)
        self._armour: dict[str, tuple[frozenset[Side], bool]] = {}
        self._cards: list[tuple[BombCard, Body, set[str]]] | None = None

    def body(self, vid: str) -> Body:
        """A base in play with its bounds, taken the first time it is needed."""
        found = self._bodies.get(vid)
        if found is None:
            found = self._bodies[vid] = body(self.bases[vid])
        return found

    def _armoured(self, target: Vehicle) -> tuple[frozenset[Side], bool]:
        """A tripod's protected sides and whether its armour works this step."""
        found = self._armour.get(target.id)
        if found is None:
            sides = self.state.rules.tripod(target.type).protected
            found = (
                frozenset(Side.parse(s) for s in sides),
                shielded(self.state, target, self.energy),
            )
            self._armour[target.id] = found
        return found

    def _falling(self) -> list[tuple[BombCard, Body, set[str]]]:
        """The bomb cards still in the air, each with the bases it lies over (bases under
        the falling card do not hide it: the bombs are in the air above them)."""
        if self._cards is None:
            self._cards = []
            for card in self.state.bomb_cards:
                if card.destroyed:
                    continue
                outline = body(self.state.bomb_card(card))
                under = {
                    v.id
                    for v in self.in_play
                    if _close(self.body(v.id), outline)
                    and convex_overlap(self.bases[v.id], outline.poly)
                }
                self._cards.append((card, outline, under))
        return self._cards

    def options(self, tripod: Vehicle, projector: Side) -> list[RayOption]:
        """Every enemy airplane, enemy tripod and enemy bomb card the heat-ray ruler can
        reach from ``projector``, nearest first (see :func:`heat_ray_options`)."""
        state, overlaps = self.state, self.overlaps
        rules = state.rules
        spec = rules.heat_ray_ruler(tripod.type)
        ruler = RulerSpec(spec.length, spec.half, spec.width, spec.tilt)
        laid = fan(tripod.pose, rules.hex_side, projector, ruler)
        reach = rules.hex_apothem() + spec.length + math.hypot(rules.base_length, rules.base_width)
        here = tripod.pose.point
        # only bases within the ruler's reach can block it, and not those under the tripod
        near = [
            v
            for v in self.in_play
            if math.dist(v.pose.point, here) <= reach
            and v.id != tripod.id
            and not overlaps(v.id, tripod.id)
        ]
        out: list[RayOption] = []
        for target in self.targets:
            if target.side == tripod.side or target.id == tripod.id:
                continue
            if overlaps(tripod.id, target.id):
                continue  # 000: "An airplane overlapping a tripod cannot ... be fired at by it."
            if math.dist(here, target.pose.point) > reach:
                continue
            aim = self.body(target.id)
            laid_at = reaching(laid, ruler.length, aim)
            if not laid_at:
                continue  # no edge comes near it: nothing to measure
            others = in_between(
                laid.origin,
                aim,
                [
                    self.body(v.id)
                    for v in near
                    if v.id != target.id and not overlaps(v.id, target.id)
                ],
            )
            found = shots(laid_at, ruler, aim, others)
            if target.tripod is None:
                shot = nearest(found)
                if shot is not None:
                    out.append(_option(target.id, shot, "airplane"))
                continue
            if not found:
                continue
            armour, powered = self._armoured(target)
            best: tuple[tuple[bool, float], RayShot, bool] | None = None
            for shot in found:
                # across a side of the armour, working (unpowered: no side is protected)
                protected = powered and _across(aim.poly, shot.point, armour)
                key = (protected, shot.distance)
                if best is None or key < best[0]:
                    best = (key, shot, protected)
            if best is not None:
                out.append(_option(target.id, best[1], "tripod", best[2]))
        size = rules.catalog.constants.tripods.bomb_card
        card_reach = reach + math.hypot(size.length, size.width)
        for card, outline, under in self._falling():
            if card.side == tripod.side:
                continue
            if math.dist(card.pose.point, here) > card_reach:
                continue
            laid_at = reaching(laid, ruler.length, outline)
            if not laid_at:
                continue
            others = in_between(
                laid.origin, outline, [self.body(v.id) for v in near if v.id not in under]
            )
            shot = nearest(shots(laid_at, ruler, outline, others))
            if shot is not None:
                out.append(_option(card.id, shot, "bombs"))
        out.sort(key=lambda o: (o.distance, o.target))
        return out


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
    bases in play already computed (``firing.Table.bases``). A step measuring several
    projectors builds one :class:`RayScene` and asks it each time."""
    return RayScene(state, overlaps, energy, bases).options(tripod, projector)
