"""Games in SQL (SQLAlchemy 2): the setup, the seats, every submitted plan, every phase
answer and every resolved step, each written in one transaction (on the event loop with
SQLite: a savepoint of the loop's transaction, committed before anything of it is
acknowledged; see :mod:`dogfight.server.db.commits`).

A game is never stored as a snapshot of the engine's state: it is its setup (the
situation JSON and the seed) plus the inputs of each step, from which the pure engine
rebuilds every state exactly (``dogfight.rules.chance.step_rng`` gives each phase its
generator). The resolved events are stored too, so that a transcript can be read without
the engine, and so that a step is resolved at most once: ``steps`` has a unique
(game, turn, phase) key, and a second resolution of the same step fails to commit.

Every write to a game also checks and bumps the game's ``revision`` in the same
transaction (an ``UPDATE ... WHERE revision = n``, which locks the game's row until the
commit): a process holding an older copy of the game gets :class:`Stale`, writes nothing,
catches up and tries again. So several server processes can share one database; on
PostgreSQL each write also notifies the others (``NOTIFY``, see ``notify.py``).

With SQLite (the default) the file runs in WAL mode with ``synchronous=NORMAL``: a
committed plan or step survives the server process being killed at any moment (the
commit is in the operating system's hands when it returns); a power cut may lose the
last commits but never corrupts the file. ``DOGFIGHT_SQLITE_SYNC=FULL`` fsyncs every
commit as well (about 5 ms more per turn on the benchmark machine).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import select as io_select
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    create_engine,
    event,
    exists,
    func,
    insert,
    or_,
    select,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, IntegrityError
from sqlalchemy.orm import Session

from dogfight.errors import DataError
from dogfight.output.encoding import Raw
from dogfight.output.encoding import text as json_text
from dogfight.server.db import migrations
from dogfight.server.db.commits import LoopCommits
from dogfight.server.db.game_rows import Batch, GameRecord, Marks, record_of, rows_read
from dogfight.server.db.pg_statements import (
    CHANNEL,
    PG_LOAD,
    PG_LOAD_SINCE,
    pg_write,
)
from dogfight.server.db.records import Seat
from dogfight.server.db.tables import (
    ANSWERS,
    CLAIM,
    CLAIM_ANY,
    DECISIONS,
    LOAD_ANSWERS,
    LOAD_DECISIONS,
    LOAD_GAME,
    LOAD_PLANS,
    LOAD_SEATS,
    LOAD_STEPS,
    NOTIFY,
    PLANS,
    STEPS,
    AnswerRow,
    Base,
    DecisionRow,
    GameRow,
    Json,
    PlanRow,
    SeatRow,
    StepRow,
)
from dogfight.server.db.writes import Writes


class Conflict(Exception):
    """A row with the same unique key was already committed (a plan submitted twice, a
    step resolved by someone else): nothing was written."""


class Stale(Exception):
    """The game was changed (by another process) since the writer loaded it: nothing
    was written; reload and try again."""


def default_db_path() -> Path:
    """Where ``dogfight serve`` keeps its games without ``--db``: the user's data folder
    (``$XDG_DATA_HOME/dogfight/games.sqlite``, else ``~/.local/share/...``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "dogfight" / "games.sqlite"


def sqlite_url(path: str | Path) -> str:
    return f"sqlite:///{Path(path).resolve()}"


SYNC_ENV = "DOGFIGHT_SQLITE_SYNC"
"""``FULL`` to fsync every commit (survives a power cut, slower); default ``NORMAL``."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    sync = "FULL" if os.environ.get(SYNC_ENV, "").upper() == "FULL" else "NORMAL"
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={sync}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    # 128 KiB of pages per connection (SQLite's default, 2 MiB, filled in each of the
    # workers' connections as a server reads thousands of games: some 15 MB more than the
    # games it holds, 512 KiB still 3 MB; a game's rows are a few pages, and the file's
    # pages stay in the system's cache)
    cursor.execute("PRAGMA cache_size=-128")
    cursor.close()


def _alive(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """Taken from the pool (PostgreSQL): a connection the server closed (restarted, or
    the backend was terminated) is replaced by a new one (the pool's answer to
    :class:`DisconnectionError`). Checked without a round trip, which a ping costs on
    every use: an idle connection has nothing to read unless the server said goodbye
    (something else to read only costs a new connection)."""
    try:
        if dbapi_connection.closed or dbapi_connection.broken:
            raise DisconnectionError("closed")
        readable, _, _ = io_select.select([dbapi_connection.fileno()], [], [], 0)
    except (OSError, ValueError) as exc:
        raise DisconnectionError(str(exc)) from exc
    except DisconnectionError:
        raise
    except Exception as exc:  # the driver's own error: the connection is unusable
        raise DisconnectionError(str(exc)) from exc
    if readable:
        raise DisconnectionError("the server closed the connection")


def driver_url(url: str) -> URL:
    """``url`` with the driver dogfight installs: psycopg 3 (the ``postgres`` extra) for a
    bare ``postgresql://`` URL."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def open_engine(url: str, **options: Any) -> Engine:
    """An engine on ``url`` (:func:`driver_url`), no table made; ``options`` for
    ``create_engine``. A driver not installed is bad input (``--db``)."""
    try:
        return create_engine(driver_url(url), **options)
    except ModuleNotFoundError as exc:
        raise DataError(
            "--db",
            "url",
            url,
            f"the driver is not installed ({exc.name}): pip install 'dogfight[postgres]'",
        ) from None


class Store:
    """The game database. Every write method is one transaction: it commits whole or
    raises and leaves nothing behind."""

    def __init__(self, url: str) -> None:
        self.url = url
        parsed = driver_url(url)
        options: dict[str, Any] = {}
        postgres = parsed.get_backend_name() == "postgresql"
        if parsed.get_backend_name() != "sqlite":
            # one connection per worker thread, and the listener's (see notify.py); on
            # PostgreSQL a dead connection is found without a round trip (_alive)
            options = {"pool_size": 16, "max_overflow": 16, "pool_pre_ping": not postgres}
        self.engine: Engine = open_engine(url, **options)
        self._writes = Writes.of(self.engine.dialect.name)
        self.notifies = postgres
        """Whether other processes hear of each write (PostgreSQL's LISTEN/NOTIFY); an
        attribute, not a property: asked on every write and several times a request."""
        self.origin = secrets.token_hex(8)
        """Carried by the notification of each batch written here (PostgreSQL): how a
        process recognises its own writes among those it hears of (:meth:`own`)."""
        self._own_tail = f'"{self.origin}"]'
        self._writers: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
        self.group: LoopCommits | None = None
        """The event loop's open transaction (SQLite, once :meth:`group_commits`)."""
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "checkout", self._settle_first)
            self._writers = threading.Lock()
        if postgres:
            event.listen(self.engine, "checkout", _alive)
        migrations.check(self.engine)  # made if empty; refused if older or newer

    def group_commits(self, loop: asyncio.AbstractEventLoop) -> None:
        """From now on, the writes made on the calling thread (``loop``'s) share one
        transaction per pass of the loop (:mod:`dogfight.server.db.commits`). SQLite only:
        PostgreSQL writes a batch in one statement, each with its notification."""
        if self.engine.dialect.name != "sqlite" or self.group is not None:
            return
        self.group = LoopCommits(lambda: self.engine.raw_connection(), loop)

    def _settle_first(self, _dbapi: Any, _record: Any, _proxy: Any) -> None:
        """A connection taken from the pool on the loop's thread: commit the loop's open
        transaction first (so it is seen, and its lock never waited on by the loop)."""
        self._settle_here()

    async def stored(self, game_id: str) -> None:
        """Wait until the game's writes made on the event loop are committed
        (:class:`~dogfight.server.db.commits.GroupLost` if they could not be)."""
        if self.group is not None:
            await self.group.stored(game_id)

    def claim(self, session: Session | Connection, game_id: str, revision: int | None) -> None:
        """Bump the game's revision in this transaction (the row stays locked until it
        commits): :class:`Stale` if it is not ``revision`` any more (None: any); with
        PostgreSQL, the commit notifies every listening process."""
        if revision is None:
            found = session.execute(CLAIM_ANY, {"game": game_id})
        else:
            found = session.execute(CLAIM, {"game": game_id, "revision": revision})
        got = found.scalar_one_or_none()
        if got is None:
            raise Stale(game_id)
        if self.notifies:
            session.execute(NOTIFY, {"channel": CHANNEL, "payload": f"{game_id} {got}"})

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """One write transaction (Core, no unit of work): with SQLite, this process's
        writers take turns on a lock instead of meeting SQLite's busy handler, which
        sleeps for milliseconds at a time while another thread commits."""
        self._settle_here()
        with self._writers, self.engine.begin() as connection:
            yield connection

    def _settle_here(self) -> None:
        """Commit the loop's open transaction before taking the writers' lock on the
        loop's thread: a thread holding the lock may be waiting for the database lock
        that transaction holds."""
        if self.group is not None:
            self.group.settle_here()

    def close(self) -> None:
        if self.group is not None:
            self.group.close()
        self.engine.dispose()

    def create_game(self, game: GameRow, seats: list[SeatRow], extra: Sequence[Base] = ()) -> None:
        """Store a new game, its seats and any ``extra`` rows about it, in one transaction
        (Core inserts of the rows' given values, in order: a unit of work cost more than
        the rest of making a game)."""
        grouped: dict[str, tuple[Table, list[Json]]] = {}
        for row in (game, *seats, *extra):
            table = cast(Table, row.__table__)
            given = vars(row)
            values = {c.key: given[c.key] for c in table.columns if c.key in given}
            grouped.setdefault(table.name, (table, []))[1].append(values)
        if self.notifies:
            self._pg_create(list(grouped.values()))
            return
        try:
            with self._transaction() as connection:
                for table, rows in grouped.values():
                    connection.execute(insert(table), rows)
        except IntegrityError as exc:
            raise Conflict(str(exc.orig)) from None

    def _pg_create(self, grouped: list[tuple[Table, list[Json]]]) -> None:
        """:meth:`create_game` on PostgreSQL: every row in ONE statement sent alone (one
        round trip instead of BEGIN, an INSERT per table and COMMIT; Core's execution of
        each INSERT cost more than the database's work). Each table's rows go as one
        JSON text, turned into rows of the table's type (``json_populate_recordset``);
        a column a row does not give takes its Python-side default, as Core gives it.
        The foreign keys are checked at the end of the statement, when the game's row
        is in."""
        parts: list[str] = []
        given: dict[str, str] = {}
        for table, rows in grouped:
            columns = [
                c
                for c in table.columns
                if any(c.key in row for row in rows)
                or (c.default is not None and c.default.is_scalar)
            ]
            filled = []
            for row in rows:
                values = {}
                for column in columns:
                    if column.key in row:
                        values[column.name] = row[column.key]
                    elif column.default is not None and column.default.is_scalar:
                        values[column.name] = column.default.arg  # type: ignore[attr-defined]
                filled.append(values)
            names = ", ".join(f'"{c.name}"' for c in columns)
            given[table.name] = json_text(filled)
            parts.append(
                f"new_{table.name} AS (INSERT INTO {table.name} ({names}) SELECT {names} "
                f"FROM json_populate_recordset(NULL::{table.name}, %({table.name})s::json))"
            )
        statement = "WITH " + ", ".join(parts) + " SELECT 1"
        with self._pg_alone() as cursor:
            try:
                cursor.execute(statement, given)
            except self.engine.dialect.loaded_dbapi.IntegrityError as exc:
                raise Conflict(str(exc)) from None

    def add_plans(
        self, game_id: str, turn: int, seat: str, plans: Json, revision: int | None = None
    ) -> None:
        """Store a seat's plans for a turn (``revision``: the game's, as the writer knows
        it; :class:`Stale` if it moved on)."""
        self.add_batch(game_id, Batch(plans=[(turn, seat, plans)]), revision)

    def add_answer(
        self,
        game_id: str,
        turn: int,
        phase: int,
        seat: str,
        answer: Json,
        revision: int | None = None,
    ) -> None:
        self.add_batch(game_id, Batch(answers=[(turn, phase, seat, answer)]), revision)

    def add_decisions(
        self,
        game_id: str,
        turn: int,
        phase: int,
        seat: str,
        answers: dict[str, list[str]],
        revision: int | None = None,
    ) -> None:
        """A seat's answers to decisions of one phase, in one transaction."""
        self.add_batch(game_id, Batch(decisions=[(turn, phase, seat, answers)]), revision)

    def add_batch(self, game_id: str, batch: Batch, revision: int | None = None) -> None:
        """Store seats' inputs (a person's, or computer players'), resolved steps and
        whether the game is over, in one transaction; :class:`Conflict` (and nothing
        written) when one was already stored, :class:`Stale` when the game moved on.

        Every plan and every resolved step comes through here, so it talks to the
        database driver directly, with SQL written once per dialect (:class:`Writes`):
        through Core, building the execution context of each statement cost three
        times the database's own work.

        ``batch`` must not change once given: on the event loop, a later write of the
        same transaction refused may have this one written again (``LoopCommits``)."""
        if self.notifies:
            self._pg_batch(game_id, batch, revision)
            return
        group = self.group
        if group is not None and group.here():
            # on the event loop: in the loop's open transaction (commits.py)
            try:
                # the time taken now: the same if the write is done again (LoopCommits)
                group.write(game_id, self._write_batch, game_id, batch, revision, time.time())
            except BaseException as exc:
                self._raise_as(exc)
                raise
            return
        with self._writers:
            fairy = self.engine.raw_connection()
            try:
                cursor = fairy.cursor()
                try:
                    self._write_batch(cursor, game_id, batch, revision, time.time())
                finally:
                    cursor.close()
                fairy.commit()
            except BaseException as exc:
                self._abandon(fairy, exc)
                self._raise_as(exc)
                raise
            finally:
                fairy.close()

    def _write_batch(
        self, cursor: Any, game_id: str, batch: Batch, revision: int | None, now: float
    ) -> None:
        """The statements of :meth:`add_batch` on SQLite, on ``cursor`` (in a transaction
        the caller commits): the game claimed (:class:`Stale` if it moved on: then
        nothing is written), then the rows, ``created`` at ``now``."""
        sql = self._writes
        dump = sql.dump
        if revision is None:
            cursor.execute(sql.claim_any, (game_id,))
        else:
            cursor.execute(sql.claim, (game_id, revision))
        if cursor.rowcount != 1:
            raise Stale(game_id)
        # inputs before the steps they led to (ids keep the order)
        if batch.plans:
            cursor.executemany(
                sql.plans,
                [
                    (game_id, t, s, p if isinstance(p, str) else dump(p), now)
                    for t, s, p in batch.plans
                ],
            )
        if batch.answers:
            cursor.executemany(
                sql.answers,
                [(game_id, t, ph, s, dump(a), now) for t, ph, s, a in batch.answers],
            )
        if batch.decisions:
            cursor.executemany(
                sql.decisions,
                [
                    (game_id, t, ph, s, d, dump(a), now)
                    for t, ph, s, answers in batch.decisions
                    for d, a in sorted(answers.items())
                ],
            )
        if batch.steps:
            cursor.executemany(
                sql.steps,
                [
                    (game_id, t, ph, e if isinstance(e, str) else dump(e), now)
                    for t, ph, e in batch.steps
                ],
            )
        if batch.over:
            cursor.execute(sql.over, (True, game_id))

    def _raise_as(self, exc: BaseException) -> None:
        """A driver's error of a raw write raised as the store's: :class:`Conflict` for a
        unique key already taken, SQLAlchemy's error for the rest (else nothing: the
        caller raises ``exc`` itself)."""
        dbapi = self.engine.dialect.loaded_dbapi
        if isinstance(exc, dbapi.IntegrityError):
            raise Conflict(str(exc)) from None
        if isinstance(exc, dbapi.Error):
            raise DBAPIError.instance("(a game's batch)", None, exc, dbapi.Error) from exc

    def _pg_batch(self, game_id: str, batch: Batch, revision: int | None) -> None:
        """:meth:`add_batch` on PostgreSQL: one statement (:func:`pg_write`), one round
        trip; each kind of row sent as one JSON text (an array of text would escape
        every quote of the JSON inside)."""
        rows: dict[str, list[list[Any]]] = {
            "plans": [[t, s, Raw(p) if isinstance(p, str) else p] for t, s, p in batch.plans],
            "answers": [[t, ph, s, a] for t, ph, s, a in batch.answers],
            "decisions": [
                [t, ph, s, d, a]
                for t, ph, s, answers in batch.decisions
                for d, a in sorted(answers.items())
            ],
            "steps": [[t, ph, Raw(e) if isinstance(e, str) else e] for t, ph, e in batch.steps],
        }
        given: dict[str, Any] = {
            "game": game_id,
            "revision": revision,
            "now": time.time(),
            "origin": self.origin,
        }
        kinds = tuple(kind for kind, held in rows.items() if held)
        for kind in kinds:
            given[kind] = json_text(rows[kind])
        statement = pg_write(revision is None, batch.over, kinds)
        with self._pg_alone() as cursor:
            try:
                cursor.execute(statement, given)
                found = cursor.fetchone()
            except self.engine.dialect.loaded_dbapi.IntegrityError as exc:
                raise Conflict(str(exc)) from None
        if found is None:
            raise Stale(game_id)

    @contextlib.contextmanager
    def _pg_alone(self) -> Iterator[Any]:
        """A cursor of a pooled PostgreSQL connection in autocommit: each statement is
        its own transaction and its own snapshot, with no BEGIN and COMMIT around it
        (two round trips). A driver error is raised as SQLAlchemy's; a connection the
        database dropped is not given back to the pool."""
        from psycopg.pq import TransactionStatus

        fairy = self.engine.raw_connection()
        try:
            driver: Any = fairy.driver_connection
            alone = (
                not driver.autocommit and driver.info.transaction_status == TransactionStatus.IDLE
            )
            if alone:
                driver.autocommit = True
            try:
                cursor = fairy.cursor()
                try:
                    yield cursor
                finally:
                    cursor.close()
            finally:
                if alone:
                    driver.autocommit = False
            fairy.commit()
        except BaseException as exc:
            self._abandon(fairy, exc)
            dbapi = self.engine.dialect.loaded_dbapi
            if isinstance(exc, dbapi.Error):
                raise DBAPIError.instance(None, None, exc, dbapi.Error) from exc
            raise
        finally:
            fairy.close()

    def _abandon(self, fairy: Any, exc: BaseException) -> None:
        """Roll back a failed raw transaction; a connection the database dropped is not
        given back to the pool."""
        try:
            fairy.rollback()
        except Exception:
            fairy.invalidate()
            return
        dbapi = self.engine.dialect.loaded_dbapi
        if isinstance(exc, dbapi.Error) and self.engine.dialect.is_disconnect(
            exc, fairy.dbapi_connection, None
        ):
            fairy.invalidate()

    def update_seat(
        self, game_id: str, seat: str, revision: int | None = None, **values: Any
    ) -> None:
        self._settle_here()
        with self._writers, Session(self.engine) as session, session.begin():
            self.claim(session, game_id, revision)
            row = session.get(SeatRow, (game_id, seat))
            if row is None:
                raise KeyError(seat)
            for name, value in values.items():
                setattr(row, name, value)

    def games_to_resume(self) -> list[str]:
        """The unfinished games that may have work to do without a person, oldest first:
        one with a computer seat, or with an input (plans, targets, a decision) stored
        after its last step, whose step may have all its inputs (a server that stopped
        between the two). Any other waits for its people and is loaded when one of them
        asks for it: a server starting on thousands of games reads only these."""
        with Session(self.engine) as session:
            last = (
                select(func.max(StepRow.created))
                .where(StepRow.game_id == GameRow.id)
                .scalar_subquery()
            )
            since = func.coalesce(last, -1.0)
            later = [
                exists().where(row.game_id == GameRow.id, row.created > since)
                for row in (PlanRow, AnswerRow, DecisionRow)
            ]
            bots = exists().where(SeatRow.game_id == GameRow.id, SeatRow.bot.is_not(None))
            query = (
                select(GameRow.id)
                .where(GameRow.over.is_(False), or_(bots, *later))
                .order_by(GameRow.created)
            )
            return list(session.scalars(query))

    def game_ids(self, unfinished_only: bool = False) -> list[str]:
        with Session(self.engine) as session:
            query = select(GameRow.id).order_by(GameRow.created)
            if unfinished_only:
                query = query.where(GameRow.over.is_(False))
            return list(session.scalars(query))

    def list_games(self) -> list[tuple[str, str, float, bool]]:
        with Session(self.engine) as session:
            rows = session.execute(
                select(GameRow.id, GameRow.title, GameRow.created, GameRow.over).order_by(
                    GameRow.created
                )
            )
            return [(r[0], r[1], r[2], r[3]) for r in rows]

    def revision(self, game_id: str) -> int | None:
        """The game's stored revision (one look-up of its row by primary key), None if
        there is no such game: how a process that holds the game checks, before it
        answers a seat, that no other process wrote to it since (a notification may
        come after the seat's next request)."""
        if self.notifies:
            with self._pg_alone() as cursor:
                cursor.execute("SELECT revision FROM games WHERE id = %s", (game_id,))
                row = cursor.fetchone()
            return None if row is None else int(row[0])
        with self.engine.connect() as connection:
            found = connection.execute(
                select(GameRow.revision).where(GameRow.id == game_id)
            ).scalar_one_or_none()
        return None if found is None else int(found)

    def load(self, game_id: str) -> GameRecord | None:
        """Everything about one game, as one consistent picture."""
        return self._read(game_id, Marks(), full=True)

    def load_since(self, game_id: str, marks: Marks) -> GameRecord | None:
        """The game's seats and revision, and its plans, answers, decisions and steps
        stored after ``marks`` (a process catching up with another's writes reads what
        is new, not the whole game again); ``setup`` is left empty."""
        return self._read(game_id, marks, full=False)

    def _read(self, game_id: str, marks: Marks, full: bool) -> GameRecord | None:
        if self.notifies:
            return self._pg_read(game_id, marks, full)
        # one transaction: a snapshot of the file (SQLite reads in WAL mode)
        with self.engine.begin() as connection:
            given = {"game": game_id}
            game = connection.execute(LOAD_GAME, given).first()
            if game is None:
                return None
            seats = connection.execute(LOAD_SEATS, given).all()
            plans, answers, decided, steps = (
                connection.execute(statement.where(table.c.id > mark), given).all()
                for statement, table, mark in (
                    (LOAD_PLANS, PLANS, marks.plans),
                    (LOAD_ANSWERS, ANSWERS, marks.answers),
                    (LOAD_DECISIONS, DECISIONS, marks.decisions),
                    (LOAD_STEPS, STEPS, marks.steps),
                )
            )
        return record_of(game, seats, plans, answers, decided, steps, marks)

    def _pg_read(self, game_id: str, marks: Marks, full: bool) -> GameRecord | None:
        """:meth:`_read` on PostgreSQL: one statement through the driver (see
        :func:`~dogfight.server.db.pg_statements.pg_read`)."""
        given = {
            "game": game_id,
            "plans": marks.plans,
            "answers": marks.answers,
            "decisions": marks.decisions,
            "steps": marks.steps,
        }
        statement = PG_LOAD if full else PG_LOAD_SINCE
        with self._pg_alone() as cursor:
            cursor.execute(statement, given)
            row = cursor.fetchone()
        if row is None:
            return None
        title, created, seed, engine, over, revision, setup, flags, seats, *rows, events = row
        plans, answers, decided, steps = (r or [] for r in rows)
        with_events = [(*s, e) for s, e in zip(steps, events or (), strict=True)]
        plans, answers, decisions, steps, after = rows_read(
            plans, answers, decided, with_events, marks
        )
        return GameRecord(
            id=game_id,
            title=title,
            created=created,
            seed=seed,
            setup=setup or {},
            engine=engine,
            over=over,
            revision=revision,
            seats=[Seat(*s) for s in seats or []],  # the seats table's order
            plans=plans,
            answers=answers,
            decisions=decisions,
            steps=steps,
            marks=after,
            flags=None if not full else (bool(flags and flags[0]), bool(flags and flags[1])),
        )

    def own(self, rows: str | None) -> bool:
        """Whether a notification's ``rows`` (after the game's id and revision) end with
        this store's origin: a batch written here, which the writer has taken already
        (a string test, not JSON parsed on the event loop: an origin is hex digits, and
        no other writer's rows end with them)."""
        return rows is not None and rows.endswith(self._own_tail)

    @staticmethod
    def noticed(game_id: str, revision: int, rows: str, marks: Marks) -> GameRecord | None:
        """The rows a notification carried (``rows``, after the game's id and revision:
        see :func:`pg_write`) as :meth:`load_since` would read them at that revision from
        ``marks`` when the reader holds every earlier write — the rows of that one
        write; the seats are not in it (a seat's change is notified without rows) and
        left empty. None when ``rows`` is not such a list (the writer's origin after
        them, or from a process of an earlier version none, or the origin alone: the
        rows did not fit)."""
        try:
            carried = json.loads(rows)
            if len(carried) == 5:
                carried = carried[:4]  # the writer's origin
            plans, answers, decided, steps = (r or [] for r in carried)
            taken, given, decisions, resolved, after = rows_read(
                plans, answers, decided, steps, marks
            )
        except (ValueError, TypeError):
            return None
        return GameRecord(
            id=game_id,
            title="",
            created=0.0,
            seed=0,
            setup={},
            engine=0,
            over=False,
            revision=revision,
            seats=[],
            plans=taken,
            answers=given,
            decisions=decisions,
            steps=resolved,
            marks=after,
        )

    def count_steps(self, game_id: str) -> list[tuple[int, int]]:
        """(turn, phase) of every stored step, in order (duplicates would show twice)."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(StepRow.turn, StepRow.phase)
                .where(StepRow.game_id == game_id)
                .order_by(StepRow.turn, StepRow.phase)
            )
            return [(r[0], r[1]) for r in rows]
