"""What the batch's planners share: the kind of an airplane's previous maneuver as the
flight restrictions see it, and which airplanes need a plan. Below every planner (the
``random``, ``easy`` and ``learned`` policies, and the WW2 ones of
:mod:`dogfight.batch.ww2`), so none of them imports another for these."""

from __future__ import annotations

import numpy as np

from dogfight.batch.arrays import nonzero, per_slot
from dogfight.batch.spec import IMMELMANN, LEFT, RIGHT, STRAIGHT, SYMBOLS, Bools, Ints, Spec
from dogfight.batch.state import BatchState

# a previous maneuver as the restrictions see it: (symbol index, steep)
KINDS = [(-1, False), (STRAIGHT, False), (STRAIGHT, True), (IMMELMANN, False), (IMMELMANN, True)]


def kind(spec: Spec, prev_symbol: Ints, prev_steep: Bools) -> Ints:
    """The kind of each previous maneuver: none, straight, steep straight, Immelmann,
    steep Immelmann, another steep card, another card, a left or right turn (all the
    restrictions look at)."""
    out: Ints = KIND_TABLE[prev_symbol + 1, prev_steep.astype(np.int64)]
    return out


def _kind_of(symbol: int, steep: bool) -> int:
    if symbol < 0:
        return 0
    if symbol in (STRAIGHT, IMMELMANN):
        return (1 if symbol == STRAIGHT else 3) + int(steep)
    if steep:
        return 5
    return 7 if symbol in (LEFT, RIGHT) else 6


KIND_TABLE = np.array(
    [[_kind_of(sym, steep) for steep in (False, True)] for sym in range(-1, len(SYMBOLS))],
    dtype=np.int64,
)
""":func:`kind` by (previous symbol + 1, steep)."""


def needing(state: BatchState, mask: Bools | None = None) -> tuple[Ints, Ints]:
    """Tables and slots that need a plan: airplanes in play (and in ``mask``) on tables
    not over whose turn is not planned yet."""
    need = state.alive & ~per_slot(state.over, state.slots) & (state.plan[..., 0] < 0)
    need &= ~state.tripod  # tripods plan in batch/tripod_plans.py
    if mask is not None:
        need &= mask
    b, n = nonzero(need)
    return b, n
