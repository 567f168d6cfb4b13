"""Why a computer player chose its plan: the optional ``explain`` of the bot protocol."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from dogfight.bots.base import Explains, Explanation, explanation, make
from dogfight.catalog.loader import Catalog
from dogfight.rules.observation import observe, side_seat
from dogfight.rules.plans import Plan
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


def _play(*extra: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "dogfight", "play", "duel", "--vs", "hard", "--seed", "3", *extra],
        input="1 2 3\nq\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_terminal_play_explains_the_bot_after_each_turn() -> None:
    """`dogfight play --vs BOT --explain`: once the turn is flown (its plans public), the
    browser's "why", in the same words; never before, and not without ``--explain``."""
    said = _play("--explain")
    why = [line for line in said.splitlines() if line.startswith("Why albatros flew ")]
    assert len(why) == 1, said
    assert "(hard bot, turn 1): " in why[0] and why[0].count(": value ") == 3
    assert said.index("Turn 1, phase 3.") < said.index(why[0]) < said.index("--- Turn 2 ---")
    assert "Why " not in _play()


class _Raises:
    name = "raises"

    def explain(self) -> Explanation:
        raise RuntimeError("a bug in the bot")


class _Says:
    name = "says"

    def __init__(self, said: object) -> None:
        self.said = said

    def explain(self) -> Explanation:
        return self.said  # type: ignore[return-value]


def test_an_explanation_is_checked_and_a_failing_one_is_nothing() -> None:
    """What a game takes of a bot's explain(): plain ids and floats, three plans at most,
    only for vehicles whose first plan is the plan it flies; a bot whose explain() fails
    or answers nonsense says nothing (and its plans stand: the server takes them first)."""
    plan = Plan(cards=("1", "2", "3"))
    assert explanation(_Raises(), {"a": plan}) == {}
    assert explanation(_Says(["not", "a", "dict"]), {"a": plan}) == {}
    ranked = [(("1", "2", "3"), 2), (["4", "5", "6"], "1.5"), (("1", "1", "1"), 1), (("2",), 0)]
    said = _Says({"a": ranked, "b": [(("9", "9", "9"), 1.0)], "c": ranked})
    assert explanation(said, {"a": plan, "b": plan}) == {
        "a": [(("1", "2", "3"), 2.0), (("4", "5", "6"), 1.5), (("1", "1", "1"), 1.0)]
    }
    assert set(explanation(said)) == {"a", "b", "c"}
