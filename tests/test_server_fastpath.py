"""The plans request answered by the fast path (``dogfight.server.web.fastpath``) gets the
same answer, refusals included, as the FastAPI route it stands in front of: two games
with the same seed, one posted to through the fast path, the other through the route
(an extra query parameter sends a request on to it), answer alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from server_helpers import client, headers, seat_url, straights_plan

from dogfight.server.web import fastpath

Json = dict[str, Any]


def _same_game_twice(c: Any) -> list[tuple[str, dict[str, tuple[str, str]]]]:
    games = []
    for _ in range(2):
        made = c.post("/api/games", json={"preset": "duel", "seed": 5, "analysis": True})
        assert made.status_code == 201, made.text
        body = made.json()
        games.append(
            (body["game"]["id"], {s["label"]: (s["id"], s["token"]) for s in body["seats"]})
        )
    return games


def _alike(a: Any, b: Any, ids: tuple[str, str]) -> None:
    assert a.status_code == b.status_code
    assert a.headers["content-type"] == b.headers["content-type"]
    assert a.headers["x-frame-options"] == b.headers["x-frame-options"] == "DENY"
    assert "content-security-policy" in a.headers
    assert _plain(a.text, ids[0]) == _plain(b.text, ids[1])


def _plain(text: str, game: str) -> Json:
    """An answer with its game's id and time of creation taken out."""
    out: Json = json.loads(text.replace(game, "GAME"))
    if isinstance(out.get("game"), dict):
        out["game"].pop("created")
    return out


@pytest.mark.parametrize(
    ("body", "token_of"),
    [
        ({"turn": 1, "plans": {"camel": straights_plan()}}, "allies"),  # accepted
        ({"turn": 2, "plans": {"camel": straights_plan()}}, "allies"),  # 409: not turn 2
        ({"turn": 1, "plans": {"albatros": straights_plan()}}, "allies"),  # 422: not its own
        ({"turn": 1, "plans": {"camel": {"cards": ["1"]}}}, "allies"),  # 422: a bad plan
        ({"turn": 1, "plans": {"camel": straights_plan()}}, "central"),  # 403: wrong token
        ({"turn": 0, "plans": {}}, "allies"),  # refused by the schema: the route's 422
    ],
)
def test_the_fast_path_answers_as_the_route(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: Json, token_of: str
) -> None:
    answered: list[str] = []
    handler = fastpath.FastPlans.__call__

    async def counting(self: fastpath.FastPlans, scope: Any, receive: Any, send: Any) -> None:
        answered.append(scope.get("query_string", b"").decode())
        await handler(self, scope, receive, send)

    monkeypatch.setattr(fastpath.FastPlans, "__call__", counting)
    with client(tmp_path / "g.sqlite") as c:
        (fast, fast_seats), (slow, slow_seats) = _same_game_twice(c)
        replies = []
        for game, seats, query in ((fast, fast_seats, "since=1"), (slow, slow_seats, "x=1")):
            seat = seats["allies"][0]
            replies.append(
                c.post(
                    seat_url(game, seat, "plans") + "?" + query,
                    headers=headers(seats[token_of][1]),
                    json=body,
                )
            )
        _alike(replies[0], replies[1], (fast, slow))
        assert "since=1" in answered


def test_a_plans_request_of_another_content_type_goes_to_the_route(tmp_path: Path) -> None:
    with client(tmp_path / "g.sqlite") as c:
        (game, seats), _ = _same_game_twice(c)
        seat, token = seats["allies"]
        answer = c.post(
            seat_url(game, seat, "plans"),
            headers={**headers(token), "content-type": "text/plain"},
            content=b'{"turn": 1, "plans": {}}',
        )
        assert answer.status_code == 422 and answer.json()["error"]
        assert c.post(
            seat_url(game, seat, "plans"),
            headers=headers(token),
            json={"turn": 1, "plans": {"camel": straights_plan()}},
        ).is_success
