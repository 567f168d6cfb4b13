"""What the lobby needs to get friends into a game (issue 29 item 9): a one-line
description of each preset, only the computer players that fly a seat's vehicles, a note
when the server listens on loopback only, and a rematch at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_helpers import client, duel_situation, headers, seat_url, straights_plan

Json = dict[str, Any]


@pytest.fixture(name="c")
def client_fixture(tmp_path: Path) -> Any:
    with client(tmp_path / "games.sqlite") as c:
        yield c


def refused(response: Any, status: int, field: str | None) -> str:
    assert response.status_code == status, response.text
    body: Json = response.json()
    assert body["field"] == field, body
    return str(body["error"])


def test_each_preset_says_in_one_line_who_flies_what_the_rules_and_what_wins(c: Any) -> None:
    presets = c.get("/api/catalog").json()["presets"]
    duel = presets["duel"]["description"]
    assert duel == (
        "allies: Sopwith Camel · central: Albatros D.Va · wog rules · the last side with "
        "vehicles in the playing area wins"
    )
    lonely = presets["a-lonely-invader"]["description"]
    assert "martians: Mk I Locust" in lonely and "wog rules" in lonely
    assert "earth win if the tripod is destroyed" in lonely
    assert "\n" not in lonely
    assert presets["a-lonely-invader"]["kinds"] == {
        "locust": "automated",
        "plane": "airplane",
        "plane-2": "airplane",
    }


def test_the_catalog_says_what_each_computer_player_flies(c: Any) -> None:
    catalog = c.get("/api/catalog").json()
    flies = catalog["bot_flies"]
    assert set(flies) == set(catalog["bots"])
    assert flies["automated-tripod"] == ["automated"]
    assert flies["hard"] == ["airplane", "tripod"]
    assert catalog["loopback"] is True  # the test server's default address: 127.0.0.1


def test_a_computer_player_that_cannot_fly_the_seat_is_refused(c: Any) -> None:
    """The Automated Tripod (001) flies an automated tripod, not a Camel."""
    error = refused(
        c.post("/api/games", json={"preset": "duel", "computer": {"allies": "automated-tripod"}}),
        422,
        "computer.allies",
    )
    assert "does not fly" in error and "hard" in error
    made = c.post("/api/games", json={"preset": "duel"}).json()
    game = made["game"]["id"]
    allies = next(s for s in made["seats"] if s["label"] == "allies")
    refused(
        c.post(
            seat_url(game, allies["id"], "computer"),
            headers=headers(allies["token"]),
            json={"bot": "automated-tripod"},
        ),
        422,
        "bot",
    )
    assert c.get(f"/api/games/{game}").json()["seats"][0]["computer"] is None


def _finished(c: Any) -> Json:
    """A duel both airplanes fly off the north edge of: over at the first phase."""
    sit = duel_situation()
    for v in sit["vehicles"]:
        v["pose"] = {"x": v["pose"]["x"], "y": 86.0, "heading": 90.0}
    made: Json = c.post("/api/games", json={"situation": sit}).json()
    game = made["game"]["id"]
    for s in made["seats"]:
        (vid,) = s["vehicles"]
        answer = c.post(
            seat_url(game, s["id"], "plans"),
            headers=headers(s["token"]),
            json={"turn": 1, "plans": {vid: straights_plan()}},
        )
        assert answer.status_code == 200, answer.text
    assert c.get(f"/api/games/{game}").json()["over"] is True
    return made


def test_a_rematch_is_the_same_table_with_new_seats(c: Any) -> None:
    made = _finished(c)
    game = made["game"]["id"]
    first = made["seats"][0]
    again = c.post(seat_url(game, first["id"], "rematch"), headers=headers(first["token"]))
    assert again.status_code == 201, again.text
    new: Json = again.json()
    assert new["game"]["id"] != game and new["game"]["over"] is False
    assert new["game"]["title"] == made["game"]["title"]
    assert [(s["label"], s["vehicles"], s["computer"]) for s in new["seats"]] == [
        (s["label"], s["vehicles"], s["computer"]) for s in made["seats"]
    ]
    assert all(s["token"] != o["token"] for s, o in zip(new["seats"], made["seats"], strict=True))
    assert new["hotseat_link"].startswith(f"/play/{new['game']['id']}#seats=")


def test_a_rematch_needs_a_finished_game_and_a_seat_of_it(c: Any) -> None:
    made = c.post("/api/games", json={"preset": "duel"}).json()
    game = made["game"]["id"]
    first = made["seats"][0]
    refused(
        c.post(seat_url(game, first["id"], "rematch"), headers=headers(first["token"])), 409, None
    )
    done = _finished(c)
    other = done["seats"][0]
    refused(
        c.post(seat_url(done["game"]["id"], other["id"], "rematch"), headers=headers("x" * 20)),
        403,
        "token",
    )
    games = c.get("/api/games").json()["games"]
    assert len(games) == 2  # nothing made by the refusals
