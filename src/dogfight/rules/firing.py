"""Who can fire at whom: arcs, ruler reach, line of sight and overlaps, on whole bases.

000: "If an edge of the ruler can reach any point of the base of an enemy ... while
staying within the firing arc of the attacking airplane ... the attacking airplane can
fire at its opponent." / "A weapon using a ruler ... may not fire through other vehicles,
enemy or friendly." / "Two overlapping airplanes don't block each other's line of sight
or the line of sight of the airplanes firing at them."
"""

from __future__ import annotations

import functools
import heapq
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from dogfight.geometry.frozen import fast_init
from dogfight.geometry.hexbase import Side
from dogfight.geometry.pose import Point
from dogfight.geometry.protection import open_side, unprotected_point
from dogfight.geometry.reach import (
    Arc,
    Extent,
    ShadeCache,
    Sight,
    angular_extent,
    in_arc_region,
    measure,
    sight,
)
from dogfight.geometry.shapes import EPSILON, Polygon, convex_overlap, nearest_point
from dogfight.geometry.sides import REAR, side_towards
from dogfight.rules.arrays import Bools as Bools
from dogfight.rules.arrays import Floats as Floats
from dogfight.rules.arrays import Ints as Ints
from dogfight.rules.state import GameState, Vehicle


@fast_init
@dataclass(frozen=True, slots=True)
class Option:
    """A shot ``firer``'s ``weapon`` could take at ``target``."""

    firer: str
    weapon: str
    target: str
    sight: Sight
    short: bool
    candidates: tuple[str, ...]
    """The bases that might have blocked the shot (``sight.blockers`` index them)."""
    protected: bool = False
    """A shot at a tripod that cannot reach it without crossing its electrified armour."""

    @property
    def blockers(self) -> tuple[str, ...]:
        """The bases whose shadow hides some of the target within the ruler."""
        return tuple(self.candidates[i] for i in self.sight.blockers)


Pairs = tuple[list[int], list[int], list[float], list[float], list[float], list[float]]
""":meth:`Table._measure_pairs` as Python lists: where each firer's pairs begin (by
firer index, one more entry than firers), the other base's index, the distance from the
firing dot to it and its angular extent (axis, lowest and highest offsets)."""

NearBase = tuple[str, Polygon, float, Extent]
"""A base near a firing dot: its id, corners, distance from the dot and angular extent."""

SMALL = 12
"""Up to this many bases, pairs are found with plain Python loops (arrays cost more to
set up than they save)."""


@dataclass(slots=True, init=False)
class Table:
    """The bases in play at one firing step, with their overlaps, computed once.

    Besides the bases by id it keeps them as arrays (centres, headings, sides, corners)
    so that the pairs a shot could join are found for every firer at once
    (:meth:`in_reach`) and the bases near every firing dot are measured in one batch
    (:meth:`near`), instead of in Python loops over every firer x target x blocker.

    Its ``__init__`` is written out (every firing step makes one: the dataclass's would
    test each field for a value passed in and call a default factory for each cache).
    """

    _bases: dict[str, Polygon] | None
    """:attr:`bases`, once read."""
    _vehicles: list[Vehicle]
    _base_of: Callable[[Vehicle], Polygon]
    overlaps: dict[str, set[str]]
    ids: list[str]
    dots: list[Point]
    """Each base's centre dot (its firing dot), in :attr:`ids` order."""
    headings: list[float]
    sides: list[str]
    radius: float
    _index: dict[str, int]
    _centres: Floats | None
    _distance: Floats | None
    _reach: dict[tuple[float, float, float], list[list[int]]]
    """:meth:`in_reach` of every firer (by its index) for one arc and limit."""
    _bearings: tuple[Floats, Floats, Bools] | None
    _near: dict[tuple[int, float], list[NearBase]]
    _batch: dict[float, Pairs]
    shades: ShadeCache
    """Shadows of bases seen from firing dots, built once for all of a firer's shots."""
    apart: bool
    """No two enemies' centres are within a ruler and a base (``ruler + base_radius``, the
    reach :meth:`in_reach` looks within) of each other: no ruler weapon has a target.
    Worked out for a small table (:data:`SMALL`) by :func:`table_of`; False otherwise."""

    def __init__(
        self,
        vehicles: list[Vehicle],
        base_of: Callable[[Vehicle], Polygon],
        overlaps: dict[str, set[str]],
        ids: list[str],
        dots: list[Point],
        headings: list[float],
        sides: list[str],
        radius: float,
    ) -> None:
        self._bases = None
        self._vehicles = vehicles
        self._base_of = base_of
        self.overlaps = overlaps
        self.ids = ids
        self.dots = dots
        self.headings = headings
        self.sides = sides
        self.radius = radius
        self._index = {}
        self._centres = None
        self._distance = None
        self._reach = {}
        self._bearings = None
        self._near = {}
        self._batch = {}
        self.shades = {}
        self.apart = False

    @property
    def bases(self) -> dict[str, Polygon]:
        """Each vehicle's base (``base_of``, :meth:`GameState.base`) by id, in table order,
        made at the first read: a firing step where no two bases come near enough to
        overlap or to fire at each other (most of a duel's) never reads them. A table is
        made once the vehicles have moved and read before anything moves again."""
        bases = self._bases
        if bases is None:
            base_of = self._base_of
            bases = self._bases = {}
            for v in self._vehicles:  # a loop: a comprehension costs a function and frame
                bases[v.id] = base_of(v)
        return bases

    def overlap(self, a: str, b: str) -> bool:
        return b in self.overlaps[a]

    def index(self, vid: str) -> int:
        if not self._index:
            ids = self.ids
            # dict(zip(...)): the comprehension's function object and frame cost more
            self._index = dict(zip(ids, range(len(ids)), strict=True))
        return self._index[vid]

    @property
    def centres(self) -> Floats:
        """The centre dots as an (n, 2) array."""
        if self._centres is None:
            self._centres = np.array(self.dots, dtype=np.float64).reshape(-1, 2)
        return self._centres

    def distance(self) -> Floats:
        """Centre-to-centre distances, firer by row."""
        if self._distance is None:
            d = self.centres[None, :, :] - self.centres[:, None, :]
            self._distance = np.hypot(d[..., 0], d[..., 1])
        return self._distance

    def in_reach(self, index: int, arc: Arc, limit: float) -> list[int]:
        """Indexes of the enemies of base ``index`` it does not overlap whose centre is
        within ``limit`` and whose circumscribed circle (:attr:`radius`) meets the arc's
        wedge: a superset of the bases the arc can reach within ``limit - radius``."""
        if len(self.ids) <= SMALL:
            return [j for j, _ in self._reach_row(index, arc, limit)]
        key = (arc.centre, arc.width, limit)
        rows = self._reach.get(key)
        if rows is None:
            # every firer's row at once: one pass over the pairs, not one array per call
            rows = [[] for _ in self.ids]
            firers, targets = np.nonzero(self._reach_matrix(arc, limit))
            for firer, target in zip(firers.tolist(), targets.tolist(), strict=True):
                rows[firer].append(target)
            self._reach[key] = rows
        return list(rows[index])

    def in_reach_measured(self, index: int, arc: Arc, limit: float) -> list[tuple[int, float]]:
        """:meth:`in_reach` with each base's centre-to-centre distance from base
        ``index`` (``math.hypot`` of the centres' differences, firer first)."""
        if len(self.ids) <= SMALL:
            return self._reach_row(index, arc, limit)
        ox, oy = self.dots[index]
        return [
            (row, math.hypot(tx - ox, ty - oy))
            for row in self.in_reach(index, arc, limit)
            for tx, ty in (self.dots[row],)
        ]

    def _reach_row(self, index: int, arc: Arc, limit: float) -> list[tuple[int, float]]:
        """:meth:`in_reach_measured` with plain Python loops (a small table)."""
        x, y = self.dots[index]
        axis = self.headings[index] + arc.centre
        side = self.sides[index]
        hidden = self.overlaps[self.ids[index]]
        sides, ids, radius = self.sides, self.ids, self.radius
        half = arc.width / 2.0
        out = []
        for j, (tx, ty) in enumerate(self.dots):
            if sides[j] == side or ids[j] in hidden:
                continue
            distance = math.hypot(tx - x, ty - y)
            if distance > limit:
                continue
            if distance > radius:
                off = abs((math.degrees(math.atan2(ty - y, tx - x)) - axis + 180.0) % 360.0 - 180.0)
                # the slack is >= 0 (and float addition monotonic): within half + 1e-6 the
                # base is in reach whatever its slack, worked out only beyond that
                if off > half + 1e-6:
                    slack = math.degrees(math.asin(radius / distance))
                    if off > half + slack + 1e-6:
                        continue
            out.append((j, distance))
        return out

    def _reach_matrix(self, arc: Arc, limit: float) -> Bools:
        distance = self.distance()
        if self._bearings is None:
            # what does not depend on the arc, shared by the front and rear arcs
            d = self.centres[None, :, :] - self.centres[:, None, :]
            sides = np.array(self.sides)
            bearing = np.degrees(np.arctan2(d[..., 1], d[..., 0]))
            headings = np.array(self.headings)
            with np.errstate(divide="ignore", invalid="ignore"):
                slack = np.degrees(np.arcsin(np.clip(self.radius / distance, 0.0, 1.0)))
            self._bearings = (bearing - headings[:, None], slack, sides[:, None] != sides[None, :])
        relative, slack, enemies = self._bearings
        ok: Bools = (distance <= limit) & enemies
        off = np.abs((relative - arc.centre + 180.0) % 360.0 - 180.0)
        ok &= (off <= arc.width / 2.0 + slack + 1e-6) | (distance <= self.radius)
        for vid, others in self.overlaps.items():
            for other in others:
                ok[self.index(vid), self.index(other)] = False
        np.fill_diagonal(ok, False)
        return ok

    def near(self, index: int, ruler: float) -> list[NearBase]:
        """The bases within ``ruler`` of base ``index``'s centre dot (its firing dot), in
        table order, leaving out the firer and the bases it overlaps (000: they block
        none of its shots)."""
        key = (index, ruler)
        hit = self._near.get(key)
        if hit is None:
            small = len(self.ids) <= SMALL
            hit = self._near_small(index, ruler) if small else self._near_batched(index, ruler)
            self._near[key] = hit
        return hit

    def _near_small(self, index: int, ruler: float) -> list[NearBase]:
        firer = self.ids[index]
        origin = self.dots[index]
        ox, oy = origin
        # a base whose centre is farther than the ruler and its circumradius is not near
        beyond = ruler + self.radius + 1e-6
        found: list[NearBase] = []
        bases = self.bases
        for vid, (x, y) in zip(self.ids, self.dots, strict=True):
            if vid == firer or vid in self.overlaps[firer] or math.hypot(x - ox, y - oy) > beyond:
                continue
            base = bases[vid]
            d, _ = nearest_point(base, origin)
            if d <= ruler:
                found.append((vid, base, d, angular_extent(origin, base)))
        return found

    def _near_batched(self, index: int, ruler: float) -> list[NearBase]:
        batch = self._batch.get(ruler)
        if batch is None:
            batch = self._measure_pairs(ruler)
            self._batch[ruler] = batch
        starts, rows, gaps, axes, lows, highs = batch
        origin = self.dots[index]
        bases = self.bases
        found: list[NearBase] = []
        for k in range(starts[index], starts[index + 1]):
            vid = self.ids[rows[k]]
            base = bases[vid]
            gap = gaps[k]
            if abs(gap - ruler) < 1e-6:
                # At the ruler's very end: the same measure as ever decides.
                gap, _ = nearest_point(base, origin)
            if gap <= ruler:
                found.append((vid, base, gap, (axes[k], lows[k], highs[k])))
        return found

    def _measure_pairs(self, ruler: float) -> Pairs:
        """For every (firing dot, other base) pair whose centres are within ``ruler`` and a
        base: the exact distance from the dot to the base and the base's angular extent
        from the dot (:func:`~dogfight.geometry.reach.angular_extent`), all at once, kept
        as Python lists (:data:`Pairs`)."""
        close = self.distance() <= ruler + self.radius + 1e-6
        np.fill_diagonal(close, False)
        for vid, others in self.overlaps.items():
            for other in others:
                close[self.index(vid), self.index(other)] = False
        firers, rows = np.nonzero(close)
        bases = self.bases
        size = max(len(b) for b in bases.values())
        corners = np.array(
            [b + (b[0],) * (size - len(b)) for b in bases.values()], dtype=np.float64
        )
        a = corners[rows]  # (pairs, corners, 2); padding repeats the first corner
        b = np.roll(a, -1, axis=1)
        o = self.centres[firers][:, None, :]
        edge, to_dot = b - a, o - a
        length2 = (edge**2).sum(axis=-1)
        t = np.clip((to_dot * edge).sum(axis=-1) / np.where(length2 > 0, length2, 1.0), 0.0, 1.0)
        foot = a + t[..., None] * edge - o
        gaps = np.hypot(foot[..., 0], foot[..., 1]).min(axis=1)
        turns = edge[..., 0] * to_dot[..., 1] - edge[..., 1] * to_dot[..., 0]
        gaps = np.where((turns >= -EPSILON).all(axis=1), 0.0, gaps)
        rel = a - o
        mean = rel.mean(axis=1)
        axes = np.arctan2(mean[:, 1], mean[:, 0])
        offsets = (np.arctan2(rel[..., 1], rel[..., 0]) - axes[:, None] + math.pi) % (
            2.0 * math.pi
        ) - math.pi
        lows = np.minimum(offsets.min(axis=1), 0.0)
        highs = np.maximum(offsets.max(axis=1), 0.0)
        starts = np.searchsorted(firers, np.arange(len(self.ids) + 1)).tolist()
        return (
            starts,
            rows.tolist(),
            gaps.tolist(),
            axes.tolist(),
            lows.tolist(),
            highs.tolist(),
        )


def possible_blockers(table: Table, firer: str, target: str) -> list[str]:
    """Bases that may block a shot: all but the firer, the target and any base that
    overlaps either of them (000: overlapping airplanes do not block each other's line
    of sight, nor that of airplanes firing at them)."""
    return [
        v
        for v in table.bases
        if v not in (firer, target) and not table.overlap(v, firer) and not table.overlap(v, target)
    ]


def blockers_of(state: GameState, table: Table, firer: Vehicle, target: Vehicle) -> list[str]:
    """The bases that may block this shot under the switch ``blocking``: any base (000:
    "enemy or friendly"; 002) or only the firer's own side's (003: "在飞机和目标间若有己方
    飞机,则不可向这目标开火")."""
    ids = possible_blockers(table, firer.id, target.id)
    if state.rules.switches.blocking == "friendly":
        return [v for v in ids if state.vehicles[v].side == firer.side]
    return ids


def in_blind_spot(state: GameState, firer: Vehicle, weapon: str, seen: Sight) -> bool:
    """002: "Rear gun of two-seaters cannot fire if target is directly behind tail." /
    "If ruler touches target with first half and passes through rear side of two-seater
    → firing blocked." The ruler is the one the shot is measured with (to the nearest
    point it reaches)."""
    if weapon != "rear" or not state.rules.switches.blind_spot or seen.point is None:
        return False
    rules = state.rules
    if not seen.short(rules.half):
        return False
    side = side_towards(firer.pose, seen.point, rules.base_length, rules.base_width)
    return side == REAR


def table_of(state: GameState, vehicles: list[Vehicle] | None = None) -> Table:
    """Bases of every vehicle in play and which of them overlap (the separating-axis
    test only for pairs whose centres are close enough, found with arrays). ``vehicles``
    is ``state.in_play()`` when the caller has it already."""
    if vehicles is None:
        vehicles = state.in_play()
    rules = state.rules
    overlaps: dict[str, set[str]] = {}
    ids: list[str] = []
    dots: list[Point] = []
    headings: list[float] = []
    sides: list[str] = []
    for v in vehicles:  # one pass (a firing step of a small table builds little else)
        vid, pose = v.id, v.pose
        overlaps[vid] = set()
        ids.append(vid)
        dots.append((pose.x, pose.y))
        headings.append(pose.heading)
        sides.append(v.side)
    reach = 2.0 * rules.base_radius
    limit = rules.ruler + rules.base_radius  # what a ruler weapon's in_reach looks within
    table = Table(vehicles, state.base, overlaps, ids, dots, headings, sides, rules.base_radius)
    count = len(vehicles)
    apart = count <= SMALL  # every pair is looked at below only on a small table
    if count <= SMALL:
        pairs = [(i, j) for i in range(count) for j in range(i + 1, count)]
    else:
        centres = table.centres
        dx = np.abs(centres[None, :, 0] - centres[:, None, 0])
        dy = np.abs(centres[None, :, 1] - centres[:, None, 1])
        close = np.triu((dx <= reach) & (dy <= reach), 1)
        pairs = [(int(i), int(j)) for i, j in zip(*np.nonzero(close), strict=True)]
    for i, j in pairs:
        (ax, ay), (bx, by) = dots[i], dots[j]
        # the distance Table._reach_row measures (either way round: hypot takes the sizes)
        if apart and sides[i] != sides[j] and math.hypot(bx - ax, by - ay) <= limit:
            apart = False
        if abs(ax - bx) > reach or abs(ay - by) > reach:
            continue
        a, b = ids[i], ids[j]
        bases = table.bases  # made here only when two bases are this close
        if convex_overlap(bases[a], bases[b]):
            overlaps[a].add(b)
            overlaps[b].add(a)
    table.apart = apart
    return table


Target = tuple[float, str, Vehicle, list[Point], tuple[float, Point]]
"""An enemy whose in-arc part is within the ruler: the distance to that part's nearest
point (ignoring other bases), its id, the vehicle, the part and (distance, point)."""


def _targets(state: GameState, table: Table, firer: Vehicle, weapon: str) -> list[Target]:
    """The enemies whose in-arc part lies within the ruler, in :meth:`Table.in_reach`
    order: the pairs worth measuring come from :meth:`Table.in_reach` (arc and reach, for
    every firer at once)."""
    out: list[Target] = []
    if table.apart:
        return out  # nobody within reach of anybody (most of a duel's firing steps)
    rules = state.rules
    arc = rules.arc(weapon)
    for row in table.in_reach(table.index(firer.id), arc, rules.ruler + rules.base_radius):
        found = _target(state, table, firer, arc, row)
        if found is not None:
            out.append(found)
    return out


def _target(state: GameState, table: Table, firer: Vehicle, arc: Arc, row: int) -> Target | None:
    """Base ``row`` of the table as one of :func:`_targets`, or None."""
    tid = table.ids[row]
    target = state.vehicles[tid]
    if target.eliminated is not None:  # not in play
        return None
    region = in_arc_region(table.bases[tid], firer.pose, arc)
    if not region:
        return None
    nearest = nearest_point(region, firer.pose.point)
    if nearest[0] > state.rules.ruler + 1e-9:
        return None
    return (nearest[0], tid, target, region, nearest)


def _option(
    state: GameState,
    table: Table,
    firer: Vehicle,
    weapon: str,
    found: Target,
    protection: bool,
) -> Option | None:
    """The shot at one of :func:`_targets`, or None when no ruler reaches it: the bases
    that may block it are those :meth:`Table.near` found within the ruler of the firing
    dot, less the target and the bases overlapping it, and
    :func:`~dogfight.geometry.reach.measure` tries the ruler to the nearest in-arc point
    before any exact shadow."""
    rules = state.rules
    ruler = rules.ruler
    _, tid, target, region, nearest = found
    hiding = table.overlaps[tid]
    friendly = rules.switches.blocking == "friendly"  # see blockers_of
    vehicles = state.vehicles
    # the candidates and their ids in one plain loop (comprehensions cost a frame each)
    ids: list[str] = []
    candidates = []
    for vid, base, d, extent in table.near(table.index(firer.id), ruler):
        if vid == tid or vid in hiding:
            continue
        if friendly and vehicles[vid].side != firer.side:
            continue
        candidates.append((len(ids), base, d, extent))
        ids.append(vid)
    seen = measure(firer.pose.point, region, nearest, ruler, candidates, table.shades)
    if not seen.reachable(ruler) or in_blind_spot(state, firer, weapon, seen):
        return None
    return Option(
        firer.id,
        weapon,
        tid,
        seen,
        seen.short(rules.half),
        tuple(ids),
        protection and is_protected(state, firer, target, seen),
    )


def options(
    state: GameState, table: Table, firer: Vehicle, weapon: str, protection: bool = True
) -> list[Option]:
    """Every enemy ``firer``'s ``weapon`` can reach, nearest first (ties by id).

    ``protection=False`` leaves :attr:`Option.protected` unset (False): the caller that
    only picks a target asks :func:`protected` of the one it fires at (the armour test is
    the costly part of a shot at a tripod).

    The pairs worth measuring come from :func:`_targets`, each measured by
    :func:`_option`.
    """
    out: list[Option] = []
    for found in _targets(state, table, firer, weapon):
        option = _option(state, table, firer, weapon, found, protection)
        if option is not None:
            out.append(option)
    out.sort(key=lambda o: (o.sight.distance, o.target))
    return out


SLACK = 1e-6
"""cm by which a ruler's measured distance to a target might come out below the distance
to the target's in-arc part (rounding; never nearly this much)."""


def nearest_option(
    state: GameState, table: Table, firer: Vehicle, weapon: str, protection: bool = True
) -> Option | None:
    """``options(...)[0]`` (None when there is none), measuring only the targets that may
    be it. Each enemy in reach has a bound below which no ruler reaches it: first its
    centre's distance less the largest base radius, then the distance to its in-arc part
    (which no blocker can shorten), then its measured distance. The enemy of the lowest
    bound is taken one stage further until that bound exceeds the best shot measured
    (:data:`SLACK` aside): a crowded table's farther targets are never clipped to the arc
    nor their shadows built once a nearer one is seen."""
    if table.apart:
        return None  # nobody within reach of anybody (most of a duel's firing steps)
    rules = state.rules
    arc = rules.arc(weapon)
    index = table.index(firer.id)
    radius = table.radius
    ids = table.ids
    heap: list[tuple[float, str, int, Target | None]] = []
    for row, distance in table.in_reach_measured(index, arc, rules.ruler + rules.base_radius):
        heap.append((distance - radius, ids[row], row, None))  # a loop: no comprehension
    heapq.heapify(heap)
    best: Option | None = None
    while heap:
        bound, tid, row, found = heapq.heappop(heap)
        if best is not None and bound > best.sight.distance + SLACK:
            break
        if found is None:
            found = _target(state, table, firer, arc, row)
            if found is not None:
                heapq.heappush(heap, (found[0], tid, row, found))
            continue
        option = _option(state, table, firer, weapon, found, protection)
        if option is not None and (
            best is None
            or (option.sight.distance, option.target) < (best.sight.distance, best.target)
        ):
            best = option
    return best


def protected(state: GameState, option: Option) -> Option:
    """The option with its armour test taken (see ``options(protection=False)``)."""
    firer, target = state.vehicles[option.firer], state.vehicles[option.target]
    if not is_protected(state, firer, target, option.sight):
        return option
    return replace(option, protected=True)


@functools.lru_cache(maxsize=64)
def _sides(names: tuple[str, ...]) -> tuple[Side, ...]:
    """A tripod model's protected sides, parsed once."""
    return tuple(Side.parse(s) for s in names)


def is_protected(state: GameState, firer: Vehicle, target: Vehicle, seen: Sight) -> bool:
    """000: "the earthling player checks with the ruler if he can reach its base without
    crossing the orange line. If he can, then the tripod is hit on an unprotected side" /
    "If a tripod is hit across an unprotected side, while laying down, or at 0 Energy, it
    takes damage normally." """
    if target.tripod is None or target.tripod.toppled or target.tripod.energy < 1:
        return False
    shielded = _sides(tuple(state.rules.tripod(target.type).protected))
    if not shielded:
        return False
    args = (target.pose, state.rules.hex_side, shielded, firer.pose.point)
    reached = open_side(*args, seen.region, state.rules.ruler, seen.sees)
    if reached is None:  # too close to call without the exact shapes
        reached = unprotected_point(*args, seen.visible(), state.rules.ruler) is not None
    return not reached


def blocked_shots(
    state: GameState, table: Table, firer: Vehicle, weapon: str
) -> list[tuple[str, tuple[str, ...]]]:
    """Enemies in arc and within the ruler that other bases hide completely (for rulings)."""
    rules = state.rules
    arc = rules.arc(weapon)
    found: list[tuple[str, tuple[str, ...]]] = []
    reachable = {o.target for o in options(state, table, firer, weapon, protection=False)}
    for target in state.in_play():
        if (
            target.side == firer.side
            or target.id in reachable
            or table.overlap(firer.id, target.id)
        ):
            continue
        bare = sight(firer.pose, arc, table.bases[target.id], rules.ruler)
        if bare.reachable(rules.ruler):
            ids = blockers_of(state, table, firer, target)
            seen = sight(
                firer.pose, arc, table.bases[target.id], rules.ruler, [table.bases[v] for v in ids]
            )
            found.append((target.id, tuple(ids[i] for i in seen.blockers)))
    return found


def why_not(state: GameState, table: Table, firer: Vehicle, weapon: str, target: Vehicle) -> str:
    """In words, why ``firer``'s ``weapon`` cannot fire at ``target`` this step."""
    if not target.in_play:
        return "is out of the game"
    if table.overlap(firer.id, target.id):
        return "overlaps the firer (overlapping airplanes cannot fire at each other)"
    rules = state.rules
    bare = sight(firer.pose, rules.arc(weapon), table.bases[target.id], rules.ruler)
    if bare.arc_point is None:
        return "is outside the firing arc"
    if not bare.reachable(rules.ruler):
        return f"is beyond the ruler ({bare.arc_distance:.1f} cm)"
    ids = blockers_of(state, table, firer, target)
    seen = sight(
        firer.pose,
        rules.arc(weapon),
        table.bases[target.id],
        rules.ruler,
        [table.bases[v] for v in ids],
    )
    if seen.reachable(rules.ruler) and in_blind_spot(state, firer, weapon, seen):
        return "is in the rear gun's blind spot, right behind the tail (002)"
    return "is blocked by " + ", ".join(ids[i] for i in seen.blockers)
