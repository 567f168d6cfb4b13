"""Views a light game's work queues on the event loop (``Connection.ready``) go out once
each, in the order they were made, after anything already waiting in the connection's
outbox: sent at once by ``Hub.flush`` after the work, else by the connection's sender
(a callback puts them in the outbox), and after a message ``Hub.post`` adds later."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from dogfight.server.play import views
from dogfight.server.web import ws


class StubGame:
    """What ``Hub.queue`` reads of a game (its views are stubbed below)."""

    def __init__(self) -> None:
        self.id = "g"
        self.lock = threading.RLock()
        self.version = 0
        self.state = object()
        self.steps: list[object] = []


class GatedSocket:
    """A WebSocket whose client reads only while ``gate`` is set."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.gate.set()
        self.got: list[str] = []

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.got.append(text)

    async def close(self, code: int = 1000) -> None:
        pass


@pytest.fixture(autouse=True)
def stub_views(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views, "seat_view_json", lambda g, seat, since=0: f"view {g.version}")
    monkeypatch.setattr(views, "seat_update_json", lambda g, seat: f"update {g.version}")


def test_views_queued_on_the_loop_go_out_once_in_order() -> None:
    async def scene() -> dict[str, object]:
        hub = ws.Hub()
        hub.loop = asyncio.get_running_loop()
        hub.loop_thread = threading.get_ident()
        game = StubGame()
        quick, gated = GatedSocket(), GatedSocket()
        a = ws.Connection(quick, "a")  # type: ignore[arg-type]
        b = ws.Connection(gated, "b")  # type: ignore[arg-type]
        for c in (a, b):
            hub.add("g", c)
        pumps = [asyncio.create_task(hub.pump("g", c)) for c in (a, b)]
        await asyncio.sleep(0)  # the senders wait for their outboxes
        seen: dict[str, object] = {}

        # the work's views, after a message already in b's outbox: all sent by flush
        hub.post(b, "older")
        hub.fan_out(game)  # type: ignore[arg-type]
        hub.flush("g")
        seen["at once"] = (list(quick.got), list(gated.got))

        # no flush (a catch-up's work): the sender sends them
        game.version = 1
        hub.fan_out(game)  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        seen["by the sender"] = (list(quick.got), list(gated.got))

        # b's client does not read: its view waits in a task, the next one behind it
        gated.gate.clear()
        for version in (2, 3):
            game.version = version
            hub.fan_out(game)  # type: ignore[arg-type]
            hub.flush("g")
        # a message posted after a view queued by the work goes after it
        game.version = 4
        hub.queue(game, a)  # type: ignore[arg-type]
        hub.post(a, "pong")
        await asyncio.sleep(0.01)
        seen["b waits"] = list(gated.got)
        gated.gate.set()
        await asyncio.sleep(0.01)
        for pump in pumps:
            pump.cancel()
        seen["a"], seen["b"] = quick.got, gated.got
        return seen

    seen = asyncio.run(scene())
    assert seen["at once"] == (["view 0"], ["older", "view 0"])
    assert seen["by the sender"] == (["view 0", "update 1"], ["older", "view 0", "update 1"])
    assert seen["b waits"] == ["older", "view 0", "update 1"]
    assert seen["a"] == ["view 0", "update 1", "update 2", "update 3", "update 4", "pong"]
    assert seen["b"] == ["older", "view 0", "update 1", "update 2", "update 3"]


def test_an_update_not_yet_sent_gives_way_to_the_next_message() -> None:
    """The opponent's plan (an update: who is awaited) and the turn's result (a view)
    made in one pass of the loop: the seat is sent the result alone — the view holds
    every part of the update. A view is never dropped (it carries steps)."""

    async def scene() -> list[str]:
        hub = ws.Hub()
        hub.loop = asyncio.get_running_loop()
        hub.loop_thread = threading.get_ident()
        game: Any = StubGame()
        connection = ws.Connection(None, "a")  # type: ignore[arg-type]
        hub.add("g", connection)
        hub.queue(game, connection)  # the first view
        game.version = 1
        hub.queue(game, connection)  # an update (same state, no new step)
        game.version, game.state, game.steps = 2, object(), [object()]
        hub.queue(game, connection)  # the turn resolved: a view
        game.version = 3
        hub.queue(game, connection)  # an update...
        game.version = 4
        hub.queue(game, connection)  # ...given way to by the next update
        return list(connection.ready)

    assert asyncio.run(scene()) == ["view 0", "view 2", "update 4"]
