"""The learned bot's way of planning: the planning bots' search over every legal plan
(:mod:`dogfight.bots.plane_planner`) with the learned valuation, and each enemy airplane
modelled by what the ``hard`` bot would fly in its seat (the learned ``predict`` share of
the model, over its best plans by their values) beside uniform plausible plans (the
rest)."""

from __future__ import annotations

from dataclasses import replace

from dogfight.bots.plane_planner import HARD, Level
from dogfight.learned.weights import Weights

PREDICTED = 16
"""How many of the predicted enemy's best plans share the ``predict`` weight..."""
PREDICTED_TEMPERATURE = 1.0
"""...in proportion to ``exp(value / PREDICTED_TEMPERATURE)``, their values as the
predictor scored them (docs/learned.md, "The prediction's shape")."""


def level_of(weights: Weights) -> Level:
    """The planning level the learned bot plays at with these weights: the hard bot's
    search (every plan, a coarse pass then the best 160 against the whole model, the end
    position) with the learned valuation and enemy model; with ``predict`` 0 it is the
    hard bot with another valuation (its enemy model: the enemy's best replies)."""
    return replace(
        HARD,
        name="learned",
        valuation=weights.valuation,
        predictor=HARD,
        predict=weights.predict,
        predicted=PREDICTED,
        predicted_temperature=PREDICTED_TEMPERATURE,
    )
