"""The batched Gymnasium VectorEnv: spaces, per-seat observations without secrets,
legal-plan masks, rewards that add up, autoreset."""

from __future__ import annotations

import numpy as np

from dogfight.batch.spec import IMMELMANN
from dogfight.research.batch_env import SIZE, DogfightVectorEnv
from dogfight.sim.duel import melee_situation


def test_vector_env_plays_turns_and_resets() -> None:
    env = DogfightVectorEnv(num_envs=16, seed=1)
    obs, info = env.reset(seed=2)
    assert info["agents"] == ("allied",)
    assert env.observation_space.contains(obs)
    assert obs["observation"].shape == (16, 1, SIZE)
    ended = 0
    for _ in range(40):
        action = env.action_space.sample()
        obs, reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(obs)
        assert reward.shape == (16,)
        assert np.allclose(reward, info["seat_rewards"].sum(axis=1))
        ended += int(terminated.sum() + truncated.sum())
    assert ended > 16  # tables finish and start again


def test_masks_flag_the_flight_restrictions() -> None:
    env = DogfightVectorEnv(num_envs=4, seed=1)
    env.reset(seed=0)
    env.state.prev_symbol[:] = IMMELMANN
    mask = env.action_mask()
    plans = env.plans("allied")
    deck = env.batch_spec.rules.deck_of("sopwith-camel")
    symbol = {c.id: c.symbol.value for c in deck.cards}
    for index in np.flatnonzero(mask[0, 0]).tolist():
        assert symbol[plans[index][0]] == "straight"


def test_observations_hold_no_enemy_damage() -> None:
    env = DogfightVectorEnv(num_envs=2, situation=melee_situation(4), seed=1)
    obs, _ = env.reset(seed=0)
    env.state.damage[:, 1] = 5  # an enemy's secret damage
    again = env._observe()
    assert np.array_equal(obs["observation"], again["observation"])
