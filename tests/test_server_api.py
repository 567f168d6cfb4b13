"""The HTTP API and the WebSocket, endpoint by endpoint, with their refusals: every bad
request gets a 4xx and a JSON body naming what is wrong, and changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from postgres_helpers import pg_url, postgres  # noqa: F401  (fixtures)
from server_helpers import (
    client,
    duel_situation,
    headers,
    seat_url,
    slowest_plan,
    straights_plan,
    three_planes,
)

Json = dict[str, Any]


@pytest.fixture(params=["sqlite", "postgresql"])
def app_client(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A test client of a fresh app on SQLite, and again on a real PostgreSQL."""
    db: Path | str = tmp_path / "games.sqlite"
    if request.param == "postgresql":
        db = request.getfixturevalue("pg_url")
    with client(db) as c:
        yield c


def make(c: Any, **body: Any) -> Json:
    response = c.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    made: Json = response.json()
    return made


def seat(made: Json, label: str) -> tuple[str, str]:
    for s in made["seats"]:
        if s["label"] == label:
            return s["id"], s["token"]
    raise LookupError(label)


def refused(response: Any, status: int, field: str | None = None) -> Json:
    assert response.status_code == status, response.text
    body: Json = response.json()
    assert set(body) == {"error", "field"}
    assert body["error"]
    if field is not None:
        assert body["field"] == field, body
    return body


# --- pages and catalog ------------------------------------------------------------------


def test_pages_and_static_files(app_client: Any) -> None:
    assert "lobby.js" in app_client.get("/").text
    assert "table.js" in app_client.get("/play/anything").text
    assert "table.js" in app_client.get("/replay/anything").text
    for name in ("table.js", "board.js", "common.js", "lobby.js", "table.css"):
        assert app_client.get(f"/static/{name}").status_code == 200
    refused(app_client.get("/static/nothing.js"), 404)
    refused(app_client.get("/api/nothing"), 404)


def test_catalog_lists_presets_decks_and_bots(app_client: Any) -> None:
    cat = app_client.get("/api/catalog").json()
    assert "duel" in cat["presets"] and "a-spark-of-hope" in cat["presets"]
    assert cat["maneuver_decks"]["A"]["cards"][0]["forward"] > 0
    assert "mk1-locust" in cat["tripods"]
    assert isinstance(cat["bots"], list)
    assert "seed" not in str(cat["presets"])


# --- creating games ---------------------------------------------------------------------


def test_create_from_every_preset(app_client: Any) -> None:
    cat = app_client.get("/api/catalog").json()
    for name in cat["presets"]:
        made = make(app_client, preset=name)
        assert made["game"]["stage"] == "planning"
        assert all(s["token"] and s["link"].startswith("/play/") for s in made["seats"])
        assert made["hotseat_link"].startswith(f"/play/{made['game']['id']}#seats=")
        listed = app_client.get("/api/games").json()["games"]
        assert made["game"]["id"] in {g["id"] for g in listed}


def test_create_custom_per_vehicle_and_explicit_seats(app_client: Any) -> None:
    made = make(app_client, situation=three_planes(), seating="vehicle", seed=5, analysis=True)
    assert sorted(s["label"] for s in made["seats"]) == ["camel", "fokker", "spad"]
    made = make(
        app_client,
        situation=three_planes(),
        seats=[
            {"label": "Anna", "vehicles": ["spad"]},
            {"label": "Bert", "vehicles": ["camel"]},
            {"label": "Carl", "vehicles": ["fokker"]},
        ],
    )
    assert [s["vehicles"] for s in made["seats"]] == [["spad"], ["camel"], ["fokker"]]
    summary = app_client.get(f"/api/games/{made['game']['id']}").json()
    assert summary["waiting_for"] == ["Anna", "Bert", "Carl"]
    assert "seed" not in summary


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({}, 422, "preset"),
        ({"preset": "duel", "situation": duel_situation()}, 422, "preset"),
        ({"preset": "nope"}, 422, "preset"),
        ({"preset": "duel", "colour": "red"}, 422, "colour"),
        ({"preset": "duel", "seed": -1, "analysis": True}, 422, "seed"),
        ({"preset": "duel", "seed": 3}, 422, "seed"),
        ({"preset": "duel", "seating": "table"}, 422, "seating"),
        ({"situation": {"vehicles": []}}, 422, "situation.vehicles"),
        (
            {
                "situation": {
                    "vehicles": [
                        {"id": "x", "type": "zeppelin", "side": "a", "pose": {"x": 1, "y": 1}}
                    ]
                }
            },
            422,
            "situation.vehicles[0].type",
        ),
        ({"situation": {**duel_situation(), "ruleset": "chess"}}, 422, "situation.ruleset"),
        ({"preset": "duel", "computer": {"nobody": "random"}}, 422, "computer.nobody"),
        ({"preset": "duel", "computer": {"allies": "deep-blue"}}, 422, "computer.allies"),
        (
            {"situation": three_planes(), "seats": [{"label": "a", "vehicles": ["spad"]}]},
            422,
            "seats",
        ),
        (
            {
                "situation": three_planes(),
                "seats": [
                    {"label": "a", "vehicles": ["spad", "fokker"]},
                    {"label": "b", "vehicles": ["camel"]},
                ],
            },
            422,
            "seats[0].vehicles",
        ),
        (
            {"situation": three_planes(), "seats": [{"label": "a", "vehicles": ["zz"]}]},
            422,
            "seats[0].vehicles",
        ),
    ],
)
def test_create_refusals(app_client: Any, body: Json, status: int, field: str) -> None:
    before = app_client.get("/api/games").json()["games"]
    refused(app_client.post("/api/games", json=body), status, field)
    assert app_client.get("/api/games").json()["games"] == before


def test_setup_with_plans_is_refused(app_client: Any) -> None:
    situation = duel_situation()
    situation["vehicles"][0]["plans"] = [straights_plan()]
    refused(
        app_client.post("/api/games", json={"situation": situation}),
        422,
        "situation.vehicles[0].plans",
    )


def test_malformed_json_is_400(app_client: Any) -> None:
    response = app_client.post(
        "/api/games", content=b"{not json", headers={"content-type": "application/json"}
    )
    refused(response, 400)


def test_scenario_placement_rule_is_refused(app_client: Any) -> None:
    cat = app_client.get("/api/catalog").json()
    setup = cat["presets"]["a-spark-of-hope"]["setup"]
    setup = {**setup, "vehicles": [dict(v) for v in setup["vehicles"]]}
    locust = next(v for v in setup["vehicles"] if v["id"] == "locust")
    locust["pose"] = {"x": 45, "y": 45, "heading": 270}
    body = refused(app_client.post("/api/games", json={"situation": setup}), 422)
    assert "locust" in body["error"] and body["field"].startswith("situation.vehicles")


# --- seats, tokens and views ------------------------------------------------------------


def test_seat_view_needs_its_own_token(app_client: Any) -> None:
    made = make(app_client, preset="duel")
    game = made["game"]["id"]
    allies, token = seat(made, "allies")
    central, other = seat(made, "central")
    assert app_client.get(seat_url(game, allies), headers=headers(token)).status_code == 200
    bearer = {"Authorization": f"Bearer {token}"}
    assert app_client.get(seat_url(game, allies), headers=bearer).status_code == 200
    refused(app_client.get(seat_url(game, allies)), 403, "token")
    refused(app_client.get(seat_url(game, allies), headers=headers(other)), 403, "token")
    refused(app_client.get(seat_url(game, allies), headers=headers("x" * 43)), 403)
    refused(app_client.get(seat_url(game, "nobody"), headers=headers(token)), 404, "seat_id")
    refused(app_client.get(seat_url("nogame", allies), headers=headers(token)), 404, "game_id")
    for what, body in (
        ("plans", {"turn": 1, "plans": {"albatros": straights_plan()}}),
        ("check", {"plans": {"albatros": {"cards": ["1"]}}}),
        ("targets", {"turn": 1, "phase": 1, "fire": {}}),
        ("settings", {"auto_fire": True}),
        ("computer", {"bot": None}),
    ):
        refused(
            app_client.post(seat_url(game, central, what), json=body, headers=headers(token)), 403
        )
    refused(app_client.get(seat_url(game, central, "replay"), headers=headers(token)), 403)


def test_a_whole_duel_over_the_api(app_client: Any) -> None:
    made = make(app_client, situation=duel_situation(gap=40), seed=11, analysis=True)
    game = made["game"]["id"]
    allies, ta = seat(made, "allies")
    central, tc = seat(made, "central")
    view = app_client.get(seat_url(game, allies), headers=headers(ta)).json()
    assert view["stage"]["kind"] == "planning" and view["stage"]["to_plan"] == ["camel"]
    turn = 1
    while view["stage"]["kind"] != "over":
        assert turn < 20
        first = app_client.post(
            seat_url(game, allies, "plans"),
            headers=headers(ta),
            json={"turn": turn, "plans": {"camel": straights_plan()}},
        )
        assert first.status_code == 200, first.text
        mid = first.json()
        assert mid["stage"]["submitted"] and mid["stage"]["waiting_for"] == [central]
        assert mid["stage"]["my_plans"]["camel"]["cards"] == ["1", "2", "3"]
        second = app_client.post(
            seat_url(game, central, "plans"),
            headers=headers(tc),
            json={"turn": turn, "plans": {"albatros": straights_plan()}},
        )
        assert second.status_code == 200, second.text
        view = app_client.get(seat_url(game, allies), headers=headers(ta)).json()
        turn += 1
    kinds = [e["kind"] for s in view["steps"] for e in s["events"]]
    assert "fired" in kinds and kinds[-1] == "game_over"
    assert view["game"]["result"]["kind"] == "game_over"
    assert all(e["text"] for s in view["steps"] for e in s["events"])
    moved = [e for s in view["steps"] for e in s["events"] if e["kind"] == "moved"]
    assert all(len(e["curve"]) == 6 for e in moved)
    # after the end: nothing more is accepted
    refused(
        app_client.post(
            seat_url(game, allies, "plans"),
            headers=headers(ta),
            json={"turn": turn, "plans": {"camel": straights_plan()}},
        ),
        409,
    )
    # since= gives only the later steps
    total = view["steps_total"]
    later = app_client.get(seat_url(game, allies) + f"?since={total - 1}", headers=headers(ta))
    assert [s["index"] for s in later.json()["steps"]] == [total]
    replay = app_client.get(seat_url(game, central, "replay"), headers=headers(tc)).json()
    assert len(replay["frames"]) == total + 1
    assert replay["frames"][0]["events"] == []


def test_plan_refusals_leave_the_seat_unchanged(app_client: Any) -> None:
    made = make(app_client, preset="duel")
    game = made["game"]["id"]
    allies, token = seat(made, "allies")
    url = seat_url(game, allies, "plans")
    before = app_client.get(seat_url(game, allies), headers=headers(token)).json()
    cases: list[tuple[Json, int, str]] = [
        ({"turn": 1, "plans": {"camel": {"cards": ["1", "1", "2"]}}}, 422, "plans"),
        ({"turn": 1, "plans": {"camel": {"cards": ["1", "2"]}}}, 422, "plans"),
        ({"turn": 1, "plans": {"camel": {"cards": ["1", "2", "99"]}}}, 422, "plans"),
        (
            {"turn": 1, "plans": {"camel": {"cards": ["1", "2", "3"], "fire": ["camel"] * 3}}},
            422,
            "plans",
        ),
        (
            {"turn": 1, "plans": {"camel": {"cards": ["1", "2", "3"], "wings": 2}}},
            422,
            "plans.camel.wings",
        ),
        ({"turn": 1, "plans": {}}, 422, "plans.camel"),
        (
            {"turn": 1, "plans": {"camel": straights_plan(), "albatros": straights_plan()}},
            422,
            "plans.albatros",
        ),
        ({"turn": 2, "plans": {"camel": straights_plan()}}, 409, "turn"),
        ({"turn": 0, "plans": {"camel": straights_plan()}}, 422, "turn"),
        ({"plans": {"camel": straights_plan()}}, 422, "turn"),
    ]
    for body, status, field in cases:
        got = refused(app_client.post(url, json=body, headers=headers(token)), status, field)
        if status == 422 and field == "plans":
            assert "camel" in got["error"]
    twice = [cases[0]]
    assert (
        "once"
        in refused(app_client.post(url, json=twice[0][0], headers=headers(token)), 422)["error"]
    )
    after = app_client.get(seat_url(game, allies), headers=headers(token)).json()
    assert after["stage"] == before["stage"] and after["steps_total"] == 0
    ok = app_client.post(
        url, json={"turn": 1, "plans": {"camel": straights_plan()}}, headers=headers(token)
    )
    assert ok.status_code == 200
    refused(
        app_client.post(
            url, json={"turn": 1, "plans": {"camel": straights_plan()}}, headers=headers(token)
        ),
        409,
        "plans",
    )


def test_check_flags_restrictions_with_the_rule_and_draws_ghosts(app_client: Any) -> None:
    cat = app_client.get("/api/catalog").json()
    deck = cat["maneuver_decks"][cat["airplanes"]["sopwith-camel"]["deck"]]["cards"]
    steep = [c["id"] for c in deck if c["steep"]][:2]
    made = make(app_client, preset="duel")
    game = made["game"]["id"]
    allies, token = seat(made, "allies")
    url = seat_url(game, allies, "check")
    answer = app_client.post(
        url, json={"plans": {"camel": {"cards": [steep[0], steep[1]]}}}, headers=headers(token)
    )
    assert answer.status_code == 200, answer.text
    entry = answer.json()["plans"]["camel"]
    assert [p["rule"] for p in entry["problems"]] == ["steep_after_steep"]
    assert "000" in entry["problems"][0]["text"]
    assert len(entry["ghosts"]) == 2 and entry["ghosts"][1]["note"].startswith("flown as")
    assert entry["refusal"] is None
    full = app_client.post(
        url, json={"plans": {"camel": {"cards": ["1", "1", "2"]}}}, headers=headers(token)
    ).json()["plans"]["camel"]
    assert "once" in full["refusal"]
    refused(
        app_client.post(url, json={"plans": {"albatros": {"cards": []}}}, headers=headers(token)),
        422,
        "plans.albatros",
    )
    refused(
        app_client.post(
            url, json={"plans": {"camel": {"cards": ["1", "2", "3", "4"]}}}, headers=headers(token)
        ),
        422,
        "plans.camel.cards",
    )
    refused(app_client.post(url, json={"plans": {"camel": "cards"}}, headers=headers(token)), 422)
    unknown = app_client.post(
        url, json={"plans": {"camel": {"cards": ["77"]}}}, headers=headers(token)
    ).json()["plans"]["camel"]
    assert "77" in unknown["refusal"]


def test_target_questions_answers_and_auto_fire(app_client: Any) -> None:
    made = make(app_client, situation=three_planes(), seed=2, analysis=True)
    game = made["game"]["id"]
    allies, ta = seat(made, "allies")
    central, tc = seat(made, "central")
    cat = app_client.get("/api/catalog").json()

    # the shortest straights for everyone: after phase 1 the fokker has two targets
    response = app_client.post(
        seat_url(game, allies, "plans"),
        headers=headers(ta),
        json={
            "turn": 1,
            "plans": {
                "spad": slowest_plan(cat, "spad-xiii"),
                "camel": slowest_plan(cat, "sopwith-camel"),
            },
        },
    )
    assert response.status_code == 200, response.text
    response = app_client.post(
        seat_url(game, central, "plans"),
        headers=headers(tc),
        json={"turn": 1, "plans": {"fokker": slowest_plan(cat, "fokker-dr1")}},
    )
    assert response.status_code == 200, response.text
    view = response.json()
    stage = view["stage"]
    assert stage["kind"] == "targets", stage
    assert stage["waiting_for"] == [central]
    question = stage["questions"][0]
    assert question["vehicle"] == "fokker" and set(question["options"]) == {"spad", "camel"}
    assert stage["preview"]["events"][-1]["kind"] in ("moved", "revealed")
    other = app_client.get(seat_url(game, allies), headers=headers(ta)).json()["stage"]
    assert other["questions"] == [] and other["waiting_for"] == [central]
    url = seat_url(game, central, "targets")
    refused(
        app_client.post(url, headers=headers(tc), json={"turn": 1, "phase": 2, "fire": {}}),
        409,
        "phase",
    )
    refused(
        app_client.post(
            url,
            headers=headers(tc),
            json={"turn": 1, "phase": 1, "fire": {"fokker": {"front": "fokker"}}},
        ),
        422,
        "fire.fokker.front",
    )
    refused(
        app_client.post(
            url,
            headers=headers(tc),
            json={"turn": 1, "phase": 1, "fire": {"spad": {"front": "camel"}}},
        ),
        422,
        "fire.spad.front",
    )
    refused(
        app_client.post(
            seat_url(game, allies, "targets"),
            headers=headers(ta),
            json={"turn": 1, "phase": 1, "fire": {}},
        ),
        409,
        "fire",
    )
    far = next(o for o in question["options"] if o != question["options"][0])
    answer = app_client.post(
        url, headers=headers(tc), json={"turn": 1, "phase": 1, "fire": {"fokker": {"front": far}}}
    )
    assert answer.status_code == 200, answer.text
    steps = answer.json()["steps"]
    fired = [
        e for s in steps for e in s["events"] if e["kind"] == "fired" and e["firer"] == "fokker"
    ]
    assert fired and fired[0]["target"] == far
    # auto-fire: no more questions for this seat
    assert app_client.post(
        seat_url(game, central, "settings"), headers=headers(tc), json={"auto_fire": True}
    ).json() == {"auto_fire": True}
    after = app_client.get(seat_url(game, central), headers=headers(tc)).json()
    assert after["seat"]["auto_fire"] is True
    assert after["stage"]["kind"] == "planning" or after["stage"]["questions"] == []
    refused(
        app_client.post(
            seat_url(game, central, "settings"), headers=headers(tc), json={"auto_fire": "often"}
        ),
        422,
        "auto_fire",
    )


def test_hand_a_seat_to_a_computer(app_client: Any) -> None:
    bots = app_client.get("/api/catalog").json()["bots"]
    if "random" not in bots:
        pytest.skip("no 'random' computer player registered")
    made = make(app_client, preset="duel", computer={"central": "random"})
    game = made["game"]["id"]
    allies, ta = seat(made, "allies")
    summary = app_client.get(f"/api/games/{game}").json()
    assert summary["waiting_for"] == [allies]
    assert [s["computer"] for s in summary["seats"]] == [None, "random"]
    response = app_client.post(
        seat_url(game, allies, "plans"),
        headers=headers(ta),
        json={"turn": 1, "plans": {"camel": straights_plan()}},
    )
    assert response.status_code == 200
    assert response.json()["steps_total"] >= 4
    refused(
        app_client.post(
            seat_url(game, allies, "computer"), headers=headers(ta), json={"bot": "deep-blue"}
        ),
        422,
        "bot",
    )
    assert app_client.post(
        seat_url(game, allies, "computer"), headers=headers(ta), json={"bot": "random"}
    ).json() == {"computer": "random"}


def test_websocket_sends_the_view_and_every_change(app_client: Any) -> None:
    made = make(app_client, preset="duel")
    game = made["game"]["id"]
    allies, ta = seat(made, "allies")
    central, tc = seat(made, "central")
    with app_client.websocket_connect(f"/api/games/{game}/ws") as ws:
        ws.send_json({"seat": allies, "token": ta, "since": 0})
        first = ws.receive_json()
        assert first["type"] == "view" and first["stage"]["kind"] == "planning"
        app_client.post(
            seat_url(game, allies, "plans"),
            headers=headers(ta),
            json={"turn": 1, "plans": {"camel": straights_plan()}},
        )
        # the table and the steps did not change: an update, not the whole view
        mid = ws.receive_json()
        assert mid["type"] == "update" and mid["stage"]["submitted"] is True
        assert mid["stage"]["waiting_for"] == [central] == mid["game"]["waiting_for"]
        assert mid["seat"]["id"] == allies and mid["steps_total"] == 0
        assert "state" not in mid and "steps" not in mid
        app_client.post(
            seat_url(game, central, "plans"),
            headers=headers(tc),
            json={"turn": 1, "plans": {"albatros": straights_plan()}},
        )
        after = ws.receive_json()
        assert after["type"] == "view"
        assert after["since"] == 0 and len(after["steps"]) == 4
        ws.send_text("ping")
        assert ws.receive_json() == {"type": "pong"}
    # reconnecting with since= gets only what is new: here nothing
    with app_client.websocket_connect(f"/api/games/{game}/ws") as ws:
        ws.send_json({"seat": allies, "token": ta, "since": 4})
        again = ws.receive_json()
        assert again["steps"] == [] and again["steps_total"] == 4


@pytest.mark.parametrize(
    ("hello", "code"),
    [
        ("not json", 4400),
        ('{"token": "x"}', 4400),
        ('{"seat": "allies", "token": "wrong"}', 4403),
        ('{"seat": "nobody", "token": "wrong"}', 4404),
    ],
)
def test_websocket_refusals(app_client: Any, hello: str, code: int) -> None:
    from starlette.websockets import WebSocketDisconnect

    made = make(app_client, preset="duel")
    game = made["game"]["id"]
    with app_client.websocket_connect(f"/api/games/{game}/ws") as ws:
        ws.send_text(hello)
        error = ws.receive_json()
        assert error["type"] == "error" and error["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == code


def test_automated_tripod_seat_logs_its_decisions(app_client: Any) -> None:
    """001 solo play in the browser: the Automated Tripod takes the Martian seat, and each
    decision reaches every seat's log with the rule branch behind it."""
    made = make(app_client, preset="a-lonely-invader", computer={"martians": "automated-tripod"})
    game = made["game"]["id"]
    earth, te = seat(made, "earth")
    plane = (
        next(v["id"] for v in made["setup"]["vehicles"] if v["id"] != "locust")
        if ("setup" in made)
        else "plane"
    )
    response = app_client.post(
        seat_url(game, earth, "plans"),
        headers=headers(te),
        json={"turn": 1, "plans": {plane: straights_plan()}},
    )
    assert response.status_code == 200, response.text
    view = app_client.get(seat_url(game, earth), headers=headers(te)).json()
    for _ in range(3):  # the pilot's Itchy Trigger Finger, used or kept (000): used
        asked = view["stage"].get("decisions") or []
        if not asked:
            break
        answered = app_client.post(
            seat_url(game, earth, "decisions"),
            headers=headers(te),
            json={
                "turn": view["stage"]["turn"],
                "phase": view["stage"]["phase"],
                "answers": {d["id"]: d["default"] for d in asked},
            },
        )
        assert answered.status_code == 200, answered.text
        view = app_client.get(seat_url(game, earth), headers=headers(te)).json()
    decisions = [e for s in view["steps"] for e in s["events"] if e["kind"] == "tripod_decision"]
    assert decisions, "the tripod's decisions are in the log"
    assert all(e["vehicle"] == "locust" and e["branch"] and e["rule"] for e in decisions)


def test_invasion_bad_input_is_refused_and_nothing_stored(app_client: Any) -> None:
    """001 over the API: a drop of more loads than the bomber has left, and a bomb drop by
    an airplane without loads, are refused with the rule (4xx) and nothing is stored."""
    situation = {
        "vehicles": [
            {"id": "camel", "type": "sopwith-camel", "side": "earth", "bombs": 1,
             "pose": {"x": 30, "y": 20, "heading": 90}},
            {"id": "spad", "type": "spad-xiii", "side": "earth",
             "pose": {"x": 60, "y": 20, "heading": 90}},
            {"id": "locust", "type": "mk1-locust", "side": "martians",
             "pose": {"x": 45, "y": 75, "heading": 270}},
        ]
    }  # fmt: skip
    made = make(app_client, situation=situation, seed=3, analysis=True)
    game = made["game"]["id"]
    earth, token = seat(made, "earth")
    for plans, needle in (
        ({"camel": {**straights_plan(), "drop": [1, 1, 0]}, "spad": straights_plan()}, "left"),
        ({"camel": straights_plan(), "spad": {**straights_plan(), "drop": [1, 0, 0]}}, "no bombs"),
    ):
        response = app_client.post(
            seat_url(game, earth, "plans"),
            headers=headers(token),
            json={"turn": 1, "plans": plans},
        )
        assert 400 <= response.status_code < 500, response.text
        assert needle in response.json()["error"] and "001" in response.json()["error"]
        view = app_client.get(seat_url(game, earth), headers=headers(token)).json()
        assert not view["stage"]["submitted"]
