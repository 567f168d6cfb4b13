"""The ``easy`` bot for every airplane of a batch at once (after
:class:`dogfight.bots.airplanes.EasyBot`).

Each airplane scores a sample of its own plans (120, of the best safety tier) against a
few plausible plans of every enemy (6 each, of their best safety tier), phase by phase:
the expected damage it deals (arcs, the ruler and half mark measured to the corners and
centre of the enemy's base, two cards at short range, the aim bonus, its jams) — the
best enemy per phase, one shot per weapon — less the expected damage it takes, weighted
by how damaged it already is. It flies the best plan (equal scores: the first in the
deck's order). The measures are the bot's approximations, as in the referee's bot,
looked up by relative pose in :mod:`dogfight.batch.shot_table` (each within half a
cell of the exact measure); the rules are the batch engine's. An enemy
tripod is taken as standing still with its heat-ray firing all round
(:mod:`dogfight.batch.foes`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from dogfight.batch import foes, shot_table, ww2
from dogfight.batch.aim import odds
from dogfight.batch.plan_kinds import needing
from dogfight.batch.policies import (
    POLICIES,
    best_tier_plans,
    placed,
    sequences,
)
from dogfight.batch.spec import Bools, Floats, Ints, Spec
from dogfight.batch.state import BatchState

OWN_PLANS = 120
SAMPLES = 6
CHUNK = 256
"""Airplanes planned at once: bounds the score arrays (under a MB each); fewer, larger
calls cost less (measured: 96, 192, 256, 384 airplanes a call)."""


@dataclass(frozen=True)
class _Moves:
    """Each triple's moves from the start pose, phase by phase, as the shot table
    measures them: ``triples`` (5, 3, decks * T) float32, flat index ``deck * T +
    triple``, holds the centre dot along and across the start heading in cells, the
    cosine and sine of the turn, and the turn in heading cells; ``cards`` (5, decks * C)
    the same after each card alone (flat index ``deck * C + card``, C the largest deck)
    and ``first`` (decks * T) each triple's first card (the first phase's poses are the
    first card's: a dozen per airplane, not a pose per plan)."""

    triples: npt.NDArray[np.float32]
    cards: npt.NDArray[np.float32]
    first: Ints
    width: int
    """C"""


@lru_cache(maxsize=8)
def _moves(spec: Spec) -> _Moves:
    seqs = sequences(spec)
    rad = np.radians(seqs.turn)
    parts = (
        seqs.forward / shot_table.STEP,
        seqs.left / shot_table.STEP,
        np.cos(rad),
        np.sin(rad),
        seqs.turn * (shot_table.HEADINGS / 360.0),
    )
    triples = np.stack([np.moveaxis(a, -1, 0).reshape(3, -1) for a in parts]).astype(np.float32)
    width = int(spec.deck_size.max())
    first = (seqs.rows[..., 0] - spec.deck_start[:, None]).clip(0, width - 1)
    real = (np.arange(seqs.width)[None, :] < seqs.count[:, None]).reshape(-1)
    slot = (first + np.arange(len(spec.deck_start))[:, None] * width).reshape(-1)
    cards = np.zeros((5, len(spec.deck_start) * width), dtype=np.float32)
    cards[:, slot[real]] = triples[:, 0][:, real]
    return _Moves(np.ascontiguousarray(triples), cards, first.reshape(-1), width)


def easy_plans(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """Give every airplane that needs one the easy bot's plan (in place); WW2 airplanes
    plan one card and speed per phase (:func:`dogfight.batch.ww2.easy_plans`)."""
    if state.spec.one_card:
        ww2.easy_plans(state, rng, mask)
        return
    b, n = needing(state, mask)
    if len(b) == 0:
        return
    # in the deck's order, so that equal scores go to the first plan, as the referee's
    # bot breaks them (its candidates are sorted)
    own = np.sort(best_tier_plans(state, b, n, OWN_PLANS, rng), axis=1)  # (V, K)
    for start in range(0, len(b), CHUNK):
        part = slice(start, start + CHUNK)
        _plan(state, b[part], n[part], own[part], rng)


def _plan(state: BatchState, b: Ints, n: Ints, own: Ints, rng: np.random.Generator) -> None:
    """Score every airplane's own plans ``own`` (V, K) against each enemy's plausible
    plans, phase by phase, the shots looked up by relative pose (:mod:`shot_table`), and
    give it the best."""
    spec = state.spec
    seqs = sequences(spec)
    v_count, slots = len(b), state.slots
    deck = spec.type_deck[state.type[b, n]]
    # every (planner, enemy in play) pair
    enemy = state.alive[b] & (state.side[b] != state.side[b, n][:, None])  # (V, N)
    pv, pm = np.nonzero(enemy)
    dealt = np.zeros((3, v_count, slots, OWN_PLANS), dtype=np.float32)
    taken = np.zeros((v_count, slots, OWN_PLANS), dtype=np.float32)
    if len(pv):
        _pairs(state, b, n, own, deck, pv, pm, rng, dealt, taken)
    risk = 1.0 + 1.5 * state.damage[b, n] / np.maximum(1, state.resistance[b, n])
    score = dealt.max(axis=2).sum(axis=0) - risk[:, None] * taken.sum(axis=1)
    best = score.argmax(axis=1)
    state.plan[b, n] = seqs.rows[deck, own[np.arange(v_count), best]]


def _pairs(
    state: BatchState,
    b: Ints,
    n: Ints,
    own: Ints,
    deck: Ints,
    pv: Ints,
    pm: Ints,
    rng: np.random.Generator,
    dealt: npt.NDArray[np.float32],
    taken: npt.NDArray[np.float32],
) -> None:
    """The expected damage each planner (b, n) deals and takes per phase and own plan,
    for each pair (planner ``pv``, enemy slot ``pm``), into ``dealt`` (3, V, N, K) and
    ``taken`` (V, N, K)."""
    spec = state.spec
    seqs = sequences(spec)
    tb = b[pv]
    tripod = state.tripod[tb, pm]
    # the enemies' plausible poses (P, M, 3); a tripod stands where it is
    ex = np.repeat(state.x[tb, pm][:, None, None], SAMPLES, axis=1).repeat(3, axis=2)
    ey = np.repeat(state.y[tb, pm][:, None, None], SAMPLES, axis=1).repeat(3, axis=2)
    eh = np.repeat(state.heading[tb, pm][:, None, None], SAMPLES, axis=1).repeat(3, axis=2)
    air = np.flatnonzero(~tripod)
    if len(air):
        picks = best_tier_plans(state, tb[air], pm[air], SAMPLES, rng)
        e_deck = spec.type_deck[state.type[tb[air], pm[air]]]
        qb, qm = tb[air], pm[air]
        ex[air], ey[air], eh[air] = placed(
            seqs,
            e_deck[:, None],
            picks,
            state.x[qb, qm][:, None],
            state.y[qb, qm][:, None],
            state.heading[qb, qm][:, None],
        )
    # a tripod's samples are all the same pose: measured once, counted SAMPLES times
    # (the sums over samples are of small whole numbers, exact in float32)
    for group, samples in ((air, SAMPLES), (np.flatnonzero(tripod), 1)):
        if len(group):
            poses = (ex[group, :samples], ey[group, :samples], eh[group, :samples])
            pair = (pv[group], pm[group])
            _scores(state, b, n, own, deck, pair, poses, SAMPLES // samples, dealt, taken)


def _scores(
    state: BatchState,
    b: Ints,
    n: Ints,
    own: Ints,
    deck: Ints,
    pair: tuple[Ints, Ints],
    poses: tuple[Floats, Floats, Floats],
    weight: int,
    dealt: npt.NDArray[np.float32],
    taken: npt.NDArray[np.float32],
) -> None:
    """:func:`_pairs`' sums for the pairs (planner ``pv``, enemy slot ``pm``) =
    ``pair`` whose enemies' plausible poses are ``poses`` (P, M, 3), each sample
    counted ``weight`` times."""
    spec = state.spec
    seqs = sequences(spec)
    pv, pm = pair
    ex, ey, eh = poses
    tb = b[pv]
    # ... seen from each planner's start pose, in the table's cells (M, P, 3)
    sx, sy, sh = (a[b, n][pv][:, None, None] for a in (state.x, state.y, state.heading))
    rad = np.radians(sh)
    c, s = np.cos(rad), np.sin(rad)
    ex, ey = ex - sx, ey - sy
    inv = 1.0 / shot_table.STEP
    rx = ((ex * c + ey * s) * inv).transpose(1, 0, 2).astype(np.float32)
    ry = ((ey * c - ex * s) * inv).transpose(1, 0, 2).astype(np.float32)
    turns = shot_table.HEADINGS / 360.0
    rh = ((eh - sh) * turns + 0.5 + shot_table.WRAP).transpose(1, 0, 2).astype(np.float32)
    # the planners' own poses after each card, from their start: (5, 3, P, K), and
    # after their first card alone (5, P, C)
    moved = _moves(spec)
    flat = (deck[:, None] * seqs.width + own)[pv]
    own_moves = moved.triples.take(flat, axis=2)
    cards_c = deck[pv][:, None] * moved.width + np.arange(moved.width)
    first_moves = moved.cards.take(cards_c, axis=1)
    first = moved.first.take(flat) + np.arange(len(pv))[:, None] * moved.width
    rear = bool((spec.type_weapon_deck[state.type[b]][..., 1] >= 0).any())
    table = shot_table.shot_table(spec, rear)
    # what each side fires and what a card of it is worth against the other
    weapons = state.weapon_deck()
    mine = weapons[b, n][pv]  # (P, 2)
    theirs = foes.weapon_decks(state, b, weapons[b])[pv, pm]
    my_jams = state.jams[b, n][pv]
    their_jams = foes.unjammed(state, b, state.jams[b])[pv, pm]
    my_odds = [odds(spec, np.maximum(mine[:, w], 0), state.resistance[tb, pm]) for w in (0, 1)]
    res_me = state.resistance[b, n][pv]
    their_odds = [odds(spec, np.maximum(theirs[:, w], 0), res_me) for w in (0, 1)]
    aimed = [state.aim[b, n][pv, w] == pm for w in (0, 1)]
    ray_at = np.flatnonzero(state.tripod[tb, pm])
    ray_cards = _ray_cards(state, b, n, own, pv, pm, ray_at) if len(ray_at) else None
    shots = (
        (shot_table.MINE_FRONT, 0, True),
        (shot_table.MINE_REAR, 1, True),
        (shot_table.THEIRS_FRONT, 0, False),
        (shot_table.THEIRS_REAR, 1, False),
    )
    prev: dict[int, npt.NDArray[np.float32]] = {}
    for p in range(3):
        enemies = (rx[..., p, None], ry[..., p, None], rh[..., p, None])
        if p == 0:  # the first card's poses, then each plan's
            code = _codes(table, *enemies, first_moves)  # (M, P, C)
            code = code.reshape(len(ex[0]), -1).take(first, axis=1)
        else:
            code = _codes(table, *enemies, own_moves[:, p])  # (M, P, K)
        for which, w, my_shot in shots:
            decks, jams = (mine, my_jams) if my_shot else (theirs, their_jams)
            usable = (decks[:, w] >= 0) & (jams[:, w] <= p)
            if not usable.any():
                continue
            cards = table.cards[which].take(code)
            if not my_shot and w == 0 and ray_cards is not None:
                cards[:, ray_at] = ray_cards[p][None]
            points, nonzero = my_odds[w] if my_shot else their_odds[w]
            count = cards.sum(axis=0)  # (P, K): cards summed over the enemy's samples
            if weight != 1:
                count *= weight
            value = count * points[:, None].astype(np.float32)
            if spec.aim_bonus:
                # +1 a card when the weapon fired at the same target in the phase before
                # (ours at the start of the turn: the aim the airplane holds)
                before = prev.get(which) if p > 0 else None
                if before is not None:
                    bonus = (cards * before).sum(axis=0)
                    if weight != 1:
                        bonus *= weight
                    value += bonus * nonzero[:, None].astype(np.float32)
                elif p == 0 and my_shot:
                    value += count * (nonzero * aimed[w])[:, None].astype(np.float32)
                # what reaches now, for the next phase: only a weapon that may fire
                reach = np.minimum(cards, 1.0)
                if not usable.all():
                    reach *= usable[None, :, None]
                prev[which] = reach
            value *= usable[:, None] / SAMPLES
            if my_shot:
                dealt[p, pv, pm] += value
            else:
                taken[pv, pm] += value


def _codes(
    table: shot_table.ShotTable,
    rx: npt.NDArray[np.float32],
    ry: npt.NDArray[np.float32],
    rh: npt.NDArray[np.float32],
    moves: npt.NDArray[np.float32],
) -> shot_table.Codes:
    """The table's codes of enemies at (rx, ry, rh) (M, P, 1) seen from own poses
    ``moves`` (5, P, K) (:class:`_Moves`; in cells, from the planner's start pose):
    (M, P, K)."""
    fwd, lft, cos_t, sin_t, trn = moves
    size, headings = table.size, shot_table.HEADINGS
    top = size - 1.0
    dx = rx - fwd
    dy = ry - lft
    x = dx * cos_t
    x += dy * sin_t
    x += table.centre
    np.clip(x, 0.0, top, out=x)
    y = dy * cos_t
    y -= dx * sin_t
    y += table.centre
    np.clip(y, 0.0, top, out=y)
    index = x.astype(np.int32)
    index *= size * headings
    index += y.astype(np.int32) * headings
    index += (rh - trn).astype(np.int32) & (headings - 1)
    out: shot_table.Codes = table.codes.take(index)
    return out


def _ray_cards(
    state: BatchState, b: Ints, n: Ints, own: Ints, pv: Ints, pm: Ints, at: Ints
) -> npt.NDArray[np.float32]:
    """(3, A, K) for the pairs ``at`` (A,) whose enemy is a tripod: per phase, one card
    of its heat-ray when a sample point of the planner's base (centre and corners) after
    each own plan is within the ray's reach (:func:`foes.ray_reach`) of the tripod's
    centre, all round (it stands where it is).

    Measured in the base's own frame after each card: the tripod's centre (tx, ty) seen
    from there is the start pose's view of it less the plan's rigid move, turned; the
    nearest corner is then (|tx| - length/2, |ty| - width/2) away, the centre (tx, ty)."""
    spec = state.spec
    seqs = sequences(spec)
    v, m = pv[at], pm[at]
    vb, vn = b[v], n[v]
    reach = foes.ray_reach(state, b)[v, m][:, None]
    rad = np.radians(state.heading[vb, vn])
    c, s = np.cos(rad)[:, None], np.sin(rad)[:, None]
    dx = (state.x[b[v], m] - state.x[vb, vn])[:, None]
    dy = (state.y[b[v], m] - state.y[vb, vn])[:, None]
    sx, sy = dx * c + dy * s, dy * c - dx * s  # the tripod in the start pose's frame
    flat = spec.type_deck[state.type[vb, vn]][:, None] * seqs.width + own[v]
    half_l, half_w = spec.base_length / 2.0, spec.base_width / 2.0
    rigid = _rigid(spec)
    out = np.zeros((3, len(at), own.shape[1]), dtype=np.float32)
    for p in range(3):
        fwd, lft, cos_t, sin_t = (a.take(flat) for a in rigid[p])
        ex, ey = sx - fwd, sy - lft
        tx, ty = ex * cos_t + ey * sin_t, ey * cos_t - ex * sin_t
        cx, cy = np.abs(tx) - half_l, np.abs(ty) - half_w
        d2 = np.minimum(tx * tx + ty * ty, cx * cx + cy * cy)
        out[p] = d2 <= reach * reach
    return out


@lru_cache(maxsize=8)
def _rigid(spec: Spec) -> tuple[tuple[Floats, Floats, Floats, Floats], ...]:
    """Per phase, each triple's move from the start pose (flat index ``deck * T +
    triple``): the centre dot along and across the start heading (cm), the cosine and
    sine of the turn."""
    seqs = sequences(spec)
    out = []
    for p in range(3):
        rad = np.radians(seqs.turn[..., p]).reshape(-1)
        out.append((seqs.forward_by_phase[p], seqs.left_by_phase[p], np.cos(rad), np.sin(rad)))
    return tuple(out)


POLICIES["easy"] = easy_plans
