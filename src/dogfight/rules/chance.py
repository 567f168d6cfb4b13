"""Where random generators come from: one seed, split per game step.

Each step gets its own generator derived from (seed, turn, phase) so that a stored game
can resume any step exactly without keeping generator state.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
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


_DRAW32 = ctypes.PYFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p)
"""``next_uint32``'s C signature, called without releasing the GIL: the draw is a few
instructions of C, and releasing and taking back the GIL around it cost more than the
draw (numpy's ctypes interface declares its functions with ``CFUNCTYPE``, which does)."""

_PCG64_DRAW: list[Any] = []
"""PCG64's ``next_uint32`` as a :data:`_DRAW32`, made at the first draw: every PCG64 has
the same C function there (numpy's ``pcg64_uint32``), only the state address differs."""


def _drawer(rng: np.random.Generator) -> tuple[Any, int]:
    """The bit generator's ``next_uint32`` and the state address to call it with: for a
    PCG64 (every generator of this project) the function as a :data:`_DRAW32`, for any
    other bit generator numpy's own ctypes function."""
    bit_generator = rng.bit_generator
    interface = bit_generator.ctypes
    if type(bit_generator) is not np.random.PCG64:
        return interface.next_uint32, interface.state_address
    if not _PCG64_DRAW:
        pointer = ctypes.cast(interface.next_uint32, ctypes.c_void_p).value
        assert pointer is not None
        _PCG64_DRAW.append(_DRAW32(pointer))
    return _PCG64_DRAW[0], interface.state_address


def _bounded(draw: Any, address: int, high: int) -> int:
    """numpy's ``random_bounded_uint64(0, high)`` for ``0 < high < 2**32 - 1``: Lemire's
    multiply-and-reject on the bit generator's 32-bit draws."""
    excl = high + 1
    m = draw(address) * excl
    if m & 0xFFFFFFFF < excl:
        m = _redraw(draw, address, excl, m)
    out: int = m >> 32
    return out


def _redraw(draw: Any, address: int, excl: int, m: int) -> int:
    """The rejection loop of :func:`_bounded` once the first draw's low word fell below
    ``excl`` (rarely): draws again while it is below Lemire's threshold."""
    threshold = ((1 << 32) - excl) % excl
    while m & 0xFFFFFFFF < threshold:
        m = draw(address) * excl
    return m


def _three(draw: Any, address: int, n: int) -> list[int]:
    """:func:`sample` of three among ``n > 3``, the loops unrolled (a random plan is three
    cards: a random game draws this tens of times a game)."""
    a = _bounded(draw, address, n - 3)
    b = _bounded(draw, address, n - 2)
    if b == a:
        b = n - 2
    c = _bounded(draw, address, n - 1)
    if c in (a, b):
        c = n - 1
    picked = [a, b, c]
    k = _bounded(draw, address, 2)
    picked[2], picked[k] = picked[k], picked[2]
    k = _bounded(draw, address, 1)
    picked[1], picked[k] = picked[k], picked[1]
    return picked


def indexes(rng: np.random.Generator, population: int) -> Iterator[int]:
    """Uniform integers in ``[0, population)``, one per ``next()``, each drawn only when
    asked for (Lemire's method on the bit generator's 32-bit draws, as :func:`sample`;
    ``population`` below ``2**32``). A rejection sampler that usually accepts its first
    draw spends less on these than on one ``rng.integers`` batch."""
    if not 0 < population < 2**32 - 1:
        raise ValueError(f"population {population} out of range")
    draw, address = _drawer(rng)
    high = population - 1
    while True:
        yield _bounded(draw, address, high)


def sample(rng: np.random.Generator, population: int, size: int) -> list[int]:
    """``[int(i) for i in rng.choice(population, size, replace=False)]``, the very numbers
    drawn the very way (numpy's Floyd's algorithm then its shuffle, on the bit generator's
    32-bit draws, called through ctypes: :func:`_drawer`), for ``size <= population <=
    10000`` (numpy's path for those sizes). A random bot draws a plan this way tens of
    times a game; numpy's own call spends most of its time building small arrays around
    the few draws. ``tests/test_chance.py`` holds it to ``rng.choice``."""
    if not 0 < size <= population <= 10_000:
        return [int(i) for i in rng.choice(population, size=size, replace=False)]
    draw, address = _drawer(rng)
    if size == 3 and population > 3:
        return _three(draw, address, population)
    picked: list[int] = []
    for j in range(population - size, population):
        value = _bounded(draw, address, j) if j else 0
        picked.append(j if value in picked else value)
    for i in range(size - 1, 0, -1):
        j = _bounded(draw, address, i)
        picked[i], picked[j] = picked[j], picked[i]
    return picked
