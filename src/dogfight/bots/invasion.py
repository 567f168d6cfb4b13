"""What the computer players know of 001's Invasion rules: which enemy a tripod's heat-ray
should go for when tripods fight tripods, and where a bomber should drop its bombs.

A bomber aims as a player would by eye (001: "Players cannot take measurements to
evaluate whether or not their bombs will strike their target" -- the bot only guesses
from where the tripods stand now): after each planned card it lays the straight (or the
stall) in front of itself and drops when the bomb card would cover a tripod's base where
it stands, all its loads when the dot would.
"""

from __future__ import annotations

import math

from dogfight.catalog.models import ManeuverCard, Symbol
from dogfight.geometry.maneuver import apply_card, arrowhead
from dogfight.geometry.shapes import convex_overlap, nearest_point, rectangle
from dogfight.rules.plans import Plan
from dogfight.rules.state import GameState, Vehicle


def nearest_enemy(state: GameState, tripod: Vehicle) -> Vehicle | None:
    """The enemy airplane or tripod nearest to ``tripod`` (001: heat-rays may fire at
    tripods)."""
    enemies = [v for v in state.in_play() if v.side != tripod.side]
    if not enemies:
        return None
    return min(enemies, key=lambda v: (math.dist(v.pose.point, tripod.pose.point), v.id))


def aim_drops(state: GameState, vehicle: Vehicle, plan: Plan) -> Plan:
    """``plan`` with the bomber's drops: per phase, the loads to drop where the bomb card
    would fall on an enemy tripod standing where it stands now (none right after an
    Immelmann)."""
    if vehicle.bombs <= 0 or vehicle.tripod is not None:
        return plan
    rules = state.rules
    deck = rules.deck_of(vehicle.type)
    spec = rules.catalog.constants.tripods.bomb_card
    enemies = [v for v in state.in_play() if v.tripod is not None and v.side != vehicle.side]
    if not enemies:
        return plan
    bases = [state.base(v) for v in enemies]
    left = vehicle.bombs
    drops = [0, 0, 0]
    pose = vehicle.pose
    before: Symbol | None = vehicle.previous.symbol if vehicle.previous is not None else None
    for phase, card_id in enumerate(plan.cards):
        card: ManeuverCard = deck.card(card_id)
        pose = apply_card(pose, card, rules.base_length)
        if left > 0 and before is not Symbol.IMMELMANN:
            under = card if card.symbol is Symbol.STALL else deck.card(deck.straight)
            dot = arrowhead(pose, under, rules.base_length)
            outline = rectangle(dot, spec.length, spec.width)
            on_dot = any(nearest_point(b, dot.point)[0] < spec.dot_radius for b in bases)
            covered = any(convex_overlap(b, outline) for b in bases)
            if on_dot or covered:
                drops[phase] = left if on_dot else 1
                left -= drops[phase]
        before = card.symbol
    if not any(drops):
        return plan
    return plan.model_copy(update={"drop": tuple(drops)})
