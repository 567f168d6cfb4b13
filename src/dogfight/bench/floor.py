"""The benchmark's floor: a canned server that plays the scripted seats' protocol with no
game behind it.

``dogfight bench --server --floor`` plays its scenario against this server instead of
``dogfight serve``: the same uvicorn settings (uvloop, httptools, the sans-I/O WebSocket
implementation without compression, the same keep-alive), the same requests and the same
messages, of the same sizes, in the same order — but no rules engine, no database and no
views to build. What latency remains is what the scripted clients, the loopback and
uvicorn cost on this machine: the part of a ``--server`` figure that is not the game
server's work. Run it beside a figure that misses its target to see how much of it the
harness takes.

Per turn of a duel ``dogfight serve`` sends each seat one short update when a plan comes
(who is still awaited) and one view when the turn is resolved; here the game ends with its
:data:`LAST_TURN`'s view.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from typing import Any

VIEW_BYTES = 5200
"""About the size of a duel seat's view of a new turn (measured: 5.2 kB)."""

UPDATE_BYTES = 800
"""About the size of the update a seat gets when a plan comes (measured: 0.8 kB)."""

LAST_TURN = 4

KEEP_ALIVE = 60
"""Seconds an idle HTTP connection is kept open: ``dogfight.cli.web.KEEP_ALIVE``'s value
(not imported: the benchmark is not a layer above the command line)."""

PLANS = re.compile(r"/api/games/([^/]+)/seats/([^/]+)/plans")

Scope = dict[str, Any]
Message = dict[str, Any]


def _padded(message: dict[str, Any], size: int) -> str:
    """``message`` as JSON, padded with a filler field to ``size`` characters."""
    text = json.dumps(message)
    return text[:-1] + ', "filler": "' + "x" * max(0, size - len(text) - 14) + '"}'


def view(turn: int) -> str:
    """A seat's view of ``turn``'s planning (or of the end, after :data:`LAST_TURN`)."""
    over = turn > LAST_TURN
    stage = {"kind": "over"} if over else {"kind": "planning", "turn": turn}
    return _padded({"type": "view", "stage": stage}, VIEW_BYTES)


def update(turn: int) -> str:
    return _padded({"type": "update", "turn": turn}, UPDATE_BYTES)


class Floor:
    """The canned server: an ASGI application holding, per game, who has planned which
    turn and each seat's socket."""

    def __init__(self) -> None:
        self.games: dict[str, tuple[dict[int, set[str]], dict[str, Any]]] = {}
        self.ids = itertools.count(1)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
        elif scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._socket(scope, receive, send)

    async def _http(self, scope: Scope, receive: Any, send: Any) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        path = scope["path"]
        if scope["method"] == "GET":
            await _answer(send, 200, [])
        elif path == "/api/games":
            game = f"floor-{next(self.ids)}"
            self.games[game] = ({}, {})
            seats = [{"id": s, "token": "t" + s, "vehicles": ["v" + s]} for s in ("a", "b")]
            await _answer(send, 201, {"game": {"id": game}, "seats": seats})
        elif (found := PLANS.fullmatch(path)) and found.group(1) in self.games:
            planned, sockets = self.games[found.group(1)]
            turn = int(json.loads(body)["turn"])
            done = planned.setdefault(turn, set())
            done.add(found.group(2))
            await _answer(send, 200, {"game": {"id": found.group(1)}})
            for to in list(sockets.values()):
                await to({"type": "websocket.send", "text": update(turn)})
                if len(done) == 2:
                    await to({"type": "websocket.send", "text": view(turn + 1)})
        else:
            await _answer(send, 404, {"detail": "not found"})

    async def _socket(self, scope: Scope, receive: Any, send: Any) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        hello = await receive()
        game = scope["path"].split("/")[3]
        if hello["type"] != "websocket.receive" or game not in self.games:
            await send({"type": "websocket.close", "code": 4404})
            return
        seat = json.loads(hello["text"])["seat"]
        self.games[game][1][seat] = send
        await send({"type": "websocket.send", "text": view(1)})
        while (await receive())["type"] != "websocket.disconnect":
            pass
        self.games[game][1].pop(seat, None)


async def _answer(send: Any, status: int, body: object) -> None:
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(data))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


def main(port: int) -> None:
    """Serve the floor on 127.0.0.1:``port`` with ``dogfight serve``'s uvicorn settings
    (``dogfight.cli.web.server_config``)."""
    import uvicorn

    config = uvicorn.Config(
        Floor(),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        timeout_keep_alive=KEEP_ALIVE,
        proxy_headers=False,  # as dogfight serve without --trusted-proxy
    )
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main(int(sys.argv[1]))
