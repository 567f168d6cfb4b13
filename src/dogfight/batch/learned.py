"""The ``learned`` bot for every airplane of a batch at once: the learned policy
(:mod:`dogfight.learned.policy`, the same code the referee's ``learned`` bot runs on a
batch of one) with the weights in force (:func:`dogfight.learned.weights.current`)."""

from __future__ import annotations

import numpy as np

from dogfight.batch.policies import POLICIES
from dogfight.batch.spec import Bools
from dogfight.batch.state import BatchState
from dogfight.learned.policy import learned_plans
from dogfight.learned.weights import current


def batch_learned_plans(
    state: BatchState, rng: np.random.Generator, mask: Bools | None = None
) -> None:
    """Give every airplane that needs one (in ``mask``) the learned policy's plan (a WW2
    airplane's: one card and speed per phase, in all three entries, as batch/ww2.py)."""
    learned_plans(state, rng, mask, current())


POLICIES["learned"] = batch_learned_plans
