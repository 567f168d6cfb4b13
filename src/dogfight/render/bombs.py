"""001's Bombing Tripods and Tripods vs. Tripods on the drawing: each bomb card where it
was laid (its outline, the dot at its centre, the loads), crossed out when a heat-ray blew
the bombs up in the air, with what it did on landing; and each tripod's action card as
revealed, numbered in initiative order."""

from __future__ import annotations

from collections.abc import Sequence

from dogfight.render.context import _Context, _timed, _when
from dogfight.render.markup import Attrs, _circle, _cross, _group, _polygon, _tag
from dogfight.render.style import INK, RAY, SMALL_SIZE
from dogfight.rules.events import (
    ActionCardRevealed,
    BombCardPlaced,
    BombsLanded,
    BombsShot,
    Event,
    PhaseStarted,
)
from dogfight.words.terms import plural

BOMB = "#3b3b8f"
"""Bomb cards: dark blue."""


def _bomb_layer(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """Every bomb card placed among ``events``."""
    f = ctx.frame
    radius = ctx.state.rules.catalog.constants.tripods.bomb_card.dot_radius
    out: list[str] = []
    timed = list(_timed(events))
    for index, (turn, phase, event) in enumerate(timed):
        if not isinstance(event, BombCardPlaced):
            continue
        later = [e for _, _, e in timed[index + 1 :]]
        destroyed = [
            e for e in later if isinstance(e, BombsShot) and e.bombs == event.bombs and e.destroyed
        ]
        landed = [e for e in later if isinstance(e, BombsLanded) and e.bombs == event.bombs]
        attrs: Attrs = {
            "class": "bomb-card",
            "data-bomber": event.bomber,
            "data-loads": event.loads,
        }
        children = [
            _polygon(f, event.corners, {"fill": BOMB, "fill-opacity": 0.15, "stroke": BOMB}),
            _circle(f, event.pose.point, radius, {"fill": BOMB}),
        ]
        about = (
            f"{event.bomber}'s bomb card ({plural(event.loads, 'load')}), laid on the arrow "
            f"of card {event.card}; dot on: {', '.join(event.dot) or 'no base'}; card over: "
            f"{', '.join(event.covered) or 'no other base'}"
        )
        if destroyed:
            shot = destroyed[0]
            children.append(_tag("path", {"d": _cross(f, event.pose.point, 2.0), "stroke": RAY}))
            about += f"; blown up in the air by {shot.firer}'s heat-ray ({shot.points} points)"
            text = f"bombs {event.bomber}: destroyed"
        else:
            hits = [f"{e.target} {e.how} {e.cards}C" for e in landed if e.target is not None]
            about += "; landed: " + (", ".join(hits) or "a miss")
            text = f"bombs {event.bomber} x{event.loads}: " + (", ".join(hits) or "miss")
        corner = event.corners[0]
        ctx.beside(event.pose.point, corner, 1.0, text, SMALL_SIZE, BOMB)
        out.append(_group(attrs, children, about + _when(turn, phase)))
    return out


def _reveal_labels(ctx: _Context, events: Sequence[Event]) -> None:
    """The action cards revealed in the last phase among ``events``, by each tripod:
    "#order token (initiative)"."""
    last = max((i for i, e in enumerate(events) if isinstance(e, PhaseStarted)), default=-1)
    for event in events[last + 1 :]:
        if not isinstance(event, ActionCardRevealed) or event.vehicle not in ctx.state.vehicles:
            continue
        vehicle = ctx.state.vehicles[event.vehicle]
        where = vehicle.pose.point
        token = event.token.replace("_", " ")
        text = f"#{event.order} {token} {event.detail} (init {event.initiative})".rstrip()
        ctx.beside(where, (where[0] + 1.0, where[1] - 1.0), 1.0, text, SMALL_SIZE, INK)
