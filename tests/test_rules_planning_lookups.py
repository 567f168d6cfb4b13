"""The look-ups of planning and revealing (issue 13): a type's maneuver cards by id
(``Rules.maneuver_cards``) are its deck's, ``check_plan_shape`` gives the same cards and
refusals with them as with ``deck.card``, and the fire choices are checked with or
without a target named."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

from dogfight.catalog.loader import Catalog
from dogfight.errors import IllegalPlanError, UnknownCardError
from dogfight.rules.engine import start_turn
from dogfight.rules.plans import Plan, check_plan_shape
from dogfight.rules.turns import allowed_symbols
from dogfight.sim.duel import duel_situation
from dogfight.situation.format import build


def test_maneuver_cards_are_the_decks_cards_by_id(catalog: Catalog) -> None:
    state = build(duel_situation(), catalog, 0)
    for type_id in catalog.airplanes:
        deck = state.rules.deck_of(type_id)
        cards = state.rules.maneuver_cards(type_id)
        assert cards == {c.id: c for c in deck.cards}
        assert all(cards[c.id] is deck.card(c.id) for c in deck.cards)
        assert state.rules.maneuver_cards(type_id) is cards


def _outcome(call: Callable[[], object]) -> object:
    try:
        return call()
    except (IllegalPlanError, UnknownCardError) as exc:
        return (type(exc), str(exc))


def test_plan_shape_is_the_same_with_the_cards_by_id(catalog: Catalog) -> None:
    state = build(duel_situation(), catalog, 0)
    vehicle = next(iter(state.vehicles.values()))
    deck = state.rules.deck_of(vehicle.type)
    ids = [c.id for c in deck.cards]
    symbols = allowed_symbols(state)
    by_id = state.rules.maneuver_cards(vehicle.type)
    plans = [
        (ids[0], ids[1], ids[2]),
        (ids[0], "99", ids[2]),
        (ids[0], ids[1], ids[0]),
        (ids[3], ids[3], "nope"),
        (ids[0], ids[1]),
        tuple(ids[-3:]),
    ]
    for cards in plans:
        plan = Plan(cards=cards)
        plain = _outcome(partial(check_plan_shape, vehicle.id, plan, deck, symbols))
        fast = _outcome(partial(check_plan_shape, vehicle.id, plan, deck, symbols, by_id=by_id))
        assert fast == plain, cards


def test_fire_choices_name_an_enemy_or_nothing(catalog: Catalog) -> None:
    state = build(duel_situation(), catalog, 0)
    first, second = sorted(state.vehicles)
    ids = [c.id for c in state.rules.deck_of(state.vehicles[first].type).cards[:3]]
    other = [c.id for c in state.rules.deck_of(state.vehicles[second].type).cards[:3]]

    def plans(fire: tuple[str, ...]) -> dict[str, Plan]:
        return {first: Plan(cards=tuple(ids), fire=fire), second: Plan(cards=tuple(other))}

    for fire in (("auto", "none", "auto"), ("none", "none", "none"), (second, "auto", "none")):
        new, _ = start_turn(state, plans(fire))
        plan = new.vehicles[first].plan
        assert plan is not None and plan.fire == fire
    for bad in (first, "nobody"):
        with pytest.raises(IllegalPlanError, match=f"fire choice '{bad}'"):
            start_turn(state, plans(("auto", bad, "auto")))
