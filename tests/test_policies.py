"""Registered bots as policies of the PettingZoo environment (``dogfight.research.policies``):
whole games played with them, from the agent's own seat alone, replayed exactly."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from dogfight.errors import DataError
from dogfight.research import policies
from dogfight.research.pettingzoo_env import DogfightParallelEnv


def _game(env: DogfightParallelEnv, policy: policies.BotPolicy, seed: int) -> list[Any]:
    """A whole episode with ``policy`` flying every agent: what happened, in order."""
    _, infos = env.reset(seed=seed)
    trace: list[Any] = []
    while env.agents:
        actions = {agent: policy(env, agent) for agent in env.agents}
        for agent, action in actions.items():
            assert infos[agent]["action_mask"][action] == 1  # never an illegal plan
        _, rewards, _, _, infos = env.step(actions)
        trace.append((actions, rewards))
    return trace


def test_the_hard_bot_plays_a_pettingzoo_duel() -> None:
    env = DogfightParallelEnv(None, max_turns=6)
    policy = policies.load("hard", seed=3)
    trace = _game(env, policy, seed=5)
    assert trace and (env.state_.over or env.state_.turn > 6)
    # the action flies the plan the bot chose and explained (its best, first)
    [(cards, _value), *_] = policy.why("allied")["allied"]
    assert len(cards) == 3
    # the same seeds, the same game
    assert _game(DogfightParallelEnv(None, max_turns=6), policies.load("hard", seed=3), 5) == trace


def test_the_action_is_the_bots_plan() -> None:
    env = DogfightParallelEnv(None, max_turns=3)
    env.reset(seed=2)
    policy = policies.load("hard")
    action = policy(env, "allied")
    [(best, _), *_] = policy.why("allied")["allied"]
    assert env.plans("allied")[action] == best


def test_a_policy_sees_only_its_own_seat() -> None:
    """Two states that differ only in the other seat's secrets (its damage cards) give
    the same action."""
    env = DogfightParallelEnv(None, max_turns=3)
    env.reset(seed=4)
    first = policies.load("hard", seed=1)(env, "allied")
    secret = copy.deepcopy(env)
    enemy = secret.state_.vehicles["central"]
    enemy.damage = enemy.resistance - 1
    assert policies.load("hard", seed=1)(secret, "allied") == first


def test_bots_that_fly_no_airplane_or_none_at_all_are_refused() -> None:
    with pytest.raises(DataError, match="known bots"):
        policies.load("deep-blue")
    with pytest.raises(DataError, match="fly airplanes"):
        policies.load("automated-tripod")


def test_the_random_bot_too_plays_with_a_seed() -> None:
    env = DogfightParallelEnv(None, max_turns=4)
    trace = _game(env, policies.load("random", seed=9), seed=1)
    again = _game(DogfightParallelEnv(None, max_turns=4), policies.load("random", seed=9), seed=1)
    assert trace == again
    assert np.isfinite([r for _, rewards in trace for r in rewards.values()]).all()


def test_a_policy_answers_its_agents_decisions() -> None:
    """Tailing (002): the hard bot reorders the tailing agent's cards in the decision
    steps; the action gives the order it chose."""
    from test_pettingzoo_tailing import tailing

    from dogfight.bots.base import make
    from dogfight.bots.decide import decide
    from dogfight.research.decisions import answer
    from dogfight.rules.observation import observe

    env = DogfightParallelEnv(tailing(), side="allies", max_turns=2)
    env.reset(seed=4)
    policy = policies.load("hard", seed=2)
    asked = 0
    while env.agents:
        decision = env.decision("spad")
        if decision is not None:
            asked += 1
            action = policy(env, "spad")
            seat = frozenset({"spad"})
            state = env.state_
            rng = np.random.default_rng([2, state.turn, state.phase, 1])
            chosen = decide(
                make("hard"), observe(state, seat, [decision]), state.rules, seat, [decision], rng
            )
            assert answer(decision, action) == tuple(chosen.get(decision.id, decision.default))
        env.step({agent: policy(env, agent) for agent in env.agents})
    assert asked >= 1
