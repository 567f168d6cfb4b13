"""000's pilots' skills on arrays (``rules.scenario.skill_ready``, ``rules.shooting``,
``rules.damage._snipe``), each "once every 5 phases" and always used when ready (the
referee's answer to an unasked ``skill`` decision, as in ``simulate``):

- Itchy Trigger Finger: "the pilot shoots first": the ready pilots fire, their damage is
  resolved and the vehicles it eliminates removed before anyone else fires (a ready
  pilot with nothing to fire at fires no later in the step either);
- Sniper: "the pilot draws two damage cards, chooses one to give to the opponent,
  reshuffles the other one": the first of its unprotected shots in a step draws two
  cards, keeps the one that hurts most (an explosion, else the higher value; the first
  of equals) and shuffles the other back into its deck.
"""

from __future__ import annotations

import numpy as np

from dogfight.batch import damage
from dogfight.batch.spec import Bools, Ints
from dogfight.batch.state import ITCHY, SKILL_REST, SNIPER, BatchState


def ready(state: BatchState, skill: int) -> Bools:
    """(B, N) pilots in play whose ``skill`` is ready this phase (``phases_played`` is
    already the phase's number)."""
    rested = state.phases_played[:, None] - state.skill_used[..., skill] >= SKILL_REST
    out: Bools = state.alive & ((state.skills >> skill) & 1 > 0) & rested
    return out


def itchy(state: BatchState, act: Bools) -> Bools:
    """(B, N) the pilots of the tables ``act`` that shoot first this phase."""
    out: Bools = ready(state, ITCHY) & act[:, None]
    return out


REACH_SLACK = 1e-6
"""cm added to the reach bound (:func:`in_reach`), so rounding never drops a shot."""


def in_reach(state: BatchState, who: Bools) -> Bools:
    """(B, N) the pilots of ``who`` with an enemy in play whose centre lies within the
    ruler plus that enemy's circumradius: the only ones whose guns may find a target
    (the others' first volley fires nothing, so it is not played)."""
    spec = state.spec
    dx = state.x[:, :, None] - state.x[:, None, :]
    dy = state.y[:, :, None] - state.y[:, None, :]
    radius = np.where(state.tripod, spec.rules.hex_side, spec.base_radius)[:, None, :]
    enemy = state.alive[:, None, :] & (state.side[:, :, None] != state.side[:, None, :])
    near = enemy & (np.hypot(dx, dy) <= spec.ruler + radius + REACH_SLACK)
    out: Bools = who & near.any(axis=2)
    return out


def used(state: BatchState, who: Bools, skill: int) -> None:
    """The skill of ``who`` (B, N) rests from this phase."""
    np.copyto(state.skill_used[..., skill], state.phases_played[:, None], where=who)


def snipe(
    state: BatchState, tables: Ints, firer: int, decks: Ints, targets: Ints, dice: damage.Dice
) -> Ints:
    """The Sniper's first card for shots of slot ``firer`` on ``tables``: two drawn, the
    one that hurts most kept (drawn for the target), the other shuffled back; the skill
    rests. Returns the slots kept."""
    spec = state.spec
    one = damage.draw(state, tables, decks, targets, dice)
    two = damage.draw(state, tables, decks, targets, dice)
    harm_one = spec.slot_explosion[decks, one] * 1000 + spec.slot_value[decks, one]
    harm_two = spec.slot_explosion[decks, two] * 1000 + spec.slot_value[decks, two]
    keep = np.where(harm_one >= harm_two, one, two)
    other = np.where(harm_one >= harm_two, two, one)
    damage.put_back(state, tables, decks, other[:, None], dice)
    who = np.zeros(state.present.shape, dtype=np.bool_)
    who[tables, firer] = True
    used(state, who, SNIPER)
    return keep
