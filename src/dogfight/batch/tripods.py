"""A tripod's turn on arrays (000's basic rules, as :mod:`dogfight.rules.tripods`): the
action tokens placed as a phase begins, the reveal (toppling on a third movement card or
an Energy card without Energy), the walk (a reverse turns the next movement card
backwards), the change of facing, the recharge after the firing step, and the end of the
turn. The firing step's heat-rays and the armour are in :mod:`dogfight.batch.heat_rays`.

Every function works on the tripods of the tables ``act`` (B,) and changes the state in
place.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dogfight.batch.arrays import per_slot
from dogfight.batch.moves import normalize
from dogfight.batch.spec import Bools, Ints
from dogfight.batch.state import BatchState
from dogfight.batch.tripod_spec import (
    CHANGE_FACING,
    DESTROY_OBJECTIVE,
    HEAT_RAY,
    MOVE,
    RECHARGE,
    REVERSE,
    hexagons,
)

TOPPLE_TOKENS = 2
"""000: "take two reminder tokens. Put them on the tripod console, in the "toppled" box"."""


@dataclass
class Actions:
    """What the tripods committed to as the phase began (``tripods.PhaseActions``)."""

    ray: Bools
    """(B, N) a heat-ray fires this phase (projector side in ``state.token_arg``)."""
    facing: Ints
    """(B, N) sides turned at the end of the movement step (0: none)."""
    recharge: Bools
    """(B, N) 1 Energy after the firing step (the objective named in ``objective``: the
    model's recharge level, when the base still overlaps it and it has a charge)."""
    objective: Ints
    """(B, N) the objective a recharge names, -1 for none."""


def standing(state: BatchState, act: Bools) -> Bools:
    """(B, N) tripods in play on the tables ``act``."""
    out: Bools = state.tripod & state.alive & per_slot(act, state.slots)
    return out


def phase_card(state: BatchState) -> Ints:
    """(B, N) each tripod's card of the phase being resolved, -1 for none (lying down,
    or its cards discarded when it toppled)."""
    p = np.minimum(state.phase, 2)
    out: Ints = np.take_along_axis(
        state.tplan, np.repeat(p, state.slots).reshape(state.tables, state.slots, 1), axis=2
    )[..., 0]
    return out


def topple(state: BatchState, mask: Bools) -> None:
    """000: "When a tripod topples, discard all cards planned for it and take two reminder
    tokens." (``tripod_harm.topple``)."""
    state.toppled[mask] = TOPPLE_TOKENS
    state.reverse[mask] = False
    state.tplan[mask] = -1


def start_of_phase(state: BatchState, act: Bools) -> Actions:
    """Reminder and recovery tokens, then the tokens chosen for the phase (``token``)
    placed face up (``tripods.start_of_phase``). The policies choose legal tokens only
    (the referee's decision offers no other), so none is misplaced."""
    tri = standing(state, act)
    down = tri & (state.toppled > 0)
    state.toppled[down] -= 1
    # 000: "When a tripod's console has no recovery tokens at the beginning of a phase,
    # then the tripod is ready" -- before this phase's token is removed
    ready = state.cooling == 0
    np.copyto(state.cooling, np.maximum(state.cooling - 1, 0), where=tri)
    placed = tri & (state.toppled == 0) & (phase_card(state) >= 0)
    token = np.where(placed, state.token, 0)
    destroy = token == DESTROY_OBJECTIVE
    if destroy.any():
        destroy_objectives(state, destroy)
    return Actions(
        ray=(token == HEAT_RAY) & ready & (state.energy >= 1),
        facing=np.where(token == CHANGE_FACING, state.token_arg, 0),
        recharge=token == RECHARGE,
        objective=np.where(token == RECHARGE, state.token_target, -1),
    )


def under(state: BatchState, b: Ints, n: Ints) -> Bools:
    """(R, O) the objectives still on the table that tripod ``n`` of table ``b``'s base
    overlaps (``tripods.objective_under``: the token's centre nearer the base than its
    radius)."""
    rules = state.spec.rules
    hexes = hexagons(rules.hex_side, state.x[b, n], state.y[b, n], state.heading[b, n])
    px, py = state.obj_x[b][..., None], state.obj_y[b][..., None]  # (R, O, 1)
    ax, ay = hexes[:, None, :, 0], hexes[:, None, :, 1]  # (R, 1, 6)
    ex, ey = np.roll(ax, -1, axis=-1) - ax, np.roll(ay, -1, axis=-1) - ay
    cross = ex * (py - ay) - ey * (px - ax)
    inside = (cross >= 0).all(axis=-1)
    t = np.clip(((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey), 0.0, 1.0)
    gap = np.hypot(px - ax - t * ex, py - ay - t * ey).min(axis=-1)
    radius = rules.catalog.constants.tripods.objective_radius
    out: Bools = ~state.obj_destroyed[b] & (inside | (gap < radius))
    return out


def _named(state: BatchState, b: Ints, n: Ints, found: Bools) -> Ints:
    """(R,) the objective each token names if the base overlaps it, else (named none)
    the first it overlaps by id; -1 for none."""
    named = state.token_target[b, n]
    rows = np.arange(len(b))
    first = np.where(found.any(axis=1), np.argmax(found, axis=1), -1)
    mine = found[rows, np.maximum(named, 0)] if found.shape[1] else np.zeros(len(b), bool)
    out: Ints = np.where(named >= 0, np.where(mine, named, -1), first)
    return out


def destroy_objectives(state: BatchState, destroy: Bools) -> None:
    """000: "If the tripod base overlaps an Objective token, the Tripod player must now
    remove it" (the objective named, or the first it overlaps by id)."""
    b, n = np.nonzero(destroy)
    if state.obj_x.shape[1] == 0:
        return
    gone = _named(state, b, n, under(state, b, n))
    hit = gone >= 0
    state.obj_destroyed[b[hit], gone[hit]] = True


def reveal(state: BatchState, act: Bools) -> Ints:
    """Reveal each standing tripod's card (``tripods.reveal``): a third movement card with
    no stationary or running card before it, or an Energy card without Energy, topples
    it; an Energy card is paid. Returns (B, N) the cards to walk, -1 for none."""
    tri = state.spec.tripods
    card = phase_card(state)
    valid = standing(state, act) & (card >= 0) & (state.toppled == 0)
    symbol = tri.card_symbol[np.maximum(card, 0)]
    moving = valid & (symbol == MOVE)
    state.moving += moving
    state.steadied |= valid & ~moving
    third = moving & (state.moving >= 3) & ~state.steadied
    topple(state, third)
    valid &= ~third
    needs = valid & tri.card_energy[np.maximum(card, 0)]
    broke = needs & (state.energy < 1)
    topple(state, broke)
    state.energy -= needs & ~broke
    out: Ints = np.where(valid & ~broke, card, -1)
    return out


def walk(state: BatchState, card: Ints) -> Bools:
    """Move the tripods by their cards (``tripods.move``): stationary cards stand still; a
    reverse makes the next movement card apply to the rear of the base. Returns (B, N)
    who moved."""
    tri = state.spec.tripods
    revealed = card >= 0
    c = np.maximum(card, 0)
    backward = state.reverse & revealed
    np.copyto(state.reverse, tri.card_symbol[c] == REVERSE, where=revealed)
    moved: Bools = revealed & tri.card_moves[c]
    if not moved.any():
        return moved
    h = np.where(backward, normalize(state.heading + 180.0), state.heading)
    rad = np.radians(h)
    cos, sin = np.cos(rad), np.sin(rad)
    dx, dy = tri.card_dx[c], tri.card_dy[c]
    nh = normalize(h + tri.card_turn[c])
    nh = np.where(backward, normalize(nh + 180.0), nh)
    np.copyto(state.x, state.x + dx * cos - dy * sin, where=moved)
    np.copyto(state.y, state.y + dx * sin + dy * cos, where=moved)
    np.copyto(state.heading, nh, where=moved)
    return moved


def change_facing(state: BatchState, facing: Ints) -> None:
    """000: "the Change facing token ... the side that will become the new tripod facing
    at the end of the Movement step" (a standing tripod in play)."""
    turn = (facing != 0) & state.alive & (state.toppled == 0)
    if turn.any():
        np.copyto(state.heading, normalize(state.heading + 60.0 * facing), where=turn)


def recharge(state: BatchState, acts: Actions) -> None:
    """000: "Tripods that selected this action receive 1 Energy at the end of the phase,
    after combat is resolved ... A tripod can never have more tokens than its Energy
    rating"."""
    gain = acts.recharge & state.alive
    if not gain.any():
        return
    amount = np.ones(state.energy.shape, dtype=np.int64)
    b, n = np.nonzero(gain & (acts.objective >= 0))
    if len(b):
        # 000: "If the tripod base overlaps an Objective token, the Tripod player may
        # choose to gain a number of Energy tokens equal to the [Recharge Level]"
        source = _named(state, b, n, under(state, b, n))
        ok = source >= 0
        ok[ok] &= state.obj_charges[b[ok], source[ok]] > 0
        tri = state.spec.tripods
        amount[b[ok], n[ok]] = tri.type_recharge[state.ttype[b[ok], n[ok]]]
        state.obj_charges[b[ok], source[ok]] -= 1
    np.copyto(state.energy, np.minimum(state.energy + amount, state.rating), where=gain)


def spend(state: BatchState, mask: Bools, amount: Ints | int) -> None:
    """Take up to ``amount`` Energy from the tripods ``mask`` (never below 0)."""
    np.copyto(state.energy, np.maximum(state.energy - amount, 0), where=mask)


def end_of_turn(state: BatchState, done: Bools) -> None:
    """The count of movement cards starts again (``tripods.end_of_turn``); the plans go."""
    rows = per_slot(done, state.slots) & state.tripod
    state.moving[rows] = 0
    state.steadied[rows] = False
    state.tplan[done] = -1
    state.pencil[done] = False
