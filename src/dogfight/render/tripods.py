"""Martian tripods: protected sides, heat-ray projectors, Energy and the armour."""

from __future__ import annotations

import math
from collections.abc import Sequence

from dogfight.geometry.hexbase import Side, side_normal, side_segment
from dogfight.geometry.pose import Point
from dogfight.render.context import _Context, _polar, _unit
from dogfight.render.markup import _cm, _polygon, _tag
from dogfight.render.style import ARMOUR, HATCH, INK, RAY, SCALE
from dogfight.rules.events import (
    DamageCardsTaken,
    DamageDrawn,
    Event,
    Fired,
    PhaseStarted,
    ProtectedHit,
    TurnStarted,
)
from dogfight.rules.state import Vehicle


def _serrated(a: Point, b: Point, depth: float = 0.6, pitch: float = 0.5) -> list[Point]:
    """A serrated line along ``a``-``b``: teeth ``depth`` cm high on its right (outside
    a counter-clockwise polygon's edge), every other point on the line itself."""
    length = math.dist(a, b)
    direction = _unit(a, b) or (1.0, 0.0)
    right = (direction[1], -direction[0])
    steps = max(2, 2 * round(length / (2.0 * pitch)))
    points = [a]
    for i in range(1, steps):
        t = i / steps
        off = depth if i % 2 else 0.0
        points.append(
            (a[0] + t * (b[0] - a[0]) + off * right[0], a[1] + t * (b[1] - a[1]) + off * right[1])
        )
    points.append(b)
    return points


def _tripod_status(vehicle: Vehicle) -> str:
    """The second line of a tripod's label: Energy, and toppled with its tokens."""
    tripod = vehicle.tripod
    if tripod is None:
        return ""
    text = f"Energy {tripod.energy}/{tripod.rating}"
    if tripod.toppled:
        text += f" · toppled ({tripod.toppled})"
    return text


def _tripod_about(ctx: _Context, vehicle: Vehicle) -> str:
    """A tripod's hover text."""
    rules = ctx.state.rules
    model = rules.tripod(vehicle.type)
    pose = vehicle.pose
    about = (
        f"{vehicle.id}: {model.name} ({vehicle.type}), side {vehicle.side}, damage "
        f"{vehicle.damage}/{vehicle.resistance}"
    )
    tripod = vehicle.tripod
    if tripod is not None:
        about += f", Energy {tripod.energy}/{tripod.rating}"
        if tripod.toppled:
            about += f", toppled ({tripod.toppled} reminder token{'s' * (tripod.toppled > 1)})"
        if tripod.cooling:
            about += ", heat-ray cooling down"
        if tripod.reverse_pending:
            about += ", reverse: its next movement card is applied backward"
    about += (
        f"; {model.heat_ray} heat-ray projectors: {', '.join(model.projectors)}; protected "
        f"sides: {', '.join(model.protected) or 'none'}; at x {_cm(pose.x)} y {_cm(pose.y)} "
        f"heading {_cm(pose.heading)}"
    )
    return about


def _tripod_marks(ctx: _Context, vehicle: Vehicle, colour: str) -> list[str]:
    """A tripod in play: the hexagon (hatched when toppled), a nose marker, the protected
    sides as a serrated orange line, a red dot inside each heat-ray projector's side and
    the centre dot."""
    f = ctx.frame
    rules = ctx.state.rules
    model = rules.tripod(vehicle.type)
    pose = vehicle.pose
    base = ctx.shape(vehicle)
    apothem = rules.hex_apothem()
    toppled = vehicle.tripod is not None and vehicle.tripod.toppled > 0
    css = "base tripod toppled" if toppled else "base tripod"
    out = [_polygon(f, base, {"class": css, "fill": colour, "stroke": INK})]
    if toppled:
        out.append(_polygon(f, base, {"class": "hatched", "fill": f"url(#{HATCH})"}))
    nose = (
        pose.to_world(apothem - 1.9, 0.0),
        pose.to_world(apothem - 3.1, 0.8),
        pose.to_world(apothem - 3.1, -0.8),
    )
    out.append(_polygon(f, nose, {"class": "nose", "fill": "#ffffff"}))
    for name in model.protected:
        side = Side.parse(name)
        teeth = f.points(_serrated(*side_segment(pose, rules.hex_side, side)))
        out.append(_tag("polyline", {"class": "armour-under", "points": teeth, "stroke": INK}))
        out.append(
            _tag(
                "polyline",
                {"class": "armour", "data-side": name, "points": teeth, "stroke": ARMOUR},
            )
        )
    for name in model.projectors:
        spot = _polar(pose.point, side_normal(pose, Side.parse(name)), apothem - 1.1)
        attrs = {
            "class": "projector",
            "data-side": name,
            "cx": f.x(spot[0]),
            "cy": f.y(spot[1]),
            "r": 0.45 * SCALE,
            "fill": RAY,
            "stroke": "#ffffff",
        }
        out.append(_tag("circle", attrs))
    out.append(
        _tag(
            "circle",
            {
                "class": "dot",
                "cx": f.x(pose.x),
                "cy": f.y(pose.y),
                "r": 0.35 * SCALE,
                "fill": "#000000",
                "stroke": "#ffffff",
            },
        )
    )
    return out


def _armour_hits(events: Sequence[Event]) -> dict[int, ProtectedHit]:
    """The shots (indices of their ``Fired`` events) that hit a tripod's electrified
    armour. A phase's shots are resolved in the order they were fired, each by a
    ``ProtectedHit`` or by damage drawn with the firer as source; so each outcome goes
    to the first shot of that firer at that vehicle not yet resolved in the phase."""
    hits: dict[int, ProtectedHit] = {}
    pending: dict[tuple[str, str], list[int]] = {}
    for index, event in enumerate(events):
        if isinstance(event, TurnStarted | PhaseStarted):
            pending = {}
        elif isinstance(event, Fired):
            pending.setdefault((event.firer, event.target), []).append(index)
        elif isinstance(event, ProtectedHit):
            queue = pending.get((event.firer, event.vehicle))
            if queue:
                hits[queue.pop(0)] = event
        elif isinstance(event, DamageDrawn | DamageCardsTaken):
            queue = pending.get((event.source.split(" ")[0], event.vehicle))
            if queue:
                queue.pop(0)
    return hits
