"""The ``learned`` bot: airplanes planned at the level its weights make
(:func:`dogfight.learned.policy.level_of`): the planning bots' search with the learned
valuation, each enemy airplane expected to fly, for the learned share of the model, as the
``hard`` bot would fly it in the enemy's seat. Like every bot it sees only its seat's
observation. WW2 airplanes get the WW2 planner at its level (the same prediction, on
one card and speed); tripods are flown as the planning bots fly them.

After each :meth:`LearnedBot.plan_turn`, :meth:`LearnedBot.explain` gives each airplane's
three best plans with their values, best first.
"""

from __future__ import annotations

import os

from dogfight.bots.airplanes import PlanningBot
from dogfight.bots.base import register
from dogfight.learned.policy import level_of
from dogfight.learned.weights import Weights, current


class LearnedBot(PlanningBot):
    """Airplanes by the learned level; anything else as the planning bots fly it."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or current()
        super().__init__(level_of(self.weights))


def _make() -> LearnedBot:
    return LearnedBot(current(os.environ.get("DOGFIGHT_LEARNED_WEIGHTS")))


register("learned", _make, flies=("airplane",))
