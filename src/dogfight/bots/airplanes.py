"""Computer players that treat each turn as simultaneous.

Every airplane of the seat scores each of its possible plans (all legal three-card
sequences, or a sample of them for the easy level) against a weighted set of plausible
plans of every enemy, phase by phase: the expected damage it deals (its arcs, the ruler
and half mark on whole bases, short range two cards, the aim bonus, jams, tripod armour)
less the expected damage it takes (guns, heat-rays), the rockets it can land, where it
stands at the end of the turn, and a prohibitive cost for leaving the table. A plan that
takes the airplane off the table at any phase (with a margin) is never chosen while one
that stays exists.

- ``random``: uniform legal plans, preferring those that stay on the table;
- ``easy``: a sample of its own plans against a few uniform enemy plans;
- ``hard``: every plan against a mixture of uniform enemy plans and the enemy's own best
  replies to a uniform guess of ours (one level of "what would he do");
- ``martian``: a tripod player for two-player scenarios: walks to the objectives,
  recharges or destroys them as the scenario asks, leaves by the edge it must leave by,
  fires the heat-ray from the projector facing the nearest airplane.

Bots see only their seat's observation (rebuilt with :mod:`dogfight.bots.view`) and the
rules; every random choice comes from the generator they are given.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np

from dogfight.bots.base import Observation, register
from dogfight.bots.invasion import aim_drops, nearest_enemy
from dogfight.bots.missions import mission_bonus
from dogfight.bots.view import (
    Bools,
    Flights,
    Floats,
    Ints,
    StatusTracker,
    advance,
    airplane_sequences,
    card_table,
    fly,
    guess_scenario,
    inside,
    legal_sequences,
    rebuild,
    status_allows,
)
from dogfight.catalog.models import (
    Explosion,
    ManeuverCard,
    ManeuverDeck,
    Symbol,
    TripodSymbol,
)
from dogfight.geometry.hexbase import Side
from dogfight.geometry.pose import Pose
from dogfight.rules.clocks import ONE_PHASE
from dogfight.rules.context import Rules
from dogfight.rules.plans import Action, Flown, Plan, plan_problems
from dogfight.rules.state import GameState, Vehicle

Projector = Literal["front", "front-left", "rear-left", "rear", "rear-right", "front-right"]

SAFE_MARGIN = 1.0
"""cm between a centre dot and the table's edge for a plan to count as safely on it."""
OFF_TABLE = 1000.0
"""The cost of a plan that leaves the table (only chosen when every plan does)."""


# --- expected damage ---------------------------------------------------------------------


@dataclass(frozen=True)
class CardOdds:
    """What one card drawn from a damage deck is worth to a given target."""

    points: float
    """Expected damage points (explosions as the ruleset scores them)."""
    nonzero: float
    """Chance the card has a damage value (the aim bonus adds 1 to those)."""
    zero: float
    """Chance of a plain 0 (a short-range heat-ray then draws a second card)."""
    energy: float
    """Expected Energy a protected tripod loses to it."""


_ODDS: dict[tuple[int, bool, str, int, int], tuple[object, CardOdds]] = {}


def _odds(rules: Rules, letter: str, resistance: int, rating: int) -> CardOdds:
    deck = rules.catalog.damage_decks[letter]
    half = rules.switches.explosion is Explosion.HALF_RESISTANCE
    key = (id(deck), half, letter, resistance, rating)
    hit = _ODDS.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    total = points = nonzero = zero = energy = 0.0
    for card in deck.cards:
        total += card.count
        if card.explosion:
            points += card.count * (math.ceil(resistance / 2) if half else resistance)
            energy += card.count * rating
        else:
            points += card.count * card.value
            nonzero += card.count * (card.value > 0)
            zero += card.count * (card.value == 0)
            energy += card.count * card.energy
    out = CardOdds(points / total, nonzero / total, zero / total, energy / total)
    _ODDS[key] = (deck, out)
    return out


def odds(rules: Rules, letter: str, target: Vehicle) -> CardOdds:
    rating = target.tripod.rating if target.tripod is not None else 0
    return _odds(rules, letter, target.resistance, rating)


# --- bases as sample points ----------------------------------------------------------------


@lru_cache(maxsize=16)
def _plane_points(length: float, width: float) -> tuple[Floats, Floats]:
    hl, hw = length / 2.0, width / 2.0
    pts = [(0.0, 0.0)] + [(sx * hl, sy * hw) for sx in (1, -1) for sy in (1, -1)]
    arr = np.array(pts)
    return arr[:, 0].copy(), arr[:, 1].copy()


@lru_cache(maxsize=16)
def _hex_points(side: float) -> tuple[Floats, Floats]:
    pts = [(0.0, 0.0)]
    for i in range(6):
        a = math.radians(-30.0 + 60.0 * i)
        pts.append((side * math.cos(a), side * math.sin(a)))
    arr = np.array(pts)
    return arr[:, 0].copy(), arr[:, 1].copy()


def base_points(rules: Rules, vehicle: Vehicle) -> tuple[Floats, Floats]:
    """Points of the base in its own frame: its centre and corners."""
    if vehicle.kind == "tripod":
        return _hex_points(rules.hex_side)
    return _plane_points(rules.base_length, rules.base_width)


def world_points(
    x: Floats, y: Floats, heading: Floats, local: tuple[Floats, Floats]
) -> tuple[Floats, Floats]:
    """Sample points of bases at poses (b,) as arrays (b, k)."""
    rad = np.radians(heading)[:, None]
    c, s = np.cos(rad), np.sin(rad)
    lx, ly = local
    return x[:, None] + lx * c - ly * s, y[:, None] + lx * s + ly * c


def nearest_in_arc(
    fx: Floats, fy: Floats, axis: Floats, half_width: float, px: Floats, py: Floats
) -> Floats:
    """Squared distance from each firing dot (a,) to the nearest sample point of each
    base (b, k) inside the arc of ``half_width`` degrees about ``axis``: shape (a, b),
    ``inf`` when no point is in the arc."""
    rad = np.radians(axis)
    c = np.cos(rad).astype(np.float32)[:, None]
    s = np.sin(rad).astype(np.float32)[:, None]
    ox = fx.astype(np.float32)[:, None]
    oy = fy.astype(np.float32)[:, None]
    qx = px.astype(np.float32)
    qy = py.astype(np.float32)
    slope = np.float32(math.tan(math.radians(half_width)))
    best = np.full((len(fx), px.shape[0]), np.inf, dtype=np.float32)
    for j in range(px.shape[1]):
        dx = qx[None, :, j] - ox
        dy = qy[None, :, j] - oy
        along = dx * c + dy * s
        across = np.abs(dy * c - dx * s)
        d2 = dx * dx + dy * dy
        d2[across > along * slope] = np.inf
        np.minimum(best, d2, out=best)
    out: Floats = best.astype(np.float64)
    return out


def centre_d2(ax: Floats, ay: Floats, bx: Floats, by: Floats) -> Floats:
    dx = bx[None, :] - ax[:, None]
    dy = by[None, :] - ay[:, None]
    out: Floats = dx * dx + dy * dy
    return out


def unprotected(
    rules: Rules, tripod: Vehicle, tx: Floats, ty: Floats, th: Floats, fx: Floats, fy: Floats
) -> Floats:
    """1 where a firing dot (a,) faces an unprotected side of the tripod at (b,), else 0
    (shape (a, b)); all 1 when the armour is down (no Energy, toppled)."""
    assert tripod.tripod is not None
    protected = {Side.parse(s) for s in rules.tripod(tripod.type).protected}
    if not protected or tripod.tripod.energy < 1 or tripod.tripod.toppled:
        return np.ones((len(fx), len(tx)))
    apothem = rules.hex_apothem()
    open_face = np.zeros((len(fx), len(tx)), dtype=np.bool_)
    for side in Side:
        if side in protected:
            continue
        rad = np.radians(th + 60.0 * int(side))
        nx, ny = np.cos(rad), np.sin(rad)
        mx, my = tx + apothem * nx, ty + apothem * ny
        facing = (fx[:, None] - mx[None, :]) * nx[None, :] + (fy[:, None] - my[None, :]) * ny[
            None, :
        ] > 0.0
        open_face |= facing
    return open_face.astype(np.float64)


# --- enemies: where they may be ---------------------------------------------------------------


@dataclass
class Enemy:
    """A weighted set of an enemy's plausible poses after each phase of the turn."""

    vehicle: Vehicle
    x: Floats
    """(m, 3) poses after phases 1-3."""
    y: Floats
    heading: Floats
    weight: Floats
    """(m,) summing to 1."""
    ray: Floats = field(default_factory=lambda: np.zeros(3))
    """Tripods: the chance the heat-ray fires at each phase."""

    def phase(self, p: int) -> tuple[Floats, Floats, Floats]:
        return self.x[:, p], self.y[:, p], self.heading[:, p]


def _safe_tiers(rules: Rules, flights: Flights) -> Ints:
    """Per plan: 2 when every phase keeps the centre ``SAFE_MARGIN`` from the edges, 1
    when merely on the table, else 0."""
    w, h = rules.table_width, rules.table_height
    safe = inside(flights.x, flights.y, w, h, SAFE_MARGIN).all(axis=1)
    on = inside(flights.x, flights.y, w, h, -1e-9).all(axis=1)
    out: Ints = np.where(safe, 2, np.where(on, 1, 0))
    return out


def _phases_on(rules: Rules, flights: Flights) -> Ints:
    """How many phases each plan keeps the airplane on the table before it leaves."""
    on = inside(flights.x, flights.y, rules.table_width, rules.table_height, -1e-9)
    out: Ints = np.cumprod(on, axis=1).sum(axis=1)
    return out


def best_tier(rules: Rules, flights: Flights) -> Bools:
    """The plans of the best safety tier present (see :func:`_safe_tiers`); when every
    plan leaves the table, those that stay on longest."""
    tiers = _safe_tiers(rules, flights)
    top = tiers.max()
    if top > 0:
        mask: Bools = tiers == top
        return mask
    on = _phases_on(rules, flights)
    mask = on == on.max()
    return mask


def airplane_enemy(
    state: GameState, vehicle: Vehicle, rng: np.random.Generator, count: int
) -> tuple[Ints, Flights, Ints]:
    """An enemy airplane's sequences and flights, and ``count`` uniform picks among the
    plans it would consider (those of its best safety tier)."""
    rules = state.rules
    seqs = airplane_sequences(state, vehicle)
    table = card_table(rules.deck_of(vehicle.type))
    flights = fly(vehicle.pose, table, seqs, rules.base_length)
    pool = np.flatnonzero(best_tier(rules, flights))
    picks = np.sort(rng.choice(pool, size=min(count, len(pool)), replace=False))
    return seqs, flights, picks


def tripod_enemy(state: GameState, vehicle: Vehicle, rng: np.random.Generator, count: int) -> Enemy:
    """A tripod's plausible poses: random legal tripod plans; its heat-ray fires when
    ready (no recovery token, Energy left), every other phase."""
    assert vehicle.tripod is not None
    seqs, moves = tripod_sequences(state, vehicle)
    picks = rng.choice(len(seqs), size=min(count, len(seqs)), replace=False)
    x, y, h = moves
    ray = np.zeros(3)
    energy = vehicle.tripod.energy
    ready = vehicle.tripod.cooling == 0
    for p in range(3):
        if p < vehicle.tripod.toppled or energy < 1:
            ready = True
            continue
        if ready:
            ray[p] = 0.8
            energy -= 1
            ready = False
        else:
            ready = True
    m = len(picks)
    return Enemy(vehicle, x[picks], y[picks], h[picks], np.full(m, 1.0 / m), ray)


# --- scoring --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """How hard a bot thinks."""

    name: str
    own_plans: int | None
    """None: every legal plan; else a uniform sample of this many."""
    samples: int
    """Plausible plans drawn per enemy."""
    best_replies: bool
    """Mix in each enemy airplane's own best replies (against a uniform guess of ours)."""
    lookahead: bool
    """Score the position at the end of the turn and whether the table lets it turn."""


EASY = Level("easy", own_plans=120, samples=6, best_replies=False, lookahead=False)
HARD = Level("hard", own_plans=None, samples=14, best_replies=True, lookahead=True)


@dataclass
class Scored:
    score: Floats
    rockets: Ints
    """Per plan, the phase (1-2) to launch rockets in, 0 for none."""


def _prefixes(seqs: Ints, p: int) -> tuple[Ints, Ints]:
    """Representative rows and inverse map of the distinct first ``p + 1`` cards."""
    code = seqs[:, 0].astype(np.int64)
    for k in range(1, p + 1):
        code = code * 64 + seqs[:, k]
    _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


def _weapons(rules: Rules, vehicle: Vehicle, phase: int) -> list[tuple[str, str]]:
    """The vehicle's weapons that are not jammed at ``phase`` (0-based)."""
    return [
        (w, letter) for w, letter in rules.weapons(vehicle.type) if vehicle.jams.get(w, 0) <= phase
    ]


def _aimed_now(state: GameState, vehicle: Vehicle, weapon: str, target: str) -> bool:
    aim = vehicle.aim.get(weapon)
    return aim is not None and aim == (target, state.phases_played)


def evaluate(
    state: GameState,
    me: Vehicle,
    seqs: Ints,
    flights: Flights,
    enemies: Sequence[Enemy],
    lookahead: bool,
) -> Scored:
    """Expected damage dealt minus taken over the turn for each plan, rockets, the end
    position (with ``lookahead``); higher is better."""
    rules = state.rules
    n = len(seqs)
    score = np.zeros(n)
    rockets = np.zeros(n, dtype=np.int64)
    if not enemies:
        return Scored(score, rockets)
    risk = 1.0 + 1.5 * me.damage / max(1, me.resistance)
    aim_on = rules.switches.aim_bonus
    ruler2, half2 = rules.ruler**2, rules.half**2
    overlap2 = (rules.base_length * 0.9) ** 2
    my_points = base_points(rules, me)
    structure = [_prefixes(seqs, p) for p in range(3)]
    dealt_phase = np.zeros((3, len(enemies), n))
    front_dealt = np.zeros((3, len(enemies), n))
    front_reach: list[list[Floats]] = [[], [], []]
    arc_seen: list[list[Floats]] = [[], [], []]
    taken = np.zeros(n)
    for e_index, enemy in enumerate(enemies):
        target = enemy.vehicle
        w = enemy.weight
        e_points = base_points(rules, target)
        prev_reach: dict[str, Floats] = {}
        prev_enemy_reach: dict[str, Floats] = {}
        for p in range(3):
            first, inverse = structure[p]
            fx, fy, fh = (a[first] for a in flights.phase(p))
            ex, ey, eh = enemy.phase(p)
            apart = centre_d2(fx, fy, ex, ey) > overlap2  # (u, m)
            px, py = world_points(ex, ey, eh, e_points)
            shield = None
            if target.tripod is not None:
                shield = unprotected(rules, target, ex, ey, eh, fx, fy)
            for weapon, letter in _weapons(rules, me, p):
                arc = rules.arc(weapon)
                d2 = nearest_in_arc(fx, fy, fh + arc.centre, arc.width / 2.0, px, py)
                reach = (d2 <= ruler2) & apart
                cards = np.where(d2 <= half2, 2.0, 1.0) * reach
                card = odds(rules, letter, target)
                full = cards[inverse]
                hit = reach[inverse].astype(np.float64)
                bonus: Floats | float = 0.0
                if aim_on:
                    if p == 0:
                        bonus = float(_aimed_now(state, me, weapon, target.id)) * hit
                    elif weapon in prev_reach:
                        bonus = prev_reach[weapon] * hit
                value = full * (card.points + card.nonzero * bonus)
                if shield is not None:
                    open_side = shield[inverse]
                    value = value * open_side + 0.3 * full * card.energy * (1.0 - open_side)
                expected = value @ w
                dealt_phase[p, e_index] += expected
                prev_reach[weapon] = hit
                if weapon == "front":
                    front_dealt[p, e_index] = expected
                    front_reach[p].append(hit * (1.0 if shield is None else shield[inverse]))
            if me.rockets and rules.switches.standard_rules and rules.airplane(me.type).rockets:
                arc = rules.front_arc
                d2 = nearest_in_arc(fx, fy, fh + arc.centre, arc.width / 2.0, px, py)
                seen = ((d2 < np.inf) | ~apart).astype(np.float64)
                if shield is not None:
                    seen = seen * shield
                arc_seen[p].append(seen[inverse])
            # what the enemy's weapons do to us
            mx, my_ = world_points(fx, fy, fh, my_points)
            if target.tripod is not None:
                if enemy.ray[p] > 0:
                    got = _heat_ray(rules, target, ex, ey, eh, mx, my_)  # (m, u)
                    taken += enemy.ray[p] * (got.T[inverse] @ w)
                continue
            for weapon, letter in _weapons(rules, target, p):
                arc = rules.arc(weapon)
                d2 = nearest_in_arc(ex, ey, eh + arc.centre, arc.width / 2.0, mx, my_).T
                reach = (d2 <= ruler2) & apart
                cards = np.where(d2 <= half2, 2.0, 1.0) * reach
                card = odds(rules, letter, me)
                hit = reach[inverse].astype(np.float64)
                e_bonus: Floats | float = (
                    prev_enemy_reach.get(weapon, 0.0) if (aim_on and p > 0) else 0.0
                )
                taken += (cards[inverse] * (card.points + card.nonzero * e_bonus)) @ w
                prev_enemy_reach[weapon] = hit
    # one shot per weapon per phase: the best enemy, not the sum
    score += dealt_phase.max(axis=1).sum(axis=0)
    score -= risk * taken
    if arc_seen[0]:
        gain, phase = _rocket_gain(rules, me, seqs, enemies, front_reach, arc_seen, front_dealt)
        score += gain
        rockets = phase
    if lookahead:
        score += _end_position(rules, me, seqs, flights, enemies, structure[2][0], risk)
    return Scored(score, rockets)


def _heat_ray(
    rules: Rules,
    tripod: Vehicle,
    tx: Floats,
    ty: Floats,
    th: Floats,
    px: Floats,
    py: Floats,
) -> Floats:
    """Expected heat-ray damage points from tripods at (m,) on bases (u, k): (m, u), the
    best projector each."""
    spec = rules.heat_ray_ruler(tripod.type)
    model = rules.tripod(tripod.type)
    apothem = rules.hex_apothem()
    best = np.full((len(tx), len(px)), np.inf)
    for name in model.projectors:
        side = int(Side.parse(name))
        normal = th + 60.0 * side
        rad = np.radians(normal)
        ox, oy = tx + apothem * np.cos(rad), ty + apothem * np.sin(rad)
        d2 = nearest_in_arc(ox, oy, normal, spec.tilt + 5.0, px, py)
        best = np.minimum(best, d2)
    letter = model.firepower
    card = _odds(rules, letter, 12, 0)
    short = card.points * (1.0 + card.zero)
    out: Floats = np.where(
        best <= spec.half**2, short, np.where(best <= spec.length**2, card.points, 0.0)
    )
    return out


def _rocket_gain(
    rules: Rules,
    me: Vehicle,
    seqs: Ints,
    enemies: Sequence[Enemy],
    front_reach: list[list[Floats]],
    arc_seen: list[list[Floats]],
    front_dealt: Floats,
) -> tuple[Floats, Ints]:
    """The best gain from launching every rocket at phase 1 or 2 (hit when the next card
    is a straight or stall and the target is still in the front arc), against firing
    the guns then, less what the rockets would still be worth later."""
    deck = rules.deck_of(me.type)
    straight_or_stall = np.array([c.symbol in (Symbol.STRAIGHT, Symbol.STALL) for c in deck.cards])
    n = len(seqs)
    best = np.zeros(n)
    phase = np.zeros(n, dtype=np.int64)
    for p in (0, 1):
        if not front_reach[p] or not arc_seen[p + 1]:
            continue
        follows = straight_or_stall[seqs[:, p + 1]]
        value = np.zeros(n)
        for e_index, enemy in enumerate(enemies):
            card = odds(rules, "D", enemy.vehicle)
            hit = (front_reach[p][e_index] * arc_seen[p + 1][e_index]) @ enemy.weight
            worth = me.rockets * card.points
            value = np.maximum(value, hit * worth - front_dealt[p, e_index] - 0.35 * worth)
        value = np.where(follows, value, 0.0)
        better = value > best
        best = np.where(better, value, best)
        phase = np.where(better, p + 1, phase)
    return best, phase


_ESCAPES: dict[tuple[int, frozenset[Symbol], float], tuple[object, Ints]] = {}


def _escapes(deck: ManeuverDeck, symbols: frozenset[Symbol], base_length: float) -> Ints:
    """A dozen compact turns (three cards legal after any maneuver but an Immelmann)
    an airplane can use to stay on the table next turn."""
    key = (id(deck), symbols, base_length)
    hit = _ESCAPES.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    seqs = legal_sequences(deck, Flown(Symbol.STEEP, True), symbols)
    table = card_table(deck)
    f = fly(_ORIGIN, table, seqs, base_length)
    spread = np.hypot(f.x, f.y).max(axis=1)
    order = np.argsort(spread, kind="stable")[:12]
    out: Ints = seqs[order]
    _ESCAPES[key] = (deck, out)
    return out


def _end_position(
    rules: Rules,
    me: Vehicle,
    seqs: Ints,
    flights: Flights,
    enemies: Sequence[Enemy],
    finals: Ints,
    risk: float,
) -> Floats:
    """Where the turn leaves us: enemies ahead of our nose and not the reverse, close
    enough to fight; a cost when no compact turn keeps us on the table next turn."""
    n = len(seqs)
    fx, fy, fh = (a[:, 2] for a in (flights.x, flights.y, flights.heading))
    out = np.zeros(n)
    for enemy in enemies:
        ex, ey, eh = enemy.phase(2)
        dx = ex[None, :] - fx[:, None]
        dy = ey[None, :] - fy[:, None]
        d = np.hypot(dx, dy) + 1e-6
        rad = np.radians(fh)[:, None]
        ahead = (dx * np.cos(rad) + dy * np.sin(rad)) / d
        erad = np.radians(eh)[None, :]
        behind = -(dx * np.cos(erad) + dy * np.sin(erad)) / d
        if enemy.vehicle.tripod is not None:
            reach = rules.heat_ray_ruler(enemy.vehicle.type).length
            behind = np.maximum(behind, 0.5 * behind + 0.5)
        else:
            reach = rules.ruler
        near = np.exp(-(((d - 0.45 * reach) / (0.6 * reach)) ** 2))
        mine = np.clip(ahead, 0.0, None) ** 2 * near
        theirs = np.clip(behind, 0.0, None) ** 2 * near
        value = (
            2.0 * mine - 2.0 * risk * theirs - 1.5 * d / (rules.table_width + rules.table_height)
        )
        out += value @ enemy.weight
    escapes = _escapes(rules.deck_of(me.type), frozenset(_symbols(rules)), rules.base_length)
    table = card_table(rules.deck_of(me.type))
    w, h = rules.table_width, rules.table_height
    edge = np.minimum(np.minimum(fx, w - fx), np.minimum(fy, h - fy))
    rows = np.flatnonzero(edge < 25.0)  # further in, some compact turn always fits
    x = np.repeat(fx[rows, None], len(escapes), axis=1)
    y = np.repeat(fy[rows, None], len(escapes), axis=1)
    hd = np.repeat(fh[rows, None], len(escapes), axis=1)
    ok = np.ones_like(x, dtype=np.bool_)
    for p in range(3):
        idx = escapes[:, p]
        x, y, hd = advance(
            x, y, hd, table.forward[idx], table.left[idx], table.turn[idx], rules.base_length
        )
        ok &= inside(x, y, w, h, SAFE_MARGIN)
    trapped = np.zeros(n, dtype=np.bool_)
    trapped[rows] = ~ok.any(axis=1)
    out -= 40.0 * trapped
    return out


def _symbols(rules: Rules) -> frozenset[Symbol]:
    return _ALTITUDE if rules.switches.altitude_cards else _LEVEL


_ALTITUDE = frozenset(Symbol)
_LEVEL = _ALTITUDE - {Symbol.CLIMB, Symbol.DIVE}


_ORIGIN = Pose(0.0, 0.0, 0.0)


# --- choosing a plan ------------------------------------------------------------------------------


def _enemy_airplane_model(
    state: GameState,
    me: Vehicle,
    my_seqs: Ints,
    my_flights: Flights,
    my_pool: Ints,
    enemy: Vehicle,
    level: Level,
    rng: np.random.Generator,
) -> Enemy:
    """Plausible plans of an enemy airplane: uniform among those it would consider, and
    for the hard level half of the weight on its best replies to a uniform guess of ours."""
    seqs, flights, picks = airplane_enemy(state, enemy, rng, level.samples)
    weight = np.full(len(picks), 1.0 / len(picks))
    if level.best_replies and len(picks) > 1:
        ours = np.sort(rng.choice(my_pool, size=min(level.samples, len(my_pool)), replace=False))
        guess = Enemy(
            me,
            my_flights.x[ours],
            my_flights.y[ours],
            my_flights.heading[ours],
            np.full(len(ours), 1.0 / len(ours)),
        )
        pool = np.flatnonzero(best_tier(state.rules, flights))
        scored = evaluate(state, enemy, seqs[pool], _subset(flights, pool), [guess], False)
        top = pool[np.argsort(-scored.score, kind="stable")[: max(1, level.samples // 2)]]
        uniform = np.full(len(picks), 0.5 / len(picks))
        picks = np.concatenate([picks, top])
        weight = np.concatenate([uniform, np.full(len(top), 0.5 / len(top))])
    return Enemy(enemy, flights.x[picks], flights.y[picks], flights.heading[picks], weight)


def _subset(flights: Flights, rows: Ints) -> Flights:
    return Flights(flights.x[rows], flights.y[rows], flights.heading[rows])


def plan_airplane(state: GameState, me: Vehicle, level: Level, rng: np.random.Generator) -> Plan:
    """The best plan for one airplane at this level (see the module docstring)."""
    rules = state.rules
    deck = rules.deck_of(me.type)
    seqs = airplane_sequences(state, me)
    flights = fly(me.pose, card_table(deck), seqs, rules.base_length)
    pool = np.flatnonzero(best_tier(rules, flights))
    candidates = pool
    if level.own_plans is not None and len(pool) > level.own_plans:
        candidates = np.sort(rng.choice(pool, size=level.own_plans, replace=False))
    enemies: list[Enemy] = []
    for enemy in sorted(state.in_play(), key=lambda v: v.id):
        if enemy.side == me.side:
            continue
        if enemy.tripod is not None:
            enemies.append(tripod_enemy(state, enemy, rng, level.samples))
        else:
            enemies.append(_enemy_airplane_model(state, me, seqs, flights, pool, enemy, level, rng))
    chosen_seqs = seqs[candidates]
    scored = evaluate(
        state, me, chosen_seqs, _subset(flights, candidates), enemies, level.lookahead
    )
    bonus = mission_bonus(state, me, _subset(flights, candidates))  # 002's missions
    best = int(np.argmax(scored.score + bonus))
    cards = tuple(deck.cards[int(i)].id for i in chosen_seqs[best])
    launch = int(scored.rockets[best])
    if launch:
        salvo = [0, 0, 0]
        salvo[launch - 1] = min(2, me.rockets)
        return Plan(cards=cards, rockets=tuple(salvo))
    return Plan(cards=cards)


# --- tripods ------------------------------------------------------------------------------------


_TRIPOD_SEQS: dict[tuple[int, int], tuple[object, Ints]] = {}


def _all_tripod_sequences(deck: object, size: int, count: int) -> Ints:
    key = (id(deck), count)
    hit = _TRIPOD_SEQS.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    out = np.array(list(itertools.permutations(range(size), count)), dtype=np.int64).reshape(
        -1, count
    )
    _TRIPOD_SEQS[key] = (deck, out)
    return out


def tripod_sequences(
    state: GameState, vehicle: Vehicle
) -> tuple[Ints, tuple[Floats, Floats, Floats]]:
    """A tripod's legal plans (card indexes, shape (n, cards)) and its poses after each
    of the three phases (shape (n, 3)), lying down for the phases it cannot plan."""
    assert vehicle.tripod is not None
    rules = state.rules
    deck = rules.tripod_deck_of(vehicle.type)
    count = 3 - vehicle.tripod.toppled
    every = _all_tripod_sequences(deck, len(deck.cards), count)
    cards = deck.cards
    moves = np.array([c.moves for c in cards])
    stand_or_run = np.array([c.symbol is not TripodSymbol.MOVE for c in cards])
    energy = np.array([c.energy for c in cards], dtype=np.int64)
    reverse = np.array([c.symbol is TripodSymbol.REVERSE for c in cards])
    ok = energy[every].sum(axis=1) <= vehicle.tripod.energy
    if count == 3:
        ok &= stand_or_run[every].any(axis=1)
    if rules.switches.standard_rules:
        status = vehicle.status
        if status.get("reverse_destroyed"):
            ok &= ~reverse[every].any(axis=1)
        engine = status.get("engine", 0)
        if engine >= 2:
            ok &= ~moves[every].any(axis=1)
        elif engine == 1 and count == 3:
            ok &= ~moves[every].all(axis=1)
    seqs = every[ok]
    if len(seqs) == 0:
        seqs = every[:1]
    table = card_table(deck)
    depth = 2.0 * rules.hex_apothem()
    n = len(seqs)
    x = np.full(n, vehicle.pose.x)
    y = np.full(n, vehicle.pose.y)
    h = np.full(n, vehicle.pose.heading)
    backward = np.full(n, vehicle.tripod.reverse_pending)
    xs, ys, hs = np.empty((n, 3)), np.empty((n, 3)), np.empty((n, 3))
    offset = 3 - count
    for p in range(3):
        if p >= offset:
            idx = seqs[:, p - offset]
            f, left, t = table.forward[idx], table.left[idx], table.turn[idx]
            ax, ay, ah = advance(x, y, h, f, left, t, depth)
            bx, by, bh = advance(x, y, h + 180.0, f, left, t, depth)
            bh = np.mod(bh + 180.0, 360.0)
            go = moves[idx]
            x = np.where(go, np.where(backward, bx, ax), x)
            y = np.where(go, np.where(backward, by, ay), y)
            h = np.where(go, np.where(backward, bh, ah), h)
            backward = reverse[idx]
        xs[:, p], ys[:, p], hs[:, p] = x, y, h
    return seqs, (xs, ys, hs)


@dataclass(frozen=True)
class Goal:
    """Where a tripod is heading and what it does there."""

    x: float
    y: float
    objective: str | None
    token: str | None
    """``recharge`` (drain) or ``destroy_objective`` on the objective; None: exit."""
    exit_edge: str | None = None


def _goal(state: GameState, tripod: Vehicle, scenario: str | None) -> Goal | None:
    """The next objective to drain or destroy, else the edge to leave by once enough are
    done (as the scenario's victory says); None when no objective matters."""
    rules = state.rules
    spec = rules.catalog.scenarios.get(scenario) if scenario else None
    win = None
    if spec is not None:
        win = next(
            (v for v in spec.victory if v.side == tripod.side and v.kind == "objectives_and_exit"),
            None,
        )
    if win is None:
        return None
    drain = win.objective_action == "drain"
    if win.objective_action == "reach":
        # 001's WW2 scenarios: walk over every objective template
        done = sum(1 for o in state.objectives.values() if o.reached)
        open_ones = [o for o in state.objectives.values() if not o.reached]
    else:
        done = sum(
            1
            for o in state.objectives.values()
            if (o.destroyed if not drain else (o.charges == 0 or o.destroyed))
        )
        open_ones = [
            o
            for o in state.objectives.values()
            if not o.destroyed and (o.charges > 0 if drain else True)
        ]
    if done < win.objectives and open_ones:
        target = min(open_ones, key=lambda o: (math.dist(tripod.pose.point, (o.x, o.y)), o.id))
        if win.objective_action == "reach":
            return Goal(target.x, target.y, target.id, None)
        return Goal(target.x, target.y, target.id, "recharge" if drain else "destroy_objective")
    edge = win.exit_edge or "south"
    w, h = rules.table_width, rules.table_height
    x, y = tripod.pose.point
    point = {
        "south": (x, -20.0),
        "north": (x, h + 20.0),
        "west": (-20.0, y),
        "east": (w + 20.0, y),
    }[edge]
    return Goal(point[0], point[1], None, None, edge)


def _outside_except(rules: Rules, x: Floats, y: Floats, edge: str | None) -> Bools:
    """Poses off the table (with a margin) by any edge other than ``edge``."""
    w, h = rules.table_width, rules.table_height
    m = 2.0
    bad = np.zeros(x.shape, dtype=np.bool_)
    if edge != "west":
        bad |= x < m
    if edge != "east":
        bad |= x > w - m
    if edge != "south":
        bad |= y < m
    if edge != "north":
        bad |= y > h - m
    return bad


def plan_tripod(
    state: GameState,
    tripod: Vehicle,
    scenario: str | None,
    rng: np.random.Generator,
    samples: int = 10,
) -> Plan:
    """A tripod's cards and action tokens for the turn (see :class:`MartianBot`)."""
    rules = state.rules
    assert tripod.tripod is not None
    console = tripod.tripod
    deck = rules.tripod_deck_of(tripod.type)
    seqs, (x, y, h) = tripod_sequences(state, tripod)
    n, count = seqs.shape
    offset = 3 - count
    cards = deck.cards
    stand = np.array([c.symbol is TripodSymbol.STAND for c in cards])
    stop = np.array([c.stop for c in cards])
    goal = _goal(state, tripod, scenario)
    plane = nearest_enemy(state, tripod)
    score = np.zeros(n)
    # never off the table, except across the edge the scenario asks us to leave by
    edge = goal.exit_edge if goal is not None else None
    off = _outside_except(rules, x, y, edge).any(axis=1)
    score -= OFF_TABLE * off
    radius = rules.hex_apothem() + rules.catalog.constants.tripods.objective_radius - 0.6
    token_at: list[tuple[int, str]] = [(-1, "")] * n
    if goal is not None:
        dist = np.hypot(x[:, 2] - goal.x, y[:, 2] - goal.y)
        score -= 1.0 * dist
        if goal.objective is not None:
            # a standing still card on the objective drains (or destroys) it
            on_it = np.hypot(x - goal.x, y - goal.y) <= radius  # (n, 3)
            standing = np.zeros((n, 3), dtype=np.bool_)
            for p in range(offset, 3):
                standing[:, p] = stand[seqs[:, p - offset]]
            useful = on_it & standing if goal.token is not None else on_it
            first = np.where(useful.any(axis=1), useful.argmax(axis=1), -1)
            score += 60.0 * (first >= 0) - 3.0 * np.maximum(first, 0)
            token_at = [(int(f), goal.token or "") if f >= 0 else (-1, "") for f in first.tolist()]
    elif plane is not None:
        dist = np.hypot(x[:, 2] - plane.pose.x, y[:, 2] - plane.pose.y)
        score -= 0.3 * np.abs(dist - 0.6 * rules.heat_ray_ruler(tripod.type).length)
    # heat-ray opportunities and airplane threats, against plausible airplane plans
    ray_plan = np.zeros((n, 3))
    if plane is not None and plane.tripod is not None:
        # 001: an enemy tripod -- aimed at where it stands (it moves little)
        mx, my_ = world_points(
            np.array([plane.pose.x]),
            np.array([plane.pose.y]),
            np.array([plane.pose.heading]),
            base_points(rules, plane),
        )
        for p in range(3):
            ray_plan[:, p] = _heat_ray(rules, tripod, x[:, p], y[:, p], h[:, p], mx, my_)[:, 0]
    elif plane is not None:
        _, flights, picks = airplane_enemy(state, plane, rng, samples)
        w = np.full(len(picks), 1.0 / len(picks))
        px_all, py_all, ph_all = flights.x[picks], flights.y[picks], flights.heading[picks]
        points = base_points(rules, plane)
        for p in range(3):
            mx, my_ = world_points(px_all[:, p], py_all[:, p], ph_all[:, p], points)
            got = _heat_ray(rules, tripod, x[:, p], y[:, p], h[:, p], mx, my_)  # (n, m)
            ray_plan[:, p] = got @ w
            # damage the airplane's guns may do on unprotected sides
            for weapon, letter in _weapons(rules, plane, p):
                arc = rules.arc(weapon)
                tx, ty = world_points(x[:, p], y[:, p], h[:, p], base_points(rules, tripod))
                d2 = nearest_in_arc(
                    px_all[:, p], py_all[:, p], ph_all[:, p] + arc.centre, arc.width / 2.0, tx, ty
                ).T  # (n, m)
                reach = d2 <= rules.ruler**2
                cards_n = np.where(d2 <= rules.half**2, 2.0, 1.0) * reach
                open_side = unprotected(
                    rules, tripod, x[:, p], y[:, p], h[:, p], px_all[:, p], py_all[:, p]
                ).T
                card = odds(rules, letter, tripod)
                score -= 0.7 * ((cards_n * open_side * card.points) @ w)
    # choose heat-ray phases: ready, Energy to spare, no Stop icon, no green token there
    energy = console.energy
    # an energy card revealed without Energy topples the tripod, and armour hits drain
    # Energy unforeseen: plan one only with two to spare, and keep it out of the rays
    needs = np.array([c.energy for c in cards], dtype=np.int64)[seqs].sum(axis=1)
    score -= OFF_TABLE * (needs > 0) * (energy < needs + 2)
    # Standard Rules: a wounded pilot cannot fire while the tripod moves
    wounded = rules.switches.standard_rules and bool(tripod.status.get("wounded"))
    moving = np.array([c.moves for c in cards])
    chosen_rays = np.zeros((n, 3), dtype=np.bool_)
    if plane is not None and energy > 0:
        ready = np.full(n, console.cooling == 0)
        left = energy - needs
        for p in range(3):
            if p < offset:
                ready[:] = True
                continue
            idx = seqs[:, p - offset]
            free = ~stop[idx] & np.array([t[0] != p for t in token_at])
            if wounded:
                free &= ~moving[idx]
            worth = ray_plan[:, p] > 0.4
            fire = ready & free & worth & (left >= 2)
            chosen_rays[:, p] = fire
            score += 2.0 * np.where(fire, ray_plan[:, p], 0.0)
            left = left - fire
            ready = ~fire
    best = int(np.argmax(score))
    planned = [cards[int(i)] for i in seqs[best]]
    actions: list[Action | None] = [None, None, None]
    phase_token, token = token_at[best]
    if phase_token >= 0 and goal is not None and goal.token is not None:
        actions[phase_token] = _token(token, goal.objective)
    for p in range(3):
        if chosen_rays[best, p] and actions[p] is None and plane is not None:
            pose = Pose(float(x[best, p]), float(y[best, p]), float(h[best, p]))
            actions[p] = Action(
                token="heat_ray", projector=facing_projector(rules, tripod.type, pose, plane)
            )
    # a standing still card with nothing to do: recharge when short of Energy
    for p in range(offset, 3):
        card = planned[p - offset]
        idle = actions[p] is None and card.symbol is TripodSymbol.STAND and not card.stop
        if idle and energy < console.rating:
            actions[p] = Action(token="recharge")
            energy += 1
    return Plan(cards=tuple(c.id for c in planned), actions=tuple(actions))


def _token(token: str, objective: str | None) -> Action:
    if token == "destroy_objective":
        return Action(token="destroy_objective", objective=objective)
    return Action(token="recharge", objective=objective)


def predict(plane: Vehicle) -> tuple[float, float]:
    """Where an airplane will roughly be after its next card: ahead of its nose (a tripod
    stays about where it is)."""
    if plane.tripod is not None:
        return plane.pose.point
    return plane.pose.to_world(9.0, 0.0)


def facing_projector(rules: Rules, tripod_type: str, pose: Pose, plane: Vehicle) -> Projector:
    """The projector whose side faces the airplane's next position best."""
    point = predict(plane)
    bearing = math.degrees(math.atan2(point[1] - pose.y, point[0] - pose.x))

    def off(name: str) -> float:
        normal = pose.heading + 60.0 * int(Side.parse(name))
        return abs((bearing - normal + 180.0) % 360.0 - 180.0)

    return min(rules.tripod(tripod_type).projectors, key=lambda n: (off(n), n))


# --- the bots ----------------------------------------------------------------------------


def _own(state: GameState, seat: frozenset[str]) -> list[Vehicle]:
    return sorted((v for v in state.in_play() if v.id in seat), key=lambda v: v.id)


def _due(state: GameState, seat: frozenset[str]) -> list[Vehicle]:
    """The seat's vehicles that plan in this planning phase (all of them before a turn;
    before the second and third action phases only WW2 airplanes, 001)."""
    due = set(state.planning_due())
    return [v for v in _own(state, seat) if v.id in due]


SAMPLE_BATCH = 16
"""Plans the random bot draws at once before it falls back to enumerating them all."""

_USABLE: dict[tuple[int, frozenset[Symbol]], tuple[object, Ints]] = {}


def _usable(deck: ManeuverDeck, symbols: frozenset[Symbol]) -> Ints:
    """Indexes of the deck's cards whose symbol is in play (cached per deck)."""
    key = (id(deck), symbols)
    hit = _USABLE.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    out = np.array([i for i, c in enumerate(deck.cards) if c.symbol in symbols], dtype=np.int64)
    _USABLE[key] = (deck, out)
    return out


_LEGAL: dict[tuple[int, Flown | None, tuple[int, ...]], tuple[object, bool]] = {}


def _legal(deck: ManeuverDeck, previous: Flown | None, row: list[int]) -> bool:
    """Whether the cards at ``row`` break no flight restriction after ``previous``
    (remembered per deck, previous maneuver and cards)."""
    key = (id(deck), previous, tuple(row))
    hit = _LEGAL.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    ok = not plan_problems(previous, [deck.cards[k] for k in row])
    _LEGAL[key] = (deck, ok)
    return ok


def _safe_flight(pose: Pose, cards: list[ManeuverCard], rules: Rules, depth: float) -> bool:
    """Whether the cards keep the centre dot ``SAFE_MARGIN`` inside the table after every
    phase (the top tier of :func:`_safe_tiers`; :func:`~dogfight.bots.view.advance` for
    one plan, in plain floats)."""
    x, y, h = pose.x, pose.y, pose.heading
    half = depth / 2.0
    low_x, high_x = SAFE_MARGIN, rules.table_width - SAFE_MARGIN
    low_y, high_y = SAFE_MARGIN, rules.table_height - SAFE_MARGIN
    for card in cards:
        rad = math.radians(h)
        c, s = math.cos(rad), math.sin(rad)
        nx = x + half * c + card.forward * c - card.left * s
        ny = y + half * s + card.forward * s + card.left * c
        h = (h + card.turn) % 360.0
        rad = math.radians(h)
        x, y = nx + half * math.cos(rad), ny + half * math.sin(rad)
        if not (low_x <= x <= high_x and low_y <= y <= high_y):
            return False
    return True


def _sampled_airplane_plan(
    state: GameState, vehicle: Vehicle, deck: ManeuverDeck, rng: np.random.Generator
) -> list[ManeuverCard] | None:
    """A uniform legal plan that keeps the airplane safely on the table at every phase
    (the top tier of :func:`_safe_tiers`), drawn by rejection: of :data:`SAMPLE_BATCH`
    uniform draws of three cards, the first that are distinct, legal and safe. None when
    none qualifies."""
    rules = state.rules
    usable = _usable(deck, _symbols(rules))
    if len(usable) < 3:
        return None
    for row in usable[rng.integers(len(usable), size=(SAMPLE_BATCH, 3))].tolist():
        if row[0] == row[1] or row[0] == row[2] or row[1] == row[2]:
            continue
        if not _legal(deck, vehicle.previous, row):
            continue
        cards = [deck.cards[k] for k in row]
        if vehicle.status and not status_allows(cards, vehicle.status, state.turn):
            continue
        if _safe_flight(vehicle.pose, cards, rules, rules.base_length):
            return cards
    return None


def random_airplane_plan(state: GameState, vehicle: Vehicle, rng: np.random.Generator) -> Plan:
    """A uniform pick among the legal plans of the best safety tier.

    Usually without listing the ~2,700 legal plans: the first of a batch of uniform
    three-card draws that is distinct, legal and safe at every phase is a uniform pick
    among the safe plans, which are the best tier whenever there are any; only when a
    batch finds none are all the plans listed, flown and the best tier picked from (the
    same distribution either way, from a different stream of random numbers).
    """
    rules = state.rules
    deck = rules.deck_of(vehicle.type)
    sampled = _sampled_airplane_plan(state, vehicle, deck, rng)
    if sampled is not None:
        return Plan(cards=tuple(c.id for c in sampled))
    seqs = airplane_sequences(state, vehicle)
    flights = fly(vehicle.pose, card_table(deck), seqs, rules.base_length)
    pool = np.flatnonzero(best_tier(rules, flights))
    row = seqs[int(pool[int(rng.integers(len(pool)))])]
    return Plan(cards=tuple(deck.cards[int(i)].id for i in row))


def random_tripod(state: GameState, vehicle: Vehicle, rng: np.random.Generator) -> Plan:
    """A uniform legal tripod plan that stays on the table when it can; a heat-ray on a
    card without the Stop icon when ready, a recharge on a standing card when short."""
    assert vehicle.tripod is not None
    rules = state.rules
    deck = rules.tripod_deck_of(vehicle.type)
    seqs, (x, y, _) = tripod_sequences(state, vehicle)
    off = _outside_except(rules, x, y, None).any(axis=1)
    pool = np.flatnonzero(~off) if (~off).any() else np.arange(len(seqs))
    row = seqs[int(pool[int(rng.integers(len(pool)))])]
    planned = [deck.cards[int(i)] for i in row]
    model = rules.tripod(vehicle.type)
    actions: list[Action | None] = [None, None, None]
    offset = 3 - len(planned)
    energy = vehicle.tripod.energy
    for i, card in enumerate(planned):
        if card.stop:
            continue
        if card.symbol is TripodSymbol.STAND and energy < vehicle.tripod.rating:
            actions[offset + i] = Action(token="recharge")
        elif energy > 0 and rng.random() < 0.6:
            side = model.projectors[int(rng.integers(len(model.projectors)))]
            actions[offset + i] = Action(token="heat_ray", projector=side)
    return Plan(cards=tuple(c.id for c in planned), actions=tuple(actions))


class _Observer:
    """What every bot here shares: a status tracker fed with each observation."""

    name = "bot"

    def __init__(self) -> None:
        self.tracker = StatusTracker()

    def _state(self, observation: Observation, rules: Rules, seat: frozenset[str]) -> GameState:
        self.tracker.update(observation, seat)
        return rebuild(observation, rules, seat, self.tracker)

    def phase_actions(
        self,
        observation: Observation,
        rules: Rules,
        seat: frozenset[str],
        phase: int,
        rng: np.random.Generator,
    ) -> tuple[dict[str, Action | None], dict[str, str]]:
        self.tracker.update(observation, seat)
        return {}, {}


class RandomBot(_Observer):
    """Uniform random legal plans, staying on the table whenever some plan does."""

    name = "random"

    def plan_turn(
        self, observation: Observation, rules: Rules, seat: frozenset[str], rng: np.random.Generator
    ) -> dict[str, Plan]:
        from dogfight.bots.ww2_airplanes import random_ww2_plan

        state = self._state(observation, rules, seat)
        plans: dict[str, Plan] = {}
        for vehicle in _due(state, seat):
            if vehicle.tripod is not None:
                plans[vehicle.id] = random_tripod(state, vehicle, rng)
            elif vehicle.clock == ONE_PHASE:
                plans[vehicle.id] = random_ww2_plan(state, vehicle, rng)
            else:
                plans[vehicle.id] = random_airplane_plan(state, vehicle, rng)
        return plans


class PlanningBot(_Observer):
    """Simultaneous-turn planning at a :class:`Level`; tripods (if the seat has any)
    are played as :class:`MartianBot` plays them."""

    def __init__(self, level: Level) -> None:
        super().__init__()
        self.level = level
        self.name = level.name

    def plan_turn(
        self, observation: Observation, rules: Rules, seat: frozenset[str], rng: np.random.Generator
    ) -> dict[str, Plan]:
        from dogfight.bots.ww2_airplanes import plan_ww2_airplane

        state = self._state(observation, rules, seat)
        scenario = guess_scenario(observation, rules)
        plans: dict[str, Plan] = {}
        for vehicle in _due(state, seat):
            if vehicle.tripod is not None:
                plans[vehicle.id] = plan_tripod(state, vehicle, scenario, rng)
            elif vehicle.clock == ONE_PHASE:
                plans[vehicle.id] = plan_ww2_airplane(state, vehicle, self.level, rng)
            else:
                plan = plan_airplane(state, vehicle, self.level, rng)
                plans[vehicle.id] = aim_drops(state, vehicle, plan)
        return plans


class EasyBot(PlanningBot):
    def __init__(self) -> None:
        super().__init__(EASY)


class HardBot(PlanningBot):
    def __init__(self) -> None:
        super().__init__(HARD)


class MartianBot(PlanningBot):
    """The tripod side of a two-player scenario.

    Plans the tripod's cards (000: at least one stationary or running card a turn, no
    energy card it cannot pay, none its damage forbids) towards the next objective to
    drain or destroy, standing still on it to use the green token, and once enough are
    done towards the edge the scenario says to leave by; never off the table elsewhere.
    Heat-rays go on cards without the Stop icon when the ray is ready and an airplane is
    likely in reach (keeping one Energy for the armour); a standing card with nothing to
    do recharges. At the start of each movement step the heat-ray token is turned to the
    projector facing the nearest airplane (or held back when no airplane is near).
    Airplanes of its seat, if any, are flown as the hard bot flies them.
    """

    def __init__(self) -> None:
        super().__init__(HARD)
        self.name = "martian"

    def phase_actions(
        self,
        observation: Observation,
        rules: Rules,
        seat: frozenset[str],
        phase: int,
        rng: np.random.Generator,
    ) -> tuple[dict[str, Action | None], dict[str, str]]:
        state = self._state(observation, rules, seat)
        out: dict[str, Action | None] = {}
        for tripod in _own(state, seat):
            console = tripod.tripod
            plan = tripod.plan
            if console is None or plan is None or plan.automated:
                continue
            planned = plan.actions[phase - 1] if phase - 1 < len(plan.actions) else None
            if planned is None or planned.token != "heat_ray":
                continue
            plane = nearest_enemy(state, tripod)
            reach = rules.heat_ray_ruler(tripod.type).length + 12.0
            deck = rules.tripod_deck_of(tripod.type)
            offset = 3 - len(plan.cards)
            owed = [
                deck.card(card).energy
                for i, card in enumerate(plan.cards)
                if offset + i + 1 >= phase
            ]
            now, later = (owed[0], sum(owed[1:])) if owed else (False, 0)
            card_now = deck.card(plan.cards[phase - 1 - offset]) if phase > offset else None
            wounded = rules.switches.standard_rules and bool(tripod.status.get("wounded"))
            spare = console.energy - int(now) - 1 - later - (1 if later else 0)
            if (
                plane is None
                or console.cooling > 0
                or spare < 0
                or (wounded and card_now is not None and card_now.moves)
                or math.dist(predict(plane), tripod.pose.point) > reach
            ):
                out[tripod.id] = None
                continue
            out[tripod.id] = Action(
                token="heat_ray",
                projector=facing_projector(rules, tripod.type, tripod.pose, plane),
            )
        return out, {}


register("random", RandomBot)
register("easy", EasyBot)
register("hard", HardBot)
register("martian", MartianBot)
