"""The ``easy`` bot for every airplane of a batch at once (after
:class:`dogfight.bots.airplanes.EasyBot`).

Each airplane scores a sample of its own plans (120, of the best safety tier) against a
few plausible plans of every enemy (6 each, of their best safety tier), phase by phase:
the expected damage it deals (arcs, the ruler and half mark measured to the corners and
centre of the enemy's base, two cards at short range, the aim bonus, its jams) — the
best enemy per phase, one shot per weapon — less the expected damage it takes, weighted
by how damaged it already is. It flies the best plan. The measures are the bot's
approximations, as in the referee's bot; the rules are the batch engine's. An enemy
tripod is taken as standing still with its heat-ray firing all round
(:mod:`dogfight.batch.foes`).
"""

from __future__ import annotations

import numpy as np

from dogfight.batch import foes, moves, special, ww2
from dogfight.batch.aim import nearest_in_arc, odds, sample_points
from dogfight.batch.plan_kinds import kind, needing
from dogfight.batch.policies import (
    POLICIES,
    SAFE_MARGIN,
    best_tier_pick,
    placed,
    sequences,
)
from dogfight.batch.spec import Bools, Floats, Ints, Spec
from dogfight.batch.state import BatchState

OWN_PLANS = 120
SAMPLES = 6
CHUNK = 256
"""Airplanes planned at once (bounds the memory of the score arrays)."""


def sample_plans(state: BatchState, b: Ints, n: Ints, count: int, rng: np.random.Generator) -> Ints:
    """``count`` plans (triple indexes) per airplane (b, n), uniform among its legal plans
    that keep it safely on the table (drawn four times over); an airplane for which too
    few are found draws among the plans of its best safety tier instead."""
    spec = state.spec
    seqs = sequences(spec)
    deck = spec.type_deck[state.type[b, n]][:, None]
    kinds = kind(spec, state.prev_symbol[b, n], state.prev_steep[b, n])[:, None]
    forbid, need = special.needs(state, b, n)
    x, y, h = (a[b, n][:, None] for a in (state.x, state.y, state.heading))
    pick = (rng.random((len(b), 4 * count)) * seqs.count[deck]).astype(np.int64)
    ok = seqs.legal[deck, kinds, pick]
    ok &= special.allowed(seqs.feature[deck, pick], forbid[:, None], need[:, None])
    fx, fy, _ = placed(seqs, deck, pick, x, y, h)
    ok &= moves.inside(spec, fx, fy, SAFE_MARGIN).all(axis=-1)
    # the first ``count`` good draws of each row
    order = np.argsort(~ok, axis=1, kind="stable")[:, :count]
    out: Ints = np.take_along_axis(pick, order, axis=1)
    short = np.flatnonzero(ok.sum(axis=1) < count)
    for r in short.tolist():
        d, k = deck[r, :1], kinds[r, :1]
        out[r] = [
            int(
                best_tier_pick(
                    spec, seqs, d, k, x[r], y[r], h[r], rng, forbid[r : r + 1], need[r : r + 1]
                )[0]
            )
            for _ in range(count)
        ]
    return out


def _shots(
    spec: Spec,
    fx: Floats,
    fy: Floats,
    fh: Floats,
    tx: Floats,
    ty: Floats,
    th: Floats,
    weapon: int,
) -> tuple[Floats, Floats]:
    """(reach, cards) of shots from poses f at bases at poses t (broadcast)."""
    px, py = sample_points(spec, tx, ty, th)
    d2 = nearest_in_arc(
        spec, fx, fy, fh + spec.arc_centre[weapon], float(spec.arc_half[weapon]), px, py
    )
    apart = (fx - tx) ** 2 + (fy - ty) ** 2 > (spec.base_length * 0.9) ** 2
    reach = (d2 <= spec.ruler**2) & apart
    cards = np.where(d2 <= spec.half**2, 2.0, 1.0) * reach
    return reach.astype(np.float64), cards


def easy_plans(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """Give every airplane that needs one the easy bot's plan (in place); WW2 airplanes
    plan one card and speed per phase (:func:`dogfight.batch.ww2.easy_plans`)."""
    if state.spec.one_card:
        ww2.easy_plans(state, rng, mask)
        return
    b, n = needing(state, mask)
    for start in range(0, len(b), CHUNK):
        _plan(state, b[start : start + CHUNK], n[start : start + CHUNK], rng)


def _plan(state: BatchState, b: Ints, n: Ints, rng: np.random.Generator) -> None:
    spec = state.spec
    seqs = sequences(spec)
    v_count, slots = len(b), state.slots
    own = sample_plans(state, b, n, OWN_PLANS, rng)  # (V, K)
    deck = spec.type_deck[state.type[b, n]]
    sx, sy, sh = (a[b, n][:, None] for a in _poses(state))
    mx, my, mh = placed(seqs, deck[:, None], own, sx, sy, sh)
    # every enemy in play, with a few plausible plans each
    enemy = state.alive[b] & (state.side[b] != state.side[b, n][:, None])  # (V, N)
    ex = np.zeros((v_count, slots, SAMPLES, 3))
    ey = np.zeros_like(ex)
    eh = np.zeros_like(ex)
    vb, vn = np.nonzero(enemy & ~state.tripod[b])
    if len(vb):
        tb, tn = b[vb], vn
        picks = sample_plans(state, tb, tn, SAMPLES, rng)
        e_deck = spec.type_deck[state.type[tb, tn]]
        tx, ty, th = (a[tb, tn][:, None] for a in _poses(state))
        px, py, ph = placed(seqs, e_deck[:, None], picks, tx, ty, th)
        ex[vb, vn], ey[vb, vn], eh[vb, vn] = px, py, ph
    foes.stand_still(state, b, ex, ey, eh)
    weapons = state.weapon_deck()
    my_decks = weapons[b, n]  # (V, 2)
    their_decks = foes.weapon_decks(state, b, weapons[b])  # (V, N, 2)
    jams = state.jams[b, n]
    their_jams = foes.unjammed(state, b, state.jams[b])
    rays = foes.ray_reach(state, b)[:, :, None, None]  # (V, N, 1, 1)
    aim = state.aim[b, n]
    risk = 1.0 + 1.5 * state.damage[b, n] / np.maximum(1, state.resistance[b, n])
    dealt = np.zeros((3, v_count, slots, OWN_PLANS))
    taken = np.zeros((v_count, OWN_PLANS))
    res_them = state.resistance[b]  # (V, N)
    res_me = state.resistance[b, n]
    prev_reach: dict[int, Floats] = {}
    prev_enemy: dict[int, Floats] = {}
    for p in range(3):
        # (V, 1, K, 1) against (V, N, 1, M)
        fx, fy, fh = (a[:, None, :, None, p] for a in (mx, my, mh))
        tx, ty, th = (a[:, :, None, :, p] for a in (ex, ey, eh))
        for w in (0, 1):
            usable = (my_decks[:, w] >= 0) & (jams[:, w] <= p)
            if not usable.any():
                continue
            d = np.maximum(my_decks[:, w], 0)
            points, nonzero = odds(spec, d[:, None], res_them)  # (V, N)
            reach, cards = _shots(spec, fx, fy, fh, tx, ty, th, w)  # (V, N, K, M)
            if spec.aim_bonus:
                if p == 0:
                    bonus = (aim[:, w][:, None] == np.arange(slots))[:, :, None, None] * reach
                else:
                    bonus = prev_reach.get(w, 0.0) * reach
            else:
                bonus = 0.0
            value = cards * (points[..., None, None] + nonzero[..., None, None] * bonus)
            dealt[p] += value.mean(axis=3) * usable[:, None, None]
            prev_reach[w] = reach
        for w in (0, 1):
            usable = (their_decks[:, :, w] >= 0) & (their_jams[:, :, w] <= p) & enemy
            if not usable.any():
                continue
            d = np.maximum(their_decks[:, :, w], 0)
            points, nonzero = odds(spec, d, res_me[:, None])  # (V, N)
            reach, cards = _shots(spec, tx, ty, th, fx, fy, fh, w)
            if w == 0 and (rays > 0).any():
                reach, cards = _rays(spec, rays, tx, ty, fx, fy, fh, reach, cards)
            bonus = prev_enemy.get(w, 0.0) * reach if (spec.aim_bonus and p > 0) else 0.0
            value = cards * (points[..., None, None] + nonzero[..., None, None] * bonus)
            taken += (value.mean(axis=3) * usable[:, :, None]).sum(axis=1)
            prev_enemy[w] = reach
    dealt = np.where(enemy[None, :, :, None], dealt, 0.0)
    score = dealt.max(axis=2).sum(axis=0) - risk[:, None] * taken
    best = score.argmax(axis=1)
    state.plan[b, n] = seqs.rows[deck, own[np.arange(v_count), best]]


def _rays(
    spec: Spec,
    rays: Floats,
    tx: Floats,
    ty: Floats,
    fx: Floats,
    fy: Floats,
    fh: Floats,
    reach: Floats,
    cards: Floats,
) -> tuple[Floats, Floats]:
    """(reach, cards) of the enemies' first weapons with the tripods' heat-rays (``rays``
    > 0: how far each reaches) as one card at whatever sample point of the airplane's base
    is within that distance of the tripod's centre, all round."""
    px, py = sample_points(spec, fx, fy, fh)
    d2 = ((px - tx[..., None]) ** 2 + (py - ty[..., None]) ** 2).min(axis=-1)
    hit = (d2 <= rays**2).astype(np.float64)
    tripod = rays > 0
    return np.where(tripod, hit, reach), np.where(tripod, hit, cards)


def _poses(state: BatchState) -> tuple[Floats, Floats, Floats]:
    return state.x, state.y, state.heading


POLICIES["easy"] = easy_plans
