"""The steps a phase runs (``steps.of_phase``): on a plain table, without the optional
systems' steps, the very state and events all the steps give (issue 13: a dozen steps
that return at once cost as much as a move, every phase)."""

from __future__ import annotations

import numpy as np
import pytest

from dogfight.bots.random_plans import random_plans
from dogfight.catalog.loader import Catalog
from dogfight.rules import steps
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.events import Event
from dogfight.rules.state import GameState
from dogfight.sim.duel import duel_situation, melee_situation, tripods_situation
from dogfight.situation.format import build


def _every_step(state: GameState) -> tuple[tuple[steps.Step, ...], tuple[steps.Step, ...]]:
    return steps.MOVEMENT, steps.FIRING


def test_plain_lists_keep_the_order_and_the_steps_every_table_needs() -> None:
    plain = (steps.burn, steps.reveal_cards, steps.fly, steps.leave_table)
    assert plain == steps.PLAIN_MOVEMENT
    assert (steps.fire, steps.victory, steps.turn_end) == steps.PLAIN_FIRING
    assert len(steps.OPTIONAL) + len(plain) + 3 == len(steps.MOVEMENT) + len(steps.FIRING)


def test_tables_with_an_optional_system_run_every_step(catalog: Catalog) -> None:
    tripods = build(tripods_situation(), catalog, 0)
    assert not steps.plain(tripods)
    assert steps.of_phase(tripods) == (steps.MOVEMENT, steps.FIRING)
    duel = build(duel_situation(), catalog, 0)
    assert steps.plain(duel)
    bomber = duel.copy()
    next(iter(bomber.vehicles.values())).bombs = 1
    assert not steps.plain(bomber)


@pytest.mark.parametrize("seed", range(12))
def test_plain_phases_resolve_as_with_every_step(
    catalog: Catalog, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random duels and melees, phase by phase: the plain lists give what every step
    gives (state and events), and the tables were plain."""
    sit = melee_situation(4) if seed % 3 == 0 else duel_situation()
    state = build(sit, catalog, seed)
    planner = np.random.default_rng(seed)
    plain_phases = 0
    while not state.over and state.turn <= 6:
        state, _ = start_turn(state, random_plans(state, planner))
        while not state.over:
            rng_args = (seed, state.turn, state.phase + 1)
            plain_phases += steps.plain(state)
            got: tuple[GameState, list[Event]] = resolve_phase(state, step_rng(*rng_args))
            with monkeypatch.context() as m:
                m.setattr(steps, "of_phase", _every_step)
                expected = resolve_phase(state, step_rng(*rng_args))
            assert [e.to_json() for e in got[1]] == [e.to_json() for e in expected[1]]
            assert got[0] == expected[0]
            state = got[0]
            if state.phase == 0:
                break
    assert plain_phases > 0
