"""Random legal plans: three distinct cards that break no flight restriction, preferring
plans that keep the airplane on the table. Used by ``dogfight demo``, the benchmark and
the random playout tests."""

from __future__ import annotations

import itertools
import math

import numpy as np

from dogfight.bots.view import follows, opens
from dogfight.catalog.models import ManeuverCard, ManeuverDeck, Symbol, TripodCard, TripodSymbol
from dogfight.errors import IllegalPlanError
from dogfight.geometry.maneuver import fly_card
from dogfight.rules import standard
from dogfight.rules.chance import sample
from dogfight.rules.clocks import ONE_PHASE
from dogfight.rules.engine import allowed_symbols
from dogfight.rules.plans import Action, Flown, Plan, Restrictions, plan_problems
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.ww2 import scale


def _stays_on_table(state: GameState, vehicle: Vehicle, cards: list[ManeuverCard]) -> bool:
    pose = vehicle.pose
    margin = 1.0
    high_x = state.rules.table_width - margin
    high_y = state.rules.table_height - margin
    half = state.rules.base_length / 2.0
    x, y, heading = pose.x, pose.y, pose.heading
    rad = math.radians(heading)
    c, s = math.cos(rad), math.sin(rad)
    for card in cards:
        x, y, heading, c, s = fly_card(x, y, heading, c, s, card, half)
        if not (margin <= x <= high_x and margin <= y <= high_y):
            return False
    return True


Tables = tuple[list[int], list[bool], list[list[bool]]]
_TABLES: dict[tuple[int, Flown | None, Restrictions, frozenset[Symbol]], tuple[object, Tables]] = {}


def _tables(
    deck: ManeuverDeck, previous: Flown | None, restrictions: Restrictions, symbols: set[Symbol]
) -> Tables:
    """The deck's cards of ``symbols`` (indexes), which may open the turn after
    ``previous`` and which may follow which (:func:`opens`, :func:`follows`), as Python
    lists, kept per deck."""
    key = (id(deck), previous, restrictions, frozenset(symbols))
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    usable = [i for i, c in enumerate(deck.cards) if c.symbol in symbols]
    first = opens(deck, previous, restrictions).tolist()
    after = follows(deck, restrictions).tolist()
    tables = (usable, first, after)
    _TABLES[key] = (deck, tables)
    return tables


def random_plan(
    state: GameState, vehicle_id: str, rng: np.random.Generator, tries: int = 40
) -> Plan:
    """A random plan for one airplane, legal whenever a legal one is found in ``tries``.

    A draw is legal when each card may follow the one before it (the deck's tables of
    :func:`~dogfight.bots.view.opens` and :func:`~dogfight.bots.view.follows`, what
    ``plan_problems`` finds one card at a time)."""
    vehicle = state.vehicles[vehicle_id]
    deck = state.rules.deck_of(vehicle.type)
    usable, first, after = _tables(
        deck, vehicle.previous, state.rules.restrictions, allowed_symbols(state)
    )
    fallback: list[ManeuverCard] | None = None
    count = len(usable)
    for _ in range(tries):
        a, b, c = (usable[i] for i in sample(rng, count, 3))
        if not (first[a] and after[a][b] and after[b][c]):
            continue
        cards = [deck.cards[a], deck.cards[b], deck.cards[c]]
        if _stays_on_table(state, vehicle, cards):
            return Plan(cards=tuple(card.id for card in cards))
        fallback = fallback or cards
    if fallback is None:
        playable = [deck.cards[i] for i in usable]
        straights = [c for c in playable if c.symbol.value == "straight"][:3]
        fallback = (straights + [c for c in playable if c not in straights])[:3]
    return Plan(cards=tuple(c.id for c in fallback))


def legal_plan(state: GameState, vehicle_id: str, rng: np.random.Generator) -> Plan | None:
    """A plan drawn uniformly among every legal three-card sequence (flight restrictions
    and what the airplane's special damage allows, e.g. on fire with a jammed rudder),
    preferring those that stay on the table; when the damage leaves none legal, among
    those the engine accepts as illegal maneuvers; None when the damage forbids every
    plan. Exhaustive, so it finds the few plans random draws miss."""
    vehicle = state.vehicles[vehicle_id]
    deck = state.rules.deck_of(vehicle.type)
    symbols = allowed_symbols(state)
    # Every card of the allowed symbols, not only those the damage allows alone: a
    # damaged engine asks for a stall among the three cards, so a card refused alone may
    # still be planned beside one.
    usable = [c for c in deck.cards if c.symbol in symbols]
    legal: list[list[ManeuverCard]] = []
    accepted: list[list[ManeuverCard]] = []
    for cards in itertools.permutations(usable, 3):
        chosen = list(cards)
        try:
            standard.check_airplane_plan(state, vehicle, chosen)
        except IllegalPlanError:
            continue
        accepted.append(chosen)
        if not plan_problems(vehicle.previous, chosen, state.rules.restrictions):
            legal.append(chosen)
    # When the damage leaves no legal plan (on fire after an Immelmann: no straight, and
    # only a straight may follow), the engine still takes a plan that breaks a flight
    # restriction, flown as the ruleset's illegal maneuver; never one the damage forbids.
    legal = legal or accepted
    if not legal:
        return None
    staying = [c for c in legal if _stays_on_table(state, vehicle, c)] or legal
    pick = staying[int(rng.integers(len(staying)))]
    return Plan(cards=tuple(c.id for c in pick))


SOLO_DRAWS = 200
"""How many random plans a solo game's airplane draws before :func:`legal_plan`'s
exhaustive pick (a computer seat's fallback draws one)."""


def random_legal_plan(
    state: GameState, vehicle_id: str, rng: np.random.Generator, draws: int = 1
) -> Plan:
    """A random plan for one airplane (:func:`random_plan`) that its special damage
    allows (a jammed rudder, a damaged engine, a fire: 000's Standard Rules
    restrictions): up to ``draws`` plans are drawn until one is allowed, else one comes
    from :func:`legal_plan` (the few legal plans random draws miss, e.g. on fire with a
    jammed rudder; the last draw when the damage forbids every plan). A computer
    seat's plan the engine never refuses when a legal one exists (one draw), and a solo
    game's airplanes' (:data:`SOLO_DRAWS`)."""
    vehicle = state.vehicles[vehicle_id]
    deck = state.rules.deck_of(vehicle.type)
    plan = random_plan(state, vehicle_id, rng)
    for drawn in range(1, draws + 1):
        try:
            standard.check_airplane_plan(state, vehicle, [deck.card(c) for c in plan.cards])
        except IllegalPlanError:
            if drawn < draws:
                plan = random_plan(state, vehicle_id, rng)
            continue
        return plan
    return legal_plan(state, vehicle_id, rng) or plan


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
        cards = [usable[i] for i in sample(rng, len(usable), count)]
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


def _damage_allows(state: GameState, vehicle: Vehicle, card: ManeuverCard) -> bool:
    """Whether the airplane's special damage lets it plan ``card`` (Standard Rules)."""
    try:
        standard.check_airplane_plan(state, vehicle, [card])
    except IllegalPlanError:
        return False
    return True


def random_ww2_plan(
    state: GameState, vehicle_id: str, rng: np.random.Generator, tries: int = 40
) -> Plan:
    """A random card and speed marker for a WW2 airplane's Earthling turn (001), legal and
    on the table whenever one is found in ``tries``."""
    vehicle = state.vehicles[vehicle_id]
    deck = state.rules.deck_of(vehicle.type)
    speeds = state.rules.airplane(vehicle.type).speeds
    card_speed = state.rules.switches.card_speed
    symbols = allowed_symbols(state)
    usable = [
        c for c in deck.cards if c.symbol in symbols and _damage_allows(state, vehicle, c)
    ] or [c for c in deck.cards if c.symbol in symbols]
    fallback: tuple[ManeuverCard, int] | None = None
    for _ in range(tries):
        card = usable[int(rng.integers(len(usable)))]
        speed = speeds[int(rng.integers(len(speeds)))]
        if plan_problems(vehicle.previous, [card]):
            continue
        if _stays_on_table(state, vehicle, [scale(card, speed, card_speed)]):
            return Plan(cards=(card.id,), speeds=(speed,))
        fallback = fallback or (card, speed)
    card, speed = fallback or (deck.card(deck.straight), speeds[0])
    return Plan(cards=(card.id,), speeds=(speed,))


def random_plans(state: GameState, rng: np.random.Generator) -> dict[str, Plan]:
    """A random plan for every vehicle that plans in this planning phase, in id order
    (before the second and third action phases, only the WW2 airplanes: 001)."""
    due = set(state.planning_due())
    out: dict[str, Plan] = {}
    for v in sorted(state.in_play(), key=lambda v: v.id):
        if v.id not in due:
            continue
        if v.tripod is not None:
            out[v.id] = random_tripod_plan(state, v.id, rng)
        elif v.clock == ONE_PHASE:
            out[v.id] = random_ww2_plan(state, v.id, rng)
        else:
            out[v.id] = random_plan(state, v.id, rng)
    return out
