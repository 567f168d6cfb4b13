"""The shortcuts that make *First Contact* with the bots fast (docs/batch.md,
"Benchmark") measure what they replaced: the ``easy`` bot's reach of an enemy tripod's
heat-ray measured in the planner's frame is the distance from the sample points of each
plan's base, and its pairs with a tripod scored on one sample are the six identical
samples scored. (The ``martian`` bot's plausible plans of an airplane come from the one
sampler of the best tier, ``policies.best_tier_draws``, which
tests/test_batch_random_plans.py holds uniform among that tier.)"""

from __future__ import annotations

import numpy as np

from dogfight.batch import easy, foes
from dogfight.batch.aim import sample_points
from dogfight.batch.bridge import from_states
from dogfight.batch.differential import random_tripod_table
from dogfight.batch.policies import placed, sequences
from dogfight.batch.state import BatchState
from dogfight.catalog.loader import Catalog
from dogfight.situation.format import build, parse_situation


def _tripod_tables(catalog: Catalog, count: int, seed: int, standard: bool) -> BatchState:
    """Random tripod tables (some airplanes on the tripod's side; ``standard``: under
    the Standard Rules), every airplane somewhere on or near the table, some near its
    edges."""
    rng = np.random.default_rng(seed)
    tables = [random_tripod_table(catalog, rng, standard) for _ in range(count)]
    batch = from_states([build(parse_situation(t), catalog, i) for i, t in enumerate(tables)])
    air = ~batch.tripod
    batch.x[air] = rng.uniform(-2.0, batch.spec.width + 2.0, air.sum())
    batch.y[air] = rng.uniform(-2.0, batch.spec.height + 2.0, air.sum())
    batch.heading[air] = rng.uniform(0.0, 360.0, air.sum())
    return batch


def _tripod_pairs(batch: BatchState) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Planners (b, n): every airplane in play; pairs (pv, pm) with an enemy tripod."""
    b, n = np.nonzero(batch.alive & ~batch.tripod)
    enemy = batch.alive[b] & (batch.side[b] != batch.side[b, n][:, None]) & batch.tripod[b]
    pv, pm = np.nonzero(enemy)
    return b, n, pv, pm


def test_the_heat_ray_reach_is_measured_from_each_plans_sample_points(
    catalog: Catalog,
) -> None:
    """A card of the tripod's heat-ray in a phase exactly when a sample point of the
    planner's base (centre and corners) placed by the plan is within the ray's reach of
    the tripod's centre."""
    batch = _tripod_tables(catalog, 60, 4, False)
    spec = batch.spec
    seqs = sequences(spec)
    rng = np.random.default_rng(5)
    b, n, pv, pm = _tripod_pairs(batch)
    assert len(pv) > 50
    deck = spec.type_deck[batch.type[b, n]]
    own = (rng.random((len(b), easy.OWN_PLANS)) * seqs.count[deck][:, None]).astype(np.int64)
    got = easy._ray_cards(batch, b, n, own, pv, pm, np.arange(len(pv)))
    v = pv
    fx, fy, fh = placed(
        seqs,
        deck[v][:, None],
        own[v],
        batch.x[b[v], n[v]][:, None],
        batch.y[b[v], n[v]][:, None],
        batch.heading[b[v], n[v]][:, None],
    )
    reach = foes.ray_reach(batch, b)[pv, pm]
    tx, ty = batch.x[b[v], pm][:, None, None], batch.y[b[v], pm][:, None, None]
    for p in range(3):
        px, py = sample_points(spec, fx[..., p], fy[..., p], fh[..., p])
        near = ((px - tx) ** 2 + (py - ty) ** 2).min(axis=-1)
        # the two measures agree but within rounding of the reach itself
        sure = np.abs(near - reach[:, None] ** 2) > 1e-6
        want = near <= reach[:, None] ** 2
        assert (got[p].astype(bool) == want)[sure].all(), p
        assert 0 < want.mean() < 1, p


def test_a_tripod_pair_scored_on_one_sample_is_its_six_samples_scored(
    catalog: Catalog,
) -> None:
    """The expected damage dealt and taken against a tripod, scored on one of its
    (identical) samples counted six times, is the same to the bit as on the six."""
    batch = _tripod_tables(catalog, 60, 6, True)
    spec = batch.spec
    seqs = sequences(spec)
    rng = np.random.default_rng(7)
    batch.aim[batch.alive & ~batch.tripod] = -1
    b, n, pv, pm = _tripod_pairs(batch)
    deck = spec.type_deck[batch.type[b, n]]
    own = np.sort((rng.random((len(b), easy.OWN_PLANS)) * seqs.count[deck][:, None]), axis=1)
    own = own.astype(np.int64)
    m = easy.SAMPLES
    poses = tuple(
        np.repeat(a[b[pv], pm][:, None, None], m, axis=1).repeat(3, axis=2)
        for a in (batch.x, batch.y, batch.heading)
    )
    shape = (len(b), batch.slots, easy.OWN_PLANS)
    results = []
    for samples in (m, 1):
        dealt = np.zeros((3, *shape), dtype=np.float32)
        taken = np.zeros(shape, dtype=np.float32)
        mine = tuple(a[:, :samples] for a in poses)
        easy._scores(batch, b, n, own, deck, (pv, pm), mine, m // samples, dealt, taken)  # type: ignore[arg-type]
        results.append((dealt, taken))
    assert np.array_equal(results[0][0], results[1][0])
    assert np.array_equal(results[0][1], results[1][1])
    assert results[0][0].any() and results[0][1].any()
