"""numpy on a batch's short trailing axes, fast.

numpy runs an elementwise operation as inner loops over the last axis it can merge: a
per-table array broadcast against (B, N) arrays (``v[:, None]``) or a reduction over the
slots (``a.any(axis=1)``) runs B inner loops of N elements, which for a duel (N = 2)
costs ten to a hundred times one long loop. These helpers give the same values with long
loops: per-table values repeated into (B, N) arrays, reductions as one operation per slot.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from dogfight.batch.spec import Bools, Ints

T = TypeVar("T", bound=np.generic)

FEW = 8
"""Up to this many slots, a reduction over them is one operation per slot."""


def per_slot(values: npt.NDArray[T], slots: int) -> npt.NDArray[T]:
    """A per-table array (B,) as (B, slots), every slot holding its table's value."""
    return np.repeat(values, slots).reshape(len(values), slots)


def any_slot(a: Bools) -> Bools:
    """``a.any(axis=-1)``."""
    n = a.shape[-1]
    if n == 0 or n > FEW:
        return np.asarray(a.any(axis=-1), dtype=np.bool_)
    out: Bools = a[..., 0].copy()
    for k in range(1, n):
        out |= a[..., k]
    return out


def nonzero(a: Bools) -> tuple[Ints, ...]:
    """``np.nonzero(a)`` (same order), from the raveled array's indexes."""
    flat = np.flatnonzero(a)
    out: list[Ints] = []
    for size in reversed(a.shape[1:]):
        flat, rest = np.divmod(flat, size)
        out.append(rest)
    out.append(flat)
    return tuple(reversed(out))


@lru_cache(maxsize=64)
def ordered_pairs(slots: int) -> tuple[Ints, Ints]:
    """Every ordered pair (i, j) of distinct slots, by i then j (``np.nonzero``'s order
    on an (N, N) matrix without its diagonal)."""
    i, j = np.nonzero(~np.eye(slots, dtype=np.bool_))
    return i.astype(np.int64), j.astype(np.int64)
