"""The write path of the event loop's group commit (``LoopCommits.write`` and
``Store._write_batch`` on SQLite): a write is in no savepoint of its own; one refused
before it changed a row has nothing to undo, one refused after is undone by rolling
the transaction back and doing the writes before it again, the very same rows. The
claim is read from the count of rows changed."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest
from server_helpers import stored_duels, straights_plan

from dogfight.server.db import store as store_module
from dogfight.server.db.game_rows import Batch
from dogfight.server.db.store import Conflict, Stale


def _stored(path: Path) -> tuple[list[tuple[str, int, str]], dict[str, int]]:
    """The plans committed and each game's revision, as another connection sees them."""
    with sqlite3.connect(path) as other:
        plans = other.execute("SELECT game_id, turn, seat FROM plans ORDER BY id").fetchall()
        revisions = other.execute("SELECT id, revision FROM games").fetchall()
    return [(str(g), int(t), str(s)) for g, t, s in plans], {str(g): r for g, r in revisions}


def _plan(seat: str = "allies", turn: int = 1) -> Batch:
    return Batch(plans=[(turn, seat, {"camel": straights_plan()})])


@pytest.mark.parametrize("refusal", ["conflict", "stale", "unknown game"])
def test_a_refused_first_write_leaves_nothing_behind(tmp_path: Path, refusal: str) -> None:
    store, (g1, g2), path = stored_duels(tmp_path, 2)
    store.add_batch(g1, _plan())  # committed alone: the group is not in use yet

    async def scene() -> int:
        store.group_commits(asyncio.get_running_loop())
        group = store.group
        assert group is not None
        if refusal == "conflict":
            with pytest.raises(Conflict):
                store.add_batch(g1, _plan())  # the transaction's first write
        elif refusal == "stale":
            with pytest.raises(Stale):
                store.add_batch(g1, _plan("central"), revision=999)
        else:
            with pytest.raises(Stale):
                store.add_batch("no-such-game", _plan())
        store.add_batch(g2, _plan())
        store.add_batch(g1, _plan("central"))
        await store.stored(g2)
        await store.stored(g1)
        return group.commits

    assert asyncio.run(scene()) == 1
    plans, revisions = _stored(path)
    assert plans == [(g1, 1, "allies"), (g2, 1, "allies"), (g1, 1, "central")]
    assert revisions == {g1: 2, g2: 1}  # nothing of the refused write is left
    store.close()


def test_a_write_refused_after_changing_rows_is_undone_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write claims the game and inserts a plan, then finds the next plan's key
    taken: the transaction is rolled back and the writes before it done again. What is
    committed is what they alone would have committed, row for row (ids and times)."""
    clock = iter(range(1, 100))
    monkeypatch.setattr(store_module, "time", SimpleNamespace(time=lambda: float(next(clock))))
    store, (g1, g2), path = stored_duels(tmp_path, 2)
    before = Batch(plans=[(1, "allies", {"camel": straights_plan()})], steps=[(1, 0, "[]")])
    refused = Batch(plans=[(1, "central", {"albatros": {}}), (1, "allies", {"camel": {}})])

    async def scene() -> int:
        store.group_commits(asyncio.get_running_loop())
        group = store.group
        assert group is not None
        store.add_batch(g1, before, revision=0)  # at 1
        store.add_batch(g2, _plan(), revision=0)  # at 2
        with pytest.raises(Conflict):
            store.add_batch(g1, refused)  # at 3: the claim and a plan written, then refused
        store.add_batch(g2, _plan("central"), revision=1)  # at 4
        await store.stored(g1)
        await store.stored(g2)
        return group.commits

    assert asyncio.run(scene()) == 1
    store.close()
    with sqlite3.connect(path) as other:
        plans = other.execute("SELECT id, game_id, seat, created FROM plans ORDER BY id")
        assert plans.fetchall() == [
            (1, g1, "allies", 1.0),
            (2, g2, "allies", 2.0),
            (3, g2, "central", 4.0),
        ]
        steps = other.execute("SELECT id, game_id, turn, phase, events, created FROM steps")
        assert steps.fetchall() == [(1, g1, 1, 0, "[]", 1.0)]
    assert _stored(path)[1] == {g1: 1, g2: 2}


def test_the_claim_checks_the_revision_outside_the_group(tmp_path: Path) -> None:
    """Off the loop (a worker thread's write) each write is its own transaction, with
    the same claim: the revision given must be the game's, and each write bumps it."""
    store, (g1,), path = stored_duels(tmp_path, 1)
    store.add_batch(g1, _plan(), revision=0)
    with pytest.raises(Stale):
        store.add_batch(g1, _plan("central"), revision=0)
    store.add_batch(g1, _plan("central"), revision=1)
    with pytest.raises(Stale):
        store.add_batch("no-such-game", _plan())
    assert _stored(path) == ([(g1, 1, "allies"), (g1, 1, "central")], {g1: 2})
    store.close()
