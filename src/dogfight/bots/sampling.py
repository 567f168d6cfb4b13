"""The ``random`` bot's plans: uniform draws among the deck's legal plans (listed once
per previous maneuver, rarely all flown), preferring those that stay on the table."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from dogfight.bots.plane_planner import usable_symbols
from dogfight.bots.threats import SAFE_MARGIN, best_tier
from dogfight.bots.tripod_moves import outside_except, tripod_sequences
from dogfight.bots.view import (
    Flights,
    Ints,
    airplane_sequences,
    card_table,
    fly,
    legal_sequences,
)
from dogfight.catalog.models import (
    ManeuverCard,
    ManeuverDeck,
    Symbol,
    TripodSymbol,
)
from dogfight.geometry.pose import Pose
from dogfight.rules.chance import indexes
from dogfight.rules.clocks import THREE_PHASES
from dogfight.rules.context import Rules
from dogfight.rules.plans import Action, Flown, Plan
from dogfight.rules.state import GameState, Vehicle

_ORIGIN = Pose(0.0, 0.0, 0.0)

SAMPLE_BATCH = 16
"""Legal plans the random bot draws and flies one at a time before it flies them all."""

_MOVES: dict[tuple[int, float], tuple[Ints, Flights]] = {}


def _moves(deck: ManeuverDeck, seqs: Ints, depth: float) -> Flights:
    """Where each plan of ``seqs`` (a cached table of
    :func:`~dogfight.bots.view.legal_sequences`) puts a base that starts at the origin
    facing along +x, after each phase (flown once per table)."""
    hit = _MOVES.get((id(seqs), depth))
    if hit is not None and hit[0] is seqs:
        return hit[1]
    moves = fly(_ORIGIN, card_table(deck), seqs, depth)
    _MOVES[id(seqs), depth] = (seqs, moves)
    return moves


def _flights(deck: ManeuverDeck, seqs: Ints, pose: Pose, depth: float, cached: bool) -> Flights:
    """Every plan of ``seqs`` flown from ``pose``: the plans' moves from the origin
    (:func:`_moves`), turned and carried to the pose (equal to flying them from it to
    within rounding); a table not cached is flown from the pose."""
    if not cached:
        return fly(pose, card_table(deck), seqs, depth)
    moves = _moves(deck, seqs, depth)
    rad = math.radians(pose.heading)
    c, s = math.cos(rad), math.sin(rad)
    return Flights(
        pose.x + moves.x * c - moves.y * s,
        pose.y + moves.x * s + moves.y * c,
        np.mod(moves.heading + pose.heading, 360.0),
    )


def _safe_flight(pose: Pose, cards: list[ManeuverCard], rules: Rules, depth: float) -> bool:
    """Whether the cards keep the centre dot ``SAFE_MARGIN`` inside the table after every
    phase (the top tier of :func:`~dogfight.bots.threats.best_tier`;
    :func:`~dogfight.bots.view.advance` for one plan, in plain floats)."""
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


def _pick(
    rules: Rules,
    deck: ManeuverDeck,
    seqs: Ints,
    pose: Pose,
    rng: np.random.Generator,
    cached: bool = True,
) -> Plan:
    """A uniform pick among the plans ``seqs`` of the best safety tier present.

    First by rejection: up to :data:`SAMPLE_BATCH` uniform draws among ``seqs``, flown
    one at a time, the first that keeps the airplane ``SAFE_MARGIN`` inside the table at
    every phase: a uniform pick among the safe plans, the best tier whenever there are
    any. When no draw is safe, every plan is flown (:func:`_flights`) and the best tier
    picked from, the same distribution either way."""
    depth = rules.base_length
    cards = deck.cards
    draws = indexes(rng, len(seqs))
    for _ in range(SAMPLE_BATCH):
        planned = [cards[k] for k in seqs[next(draws)].tolist()]
        if _safe_flight(pose, planned, rules, depth):
            return Plan(cards=tuple(c.id for c in planned))
    pool = np.flatnonzero(best_tier(rules, _flights(deck, seqs, pose, depth, cached)))
    row = seqs[int(pool[next(indexes(rng, len(pool)))])]
    return Plan(cards=tuple(cards[int(i)].id for i in row))


def random_airplane_plan(state: GameState, vehicle: Vehicle, rng: np.random.Generator) -> Plan:
    """A uniform pick among the legal plans of the best safety tier (:func:`_pick`) that
    the airplane's known special damage allows
    (:func:`~dogfight.bots.view.airplane_sequences`).

    The deck's legal plans after each maneuver are listed once (cached), and not flown
    all: a few uniform draws among them usually find one that stays safely on the
    table."""
    rules = state.rules
    deck = rules.deck_of(vehicle.type)
    seqs = legal_sequences(deck, vehicle.previous, usable_symbols(rules), rules.restrictions)
    if vehicle.status or not len(seqs):
        return _pick(rules, deck, airplane_sequences(state, vehicle), vehicle.pose, rng, False)
    return _pick(rules, deck, seqs, vehicle.pose, rng)


def random_seen_airplane_plan(
    rules: Rules, view: Mapping[str, Any], rng: np.random.Generator
) -> Plan | None:
    """:func:`random_airplane_plan` for one of the seat's WW1 airplanes (``view``, its
    entry in the seat's observation), with the same draws, without rebuilding a game
    state; None, before any draw, when the observation shows special damage on it (or
    does not show its status) or no plan is legal: those need the whole picture."""
    if view.get("status") != {} or view.get("clock", THREE_PHASES) != THREE_PHASES:
        return None
    deck = rules.deck_of(view["type"])
    previous = view["previous"]
    flown = (
        None
        if previous is None
        else Flown(Symbol(previous["symbol"]), bool(previous.get("steep", False)))
    )
    seqs = legal_sequences(deck, flown, usable_symbols(rules), rules.restrictions)
    if not len(seqs):
        return None
    pose = view["pose"]
    at = Pose(float(pose["x"]), float(pose["y"]), float(pose["heading"]))
    return _pick(rules, deck, seqs, at, rng)


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
