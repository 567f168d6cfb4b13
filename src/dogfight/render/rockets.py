"""Rockets launched, hitting and missing."""

from __future__ import annotations

from collections.abc import Sequence

from dogfight.render.context import _Context, _timed, _when
from dogfight.render.markup import Attrs, _group, _line, _tag
from dogfight.render.style import SMALL_SIZE
from dogfight.render.tripods import _armour_hits
from dogfight.rules.events import (
    Event,
    PhaseStarted,
    ProtectedHit,
    RocketsHit,
    RocketsLaunched,
    RocketsMissed,
    TurnStarted,
)
from dogfight.rules.rockets import ROCKET_DECK


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _rockets_layer(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """Rockets launched (a double chevron off the firer's nose with the count and the
    target), rockets that hit (a dash-dot line from the firer where it stood then to the
    centre of the vehicle hit, with the D cards and, when a blocking airplane took them,
    the target they were meant for) and rockets that missed (dotted, with the reason)."""
    f = ctx.frame
    vehicles = ctx.state.vehicles
    nose = ctx.state.rules.base_length / 2.0
    armour = {id(hit) for hit in _armour_hits(events).values()}
    out: list[str] = []
    for index, (turn, phase, event) in enumerate(_timed(events)):
        when = _when(turn, phase)
        if isinstance(event, RocketsLaunched) and event.firer in vehicles:
            firer = vehicles[event.firer]
            colour = ctx.colour(firer)
            pose = ctx.pose_at(events, index, event.firer)
            marks = []
            for ahead in (nose + 1.4, nose + 2.5):
                tip = pose.to_world(ahead, 0.0)
                marks.append(
                    f"M{f.point(pose.to_world(ahead - 0.9, 0.8))} L{f.point(tip)} "
                    f"L{f.point(pose.to_world(ahead - 0.9, -0.8))}"
                )
            tip = pose.to_world(nose + 2.5, 0.0)
            text = f"{_plural(event.count, 'rocket')} → {event.target}"
            ctx.beside(pose.point, tip, 1.0, text, SMALL_SIZE, colour)
            path = _tag("path", {"class": "rocket-launch", "d": " ".join(marks), "stroke": colour})
            attrs = {
                "class": "rockets rockets-launched",
                "data-firer": event.firer,
                "data-target": event.target,
            }
            about = (
                f"{event.firer} launches {_plural(event.count, 'rocket')} at {event.target} "
                f"({event.left} left): they hit after its next maneuver if it is a stall or "
                "a straight and the target is still in its front arc"
            )
            out.append(_group(attrs, [path], about + when))
        elif isinstance(event, RocketsHit | RocketsMissed) and (
            event.firer in vehicles and event.target in vehicles
        ):
            colour = ctx.colour(vehicles[event.firer])
            origin = ctx.pose_at(events, index, event.firer).point
            point = ctx.pose_at(events, index, event.target).point
            if isinstance(event, RocketsHit):
                cards = _plural(event.count, f"{ROCKET_DECK} card")
                text = f"rockets hit ({cards})"
                about = f"{event.firer}'s rockets hit {event.target}: {cards}"
                if event.instead_of is not None:
                    text += f" instead of {event.instead_of}"
                    about += f", instead of {event.instead_of}, whose line of sight it blocks"
                if _rockets_on_armour(events, index, event, armour):
                    text += ", armour"
                    about += "; they strike the electrified armour"
                css, kind = "rocket-hit", "rockets-hit"
            else:
                text = f"rockets missed: {event.reason}"
                about = f"{event.firer}'s rockets miss {event.target}: {event.reason}"
                css, kind = "rocket-missed", "rockets-missed"
            ctx.beside(origin, point, 0.5, text, SMALL_SIZE, colour)
            group: Attrs = {
                "class": f"rockets {kind}",
                "data-firer": event.firer,
                "data-target": event.target,
                "data-instead-of": event.instead_of if isinstance(event, RocketsHit) else None,
            }
            # a white casing keeps the rockets' line readable over a gun shot's
            casing = _line(f, origin, point, {"class": "rocket-casing", "stroke": "#ffffff"})
            line = _line(f, origin, point, {"class": css, "stroke": colour})
            out.append(_group(group, [casing, line], about + when))
    return out


def _rockets_on_armour(
    events: Sequence[Event], index: int, hit: RocketsHit, shots: set[int]
) -> bool:
    """Whether the rockets of ``events[index]`` struck a tripod's electrified armour: a
    hit on the armour from the rocket deck later in the same phase, by that firer on that
    vehicle, that no gun shot accounts for."""
    for event in events[index + 1 :]:
        if isinstance(event, TurnStarted | PhaseStarted):
            return False
        if (
            isinstance(event, ProtectedHit)
            and id(event) not in shots
            and (event.firer, event.vehicle, event.deck) == (hit.firer, hit.target, ROCKET_DECK)
        ):
            return True
    return False
