"""Every card sequence a tripod may plan, measured once per deck and number of cards:
what the random bot's checks read of each sequence (its Energy cards, whether a card
that is not a movement card steadies it, a reverse, its movement cards) and where it
walks the tripod, in the frame of its start pose, after each phase.

A tripod's walks are rigid moves (``tripod_moves``' walks, :func:`walks`), so a sequence
walked from any pose is that pose's rotation and translation of its walk from the
origin: the planner then measures many sequences of many tripods with one product each,
as the airplanes' planner does with :class:`dogfight.batch.policies.Sequences`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from dogfight.batch.spec import Bools, Floats, Ints
from dogfight.batch.tripod_spec import MOVE, REVERSE, TripodSpec


@dataclass(frozen=True)
class TripodSequences:
    """The sequences of one deck and number of cards (E of them)."""

    cards: Ints
    """(E, 3) the global cards of each phase, -1 for a phase lying down (a toppled
    tripod's cards are those of the last phases)."""
    energy: Ints
    """(E,) Energy cards (each spends 1 at its reveal)."""
    steady: Bools
    """(E,) not three movement cards (a card that is no movement card, or fewer than
    three cards)."""
    reverse: Bools
    """(E,) a reverse card."""
    moves_any: Bools
    """(E,) some movement card."""
    moves_three: Bools
    """(E,) three cards, all movement cards."""
    forward: Floats
    """(2, E, 3) how far ahead of the start the centre is after each phase (first index:
    whether the tripod starts with a reverse pending)."""
    left: Floats
    """(2, E, 3) how far to the left of the start."""

    @property
    def size(self) -> int:
        """E: the number of sequences."""
        return int(self.cards.shape[0])


def walks(
    tri: TripodSpec, x: Floats, y: Floats, h: Floats, backward: Bools, cards: Ints
) -> tuple[Floats, Floats]:
    """Where sequences ``cards`` (..., 3; -1 for a phase lying down) leave tripods at
    poses (...) with a reverse pending (``backward``) after each phase: (..., 3) x and
    y (``tripod_moves``' walks: stationary cards stand still, a reverse makes the next
    movement card apply to the rear of the base)."""
    shape = cards.shape[:-1]
    x, y, h = (np.broadcast_to(a, shape).copy() for a in (x, y, h))
    backward = np.broadcast_to(backward, shape).copy()
    xs, ys = np.empty((*shape, 3)), np.empty((*shape, 3))
    for p in range(3):
        card = cards[..., p]
        c = np.maximum(card, 0)
        go = (card >= 0) & tri.card_moves[c]
        turn = np.where(backward, h + 180.0, h)
        rad = np.radians(turn)
        cos, sin = np.cos(rad), np.sin(rad)
        dx, dy = tri.card_dx[c], tri.card_dy[c]
        nh = turn + tri.card_turn[c] + np.where(backward, 180.0, 0.0)
        x = np.where(go, x + dx * cos - dy * sin, x)
        y = np.where(go, y + dx * sin + dy * cos, y)
        h = np.where(go, np.mod(nh, 360.0), h)
        backward = np.where(card >= 0, tri.card_symbol[c] == REVERSE, backward)
        xs[..., p], ys[..., p] = x, y
    return xs, ys


@lru_cache(maxsize=64)
def sequences(tri: TripodSpec, deck: int, count: int) -> TripodSequences:
    """Every ordered choice of ``count`` distinct cards of tripod deck ``deck``, laid
    in the last ``count`` phases."""
    start, size = int(tri.deck_start[deck]), int(tri.deck_size[deck])
    chosen = list(itertools.permutations(range(start, start + size), count))
    cards = np.full((len(chosen), 3), -1, dtype=np.int64)
    if count:
        cards[:, 3 - count :] = np.array(chosen, dtype=np.int64).reshape(len(chosen), count)
    laid = cards >= 0
    c = np.maximum(cards, 0)
    moves: Bools = tri.card_moves[c] & laid
    zero = np.zeros(len(cards))
    forward, left = zip(
        *(walks(tri, zero, zero, zero, np.full(len(cards), back), cards) for back in (False, True)),
        strict=True,
    )
    return TripodSequences(
        cards=cards,
        energy=(tri.card_energy[c] & laid).sum(axis=1),
        steady=((tri.card_symbol[c] != MOVE) & laid).any(axis=1) | (count < 3),
        reverse=((tri.card_symbol[c] == REVERSE) & laid).any(axis=1),
        moves_any=np.asarray(moves.any(axis=1)),
        moves_three=np.asarray(moves.all(axis=1) & (count == 3)),
        forward=np.stack(forward),
        left=np.stack(left),
    )
