"""002's and 003's special damage on arrays (as :mod:`dogfight.rules.standard` with
``special_damage`` "002" or "003"): the icons on the cards drawn in a step are applied
together at its end, and the lasting effects restrict the next plans.

- 002: rudder jammed left or right next turn, observer out (a two-seater loses its rear
  gun), engine damaged (a stall every turn; "Second engine hit = explosion."), smoke
  trail (no tailing, 3 turns), on fire (an A card as each turn begins, no tailing);
  "Duplicates: only most recent counts" (a second icon restarts its counters);
- 003: engine damage only (a steep maneuver every turn; "再次机件受损则飞机坠毁");
- 000 (the Standard Rules' table): a wounded pilot (a second wound eliminates; no firing
  in a phase with a steep card or an Immelmann; jams last a maneuver longer), engine
  damaged (a stall every turn; a second hit destroys an airplane), smoke (a second smoke
  is a fire), fire (an A card each turn, no straight), rudders jammed for the next turn
  (for a WW2 airplane each "turn" an Earthling turn, a phase); on a tripod also a wounded
  pilot (no heat-ray on a movement card), engine (never three movement cards; a second
  hit: standing still cards only), fire, the gyroscope (no change of facing next turn),
  the reverse mechanism, the black smoke generator, the circuits (the card's value in
  Energy), the batteries (rating and 1 Energy) and toppling (``standard.apply``).
"""

from __future__ import annotations

import numpy as np

from dogfight.batch.spec import (
    AIRPLANE_BITS,
    BATTERIES_BIT,
    CIRCUITS_BIT,
    ENGINE_BIT,
    FIRE_BIT,
    GYROSCOPE_BIT,
    OBSERVER_BIT,
    REVERSE_BIT,
    RUDDER_LEFT_BIT,
    RUDDER_RIGHT_BIT,
    SMOKE_BIT,
    SMOKE_GENERATOR_BIT,
    STALL,
    STRAIGHT,
    TOPPLED_BIT,
    TRIPOD_BITS,
    Bools,
    Ints,
    Spec,
)
from dogfight.batch.state import ENGINE_DESTROYED, EXPLODED, PILOT_INCAPACITATED, BatchState
from dogfight.batch.tripods import topple

COUNTERS = 3
"""As :data:`dogfight.rules.standard.COUNTERS`: smoke and flame counters."""


class Hits:
    """The special icons drawn in one step, per airplane: their bits and engine hits."""

    def __init__(self, state: BatchState) -> None:
        self.bits = np.zeros(state.present.shape, dtype=np.int64)
        self.engine = np.zeros(state.present.shape, dtype=np.int64)
        self.wounds = np.zeros(state.present.shape, dtype=np.int64)
        """000: wounded-pilot icons (each counts)."""
        self.smokes = np.zeros(state.present.shape, dtype=np.int64)
        """000: smoke icons (each one on a smoking airplane is a fire)."""
        self.circuits = np.zeros(state.present.shape, dtype=np.int64)
        """000, tripods: the Energy the circuits icons discard (their cards' values)."""
        self.batteries = np.zeros(state.present.shape, dtype=np.int64)
        """000, tripods: batteries icons (each lowers the rating by one)."""
        self.any = False

    def add(self, state: BatchState, tables: Ints, targets: Ints, decks: Ints, slots: Ints) -> None:
        """The icons of the cards ``slots`` of ``decks`` drawn for (tables, targets), one
        card per table."""
        spec = state.spec
        icons = spec.slot_special[decks, slots]
        if not icons.any():
            return
        # tripod-only icons mean nothing to airplanes, airplane-only ones to tripods; a
        # tripod takes special damage under 000's table only (``standard.collect``)
        tripod = state.tripod[tables, targets]
        keep = np.where(tripod, ~AIRPLANE_BITS if spec.specials == "000" else 0, ~TRIPOD_BITS)
        icons = icons & keep
        if not icons.any():
            return
        self.any = True
        self.bits[tables, targets] |= icons
        self.engine[tables, targets] += (icons & ENGINE_BIT) > 0
        self.wounds[tables, targets] += (icons & OBSERVER_BIT) > 0
        self.smokes[tables, targets] += (icons & SMOKE_BIT) > 0
        circuits = (icons & CIRCUITS_BIT) > 0
        self.circuits[tables, targets] += np.where(circuits, spec.slot_value[decks, slots], 0)
        self.batteries[tables, targets] += (icons & BATTERIES_BIT) > 0


def clock(state: BatchState) -> Ints:
    """(B,) the turn being played, by the clock of the airplanes' rules: 000's turn for a
    WW1 airplane, the Earthling turn for a WW2 one (``rules.clocks.turn_of``: three per
    Martian turn, one per phase)."""
    if state.spec.one_card:
        out: Ints = (state.turn - 1) * 3 + state.phase + 1
        return out
    return state.turn


def apply(state: BatchState, hits: Hits) -> Ints:
    """Apply a step's icons (in place); returns the reason code of the airplanes they
    eliminate (0: none): a second engine hit."""
    spec = state.spec
    out = np.zeros(state.present.shape, dtype=np.int64)
    if not hits.any:
        return out
    bits = hits.bits
    if spec.specials == "000":
        return _apply_000(state, hits)
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


def _apply_000(state: BatchState, hits: Hits) -> Ints:
    """000's table (``standard.apply`` without 002's and 003's list): wounds and engine
    hits count each; a smoke on a smoking airplane (or a second smoke drawn with the
    first) is a fire; fire and the rudders once at a time."""
    out = np.zeros(state.present.shape, dtype=np.int64)
    bits = hits.bits
    state.wounded += hits.wounds
    state.engine += hits.engine
    # a second engine hit destroys an airplane; a tripod plans standing still cards only
    out[(hits.engine > 0) & (state.engine >= 2) & ~state.tripod] = ENGINE_DESTROYED
    out[(hits.wounds > 0) & (state.wounded >= 2)] = PILOT_INCAPACITATED
    # smoke icons one after the other: smoke, then a fire that clears it, then smoke...
    smoking = state.smoke > 0
    hit = hits.smokes > 0
    lit = hit & (smoking | (hits.smokes >= 2))
    odd = (smoking.astype(np.int64) + hits.smokes) % 2 == 1
    state.smoke[hit] = np.where(odd[hit], COUNTERS, 0)
    state.fire[lit | ((bits & FIRE_BIT) > 0)] = COUNTERS
    turn = np.broadcast_to(clock(state)[:, None] + 1, bits.shape)
    for k, bit in enumerate((RUDDER_LEFT_BIT, RUDDER_RIGHT_BIT)):
        jam = (bits & bit) > 0
        state.rudder[..., k][jam] = turn[jam]
    if state.tripod.any():
        _tripod_000(state, hits, turn)
    return out


def _tripod_000(state: BatchState, hits: Hits, turn: Ints) -> None:
    """000's tripod icons (``standard.apply``): the gyroscope out of order next turn, the
    reverse mechanism and the black smoke generator for good, the circuits' and the
    batteries' Energy (all saturating subtractions: a battery's "above the lowered
    rating" never bites, the Energy being at most the rating), the rating lowered, and a
    standing tripod toppled."""
    bits = hits.bits
    gyro = (bits & GYROSCOPE_BIT) > 0
    state.gyroscope[gyro] = turn[gyro]
    state.reverse_out |= (bits & REVERSE_BIT) > 0
    state.smoke_out |= (bits & SMOKE_GENERATOR_BIT) > 0
    drain = hits.circuits + hits.batteries
    np.copyto(state.energy, np.maximum(state.energy - drain, 0), where=drain > 0)
    state.rating = np.maximum(state.rating - hits.batteries, 0)
    fall = ((bits & TOPPLED_BIT) > 0) & (state.toppled == 0) & state.alive
    if fall.any():
        topple(state, fall)


FORBID_LEFT, FORBID_RIGHT, NEED_STALL, NEED_STEEP, FORBID_STRAIGHT = 1, 2, 4, 8, 16
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
        + (spec.card_symbol[rows] == STRAIGHT).any(axis=-1) * FORBID_STRAIGHT
    )
    return out


def needs(state: BatchState, b: Ints, n: Ints) -> tuple[Ints, Ints]:
    """What the plans of airplanes (b, n) for the turn being planned may not hold and
    must hold (``standard.check_airplane_plan``): no left / right arrow with that rudder
    jammed this turn; with a damaged engine a stall (002, 000) or a steep card (003); on
    fire no straight (000)."""
    spec = state.spec
    if spec.specials is None:
        none = np.zeros(np.shape(b), dtype=np.int64)
        return none, none
    turn = clock(state)[b]
    forbid = (state.rudder[b, n, 0] == turn) * FORBID_LEFT + (
        state.rudder[b, n, 1] == turn
    ) * FORBID_RIGHT
    engine = (state.engine[b, n] > 0).astype(np.int64)
    if spec.specials == "000":
        forbid = forbid + (state.fire[b, n] > 0) * FORBID_STRAIGHT
    if spec.specials in ("002", "000"):
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
