"""Tailing (002) in the PettingZoo environment: the reorder is an action of the tailing
agent, asked in a decision step that shows it the tailed card; no other agent, and no
learning agent being tailed, ever sees the decision.

002: "Tailed player reveals **first maneuver card** to tailing player." / "Tailing player
may **reorder** their three planned maneuvers." / "Tailed reveals **second card**,
tailing player may reorder remaining two."
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from pettingzoo.test import parallel_api_test

from dogfight.research.decisions import orders
from dogfight.research.pettingzoo_env import DogfightParallelEnv
from dogfight.rules.events import CardsReordered, Revealed, Tailing
from dogfight.situation.format import parse_situation


def tailing(with_camel: bool = True) -> Any:
    """A SPAD 30 cm behind an enemy SPAD, both flying east; a Camel of the SPAD's side
    far away."""
    vehicles = [
        {"id": "spad", "type": "spad-xiii", "side": "allies", "pose": {"x": 30, "y": 50}},
        {"id": "prey", "type": "spad-xiii", "side": "central", "pose": {"x": 60, "y": 50}},
    ]
    if with_camel:
        vehicles.append(
            {
                "id": "camel",
                "type": "sopwith-camel",
                "side": "allies",
                "pose": {"x": 40, "y": 15, "heading": 0},
            }
        )
    return parse_situation(
        {"ruleset": "wow", "table": {"width": 400, "height": 100}, "vehicles": vehicles}
    )


def plan_index(env: DogfightParallelEnv, agent: str, cards: tuple[str, str, str]) -> int:
    return env.plans(agent).index(cards)


def test_the_tailing_agent_reorders_in_two_decision_steps() -> None:
    env = DogfightParallelEnv(tailing(), side="allies", max_turns=3)
    obs, infos = env.reset(seed=4)
    assert sorted(env.agents) == ["camel", "spad"]
    assert not obs["spad"]["decision"].any()
    first = {
        "spad": plan_index(env, "spad", ("1", "2", "3")),
        "camel": int(np.flatnonzero(infos["camel"]["action_mask"])[0]),
    }
    obs, _, terminated, truncated, infos = env.step(first)
    # paused before the first maneuver: the SPAD is asked, nobody is done
    assert env.state_.turn == 1 and env.state_.phase == 0
    assert not any(terminated.values()) and not any(truncated.values())
    decision = infos["spad"]["decision"]
    assert decision["kind"] == "tailing" and decision["phase"] == 1
    [shown] = decision["shown"]["tailed"]
    assert shown["vehicle"] == "prey"
    prey_cards = env.state_.vehicles["prey"].plan
    assert prey_cards is not None and shown["card"] == prey_cards.cards[0]
    seen = obs["spad"]["decision"]
    assert seen[0] == 1.0 and seen[2] == 1.0  # asked, three cards left
    assert env.observation_space("spad").contains(obs["spad"])
    mask = obs["spad"]["action_mask"]
    assert mask[:6].all() and mask.sum() == 6
    # the other agent of the side is not asked and sees nothing of it
    assert "decision" not in infos["camel"]
    assert not obs["camel"]["decision"].any()
    assert obs["camel"]["action_mask"].sum() == 1 and obs["camel"]["action_mask"][0] == 1

    # cards 3, 1, 2: the positions (2, 0, 1)
    obs, _, _, _, infos = env.step({"spad": orders(3).index((2, 0, 1)), "camel": 0})
    second = infos["spad"]["decision"]
    assert second["phase"] == 2 and second["options"] == ["1", "2"]
    assert second["shown"]["tailed"][0]["card"] == prey_cards.cards[1]
    assert obs["spad"]["action_mask"].sum() == 2
    env.step({"spad": 1, "camel": 0})  # cards 2, 1
    assert env.state_.turn == 2 and not env._pending
    flown = [e.card for e in env.events if isinstance(e, Revealed) and e.vehicle == "spad"]
    assert flown[:3] == ["3", "2", "1"]
    reordered = [e.cards for e in env.events if isinstance(e, CardsReordered)]
    assert reordered == [("3", "1", "2"), ("2", "1")]


def test_an_action_out_of_range_keeps_the_planned_order() -> None:
    env = DogfightParallelEnv(tailing(with_camel=False), side="allies", max_turns=2)
    env.reset(seed=4)
    env.step({"spad": plan_index(env, "spad", ("1", "2", "3"))})
    env.step({"spad": 999})
    env.step({"spad": 0})
    flown = [e.card for e in env.events if isinstance(e, Revealed) and e.vehicle == "spad"]
    assert flown[:3] == ["1", "2", "3"]


def test_parallel_api_with_decision_steps() -> None:
    env = DogfightParallelEnv(tailing(), side="allies", max_turns=6)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        parallel_api_test(env, num_cycles=30)


def test_a_tailed_agent_never_sees_the_tailers_decision() -> None:
    """The learning side is the one tailed: the bot tailing it answers its own decision;
    no step pauses for it and no observation or info of the agent carries it."""
    env = DogfightParallelEnv(tailing(with_camel=False), side="central", max_turns=4)
    chooser = np.random.default_rng(2)
    obs, infos = env.reset(seed=4)
    seen: list[Any] = [obs, infos]
    while env.agents:
        legal = np.flatnonzero(infos["prey"]["action_mask"])
        turn = env.state_.turn
        obs, _, _, _, infos = env.step({"prey": int(chooser.choice(legal))})
        seen += [obs, infos]
        # every step was a whole turn: the game never paused for the prey
        assert env.state_.over or (env.state_.turn == turn + 1 and not env._pending)
    assert any(isinstance(e, Tailing) and e.tailer == "spad" for e in env.events)
    for entry in seen:
        for agent_view in entry.values():
            assert "decision" not in agent_view or not np.asarray(agent_view["decision"]).any()
