"""The ``random`` bot's plans: uniform legal plans drawn in small batches (rather than
enumerating every sequence), preferring those that stay on the table."""

from __future__ import annotations

import math

import numpy as np

from dogfight.bots.plane_planner import usable_symbols
from dogfight.bots.threats import SAFE_MARGIN, best_tier
from dogfight.bots.tripod_moves import outside_except, tripod_sequences
from dogfight.bots.view import (
    Ints,
    airplane_sequences,
    card_table,
    fly,
    follows,
    opens,
    status_allows,
)
from dogfight.catalog.models import (
    ManeuverCard,
    ManeuverDeck,
    Symbol,
    TripodSymbol,
)
from dogfight.geometry.pose import Pose
from dogfight.rules.context import Rules
from dogfight.rules.plans import Action, Flown, Plan, Restrictions
from dogfight.rules.state import GameState, Vehicle

SAMPLE_BATCH = 16
"""Plans the random bot draws at once before it falls back to enumerating them all."""

_USABLE: dict[tuple[int, frozenset[Symbol]], tuple[object, Ints]] = {}


def _usable(deck: ManeuverDeck, symbols: frozenset[Symbol]) -> Ints:
    """Indexes of the deck's cards whose symbol is in play (cached per deck)."""
    key = (id(deck), symbols)
    hit = _USABLE.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    out = np.array([i for i, c in enumerate(deck.cards) if c.symbol in symbols], dtype=np.int64)
    _USABLE[key] = (deck, out)
    return out


def _legal(
    deck: ManeuverDeck, previous: Flown | None, row: list[int], restrictions: Restrictions
) -> bool:
    """Whether the cards at ``row`` break no flight restriction in force after
    ``previous``: each may follow the one before it (:func:`~dogfight.bots.view.follows`,
    cached per deck and restrictions)."""
    if not opens(deck, previous, restrictions)[row[0]]:
        return False
    after = follows(deck, restrictions)
    return bool(all(after[row[k - 1], row[k]] for k in range(1, len(row))))


def _safe_flight(pose: Pose, cards: list[ManeuverCard], rules: Rules, depth: float) -> bool:
    """Whether the cards keep the centre dot ``SAFE_MARGIN`` inside the table after every
    phase (the top tier of :func:`_safe_tiers`; :func:`~dogfight.bots.view.advance` for
    one plan, in plain floats)."""
    x, y, h = pose.x, pose.y, pose.heading
    half = depth / 2.0
    low_x, high_x = SAFE_MARGIN, rules.table_width - SAFE_MARGIN
    low_y, high_y = SAFE_MARGIN, rules.table_height - SAFE_MARGIN
    for card in cards:
        rad = math.radians(h)
        c, s = math.cos(rad), math.sin(rad)
        nx = x + half * c + card.forward * c - card.left * s
        ny = y + half * s + card.forward * s + card.left * c
        h = (h + card.turn) % 360.0
        rad = math.radians(h)
        x, y = nx + half * math.cos(rad), ny + half * math.sin(rad)
        if not (low_x <= x <= high_x and low_y <= y <= high_y):
            return False
    return True


def _sampled_airplane_plan(
    state: GameState, vehicle: Vehicle, deck: ManeuverDeck, rng: np.random.Generator
) -> list[ManeuverCard] | None:
    """A uniform legal plan that keeps the airplane safely on the table at every phase
    (the top tier of :func:`_safe_tiers`), drawn by rejection: of :data:`SAMPLE_BATCH`
    uniform draws of three cards, the first that are distinct, legal and safe. None when
    none qualifies."""
    rules = state.rules
    usable = _usable(deck, usable_symbols(rules))
    if len(usable) < 3:
        return None
    for row in usable[rng.integers(len(usable), size=(SAMPLE_BATCH, 3))].tolist():
        if row[0] == row[1] or row[0] == row[2] or row[1] == row[2]:
            continue
        if not _legal(deck, vehicle.previous, row, rules.restrictions):
            continue
        cards = [deck.cards[k] for k in row]
        if vehicle.status and not status_allows(cards, vehicle.status, state.turn, rules.specials):
            continue
        if _safe_flight(vehicle.pose, cards, rules, rules.base_length):
            return cards
    return None


def random_airplane_plan(state: GameState, vehicle: Vehicle, rng: np.random.Generator) -> Plan:
    """A uniform pick among the legal plans of the best safety tier.

    Usually without listing the ~2,700 legal plans: the first of a batch of uniform
    three-card draws that is distinct, legal and safe at every phase is a uniform pick
    among the safe plans, which are the best tier whenever there are any; only when a
    batch finds none are all the plans listed, flown and the best tier picked from (the
    same distribution either way, from a different stream of random numbers).
    """
    rules = state.rules
    deck = rules.deck_of(vehicle.type)
    sampled = _sampled_airplane_plan(state, vehicle, deck, rng)
    if sampled is not None:
        return Plan(cards=tuple(c.id for c in sampled))
    seqs = airplane_sequences(state, vehicle)
    flights = fly(vehicle.pose, card_table(deck), seqs, rules.base_length)
    pool = np.flatnonzero(best_tier(rules, flights))
    row = seqs[int(pool[int(rng.integers(len(pool)))])]
    return Plan(cards=tuple(deck.cards[int(i)].id for i in row))


def random_tripod(state: GameState, vehicle: Vehicle, rng: np.random.Generator) -> Plan:
    """A uniform legal tripod plan that stays on the table when it can; a heat-ray on a
    card without the Stop icon when ready, a recharge on a standing card when short."""
    assert vehicle.tripod is not None
    rules = state.rules
    deck = rules.tripod_deck_of(vehicle.type)
    seqs, (x, y, _) = tripod_sequences(state, vehicle)
    off = outside_except(rules, x, y, None).any(axis=1)
    pool = np.flatnonzero(~off) if (~off).any() else np.arange(len(seqs))
    row = seqs[int(pool[int(rng.integers(len(pool)))])]
    planned = [deck.cards[int(i)] for i in row]
    model = rules.tripod(vehicle.type)
    actions: list[Action | None] = [None, None, None]
    offset = 3 - len(planned)
    energy = vehicle.tripod.energy
    for i, card in enumerate(planned):
        if card.stop:
            continue
        if card.symbol is TripodSymbol.STAND and energy < vehicle.tripod.rating:
            actions[offset + i] = Action(token="recharge")
        elif energy > 0 and rng.random() < 0.6:
            side = model.projectors[int(rng.integers(len(model.projectors)))]
            actions[offset + i] = Action(token="heat_ray", projector=side)
    return Plan(cards=tuple(c.id for c in planned), actions=tuple(actions))
