"""Where random generators come from: one seed, split per game step.

Each step gets its own generator derived from (seed, turn, phase) so that a stored game
can resume any step exactly without keeping generator state.
"""

from __future__ import annotations

import numpy as np


def step_rng(seed: int, turn: int, phase: int) -> np.random.Generator:
    """The generator for one step; phase 0 of turn 0 is the game's setup."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, turn, phase])))


def setup_rng(seed: int) -> np.random.Generator:
    return step_rng(seed, 0, 0)
