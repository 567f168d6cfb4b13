"""What the learned policy looks at: hand-built features of every candidate plan of an
airplane, for a whole batch of airplanes at once.

For each airplane to plan (a batch of one in the referee, thousands in the batched
engine) the policy draws ``own`` of its legal plans that keep it on the table
(:func:`dogfight.batch.easy.sample_plans`: the best safety tier) and ``enemy`` plausible
plans of every enemy (uniform among theirs), flies them all with the precomputed rigid
moves of :class:`dogfight.batch.policies.Sequences`, and measures, phase by phase and at
the end of the turn, where each own plan leaves the airplane relative to each enemy:

- the damage it can expect to deal and to take (arcs, the ruler and the half mark between
  centre dots, a base's reach added; each weapon's odds per damage deck, its jams);
- at the end of the turn: the enemy in its arc within the ruler, itself in the enemy's,
  the distance, the bearings, a tail position, the margin to the table's edge.

It sees only its side's view (:func:`public_view`): an enemy's damage, lasting special
damage, cards and plan are blanked before anything is computed, so two tables that differ
only in another side's secrets give the same features (and the same plan).
"""

from __future__ import annotations

import copy

import numpy as np

from dogfight.batch import foes as tripods
from dogfight.batch import ww2
from dogfight.batch.aim import odds
from dogfight.batch.easy import sample_plans
from dogfight.batch.policies import placed, sequences
from dogfight.batch.spec import Floats, Ints
from dogfight.batch.state import BatchState

NAMES = (
    "dealt",
    "taken",
    "taken_when_damaged",
    "dealt_short",
    "taken_short",
    "end_enemy_in_arc",
    "end_me_in_its_arc",
    "end_distance",
    "end_bearing_cos",
    "end_its_bearing_cos",
    "end_tail_position",
    "end_same_heading",
    "edge_margin",
    "end_too_close",
)
"""What is measured of a plan against a set of enemy plans."""

COLUMNS = NAMES + tuple("reply_" + name for name in NAMES)
"""The features, in the order of the weights: each measure against the enemies' uniform
plans, then against their best replies (:func:`dogfight.learned.policy.foe_model`)."""

SECRETS = ("damage", "engine", "smoke", "fire", "observer")
"""Per-airplane arrays of :class:`BatchState` that only the airplane's own side sees
(with ``rudder`` and ``plan``, three-wide, and the damage piles)."""


def public_view(state: BatchState, side: int) -> BatchState:
    """The batch as side ``side`` sees it: every other side's airplanes with no damage,
    no lasting special damage and no plan (the piles are never read)."""
    view = copy.copy(state)
    theirs = state.side != side
    for name in SECRETS:
        value = getattr(state, name)
        setattr(view, name, np.where(theirs, np.zeros((), dtype=value.dtype), value))
    view.rudder = np.where(theirs[..., None], 0, state.rudder)
    view.plan = np.where(theirs[..., None], -1, state.plan)
    view.trig = None
    return view


def candidates(view: BatchState, b: Ints, n: Ints, count: int, rng: np.random.Generator) -> Ints:
    """``count`` plans (triple indexes, (V, count)) per airplane (b, n), uniform among
    its legal plans of the best safety tier (:func:`dogfight.batch.easy.sample_plans`);
    on a WW2 table ``count`` cards (global indexes) as :func:`dogfight.batch.ww2.sample_cards`
    draws them."""
    if view.spec.one_card:
        return ww2.sample_cards(view, b, n, count, rng)
    return sample_plans(view, b, n, count, rng)


def poses(view: BatchState, b: Ints, n: Ints, picks: Ints) -> tuple[Floats, Floats, Floats]:
    """Where triples ``picks`` (V, ...) leave airplanes (b, n) after each card: (V, ..., 3)
    (on a WW2 table ``picks`` are cards, each held for the three phases: :func:`ww2.held`)."""
    spec = view.spec
    if spec.one_card:
        return ww2.held(view, b, n, picks)
    deck = spec.type_deck[view.type[b, n]]
    extra = (slice(None),) + (None,) * (picks.ndim - 1)
    return placed(
        sequences(spec),
        deck[extra],
        picks,
        view.x[b, n][extra],
        view.y[b, n][extra],
        view.heading[b, n][extra],
    )


def features(view: BatchState, b: Ints, n: Ints, picks: Ints, foe_picks: Ints) -> Floats:
    """The features (V, K, F) of plans ``picks`` (V, K) of airplanes (b, n) (V,) against
    plans ``foe_picks`` (V, N, M) of every airplane of their tables (only enemies in
    play count)."""
    spec = view.spec
    v_count, slots = len(b), view.slots
    own = picks.shape[1]
    mx, my, mh = poses(view, b, n, picks)  # (V, K, 3)
    foes = view.alive[b] & (view.side[b] != view.side[b, n][:, None])  # (V, N)
    # the enemies' slots first, and only as many slots as the most enemies (V, E)
    slots = max(1, int(foes.sum(axis=1).max(initial=0)))
    slot = np.argsort(~foes, axis=1, kind="stable")[:, :slots]
    foes = np.take_along_axis(foes, slot, axis=1)
    foe_picks = np.take_along_axis(foe_picks, slot[:, :, None], axis=1)
    ex, ey, eh = poses(
        view, np.repeat(b, slots), slot.reshape(-1), foe_picks.reshape(v_count * slots, -1)
    )
    ex, ey, eh = (a.reshape(v_count, slots, -1, 3) for a in (ex, ey, eh))
    weapons = view.weapon_deck()
    mine, theirs = weapons[b, n], weapons[b[:, None], slot]  # (V, 2), (V, E, 2)
    jams, their_jams = view.jams[b, n], view.jams[b[:, None], slot]
    rays = np.zeros((v_count, slots))
    if view.tripod[b].any():  # enemy tripods (batch/foes.py): standing, a heat-ray all round
        picked = np.take_along_axis(view.tripod[b], slot, axis=1)
        stood = tuple(np.zeros((v_count, view.slots, 1, 3)) for _ in range(3))
        tripods.stand_still(view, b, *stood)
        where = picked[:, :, None, None]
        ex, ey, eh = (
            np.where(where, np.take_along_axis(s, slot[:, :, None, None], axis=1), e)
            for s, e in zip(stood, (ex, ey, eh), strict=True)
        )
        every = tripods.weapon_decks(view, b, weapons[b])
        theirs = np.take_along_axis(every, slot[:, :, None], axis=1)
        their_jams = np.where(picked[..., None], 0, their_jams)
        rays = np.take_along_axis(tripods.ray_reach(view, b), slot, axis=1)
    rayed = (rays > 0)[:, :, None, None]
    ray_reach = (rays + spec.base_radius)[:, :, None, None]
    res_me = view.resistance[b, n]
    reach = spec.ruler + spec.base_radius
    short = spec.half + spec.base_radius
    out = np.zeros((v_count, own, len(NAMES)))
    foe = foes[:, :, None, None]
    # each weapon's expected points per card, mine against each enemy and theirs against me
    # (one call: [mine front, mine rear, theirs front, theirs rear], each (V, E))
    res_them = view.resistance[b[:, None], slot]
    decks = np.stack(
        [np.broadcast_to(mine[:, w, None], res_them.shape) for w in (0, 1)]
        + [theirs[:, :, w] for w in (0, 1)]
    )
    against = np.stack(
        [res_them, res_them] + [np.broadcast_to(res_me[:, None], res_them.shape)] * 2
    )
    points = odds(spec, np.maximum(decks, 0), against)[0]
    dealing, taking = points[:2], points[2:]
    halves = [np.radians(float(spec.arc_half[w])) for w in (0, 1)]
    for p in range(3):
        # own (V, 1, K, 1) against enemies (V, N, 1, M)
        fx, fy, fh = (a[:, None, :, None, p] for a in (mx, my, mh))
        tx, ty, th = (a[:, :, None, :, p] for a in (ex, ey, eh))
        dx, dy = tx - fx, ty - fy
        dist = np.sqrt(dx * dx + dy * dy) + 1e-9
        rad_f, rad_t = np.radians(fh), np.radians(th)
        cf, sf, ct, st = np.cos(rad_f), np.sin(rad_f), np.cos(rad_t), np.sin(rad_t)
        bearing = (dx * cf + dy * sf) / dist  # cos of the enemy's angle off my nose
        its = -(dx * ct + dy * st) / dist  # cos of my angle off its nose
        slack = np.arctan2(spec.base_radius, dist)
        # the enemy's angle off my nose, mine off its nose (a rear arc: pi less these)
        off_me = np.arccos(np.clip(bearing, -1.0, 1.0)) - slack
        off_it = np.arccos(np.clip(its, -1.0, 1.0)) - slack
        near = dist <= reach
        close = dist <= short
        apart = dist > spec.base_length * 0.9
        dealt = np.zeros((v_count, slots, own))
        dealt_short = np.zeros_like(dealt)
        taken = np.zeros((v_count, own))
        taken_short = np.zeros_like(taken)
        for w in (0, 1):
            half = halves[w]
            rear = float(spec.arc_centre[w]) == 180.0
            usable = (mine[:, w] >= 0) & (jams[:, w] <= p)
            if usable.any():
                points = dealing[w]
                in_arc = (np.pi - 2 * slack - off_me if rear else off_me) <= half
                hit = in_arc & near & apart
                cards = np.where(close, 2.0, 1.0) * hit
                value = (cards * points[..., None, None]).mean(axis=3) * usable[:, None, None]
                dealt += value
                dealt_short += (cards * close * points[..., None, None]).mean(axis=3) * usable[
                    :, None, None
                ]
            usable_t = (theirs[:, :, w] >= 0) & (their_jams[:, :, w] <= p) & foes
            if usable_t.any():
                points = taking[w]
                in_arc = (np.pi - 2 * slack - off_it if rear else off_it) <= half
                hit = np.where(rayed, dist <= ray_reach, in_arc & near & apart) & foe
                cards = np.where(close, 2.0, 1.0) * hit
                value = (cards * points[..., None, None]).mean(axis=3) * usable_t[..., None]
                taken += value.sum(axis=1)
                taken_short += (
                    (cards * close * points[..., None, None]).mean(axis=3) * usable_t[..., None]
                ).sum(axis=1)
        dealt = np.where(foes[:, :, None], dealt, 0.0)
        dealt_short = np.where(foes[:, :, None], dealt_short, 0.0)
        out[..., 0] += dealt.max(axis=1)
        out[..., 1] += taken
        out[..., 3] += dealt_short.max(axis=1)
        out[..., 4] += taken_short
        margin = np.minimum(
            np.minimum(mx[..., p], spec.width - mx[..., p]),
            np.minimum(my[..., p], spec.height - my[..., p]),
        )
        edge = np.clip(margin / spec.ruler, 0.0, 1.0)
        out[..., 12] = edge if p == 0 else np.minimum(out[..., 12], edge)
        if p == 2:
            ahead = (off_me <= halves[0]) & near & apart
            aimed = (off_it <= halves[0]) & near & apart
            heading = cf * ct + sf * st
            weight = np.where(foe, 1.0, 0.0)
            low = np.where(foe, 1.0, -1.0)
            out[..., 5] = (ahead * weight).mean(axis=3).max(axis=1)
            out[..., 6] = (aimed * weight).mean(axis=3).sum(axis=1)
            d_end = np.where(foe, dist, np.inf).mean(axis=3).min(axis=1)
            out[..., 7] = np.clip(d_end / spec.ruler, 0.0, 3.0)
            out[..., 8] = (bearing * low).mean(axis=3).max(axis=1)
            out[..., 9] = (its * low).mean(axis=3).max(axis=1)
            tail = (1.0 + bearing) * (1.0 - its) / 4.0
            out[..., 10] = (tail * weight).mean(axis=3).max(axis=1)
            out[..., 11] = (heading * weight).mean(axis=3).sum(axis=1)
            out[..., 13] = ((dist < 2.0 * spec.base_length) * weight).mean(axis=3).sum(axis=1)
    hurt = view.damage[b, n] / np.maximum(1, res_me)
    out[..., 2] = out[..., 1] * hurt[:, None]
    out[np.isinf(out)] = 3.0
    return out
