"""The hot request of a game in play, answered without FastAPI's routing.

Every turn each seat posts its plans: under load that request is most of what the server
does, and FastAPI's stack (routing over every route, dependency solving, the body read
and validated twice, its exception layers) cost more than storing the plans and
resolving the turn. :class:`FastPlans` is an ASGI middleware (behind
:class:`dogfight.server.web.limits.Guard`: the ``Host`` check, the body limit and the
security headers apply as before; both in front of FastAPI's own layers,
:class:`dogfight.server.web.app.Api`) that answers a well-formed
``POST /api/games/{game}/seats/{seat}/plans`` itself, with the same work, answer and
refusals as the route; anything else — another path, an unusual query (anything but
``since`` and ``answer``, each at most once, with a value the route takes) or content type, a
body the schema refuses — goes on to FastAPI untouched (the body given back as read), so
every refusal of a malformed request is still FastAPI's, word for word.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from pydantic import ValidationError

from dogfight.server.errors import ApiError
from dogfight.server.schemas import SubmitPlans
from dogfight.server.web.limits import Asgi, Message, Receive, Scope, Send, replay

log = logging.getLogger("dogfight.server")

PLANS_PATH = re.compile(r"/api/games/([^/]+)/seats/([^/]+)/plans")
DIGITS = re.compile(rb"\d{1,18}")

ANSWERS = {b"view": "view", b"update": "update"}
"""The ``answer`` query values (the route's ``Answer``)."""

Answer = tuple[int, bytes]
"""HTTP status and JSON body."""

Handler = Callable[[str, str, str | None, int, str, SubmitPlans], Awaitable[Answer]]
"""(game, seat, token, since, answer, body) -> the answer; raises :class:`ApiError` to
refuse."""

Deliver = Callable[[str, Callable[[], Coroutine[Any, Any, None]]], Awaitable[None]]
"""(game, send the answer) -> sends the game's messages and the answer once what the
request wrote is stored (raises :class:`ApiError` to refuse instead): the server's
``deliver``. Without it the answer is sent as soon as the handler returns."""


class FastPlans:
    """ASGI middleware answering a well-formed plans request with ``handler``."""

    def __init__(
        self,
        app: Asgi,
        handler: Handler,
        refuse: Callable[[ApiError], Awaitable[Answer]],
        deliver: Deliver | None = None,
    ) -> None:
        self.app = app
        self.handler = handler
        self.refuse = refuse
        self.deliver = deliver

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        found = PLANS_PATH.fullmatch(scope.get("path", ""))
        asked = None if found is None else _query(scope.get("query_string", b""))
        if found is None or asked is None:
            await self.app(scope, receive, send)
            return
        token = None
        authorization = None
        json_body = False
        for name, value in scope.get("headers", ()):  # lower case (ASGI)
            if name == b"x-seat-token" and token is None:
                token = value.decode("latin-1")
            elif name == b"authorization" and authorization is None:
                authorization = value.decode("latin-1")
            elif name == b"content-type":
                json_body = value.split(b";")[0].strip().lower() == b"application/json"
        if not json_body:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        messages: list[Message] = []
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                await self.app(scope, replay(messages, receive), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        try:
            body = SubmitPlans.model_validate_json(b"".join(chunks))
        except ValidationError:
            await self.app(scope, replay(messages, receive), send)  # FastAPI's refusal
            return
        if not token and authorization and authorization.lower().startswith("bearer "):
            token = authorization[7:].strip()
        game_id, seat_id = found.group(1), found.group(2)
        try:
            status, payload = await self.handler(game_id, seat_id, token or None, *asked, body)
            if self.deliver is not None:
                await self.deliver(game_id, lambda: _answer(send, status, payload))
                return
        except ApiError as exc:
            status, payload = await self.refuse(exc)
        except Exception as exc:
            log.exception("dogfight: %s %s", scope.get("method"), scope.get("path"))
            status = 500
            payload = render({"error": f"internal error ({type(exc).__name__})", "field": None})
        await _answer(send, status, payload)


def _query(query: bytes) -> tuple[int, str] | None:
    """``since`` (0 when absent) and ``answer`` (``view`` when absent) of a plans
    request's query; None for any other query (a parameter twice, another parameter, a
    value the route would refuse or read otherwise): FastAPI then has the request."""
    since, answer = 0, "view"
    if not query:
        return since, answer
    seen: set[bytes] = set()
    for part in query.split(b"&"):
        name, _, value = part.partition(b"=")
        if name in seen:
            return None
        seen.add(name)
        if name == b"since" and DIGITS.fullmatch(value):
            since = int(value)
        elif name == b"answer" and value in ANSWERS:
            answer = ANSWERS[value]
        else:
            return None
    return since, answer


async def _answer(send: Send, status: int, payload: bytes) -> None:
    """Send a JSON answer."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


def render(content: Any) -> bytes:
    """JSON bytes as Starlette's ``JSONResponse`` renders them."""
    return json.dumps(
        content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode("utf-8")
