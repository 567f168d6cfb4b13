"""What the server accepts from anyone who can reach it: body size, vehicles per game,
new games per client per minute, the ``Host`` it answers to and the ``Origin`` of a
WebSocket, the proxies whose ``X-Forwarded-For`` it believes, and the security headers
on every response.

:class:`Limits` holds the figures (``dogfight serve`` options, else environment
variables, else the defaults below); :class:`Guard` is the ASGI middleware that refuses
a foreign ``Host`` or WebSocket ``Origin`` and an oversized body before the application
sees the request, and adds the headers; :class:`RateLimit` counts the games each
client address made in the last minute. ``docs/web.md`` ("Limits") says why each
default is what it is.
"""

from __future__ import annotations

import collections
import ipaddress
import json
import os
import socket
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field, replace
from typing import Any

from dogfight.errors import DataError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]

ENV = {
    "max_body": "DOGFIGHT_MAX_BODY",
    "max_vehicles": "DOGFIGHT_MAX_VEHICLES",
    "games_per_minute": "DOGFIGHT_GAMES_PER_MINUTE",
    "max_spectators": "DOGFIGHT_MAX_SPECTATORS",
    "allowed_hosts": "DOGFIGHT_ALLOWED_HOSTS",
    "trusted_proxies": "DOGFIGHT_TRUSTED_PROXY",
}
"""The environment variable of each figure (``serve`` options win)."""

LISTS = {"allowed_hosts": "--allow-host", "trusted_proxies": "--trusted-proxy"}
"""The figures that are lists (comma-separated in a variable or an option's value) and
their ``serve`` options, repeatable."""

WILDCARDS = {"0.0.0.0", "::", ""}

LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The pages load only their own scripts, styles and sockets (no inline code); every
response carries it (FastAPI's Swagger page, which needed inline and CDN scripts, is not
served: ``/openapi.json`` describes the API)."""

HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


@dataclass(frozen=True)
class Limits:
    """The server's limits; 0 turns a count limit off."""

    max_body: int = 256 * 1024
    """Bytes of a request body: a 64-vehicle situation is about 20 KB."""
    max_vehicles: int = 16
    """Vehicles (reinforcements included) in a game made on this server: every scenario
    fits; 40 hard bots made one step take 14 s."""
    games_per_minute: int = 30
    """New games per client address per minute."""
    max_spectators: int = 20
    """Spectators' open WebSockets per game (in one process): beyond it one is refused."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names the server answers to besides its own address and localhost
    (``*``: any)."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses (or networks) of the reverse proxies whose ``X-Forwarded-For`` names the
    client: rate limits and logs use the address it gives for a request from one of them
    and ignore the header from anyone else. None (the default): the header is ignored,
    every client is the address its connection comes from."""
    bound_host: str = "127.0.0.1"
    """The address the server listens on."""
    ws_max_message: int = 64 * 1024
    """Bytes of one WebSocket message."""
    hosts: frozenset[str] = field(default=frozenset(), compare=False)

    @property
    def loopback_only(self) -> bool:
        """Whether the server listens on this machine's loopback only: nobody on another
        machine can open its links (the lobby says so)."""
        host = self.bound_host.strip("[]").lower()
        return host in LOCAL_NAMES or host.startswith("127.")

    @classmethod
    def from_env(cls, **given: Any) -> Limits:
        """Options given (not None) win over the environment, which wins over defaults."""
        values: dict[str, Any] = {}
        for name, var in ENV.items():
            raw = os.environ.get(var)
            if raw is None or raw.strip() == "":
                continue
            if name in LISTS:
                values[name] = _listed(var, name, [raw])
                continue
            try:
                number = int(raw)
            except ValueError:
                raise DataError(var, name, raw, "a whole number (0: no limit)") from None
            if number < 0:
                raise DataError(var, name, raw, "a whole number (0: no limit)")
            values[name] = number
        for name, value in given.items():
            if value is None:
                continue
            if isinstance(value, int) and value < 0:
                raise DataError(f"--{name.replace('_', '-')}", name, value, "0 or more")
            if isinstance(value, list | tuple):
                value = _listed(LISTS[name], name, list(value))
            values[name] = value
        return cls(**values).resolved()

    def resolved(self) -> Limits:
        """With the set of host names this server answers to worked out."""
        names = {*LOCAL_NAMES, *(h.lower() for h in self.allowed_hosts)}
        bound = self.bound_host.strip("[]").lower()
        if bound not in WILDCARDS:
            names.add(bound)
        else:
            with_host = socket.gethostname().lower()
            names |= {with_host, f"{with_host}.local"}
        return replace(self, hosts=frozenset(names))

    def host_allowed(self, header: str) -> bool:
        """Whether a request's ``Host`` names this server: its bound address, localhost,
        a name of the allow-list, or (listening on every interface) any IP address —
        a name chosen by someone else (DNS rebinding) is refused."""
        hosts = self.hosts or self.resolved().hosts
        if "*" in hosts:
            return True
        name = _host_name(header)
        if name is None:
            return False
        if name in hosts:
            return True
        if self.bound_host.strip("[]") in WILDCARDS:
            try:
                ipaddress.ip_address(name)
            except ValueError:
                return False
            return True
        return False

    def origin_allowed(self, origin: str, host: str) -> bool:
        """Whether a WebSocket handshake's ``Origin`` is a page of this server: the
        address the request was made to (``host``, its ``Host`` header, already allowed),
        or a name the server answers to (the names of :meth:`host_allowed`, not any IP
        address). A browser always sends the page's origin; a page of another site
        (``null`` included) is refused even when it holds a seat's token."""
        hosts = self.hosts or self.resolved().hosts
        if "*" in hosts:
            return True
        scheme, _, rest = origin.strip().lower().partition("://")
        if scheme not in ("http", "https") or not rest or "/" in rest:
            return False
        if rest == host.strip().lower():
            return True
        return _host_name(rest) in hosts


def _listed(where: str, name: str, given: list[str]) -> tuple[str, ...]:
    """The items of a list figure given as ``given`` (each may hold several, separated by
    commas); a trusted proxy must be an IP address or network (a name would be looked
    up by nobody: the proxy is recognised by the address its connections come from)."""
    items = tuple(item.strip() for value in given for item in value.split(",") if item.strip())
    if name == "trusted_proxies":
        for item in items:
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise DataError(
                    where, name, item, "an IP address or network, e.g. 127.0.0.1 or 10.0.0.0/8"
                ) from None
    return items


def _host_name(header: str) -> str | None:
    """The name part of a ``Host`` header (no port, no brackets), lower case."""
    value = header.strip().lower()
    if not value or any(c in value for c in "/@ \t\\"):
        return None
    if value.startswith("["):
        end = value.find("]")
        return value[1:end] if end > 0 else None
    if value.count(":") == 1:
        value, _, port = value.partition(":")
        if not port.isdigit():
            return None
    return value


class RateLimit:
    """At most ``per_minute`` events per key in any sliding minute (0: unlimited)."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self.seen: dict[str, collections.deque[float]] = {}
        self.lock = threading.Lock()

    def wait(self, key: str) -> float:
        """0 and the event counted if ``key`` may go on, else the seconds to wait."""
        if self.per_minute <= 0:
            return 0.0
        now = self.clock()
        with self.lock:
            if len(self.seen) > 10_000:  # forget quiet clients
                for old in [k for k, q in self.seen.items() if not q or q[-1] < now - 60]:
                    del self.seen[old]
            times = self.seen.setdefault(key, collections.deque())
            while times and times[0] <= now - 60:
                times.popleft()
            if len(times) >= self.per_minute:
                return max(0.1, times[0] + 60 - now)
            times.append(now)
            return 0.0


def _json(status: int, body: dict[str, Any]) -> tuple[Message, Message]:
    data = json.dumps(body).encode()
    start: Message = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(data)).encode()),
            (b"content-security-policy", _CSP),
            *HEADERS,
        ],
    }
    return start, {"type": "http.response.body", "body": data}


_CSP = CSP.encode()


class Guard:
    """ASGI middleware: a foreign ``Host`` gets 400 (a WebSocket is refused before it
    opens, as is one a page of another site opens: its ``Origin``), a body over
    ``max_body`` 413 before the application reads a byte of it, and every response the
    security headers.

    Header names are matched as the server gives them: lower case (the ASGI
    specification's rule, which Starlette's own look-ups rely on too)."""

    def __init__(self, app: Asgi, limits: Limits) -> None:
        self.app = app
        self.limits = limits.resolved()
        self.hosts: dict[bytes, bool] = {}
        """Whether each ``Host`` header seen is allowed (the answer for a value never
        changes; a few values come again and again)."""

    def _host_allowed(self, host: bytes) -> bool:
        known = self.hosts.get(host)
        if known is None:
            if len(self.hosts) >= 256:  # forget: anyone may send any value
                self.hosts.clear()
            known = self.hosts[host] = self.limits.host_allowed(host.decode("latin-1"))
        return known

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = b""
        declared = None
        chunked = False
        for name, value in scope.get("headers", ()):  # the last of a repeated one counts
            if name == b"host":
                host = value
            elif name == b"content-length":
                declared = value
            elif name == b"transfer-encoding":
                chunked = True
        if not self._host_allowed(host):
            shown = host.decode("latin-1")
            error = {
                "error": f"this server does not answer to the host {shown[:80]!r} "
                "(dogfight serve --allow-host NAME adds a name)",
                "field": "Host",
            }
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 4400, "reason": "foreign Host"})
                return
            for message in _json(400, error):
                await send(message)
            return
        if kind == "websocket":
            origin = None  # a client that is no browser may send none
            for name, value in scope.get("headers", ()):
                if name == b"origin":
                    origin = value
            if origin is not None and not self.limits.origin_allowed(
                origin.decode("latin-1"), host.decode("latin-1")
            ):
                await send({"type": "websocket.close", "code": 4403, "reason": "foreign Origin"})
                return
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    *message.get("headers", []),
                    (b"content-security-policy", _CSP),
                    *HEADERS,
                ]
            await send(message)

        limit = self.limits.max_body
        if limit and declared is not None:
            try:
                size = int(declared)
            except ValueError:
                size = limit + 1
            if size > limit:
                for message in _json(413, _too_big(limit)):
                    await send(message)
                return
            if not chunked:
                # the server's HTTP parser ends the body at its declared length: it
                # cannot outgrow the limit (the hot requests: no read-ahead, no replay)
                await self.app(scope, receive, send_with_headers)
                return
        if not limit or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send_with_headers)
            return
        # Read the whole (small) body first: a chunked body over the limit is refused
        # before the application has started on it.
        chunks: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, replay([message]), send_with_headers)
                return
            body = message.get("body", b"")
            total += len(body)
            if total > limit:
                for reply in _json(413, _too_big(limit)):
                    await send(reply)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, replay([whole], receive), send_with_headers)


def _too_big(limit: int) -> dict[str, Any]:
    return {"error": f"the body is larger than {limit} bytes", "field": None}


def replay(messages: list[Message], then: Receive | None = None) -> Receive:
    """A ``receive`` giving ``messages`` first, then what ``then`` gives."""
    queue = list(messages)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}

    return receive
