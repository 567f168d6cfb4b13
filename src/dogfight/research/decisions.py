"""Engine decisions as actions of the PettingZoo environment: the reorder after tailing,
and the choices of one option an airplane's seat is asked in a phase (:data:`PICKS`:
guns or rockets, a skill used or kept, the Sniper's card, the bomb loads dropped).

002: "Tailed player reveals **first maneuver card** to tailing player." / "Tailing player
may **reorder** their three planned maneuvers." When the engine asks an agent this
(:mod:`dogfight.rules.decisions`), the environment pauses the turn and the agent answers
with its next action in the same ``Discrete`` space as its plans: action ``i`` is the
``i``-th permutation of its remaining cards, in :func:`itertools.permutations` order of
their positions (0 keeps the planned order; 6 orders of three cards before the first
maneuver, 2 of two before the second). The observation's ``decision`` vector tells the
agent it is asked, and shows it what the decision shows its seat alone — the tailed
plane's card; every other agent's is zeros.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from dogfight.catalog.models import ManeuverCard
from dogfight.geometry.pose import Pose
from dogfight.rules.context import Rules
from dogfight.rules.decisions import Answer, Decision

PICKS = ("rockets", "skill", "sniper", "bomb_drop")
"""Decisions of one option among several: action ``i`` answers the ``i``-th option (an
action out of range takes the default); the observation's ``decision`` vector gives the
kind, the number of options and the default's place."""

ASKED = ("tailing", *PICKS)
"""The decisions an agent answers itself (any other of its seat's takes its default)."""

CARDS = 3
CARD_SIZE = 3
TAILED_SIZE = CARD_SIZE + 4
SIZE = 3 + CARDS * CARD_SIZE + TAILED_SIZE
"""asked, phase, cards left; each remaining card (forward, left, turn); the tailed plane's
card and where that plane is (ahead, left, heading). A choice of one option: asked,
phase, options, its kind (1 to 4 quarters, :data:`PICKS`' order), the default's place."""

Vector = npt.NDArray[np.float32]


def orders(count: int) -> list[tuple[int, ...]]:
    """The reorders of ``count`` cards as position permutations, identity first."""
    return list(itertools.permutations(range(count)))


def answer(decision: Decision, action: Any) -> Answer:
    """The new order an action gives (an action out of range keeps the planned order);
    for a choice of one option, that option (out of range: the default)."""
    if decision.kind in PICKS:
        index = -1 if action is None else int(action)
        if 0 <= index < len(decision.options):
            return (decision.options[index],)
        return decision.default
    options = orders(len(decision.default))
    index = -1 if action is None else int(action)
    if not 0 <= index < len(options):
        index = 0
    return tuple(decision.default[i] for i in options[index])


def action_of(decision: Decision, chosen: Answer) -> int:
    """The action that gives ``chosen`` (the inverse of :func:`answer`): the option's
    place for a choice of one option, the reorder's for a reorder; 0 (the planned order,
    the first option) for an answer no action gives."""
    if decision.kind in PICKS:
        return decision.options.index(chosen[0]) if chosen and chosen[0] in decision.options else 0
    for index, order in enumerate(orders(len(decision.default))):
        if tuple(decision.default[i] for i in order) == tuple(chosen):
            return index
    return 0


def mask(decision: Decision | None, count: int) -> npt.NDArray[np.int8]:
    """The legal actions while a decision is pending: the reorders for the agent asked,
    the no-op 0 for any other agent."""
    out = np.zeros(count, dtype=np.int8)
    if decision is None:
        out[0] = 1
        return out
    legal = len(decision.options) if decision.kind in PICKS else len(orders(len(decision.default)))
    out[: min(count, legal)] = 1
    return out


def _card(card: ManeuverCard) -> list[float]:
    return [card.forward / 10.0, card.left / 10.0, card.turn / 180.0]


def vector(decision: Decision | None, seen: Mapping[str, Any], rules: Rules) -> Vector:
    """The ``decision`` part of an agent's observation (zeros when it is not asked).
    ``seen`` is its seat's observation: the tailed plane's pose there is public."""
    out = np.zeros(SIZE, dtype=np.float32)
    if decision is None:
        return out
    if decision.kind in PICKS:
        many = len(decision.options)
        default = decision.options.index(decision.default[0]) if decision.default else 0
        kind = (PICKS.index(decision.kind) + 1) / len(PICKS)
        out[:6] = [1.0, decision.phase / 3.0, many / 3.0, kind, default / max(many, 1), 0.0]
        return out
    views = {v["id"]: v for v in seen["vehicles"]}
    me = views[decision.vehicle]
    deck = rules.deck_of(me["type"])
    left = decision.default
    values = [1.0, decision.phase / 3.0, len(left) / 3.0]
    for i in range(CARDS):
        values += _card(deck.card(left[i])) if i < len(left) else [0.0] * CARD_SIZE
    tailed = decision.shown.get("tailed", [])
    if tailed:
        shown = tailed[0]
        them = views[shown["vehicle"]]
        values += _card(rules.deck_of(them["type"]).card(shown["card"]))
        pose = Pose(me["pose"]["x"], me["pose"]["y"], me["pose"]["heading"])
        forward, side = pose.to_local((them["pose"]["x"], them["pose"]["y"]))
        span = max(rules.table_width, rules.table_height)
        turn = math.radians(them["pose"]["heading"] - pose.heading)
        values += [forward / span, side / span, math.cos(turn), math.sin(turn)]
    else:
        values += [0.0] * TAILED_SIZE
    out[:] = values
    return out
