"""The learned policy: every airplane to plan scores its candidate plans with the
linear weights over :mod:`dogfight.learned.features` and flies the best.

One implementation for both engines: the batched engine calls :func:`learned_plans` on
its tables (registered as the batch policy ``learned`` by :mod:`dogfight.batch.learned`);
the referee's bot (:mod:`dogfight.bots.learned`) builds a batch of one table from its
seat's observation and calls :func:`choose`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dogfight.batch.arrays import per_slot
from dogfight.batch.policies import Sequences, sequences
from dogfight.batch.spec import Bools, Floats, Ints
from dogfight.batch.state import BatchState
from dogfight.learned.features import NAMES, candidates, features, public_view
from dogfight.learned.weights import Weights

CHUNK = 512
"""Airplanes planned at once (bounds the memory of the feature arrays)."""
EXPLAINED = 3
"""How many best plans :func:`choose` keeps per airplane."""


@dataclass(frozen=True)
class Choice:
    """What :func:`choose` decided for airplanes (b, n)."""

    b: Ints
    n: Ints
    plans: Ints
    """(V, 3) global card indexes."""
    best: list[list[tuple[tuple[int, int, int], float]]]
    """Per airplane, its best distinct plans (global card indexes) with their values,
    best first (only when asked)."""


def needing_sides(state: BatchState, mask: Bools | None) -> list[tuple[int, Ints, Ints]]:
    """Per side, the airplanes (b, n) that need a plan: in play, on tables not over,
    not planned yet, in ``mask``."""
    need = state.alive & ~per_slot(state.over, state.slots) & (state.plan[..., 0] < 0)
    need &= ~state.tripod  # tripods plan in batch/tripod_plans.py
    if mask is not None:
        need &= mask
    out = []
    for side in range(len(state.side_names)):
        b, n = np.nonzero(need & (state.side == side))
        if len(b):
            out.append((side, b.astype(np.int64), n.astype(np.int64)))
    return out


def foe_model(
    view: BatchState, b: Ints, n: Ints, weights: Weights, rng: np.random.Generator
) -> tuple[Ints, Ints | None]:
    """The plans the airplanes (b, n) expect of every airplane of their tables, (V, N, M)
    and (V, N, R): ``enemy_plans`` uniform ones (of the best safety tier) and, with
    ``replies``, each enemy's ``replies`` best plans among ``reply_pool`` of its own,
    scored by these same weights against uniform plans of ours (one level of "what would
    it do"), all from the view of (b, n)'s side."""
    slots = view.slots
    tables, where = np.unique(b, return_inverse=True)
    tb = np.repeat(tables, slots)
    tn = np.tile(np.arange(slots), len(tables))
    # a tripod has no airplane plans: it is taken as standing (features, batch/foes.py)
    live = view.alive[tb, tn] & ~view.tripod[tb, tn]
    uniform = np.zeros((len(tb), weights.enemy_plans), dtype=np.int64)
    uniform[live] = candidates(view, tb[live], tn[live], weights.enemy_plans, rng)
    grouped = uniform.reshape(len(tables), slots, -1)
    if not weights.replies:
        return grouped[where], None
    side = view.side[b[0], n[0]]
    theirs = np.flatnonzero(live & (view.side[tb, tn] != side))
    replies = np.zeros((len(tb), weights.replies), dtype=np.int64)
    if len(theirs) == 0:  # no enemy airplane (a tripod alone): no replies to weigh
        return grouped[where], replies.reshape(len(tables), slots, -1)[where]
    pool = candidates(view, tb[theirs], tn[theirs], weights.reply_pool, rng)
    ours = grouped[np.searchsorted(tables, tb[theirs])]
    half = len(NAMES)
    values = features(view, tb[theirs], tn[theirs], pool, ours) @ weights.vector[:half]
    top = np.argsort(-values, axis=1, kind="stable")[:, : weights.replies]
    replies[theirs] = np.take_along_axis(pool, top, axis=1)
    return grouped[where], replies.reshape(len(tables), slots, -1)[where]


def score(
    view: BatchState, b: Ints, n: Ints, picks: Ints, weights: Weights, rng: np.random.Generator
) -> Floats:
    """The values (V, K) of plans ``picks`` of airplanes (b, n): the weights over their
    features against the enemies' uniform plans and against their best replies."""
    uniform, replies = foe_model(view, b, n, weights, rng)
    feats = features(view, b, n, picks, uniform)
    if replies is not None:
        feats = np.concatenate([feats, features(view, b, n, picks, replies)], axis=-1)
    else:
        feats = np.concatenate([feats, np.zeros_like(feats)], axis=-1)
    out: Floats = feats @ weights.vector
    return out


def choose(
    state: BatchState,
    rng: np.random.Generator,
    weights: Weights,
    mask: Bools | None = None,
    explain: bool = False,
) -> list[Choice]:
    """The plans of every airplane that needs one (not written into the state), each
    side's from that side's view alone."""
    one_card = state.spec.one_card  # WW2: candidates are cards, written in all three entries
    seqs = None if one_card else sequences(state.spec)
    out = []
    for side, b_all, n_all in needing_sides(state, mask):
        view = public_view(state, side)
        for start in range(0, len(b_all), CHUNK):
            b, n = b_all[start : start + CHUNK], n_all[start : start + CHUNK]
            picks = candidates(view, b, n, weights.own_plans, rng)
            values = score(view, b, n, picks, weights, rng)
            deck = state.spec.type_deck[state.type[b, n]]
            top = values.argmax(axis=1)
            plans = _rows(seqs, deck, picks[np.arange(len(b)), top])
            best: list[list[tuple[tuple[int, int, int], float]]] = []
            if explain:
                for v in range(len(b)):
                    ranked: list[tuple[tuple[int, int, int], float]] = []
                    for k in np.argsort(-values[v], kind="stable").tolist():
                        row = _rows(seqs, deck[v : v + 1], picks[v : v + 1, k])[0]
                        cards = (int(row[0]), int(row[1]), int(row[2]))
                        if all(cards != seen for seen, _ in ranked):
                            ranked.append((cards, float(values[v, k])))
                        if len(ranked) == EXPLAINED:
                            break
                    best.append(ranked)
            out.append(Choice(b, n, plans, best))
    return out


def _rows(seqs: Sequences | None, deck: Ints, picks: Ints) -> Ints:
    """The plans (V, 3) of candidates ``picks`` (V,): triples of the decks, or (WW2,
    ``seqs`` None) one card written in all three entries."""
    if seqs is None:
        return np.repeat(picks[:, None], 3, axis=1)
    out: Ints = seqs.rows[deck, picks]
    return out


def learned_plans(
    state: BatchState, rng: np.random.Generator, mask: Bools | None, weights: Weights
) -> None:
    """Give every airplane that needs one (in ``mask``) the learned policy's plan."""
    for choice in choose(state, rng, weights, mask):
        state.plan[choice.b, choice.n] = choice.plans
