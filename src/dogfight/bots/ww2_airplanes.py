"""Planning for WW2 airplanes: one maneuver card and one speed marker per Earthling turn
(001, "Tripods in WW2"; the speeds are this project's approximation, ``rules/ww2.py``).

Every (card, speed) the airplane may plan now is scored at the pose it leads to: the
expected damage its guns deal to the enemies' likely poses after this action phase (arcs,
ruler and half mark on sampled base points, a tripod's armour), less the heat-rays it may
take there, a pull towards a firing position behind the nearest enemy, and a prohibitive
cost for leaving the table.

The ``hard`` level treats the Earthling turn as simultaneous: an enemy airplane is
expected at the end of any (card, speed) it may fly, evenly, and the damage its guns may
deal us there is taken off, times the valuation's ``risk``; the pull towards the nearest
airplane then only breaks ties. ``learned`` does the same with its own ``risk`` and puts
its ``predict`` share of each enemy airplane on what the ``hard`` level would fly in the
enemy's seat (:func:`_predicted`). It also looks one
Earthling turn ahead: a pose from which no card keeps it on the table is avoided, and it
weighs more of a tripod's samples. ``easy`` expects an enemy airplane where it stands and
scores a random half of its choices against a few tripod samples; ``random`` picks any
(card, speed) that stays on the table.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from dogfight.bots.plane_planner import Level, heat_ray_threat
from dogfight.bots.threats import (
    OFF_TABLE,
    Enemy,
    base_points,
    nearest_in_arc,
    odds,
    tripod_enemy,
    unprotected,
    world_points,
)
from dogfight.bots.view import Floats, advance, inside
from dogfight.catalog.models import ManeuverCard
from dogfight.rules.context import Rules
from dogfight.rules.plans import Plan, card_problem
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.turns import allowed_symbols
from dogfight.rules.ww2 import scale

MARGIN = 2.0
"""cm between the centre dot and the table's edge for a pose to count as safe."""
REAR_SHARE = 0.7
"""How much a rear gun's expected damage counts beside a front gun's."""
PULL = 0.04, 0.01
"""The pull towards a firing position behind the nearest enemy: per cm from it and per
degree the nose is off it."""
PHASES = 3
"""Action phases a WW1 airplane's plan covers; a WW2 airplane plans one at a time."""
TIE_BREAK = 0.1
"""The pull's share when the nearest enemy is an airplane the ``hard`` level models in
motion, its guns counted: the damage terms decide, the pull only breaks their ties (at
full weight it flew the airplanes head-on into each other's guns)."""


def choices(state: GameState, me: Vehicle) -> list[tuple[ManeuverCard, int]]:
    """The (card, speed) pairs the engine accepts now and that break no flight
    restriction; if the airplane's damage forbids them all, those it accepts."""
    rules = state.rules
    deck = rules.deck_of(me.type)
    speeds = rules.airplane(me.type).speeds
    symbols = allowed_symbols(state)
    accepted = [c for c in deck.cards if c.symbol in symbols and _status_allows(state, me, c)]
    legal = [c for c in accepted if card_problem(me.previous, c) is None]
    pool = legal or accepted or [deck.card(deck.straight)]
    return [(c, s) for c in pool for s in speeds]


def _status_allows(state: GameState, me: Vehicle, card: ManeuverCard) -> bool:
    from dogfight.errors import IllegalPlanError
    from dogfight.rules import standard

    try:
        standard.check_airplane_plan(state, me, [card])
    except IllegalPlanError:
        return False
    return True


def end_poses(
    state: GameState, me: Vehicle, options: list[tuple[ManeuverCard, int]]
) -> tuple[Floats, Floats, Floats]:
    """Where each (card, speed) puts the base."""
    rules = state.rules
    flown = [scale(c, s, rules.switches.card_speed) for c, s in options]
    n = len(flown)
    return advance(
        np.full(n, me.pose.x),
        np.full(n, me.pose.y),
        np.full(n, me.pose.heading),
        np.array([c.forward for c in flown]),
        np.array([c.left for c in flown]),
        np.array([c.turn for c in flown]),
        rules.base_length,
    )


def _escape(state: GameState, me: Vehicle, x: Floats, y: Floats, h: Floats) -> Floats:
    """1 where some card at the airplane's slowest speed keeps it on the table one more
    Earthling turn, else 0."""
    rules = state.rules
    deck = rules.deck_of(me.type)
    slow = min(rules.airplane(me.type).speeds)
    cards = [scale(c, slow, rules.switches.card_speed) for c in deck.cards]
    fwd = np.array([c.forward for c in cards])[None, :]
    left = np.array([c.left for c in cards])[None, :]
    turn = np.array([c.turn for c in cards])[None, :]
    nx, ny, _ = advance(x[:, None], y[:, None], h[:, None], fwd, left, turn, rules.base_length)
    ok = inside(nx, ny, rules.table_width, rules.table_height, MARGIN)
    out: Floats = np.where(np.asarray(ok, dtype=np.bool_).any(axis=1), 1.0, 0.0)
    return out


def _gun_cards(
    rules: Rules, weapon: str, sx: Floats, sy: Floats, sh: Floats, tx: Floats, ty: Floats
) -> Floats:
    """Damage cards a gun draws from each firing pose (a,) at each base (b, k sample
    points): 2 within the half mark, 1 within the ruler, 0 out of the arc or the ruler."""
    arc = rules.arc(weapon)
    d2 = nearest_in_arc(sx, sy, sh + arc.centre, arc.width / 2.0, tx, ty)  # (a, b)
    cards: Floats = np.where(d2 <= rules.half**2, 2.0, 1.0) * (d2 <= rules.ruler**2)
    return cards


def _attack(
    state: GameState, me: Vehicle, x: Floats, y: Floats, h: Floats, enemy: Enemy, p: int
) -> Floats:
    """Expected damage points the guns deal to one enemy from each candidate pose."""
    rules = state.rules
    target = enemy.vehicle
    ex, ey, eh = enemy.phase(p)
    tx, ty = world_points(ex, ey, eh, base_points(rules, target))
    total = np.zeros(len(x))
    for i, (weapon, letter) in enumerate(rules.weapons(me.type)):
        cards = _gun_cards(rules, weapon, x, y, h, tx, ty)  # (c, s)
        deck = rules.damage_deck(letter, target.type, me.type)
        card = odds(rules, deck, target)
        worth: Floats = np.full(cards.shape, card.points)
        if target.tripod is not None:
            open_side = unprotected(rules, target, ex, ey, eh, x, y)  # (c, s)
            worth = open_side * card.points + (1 - open_side) * card.energy * 0.5
        total += (cards * worth) @ enemy.weight * (1.0 if i == 0 else REAR_SHARE)
    return total


def _guns_at(
    state: GameState, me: Vehicle, x: Floats, y: Floats, h: Floats, enemy: Enemy, p: int
) -> Floats:
    """Expected damage points an enemy airplane's guns deal to us at each candidate
    pose, from its modelled poses (the mirror of :func:`_attack`)."""
    rules = state.rules
    shooter = enemy.vehicle
    ex, ey, eh = enemy.phase(p)
    tx, ty = world_points(x, y, h, base_points(rules, me))
    total = np.zeros(len(x))
    for i, (weapon, letter) in enumerate(rules.weapons(shooter.type)):
        cards = _gun_cards(rules, weapon, ex, ey, eh, tx, ty)  # (s, c)
        card = odds(rules, rules.damage_deck(letter, me.type, shooter.type), me)
        total += enemy.weight @ cards * card.points * (1.0 if i == 0 else REAR_SHARE)
    return total


def _threat(
    state: GameState, me: Vehicle, x: Floats, y: Floats, h: Floats, enemy: Enemy, p: int
) -> Floats:
    """Expected heat-ray damage taken at each candidate pose from one tripod."""
    rules = state.rules
    if enemy.vehicle.tripod is None:
        return np.zeros(len(x))
    ex, ey, eh = enemy.phase(p)
    px, py = world_points(x, y, h, base_points(rules, me))
    got = heat_ray_threat(rules, enemy.vehicle, ex, ey, eh, px, py)  # (s, c)
    out: Floats = (enemy.weight @ got) * float(enemy.ray[p])
    return out


def plan_ww2_airplane(
    state: GameState, me: Vehicle, level: Level, rng: np.random.Generator
) -> Plan:
    """The card and speed of this Earthling turn for one WW2 airplane at ``level``."""
    options = choices(state, me)
    if level.own_plans is not None and level.own_plans < 100:
        keep = max(1, len(options) // 2)
        picks = np.sort(rng.choice(len(options), size=keep, replace=False))
        options = [options[int(i)] for i in picks]
    score = scores(state, me, options, level, rng)
    score += rng.uniform(0.0, 1e-3, len(options))  # ties broken by the bot's generator
    card, speed = options[int(np.argmax(score))]
    return Plan(cards=(card.id,), speeds=(speed,))


def scores(
    state: GameState,
    me: Vehicle,
    options: list[tuple[ManeuverCard, int]],
    level: Level,
    rng: np.random.Generator,
) -> Floats:
    """Each (card, speed)'s value for ``me`` at ``level`` (higher is better). The levels
    that look ahead expect an enemy airplane at the end of any (card, speed) it may fly
    (:func:`_moving`: the turn is simultaneous), with a ``predictor`` (``learned``) its
    ``predict`` share on what that level would fly (:func:`_predicted`), and count its
    guns against us, times the valuation's ``risk``; the ``easy`` level expects it where
    it stands."""
    rules = state.rules
    x, y, h = end_poses(state, me, options)
    score = np.zeros(len(options))
    on_table = inside(x, y, rules.table_width, rules.table_height, MARGIN)
    score -= OFF_TABLE * ~on_table
    if level.lookahead:
        score -= OFF_TABLE / 2 * (1.0 - _escape(state, me, x, y, h))
    p = min(state.phase, 2)
    nearest: Vehicle | None = None
    best_gap = math.inf
    for enemy_v in sorted(state.in_play(), key=lambda v: v.id):
        if enemy_v.side == me.side:
            continue
        gap = math.dist(enemy_v.pose.point, me.pose.point)
        if gap < best_gap:
            nearest, best_gap = enemy_v, gap
        if enemy_v.tripod is not None:
            enemy = tripod_enemy(state, enemy_v, rng, level.samples)
        elif level.lookahead:
            predicted = level.predictor is not None and level.predict > 0.0
            enemy = _predicted(state, enemy_v, level, rng) if predicted else _moving(state, enemy_v)
            score -= level.valuation.risk * _guns_at(state, me, x, y, h, enemy, p)
        else:
            enemy = _standing(enemy_v)
        score += _attack(state, me, x, y, h, enemy, p)
        score -= 0.8 * _threat(state, me, x, y, h, enemy, p)
    if nearest is not None:
        pull = TIE_BREAK if level.lookahead and nearest.tripod is None else 1.0
        # a firing position: about half a ruler behind the target, facing it
        ax = nearest.pose.x - 0.5 * rules.ruler * math.cos(math.radians(nearest.pose.heading))
        ay = nearest.pose.y - 0.5 * rules.ruler * math.sin(math.radians(nearest.pose.heading))
        score -= pull * PULL[0] * np.hypot(x - ax, y - ay)
        bearing = np.degrees(np.arctan2(nearest.pose.y - y, nearest.pose.x - x))
        off = np.abs((bearing - h + 180.0) % 360.0 - 180.0)
        score -= pull * PULL[1] * off
    return score


def _standing(vehicle: Vehicle) -> Enemy:
    """An enemy airplane expected where it stands."""
    one = np.ones((1, 3))
    pose = vehicle.pose
    return Enemy(vehicle, one * pose.x, one * pose.y, one * pose.heading, np.ones(1))


def _moving(state: GameState, vehicle: Vehicle) -> Enemy:
    """An enemy airplane expected at the end of any (card, speed) it may fly, evenly."""
    options = choices(state, vehicle)
    x, y, h = end_poses(state, vehicle, options)
    three = np.ones((1, 3))
    weight = np.full(len(x), 1.0 / len(x))
    return Enemy(vehicle, x[:, None] * three, y[:, None] * three, h[:, None] * three, weight)


def _predicted(state: GameState, vehicle: Vehicle, level: Level, rng: np.random.Generator) -> Enemy:
    """:func:`_moving` with ``predict`` of the weight moved to the ``predicted`` best
    (card, speed) of the enemy as ``level.predictor`` values them from its seat, in
    proportion to exp(value / temperature), the temperature a third of
    ``predicted_temperature`` (evenly at 0): the ``learned`` bot's enemy model
    (docs/learned.md)."""
    assert level.predictor is not None
    enemy = _moving(state, vehicle)
    values = scores(state, vehicle, choices(state, vehicle), level.predictor, rng)
    best = np.argsort(-values, kind="stable")[: level.predicted]
    if level.predicted_temperature > 0.0:
        # a WW1 plan's value is three phases' fire, a (card, speed)'s one: the same
        # temperature per phase
        temperature = level.predicted_temperature / PHASES
        share = np.exp((values[best] - values[best].max()) / temperature)
    else:
        share = np.ones(len(best))
    weight = enemy.weight * (1.0 - level.predict)
    weight[best] += level.predict * share / share.sum()
    return replace(enemy, weight=weight)


def random_ww2_plan(state: GameState, me: Vehicle, rng: np.random.Generator) -> Plan:
    """A uniform (card, speed) among those that keep the airplane on the table."""
    rules = state.rules
    options = choices(state, me)
    x, y, _ = end_poses(state, me, options)
    safe = np.flatnonzero(inside(x, y, rules.table_width, rules.table_height, MARGIN))
    pool = safe if len(safe) else np.arange(len(options))
    card, speed = options[int(pool[int(rng.integers(len(pool)))])]
    return Plan(cards=(card.id,), speeds=(speed,))
