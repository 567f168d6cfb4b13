"""002's tailing on arrays (as :mod:`dogfight.rules.tailing`), and the bots' reorder.

002: "At turn start, check if tailing is possible: Ruler connects center of rear plane to
center of front plane." — one ruler: the centres at most its length apart (W7). The
ruler leaves the tailing plane through its front side and enters the tailed plane
through its rear side (docs/rulings.md W1), crossing no other base, the two bases apart;
before the second maneuver it still holds unless the two overlap or one left (the FAQ).
A plane trailing smoke or on fire cannot tail.

The reorder is the tailing seat's decision; :func:`bots_reorder` answers it as every
computer player does (:func:`dogfight.bots.decide.reorder_after_tailing`).
"""

from __future__ import annotations

import itertools

import numpy as np

from dogfight.batch import moves, sight
from dogfight.batch.spec import Bools, Floats, Ints
from dogfight.batch.state import BatchState

EPSILON = 1e-9
"""As :data:`dogfight.geometry.sides.EPSILON` and the referee's tailing checks."""


def _forward_left(x: Floats, y: Floats, h: Floats, px: Floats, py: Floats) -> tuple[Floats, Floats]:
    """(forward, left) of points in the frames of poses, as ``Pose.to_local``."""
    rad = np.radians(h)
    c, s = np.cos(rad), np.sin(rad)
    dx, dy = px - x, py - y
    return dx * c + dy * s, -dx * s + dy * c


def side_is(forward: Floats, left: Floats, length: float, width: float, front: bool) -> Bools:
    """Whether a ruler from a base's centre towards a point (its ``forward``, ``left``)
    leaves through the front side (``front``) or the rear side, as
    :func:`dogfight.geometry.sides.side_towards` (through a corner: the short side)."""
    short = np.abs(left) * length <= width * np.abs(forward) + EPSILON
    short &= ~((forward == 0.0) & (left == 0.0))
    out: Bools = short & (forward > 0) if front else short & ~(forward > 0)
    return out


def can_tail(state: BatchState) -> Bools:
    """002: no tailing with a smoke trail or on fire."""
    out: Bools = (state.smoke <= 0) & (state.fire <= 0)
    return out


def _overlaps(state: BatchState, bb: Ints, ii: Ints, jj: Ints) -> Bools:
    spec = state.spec
    base_i = sight.corners(spec, state.x[bb, ii], state.y[bb, ii], state.heading[bb, ii])
    base_j = sight.corners(spec, state.x[bb, jj], state.y[bb, jj], state.heading[bb, jj])
    return sight.overlap(base_i, base_j)


def rulers(state: BatchState, rows: Bools) -> Bools:
    """(B, N, N) the tailing ruler holds from [tailer, tailed] on tables ``rows``."""
    spec = state.spec
    b_count, n = state.tables, state.slots
    out = np.zeros((b_count, n, n), dtype=np.bool_)
    live = state.alive & rows[:, None] & (state.plan[..., 0] >= 0)
    pair = live[:, :, None] & live[:, None, :] & (state.side[:, :, None] != state.side[:, None, :])
    pair &= can_tail(state)[:, :, None]
    bb, ii, jj = np.nonzero(pair)
    if len(bb) == 0:
        return out
    x, y, h = state.x, state.y, state.heading
    f, lft = _forward_left(x[bb, ii], y[bb, ii], h[bb, ii], x[bb, jj], y[bb, jj])
    # 002: "Ruler connects center of rear plane to center of front plane": one ruler
    ok = np.hypot(x[bb, jj] - x[bb, ii], y[bb, jj] - y[bb, ii]) <= spec.ruler + EPSILON
    ok &= side_is(f, lft, spec.base_length, spec.base_width, front=True)
    f, lft = _forward_left(x[bb, jj], y[bb, jj], h[bb, jj], x[bb, ii], y[bb, ii])
    ok &= side_is(f, lft, spec.base_length, spec.base_width, front=False)
    bb, ii, jj = bb[ok], ii[ok], jj[ok]
    if len(bb) == 0:
        return out
    ok = ~_overlaps(state, bb, ii, jj)
    # no other base in play crossed by the ruler (a length of it inside the base)
    ox, oy = x[bb, ii], y[bb, ii]
    dx, dy = x[bb, jj] - ox, y[bb, jj] - oy
    bases = sight.corners(spec, x[bb], y[bb], h[bb])  # (P, N, 4, 2)
    with np.errstate(all="ignore"):
        low, high = sight.ray_polygon(
            np.broadcast_to(ox[:, None], (len(bb), n)),
            np.broadcast_to(oy[:, None], (len(bb), n)),
            np.broadcast_to(dx[:, None], (len(bb), n)),
            np.broadcast_to(dy[:, None], (len(bb), n)),
            bases,
        )
    inside = (np.minimum(high, 1.0) - np.maximum(low, 0.0)) * np.hypot(dx, dy)[:, None]
    slots = np.arange(n)[None, :]
    other = state.alive[bb] & (slots != ii[:, None]) & (slots != jj[:, None])
    ok &= ~(other & (inside > EPSILON)).any(axis=1)
    out[bb[ok], ii[ok], jj[ok]] = True
    return out


def tail(state: BatchState, act: Bools) -> Bools:
    """Who tails whom in the phase about to be resolved on tables ``act`` (B, N, N):
    checked at the start of the turn, kept before the second maneuver while the two
    stay in play, apart and the tailer free of smoke and fire (``state.tailing``)."""
    first = act & (state.phase == 0)
    second = act & (state.phase == 1)
    if first.any():
        state.tailing[first] = rulers(state, first)[first]
    if second.any():
        keep = state.tailing & second[:, None, None]
        keep &= (state.alive & can_tail(state))[:, :, None] & state.alive[:, None, :]
        bb, ii, jj = np.nonzero(keep)
        if len(bb):
            keep[bb, ii, jj] = ~_overlaps(state, bb, ii, jj)
        state.tailing[second] = keep[second]
    out: Bools = state.tailing & (first | second)[:, None, None]
    return out


_ORDERS = {
    0: np.array(list(itertools.permutations(range(3))), dtype=np.int64),
    1: np.array(list(itertools.permutations(range(2))), dtype=np.int64) + 1,
}


def bots_reorder(state: BatchState, tails: Bools) -> None:
    """Every tailing airplane reorders its remaining cards as the computer players do
    (:func:`dogfight.bots.decide.reorder_after_tailing`): the order that breaks no
    flight restriction, then puts a tailed plane's centre (after its shown card) in the
    front arc within the ruler, then nearest; the planned order wins ties."""
    spec = state.spec
    for p, orders in _ORDERS.items():
        bb, ii = np.nonzero(tails.any(axis=2) & (state.phase == p)[:, None])
        if len(bb) == 0:
            continue
        cards = state.plan[bb, ii][:, orders]  # (P, K, 3 - p)
        prev_s = np.broadcast_to(state.prev_symbol[bb, ii][:, None], cards.shape[:2])
        prev_t = np.broadcast_to(state.prev_steep[bb, ii][:, None], cards.shape[:2])
        legal = np.ones(cards.shape[:2], dtype=np.bool_)
        for k in range(cards.shape[2]):
            legal &= ~moves.problem(spec, prev_s, prev_t, cards[..., k], k == 0)
            prev_s, prev_t = spec.card_symbol[cards[..., k]], spec.card_steep[cards[..., k]]
        # where each of my orders' first card takes me, and each tailed plane its card
        x, y, h = (a[bb, ii][:, None] for a in (state.x, state.y, state.heading))
        mx, my, mh = moves.fly(spec, x, y, h, cards[..., 0])  # (P, K)
        shown = state.plan[bb, :, p]
        tx, ty, _ = moves.fly(spec, state.x[bb], state.y[bb], state.heading[bb], shown)
        f, lft = _forward_left(
            mx[..., None], my[..., None], mh[..., None], tx[:, None, :], ty[:, None, :]
        )  # (P, K, N)
        distance = np.hypot(f, lft)
        angle = np.abs(np.degrees(np.arctan2(lft, f)))
        aimed = (angle <= spec.arc_half[0]) & (distance <= spec.ruler)
        mine = tails[bb, ii][:, None, :]
        # max over the tailed planes of (aimed, -distance), then over orders of
        # (legal, aimed, -distance), the first order on ties
        best_aim = (mine & aimed).any(axis=2)
        near = np.where(mine & (aimed == best_aim[..., None]), -distance, -np.inf).max(axis=2)
        keep = legal == legal.max(axis=1, keepdims=True)
        top = np.where(keep, best_aim, False)
        keep &= best_aim == top.max(axis=1, keepdims=True)
        best_near = np.where(keep, near, -np.inf).max(axis=1, keepdims=True)
        keep &= near == best_near
        pick = keep.argmax(axis=1)
        state.plan[bb, ii, p:] = cards[np.arange(len(bb)), pick]
