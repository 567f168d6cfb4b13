"""The ``learned`` bot: airplanes flown by the learned policy (:mod:`dogfight.learned`).

It rebuilds its seat's picture of the game from the observation (enemy damage and
secrets unknown, as every bot here), turns it into a batch of one table
(:func:`dogfight.batch.bridge.from_states`) and asks :func:`dogfight.learned.policy.choose`
for the seat's plans — the same code the batched engine plays. A table the batch does
not represent (tripods, WW2 airplanes, scenarios' objectives, rockets, the Standard
Rules' special damage) and WW2 airplanes or tripods are flown as the ``hard`` bot flies
them.

After each :meth:`LearnedBot.plan_turn`, :meth:`LearnedBot.explain` gives each airplane's
three best plans with their values, best first.
"""

from __future__ import annotations

import os

import numpy as np

from dogfight.batch.bridge import from_states
from dogfight.batch.spec import Spec, build_spec
from dogfight.bots.airplanes import PlanningBot
from dogfight.bots.base import Explanation, Observation, register
from dogfight.bots.invasion import aim_drops
from dogfight.bots.plane_planner import HARD
from dogfight.errors import DataError
from dogfight.learned.policy import choose
from dogfight.learned.weights import Weights, current
from dogfight.rules.clocks import ONE_PHASE
from dogfight.rules.context import Rules
from dogfight.rules.plans import Plan


class LearnedBot(PlanningBot):
    """Airplanes by the learned policy; anything else as the hard bot plays it."""

    def __init__(self, weights: Weights | None = None) -> None:
        super().__init__(HARD)
        self.name = "learned"
        self.weights = weights or current()
        self._spec: tuple[Rules, Spec | None] | None = None

    def explain(self) -> Explanation:
        """Per airplane planned at the last :meth:`plan_turn`, its three best plans (card
        ids) with their values, best first: the learned policy's (the weights over its
        features), or the hard bot's for a table flown as the hard bot flies it."""
        return super().explain()

    def _spec_of(self, rules: Rules) -> Spec | None:
        if self._spec is None or self._spec[0] is not rules:
            try:
                spec: Spec | None = build_spec(rules)
            except DataError:
                spec = None
            self._spec = (rules, spec)
        return self._spec[1]

    def plan_turn(
        self, observation: Observation, rules: Rules, seat: frozenset[str], rng: np.random.Generator
    ) -> dict[str, Plan]:
        self._why = {}
        spec = self._spec_of(rules)
        if spec is None or observation["over"] or int(observation["phase"]) != 0:
            return super().plan_turn(observation, rules, seat, rng)
        state = self._state(observation, rules, seat)
        if spec.one_card or any(
            v.tripod is not None or v.clock == ONE_PHASE for v in state.vehicles.values()
        ):
            return super().plan_turn(observation, rules, seat, rng)
        try:
            batch = from_states([state], spec)
        except DataError:
            return super().plan_turn(observation, rules, seat, rng)
        own = np.array([vid in seat for vid in batch.names[0]])
        plans: dict[str, Plan] = {}
        for choice in choose(batch, rng, self.weights, own[None, :], explain=True):
            for k, slot in enumerate(choice.n.tolist()):
                vid = batch.names[0][slot]
                cards = tuple(spec.card_ids[int(c)] for c in choice.plans[k])
                plans[vid] = aim_drops(state, state.vehicles[vid], Plan(cards=cards))
                self._why[vid] = [
                    (tuple(spec.card_ids[c] for c in row), round(value, 4))
                    for row, value in choice.best[k]
                ]
        return plans


def _make() -> LearnedBot:
    return LearnedBot(current(os.environ.get("DOGFIGHT_LEARNED_WEIGHTS")))


register("learned", _make, flies=("airplane",))
