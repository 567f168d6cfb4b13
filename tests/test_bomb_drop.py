"""Bombs dropped phase by phase (issue 30 item 3). 001: "After action cards are chosen and
before revealing any maneuvers, each bomber's player can decide to drop one or more loads
of bombs." The drop is a decision of the bomber's seat in each action phase
(``bomb_drop:<bomber>@turn.phase``), asked once the tripods' tokens are placed and before
the reveal; the plan's ``drop`` is only its default. "Bombs cannot be dropped immediately
after an Immelmann/Split-S maneuver." """

from __future__ import annotations

import pytest
from conftest import Json, of, situation
from test_rules_bombs import CAMEL, SCARAB, bomber, target
from test_rules_tripods import planned as planned_state

from dogfight.bots.decide import decide, drop_bombs
from dogfight.catalog.models import Symbol
from dogfight.errors import IllegalPlanError
from dogfight.rules.bombs import DROP, DROP_RULE, IMMELMANN_RULE
from dogfight.rules.chance import step_rng
from dogfight.rules.decisions import Decision, for_seat
from dogfight.rules.engine import pending_decisions, resolve_phase
from dogfight.rules.events import BombsDropped
from dogfight.rules.observation import observe
from dogfight.rules.plans import Flown
from dogfight.rules.state import GameState

ID = "bomb_drop:camel@1.1"
TOKEN = {"action_token:scarab@1.1": ["none"]}  # the Scarab's action card, chosen first


def table(drop: int = 1, loads: int = 1, dot: tuple[float, float] = (45.0, 47.0)) -> GameState:
    """The Camel planning ``drop`` loads in phase 1 (of ``loads``), its bomb card's dot
    landing at ``dot``; the Scarab standing at (45, 45)."""
    sit: Json = situation(
        target("scarab", SCARAB, 45.0, 45.0, 270.0, None),
        bomber("camel", CAMEL, dot, drop, loads),
    )
    return planned_state(sit)


def asked(state: GameState, answers: dict[str, list[str]] | None = None) -> list[Decision]:
    return pending_decisions(state, step_rng(0, 1, 1), answers={**TOKEN, **(answers or {})})


def dropped(state: GameState, answers: dict[str, list[str]]) -> list[BombsDropped]:
    _, events = resolve_phase(state, step_rng(0, 1, 1), answers={**TOKEN, **answers})
    return list(of(events, BombsDropped))


def test_the_drop_is_asked_after_the_tokens_and_before_the_reveal() -> None:
    """001: "After action cards are chosen and before revealing any maneuvers": the
    tripod's token is asked first, then the bomber's drop, before any card is shown."""
    state = table()
    (token,) = pending_decisions(state, step_rng(0, 1, 1))
    assert token.kind == "action_token"
    (d,) = asked(state)
    assert (d.id, d.kind, d.vehicle, d.rule) == (ID, DROP, "camel", DROP_RULE)
    assert d.options == ("0", "1") and d.default == ("1",)  # the plan's drop
    assert d.shown["loads"] == 1 and d.shown["card"] is not None
    assert for_seat([d], frozenset({"scarab"})) == []


@pytest.mark.parametrize(("answer", "loads"), [("0", []), ("1", [1])])
def test_the_seat_decides_the_drop_not_the_plan(answer: str, loads: list[int]) -> None:
    """001: "each bomber's player can decide to drop one or more loads of bombs"."""
    assert [e.loads for e in dropped(table(drop=0), {ID: [answer]})] == loads
    assert [e.loads for e in dropped(table(drop=1), {ID: [answer]})] == loads


def test_unanswered_the_plans_drop_stands() -> None:
    assert [e.loads for e in dropped(table(drop=1), {})] == [1]
    assert dropped(table(drop=0), {}) == []


def test_no_more_loads_than_are_left() -> None:
    with pytest.raises(IllegalPlanError, match="load"):
        asked(table(loads=1), {ID: ["2"]})


def test_no_drop_right_after_an_immelmann() -> None:
    """001: "Bombs cannot be dropped immediately after an Immelmann/Split-S maneuver." """
    state = table(drop=0, loads=2)
    state.vehicles["camel"].previous = Flown(Symbol.IMMELMANN, False)
    (d,) = asked(state)
    assert d.options == ("0",)
    with pytest.raises(IllegalPlanError, match="Immelmann") as refused:
        asked(state, {ID: ["1"]})
    assert IMMELMANN_RULE in str(refused.value)


def test_the_bot_drops_where_the_dot_falls_on_a_tripod() -> None:
    """By eye, with the tripods where they stand: every load when the dot falls on the
    Scarab's base, none when the card falls far from it."""
    for dot, answer in (((45.0, 47.0), "2"), ((45.0, 80.0), "0")):
        state = table(drop=0, loads=2, dot=dot)
        (d,) = asked(state)
        seen = observe(state, frozenset({"camel"}), [d])
        assert drop_bombs(seen, state.rules, d) == (answer,)
        got = decide(object(), seen, state.rules, frozenset({"camel"}), [d], None)  # type: ignore[arg-type]
        assert got == {ID: (answer,)}


def test_terminal_play_asks_the_drop() -> None:
    from dogfight.cli.terminal_play import _human_decision

    state = table(drop=0, loads=1)
    (d,) = asked(state)
    said: list[str] = []
    typed = iter(["3", "1"])
    assert _human_decision(state, d, lambda _p: next(typed), said.append) == ("1",)
    assert any("carries 1 load of bombs" in line for line in said)
    assert _human_decision(state, d, lambda _p: "", said.append) == ("0",)
