"""Random legal plans: three distinct cards that break no flight restriction, preferring
plans that keep the airplane on the table. Used by ``dogfight demo``, the benchmark and
the random playout tests."""

from __future__ import annotations

import numpy as np

from dogfight.catalog.models import ManeuverCard, TripodCard, TripodSymbol
from dogfight.geometry.maneuver import apply_card
from dogfight.rules.engine import allowed_symbols
from dogfight.rules.plans import Action, Flown, Plan, plan_problems
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
        if plan_problems(previous, cards, state.rules.restrictions):
            continue
        if _stays_on_table(state, vehicle, cards):
            return Plan(cards=tuple(c.id for c in cards))
        fallback = fallback or cards
    if fallback is None:
        straights = [c for c in usable if c.symbol.value == "straight"][:3]
        fallback = (straights + [c for c in usable if c not in straights])[:3]
    return Plan(cards=tuple(c.id for c in fallback))


def random_tripod_plan(state: GameState, vehicle_id: str, rng: np.random.Generator) -> Plan:
    """A random legal plan for a tripod: as many cards as it may plan, at least one
    stationary or running card, no energy card it cannot pay, and a heat-ray token on a
    card without the Stop icon when it has Energy (else a recharge on a standing card)."""
    vehicle = state.vehicles[vehicle_id]
    assert vehicle.tripod is not None
    deck = state.rules.tripod_deck_of(vehicle.type)
    model = state.rules.tripod(vehicle.type)
    count = 3 - vehicle.tripod.toppled
    usable = [c for c in deck.cards if not c.energy]
    cards: list[TripodCard] = []
    for _ in range(40):
        picks = rng.choice(len(usable), size=count, replace=False)
        cards = [usable[int(i)] for i in picks]
        if count < 3 or any(c.symbol is not TripodSymbol.MOVE for c in cards):
            break
    actions: list[Action | None] = [None, None, None]
    offset = 3 - count
    for i, card in enumerate(cards):
        if card.stop:
            continue
        if card.symbol is TripodSymbol.STAND and vehicle.tripod.energy < model.energy:
            actions[offset + i] = Action(token="recharge")
        elif vehicle.tripod.energy > 0 and rng.random() < 0.6:
            side = model.projectors[int(rng.integers(len(model.projectors)))]
            actions[offset + i] = Action(token="heat_ray", projector=side)
    return Plan(cards=tuple(c.id for c in cards), actions=tuple(actions))


def random_plans(state: GameState, rng: np.random.Generator) -> dict[str, Plan]:
    """A random plan for every vehicle in play, in id order."""
    return {
        v.id: (random_tripod_plan if v.tripod is not None else random_plan)(state, v.id, rng)
        for v in sorted(state.in_play(), key=lambda v: v.id)
    }
