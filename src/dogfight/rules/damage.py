"""Damage: drawing and applying damage cards, and removing what they eliminate.

000: "All damage inflicted in the same firing step, regardless of its source, is
resolved simultaneously": :func:`resolve_damage` applies the cards of every shot, rocket
and heat-ray of one firing step, then removes the vehicles they eliminate together.
"""

from __future__ import annotations

import math

import numpy as np

from dogfight.catalog.models import Explosion as ExplosionRule
from dogfight.catalog.models import Skill, Special
from dogfight.geometry.reach import sight
from dogfight.rules import firing, rockets, scenario, skill_choice, standard, tripods, versus
from dogfight.rules.blows import Source
from dogfight.rules.blows_taken import finisher, take
from dogfight.rules.decisions import Asking, Decision
from dogfight.rules.decks import draw, return_cards, shuffle_back
from dogfight.rules.events import (
    CardRevealed,
    DamageDrawn,
    Eliminated,
    Event,
    Explosion,
    Jammed,
    SkillUsed,
)
from dogfight.rules.rays import RayOption
from dogfight.rules.state import BY_ID, GameState, Vehicle
from dogfight.words.terms import damage_card_words


def eliminate(
    state: GameState, vehicle: Vehicle, reason: str, rng: np.random.Generator, events: list[Event]
) -> None:
    """Take ``vehicle`` out of the game for ``reason``; its damage cards go back. The
    event names what brought it down, and the card where every seat saw it (R33)."""
    vehicle.eliminated = reason
    blow = finisher(state.rules, vehicle, reason)
    if blow is None:
        events.append(Eliminated(vehicle.id, reason))
    else:
        by, means = blow.source.by, blow.source.means
        shown = blow.card if blow.shown else None
        events.append(Eliminated(vehicle.id, reason, by, means, blow.deck, shown))
    return_cards(state, vehicle, rng, events)


def damage(
    state: GameState,
    target: Vehicle,
    deck: str,
    count: int,
    aimed: bool,
    source: Source,
    rng: np.random.Generator,
    events: list[Event],
) -> tuple[list[str], bool]:
    """Draw ``count`` cards for ``target``; add their points (aim: +1 on each non-zero
    card). Returns the cards and whether an explosion eliminates it outright."""
    cards = [draw(state, deck, rng, events) for _ in range(count)]
    return cards, apply_cards(state, target, deck, cards, aimed, source, events)


def apply_cards(
    state: GameState,
    target: Vehicle,
    deck: str,
    cards: list[str],
    aimed: bool,
    source: Source,
    events: list[Event],
    shown: tuple[str, ...] = (),
) -> bool:
    """Add drawn cards' points to ``target``; True when an explosion eliminates it.
    ``shown``: the cards every seat saw drawn (a jam, a heat-ray's revealed card), which
    an elimination may name (R33), as it names an explosion that eliminates outright."""
    specs = state.rules.damage_cards(deck)
    worth = []
    exploded = False
    for card_id in cards:
        spec = specs[card_id]
        if spec.explosion:
            outright = state.rules.switches.explosion is ExplosionRule.ELIMINATED
            events.append(Explosion(target.id, card_id, outright))
            if outright:
                exploded = True
                shown += (card_id,)
                worth.append(0)
            else:
                worth.append(math.ceil(target.resistance / 2))
        elif spec.value > 0:
            worth.append(spec.value + (1 if aimed else 0))
        else:
            worth.append(0)
    points = take(target, source, deck, cards, worth, shown)
    events.append(DamageDrawn(target.id, deck, tuple(cards), points, target.damage, source.label))
    return exploded


Shot = tuple[Vehicle, str, str, firing.Option, bool]
"""(firer, weapon, damage deck letter, the option taken, aimed)."""


SNIPER = "sniper"
"""The kind of the Sniper's decision (:func:`_snipe`)."""

SNIPER_RULE = (
    '000: "the pilot draws two damage cards, chooses one to give to the opponent, '
    'reshuffles the other one"'
)


def _snipe(
    state: GameState,
    firer: Vehicle,
    target: Vehicle,
    letter: str,
    number: int,
    rng: np.random.Generator,
    events: list[Event],
    asking: Asking | None,
) -> list[str]:
    """000's Sniper: "the pilot draws two damage cards, chooses one to give to the
    opponent, reshuffles the other one". The choice is the firing seat's, an engine
    decision showing it both cards (no other seat sees them); unanswered (a computer
    player, ``simulate``, ``adjudicate``) it is the card that hurts most (an explosion,
    else the highest value)."""
    specs = state.rules.damage_cards(letter)
    pair = [draw(state, letter, rng, events), draw(state, letter, rng, events)]

    def harm(card_id: str) -> tuple[int, int]:
        spec = specs[card_id]
        return (1 if spec.explosion else 0, spec.value)

    labels = (f"1:{pair[0]}", f"2:{pair[1]}")
    worst = 0 if harm(pair[0]) >= harm(pair[1]) else 1
    decision = Decision.one_of(
        SNIPER,
        firer.id,
        (state.turn, state.phase),
        labels,
        labels[worst],
        SNIPER_RULE,
        {
            "target": target.id,
            "deck": letter,
            "drawn": list(pair),
            "faces": [damage_card_words(specs[c], standard.acting(state)) for c in pair],
        },
    )
    answer = decision.default if asking is None else asking.ask([decision])[decision.id]
    chosen = labels.index(answer[0])
    keep, other = pair[chosen], pair[1 - chosen]
    shuffle_back(state, letter, [other], rng)
    firer.skill_used[Skill.SNIPER] = number
    events.append(SkillUsed(firer.id, Skill.SNIPER, f"chose one of two cards for {target.id}"))
    return [keep]


def _jam_cards(state: GameState, letter: str, cards: list[str]) -> tuple[str, ...]:
    """The jam cards among a shot's ``cards`` (drawn from deck ``letter``)."""
    deck = state.rules.damage_cards(letter)
    jams = []  # a plain loop: a comprehension costs a function object and a frame
    for c in cards:
        if Special.JAMMED in deck[c].specials:
            jams.append(c)
    return tuple(jams)


def resolve_damage(
    state: GameState,
    table: firing.Table,
    shots: list[Shot],
    arrivals: list[rockets.RocketHit],
    rays: list[tuple[Vehicle, RayOption]],
    number: int,
    rng: np.random.Generator,
    events: list[Event],
    asking: Asking | None = None,
) -> None:
    """Draw and apply every card of the shots, rockets and heat-rays, then remove the
    vehicles they eliminate (all together). ``asking``: where a Sniper's choice is asked
    (None: its default)."""
    exploded: set[str] = set()
    hits: list[standard.Hit] = []
    for firer, weapon, printed, option, aimed in shots:
        target = state.vehicles[option.target]
        letter = state.rules.damage_deck(printed, target.type, firer.type)
        count = 2 if option.short else 1
        if option.protected:
            cards = [draw(state, letter, rng, events) for _ in range(count)]
            tripods.apply_protected_hit(state, target, firer.id, letter, cards, events)
            # 000: "All revealed cards are shuffled back into their deck after all their
            # effects have been applied."
            shuffle_back(state, letter, cards, rng)
            jams = _jam_cards(state, letter, cards)
        else:
            cards = []
            if scenario.skill_ready(firer, Skill.SNIPER, number) and skill_choice.used(
                asking, skill_choice.decision(state, firer, Skill.SNIPER, option, False)
            ):
                cards = _snipe(state, firer, target, letter, number, rng, events, asking)
            cards += [draw(state, letter, rng, events) for _ in range(count - len(cards))]
            jams = _jam_cards(state, letter, cards)
            # a jam card is shown (R23), so an elimination may name it (R33)
            source = Source(firer.id, weapon)
            boom = apply_cards(state, target, letter, cards, aimed, source, events, jams)
            hits.extend(standard.collect(state, target, letter, cards))
            if boom:
                exploded.add(target.id)
        if jams:
            # 000: "If two jammed cards are drawn at the same time, jamming still lasts for
            # only three maneuvers."
            firer.jams[weapon] = standard.jam_length(state, firer)
            events.append(Jammed(firer.id, weapon, jams[0], firer.jams[weapon]))
    for arrival in arrivals:
        exploded |= _rocket_damage(state, table, arrival, hits, rng, events)
    for tripod, ray in rays:
        exploded |= _heat_ray_damage(state, tripod, ray, hits, rng, events)
    special_out = standard.apply(state, hits, events) if hits else {}
    in_play = state.in_play()
    if not special_out and not exploded:
        for v in in_play:  # a loop, not all(...): every firing step asks
            if not v.damage < v.resistance:
                break
        else:
            return  # nobody to remove (most firing steps)
    for vehicle in sorted(in_play, key=BY_ID):
        if vehicle.id in special_out:
            eliminate(state, vehicle, special_out[vehicle.id], rng, events)
        elif vehicle.id in exploded:
            eliminate(state, vehicle, "exploded", rng, events)
        elif vehicle.damage >= vehicle.resistance:
            eliminate(state, vehicle, "shot_down", rng, events)


def _rocket_damage(
    state: GameState,
    table: firing.Table,
    arrival: rockets.RocketHit,
    hits: list[standard.Hit],
    rng: np.random.Generator,
    events: list[Event],
) -> set[str]:
    """000: "the target takes one D damage card for each Rocket token spent". A tripod's
    electrified armour works against rockets as against guns; jam icons are ignored (no
    gun fired)."""
    firer = state.vehicles[arrival.firer]
    target = state.vehicles[arrival.target]
    deck = rockets.ROCKET_DECK
    if target.tripod is not None and not table.overlap(firer.id, target.id):
        seen = sight(firer.pose, state.rules.front_arc, table.bases[target.id], 1e6)
        if firing.is_protected(state, firer, target, seen):
            cards = [draw(state, deck, rng, events) for _ in range(arrival.count)]
            tripods.apply_protected_hit(state, target, firer.id, deck, cards, events)
            shuffle_back(state, deck, cards, rng)
            return set()
    cards, boom = damage(
        state, target, deck, arrival.count, False, Source(firer.id, "rockets"), rng, events
    )
    hits.extend(standard.collect(state, target, deck, cards))
    return {target.id} if boom else set()


def _heat_ray_damage(
    state: GameState,
    firer: Vehicle,
    option: RayOption,
    hits: list[standard.Hit],
    rng: np.random.Generator,
    events: list[Event],
) -> set[str]:
    """000: "short range ... draws and reveals 1 damage card ...: if it is a 0, the player
    draws a second card (this time, without revealing it to the opponent). ... long range
    ... draws 1 damage card"."""
    target = state.vehicles[option.target]
    if target.tripod is not None:
        versus.ray_damage(state, firer, option, hits, rng, events)
        return set()
    letter = state.rules.damage_deck(state.rules.tripod(firer.type).firepower, target.type)
    specs = state.rules.damage_cards(letter)
    cards = [draw(state, letter, rng, events)]
    if option.short:
        first = specs[cards[0]]
        events.append(CardRevealed(target.id, letter, cards[0], first.value))
        if first.value == 0 and not first.explosion:
            cards.append(draw(state, letter, rng, events))
    source = Source(firer.id, "heat-ray")
    revealed = (cards[0],) if option.short else ()
    boom = apply_cards(state, target, letter, cards, False, source, events, revealed)
    hits.extend(standard.collect(state, target, letter, cards))
    return {target.id} if boom else set()
