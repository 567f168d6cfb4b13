"""Heat-ray rulers on arrays, as :mod:`dogfight.geometry.heatray` lays them and
:class:`dogfight.rules.rays.RayScene` measures them: the ruler against the projector's
side at a right angle or tilted either way, either long edge (six placements); a target
airplane is reached by an edge that meets its base within the ruler's length, at the
distance along the edge of the first point met (Cyrus-Beck clipping, the referee's
``_contact``), unless the edge up to that point passes through another base's interior
(``_crosses``); the best placement is the nearest (the first of equals), and the heat-ray
takes the nearest target (ties by id) or the one chosen.

For the tables of one tripod against airplanes: the targets are airplanes, the other
bases airplanes' (the tripod's own base is never met by its rulers).
"""

from __future__ import annotations

import numpy as np

from dogfight.batch import sight
from dogfight.batch.spec import Bools, Floats, Ints
from dogfight.batch.state import BatchState, heading_trig
from dogfight.batch.tripod_spec import hexagons
from dogfight.geometry.hexbase import apothem
from dogfight.geometry.shapes import EPSILON

INSIDE = 1e-9
"""As ``heatray._crosses``: a stretch inside a base longer than this, its middle this far
inside every edge, passes through its interior."""


def _contact(
    sx: Floats, sy: Floats, dx: Floats, dy: Floats, length: Floats, poly: Floats
) -> Floats:
    """``heatray._contact`` on arrays: the distance along each ray (start s, unit
    direction d) to the first point of the convex polygon ``poly`` (..., K, 2) it meets
    within ``length``, NaN when it meets none."""
    ax, ay = poly[..., 0], poly[..., 1]
    ex = np.roll(ax, -1, axis=-1) - ax
    ey = np.roll(ay, -1, axis=-1) - ay
    num = ex * (sy[..., None] - ay) - ey * (sx[..., None] - ax)
    den = ex * dy[..., None] - ey * dx[..., None]
    flat = np.abs(den) < EPSILON
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -num / den
    t_in = np.maximum(np.where(~flat & (den > 0), t, 0.0).max(axis=-1), 0.0)
    t_out = np.minimum(np.where(~flat & (den < 0), t, np.inf).min(axis=-1), length)
    missed = (flat & (num < 0)).any(axis=-1) | (t_in > t_out + EPSILON)
    out: Floats = np.where(missed, np.nan, t_in)
    return out


def _crosses(sx: Floats, sy: Floats, dx: Floats, dy: Floats, length: Floats, poly: Floats) -> Bools:
    """``heatray._crosses`` on arrays: whether the segment from s along d for ``length``
    passes through the interior of ``poly`` (..., K, 2) (touching does not)."""
    enter = _contact(sx, sy, dx, dy, length, poly)
    back = _contact(sx + length * dx, sy + length * dy, -dx, -dy, length, poly)
    exit_t = length - back
    inside = exit_t - enter > INSIDE
    mid = (enter + exit_t) / 2.0
    mx, my = sx + mid * dx, sy + mid * dy
    ax, ay = poly[..., 0], poly[..., 1]
    ex = np.roll(ax, -1, axis=-1) - ax
    ey = np.roll(ay, -1, axis=-1) - ay
    strictly = (ex * (my[..., None] - ay) - ey * (mx[..., None] - ax) > INSIDE).all(axis=-1)
    out: Bools = np.nan_to_num(inside, nan=0.0).astype(np.bool_) & strictly
    return out


def ray_targets(
    state: BatchState, rows: Ints, tripod: Ints, bases: Floats, overlaps: Bools
) -> tuple[Ints, Floats, Bools]:
    """For the tripod ``tripod[r]`` of table ``rows[r]`` firing its heat-ray from side
    ``token_arg``: the slot it hits (-1: a miss), the distance and whether it is short.
    ``bases`` (R, N, K, 2) are the tables' bases (airplanes' rectangles padded to K
    corners), ``overlaps`` (R, N, N) which bases share interior."""
    spec = state.spec
    tri = spec.tripods
    rules = spec.rules
    r_count, n = len(rows), state.slots
    idx = np.arange(r_count)
    model = tri.type_ids
    t = state.ttype[rows, tripod]
    ruler = [rules.heat_ray_ruler(m) for m in model]
    length = np.array([ruler[k].length for k in t.tolist()])
    half = np.array([ruler[k].half for k in t.tolist()])
    width = np.array([ruler[k].width for k in t.tolist()])
    tilt = np.array([ruler[k].tilt for k in t.tolist()])
    x, y = state.x[rows, tripod], state.y[rows, tripod]
    normal = state.heading[rows, tripod] + 60.0 * state.token_arg[rows, tripod]
    rad = np.radians(normal)
    mid_x = x + apothem(rules.hex_side) * np.cos(rad)
    mid_y = y + apothem(rules.hex_side) * np.sin(rad)
    tangent = np.radians(normal + 90.0)
    # the six placements, in the referee's order: tilt 0, +tilt, -tilt; left, right edge
    tilts = np.stack([np.zeros(r_count), tilt, -tilt], axis=1).repeat(2, axis=1)  # (R, 6)
    offsets = np.stack([width / 2.0, -width / 2.0], axis=1)[:, [0, 1, 0, 1, 0, 1]]
    sx = mid_x[:, None] + offsets * np.cos(tangent)[:, None]
    sy = mid_y[:, None] + offsets * np.sin(tangent)[:, None]
    direction = np.radians(normal[:, None] + tilts)
    dx, dy = np.cos(direction), np.sin(direction)
    # who may be reached, and who may block (RayScene.options)
    alive = state.alive[rows]
    centre_gap = np.hypot(state.x[rows] - x[:, None], state.y[rows] - y[:, None])
    reach = apothem(rules.hex_side) + length + np.hypot(rules.base_length, rules.base_width)
    within = alive & (centre_gap <= reach[:, None])
    mine = np.zeros((r_count, n), dtype=np.bool_)
    mine[idx, tripod] = True
    off_tripod = ~overlaps[idx, tripod]  # (R, N): not overlapping the tripod
    enemy = state.side[rows] != state.side[rows, tripod][:, None]
    target = within & enemy & off_tripod & ~state.tripod[rows]
    near = within & off_tripod & ~mine
    # (R, N targets, 6 placements): the first contact along each edge, for the targets
    hit = np.full((r_count, n, 6), np.nan)
    r, j = np.nonzero(target)
    hit[r, j] = _contact(sx[r], sy[r], dx[r], dy[r], length[r, None], bases[r, j][:, None])
    # blocked: the edge up to the contact crosses another base (not the target's, nor
    # one overlapping the target); measured for the edges that reach a target only
    blockers = near[:, None, :] & ~np.eye(n, dtype=np.bool_)[None] & ~overlaps
    r, j, e, m = np.nonzero(~np.isnan(hit)[..., None] & blockers[:, :, None, :])
    blocked = np.zeros((r_count, n, 6), dtype=np.bool_)
    if len(r):
        crossed = _crosses(sx[r, e], sy[r, e], dx[r, e], dy[r, e], hit[r, j, e], bases[r, m])
        blocked[r[crossed], j[crossed], e[crossed]] = True
    dist = np.where(np.isnan(hit) | blocked, np.inf, hit)
    # the best placement per target (the first of equals), then the nearest target (by id)
    best = np.full((r_count, n), np.inf)
    for k in range(6):
        better = dist[..., k] < best - 1e-12
        best = np.where(better, dist[..., k], best)
    chosen = state.token_target[rows, tripod]
    pick = np.where(chosen >= 0, chosen, np.argmin(best, axis=1))
    out_d = best[idx, pick]
    out_t = np.where(np.isfinite(out_d), pick, -1)
    short = np.isfinite(out_d) & (out_d <= half + 1e-9)
    return out_t, out_d, short


def overlaps_of(state: BatchState, rows: Ints) -> tuple[Floats, Bools]:
    """The airplanes' bases (R, N, 4, 2) of tables ``rows`` (a tripod's slot holds a
    rectangle no test reads) and (R, N, N) which bases in play share interior (the
    tripods' hexagons with the airplanes' rectangles), as ``firing.table_of``."""
    spec = state.spec
    x, y, h = state.x[rows], state.y[rows], state.heading[rows]
    trig = heading_trig(state)
    rect = sight.corners(spec, x, y, h, (trig[0][rows], trig[1][rows]))
    tri = state.tripod[rows]
    alive = state.alive[rows]
    # the separating-axis test only for bases whose circles meet
    radius = np.where(tri, spec.rules.hex_side, spec.base_radius)
    gap = np.hypot(x[:, :, None] - x[:, None, :], y[:, :, None] - y[:, None, :])
    close = gap <= radius[:, :, None] + radius[:, None, :] + 1e-6
    close &= alive[:, :, None] & alive[:, None, :] & ~np.eye(state.slots, dtype=np.bool_)[None]
    out = np.zeros(close.shape, dtype=np.bool_)
    r, i, j = np.nonzero(close & ~tri[:, :, None] & ~tri[:, None, :])
    if len(r):
        out[r, i, j] = sight.overlap(rect[r, i], rect[r, j])
    # a tripod's hexagon against an airplane's rectangle, both ways
    r, i, j = np.nonzero(close & tri[:, :, None] & ~tri[:, None, :])
    if len(r):
        hexes = hexagons(spec.rules.hex_side, x[r, i], y[r, i], h[r, i])
        out[r, i, j] = out[r, j, i] = sight.overlap(hexes, rect[r, j])
    return rect, out
