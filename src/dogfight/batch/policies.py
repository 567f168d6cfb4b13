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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from dogfight.batch import moves, special, tripod_plans, ww2
from dogfight.batch.plan_kinds import KINDS, kind, needing
from dogfight.batch.spec import IMMELMANN, LEFT, RIGHT, STRAIGHT, SYMBOLS, Bools, Floats, Ints, Spec
from dogfight.batch.state import BatchState, heading_trig

SAFE_MARGIN = 1.0
"""As :data:`dogfight.bots.threats.SAFE_MARGIN`."""
TRIES = 32
"""Uniform draws per airplane before every plan is looked at."""


@dataclass(frozen=True)
class Sequences:
    """Every ordered triple of distinct usable cards of each maneuver deck (global card
    indexes), padded: ``rows[d, :count[d]]``, with where each leaves an airplane that
    starts at the origin facing +x (the moves are rigid, so any start is a rotation and
    a translation of these), and which are legal after each kind of previous maneuver."""

    rows: Ints
    """(decks, T, 3)"""
    count: Ints
    forward: Floats
    """(decks, T, 3) the centre dot after each card, along the start heading."""
    left: Floats
    turn: Floats
    legal: Bools
    """(decks, kinds of previous maneuver, T), see :func:`kind`."""
    feature: Ints
    """(decks, T) what the damaged-airplane restrictions look at (:func:`special.features`)."""

    forward_by_phase: tuple[Floats, ...] = ()
    """``forward`` of each phase's card, raveled: flat index ``deck * T + triple``."""
    left_by_phase: tuple[Floats, ...] = ()
    legal_flat: Bools = field(default_factory=lambda: np.zeros(0, dtype=np.bool_))
    """``legal`` raveled: flat index ``(deck * kinds + kind) * T + triple``."""

    @property
    def width(self) -> int:
        """T: the padded number of triples of a deck."""
        return int(self.rows.shape[1])


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
    zero = np.zeros(rows.shape[:2])
    fx, fy, fh = flights(spec, zero, zero, zero, rows)
    other = next(i for i in range(len(SYMBOLS)) if i not in (STRAIGHT, IMMELMANN, LEFT, RIGHT))
    kinds = [*KINDS, (other, True), (other, False), (LEFT, False)]
    ok = np.stack(
        [legal(spec, np.array(sym), np.array(steep), rows) for sym, steep in kinds], axis=1
    )
    count = np.array([len(o) for o in out], dtype=np.int64)
    ok &= np.arange(width)[None, None, :] < count[:, None, None]
    return Sequences(
        rows,
        count,
        fx,
        fy,
        fh,
        ok,
        special.features(spec, rows),
        tuple(np.ascontiguousarray(fx[..., k]).reshape(-1) for k in range(3)),
        tuple(np.ascontiguousarray(fy[..., k]).reshape(-1) for k in range(3)),
        ok.ravel(),
    )


def sequences(spec: Spec) -> Sequences:
    return _sequences(spec)


def legal(spec: Spec, prev_symbol: Ints, prev_steep: Bools, rows: Ints) -> Bools:
    """Whether plans (..., 3) break no flight restriction after the previous maneuvers
    (broadcast against rows[..., 0]; the first card opens the turn)."""
    ok = ~moves.problem(spec, prev_symbol, prev_steep, rows[..., 0], True)
    for k in (1, 2):
        before = rows[..., k - 1]
        ok &= ~moves.problem(spec, spec.card_symbol[before], spec.card_steep[before], rows[..., k])
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


def placed(
    seqs: Sequences,
    deck: Ints,
    pick: Ints,
    x: Floats,
    y: Floats,
    h: Floats,
    cos_sin: tuple[Floats, Floats] | None = None,
) -> tuple[Floats, Floats, Floats]:
    """Poses (..., 3) after each card of triples ``pick`` (...) of ``deck`` (...) from
    poses (...) (broadcast), by the precomputed rigid moves (``cos_sin``: of the
    headings, when known)."""
    if cos_sin is None:
        rad = np.radians(h)
        cos_sin = np.cos(rad), np.sin(rad)
    c, s = cos_sin[0][..., None], cos_sin[1][..., None]
    f = seqs.forward[deck, pick]
    lft = seqs.left[deck, pick]
    return (
        x[..., None] + f * c - lft * s,
        y[..., None] + f * s + lft * c,
        h[..., None] + seqs.turn[deck, pick],
    )


def safe_flights(
    spec: Spec,
    seqs: Sequences,
    deck: Ints,
    pick: Ints,
    x: Floats,
    y: Floats,
    cos: Floats,
    sin: Floats,
) -> Bools:
    """Whether triples ``pick`` (K, V) of ``deck`` (V,) keep airplanes at (x, y) (V,)
    with headings of cosines and sines (V,) ``SAFE_MARGIN`` inside the table after
    every card (:func:`placed` then :func:`moves.inside`, over rows of V airplanes)."""
    index = deck * seqs.width + pick
    ok = np.ones(pick.shape, dtype=np.bool_)
    for phase in range(3):
        f = seqs.forward_by_phase[phase].take(index)
        lft = seqs.left_by_phase[phase].take(index)
        ok &= moves.inside(spec, x + f * cos - lft * sin, y + f * sin + lft * cos, SAFE_MARGIN)
    return ok


def random_plans(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """Give every airplane that needs one the random bot's plan (in place): uniform
    among the legal plans of the best safety tier. A few uniform draws find a plan of
    the safe tier for most airplanes (the first safe one of independent uniform draws
    is uniform among the safe plans); the others take :func:`best_tier_draws`' pick.
    WW2 airplanes plan one card and speed per phase (:mod:`dogfight.batch.ww2`).
    Tripods plan and choose their tokens as :func:`tripod_plans.random_turn` does."""
    if state.tripod.any():
        tripod_plans.random_turn(state, rng, mask)
    spec = state.spec
    if spec.one_card:
        ww2.random_plans(state, rng, mask)
        return
    seqs = sequences(spec)
    b, n = needing(state, mask)
    if len(b) == 0:
        return
    deck = spec.type_deck[state.type[b, n]]
    x, y, h = state.x[b, n], state.y[b, n], state.heading[b, n]
    kinds = kind(spec, state.prev_symbol[b, n], state.prev_steep[b, n])
    forbid, need = special.needs(state, b, n)
    trig = heading_trig(state)
    cos, sin = trig[0][b, n], trig[1][b, n]
    chosen = np.zeros(len(b), dtype=np.int64)
    todo = np.arange(len(b))
    width, kind_count = seqs.width, seqs.legal.shape[1]
    legal_base = (deck * kind_count + kinds) * width
    for _ in range(4):
        if len(todo) == 0:
            break
        # the draws of a round laid out (K, V): K draws of V airplanes
        d = deck[todo]
        draws = np.ascontiguousarray(rng.random((len(todo), TRIES // 4)).T)
        pick = (draws * seqs.count.take(d)).astype(np.int64)
        ok = seqs.legal_flat.take(legal_base[todo] + pick)
        if spec.specials is not None:
            ok &= special.allowed(
                seqs.feature.reshape(-1).take(d * width + pick), forbid[todo], need[todo]
            )
        ok &= safe_flights(spec, seqs, d, pick, x[todo], y[todo], cos[todo], sin[todo])
        found = ok.any(axis=0)
        at = np.arange(len(todo)) + _first(ok) * len(todo)
        chosen[todo[found]] = pick.reshape(-1).take(at[found])
        todo = todo[~found]
    for start in range(0, len(todo), 512):
        part = todo[start : start + 512]
        chosen[part] = best_tier_draws(
            spec,
            seqs,
            deck[part],
            kinds[part],
            x[part],
            y[part],
            h[part],
            rng,
            1,
            forbid[part],
            need[part],
        )[:, 0]
    state.plan[b, n] = seqs.rows[deck, chosen]


def best_tier_draws(
    spec: Spec,
    seqs: Sequences,
    deck: Ints,
    kinds: Ints,
    x: Floats,
    y: Floats,
    h: Floats,
    rng: np.random.Generator,
    count: int = 1,
    forbid: Ints | None = None,
    need: Ints | None = None,
) -> Ints:
    """(V, count) picks (triple indexes) per airplane, each uniform and independent
    (drawn with replacement) among every legal plan of the best safety tier that the
    airplane's damage allows (``forbid``, ``need``: :func:`special.needs`); when the
    damage forbids every legal plan, among the plans it allows (the engine flies them
    as illegal maneuvers). The one sampler of the best tier: the random bot's picks
    when its few draws find no safe plan (``count`` 1), the easy bot's own and its
    enemies' plans, the Martian bot's plausible plans of an airplane
    (:func:`best_tier_plans`).

    A plan's tier is 5 when every phase stays ``SAFE_MARGIN`` inside the table, else
    the number of phases on the table before it leaves (a larger value is always at
    least as good, as ``best_tier`` ranks them). The first two phases are measured once
    per airplane, first card and pair of cards (:func:`prefixes`); they bound the best
    tier from above (:func:`_bound`). Rounds of uniform draws among the legal plans
    (:data:`DRAW_ROUNDS`) keep those of the bound's tier that the damage allows: once
    one is found the bound is the best tier, and the kept draws are independent and
    uniform among its plans. An airplane left short of ``count`` after the rounds has
    every triple measured and its missing picks drawn among its best tier (which is
    the bound's tier when a draw was kept). The airplanes are taken by deck,
    :data:`TIER_CHUNK` at a time."""
    if forbid is None or need is None:
        forbid = need = np.zeros(len(deck), dtype=np.int64)
    out = np.zeros((len(deck), count), dtype=np.int64)
    for d, rows, start, pairs in _chunks(spec, deck, x, y, h):
        ask = (d, kinds[rows], forbid[rows], need[rows])
        picks = np.zeros((len(rows), count), dtype=np.int64)
        have = _certified(spec, seqs, ask, (start, pairs), picks, rng)
        short = np.flatnonzero(have < count)
        if len(short):
            best = _best_of(
                spec,
                seqs,
                (d, ask[1][short], ask[2][short], ask[3][short]),
                tuple(a[short] for a in start),  # type: ignore[arg-type]
                tuple(a[short] for a in pairs),  # type: ignore[arg-type]
            )
            fresh = _uniform_among(best, count, rng)
            missing = np.arange(count)[None, :] >= have[short, None]
            picks[short] = np.where(missing, fresh, picks[short])
        out[rows] = picks
    return out


def best_tier_plans(
    state: BatchState, b: Ints, n: Ints, count: int, rng: np.random.Generator
) -> Ints:
    """(A, count) plans (triple indexes) of airplanes (b, n), each uniform among its
    legal plans of the best safety tier that its damage allows (with replacement:
    :func:`best_tier_draws`): the easy bot's own plans and its enemies' plausible plans,
    the Martian bot's plausible plans of the nearest airplane."""
    spec = state.spec
    flat = b * state.slots + n
    deck = spec.type_deck.take(state.type.reshape(-1).take(flat))
    kinds = kind(
        spec, state.prev_symbol.reshape(-1).take(flat), state.prev_steep.reshape(-1).take(flat)
    )
    forbid, need = special.needs(state, b, n)
    x, y, h = (a.reshape(-1).take(flat) for a in (state.x, state.y, state.heading))
    return best_tier_draws(spec, sequences(spec), deck, kinds, x, y, h, rng, count, forbid, need)


def _uniform_among(ok: Bools, count: int, rng: np.random.Generator) -> Ints:
    """(A, count) column indexes, each uniform among the columns where ``ok`` (A, T)
    holds in its row (with replacement; every row holds somewhere)."""
    _, column = np.nonzero(ok)  # row after row
    size = ok.sum(axis=1)
    first = np.cumsum(size) - size
    at = (rng.random((len(ok), count)) * size[:, None]).astype(np.int64)
    out: Ints = column[first[:, None] + at]
    return out


def _chunks(
    spec: Spec, deck: Ints, x: Floats, y: Floats, h: Floats
) -> Iterator[tuple[int, Ints, Start, PairTiers]]:
    """The airplanes by deck, :data:`TIER_CHUNK` at a time: the deck, their rows, their
    starts and what the first two phases of every pair of first cards do to them."""
    for d in np.unique(deck).tolist():
        rows = np.flatnonzero(deck == d)
        for first in range(0, len(rows), TIER_CHUNK):
            r = rows[first : first + TIER_CHUNK]
            start = _start(x[r], y[r], h[r])
            yield d, r, start, _pair_tiers(spec, prefixes(spec, d), start)


def _start(x: Floats, y: Floats, h: Floats) -> Start:
    """The :data:`Start` of airplanes at poses (A,)."""
    rad = np.radians(h)[:, None]
    return x[:, None], y[:, None], np.cos(rad), np.sin(rad)


def _best_of(
    spec: Spec,
    seqs: Sequences,
    ask: tuple[int, Ints, Ints, Ints],
    start: Start,
    pairs: PairTiers,
) -> Bools:
    """(A, T) which triples of deck ``d`` are of each airplane's best tier (legal,
    allowed by the damage, safest; else allowed; else any), every triple measured
    (``ask``: as :func:`_certified`'s)."""
    d, kinds, forbid, need = ask
    tier = _tiers(spec, seqs, d, start, pairs)
    t = tier.shape[1]
    may = special.allowed(seqs.feature[d, :t], forbid[:, None], need[:, None])
    tier = np.where(seqs.legal[d, kinds, :t] & may, tier, np.where(may, -1, -2))
    out: Bools = tier == tier.max(axis=1, keepdims=True)
    return out


TIER_CHUNK = 256
"""Airplanes whose every plan is measured at once (bounds the (airplanes, plans) arrays)."""
DRAW_ROUNDS = ((1, 16), (2, 64), (8, 256))
"""The rounds of :func:`best_tier_draws`' uniform draws per airplane, ``(a, b)``: ``a``
draws per pick asked for, plus ``b`` (none of more draws than the deck has triples:
measuring every triple then costs less). Tuned on the batched easy duels and *First
Contact* with random plans and with the bots (docs/batch.md, "Benchmark")."""

Start = tuple[Floats, Floats, Floats, Floats]
"""Airplanes' (A, 1) x, y, cosine and sine of the heading."""
PairTiers = tuple[Bools, Bools, Bools]
"""(A, P) per pair of first cards: the first phase on the table, both, both safe."""


@dataclass(frozen=True)
class Prefixes:
    """A deck's triples by their first card and their first two cards: where each
    first card and each pair leaves an airplane that starts at the origin facing +x
    (the first two phases of the triples, measured once for all the triples sharing
    them)."""

    first: Ints
    """(T,) each triple's first card, an index into ``forward1``."""
    pair: Ints
    """(T,) each triple's first two cards, an index into ``forward2``."""
    pair_first: Ints
    """(P,) each pair's first card, an index into ``forward1``."""
    pair_start: Ints
    """(P,) each pair's first triple (the triples of a pair are consecutive)."""
    forward1: Floats
    left1: Floats
    forward2: Floats
    left2: Floats


@lru_cache(maxsize=16)
def prefixes(spec: Spec, d: int) -> Prefixes:
    """The first cards and pairs of deck ``d``'s triples (``sequences(spec).rows``)."""
    seqs = sequences(spec)
    t = int(seqs.count[d])
    rows = seqs.rows[d, :t]
    _, first, first_inverse = np.unique(rows[:, 0], return_index=True, return_inverse=True)
    _, pair, pair_inverse = np.unique(rows[:, :2], axis=0, return_index=True, return_inverse=True)
    if (np.diff(pair_inverse.reshape(-1)) < 0).any():
        raise ValueError("the triples of a pair are not consecutive")
    return Prefixes(
        first_inverse.reshape(-1),
        pair_inverse.reshape(-1),
        first_inverse.reshape(-1)[pair],
        pair,
        seqs.forward[d, first, 0],
        seqs.left[d, first, 0],
        seqs.forward[d, pair, 1],
        seqs.left[d, pair, 1],
    )


def _pair_tiers(spec: Spec, pre: Prefixes, start: Start) -> PairTiers:
    """What the first two phases of every pair of first cards do (:data:`PairTiers`)."""
    on0, safe0 = _kept(spec, start, pre.forward1, pre.left1)
    on1, safe1 = _kept(spec, start, pre.forward2, pre.left2)
    kept0 = on0.take(pre.pair_first, axis=1)
    return kept0, kept0 & on1, safe0.take(pre.pair_first, axis=1) & safe1


def _bound(pairs: PairTiers, ok: Bools) -> Ints:
    """(A,) no legal triple the damage allows has a higher tier, ``ok`` (A, P) saying
    which pairs begin one: 5 with such a pair safe for both phases, else 3 with one on
    the table for both, else 1 with one whose first card keeps it on, else 0 (-1: no
    such triple)."""
    kept0, two, safe01 = (a & ok for a in pairs)
    # each holds only where the one before it does: the levels add up
    out: Ints = np.zeros(len(ok), dtype=np.int64) - 1
    for level, holds in ((1, ok), (1, kept0), (2, two), (2, safe01)):
        out += level * holds.any(axis=1)
    return out


@lru_cache(maxsize=4096)
def _pairs_allowed(spec: Spec, d: int, key: int) -> Bools:
    """(P,) the pairs of deck ``d`` that begin a legal triple the damage allows, after a
    maneuver of kind ``key // 1024``, the damage forbidding ``key // 32 % 32`` and needing
    ``key % 32``."""
    seqs = sequences(spec)
    t = int(seqs.count[d])
    ok = seqs.legal[d, key // 1024, :t] & special.allowed(
        seqs.feature[d, :t], np.array(key // 32 % 32), np.array(key % 32)
    )
    out: Bools = np.logical_or.reduceat(ok, prefixes(spec, d).pair_start)
    return out


def _allowed_pairs(spec: Spec, ask: tuple[int, Ints, Ints, Ints]) -> Bools:
    """(A, P) :func:`_pairs_allowed` of each airplane (``ask``: as :func:`_certified`'s)."""
    d, kinds, forbid, need = ask
    key = kinds * 1024 + forbid * 32 + need
    if (key == key[0]).all():  # one kind of airplane (most calls)
        one: Bools = np.broadcast_to(
            _pairs_allowed(spec, d, int(key[0])), (len(key), len(prefixes(spec, d).pair_start))
        )
        return one
    combos, inverse = np.unique(key, return_inverse=True)
    allowed = np.stack([_pairs_allowed(spec, d, k) for k in combos.tolist()])
    out: Bools = allowed[inverse.reshape(-1)]
    return out


Measured = tuple[Start, PairTiers, Ints]
"""Airplanes' starts, their pairs' tiers and the tier those bound (:func:`_bound`)."""


def _certified(
    spec: Spec,
    seqs: Sequences,
    ask: tuple[int, Ints, Ints, Ints],
    measured: tuple[Start, PairTiers],
    picks: Ints,
    rng: np.random.Generator,
) -> Ints:
    """Fill ``picks`` (A, count) of the airplanes of ``ask`` and ``measured`` from the
    left with the rounds of :data:`DRAW_ROUNDS` uniform draws among their legal triples
    of deck ``d`` that are of their :func:`_bound` tier and allowed by the damage (each
    such draw is uniform among the plans of the best tier, independently), and return
    how many each got (A,) (``ask``: the deck, and per airplane the kind of its
    previous maneuver, what the damage forbids and needs)."""
    count = picks.shape[1]
    have = np.zeros(len(picks), dtype=np.int64)
    triples = int(seqs.count[ask[0]])
    rounds = [a * count + b for a, b in DRAW_ROUNDS if a * count + b <= triples]
    if not rounds:
        return have
    bound = _bound(measured[1], _allowed_pairs(spec, ask))
    todo = np.flatnonzero(bound >= 0)
    for draws in rounds:
        if len(todo) == 0:
            break
        hit, pick = _draw_bound(spec, seqs, ask, (*measured, bound), todo, draws, rng)
        # the hits in the order drawn, after the picks each airplane already has
        slot = have[todo, None] + np.cumsum(hit, axis=1) - 1
        r, c = np.nonzero(hit & (slot < count))
        picks[todo[r], slot[r, c]] = pick[r, c]
        have[todo] = np.minimum(count, slot[:, -1] + 1)
        todo = todo[have[todo] < count]
    return have


def _draw_bound(
    spec: Spec,
    seqs: Sequences,
    ask: tuple[int, Ints, Ints, Ints],
    measured: Measured,
    who: Ints,
    draws: int,
    rng: np.random.Generator,
) -> tuple[Bools, Ints]:
    """One round of :func:`_certified`'s draws for airplanes ``who`` (W,): (W, draws)
    uniform legal triples, and whether each is of the bound's tier and allowed."""
    d, kinds, forbid, need = ask
    start, pairs, bound = measured
    pre = prefixes(spec, d)
    lists, sizes = _legal_lists(spec)
    key = d * sizes.shape[1] + kinds[who]
    at = (rng.random((len(who), draws)) * sizes.reshape(-1).take(key)[:, None]).astype(np.int64)
    pick = lists.take((key * (len(lists) // sizes.size))[:, None] + at)
    where = who[:, None] * len(pre.pair_start) + pre.pair.take(pick)
    kept0, two, safe01 = (a.reshape(-1).take(where) for a in pairs)
    flat = d * seqs.width + pick
    mine = tuple(a[who] for a in start)
    f, lft = seqs.forward_by_phase[2].take(flat), seqs.left_by_phase[2].take(flat)
    on2, safe2 = _kept(spec, mine, f, lft)  # type: ignore[arg-type]
    tier = np.where(safe01 & safe2, 5, kept0.astype(np.int64) + two + (two & on2))
    ok = tier == bound[who][:, None]
    hurt = (forbid[who] | need[who]) > 0
    if hurt.any():
        feature = seqs.feature.reshape(-1).take(flat[hurt])
        ok[hurt] &= special.allowed(feature, forbid[who][hurt, None], need[who][hurt, None])
    return ok, pick


@lru_cache(maxsize=8)
def _legal_lists(spec: Spec) -> tuple[Ints, Ints]:
    """Every legal triple of each deck after each kind of previous maneuver (triple
    indexes, padded, flat: ``lists[(deck * kinds + kind) * width + i]`` for i below
    ``count[deck, kind]``), and those counts (decks, kinds)."""
    seqs = sequences(spec)
    count = seqs.legal.sum(axis=2)
    lists = np.zeros((*count.shape, max(1, int(count.max()))), dtype=np.int64)
    for d, k in np.ndindex(*count.shape):
        found = np.flatnonzero(seqs.legal[d, k])
        lists[d, k, : len(found)] = found
    return lists.reshape(-1), count


def _tiers(spec: Spec, seqs: Sequences, d: int, start: Start, pairs: PairTiers) -> Ints:
    """(A, T) the safety tier of every triple of deck ``d`` from starts (A,) whose pairs'
    tiers are ``pairs``."""
    pre = prefixes(spec, d)
    t = int(seqs.count[d])
    kept0, two, safe01 = pairs
    out: Ints = (kept0.astype(np.int64) + two).take(pre.pair, axis=1)
    live = np.flatnonzero(two.any(axis=1))  # elsewhere the pairs settle every tier
    if len(live) == 0:
        return out
    if len(live) < len(kept0):
        start = tuple(a[live] for a in start)  # type: ignore[assignment]
        two, safe01 = two[live], safe01[live]
    on2, safe2 = _kept(spec, start, seqs.forward[d, :t, 2], seqs.left[d, :t, 2])
    pair = pre.pair
    # (take along an axis: C-ordered results, which the products below run over fastest)
    both = safe01.take(pair, axis=1) & safe2
    out[live] = np.where(both, 5, out[live] + (two.take(pair, axis=1) & on2))
    return out


def _kept(spec: Spec, start: Start, f: Floats, lft: Floats) -> tuple[Bools, Bools]:
    """Whether the dots that moves ``f`` forward and ``lft`` left of starts (x, y, cos,
    sin) put are on the table, and ``SAFE_MARGIN`` inside it (as :func:`placed`)."""
    x, y, c, s = start
    fx, fy = x + f * c - lft * s, y + f * s + lft * c
    return moves.inside(spec, fx, fy, -1e-9), moves.inside(spec, fx, fy, SAFE_MARGIN)


ROUNDS = (2, 6, 12, 20)
"""The 40 draws of :func:`dogfight.bots.random_plans.random_plan`, in rounds (most
airplanes are served by the first)."""


def playout_plans(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """The random playouts' plans (:func:`dogfight.bots.random_plans.random_plan`, used
    by ``dogfight demo`` and the referee's benchmark): up to 40 uniform draws of three
    distinct cards; the first legal one that keeps the dot 1 cm inside the table, else
    the first legal one, else the first three straights. WW2 airplanes: the random
    bot's card and speed (:func:`dogfight.batch.ww2.random_plans`)."""
    spec = state.spec
    if spec.one_card:
        random_plans(state, rng, mask)
        return
    seqs = sequences(spec)
    b, n = needing(state, mask)
    if len(b) == 0:
        return
    # the airplanes' values by flat index; the draws of a round are laid out (K, V),
    # K draws of V airplanes, so that numpy runs over the airplanes
    flat = b * state.slots + n
    deck = spec.type_deck.take(state.type.reshape(-1).take(flat))
    x, y = state.x.reshape(-1).take(flat), state.y.reshape(-1).take(flat)
    h = state.heading.reshape(-1).take(flat)
    kinds = kind(
        spec, state.prev_symbol.reshape(-1).take(flat), state.prev_steep.reshape(-1).take(flat)
    )
    forbid, need = special.needs(state, b, n)
    trig = heading_trig(state)
    cos, sin = trig[0].reshape(-1).take(flat), trig[1].reshape(-1).take(flat)
    chosen = np.full(len(b), -1, dtype=np.int64)
    fallback = np.full(len(b), -1, dtype=np.int64)
    todo = np.arange(len(b))
    width, kind_count = seqs.width, seqs.legal.shape[1]
    legal_base = (deck * kind_count + kinds) * width
    for tries in ROUNDS:
        if len(todo) == 0:
            break
        d = deck[todo]
        draws = np.ascontiguousarray(rng.random((len(todo), tries)).T)
        pick = (draws * seqs.count.take(d)).astype(np.int64)  # (K, V)
        ok = seqs.legal_flat.take(legal_base[todo] + pick)
        if spec.specials is not None:
            ok &= special.allowed(
                seqs.feature.reshape(-1).take(d * width + pick), forbid[todo], need[todo]
            )
        safe = ok & safe_flights(spec, seqs, d, pick, x[todo], y[todo], cos[todo], sin[todo])
        # the first legal draw, the first safe one: flat indexes into pick
        at = np.arange(len(todo)) + _first(ok) * len(todo)
        first_legal = ok.any(axis=0) & (fallback[todo] < 0)
        fallback[todo[first_legal]] = pick.reshape(-1).take(at[first_legal])
        at = np.arange(len(todo)) + _first(safe) * len(todo)
        found = safe.any(axis=0)
        chosen[todo[found]] = pick.reshape(-1).take(at[found])
        todo = todo[~found]
    chosen[todo] = fallback[todo]
    rows = seqs.rows[deck, np.maximum(chosen, 0)]
    stuck = np.flatnonzero(chosen < 0)
    if len(stuck) and (forbid[stuck].any() or need[stuck].any()):
        hurt = stuck[(forbid[stuck] > 0) | (need[stuck] > 0)]
        rows[hurt] = seqs.rows[
            deck[hurt],
            best_tier_draws(
                spec,
                seqs,
                deck[hurt],
                kinds[hurt],
                x[hurt],
                y[hurt],
                h[hurt],
                rng,
                1,
                forbid[hurt],
                need[hurt],
            )[:, 0],
        ]
        stuck = stuck[(forbid[stuck] == 0) & (need[stuck] == 0)]
    for r in stuck.tolist():
        k = int(deck[r])
        cards: range = range(int(spec.deck_start[k]), int(spec.deck_start[k] + spec.deck_size[k]))
        usable = [c for c in cards if spec.card_usable[c]]
        straight = [c for c in usable if spec.card_symbol[c] == STRAIGHT][:3]
        rows[r] = np.array((straight + [c for c in usable if c not in straight])[:3])
    state.plan.reshape(-1, 3)[flat] = rows


def _first(ok: Bools) -> Ints:
    """(V,) the first row of ``ok`` (K, V) that holds in each column, 0 for none (as
    ``argmax`` along the rows, which numpy runs one column at a time)."""
    if ok.shape[0] == 2:
        out: Ints = (ok[1] & ~ok[0]).astype(np.int64)
        return out
    out = np.zeros(ok.shape[1], dtype=np.int64)
    for k in range(ok.shape[0] - 1, 0, -1):
        out[ok[k]] = k
    out[ok[0]] = 0
    return out


def illegal_plans(state: BatchState, rng: np.random.Generator, share: float) -> None:
    """Replace a ``share`` of the plans just made by three distinct cards drawn with no
    regard for the flight restrictions (some of them break one)."""
    spec = state.spec
    need = state.alive & ~state.over[:, None] & ~state.tripod
    b, n = np.nonzero(need & (rng.random(need.shape) < share))
    if len(b) == 0:
        return
    if spec.one_card:  # WW2: any card at any speed
        ww2.any_cards(state, b, n, rng)
        return
    seqs = sequences(spec)
    deck = spec.type_deck[state.type[b, n]]
    pick = (rng.random(len(b)) * seqs.count[deck]).astype(np.int64)
    state.plan[b, n] = seqs.rows[deck, pick]


Policy = Callable[[BatchState, np.random.Generator, Bools | None], None]
POLICIES: dict[str, Policy] = {"random": random_plans}
"""Batch policies by the name of the bot they play (``easy`` is added by
:mod:`dogfight.batch.easy`, which builds on this module)."""
