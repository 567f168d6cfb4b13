"""The batch's ``random`` plans drawn by their shortcuts are the bot's plans: an
airplane's pick is uniform among the legal plans of its best safety tier (the tier
bounded by the pairs of first cards, served by draws of it), a tripod's card sequences
walk as the tripod walks and its plans stay on the table when some can, and a protected
hit's cards go back into their pile (docs/batch.md, "Benchmark")."""

from __future__ import annotations

import numpy as np

from dogfight.batch import damage, moves, special
from dogfight.batch.bridge import from_states
from dogfight.batch.differential import random_tripod_table
from dogfight.batch.policies import SAFE_MARGIN, best_tier_draws, sequences
from dogfight.batch.spec import Bools, Floats, Ints, Spec
from dogfight.batch.state import BatchState
from dogfight.batch.tripod_damage import protected_hits
from dogfight.batch.tripod_plans import MARGIN, damaged_ok, plan_tripods, poses
from dogfight.batch.tripod_sequences import sequences as tripod_sequences
from dogfight.catalog.loader import Catalog
from dogfight.situation.format import build, parse_situation
from dogfight.situation.scenarios import scenario_situation


def _first_contact(catalog: Catalog) -> BatchState:
    situation = scenario_situation(catalog, "first-contact", np.random.default_rng(1))
    return from_states([build(situation, catalog, 0)])


def tiers_of(spec: Spec, fx: Floats, fy: Floats) -> Ints:
    """The safety tier of plans from their poses (..., 3), by its definition: 5 when
    every phase stays ``SAFE_MARGIN`` inside, else the number of phases on the table
    before it leaves (the batch measures it by pairs of first cards)."""
    safe = moves.inside(spec, fx, fy, SAFE_MARGIN).all(axis=-1)
    on = moves.inside(spec, fx, fy, -1e-9)
    two = on[..., 0] & on[..., 1]
    out: Ints = np.where(safe, 5, on[..., 0].astype(np.int64) + two + (two & on[..., 2]))
    return out


def _best_tier(
    spec: Spec, d: int, kind: int, pose: tuple[float, float, float], damage: tuple[int, int]
) -> Ints:
    """Every triple of the best tier, every plan measured phase by phase."""
    seqs = sequences(spec)
    t = int(seqs.count[d])
    x, y, h = pose
    rad = np.radians(h)
    fx = x + seqs.forward[d, :t] * np.cos(rad) - seqs.left[d, :t] * np.sin(rad)
    fy = y + seqs.forward[d, :t] * np.sin(rad) + seqs.left[d, :t] * np.cos(rad)
    tier = tiers_of(spec, fx, fy)
    may = special.allowed(seqs.feature[d, :t], np.array(damage[0]), np.array(damage[1]))
    tier = np.where(seqs.legal[d, kind, :t] & may, tier, np.where(may, -1, -2))
    out: Ints = np.flatnonzero(tier == tier.max())
    return out


def test_best_tier_draws_are_uniform_among_the_best_tier(catalog: Catalog) -> None:
    """The one sampler of the best tier (``best_tier_draws``: the random bot's picks,
    the easy bot's plans when few are safe, the Martian bot's plausible plans of an
    airplane), one pick or many per airplane: airplanes near and beyond the edges, after
    every kind of maneuver, with damage forbidding or needing cards. Every pick is a plan
    of the best tier, and many picks of one pose spread evenly over them (a chi-square
    within 5 standard errors), whether drawn one per airplane, ten per airplane (the
    draws, and when they fall short every plan measured) or 120 (every plan measured)."""
    spec = _first_contact(catalog).spec
    seqs = sequences(spec)
    rng = np.random.default_rng(7)
    decks = len(seqs.count)
    damages = [(0, 0), (0, special.NEED_STALL), (special.FORBID_STRAIGHT, 0), (1, 0), (2, 4)]
    checked = 0
    for case in range(150):
        d, kind = int(rng.integers(decks)), int(rng.integers(seqs.legal.shape[1]))
        edge = rng.choice([-3.0, 0.5, 2.0, 6.0, 12.0, 40.0])
        pose = (float(edge), float(rng.uniform(0, spec.height)), float(rng.uniform(0, 360)))
        hurt = damages[case % len(damages)]
        best = _best_tier(spec, d, kind, pose, hurt)
        count = (1, 10, 120)[case % 3]
        draws = 3600 if case < 18 else 240
        rows = draws // count
        x, y, h = (np.full(rows, v) for v in pose)
        pick = best_tier_draws(
            spec,
            seqs,
            np.full(rows, d),
            np.full(rows, kind),
            x,
            y,
            h,
            rng,
            count,
            np.full(rows, hurt[0]),
            np.full(rows, hurt[1]),
        )
        assert pick.shape == (rows, count)
        assert np.isin(pick, best).all(), (d, kind, pose, hurt, count)
        if case < 18 and len(best) > 1:
            counts = np.bincount(pick.reshape(-1), minlength=int(seqs.count[d]))[best]
            expected = draws / len(best)
            chi2 = float(((counts - expected) ** 2 / expected).sum())
            dof = len(best) - 1
            assert abs(chi2 - dof) < 5 * np.sqrt(2 * dof), (d, kind, pose, chi2, dof, count)
            checked += 1
    assert checked >= 12


def test_best_tier_draws_default_to_one_undamaged_pick(catalog: Catalog) -> None:
    """Without a count or damage, one pick per airplane among its legal plans of the
    best tier (the random bot's call)."""
    spec = _first_contact(catalog).spec
    seqs = sequences(spec)
    pose = (2.0, 30.0, 180.0)  # facing the edge 2 cm ahead
    best = _best_tier(spec, 0, 0, pose, (0, 0))
    x, y, h = (np.full(50, v) for v in pose)
    zeros = np.zeros(50, dtype=np.int64)
    pick = best_tier_draws(spec, seqs, zeros, zeros, x, y, h, np.random.default_rng(1))
    assert pick.shape == (50, 1) and np.isin(pick, best).all()


def test_tripod_sequences_walk_as_the_tripods_walk(catalog: Catalog) -> None:
    """A sequence's walk from the origin, turned and moved to a tripod's pose, is where
    the walk from that pose leaves it (with and without a reverse pending)."""
    rng = np.random.default_rng(3)
    tables = [random_tripod_table(catalog, rng) for _ in range(40)]
    batch = from_states([build(parse_situation(t), catalog, i) for i, t in enumerate(tables)])
    tri = batch.spec.tripods
    b, n = np.nonzero(batch.tripod)
    batch.reverse[b, n] = rng.random(len(b)) < 0.5
    for deck in range(len(tri.deck_ids)):
        for count in (1, 2, 3):
            seqs = tripod_sequences(tri, deck, count)
            pick = np.broadcast_to(np.arange(seqs.size), (len(b), seqs.size))
            xs, ys = poses(batch, b, n, seqs.cards[pick])
            back = batch.reverse[b, n].astype(np.int64)[:, None]
            f, lft = seqs.forward[back, pick], seqs.left[back, pick]
            rad = np.radians(batch.heading[b, n])[:, None, None]
            x0, y0 = batch.x[b, n][:, None, None], batch.y[b, n][:, None, None]
            assert np.allclose(x0 + f * np.cos(rad) - lft * np.sin(rad), xs, atol=1e-9)
            assert np.allclose(y0 + f * np.sin(rad) + lft * np.cos(rad), ys, atol=1e-9)


def _walk_ok(batch: BatchState, b: Ints, n: Ints, cards: Ints) -> tuple[Bools, Ints]:
    """(R, K) whether sequences keep each tripod 2 cm inside, and their Energy cards."""
    xs, ys = poses(batch, b, n, cards)
    spec = batch.spec
    inside: Bools = np.asarray(
        (
            (xs >= MARGIN)
            & (xs <= spec.width - MARGIN)
            & (ys >= MARGIN)
            & (ys <= spec.height - MARGIN)
        ).all(axis=2)
    )
    energy: Ints = (spec.tripods.card_energy[np.maximum(cards, 0)] & (cards >= 0)).sum(axis=2)
    return inside, energy


def test_tripod_plans_stay_on_the_table_when_they_can(catalog: Catalog) -> None:
    """Tripods put near and beyond the edges plan legal sequences (Energy cards paid,
    not three movement cards, what the damage allows) that keep them 2 cm inside the
    table whenever some sequence of their deck does (every sequence measured)."""
    rng = np.random.default_rng(11)
    tables = [random_tripod_table(catalog, rng, standard=True) for _ in range(150)]
    batch = from_states([build(parse_situation(t), catalog, i) for i, t in enumerate(tables)])
    b, n = np.nonzero(batch.tripod & batch.alive)
    batch.x[b, n] = rng.choice([1.0, 2.5, 4.0, batch.spec.width - 3.0], len(b))
    batch.y[b, n] = rng.uniform(0, batch.spec.height, len(b))
    batch.heading[b, n] = rng.uniform(0, 360, len(b))
    batch.phase[:] = 0
    batch.tplan[:] = -1
    plan_tripods(batch, rng)
    tri = batch.spec.tripods
    planned, walkable = 0, 0
    for k in range(len(b)):
        row, slot = b[k : k + 1], n[k : k + 1]
        count = 3 - int(batch.toppled[row[0], slot[0]])
        if count <= 0:
            continue
        every = tripod_sequences(tri, int(tri.type_deck[batch.ttype[row[0], slot[0]]]), count)
        cards = every.cards[None]
        inside, energy = _walk_ok(batch, row, slot, cards)
        steady = every.steady[None]
        legal = (energy <= batch.energy[row, slot][:, None]) & steady
        legal &= damaged_ok(batch, row, slot, cards, np.array([count]))
        mine = batch.tplan[row, slot]
        chosen = np.flatnonzero((every.cards == mine).all(axis=1))
        assert len(chosen) == 1
        if legal.any():
            assert legal[0, chosen[0]]
        if (legal & inside).any():
            assert inside[0, chosen[0]]
            walkable += 1
        planned += 1
    assert planned > 100 and walkable > 50


def test_protected_hits_put_the_cards_back(catalog: Catalog) -> None:
    """Shots across the armour on many tables at once: each table's pile holds the same
    cards afterwards (the drawn ones shuffled back, held by nobody), the tripods lose
    Energy, and a short shot draws two cards."""
    rng = np.random.default_rng(2)
    tables = [random_tripod_table(catalog, rng) for _ in range(60)]
    batch = from_states([build(parse_situation(t), catalog, i) for i, t in enumerate(tables)])
    rows, tripod = np.nonzero(batch.tripod & batch.alive)
    deck = np.full(len(rows), 0)
    before = [
        sorted(batch.order[r, 0, : batch.top[r, 0]].tolist()) for r in rows.tolist()
    ]  # fmt: skip
    energy = batch.energy[rows, tripod].copy()
    short = np.arange(len(rows)) % 2 == 0
    drawn = protected_hits(batch, rows, tripod, deck, short, damage.Dice(rng))
    assert ((drawn[:, 1] >= 0) == short).all() and (drawn[:, 0] >= 0).all()
    for k, r in enumerate(rows.tolist()):
        if len(before[k]) < 2:
            continue  # an empty pile took the whole deck back first
        pile = batch.order[r, 0, : batch.top[r, 0]].tolist()
        assert sorted(pile) == before[k]
        assert (batch.holder[r, 0, drawn[k][drawn[k] >= 0]] == -1).all()
    assert (batch.energy[rows, tripod] <= energy).all()
