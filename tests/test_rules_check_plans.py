"""``check_plans`` is ``start_turn``'s checks (issue 13): with ``alone`` (a seat's plans,
checked at every submit and draft without copying the state) it accepts and refuses,
word for word, what ``start_turn`` does on a copy of the state with every other vehicle
set aside, and ``start_turn`` puts down the plans it returns."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dogfight.bots.random_plans import random_plans
from dogfight.catalog.loader import Catalog
from dogfight.errors import DogfightError
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import check_plans, resolve_phase, start_turn
from dogfight.rules.plans import Action, Plan
from dogfight.rules.state import GameState
from dogfight.sim.duel import duel_situation, melee_situation, tripods_situation
from dogfight.situation.format import Situation, build, parse_situation

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _situations() -> list[tuple[str, Situation]]:
    out = [
        ("duel", duel_situation()),
        ("tripods", tripods_situation()),
        ("melee6", melee_situation(6)),
    ]
    for path in sorted(EXAMPLES.glob("*.json")):
        out.append((path.name, parse_situation(json.loads(path.read_text()), str(path))))
    return out


def _set_aside(state: GameState, plans: dict[str, Plan]) -> dict[str, Plan | None]:
    """How a seat's plans were checked before ``check_plans``: ``start_turn`` on a copy
    of the state with every other vehicle in play set aside."""
    trial = state.copy()
    for vehicle in trial.vehicles.values():
        if vehicle.in_play and vehicle.id not in plans:
            vehicle.eliminated = "(set aside)"
    new, _ = start_turn(trial, plans)
    return {vid: new.vehicles[vid].plan for vid in plans}


def _outcome(call: Callable[[], object]) -> object:
    try:
        return call()
    except DogfightError as exc:
        return (type(exc).__name__, str(exc))


def _planning_points(catalog: Catalog, situation: Situation, seed: int) -> Iterator[GameState]:
    """The states of a random game where plans are due (at most a few turns)."""
    state = build(situation, catalog, seed)
    rng = np.random.default_rng(seed)
    while not state.over and state.turn <= 3:
        due = state.phase == 0 and any(v.plan is None for v in state.in_play())
        due = due or (state.phase > 0 and bool(state.planning_due()))
        if due:
            yield state
        try:
            if due:
                state, _ = start_turn(state, random_plans(state, rng))
            else:
                state, _ = resolve_phase(state, step_rng(seed, state.turn, state.phase + 1))
        except DogfightError:
            return  # a random plan the damage forbids, an automated tripod's card due


def _variants(state: GameState, plans: dict[str, Plan], enemy: str) -> Iterator[dict[str, Plan]]:
    """The plans as given, and each broken in one way the engine refuses (or accepts)."""
    yield plans
    if not plans:
        return
    vid, plan = next(iter(plans.items()))
    broken: list[dict[str, Any]] = [
        {"cards": (*plan.cards[:-1], "no-such-card")},
        {"cards": plan.cards[:-1]},
        {"cards": (*plan.cards[:1], *plan.cards[:1], *plan.cards[2:])},
        {"fire": (vid, "auto", "auto")},
        {"fire": (enemy, "none", "auto")},
        {"rockets": (2, 2, 2)},
        {"drop": (1, 0, 0)},
        {"speeds": (3,)},
        {"automated": True},
        {"actions": (Action(token="heat_ray", projector="front"), None, None)},
    ]
    for update in broken:
        yield {**plans, vid: plan.model_copy(update=update)}
    yield {**plans, "nobody": plan}
    for other in state.vehicles.values():
        if other.id not in plans:
            yield {**plans, other.id: plan}  # out of play, or not due, or another seat's


@pytest.mark.parametrize(("name", "situation"), _situations(), ids=lambda x: str(x)[:30])
def test_alone_refuses_what_the_set_aside_copy_refuses(
    catalog: Catalog, name: str, situation: Situation
) -> None:
    checked = 0
    for seed in range(3):
        for state in _planning_points(catalog, situation, seed):
            full = random_plans(state, np.random.default_rng(seed + 7))
            sides = sorted({state.vehicles[vid].side for vid in full})
            groups: list[list[str]] = [[], *([vid] for vid in full)]
            groups += [[vid for vid in full if state.vehicles[vid].side == s] for s in sides]
            for group in groups:
                mine = {vid: full[vid] for vid in group}
                side = state.vehicles[group[0]].side if group else ""
                enemy = next((v.id for v in state.vehicles.values() if v.side != side), "x")
                for plans in _variants(state, mine, enemy):
                    before = _outcome(lambda: _set_aside(state, plans))  # noqa: B023
                    now = _outcome(lambda: check_plans(state, plans, alone=True))  # noqa: B023
                    assert now == before, (name, state.turn, state.phase, plans)
                    checked += 1
    assert checked > 0


def test_start_turn_puts_down_what_check_plans_returns(catalog: Catalog) -> None:
    for _, situation in _situations():
        for state in _planning_points(catalog, situation, 1):
            plans = random_plans(state, np.random.default_rng(3))
            placed = check_plans(state, plans)
            new, _ = start_turn(state, plans)
            assert {vid: new.vehicles[vid].plan for vid in placed} == placed
            assert all(
                v.plan is state.vehicles[v.id].plan
                for v in new.vehicles.values()
                if v.id not in placed
            )
