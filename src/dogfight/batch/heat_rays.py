"""The firing step of a table with a tripod: who fires at whom, heat-rays and the
electrified armour, measured by the referee's own geometry.

On such a table every shot is decided here, table by table, with the functions the
referee's firing step calls (``firing.nearest_option`` and ``firing.protected`` for the
airplanes' guns, ``rays.RayScene`` for the heat-rays), on a :class:`GameState` holding
only what they read (poses, sides, models, consoles): the hexagonal base, the heat-ray
rulers laid at a right angle or tilted, and the armour's open sides are one
implementation, not two. The draws and their effects stay on arrays
(:mod:`dogfight.batch.game`). This is the slow part of a tripod table (docs/batch.md,
"Benchmark").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dogfight.batch import sight
from dogfight.batch.armour import guns_at_tripod
from dogfight.batch.arrays import any_slot
from dogfight.batch.bridge import as_tripod
from dogfight.batch.heat_ray_rulers import overlaps_of, ray_targets
from dogfight.batch.spec import Bools, Floats, Ints
from dogfight.batch.state import WEAPONS, BatchState
from dogfight.batch.tripod_spec import hexagons
from dogfight.geometry.pose import Pose
from dogfight.rules import firing
from dogfight.rules.state import GameState, Vehicle


@dataclass
class TripodShots:
    """The shots decided on the tables with a tripod (arrays over the whole batch)."""

    protected: Bools
    """(B, N, 2) a gun's shot at a tripod stopped by its working armour."""
    ray_target: Ints
    """(B, N) the slot each heat-ray hits, -1 for a miss or no heat-ray."""
    ray_distance: Floats
    ray_short: Bools


def no_shots(tables: int, slots: int) -> TripodShots:
    """Nothing decided yet (no gun at a tripod, no heat-ray)."""
    return TripodShots(
        protected=np.zeros((tables, slots, 2), dtype=np.bool_),
        ray_target=np.full((tables, slots), -1, dtype=np.int64),
        ray_distance=np.full((tables, slots), np.inf),
        ray_short=np.zeros((tables, slots), dtype=np.bool_),
    )


def table_state(state: BatchState, b: int) -> tuple[GameState, dict[str, int]]:
    """Table ``b``'s vehicles in play as a referee ``GameState`` (what the firing step's
    geometry reads), and each one's slot by id."""
    spec = state.spec
    names = state.names[b]
    vehicles: dict[str, Vehicle] = {}
    slot: dict[str, int] = {}
    for n in np.flatnonzero(state.alive[b]).tolist():
        vid = names[n]
        slot[vid] = n
        vehicles[vid] = Vehicle(
            id=vid,
            type=spec.type_ids[int(state.type[b, n])],
            side=state.side_names[int(state.side[b, n])],
            pose=Pose(float(state.x[b, n]), float(state.y[b, n]), float(state.heading[b, n])),
            resistance=int(state.resistance[b, n]),
        )
        if state.tripod[b, n]:
            as_tripod(state, b, n, vehicles[vid], planned=False)
    return GameState(rules=spec.rules, vehicles=vehicles, piles={}), slot


def decide(
    state: BatchState,
    act: Bools,
    ready: list[Bools],
    rayed: Bools,
    target: Ints,
    dist: Floats,
) -> TripodShots:
    """Decide the guns' targets where a tripod may change them (filling ``target`` and
    ``dist``, (B, N, 2), for those tables) and every heat-ray fired (``rayed``), as the
    referee's firing step: the nearest reachable enemy (``auto``), the armour tested on
    the shot taken; a heat-ray at the nearest target its projector's ruler reaches, or
    at the chosen one (a miss when that one is not reached)."""
    out = no_shots(state.tables, state.slots)
    rows = tables_with_tripods(state, act, ready)
    duel = duels(state, rows)
    for b in rows[duel].tolist():
        _referee_guns(state, b, ready, target, dist, out)
    arrays = rows[~duel]
    if len(arrays):
        _array_guns(state, arrays, ready, target, dist, out)
    rows = np.flatnonzero(any_slot(rayed))
    if len(rows):
        tripod = np.argmax(rayed[rows], axis=1)
        bases, overlaps = overlaps_of(state, rows)
        hit, distance, short = ray_targets(state, rows, tripod, bases, overlaps)
        out.ray_target[rows, tripod] = hit
        out.ray_distance[rows, tripod] = distance
        out.ray_short[rows, tripod] = short
    return out


REACH_MARGIN = 1e-6
"""cm beyond the ruler within which a gun is still handed to the referee's measure (its
own tolerance is 1e-9: rounding never turns a reach into a miss here)."""


def _referee_guns(
    state: BatchState,
    b: int,
    ready: list[Bools],
    target: Ints,
    dist: Floats,
    out: TripodShots,
) -> None:
    """Table ``b``'s guns decided by the referee's own functions (a table where the tripod
    may hide an airplane's airplane target)."""
    target[b] = -1
    dist[b] = np.inf
    gs, slot = table_state(state, b)
    table = firing.table_of(gs)
    names = state.names[b]
    for i in np.flatnonzero(state.alive[b] & ~state.tripod[b]).tolist():
        firer = gs.vehicles[names[i]]
        for w in (0, 1):
            if not ready[w][b, i]:
                continue
            option = firing.nearest_option(gs, table, firer, WEAPONS[w], protection=False)
            if option is None:
                continue
            target[b, i, w] = slot[option.target]
            dist[b, i, w] = option.sight.distance
            out.protected[b, i, w] = firing.protected(gs, option).protected


def _array_guns(
    state: BatchState,
    rows: Ints,
    ready: list[Bools],
    target: Ints,
    dist: Floats,
    out: TripodShots,
) -> None:
    """The guns of tables ``rows`` (no airplane there has an enemy airplane: the tripod is
    every gun's only possible target) decided on arrays (:mod:`dogfight.batch.armour`)."""
    target[rows] = -1
    dist[rows] = np.inf
    tripod = np.argmax(state.tripod[rows] & state.alive[rows], axis=1)
    enemy = state.side[rows] != state.side[rows, tripod][:, None]
    rect, overlaps = overlaps_of(state, rows)
    for w in (0, 1):
        r, i = np.nonzero(ready[w][rows] & enemy)
        if len(r) == 0:
            continue
        b, j = rows[r], tripod[r]
        distance, protected = guns_at_tripod(
            state, b, i, np.full(len(r), w), j, (r, rect, overlaps)
        )
        hit = np.isfinite(distance)
        target[b[hit], i[hit], w] = j[hit]
        dist[b[hit], i[hit], w] = distance[hit]
        out.protected[b[hit], i[hit], w] = protected[hit]


def duels(state: BatchState, rows: Ints) -> Bools:
    """(R,) tables of ``rows`` with airplanes on two sides (the tripod may hide their
    shots at each other)."""
    plane = state.alive[rows] & ~state.tripod[rows]
    sides = state.side[rows]
    out: Bools = (
        plane[:, :, None] & plane[:, None, :] & (sides[:, :, None] != sides[:, None, :])
    ).any(axis=(1, 2))
    return out


def tables_with_tripods(state: BatchState, act: Bools, ready: list[Bools]) -> Ints:
    """(R,) the tables of ``act`` whose guns a tripod may change: the tripod's
    circumscribed circle lies within the ruler of a ready gun's
    dot and meets its arc (the tripod may be its target), or, on a table with enemy
    airplanes, within the ruler of the dot (it may hide one of its targets:
    ``firing.Table.near`` looks no farther). Elsewhere the guns' targets measured
    without the tripod stand."""
    spec = state.spec
    tripod = state.tripod & state.alive
    rows = np.flatnonzero(act & any_slot(tripod))
    if len(rows) == 0:
        return rows
    radius = spec.rules.hex_side
    x, y, h = state.x[rows], state.y[rows], state.heading[rows]
    dx, dy = x[:, None, :] - x[:, :, None], y[:, None, :] - y[:, :, None]  # [firer, tripod]
    gap = np.hypot(dx, dy)
    close = tripod[rows][:, None, :] & (gap <= spec.ruler + radius + 1e-6)
    near = duels(state, rows) & ((ready[0] | ready[1])[rows][:, :, None] & close).any(axis=(1, 2))
    for w in (0, 1):
        axis = np.radians(h + spec.arc_centre[w])[:, :, None]
        along = dx * np.cos(axis) + dy * np.sin(axis)
        across = np.abs(-dx * np.sin(axis) + dy * np.cos(axis))
        spread = np.arcsin(np.minimum(1.0, radius / np.maximum(gap, 1e-12)))
        seen = np.degrees(np.arctan2(across, along) - spread) <= spec.arc_half[w] + 1e-6
        seen |= gap <= radius + 1e-6
        r, i, j = np.nonzero(ready[w][rows][:, :, None] & close & seen & ~near[:, None, None])
        if len(r) == 0:
            continue
        # the bare nearest in-arc point of the hexagon: no blocker brings it nearer
        hexes = hexagons(spec.rules.hex_side, x[r, j], y[r, j], h[r, j])
        a, e, t0, t1 = sight.in_arc_edges(
            x[r, i], y[r, i], h[r, i] + spec.arc_centre[w], np.full(len(r), spec.arc_half[w]), hexes
        )
        pts, ok = sight.edge_candidates(x[r, i], y[r, i], a, e, t0, t1)
        bare, _, _ = sight.nearest(x[r, i], y[r, i], pts, ok)
        near[r[bare <= spec.ruler + REACH_MARGIN]] = True
    out: Ints = rows[near]
    return out
