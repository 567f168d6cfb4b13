"""``Guard``'s body limit, at the ASGI level: a body whose declared length is within the
limit goes to the application unread (the server's parser ends it there); a chunked
body, whatever length it declares, is counted as it comes and refused past the limit
before the application sees it."""

from __future__ import annotations

import asyncio
from typing import Any

from dogfight.server.web.limits import Guard, Limits, Message

HOST = (b"host", b"127.0.0.1")


def _run(headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> tuple[list[Any], int]:
    """POST ``chunks`` through a Guard of 100 bytes: what the application read (None if
    it was never called) and the status answered."""
    read: list[Any] = []
    called: list[bool] = []
    answered: list[int] = []
    pending: list[Message] = [
        {"type": "http.request", "body": c, "more_body": i < len(chunks) - 1}
        for i, c in enumerate(chunks)
    ]
    server_reads: list[int] = []

    async def receive() -> Message:
        server_reads.append(1)
        return pending.pop(0)

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            answered.append(message["status"])

    async def app(scope: Any, receive: Any, send: Any) -> None:
        called.append(True)
        read.append(len(server_reads))  # reads made before the application's first
        while True:
            message = await receive()
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    guard = Guard(app, Limits(max_body=100))
    scope = {"type": "http", "method": "POST", "path": "/api/games", "headers": [HOST, *headers]}
    asyncio.run(guard(scope, receive, send))
    return (read if called else [None]), answered[0]


def test_a_body_declared_within_the_limit_goes_on_unread() -> None:
    read, status = _run([(b"content-length", b"40")], [b"x" * 40])
    assert (read, status) == ([0], 200)


def test_a_chunked_body_is_counted_whatever_length_it_declares() -> None:
    chunked = [(b"content-length", b"40"), (b"transfer-encoding", b"chunked")]
    read, status = _run(chunked, [b"x" * 60, b"x" * 60])
    assert (read, status) == ([None], 413)
    read, status = _run(chunked, [b"x" * 30, b"x" * 30])
    assert (read, status) == ([2], 200)  # read ahead whole, then given to the app
    assert _run([(b"content-length", b"400")], [b"x" * 400]) == ([None], 413)
