"""The rows a game stores: a seat's plans are stored as their JSON (each plan's
``to_json``, its cards among the defaults dumped once when it gives only its cards: the
very dump pydantic makes, keys in the same order), read back as their dumps."""

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
    for plan in plans.values():
        assert list(plan.to_json().items()) == list(plan.model_dump(mode="json").items())
    return json.dumps({vid: plan.model_dump(mode="json") for vid, plan in plans.items()})


def _stored(plans: dict[str, Plan]) -> str:
    """:func:`plans_text` read back and put in JSON as ``_oracle`` does."""
    return json.dumps(json.loads(plans_text(plans)))


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
def test_plans_text_is_the_plans_json(plans: dict[str, Plan]) -> None:
    assert _stored(plans) == _oracle(plans)


def test_plans_text_of_random_plans() -> None:
    state = state_of(duel_situation())
    rng = np.random.default_rng(5)
    for _ in range(50):
        plans = {vid: random_legal_plan(state, vid, rng) for vid in sorted(state.vehicles)}
        assert _stored(plans) == _oracle(plans)
        cards_only = {vid: Plan.model_validate({"cards": p.cards}) for vid, p in plans.items()}
        assert _stored(cards_only) == _oracle(cards_only)
