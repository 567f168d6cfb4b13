"""The ``learned`` bot for every airplane of a batch at once: the learned policy
(:mod:`dogfight.learned.policy`, the same code the referee's ``learned`` bot runs on a
batch of one) with the weights in force (:func:`dogfight.learned.weights.current`)."""

from __future__ import annotations

import numpy as np

from dogfight.batch.policies import POLICIES
from dogfight.batch.spec import Bools
from dogfight.batch.state import BatchState
from dogfight.errors import DataError
from dogfight.learned.policy import learned_plans
from dogfight.learned.weights import current


def batch_learned_plans(
    state: BatchState, rng: np.random.Generator, mask: Bools | None = None
) -> None:
    """Give every airplane that needs one (in ``mask``) the learned policy's plan; WW2
    airplanes are refused (the policy plans WW1 airplanes' three cards)."""
    if state.spec.one_card:
        raise DataError(
            "--bots", "bot", "learned", "the learned bot flies WW1 airplanes (wog, wow, wow-basic)"
        )
    learned_plans(state, rng, mask, current())


POLICIES["learned"] = batch_learned_plans
