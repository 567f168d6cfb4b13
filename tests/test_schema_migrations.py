"""Schema versions (issue 32 item 2): a database of the first dogfight that had one
(722619d, with games in progress, written by that version) is refused until upgraded,
upgraded by ``dogfight db upgrade`` or ``serve --upgrade`` (an SQLite file copied
first), and its games then play to the end over HTTP; a database of a newer dogfight is
refused (exit status 2, one message); the row classes and revision 1 describe the same
tables; processes starting together on an empty PostgreSQL all come up."""

from __future__ import annotations

import contextlib
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from old_databases import build_722619d
from postgres_helpers import pg_url, postgres  # noqa: F401  (fixtures)
from server_helpers import Server, serving, straights_plan
from sqlalchemy import Integer, MetaData, create_engine, inspect, text
from test_simulate import dogfight

from dogfight.campaign.store import Base as CampaignBase
from dogfight.server.db import clock_rows, migrations, reminder_rows, status
from dogfight.server.db.series_store import Base as SeriesBase
from dogfight.server.db.store import Store, driver_url, sqlite_url
from dogfight.server.db.tables import Base as GamesBase

Json = dict[str, Any]

assert status.GameStatusRow.__tablename__ in GamesBase.metadata.tables  # imported: declared
assert reminder_rows.ReminderRow.__tablename__ in GamesBase.metadata.tables
assert clock_rows.ClockRow.__tablename__ in GamesBase.metadata.tables


def _models() -> MetaData:
    """Every table the row classes declare, in one metadata."""
    meta = MetaData()
    for base in (GamesBase, SeriesBase, CampaignBase):
        for table in base.metadata.tables.values():
            table.to_metadata(meta)
    return meta


def _same_type(context: Any, _column: Any, _model: Any, found: Any, declared: Any) -> bool | None:
    """Alembic's type comparison, but for SQLite's INTEGER against BIGINT: SQLite stores
    any integer of up to 64 bits in either (722619d's ``games.seed``, kept as it was)."""
    sqlite = context.dialect.name == "sqlite"
    if sqlite and isinstance(found, Integer) and isinstance(declared, Integer):
        return False
    return None


def _differences(url: str) -> list[Any]:
    """What Alembic's comparison finds between the database and the row classes."""
    engine = create_engine(driver_url(url))
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": _same_type})
            return list(compare_metadata(context, _models()))
    finally:
        engine.dispose()


def _dump(db: Path) -> list[str]:
    """The SQLite file's schema and rows as SQL (read through its WAL)."""
    with contextlib.closing(sqlite3.connect(db)) as connection:
        return list(connection.iterdump())


def _view(base: str, game: str, seat: list[str]) -> Json:
    got = httpx.get(
        f"{base}/api/games/{game}/seats/{seat[0]}", headers={"X-Seat-Token": seat[1]}, timeout=20
    )
    assert got.status_code == 200, got.text
    out: Json = got.json()
    return out


def _play_to_the_end(base: str, game: str, seats: dict[str, list[str]]) -> Json:
    """Every seat plans straights and shoots at the first target offered until the game
    is over; the last view."""
    for _ in range(200):
        views = {label: _view(base, game, seat) for label, seat in seats.items()}
        if all(v["stage"]["kind"] == "over" for v in views.values()):
            return next(iter(views.values()))
        for label, seat in seats.items():
            stage = views[label]["stage"]
            post = f"{base}/api/games/{game}/seats/{seat[0]}"
            token = {"X-Seat-Token": seat[1]}
            if stage["kind"] == "planning" and not stage["submitted"] and stage["to_plan"]:
                body: Json = {
                    "turn": stage["turn"],
                    "plans": {v: straights_plan() for v in stage["to_plan"]},
                }
                sent = httpx.post(post + "/plans", json=body, headers=token, timeout=20)
            elif stage["kind"] == "targets" and stage["questions"]:
                fire: dict[str, dict[str, str]] = {}
                for q in stage["questions"]:
                    fire.setdefault(q["vehicle"], {})[q["weapon"]] = q["options"][0]
                body = {"turn": stage["turn"], "phase": stage["phase"], "fire": fire}
                sent = httpx.post(post + "/targets", json=body, headers=token, timeout=20)
            else:
                assert not (stage["kind"] == "targets" and stage["decisions"]), stage
                continue
            assert sent.status_code == 200, sent.text
    raise AssertionError(f"game {game} not over after 200 rounds")


def _play_the_old_games(base: str, games: Json) -> None:
    """The fixture's games, where the old version left them, go on to the end."""
    duel, targets = games["duel"], games["targets"]
    at = _view(base, duel["id"], duel["seats"]["central"])
    # turn 1 played, the allies' plan of turn 2 in: the central seat is awaited
    assert at["stage"]["kind"] == "planning" and at["stage"]["turn"] == 2
    assert at["stage"]["waiting_for"] == [duel["seats"]["central"][0]]
    asked = _view(base, targets["id"], targets["seats"]["central"])
    assert asked["stage"]["kind"] == "targets" and asked["stage"]["questions"]
    for game in (duel, targets):
        final = _play_to_the_end(base, game["id"], game["seats"])
        assert final["game"]["result"]["kind"] == "game_over"
        kinds = [e["kind"] for s in final["steps"] for e in s["events"]]
        assert kinds[-1] == "game_over" and "moved" in kinds


def test_an_old_sqlite_database_is_refused_then_upgraded_and_its_games_finished(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite"
    games = build_722619d(sqlite_url(db))
    before = _dump(db)
    refused = dogfight("serve", "--db", str(db), "--port", "0")
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "dogfight db upgrade" in refused.stderr and "Traceback" not in refused.stderr
    assert _dump(db) == before  # nothing changed
    shown = dogfight("db", "current", "--db", str(db))
    assert shown.returncode == 1 and "before schema versions" in shown.stdout
    done = dogfight("db", "upgrade", "--db", str(db))
    assert done.returncode == 0, done.stderr
    copies = list(tmp_path.glob("games.sqlite.before-unversioned-*.sqlite"))
    assert len(copies) == 1 and "copied the database to" in done.stdout
    assert "upgraded the tables of a dogfight from before schema versions" in done.stdout
    # the copy is the old database: still refused as it was
    assert migrations.current(create_engine(sqlite_url(copies[0]))).revision == "unversioned"
    assert dogfight("db", "current", "--db", str(db)).returncode == 0
    assert _differences(sqlite_url(db)) == []
    again = dogfight("db", "upgrade", "--db", str(db))
    assert again.returncode == 0 and "(current)" in again.stdout
    with serving(db) as server:
        _play_the_old_games(server.base, games)


def test_an_old_postgres_database_upgraded_by_two_processes_starting_at_once(pg_url: str) -> None:  # noqa: F811
    games = build_722619d(pg_url)
    with pytest.raises(migrations.SchemaTooOld, match="dogfight db upgrade"):
        Store(pg_url)
    # two processes started together with --upgrade: one upgrades (under the schema
    # lock), the other finds the database current; both serve the old games
    with ThreadPoolExecutor(2) as pool:
        a, b = pool.map(lambda _: Server(pg_url, args=["--upgrade", "--reuse-port"]), range(2))
    try:
        _play_the_old_games(a.base, games)
        assert (
            _view(b.base, games["duel"]["id"], games["duel"]["seats"]["allies"])["stage"]["kind"]
            == "over"
        )
    finally:
        a.kill()
        b.kill()
    assert _differences(pg_url) == []


def test_a_database_of_today_without_versions_is_adopted(tmp_path: Path) -> None:
    """The tables the stores made before schema versions (create_all, no revision
    table): upgraded without a change to them, only stamped."""
    url = sqlite_url(tmp_path / "games.sqlite")
    engine = create_engine(url)
    before = _models()
    for later in (reminder_rows.REMINDERS.name, reminder_rows.SENT.name, clock_rows.CLOCKS.name):
        before.remove(before.tables[later])
    before.create_all(engine)
    assert migrations.current(engine).revision == migrations.UNVERSIONED
    done = migrations.upgrade(engine)
    assert done.after.current and done.backup is not None
    assert _differences(url) == []


def test_revision_1_makes_the_tables_of_the_row_classes(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "games.sqlite")
    Store(url).close()
    assert _differences(url) == []
    assert migrations.current(create_engine(url)).current


def test_revision_1_on_postgres(pg_url: str) -> None:  # noqa: F811
    Store(pg_url).close()
    assert _differences(pg_url) == []


def test_a_database_of_revision_1_is_upgraded_to_take_reminders(tmp_path: Path) -> None:
    """Revision 2 (reminders): a database of revision 1, with a game, is refused, then
    upgraded to the row classes' tables, its game kept."""
    url = sqlite_url(tmp_path / "games.sqlite")
    with serving(tmp_path / "games.sqlite") as server:
        game = httpx.post(server.base + "/api/games", json={"preset": "duel"}, timeout=20)
        assert game.status_code == 201, game.text
    engine = create_engine(url)
    with engine.begin() as connection:  # back to revision 1, as that dogfight left it
        connection.execute(text("DROP TABLE reminders"))
        connection.execute(text("DROP TABLE reminders_sent"))
        connection.execute(text("DROP TABLE game_clocks"))
        connection.execute(text("DROP TABLE game_watch"))  # revision 3's
        connection.execute(text("DROP TABLE clock_outs"))  # revision 4's
        connection.execute(text("DROP TABLE spectator_counts"))  # revision 5's
        connection.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    with pytest.raises(migrations.SchemaTooOld):
        Store(url)
    done = migrations.upgrade(engine)
    assert done.after.current and done.after.revision == "0005"
    assert _differences(url) == []
    store = Store(url)
    assert store.load(game.json()["game"]["id"]) is not None
    store.close()
    engine.dispose()


def _from_the_future(url: str) -> None:
    Store(url).close()
    engine = create_engine(driver_url(url))
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()


def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    _from_the_future(sqlite_url(db))
    for command in (
        ["serve", "--port", "0"],
        ["serve", "--upgrade", "--port", "0"],
        ["db", "upgrade"],
        ["campaign", "list"],
        ["export", "some-game"],
    ):
        got = dogfight(*command, "--db", str(db))
        assert got.returncode == 2, got.stdout + got.stderr
        assert "revision 9999" in got.stderr and "newer dogfight" in got.stderr
        assert "Traceback" not in got.stderr
    assert not list(tmp_path.glob("*.before-*"))  # not even copied


def test_a_newer_postgres_database_is_refused(pg_url: str) -> None:  # noqa: F811
    _from_the_future(pg_url)
    got = dogfight("serve", "--db", pg_url, "--port", "0")
    assert got.returncode == 2 and "revision 9999" in got.stderr
    assert "Traceback" not in got.stderr


def test_processes_starting_together_on_an_empty_postgres_all_come_up(
    pg_url: str,  # noqa: F811
) -> None:
    with ThreadPoolExecutor(3) as pool:
        servers = list(pool.map(lambda _: Server(pg_url, args=["--reuse-port"]), range(3)))
    try:
        for server in servers:
            assert httpx.get(server.base + "/api/games", timeout=10).status_code == 200
    finally:
        for server in servers:
            server.kill()
    engine = create_engine(driver_url(pg_url))
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT version_num FROM alembic_version")).all()
        assert [r[0] for r in rows] == [migrations.head()]
        assert inspect(connection).has_table("games")
    engine.dispose()
