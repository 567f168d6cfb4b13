"""Compiled loops of the planning bots (Numba): the arc tests on float32 offsets, a
weapon's expected damage, the end position's per-(plan, pose) terms, the runs of plans
sharing their first cards and the trapped test, each one pass over its arrays where
numpy took a dozen calls of its own.

Every element gets the operations numpy gave it, in the same order and precision: no
``fastmath`` (Numba's default), so LLVM neither reorders nor fuses a product into an
addition (``tests/test_plane_planner.py`` pins the scores' digest). Transcendentals stay
in numpy (its ``exp`` is not libm's: the two differ in the last bit of a few results);
the kernels take their results. Sums that enter a matrix product stay numpy's too (its
BLAS sums a row in its own order).

Numba is imported, and the kernels compiled (or loaded from ``__pycache__``:
``cache=True``), at the first call of any kernel, so a process that never plans an
airplane pays nothing: importing Numba costs about 0.2 s of CPU, loading the kernels
about as much again, once per process (compiling them afresh, after this file changes:
about 2 s). Their annotations type them for the checker (:func:`_compiled`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

_K = TypeVar("_K", bound=Callable[..., Any])
_KERNELS: list[Callable[..., Any]] = []
"""The kernels' Python functions, in the order they are defined (callees first)."""


def _compiled(kernel: _K) -> _K:
    """``kernel``, compiled at the first call of any kernel (:func:`_compile_all`): this
    module's name for it is then Numba's dispatcher, called without this stub."""
    _KERNELS.append(kernel)

    def first_call(*args: Any) -> Any:
        _compile_all()
        return globals()[kernel.__name__](*args)

    return cast(_K, first_call)


def _compile_all() -> None:
    """Every kernel's name bound to its Numba dispatcher (strict IEEE arithmetic,
    compiled code cached on disk), callees first so callers compile against them. With
    nowhere to keep the cache (a read-only install and no writable home or
    ``NUMBA_CACHE_DIR``), Numba refuses ``cache=True``: the kernels are then compiled
    in each process (about 2 s), the same code."""
    import numba

    options: dict[str, Any] = {"fastmath": False, "error_model": "numpy"}
    for kernel in _KERNELS:
        try:
            compiled = numba.njit(cache=True, **options)(kernel)
        except RuntimeError:  # "cannot cache function ...: no locator available"
            compiled = numba.njit(**options)(kernel)
        globals()[kernel.__name__] = compiled


_INF32 = np.float32(np.inf)


@_compiled
def _arc_d2(
    dx: np.float32,
    dy: np.float32,
    c: np.float32,
    s: np.float32,
    slope: np.float32,
    reverse: bool,
) -> np.float32:
    """The squared length of the offset (``dx``, ``dy``) from a firing dot whose axis has
    cosine ``c`` and sine ``s``, ``inf`` outside the arc whose half-width has tangent
    ``slope`` (across > along x slope); ``reverse``: the offset runs from the point to the
    firing dot (negating a sum of products negates it exactly: the same floats)."""
    d2 = dx * dx + dy * dy
    along = dx * c + dy * s
    if reverse:
        along = -along
    across = abs(dy * c - dx * s)
    if across > along * slope:
        return _INF32
    return d2


@_compiled
def nearest_rows(
    fx: F32, fy: F32, c: F32, s: F32, px: F32, py: F32, slope: np.float32, out: F64
) -> None:
    """Into ``out`` (rows, r): per row and column, the least :func:`_arc_d2` from the
    firing dot (``fx``, ``fy``: (1 or rows, r); axes ``c``, ``s`` alike) to the bases'
    sample points (``px``, ``py``: (k, 1 or rows, r))."""
    k, b, r = px.shape
    a, u = fx.shape[0], c.shape[0]
    best = np.empty(r, dtype=np.float32)
    for i in range(out.shape[0]):
        ia = i if a > 1 else 0
        iu = i if u > 1 else 0
        ib = i if b > 1 else 0
        for t in range(k):
            for j in range(r):
                d2 = _arc_d2(
                    px[t, ib, j] - fx[ia, j],
                    py[t, ib, j] - fy[ia, j],
                    c[iu, j],
                    s[iu, j],
                    slope,
                    False,
                )
                if t == 0 or d2 < best[j]:
                    best[j] = d2
        for j in range(r):
            out[i, j] = best[j]


@_compiled
def in_arc_offsets(
    dx: F32, dy: F32, c: F32, s: F32, slope: np.float32, reverse: bool, out: F64
) -> None:
    """Into ``out`` (m, r): :func:`_arc_d2` of given offsets (``dx``, ``dy``: (m, r))
    about axes ``c``, ``s`` (1 or m, r)."""
    m, r = dx.shape
    u = c.shape[0]
    for i in range(m):
        iu = i if u > 1 else 0
        for j in range(r):
            out[i, j] = _arc_d2(dx[i, j], dy[i, j], c[iu, j], s[iu, j], slope, reverse)


@_compiled
def end_distances(
    ex: F64, ey: F64, fx: F64, fy: F64, near_at: float, near_width: float, out: F64
) -> None:
    """Into ``out`` (plans, poses): the exponent of the end position's ``near`` bell,
    ``-((d - near_at) / near_width) ** 2`` for the distance ``d`` (plus 1e-6) from each
    plan's final centre (``fx``, ``fy``) to each enemy pose (``ex``, ``ey``)."""
    for j in range(fx.shape[0]):
        for i in range(ex.shape[0]):
            dx = ex[i] - fx[j]
            dy = ey[i] - fy[j]
            d = np.sqrt(dx * dx + dy * dy) + 1e-6
            near = (d - near_at) / near_width
            out[j, i] = -(near * near)


@_compiled
def end_values(
    ex: F64,
    ey: F64,
    ec: F64,
    es: F64,
    fx: F64,
    fy: F64,
    cos: F64,
    sin: F64,
    tripod: bool,
    ahead: float,
    behind: float,
    far: float,
    size: float,
    near: F64,
) -> None:
    """In place of ``near`` (plans, poses; the bell :func:`end_distances` gave the
    exponent of): ``ahead`` x the enemy ahead of our nose (its bearing's cosine, clipped
    at 0, squared) x near, less ``behind`` x ourselves ahead of the enemy's nose (axes
    ``ec``, ``es``; a tripod sees half round) x near, less ``far`` x the distance per
    ``size`` (the table's width plus height)."""
    for j in range(fx.shape[0]):
        for i in range(ex.shape[0]):
            dx = ex[i] - fx[j]
            dy = ey[i] - fy[j]
            d = np.sqrt(dx * dx + dy * dy) + 1e-6
            mine = (dx * cos[j] + dy * sin[j]) / d
            theirs = -(dx * ec[i] + dy * es[i]) / d
            if tripod:
                wide = 0.5 * theirs + 0.5
                theirs = theirs if theirs >= wide else wide
            bell = near[j, i]
            mine = mine if mine >= 0.0 else 0.0
            theirs = theirs if theirs >= 0.0 else 0.0
            value = mine * mine * bell * ahead
            value -= theirs * theirs * bell * behind
            value -= d * far / size
            near[j, i] = value


@_compiled
def weapon_values(
    d2: F64,
    apart: npt.NDArray[np.bool_],
    lo: int,
    ruler2: float,
    half2: float,
    card: F64,
    aim: bool,
    first: float,
    own: bool,
    parent: npt.NDArray[np.intp],
    k: int,
    shield: F64,
    value: F64,
    hit: F64,
) -> None:
    """A weapon's expected damage per (enemy pose, run) from the runs' column ``lo`` on,
    into ``value``, and into ``hit`` 1 where it reaches (in the arc within the ruler,
    ``apart``: the bases not overlapping), else 0. ``d2``: the arc's squared distances;
    ``card``: one damage card's expected points, its chance of a damage value and its
    expected Energy loss; 2 cards within ``half2``. With ``aim`` the aim bonus adds the
    chance of a damage value when the weapon reached the run's run of the phase before
    (``parent``; the first ``k`` columns: ``first``), times the reach now for our
    weapons (``own``). ``shield`` (when not empty): 1 where the target's side is
    unprotected; elsewhere a tripod loses 0.3 x Energy per card."""
    m, r = d2.shape
    points, nonzero, energy = card[0], card[1], card[2]
    shielded = shield.shape[0] > 0
    for i in range(m):
        for j in range(r):
            d = d2[i, j]
            h = 1.0 if d <= ruler2 and apart[i, lo + j] else 0.0
            hit[i, j] = h
            cards = ((1.0 if d <= half2 else 0.0) + 1.0) * h
            bonus = 0.0
            if aim:
                bonus = first if j < k else hit[i, parent[lo + j] - lo]
                if own:
                    bonus = bonus * h
            v = cards * (points + nonzero * bonus)
            if shielded:
                sh = shield[i, lo + j]
                v = v * sh + 0.3 * cards * energy * (1.0 - sh)
            value[i, j] = v


@_compiled
def prefix_runs(
    seqs: npt.NDArray[np.int64],
    first: npt.NDArray[np.intp],
    inverse: npt.NDArray[np.intp],
    counts: npt.NDArray[np.intp],
    parent: npt.NDArray[np.intp],
) -> None:
    """The runs of plans (rows of ``seqs``, (n, k)) sharing their first ``p + 1`` cards,
    phase by phase: a run starts where an earlier card, or this one, differs from the
    row above. Into ``first[p, :counts[p]]`` each run's first row, ``inverse[p]`` each
    plan's run, ``counts[p]`` the runs, and ``parent`` (the runs of all phases side by
    side, zeroed) each run's run of the phase before, as a column."""
    n, k = seqs.shape
    fresh = np.zeros(n, dtype=np.bool_)
    offset = 0
    for p in range(k):
        c = 0
        for i in range(n):
            if i == 0 or seqs[i, p] != seqs[i - 1, p]:
                fresh[i] = True
            if fresh[i]:
                first[p, c] = i
                c += 1
            inverse[p, i] = c - 1
        counts[p] = c
        if p > 0:
            before = offset - counts[p - 1]
            for r in range(c):
                parent[offset + r] = before + inverse[p - 1, first[p, r]]
        offset += c


@_compiled
def trapped_rows(
    fx: F64,
    fy: F64,
    rows: npt.NDArray[np.intp],
    which: npt.NDArray[np.intp],
    c: F64,
    s: F64,
    ex: F64,
    ey: F64,
    margin: float,
    width: float,
    height: float,
    out: npt.NDArray[np.bool_],
) -> None:
    """Into ``out[rows]``: True when none of the escapes (``ex``, ``ey``: the centre
    dot after each card, (escapes, cards), flown from the origin facing 0 degrees) flown
    from the pose (``fx``, ``fy``, its heading's cosine and sine ``c[which]``,
    ``s[which]``) keeps the centre ``margin`` inside the table: for each escape, the
    pose's centre must lie in a box (the table less the escape's reach each way)."""
    escapes, cards = ex.shape
    for r in range(rows.shape[0]):
        i = rows[r]
        hc, hs = c[which[r]], s[which[r]]
        x, y = fx[i], fy[i]
        trapped = True
        for e in range(escapes):
            least_x = most_x = ex[e, 0] * hc - ey[e, 0] * hs
            least_y = most_y = ex[e, 0] * hs + ey[e, 0] * hc
            for p in range(1, cards):
                ax = ex[e, p] * hc - ey[e, p] * hs
                ay = ex[e, p] * hs + ey[e, p] * hc
                least_x, most_x = min(least_x, ax), max(most_x, ax)
                least_y, most_y = min(least_y, ay), max(most_y, ay)
            if (
                x >= margin - least_x
                and x <= width - margin - most_x
                and y >= margin - least_y
                and y <= height - margin - most_y
            ):
                trapped = False
                break
        out[i] = trapped
