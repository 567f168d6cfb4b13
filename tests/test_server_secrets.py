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
