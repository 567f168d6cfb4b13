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
    for b in tables_with_tripods(state, act, ready).tolist():
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
    plane = state.alive[rows] & ~state.tripod[rows]
    sides = state.side[rows]
    duel = (plane[:, :, None] & plane[:, None, :] & (sides[:, :, None] != sides[:, None, :])).any(
        axis=(1, 2)
    )
    near = duel & ((ready[0] | ready[1])[rows][:, :, None] & close).any(axis=(1, 2))
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
