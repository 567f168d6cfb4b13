"""The planning bots' airplane: every (or a sample of) legal three-card plan scored
against the enemy's plausible flights, phase by phase (see :mod:`dogfight.bots.airplanes`);
the levels and the valuation. Choosing a plan with these scores is
:mod:`dogfight.bots.plane_choice`'s."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from dogfight.bots import kernels
from dogfight.bots.threats import (
    F32,
    SAFE_MARGIN,
    CardOdds,
    Enemy,
    arc_offsets,
    base_points,
    card_odds,
    in_arc_offsets,
    nearest_in_arc,
    nearest_in_arc_rows,
    odds,
    unprotected,
    world_points,
)
from dogfight.bots.view import (
    Bools,
    Flights,
    Floats,
    Ints,
    card_table,
    fly,
    legal_sequences,
    unit_vectors,
)
from dogfight.catalog.models import (
    ManeuverDeck,
    Symbol,
)
from dogfight.geometry.hexbase import Side
from dogfight.geometry.pose import Pose
from dogfight.rules.context import Rules
from dogfight.rules.plans import Flown
from dogfight.rules.state import GameState, Vehicle

Rows = npt.NDArray[Any]
"""Per-run or per-plan values (floats or booleans)."""

# --- scoring --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Valuation:
    """The weights of a plan's value (:func:`evaluate`, :func:`_end_position`): the
    ``hard`` and ``easy`` bots' are hand-set (:data:`HAND_SET`), the ``learned`` bot's
    were found by an evolution strategy (:mod:`dogfight.learned`)."""

    risk: float = 1.0
    """How much a point of damage taken weighs against one dealt, undamaged..."""
    risk_damage: float = 1.5
    """...and how much more it weighs per share of the resistance already lost."""
    ahead: float = 2.0
    """The end position: an enemy ahead of the nose (cosine squared, times ``near``)."""
    behind: float = 2.0
    """The end position: ourselves ahead of an enemy's nose (times the risk)."""
    near_at: float = 0.45
    """``near``: a bell in the distance, highest at this share of the ruler..."""
    near_width: float = 0.6
    """...this wide (a share of the ruler)."""
    far: float = 1.5
    """The cost of the distance to an enemy, per table width plus height."""
    trapped: float = 40.0
    """The cost of ending where no compact turn keeps the airplane on the table."""


HAND_SET = Valuation()


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
    shortlist: int | None = None
    """Coarse to fine: score every plan against :data:`ROUGH_POSES` poses per enemy,
    then only the best ``shortlist`` against the whole model (None: one pass)."""
    rough_centres: bool = False
    """The coarse pass measures between centre dots, not whole bases."""
    reply_pool: int | None = None
    """The enemy's best replies are sought among a uniform sample of this many of its
    plans (None: all of them)."""
    valuation: Valuation = HAND_SET
    predictor: Level | None = None
    """Model each enemy airplane as this level would fly it from the enemy's seat (what
    the observation shows of it): its ``predicted`` best plans carry ``predict`` of the
    enemy model's weight, uniform plausible plans the rest (in place of
    ``best_replies``)."""
    predict: float = 0.0
    predicted: int = 3
    predicted_temperature: float = 0.0
    """0: the ``predicted`` plans share ``predict`` evenly; else in proportion to
    ``exp(value / predicted_temperature)``, their values as the predictor scored them (a
    plan a point of damage worse, at 1.0, weighs e times less)."""


ROUGH_POSES = 5
"""Poses per enemy in the coarse pass (the whole model has ``samples`` and half more)."""
EASY = Level("easy", own_plans=120, samples=6, best_replies=False, lookahead=False)
HARD = Level(
    "hard",
    own_plans=None,
    samples=14,
    best_replies=True,
    lookahead=True,
    shortlist=160,
    rough_centres=True,
    reply_pool=600,
)


@dataclass
class Scored:
    score: Floats
    rockets: Ints
    """Per plan, the phase (1-2) to launch rockets in, 0 for none."""


def _prefixes(seqs: Ints) -> tuple[list[tuple[Ints, Ints]], Ints]:
    """Per phase p, a representative row of each run of plans sharing their first
    ``p + 1`` cards, and each plan's run; and each run's run of the phase before, as a
    column of the runs of all phases side by side (:class:`Runs`; phase 0's runs: 0).
    Plans come grouped by their first cards (see :func:`dogfight.bots.view.fly`), so
    equal beginnings are neighbours; were a beginning split over two runs, both would
    give the same poses (only work is shared)."""
    n, k = seqs.shape
    first = np.empty((k, n), dtype=np.intp)
    inverse = np.empty((k, n), dtype=np.intp)
    counts = np.empty(k, dtype=np.intp)
    parent = np.zeros(k * n, dtype=np.intp)
    kernels.prefix_runs(np.ascontiguousarray(seqs, dtype=np.int64), first, inverse, counts, parent)
    out = [(first[p, : counts[p]], inverse[p]) for p in range(k)]
    return out, parent[: counts.sum()]


def take_rows(a: Rows, rows: Ints) -> Rows:
    """``a[rows]``, the same values, C-contiguous: ``take`` along the contiguous axis
    gathers rows of a few floats several times faster than indexing, and elementwise
    work runs several times slower on operands of mixed layouts."""
    out: Rows = np.ascontiguousarray(a).take(rows, axis=0)
    return out


GEMV_BLOCK = 4
"""Rows numpy's matrix-vector product (OpenBLAS's gemv) sums together: each row of a
whole block of this many is summed alike wherever the block lies, the rows after the
last whole block another way."""


def spread_dot(a: Rows, w: Floats, inverse: Ints) -> Floats:
    """``a[inverse] @ w``, the very floats, from one product per row of ``a`` (a run's
    row serves every plan of the run): each row is summed as a row of a whole block, and
    the plans after the last whole block of ``inverse`` as rows after a whole block, as
    the product over ``a[inverse]`` sums them (``tests/test_plane_planner.py`` holds the
    two equal). Spreading a few dozen runs' rows to thousands of plans first costs more
    than everything else done with them."""
    n = len(inverse)
    if n < 2 * GEMV_BLOCK or len(a) * 2 > n:
        out: Floats = take_rows(a, inverse) @ w
        return out
    rows, m = a.shape
    whole = np.zeros((rows + (-rows) % GEMV_BLOCK, m))
    whole[:rows] = a
    out = (whole @ w)[inverse]
    tail = n % GEMV_BLOCK
    if tail:
        after = np.zeros((GEMV_BLOCK + tail, m))
        after[GEMV_BLOCK:] = a[inverse[n - tail :]]
        out[n - tail :] = (after @ w)[GEMV_BLOCK:]
    return out


@dataclass(frozen=True)
class Runs:
    """The runs of plans sharing their first cards (:func:`_prefixes`) of all three
    phases side by side: columns ``offsets[p]:offsets[p + 1]`` are phase ``p``'s runs,
    each with its pose. Work done once per column is work done per run phase by phase
    (the same operations on the same floats) in a third of the numpy calls; arrays are
    (enemy poses, runs), so numpy's inner loops run along the many runs."""

    structure: list[tuple[Ints, Ints]]
    counts: list[int]
    """Runs per phase."""
    offsets: tuple[int, int, int, int]
    phase: Ints
    """(runs,) each run's phase."""
    parent: Ints
    """(runs,) each run's run of the phase before, as a column (phase 0's runs: 0)."""
    x: Floats
    y: Floats
    heading: Floats
    units: tuple[Floats, Floats] | None
    """The headings' cosine and sine when the flights know their distinct headings."""

    @staticmethod
    def of(seqs: Ints, flights: Flights) -> Runs:
        structure, parent = _prefixes(seqs)
        firsts = [first for first, _ in structure]
        counts = [len(first) for first in firsts]
        offsets = (0, counts[0], counts[0] + counts[1], sum(counts))
        phase = np.repeat(np.arange(3), counts)
        flat = np.concatenate(firsts) * 3 + phase  # (plan, phase) in a flights array
        units = None
        if flights.turns is not None and flights.headings is not None:
            c, s = unit_vectors(flights.headings)  # as Flights.units gives them
            which = flights.turns.take(flat)
            units = c.take(which), s.take(which)
        return Runs(
            structure,
            counts,
            offsets,
            phase,
            parent,
            flights.x.take(flat),
            flights.y.take(flat),
            flights.heading.take(flat),
            units,
        )

    def columns(self, p: int) -> slice:
        return slice(self.offsets[p], self.offsets[p + 1])

    def axis_units(self, centre: float, lo: int = 0) -> tuple[Floats, Floats]:
        """The cosine and sine of an arc's axis (``centre`` degrees off the nose) at the
        runs from ``lo`` on, (1, runs), as :func:`~dogfight.bots.threats.nearest_in_arc`
        works them out (or is given them, for an arc about the nose)."""
        if centre == 0.0 and self.units is not None:
            return self.units[0][None, lo:], self.units[1][None, lo:]
        rad = np.radians(self.heading[lo:] + centre)
        return np.cos(rad)[None, :], np.sin(rad)[None, :]

    def by_phase(self, a: Rows) -> Rows:
        """Per run, the entry of ``a`` (whose last axis is the three phases) at the run's
        phase (the same values as indexing by :attr:`phase`, repeated a block at a time)."""
        out: Rows = a.repeat(self.counts, axis=-1)
        return out

    def _part(self, a: Rows, p: int, lo: int) -> Rows:
        """Phase ``p``'s columns of ``a`` (whose first column is run ``lo``) as (runs,
        poses)."""
        out: Rows = a[:, self.offsets[p] - lo : self.offsets[p + 1] - lo].T
        return out

    def per_plan(self, a: Rows, p: int, lo: int = 0) -> Rows:
        """Phase ``p``'s columns of ``a`` (whose first column is run ``lo``) spread to
        the plans, (plans, poses) in the layout a gather gives (matrix products sum
        alike)."""
        part = self._part(a, p, lo)
        first, inverse = self.structure[p]
        if len(first) == len(inverse):  # each plan its own run
            out: Rows = np.ascontiguousarray(part)
        else:
            out = take_rows(part, inverse)
        return out

    def summed(self, a: Rows, w: Floats, p: int, lo: int = 0) -> Floats:
        """``per_plan(a, p, lo) @ w``, the same floats, without spreading the runs'
        rows to the plans first (:func:`spread_dot`)."""
        part = self._part(a, p, lo)
        first, inverse = self.structure[p]
        if len(first) == len(inverse):
            out: Floats = np.ascontiguousarray(part) @ w
            return out
        return spread_dot(part, w, inverse)


def weapons_at(rules: Rules, vehicle: Vehicle, phase: int) -> list[tuple[str, str]]:
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
    centres: bool = False,
    trapped: Bools | None = None,
    valuation: Valuation = HAND_SET,
) -> Scored:
    """Expected damage dealt minus taken over the turn for each plan, rockets, the end
    position (with ``lookahead``); higher is better. With ``centres`` (a coarse pass)
    bases are their centre dots and the ruler is longer by half a base's width.
    ``trapped``: each plan's :func:`_trapped` when the caller has it already (it depends
    on the plan's final pose only, so a coarse and a fine pass share it).

    Values are worked out per run (plans sharing a phase's pose), the runs of the three
    phases side by side (:class:`Runs`), and only what enters a matrix product is spread
    to the plans, phase by phase: the same operations on the same floats as plan by plan
    and phase by phase, so the same sums."""
    rules = state.rules
    n = len(seqs)
    score = np.zeros(n)
    rockets = np.zeros(n, dtype=np.int64)
    if not enemies:
        return Scored(score, rockets)
    risk = valuation.risk + valuation.risk_damage * me.damage / max(1, me.resistance)
    aim_on = rules.switches.aim_bonus
    ruler2, half2 = rules.ruler**2, rules.half**2
    overlap2 = (rules.base_length * 0.9) ** 2
    if centres:
        grow = rules.base_width / 2.0
        ruler2, half2 = (rules.ruler + grow) ** 2, (rules.half + grow) ** 2
    runs = Runs.of(seqs, flights)
    rocketeer = bool(
        me.rockets and rules.switches.standard_rules and rules.airplane(me.type).rockets
    )
    dealt_phase = np.zeros((3, len(enemies), n))
    front_dealt = np.zeros((3, len(enemies), n))
    front_reach: list[list[Floats]] = [[], [], []]
    arc_seen: list[list[Floats]] = [[], [], []]
    taken = np.zeros(n)
    # our base's sample points at each run's pose, (k, 1, runs)
    if centres:  # the centre dot itself, as world_points would give it
        mx, my_ = runs.x[None, None, :], runs.y[None, None, :]
        f32 = np.float32
        ox, oy = runs.x.astype(f32), runs.y.astype(f32)
    else:
        wx, wy = world_points(runs.x, runs.y, runs.heading, base_points(rules, me), runs.units)
        mx, my_ = wx.T[:, None, :], wy.T[:, None, :]
    for e_index, enemy in enumerate(enemies):
        target = enemy.vehicle
        w = enemy.weight
        m = len(w)
        # the enemy's poses at each run's phase, (m, runs)
        ex, ey = runs.by_phase(enemy.x), runs.by_phase(enemy.y)
        dx = ex - runs.x[None, :]
        dy = ey - runs.y[None, :]
        apart = dx * dx + dy * dy > overlap2  # centre dots further apart than overlapping
        between = None
        if centres:  # (1, m, runs); both arcs measured on the same offsets
            px, py = ex[None], ey[None]
            qx = runs.by_phase(enemy.x.astype(f32))  # cast, then repeated: the same floats
            qy = runs.by_phase(enemy.y.astype(f32))
            between = arc_offsets(qx, qy, ox, oy)
        else:  # each phase's poses once, then each run's phase: (k, m, runs)
            wx, wy = world_points(
                enemy.x.ravel(), enemy.y.ravel(), enemy.heading.ravel(), base_points(rules, target)
            )
            px = runs.by_phase(wx.T.reshape(-1, m, 3))
            py = runs.by_phase(wy.T.reshape(-1, m, 3))
        shield = None
        if target.tripod is not None:
            sides = [
                unprotected(rules, target, *enemy.phase(p), runs.x[c], runs.y[c])
                for p in range(3)
                for c in [runs.columns(p)]
            ]  # (runs, m) each phase; laid out (m, runs) as the kernels read it
            shield = np.ascontiguousarray(np.concatenate(sides).T)
        for weapon, letter in rules.weapons(me.type):
            start = me.jams.get(weapon, 0)  # the first phase it fires at (weapons_at)
            if start > 2:
                continue
            lo = runs.offsets[start]
            arc = rules.arc(weapon)
            units = runs.axis_units(arc.centre, lo)
            if between is not None:
                d2 = in_arc_offsets(_after(between, lo), units, arc.width / 2.0)
            else:
                d2 = nearest_in_arc_rows(
                    runs.x[None, lo:],
                    runs.y[None, lo:],
                    units,
                    arc.width / 2.0,
                    px[:, :, lo:],
                    py[:, :, lo:],
                )
            # the aim bonus: this weapon reached the run's run a phase before
            aimed = start == 0 and _aimed_now(state, me, weapon, target.id)
            value, hit = _weapon_values(
                runs,
                start,
                d2,
                apart,
                ruler2,
                half2,
                odds(rules, letter, target),
                aim_on,
                float(aimed),
                True,
                shield,
            )
            sh = None if shield is None else shield[:, lo:]
            for p in range(start, 3):
                expected = runs.summed(value, w, p, lo)
                dealt_phase[p, e_index] += expected
                if weapon == "front" and rocketeer:
                    front_dealt[p, e_index] = expected
                    front_reach[p].append(runs.per_plan(hit * (1.0 if sh is None else sh), p, lo))
        if rocketeer:
            arc = rules.front_arc
            d2 = nearest_in_arc_rows(
                runs.x[None, :],
                runs.y[None, :],
                runs.axis_units(arc.centre),
                arc.width / 2.0,
                px,
                py,
            )
            seen = ((d2 < np.inf) | ~apart).astype(np.float64)
            if shield is not None:
                seen = seen * shield
            for p in range(3):
                arc_seen[p].append(runs.per_plan(seen, p))
        # what the enemy's weapons do to us
        if target.tripod is not None:
            for p in range(3):
                if enemy.ray[p] > 0:
                    cols = runs.columns(p)
                    got = heat_ray_threat(
                        rules, target, *enemy.phase(p), mx[:, 0, cols].T, my_[:, 0, cols].T
                    )  # (m, u)
                    taken += enemy.ray[p] * runs.summed(got, w, p, cols.start)
            continue
        terms: list[list[Floats]] = [[], [], []]
        for weapon, letter in rules.weapons(target.type):
            start = target.jams.get(weapon, 0)
            if start > 2:
                continue
            lo = runs.offsets[start]
            arc = rules.arc(weapon)
            rad = np.radians(enemy.heading + arc.centre)  # (m, 3), as nearest_in_arc turns
            # cast, then repeated: the same floats as repeated, then cast
            axes = (
                runs.by_phase(np.cos(rad).astype(np.float32))[:, lo:],
                runs.by_phase(np.sin(rad).astype(np.float32))[:, lo:],
            )
            if between is not None:  # from our centre dots back to theirs
                d2 = in_arc_offsets(_after(between, lo), axes, arc.width / 2.0, reverse=True)
            else:
                d2 = nearest_in_arc_rows(
                    ex[:, lo:], ey[:, lo:], axes, arc.width / 2.0, mx[:, :, lo:], my_[:, :, lo:]
                )
            # the aim bonus: it reached the run's run a phase before
            value, _ = _weapon_values(
                runs,
                start,
                d2,
                apart,
                ruler2,
                half2,
                odds(rules, letter, me),
                aim_on,
                0.0,
                False,
                None,
            )
            for p in range(start, 3):
                terms[p].append(runs.summed(value, w, p, lo))
        for p in range(3):  # summed phase by phase, weapon by weapon
            for term in terms[p]:
                taken += term
    # one shot per weapon per phase: the best enemy, not the sum
    score += dealt_phase.max(axis=1).sum(axis=0)
    score -= risk * taken
    if arc_seen[0]:
        gain, phase = _rocket_gain(rules, me, seqs, enemies, front_reach, arc_seen, front_dealt)
        score += gain
        rockets = phase
    if lookahead:
        score += _end_position(rules, me, seqs, flights, enemies, risk, trapped, valuation)
    return Scored(score, rockets)


_NO_SHIELD = np.empty((0, 0))


def _weapon_values(
    runs: Runs,
    start: int,
    d2: Floats,
    apart: Bools,
    ruler2: float,
    half2: float,
    card: CardOdds,
    aim_on: bool,
    first: float,
    own: bool,
    shield: Floats | None,
) -> tuple[Floats, Floats]:
    """A weapon firing from phase ``start`` on: its expected damage per (enemy pose, run)
    from phase ``start``'s first run on, and where it reaches (1, else 0), given the
    arc's squared distances ``d2`` (:func:`dogfight.bots.kernels.weapon_values`: 1 card,
    2 within half the ruler; the aim bonus with ``aim_on``, ``first`` at phase
    ``start``'s runs, times the reach now for our weapons (``own``); ``shield``: where a
    tripod's side is unprotected)."""
    lo = runs.offsets[start]
    value = np.empty(d2.shape)
    hit = np.empty(d2.shape)
    kernels.weapon_values(
        d2,
        apart,
        lo,
        ruler2,
        half2,
        np.array([card.points, card.nonzero, card.energy]),
        aim_on,
        first,
        own,
        runs.parent,
        runs.offsets[start + 1] - lo,
        _NO_SHIELD if shield is None else shield,
        value,
        hit,
    )
    return value, hit


def _after(offsets: tuple[F32, F32], lo: int) -> tuple[F32, F32]:
    """The offsets of the runs from ``lo`` on."""
    dx, dy = offsets
    return dx[:, lo:], dy[:, lo:]


def heat_ray_threat(
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
    card = card_odds(rules, letter, 12, 0)
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


_ESCAPES: dict[tuple[int, frozenset[Symbol], float], tuple[object, Flights]] = {}


def _escapes(deck: ManeuverDeck, symbols: frozenset[Symbol], base_length: float) -> Flights:
    """A dozen compact turns (three cards legal after any maneuver but an Immelmann)
    an airplane can use to stay on the table next turn, flown from the origin facing
    0 degrees: where the centre dot is after each card."""
    key = (id(deck), symbols, base_length)
    hit = _ESCAPES.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    seqs = legal_sequences(deck, Flown(Symbol.STEEP, True), symbols)
    table = card_table(deck)
    f = fly(_ORIGIN, table, seqs, base_length)
    spread = np.hypot(f.x, f.y).max(axis=1)
    order = np.argsort(spread, kind="stable")[:12]
    out = Flights(f.x[order], f.y[order], f.heading[order])
    _ESCAPES[key] = (deck, out)
    return out


def _end_position(
    rules: Rules,
    me: Vehicle,
    seqs: Ints,
    flights: Flights,
    enemies: Sequence[Enemy],
    risk: float,
    trapped: Bools | None = None,
    valuation: Valuation = HAND_SET,
) -> Floats:
    """Where the turn leaves us: enemies ahead of our nose and not the reverse, close
    enough to fight; a cost when no compact turn keeps us on the table next turn."""
    n = len(seqs)
    fx, fy, fh = (a[:, 2] for a in (flights.x, flights.y, flights.heading))
    units = flights.units(2)
    if units is None:
        rad = np.radians(fh)
        units = np.cos(rad), np.sin(rad)
    cos, sin = np.ascontiguousarray(units[0]), np.ascontiguousarray(units[1])
    fx, fy = np.ascontiguousarray(fx), np.ascontiguousarray(fy)
    size = rules.table_width + rules.table_height
    out = np.zeros(n)
    # value = 2 mine - 2 risk theirs - 1.5 d / (w + h) (the hand-set weights), where mine
    # is the cosine of the enemy's bearing off our nose clipped at 0, squared, times
    # near (a bell in the distance d), and theirs the same off the enemy's tail; worked
    # out per (plan, pose) by two kernels around numpy's exp (kernels.end_values)
    for enemy in enemies:
        ex, ey, eh = (np.ascontiguousarray(a) for a in enemy.phase(2))
        erad = np.radians(eh)
        tripod = enemy.vehicle.tripod is not None
        reach = rules.heat_ray_ruler(enemy.vehicle.type).length if tripod else rules.ruler
        near = np.empty((n, len(ex)))
        kernels.end_distances(
            ex, ey, fx, fy, valuation.near_at * reach, valuation.near_width * reach, near
        )
        np.exp(near, out=near)
        kernels.end_values(
            ex,
            ey,
            np.cos(erad),
            np.sin(erad),
            fx,
            fy,
            cos,
            sin,
            tripod,
            valuation.ahead,
            valuation.behind * risk,
            valuation.far,
            size,
            near,
        )
        # summed plan by plan in the pose order of a (plans, poses) array
        out += near @ enemy.weight
    if trapped is None:
        trapped = _trapped(rules, me, fx, fy, fh, _final_turns(flights))
    out -= valuation.trapped * trapped
    return out


def _trapped(
    rules: Rules,
    me: Vehicle,
    fx: Floats,
    fy: Floats,
    fh: Floats,
    turns: tuple[Ints, Floats] | None = None,
) -> Bools:
    """Per final pose: True when none of the compact escapes (:func:`_escapes`) flown
    from it keeps the centre dot ``SAFE_MARGIN`` on the table for three cards.
    ``turns``: each pose's index among distinct headings, and those headings (as
    :class:`~dogfight.bots.view.Flights` knows them), which spares sorting the headings."""
    n = len(fx)
    escapes = _escapes(rules.deck_of(me.type), frozenset(usable_symbols(rules)), rules.base_length)
    w, h = rules.table_width, rules.table_height
    edge = np.minimum(np.minimum(fx, w - fx), np.minimum(fy, h - fy))
    rows = np.flatnonzero(edge < 25.0)  # further in, some compact turn always fits
    # a card moves a base in its own frame, so an escape flown from a pose is the
    # escape flown from the origin, turned by the heading and moved to the pose; the
    # plans end at a few dozen headings, and for each heading an escape fits when the
    # centre lies in a box (the table less the escape's reach each way)
    if turns is None:
        headings, which = np.unique(fh[rows], return_inverse=True)
    else:  # the distinct headings present, numbered in order
        index, distinct = turns
        at = index[rows]
        present = np.zeros(len(distinct), dtype=np.bool_)
        present[at] = True
        which = (np.cumsum(present) - 1)[at]
        headings = distinct[present]
    turned = np.radians(headings)
    c, s = np.cos(turned), np.sin(turned)  # (headings,)
    trapped: Bools = np.zeros(n, dtype=np.bool_)
    kernels.trapped_rows(
        np.ascontiguousarray(fx),
        np.ascontiguousarray(fy),
        rows,
        np.ascontiguousarray(which, dtype=np.intp),
        c,
        s,
        escapes.x,
        escapes.y,
        SAFE_MARGIN,
        w,
        h,
        trapped,
    )
    return trapped


def _final_turns(flights: Flights) -> tuple[Ints, Floats] | None:
    """Each plan's final heading as an index among the distinct headings, and those."""
    if flights.turns is None or flights.headings is None:
        return None
    return flights.turns[:, 2], flights.headings


def usable_symbols(rules: Rules) -> frozenset[Symbol]:
    return _ALTITUDE if rules.switches.altitude_cards else _LEVEL


_ALTITUDE = frozenset(Symbol)
_LEVEL = _ALTITUDE - {Symbol.CLIMB, Symbol.DIVE}


_ORIGIN = Pose(0.0, 0.0, 0.0)
