"""Announced special damage and the public lasting status as tags by a vehicle."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from dogfight.render.context import _Context, _timed, _when
from dogfight.render.labels import _text_box
from dogfight.render.markup import _group, _rect
from dogfight.render.rockets import _plural
from dogfight.render.style import SCALE, SMALL_SIZE, SPECIAL_NAMES, STATUS_SPECIALS, TAG
from dogfight.rules.events import (
    Event,
    SpecialDamage,
)
from dogfight.rules.state import Vehicle


@dataclass(frozen=True, slots=True)
class _Tag:
    """A small tag next to a vehicle: announced special damage or a lasting status."""

    vehicle: Vehicle
    text: str
    about: str
    css: str


def _tags(ctx: _Context, events: Sequence[Event]) -> list[_Tag]:
    """Per vehicle (in id order): its lasting public status while in play (wounded pilot,
    smoke, fire), then the announced special damage it took in these events that the
    status does not already show. Secret specials and secret status (engine, rudders,
    gyroscope, reverse, smoke generator) are never shown: a player may see the drawing."""
    taken: dict[str, dict[str, list[tuple[int, int]]]] = {}
    for turn, phase, event in _timed(events):
        if isinstance(event, SpecialDamage) and event.announced:
            per = taken.setdefault(event.vehicle, {})
            per.setdefault(event.special, []).append((turn, phase))
    out: list[_Tag] = []
    for vehicle in ctx.vehicles():
        specials = dict(taken.get(vehicle.id, {}))
        if vehicle.in_play:
            for key, special in STATUS_SPECIALS.items():
                count = vehicle.status.get(key, 0)
                if count <= 0:
                    continue
                drawn = specials.pop(special, [])
                if key == "wounded":
                    text = "wounded pilot"
                    about = f"{vehicle.id}: wounded pilot (a second wound puts it out)"
                elif key == "smoke":
                    text = f"smoking ({_plural(count, 'counter')})"
                    about = f"{vehicle.id}: smoke trail, {_plural(count, 'smoke counter')} left"
                else:
                    text = f"on fire ({_plural(count, 'flame counter')})"
                    about = (
                        f"{vehicle.id}: on fire, {_plural(count, 'flame counter')} left (an "
                        "A card each turn)"
                    )
                if drawn:
                    about += "; drawn " + ", ".join(
                        _when(turn, phase).strip() for turn, phase in drawn
                    )
                out.append(_Tag(vehicle, text, about, "status"))
        for special, drawn in specials.items():
            name = SPECIAL_NAMES.get(special, special.replace("_", " "))
            text = name if len(drawn) == 1 else f"{name} x{len(drawn)}"
            about = f"{vehicle.id}: special damage {name}, announced" + ", ".join(
                _when(turn, phase) for turn, phase in drawn
            )
            out.append(_Tag(vehicle, text, about, "special"))
    return out


def _tags_layer(ctx: _Context, tags: Sequence[_Tag]) -> list[str]:
    """Each tag as a white pill with a dark red border under the vehicle's label."""
    f = ctx.frame
    rules = ctx.state.rules
    out: list[str] = []
    row: dict[str, int] = {}
    for tag in tags:
        vehicle = tag.vehicle
        pose = vehicle.pose
        if vehicle.kind == "tripod":
            radius = rules.hex_side + 0.7
        else:
            radius = math.hypot(rules.base_length, rules.base_width) / 2.0
        k = row.get(vehicle.id, 0) + 1
        row[vehicle.id] = k
        at, anchor = (pose.x + radius + 0.6, pose.y - 1.4 * k), "start"
        if ctx.labels.outside(_text_box(at, tag.text, SMALL_SIZE, anchor)) > 0.0:
            at, anchor = (pose.x - radius - 0.6, pose.y - 1.4 * k), "end"
        spot = ctx.labels.add(
            at,
            tag.text,
            size=SMALL_SIZE,
            anchor=anchor,
            nudges=((0.0, -1.3), (0.0, 1.3)),
            css="tag-text",
            fill=TAG,
        )
        # the label box is generous (it keeps labels apart); the pill hugs the text
        width = 0.56 * SMALL_SIZE * len(tag.text)
        left = {"start": spot[0], "end": spot[0] - width}[anchor]
        pill = _rect(
            f,
            (left - 0.35, spot[1] - SMALL_SIZE / 2.0 - 0.15),
            width + 0.7,
            SMALL_SIZE + 0.3,
            {"class": "tag", "rx": 0.5 * SCALE, "stroke": TAG},
        )
        attrs = {"class": f"tag-group {tag.css}", "data-vehicle": vehicle.id, "data-tag": tag.text}
        out.append(_group(attrs, [pill], tag.about))
    return out
