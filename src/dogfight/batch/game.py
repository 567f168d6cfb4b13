"""One action phase for every table of a batch, in the referee's order of steps
(000, "THE GAME TURN"): reveal (flight restrictions per switch), move, leave the table,
fire, damage (all together at the end of the firing step), victory, end of turn.

Every random number comes from the generator given; the log of a phase says what
happened on each table (for the differential test and for statistics).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dogfight.batch import (
    damage,
    heat_rays,
    moves,
    scenario,
    sight,
    skills,
    special,
    tailing,
    tripods,
)
from dogfight.batch.arrays import any_slot, nonzero, ordered_pairs, per_slot
from dogfight.batch.spec import (
    ILLEGAL_ELIMINATED,
    ILLEGAL_STRAIGHT_AND_DAMAGE,
    IMMELMANN,
    Bools,
    Floats,
    Ints,
)
from dogfight.batch.state import (
    BURNED,
    EXPLODED,
    ITCHY,
    LEFT_AREA,
    OUT_OF_CONTROL,
    SHOT_DOWN,
    SNIPER,
    BatchState,
    heading_trig,
)
from dogfight.batch.tripod_damage import TripodLog, protected_hits, ray_damage, spend_rays
from dogfight.errors import IllegalPlanError

REACH_TOLERANCE = 1e-9
"""As ``Sight.reachable`` and ``Sight.short``: exactly on the ruler or the half mark counts."""


@dataclass
class PhaseLog:
    """What one phase did on each table (arrays indexed [table, slot, ...])."""

    active: Bools
    """(B,) tables that resolved this phase."""
    card: Ints
    """(B, N) the card flown (global index), -1 when the airplane did not move."""
    illegal: Bools
    """(B, N) the revealed card broke a flight restriction."""
    illegal_slot: Ints
    """(B, N) the damage slot drawn for an illegal maneuver (wog), -1 for none."""
    x: Floats
    y: Floats
    heading: Floats
    target: Ints
    """(B, N, 2) the slot each weapon fired at, -1 for none."""
    distance: Floats
    short: Bools
    aimed: Bools
    slots: Ints
    """(B, N, 2, 2) damage slots drawn for each shot, -1 for none."""
    points: Ints
    """(B, N, 2) damage points each shot dealt."""
    eliminated: Ints
    """(B, N) reason code of the airplanes eliminated this phase, 0 for none."""
    tails: Bools
    """(B, N, N) 002's tailing in this phase: [tailer, tailed]."""
    plan: Ints
    """(B, N, 3) the plans flown (after any reorder of a tailing airplane)."""
    burn_slot: Ints
    """(B, N) the A card drawn by an airplane on fire as the turn began, -1 for none."""
    blind: Bools
    """(B, N) rear guns the blind spot kept from a reachable enemy (002)."""
    tripod: TripodLog | None = None
    """What the tripods did (None: no table of the batch has one)."""


Reorder = Callable[[BatchState, Bools], None]
"""A tailing seat's decision: reorders the remaining cards of the tailing airplanes
(``state.plan``) given who tails whom (B, N, N)."""


def _weapon_ready(state: BatchState, silenced: Ints, act: Bools) -> list[Bools]:
    """(B, N) per weapon (front, rear): whether it may fire (it exists, its airplane
    is in play, it is not jammed; 002: no rear gun with the observer out)."""
    n = state.slots
    up = state.alive & per_slot(act, n) & ~state.tripod
    out: list[Bools] = []
    for w in (0, 1):
        ok = up & (state.spec.type_weapon_deck[:, w].take(state.type) >= 0)
        ok &= silenced[..., w] == 0
        if w == 1:
            # 002: observer incapacitated, "two-seaters lose rear gun"
            ok &= ~state.observer
        out.append(ok)
    return out


def targets(state: BatchState, silenced: Ints, act: Bools) -> tuple[Ints, Floats, Bools]:
    """Each ready weapon's nearest reachable enemy (ties by slot, i.e. by id) and the
    range: (B, N, 2) slots (-1: none) and distances; and (B, N) the rear guns the blind
    spot kept from a reachable enemy (002).

    Pairs of airplanes are laid out (B, P), P the ordered pairs of distinct slots
    (:func:`arrays.ordered_pairs`), so every operation runs over whole rows."""
    spec = state.spec
    b_count, n = state.tables, state.slots
    alive = state.alive
    x, y, heading = state.x, state.y, state.heading
    out = np.full((b_count, n, 2), -1, dtype=np.int64)
    dist_out = np.full((b_count, n, 2), np.inf)
    blind = np.zeros((b_count, n), dtype=np.bool_)
    if n < 2:
        return out, dist_out, blind
    first, second = ordered_pairs(n)
    p_count = len(first)
    both = alive[:, first] & alive[:, second]
    enemy = (state.side[:, first] != state.side[:, second]) & both
    if not spec.auto_nearest or not enemy.any():
        return out, dist_out, blind  # no weapon has a target
    # every base (B, N, 4, 2), only where other bases may hide a target
    base = sight.corners(spec, x, y, heading) if n > 2 else np.zeros((0, n, 4, 2))
    # overlaps between airplanes in play (a prefilter on centres first)
    dx = x[:, second] - x[:, first]
    dy = y[:, second] - y[:, first]
    span = 2 * spec.base_radius + 1e-6
    near = both & (np.abs(dx) <= span) & (np.abs(dy) <= span)
    ov = np.zeros((b_count, p_count), dtype=np.bool_)
    bb, pp = nonzero(near)
    if len(bb):
        ii, jj = first[pp], second[pp]
        ov[bb, pp] = sight.overlap(
            sight.corners(spec, x[bb, ii], y[bb, ii], heading[bb, ii]),
            sight.corners(spec, x[bb, jj], y[bb, jj], heading[bb, jj]),
        )
    ready = _weapon_ready(state, silenced, act)
    trig = heading_trig(state)
    far = (spec.ruler + spec.base_radius + 1e-6) ** 2
    close = enemy & ~ov & (dx * dx + dy * dy <= far)
    ov_matrix = np.zeros((b_count, n, n), dtype=np.bool_)
    if n > 2:
        ov_matrix[:, first, second] = ov
    for w in (0, 1):
        pair = close & ready[w][:, first]
        bb, pp = nonzero(pair)
        if len(bb) == 0:
            continue
        # a conservative prefilter: some of the target's circumscribed circle in the arc
        flat = bb * p_count + pp
        ddx, ddy = dx.ravel()[flat], dy.ravel()[flat]
        ii, jj = first[pp], second[pp]
        turn = np.radians(spec.arc_centre[w])
        cc, sc = np.cos(turn), np.sin(turn)
        cos, sin = trig[0].ravel()[bb * n + ii], trig[1].ravel()[bb * n + ii]
        c = cos * cc - sin * sc
        s = sin * cc + cos * sc
        along, across = ddx * c + ddy * s, np.abs(-ddx * s + ddy * c)
        keep = sight.circle_in_arc(along, across, spec.base_radius, float(spec.arc_half[w]))
        bb, ii, jj = bb[keep], ii[keep], jj[keep]
        if len(bb) == 0:
            continue
        ox, oy = x[bb, ii], y[bb, ii]
        axis = heading[bb, ii] + spec.arc_centre[w]
        half = np.full(len(bb), spec.arc_half[w])
        target = bb * n + jj
        dist, px, py = sight.nearest_in_arc(
            spec,
            ox,
            oy,
            axis,
            float(spec.arc_half[w]),
            x.ravel()[target],
            y.ravel()[target],
            (trig[0].ravel()[target], trig[1].ravel()[target]),
        )
        reach = dist <= spec.ruler + REACH_TOLERANCE
        if n > 2 and reach.any():
            idx = np.flatnonzero(reach)
            dist[idx], px[idx], py[idx] = _covered(
                state,
                base,
                ov_matrix,
                (bb[idx], ii[idx], jj[idx]),
                axis[idx],
                half[idx],
                (dist[idx], px[idx], py[idx]),
            )
        if w == 1 and spec.blind_spot:
            hidden = _blind(state, bb, ii, dist, px, py)
            dist[hidden] = np.inf
            blind[bb[hidden], ii[hidden]] = True
        key = bb * n + ii
        best, best_d = _nearest(key, jj, dist)
        hit = best_d <= spec.ruler + REACH_TOLERANCE
        best, best_d = best[hit], best_d[hit]
        out.reshape(-1, 2)[key[best], w] = jj[best]
        dist_out.reshape(-1, 2)[key[best], w] = best_d
    return out, dist_out, blind


def _nearest(key: Ints, other: Ints, dist: Floats) -> tuple[Ints, Floats]:
    """For candidates sorted by ``key`` then ``other``: the first candidate of each key
    at the key's least distance (``np.argmin``'s choice among the key's candidates, ties
    to the smallest ``other``), and that distance. Returns (candidate indexes of the
    keys that have one, their distances); a key whose least distance is NaN has none,
    and reports NaN (never a hit)."""
    start = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
    if len(start) >= len(key):  # one candidate per key (or none at all)
        return np.arange(len(key)), dist
    least = np.minimum.reduceat(dist, start)
    group = np.repeat(np.arange(len(start)), np.diff(np.append(start, len(key))))
    best = np.flatnonzero(dist == least[group])
    first = np.ones(len(best), dtype=np.bool_)
    first[1:] = group[best][1:] != group[best][:-1]
    best = best[first]
    return best, dist[best]


def _blind(state: BatchState, bb: Ints, ii: Ints, dist: Floats, px: Floats, py: Floats) -> Bools:
    """002: "If ruler touches target with first half and passes through rear side of
    two-seater → firing blocked" (``firing.in_blind_spot``): the rear gun's ruler to
    the nearest visible point, short, leaving the firer through its rear side."""
    spec = state.spec
    rad = np.radians(state.heading[bb, ii])
    c, s = np.cos(rad), np.sin(rad)
    dx, dy = px - state.x[bb, ii], py - state.y[bb, ii]
    forward, left = dx * c + dy * s, -dx * s + dy * c
    rear = tailing.side_is(forward, left, spec.base_length, spec.base_width, front=False)
    out: Bools = rear & (dist <= spec.half + REACH_TOLERANCE)
    return out


CHUNK = 4096
"""Pairs measured for cover at once (bounds the memory of the candidate arrays)."""


def _covered(
    state: BatchState,
    base: Floats,
    ov: Bools,
    pairs: tuple[Ints, Ints, Ints],
    axis: Floats,
    half: Floats,
    bare: tuple[Floats, Floats, Floats],
) -> tuple[Floats, Floats, Floats]:
    """Range to the nearest visible in-arc point for pairs (firer ii, target jj) on
    tables bb, other bases hiding part of the target (000: "may not fire through other
    vehicles"; 003: only the firer's own side's), and that point; bases overlapping the
    firer or the target never block. ``bare`` is the nearest in-arc point with no
    blockers (range, x, y): when the ruler to it touches no base that may block, it is
    the answer (as the referee's ``measure`` tries it first)."""
    bb, ii, jj = pairs
    spec = state.spec
    n = state.slots
    ox, oy = state.x[bb, ii], state.y[bb, ii]
    slots = np.arange(n)[None, :]
    may = (
        state.alive[bb]
        & (slots != ii[:, None])
        & (slots != jj[:, None])
        & ~ov[bb, ii]
        & ~ov[bb, jj]
    )
    if spec.friendly_blocking:
        may &= state.side[bb] == state.side[bb, ii][:, None]
    reach = sight.dot_distance(
        spec, ox[:, None], oy[:, None], state.x[bb], state.y[bb], state.heading[bb]
    )
    may &= reach <= spec.ruler
    # Only a base whose cone from the dot meets the target's cone, and that is not
    # wholly beyond the target, can hide part of it (a conservative filter: each base
    # lies within its circumscribed circle).
    r = spec.base_radius
    bx, by = state.x[bb] - ox[:, None], state.y[bb] - oy[:, None]
    may &= sight.may_hide(bx, by, r, state.x[bb, jj] - ox, state.y[bb, jj] - oy, r)
    out, out_x, out_y = (a.copy() for a in bare)
    count = may.sum(axis=1)
    rest = np.flatnonzero(count > 0)
    if len(rest):
        # the ruler to the nearest in-arc point, against every base that may block
        pr, kr = np.nonzero(may[rest])
        pr = rest[pr]
        with np.errstate(all="ignore"):
            low, high = sight.ray_polygon(
                ox[pr], oy[pr], out_x[pr] - ox[pr], out_y[pr] - oy[pr], base[bb[pr], kr]
            )
        touches = np.maximum(low, 0.0) <= np.minimum(high, 1.0) + sight.TOUCH
        rest = np.unique(pr[touches])
    # pairs with as many possible blockers together (little padding), about CHUNK
    # candidate-blocker tests at once whatever their number
    chunks: list[Ints] = []
    for k in np.unique(count[rest]).tolist():
        same = rest[count[rest] == k]
        per = max(1, CHUNK // (k * (12 + 18 * k) // 64 + 1))
        chunks.extend(same[start : start + per] for start in range(0, len(same), per))
    for p in chunks:
        k = int(count[p].max())
        # the first k possible blockers of each pair, by slot
        order = np.argsort(~may[p], axis=1, kind="stable")[:, :k]
        mask = np.take_along_axis(may[p], order, axis=1)
        blockers = base[bb[p][:, None], order]
        out[p], out_x[p], out_y[p] = sight.visible_nearest(
            ox[p], oy[p], axis[p], half[p], base[bb[p], jj[p]], blockers, mask
        )
    return out, out_x, out_y


def _eliminate(
    state: BatchState, reason: Ints, log: Ints, dice: damage.Dice, returns: bool = True
) -> Bools:
    """Remove the airplanes with a reason code (B, N) (0: stays) and shuffle their cards
    back (000: "all its damage cards are shuffled back into the appropriate decks"),
    unless ``returns`` is False (the caller does). Returns who was removed."""
    gone = reason > 0
    if not gone.any():
        return gone
    state.alive &= ~gone
    state.reason[gone] = reason[gone]
    log[gone] = reason[gone]
    if returns:
        damage.return_cards(state, gone, dice)
    return gone


def _illegal_damage(
    state: BatchState, rows: Ints, slot: int, dice: damage.Dice, log: PhaseLog
) -> Ints:
    """000: an illegal maneuver flown as a straight "and take an [A] damage card":
    airplane ``slot`` of tables ``rows`` draws one card (no aim) and takes it at once;
    then its specials, an explosion or its resistance reached eliminate it
    (``movement.reveal``). Returns the slots drawn."""
    deck = state.spec.illegal_deck
    who = np.full(len(rows), slot)
    decks = np.full(len(rows), deck)
    drawn = damage.draw(state, rows, decks, who, dice)
    pts, boom = damage.points(state, rows, who, decks, drawn, np.zeros(len(rows), bool))
    state.damage[rows, slot] += pts
    state.illegal_points[rows] += pts
    hits = special.Hits(state)
    hits.add(state, rows, who, decks, drawn)
    by_special = special.apply(state, hits)[rows, slot]
    out = np.zeros(state.present.shape, dtype=np.int64)
    down = state.damage[rows, slot] >= state.resistance[rows, slot]
    out[rows, slot] = np.where(
        by_special > 0, by_special, np.where(boom, EXPLODED, np.where(down, OUT_OF_CONTROL, 0))
    )
    _eliminate(state, out, log.eliminated, dice)
    out_slots: Ints = drawn
    return out_slots


def _burn(state: BatchState, act: Bools, dice: damage.Dice, log: PhaseLog) -> None:
    """002 (as 000; for a WW2 airplane each Earthling turn, an A counter, 001): "Each
    turn, before revealing the first maneuver of the turn, the
    player removes a flame counter and takes a damage card from the A deck: only damage
    points and explosions are taken into account" — every burning airplane draws (by
    id), then each takes its card (by id), as ``standard.burn`` and ``steps.burn``."""
    spec = state.spec
    if spec.specials not in ("002", "000"):
        return
    # a WW2 airplane's turn is an Earthling turn: it begins with every phase
    begins = act & ((state.phase == 0) | spec.one_card)
    burning = state.alive & (state.fire > 0) & begins[:, None]
    slots = np.flatnonzero(burning.any(axis=0)).tolist()
    drawn: dict[int, tuple[Ints, Ints]] = {}
    for i in slots:
        rows = np.flatnonzero(burning[:, i])
        state.fire[rows, i] -= 1
        decks = np.full(len(rows), spec.fire_deck)
        drawn[i] = rows, damage.draw(state, rows, decks, np.full(len(rows), i), dice)
        log.burn_slot[rows, i] = drawn[i][1]
    for i in slots:
        rows, cards = drawn[i]
        decks = np.full(len(rows), spec.fire_deck)
        who = np.full(len(rows), i)
        pts, boom = damage.points(state, rows, who, decks, cards, np.zeros(len(rows), bool))
        state.damage[rows, i] += pts
        out = np.zeros(state.present.shape, dtype=np.int64)
        down = state.damage[rows, i] >= state.resistance[rows, i]
        out[rows, i] = np.where(boom, EXPLODED, np.where(down, BURNED, 0))
        _eliminate(state, out, log.eliminated, dice)


def resolve_phase(
    state: BatchState,
    rng: np.random.Generator,
    seeds: Ints | None = None,
    reorder: Reorder | None = None,
) -> PhaseLog:
    """Resolve the next action phase of every table that is not over (in place).

    With ``seeds``, each table shuffles its piles exactly as the referee does with
    ``step_rng(seeds[b], turn, phase)`` (see :class:`dogfight.batch.damage.Dice`).
    ``reorder`` answers the tailing seats' decisions (002); None keeps the planned
    order (the referee's default answer)."""
    dice = damage.Dice(rng, seeds)
    spec = state.spec
    b_count, n = state.tables, state.slots
    act = ~state.over
    act_n = per_slot(act, n)
    flyers = state.alive & ~state.tripod
    if (act_n & flyers & (state.plan[..., 0] < 0)).any():
        raise IllegalPlanError("some table's turn has not been planned")
    log = PhaseLog(
        active=act.copy(),
        # card, illegal, target, distance, short, aimed and blind are set below
        card=np.empty((b_count, n), dtype=np.int64),
        illegal=np.empty((b_count, n), dtype=np.bool_),
        illegal_slot=np.full((b_count, n), -1, dtype=np.int64),
        x=state.x,
        y=state.y,
        heading=state.heading,
        target=np.empty((b_count, n, 2), dtype=np.int64),
        distance=np.empty((b_count, n, 2)),
        short=np.empty((b_count, n, 2), dtype=np.bool_),
        aimed=np.empty((b_count, n, 2), dtype=np.bool_),
        slots=np.full((b_count, n, 2, 2), -1, dtype=np.int64),
        points=np.zeros((b_count, n, 2), dtype=np.int64),
        eliminated=np.zeros((b_count, n), dtype=np.int64),
        tails=np.zeros((b_count, n, n), dtype=np.bool_),
        plan=state.plan,
        burn_slot=np.full((b_count, n), -1, dtype=np.int64),
        blind=np.empty((b_count, n), dtype=np.bool_),
    )
    # 002: tailing, at the start of the turn and before the second maneuver
    if spec.tailing:
        log.tails = tailing.tail(state, act)
        if reorder is not None and log.tails.any():
            reorder(state, log.tails)
        log.plan = state.plan.copy()
    _burn(state, act, dice, log)
    tacts = tripods.start_of_phase(state, act) if state.tripod.any() else None
    p = np.minimum(state.phase, 2)
    state.phases_played += act
    movers = state.alive & act_n & ~state.tripod
    card = state.plan.reshape(-1, 3)[np.arange(b_count * n), np.repeat(p, n)].reshape(b_count, n)
    card = np.where(movers, card, 0)
    # reveal: the flight restrictions, per the ruleset's switch
    opening = per_slot(state.phase == 0, n)
    bad = movers & moves.problem(spec, state.prev_symbol, state.prev_steep, card, opening)
    log.illegal = bad
    if bad.any():
        if spec.one_card:  # a WW2 airplane flies the straight at its speed marker
            straight = spec.card_straight[card]
        else:
            straight = spec.deck_straight[spec.type_deck[state.type]]
        if spec.illegal == ILLEGAL_ELIMINATED:
            _eliminate(state, np.where(bad, OUT_OF_CONTROL, 0), log.eliminated, dice)
        else:
            card = np.where(bad, straight, card)
        if spec.illegal == ILLEGAL_STRAIGHT_AND_DAMAGE:
            for i in range(n):
                t = np.flatnonzero(bad[:, i])
                if len(t):
                    log.illegal_slot[t, i] = _illegal_damage(state, t, i, dice, log)
    walked = movers  # (read only when tripods walk)
    if tacts is not None:
        # tripods reveal and walk before the airplanes fly (rules.steps.walk), then turn
        tcard = tripods.reveal(state, act)
        walked = tripods.walk(state, tcard)
        tripods.change_facing(state, tacts.facing)
        log.tripod = TripodLog(
            card=tcard,
            rayed=np.zeros((b_count, n), dtype=np.bool_),
            shots=heat_rays.no_shots(b_count, n),
            ray_slots=np.full((b_count, n, 2), -1, dtype=np.int64),
            ray_points=np.zeros((b_count, n), dtype=np.int64),
        )
    # move every airplane still in play at once
    flown = movers & state.alive
    nx, ny, nh = moves.fly(spec, state.x, state.y, state.heading, card, heading_trig(state))
    np.copyto(state.x, nx, where=flown)
    np.copyto(state.y, ny, where=flown)
    np.copyto(state.heading, nh, where=flown)
    np.copyto(state.prev_symbol, spec.card_symbol[card], where=flown)
    np.copyto(state.prev_steep, spec.card_steep[card], where=flown)
    log.card = np.where(flown, card, -1)
    log.x, log.y, log.heading = state.x.copy(), state.y.copy(), state.heading.copy()
    silenced = ((state.jams > 0) & np.repeat(flown, 2).reshape(b_count, n, 2)).astype(np.int64)
    state.jams -= silenced
    if spec.specials == "000":
        # 000: "A wounded airplane pilot cannot fire any of its weapons in the same phase
        # he executes a steep maneuver or an Immelmann turn"
        steep = flown & (spec.card_steep[card] | (spec.card_symbol[card] == IMMELMANN))
        silenced |= (steep & (state.wounded > 0))[..., None]
    else:
        steep = None
    # leaving the table
    gone = (flown | walked if tacts is not None else flown) & moves.outside(spec, state.x, state.y)
    left = _eliminate(state, np.where(gone, LEFT_AREA, 0), log.eliminated, dice, False)
    if left.any() and state.victories is not None:
        np.copyto(state.exit_edge, scenario.edge_crossed(state, state.x, state.y), where=left)
    if left.any():
        # their cards go back at once (the others may draw them in the firing step),
        # except on a table whose game this ends: nobody there draws again
        back = left if dice.exact else left & ~per_slot(_ended(state, act)[0], n)
        damage.return_cards(state, back, dice)
    gone = _fire(state, act, silenced, dice, log, tacts, steep)
    if tacts is not None:
        tripods.recharge(state, tacts)
    _victory(state, act)
    if gone.any():
        # the piles of a table whose game just ended are never drawn from again (a new
        # game shuffles new ones); with the referee's shuffles they go back all the same
        damage.return_cards(state, gone if dice.exact else gone & ~per_slot(state.over, n), dice)
    # end of turn: smoke counters, tailing and plans go (a WW2 airplane's Earthling turn
    # ends with every phase: its card and a smoke counter go)
    state.phase = np.where(act, state.phase + 1, state.phase)
    done = act & ~state.over & (state.phase >= 3)
    ends = act & ~state.over if spec.one_card else done
    state.phase[done] = 0
    state.turn[done] += 1
    state.plan[ends] = -1
    state.tailing[done] = False
    if tacts is not None:
        tripods.end_of_turn(state, done)
    smoking = per_slot(ends, n) & (state.smoke > 0)
    state.smoke[smoking] -= 1
    return log


def _fire(
    state: BatchState,
    act: Bools,
    silenced: Ints,
    dice: damage.Dice,
    log: PhaseLog,
    tacts: tripods.Actions | None = None,
    steep: Bools | None = None,
) -> Bools:
    """The firing step: 000's Itchy Trigger Finger pilots first (their damage resolved
    and the vehicles it eliminates removed, their cards back, before anyone else
    fires), then everyone else (:func:`_volley`). ``steep`` (000): who flew a steep
    maneuver or an Immelmann (a pilot the first volley wounds holds his fire). Returns
    who the last volley eliminated (their cards not yet shuffled back)."""
    for name in ("target", "distance", "short", "aimed", "blind"):
        getattr(log, name).fill(-1 if name == "target" else 0)
    rays = None
    if tacts is not None:
        assert log.tripod is not None
        rays = tacts.ray & state.alive & (state.toppled == 0)
        log.tripod.rayed = rays
    first = skills.itchy(state, act) if state.skills.any() else None
    if first is not None:
        # a pilot no enemy is near fires nothing, first or later: he fires with the rest
        first = skills.in_reach(state, first)
    if first is not None and first.any():
        quiet = np.maximum(silenced, ~first[..., None])
        none = None if rays is None else np.zeros_like(rays)
        gone = _volley(state, act & any_slot(first), quiet, dice, log, none, first)
        skills.used(state, first & (log.target >= 0).any(axis=2), ITCHY)
        if gone.any():
            damage.return_cards(state, gone, dice)
        silenced = np.maximum(silenced, first[..., None])
        if steep is not None:
            silenced = np.maximum(silenced, (steep & (state.wounded > 0))[..., None])
        if rays is not None and log.tripod is not None:
            # a tripod they shot down or toppled fires no heat-ray
            rays = rays & state.alive & (state.toppled == 0)
            log.tripod.rayed = rays
        return _volley(state, act, silenced, dice, log, rays, ~first)
    return _volley(state, act, silenced, dice, log, rays, np.ones_like(state.alive))


def _volley(
    state: BatchState,
    act: Bools,
    silenced: Ints,
    dice: damage.Dice,
    log: PhaseLog,
    rays: Bools | None,
    who: Bools,
) -> Bools:
    """The weapons of ``who`` (B, N) choose (on a table with a tripod, as
    :mod:`batch.heat_rays` decides, with the heat-rays ``rays``), heat-rays spend their
    Energy, then every card is drawn (guns by firer, then heat-rays), then damage and
    specials are applied and the vehicles they eliminate removed together (their cards
    not yet shuffled back: returns who they are)."""
    spec = state.spec
    b_count, n = state.tables, state.slots
    if rays is None:
        target, dist, blind = targets(state, silenced, act)
        protected = np.zeros((b_count, n, 2), dtype=np.bool_)
    else:
        assert log.tripod is not None
        alive = state.alive
        state.alive = alive & ~state.tripod  # the arrays measure airplane bases only
        try:
            target, dist, blind = targets(state, silenced, act)
        finally:
            state.alive = alive
        ready = _weapon_ready(state, silenced, act)
        shots = heat_rays.decide(state, act, ready, rays, target, dist)
        protected = shots.protected
        # the guns' protected shots of both volleys; the heat-rays' of the last
        np.copyto(shots.protected, log.tripod.shots.protected, where=~who[..., None])
        log.tripod.shots = shots
        spend_rays(state, rays)
    mine = who[..., None]
    fired = (target >= 0) & mine
    aimed = fired & (state.aim == target) & spec.aim_bonus
    state.aim = np.where(mine, np.where(fired, target, -1), state.aim)
    short = fired & (dist <= spec.half + REACH_TOLERANCE)
    np.copyto(log.target, target, where=mine)
    np.copyto(log.distance, dist, where=mine)
    np.copyto(log.short, short, where=mine)
    np.copyto(log.aimed, aimed, where=mine)
    np.copyto(log.blind, blind, where=who)
    exploded = np.zeros((b_count, n), dtype=np.bool_)
    hits = special.Hits(state)
    snipers = skills.ready(state, SNIPER) if state.skills.any() else None
    for i in range(n):
        for w in (0, 1):
            t = np.flatnonzero(fired[:, i, w])
            if len(t) == 0:
                continue
            tgt = target[t, i, w]
            decks = spec.type_weapon_deck[:, w].take(state.type[t, i])
            jammed = np.zeros(len(t), dtype=np.bool_)
            shielded = protected[t, i, w]
            if shielded.any():
                k = np.flatnonzero(shielded)
                b = t[k]
                drawn = protected_hits(state, b, tgt[k], decks[k], short[b, i, w], dice)
                log.slots[b, i, w] = drawn
                jams = spec.slot_jammed[decks[k][:, None], np.maximum(drawn, 0)]
                jammed[k] = (jams & (drawn >= 0)).any(axis=1)
            sniped = np.zeros(len(t), dtype=np.bool_)
            if snipers is not None:
                sniped = ~shielded & snipers[t, i]
                snipers[t[sniped], i] = False  # the first unprotected shot only
            for c in (0, 1):
                sub = np.flatnonzero(~shielded if c == 0 else short[t, i, w] & ~shielded)
                if len(sub) == 0:
                    continue
                ts = t[sub]
                if c == 0 and sniped.any():
                    slot = np.empty(len(sub), dtype=np.int64)
                    two, one = sniped[sub], ~sniped[sub]
                    ds, gs = decks[sub], tgt[sub]
                    slot[two] = skills.snipe(state, ts[two], i, ds[two], gs[two], dice)
                    if one.any():
                        slot[one] = damage.draw(state, ts[one], ds[one], gs[one], dice)
                else:
                    slot = damage.draw(state, ts, decks[sub], tgt[sub], dice)
                log.slots[ts, i, w, c] = slot
                pts, boom = damage.points(state, ts, tgt[sub], decks[sub], slot, aimed[ts, i, w])
                state.damage[ts, tgt[sub]] += pts
                state.dealt[ts, i, w] += pts
                log.points[ts, i, w] += pts
                exploded[ts, tgt[sub]] |= boom
                jammed[sub] |= spec.slot_jammed[decks[sub], slot]
                hits.add(state, ts, tgt[sub], decks[sub], slot)
            # 000: a wounded pilot's guns are silent one maneuver longer
            longer = (state.wounded[t[jammed], i] > 0) & (spec.specials == "000")
            state.jams[t[jammed], i, w] = spec.jam_maneuvers + longer
    if rays is not None and log.tripod is not None and rays.any():
        ray_damage(state, log.tripod, dice, exploded, hits)
    by_special = special.apply(state, hits)
    down = state.damage >= state.resistance
    reason = np.where(
        by_special > 0, by_special, np.where(exploded, EXPLODED, np.where(down, SHOT_DOWN, 0))
    )
    return _eliminate(state, np.where(state.alive, reason, 0), log.eliminated, dice, False)


def _victory(state: BatchState, act: Bools) -> None:
    """One side (or none) left in play ends the game; a scenario judges by its victory
    conditions (:mod:`batch.scenario`)."""
    ends, last = _ended(state, act)
    state.over |= ends
    state.winner[ends] = last[ends]


def _ended(state: BatchState, act: Bools) -> tuple[Bools, Ints]:
    """(B,) the tables of ``act`` where at most one side of those that were present
    has an airplane in play, and (B,) that side (-1: none); under a scenario, the
    tables it ends and their winner."""
    if state.victories is not None:
        return scenario.judged(state, act)
    present = np.zeros(state.tables, dtype=np.int64)
    standing = np.zeros(state.tables, dtype=np.int64)
    last = np.full(state.tables, -1, dtype=np.int64)
    for k in range(len(state.side_names)):
        mine = state.side == k
        present += any_slot(mine & state.present)
        up = any_slot(mine & state.alive)
        standing += up
        last[up & (last < 0)] = k
    ends = act & (present >= 2) & (standing <= 1)
    return ends, last
