"""Random tripod turns on arrays: the cards of a turn, as the referee's random bot
plans them (``bots.random_plans.random_tripod_plan``), and each phase's action token,
uniform among the legal options the referee's decision offers
(``rules.action_tokens.decision`` under 000's basic rules: no objective, no secret
action cards). The option strings are the referee's, so a token chosen here can be
handed to it by decision id (the differential test)."""

from __future__ import annotations

import numpy as np

from dogfight.batch.arrays import nonzero, per_slot
from dogfight.batch.spec import Bools, Ints
from dogfight.batch.state import BatchState
from dogfight.batch.tripod_spec import (
    CHANGE_FACING,
    DESTROY_OBJECTIVE,
    HEAT_RAY,
    MOVE,
    NO_TOKEN,
    RECHARGE,
    STAND,
)
from dogfight.batch.tripods import phase_card
from dogfight.geometry.hexbase import Side

TRIES = 40
"""As ``random_tripod_plan``: draws until three cards include a stationary or running one."""


def plan_tripods(
    state: BatchState, rng: np.random.Generator, mask: Bools | None = None, wild: float = 0.0
) -> None:
    """Plan the turn of every tripod in play (and in ``mask``) that has not planned it:
    as many distinct cards as it may plan (3 less its toppled tokens, for the last
    phases), none with the Energy icon, three of them not all movement cards (tries
    permitting). A share ``wild`` of them draws from every card with no such care (the
    differential test: toppling on a third movement card or an Energy card unpaid)."""
    tri = state.spec.tripods
    need = state.tripod & state.alive & per_slot(~state.over & (state.phase == 0), state.slots)
    need &= (state.tplan < 0).all(axis=2)
    if mask is not None:
        need &= mask
    b, n = nonzero(need)
    if len(b) == 0:
        return
    deck = tri.type_deck[state.ttype[b, n]]
    start, size = tri.deck_start[deck], tri.deck_size[deck]
    width = int(size.max())
    index = start[:, None] + np.arange(width)[None, :]
    exists = np.arange(width)[None, :] < size[:, None]
    index = np.where(exists, index, 0)
    careless = rng.random(len(b)) < wild
    usable = exists & (~tri.card_energy[index] | careless[:, None])
    count = 3 - state.toppled[b, n]
    cards = np.full((len(b), 3), -1, dtype=np.int64)
    todo = np.arange(len(b))
    for _ in range(TRIES):
        keys = rng.random((len(todo), width))
        keys[~usable[todo]] = np.inf
        order = np.argsort(keys, axis=1)[:, :3]
        picked = np.take_along_axis(index[todo], order, axis=1)
        cards[todo] = picked
        moving = tri.card_symbol[picked] == MOVE
        bad = (count[todo] == 3) & moving.all(axis=1) & ~careless[todo]
        todo = todo[bad]
        if len(todo) == 0:
            break
    # a toppled tripod's cards are those of the last phases
    slot = np.arange(3)[None, :]
    offset = (3 - count)[:, None]
    laid = np.where(slot >= offset, np.take_along_axis(cards, np.maximum(slot - offset, 0), 1), -1)
    state.tplan[b, n] = laid


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


def random_tokens(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """Each chooser's token for the phase, uniform among its legal options: none; a
    heat-ray from each projector, at the nearest or at each enemy in play (the card
    without the Stop icon, the heat-ray ready, 1 Energy); a change of facing by 1 to
    the model's limit of sides either way, a recharge or destroying an objective (a
    standing still card without the Stop icon)."""
    tri = state.spec.tripods
    asked = choosers(state, mask)
    state.token[state.tripod] = NO_TOKEN
    state.token_target[state.tripod] = -1
    b, n = nonzero(asked)
    if len(b) == 0:
        return
    card = phase_card(state)[b, n]
    t = state.ttype[b, n]
    stop = tri.card_stop[card]
    ray_ok = ~stop & (state.cooling[b, n] == 0) & (state.energy[b, n] >= 1)
    green_ok = ~stop & (tri.card_symbol[card] == STAND)
    foes, foe_count = enemies(state, b, n)
    projectors = tri.type_projectors[t]
    rays = np.where(ray_ok, projectors.sum(axis=1) * (1 + foe_count), 0)
    facing = tri.type_facing[t]
    greens = np.where(green_ok, 2 * facing + 2, 0)
    u = (rng.random(len(b)) * (1 + rays + greens)).astype(np.int64)
    token = np.full(len(b), NO_TOKEN, dtype=np.int64)
    arg = np.zeros(len(b), dtype=np.int64)
    aim = np.full(len(b), -1, dtype=np.int64)
    u -= 1
    is_ray = (u >= 0) & (u < rays)
    if is_ray.any():
        r = np.flatnonzero(is_ray)
        per = 1 + foe_count[r]
        which = u[r] // per  # the k-th projector of the model
        side = np.argmax(np.cumsum(projectors[r], axis=1) > which[:, None], axis=1)
        pick = u[r] % per  # 0: the nearest; k: the k-th enemy by id
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
        token[g] = np.where(
            turn, CHANGE_FACING, np.where(k == 2 * facing[g], RECHARGE, DESTROY_OBJECTIVE)
        )
        arg[g] = np.where(turn, sides, 0)
    state.token[b, n] = token
    state.token_arg[b, n] = arg
    state.token_target[b, n] = aim


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
    if token == RECHARGE:
        return "recharge"
    if token == DESTROY_OBJECTIVE:
        return "destroy_objective"
    return "none"


def random_turn(state: BatchState, rng: np.random.Generator, mask: Bools | None = None) -> None:
    """The ``random`` policy's tripods: their turn's cards, then this phase's tokens."""
    plan_tripods(state, rng, mask)
    random_tokens(state, rng, mask)
