"""Choosing an airplane's plan at a :class:`~dogfight.bots.plane_planner.Level`: the
enemies' models (uniform plausible plans, their best replies, or what a predictor level
would fly in their seat), the coarse pass and the shortlist, the plan with the best
value and the few it was chosen among. The scoring itself is
:mod:`dogfight.bots.plane_planner`'s."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dogfight.bots.base import EXPLAINED, Ranked
from dogfight.bots.missions import home_edge, leaving_home, mission_bonus
from dogfight.bots.plane_planner import (
    ROUGH_POSES,
    Level,
    _final_turns,
    _trapped,
    evaluate,
)
from dogfight.bots.threats import Enemy, airplane_enemy, airplane_flights, tripod_enemy
from dogfight.bots.view import Flights, Floats, Ints
from dogfight.rules.plans import Plan
from dogfight.rules.state import GameState, Vehicle


def _enemy_airplane_model(
    state: GameState,
    me: Vehicle,
    my_seqs: Ints,
    my_flights: Flights,
    my_pool: Ints,
    enemy: Vehicle,
    level: Level,
    rng: np.random.Generator,
) -> Enemy:
    """Plausible plans of an enemy airplane: uniform among those it would consider, and
    for the hard level half of the weight on its best replies to a uniform guess of ours;
    with a ``predictor``, ``predict`` of the weight on the plans that level would fly in
    the enemy's seat."""
    seqs, flights, pool, picks = airplane_enemy(state, enemy, rng, level.samples)
    weight = np.full(len(picks), 1.0 / len(picks))
    if level.predictor is not None and level.predict > 0.0:
        # what would it fly? The predictor plans from the enemy's seat, on what this
        # seat's observation shows (the enemy's own damage and plans are not in it)
        predicted = plan_airplane(state, enemy, level.predictor, rng, level.predicted)
        top = predicted.rows[: level.predicted]
        weight = np.concatenate(
            [
                np.full(len(picks), (1.0 - level.predict) / len(picks)),
                level.predict * _shares(predicted.values[: len(top)], level),
            ]
        )
        picks = np.concatenate([picks, top])
    elif level.best_replies and len(picks) > 1:
        ours = np.sort(rng.choice(my_pool, size=min(level.samples, len(my_pool)), replace=False))
        guess = Enemy(
            me,
            my_flights.x[ours],
            my_flights.y[ours],
            my_flights.heading[ours],
            np.full(len(ours), 1.0 / len(ours)),
        )
        if level.reply_pool is not None and len(pool) > level.reply_pool:
            pool = np.sort(rng.choice(pool, size=level.reply_pool, replace=False))
        if level.shortlist is not None:
            rough = evaluate(
                state,
                enemy,
                seqs[pool],
                _subset(flights, pool),
                [guess.thinned(ROUGH_POSES)],
                False,
                level.rough_centres,
            )
            pool = pool[_best(rough.score, level.shortlist // 3)]
        scored = evaluate(state, enemy, seqs[pool], _subset(flights, pool), [guess], False)
        top = pool[np.argsort(-scored.score, kind="stable")[: max(1, level.samples // 2)]]
        uniform = np.full(len(picks), 0.5 / len(picks))
        picks = np.concatenate([picks, top])
        weight = np.concatenate([uniform, np.full(len(top), 0.5 / len(top))])
    return Enemy(enemy, flights.x[picks], flights.y[picks], flights.heading[picks], weight)


def _shares(values: Floats, level: Level) -> Floats:
    """How the predicted plans (best first, with the predictor's ``values``) share the
    prediction: evenly, or by ``exp(value / temperature)``."""
    if level.predicted_temperature <= 0.0:
        even: Floats = np.full(len(values), 1.0 / len(values))
        return even
    share: Floats = np.exp((values - values[0]) / level.predicted_temperature)
    share /= share.sum()
    return share


def _subset(flights: Flights, rows: Ints) -> Flights:
    if len(rows) == len(flights.x):  # rows are sorted and distinct: every plan
        return flights
    return flights.rows(rows)


def _best(score: Floats, count: int) -> Ints:
    """Indexes of the ``count`` highest scores, in their original order (ties: the
    earlier plan, as :func:`numpy.argmax` would pick)."""
    if len(score) <= count:
        return np.arange(len(score))
    # the count-th highest score; every plan above it, and the earliest at it
    edge = -np.partition(-score, count - 1)[count - 1]
    above = np.flatnonzero(score > edge)
    at = np.flatnonzero(score == edge)[: count - len(above)]
    top: Ints = np.sort(np.concatenate([above, at]))
    return top


@dataclass(frozen=True)
class Choice:
    """An airplane's plan and why: its :data:`EXPLAINED` best plans with their values."""

    plan: Plan
    ranked: Ranked
    """The best plans (card ids) and their scores, best first; the first is ``plan``'s."""
    rows: Ints
    """The best plans, best first (the ranked ones, or as many as asked for), as rows of
    the airplane's sequences (:func:`airplane_sequences`)..."""
    values: Floats
    """...and their values."""


def plan_airplane(
    state: GameState,
    me: Vehicle,
    level: Level,
    rng: np.random.Generator,
    keep: int = EXPLAINED,
) -> Choice:
    """The best plan for one airplane at this level (see the module docstring), with the
    best few it was chosen among (:data:`EXPLAINED` ranked; ``keep`` as rows with their
    values: what a bot predicting this one weighs); ranking them draws nothing from
    ``rng``."""
    rules = state.rules
    deck = rules.deck_of(me.type)
    seqs, flights, pool = airplane_flights(state, me)
    home = home_edge(state, me)
    if home is not None:  # 002: after success, leaving across its own edge costs nothing
        leaving = np.flatnonzero(leaving_home(state, flights, home))
        pool = leaving if len(leaving) else pool
    candidates = pool
    if level.own_plans is not None and len(pool) > level.own_plans:
        candidates = np.sort(rng.choice(pool, size=level.own_plans, replace=False))
    enemies: list[Enemy] = []
    for enemy in sorted(state.in_play(), key=lambda v: v.id):
        if enemy.side == me.side:
            continue
        if enemy.tripod is not None:
            enemies.append(tripod_enemy(state, enemy, rng, level.samples))
        else:
            enemies.append(_enemy_airplane_model(state, me, seqs, flights, pool, enemy, level, rng))
    considered = _subset(flights, candidates)
    bonus = mission_bonus(state, me, considered)  # 002's missions
    trapped = None
    if level.shortlist is not None and len(candidates) > level.shortlist:
        rough = [e.thinned(ROUGH_POSES) for e in enemies]
        if level.lookahead:  # both passes' end positions: worked out once
            trapped = _trapped(rules, me, *considered.phase(2), _final_turns(considered))
        first = evaluate(
            state,
            me,
            seqs.take(candidates, axis=0),
            considered,
            rough,
            level.lookahead,
            level.rough_centres,
            trapped,
            level.valuation,
        )
        kept = _best(first.score + bonus, level.shortlist)
        candidates, bonus = candidates[kept], bonus[kept]
        considered = _subset(flights, candidates)
        trapped = None if trapped is None else trapped[kept]
    chosen_seqs = seqs.take(candidates, axis=0)
    scored = evaluate(
        state,
        me,
        chosen_seqs,
        considered,
        enemies,
        level.lookahead,
        trapped=trapped,
        valuation=level.valuation,
    )
    total = scored.score + bonus
    # best first; equal values in plan order, so the first is the one argmax would pick
    order = np.argsort(-total, kind="stable")[: max(EXPLAINED, keep)]
    ranked = [
        (tuple(deck.cards[int(i)].id for i in chosen_seqs[int(row)]), float(total[int(row)]))
        for row in order[:EXPLAINED]
    ]
    rows, values = candidates[order], total[order]
    best = int(order[0])
    cards = ranked[0][0]
    launch = int(scored.rockets[best])
    if launch:
        salvo = [0, 0, 0]
        salvo[launch - 1] = min(2, me.rockets)
        return Choice(Plan(cards=cards, rockets=tuple(salvo)), ranked, rows, values)
    return Choice(Plan(cards=cards), ranked, rows, values)
