"""The rows a game stores: a seat's plans are stored as the text ``json.dumps`` makes of
their JSON, whichever way :func:`plans_text` makes it."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import state_of
from server_helpers import duel_situation

from dogfight.bots.random_plans import random_legal_plan
from dogfight.rules.plans import Action, Plan
from dogfight.server.db.game_rows import plans_text


def _oracle(plans: dict[str, Plan]) -> str:
    return json.dumps({vid: plan.model_dump(mode="json") for vid, plan in plans.items()})


@pytest.mark.parametrize(
    "plans",
    [
        {},
        {"p1": Plan.model_validate({"cards": ["1", "2", "3"]})},
        {"p1": Plan.model_validate({"cards": [1, 2, 3]})},  # numbers given as ids
        {"é": Plan.model_validate({"cards": ["ü", 'a"b', "c\\d"]})},  # escaped as json does
        {"p1": Plan(cards=("1", "2", "3"), fire=("none", "auto", "p2"))},
        {"p1": Plan(cards=("1", "2", "3"), fire=("auto", "auto", "auto"))},  # defaults given
        {"t1": Plan(cards=(), automated=True, actions=(Action(token="recharge"), None, None))},
        {"a": Plan(cards=("1",)), "b": Plan(cards=("2", "3"), rockets=(1, 0, 0))},
    ],
)
def test_plans_text_is_json_dumps_of_the_plans_json(plans: dict[str, Plan]) -> None:
    assert plans_text(plans) == _oracle(plans)


def test_plans_text_of_random_plans() -> None:
    state = state_of(duel_situation())
    rng = np.random.default_rng(5)
    for _ in range(50):
        plans = {vid: random_legal_plan(state, vid, rng) for vid in sorted(state.vehicles)}
        assert plans_text(plans) == _oracle(plans)
        cards_only = {vid: Plan.model_validate({"cards": p.cards}) for vid, p in plans.items()}
        assert plans_text(cards_only) == _oracle(cards_only)
