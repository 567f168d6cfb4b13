"""Where random generators come from: one seed, split per game step.

Each step gets its own generator derived from (seed, turn, phase) so that a stored game
can resume any step exactly without keeping generator state.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_UNSEEDED = np.random.PCG64(0)
"""What a step's generator holds until it is first used (never drawn from)."""


class _StepGenerator(np.random.Generator):
    """``Generator(PCG64(SeedSequence(key)))``, seeded when first used.

    Most action phases draw nothing (no damage card runs out, nobody is eliminated), and
    hashing the seed sequence costs more than the rest of a small phase: the hashing waits
    until an attribute of the generator is first read, so every draw, and everything else
    a generator does, sees exactly the generator it would have seen seeded at once.
    """

    def __init__(self, key: list[int]) -> None:
        self._key: list[int] | None = key
        super().__init__(_UNSEEDED)

    def __getattribute__(self, name: str) -> Any:
        key = object.__getattribute__(self, "_key")
        if key is not None and name != "_key":
            self._key = None
            np.random.Generator.__init__(self, np.random.PCG64(np.random.SeedSequence(key)))
        return object.__getattribute__(self, name)


def step_rng(seed: int, turn: int, phase: int) -> np.random.Generator:
    """The generator for one step; phase 0 of turn 0 is the game's setup."""
    return _StepGenerator([seed, turn, phase])


def setup_rng(seed: int) -> np.random.Generator:
    return step_rng(seed, 0, 0)
