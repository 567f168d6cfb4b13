"""Hidden information: no response to one seat — views, WebSocket messages, replays,
checks, answers to its own requests — holds another seat's secrets (its damage, its
damage cards, its plans, secret special damage) or the game's seed."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import client, duel_situation, headers, seat_url, straights_plan

Json = dict[str, Any]

SECRET_KEYS = {"damage", "damage_cards", "plan", "resistance"}


def walk(value: Any) -> Iterator[Json]:
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def leaks(body: Any, own: set[str], others: set[str], other_token: str) -> list[str]:
    """Every secret of ``others`` found in a response to the seat owning ``own``."""
    found: list[str] = []
    if other_token in json.dumps(body):
        found.append("another seat's token")
    for node in walk(body):
        if "seed" in node:
            found.append("the seed")
        if node.get("id") in others and SECRET_KEYS & set(node):
            found.append(f"{node['id']}: {sorted(SECRET_KEYS & set(node))}")
        kind = node.get("kind")
        if kind == "damage_drawn" and node.get("vehicle") not in own:
            found.append(f"damage drawn by {node.get('vehicle')}")
        if kind == "special_damage" and not node.get("announced") and node.get("vehicle") in others:
            found.append(f"secret special of {node.get('vehicle')}")
        if node.get("my_plans") and set(node["my_plans"]) - own:
            found.append("another seat's plans")
    return found


@pytest.mark.parametrize("ruleset", ["wog", "wow"])
def test_no_response_to_a_seat_holds_another_seats_secrets(
    tmp_path: Path, ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    situation = {**duel_situation(gap=30), "ruleset": ruleset, "switches": {"standard_rules": True}}
    # the server's secret seed, fixed for the test (a seed given in the request would
    # make an open analysis game, whose seed is public)
    monkeypatch.setattr(secrets, "randbits", lambda _bits: 17)
    with client(tmp_path / "games.sqlite") as c:
        made = c.post("/api/games", json={"situation": situation}).json()
        game = made["game"]["id"]
        seats = {s["label"]: (s["id"], s["token"]) for s in made["seats"]}
        own = {"allies": {"camel"}, "central": {"albatros"}}
        responses: dict[str, list[Any]] = {"allies": [], "central": []}
        with (
            c.websocket_connect(f"/api/games/{game}/ws") as ws_a,
            c.websocket_connect(f"/api/games/{game}/ws") as ws_c,
        ):
            ws_a.send_json({"seat": seats["allies"][0], "token": seats["allies"][1]})
            ws_c.send_json({"seat": seats["central"][0], "token": seats["central"][1]})
            responses["allies"].append(ws_a.receive_json())
            responses["central"].append(ws_c.receive_json())
            turn = 1
            over = False
            while not over and turn <= 6:
                for label, vid in (("allies", "camel"), ("central", "albatros")):
                    sid, token = seats[label]
                    check = c.post(
                        seat_url(game, sid, "check"),
                        headers=headers(token),
                        json={"plans": {vid: {"cards": ["1", "2"]}}},
                    )
                    responses[label].append(check.json())
                    posted = c.post(
                        seat_url(game, sid, "plans"),
                        headers=headers(token),
                        json={"turn": turn, "plans": {vid: straights_plan()}},
                    )
                    assert posted.status_code == 200, posted.text
                    responses[label].append(posted.json())
                    # each submission changes the game: both pages get a message
                    responses["allies"].append(ws_a.receive_json())
                    responses["central"].append(ws_c.receive_json())
                for label in seats:
                    sid, token = seats[label]
                    seen = c.get(seat_url(game, sid), headers=headers(token)).json()
                    responses[label].append(seen)
                    over = seen["stage"]["kind"] == "over"
                turn += 1
            for label in seats:
                sid, token = seats[label]
                responses[label].append(
                    c.get(seat_url(game, sid, "replay"), headers=headers(token)).json()
                )
        public = c.get(f"/api/games/{game}").json()
        assert leaks(public, set(), {"camel", "albatros"}, "-") == []
        drawn = {"allies": 0, "central": 0}
        for label, other in (("allies", "central"), ("central", "allies")):
            for body in responses[label]:
                assert leaks(body, own[label], own[other], seats[other][1]) == []
                drawn[label] += sum(1 for n in walk(body) if n.get("kind") == "damage_drawn")
        # the check would see a leak: each seat does get its own damage cards
        assert drawn["allies"] + drawn["central"] > 0


def secret_kinds(body: Any) -> list[str]:
    """The explosion and observer secrets of the Bristol found in a response."""
    found: list[str] = []
    for node in walk(body):
        kind = node.get("kind")
        if kind == "explosion" and node.get("vehicle") == "bristol":
            found.append("explosion")
        if kind == "rear_gun_lost":
            found.append("rear_gun_lost")
    if "observer" in json.dumps(body):
        found.append("observer")
    return found


def test_a_secret_explosion_and_an_observers_loss_reach_their_seat_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """000: "The player looks secretly at the damage cards drawn" (an explosion is "half
    of its original damage allowance", a number like the others) and 002: "Special
    Damages (Keep Secret Unless Noted)" (the observer): the Bristol's seat gets both
    through its view, its replay and its WebSocket; the Fokker's seat gets neither."""
    from conftest import default_plans, explosion_card, plain

    bristol, fokker = "bristol-f2b", "fokker-d7"
    situation = {
        "ruleset": "wog",
        "table": {"width": 300, "height": 300},
        "damage_decks": {"A": [explosion_card("A"), *plain("A", 1, 1, 1)]},
        "vehicles": [
            {
                "id": "bristol",
                "type": bristol,
                "side": "allies",
                "pose": {"x": 150, "y": 150, "heading": 0},
                "status": {"observer": 1},
            },
            {
                "id": "chaser",
                "type": fokker,
                "side": "central",
                "pose": {"x": 130, "y": 150, "heading": 0},
            },
        ],
    }
    cards = {
        "bristol": default_plans(bristol)[0]["cards"],
        "chaser": default_plans(fokker)[0]["cards"],
    }
    assert cards["bristol"] == cards["chaser"]  # one deck: the gap stays
    monkeypatch.setattr(secrets, "randbits", lambda _bits: 17)
    with client(tmp_path / "games.sqlite") as c:
        made = c.post("/api/games", json={"situation": situation})
        assert made.status_code in (200, 201), made.text
        game = made.json()["game"]["id"]
        seats = {s["label"]: (s["id"], s["token"]) for s in made.json()["seats"]}
        responses: dict[str, list[Any]] = {"allies": [], "central": []}
        with (
            c.websocket_connect(f"/api/games/{game}/ws") as ws_a,
            c.websocket_connect(f"/api/games/{game}/ws") as ws_c,
        ):
            sockets = {"allies": ws_a, "central": ws_c}
            for label, ws in sockets.items():
                ws.send_json({"seat": seats[label][0], "token": seats[label][1]})
                responses[label].append(ws.receive_json())
            for label, vid in (("allies", "bristol"), ("central", "chaser")):
                sid, token = seats[label]
                posted = c.post(
                    seat_url(game, sid, "plans"),
                    headers=headers(token),
                    json={"turn": 1, "plans": {vid: {"cards": cards[vid]}}},
                )
                assert posted.status_code == 200, posted.text
                for each, ws in sockets.items():
                    responses[each].append(ws.receive_json())
            for label in seats:
                sid, token = seats[label]
                for what in ("", "replay"):
                    got = c.get(seat_url(game, sid, what), headers=headers(token))
                    assert got.status_code == 200, got.text
                    responses[label].append(got.json())
    # the Bristol's seat is told both, through each way (view, replay, WebSocket)...
    for body in responses["allies"][-3:]:
        assert {"explosion", "rear_gun_lost"} <= set(secret_kinds(body)), body
    # ...the other seat through none; it sees the Bristol's cards taken and its gun silent
    for body in responses["central"]:
        assert secret_kinds(body) == [], body
    replay = json.dumps(responses["central"][-1])
    assert '"damage_cards_taken"' in replay and '"holds fire"' in replay
