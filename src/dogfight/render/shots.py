"""Shots and heat-rays as the ruler was laid, and shots blocked completely."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from dogfight.geometry.hexbase import Side, side_midpoint, side_normal
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.shapes import Polygon
from dogfight.render.context import _Context, _polar, _pose_at, _timed, _unit, _when
from dogfight.render.markup import Attrs, _cm, _group, _line, _polygon, _tag
from dogfight.render.style import ARMOUR, BLOCKED_COLOUR, RAY, SCALE, SMALL_SIZE, TEXT_SIZE
from dogfight.render.tripods import _armour_hits
from dogfight.rules import firing
from dogfight.rules.events import (
    Event,
    Fired,
    HeatRay,
)
from dogfight.rules.state import Vehicle


@dataclass(frozen=True, slots=True)
class _Ray:
    """A heat-ray as fired: the tripod's pose then, and the projector's side."""

    index: int
    turn: int
    phase: int
    event: HeatRay
    firer: Vehicle
    pose: Pose
    middle: Point
    """The middle of the projector's side, where the ruler's black line goes."""
    normal: float
    """The side's outward normal (degrees)."""


def _rays(ctx: _Context, events: Sequence[Event]) -> Iterator[_Ray]:
    """The heat-rays among ``events`` of tripods this state knows."""
    hex_side = ctx.state.rules.hex_side
    for index, (turn, phase, event) in enumerate(_timed(events)):
        if not isinstance(event, HeatRay) or event.firer not in ctx.state.vehicles:
            continue
        firer = ctx.state.vehicles[event.firer]
        if firer.kind != "tripod":
            continue
        side = Side.parse(event.projector)
        pose = _pose_at(ctx.state, events, index, firer.id)
        middle = side_midpoint(pose, hex_side, side)
        yield _Ray(index, turn, phase, event, firer, pose, middle, side_normal(pose, side))


def _ray_line(ray: _Ray) -> tuple[Point, Point] | None:
    """The edge of the ruler from the tripod's side to the point reached (None: the ray
    reached nothing)."""
    e = ray.event
    if e.target is None or e.origin is None or e.point is None:
        return None
    return (float(e.origin[0]), float(e.origin[1])), (float(e.point[0]), float(e.point[1]))


def _ruler_outline(ctx: _Context, ray: _Ray) -> tuple[Polygon, tuple[Point, Point]] | None:
    """The heat-ray ruler as laid: its outline and its half mark. The reaching edge starts
    at the event's origin, the other one as far on the other side of the side's middle;
    both run at the side's normal turned by the tilt. None when the ray reached nothing
    or the tripod's pose at the time cannot be traced back from the events."""
    line = _ray_line(ray)
    if line is None or ray.event.tilt is None:
        return None
    spec = ctx.state.rules.heat_ray_ruler(ray.firer.type)
    origin, middle = line[0], ray.middle
    if abs(math.dist(origin, middle) - spec.width / 2.0) > 0.05:
        return None
    other = (2.0 * middle[0] - origin[0], 2.0 * middle[1] - origin[1])
    direction = ray.normal + ray.event.tilt
    outline = (
        origin,
        _polar(origin, direction, spec.length),
        _polar(other, direction, spec.length),
        other,
    )
    half = (_polar(origin, direction, spec.half), _polar(other, direction, spec.half))
    return outline, half


def _heat_ray_rulers(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """Faint outlines of the heat-ray rulers laid for the heat-rays that reached."""
    f = ctx.frame
    out: list[str] = []
    for ray in _rays(ctx, events):
        laid = _ruler_outline(ctx, ray)
        if laid is None:
            continue
        outline, half = laid
        spec = ctx.state.rules.heat_ray_ruler(ray.firer.type)
        kind = ctx.state.rules.tripod(ray.firer.type).heat_ray
        attrs = {"class": "heat-ray-ruler", "data-firer": ray.firer.id}
        about = (
            f"{ray.firer.id} {ray.event.projector} projector: {kind} heat-ray ruler, "
            f"{_cm(spec.length)} cm, half mark at {_cm(spec.half)} cm" + _when(ray.turn, ray.phase)
        )
        children = [
            _polygon(f, outline, {"class": "ruler", "fill": RAY, "stroke": RAY}),
            _line(f, half[0], half[1], {"class": "ruler-half", "stroke": RAY}),
        ]
        out.append(_group(attrs, children, about))
    return out


def _arrowhead(tip: Point, direction: Point, length: float = 1.2, half: float = 0.5) -> Polygon:
    back = (tip[0] - direction[0] * length, tip[1] - direction[1] * length)
    side = (-direction[1] * half, direction[0] * half)
    return (tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1]))


def _shots_layer(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """Every shot as the ruler was laid: firing dot to the point reached, solid at short
    range and dashed at long range, labelled with the range, the distance and +1 when
    aimed (same target as in the previous phase); "armour" and a ring where it struck
    when it hit a tripod's electrified armour. Every heat-ray in red, as the edge of the
    heat-ray ruler that reached, or a short mark off the projector when none did.

    The firing dot is the event's ``origin``: where the firer stood at that firing step.
    """
    f = ctx.frame
    armour = _armour_hits(events)
    rays = {ray.index: ray for ray in _rays(ctx, events)}
    out: list[str] = []
    for index, (turn, phase, event) in enumerate(_timed(events)):
        if index in rays:
            out.append(_heat_ray(ctx, rays[index]))
        if not isinstance(event, Fired) or event.firer not in ctx.state.vehicles:
            continue
        colour = ctx.colour(ctx.state.vehicles[event.firer])
        origin = (float(event.origin[0]), float(event.origin[1]))
        point = (float(event.point[0]), float(event.point[1]))
        children = [_line(f, origin, point, {"class": f"shot {event.range}", "stroke": colour})]
        direction = _unit(origin, point)
        if direction is not None:
            children.append(_polygon(f, _arrowhead(point, direction), {"fill": colour}))
        text = f"{event.range} {event.distance:.2f} cm" + (" +1" if event.aimed else "")
        hit = armour.get(index)
        if hit is not None:
            text += ", armour"
            ring: Attrs = {"class": "armour-hit", "cx": f.x(point[0]), "cy": f.y(point[1])}
            children.append(_tag("circle", {**ring, "r": 1.1 * SCALE, "stroke": ARMOUR}))
        ctx.beside(origin, point, 0.7, text, TEXT_SIZE, colour)
        cards = "card" if event.cards == 1 else "cards"
        attrs = {
            "class": "fired" if hit is None else "fired armour-shot",
            "data-firer": event.firer,
            "data-target": event.target,
            "data-weapon": event.weapon,
        }
        about = (
            f"{event.firer} {event.weapon} fires at {event.target}: {event.range} range, "
            f"{event.distance:.2f} cm, {event.cards} damage {cards}"
            + (", aimed +1" if event.aimed else "")
        )
        if hit is not None:
            about += (
                f"; hits the electrified armour: cards {', '.join(hit.cards)} revealed, "
                f"{hit.energy_lost} Energy lost, no damage"
            )
        out.append(_group(attrs, children, about + _when(turn, phase)))
    return out


def _heat_ray(ctx: _Context, ray: _Ray) -> str:
    """One heat-ray: the reaching edge of the ruler in red, solid at short range and
    dashed at long range, with its range and length; or, when it reached nothing, a
    short dotted mark off the projector's side."""
    f = ctx.frame
    e = ray.event
    attrs = {
        "class": "heat-ray",
        "data-firer": e.firer,
        "data-projector": e.projector,
        "data-target": e.target,
    }
    line = _ray_line(ray)
    if line is None:
        start = _polar(ray.middle, ray.normal, 0.4)
        end = _polar(ray.middle, ray.normal, 3.4)
        d = 0.5
        cross = (
            f"M{f.point((end[0] - d, end[1] - d))} L{f.point((end[0] + d, end[1] + d))} "
            f"M{f.point((end[0] - d, end[1] + d))} L{f.point((end[0] + d, end[1] - d))}"
        )
        children = [
            _line(f, start, end, {"class": "nothing", "stroke": RAY}),
            _tag("path", {"class": "cross", "d": cross, "stroke": RAY}),
        ]
        ctx.beside(ray.middle, end, 1.0, "heat-ray: nothing reached", SMALL_SIZE, RAY)
        about = f"{e.firer} fires its {e.projector} heat-ray projector and reaches nothing"
        if e.reason:
            about += f" ({e.reason})"
        return _group(attrs, children, about + _when(ray.turn, ray.phase))
    origin, point = line
    kind = e.range or "long"
    distance = e.distance if e.distance is not None else math.dist(origin, point)
    children = [_line(f, origin, point, {"class": f"ray {kind}", "stroke": RAY})]
    direction = _unit(origin, point)
    if direction is not None:
        children.append(_polygon(f, _arrowhead(point, direction), {"fill": RAY}))
    ctx.beside(origin, point, 0.6, f"heat-ray {kind} {distance:.1f} cm", TEXT_SIZE, RAY)
    tilt = e.tilt or 0.0
    how = "at a right angle" if abs(tilt) < 1e-9 else f"tilted {_cm(tilt)}°"
    about = (
        f"{e.firer} fires its {e.projector} heat-ray projector at {e.target}: {kind} range, "
        f"{distance:.2f} cm along the ruler's edge, ruler {how}"
    )
    return _group(attrs, children, about + _when(ray.turn, ray.phase))


def _blocked_layer(ctx: _Context) -> list[str]:
    """Enemies in arc and within the ruler that other bases hide completely, as dotted
    grey lines from the firing dot to the target's centre, naming the blockers."""
    f = ctx.frame
    state = ctx.state
    table = firing.table_of(state)
    out: list[str] = []
    for vehicle in ctx.vehicles():
        if not vehicle.in_play:
            continue
        for weapon, _letter in state.rules.weapons(vehicle.type):
            for target_id, blockers in firing.blocked_shots(state, table, vehicle, weapon):
                origin = vehicle.pose.point
                target = state.vehicles[target_id].pose.point
                text = ("blocked by " + ", ".join(blockers)) if blockers else "blocked"
                ctx.beside(origin, target, 0.5, text, SMALL_SIZE, BLOCKED_COLOUR)
                attrs = {
                    "class": "blocked-shot",
                    "data-firer": vehicle.id,
                    "data-target": target_id,
                    "data-weapon": weapon,
                }
                line = _line(f, origin, target, {"class": "blocked", "stroke": BLOCKED_COLOUR})
                about = f"{vehicle.id} {weapon} cannot fire at {target_id}: {text}"
                out.append(_group(attrs, [line], about))
    return out
