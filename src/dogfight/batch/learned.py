"""The ``learned`` bot in the batch: each table that needs plans is turned into a
referee state (:func:`dogfight.batch.bridge.to_state`), each side's airplanes are
planned by the referee's ``learned`` bot from that side's observation
(:class:`dogfight.bots.learned.LearnedBot`, the weights in force), and the plans are
written back. One implementation for both engines: the batch plays the learned bot at
the referee's speed (a few milliseconds per decision), not at the batch's — for fast
analyses with bots that play, use the batched ``easy`` bot."""

from __future__ import annotations

import numpy as np

from dogfight.batch.bridge import to_state
from dogfight.batch.plan_kinds import needing
from dogfight.batch.policies import POLICIES
from dogfight.batch.spec import Bools
from dogfight.batch.state import BatchState
from dogfight.bots.learned import LearnedBot
from dogfight.errors import DataError
from dogfight.learned.weights import current
from dogfight.rules.observation import observe


def batch_learned_plans(
    state: BatchState, rng: np.random.Generator, mask: Bools | None = None
) -> None:
    """Give every airplane that needs one (in ``mask``) the learned bot's plan (a WW2
    airplane's: this phase's card and speed, in all three entries, as batch/ww2.py)."""
    b, n = needing(state, mask)
    if len(b) == 0:
        return
    template = state.referee
    if template is None:
        raise DataError("batch", "bots", "learned", "a batch made from referee states")
    weights = current()
    spec = state.spec
    sides = state.side[b, n]
    for table, side in sorted(set(zip(b.tolist(), sides.tolist(), strict=True))):
        # a bot of its own per table and side: what a bot remembers of the game it plays
        # (its status tracker) must not carry over to another table's
        bot = LearnedBot(weights)
        game = to_state(state, table, template)
        names = state.names[table]
        slots = [k for k in range(state.slots) if state.present[table, k]]
        seat = frozenset(names[k] for k in slots if state.side[table, k] == side)
        plans = bot.plan_turn(observe(game, seat), game.rules, seat, rng)
        due = n[(b == table) & (sides == side)]
        for k in due.tolist():
            plan = plans[names[k]]
            kind = int(state.type[table, k])
            if spec.one_card:
                speed = plan.speeds[-1] if plan.speeds else 0
                state.plan[table, k] = spec.card_index(kind, plan.cards[-1], speed)
            else:
                state.plan[table, k] = [spec.card_index(kind, c) for c in plan.cards]


POLICIES["learned"] = batch_learned_plans
