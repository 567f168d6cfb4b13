"""A field a vehicle does not use is refused, never ignored nor applied (issue 28, defect
1; issue 30, item 9): the WW2 speed markers that flew a WW1 Camel 133.5 cm in one turn,
a tripod's ``status`` dropped in silence. The same rule (``rules/field_use.py``) for a
plan wherever it enters (the web API and its ``/check``, ``check_plans``, a situation)
and for a situation's vehicle."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from server_helpers import client, duel_situation, headers, seat_url, straights_plan

from dogfight.bots.random_plans import random_plans
from dogfight.catalog import load_catalog
from dogfight.errors import DataError, UnusedFieldError
from dogfight.rules.field_use import PLAN_FIELDS, VEHICLE_FIELDS
from dogfight.rules.plans import Action, Plan
from dogfight.rules.state import GameState
from dogfight.rules.turns import check_plans
from dogfight.situation.format import VehicleIn, build, parse_situation

Json = dict[str, Any]
CATALOG = load_catalog()
CHEAT = {"cards": ["2", "1", "3"], "speeds": [20, 20, 20]}
REFUSED = "does not use is refused"
"""The words of every refusal of a field a vehicle does not use."""


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[Any]:
    with client(tmp_path / "games.sqlite") as c:
        yield c


def test_the_speed_cheat_is_refused_over_the_web(app_client: Any) -> None:
    """The issue's request: a WW1 Camel's plan with WW2 speed markers. 422 naming
    ``speeds`` and ``camel``; nothing stored; ``/check`` says the same; the game goes on
    and the Camel flies its cards as printed."""
    made = app_client.post("/api/games", json={"situation": duel_situation()}).json()
    seats = {s["label"]: (s["id"], s["token"]) for s in made["seats"]}
    game = made["game"]["id"]
    allies, token = seats["allies"]
    body = {"turn": 1, "plans": {"camel": CHEAT}}
    response = app_client.post(seat_url(game, allies, "plans"), headers=headers(token), json=body)
    assert response.status_code == 422, response.text
    refusal = response.json()
    assert refusal["field"] == "plans.camel.speeds"
    assert "'speeds'" in refusal["error"] and "camel" in refusal["error"]
    assert "WW2 airplanes" in refusal["error"] and "WW1 airplane" in refusal["error"]
    view = app_client.get(seat_url(game, allies), headers=headers(token)).json()
    assert not view["stage"]["submitted"] and view["steps_total"] == 0
    checked = app_client.post(
        seat_url(game, allies, "check"), headers=headers(token), json={"plans": {"camel": CHEAT}}
    )
    assert checked.status_code == 200, checked.text
    why = checked.json()["plans"]["camel"]["refusal"]
    assert why is not None and "'speeds'" in why and "camel" in why
    start = next(v for v in view["state"]["vehicles"] if v["id"] == "camel")["pose"]
    ghost = checked.json()["plans"]["camel"]["ghosts"][-1]["pose"]
    assert math.dist((start["x"], start["y"]), (ghost["x"], ghost["y"])) < 40.0  # not at 20
    for label, vid in (("allies", "camel"), ("central", "albatros")):
        sid, tok = seats[label]
        plan = {"cards": ["2", "1", "3"]} if vid == "camel" else straights_plan()
        ok = app_client.post(
            seat_url(game, sid, "plans"),
            headers=headers(tok),
            json={"turn": 1, "plans": {vid: plan}},
        )
        assert ok.status_code == 200, ok.text
    after = app_client.get(seat_url(game, allies), headers=headers(token)).json()
    assert after["steps_total"] >= 1
    camel = next(v for v in after["state"]["vehicles"] if v["id"] == "camel")
    flown = math.dist((start["x"], start["y"]), (camel["pose"]["x"], camel["pose"]["y"]))
    assert flown < 40.0, flown  # its three cards as printed, not at speed 20


def _cheat_situation() -> Json:
    situation = duel_situation()
    situation["vehicles"][0]["plans"] = [CHEAT]
    situation["vehicles"][1]["plans"] = [straights_plan()]
    return situation


def test_the_speed_cheat_in_a_situation_exits_2(tmp_path: Path) -> None:
    """``dogfight adjudicate`` of a situation with the cheat: exit 2, one message naming
    ``vehicles[0].plans[0].speeds``, nothing written."""
    path = tmp_path / "cheat.json"
    path.write_text(json.dumps(_cheat_situation()))
    out = tmp_path / "out.json"
    result = subprocess.run(
        [sys.executable, "-m", "dogfight", "adjudicate", str(path), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "vehicles[0].plans[0].speeds" in result.stderr and "camel" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_a_tripods_airplane_status_is_refused_not_dropped() -> None:
    """Issue 30, item 9: "A tripod's `status` ... is refused with the field named": the
    keys a tripod does not read (a rudder jammed, an airplane's smoke trail) are refused;
    those it reads (engine hits, a wounded pilot, fire, its own icons: ruling SR10's
    damaged tripods) are its console's, as they are in play."""
    situation = duel_situation()
    situation["vehicles"][1].update(type="mk1-locust", status={"rudder_left": 1})
    with pytest.raises(DataError) as error:
        build(parse_situation(situation), CATALOG, 1)
    assert error.value.field == "vehicles[1].status.rudder_left"
    assert "airplanes" in error.value.allowed
    situation["vehicles"][1]["status"] = {"engine": 2, "reverse_destroyed": 1}
    state = build(parse_situation(situation), CATALOG, 1)
    assert state.vehicles["albatros"].status == {"engine": 2, "reverse_destroyed": 1}


def test_a_tripods_airplane_status_is_refused_by_the_web_api(app_client: Any) -> None:
    situation = duel_situation()
    situation["vehicles"][1].update(type="mk1-locust", status={"smoke": 1})
    response = app_client.post("/api/games", json={"situation": situation})
    assert response.status_code == 422, response.text
    assert response.json()["field"] == "situation.vehicles[1].status.smoke"
    assert "albatros" in response.json()["error"] and "tripod" in response.json()["error"]
    assert app_client.get("/api/games").json()["games"] == []


def test_every_optional_field_has_its_readers() -> None:
    """The one table lists every optional field of each body that carries per-vehicle
    fields: a new field must say who reads it."""
    plan_optional = {n for n, f in Plan.model_fields.items() if not f.is_required()}
    assert set(PLAN_FIELDS) == plan_optional
    every_vehicle = {"id", "type", "side", "pose", "damage", "plans"}
    vehicle_optional = {n for n in VehicleIn.model_fields if n not in every_vehicle}
    assert {n.partition(".")[0] for n in VEHICLE_FIELDS} == vehicle_optional


# --- the property: every optional field on every vehicle type ----------------------------

ENEMY = {"id": "foe", "type": "sopwith-camel", "side": "b", "pose": {"x": 50, "y": 80}}
ENEMY_WW2 = {**ENEMY, "type": "bf-109e"}

PLAN_VALUES: dict[str, list[Any]] = {
    "fire": [("none", "none", "none"), ("foe", "auto", "none")],
    "rear_fire": [("none", "none", "none"), ("auto", "foe", "auto")],
    "rockets": [(1, 0, 0), (0, 2, 0)],
    "actions": [(None, Action(token="recharge"), None), (Action(token="blank"), None, None)],
    "drop": [(1, 0, 0), (0, 0, 1)],
    "automated": [True],
    "speeds": [(3,), (20, 20, 20), (1,)],
}
VEHICLE_VALUES: dict[str, list[Any]] = {
    "jams": [{"front": 1}],
    "jams.rear": [{"rear": 1}],
    "previous": [{"symbol": "straight"}],
    "aim": [{"front": "foe"}],
    "aim.rear": [{"rear": "foe"}],
    "rockets": [2, 1],
    "energy": [1],
    "toppled": [1],
    "cooling": [1],
    "reverse": [True],
    "pilot": ["human"],
    "bombs": [1],
    "bomber": [True],
    "skills": [["sniper"]],
    "status": [{"engine": 1}],
    "status.observer": [{"observer": 1}],
    "status.smoke": [{"smoke": 2}],
    "status.rudder_left": [{"rudder_left": 1}],
    "status.rudder_right": [{"rudder_right": 1}],
    "status.gyroscope": [{"gyroscope": 1}],
    "status.reverse_destroyed": [{"reverse_destroyed": 1}],
    "status.smoke_generator": [{"smoke_generator": 1}],
}
"""For each field (``a.b``: the key ``b`` of ``a``) values other than its default."""

assert set(PLAN_VALUES) == set(PLAN_FIELDS) and set(VEHICLE_VALUES) == set(VEHICLE_FIELDS)


def _reads(field: str, v: Json) -> bool:
    """The oracle, from the rule texts rather than the module: does this vehicle read
    ``field``? (``v``: the vehicle as given, with its counters.)"""
    tripod = v["type"] in CATALOG.tripods
    airplane = None if tripod else CATALOG.airplanes[v["type"]]
    ww2 = airplane is not None and airplane.era == "ww2"
    ww1 = airplane is not None and not ww2
    rear = airplane is not None and airplane.two_seater
    loads = v.get("bombs") or ((airplane.usual_loads if airplane else 0) if v.get("bomber") else 0)
    return {
        "fire": airplane is not None,
        "rear_fire": rear,
        "rockets@plan": ww1 and v.get("rockets", 0) > 0,
        "actions": tripod,
        "drop": ww1 and loads > 0,
        "automated": tripod,
        "speeds": ww2,
        "jams": airplane is not None,
        "jams.rear": rear,
        "previous": airplane is not None,
        "aim": airplane is not None,
        "aim.rear": rear,
        "rockets": ww1,
        "energy": tripod,
        "toppled": tripod,
        "cooling": tripod,
        "reverse": tripod,
        "pilot": tripod,
        "bombs": ww1,
        "bomber": ww1,
        "skills": airplane is not None,
        "status": True,  # 000's engine, wounds and fire: "All Vehicles"
        "status.observer": rear,
        "status.smoke": airplane is not None,
        "status.rudder_left": airplane is not None,
        "status.rudder_right": airplane is not None,
        "status.gyroscope": tripod,  # 000: "Tripod Only"
        "status.reverse_destroyed": tripod,
        "status.smoke_generator": tripod,
    }[field]


@st.composite
def vehicles(draw: st.DrawFn) -> Json:
    """Any catalog type: WW1 and WW2 airplanes and two-seaters, rocket carriers, bombers,
    tripods (human-piloted or not)."""
    kind = draw(st.sampled_from(sorted([*CATALOG.airplanes, *CATALOG.tripods])))
    v: Json = {"id": "me", "type": kind, "side": "a", "pose": {"x": 50, "y": 20, "heading": 90}}
    if kind in CATALOG.airplanes and CATALOG.airplanes[kind].era == "ww1":
        v["rockets"] = draw(st.sampled_from([0, 2] if CATALOG.airplanes[kind].rockets else [0]))
        if draw(st.booleans()):
            v["bombs"] = draw(st.integers(1, 2))
    return v


def _situation(v: Json) -> Json:
    ww2 = v["type"] in CATALOG.airplanes and CATALOG.airplanes[v["type"]].era == "ww2"
    return {
        "ruleset": "ww2" if ww2 else "wog",
        "switches": {"standard_rules": True},
        "table": {"width": 100, "height": 100},
        "vehicles": [v, ENEMY_WW2 if ww2 else ENEMY],
    }


def _named(exc: Exception, field: str) -> bool:
    """Whether a refusal is the unused-field one, for ``field``."""
    if isinstance(exc, DataError):
        return REFUSED in exc.allowed and exc.field.endswith("." + field)
    return isinstance(exc, UnusedFieldError) and exc.field == field


def _first_refused(fields: list[str], v: Json, suffix: str = "") -> str | None:
    for name in fields:
        if not _reads(name + suffix, v):
            return name
    return None


@settings(max_examples=300, deadline=None)
@given(v=vehicles(), field=st.sampled_from(sorted(VEHICLE_VALUES)), data=st.data())
def test_a_vehicle_field_is_refused_exactly_when_unused(v: Json, field: str, data: Any) -> None:
    head, _, key = field.partition(".")
    value = data.draw(st.sampled_from(VEHICLE_VALUES[field]))
    v = {**v, head: value}
    # a dotted name's value also gives its head (jams.rear gives 'jams'): the head first
    expected = _first_refused([head, field] if key else [field], v)
    try:
        build(parse_situation(_situation(v)), CATALOG, 1)
    except DataError as exc:
        if expected is None:
            assert REFUSED not in exc.allowed, (v, exc)
        else:
            assert _named(exc, expected) and "me" in exc.allowed, (v, exc)
        return
    assert expected is None, v


def _base_plan(state: GameState) -> Plan:
    return random_plans(state, np.random.default_rng(0))["me"]


@settings(max_examples=300, deadline=None)
@given(
    v=vehicles(),
    field=st.sampled_from(sorted(PLAN_VALUES)),
    automated=st.booleans(),
    data=st.data(),
)
def test_a_plan_field_is_refused_exactly_when_unused(
    v: Json, field: str, automated: bool, data: Any
) -> None:
    """Through ``check_plans`` (every plan the engine takes) and in a situation file."""
    value = data.draw(st.sampled_from(PLAN_VALUES[field]))
    state = build(parse_situation(_situation(v)), CATALOG, 1)
    base = _base_plan(state)
    if automated and v["type"] in CATALOG.tripods:
        base = Plan(cards=(), automated=True)  # an automated tripod (001)
    plan = Plan.model_validate({**base.model_dump(), field: value})
    key = "rockets@plan" if field == "rockets" else field
    unused = not _reads(key, v)
    try:
        check_plans(state, {"me": plan}, alone=True)
    except Exception as exc:
        assert _named(exc, field) == unused, (v, plan, exc)
        assert "me" in str(exc)
    else:
        assert not unused, (v, plan)
    situation = _situation(v)
    situation["vehicles"][0]["plans"] = [plan.model_dump(mode="json")]
    try:
        build(parse_situation(situation), CATALOG, 1)
    except DataError as exc:
        assert _named(exc, field) == unused, (v, plan, exc)
        if unused:
            assert exc.field == f"vehicles[0].plans[0].{field}"
    else:
        assert not unused, (v, plan)
