"""Fuzzing kept in the suite (issue 16): hypothesis strategies for situations, plans and
API bodies, and schemathesis against the server's OpenAPI schema.

The properties: an input is either refused with the typed error (a 4xx with a JSON body
naming the field; a ``DogfightError``) or accepted — and anything accepted goes through
the engine without an exception and comes out as strict JSON (no NaN, no Infinity).
``dogfight bench --fuzz N`` runs the longer, seeded version of the same idea.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from server_helpers import duel_situation, three_planes

from dogfight.bench.fuzz import mutate
from dogfight.catalog.loader import load_catalog
from dogfight.errors import DogfightError
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.events import as_dicts
from dogfight.rules.observation import observe
from dogfight.rules.plans import Plan
from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits
from dogfight.situation.format import build, parse_situation
from dogfight.situation.ruling import adjudicate

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

Json = dict[str, Any]
CATALOG = load_catalog()
FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def strict_json(value: Any) -> Any:
    """Round-trip through JSON as a browser would read it."""
    return json.loads(json.dumps(value, allow_nan=False))


# --- strategies ---------------------------------------------------------------------------

numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 2, 3, -1, 1e308, 1e-308]),
)
hostile = st.recursive(
    st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=50)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=20,
)
card_ids = st.sampled_from(["1", "2", "3", "4", "5", "6", "7", "8", "99", "", 1, None])
fire_choice = st.one_of(st.sampled_from(["auto", "none", "v0", "v1", "v2", "ghost"]), hostile)


@st.composite
def plans(draw: st.DrawFn) -> Any:
    """Plan bodies: mostly plausible, often with a wrong length, type or value."""
    plan: dict[str, Any] = {"cards": draw(st.lists(card_ids, min_size=0, max_size=5))}
    if draw(st.booleans()):
        plan["fire"] = draw(st.lists(fire_choice, min_size=0, max_size=4))
    if draw(st.booleans()):
        plan["rear_fire"] = draw(st.lists(fire_choice, min_size=0, max_size=4))
    if draw(st.booleans()):
        plan["rockets"] = draw(st.lists(st.one_of(st.integers(-1, 3), hostile), max_size=4))
    if draw(st.integers(0, 9)) == 0:
        plan[draw(st.text(max_size=8))] = draw(hostile)
    return plan


@st.composite
def situations(draw: st.DrawFn) -> Any:
    """Airplane situations with plans: a valid base, then a few fields broken."""
    base = draw(st.sampled_from([duel_situation(), three_planes(), duel_situation(gap=20)]))
    base = json.loads(json.dumps(base))
    base["ruleset"] = draw(st.sampled_from(["wog", "wow", "wow-basic"]))
    for vehicle in base["vehicles"]:
        vehicle["plans"] = [draw(plans()) if draw(st.booleans()) else {"cards": ["1", "2", "3"]}]
    for _ in range(draw(st.integers(0, 3))):
        node: Any = base
        path = draw(
            st.sampled_from(
                [
                    ("vehicles", 0, "pose", "x"),
                    ("vehicles", 0, "pose", "heading"),
                    ("vehicles", 1, "pose", "y"),
                    ("vehicles", 0, "damage"),
                    ("vehicles", 1, "rockets"),
                    ("vehicles", 0, "id"),
                    ("table",),
                    ("switches",),
                    ("damage_decks",),
                ]
            )
        )
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = draw(hostile)
    return base


# --- properties ---------------------------------------------------------------------------


@FUZZ
@given(plans())
def test_a_plan_the_model_and_the_engine_accept_always_resolves(body: Any) -> None:
    """No poison step: whatever Plan and start_turn let through, three phases resolve."""
    state = build(parse_situation(three_planes()), CATALOG, 1)
    try:
        plan = Plan.model_validate(body)
    except ValidationError:
        return
    try:
        state, _ = start_turn(
            state,
            {
                "spad": plan,
                "camel": Plan(cards=("1", "2", "3")),
                "fokker": Plan(cards=("2", "1", "3")),
            },
        )
    except DogfightError:
        return
    for phase in (1, 2, 3):
        state, events = resolve_phase(state, step_rng(1, 1, phase))
        strict_json(as_dicts(events))
    strict_json(observe(state, None))


@FUZZ
@given(situations())
def test_a_situation_is_refused_with_a_data_error_or_adjudicated_to_strict_json(
    body: Any,
) -> None:
    try:
        parsed = parse_situation(json.loads(json.dumps(body, allow_nan=True)), "fuzz")
        state, events = adjudicate(parsed, CATALOG, 3, None, "fuzz")
    except DogfightError:
        return
    strict_json({"events": as_dicts(events), "state": observe(state, None)})


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("fuzz") / "g.sqlite"
    limits = Limits(games_per_minute=0, allowed_hosts=("testserver",))
    with TestClient(create_app(f"sqlite:///{db}", CATALOG, limits)) as c:
        yield c


def assert_clean(response: Any) -> None:
    assert response.status_code < 500, response.text[:500]
    body = json.loads(response.text, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    if response.status_code >= 400:
        assert set(body) >= {"error", "field"} and body["error"], body


@st.composite
def create_bodies(draw: st.DrawFn) -> Any:
    base: Json = draw(
        st.sampled_from(
            [
                {"situation": duel_situation()},
                {"situation": three_planes(), "seating": "vehicle"},
                {"preset": "duel", "computer": {"central": "random"}},
                {"preset": "duel", "seed": 3, "analysis": True},
            ]
        )
    )
    return mutate(base, __import__("numpy").random.default_rng(draw(st.integers(0, 2**32))))


@settings(FUZZ, max_examples=150)
@given(body=create_bodies())
def test_create_game_bodies_get_201_or_a_named_4xx(api: TestClient, body: Any) -> None:
    response = api.post(
        "/api/games",
        content=json.dumps(body, allow_nan=True),
        headers={"content-type": "application/json"},
    )
    assert_clean(response)


@pytest.fixture(scope="module")
def duel(api: TestClient) -> Json:
    made: Json = api.post(
        "/api/games", json={"situation": three_planes(), "seating": "vehicle"}
    ).json()
    return made


@settings(FUZZ, max_examples=200)
@given(plan=plans(), endpoint=st.sampled_from(["plans", "check"]), turn=st.integers(-1, 3))
def test_plan_bodies_get_200_or_a_named_4xx(
    api: TestClient, duel: Json, plan: Any, endpoint: str, turn: int
) -> None:
    seat = duel["seats"][0]
    body: Json = {"plans": {seat["vehicles"][0]: plan}}
    if endpoint == "plans":
        body["turn"] = turn
    response = api.post(
        f"/api/games/{duel['game']['id']}/seats/{seat['id']}/{endpoint}",
        content=json.dumps(body, allow_nan=True),
        headers={"content-type": "application/json", "X-Seat-Token": seat["token"]},
    )
    assert_clean(response)


@settings(FUZZ, max_examples=100)
@given(body=hostile, endpoint=st.sampled_from(["targets", "settings", "computer", "plans"]))
def test_any_json_body_gets_a_named_4xx(
    api: TestClient, duel: Json, body: Any, endpoint: str
) -> None:
    seat = duel["seats"][1]
    response = api.post(
        f"/api/games/{duel['game']['id']}/seats/{seat['id']}/{endpoint}",
        content=json.dumps(body, allow_nan=True),
        headers={"content-type": "application/json", "X-Seat-Token": seat["token"]},
    )
    assert_clean(response)


# --- schemathesis -------------------------------------------------------------------------


def test_schemathesis_finds_no_undocumented_answer(tmp_path: Path) -> None:
    """Every operation of the OpenAPI schema, with schema-driven bodies, answers only
    documented statuses and content types, with bodies matching their schema, never 5xx."""
    import schemathesis
    from hypothesis import given as st_given
    from schemathesis.specs.openapi import checks as openapi_checks

    limits = Limits(games_per_minute=0, allowed_hosts=("testserver", "localhost"))
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite'}", CATALOG, limits)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    chosen = [
        schemathesis.checks.not_a_server_error,
        openapi_checks.status_code_conformance,
        openapi_checks.content_type_conformance,
        openapi_checks.response_schema_conformance,
    ]
    operations = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
    assert len(operations) >= 10
    calls: list[int] = []
    for operation in operations:

        @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
        @st_given(case=operation.as_strategy())
        def check(case: Any) -> None:
            response = case.call_and_validate(checks=chosen, headers={"host": "testserver"})
            calls.append(response.status_code)

        check()
    assert len(calls) >= 5 * len(operations), calls


def test_mutations_never_share_or_nest_the_hostile_values() -> None:
    """The mutator's own invariant: its hostile values are copies (a shared list mutated
    by one case once came to contain itself, a 'circular reference' no body can be), and
    its walk over a deep nesting never exhausts the stack."""
    import copy

    import numpy as np

    from dogfight.bench import fuzz

    before = copy.deepcopy(fuzz.HOSTILE)
    base = {"preset": "duel", "seats": [{"label": "a", "vehicles": ["x"]}], "v": [[0]]}
    for seed in range(400):
        body = fuzz.mutate(base, np.random.default_rng(seed), times=3)
        json.dumps(body, allow_nan=True)  # no circular reference
    assert before == fuzz.HOSTILE
    assert len(fuzz._paths(fuzz._deep(5000))) == fuzz.PATH_DEPTH + 1
