"""What a bot expects of the enemy: damage-card odds, bases as point arrays,
unprotected tripod sides and the enemy's plausible flights (its model of the other seat)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from dogfight.bots import kernels
from dogfight.bots.tripod_moves import tripod_sequences
from dogfight.bots.view import (
    Bools,
    Flights,
    Floats,
    Ints,
    airplane_sequences,
    card_table,
    fly_turned,
    inside,
)
from dogfight.catalog.models import (
    Explosion,
)
from dogfight.geometry.hexbase import Side
from dogfight.rules.context import Rules
from dogfight.rules.state import GameState, Vehicle

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


def card_odds(rules: Rules, letter: str, resistance: int, rating: int) -> CardOdds:
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
    return card_odds(rules, letter, target.resistance, rating)


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
    x: Floats,
    y: Floats,
    heading: Floats,
    local: tuple[Floats, Floats],
    units: tuple[Floats, Floats] | None = None,
) -> tuple[Floats, Floats]:
    """Sample points of bases at poses (b,) as arrays (b, k); ``units``: the cosine and
    sine of the headings when the caller has them (the same floats).

    They are transposed views of (k, b) arrays: :func:`nearest_in_arc` runs along the
    poses, so each point's row is contiguous (the same floats as a (b, k) layout)."""
    if units is None:
        rad = np.radians(heading)
        units = np.cos(rad), np.sin(rad)
    c, s = units[0][None, :], units[1][None, :]
    lx, ly = (a[:, None] for a in local)
    px: Floats = x[None, :] + lx * c - ly * s
    py: Floats = y[None, :] + lx * s + ly * c
    return px.T, py.T


F32 = kernels.F32


def _f32(a: npt.NDArray[Any]) -> F32:
    """``a`` as C-contiguous float32 (itself when it is already): what the kernels take."""
    out: F32 = np.ascontiguousarray(a, dtype=np.float32)
    return out


def _slope(half_width: float) -> np.float32:
    """The tangent of an arc's half-width, as the arc tests compare with it."""
    return np.float32(math.tan(math.radians(half_width)))


def arc_offsets(qx: F32, qy: F32, ox: F32, oy: F32) -> tuple[F32, F32]:
    """The offsets from firing dots to points (float32, broadcast)."""
    return _f32(qx - ox), _f32(qy - oy)


def in_arc_offsets(
    offsets: tuple[F32, F32],
    units: Units,
    half_width: float,
    reverse: bool = False,
) -> Floats:
    """:func:`nearest_in_arc_rows` for bases that are single points, given the offsets
    (m, r) between them (:func:`arc_offsets`): two vehicles' arcs at each other measured
    on one set of offsets (``reverse`` for the vehicle at the points' end; the axes'
    cosine and sine (1 or m, r))."""
    dx, dy = (_f32(a) for a in offsets)
    out: Floats = np.empty(dx.shape)
    kernels.in_arc_offsets(dx, dy, _f32(units[0]), _f32(units[1]), _slope(half_width), reverse, out)
    return out


def nearest_in_arc(
    fx: Floats,
    fy: Floats,
    axis: Floats,
    half_width: float,
    px: Floats,
    py: Floats,
    units: tuple[Floats, Floats] | None = None,
) -> Floats:
    """Squared distance from each firing dot (a,) to the nearest sample point of each
    base (b, k) inside the arc of ``half_width`` degrees about ``axis``: shape (a, b),
    ``inf`` when no point is in the arc. ``units``: the axis's cosine and sine when the
    caller has them (the floats ``np.cos(np.radians(axis))`` gives).

    The arc test runs in float32 (:mod:`dogfight.bots.kernels`), as
    :func:`nearest_in_arc_rows` with each firing dot repeated along the bases."""
    if units is None:
        rad = np.radians(axis)
        units = np.cos(rad), np.sin(rad)
    shape = (len(fx), px.shape[0])
    dots = [np.broadcast_to(a[:, None], shape) for a in (fx, fy, *units)]
    return nearest_in_arc_rows(
        dots[0], dots[1], (dots[2], dots[3]), half_width, px.T[:, None, :], py.T[:, None, :]
    )


Units = tuple[npt.NDArray[Any], npt.NDArray[Any]]
"""An axis's cosine and sine, float64 or float32."""


def nearest_in_arc_rows(
    fx: Floats,
    fy: Floats,
    units: Units,
    half_width: float,
    px: Floats,
    py: Floats,
) -> Floats:
    """:func:`nearest_in_arc` pair by pair rather than every firing dot against every
    base: firing dots (a, r) (or (1, r)) with their axes' cosine and sine, bases' sample
    points (k, b, r) (or (k, 1, r)) broadcast together; the squared distance to the
    nearest point in the arc, (a or b, r). The same float32 operations on each pair as
    :func:`nearest_in_arc`, so the same distances (the columns may be of different
    phases)."""
    out: Floats = np.empty((max(fx.shape[0], px.shape[1]), fx.shape[1]))
    kernels.nearest_rows(
        _f32(fx),
        _f32(fy),
        _f32(units[0]),
        _f32(units[1]),
        _f32(px),
        _f32(py),
        _slope(half_width),
        out,
    )
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

    def thinned(self, count: int) -> Enemy:
        """At most ``count`` of these poses, evenly spread over the list (uniform picks
        and best replies alike), weights summing to 1 again: a rough model for a first,
        cheap pass over many plans."""
        m = len(self.weight)
        if m <= count:
            return self
        rows = _spread(m, count)
        weight = self.weight[rows] / self.weight[rows].sum()
        return Enemy(self.vehicle, self.x[rows], self.y[rows], self.heading[rows], weight, self.ray)


@lru_cache(maxsize=64)
def _spread(m: int, count: int) -> Ints:
    """``count`` rows evenly spread over ``m`` (fewer when they round alike)."""
    rows: Ints = np.unique(np.linspace(0, m - 1, count).round().astype(np.int64))
    rows.flags.writeable = False
    return rows


def _extremes(a: Floats) -> tuple[Floats, Floats]:
    """Each row's least and greatest value."""
    least, most = a[:, 0].copy(), a[:, 0].copy()
    for k in range(1, a.shape[1]):
        np.minimum(least, a[:, k], out=least)
        np.maximum(most, a[:, k], out=most)
    return least, most


def _safe_tiers(rules: Rules, flights: Flights) -> Ints:
    """Per plan: 2 when every phase keeps the centre ``SAFE_MARGIN`` from the edges, 1
    when merely on the table, else 0."""
    w, h = rules.table_width, rules.table_height
    # every phase passes a test of the form x >= a exactly when the least x does; the
    # extremes taken column by column (numpy reduces a short last axis slowly)
    least_x, most_x = _extremes(flights.x)
    least_y, most_y = _extremes(flights.y)

    def within(margin: float) -> Bools:  # inside(...).all(axis=1), the same comparisons
        out: Bools = (least_x >= margin) & (most_x <= w - margin)
        out &= least_y >= margin
        out &= most_y <= h - margin
        return out

    safe, on = within(SAFE_MARGIN), within(-1e-9)
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
) -> tuple[Ints, Flights, Ints, Ints]:
    """An enemy airplane's sequences and flights, the plans it would consider (those of
    its best safety tier) and ``count`` uniform picks among them."""
    seqs, flights, pool = airplane_flights(state, vehicle)
    picks = np.sort(rng.choice(pool, size=min(count, len(pool)), replace=False))
    return seqs, flights, pool, picks


_FLIGHTS: dict[tuple[object, ...], tuple[Rules, Ints, Flights, Ints]] = {}
FLIGHTS_KEPT = 8
"""Airplanes whose flights :func:`airplane_flights` remembers."""


def airplane_flights(state: GameState, vehicle: Vehicle) -> tuple[Ints, Flights, Ints]:
    """An airplane's plans (:func:`~dogfight.bots.view.airplane_sequences`), their
    flights and the plans of its best safety tier (:func:`best_tier`), read-only.

    Remembered for the last few airplanes, by everything they depend on (the rules, the
    airplane's type, pose, last maneuver and status as the asking bot sees them, the
    turn): the bot of each seat works out its own airplane's flights and its enemy's the
    same turn, and a bot that plans from both seats works each out twice."""
    rules = state.rules
    status = tuple(sorted(vehicle.status.items()))
    key = (id(rules), vehicle.type, vehicle.pose, vehicle.previous, status, state.turn)
    hit = _FLIGHTS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1], hit[2], hit[3]
    seqs = airplane_sequences(state, vehicle)
    table = card_table(rules.deck_of(vehicle.type))
    flights = fly_turned(vehicle.pose, table, seqs, rules.base_length)
    pool = np.flatnonzero(best_tier(rules, flights))
    for shared in (flights.x, flights.y, flights.heading, flights.headings, pool):
        if shared is not None:
            shared.flags.writeable = False
    if len(_FLIGHTS) >= FLIGHTS_KEPT:
        _FLIGHTS.clear()
    _FLIGHTS[key] = (rules, seqs, flights, pool)
    return seqs, flights, pool


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
