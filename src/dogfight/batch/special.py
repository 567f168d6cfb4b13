"""002's and 003's special damage on arrays (as :mod:`dogfight.rules.standard` with
``special_damage`` "002" or "003"): the icons on the cards drawn in a step are applied
together at its end, and the lasting effects restrict the next plans.

- 002: rudder jammed left or right next turn, observer out (a two-seater loses its rear
  gun), engine damaged (a stall every turn; "Second engine hit = explosion."), smoke
  trail (no tailing, 3 turns), on fire (an A card as each turn begins, no tailing);
  "Duplicates: only most recent counts" (a second icon restarts its counters);
- 003: engine damage only (a steep maneuver every turn; "再次机件受损则飞机坠毁").
"""

from __future__ import annotations

import numpy as np

from dogfight.batch.spec import (
    ENGINE_BIT,
    FIRE_BIT,
    OBSERVER_BIT,
    RUDDER_LEFT_BIT,
    RUDDER_RIGHT_BIT,
    SMOKE_BIT,
    STALL,
    Bools,
    Ints,
    Spec,
)
from dogfight.batch.state import ENGINE_DESTROYED, EXPLODED, BatchState

COUNTERS = 3
"""As :data:`dogfight.rules.standard.COUNTERS`: smoke and flame counters."""


class Hits:
    """The special icons drawn in one step, per airplane: their bits and engine hits."""

    def __init__(self, state: BatchState) -> None:
        self.bits = np.zeros(state.present.shape, dtype=np.int64)
        self.engine = np.zeros(state.present.shape, dtype=np.int64)
        self.any = False

    def add(self, state: BatchState, tables: Ints, targets: Ints, decks: Ints, slots: Ints) -> None:
        """The icons of the cards ``slots`` of ``decks`` drawn for (tables, targets), one
        card per table."""
        icons = state.spec.slot_special[decks, slots]
        if not icons.any():
            return
        self.any = True
        self.bits[tables, targets] |= icons
        self.engine[tables, targets] += (icons & ENGINE_BIT) > 0


def apply(state: BatchState, hits: Hits) -> Ints:
    """Apply a step's icons (in place); returns the reason code of the airplanes they
    eliminate (0: none): a second engine hit."""
    spec = state.spec
    out = np.zeros(state.present.shape, dtype=np.int64)
    if not hits.any:
        return out
    bits = hits.bits
    two_seater = spec.type_weapon_deck[state.type, 1] >= 0
    state.observer |= ((bits & OBSERVER_BIT) > 0) & two_seater
    state.engine += hits.engine
    out[(hits.engine > 0) & (state.engine >= 2)] = (
        EXPLODED if spec.specials == "002" else ENGINE_DESTROYED
    )
    state.smoke[(bits & SMOKE_BIT) > 0] = COUNTERS
    state.fire[(bits & FIRE_BIT) > 0] = COUNTERS
    turn = np.broadcast_to(state.turn[:, None] + 1, bits.shape)
    for k, bit in enumerate((RUDDER_LEFT_BIT, RUDDER_RIGHT_BIT)):
        hit = (bits & bit) > 0
        state.rudder[..., k][hit] = turn[hit]
    return out


FORBID_LEFT, FORBID_RIGHT, NEED_STALL, NEED_STEEP = 1, 2, 4, 8
"""Bits of what a plan may not hold or must hold (:func:`needs`, ``features``)."""


def features(spec: Spec, rows: Ints) -> Ints:
    """(..., ) bits of plans ``rows`` (..., 3): an arrow to the left, to the right, a
    stall, a steep card (what the damaged-airplane restrictions look at)."""
    arrow = spec.card_arrow[rows]
    out: Ints = (
        (arrow == -1).any(axis=-1) * FORBID_LEFT
        + (arrow == 1).any(axis=-1) * FORBID_RIGHT
        + (spec.card_symbol[rows] == STALL).any(axis=-1) * NEED_STALL
        + spec.card_steep[rows].any(axis=-1) * NEED_STEEP
    )
    return out


def needs(state: BatchState, b: Ints, n: Ints) -> tuple[Ints, Ints]:
    """What the plans of airplanes (b, n) for the turn being planned may not hold and
    must hold (``standard.check_airplane_plan``): no left / right arrow with that rudder
    jammed this turn; with a damaged engine a stall (002) or a steep card (003)."""
    spec = state.spec
    if spec.specials is None:
        none = np.zeros(np.shape(b), dtype=np.int64)
        return none, none
    turn = state.turn[b]
    forbid = (state.rudder[b, n, 0] == turn) * FORBID_LEFT + (
        state.rudder[b, n, 1] == turn
    ) * FORBID_RIGHT
    engine = (state.engine[b, n] > 0).astype(np.int64)
    if spec.specials == "002":
        need = engine * NEED_STALL
    elif spec.specials == "003":
        need = engine * NEED_STEEP
    else:
        need = np.zeros_like(engine)
    return forbid.astype(np.int64), need


def allowed(feature: Ints, forbid: Ints, need: Ints) -> Bools:
    """Plans (by their ``features``) that pass the restrictions (broadcast)."""
    out: Bools = ((feature & forbid) == 0) & ((feature & need) == need)
    return out
