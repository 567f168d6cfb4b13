"""Random legal plans: three distinct cards that break no flight restriction, preferring
plans that keep the airplane on the table. Used by ``dogfight demo``, the benchmark and
the random playout tests."""

from __future__ import annotations

import numpy as np

from dogfight.catalog.models import ManeuverCard
from dogfight.geometry.maneuver import apply_card
from dogfight.rules.engine import allowed_symbols
from dogfight.rules.plans import Flown, Plan, plan_problems
from dogfight.rules.state import GameState, Vehicle


def _stays_on_table(state: GameState, vehicle: Vehicle, cards: list[ManeuverCard]) -> bool:
    pose = vehicle.pose
    margin = 1.0
    for card in cards:
        pose = apply_card(pose, card, state.rules.base_length)
        if not (
            margin <= pose.x <= state.rules.table_width - margin
            and margin <= pose.y <= state.rules.table_height - margin
        ):
            return False
    return True


def random_plan(
    state: GameState, vehicle_id: str, rng: np.random.Generator, tries: int = 40
) -> Plan:
    """A random plan for one airplane, legal whenever a legal one is found in ``tries``."""
    vehicle = state.vehicles[vehicle_id]
    deck = state.rules.deck_of(vehicle.type)
    symbols = allowed_symbols(state)
    usable = [c for c in deck.cards if c.symbol in symbols]
    previous: Flown | None = vehicle.previous
    fallback: list[ManeuverCard] | None = None
    for _ in range(tries):
        picks = rng.choice(len(usable), size=3, replace=False)
        cards = [usable[int(i)] for i in picks]
        if plan_problems(previous, cards):
            continue
        if _stays_on_table(state, vehicle, cards):
            return Plan(cards=tuple(c.id for c in cards))
        fallback = fallback or cards
    if fallback is None:
        straights = [c for c in usable if c.symbol.value == "straight"][:3]
        fallback = (straights + [c for c in usable if c not in straights])[:3]
    return Plan(cards=tuple(c.id for c in fallback))


def random_plans(state: GameState, rng: np.random.Generator) -> dict[str, Plan]:
    """A random plan for every airplane in play, in id order."""
    return {
        v.id: random_plan(state, v.id, rng) for v in sorted(state.in_play(), key=lambda v: v.id)
    }
