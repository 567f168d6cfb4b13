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

from dogfight.batch.armour import guns_at_tripod
from dogfight.batch.arrays import any_slot
from dogfight.batch.bridge import as_tripod
from dogfight.batch.heat_ray_rulers import overlaps_of, ray_targets
from dogfight.batch.spec import Bools, Floats, Ints
from dogfight.batch.state import WEAPONS, BatchState
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
    rows = np.flatnonzero(act & any_slot(state.tripod & state.alive))
    if len(rows) == 0:
        return out
    duel = duels(state, rows)
    for b in tables_with_tripods(state, rows[duel], ready).tolist():
        _referee_guns(state, b, ready, target, dist, out)
    rows = rows[~duel | any_slot(rayed[rows])]
    bases, overlaps = overlaps_of(state, rows)
    duel = duels(state, rows)
    if (~duel).any():
        _array_guns(state, rows, ~duel, ready, (target, dist), (bases, overlaps), out)
    firing_rays = np.flatnonzero(any_slot(rayed[rows]))
    if len(firing_rays):
        r = rows[firing_rays]
        tripod = np.argmax(rayed[r], axis=1)
        hit, distance, short = ray_targets(
            state, r, tripod, bases[firing_rays], overlaps[firing_rays]
        )
        rows = r
        out.ray_target[rows, tripod] = hit
        out.ray_distance[rows, tripod] = distance
        out.ray_short[rows, tripod] = short
    return out


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
    keep: Bools,
    ready: list[Bools],
    guns: tuple[Ints, Floats],
    tables: tuple[Floats, Bools],
    out: TripodShots,
) -> None:
    """The guns of tables ``rows[keep]`` (no airplane there has an enemy airplane: the
    tripod is every gun's only possible target) decided on arrays
    (:mod:`dogfight.batch.armour`); ``tables``: the bases and overlaps of ``rows``."""
    target, dist = guns
    chosen = rows[keep]
    target[chosen] = -1
    dist[chosen] = np.inf
    tripod = np.argmax(state.tripod[rows] & state.alive[rows], axis=1)
    enemy = state.side[rows] != state.side[rows, tripod][:, None]
    for w in (0, 1):
        r, i = np.nonzero(ready[w][rows] & enemy & keep[:, None])
        if len(r) == 0:
            continue
        b, j = rows[r], tripod[r]
        distance, protected = guns_at_tripod(
            state, b, i, np.full(len(r), w), j, (r, tables[0], tables[1])
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


def tables_with_tripods(state: BatchState, rows: Ints, ready: list[Bools]) -> Ints:
    """(R,) the tables of ``rows`` (tables with airplanes of two sides and a tripod)
    whose guns the tripod may change: its circumscribed circle within the ruler of a
    ready gun's dot (it may be the gun's target, or hide one of its targets:
    ``firing.Table.near`` looks no farther). Elsewhere the guns' targets measured
    without the tripod stand."""
    if len(rows) == 0:
        return rows
    spec = state.spec
    tripod = (state.tripod & state.alive)[rows]
    x, y = state.x[rows], state.y[rows]
    gap = np.hypot(x[:, None, :] - x[:, :, None], y[:, None, :] - y[:, :, None])
    close = tripod[:, None, :] & (gap <= spec.ruler + spec.rules.hex_side + 1e-6)
    near = ((ready[0] | ready[1])[rows][:, :, None] & close).any(axis=(1, 2))
    out: Ints = rows[near]
    return out
