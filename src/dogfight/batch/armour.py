"""Guns at a tripod on arrays: the nearest visible in-arc point of its hexagonal base (the
candidates of :mod:`dogfight.batch.sight`, other airplanes' bases hiding part of it) and
the electrified armour (``firing.is_protected``).

000: "When a plane is firing at a tripod, the earthling player checks with the ruler if
he can reach its base without crossing the orange line. If he can, then the tripod is hit
on an unprotected side; otherwise, the electric field is in effect." / "If a tripod is hit
across an unprotected side, while laying down, or at 0 Energy, it takes damage normally."

A ruler from the dot enters the base through a side facing the dot; the shot is
unprotected when a point of a facing, unprotected side is visible in the arc within the
ruler. The nearest such point of a side is one of the candidates lying on it: the ends of
the side's in-arc part and the point nearest the dot (kind 1), where a shadow's edge
enters the base (kind 2: a ray enters through a facing side) and where a blocker's edge
crosses the side (kind 3).
"""

from __future__ import annotations

import numpy as np

from dogfight.batch import sight
from dogfight.batch.spec import Bools, Floats, Ints
from dogfight.batch.state import BatchState
from dogfight.batch.tripod_spec import hexagons

ON_SIDE = 1e-7
"""cm from a side within which a candidate lies on it (candidates on a side are computed
on it, a rounding error away; the referee grows the visible region by 1e-9 cm)."""
REACH_TOLERANCE = 1e-9


def guns_at_tripod(
    state: BatchState,
    rows: Ints,
    firer: Ints,
    weapon: Ints,
    tripod: Ints,
    tables: tuple[Ints, Floats, Bools],
) -> tuple[Floats, Bools]:
    """For each gun (table ``rows[p]``, airplane ``firer[p]``, weapon ``weapon[p]``) at
    the tripod ``tripod[p]``: the range to its base's nearest visible in-arc point (inf:
    out of reach or hidden) and whether the armour stops the shot. ``tables``: each
    gun's index into the bases (R, N, 4, 2) and overlaps (R, N, N) of the tables
    measured (``heat_ray_rulers.overlaps_of``). Only the guns with some of the hexagon's
    circumscribed circle in their arc and within the ruler are measured (no other
    reaches it)."""
    spec = state.spec
    distance = np.full(len(rows), np.inf)
    protected = np.zeros(len(rows), dtype=np.bool_)
    radius = spec.rules.hex_side  # the circumradius of a regular hexagon
    dx = state.x[rows, tripod] - state.x[rows, firer]
    dy = state.y[rows, tripod] - state.y[rows, firer]
    rad = np.radians(state.heading[rows, firer] + spec.arc_centre[weapon])
    c, s = np.cos(rad), np.sin(rad)
    along, across = dx * c + dy * s, np.abs(-dx * s + dy * c)
    near = np.hypot(dx, dy) <= spec.ruler + radius + NEAR_SLACK
    near &= sight.circle_in_arc(along, across, radius, spec.arc_half[weapon])
    p = np.flatnonzero(near)
    if len(p):
        pos = tables[0][p]
        distance[p], protected[p] = _near_guns(
            state, rows[p], firer[p], weapon[p], tripod[p], (pos, tables[1], tables[2])
        )
    return distance, protected


NEAR_SLACK = 1e-6
"""cm added to the bound of :func:`guns_at_tripod`, so rounding never drops a gun."""


def _near_guns(
    state: BatchState,
    rows: Ints,
    firer: Ints,
    weapon: Ints,
    tripod: Ints,
    tables: tuple[Ints, Floats, Bools],
) -> tuple[Floats, Bools]:
    """:func:`guns_at_tripod` for guns near enough to the tripod. The guns that no base
    may hide the tripod from (:func:`sight.may_hide`) see the nearest in-arc point of
    its base and the whole in-arc part of its sides: their candidates are the in-arc
    parts' ends and feet only."""
    spec = state.spec
    pos, rect, overlaps = tables
    ox, oy = state.x[rows, firer], state.y[rows, firer]
    axis = state.heading[rows, firer] + spec.arc_centre[weapon]
    half = spec.arc_half[weapon]
    hexes = hexagons(
        spec.rules.hex_side,
        state.x[rows, tripod],
        state.y[rows, tripod],
        state.heading[rows, tripod],
    )
    # the bare nearest in-arc point first: out of reach without blockers, out of reach
    a, e, t0, t1 = sight.in_arc_edges(ox, oy, axis, half, hexes)
    bare_pts, bare_ok = sight.edge_candidates(ox, oy, a, e, t0, t1)
    bare, _, _ = sight.nearest(ox, oy, bare_pts, bare_ok)
    # an airplane overlapping the tripod cannot fire at it
    live = ~overlaps[pos, firer, tripod] & (bare <= spec.ruler + REACH_TOLERANCE)
    distance = np.full(len(rows), np.inf)
    protected = np.zeros(len(rows), dtype=np.bool_)
    p = np.flatnonzero(live)
    if len(p) == 0:
        return distance, protected
    rows, firer, tripod, pos = rows[p], firer[p], tripod[p], pos[p]
    ox, oy, axis, half, hexes = ox[p], oy[p], axis[p], half[p], hexes[p]
    # the bases that may hide the tripod: airplanes in play within the ruler of the dot,
    # neither the firer's nor the tripod's, nor overlapping either (``firing.Table.near``)
    slots = np.arange(state.slots)[None, :]
    may = (
        state.alive[rows]
        & ~state.tripod[rows]
        & (slots != firer[:, None])
        & ~overlaps[pos, firer]
        & ~overlaps[pos, tripod]
    )
    if spec.friendly_blocking:
        may &= state.side[rows] == state.side[rows, firer][:, None]
    reach = sight.dot_distance(
        spec, ox[:, None], oy[:, None], state.x[rows], state.y[rows], state.heading[rows]
    )
    may &= reach <= spec.ruler
    bx, by = state.x[rows] - ox[:, None], state.y[rows] - oy[:, None]
    tx, ty = state.x[rows, tripod] - ox, state.y[rows, tripod] - oy
    may &= sight.may_hide(bx, by, spec.base_radius, tx, ty, spec.rules.hex_side)
    # the armour: working with 1 Energy on a standing tripod, some side protected
    t = state.ttype[rows, tripod]
    shielded = spec.tripods.type_protected[t]  # (P, 6)
    powered = (
        (state.toppled[rows, tripod] == 0)
        & (state.energy[rows, tripod] >= 1)
        & shielded.any(axis=1)
    )
    near = bare[p]
    hiding = may.any(axis=1)
    clear = np.flatnonzero(~hiding & powered)
    if len(clear):
        # nothing hides the tripod: the in-arc parts' ends and feet are the candidates
        pts, ok = bare_pts[p[clear]], bare_ok[p[clear]]
        found = (pts, ok, OWN_NONE, KIND1, sight.distances(ox[clear], oy[clear], pts, ok))
        dot = (ox[clear], oy[clear])
        protected[p[clear]] = ~_open(spec.ruler, dot, found, hexes[clear], shielded[clear])
    h = np.flatnonzero(hiding)
    if len(h):
        # the possible blockers of each gun first (as few columns as the most of them)
        k = max(1, int(may[h].sum(axis=1).max()))
        order = np.argsort(~may[h], axis=1, kind="stable")[:, :k]
        mask = np.take_along_axis(may[h], order, axis=1)
        blockers = rect[pos[h][:, None], order]
        with np.errstate(all="ignore"):
            found = sight.candidates(ox[h], oy[h], axis[h], half[h], hexes[h], blockers, mask)
            near[h] = sight.visible_nearest_of(found, ox[h], oy[h], blockers, mask)[0]
        q = np.flatnonzero(powered[h] & (near[h] <= spec.ruler + REACH_TOLERANCE))
        if len(q):
            dot = (ox[h[q]], oy[h[q]])
            protected[p[h[q]]] = ~_open(
                spec.ruler,
                dot,
                _rows(found, q),
                hexes[h[q]],
                shielded[h[q]],
                (blockers[q], mask[q]),
            )
    distance[p] = np.where(near <= spec.ruler + REACH_TOLERANCE, near, np.inf)
    return distance, protected


OWN_NONE = np.full(18, -1, dtype=np.int64)
"""The in-arc parts' ends and feet (3 per side of the hexagon) come from no blocker..."""
KIND1 = np.zeros(18, dtype=np.bool_)
"""... and none is a crossing."""


def _rows(found: sight.Candidates, rows: Ints) -> sight.Candidates:
    """The candidates of guns ``rows`` only."""
    pts, ok, own, kind3, d = found
    return pts[rows], ok[rows], own, kind3, d[rows]


def _open(
    ruler: float,
    dot: tuple[Floats, Floats],
    found: sight.Candidates,
    hexes: Floats,
    shielded: Bools,
    hiding: tuple[Floats, Bools] | None = None,
) -> Bools:
    """Whether some point of a side facing the dot and not protected is visible in the
    arc within the ruler (``protection.unprotected_point``): some candidate (``found``:
    :func:`sight.candidates`) lying on such a side, within the ruler, that the ruler
    reaches unblocked by the bases ``hiding`` (blockers, mask; None: nothing hides)."""
    ox, oy = dot
    pts, _, own, kind3, d = found
    a = hexes
    b = np.roll(hexes, -1, axis=1)
    ex, ey = b[..., 0] - a[..., 0], b[..., 1] - a[..., 1]
    facing = ex * (oy[:, None] - a[..., 1]) - ey * (ox[:, None] - a[..., 0]) < -1e-12
    open_side = facing & ~shielded  # (P, 6) sides a ruler may enter unprotected
    with np.errstate(all="ignore"):
        wx = pts[:, :, None, 0] - a[:, None, :, 0]
        wy = pts[:, :, None, 1] - a[:, None, :, 1]
        length2 = (ex * ex + ey * ey)[:, None, :]
        along = np.clip((wx * ex[:, None] + wy * ey[:, None]) / length2, 0.0, 1.0)
        gap = np.hypot(wx - along * ex[:, None], wy - along * ey[:, None])
    on_open = ((gap <= ON_SIDE) & open_side[:, None, :]).any(axis=2)
    worth = on_open & (d <= ruler + REACH_TOLERANCE)
    if hiding is None:
        return np.asarray(worth.any(axis=1), dtype=np.bool_)
    blockers, mask = hiding
    r, c = np.nonzero(worth)
    seen = np.zeros(worth.shape, dtype=np.bool_)
    if len(r):
        with np.errstate(all="ignore"):
            hidden = sight.hidden(
                ox[r], oy[r], pts[r, c][:, None], own[c][:, None], kind3[c][:, None],
                blockers[r], mask[r],
            )[:, 0]  # fmt: skip
        seen[r, c] = ~hidden
    return np.asarray(seen.any(axis=1), dtype=np.bool_)
