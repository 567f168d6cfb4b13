"""Moves (card, path, start outline) and the firing arcs out to the ruler."""

from __future__ import annotations

from collections.abc import Sequence

from dogfight.render.context import _Context, _laid, _move_shapes, _when
from dogfight.render.markup import _cm, _group, _polygon, _tag
from dogfight.render.shots import _heat_ray_rulers
from dogfight.render.style import CARD_EDGE, SMALL_SIZE
from dogfight.render.table import _wedge
from dogfight.rules.events import (
    Event,
)


def _reach_layer(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """Each airplane's firing arcs (front, and rear for two-seaters) out to the ruler,
    with the half mark (the end of short range) as an arc line. Tripods have no arcs:
    for each heat-ray fired, the outline of the heat-ray ruler as it was laid."""
    rules = ctx.state.rules
    out: list[str] = _heat_ray_rulers(ctx, events)
    for vehicle in ctx.vehicles():
        if not vehicle.in_play:
            continue
        colour = ctx.colour(vehicle)
        for weapon, _letter in rules.weapons(vehicle.type):
            arc = rules.arc(weapon)
            wedge, _ = _wedge(ctx.frame, vehicle.pose, arc, rules.ruler)
            _, half = _wedge(ctx.frame, vehicle.pose, arc, rules.half)
            out.append(
                _group(
                    {"class": "arc", "data-vehicle": vehicle.id, "data-weapon": weapon},
                    [
                        _tag(
                            "path", {"class": "reach", "d": wedge, "fill": colour, "stroke": colour}
                        ),
                        _tag(
                            "path", {"class": "half", "d": half, "fill": "none", "stroke": colour}
                        ),
                    ],
                    f"{vehicle.id} {weapon} arc: ruler {_cm(rules.ruler)} cm, "
                    f"short range up to the half mark at {_cm(rules.half)} cm",
                )
            )
    return out


def _moves_layer(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """For every move: the card laid at the start (faint), the path of the centre dot,
    the card id, and a ghost outline of the base where it started. A tripod's card
    applied backwards (after a reverse) is laid against the rear of its base."""
    f = ctx.frame
    out: list[str] = []
    for turn, phase, move, vehicle in ctx.moves(events):
        colour = ctx.colour(vehicle)
        area, path = _move_shapes(ctx, move, vehicle)
        laid = _laid(ctx, move, vehicle)
        tripod = vehicle.kind == "tripod"
        backward = tripod and move.backward
        # the card's far corner on the pilot's left: clear of the path and of the base
        nose = laid.pose.moved(laid.depth / 2.0, 0.0, 0.0)
        corner = nose.to_world(laid.length - 1.0, laid.width / 2.0 - 0.3)
        ahead, left = nose.forward(), (-nose.forward()[1], nose.forward()[0])
        ctx.labels.add(
            corner,
            f"card {move.card}" + (" backward" if backward else ""),
            size=SMALL_SIZE,
            nudges=((-1.2 * ahead[0], -1.2 * ahead[1]), (-1.2 * left[0], -1.2 * left[1])),
            tries=5,
            fill=colour,
        )
        if not tripod:
            about = f"{vehicle.id} flies card {move.card}"
        elif backward:
            about = (
                f"{vehicle.id} walks card {move.card} backward: after a reverse the card is "
                "laid against the rear of the base"
            )
        else:
            about = f"{vehicle.id} walks card {move.card}"
        attrs = {
            "class": "move",
            "data-vehicle": vehicle.id,
            "data-card": move.card,
            "data-backward": "true" if backward else None,
        }
        out.append(
            _group(
                attrs,
                [
                    _polygon(f, area, {"class": "card", "fill": colour, "stroke": CARD_EDGE}),
                    _polygon(
                        f, ctx.shape(vehicle, move.start), {"class": "start", "stroke": colour}
                    ),
                    _tag("polyline", {"class": "path", "points": f.points(path), "stroke": colour}),
                ],
                about + _when(turn, phase),
            )
        )
    return out
