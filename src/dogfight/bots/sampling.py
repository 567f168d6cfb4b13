"""The ``random`` bot's plans: uniform draws among the deck's legal plans (listed once
per previous maneuver, rarely all flown), preferring those that stay on the table."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from dogfight.bots.plane_planner import usable_symbols
from dogfight.bots.threats import SAFE_MARGIN
from dogfight.bots.tripod_moves import outside_except, tripod_sequences
from dogfight.bots.view import (
    Bools,
    Flights,
    Floats,
    Ints,
    airplane_sequences,
    card_table,
    fly,
    legal_sequences,
    status_mask,
)
from dogfight.catalog.models import (
    ManeuverDeck,
    Symbol,
    TripodSymbol,
)
from dogfight.geometry.pose import Pose
from dogfight.rules.chance import indexes
from dogfight.rules.clocks import THREE_PHASES
from dogfight.rules.context import Rules
from dogfight.rules.plans import Action, Flown, Plan, cards_plan
from dogfight.rules.state import GameState, Vehicle

_ORIGIN = Pose(0.0, 0.0, 0.0)

SAMPLE_BATCH = 16
"""Plans the random bot draws and checks one at a time before it checks them all."""


@dataclass(frozen=True)
class _Plans:
    """Plans of one deck ready to draw from: each plan's card ids, and where it puts a
    base that starts at the origin facing along +x after each phase (flown once), as
    arrays and as plain lists."""

    ids: list[tuple[str, ...]]
    moves: Flights
    xs: list[list[float]]
    ys: list[list[float]]


def _plans_of(deck: ManeuverDeck, seqs: Ints, depth: float) -> _Plans:
    moves = fly(_ORIGIN, card_table(deck), seqs, depth)
    ids = [tuple(deck.cards[i].id for i in row) for row in seqs.tolist()]
    return _Plans(ids, moves, moves.x.tolist(), moves.y.tolist())


_PLANS: dict[tuple[int, float], tuple[Ints, _Plans]] = {}


def _legal_plans(deck: ManeuverDeck, seqs: Ints, depth: float) -> _Plans:
    """:func:`_plans_of` a table :func:`~dogfight.bots.view.legal_sequences` caches
    (made once per table)."""
    hit = _PLANS.get((id(seqs), depth))
    if hit is not None and hit[0] is seqs:
        return hit[1]
    plans = _plans_of(deck, seqs, depth)
    _PLANS[id(seqs), depth] = (seqs, plans)
    return plans


class _Frame:
    """The table seen from a pose: a plan's moves from the origin, turned and carried to
    the pose, as distances from the table's middle (equal to flying the plan from the
    pose, to within rounding)."""

    def __init__(self, rules: Rules, pose: Pose) -> None:
        rad = math.radians(pose.heading)
        self.c, self.s = math.cos(rad), math.sin(rad)
        self.half_w, self.half_h = rules.table_width / 2.0, rules.table_height / 2.0
        self.dx, self.dy = self.half_w - pose.x, self.half_h - pose.y
        self.safe_x, self.safe_y = self.half_w - SAFE_MARGIN, self.half_h - SAFE_MARGIN

    def safe(self, mx: list[float], my: list[float]) -> bool:
        """Whether one plan keeps the centre dot ``SAFE_MARGIN`` inside the table at every
        phase (the arithmetic of :meth:`distances`, in plain floats)."""
        c, s, dx, dy = self.c, self.s, self.dx, self.dy
        for x, y in zip(mx, my, strict=True):
            if abs(x * c - y * s - dx) > self.safe_x or abs(x * s + y * c - dy) > self.safe_y:
                return False
        return True

    def distances(self, moves: Flights) -> tuple[Floats, Floats]:
        """Each plan's centre dot's distance from the table's middle across and along,
        after each phase."""
        x = moves.x * self.c
        x -= moves.y * self.s
        x -= self.dx
        y = moves.x * self.s
        y += moves.y * self.c
        y -= self.dy
        return np.abs(x, out=x), np.abs(y, out=y)

    def best(self, x: Floats, y: Floats) -> Bools:
        """The plans of the best safety tier present, the tiers of
        :func:`~dogfight.bots.threats.best_tier`: ``SAFE_MARGIN`` inside the table at
        every phase; else on it; else on it longest."""
        ok = (x <= self.safe_x) & (y <= self.safe_y)
        out: Bools = ok[:, 0] & ok[:, 1] & ok[:, 2]
        if out.any():
            return out
        on = (x <= self.half_w + 1e-9) & (y <= self.half_h + 1e-9)
        for out in (on[:, 0] & on[:, 1] & on[:, 2], on[:, 0] & on[:, 1], on[:, 0]):
            if out.any():
                return out
        return np.ones(len(x), dtype=np.bool_)


def _pick(
    rules: Rules, plans: _Plans, pose: Pose, rng: np.random.Generator, rows: Ints | None = None
) -> Plan:
    """A uniform pick among the plans (those of ``rows`` only, when given) of the best
    safety tier present.

    First by rejection: up to :data:`SAMPLE_BATCH` uniform draws, each checked alone, the
    first that keeps the airplane ``SAFE_MARGIN`` inside the table at every phase: a
    uniform pick among the safe plans, the best tier whenever there are any. When no
    draw is safe, every plan is checked and the best tier picked from, the same
    distribution either way."""
    frame = _Frame(rules, pose)
    picked = rows.tolist() if rows is not None else None
    draws = indexes(rng, len(plans.ids) if picked is None else len(picked))
    for _ in range(SAMPLE_BATCH):
        i = next(draws) if picked is None else picked[next(draws)]
        if frame.safe(plans.xs[i], plans.ys[i]):
            return cards_plan(plans.ids[i])
    x, y = frame.distances(plans.moves)
    if rows is not None:
        x, y = x[rows], y[rows]
    pool = np.flatnonzero(frame.best(x, y))
    i = int(pool[next(indexes(rng, len(pool)))])
    return cards_plan(plans.ids[i if rows is None else int(rows[i])])


def random_airplane_plan(state: GameState, vehicle: Vehicle, rng: np.random.Generator) -> Plan:
    """A uniform pick among the legal plans of the best safety tier (:func:`_pick`) that
    the airplane's known special damage allows
    (:func:`~dogfight.bots.view.airplane_sequences`).

    The deck's legal plans after each maneuver are listed and flown from the origin once
    (cached); a few uniform draws among them usually find one that stays safely on the
    table."""
    rules = state.rules
    deck = rules.deck_of(vehicle.type)
    depth = rules.base_length
    seqs = legal_sequences(deck, vehicle.previous, usable_symbols(rules), rules.restrictions)
    rows = None
    if vehicle.status:
        rows = np.flatnonzero(status_mask(deck, seqs, vehicle.status, state.turn, rules.specials))
    if not len(seqs if rows is None else rows):
        # the damage forbids every legal plan (or none is legal): airplane_sequences' pick
        others = _plans_of(deck, airplane_sequences(state, vehicle), depth)
        return _pick(rules, others, vehicle.pose, rng)
    return _pick(rules, _legal_plans(deck, seqs, depth), vehicle.pose, rng, rows)


_SEEN: dict[tuple[int, str, str | None, bool], tuple[Rules, _Plans | None]] = {}
"""The legal plans of an airplane type after a maneuver, by the rules in force."""


def random_seen_airplane_plan(
    rules: Rules, view: Mapping[str, Any], rng: np.random.Generator
) -> Plan | None:
    """:func:`random_airplane_plan` for one of the seat's WW1 airplanes (``view``, its
    entry in the seat's observation), with the same draws, without rebuilding a game
    state; None, before any draw, when the observation shows special damage on it (or
    does not show its status) or no plan is legal: those need the whole picture."""
    if view.get("status") != {} or view.get("clock", THREE_PHASES) != THREE_PHASES:
        return None
    previous = view["previous"]
    symbol = None if previous is None else str(previous["symbol"])
    steep = previous is not None and bool(previous.get("steep", False))
    key = (id(rules), view["type"], symbol, steep)
    hit = _SEEN.get(key)
    if hit is None or hit[0] is not rules:
        deck = rules.deck_of(view["type"])
        flown = None if symbol is None else Flown(Symbol(symbol), steep)
        seqs = legal_sequences(deck, flown, usable_symbols(rules), rules.restrictions)
        plans = _legal_plans(deck, seqs, rules.base_length) if len(seqs) else None
        if len(_SEEN) >= 1024:
            _SEEN.clear()
        hit = _SEEN[key] = (rules, plans)
    plans = hit[1]
    if plans is None:
        return None
    pose = view["pose"]
    at = Pose(float(pose["x"]), float(pose["y"]), float(pose["heading"]))
    return _pick(rules, plans, at, rng)


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
