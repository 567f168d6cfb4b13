"""Black Smoke clouds, placed with the arc-shaped ruler, and their dispersal."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from dogfight.geometry.hexbase import Side, side_midpoint, side_normal
from dogfight.geometry.pose import Point
from dogfight.render.context import _Context, _timed, _when
from dogfight.render.markup import _circle, _cm, _cross, _Frame, _group, _num, _tag
from dogfight.render.style import INK, SCALE, SMALL_SIZE, SMOKE
from dogfight.rules.events import (
    CloudDispersed,
    Event,
    SmokeCloud,
)


def _placed_clouds(events: Sequence[Event]) -> dict[str, tuple[int, SmokeCloud]]:
    """Each cloud placed among ``events``: its id -> (index, the ``SmokeCloud`` event)."""
    return {e.cloud: (index, e) for index, e in enumerate(events) if isinstance(e, SmokeCloud)}


@dataclass(frozen=True, slots=True)
class _Dispersal:
    """A cloud dispersed: where it was (from its ``SmokeCloud`` event) and by whom."""

    placed: SmokeCloud
    vehicles: tuple[str, ...]
    turn: int
    phase: int


def _dispersals(events: Sequence[Event]) -> list[_Dispersal]:
    """The clouds dispersed among ``events`` whose placing is among them too (earlier),
    in the order they went; several vehicles on one cloud are listed together."""
    placed = _placed_clouds(events)
    found: dict[str, _Dispersal] = {}
    for index, (turn, phase, event) in enumerate(_timed(events)):
        if not isinstance(event, CloudDispersed):
            continue
        where = placed.get(event.cloud)
        if where is None or where[0] > index:
            continue
        seen = found.get(event.cloud)
        if seen is None:
            found[event.cloud] = _Dispersal(where[1], (event.vehicle,), turn, phase)
        elif event.vehicle not in seen.vehicles:
            found[event.cloud] = _Dispersal(
                seen.placed, (*seen.vehicles, event.vehicle), seen.turn, seen.phase
            )
    return list(found.values())


def _cloud_discs(ctx: _Context, events: Sequence[Event]) -> list[tuple[float, float, float]]:
    """Every cloud drawn, on the table or dispersed: (x, y, radius)."""
    radius = ctx.state.rules.catalog.constants.tripods.smoke.cloud_radius
    discs = [(c.x, c.y, c.radius) for c in ctx.state.clouds]
    discs += [(d.placed.x, d.placed.y, radius) for d in _dispersals(events)]
    return discs


def _smoke_arc(f: _Frame, start: Point, normal: float, end: Point) -> str:
    """Path data of the arc-shaped ruler from ``start`` (the middle of the tripod's side,
    leaving it at a right angle, along ``normal`` degrees) to ``end`` (the stand): the
    circular arc tangent to the normal there. Bent to the left of the normal, the arc
    turns counter-clockwise on the table, which is sweep-flag 0 once y is flipped."""
    chord = math.dist(start, end)
    bend = (math.degrees(math.atan2(end[1] - start[1], end[0] - start[0])) - normal) % 360.0
    if bend > 180.0:
        bend -= 360.0
    if chord < 1e-9 or abs(math.sin(math.radians(bend))) < 1e-6:
        return f"M{f.point(start)} L{f.point(end)}"
    r = _num(chord / (2.0 * abs(math.sin(math.radians(bend)))) * SCALE)
    sweep = 0 if bend > 0 else 1
    return f"M{f.point(start)} A{r},{r} 0 0 {sweep} {f.point(end)}"


def _smoke_layer(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """The Black Smoke clouds on the table, grey and translucent, with their id; the
    clouds dispersed in these events, dashed and crossed where they were, naming the
    vehicles that dispersed them; and for each cloud placed, the arc-shaped ruler from
    the projector's side to its stand, the stand marked inside the cloud."""
    f = ctx.frame
    out: list[str] = []
    for cloud in ctx.state.clouds:
        centre = (cloud.x, cloud.y)
        disc = _circle(f, centre, cloud.radius, {"class": "cloud", "fill": SMOKE, "stroke": SMOKE})
        ctx.labels.add(centre, cloud.id, size=SMALL_SIZE, nudges=((0.0, 1.2), (0.0, -1.2)), tries=2)
        about = (
            f"black smoke cloud {cloud.id} at x {_cm(cloud.x)} y {_cm(cloud.y)}, radius "
            f"{_cm(cloud.radius)} cm: a vehicle or a card overlapping it disperses it "
            "(airplanes draw a Z card)"
        )
        out.append(_group({"class": "smoke-cloud", "data-cloud": cloud.id}, [disc], about))
    radius = ctx.state.rules.catalog.constants.tripods.smoke.cloud_radius
    for gone in _dispersals(events):
        centre = (gone.placed.x, gone.placed.y)
        children = [
            _circle(
                f, centre, radius, {"class": "cloud dispersed", "fill": SMOKE, "stroke": SMOKE}
            ),
            _tag(
                "path",
                {
                    "class": "cross",
                    "d": _cross(f, centre, radius / math.sqrt(2.0)),
                    "stroke": SMOKE,
                },
            ),
        ]
        who = ", ".join(gone.vehicles)
        first = ctx.state.vehicles.get(gone.vehicles[0])
        ctx.labels.add(
            (centre[0], centre[1] - radius - 0.9),
            f"{gone.placed.cloud} dispersed by {who}",
            size=SMALL_SIZE,
            nudges=((0.0, -1.2), (0.0, 1.2)),
            fill=SMOKE if first is None else ctx.colour(first),
        )
        attrs = {
            "class": "smoke-cloud dispersed-cloud",
            "data-cloud": gone.placed.cloud,
            "data-dispersed-by": who,
        }
        about = f"black smoke cloud {gone.placed.cloud} dispersed by {who}" + _when(
            gone.turn, gone.phase
        )
        out.append(_group(attrs, children, about))
    hex_side = ctx.state.rules.hex_side
    for index, (turn, phase, event) in enumerate(_timed(events)):
        if not isinstance(event, SmokeCloud) or event.firer not in ctx.state.vehicles:
            continue
        pose = ctx.pose_at(events, index, event.firer)
        side = Side.parse(event.projector)
        middle = side_midpoint(pose, hex_side, side)
        stand = (float(event.stand[0]), float(event.stand[1]))
        children = [
            _tag(
                "path",
                {
                    "class": "smoke-ruler",
                    "d": _smoke_arc(f, middle, side_normal(pose, side), stand),
                    "stroke": SMOKE,
                },
            ),
            _circle(f, stand, 0.5, {"class": "stand", "fill": "#ffffff", "stroke": INK}),
            _circle(f, stand, 0.15, {"class": "stand-dot", "fill": INK}),
        ]
        ctx.beside(middle, stand, 0.45, f"black smoke → {event.cloud}", SMALL_SIZE, SMOKE)
        attrs = {
            "class": "black-smoke",
            "data-firer": event.firer,
            "data-projector": event.projector,
            "data-cloud": event.cloud,
        }
        about = (
            f"{event.firer} fires black smoke from its {event.projector} projector: the "
            f"arc-shaped ruler's stand at x {_cm(stand[0])} y {_cm(stand[1])}, cloud "
            f"{event.cloud} centred at x {_cm(event.x)} y {_cm(event.y)}"
        )
        out.append(_group(attrs, children, about + _when(turn, phase)))
    return out
