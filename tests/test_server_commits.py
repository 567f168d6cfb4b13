"""Group commit (``dogfight.server.db.commits``): the writes made on the event loop's thread
share one SQLite transaction per pass of the loop; nothing of them is seen, answered or
sent before it is committed; a refused write is rolled back alone; a failed commit
stores nothing and tells every game in it."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from server_helpers import client, headers, seat_url, stored_duels, straights_plan
from starlette.websockets import WebSocketDisconnect

from dogfight.server.db import commits
from dogfight.server.db.commits import GroupLost
from dogfight.server.db.game_rows import Batch
from dogfight.server.db.store import Conflict, Stale


def _plans_stored(path: Path) -> list[tuple[str, int, str]]:
    """The plans committed, as another connection sees them."""
    with sqlite3.connect(path) as other:
        rows = other.execute("SELECT game_id, turn, seat FROM plans ORDER BY id").fetchall()
    return [(str(g), int(t), str(s)) for g, t, s in rows]


def _plan(seat: str = "allies", turn: int = 1) -> Batch:
    return Batch(plans=[(turn, seat, {"camel": straights_plan()})])


def test_the_writes_of_one_pass_share_one_commit(tmp_path: Path) -> None:
    store, (g1, g2), path = stored_duels(tmp_path, 2)

    async def scene() -> tuple[list[Any], list[Any], int]:
        store.group_commits(asyncio.get_running_loop())
        assert store.group is not None
        store.add_batch(g1, _plan())
        store.add_batch(g2, _plan())
        before = _plans_stored(path)
        await store.stored(g1)
        await store.stored(g2)
        return before, _plans_stored(path), store.group.commits

    before, after, commits_made = asyncio.run(scene())
    assert before == []  # nothing is seen before the commit
    assert after == [(g1, 1, "allies"), (g2, 1, "allies")]
    assert commits_made == 1
    store.close()


def test_a_refused_write_is_rolled_back_alone(tmp_path: Path) -> None:
    store, (g1, g2), path = stored_duels(tmp_path, 2)

    async def scene() -> list[str]:
        store.group_commits(asyncio.get_running_loop())
        refused = []
        store.add_batch(g1, _plan())
        store.add_batch(g2, _plan())
        with pytest.raises(Conflict):
            store.add_batch(g1, _plan())  # the same seat's plan for the same turn again
        refused.append("conflict")
        with pytest.raises(Stale):
            store.add_batch(g2, _plan("central"), revision=999)  # the game moved on
        refused.append("stale")
        await store.stored(g1)
        return refused

    assert asyncio.run(scene()) == ["conflict", "stale"]
    assert _plans_stored(path) == [(g1, 1, "allies"), (g2, 1, "allies")]
    store.close()


def test_a_failed_commit_stores_nothing_and_tells_every_game_in_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, (g1, g2), path = stored_duels(tmp_path, 2)
    told: list[set[str]] = []
    released: list[str] = []

    def full_disk(self: commits.LoopCommits) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    async def scene() -> str:
        store.group_commits(asyncio.get_running_loop())
        group = store.group
        assert group is not None
        group.on_lost = lambda games, exc: told.append(games)
        with monkeypatch.context() as patch:
            patch.setattr(commits.LoopCommits, "_commit", full_disk)
            store.add_batch(g1, _plan())
            store.add_batch(g2, _plan())
            assert group.hold(lambda: released.append("message"))
            with pytest.raises(GroupLost) as lost:
                await store.stored(g1)
        await store.stored(g1)  # told once: the game was read again since
        store.add_batch(g1, _plan())  # the next pass commits as before
        await store.stored(g1)
        return str(lost.value)

    assert "disk is full" in asyncio.run(scene())
    assert told == [{g1, g2}]
    assert released == []  # what waited for the lost commit is never sent
    assert _plans_stored(path) == [(g1, 1, "allies")]
    store.close()


def test_any_other_use_of_the_database_on_the_loop_commits_first(tmp_path: Path) -> None:
    store, (g1,), path = stored_duels(tmp_path, 1)

    async def scene() -> tuple[list[Any], list[tuple[int, int]]]:
        store.group_commits(asyncio.get_running_loop())
        store.add_batch(g1, _plan())
        steps = store.count_steps(g1)  # a read through the pool: the group is committed
        return _plans_stored(path), steps

    seen, steps = asyncio.run(scene())
    assert seen == [(g1, 1, "allies")] and steps == []
    store.close()


def test_messages_are_held_until_the_commit(tmp_path: Path) -> None:
    store, (g1,), _ = stored_duels(tmp_path, 1)
    order: list[str] = []

    async def scene() -> None:
        store.group_commits(asyncio.get_running_loop())
        group = store.group
        assert group is not None
        assert not group.hold(lambda: order.append("not held: no transaction open"))
        store.add_batch(g1, _plan())
        assert group.hold(lambda: order.append("message"))
        assert group.then(lambda: order.append("answer"))
        group.on_committed = lambda: order.append("sent")
        order.append("work done")
        await store.stored(g1)

    asyncio.run(scene())
    assert order == ["work done", "message", "sent", "answer"]
    store.close()


def test_a_transaction_open_longer_than_its_span_is_committed_by_the_next_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, (g1,), path = stored_duels(tmp_path, 1)
    monkeypatch.setattr(commits, "SPAN", -1.0)

    async def scene() -> list[Any]:
        store.group_commits(asyncio.get_running_loop())
        store.add_batch(g1, _plan())
        return _plans_stored(path)  # no pass of the loop yet

    assert asyncio.run(scene()) == [(g1, 1, "allies")]
    store.close()


def test_writes_of_other_threads_commit_on_their_own(tmp_path: Path) -> None:
    store, (g1, g2), path = stored_duels(tmp_path, 2)

    async def scene() -> tuple[list[Any], list[Any]]:
        store.group_commits(asyncio.get_running_loop())
        await asyncio.to_thread(store.add_batch, g2, _plan())
        from_thread = _plans_stored(path)
        store.add_batch(g1, _plan())
        await store.stored(g1)
        return from_thread, _plans_stored(path)

    from_thread, both = asyncio.run(scene())
    assert from_thread == [(g2, 1, "allies")]
    assert both == [(g2, 1, "allies"), (g1, 1, "allies")]
    store.close()


# --- the server: a request is answered once its writes are stored --------------------


def test_a_plan_whose_commit_failed_is_refused_and_may_be_sent_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """503 with the rule's JSON body when the transaction holding the plan could not be
    committed; the game is read again from the database, so the seat plans again."""
    calls = {"n": 0}
    real = commits.LoopCommits._commit

    def fails_once(self: commits.LoopCommits) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise sqlite3.OperationalError("disk I/O error")
        real(self)

    with client(tmp_path / "games.sqlite") as c:
        made = c.post("/api/games", json={"preset": "duel"}).json()
        game = made["game"]["id"]
        seat = next(s for s in made["seats"] if s["side"] == "allies")
        url = seat_url(game, seat["id"], "plans")
        body = {"turn": 1, "plans": {seat["vehicles"][0]: straights_plan()}}
        other = next(s for s in made["seats"] if s["side"] != "allies")
        with c.websocket_connect(f"/api/games/{game}/ws") as page:
            page.send_json({"seat": other["id"], "token": other["token"], "since": 0})
            assert page.receive_json()["type"] == "view"
            monkeypatch.setattr(commits.LoopCommits, "_commit", fails_once)
            refused = c.post(url, json=body, headers=headers(seat["token"]))
            assert refused.status_code == 503
            assert "could not store" in refused.json()["error"]
            # the opponent's page is sent no update of it: told, and closed to reconnect
            told = page.receive_json()
            assert told["type"] == "error" and told["status"] == 503
            with pytest.raises(WebSocketDisconnect) as closed:
                page.receive_json()
            assert closed.value.code == 4503
        view = c.get(seat_url(game, seat["id"]), headers=headers(seat["token"])).json()
        assert view["stage"]["submitted"] is False
        again = c.post(url, json=body, headers=headers(seat["token"]))
        assert again.status_code == 200, again.text
        assert again.json()["stage"]["submitted"] is True
    with sqlite3.connect(tmp_path / "games.sqlite") as db:
        assert db.execute("SELECT count(*) FROM plans").fetchone() == (1,)
