"""The plans request (``POST /api/games/{game}/seats/{seat}/plans``) goes through the
application's one web stack: :class:`~dogfight.server.web.limits.Guard`, then FastAPI's
own layers and its route, which reads the request itself
(:mod:`dogfight.server.web.plans_request`). Until 29 November an ASGI middleware in front
of FastAPI (``fastpath.py``) answered it with a second implementation of the route; the
answers below, refusals word for word, are the ones both gave."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import Request, Response
from fastapi.testclient import TestClient
from server_helpers import client, headers, seat_url, straights_plan

from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits

Json = dict[str, Any]

OK = {"turn": 1, "plans": {"camel": straights_plan()}}
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("plans") / "g.sqlite"
    limits = Limits(allowed_hosts=("testserver",), games_per_minute=0)
    with TestClient(create_app(f"sqlite:///{db}", limits=limits)) as made:
        yield made


def _made(c: TestClient) -> tuple[str, dict[str, tuple[str, str]]]:
    made = c.post("/api/games", json={"preset": "duel", "seed": 5, "analysis": True})
    assert made.status_code == 201, made.text
    body = made.json()
    return body["game"]["id"], {s["label"]: (s["id"], s["token"]) for s in body["seats"]}


def _post(
    c: TestClient,
    query: str = "",
    body: Any = OK,
    raw: bytes | None = None,
    sent: dict[str, str] | None = None,
    token_of: str = "allies",
) -> Any:
    """A plans request of the Camel's seat of a new duel (``raw`` with the headers
    ``sent``, else ``body`` as JSON), with the token of ``token_of`` (a label, or
    ``bearer``: the seat's own as ``Authorization: Bearer``, or ``none``)."""
    game, seats = _made(c)
    seat, token = seats["allies"]
    if token_of == "bearer":
        given = {"Authorization": f"Bearer {token}"}
    elif token_of == "none":
        given = {}
    else:
        given = headers(seats[token_of][1])
    url = seat_url(game, seat, "plans") + (f"?{query}" if query else "")
    if raw is None:
        answer = c.post(url, headers=given, json=body)
    else:
        answer = c.post(url, headers={**given, **(sent or {})}, content=raw)
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["x-frame-options"] == "DENY"  # Guard's headers, every answer
    assert "content-security-policy" in answer.headers
    return answer


ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    ("plain", {}),
    ("the seat's update", {"query": "answer=update"}),
    ("a parameter twice: the last counts", {"query": "answer=view&answer=update"}),
    ("since twice", {"query": "since=1&since=2"}),
    ("a negative since", {"query": "since=-1"}),
    ("another parameter", {"query": "x=1"}),
    ("the token as a bearer", {"token_of": "bearer"}),
    ("a string turn", {"body": {"turn": "1", "plans": OK["plans"]}}),
    ("a whole float turn", {"raw": b'{"turn": 1.0, "plans": {"camel": {"cards": ["1","2","3"]}}}'}),
    (
        "a key twice: the last counts",
        {"raw": b'{"turn": 5, "turn": 1, "plans": {"camel": {"cards": ["1","2","3"]}}}'},
    ),
    (
        "JSON with a charset",
        {
            "raw": json.dumps(OK).encode(),
            "sent": {"content-type": "application/json; charset=utf-8"},
        },
    ),
    (
        "a +json type",
        {"raw": json.dumps(OK).encode(), "sent": {"content-type": "application/vnd.x+json"}},
    ),
]


@pytest.mark.parametrize(("case", "asked"), ACCEPTED, ids=[a for a, _ in ACCEPTED])
def test_a_plans_request_is_taken(c: TestClient, case: str, asked: dict[str, Any]) -> None:
    if "raw" in asked:
        asked = {"sent": JSON, **asked}
    answer = _post(c, **asked)
    assert answer.status_code == 200, answer.text
    kind = "update" if asked.get("query", "").endswith("answer=update") else "view"
    assert answer.json()["type"] == kind


NOT_JSON = "There was an error parsing the body"
NOT_OBJECT = "Input should be a valid dictionary or object to extract fields from"
NOT_INT = "Input should be a valid integer, unable to parse string as an integer"

REFUSED: list[tuple[str, dict[str, Any], int, str, str | None]] = [
    (
        "another turn",
        {"body": {"turn": 2, "plans": OK["plans"]}},
        409,
        "turn 2 is not being planned (now: turn 1)",
        "turn",
    ),
    (
        "a vehicle not its own",
        {"body": {"turn": 1, "plans": {"albatros": straights_plan()}}},
        422,
        "'albatros' is not a vehicle of this seat in play; plan: camel",
        "plans.albatros",
    ),
    (
        "an illegal plan",
        {"body": {"turn": 1, "plans": {"camel": {"cards": ["1"]}}}},
        422,
        "camel: a plan has exactly 3 maneuver cards, got 1",
        "plans",
    ),
    (
        "another seat's token",
        {"token_of": "central"},
        403,
        "this seat's token is missing or wrong",
        "token",
    ),
    ("no token", {"token_of": "none"}, 403, "this seat's token is missing or wrong", "token"),
    (
        "turn 0",
        {"body": {"turn": 0, "plans": {}}},
        422,
        "Input should be greater than or equal to 1",
        "turn",
    ),
    (
        "an unknown field",
        {"body": {"turn": 1, "plans": {}, "x": 1}},
        422,
        "Extra inputs are not permitted",
        "x",
    ),
    ("a list", {"body": [1]}, 422, NOT_OBJECT, None),
    ("not JSON", {"raw": b"{"}, 400, "the body is not valid JSON", None),
    ("no body", {"raw": b""}, 422, "Field required", None),
    (
        "JSON as text/plain",
        {"raw": json.dumps(OK).encode(), "sent": {"content-type": "text/plain"}},
        422,
        NOT_OBJECT,
        None,
    ),
    (
        "JSON without a content type",
        {"raw": json.dumps(OK).encode(), "sent": {}},
        422,
        NOT_OBJECT,
        None,
    ),
    ("NaN", {"raw": b'{"turn": NaN, "plans": {}}'}, 422, "Input should be a finite number", "turn"),
    (
        "1e400",
        {"raw": b'{"turn": 1e400, "plans": {}}'},
        422,
        "Input should be a finite number",
        "turn",
    ),
    (
        "nested too deep",
        {"raw": b'{"plans": ' + b"[" * 5000 + b"]" * 5000 + b"}"},
        400,
        NOT_JSON,
        None,
    ),
    ("not UTF-8", {"raw": b'{"turn": 1, "plans": {"\xff": {}}}'}, 400, NOT_JSON, None),
    (
        "a lone surrogate",
        {"raw": b'{"turn": 1, "plans": {"\\ud800": {}}}'},
        422,
        "Input should be a valid string, unable to parse raw data as a unicode string",
        "plans.\ufffd\ufffd\ufffd.[key]",
    ),
    (
        "too large",
        {"raw": b'{"turn": 1, "plans": {}, "x": "' + b"a" * 300_000 + b'"}'},
        413,
        "the body is larger than 262144 bytes",
        None,
    ),
    ("since not a number", {"query": "since=abc"}, 422, NOT_INT, "since"),
    ("since empty", {"query": "since="}, 422, NOT_INT, "since"),
    (
        "an unknown answer",
        {"query": "answer=everything"},
        422,
        "Input should be 'view' or 'update'",
        "answer",
    ),
    (
        "the query before the body",
        {"query": "answer=everything", "body": {"turn": 0}},
        422,
        "Input should be 'view' or 'update'",
        "answer",
    ),
    (
        "the body's JSON before the query",
        {"query": "answer=everything", "raw": b"{"},
        400,
        "the body is not valid JSON",
        None,
    ),
]


@pytest.mark.parametrize(
    ("case", "asked", "status", "error", "field"), REFUSED, ids=[r[0] for r in REFUSED]
)
def test_a_plans_request_is_refused_as_it_was(
    c: TestClient, case: str, asked: dict[str, Any], status: int, error: str, field: str | None
) -> None:
    if "raw" in asked:
        asked = {"sent": JSON, **asked}
    answer = _post(c, **asked)
    assert answer.status_code == status, answer.text
    assert answer.json() == {"error": error, "field": field}


def test_an_unknown_game_or_seat_is_refused(c: TestClient) -> None:
    game, seats = _made(c)
    seat, token = seats["allies"]
    for url, error, field in (
        (seat_url("nogame", seat, "plans"), "no game 'nogame'", "game_id"),
        (seat_url(game, "noseat", "plans"), f"no seat 'noseat' in game {game}", "seat_id"),
    ):
        answer = c.post(url, headers=headers(token), json=OK)
        assert answer.status_code == 404
        assert answer.json() == {"error": error, "field": field}


def test_the_plans_request_passes_fastapis_middleware(tmp_path: Path) -> None:
    """One web stack: a FastAPI middleware sees the plans request as every other (the
    second path answered it before FastAPI saw it)."""
    seen: list[str] = []
    app = create_app(
        f"sqlite:///{tmp_path / 'g.sqlite'}", limits=Limits(allowed_hosts=("testserver",))
    )

    @app.middleware("http")
    async def record(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        seen.append(f"{request.method} {request.url.path}")
        return await call_next(request)

    with TestClient(app) as c:
        game, seats = _made(c)
        seat, token = seats["allies"]
        answer = c.post(
            seat_url(game, seat, "plans") + "?answer=update", headers=headers(token), json=OK
        )
        assert answer.status_code == 200, answer.text
    assert f"POST {seat_url(game, seat, 'plans')}" in seen


def test_the_plans_route_is_described_as_before(tmp_path: Path) -> None:
    """``/openapi.json`` gives the route's query, headers and body (the route reads them
    itself, FastAPI no longer from its signature)."""
    with client(tmp_path / "g.sqlite") as c:
        schema = c.get("/openapi.json").json()
    operation = schema["paths"]["/api/games/{game_id}/seats/{seat_id}/plans"]["post"]
    params = {(p["name"], p["in"]): p for p in operation["parameters"]}
    assert set(params) == {
        ("game_id", "path"), ("seat_id", "path"), ("since", "query"), ("answer", "query"),
        ("X-Seat-Token", "header"), ("Authorization", "header"),
    }  # fmt: skip
    assert params[("since", "query")]["schema"]["type"] == "integer"
    assert params[("answer", "query")]["schema"]["enum"] == ["view", "update"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    if "$ref" in body:  # FastAPI puts a declared body's model among the components
        body = schema["components"]["schemas"][body["$ref"].rpartition("/")[2]]
    assert body["required"] == ["turn", "plans"] and body["additionalProperties"] is False
    assert set(operation["responses"]) >= {"200", "400", "403", "404", "409", "413", "422"}
