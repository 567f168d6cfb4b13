"""Messages of changes made on the event loop while its transaction is open
(``Hub.attach``): each connection is built one message when the commit releases it —
never before, never from what is not stored, nothing for a commit that failed."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from dogfight.server.db import commits
from dogfight.server.play import views
from dogfight.server.web import ws


class StubGame:
    """What ``Hub`` reads of a game (its views are stubbed below)."""

    def __init__(self, game_id: str = "g") -> None:
        self.id = game_id
        self.lock = threading.RLock()
        self.version = 0
        self.state = object()
        self.steps: list[object] = []
        self.light = True

    def change(self, step: bool = False) -> None:
        """A change: who is awaited (an update), or with ``step`` a resolved step."""
        self.version += 1
        if step:
            self.state = object()
            self.steps.append(object())


class Socket:
    def __init__(self) -> None:
        self.got: list[str] = []

    async def send_text(self, text: str) -> None:
        self.got.append(text)

    async def close(self, code: int = 1000) -> None:
        pass


Built = list[tuple[str, str, int, bool]]


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> Built:
    """Every message built: (kind, game, version, on the loop's thread)."""
    made: Built = []

    def view(game: Any, seat: str, since: int = 0) -> str:
        made.append(("view", game.id, game.version, _on_loop(game)))
        return f"view {game.id} {game.version}"

    def update(game: Any, seat: str) -> str:
        made.append(("update", game.id, game.version, _on_loop(game)))
        return f"update {game.id} {game.version}"

    monkeypatch.setattr(views, "seat_view_json", view)
    monkeypatch.setattr(views, "seat_update_json", update)
    return made


LOOP_THREAD: list[int] = []


def _on_loop(game: Any) -> bool:
    return threading.get_ident() in LOOP_THREAD


def _stored(cursor: Any) -> None:
    cursor.execute("INSERT INTO t VALUES (1)")


class Scene:
    """A hub attached to a real loop transaction (SQLite in memory), and games with one
    connection each already sent their first view."""

    def __init__(self, *game_ids: str) -> None:
        loop = asyncio.get_running_loop()
        LOOP_THREAD[:] = [threading.get_ident()]
        self.db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self.db.execute("CREATE TABLE t (x INTEGER)")
        self.group = commits.LoopCommits(lambda: self.db, loop)
        self.lost: list[set[str]] = []
        self.group.on_lost = lambda games, exc: self.lost.append(games)
        self.hub = ws.Hub()
        self.hub.loop, self.hub.loop_thread = loop, threading.get_ident()
        self.hub.attach(self.group)
        self.games = {g: StubGame(g) for g in game_ids}
        self.sockets: dict[str, Socket] = {}
        self.pumps = []
        for g, game in self.games.items():
            socket = Socket()
            connection = ws.Connection(socket, "a")  # type: ignore[arg-type]
            self.sockets[g] = socket
            self.hub.add(g, connection)
            self.pumps.append(asyncio.create_task(self.hub.pump(g, connection)))
            self.hub.fan_out(game)  # type: ignore[arg-type]  # no transaction open: now
            self.hub.flush(g)

    def work(self, game_id: str, step: bool = False) -> None:
        """A game's work on the loop: a change stored in the open transaction, then its
        connections queued."""
        game = self.games[game_id]
        game.change(step)
        self.group.write(game_id, _stored)
        self.hub.fan_out(game)  # type: ignore[arg-type]

    def got(self, game_id: str) -> list[str]:
        return self.sockets[game_id].got

    def close(self) -> None:
        for pump in self.pumps:
            pump.cancel()
        self.group.close()


@pytest.fixture
def scene() -> Iterator[type[Scene]]:
    yield Scene


def test_two_changes_in_one_commit_make_one_message(built: Built) -> None:
    """A duel's two plans stored in one commit: each connection is built the turn's
    view alone (the update after the first plan was built and thrown away)."""

    async def run() -> tuple[Built, list[str], int]:
        s = Scene("g")
        del built[:]
        s.work("g")  # the first plan: who is awaited changed
        s.work("g", step=True)  # the second: the turn resolved
        before = list(built)
        await asyncio.sleep(0)  # the commit
        commits_made = s.group.commits
        s.close()
        return before, s.got("g"), commits_made

    before, got, commits_made = asyncio.run(run())
    assert before == []  # nothing built before the commit
    assert commits_made == 1
    assert built == [("view", "g", 2, True)]
    assert got == ["view g 0", "view g 2"]


def test_a_change_alone_in_its_commit_is_an_update(built: Built) -> None:
    async def run() -> list[str]:
        s = Scene("g")
        s.work("g")
        await asyncio.sleep(0)
        s.close()
        return s.got("g")

    assert asyncio.run(run()) == ["view g 0", "update g 1"]


def test_nothing_is_built_for_a_commit_that_failed(
    built: Built, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit fails: nothing due at it is built or sent (the server closes the
    games' pages); the next commit's messages go out as before."""
    real = commits.LoopCommits._commit
    calls = {"n": 0}

    def fails_once(self: commits.LoopCommits) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise sqlite3.OperationalError("database or disk is full")
        real(self)

    monkeypatch.setattr(commits.LoopCommits, "_commit", fails_once)

    async def run() -> tuple[Built, list[set[str]], list[str]]:
        s = Scene("g")
        del built[:]
        s.work("g")
        await asyncio.sleep(0)  # the commit fails
        lost_built = list(built)
        s.work("g")  # the game as read again, changed again: a new transaction
        await asyncio.sleep(0)
        s.close()
        return lost_built, s.lost, s.got("g")

    lost_built, lost, got = asyncio.run(run())
    assert lost_built == []
    assert lost == [{"g"}]
    assert got == ["view g 0", "update g 2"]


def test_a_commit_amid_a_games_work_sends_nothing_of_it(built: Built) -> None:
    """Another use of the database in the middle of a game's work commits the open
    transaction: the work may already hold in memory what it has not written, so no
    game's message is built then — each is built once the work is over (the game's by
    its own work, the others' right after), from what is stored."""

    async def run() -> tuple[Built, list[str], list[str]]:
        s = Scene("g", "h")
        del built[:]
        s.work("g")
        s.work("h")
        # g's next work: its change is held in memory, not written yet...
        g = s.games["g"]
        g.change(step=True)
        s.group.settle_here()  # ...when it reads the database: the transaction commits
        at_commit = list(built)
        s.group.write("g", _stored)  # the work writes its change (a new transaction)
        s.hub.fan_out(g)  # type: ignore[arg-type]
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        s.close()
        return at_commit, s.got("g"), s.got("h")

    at_commit, got_g, got_h = asyncio.run(run())
    assert at_commit == []
    assert got_g == ["view g 0", "view g 2"]  # the stored change, in one message
    assert got_h == ["view h 0", "update h 1"]


def test_a_commit_made_by_a_games_write_builds_the_other_games(
    built: Built, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that finds the transaction open too long commits it: every other game's
    messages are built then; the writing game's after its work, once."""

    async def run() -> tuple[Built, list[str], list[str]]:
        s = Scene("g", "h")
        del built[:]
        s.work("g")
        s.work("h")
        monkeypatch.setattr(commits, "SPAN", -1.0)
        s.work("g", step=True)  # g's write commits (amid g's work), then g is queued
        at_commit = list(built)
        s.hub.flush("g")  # after the work (the server's ``deliver``)
        s.close()
        return at_commit, s.got("g"), s.got("h")

    at_commit, got_g, got_h = asyncio.run(run())
    assert at_commit == [("update", "h", 1, True), ("view", "g", 2, True)]
    assert got_g == ["view g 0", "view g 2"]
    assert got_h == ["view h 0", "update h 1"]


def test_a_game_gone_heavy_is_built_for_on_a_thread(built: Built) -> None:
    """A game whose work moved to the threads before the commit: its connection's
    message is built on a thread (the loop never waits for a game's lock)."""

    async def run() -> list[str]:
        s = Scene("g")
        del built[:]
        s.work("g")
        s.games["g"].light = False
        await asyncio.sleep(0)  # the commit
        for _ in range(200):
            if s.got("g")[1:]:
                break
            await asyncio.sleep(0.01)
        s.close()
        return s.got("g")

    got = asyncio.run(run())
    assert got == ["view g 0", "update g 1"]
    assert built == [("update", "g", 1, False)]
