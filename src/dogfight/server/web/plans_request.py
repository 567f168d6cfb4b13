"""A seat's plans request (``POST /api/games/{game}/seats/{seat}/plans``) read by its
route: the hot request of a game in play (every seat, every turn).

Its route takes the bare :class:`~starlette.requests.Request` and reads it here, once:
the body decoded once and validated once against :class:`SubmitPlans`, the query once
against :class:`PlansQuery`. FastAPI's reading of declared parameters (its dependency
solving, its body handling, the endpoint context it works out for every request) cost
more than storing the plans and resolving the turn; this reads the same things in the
same order and refuses what FastAPI refused, word for word (``tests/test_server_plans_route.py``
holds every refusal): a body that is not JSON (400), a JSON body of another content type
or none (422), the query before the body's fields (422, ``field`` the parameter), the
body's first error (422, ``field`` the body's field). The refusals are raised as
FastAPI's own exceptions, so the application's handlers word them as every other
route's. :data:`OPENAPI` describes the same parameters and body in ``/openapi.json``.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Literal, cast

from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, ValidationError
from starlette.datastructures import QueryParams
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import request_response

from dogfight.server.schemas import SubmitPlans

PLANS_PATH = "/api/games/{game_id}/seats/{seat_id}/plans"

AnswerKind = Literal["view", "update"]
"""What a seat's plans, targets or decisions are answered with (the ``answer`` query
parameter): its ``view`` with the steps after ``since`` (the default), or only its
``update`` (``{"type": "update", "game", "seat", "stage", "steps_total"}``). The page
asks for the update: its views come over the WebSocket, which sends the whole view after
every change anyway, so building it a second time for the answer was work thrown away
(a tenth of the server's work on a turn)."""


class PlainRoute(APIRoute):
    """A FastAPI route whose endpoint takes the bare request (and answers it): FastAPI's
    routing, middleware, exception handlers and ``/openapi.json`` as for every route,
    without its reading of declared parameters (the dependency solving, the body's
    reading, the telemetry and error context and the exit stacks for dependencies with
    ``yield`` it sets up for every request), which the endpoint does not need: it reads
    the request itself (:func:`read_plans`). The request is handled as Starlette handles
    a plain route's (its exception handlers included)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **given: Any) -> None:
        super().__init__(path, endpoint, **given)
        self.app = request_response(self.get_route_handler())

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        return cast(Callable[[Request], Coroutine[Any, Any, Response]], self.endpoint)


class PlansQuery(BaseModel):
    """The plans request's query: ``since`` (the steps the answering view leaves out) and
    ``answer``. Other parameters are ignored; of a parameter given twice the last counts
    (as for every route's query)."""

    model_config = ConfigDict(frozen=True)

    since: int = 0
    answer: AnswerKind = "view"


@dataclass(frozen=True)
class PlansRequest:
    """What a plans request asks, read and validated."""

    game_id: str
    seat_id: str
    token: str | None
    since: int
    answer: AnswerKind
    body: SubmitPlans


def seat_token(x_seat_token: str | None, authorization: str | None) -> str | None:
    """A seat's token: the ``X-Seat-Token`` header, else ``Authorization: Bearer``."""
    if x_seat_token:
        return x_seat_token
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


async def read_plans(request: Request) -> PlansRequest:
    """The request's seat, token, query and body; raises the refusal of a malformed one
    (:class:`RequestValidationError`: 400 for a body that is not JSON, else 422;
    :class:`HTTPException` 400 for a body no JSON reader could take, e.g. nested too deep
    or not UTF-8).

    A good body is decoded and validated once, by pydantic (``model_validate_json``). A
    body it refuses is read again as FastAPI read it (``json.loads``, then the model),
    to be refused in the words the API has always used — or taken, where FastAPI took it
    (JSON nested deeper than pydantic's reader goes, for one)."""
    raw = await request.body()
    content_type = x_seat_token = authorization = None
    for name, value in request.scope["headers"]:  # lower case (ASGI); the first counts
        if name == b"content-type" and content_type is None:
            content_type = value.decode("latin-1")
        elif name == b"x-seat-token" and x_seat_token is None:
            x_seat_token = value.decode("latin-1")
        elif name == b"authorization" and authorization is None:
            authorization = value.decode("latin-1")
    json_body = bool(raw) and _is_json(content_type)
    body = None
    if json_body:
        with contextlib.suppress(ValidationError):
            body = SubmitPlans.model_validate_json(raw)
    decoded: Any = None
    if body is None and raw:
        # another content type (or none): refused below, as not an object
        decoded = _decoded(raw) if json_body else raw
    query = _query(request.scope.get("query_string", b""))  # after the JSON, as FastAPI
    if body is None:
        if not raw:
            missing = {"type": "missing", "loc": ("body",), "msg": "Field required", "input": None}
            raise RequestValidationError([missing])
        try:
            # read as FastAPI reads a body (attributes allowed), so a body that is no
            # object is refused in the same words
            body = SubmitPlans.model_validate(decoded, from_attributes=True)
        except ValidationError as exc:
            raise RequestValidationError(_located("body", exc)) from exc
    params = request.path_params
    return PlansRequest(
        params["game_id"],
        params["seat_id"],
        seat_token(x_seat_token, authorization),
        query.since,
        query.answer,
        body,
    )


def _decoded(raw: bytes) -> Any:
    """A JSON body as FastAPI decoded it (the refusal of one it could not decode)."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise RequestValidationError(
            [
                {
                    "type": "json_invalid",
                    "loc": ("body", exc.pos),
                    "msg": "JSON decode error",
                    "input": {},
                    "ctx": {"error": exc.msg},
                }
            ]
        ) from exc
    except Exception as exc:  # too deep, not UTF-8...
        raise HTTPException(400, "There was an error parsing the body") from exc


@functools.lru_cache(maxsize=256)
def _query(query_string: bytes) -> PlansQuery:
    """A query read and validated (``PlansQuery``; the refusal of a bad one): once per
    query string, as the same few come with every request (``answer=update``, the
    page's), and reading one cost as much as validating the body."""
    try:
        return PlansQuery.model_validate(QueryParams(query_string))
    except ValidationError as exc:
        raise RequestValidationError(_located("query", exc)) from exc


def _is_json(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` is JSON's: ``application/json`` or
    ``application/<anything>+json``, parameters aside."""
    if not content_type:
        return False
    kind = content_type.split(";", 1)[0].strip().lower()
    main, _, sub = kind.partition("/")
    return main == "application" and (sub == "json" or sub.endswith("+json"))


def _located(where: str, exc: ValidationError) -> list[Any]:
    """The errors of ``exc`` placed in the request's ``where`` (``body``, ``query``)."""
    return [{**error, "loc": (where, *error["loc"])} for error in exc.errors()]


def _path_parameter(name: str) -> dict[str, Any]:
    title = name.replace("_", " ").title()
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": {"type": "string", "title": title},
    }


def _optional_header(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "header",
        "required": False,
        "schema": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": name},
    }


def _query_parameter(name: str) -> dict[str, Any]:
    schema = dict(PlansQuery.model_json_schema()["properties"][name])
    return {"name": name, "in": "query", "required": False, "schema": schema}


OPENAPI: dict[str, Any] = {
    "parameters": [
        _path_parameter("game_id"),
        _path_parameter("seat_id"),
        _query_parameter("since"),
        _query_parameter("answer"),
        _optional_header("X-Seat-Token"),
        _optional_header("Authorization"),
    ],
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": SubmitPlans.model_json_schema()}},
    },
}
"""The request's path, query, headers and body in ``/openapi.json`` (its endpoint
declares none: it reads them itself)."""
