"""``resolve_or_ask`` is ``pending_decisions`` and ``resolve_phase`` in one run: the same
decisions while any is unanswered, else the same state and events (or the same
refusal). The server asks whether a phase waits for anyone and then resolves it with
this one run, so any difference would change a game's transcript."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import card_id, plane, situation, state_of, straights

from dogfight.bots.random_plans import random_plans
from dogfight.catalog import load_catalog
from dogfight.errors import IllegalPlanError
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import pending_decisions, resolve_or_ask, resolve_phase, start_turn
from dogfight.rules.events import Event
from dogfight.rules.plans import Plan
from dogfight.rules.state import GameState
from dogfight.sim.duel import duel_situation, melee_situation
from dogfight.situation.format import build

TYPE = "spad-xiii"
PREY = tuple(straights(TYPE)[:3])


def _tailing() -> GameState:
    """002's tailing: the hunter right behind the prey is asked to reorder its cards."""
    sit = situation(
        plane("hunter", TYPE, "allies", 30.0, 50.0, 0.0, plans=[]),
        plane("prey", TYPE, "central", 60.0, 50.0, 0.0, plans=[]),
        ruleset="wow",
    )
    cards = (straights(TYPE)[0], straights(TYPE)[1], card_id(TYPE, "left"))
    state, _ = start_turn(state_of(sit), {"hunter": Plan(cards=cards), "prey": Plan(cards=PREY)})
    return state


def _same(got: tuple[GameState, list[Event]], expected: tuple[GameState, list[Event]]) -> None:
    assert [e.to_json() for e in got[1]] == [e.to_json() for e in expected[1]]
    assert got[0] == expected[0]


def test_a_decision_asked_then_the_phase_resolved_with_its_answer() -> None:
    state = _tailing()
    asked = resolve_or_ask(state, step_rng(5, 1, 1))
    assert asked.decisions == pending_decisions(state, step_rng(5, 1, 1))
    assert [d.kind for d in asked.decisions] == ["tailing"]
    with pytest.raises(AssertionError):
        asked.result()
    decision = asked.decisions[0]
    answers = {decision.id: (decision.options[1], decision.options[0], decision.options[2])}
    done = resolve_or_ask(state, step_rng(5, 1, 1), answers=answers)
    assert done.decisions == []
    _same(done.result(), resolve_phase(state, step_rng(5, 1, 1), answers=answers))


def test_an_answer_to_no_decision_is_refused_the_same_way() -> None:
    state = _tailing()
    decision = resolve_or_ask(state, step_rng(5, 1, 1)).decisions[0]
    answers: dict[str, Any] = {decision.id: decision.options, "nothing:1": ["x"]}
    with pytest.raises(IllegalPlanError, match="no such decision"):
        resolve_phase(state, step_rng(5, 1, 1), answers=answers)
    with pytest.raises(IllegalPlanError, match="no such decision"):
        resolve_or_ask(state, step_rng(5, 1, 1), answers=answers)


@pytest.mark.parametrize("seed", range(40))
def test_random_games_resolve_the_same_phase_by_phase(seed: int) -> None:
    """Random plans on duels and 4-plane melees: every phase, the one run gives what
    resolve_phase gives (the decisions' defaults taken when any is asked)."""
    catalog = load_catalog()
    sit = melee_situation(4) if seed % 4 == 0 else duel_situation()
    state = build(sit, catalog, seed)
    planner = np.random.default_rng(seed)
    phases = 0
    while not state.over and state.turn <= 8:
        state, _ = start_turn(state, random_plans(state, planner))
        while not state.over:
            rng_args: Any = (seed, state.turn, state.phase + 1)
            outcome = resolve_or_ask(state, step_rng(*rng_args))
            assert outcome.decisions == pending_decisions(state, step_rng(*rng_args))
            answers = {d.id: d.default for d in outcome.decisions}
            if answers:
                outcome = resolve_or_ask(state, step_rng(*rng_args), answers=answers)
            expected = resolve_phase(state, step_rng(*rng_args), answers=answers)
            _same(outcome.result(), expected)
            state = expected[0]
            phases += 1
            if state.phase == 0:
                break
    assert phases > 0
