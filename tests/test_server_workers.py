"""Engine and computer-player work runs off the event loop: a game whose computer player
is thinking does not hold up another game's requests; a computer player that runs over
its time budget is replaced by a random legal plan for that turn; a slow WebSocket
client does not hold up the others."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from server_helpers import headers, seat_url, straights_plan

from dogfight.bots.base import REGISTRY, register
from dogfight.rules.context import Rules
from dogfight.rules.plans import Action, Plan
from dogfight.server.db.store import Store, sqlite_url
from dogfight.server.play.workers import INLINE_LIMIT, GameWorkers
from dogfight.server.web import ws
from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits

Json = dict[str, Any]


class GatedBot:
    """A computer player that plans straight ahead once ``gate`` opens."""

    name = "gated"
    gate = threading.Event()
    thinking = threading.Event()

    def plan_turn(
        self, observation: Json, rules: Rules, seat: frozenset[str], rng: np.random.Generator
    ) -> dict[str, Plan]:
        GatedBot.thinking.set()
        GatedBot.gate.wait(30)
        return {vid: Plan.model_validate(straights_plan()) for vid in seat}

    def phase_actions(
        self,
        observation: Json,
        rules: Rules,
        seat: frozenset[str],
        phase: int,
        rng: np.random.Generator,
    ) -> tuple[dict[str, Action | None], dict[str, str]]:
        return {}, {}


@pytest.fixture
def gated() -> Iterator[type[GatedBot]]:
    GatedBot.gate.clear()
    GatedBot.thinking.clear()
    register("gated", GatedBot)
    try:
        yield GatedBot
    finally:
        GatedBot.gate.set()
        REGISTRY.pop("gated", None)


def _client(db: Path, budget: float) -> Any:
    from fastapi.testclient import TestClient

    limits = Limits(allowed_hosts=("testserver",))  # the test client's name for the server
    return TestClient(create_app(sqlite_url(db), limits=limits, bot_budget=budget))


def _seat(made: Json, label: str) -> tuple[str, str]:
    return next((s["id"], s["token"]) for s in made["seats"] if s["label"] == label)


def test_a_thinking_computer_player_does_not_block_other_games(
    tmp_path: Path, gated: type[GatedBot]
) -> None:
    with _client(tmp_path / "g.sqlite", budget=60) as c, ThreadPoolExecutor(1) as pool:
        other = c.post("/api/games", json={"preset": "duel"}).json()
        # a game with a computer player: it plans its first turn (and waits at the gate)
        slow = pool.submit(
            c.post, "/api/games", json={"preset": "duel", "computer": {"central": "gated"}}
        )
        assert gated.thinking.wait(30)
        # meanwhile another game answers, and so does the lobby
        oid, otoken = _seat(other, "allies")
        view = c.get(seat_url(other["game"]["id"], oid), headers=headers(otoken))
        assert view.status_code == 200 and view.json()["stage"]["kind"] == "planning"
        assert c.post(
            seat_url(other["game"]["id"], oid, "plans"),
            headers=headers(otoken),
            json={"turn": 1, "plans": {"camel": straights_plan()}},
        ).is_success
        assert c.get("/api/games").status_code == 200
        assert not slow.done()
        gated.gate.set()
        made = slow.result(30)
        assert made.status_code == 201, made.text
        game = made.json()["game"]["id"]
        allies, token = _seat(made.json(), "allies")
        response = c.post(
            seat_url(game, allies, "plans"),
            headers=headers(token),
            json={"turn": 1, "plans": {"camel": straights_plan()}},
        )
        assert response.status_code == 200 and response.json()["steps_total"] == 4


def test_a_computer_player_over_its_budget_plays_a_random_legal_plan(
    tmp_path: Path, gated: type[GatedBot]
) -> None:
    db = tmp_path / "g.sqlite"
    with _client(db, budget=0.2) as c:
        made = c.post("/api/games", json={"preset": "duel", "computer": {"central": "gated"}})
        game = made.json()["game"]["id"]
        allies, token = _seat(made.json(), "allies")
        response = c.post(
            seat_url(game, allies, "plans"),
            headers=headers(token),
            json={"turn": 1, "plans": {"camel": straights_plan()}},
        )
        assert response.status_code == 200, response.text
        assert response.json()["steps_total"] == 4  # the turn was resolved without it
    gated.gate.set()
    store = Store(sqlite_url(db))
    try:
        record = store.load(game)
        assert record is not None
        bot_plans = [p for turn, seat, p in record.plans if seat == "central" and turn == 1]
        # stored like any plan (a replay gives the same game), not the gated straights
        assert len(bot_plans) == 1 and bot_plans[0]["albatros"]["cards"] != ["1", "2", "3"]
    finally:
        store.close()


class FakeSocket:
    """A WebSocket whose client reads (``stuck=False``) or never does."""

    def __init__(self, stuck: bool) -> None:
        self.stuck = stuck
        self.got: list[str] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        if self.stuck:
            await asyncio.sleep(3600)
        self.got.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


def test_a_client_that_does_not_read_is_dropped_not_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Views are queued per connection: a client whose outbox fills up is closed, the
    others get every view in order, and queuing never waits on a send."""
    monkeypatch.setattr(ws, "OUTBOX", 3)
    monkeypatch.setattr(ws, "SEND_TIMEOUT", 0.2)

    async def scene() -> tuple[FakeSocket, FakeSocket, int]:
        hub = ws.Hub()
        fast, slow = FakeSocket(stuck=False), FakeSocket(stuck=True)
        a = ws.Connection(fast, "a")  # type: ignore[arg-type]
        b = ws.Connection(slow, "b")  # type: ignore[arg-type]
        hub.add("g", a)
        hub.add("g", b)
        pumps = [asyncio.create_task(hub.pump("g", c)) for c in (a, b)]
        for i in range(10):
            for c in (a, b):
                hub.post(c, str(i))  # returns at once, whoever reads
            await asyncio.sleep(0.01)
        await asyncio.wait_for(pumps[1], 5)  # the stuck client's sender gives up
        left = len(hub.connections("g"))
        pumps[0].cancel()
        return fast, slow, left

    fast, slow, left = asyncio.run(scene())
    assert fast.got == [str(i) for i in range(10)]
    assert slow.closed == 1013 and slow.got == [] and left == 1


def test_a_client_that_does_not_take_one_view_in_time_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One view that its client does not take within SEND_TIMEOUT (its outbox far from
    full): the watchdog closes that connection (1013); the others go on."""
    monkeypatch.setattr(ws, "SEND_TIMEOUT", 0.2)

    async def scene() -> tuple[FakeSocket, FakeSocket, int, float, int | None]:
        hub = ws.Hub()
        fast, slow = FakeSocket(stuck=False), FakeSocket(stuck=True)
        a = ws.Connection(fast, "a")  # type: ignore[arg-type]
        b = ws.Connection(slow, "b")  # type: ignore[arg-type]
        hub.add("g", a)
        hub.add("g", b)
        pumps = [asyncio.create_task(hub.pump("g", c)) for c in (a, b)]
        began = time.monotonic()
        for c in (a, b):
            hub.post(c, "view")
        await asyncio.wait_for(pumps[1], 5)
        took = time.monotonic() - began
        hub.post(a, "again")
        await asyncio.sleep(0.05)
        left, open_code = len(hub.connections("g")), fast.closed
        pumps[0].cancel()
        return fast, slow, left, took, open_code

    fast, slow, left, took, open_code = asyncio.run(scene())
    assert slow.closed == 1013 and slow.got == [] and left == 1
    assert fast.got == ["view", "again"] and open_code is None
    assert 0.2 <= took < 3


class GatedSocket:
    """A WebSocket whose client reads only while ``gate`` is set (and at once when it
    is): a send finishes without waiting, or waits for the gate."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.gate.set()
        self.got: list[str] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.got.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


def test_flush_sends_at_once_in_the_order_the_sender_would() -> None:
    """Hub.flush (after a light game's work, on the loop) sends what the game's outboxes
    hold before any task runs; a send that must wait goes on in a task, and the
    connection's sender sends what comes later after it: every message once, in order,
    as the sender alone would have."""

    async def scene() -> tuple[list[str], list[str], list[str], list[str]]:
        hub = ws.Hub()
        quick, gated = GatedSocket(), GatedSocket()
        a = ws.Connection(quick, "a")  # type: ignore[arg-type]
        b = ws.Connection(gated, "b")  # type: ignore[arg-type]
        hub.add("g", a)
        hub.add("g", b)
        pumps = [asyncio.create_task(hub.pump("g", c)) for c in (a, b)]
        await asyncio.sleep(0)  # the senders wait for their outboxes
        hub.post(a, "1")
        hub.post(b, "1")
        hub.flush("g")
        # sent before any task (the senders included) could run
        at_once = (list(quick.got), list(gated.got))
        gated.gate.clear()
        for text in ("2", "3"):
            hub.post(a, text)
            hub.post(b, text)
        hub.flush("g")  # b's "2" cannot go yet: it waits in a task, "3" stays queued
        hub.post(b, "4")
        await asyncio.sleep(0.01)
        assert gated.got == ["1"]
        gated.gate.set()
        hub.post(a, "4")
        hub.post(b, "5")
        await asyncio.sleep(0.01)
        for pump in pumps:
            pump.cancel()
        return at_once[0], at_once[1], quick.got, gated.got

    first_a, first_b, got_a, got_b = asyncio.run(scene())
    assert first_a == ["1"] and first_b == ["1"]
    assert got_a == ["1", "2", "3", "4"]
    assert got_b == ["1", "2", "3", "4", "5"]


def test_a_client_that_does_not_take_a_flushed_view_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A view sent by Hub.flush that its client does not take within SEND_TIMEOUT: the
    watchdog ends the send and the connection (1013), as for the sender's sends."""
    monkeypatch.setattr(ws, "SEND_TIMEOUT", 0.2)

    async def scene() -> tuple[FakeSocket, int, bool]:
        hub = ws.Hub()
        slow = FakeSocket(stuck=True)
        b = ws.Connection(slow, "b")  # type: ignore[arg-type]
        hub.add("g", b)
        pump = asyncio.create_task(hub.pump("g", b))
        await asyncio.sleep(0)
        hub.post(b, "view")
        hub.flush("g")
        assert b.finishing is not None
        await asyncio.wait_for(pump, 5)
        await asyncio.sleep(0.01)
        return slow, len(hub.connections("g")), b.finishing.done()

    slow, left, ended = asyncio.run(scene())
    assert slow.closed == 1013 and slow.got == [] and left == 0 and ended


def test_a_light_game_works_on_the_event_loop_until_its_work_takes_too_long() -> None:
    """A light game's work is done on the event loop (no hand-off to a thread); once a
    piece of it takes more CPU time than the limit, the game's work goes to the threads."""

    class Game:
        light = True

    game = Game()
    workers = GameWorkers(threads=1)

    def slow() -> int:
        end = time.thread_time() + 2 * INLINE_LIMIT
        while time.thread_time() < end:
            pass
        return threading.get_ident()

    async def main() -> None:
        loop = threading.get_ident()
        assert await workers.run("g", threading.get_ident, game) == loop
        assert await workers.run("g", slow, game) == loop
        assert game.light is False
        assert await workers.run("g", threading.get_ident, game) != loop
        # a game not known to be light, and work of no game, go to the threads
        assert await workers.run("h", threading.get_ident) != loop
        assert await workers.run(None, threading.get_ident) != loop

    try:
        asyncio.run(main())
    finally:
        workers.close()


def test_a_duel_of_people_is_light_and_a_game_with_a_computer_player_is_not(
    tmp_path: Path,
) -> None:
    with _client(tmp_path / "g.sqlite", budget=5) as c:
        service = c.app.state.service
        duel = c.post("/api/games", json={"preset": "duel"}).json()
        assert service.games[duel["game"]["id"]].light
        solo = c.post("/api/games", json={"preset": "duel", "computer": {"central": "random"}})
        assert solo.status_code == 201, solo.text
        assert not service.games[solo.json()["game"]["id"]].light
        # handed to a computer player, the duel is not light any more
        allies, token = _seat(duel, "allies")
        handed = c.post(
            seat_url(duel["game"]["id"], allies, "computer"),
            headers=headers(token),
            json={"bot": "random"},
        )
        assert handed.status_code == 200, handed.text
        assert not service.games[duel["game"]["id"]].light


def test_the_seats_to_plan_kept_per_state_are_the_seats_worked_out_anew(
    tmp_path: Path,
) -> None:
    """LiveGame.seats_to_plan (kept per state and seats) and owner (the seats in order
    kept) give what working them out anew gives, at every step of games of computer
    players: duels, scenarios with reinforcements joining, tripods."""
    from dogfight.catalog import load_catalog
    from dogfight.server.play.seating import seats_of, table_of
    from dogfight.server.play.service import GameService
    from dogfight.server.play.setups import presets
    from dogfight.server.schemas import CreateGame

    catalog = load_catalog()
    ready = presets(catalog)
    store = Store(sqlite_url(tmp_path / "s.sqlite"))
    service = GameService(store, catalog, 5)
    checked = 0
    try:
        for name in ("duel", "wings-over-the-flanders", "first-contact", "alsace-again"):
            setup = ready[name]["setup"]
            table = table_of(setup, catalog)
            seats = seats_of(CreateGame(preset=name), table)
            game, _ = service.create(setup, name, seats, 7, True)
            for seat in game.seats.values():  # computer players from now on, a step at a time
                seat.bot = seat.bot or "random"
            for _ in range(12):
                state = game.state
                playing = {v.id for v in state.in_play()}
                ordered = sorted(game.seats.values(), key=lambda s: s.position)
                plain = [s for s in ordered if game._seat_vehicles(s.id, state) & playing]
                assert game.seats_to_plan() == plain
                for vid in [*state.vehicles, *state.reserves]:
                    owner = next((s for s in ordered if vid in game.seat_vehicles(s.id)), None)
                    assert game.owner(vid) is owner
                checked += 1
                if not game.advance(limit=1):
                    break
    finally:
        store.close()
    assert checked >= 20
