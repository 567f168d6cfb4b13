"""Plans for every airplane of a batch at once.

- :func:`random_plans`: the ``random`` bot's plans (:class:`dogfight.bots.airplanes.RandomBot`):
  uniform among the legal three-card plans of the best safety tier (every phase at least
  1 cm inside the table, else merely on it, else on it longest);
- :func:`illegal_plans`: any three distinct cards (the differential test's way to make
  the flight restrictions bite);
- :func:`easy_plans`: the ``easy`` bot vectorised (:class:`dogfight.bots.airplanes.EasyBot`):
  a sample of its own plans scored against a few plausible plans of every enemy.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from dogfight.batch import moves
from dogfight.batch.spec import Bools, Floats, Ints, Spec
from dogfight.batch.state import BatchState

SAFE_MARGIN = 1.0
"""As :data:`dogfight.bots.airplanes.SAFE_MARGIN`."""
TRIES = 32
"""Uniform draws per airplane before every plan is looked at."""


@dataclass(frozen=True)
class Sequences:
    """Every ordered triple of distinct usable cards of each maneuver deck (global card
    indexes), padded: ``rows[d, :count[d]]``."""

    rows: Ints
    """(decks, T, 3)"""
    count: Ints


@lru_cache(maxsize=8)
def _sequences(spec: Spec) -> Sequences:
    out: list[list[tuple[int, int, int]]] = []
    for d in range(len(spec.deck_ids)):
        start, size = int(spec.deck_start[d]), int(spec.deck_size[d])
        usable = [c for c in range(start, start + size) if spec.card_usable[c]]
        out.append(list(itertools.permutations(usable, 3)))
    width = max(len(o) for o in out)
    rows = np.zeros((len(out), width, 3), dtype=np.int64)
    for d, o in enumerate(out):
        rows[d, : len(o)] = o
    return Sequences(rows, np.array([len(o) for o in out], dtype=np.int64))


def sequences(spec: Spec) -> Sequences:
    return _sequences(spec)


def legal(spec: Spec, prev_symbol: Ints, prev_steep: Bools, rows: Ints) -> Bools:
    """Whether plans (..., 3) break no flight restriction after the previous maneuvers
    (broadcast against rows[..., 0])."""
    ok = ~moves.problem(spec, prev_symbol, prev_steep, rows[..., 0])
    ok &= ~moves.problem(
        spec, spec.card_symbol[rows[..., 0]], spec.card_steep[rows[..., 0]], rows[..., 1]
    )
    ok &= ~moves.problem(
        spec, spec.card_symbol[rows[..., 1]], spec.card_steep[rows[..., 1]], rows[..., 2]
    )
    out: Bools = ok
    return out


def flights(
    spec: Spec, x: Floats, y: Floats, h: Floats, rows: Ints
) -> tuple[Floats, Floats, Floats]:
    """Poses (..., 3) after each card of plans ``rows`` (..., 3) from poses (...)."""
    xs, ys, hs = [], [], []
    for k in range(3):
        x, y, h = moves.fly(spec, x, y, h, rows[..., k])
        xs.append(x)
        ys.append(y)
        hs.append(h)
    return np.stack(xs, axis=-1), np.stack(ys, axis=-1), np.stack(hs, axis=-1)


def tiers(spec: Spec, fx: Floats, fy: Floats) -> Ints:
    """Safety of plans from their poses (..., 3): 2 + phases when every phase stays
    ``SAFE_MARGIN`` inside, else the number of phases on the table before it leaves (so
    a larger value is always at least as good, as ``best_tier`` ranks them)."""
    safe = moves.inside(spec, fx, fy, SAFE_MARGIN).all(axis=-1)
    on = moves.inside(spec, fx, fy, -1e-9)
    kept = np.cumprod(on, axis=-1).sum(axis=-1)
    out: Ints = np.where(safe, 5, kept)
    return out


def _planned(state: BatchState) -> tuple[Ints, Ints]:
    """Tables and slots that need a plan: airplanes in play on tables not over."""
    need = state.alive & ~state.over[:, None] & (state.plan[..., 0] < 0)
    b, n = np.nonzero(need)
    return b, n


def random_plans(state: BatchState, rng: np.random.Generator) -> None:
    """Give every airplane that needs one the random bot's plan (in place)."""
    spec = state.spec
    seqs = sequences(spec)
    b, n = _planned(state)
    if len(b) == 0:
        return
    deck = spec.type_deck[state.type[b, n]]
    x, y, h = state.x[b, n], state.y[b, n], state.heading[b, n]
    ps, pt = state.prev_symbol[b, n], state.prev_steep[b, n]
    chosen = np.full((len(b), 3), -1, dtype=np.int64)
    todo = np.arange(len(b))
    for _ in range(4):
        if len(todo) == 0:
            break
        k = TRIES // 4
        pick = (rng.random((len(todo), k)) * seqs.count[deck[todo]][:, None]).astype(np.int64)
        rows = seqs.rows[deck[todo][:, None], pick]  # (m, k, 3)
        ok = legal(spec, ps[todo][:, None], pt[todo][:, None], rows)
        fx, fy, _ = flights(spec, x[todo][:, None], y[todo][:, None], h[todo][:, None], rows)
        ok &= moves.inside(spec, fx, fy, SAFE_MARGIN).all(axis=-1)
        found = ok.any(axis=1)
        first = ok.argmax(axis=1)
        chosen[todo[found]] = rows[found, first[found]]
        todo = todo[~found]
    if len(todo):
        chosen[todo] = _exhaustive(
            spec, seqs, deck[todo], x[todo], y[todo], h[todo], ps[todo], pt[todo], rng
        )
    state.plan[b, n] = chosen


def _exhaustive(
    spec: Spec,
    seqs: Sequences,
    deck: Ints,
    x: Floats,
    y: Floats,
    h: Floats,
    ps: Ints,
    pt: Bools,
    rng: np.random.Generator,
) -> Ints:
    """Uniform picks among every legal plan of the best safety tier (rows one by one)."""
    out = np.zeros((len(deck), 3), dtype=np.int64)
    for r in range(len(deck)):
        rows = seqs.rows[deck[r], : seqs.count[deck[r]]]
        ok = legal(spec, ps[r : r + 1], pt[r : r + 1], rows)
        rows = rows[ok]
        fx, fy, _ = flights(spec, x[r : r + 1], y[r : r + 1], h[r : r + 1], rows)
        tier = tiers(spec, fx, fy)
        pool = np.flatnonzero(tier == tier.max())
        out[r] = rows[pool[int(rng.integers(len(pool)))]]
    return out


def illegal_plans(state: BatchState, rng: np.random.Generator, share: float) -> None:
    """Replace a ``share`` of the plans just made by three distinct cards drawn with no
    regard for the flight restrictions (some of them break one)."""
    spec = state.spec
    seqs = sequences(spec)
    need = state.alive & ~state.over[:, None]
    b, n = np.nonzero(need & (rng.random(need.shape) < share))
    if len(b) == 0:
        return
    deck = spec.type_deck[state.type[b, n]]
    pick = (rng.random(len(b)) * seqs.count[deck]).astype(np.int64)
    state.plan[b, n] = seqs.rows[deck, pick]
