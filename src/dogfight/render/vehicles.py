"""The bases of every vehicle, eliminated airplanes ghosted, with their labels."""

from __future__ import annotations

import math

from dogfight.render.context import _Context
from dogfight.render.labels import _text_box
from dogfight.render.markup import _cm, _group, _polygon, _tag
from dogfight.render.style import INK, SCALE, SMALL_SIZE, TEXT_SIZE
from dogfight.render.tripods import _tripod_about, _tripod_marks, _tripod_status


def _vehicles_layer(ctx: _Context) -> list[str]:
    """Bases: in play, filled in the side's colour with a nose marker, the firing dot and
    the id; eliminated, ghosted and crossed out where they were last, with the reason.
    Tripods get their hexagon with its protected sides and projectors, and a second label
    line with their Energy (and toppled, with the reminder tokens left)."""
    f = ctx.frame
    rules = ctx.state.rules
    half_l = rules.base_length / 2.0
    plane_radius = math.hypot(rules.base_length, rules.base_width) / 2.0
    vehicles = ctx.vehicles()
    for vehicle in vehicles:
        ctx.labels.block(ctx.shape(vehicle))
    out: list[str] = []
    for vehicle in vehicles:
        colour = ctx.colour(vehicle)
        pose = vehicle.pose
        base = ctx.shape(vehicle)
        tripod = vehicle.kind == "tripod"
        if tripod:
            about = _tripod_about(ctx, vehicle)
            radius = rules.hex_side + 0.7  # clear of the protected sides' teeth
        else:
            about = (
                f"{vehicle.id}: {rules.airplane(vehicle.type).name} ({vehicle.type}), side "
                f"{vehicle.side}, damage {vehicle.damage}/{vehicle.resistance}, at x "
                f"{_cm(pose.x)} y {_cm(pose.y)} heading {_cm(pose.heading)}"
            )
            radius = plane_radius
        reason = (vehicle.eliminated or "").replace("_", " ")
        text = f"{vehicle.id} ({reason})" if reason else vehicle.id
        # right of the base, unless that runs off the drawing (an airplane that left)
        label_at, anchor = (pose.x + radius + 0.4, pose.y), "start"
        if ctx.labels.outside(_text_box(label_at, text, TEXT_SIZE, anchor)) > 0.0:
            label_at, anchor = (pose.x - radius - 0.4, pose.y), "end"
        nudges = ((0.0, 1.4), (0.0, -1.4))
        if vehicle.in_play and tripod:
            children = _tripod_marks(ctx, vehicle, colour)
            spot = ctx.labels.add(label_at, text, anchor=anchor, nudges=nudges)
            ctx.labels.add(
                (spot[0], spot[1] - 1.3),
                _tripod_status(vehicle),
                size=SMALL_SIZE,
                anchor=anchor,
                nudges=((0.0, -1.0), (0.0, 1.0)),
                tries=3,
            )
        elif vehicle.in_play:
            nose = (
                pose.to_world(half_l - 0.3, 0.0),
                pose.to_world(half_l - 1.7, 1.0),
                pose.to_world(half_l - 1.7, -1.0),
            )
            children = [
                _polygon(f, base, {"class": "base", "fill": colour, "stroke": INK}),
                _polygon(f, nose, {"class": "nose", "fill": "#ffffff"}),
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
                ),
            ]
            ctx.labels.add(label_at, text, anchor=anchor, nudges=nudges)
        else:
            about += f"; eliminated: {reason}"
            n = len(base) // 2
            cross = (
                f"M{f.point(base[0])} L{f.point(base[n])} "
                f"M{f.point(base[1])} L{f.point(base[n + 1])}"
            )
            children = [
                _polygon(f, base, {"class": "base eliminated", "fill": colour, "stroke": colour}),
                _tag("path", {"class": "cross", "d": cross, "stroke": colour}),
            ]
            ctx.labels.add(label_at, text, anchor=anchor, nudges=nudges, fill=colour)
        attrs = {"class": "vehicle", "data-vehicle": vehicle.id, "data-side": vehicle.side}
        out.append(_group(attrs, children, about))
    return out
