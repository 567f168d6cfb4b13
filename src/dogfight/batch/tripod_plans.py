"""Random tripod turns on arrays: the cards of a turn, as the referee's random bot
plans them (``bots.random_plans.random_tripod_plan``), and each phase's action token,
uniform among the legal options the referee's decision offers
(``rules.action_tokens.decision`` under 000's basic rules: no objective, no secret
action cards). The option strings are the referee's, so a token chosen here can be
handed to it by decision id (the differential test)."""

from __future__ import annotations

import numpy as np

from dogfight.batch.arrays import nonzero, per_slot
from dogfight.batch.spec import Bools, Floats, Ints
from dogfight.batch.state import BatchState
from dogfight.batch.tripod_sequences import TripodSequences, sequences, walks
from dogfight.batch.tripod_spec import (
    CHANGE_FACING,
    DESTROY_OBJECTIVE,
    HEAT_RAY,
    NO_TOKEN,
    RECHARGE,
    REVERSE,
    STAND,
)
from dogfight.batch.tripods import phase_card
from dogfight.geometry.hexbase import Side

ROUNDS = (4, 12, 24, 24)
"""Sequences drawn at once per tripod, round after round (most tripods are served by
the first); a tripod none of whose draws is legal and on the table then looks at every
sequence of its deck."""
MARGIN = 2.0
"""cm: ``bots.tripod_moves.outside_except``'s margin (a plan leaving it goes off the table)."""


def poses(state: BatchState, b: Ints, n: Ints, cards: Ints) -> tuple[Floats, Floats]:
    """Where each sequence ``cards`` (R, K, 3; -1 for a phase lying down) leaves tripod
    ``n`` of table ``b`` after each phase: (R, K, 3) x and y (``tripod_moves``'s walks)."""
    return walks(
        state.spec.tripods,
        state.x[b, n][:, None],
        state.y[b, n][:, None],
        state.heading[b, n][:, None],
        state.reverse[b, n][:, None],
        cards,
    )


def cards_to_plan(state: BatchState, b: Ints, n: Ints) -> Ints:
    """(R,) how many cards tripods (b, n) plan (``tripods.planned_cards``): three less its
    toppled tokens, and no more than the cards of its deck 000's special damage lets it
    plan (ruling SR10: no reverse once the mechanism is destroyed, only stationary cards
    after a second engine hit)."""
    count: Ints = 3 - state.toppled[b, n]
    if state.spec.specials != "000":
        return count
    tri = state.spec.tripods
    deck = tri.type_deck[state.ttype[b, n]]
    size = tri.deck_size[deck]
    symbols = [
        tri.card_symbol[s : s + k] for s, k in zip(tri.deck_start, tri.deck_size, strict=True)
    ]
    reverses = np.array([(s == REVERSE).sum() for s in symbols])[deck]
    still = np.array([((s == STAND) | (s == REVERSE)).sum() for s in symbols])[deck]
    cards = np.where(state.engine[b, n] >= 2, still, size)
    cards = cards - np.where(state.reverse_out[b, n], reverses, 0)
    out: Ints = np.minimum(count, cards)
    return out


def damaged_ok(state: BatchState, b: Ints, n: Ints, cards: Ints, count: Ints) -> Bools:
    """(R, K) the sequences ``cards`` (R, K, 3; -1 for a phase lying down) that 000's
    special damage lets the tripod plan (:func:`_damage_allows`)."""
    tri = state.spec.tripods
    c = np.maximum(cards, 0)
    laid = cards >= 0
    moves: Bools = tri.card_moves[c] & laid
    reverse: Bools = ((tri.card_symbol[c] == REVERSE) & laid).any(axis=2)
    three: Bools = (count == 3)[:, None] & moves.all(axis=2)
    return _damage_allows(state, b, n, (reverse, np.asarray(moves.any(axis=2)), three))


def _damage_allows(state: BatchState, b: Ints, n: Ints, plans: tuple[Bools, Bools, Bools]) -> Bools:
    """(R, K) the plans of tripods (b, n) with (R, K) a reverse card, some movement
    card, three movement cards (``plans``) that 000's special damage allows
    (``standard.check_tripod_plan``): no reverse with the mechanism destroyed, never
    three movement cards after an engine hit, standing still cards only after two."""
    reverse, moves_any, moves_three = plans
    if state.spec.specials != "000":
        out: Bools = np.ones(reverse.shape, dtype=np.bool_)
        return out
    engine = state.engine[b, n][:, None]
    ok: Bools = ~(reverse & state.reverse_out[b, n][:, None])
    ok &= ~((engine >= 2) & moves_any)
    ok &= ~((engine == 1) & moves_three)
    return ok


def planning(state: BatchState, mask: Bools | None = None) -> tuple[Ints, Ints]:
    """The tables and slots of the tripods in play (and in ``mask``) that have not
    planned the turn about to begin."""
    need = state.tripod & state.alive & per_slot(~state.over & (state.phase == 0), state.slots)
    need &= (state.tplan < 0).all(axis=2)
    if mask is not None:
        need &= mask
    b, n = nonzero(need)
    return b, n


def plan_tripods(
    state: BatchState, rng: np.random.Generator, mask: Bools | None = None, wild: float = 0.0
) -> None:
    """Plan the turn of every tripod in play (and in ``mask``) that has not planned it,
    as the referee's random bot does (``bots.sampling.random_tripod``): uniform among
    the legal sequences (3 cards less its toppled tokens, no more Energy cards than it
    has Energy, three cards not all movement cards) that keep it on the table, else
    among the legal ones. A share ``wild`` of them takes distinct cards with no such
    care (the differential test: toppling on a third movement card or an Energy card
    unpaid)."""
    tri = state.spec.tripods
    b, n = planning(state, mask)
    if len(b) == 0:
        return
    deck = tri.type_deck[state.ttype[b, n]]
    count = cards_to_plan(state, b, n)
    careless = rng.random(len(b)) < wild
    chosen = np.full((len(b), 3), -1, dtype=np.int64)
    groups = deck * 4 + count
    for key in np.unique(groups).tolist():
        rows = np.flatnonzero(groups == key)
        seqs = sequences(tri, key // 4, key % 4)
        tripods = (b[rows], n[rows], careless[rows])
        chosen[rows] = seqs.cards[_pick(state, rng, seqs, tripods)]
    state.tplan[b, n] = chosen
    # random_tripod pencils a recharge on each standing still card without the Stop
    # icon while the tripod is short of Energy (its heat-ray pencils no choice keeps)
    c = np.maximum(chosen, 0)
    short = state.energy[b, n] < state.rating[b, n]
    idle = (chosen >= 0) & (tri.card_symbol[c] == STAND) & ~tri.card_stop[c] & short[:, None]
    state.pencil[b, n] = np.where(idle, RECHARGE, NO_TOKEN)
    state.pencil_target[b, n] = -1


def _pick(
    state: BatchState,
    rng: np.random.Generator,
    seqs: TripodSequences,
    tripods: tuple[Ints, Ints, Bools],
) -> Ints:
    """(R,) a sequence of ``seqs`` for each tripod (tables, slots, careless): up to
    :data:`ROUNDS` of uniform draws, the first that is legal and
    keeps the tripod on the table (for a careless one: the first its damage allows) —
    uniform among them; a tripod none of whose draws served looks at every sequence:
    uniform among those, else among the legal ones, else the first."""
    b, n, careless = tripods
    chosen = np.zeros(len(b), dtype=np.int64)
    todo = np.arange(len(b))
    for draws in ROUNDS:
        if len(todo) == 0:
            return chosen
        pick = (rng.random((len(todo), draws)) * seqs.size).astype(np.int64)
        legal, safe = _judged(state, seqs, (b[todo], n[todo]), pick)
        # a careless plan still obeys the damage (the referee refuses it otherwise)
        safe |= careless[todo][:, None] & legal[1]
        found = safe.any(axis=1)
        chosen[todo[found]] = pick[found, safe[found].argmax(axis=1)]
        todo = todo[~found]
    every = np.arange(seqs.size)
    for first in range(0, len(todo), 256):
        part = todo[first : first + 256]
        pick = np.broadcast_to(every, (len(part), seqs.size))
        legal, safe = _judged(state, seqs, (b[part], n[part]), pick)
        pool = np.where(safe.any(axis=1, keepdims=True), safe, legal[0])
        # the first of the pool by uniform keys is uniform among it; none: the first
        keys = np.where(pool, rng.random(pool.shape), -1.0)
        chosen[part] = np.where(pool.any(axis=1), keys.argmax(axis=1), 0)
    return chosen


def _judged(
    state: BatchState, seqs: TripodSequences, tripods: tuple[Ints, Ints], pick: Ints
) -> tuple[tuple[Bools, Bools], Bools]:
    """(R, K) for sequences ``pick`` of tripods (tables, slots): whether each is legal
    for the random bot (Energy cards it can pay, three cards not all movement cards,
    what the damage allows) and whether the damage allows it (:func:`_damage_allows`),
    and whether it is legal and keeps the tripod :data:`MARGIN` inside the table."""
    b, n = tripods
    allowed = _damage_allows(
        state, b, n, (seqs.reverse[pick], seqs.moves_any[pick], seqs.moves_three[pick])
    )
    legal = allowed & seqs.steady[pick] & (seqs.energy[pick] <= state.energy[b, n][:, None])
    back = state.reverse[b, n].astype(np.int64)[:, None]
    f, lft = seqs.forward[back, pick], seqs.left[back, pick]  # (R, K, 3)
    rad = np.radians(state.heading[b, n])[:, None, None]
    c, s = np.cos(rad), np.sin(rad)
    xs = state.x[b, n][:, None, None] + f * c - lft * s
    ys = state.y[b, n][:, None, None] + f * s + lft * c
    spec = state.spec
    inside = (
        (xs >= MARGIN) & (xs <= spec.width - MARGIN) & (ys >= MARGIN) & (ys <= spec.height - MARGIN)
    ).all(axis=2)
    return (legal, allowed), legal & inside


def choosers(state: BatchState, mask: Bools | None = None) -> Bools:
    """(B, N) the tripods whose seat chooses a token this phase
    (``action_tokens.choosers``): in play, with a card, standing or standing up now."""
    out: Bools = (
        state.tripod
        & state.alive
        & per_slot(~state.over, state.slots)
        & (state.toppled <= 1)
        & (phase_card(state) >= 0)
    )
    if mask is not None:
        out &= mask
    return out


def enemies(state: BatchState, b: Ints, n: Ints) -> tuple[Bools, Ints]:
    """(R, N) the enemies in play of tripod ``n`` on table ``b`` and (R,) their number."""
    out: Bools = state.alive[b] & (state.side[b] != state.side[b, n][:, None])
    return out, out.sum(axis=1)


def _asked(state: BatchState, mask: Bools | None) -> tuple[Ints, Ints, Ints, Bools, Bools] | None:
    """The choosers (tables, slots and models; None: none), every tripod's token cleared
    first, and which tokens the rules let each place (``action_tokens.why_not``): a
    heat-ray (no Stop icon, the heat-ray ready, 1 Energy), a green token (a standing
    still card without the Stop icon)."""
    tri = state.spec.tripods
    mine = state.tripod if mask is None else state.tripod & mask
    state.token[mine] = NO_TOKEN
    state.token_target[mine] = -1
    b, n = nonzero(choosers(state, mask))
    if len(b) == 0:
        return None
    card = phase_card(state)[b, n]
    stop = tri.card_stop[card]
    ray_ok = ~stop & (state.cooling[b, n] == 0) & (state.energy[b, n] >= 1)
    green_ok = ~stop & (tri.card_symbol[card] == STAND)
    if state.spec.specials == "000":
        # 000: "A wounded tripod pilot cannot choose a firing Action token (Heat-ray or
        # Black Smoke) in combination with a movement maneuver"
        ray_ok &= ~((state.wounded[b, n] > 0) & tri.card_moves[card])
    return b, n, state.ttype[b, n], ray_ok, green_ok


def facing_limit(state: BatchState, b: Ints, n: Ints, t: Ints) -> Ints:
    """(R,) the most sides each tripod may turn this phase: its model's limit, 0 with
    its gyroscope out of order this turn (000: "The following turn, the tripod cannot
    choose the Change facing Action token")."""
    limit = state.spec.tripods.type_facing[t]
    out: Ints = np.where(state.gyroscope[b, n] == state.turn[b], 0, limit)
    return out


def random_tokens(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """Each chooser's token for the phase, uniform among its legal options: none; a
    heat-ray from each projector, at the nearest or at each enemy in play (the card
    without the Stop icon, the heat-ray ready, 1 Energy); a change of facing by 1 to
    the model's limit of sides either way, a recharge or destroying an objective (a
    standing still card without the Stop icon), each bare or naming an objective still on
    the table."""
    tri = state.spec.tripods
    asked = _asked(state, mask)
    if asked is None:
        return
    b, n, t, ray_ok, green_ok = asked
    foes, foe_count = enemies(state, b, n)
    projectors = tri.type_projectors[t]
    rays = np.where(ray_ok, projectors.sum(axis=1) * (1 + foe_count), 0)
    facing = facing_limit(state, b, n, t)
    standing = ~state.obj_destroyed[b]  # (R, O) objectives a token may name
    per = 1 + standing.sum(axis=1)  # a recharge or a destruction: bare, or naming one
    greens = np.where(green_ok, 2 * facing + 2 * per, 0)
    u = (rng.random(len(b)) * (1 + rays + greens)).astype(np.int64)
    token = np.full(len(b), NO_TOKEN, dtype=np.int64)
    arg = np.zeros(len(b), dtype=np.int64)
    aim = np.full(len(b), -1, dtype=np.int64)
    u -= 1
    is_ray = (u >= 0) & (u < rays)
    if is_ray.any():
        r = np.flatnonzero(is_ray)
        each = 1 + foe_count[r]
        which = u[r] // each  # the k-th projector of the model
        side = np.argmax(np.cumsum(projectors[r], axis=1) > which[:, None], axis=1)
        pick = u[r] % each  # 0: the nearest; k: the k-th enemy by id
        rank = np.cumsum(foes[r], axis=1)
        foe = np.argmax(foes[r] & (rank == pick[:, None]), axis=1)
        token[r], arg[r] = HEAT_RAY, side
        aim[r] = np.where(pick > 0, foe, -1)
    u -= rays
    g = np.flatnonzero((u >= 0) & (u < greens))
    if len(g):
        k = u[g]
        turn = k < 2 * facing[g]
        sides = (k // 2 + 1) * np.where(k % 2 == 0, 1, -1)
        rest = k - 2 * facing[g]
        green = np.where(rest < per[g], RECHARGE, DESTROY_OBJECTIVE)
        which = rest % per[g]  # 0: bare; j: the j-th objective still on the table
        rank = np.cumsum(standing[g], axis=1)
        named = np.argmax(standing[g] & (rank == which[:, None]), axis=1)
        token[g] = np.where(turn, CHANGE_FACING, green)
        arg[g] = np.where(turn, sides, 0)
        aim[g] = np.where(~turn & (which > 0), named, -1)
    state.token[b, n] = token
    state.token_arg[b, n] = arg
    state.token_target[b, n] = aim


REACH_MARGIN = 12.0
"""As ``bots.tokens.REACH_MARGIN``: an enemy this far beyond the ruler is worth a
heat-ray token (it moves before the firing step)."""


def _off(normal: Floats, bearing: Floats) -> Floats:
    """``bots.direction.bearing_off``: how far (0..180 degrees) a direction points from a
    bearing."""
    out: Floats = np.abs(np.mod(normal - bearing + 180.0, 360.0) - 180.0)
    return out


def bot_tokens(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """Each chooser's token as every computer player chooses it
    (``bots.tokens.choose_token``): the heat-ray when it is legal, the nearest enemy's
    centre is within the ruler and a margin and it has 2 Energy or more, through the
    projector facing that enemy most squarely; else a recharge on a standing still card
    when short of Energy (the recharge pencilled in, when one is); else the green token
    pencilled in (a recharge, or destroying an objective still on the table); else the
    change of facing that brings the front to the nearest enemy, when it gains more than
    30 degrees; else none. (000's tokens are face up: no blank card.)"""
    tri = state.spec.tripods
    asked = _asked(state, mask)
    if asked is None:
        return
    b, n, t, ray_ok, green_ok = asked
    energy = state.energy[b, n]
    foes, _ = enemies(state, b, n)
    dx = state.x[b] - state.x[b, n][:, None]
    dy = state.y[b] - state.y[b, n][:, None]
    gap = np.where(foes & ((dx != 0.0) | (dy != 0.0)), np.hypot(dx, dy), np.inf)
    near = np.argmin(gap, axis=1)  # the first of equals, in id order
    rows = np.arange(len(b))
    distance = gap[rows, near]
    seen = np.isfinite(distance)
    bearing = np.degrees(np.arctan2(dy[rows, near], dx[rows, near]))
    heading = state.heading[b, n]
    sides = np.arange(6)
    aim = np.where(
        tri.type_projectors[t], _off(heading[:, None] + 60.0 * sides, bearing[:, None]), np.inf
    )
    fire = ray_ok & seen & (energy >= 2) & (distance <= tri.type_ray_length[t] + REACH_MARGIN)
    refill = green_ok & (energy < state.rating[b, n])
    now = np.minimum(state.phase[b], 2)
    planned, named = state.pencil[b, n, now], state.pencil_target[b, n, now]
    if state.obj_destroyed.shape[1]:
        # a token naming an objective gone is no longer among the options
        named_ok = (named < 0) | ~state.obj_destroyed[b, np.maximum(named, 0)]
    else:
        named_ok = named < 0
    recharge = (planned == RECHARGE) & named_ok
    pencilled = green_ok & (recharge | ((planned == DESTROY_OBJECTIVE) & named_ok))
    # the changes of facing in the options' order: +1, -1, +2, -2, ... to the limit
    turns = np.array([k for m in (1, 2, 3) for k in (m, -m)])
    allowed = np.abs(turns)[None, :] <= facing_limit(state, b, n, t)[:, None]
    off = np.where(allowed, _off(heading[:, None] + 60.0 * turns, bearing[:, None]), np.inf)
    best = np.argmin(off, axis=1)
    swing = green_ok & seen & (off[rows, best] + 30.0 < _off(heading, bearing))
    token = np.select(
        [fire, refill, pencilled, swing],
        [HEAT_RAY, RECHARGE, planned, CHANGE_FACING],
        NO_TOKEN,
    )
    state.token[b, n] = token
    state.token_arg[b, n] = np.where(
        token == HEAT_RAY, np.argmin(aim, axis=1), np.where(token == CHANGE_FACING, turns[best], 0)
    )
    kept = ~fire & ((refill & recharge) | (~refill & pencilled))
    state.token_target[b, n] = np.where(kept, named, -1)


def option(state: BatchState, b: int, n: int) -> str:
    """Tripod ``n`` of table ``b``'s token as the referee's option string
    (``action_tokens.encode``)."""
    token = int(state.token[b, n])
    if token == HEAT_RAY:
        aim = int(state.token_target[b, n])
        at = "" if aim < 0 else f"@{state.names[b][aim]}"
        return f"heat_ray:{Side(int(state.token_arg[b, n])).label}{at}"
    if token == CHANGE_FACING:
        return f"change_facing:{int(state.token_arg[b, n]):+d}"
    if token in (RECHARGE, DESTROY_OBJECTIVE):
        name = "recharge" if token == RECHARGE else "destroy_objective"
        named = int(state.token_target[b, n])
        return name if named < 0 else f"{name}:{state.objective_ids[named]}"
    return "none"


def random_turn(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """The ``random`` policy's tripods, as the referee's random bot plays them: a random
    turn's cards (:func:`plan_tripods`), then this phase's token as every computer player
    chooses it (:func:`bot_tokens`)."""
    plan_tripods(state, rng, mask)
    bot_tokens(state, rng, mask)
