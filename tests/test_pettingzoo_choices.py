"""An agent's choices of one option in the PettingZoo environment (issue 30: "in
PettingZoo (a decision step with a mask)"): 000's "once every 5 phases, the pilot
shoots first" is used when the player chooses, so a skilled agent is asked in a decision
step, its mask covering ``use`` and ``keep``, and its action is the answer."""

from __future__ import annotations

from typing import Any

import numpy as np

from dogfight.research.decisions import PICKS
from dogfight.research.pettingzoo_env import DogfightParallelEnv
from dogfight.situation.format import parse_situation


def ace() -> Any:
    """A SPAD with Itchy Trigger Finger 25 cm behind an enemy SPAD, both flying east."""
    return parse_situation(
        {
            "ruleset": "wog",
            "table": {"width": 400, "height": 100},
            "vehicles": [
                {
                    "id": "ace",
                    "type": "spad-xiii",
                    "side": "allies",
                    "pose": {"x": 30, "y": 50},
                    "skills": ["itchy_trigger_finger"],
                },
                {"id": "prey", "type": "spad-xiii", "side": "central", "pose": {"x": 55, "y": 50}},
            ],
        }
    )


def first_turn(env: DogfightParallelEnv) -> dict[str, Any]:
    obs, infos = env.reset(seed=3)
    straights = env.plans("ace").index(("1", "2", "3"))
    obs, _, _, _, infos = env.step({"ace": straights})
    return {"obs": obs, "infos": infos}


def test_a_skilled_agent_is_asked_and_its_action_answers() -> None:
    for action, used in ((0, True), (1, False)):
        env = DogfightParallelEnv(ace(), side="allies", max_turns=2)
        seen = first_turn(env)
        decision = seen["infos"]["ace"]["decision"]
        assert decision["kind"] == "skill" and decision["options"] == ["use", "keep"]
        mask = seen["infos"]["ace"]["action_mask"]
        assert list(np.flatnonzero(mask)) == [0, 1]
        vector = seen["obs"]["ace"]["decision"]
        assert vector[0] == 1.0 and vector[3] == (PICKS.index("skill") + 1) / len(PICKS)
        env.step({"ace": action})
        assert (env.state_.vehicles["ace"].skill_used != {}) is used
