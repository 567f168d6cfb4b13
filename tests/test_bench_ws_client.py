"""The benchmark's light WebSocket client (``dogfight.bench.ws_client``) speaks RFC 6455:
its frames are masked and sized as the RFC says, it reads the server's frames of every
length, joins fragments, answers pings, and ends on a close. (Against a real ``dogfight
serve`` it is exercised by ``test_bench_server.py``.)"""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from dogfight.bench.ws_client import CLOSE, CONTINUATION, PING, PONG, TEXT, WebSocket, _mask, frame


def _server_frame(opcode: int, payload: bytes, final: bool = True) -> bytes:
    """A server's frame: not masked."""
    n = len(payload)
    head = bytes([(0x80 if final else 0) | opcode])
    if n < 126:
        head += bytes([n])
    elif n < 1 << 16:
        head += bytes([126]) + n.to_bytes(2, "big")
    else:
        head += bytes([127]) + n.to_bytes(8, "big")
    return head + payload


def _read_client_frame(data: bytes) -> tuple[int, bytes, bytes]:
    """Parse one client frame as a server would: opcode, payload, what follows."""
    assert data[0] & 0x80  # final
    assert data[1] & 0x80  # "All frames sent from client to server have this bit set to 1"
    n, at = data[1] & 0x7F, 2
    if n == 126:
        n, at = int.from_bytes(data[2:4], "big"), 4
    elif n == 127:
        n, at = int.from_bytes(data[2:10], "big"), 10
    key = data[at : at + 4]
    payload = _mask(data[at + 4 : at + 4 + n], key)
    return data[0] & 0x0F, payload, data[at + 4 + n :]


class _Writer:
    def __init__(self) -> None:
        self.data = b""
        self.closed = False

    def write(self, data: bytes) -> None:
        self.data += data

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        self.closed = True


def _socket(incoming: bytes) -> tuple[WebSocket, _Writer]:
    reader = asyncio.StreamReader()
    reader.feed_data(incoming)
    reader.feed_eof()
    writer = _Writer()
    ws: Any = WebSocket(reader, writer)  # type: ignore[arg-type]
    return ws, writer


@given(st.binary(max_size=70_000), st.binary(min_size=4, max_size=4))
def test_masking_twice_gives_the_payload_back(payload: bytes, key: bytes) -> None:
    assert _mask(_mask(payload, key), key) == payload


@given(st.sampled_from([0, 1, 125, 126, 127, 65535, 65536, 70_000]))
def test_a_client_frame_of_any_length_is_read_back(n: int) -> None:
    payload = bytes(i % 251 for i in range(n))
    opcode, read, rest = _read_client_frame(frame(TEXT, payload))
    assert (opcode, read, rest) == (TEXT, payload, b"")


def test_fragments_are_joined_and_pings_answered() -> None:
    incoming = (
        _server_frame(TEXT, b'{"a":', final=False)
        + _server_frame(PING, b"hi")
        + _server_frame(CONTINUATION, b"1}")
        + _server_frame(TEXT, b"x" * 70_000)
        + _server_frame(CLOSE, (1000).to_bytes(2, "big"))
    )

    async def read_all() -> tuple[list[str | None], _Writer]:
        ws, writer = _socket(incoming)
        return [await ws.recv(), await ws.recv(), await ws.recv()], writer

    messages, writer = asyncio.run(read_all())
    assert messages == ['{"a":1}', "x" * 70_000, None]
    opcode, payload, rest = _read_client_frame(writer.data)
    assert (opcode, payload) == (PONG, b"hi")
    opcode, payload, rest = _read_client_frame(rest)
    assert (opcode, payload, rest) == (CLOSE, (1000).to_bytes(2, "big"), b"")
    assert writer.closed


def test_a_broken_connection_ends_the_messages() -> None:
    async def read_all() -> list[str | None]:
        ws, _ = _socket(_server_frame(TEXT, b"whole") + _server_frame(TEXT, b"cut")[:3])
        return [await ws.recv(), await ws.recv()]

    assert asyncio.run(read_all()) == ["whole", None]
