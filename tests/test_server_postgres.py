"""Several server processes on one PostgreSQL database (a throwaway cluster, see
``postgres_helpers``): a plan sent to one process reaches the seats connected to
another (LISTEN/NOTIFY), a step is resolved once whoever tries, and killing one process
with SIGKILL loses nothing while the other goes on. (The whole HTTP API also runs on
PostgreSQL: ``test_server_api``'s client is parametrised over both databases.)"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from postgres_helpers import pg_url, postgres  # noqa: F401  (fixtures)
from server_helpers import Server, duel_situation, straights_plan
from sqlalchemy import text
from test_server_persistence import _play_targets_game, create, stored_steps, submit, view
from websockets.sync.client import ClientConnection, connect

from dogfight.bench.pgcluster import Cluster
from dogfight.catalog import load_catalog
from dogfight.server.db import status
from dogfight.server.db.game_rows import Batch, Marks
from dogfight.server.db.notify import libpq_url
from dogfight.server.db.pg_statements import CHANNEL
from dogfight.server.db.store import Conflict, Stale, Store, sqlite_url
from dogfight.server.db.tables import GameRow
from dogfight.server.errors import GameFailed
from dogfight.server.play.games import LiveGame
from dogfight.server.play.seat_actions import submit_plans
from dogfight.server.play.service import GameService

Json = dict[str, Any]


@pytest.fixture(scope="module")
def shared(postgres: Cluster) -> str:  # noqa: F811
    """One database for the module's server processes (each test plays its own games)."""
    return postgres.new_database()


@pytest.fixture(scope="module")
def two(shared: str) -> Iterator[tuple[Server, Server]]:
    """Two ``dogfight serve`` processes on one PostgreSQL database (started together)."""
    with ThreadPoolExecutor(2) as pool:
        a, b = pool.map(Server, [shared, shared])
    try:
        yield a, b
    finally:
        a.kill()
        b.kill()


def _next_view(ws: ClientConnection) -> Json:
    """The next view or update (an update: only the summary, seat and stage changed)."""
    while True:
        message: Json = json.loads(ws.recv(timeout=20))
        if message.get("type") in ("view", "update"):
            return message


def test_a_plan_sent_to_one_process_reaches_a_seat_on_another(
    two: tuple[Server, Server],
) -> None:
    a, b = two
    game, seats = create(a.base, preset="duel")
    allies, central = seats["allies"], seats["central"]
    url = b.base.replace("http://", "ws://") + f"/api/games/{game}/ws"
    with connect(url) as ws:
        ws.send(json.dumps({"seat": allies[0], "token": allies[1], "since": 0}))
        first = _next_view(ws)
        assert first["stage"]["kind"] == "planning" and first["stage"]["submitted"] is False
        # the allies' own plan, sent to process A, shows on process B's socket
        assert submit(a.base, game, allies, 1, {"camel": straights_plan()}).is_success
        mid = _next_view(ws)
        assert mid["stage"]["submitted"] is True
        assert mid["stage"]["waiting_for"] == [central[0]]
        # the other seat's plan, sent to A: the resolved turn reaches the socket on B
        assert submit(a.base, game, central, 1, {"albatros": straights_plan()}).is_success
        after = _next_view(ws)
        while after["type"] != "view" or after["steps_total"] < 4:
            after = _next_view(ws)
        assert after["stage"]["kind"] in ("planning", "over"), after["stage"]
        assert len(after["steps"]) == after["steps_total"] >= 4
    # and B, asked directly, agrees with A
    assert view(b.base, game, central)["steps_total"] == view(a.base, game, central)["steps_total"]


def test_killed_after_the_last_plan_the_other_process_resolves(
    two: tuple[Server, Server],
) -> None:
    _, other = two
    crashing = Server(other.db, env={"DOGFIGHT_TEST_CRASH": "after-last-plan"})
    try:
        game, seats = create(crashing.base, preset="duel", seed=9, analysis=True)
        # the other process holds the game too (and hears of every change)
        assert view(other.base, game, seats["allies"])["steps_total"] == 0
        assert submit(
            crashing.base, game, seats["allies"], 1, {"camel": straights_plan()}
        ).is_success
        with pytest.raises(Exception):  # noqa: B017  (the process dies mid-request)
            submit(crashing.base, game, seats["central"], 1, {"albatros": straights_plan()})
        assert crashing.wait_exit() == 70
        # the last plan was committed before the crash: the other process resolves it
        seen = view(other.base, game, seats["allies"])
        for _ in range(100):
            if seen["steps_total"] == 4:
                break
            time.sleep(0.1)
            seen = view(other.base, game, seats["allies"])
        assert seen["steps_total"] == 4 and seen["stage"]["turn"] == 2
    finally:
        crashing.kill()
    assert stored_steps(other.db, game) == [(1, 0), (1, 1), (1, 2), (1, 3)]


def test_one_process_killed_mid_turn_the_other_goes_on(two: tuple[Server, Server]) -> None:
    """The kill -9 test on two processes: a target question waits on A; A is killed; B
    (serving all along) answers it; the same events as a game never interrupted."""
    a, b = two
    calm = _play_targets_game(a.base, None, a.db)
    killed = _play_targets_game(a.base, a, a.db, other=b)
    assert killed == calm
    assert any(e["kind"] == "fired" and e["firer"] == "fokker" for e in killed)


def test_two_copies_of_a_game_resolve_a_step_once(pg_url: str) -> None:  # noqa: F811
    """Two processes' copies of one game both try to resolve the same turn: one
    commits, the other finds the game moved on (its revision) and catches up."""
    catalog = load_catalog()
    store = Store(pg_url)
    try:
        service = GameService(store, catalog)
        game, _ = service.create(
            duel_situation(),
            "duel",
            [("a", "allies", ["camel"], None), ("b", "central", ["albatros"], None)],
            3,
        )
        record = store.load(game.id)
        assert record is not None
        first = LiveGame(record, catalog, store)
        second = LiveGame(record, catalog, store)
        submit_plans(first, "a", 1, {"camel": straights_plan()})
        # the second copy has not heard of that plan; its own seat's plan still lands
        submit_plans(second, "b", 1, {"albatros": straights_plan()})
        assert len(second.steps) == 4
        first.reload()
        assert [e.to_json() for s in first.steps for e in s.events] == [
            e.to_json() for s in second.steps for e in s.events
        ]
        assert store.count_steps(game.id) == [(1, 0), (1, 1), (1, 2), (1, 3)]
        # a stale copy trying to resolve again writes nothing
        third = LiveGame(record, catalog, store)
        third.plans = first.plans
        third.advance()
        assert store.count_steps(game.id) == [(1, 0), (1, 1), (1, 2), (1, 3)]
        assert len(third.steps) == 4
    finally:
        store.close()


def _drop_connections(url: str) -> int:
    """Terminate every other backend on the database (as a restart of the server would
    drop them): the pools' connections and the listeners'."""
    import psycopg

    from dogfight.server.db.notify import libpq_url

    with psycopg.connect(libpq_url(url), autocommit=True) as connection:
        rows = connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return len(rows)


def test_reading_again_reads_only_what_is_new(pg_url: str) -> None:  # noqa: F811
    store = Store(pg_url)
    try:
        game, _ = GameService(store, load_catalog()).create(
            duel_situation(),
            "duel",
            [("a", "allies", ["camel"], None), ("b", "central", ["albatros"], None)],
            5,
        )
        record = store.load(game.id)
        assert record is not None and record.flags == (False, False)
        assert store.load_since(game.id, record.marks) == replace(
            record, setup={}, flags=None, plans=[], answers=[], decisions=[], steps=[]
        )
        store.add_plans(game.id, 1, "a", {"camel": straights_plan()})
        newer = store.load_since(game.id, record.marks)
        assert newer is not None
        assert newer.plans == [(1, "a", {"camel": straights_plan()})]
        assert newer.revision == record.revision + 1
        assert newer.marks.plans > record.marks.plans
        assert store.load_since(game.id, newer.marks).plans == []  # type: ignore[union-attr]
    finally:
        store.close()


def test_a_failed_game_is_not_loaded(pg_url: str) -> None:  # noqa: F811
    """The failure flag read with the game (one statement on PostgreSQL) stops it."""
    store = Store(pg_url)
    try:
        catalog = load_catalog()
        game, _ = GameService(store, catalog).create(
            duel_situation(),
            "duel",
            [("a", "allies", ["camel"], None), ("b", "central", ["albatros"], None)],
            5,
        )
        status.mark_failed(store, game.id, 1, 0, RuntimeError("boom"))
        with pytest.raises(GameFailed):
            GameService(store, catalog).get(game.id)
    finally:
        store.close()


def test_connections_the_database_dropped_are_replaced(pg_url: str) -> None:  # noqa: F811
    store = Store(pg_url)
    try:
        service = GameService(store, load_catalog())
        game, _ = service.create(
            duel_situation(),
            "duel",
            [("a", "allies", ["camel"], None), ("b", "central", ["albatros"], None)],
            5,
        )
        assert _drop_connections(pg_url) >= 1
        time.sleep(0.2)
        submit_plans(game, "a", 1, {"camel": straights_plan()})  # a write
        assert store.load(game.id) is not None  # a read
    finally:
        store.close()


def test_a_process_that_lost_its_listener_catches_up(shared: str) -> None:
    """What is written while a process is not listening reaches its seats when it
    listens again (it reads every game it holds). Two processes of its own (the
    module's pair may have been killed by now)."""
    with ThreadPoolExecutor(2) as pool:
        writer, listening = pool.map(Server, [shared, shared])
    try:
        game, seats = create(writer.base, preset="duel")
        allies, central = seats["allies"], seats["central"]
        url = listening.base.replace("http://", "ws://") + f"/api/games/{game}/ws"
        with connect(url) as ws:
            ws.send(json.dumps({"seat": central[0], "token": central[1], "since": 0}))
            assert _next_view(ws)["stage"]["waiting_for"] == [allies[0], central[0]]
            assert _drop_connections(str(writer.db)) >= 2  # the listeners among them
            # written at once, while the listeners listen again only after a pause
            assert submit(writer.base, game, allies, 1, {"camel": straights_plan()}).is_success
            assert _next_view(ws)["stage"]["waiting_for"] == [central[0]]
    finally:
        writer.kill()
        listening.kill()


def _two_seats(store: Store, seed: int = 5) -> LiveGame:
    game, _ = GameService(store, load_catalog()).create(
        duel_situation(),
        "duel",
        [("a", "allies", ["camel"], None), ("b", "central", ["albatros"], None)],
        seed,
    )
    return game


def test_a_batch_is_one_statement_that_writes_all_or_nothing(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """PostgreSQL writes a batch in one statement (the claim, its notification and
    every row): the rows come back as SQLite's many statements store them, in order, the
    events' text verbatim; a stale revision or a row stored twice writes nothing."""
    events = [(1, 0, '[{"kind":"a","x":1.5}]'), (1, 1, '[{"kind": "b"}, {"kind":"c"}]')]
    batch = Batch(
        plans=[(1, "a", {"camel": straights_plan()}), (1, "b", {"albatros": straights_plan()})],
        answers=[(1, 1, "a", {"fire": {"camel": {"gun": "albatros"}}}), (1, -1, "b", {})],
        decisions=[(1, 1, "a", {"d2": ["x"], "d1": ["y", "z"]})],
        steps=list(events),
        over=True,
    )
    records = []
    for url in (pg_url, sqlite_url(tmp_path / "games.sqlite")):
        store = Store(url)
        try:
            game = _two_seats(store)
            store.add_batch(game.id, batch, game.revision)
            record = store.load(game.id)
            assert record is not None and record.over and record.revision == game.revision + 1
            records.append(record)
            with pytest.raises(Stale):  # the game moved on: nothing written
                store.add_batch(game.id, Batch(steps=[(1, 2, "[]")]), game.revision)
            with pytest.raises(Conflict):  # a plan stored twice: nothing written
                store.add_batch(
                    game.id,
                    Batch(plans=[(2, "a", {})], steps=[(1, 0, "[]")]),
                    record.revision,
                )
            again = store.load(game.id)
            assert again is not None
            assert (again.revision, again.plans, again.steps) == (
                record.revision,
                record.plans,
                record.steps,
            )
        finally:
            store.close()
    pg, lite = records
    assert pg.steps == events  # the text as it was sent
    assert [(t, p, json.loads(str(e))) for t, p, e in pg.steps] == lite.steps
    assert (pg.plans, pg.answers, pg.decisions) == (lite.plans, lite.answers, lite.decisions)
    assert [d[3] for d in pg.decisions] == ["d1", "d2"]
    assert pg.marks == Marks(plans=2, answers=2, decisions=2, steps=2)  # a fresh database


def test_stored_events_read_as_text_are_compared_as_json(pg_url: str) -> None:  # noqa: F811
    """A process loading a game reads each step's events as their stored text and
    compares them with its replay as JSON: the same JSON written another way is not a
    difference, other events are (as when the driver parsed them)."""
    store = Store(pg_url)
    catalog = load_catalog()
    try:
        game = _two_seats(store)
        submit_plans(game, "a", 1, {"camel": straights_plan()})
        submit_plans(game, "b", 1, {"albatros": straights_plan()})
        assert len(game.steps) == 4

        def diverged() -> list[tuple[int, int]]:
            record = store.load(game.id)
            assert record is not None and all(isinstance(e, str) for _, _, e in record.steps)
            return LiveGame(record, catalog, store).diverged

        assert diverged() == []
        with store.engine.begin() as connection:  # the same JSON, written another way
            connection.execute(text("UPDATE steps SET events = (events::jsonb)::json"))
        assert diverged() == []
        with store.engine.begin() as connection:  # different events
            connection.execute(
                text(
                    "UPDATE steps SET events = json_build_array(json_build_object('kind', 'x')) "
                    "WHERE turn = 1 AND phase = 0"
                )
            )
        assert diverged() == [(1, 0)]
    finally:
        store.close()


def test_a_notification_carries_the_rows_load_since_reads(pg_url: str) -> None:  # noqa: F811
    """Each batch's notification carries the rows written (when they fit): taken by a
    process that held the revision before, they are what ``load_since`` reads at that
    revision (the fast path held to the slow one); a catch-up from them gives the same
    game as one that reads."""
    import psycopg

    store = Store(pg_url)
    catalog = load_catalog()
    listening = psycopg.connect(libpq_url(pg_url), autocommit=True)
    try:
        listening.execute(f"LISTEN {CHANNEL}")
        writer = _two_seats(store)
        record = store.load(writer.id)
        assert record is not None
        notified, reading = LiveGame(record, catalog, store), LiveGame(record, catalog, store)
        for turn in (1, 2):
            for seat, vehicle in (("a", "camel"), ("b", "albatros")):
                marks = notified.marks
                submit_plans(writer, seat, turn, {vehicle: straights_plan()})
                notes = list(listening.notifies(timeout=5, stop_after=1))
                game_id, revision, rows = notes[-1].payload.split(" ", 2)
                assert (game_id, int(revision)) == (writer.id, writer.revision)
                carried = Store.noticed(game_id, int(revision), rows, marks)
                read = store.load_since(game_id, marks)
                assert carried is not None and read is not None
                assert (carried.plans, carried.answers, carried.decisions, carried.marks) == (
                    read.plans,
                    read.answers,
                    read.decisions,
                    read.marks,
                )
                assert [(t, p, e) for t, p, e in carried.steps] == [
                    (t, p, json.loads(str(e))) for t, p, e in read.steps
                ]
                reads = store.load_since
                store.load_since = None  # type: ignore[assignment,method-assign]
                try:
                    notified.reload(notice=(int(revision), rows))  # nothing read
                finally:
                    store.load_since = reads  # type: ignore[method-assign]
                reading.reload()
                for game in (notified, reading):
                    assert game.revision == writer.revision
                    assert [s.stored() for s in game.steps] == [s.stored() for s in writer.steps]
                    assert game.plans == writer.plans and game.diverged == []
        assert len(writer.steps) == 8
        # rows for another revision than the next one are not taken: the rows are read
        stale = LiveGame(record, catalog, store)
        stale.reload(notice=(writer.revision, "[null, null, null, null]"))
        assert [s.stored() for s in stale.steps] == [s.stored() for s in writer.steps]
    finally:
        listening.close()
        store.close()


def test_rows_too_long_for_a_notification_are_read(pg_url: str) -> None:  # noqa: F811
    """A batch whose rows do not fit in a notification's payload notifies the game, its
    revision and the writer's origin alone (the processes read the rows)."""
    import psycopg

    store = Store(pg_url)
    listening = psycopg.connect(libpq_url(pg_url), autocommit=True)
    try:
        listening.execute(f"LISTEN {CHANNEL}")
        game = _two_seats(store)
        long_events = "[" + ",".join(['{"kind":"noted","text":"' + "x" * 100 + '"}'] * 90) + "]"
        store.add_batch(game.id, Batch(steps=[(1, 0, long_events)]), game.revision)
        store.add_batch(game.id, Batch(steps=[(1, 1, "[]")]), game.revision + 1)
        notes = [n.payload for n in listening.notifies(timeout=5, stop_after=2)]
        assert notes[0] == f'{game.id} {game.revision + 1} ["{store.origin}"]'
        assert notes[1].startswith(f"{game.id} {game.revision + 2} [null, null, null, [[")
        rows = notes[0].split(" ", 2)[2]
        assert Store.noticed(game.id, game.revision + 1, rows, Marks()) is None
        assert store.own(rows)
    finally:
        listening.close()
        store.close()


def test_a_process_knows_its_own_writes_by_their_origin(pg_url: str) -> None:  # noqa: F811
    """Each batch's notification ends with the writing store's origin: the writer
    recognises it (and does not catch up with its own write), another store on the
    same database does not; the rows before it are taken as a 4-element list is (as a
    process of an earlier version sent them), and a process of an earlier version
    reading the new payload finds no 4-element list there and reads the rows
    instead (see docs/web.md)."""
    import psycopg

    store, other = Store(pg_url), Store(pg_url)
    catalog = load_catalog()
    listening = psycopg.connect(libpq_url(pg_url), autocommit=True)
    try:
        assert store.origin != other.origin
        listening.execute(f"LISTEN {CHANNEL}")
        game = _two_seats(store)
        record = store.load(game.id)
        assert record is not None
        reader = LiveGame(record, catalog, other)
        marks = reader.marks
        submit_plans(game, "a", 1, {"camel": straights_plan()})
        note = list(listening.notifies(timeout=5, stop_after=1))[-1].payload
        game_id, revision, rows = note.split(" ", 2)
        assert json.loads(rows)[4] == store.origin
        assert store.own(rows) and not other.own(rows) and not other.own(None)
        carried = Store.noticed(game_id, int(revision), rows, marks)
        as_before = Store.noticed(game_id, int(revision), json.dumps(json.loads(rows)[:4]), marks)
        with pytest.raises(ValueError):  # an earlier version's reading: not carried, read
            _plans, _answers, _decisions, _steps = json.loads(rows)
        assert carried is not None and carried == as_before
        assert [p[:2] for p in carried.plans] == [(1, "a")]
        reader.reload(notice=(int(revision), rows))
        assert reader.revision == game.revision and reader.plans == game.plans
    finally:
        listening.close()
        store.close()
        other.close()


def test_a_new_game_is_stored_in_one_statement_as_sqlite_stores_it(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """PostgreSQL stores a new game, its seats and its status row in one statement:
    read back, the same game as SQLite's inserts store; the same id twice: Conflict."""
    loaded = []
    for url in (pg_url, sqlite_url(tmp_path / "games.sqlite")):
        store = Store(url)
        try:
            game, _ = GameService(store, load_catalog()).create(
                duel_situation(),
                "duel",
                [("a", "allies", ["camel"], None), ("b", "central", ["albatros"], "easy")],
                11,
                analysis=True,
            )
            record = store.load(game.id)
            assert record is not None and status.is_analysis(store, game.id)
            assert status.failure(store, game.id) is None
            seats = [replace(seat, token_hash="") for seat in record.seats]  # random tokens
            loaded.append(replace(record, id="", created=0.0, flags=None, seats=seats))
            with pytest.raises(Conflict):
                store.create_game(
                    GameRow(id=game.id, title="again", created=0.0, seed=1, setup={}, engine=1),
                    [],
                )
        finally:
            store.close()
    pg, lite = loaded
    assert not pg.over and pg.plans  # the computer player planned at once
    assert replace(pg, steps=[], marks=Marks()) == replace(lite, steps=[], marks=Marks())


def test_a_seat_reads_its_own_write_on_any_process(shared: str) -> None:
    """Issue 28, defect 7: right after process A acknowledged a seat's plan, process B
    (which holds the game) answers that seat with the plan submitted — even when B hears
    of A's write late: B's notifications are delayed here (``DOGFIGHT_TEST_NOTIFY_DELAY``,
    the race made certain), so only B's look-up of the stored revision can tell it."""
    with ThreadPoolExecutor(2) as pool:
        a, b = pool.map(
            lambda env: Server(shared, {"DOGFIGHT_GAMES_PER_MINUTE": "0", **env}),
            [{}, {"DOGFIGHT_TEST_NOTIFY_DELAY": "5"}],
        )
    try:
        stale = []
        for duel in range(60):
            game, seats = create(a.base, preset="duel")
            allies, central = seats["allies"], seats["central"]
            assert view(b.base, game, allies)["stage"]["submitted"] is False  # B holds it
            assert submit(a.base, game, allies, 1, {"camel": straights_plan()}).is_success
            seen = view(b.base, game, allies)["stage"]
            if seen["submitted"] is not True or seen["waiting_for"] != [central[0]]:
                stale.append((duel, seen))
        assert stale == []
    finally:
        a.kill()
        b.kill()
