"""The PettingZoo environment for the airplane side: the API test, exact replays from a
seed, action masks, and observations that hold nothing the seat cannot see."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

from dogfight.catalog.loader import Catalog
from dogfight.geometry.pose import Pose
from dogfight.research.pettingzoo_env import SIZE, DogfightParallelEnv
from dogfight.rules.events import DamageDrawn, Revealed, SpeedRevealed


@pytest.mark.parametrize(
    "table", [None, "a-spark-of-hope", "alsace-again", "wings-over-the-flanders"]
)
def test_parallel_api(table: str | None) -> None:
    env = DogfightParallelEnv(table, max_turns=8)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        # a reinforcement that never entered (the first airplane survived) is a possible
        # agent that was never live, so it cannot be terminated: PettingZoo only warns
        warnings.filterwarnings("ignore", "No agents present but not all possible_agents")
        parallel_api_test(env, num_cycles=40)


def _episode(env: DogfightParallelEnv, seed: int, actions_seed: int) -> list[Any]:
    """Play a whole episode with masked random actions; everything seen, in order."""
    chooser = np.random.default_rng(actions_seed)
    obs, infos = env.reset(seed=seed)
    trace: list[Any] = [sorted(env.agents)]
    trace += [(a, obs[a]["observation"].tolist(), obs[a]["action_mask"].tolist()) for a in obs]
    while env.agents:
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(infos[agent]["action_mask"])
            actions[agent] = int(chooser.choice(legal))
        obs, rewards, terminated, truncated, infos = env.step(actions)
        trace.append(
            [
                (a, obs[a]["observation"].tolist(), rewards[a], terminated[a], truncated[a])
                for a in sorted(obs)
            ]
        )
    return trace


@pytest.mark.parametrize(
    "table", [None, "a-spark-of-hope", "alsace-again", "wings-over-the-flanders"]
)
def test_same_seed_same_episode(table: str | None) -> None:
    env = DogfightParallelEnv(table, max_turns=6)
    first = _episode(env, seed=7, actions_seed=1)
    assert _episode(env, seed=7, actions_seed=1) == first
    assert _episode(DogfightParallelEnv(table, max_turns=6), seed=7, actions_seed=1) == first
    assert _episode(env, seed=8, actions_seed=1) != first


def test_spaces_masks_and_rewards(catalog: Catalog) -> None:
    env = DogfightParallelEnv(max_turns=5, catalog=catalog)
    obs, infos = env.reset(seed=3)
    assert env.agents == ["allied"]
    space = env.observation_space("allied")
    assert space.contains(obs["allied"])
    assert obs["allied"]["observation"].shape == (SIZE,)
    n = env.action_space("allied").n
    plans = env.plans("allied")
    assert len(plans) == n == len(set(plans))
    mask = infos["allied"]["action_mask"]
    assert mask.shape == (n,) and 0 < mask.sum() < n
    # an action outside the mask flies the first legal plan
    illegal = int(np.flatnonzero(mask == 0)[0])
    start = env.state_.vehicles["allied"].pose
    env.step({"allied": illegal})
    first = plans[int(np.argmax(mask))]
    revealed = [e.card for e in env.events if isinstance(e, Revealed) and e.vehicle == "allied"]
    assert tuple(revealed[:3]) == first
    assert start != env.state_.vehicles["allied"].pose or env.state_.over


def test_rewards_are_damage_dealt_minus_taken(catalog: Catalog) -> None:
    env = DogfightParallelEnv(max_turns=12, catalog=catalog)
    _, infos = env.reset(seed=5)
    total = 0.0
    while env.agents:
        legal = np.flatnonzero(infos["allied"]["action_mask"])
        _, rewards, _, _, infos = env.step({"allied": int(legal[0])})
        total += rewards["allied"]
    drawn = [e for e in env.events if isinstance(e, DamageDrawn)]
    dealt = sum(e.points for e in drawn if e.source.startswith("allied "))
    taken = sum(e.points for e in drawn if e.vehicle == "allied")
    assert total == dealt - taken


def test_observations_hide_enemy_damage(catalog: Catalog) -> None:
    env = DogfightParallelEnv(max_turns=5, catalog=catalog)
    env.reset(seed=1)
    env.state_.vehicles["allied"].pose = Pose(40.0, 40.0, 90.0)
    before = env.vector("allied").copy()
    env.state_.vehicles["central"].damage = 9
    assert np.array_equal(env.vector("allied"), before)
    env.state_.vehicles["allied"].damage = 3
    assert not np.array_equal(env.vector("allied"), before)


def test_ww2_steps_are_earthling_turns() -> None:
    """001: "Three consecutive Earthling game turns are equivalent to a Martian game
    turn": with WW2 airplanes one step is one action phase, an action one card and one
    speed marker (every one the airplane may fly)."""
    env = DogfightParallelEnv("alsace-again", max_turns=4)
    _obs, infos = env.reset(seed=3)
    agent = env.agents[0]
    options = env.choices(agent)
    assert int(env.action_space(agent).n) == len(options)
    speeds = env.state_.rules.airplane(env._types[agent]).speeds
    assert {s for _, s in options} == set(speeds)
    played = env.state_.phases_played
    legal = {a: int(np.flatnonzero(infos[a]["action_mask"])[0]) for a in env.agents}
    env.step(legal)
    assert env.state_.phases_played == played + 1
    revealed = [e for e in env.events if isinstance(e, SpeedRevealed)]
    assert revealed and all(e.phase == 1 for e in revealed)


@pytest.mark.parametrize(("side", "mine"), [("allies", 1.0), ("central", 0.0)])
def test_target_cards_are_in_the_observation(catalog: Catalog, side: str, mine: float) -> None:
    """002's target cards lie open on the table ("Place target cards (for bombing/photo
    missions) as specified in scenarios"): every agent sees where the card is, whose
    mission it is, whether it carries it and whether it is still to do."""
    from dogfight.research.pettingzoo_env import (
        ENEMIES,
        ENEMY_SIZE,
        FRIEND_SIZE,
        FRIENDS,
        OBJECTIVE_SIZE,
        OBJECTIVES,
        OWN_SIZE,
        TARGET_SIZE,
    )

    env = DogfightParallelEnv("wings-over-the-flanders", side=side, max_turns=3, catalog=catalog)
    observations, _ = env.reset(seed=4)
    at = OWN_SIZE + ENEMIES * ENEMY_SIZE + FRIENDS * FRIEND_SIZE + OBJECTIVES * OBJECTIVE_SIZE
    for agent, seen in observations.items():
        card = seen["observation"][at : at + TARGET_SIZE]
        carries = 1.0 if agent == "breguet" else 0.0
        assert card[0] == 1.0 and card[3] == mine and card[5] == 1.0
        assert card[4] == carries
        assert abs(card[1]) > 0 or abs(card[2]) > 0  # the card, in the agent's own frame
