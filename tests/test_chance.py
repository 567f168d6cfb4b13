"""rules/chance.py: the sampler the random bot draws its plans with draws exactly what
``rng.choice(n, k, replace=False)`` draws, and leaves the generator where it leaves it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dogfight.rules.chance import sample


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    population=st.integers(1, 10_000),
    size=st.integers(1, 8),
    half_word=st.booleans(),
    repeats=st.integers(1, 6),
)
def test_sample_is_numpy_choice(
    seed: int, population: int, size: int, half_word: bool, repeats: int
) -> None:
    size = min(size, population)
    ours = np.random.Generator(np.random.PCG64(seed))
    theirs = np.random.Generator(np.random.PCG64(seed))
    if half_word:  # a 32-bit draw leaves half a word in the bit generator's buffer
        ours.integers(0, 7, dtype=np.uint32)
        theirs.integers(0, 7, dtype=np.uint32)
    for _ in range(repeats):
        expected = [int(i) for i in theirs.choice(population, size=size, replace=False)]
        assert sample(ours, population, size) == expected
    assert ours.bit_generator.state == theirs.bit_generator.state
    assert ours.random() == theirs.random()


def test_sample_small_populations_many_draws() -> None:
    ours = np.random.Generator(np.random.PCG64(7))
    theirs = np.random.Generator(np.random.PCG64(7))
    for n in range(1, 60):
        for k in range(1, min(n, 4) + 1):
            for _ in range(20):
                assert sample(ours, n, k) == [int(i) for i in theirs.choice(n, k, replace=False)]
    assert ours.bit_generator.state == theirs.bit_generator.state


def test_sample_past_numpy_floyd_range_falls_back() -> None:
    ours = np.random.Generator(np.random.PCG64(3))
    theirs = np.random.Generator(np.random.PCG64(3))
    assert sample(ours, 20_000, 500) == [int(i) for i in theirs.choice(20_000, 500, replace=False)]
