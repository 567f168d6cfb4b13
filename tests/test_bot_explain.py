"""Why a computer player chose its plan: the optional ``explain`` of the bot protocol."""

from __future__ import annotations

import numpy as np

from dogfight.bots.base import Explains, explanation, make
from dogfight.catalog.loader import Catalog
from dogfight.rules.observation import observe, side_seat
from dogfight.sim.duel import duel_situation
from dogfight.situation.format import build


def test_the_hard_bot_explains_its_plan_with_its_three_best(catalog: Catalog) -> None:
    state = build(duel_situation(), catalog, 0)
    seat = side_seat(state, "allies")
    bot = make("hard")
    assert isinstance(bot, Explains)
    plans = bot.plan_turn(observe(state, seat), state.rules, seat, np.random.default_rng(3))
    why = explanation(bot)
    assert set(why) == set(plans)
    deck = {card.id for card in state.rules.deck_of(state.vehicles[next(iter(seat))].type).cards}
    for vid, ranked in why.items():
        assert len(ranked) == 3
        assert ranked[0][0] == plans[vid].cards  # the first is the plan it chose
        values = [value for _, value in ranked]
        assert values == sorted(values, reverse=True)
        assert all(isinstance(value, float) for value in values)
        assert len({cards for cards, _ in ranked}) == 3
        assert all(len(cards) == 3 and set(cards) <= deck for cards, _ in ranked)


def test_a_bot_without_explain_says_nothing(catalog: Catalog) -> None:
    state = build(duel_situation(), catalog, 0)
    seat = side_seat(state, "allies")
    bot = make("random")
    bot.plan_turn(observe(state, seat), state.rules, seat, np.random.default_rng(1))
    assert not isinstance(bot, Explains)
    assert explanation(bot) == {}
