"""The revealed card's restriction check (``rules/plans.py``): :func:`card_problem` reads
the card's :func:`flown` facts and enum members taken once, and a reveal skips it when
:func:`may_break` says no restriction can apply. Both against the plain check as it was
written before (kept here), on every card of every deck after every previous maneuver."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dogfight.catalog.loader import Catalog, load_catalog
from dogfight.catalog.models import ManeuverCard, Symbol
from dogfight.rules.plans import (
    IMMELMANN_AFTER_RULE,
    IMMELMANN_BEFORE_RULE,
    STEEP_003_RULE,
    STEEP_RULE,
    TURN_OR_STRAIGHT,
    Flown,
    Problem,
    Restrictions,
    card_problem,
    flown,
    may_break,
)


def plain_card_problem(
    previous: Flown | None, card: ManeuverCard, opening: bool, restrictions: Restrictions
) -> Problem | None:
    """``card_problem`` as written before the fast path (the reference)."""
    if card.is_steep and previous is not None and previous.steep:
        return Problem(0, card.id, "steep_after_steep", STEEP_RULE)
    counter = (
        restrictions.immelmann_counter
        and opening
        and previous is not None
        and previous.symbol is Symbol.IMMELMANN
        and card.symbol is Symbol.IMMELMANN
    )
    if (
        previous is not None
        and previous.symbol is Symbol.IMMELMANN
        and card.symbol is not Symbol.STRAIGHT
        and not counter
    ):
        return Problem(0, card.id, "after_immelmann", IMMELMANN_AFTER_RULE)
    if (
        card.symbol is Symbol.IMMELMANN
        and (previous is None or previous.symbol is not Symbol.STRAIGHT)
        and not counter
    ):
        return Problem(0, card.id, "immelmann_without_straight", IMMELMANN_BEFORE_RULE)
    if (
        restrictions.steep_after_turn_or_straight
        and card.is_steep
        and (previous is None or previous.steep or previous.symbol not in TURN_OR_STRAIGHT)
    ):
        return Problem(0, card.id, "steep_without_turn_or_straight", STEEP_003_RULE)
    return None


PREVIOUS: list[Flown | None] = [None] + [
    Flown(symbol, steep) for symbol in Symbol for steep in (False, True)
]
RESTRICTIONS = [Restrictions(a, b) for a in (False, True) for b in (False, True)]


def _cards(catalog: Catalog) -> list[ManeuverCard]:
    cards = [c for deck in catalog.maneuver_decks.values() for c in deck.cards]
    # a card of each symbol with its steepness said either way in the file, or not said
    extra = [
        ManeuverCard(id=f"x-{symbol.value}-{steep}", symbol=symbol, steep=steep, forward=5.0)
        for symbol in Symbol
        for steep in (None, False, True)
    ]
    return cards + extra


@pytest.fixture(scope="module")
def cards() -> list[ManeuverCard]:
    return _cards(load_catalog())


def _check(
    previous: Flown | None, card: ManeuverCard, opening: bool, restrictions: Restrictions
) -> None:
    expected = plain_card_problem(previous, card, opening, restrictions)
    assert card_problem(previous, card, opening, restrictions) == expected
    if not may_break(previous, flown(card)):
        assert expected is None


def test_every_card_after_every_maneuver(cards: list[ManeuverCard]) -> None:
    for previous, card, opening, restrictions in itertools.product(
        PREVIOUS, cards, (False, True), RESTRICTIONS
    ):
        _check(previous, card, opening, restrictions)


@settings(deadline=None)  # no timing: the machine may be loaded
@given(data=st.data())
def test_drawn_cases_agree(data: st.DataObject) -> None:
    card = data.draw(st.sampled_from(_CARDS))
    previous = data.draw(st.sampled_from(PREVIOUS))
    _check(previous, card, data.draw(st.booleans()), data.draw(st.sampled_from(RESTRICTIONS)))


_CARDS = _cards(load_catalog())
