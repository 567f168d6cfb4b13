"""WW2 airplanes' plans in the batch (the ``ww2`` ruleset, docs/ww2.md): one maneuver card
and one speed marker per Earthling turn, i.e. before every phase.

The batch's deck of a WW2 model holds each card once per speed marker the model flies
(``spec.deck_key``: the card's arrow scaled by ``speed / card_speed``, as
``rules.ww2.scale``), so a plan is one of those cards, written in all three entries of
``state.plan`` (the phase reads its own) and cleared as the phase ends.

- :func:`random_plans`: the ``random`` bot (``bots.ww2_airplanes.random_ww2_plan``): the
  (card, speed) pairs its damage allows and that break no flight restriction (else those
  its damage allows, else the straight at every speed), uniform among those that leave
  the dot 2 cm inside the table, else among all of them;
- :func:`easy_plans`: the ``easy`` bot (``plan_ww2_airplane`` at the easy level: every
  pair scored): the expected damage its guns deal to each enemy where it stands now
  (centre and corners of its base in the arc, the ruler and half mark), a pull towards
  half a ruler behind the nearest enemy, facing it, leaving the table ruled out;
- :func:`any_cards`: any card at any speed (the differential test's illegal plans).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from dogfight.batch import moves, special
from dogfight.batch.aim import nearest_in_arc, odds, sample_points
from dogfight.batch.plan_kinds import KIND_TABLE, kind, needing
from dogfight.batch.spec import Bools, Floats, Ints, Spec
from dogfight.batch.state import BatchState, heading_trig

TRIES = 8
"""Uniform draws per airplane before :func:`random_plans` looks at every card."""
MARGIN = 2.0
"""As :data:`dogfight.bots.ww2_airplanes.MARGIN`: cm between a safe dot and the edge."""
OFF_TABLE = 1000.0
"""As :data:`dogfight.bots.threats.OFF_TABLE`: the cost of leaving the table."""


@dataclass(frozen=True)
class Choices:
    """Every card of each batch deck (global indexes, padded to W) with what the
    restrictions look at."""

    cards: Ints
    """(decks, W)"""
    real: Bools
    """(decks, W) a card, not padding (and in play under the switches)."""
    legal: Bools
    """(decks, kinds of previous maneuver, W): breaks no flight restriction."""
    feature: Ints
    """(decks, W) :func:`special.features` of the card alone."""
    straight: Bools
    """(decks, W) the deck's straight (at any speed): the last resort."""


@lru_cache(maxsize=8)
def choices(spec: Spec) -> Choices:
    decks = len(spec.deck_ids)
    width = int(spec.deck_size.max())
    cards = np.zeros((decks, width), dtype=np.int64)
    real = np.zeros((decks, width), dtype=np.bool_)
    for d in range(decks):
        start, size = int(spec.deck_start[d]), int(spec.deck_size[d])
        cards[d, :size] = np.arange(start, start + size)
        real[d, :size] = spec.card_usable[start : start + size]
    kinds = KIND_TABLE.max() + 1
    legal = np.zeros((decks, kinds, width), dtype=np.bool_)
    for k in range(kinds):
        # a previous maneuver of this kind (the first in the kind table: row symbol + 1)
        row, steep = (int(v) for v in np.argwhere(np.equal(KIND_TABLE, k))[0])
        legal[:, k] = ~moves.problem(spec, np.array(row - 1), np.array(bool(steep)), cards, True)
    straight = np.equal(cards, spec.card_straight[cards]) & real
    feature = special.features(spec, cards[..., None])
    return Choices(cards, real, legal & real[:, None], feature, straight)


def _pool(state: BatchState, b: Ints, n: Ints) -> tuple[Ints, Bools]:
    """Airplanes (b, n)'s cards (V, W) and which they may choose (``choices`` in
    ``bots.ww2_airplanes``): legal and allowed by their damage, else allowed, else the
    straight at every speed."""
    spec = state.spec
    ch = choices(spec)
    deck = spec.type_deck[state.type[b, n]]
    kinds = kind(spec, state.prev_symbol[b, n], state.prev_steep[b, n])
    forbid, need = special.needs(state, b, n)
    accepted = ch.real[deck]
    hurt = np.flatnonzero(forbid | need)  # most airplanes have no lasting damage
    if len(hurt):
        accepted[hurt] &= special.allowed(
            ch.feature[deck[hurt]], forbid[hurt, None], need[hurt, None]
        )
    legal = accepted & ch.legal[deck, kinds]
    pool = np.where(legal.any(axis=1, keepdims=True), legal, accepted)
    pool = np.where(pool.any(axis=1, keepdims=True), pool, ch.straight[deck])
    return ch.cards[deck], pool


def _ends(state: BatchState, b: Ints, n: Ints, cards: Ints) -> tuple[Floats, Floats, Floats]:
    """Where each card (V, W) puts airplanes (b, n)."""
    c, s = (t[b, n][:, None] for t in heading_trig(state))
    x, y, h = (a[b, n][:, None] for a in (state.x, state.y, state.heading))
    return moves.fly(state.spec, x, y, h, cards, (c, s))


def _dots(state: BatchState, b: Ints, n: Ints, cards: Ints) -> tuple[Floats, Floats]:
    """Where each card (V, W) puts the centre dots of airplanes (b, n)."""
    c, s = (t[b, n][:, None] for t in heading_trig(state))
    return moves.dots(state.spec, state.x[b, n][:, None], state.y[b, n][:, None], cards, (c, s))


def _safe(spec: Spec, x: Floats, y: Floats) -> Bools:
    """Dots the bots count as safe: ``MARGIN`` (2 cm) inside the table."""
    out: Bools = moves.inside(spec, x, y, MARGIN)
    return out


def random_plans(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """The random bot's (card, speed) for every WW2 airplane that needs one (in place)."""
    b, n = needing(state, mask)
    if len(b) == 0:
        return
    spec = state.spec
    cards, pool = _pool(state, b, n)
    # a few uniform draws first: the first one in the pool that is safe is uniform among
    # the safe ones of the pool (most airplanes are served so)
    rows = np.arange(len(b))
    size = spec.deck_size[spec.type_deck[state.type[b, n]]]
    draw = (rng.random((len(b), TRIES)) * size[:, None]).astype(np.int64)
    drawn = cards[rows[:, None], draw]
    x, y = _dots(state, b, n, drawn)
    ok = pool[rows[:, None], draw] & _safe(spec, x, y)
    found = ok.any(axis=1)
    chosen = drawn[rows, ok.argmax(axis=1)]
    rest = np.flatnonzero(~found)
    if len(rest):
        x, y = _dots(state, b[rest], n[rest], cards[rest])
        safe = pool[rest] & _safe(spec, x, y)
        pick = np.where(safe.any(axis=1, keepdims=True), safe, pool[rest])
        keys = np.where(pick, rng.random(pick.shape), -1.0)
        chosen[rest] = cards[rest, keys.argmax(axis=1)]
    state.plan[b, n] = chosen[:, None]


def any_cards(state: BatchState, b: Ints, n: Ints, rng: np.random.Generator) -> None:
    """Give airplanes (b, n) any card at any speed (``policies.illegal_plans``: some break
    a flight restriction or what the damage allows)."""
    spec = state.spec
    ch = choices(spec)
    deck = spec.type_deck[state.type[b, n]]
    keys = np.where(ch.real[deck], rng.random((len(b), ch.cards.shape[1])), -1.0)
    state.plan[b, n] = ch.cards[deck, keys.argmax(axis=1)][:, None]


FRONT, REAR = 1.0, 0.7
"""``_attack``'s weights of a front and a rear gun's expected damage."""
PULL, FACING = 0.04, 0.01
"""Per cm from the firing position behind the nearest enemy, per degree off its bearing."""
NOISE = 1e-3


def easy_plans(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """The easy bot's (card, speed) for every WW2 airplane that needs one (in place)."""
    b, n = needing(state, mask)
    if len(b) == 0:
        return
    spec = state.spec
    cards, pool = _pool(state, b, n)
    x, y, h = _ends(state, b, n, cards)
    score = np.where(_safe(spec, x, y), 0.0, -OFF_TABLE)
    # the enemies where they stand now (the bot gives an airplane one sample: its pose)
    enemy = state.alive[b] & (state.side[b] != state.side[b, n][:, None])  # (V, N)
    ex, ey, eh = state.x[b], state.y[b], state.heading[b]
    weapons = spec.type_weapon_deck[state.type[b, n]]  # (V, 2)
    reach2 = (spec.ruler + spec.base_radius + 1e-6) ** 2
    half = spec.arc_half.tolist()
    # each enemy slot's base: its centre and corners (V, 5)
    points = [sample_points(spec, ex[:, m], ey[:, m], eh[:, m]) for m in range(state.slots)]
    for w, weight in ((0, FRONT), (1, REAR)):
        has = weapons[:, w] >= 0
        if not has.any():
            continue
        worth, _ = odds(spec, np.maximum(weapons[:, w], 0)[:, None], state.resistance[b])
        for m in range(state.slots):
            on = enemy[:, m] & has
            if not on.any():
                continue
            # only the cards it may choose whose ends are within a ruler of the enemy's
            # base can reach a point of it
            dx, dy = ex[:, m][:, None] - x, ey[:, m][:, None] - y
            vv, ww = np.nonzero(pool & on[:, None] & (dx * dx + dy * dy <= reach2))
            if len(vv) == 0:
                continue
            px, py = points[m]
            axis = h[vv, ww] + spec.arc_centre[w]
            d2 = nearest_in_arc(spec, x[vv, ww], y[vv, ww], axis, half[w], px[vv], py[vv])
            count = np.where(d2 <= spec.half**2, 2.0, 1.0) * (d2 <= spec.ruler**2)
            score[vv, ww] += count * worth[vv, m] * weight
    # a firing position: half a ruler behind the nearest enemy, facing it
    mx, my = state.x[b, n][:, None], state.y[b, n][:, None]
    gap = np.where(enemy, np.hypot(ex - mx, ey - my), np.inf)
    near = gap.argmin(axis=1)
    has_enemy = np.isfinite(gap.min(axis=1))
    rows = np.arange(len(b))
    nx, ny, nh = ex[rows, near], ey[rows, near], np.radians(state.heading[b][rows, near])
    ax = (nx - 0.5 * spec.ruler * np.cos(nh))[:, None]
    ay = (ny - 0.5 * spec.ruler * np.sin(nh))[:, None]
    bearing = np.degrees(np.arctan2(ny[:, None] - y, nx[:, None] - x))
    off = np.abs((bearing - h + 180.0) % 360.0 - 180.0)
    pull = PULL * np.hypot(x - ax, y - ay) + FACING * off
    score -= np.where(has_enemy[:, None], pull, 0.0)
    score += rng.uniform(0.0, NOISE, score.shape)
    score = np.where(pool, score, -np.inf)
    state.plan[b, n] = cards[rows, score.argmax(axis=1)][:, None]
