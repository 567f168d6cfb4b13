"""Every engine decision is answered by whoever plays the seat, in `simulate` and in the
PettingZoo environment as on the server: not only 002's reorder after tailing, but a
tripod's direction at the reveal of its secret action card (001, ruling V2)."""

from __future__ import annotations

import numpy as np
import pytest

from dogfight.bots.base import make
from dogfight.bots.decide import decide
from dogfight.catalog.loader import load_catalog
from dogfight.research.pettingzoo_env import DogfightParallelEnv
from dogfight.rules.action_tokens import KIND as TOKEN
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import may_ask, pending_decisions, resolve_phase
from dogfight.rules.observation import observe, side_seat
from dogfight.rules.tripod_reveal import KIND as DIRECTION
from dogfight.sim.duel import duel_situation
from dogfight.sim.run import _decisions, start_refereed
from dogfight.situation.format import build
from dogfight.situation.scenarios import scenario_situation

CATALOG = load_catalog()


def test_a_phase_may_ask_only_where_a_rule_asks() -> None:
    """A Wings of Glory duel never asks anything (no replay needed); 002's tailing asks
    before the second and third maneuvers; secret action cards ask at every reveal."""
    duel = build(duel_situation(), CATALOG, 1)
    assert not any(may_ask(duel, phase) for phase in (1, 2, 3))
    tripods = build(scenario_situation(CATALOG, "captured-tripods"), CATALOG, 1)
    assert all(may_ask(tripods, phase) for phase in (1, 2, 3))
    bombers = build(scenario_situation(CATALOG, "bombers-over-the-tripods"), CATALOG, 1)
    assert may_ask(bombers, 1)


def test_simulate_lets_the_bots_place_their_tripods_directions() -> None:
    """`simulate` answers each direction decision as the seat's bot does (facing the
    nearest enemy), not with the direction written on the card."""
    seed = 1
    state = build(scenario_situation(CATALOG, "captured-tripods"), CATALOG, seed)
    players = {side: make("martian") for side in ("earth", "martians")}
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(4):
        plans = {}
        for side, bot in players.items():
            seat = side_seat(state, side)
            plans.update(bot.plan_turn(observe(state, seat), state.rules, seat, rng))
        state, _, _ = start_refereed(state, plans)
        for phase in (1, 2, 3):
            actions = {}
            for side, bot in players.items():
                seat = side_seat(state, side)
                acts, _ = bot.phase_actions(observe(state, seat), state.rules, seat, phase, rng)
                actions.update(acts)
            turn_rng = step_rng(seed, state.turn, phase)
            rngs = {side: np.random.default_rng(0) for side in players}
            answers = _decisions(state, phase, seed, actions, {}, players, sorted(players), rngs)
            # the action cards are chosen first (a decision of their own), then revealed
            placed = {k: v for k, v in answers.items() if k.startswith(f"{TOKEN}:")}
            first = [
                d
                for d in pending_decisions(state, turn_rng, actions, answers=placed)
                if d.kind == DIRECTION
            ]
            for d in first:
                side = next(s for s in players if d.vehicle in side_seat(state, s))
                seat = side_seat(state, side)
                seen = observe(state, seat, [d])
                expected = decide(players[side], seen, state.rules, seat, [d], rngs[side])
                assert answers[d.id] == expected[d.id]
                checked += 1
            state, _ = resolve_phase(
                state, step_rng(seed, state.turn, phase), actions, answers=answers
            )
    assert checked


def test_pettingzoo_lets_the_opponent_bot_place_its_tripods_directions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bombers over the tripods (001's secret action cards): the Martian bot playing the
    other side places its tripods' directions at the reveal, as in `simulate`."""
    import dogfight.research.pettingzoo_env as module

    kinds: list[str] = []

    def spy(bot, seen, rules, seat, decisions, rng):  # type: ignore[no-untyped-def]
        kinds.extend(d.kind for d in decisions)
        return decide(bot, seen, rules, seat, decisions, rng)

    monkeypatch.setattr(module, "decide", spy)
    env = DogfightParallelEnv("bombers-over-the-tripods", side="earth", max_turns=4)
    observations, _ = env.reset(seed=5)
    for _ in range(12):
        if not env.agents:
            break
        actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in env.agents}
        observations, *_ = env.step(actions)
        if DIRECTION in kinds:
            break
    assert DIRECTION in kinds
    assert TOKEN in kinds  # and its action cards, chosen at the start of each phase
