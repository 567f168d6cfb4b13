"""The ``martian`` bot for every tripod of a batch at once, after the referee's Martian
bot (:class:`dogfight.bots.airplanes.MartianBot`, :func:`dogfight.bots.tripod_planner.plan_tripod`).

Each tripod scores its legal card sequences (3 distinct cards less its toppled tokens,
no more Energy cards than its Energy, three cards not all movement cards, none its
damage forbids) as the referee's bot does:

- a prohibitive cost for a sequence that takes it within 2 cm of an edge, except the
  edge the scenario tells its side to leave by once that is its goal;
- with a scenario's ``objectives_and_exit`` victory for its side: the distance from the
  end of the walk to the next objective (the nearest one still standing) while too few
  are destroyed, a bonus of 60 for standing still on it (less 3 for each phase it waits),
  where it pencils the token that destroys it; else the distance to a point 20 cm beyond
  the exit edge. With no such goal: keeping about 0.6 heat-ray rulers from the nearest
  enemy;
- a prohibitive cost for an Energy card that leaves it less than 2 Energy to spare;
- the heat-rays it could fire (twice their expected points) and the damage the nearest
  airplane's guns may deal to its unprotected sides (0.7 of their expected points),
  against ten plausible plans of that airplane: heat-rays go on the phases where one
  would score more than 0.4 point, the heat-ray ready, no Stop icon, no green token
  there, 2 Energy to spare (not on a movement card with a wounded pilot);
- the best sequence is played; a standing still card with nothing to do pencils a
  recharge while it is short of Energy.

Each phase's token is then chosen as every computer player chooses it
(:func:`dogfight.batch.tripod_plans.bot_tokens`, ``bots.tokens.choose_token``), the
token pencilled in as its default. Airplanes of the side are flown by the ``easy`` policy
(the referee's bot flies them as ``hard``, which the batch does not have).

The bot's own approximations are kept (bases as their centre and corners, the heat-ray
arc widened by 5 degrees, the airplane's plausible plans uniform among its safest legal
ones, :func:`policies.best_tier_plans`); the batch adds one: only the :data:`FINE`
sequences best by the terms that do not look at the airplane (the table's edges, the
goal, the Energy) are scored against its plausible plans. Held to the referee's bot by
a statistical test (docs/batch.md "Statistically the same games").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from dogfight.batch.aim import odds, sample_points
from dogfight.batch.easy import easy_plans
from dogfight.batch.policies import POLICIES, best_tier_plans, placed, sequences
from dogfight.batch.scenario import EDGES, OBJECTIVES_AND_EXIT
from dogfight.batch.spec import Bools, Floats, Ints, Spec
from dogfight.batch.state import BatchState
from dogfight.batch.tripod_plans import (
    MARGIN,
    _damage_allows,
    bot_tokens,
    cards_to_plan,
    planning,
)
from dogfight.batch.tripod_sequences import sequences as tripod_sequences
from dogfight.batch.tripod_spec import DESTROY_OBJECTIVE, NO_TOKEN, RECHARGE, STAND, TripodSpec

FINE = 8
"""Sequences per tripod scored against the airplane's plausible plans (the best by the
other terms)."""
SAMPLES = 10
"""Plausible plans of the nearest airplane (``plan_tripod``'s ``samples``)."""
CHUNK = 256
"""Tripods planned at once (bounds the memory of the (tripods, sequences, 3) arrays)."""
OFF_TABLE = 1000.0
"""As ``bots.threats.OFF_TABLE``."""
BEYOND = 20.0
"""cm beyond the exit edge the walk aims at."""
ARC_WIDER = 5.0
"""Degrees the bot widens each side of a projector's arc beyond the ruler's tilt."""
SOUTH, NORTH, WEST, EAST = (EDGES.index(e) for e in ("south", "north", "west", "east"))
STILL_BONUS = np.array([60.0, 57.0, 54.0, 0.0])
"""The bonus for standing still on the objective first in phase 0, 1, 2 (60 less 3 a
phase of waiting), and never (index -1)."""


@lru_cache(maxsize=64)
def turns(tri: TripodSpec, deck: int, count: int) -> Floats:
    """(E, 3) how far each sequence of :func:`tripod_sequences.sequences` has turned the
    tripod after each phase (a reverse pending turns the walk about, not the result:
    ``tripods.move``)."""
    cards = tripod_sequences(tri, deck, count).cards
    c = np.maximum(cards, 0)
    out: Floats = np.cumsum(np.where((cards >= 0) & tri.card_moves[c], tri.card_turn[c], 0.0), 1)
    return out


@dataclass(frozen=True)
class Goals:
    """Where each tripod heads (``tripod_planner._goal``)."""

    active: Bools
    """(R,) it has a goal (its side has an ``objectives_and_exit`` victory)."""
    x: Floats
    y: Floats
    objective: Ints
    """(R,) the objective to destroy (-1: the exit, or no goal)."""
    exit_edge: Ints
    """(R,) the edge to leave by (``scenario.EDGES``; -1: not yet, or no goal)."""


def goals(state: BatchState, b: Ints, n: Ints) -> Goals:
    """Each tripod's next objective still standing (the nearest, the first of equals),
    or once its side's victory has enough destroyed, a point beyond the exit edge."""
    count = len(b)
    active = np.zeros(count, dtype=np.bool_)
    gx, gy = np.zeros(count), np.zeros(count)
    objective = np.full(count, -1, dtype=np.int64)
    edge = np.full(count, -1, dtype=np.int64)
    wins = state.victories
    if wins is None:
        return Goals(active, gx, gy, objective, edge)
    side = state.side[b, n]
    x, y = state.x[b, n], state.y[b, n]
    standing = ~state.obj_destroyed[b]  # (R, O)
    done = (~standing).sum(axis=1)
    spec = state.spec
    for k, condition in enumerate(wins.kind):
        if condition != OBJECTIVES_AND_EXIT:
            continue
        rows = np.flatnonzero((side == wins.side[k]) & ~active)  # the side's first one
        if len(rows) == 0:
            continue
        active[rows] = True
        more = (done[rows] < wins.objectives[k]) & standing[rows].any(axis=1)
        if standing.shape[1]:
            far = np.hypot(
                state.obj_x[b[rows]] - x[rows, None], state.obj_y[b[rows]] - y[rows, None]
            )
            near = np.argmin(np.where(standing[rows], far, np.inf), axis=1)
            ox, oy = state.obj_x[b[rows], near], state.obj_y[b[rows], near]
        else:
            near = np.zeros(len(rows), dtype=np.int64)
            ox, oy = x[rows], y[rows]
        e = wins.exit_edge[k]
        ex = {WEST: -BEYOND, EAST: spec.width + BEYOND}.get(e)
        ey = {SOUTH: -BEYOND, NORTH: spec.height + BEYOND}.get(e)
        gx[rows] = np.where(more, ox, x[rows] if ex is None else ex)
        gy[rows] = np.where(more, oy, y[rows] if ey is None else ey)
        objective[rows] = np.where(more, near, -1)
        edge[rows] = np.where(more, -1, e)
    return Goals(active, gx, gy, objective, edge)


def nearest_enemy(state: BatchState, b: Ints, n: Ints) -> Ints:
    """(R,) the slot of each tripod's nearest enemy in play (the first of equals, in id
    order; -1: none)."""
    foes = state.alive[b] & (state.side[b] != state.side[b, n][:, None])
    gap = np.hypot(state.x[b] - state.x[b, n][:, None], state.y[b] - state.y[b, n][:, None])
    gap = np.where(foes, gap, np.inf)
    near = np.argmin(gap, axis=1)
    out: Ints = np.where(foes.any(axis=1), near, -1)
    return out


def plan_martians(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """Plan the turn of every tripod in play (and in ``mask``) that has not planned it,
    as the referee's Martian bot plans it (the module's docstring): the cards in
    ``tplan``, the green tokens pencilled in ``pencil`` and ``pencil_target``."""
    b, n = planning(state, mask)
    if len(b) == 0:
        return
    # tripods of one model, number of cards and reverse pending walk the same sequences
    key = (state.ttype[b, n] * 4 + cards_to_plan(state, b, n)) * 2 + state.reverse[b, n]
    for group in np.unique(key).tolist():
        rows = np.flatnonzero(key == group)
        t, c, back = group // 8, group // 2 % 4, group % 2
        for start in range(0, len(rows), CHUNK):
            part = rows[start : start + CHUNK]
            _plan(state, b[part], n[part], (t, c, back), rng)


@lru_cache(maxsize=64)
def prefixes(tri: TripodSpec, deck: int, count: int) -> tuple[tuple[Ints, Ints], ...]:
    """Per phase, the sequences whose cards so far differ (one each, (U,)) and which of
    them each sequence's cards so far are ((E,)): a tripod stands where that one does
    (its first card has 13 possibilities, its first two 156...)."""
    cards = tripod_sequences(tri, deck, count).cards
    out = []
    for p in range(3):
        _, first, inverse = np.unique(
            cards[:, : p + 1], axis=0, return_index=True, return_inverse=True
        )
        out.append((first.astype(np.int64), inverse.reshape(-1).astype(np.int64)))
    return tuple(out)


def _plan(
    state: BatchState, b: Ints, n: Ints, group: tuple[int, int, int], rng: np.random.Generator
) -> None:
    """Plan tripods ``n`` of tables ``b``, all of model ``t`` with ``count`` cards and
    (``back``) a reverse pending or not (``group``)."""
    t, count, back = group
    spec = state.spec
    tri = spec.tripods
    rules = spec.rules
    deck = int(tri.type_deck[t])
    w = tripod_sequences(tri, deck, count)
    r_count = len(b)
    rows = np.arange(r_count)
    energy = state.energy[b, n]
    goal = goals(state, b, n)
    plane = nearest_enemy(state, b, n)
    seen = plane >= 0
    # the legal ones (tripod_moves.tripod_sequences)
    legal = (w.energy[None, :] <= energy[:, None]) & w.steady[None, :]
    legal &= _damage_allows(state, b, n, (w.reverse[None], w.moves_any[None], w.moves_three[None]))
    legal[~legal.any(axis=1), 0] = True
    stand = (tri.card_symbol[np.maximum(w.cards, 0)] == STAND) & (w.cards >= 0)
    # where each phase leaves it, measured once for the sequences whose cards so far agree
    rad = np.radians(state.heading[b, n])[:, None]
    cos, sin = np.cos(rad), np.sin(rad)
    x0, y0 = state.x[b, n][:, None], state.y[b, n][:, None]
    edge = goal.exit_edge[:, None]
    aiming = (goal.objective >= 0)[:, None]
    gx, gy = goal.x[:, None], goal.y[:, None]
    radius = rules.hex_apothem() + rules.catalog.constants.tripods.objective_radius - 0.6
    off = np.zeros((r_count, len(w.cards)), dtype=np.bool_)
    on: list[Bools] = []
    where: list[tuple[Floats, Floats, Ints]] = []
    for p, (one, of) in enumerate(prefixes(tri, deck, count)):
        f, lft = w.forward[back, one, p], w.left[back, one, p]
        x, y = x0 + f * cos - lft * sin, y0 + f * sin + lft * cos  # (R, U)
        where.append((x, y, of))
        out = ((x < MARGIN) & (edge != WEST)) | ((x > spec.width - MARGIN) & (edge != EAST))
        out |= ((y < MARGIN) & (edge != SOUTH)) | ((y > spec.height - MARGIN) & (edge != NORTH))
        every = len(one) == len(w.cards)  # the last phase: every sequence its own
        off |= out if every else out.take(of, axis=1)
        # standing still on the objective (measured on the standing still cards only)
        still = np.flatnonzero(stand[one, p])
        dx, dy = x[:, still] - gx, y[:, still] - gy
        here = np.zeros(x.shape, dtype=np.bool_)
        here[:, still] = (dx * dx + dy * dy <= radius * radius) & aiming
        on.append(here if every else here.take(of, axis=1))
    # the first phase it stands still on the objective
    first = np.select(on, [0, 1, 2], -1)
    # the terms that do not look at the airplane
    x, y, _ = where[2]  # the walk's end (every sequence differs by then)
    score = np.where(legal, -OFF_TABLE * off, -np.inf)
    dx, dy = x - gx, y - gy
    score -= goal.active[:, None] * np.sqrt(dx * dx + dy * dy)
    score += STILL_BONUS[first]
    length = float(tri.type_ray_length[t])
    if (~goal.active & seen).any():
        px, py = state.x[b, plane], state.y[b, plane]
        dx, dy = x - px[:, None], y - py[:, None]
        apart = np.sqrt(dx * dx + dy * dy)
        keep = (~goal.active & seen)[:, None]
        score -= keep * 0.3 * np.abs(apart - 0.6 * length)
    needs = w.energy[None, :]
    score -= OFF_TABLE * ((needs > 0) & (energy[:, None] < needs + 2))
    # the best of them, scored against the airplane's plausible plans
    k = min(FINE, score.shape[1])
    top = np.argpartition(-score, k - 1, axis=1)[:, :k]  # (R, K)
    pick = (rows[:, None], top)
    x = np.stack([wx[rows[:, None], of[top]] for wx, _, of in where], axis=2)  # (R, K, 3)
    y = np.stack([wy[rows[:, None], of[top]] for _, wy, of in where], axis=2)
    h = state.heading[b, n][:, None, None] + turns(tri, deck, count)[top]
    score, first = score[pick], first[pick]
    cards = w.cards[top]  # (R, K, 3)
    rays = np.zeros((r_count, k, 3))
    plane_rows = np.flatnonzero(seen & ~state.tripod[b, np.maximum(plane, 0)])
    if len(plane_rows):
        got, guns = _threats(state, b, n, t, plane, plane_rows, x, y, h, rng)
        rays[plane_rows] = got
        score[plane_rows] -= guns
    # the heat-rays' phases
    offset = 3 - count
    c = np.maximum(cards, 0)
    stop = tri.card_stop[c] & (cards >= 0)
    moving = tri.card_moves[c] & (cards >= 0)
    wounded = (spec.specials == "000") & (state.wounded[b, n] > 0)
    fired = np.zeros((r_count, k, 3), dtype=np.bool_)
    shoot = seen & (energy > 0)
    # plan_tripod's heat-ray is ready again once the tripod has lain down a phase
    ready = np.broadcast_to((state.cooling[b, n] == 0) | (offset > 0), (k, r_count)).T
    left = energy[:, None] - w.energy[top]
    for p in range(offset, 3):
        free = ~stop[..., p] & (first != p) & ~(wounded[:, None] & moving[..., p])
        fire = ready & free & (rays[..., p] > 0.4) & (left >= 2) & shoot[:, None]
        fired[..., p] = fire
        score += 2.0 * np.where(fire, rays[..., p], 0.0)
        left = left - fire
        ready = ~fire
    best = np.argmax(score, axis=1)
    chosen = cards[rows, best]
    state.tplan[b, n] = chosen
    # the pencilled green tokens: destroying the objective where it stands on it, else
    # a recharge on an idle standing still card while short of Energy
    first_best = first[rows, best]
    fired_best = fired[rows, best]
    pencil = np.full((r_count, 3), NO_TOKEN, dtype=np.int64)
    target = np.full((r_count, 3), -1, dtype=np.int64)
    at = first_best >= 0
    pencil[rows[at], first_best[at]] = DESTROY_OBJECTIVE
    target[rows[at], first_best[at]] = goal.objective[at]
    c = np.maximum(chosen, 0)
    idle = (chosen >= 0) & (tri.card_symbol[c] == STAND) & ~tri.card_stop[c]
    idle &= (pencil == NO_TOKEN) & ~fired_best
    charge = energy.copy()
    rating = state.rating[b, n]
    for p in range(offset, 3):
        now = idle[:, p] & (charge < rating)
        pencil[now, p] = RECHARGE
        charge = charge + now
    state.pencil[b, n] = pencil
    state.pencil_target[b, n] = target


def _threats(
    state: BatchState,
    b: Ints,
    n: Ints,
    t: int,
    plane: Ints,
    rows: Ints,
    x: Floats,
    y: Floats,
    h: Floats,
    rng: np.random.Generator,
) -> tuple[Floats, Floats]:
    """For the tripods ``rows`` (S,) and their candidate poses (R, K, 3): the heat-ray's
    expected points at each phase (S, K, 3) and the damage the airplane's guns may deal
    to unprotected sides over the turn (S, K, 0.7 of the expected points), against
    :data:`SAMPLES` plausible plans of the nearest airplane
    (``tripod_planner.plan_tripod``, ``plane_planner.heat_ray_threat``)."""
    spec = state.spec
    tri = spec.tripods
    rules = spec.rules
    tb, tn, pn = b[rows], n[rows], plane[rows]
    picks = best_tier_plans(state, tb, pn, SAMPLES, rng)  # (S, M)
    deck = spec.type_deck[state.type[tb, pn]]
    px, py, ph = placed(
        sequences(spec),
        deck[:, None],
        picks,
        state.x[tb, pn][:, None],
        state.y[tb, pn][:, None],
        state.heading[tb, pn][:, None],
    )  # (S, M, 3)
    x, y, h = x[rows], y[rows], h[rows]  # (S, K, 3)
    apothem = rules.hex_apothem()
    ruler = rules.heat_ray_ruler(tri.type_ids[t])
    ray_deck = np.array([tri.type_ray_deck[t]])
    points, _ = odds(spec, ray_deck, np.array(12))
    short = float(points[0]) * (1.0 + _zero_share(spec, int(ray_deck[0])))
    slope = np.tan(np.radians(ruler.tilt + ARC_WIDER))
    sides = np.flatnonzero(tri.type_projectors[t])
    open_sides = np.flatnonzero(~tri.type_protected[t])
    # the armour is down without Energy or toppled (threats.unprotected)
    bare = (state.energy[tb, tn] < 1) | (state.toppled[tb, tn] > 0) | (len(open_sides) == 6)
    weapons = spec.type_weapon_deck[state.type[tb, pn]]  # (S, 2)
    jams = state.jams[tb, pn]
    resistance = state.resistance[tb, tn]
    hexes = _hex_points(rules.hex_side)
    rays = np.zeros((len(rows), x.shape[1], 3))
    guns = np.zeros((len(rows), x.shape[1]))
    for p in range(3):
        rad = np.radians(h[..., p])[:, :, None]  # (S, K, 1)
        c, s = np.cos(rad), np.sin(rad)
        qx, qy = sample_points(spec, px[..., p], py[..., p], ph[..., p])  # (S, M, 5)
        # the points first, (5, S, K, M), in the tripod's frame
        dx = qx.transpose(2, 0, 1)[:, :, None, :] - x[None, :, :, p, None]
        dy = qy.transpose(2, 0, 1)[:, :, None, :] - y[None, :, :, p, None]
        u, v = dx * c + dy * s, dy * c - dx * s
        best = np.full(u.shape[1:], np.inf)
        for side in sides.tolist():
            cj, sj = np.cos(np.radians(60.0 * side)), np.sin(np.radians(60.0 * side))
            along = u * cj + v * sj - apothem
            across = np.abs(v * cj - u * sj)
            d2 = np.where(across <= along * slope, along * along + across * across, np.inf)
            for point in d2:  # (numpy reduces a short leading axis slowly)
                np.minimum(best, point, out=best)
        value = np.where(
            best <= ruler.half**2, short, np.where(best <= ruler.length**2, float(points[0]), 0.0)
        )
        rays[..., p] = value.mean(axis=2)
        # the airplane's guns at the hexagon (its centre and corners)
        fu, fv = u[0], v[0]  # the firing dot = the base's centre, (S, K, M)
        facing = np.zeros(fu.shape, dtype=np.bool_)
        for side in open_sides.tolist():
            cj, sj = np.cos(np.radians(60.0 * side)), np.sin(np.radians(60.0 * side))
            facing |= fu * cj + fv * sj - apothem > 0.0
        facing |= bare[:, None, None]
        for weapon in (0, 1):
            usable = (weapons[:, weapon] >= 0) & (jams[:, weapon] <= p)
            if not usable.any():
                continue
            # the arc's axis in the tripod's frame: cos and sin of (its heading - the tripod's)
            aim = np.radians(ph[..., p] + spec.arc_centre[weapon])[:, None, :]  # (S, 1, M)
            ca, sa = np.cos(aim), np.sin(aim)
            ac, as_ = ca * c + sa * s, sa * c - ca * s
            tan = np.tan(np.radians(spec.arc_half[weapon]))
            d2 = np.full(fu.shape, np.inf)
            for hx, hy in hexes:
                ex, ey = hx - fu, hy - fv
                along = ex * ac + ey * as_
                across = np.abs(ey * ac - ex * as_)
                d2 = np.minimum(d2, np.where(across <= along * tan, ex * ex + ey * ey, np.inf))
            cards = np.where(d2 <= spec.half**2, 2.0, 1.0) * (d2 <= spec.ruler**2)
            worth, _ = odds(spec, np.maximum(weapons[:, weapon], 0), resistance)
            hit = (cards * facing).mean(axis=2) * worth[:, None]
            guns += 0.7 * hit * usable[:, None]
    return rays, guns


@lru_cache(maxsize=8)
def _hex_points(side: float) -> tuple[tuple[float, float], ...]:
    """A tripod base's centre and corners in its own frame (``threats.base_points``)."""
    corners = [np.radians(-30.0 + 60.0 * i) for i in range(6)]
    return ((0.0, 0.0), *((side * float(np.cos(a)), side * float(np.sin(a))) for a in corners))


def _zero_share(spec: Spec, deck: int) -> float:
    """The chance a card of damage deck ``deck`` is a plain 0 (a short-range heat-ray
    then draws a second card)."""
    size = int(spec.damage_size[deck])
    zero = (spec.slot_value[deck, :size] == 0) & ~spec.slot_explosion[deck, :size]
    return float(zero.sum()) / size


def martian_plans(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """The ``martian`` policy: its tripods' turns (:func:`plan_martians`) and each
    phase's token (:func:`bot_tokens`, the pencilled token its default); its airplanes
    by the ``easy`` policy."""
    if state.tripod.any():
        plan_martians(state, rng, mask)
        bot_tokens(state, rng, mask)
    easy_plans(state, rng, mask)


POLICIES["martian"] = martian_plans
