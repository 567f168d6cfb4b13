"""The Automated Tripod's *current* and *reserve* decks (001) and the cards it looks up in them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from dogfight.catalog.models import (
    TripodCard,
    TripodDeck,
    TripodSymbol,
)


def solo_deck(card: TripodCard, deck: TripodDeck) -> Literal["current", "reserve"]:
    """001: "Put all long straight, long sideslip, standing still, and 60° curve maneuver
    cards in one deck (the current deck) ... Put all the remaining cards in the other deck
    (the reserve deck)". The card's ``solo`` tag when given, else derived from its
    geometry: standing still; a normal move turning 60°; the longest normal straight;
    the widest normal sideslip (a straight move with a sideways offset)."""
    if card.solo is not None:
        return card.solo
    if card.symbol is TripodSymbol.STAND:
        return "current"
    if card.symbol is not TripodSymbol.MOVE:
        return "reserve"
    if abs(abs(card.turn) - 60.0) < 1e-6:
        return "current"
    moves = [c for c in deck.cards if c.symbol is TripodSymbol.MOVE and abs(c.turn) < 1e-9]
    if abs(card.turn) < 1e-9 and abs(card.left) < 1e-9:
        longest = max(c.forward for c in moves if abs(c.left) < 1e-9)
        return "current" if card.forward >= longest - 1e-9 else "reserve"
    if abs(card.turn) < 1e-9:
        widest = max(abs(c.left) for c in moves)
        return "current" if abs(card.left) >= widest - 1e-9 else "reserve"
    return "reserve"


def running_card(deck: TripodDeck, reserve: Iterable[str]) -> TripodCard | None:
    """001's "the running card from the reserve": the first running card of the reserve
    without the Energy icon (else the first running card)."""
    cards = [deck.card(c) for c in sorted(reserve, key=_card_order(deck))]
    runs = [c for c in cards if c.symbol is TripodSymbol.RUN]
    plain = [c for c in runs if not c.energy]
    if plain:
        return plain[0]
    return runs[0] if runs else None


def reverse_card(deck: TripodDeck) -> TripodCard | None:
    return next((c for c in deck.cards if c.symbol is TripodSymbol.REVERSE), None)


def standing_card(deck: TripodDeck) -> TripodCard | None:
    """A standing still card to stand on (one without the Stop icon when possible: a green
    token needs it)."""
    stands = [c for c in deck.cards if c.symbol is TripodSymbol.STAND]
    plain = [c for c in stands if not c.stop]
    if plain:
        return plain[0]
    return stands[0] if stands else None


def _card_order(deck: TripodDeck) -> Callable[[str], int]:
    index = {c.id: i for i, c in enumerate(deck.cards)}
    return lambda cid: index.get(cid, len(index))


@dataclass(slots=True)
class Decks:
    """One automated tripod's decks (001, PREPARATION): the ``current`` draw pile (its top
    card last), the face-up ``reserve`` and the ``discard`` pile of cards used since the
    last planning phase; ``lent`` are reserve cards added to the current deck while
    enemies are nearby."""

    current: list[str]
    reserve: list[str]
    discard: list[str] = field(default_factory=list)
    lent: set[str] = field(default_factory=set)
    played: list[TripodSymbol] = field(default_factory=list)
    """Symbols of the cards played this turn (for "three maneuvers in a row")."""
    last_steep: bool = False

    @classmethod
    def prepare(cls, deck: TripodDeck, rng: np.random.Generator) -> Decks:
        current = [c.id for c in deck.cards if solo_deck(c, deck) == "current"]
        reserve = [c.id for c in deck.cards if solo_deck(c, deck) == "reserve"]
        return cls(_shuffled(current, rng), reserve)

    def home(self, card_id: str, deck: TripodDeck) -> Literal["current", "reserve"]:
        return solo_deck(deck.card(card_id), deck)

    def new_turn(self, deck: TripodDeck, rng: np.random.Generator) -> None:
        """001, PLANNING: "take all the maneuver cards used by the tripod so far, and
        shuffle them back into the corresponding deck (either current or reserve, as
        appropriate)"."""
        for card_id in self.discard:
            if self.home(card_id, deck) == "current":
                self.current.append(card_id)
            else:
                self.lent.discard(card_id)
                self.reserve.append(card_id)
        self.discard = []
        self.current = _shuffled(self.current, rng)
        self.reserve.sort(key=_card_order(deck))
        self.played = []

    def lend(self, deck: TripodDeck, rng: np.random.Generator) -> list[str]:
        """Enemies nearby: the reserve's cards but the running and reverse ones join the
        current deck (shuffled in). Returns the cards added."""
        moved = [
            c
            for c in self.reserve
            if deck.card(c).symbol not in (TripodSymbol.RUN, TripodSymbol.REVERSE)
        ]
        if not moved:
            return []
        self.reserve = [c for c in self.reserve if c not in moved]
        self.lent |= set(moved)
        self.current = _shuffled(self.current + moved, rng)
        return moved

    def take_back(self, deck: TripodDeck) -> None:
        """No enemies nearby any more: lent cards still in the current deck go back to
        the reserve (those used stay in the discard pile until the planning phase)."""
        back = [c for c in self.current if c in self.lent]
        if not back:
            return
        self.current = [c for c in self.current if c not in self.lent]
        self.lent -= set(back)
        self.reserve = sorted(self.reserve + back, key=_card_order(deck))

    def use(self, card_id: str) -> None:
        """A card the tripod plays goes to the discard pile (from wherever it is)."""
        if card_id in self.current:
            self.current.remove(card_id)
        elif card_id in self.reserve:
            self.reserve.remove(card_id)
        self.discard.append(card_id)


def _shuffled(cards: list[str], rng: np.random.Generator) -> list[str]:
    order = rng.permutation(len(cards))
    return [cards[int(i)] for i in order]
