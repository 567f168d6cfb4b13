"""One log line per request, with a request id, and the request metrics.

:class:`RequestLog` is the outermost ASGI layer of the application (in front of
:class:`dogfight.server.web.limits.Guard`): every request gets an id — the
``X-Request-ID`` a trusted proxy sent (:data:`PEER`: the connection came from an address
named with ``--trusted-proxy``), else a new one — returned in the ``X-Request-ID``
header and written in its log line: method, route template, status, milliseconds, the
client's address (as Guard and the rate limits see it: behind a trusted proxy the
address it forwards) and the game's id where the path names one. A WebSocket is one line
when it closes (status 101, its whole life in ms).

The same layer feeds :mod:`dogfight.server.web.metrics`: the request latency by route
template (never the raw path: no game id in a label), the WebSocket connections open,
and the result latency of a plans request that resolved a turn (its answer is sent right
after the turn's results, at the commit: ``app.py``'s ``deliver``).

``--log-format json`` writes each line as one JSON object (for a log collector),
``text`` as words, for a terminal; without the option no request line is written (the
other records, warnings, in words). :func:`configure` sets either up on the standard
``logging`` module.
"""

from __future__ import annotations

import contextvars
import logging
import os
import re
import sys
import time
from dataclasses import dataclass
from typing import Any, Literal

from dogfight.output import encoding
from dogfight.server.web.limits import Asgi, Message, Receive, Scope, Send
from dogfight.server.web.metrics import Metrics

log = logging.getLogger("dogfight.requests")

LogFormat = Literal["json", "text"]

PEER = "dogfight.peer"
"""Scope key: the connection's own address when it came from a trusted proxy (set by
:class:`NotePeer`, in front of uvicorn's proxy-header handling)."""

GIVEN_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
"""A proxy's request id taken as given (nginx's ``$request_id`` is 32 hex digits)."""


@dataclass
class Notes:
    """What the request's handling tells its log line (a context variable's value)."""

    turns: int = 0
    """Turns the request's input resolved."""


NOTES: contextvars.ContextVar[Notes | None] = contextvars.ContextVar("dogfight_notes", default=None)


def resolved_turns(count: int) -> None:
    """Called by the handling of a request whose input resolved ``count`` turns."""
    notes = NOTES.get()
    if notes is not None and count:
        notes.turns += count


class NotePeer:
    """ASGI layer put in front of uvicorn's ``ProxyHeadersMiddleware``: marks a request
    whose connection comes from a trusted proxy (:data:`PEER`), so its ``X-Request-ID``
    is taken; from anyone else the header is ignored, as ``X-Forwarded-For`` is."""

    def __init__(self, app: Asgi, trusted: Any) -> None:
        self.app = app
        self.trusted = trusted
        """uvicorn's trusted hosts (``in`` tells whether an address is one)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if client and client[0] in self.trusted:
            scope[PEER] = client[0]
        await self.app(scope, receive, send)


class RequestLog:
    """ASGI middleware: request id, log line and metrics of every request."""

    def __init__(self, app: Asgi, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics
        self.latencies: dict[tuple[str, str, int], Any] = {}
        """The latency histogram's child of each (method, route, status class), looked
        up once (prometheus-client's ``labels`` cost twice the observation)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        request_id = _request_id(scope)
        notes = Notes()
        token = NOTES.set(notes)
        status = 500
        accepted = False
        sockets = self.metrics.sockets

        async def send_noted(message: Message) -> None:
            nonlocal status, accepted
            kind = message["type"]
            if kind == "http.response.start":
                status = message["status"]
                message["headers"] = [
                    *message.get("headers", ()),
                    (b"x-request-id", request_id.encode()),
                ]
            elif kind == "websocket.accept":
                status, accepted = 101, True
                sockets.inc()
            elif kind == "websocket.close" and not accepted:
                status = 403
            await send(message)

        try:
            await self.app(scope, receive, send_noted)
        finally:
            NOTES.reset(token)
            if accepted:
                sockets.dec()
            elapsed = time.perf_counter() - began
            self._record(scope, request_id, status, elapsed, notes)

    def _record(
        self, scope: Scope, request_id: str, status: int, elapsed: float, notes: Notes
    ) -> None:
        route, game_id = _route(scope)
        method = scope.get("method", "WS")
        if scope["type"] == "http":
            key = (method, route, status // 100)
            child = self.latencies.get(key)
            if child is None:
                child = self.metrics.requests.labels(method, route, f"{status // 100}xx")
                if len(self.latencies) < 4096:  # any method: keep the cache bounded
                    self.latencies[key] = child
            child.observe(elapsed)
            if notes.turns and status < 300:
                self.metrics.results.observe(elapsed)
        if not log.isEnabledFor(logging.INFO):
            return
        client = scope.get("client")
        fields = {
            "request_id": request_id,
            "method": method,
            "route": route,
            "status": status,
            "ms": round(elapsed * 1000, 1),
            "client": client[0] if client else None,
            "game": game_id,
        }
        log.info("%s %s %s %.1f ms", method, route, status, fields["ms"], extra={"request": fields})


def _request_id(scope: Scope) -> str:
    """The trusted proxy's ``X-Request-ID`` (:class:`NotePeer`), else a new id."""
    if PEER in scope:
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                given: str = value.decode("latin-1")
                if GIVEN_ID.fullmatch(given):
                    return given
    return os.urandom(16).hex()  # 32 hex digits, as uuid4().hex at a fifth of its cost


def _route(scope: Scope) -> tuple[str, str | None]:
    """The request's route template (set by FastAPI's routing; else ``unmatched``) and
    the game id its path names, if any."""
    route = scope.get("route")
    params = scope.get("path_params") or {}
    template = getattr(route, "path", None)
    if template is not None:
        game = params.get("game_id")
        return str(template), game if isinstance(game, str) else None
    return "unmatched", None


class JsonFormatter(logging.Formatter):
    """Each record as one JSON line: time, level, logger, message, and a request's fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        request = getattr(record, "request", None)
        if isinstance(request, dict):
            line.update(request)
        else:
            line["message"] = record.getMessage()
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return encoding.text(line)


class TextFormatter(logging.Formatter):
    """A request's line in words, with its client, game and id after the message."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        request = getattr(record, "request", None)
        if isinstance(request, dict):
            game = f" game={request['game']}" if request.get("game") else ""
            text += f" client={request['client']}{game} id={request['request_id']}"
        return text


def configure(fmt: LogFormat, requests: bool = True) -> None:
    """Log the server's records to stderr in ``fmt``; each request's line (INFO) only if
    ``requests``: a line per request is work on every request, and a process whose
    stderr nobody reads (a pipe left full) would stop at the first line it cannot write."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    for name in ("dogfight", "uvicorn"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.propagate = False
    logging.getLogger("dogfight").setLevel(logging.INFO if requests else logging.WARNING)
