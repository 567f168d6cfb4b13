"""rules/chance.py: the sampler the random bot draws its plans with draws exactly what
``rng.choice(n, k, replace=False)`` draws, and leaves the generator where it leaves it."""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dogfight.rules.chance import _drawer, sample, step_rng


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
    assert ours.integers(0, 2**62) == theirs.integers(0, 2**62)
    assert ours.random() == theirs.random()


def test_sample_past_numpy_floyd_range_falls_back() -> None:
    ours = np.random.Generator(np.random.PCG64(3))
    theirs = np.random.Generator(np.random.PCG64(3))
    assert sample(ours, 20_000, 500) == [int(i) for i in theirs.choice(20_000, 500, replace=False)]


def test_every_pcg64_shares_the_draw_function_the_fast_path_calls() -> None:
    """The sampler calls PCG64's ``next_uint32`` through one function made at its first
    draw (:func:`dogfight.rules.chance._drawer`): every PCG64 has the same C function
    there, whatever its seed, and the draws are numpy's ctypes draws."""
    pointers = {
        ctypes.cast(np.random.PCG64(seed).ctypes.next_uint32, ctypes.c_void_p).value
        for seed in (0, 1, 2**70)
    }
    assert len(pointers) == 1
    ours = np.random.Generator(np.random.PCG64(11))
    theirs = np.random.Generator(np.random.PCG64(11))
    draw, address = _drawer(ours)
    interface = theirs.bit_generator.ctypes
    for _ in range(7):
        assert draw(address) == interface.next_uint32(interface.state_address)
    assert ours.bit_generator.state == theirs.bit_generator.state


@pytest.mark.parametrize("kind", [np.random.MT19937, np.random.SFC64, np.random.Philox])
def test_sample_is_numpy_choice_on_other_bit_generators(kind: Any) -> None:
    ours = np.random.Generator(kind(5))
    theirs = np.random.Generator(kind(5))
    for n in (4, 9, 40):
        for k in (1, 3, 4):
            assert sample(ours, n, k) == [int(i) for i in theirs.choice(n, k, replace=False)]
    assert ours.integers(0, 2**62) == theirs.integers(0, 2**62)
    assert ours.random() == theirs.random()


def test_sample_on_a_step_generator_is_numpy_choice() -> None:
    ours = step_rng(3, 2, 1)
    theirs = np.random.Generator(np.random.PCG64(np.random.SeedSequence([3, 2, 1])))
    for n in (4, 17, 40):
        assert sample(ours, n, 3) == [int(i) for i in theirs.choice(n, 3, replace=False)]
    assert ours.bit_generator.state == theirs.bit_generator.state
