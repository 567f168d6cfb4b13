"""Tripods vs. Tripods (001, "TRIPODS VS. TRIPODS RULES"): the initiative order secret
action cards are shown in (the reveal itself: :mod:`dogfight.rules.tripod_reveal`), and
heat-rays fired at tripods.

001: "When two opposite factions have at least one tripod each, the action cards are
secretly placed face down" / "After all action cards are placed, tripod players show them
one at a time, according to the initiative values ... starting with the highest" / "If
two tripods with the same initiative belong to the same team, they act at the same time.
If they belong to different teams, determine randomly who goes first." / "When all
actions are revealed, the turn goes on normally, and actions are completed at the same
time."
"""

from __future__ import annotations

import math
from itertools import groupby

import numpy as np

from dogfight.rules import events as ev
from dogfight.rules import standard
from dogfight.rules.blows import Source
from dogfight.rules.blows_taken import take
from dogfight.rules.decks import draw, shuffle_back
from dogfight.rules.rays import RayOption
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.tripod_harm import spend

TRIPOD_DECKS = {"X": "A", "Y": "B"}
"""001: "from the airplane A deck if the firing tripod's firepower is X, or from the
airplane B deck if the firing tripod's firepower is Y"."""

INITIATIVE_RULE = (
    '001: "tripod players show them one at a time, according to the initiative values '
    'indicated in the table below"'
)


def initiative(state: GameState, vehicle: Vehicle) -> int:
    """001's INITIATIVE table for this tripod's model and pilot (human or Martian)."""
    assert vehicle.tripod is not None
    table = state.rules.tripod(vehicle.type).initiative
    if table is None:
        return -1
    return table.human if vehicle.tripod.human else table.martian


def reveal_order(
    state: GameState, tripods: list[Vehicle], rng: np.random.Generator
) -> list[tuple[int, bool, list[Vehicle]]]:
    """Groups of tripods acting together, first to last: (initiative, drawn at random,
    tripods). Same initiative and team: one group; different teams: the seeded generator
    orders the teams."""
    out: list[tuple[int, bool, list[Vehicle]]] = []
    ranked = sorted(tripods, key=lambda v: (-initiative(state, v), v.side, v.id))
    for value, same in groupby(ranked, key=lambda v: initiative(state, v)):
        group = list(same)
        teams = sorted({v.side for v in group})
        drawn = len(teams) > 1
        if drawn:
            teams = [teams[i] for i in rng.permutation(len(teams))]
        for team in teams:
            out.append((value, drawn, [v for v in group if v.side == team]))
    return out


def ray_damage(
    state: GameState,
    firer: Vehicle,
    option: RayOption,
    hits: list[standard.Hit],
    rng: np.random.Generator,
    events: list[ev.Event],
) -> None:
    """A heat-ray hitting a tripod (001). The cards are drawn as for an airplane hit at
    that range (000: at short range one card revealed, a second if it is a 0)."""
    target = state.vehicles[option.target]
    assert target.tripod is not None
    letter = TRIPOD_DECKS[state.rules.tripod(firer.type).tripod_firepower]
    specs = state.rules.damage_cards(letter)
    cards = [draw(state, letter, rng, events)]
    if option.short:
        first = specs[cards[0]]
        events.append(ev.CardRevealed(target.id, letter, cards[0], first.value))
        if first.value == 0 and not first.explosion:
            cards.append(draw(state, letter, rng, events))
    if option.protected:
        # 001: "Any numerical damage means that the same number of energy counters are
        # discarded. Any special damage and jammed guns icons are ignored. An explosion
        # icon means that the tripod must discard all of its energy counters."
        lost = sum(target.tripod.energy if specs[c].explosion else specs[c].value for c in cards)
        why = f"protected hit by {firer.id}'s heat-ray"
        spent = spend(target, lost, why, events) if lost else 0
        events.append(ev.ProtectedHit(target.id, firer.id, letter, tuple(cards), spent))
        shuffle_back(state, letter, cards, rng)
        return
    # 001: "Any numerical damage means that damage points inflicted are twice that number
    # ... Any special damage is taken into account. Jammed guns icons are ignored. An
    # explosion icon means that the tripod loses half of its initial resistance."
    worth = []
    for card_id in cards:
        spec = specs[card_id]
        if spec.explosion:
            events.append(ev.Explosion(target.id, card_id, False))  # a secret number
            worth.append(math.ceil(target.resistance / 2))
        else:
            worth.append(2 * spec.value)
    source = Source(firer.id, "heat-ray")
    revealed = (cards[0],) if option.short else ()
    points = take(target, source, letter, cards, worth, revealed)
    events.append(
        ev.DamageDrawn(target.id, letter, tuple(cards), points, target.damage, source.label)
    )
    hits.extend(standard.collect(state, target, letter, cards))
