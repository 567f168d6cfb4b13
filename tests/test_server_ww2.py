"""Tripods in WW2 in the browser game's API (001): the Earthling seat plans one card and a
speed marker before each action phase while the Martian (a computer here) plans three
cards per Martian turn; the refusals of the second and third planning phases."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_helpers import client, headers, seat_url
from test_server_api import make, refused, seat

Json = dict[str, Any]


@pytest.fixture
def app_client(tmp_path: Path) -> Any:
    with client(tmp_path / "games.sqlite") as c:
        c.db = tmp_path / "games.sqlite"
        yield c


def test_alsace_again_over_the_api_earthling_turns(app_client: Any) -> None:
    made = make(
        app_client, preset="alsace-again", seed=5, analysis=True, computer={"martians": "martian"}
    )
    game = made["game"]["id"]
    earth, token = seat(made, "earth")
    url = seat_url(game, earth, "plans")
    view = app_client.get(seat_url(game, earth), headers=headers(token)).json()
    assert view["stage"]["kind"] == "planning"
    assert view["stage"]["to_plan"] == ["messerschmitt", "stuka"]
    # three cards for a WW2 airplane, or a speed it cannot fly: refused, nothing stored
    refused(
        app_client.post(
            url,
            headers=headers(token),
            json={
                "turn": 1,
                "plans": {
                    "messerschmitt": {"cards": ["1", "2", "3"]},
                    "stuka": {"cards": ["2"], "speeds": [2]},
                },
            },
        ),
        422,
        "plans",
    )
    refused(
        app_client.post(
            url,
            headers=headers(token),
            json={
                "turn": 1,
                "plans": {
                    "messerschmitt": {"cards": ["2"], "speeds": [9]},
                    "stuka": {"cards": ["2"], "speeds": [2]},
                },
            },
        ),
        422,
    )
    one = {
        "messerschmitt": {"cards": ["2"], "speeds": [3]},
        "stuka": {"cards": ["2"], "speeds": [2]},
    }
    view = app_client.post(url, headers=headers(token), json={"turn": 1, "plans": one}).json()
    # the first action phase is resolved; the second planning phase is the Earthlings'
    stage = view["stage"]
    assert stage["kind"] == "planning" and stage.get("earthling") and stage["phase"] == 2
    assert stage["waiting_for"] == [earth]
    # a plan for phase 3 now, or for the Martian's tripod: refused
    refused(
        app_client.post(url, headers=headers(token), json={"turn": 1, "phase": 3, "plans": one}),
        409,
    )
    refused(
        app_client.post(
            url,
            headers=headers(token),
            json={"turn": 1, "phase": 2, "plans": {**one, "locust": {"cards": ["1", "2", "3"]}}},
        ),
        422,
        "plans.locust",
    )
    steps = 0
    while view["stage"]["kind"] != "over" and steps < 200:
        steps += 1
        stage = view["stage"]
        if stage["kind"] == "planning" and not stage["submitted"]:
            body: Json = {"turn": stage["turn"], "plans": {}}
            if stage.get("earthling"):
                body["phase"] = stage["phase"]
            for vid in stage["to_plan"]:
                body["plans"][vid] = {"cards": ["5" if steps % 2 else "4"], "speeds": [2]}
            response = app_client.post(url, headers=headers(token), json=body)
            assert response.status_code == 200, response.text
            view = response.json()
        elif stage["kind"] == "targets" and stage["questions"]:
            response = app_client.post(
                seat_url(game, earth, "targets"),
                headers=headers(token),
                json={"turn": stage["turn"], "phase": stage["phase"], "fire": {}},
            )
            assert response.status_code == 200, response.text
            view = response.json()
        else:
            raise AssertionError(f"stuck at {stage}")
    assert view["stage"]["kind"] == "over"
    kinds = [e["kind"] for s in view["steps"] for e in s["events"]]
    assert "earthling_turn_started" in kinds and "speed_revealed" in kinds
    assert all(e["text"] for s in view["steps"] for e in s["events"])
    # the stored game replays to the same steps
    replay = app_client.get(seat_url(game, earth, "replay"), headers=headers(token)).json()
    assert len(replay["frames"]) == view["steps_total"] + 1
    # a restarted server replays the stored plans, Earthling turns included
    with client(app_client.db) as again:
        back = again.get(seat_url(game, earth), headers=headers(token)).json()
    assert back["stage"]["kind"] == "over" and back["steps_total"] == view["steps_total"]
    assert back["game"]["result"] == view["game"]["result"]
