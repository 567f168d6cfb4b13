"""A light WebSocket client (RFC 6455) for the server benchmark's scripted seats.

The benchmark's clients share a two-core machine with the servers they measure. With a
general client library (websockets' asyncio client) the clients alone, against a server
that answers with canned messages and does no work at all, put 30 ms on a 50-game burst
and well over 100 ms on a 200-game one: the benchmark measured its own clients as much as
the server. A seat only needs to open one connection, say hello, read text messages and
answer the server's pings, so this client does that over asyncio streams and nothing
more: no extensions (the server is run without compression), text frames, fragmented
messages joined, pings answered, a close answered and ended.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
from urllib.parse import urlsplit

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
"""The fixed key suffix of the opening handshake (RFC 6455, 1.3)."""

TEXT, BINARY, CLOSE, PING, PONG, CONTINUATION = 0x1, 0x2, 0x8, 0x9, 0xA, 0x0


class WsError(Exception):
    """The handshake was refused or a frame broke the protocol."""


def _mask(data: bytes, key: bytes) -> bytes:
    """``data`` XOR-ed with the repeated four-byte ``key`` (a client's frames are masked)."""
    if not data:
        return data
    n = len(data)
    repeated = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "big") ^ int.from_bytes(repeated, "big")).to_bytes(n, "big")


def frame(opcode: int, payload: bytes) -> bytes:
    """One final, masked client frame."""
    n = len(payload)
    head = bytes([0x80 | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 1 << 16:
        head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
    key = os.urandom(4)
    return head + key + _mask(payload, key)


class WebSocket:
    """One open client connection: :meth:`send` text, :meth:`recv` text until closed."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def connect(cls, url: str) -> WebSocket:
        """Open ``ws://host:port/path`` and do the opening handshake."""
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        reader, writer = await asyncio.open_connection(host, port)
        key = base64.b64encode(os.urandom(16))
        writer.write(
            f"GET {parts.path or '/'} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key.decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        if len(lines[0].split()) < 2 or lines[0].split()[1] != "101":
            writer.close()
            raise WsError(f"handshake refused: {lines[0]}")
        accept = base64.b64encode(hashlib.sha1(key + GUID).digest()).decode()
        fields = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(":") for line in lines[1:] if line)
        }
        if fields.get("sec-websocket-accept") != accept:
            writer.close()
            raise WsError("handshake: wrong Sec-WebSocket-Accept")
        return cls(reader, writer)

    async def send(self, text: str) -> None:
        self.writer.write(frame(TEXT, text.encode()))
        await self.writer.drain()

    async def _frame(self) -> tuple[bool, int, bytes]:
        """The next frame from the server (unmasked): final bit, opcode, payload."""
        first, second = await self.reader.readexactly(2)
        n = second & 0x7F
        if n == 126:
            n = int.from_bytes(await self.reader.readexactly(2), "big")
        elif n == 127:
            n = int.from_bytes(await self.reader.readexactly(8), "big")
        key = await self.reader.readexactly(4) if second & 0x80 else b""
        payload = await self.reader.readexactly(n)
        return bool(first & 0x80), first & 0x0F, _mask(payload, key) if key else payload

    async def recv(self) -> str | None:
        """The next text (or binary, decoded) message; None once the server closed."""
        parts: list[bytes] = []
        while True:
            try:
                final, opcode, payload = await self._frame()
            except (asyncio.IncompleteReadError, ConnectionError):
                return None
            if opcode == PING:
                self.writer.write(frame(PONG, payload))
                continue
            if opcode == PONG:
                continue
            if opcode == CLOSE:
                self.writer.write(frame(CLOSE, payload[:2]))
                self.close()
                return None
            if opcode not in (TEXT, BINARY, CONTINUATION):
                raise WsError(f"unknown opcode {opcode}")
            parts.append(payload)
            if final:
                return b"".join(parts).decode()

    async def close_handshake(self, timeout: float = 5.0) -> None:
        """Say goodbye (a close frame, 1000) and read until the server's close comes back
        (at most ``timeout`` seconds), as a browser leaving the page does."""
        self.writer.write(frame(CLOSE, (1000).to_bytes(2, "big")))
        try:
            async with asyncio.timeout(timeout):
                while True:
                    _, opcode, _ = await self._frame()
                    if opcode == CLOSE:
                        break
        except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            pass
        self.close()

    def close(self) -> None:
        self.writer.close()
