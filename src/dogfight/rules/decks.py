"""Damage decks as draw piles: drawing, running out and shuffling cards back.

A pile is never changed in place: a draw or a shuffle puts a new list in
``GameState.piles``, so that a copy of the state shares the lists (see
:meth:`~dogfight.rules.state.GameState.copy`).
"""

from __future__ import annotations

import numpy as np

from dogfight.rules.events import DeckReshuffled, Event
from dogfight.rules.state import GameState, Vehicle


def shuffled(cards: list[str], rng: np.random.Generator) -> list[str]:
    """A new list with the cards in an order drawn from ``rng``."""
    order = rng.permutation(len(cards)).tolist()  # plain ints index a list faster
    return [cards[i] for i in order]


def draw(state: GameState, deck: str, rng: np.random.Generator, events: list[Event]) -> str:
    """Take the next card of ``deck``.

    000: "If a deck of damage cards is exhausted, each player must secretly write on a
    piece of paper the total damage suffered by each vehicle ... Then, all the damage
    cards are shuffled back into their deck." Vehicles keep their totals; the cards they
    held go back into the new pile.
    """
    pile = state.piles[deck]
    if not pile:
        composition = state.rules.catalog.damage_decks[deck].composition()
        pile = shuffled(composition, rng)
        for vehicle in state.vehicles.values():
            vehicle.held = [h for h in vehicle.held if h[0] != deck]
        events.append(DeckReshuffled(deck, "exhausted"))
    state.piles[deck] = pile[:-1]
    return pile[-1]


def shuffle_back(state: GameState, deck: str, cards: list[str], rng: np.random.Generator) -> None:
    """Put ``cards`` back into ``deck``'s pile, under it, and shuffle the pile."""
    state.piles[deck] = shuffled([*state.piles[deck], *cards], rng)


def return_cards(
    state: GameState, vehicle: Vehicle, rng: np.random.Generator, events: list[Event]
) -> None:
    """000: an eliminated vehicle "is removed from the game and all its damage cards are
    shuffled back into the appropriate decks"."""
    decks = sorted({deck for deck, _ in vehicle.held})
    for deck in decks:
        shuffle_back(state, deck, [card for d, card in vehicle.held if d == deck], rng)
        events.append(DeckReshuffled(deck, f"cards of {vehicle.id} returned"))
    vehicle.held = []
