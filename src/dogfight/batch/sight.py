"""Whole-base geometry on arrays: bases, overlaps, arcs, reach to the nearest in-arc
point and partial cover, with the definitions of :mod:`dogfight.geometry.reach`.

The referee subtracts shadows with shapely; here the nearest visible point is found
among a finite set of candidate points that must contain it (docs/batch.md, "Partial
cover"):

1. on each edge of the target, the part inside the arc's wedge: its two ends and the
   point nearest the firing dot (these give the in-arc distance with no blockers);
2. for each blocker, where the rays through its two outermost corners enter the target;
3. where an edge of the target crosses an edge of a blocker.

A candidate counts when the ruler from the dot to it touches no blocker (a ray through
a blocker's outermost corner may graze that blocker; a crossing point may lie on the
near side of its own blocker). The nearest counted candidate is the nearest visible
point.
"""

from __future__ import annotations

import numpy as np

from dogfight.batch.spec import Bools, Floats, Ints, Spec

EPSILON = 1e-9
"""As :data:`dogfight.geometry.shapes.EPSILON` (overlaps, ruler and half mark)."""
TOUCH = 1e-9
"""Tolerance (a fraction of the ruler's run to a candidate) for touching a blocker."""


def corners(
    spec: Spec, x: Floats, y: Floats, heading: Floats, cos_sin: tuple[Floats, Floats] | None = None
) -> Floats:
    """(..., 4, 2) corners of airplane bases, counter-clockwise, in the order of
    :func:`dogfight.geometry.shapes.rectangle` (``cos_sin``: of the headings, when
    known)."""
    hl, hw = spec.base_length / 2.0, spec.base_width / 2.0
    f = np.array([-hl, hl, hl, -hl])
    lft = np.array([-hw, -hw, hw, hw])
    if cos_sin is None:
        rad = np.radians(heading)
        cos_sin = np.cos(rad), np.sin(rad)
    c, s = cos_sin[0][..., None], cos_sin[1][..., None]
    px = x[..., None] + f * c - lft * s
    py = y[..., None] + f * s + lft * c
    out: Floats = np.stack([px, py], axis=-1)
    return out


def overlap(a: Floats, b: Floats) -> Bools:
    """Whether convex polygons ``a`` (..., Ka, 2) and ``b`` (..., Kb, 2) share interior
    (airplanes' quadrilaterals, tripods' hexagons), by the separating-axis test of
    :func:`dogfight.geometry.shapes.convex_overlap`."""
    lead = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    ka, kb = a.shape[-2], b.shape[-2]
    # corner-first (K, 2, P), so that numpy runs over the pairs
    at = np.moveaxis(np.broadcast_to(a, (*lead, ka, 2)).reshape(-1, ka, 2), 0, -1)
    bt = np.moveaxis(np.broadcast_to(b, (*lead, kb, 2)).reshape(-1, kb, 2), 0, -1)
    out: Bools = np.logical_not(_apart(at, bt) | _apart(bt, at))
    return out.reshape(lead)


def _apart(poly: Floats, pts: Floats) -> Bools:
    """Whether some edge of each convex polygon ``poly`` (K, 2, P) has every point of
    ``pts`` (M, 2, P) on or outside it (the cross product of the edge and the point at most
    ``EPSILON``), laid out (edge, point, P)."""
    px, py = poly[:, None, 0], poly[:, None, 1]
    qx, qy = np.roll(poly[:, 0], -1, axis=0)[:, None], np.roll(poly[:, 1], -1, axis=0)[:, None]
    vx, vy = pts[None, :, 0], pts[None, :, 1]
    cross = (qx - px) * (vy - py) - (qy - py) * (vx - px)  # (4 edges, 4 points, P)
    out: Bools = np.asarray((cross <= EPSILON).all(axis=1).any(axis=0), dtype=np.bool_)
    return out


def dot_distance(spec: Spec, ox: Floats, oy: Floats, x: Floats, y: Floats, h: Floats) -> Floats:
    """Distance from points to airplane bases at poses (broadcast): 0 inside."""
    rad = np.radians(h)
    c, s = np.cos(rad), np.sin(rad)
    dx, dy = ox - x, oy - y
    u = np.abs(dx * c + dy * s) - spec.base_length / 2.0
    v = np.abs(-dx * s + dy * c) - spec.base_width / 2.0
    out: Floats = np.hypot(np.maximum(u, 0.0), np.maximum(v, 0.0))
    return out


def circle_in_arc(along: Floats, across: Floats, radius: float, half: Floats | float) -> Bools:
    """Whether some of a circle of ``radius`` around a point ``along`` the arc's axis and
    ``across`` it (its distance off the axis, >= 0) from the dot may lie in the arc of
    half-angle ``half`` (degrees): a conservative prefilter (a base lies within its
    circumscribed circle)."""
    gap = np.hypot(along, across)
    spread = np.arcsin(np.minimum(1.0, radius / np.maximum(gap, 1e-12)))
    out: Bools = np.degrees(np.arctan2(across, along) - spread) <= half + 1e-6
    out |= gap <= radius + 1e-6
    return out


def may_hide(
    bx: Floats, by: Floats, radius: float, tx: Floats, ty: Floats, target_radius: float
) -> Bools:
    """(P, N) whether bases of circumradius ``radius`` at (bx, by) (P, N) from the dots
    may hide part of a target of circumradius ``target_radius`` at (tx, ty) (P,) from
    them: their cone from the dot meets the target's, and they are not wholly beyond
    it (a conservative filter: each base lies within its circumscribed circle; a base
    it drops meets no ruler from the dot to the target)."""
    d_b, d_t = np.hypot(bx, by), np.hypot(tx, ty)
    cone = (
        np.arcsin(np.minimum(1.0, radius / np.maximum(d_b, 1e-12)))
        + np.arcsin(np.minimum(1.0, target_radius / np.maximum(d_t, 1e-12)))[:, None]
    )
    apart = np.abs(
        np.arctan2(bx * ty[:, None] - by * tx[:, None], bx * tx[:, None] + by * ty[:, None])
    )
    out: Bools = (apart <= cone + 1e-9) & (d_b - radius <= (d_t + target_radius)[:, None] + 1e-9)
    return out


def _direction(degrees: Floats) -> tuple[Floats, Floats]:
    rad = np.radians(degrees)
    return np.cos(rad), np.sin(rad)


def _interval(sa: Floats, sb: Floats) -> tuple[Floats, Floats]:
    """Parameters t in [0, 1] where sa + t (sb - sa) >= 0, as [low, high]."""
    d = sb - sa
    with np.errstate(divide="ignore", invalid="ignore"):
        cut = -sa / d
    never = (d == 0) & (sa < 0)
    low = np.where(d > 0, cut, np.where(never, np.inf, 0.0))
    high = np.where(d < 0, cut, np.where(never, -np.inf, 1.0))
    return low, high


def in_arc_edges(
    ox: Floats, oy: Floats, axis: Floats, half: Floats, target: Floats
) -> tuple[Floats, Floats, Floats, Floats]:
    """Each target edge's part inside the arc's wedge (edges included): for pairs (P,)
    with targets (P, 4, 2), the start points (P, 4, 2), edge vectors (P, 4, 2) and the
    parameter range [t0, t1] (P, 4) (empty when t0 > t1)."""
    rx, ry = _direction(axis - half)
    lx, ly = _direction(axis + half)
    a = target
    e = np.roll(target, -1, axis=1) - a
    dx = a[..., 0] - ox[:, None]
    dy = a[..., 1] - oy[:, None]
    bx, by = dx + e[..., 0], dy + e[..., 1]
    # left of the right edge's ray, and right of the left edge's ray (as clip_half_plane)
    s1a = rx[:, None] * dy - ry[:, None] * dx
    s1b = rx[:, None] * by - ry[:, None] * bx
    s2a = -lx[:, None] * dy + ly[:, None] * dx
    s2b = -lx[:, None] * by + ly[:, None] * bx
    lo1, hi1 = _interval(s1a, s1b)
    lo2, hi2 = _interval(s2a, s2b)
    t0 = np.maximum(np.maximum(lo1, lo2), 0.0)
    t1 = np.minimum(np.minimum(hi1, hi2), 1.0)
    return a, e, t0, t1


def edge_candidates(
    ox: Floats, oy: Floats, a: Floats, e: Floats, t0: Floats, t1: Floats
) -> tuple[Floats, Bools]:
    """Candidates of kind 1: both ends of each in-arc edge part and its point nearest the
    dot: points (P, 3K, 2) and whether they exist (P, 3K), K the target's corners (4 for
    an airplane's base, 6 for a tripod's)."""
    ex, ey = e[..., 0], e[..., 1]
    length2 = ex * ex + ey * ey
    with np.errstate(divide="ignore", invalid="ignore"):
        foot = ((ox[:, None] - a[..., 0]) * ex + (oy[:, None] - a[..., 1]) * ey) / length2
    foot = np.clip(np.nan_to_num(foot), t0, t1)
    ts = np.stack([t0, t1, foot], axis=2)  # (P, 4, 3)
    ok = np.broadcast_to((t0 <= t1)[..., None], ts.shape)
    ts = np.where(ok, ts, 0.0)
    px = a[..., 0, None] + ts * ex[..., None]
    py = a[..., 1, None] + ts * ey[..., None]
    pts = np.stack([px, py], axis=-1).reshape(len(ox), -1, 2)
    return pts, ok.reshape(len(ox), -1)


def distances(ox: Floats, oy: Floats, pts: Floats, ok: Bools) -> Floats:
    """(P, C) the distance from each dot (P,) to its candidates (P, C, 2), inf for
    those that do not exist."""
    out: Floats = np.where(
        ok, np.hypot(pts[..., 0] - ox[:, None], pts[..., 1] - oy[:, None]), np.inf
    )
    return out


def nearest(ox: Floats, oy: Floats, pts: Floats, ok: Bools) -> tuple[Floats, Floats, Floats]:
    """The nearest existing candidate: distance (P,) (inf when none) and its point."""
    d = distances(ox, oy, pts, ok)
    best = np.argmin(d, axis=1)
    rows = np.arange(len(ox))
    return d[rows, best], pts[rows, best, 0], pts[rows, best, 1]


def ray_polygon(
    ox: Floats, oy: Floats, dx: Floats, dy: Floats, poly: Floats
) -> tuple[Floats, Floats]:
    """Cyrus-Beck: the parameters [tmin, tmax] of the ray O + t d (t >= 0) inside a
    convex counter-clockwise polygon (tmin > tmax: it misses). Shapes: O (...), d (...),
    poly (..., 4, 2)."""
    p = poly
    q = np.roll(poly, -1, axis=-2)
    ex, ey = q[..., 0] - p[..., 0], q[..., 1] - p[..., 1]
    c = ex * (oy[..., None] - p[..., 1]) - ey * (ox[..., None] - p[..., 0])
    g = ex * dy[..., None] - ey * dx[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        cut = -c / g
    low = np.where(g > 0, cut, np.where((g == 0) & (c < 0), np.inf, -np.inf))
    high = np.where(g < 0, cut, np.where((g == 0) & (c < 0), -np.inf, np.inf))
    return low.max(axis=-1), high.min(axis=-1)


def visible_nearest(*args: object) -> tuple[Floats, Floats, Floats]:
    """The nearest point of the target's in-arc part that a ruler from the dot reaches
    without crossing a blocker: distance (P,) (inf when all is hidden) and the point.
    Arguments as :func:`candidates` (infinities of parallel edges stay quiet)."""
    with np.errstate(all="ignore"):
        found = candidates(*args)  # type: ignore[arg-type]
        ox, oy, blockers, mask = args[0], args[1], args[5], args[6]
        return visible_nearest_of(found, ox, oy, blockers, mask)  # type: ignore[arg-type]


Candidates = tuple[Floats, Bools, Ints, Bools, Floats]
"""Every candidate point (P, C, 2), whether it exists (P, C), the blocker it came from
(C,) (-1: none), whether it is a crossing (kind 3) (C,), and its distance (P, C) (inf
when it does not exist)."""


def candidates(
    ox: Floats,
    oy: Floats,
    axis: Floats,
    half: Floats,
    target: Floats,
    blockers: Floats,
    mask: Bools,
) -> Candidates:
    """The candidate points of the nearest visible point (module docstring): target
    (P, Kt, 2), an airplane's quadrilateral or a tripod's hexagon; ``blockers`` (P, K, 4,
    2) with ``mask`` (P, K) saying which exist."""
    p_count, k_count = mask.shape
    kt = target.shape[1]
    a, e, t0, t1 = in_arc_edges(ox, oy, axis, half, target)
    first, first_ok = edge_candidates(ox, oy, a, e, t0, t1)
    # kind 2: rays through each blocker's outermost corners, where they enter the target
    vx = blockers[..., 0] - ox[:, None, None]
    vy = blockers[..., 1] - oy[:, None, None]
    cx, cy = vx.mean(axis=2), vy.mean(axis=2)
    angle = np.arctan2(
        cx[..., None] * vy - cy[..., None] * vx, cx[..., None] * vx + cy[..., None] * vy
    )
    ends = np.stack([angle.argmin(axis=2), angle.argmax(axis=2)], axis=2)  # (P, K, 2)
    dx = np.take_along_axis(vx, ends, axis=2)
    dy = np.take_along_axis(vy, ends, axis=2)
    o_x = np.broadcast_to(ox[:, None, None], dx.shape)
    o_y = np.broadcast_to(oy[:, None, None], dx.shape)
    tmin, tmax = ray_polygon(
        o_x, o_y, dx, dy, np.broadcast_to(target[:, None, None], (*dx.shape, kt, 2))
    )
    tmin = np.maximum(tmin, 0.0)
    rx, ry = _direction(axis - half)
    lx, ly = _direction(axis + half)
    norm = np.hypot(dx, dy)
    inside_wedge = (rx[:, None, None] * dy - ry[:, None, None] * dx > 1e-12 * norm) & (
        -lx[:, None, None] * dy + ly[:, None, None] * dx > 1e-12 * norm
    )
    second_ok = mask[..., None] & inside_wedge & (tmax - tmin > EPSILON)
    second = np.stack([ox[:, None, None] + tmin * dx, oy[:, None, None] + tmin * dy], axis=-1)
    # kind 3: target edges (in-arc parts) crossing blocker edges
    c0 = blockers  # (P, K, 4, 2)
    f = np.roll(blockers, -1, axis=2) - c0
    ae = a[:, None, :, None, :]  # (P, 1, Kt, 1, 2)
    ee = e[:, None, :, None, :]
    cc = c0[:, :, None, :, :]  # (P, K, 1, 4, 2)
    ff = f[:, :, None, :, :]
    denom = ee[..., 0] * ff[..., 1] - ee[..., 1] * ff[..., 0]
    wx, wy = cc[..., 0] - ae[..., 0], cc[..., 1] - ae[..., 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (wx * ff[..., 1] - wy * ff[..., 0]) / denom
        u = (wx * ee[..., 1] - wy * ee[..., 0]) / denom
    tol = 1e-12
    third_ok = (
        mask[:, :, None, None]
        & (np.abs(denom) > 1e-12)
        & (t >= t0[:, None, :, None] - tol)
        & (t <= t1[:, None, :, None] + tol)
        & (u >= -tol)
        & (u <= 1 + tol)
    )
    t = np.nan_to_num(t)
    third = np.stack([ae[..., 0] + t * ee[..., 0], ae[..., 1] + t * ee[..., 1]], axis=-1)
    # every candidate, with the blocker it came from (-1: none)
    pts = np.concatenate(
        [first, second.reshape(p_count, -1, 2), third.reshape(p_count, -1, 2)], axis=1
    )
    ok = np.concatenate(
        [first_ok, second_ok.reshape(p_count, -1), third_ok.reshape(p_count, -1)], axis=1
    )
    own = np.concatenate(
        [
            np.full(3 * kt, -1),
            np.repeat(np.arange(k_count), 2),
            np.repeat(np.arange(k_count), 4 * kt),
        ]
    )
    kind3 = np.concatenate([np.zeros(3 * kt + 2 * k_count, bool), np.ones(4 * kt * k_count, bool)])
    return pts, ok, own, kind3, distances(ox, oy, pts, ok)


def visible_nearest_of(
    found: Candidates, ox: Floats, oy: Floats, blockers: Floats, mask: Bools
) -> tuple[Floats, Floats, Floats]:
    """:func:`visible_nearest` of the candidates ``found``."""
    p_count = len(ox)
    pts, _, own, kind3, d = found
    # candidates nearest first (stable: ties keep the candidates' order); the first one
    # the ruler reaches is the answer, so most pairs look at a few candidates only
    order = np.argsort(d, axis=1, kind="stable")
    best = np.full(p_count, -1, dtype=np.int64)
    todo = np.arange(p_count)
    lo = 0
    for width in WINDOWS:
        if len(todo) == 0 or lo >= d.shape[1]:
            break
        hi = min(lo + width, d.shape[1])
        pick = order[todo, lo:hi]  # (T, W) candidate indexes
        rows = todo[:, None]
        exists = np.isfinite(d[rows, pick])
        seen = exists & ~hidden(
            ox[todo], oy[todo], pts[rows, pick], own[pick], kind3[pick], blockers[todo], mask[todo]
        )
        hit = seen.any(axis=1)
        best[todo[hit]] = pick[hit, seen[hit].argmax(axis=1)]
        # pairs with no candidate left stay hidden (best -1)
        todo = todo[~hit & exists[:, -1]]
        lo = hi
    rows_all = np.arange(p_count)
    chosen = np.maximum(best, 0)
    dist = np.where(best >= 0, d[rows_all, chosen], np.inf)
    return dist, pts[rows_all, chosen, 0], pts[rows_all, chosen, 1]


WINDOWS = (4, 16, 64, 1 << 30)
"""How many candidates, nearest first, :func:`visible_nearest_of` tests at a time."""


def hidden(
    ox: Floats,
    oy: Floats,
    pts: Floats,
    own: Ints,
    kind3: Bools,
    blockers: Floats,
    mask: Bools,
) -> Bools:
    """Whether the ruler from each dot (T,) to its candidates (T, W, 2) touches a
    blocker (T, K, 4, 2) present in ``mask`` (T, K): a candidate on a blocker's edge
    (kind 3, of blocker ``own``) is reached on that blocker's near side only."""
    t_count, w_count = pts.shape[:2]
    k_count = blockers.shape[1]
    sx = pts[..., 0] - ox[:, None]
    sy = pts[..., 1] - oy[:, None]
    shape = (t_count, w_count, k_count)
    low, high = ray_polygon(
        np.broadcast_to(ox[:, None, None], shape),
        np.broadcast_to(oy[:, None, None], shape),
        np.broadcast_to(sx[..., None], shape),
        np.broadcast_to(sy[..., None], shape),
        np.broadcast_to(blockers[:, None], (*shape, 4, 2)),
    )
    touches = (np.maximum(low, 0.0) <= np.minimum(high, 1.0) + TOUCH) & mask[:, None, :]
    mine = own[..., None] == np.arange(k_count)
    # a crossing point on its own blocker's near side is reached; behind it, it is not
    behind_own = low < 1.0 - TOUCH
    out = np.where(mine, kind3[..., None] & touches & behind_own, touches)
    return np.asarray(out.any(axis=2), dtype=np.bool_)


_FORWARD = np.array([-1.0, 1.0, 1.0, -1.0])[:, None]
_LEFT = np.array([-1.0, -1.0, 1.0, 1.0])[:, None]


def nearest_in_arc(
    spec: Spec,
    ox: Floats,
    oy: Floats,
    axis: Floats,
    half: float,
    tx: Floats,
    ty: Floats,
    th: Floats | tuple[Floats, Floats],
) -> tuple[Floats, Floats, Floats]:
    """:func:`in_arc_edges`, :func:`edge_candidates` and :func:`nearest` at once, for
    pairs (P,) of a firing dot and a target base at pose (tx, ty, th), with no
    blockers: the distance to the nearest in-arc point of the base (inf: none) and the
    point. The arrays are laid out corner-first, (4, P), so numpy runs long inner loops
    (the same arithmetic as the three functions). ``th`` may be the cosines and sines
    of the target headings instead."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if isinstance(th, tuple):
            c, s = th
        else:
            rad = np.radians(th)
            c, s = np.cos(rad), np.sin(rad)
        f = _FORWARD * (spec.base_length / 2.0)
        lft = _LEFT * (spec.base_width / 2.0)
        ax = tx + f * c - lft * s  # (4, P): the corners, counter-clockwise
        ay = ty + f * s + lft * c
        ex, ey = _edges(ax), _edges(ay)
        dx, dy = ax - ox, ay - oy
        bx, by = dx + ex, dy + ey
        rr = np.radians(axis - half)
        lr = np.radians(axis + half)
        rx, ry = np.cos(rr), np.sin(rr)
        lx, ly = np.cos(lr), np.sin(lr)
        lo1, hi1 = _interval(rx * dy - ry * dx, rx * by - ry * bx)
        lo2, hi2 = _interval(-lx * dy + ly * dx, -lx * by + ly * bx)
        t0 = np.maximum(np.maximum(lo1, lo2), 0.0)
        t1 = np.minimum(np.minimum(hi1, hi2), 1.0)
        foot = (-dx * ex - dy * ey) / (ex * ex + ey * ey)
        # as np.maximum(np.nan_to_num(foot), t0): t0 >= 0, so NaN (read as 0) gives t0
        foot = np.minimum(np.fmax(foot, t0), t1)
        ok = t0 <= t1
        ts = np.stack([t0, t1, foot], axis=1)  # (4, 3, P)
        ts = np.where(ok[:, None], ts, 0.0)
        px = (ax[:, None] + ts * ex[:, None]).reshape(12, -1)
        py = (ay[:, None] + ts * ey[:, None]).reshape(12, -1)
        d = np.hypot(px - ox, py - oy)
        d = np.where(np.repeat(ok, 3, axis=0), d, np.inf)
        at = np.argmin(d, axis=0) * d.shape[1] + np.arange(d.shape[1])
        return d.reshape(-1).take(at), px.reshape(-1).take(at), py.reshape(-1).take(at)


def _edges(a: Floats) -> Floats:
    """Corner-first coordinates (4, P) of quadrilaterals: each edge's run to the next
    corner (``np.roll(a, -1, axis=0) - a``)."""
    out = np.empty_like(a)
    np.subtract(a[1:], a[:-1], out=out[:-1])
    np.subtract(a[0], a[-1], out=out[-1])
    return out
