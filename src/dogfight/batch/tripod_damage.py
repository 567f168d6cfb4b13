"""What the firing step does to and by tripods on arrays (000's basic rules, as the
referee's ``damage.resolve_damage``): the Energy a heat-ray spends, a gun's shot stopped
by the electrified armour (Energy lost, the cards shuffled back) and the heat-ray's
damage cards (a second card at short range after a revealed 0)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dogfight.batch import damage, special, tripods
from dogfight.batch.heat_rays import TripodShots
from dogfight.batch.spec import Bools, Ints
from dogfight.batch.state import BatchState


@dataclass
class TripodLog:
    """What one phase did with tripods (arrays indexed [table, slot, ...])."""

    card: Ints
    """(B, N) the tripod card walked (global tripod card index), -1 for none."""
    rayed: Bools
    """(B, N) heat-rays fired (their Energy spent), hit or miss."""
    shots: TripodShots
    ray_slots: Ints
    """(B, N, 2) damage slots each heat-ray drew, -1 for none."""
    ray_points: Ints
    """(B, N) damage points each heat-ray dealt."""


def spend_rays(state: BatchState, rayed: Bools) -> None:
    """000: "Discard the Energy token used to fire after checking for targets" / "After a
    projector has fired, place on the tripod's console 1 recovery token"
    (``tripods.spend_fired``)."""
    tripods.spend(state, rayed, 1)
    state.cooling[rayed] = 1


def protected_hits(
    state: BatchState, tables: Ints, target: Ints, decks: Ints, short: Bools, dice: damage.Dice
) -> Ints:
    """000: shots across the armour, one per table (``tables``, at the tripod
    ``target``, drawing from ``decks``, two cards when ``short``): "The red damage value
    is ignored; If the card shows an Energy icon, the Tripod must discard 1 Energy; If
    the card is an explosion, the tripod must discard an amount of Energy equal to its
    original Energy rating." The cards go back into their deck, shuffled. Returns (R, 2)
    the slots drawn (-1: none)."""
    spec = state.spec
    drawn = np.full((len(tables), 2), -1, dtype=np.int64)
    drawn[:, 0] = damage.draw(state, tables, decks, target, dice)
    two = np.flatnonzero(short)
    if len(two):
        drawn[two, 1] = damage.draw(state, tables[two], decks[two], target[two], dice)
    card = np.maximum(drawn, 0)
    rating = spec.tripods.type_energy[state.ttype[tables, target]]
    each = np.where(
        spec.slot_explosion[decks[:, None], card],
        rating[:, None],
        spec.tripods.slot_energy[decks[:, None], card],
    )
    lost = np.where(drawn >= 0, each, 0).sum(axis=1)
    state.energy[tables, target] = np.maximum(state.energy[tables, target] - lost, 0)
    damage.put_back(state, tables, decks, drawn, dice)
    return drawn


def ray_damage(
    state: BatchState, log: TripodLog, dice: damage.Dice, exploded: Bools, hits: special.Hits
) -> None:
    """000: "short range ... draws and reveals 1 damage card ...: if it is a 0, the player
    draws a second card ... long range ... draws 1 damage card" (``_heat_ray_damage``),
    tripod by tripod in id order, after every gun's cards; their special icons go with
    the step's (``hits``)."""
    spec = state.spec
    shots = log.shots
    for i in np.flatnonzero((shots.ray_target >= 0).any(axis=0)).tolist():
        rows = np.flatnonzero(shots.ray_target[:, i] >= 0)
        tgt = shots.ray_target[rows, i]
        decks = spec.tripods.type_ray_deck[state.ttype[rows, i]]
        first = damage.draw(state, rows, decks, tgt, dice)
        log.ray_slots[rows, i, 0] = first
        again = (
            shots.ray_short[rows, i]
            & (spec.slot_value[decks, first] == 0)
            & ~spec.slot_explosion[decks, first]
        )
        sub = np.flatnonzero(again)
        if len(sub):
            log.ray_slots[rows[sub], i, 1] = damage.draw(
                state, rows[sub], decks[sub], tgt[sub], dice
            )
        for c in (0, 1):
            sub = np.flatnonzero(log.ray_slots[rows, i, c] >= 0)
            if len(sub) == 0:
                continue
            r, t = rows[sub], tgt[sub]
            pts, boom = damage.points(
                state, r, t, decks[sub], log.ray_slots[r, i, c], np.zeros(len(r), bool)
            )
            state.damage[r, t] += pts
            state.dealt[r, i, 0] += pts  # the results' "<tripod> heat-ray"
            log.ray_points[r, i] += pts
            exploded[r, t] |= boom
            hits.add(state, r, t, decks[sub], log.ray_slots[r, i, c])
