"""The game database's schema versions (Alembic), run from here: no ``alembic.ini``.

A database's revision is in its ``alembic_version`` table; ``versions/`` holds the
revisions this dogfight knows, the last of them its :func:`head`. On opening a database
(:func:`check`, from :class:`~dogfight.server.db.store.Store`):

- an empty database (none of the game tables) is made at the head: nothing to lose;
- a database at the head opens;
- a database at a revision this dogfight does not know (made by a newer one) is refused
  (:class:`SchemaTooNew`): an older program must not write into tables it does not know;
- an older one (an older revision, or the tables of a dogfight from before schema
  versions: no ``alembic_version``) is refused (:class:`SchemaTooOld`) until it is
  upgraded, by ``dogfight db upgrade`` or ``dogfight serve --upgrade`` (:func:`upgrade`),
  which first copies an SQLite file beside itself (:func:`backup`).

Every check and upgrade runs in one transaction under the schema lock
(:func:`dogfight.storage.sql.schema_transaction`: PostgreSQL's advisory lock): of several
processes starting together on one database, one upgrades (or creates) the tables and
the others then find them at the head.
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect

from dogfight.errors import DogfightError
from dogfight.storage.sql import schema_transaction

UNVERSIONED = "unversioned"
"""How the revision of a database from before schema versions is named."""

FIRST_TABLE = "games"
"""The table every games database has had since the first (722619d)."""


class SchemaError(DogfightError):
    """The database's schema is not this dogfight's."""


class SchemaTooNew(SchemaError):
    """The database was made or upgraded by a newer dogfight."""


class SchemaTooOld(SchemaError):
    """The database was made by an older dogfight and is not upgraded yet."""


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).resolve().parent))
    config.attributes["connection"] = connection
    return config


@functools.cache
def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


def head() -> str:
    """The revision this dogfight writes."""
    found = _scripts().get_current_head()
    assert found is not None
    return found


@dataclass(frozen=True)
class Version:
    """Where a database stands: its revision (None: empty; :data:`UNVERSIONED`: the
    tables of a dogfight from before schema versions) against this dogfight's head."""

    revision: str | None
    head: str
    known: bool
    """Whether this dogfight knows the revision (False: a newer dogfight made it)."""

    @property
    def current(self) -> bool:
        return self.revision == self.head

    @property
    def empty(self) -> bool:
        return self.revision is None

    @property
    def name(self) -> str:
        """The revision for messages."""
        if self.revision == UNVERSIONED:
            return "the tables of a dogfight from before schema versions (no revision)"
        return f"revision {self.revision}"

    def describe(self) -> str:
        if self.empty:
            return f"empty (this dogfight makes revision {self.head})"
        if self.current:
            return f"revision {self.head} (current)"
        if not self.known:
            return f"revision {self.revision} (newer than this dogfight's {self.head})"
        return f"{self.name} (older: this dogfight's is revision {self.head})"


def version_of(connection: Connection) -> Version:
    """The database's :class:`Version`, read on ``connection``."""
    top = head()
    revision = MigrationContext.configure(connection).get_current_revision()
    if revision is None:
        revision = UNVERSIONED if inspect(connection).has_table(FIRST_TABLE) else None
        return Version(revision, top, True)
    scripts = _scripts()
    known = any(s.revision == revision for s in scripts.walk_revisions())
    return Version(revision, top, known)


def _refuse_newer(version: Version, database: str) -> None:
    if not version.known:
        raise SchemaTooNew(
            f"the database {database} is at schema revision {version.revision}, made by a "
            f"newer dogfight (this one knows revisions up to {version.head}): run the "
            "newer dogfight on it, or give another --db; nothing was changed"
        )


def where(engine: Engine) -> str:
    """The database for messages: an SQLite file's path, else the URL without its
    password."""
    url = engine.url
    if engine.dialect.name == "sqlite" and url.database:
        return str(Path(url.database))
    return url.render_as_string(hide_password=True)


def check(engine: Engine) -> Version:
    """Open the database for this dogfight: create the tables
    of an empty one; refuse one made by a newer dogfight (:class:`SchemaTooNew`) or not
    upgraded yet (:class:`SchemaTooOld`); a refused engine is disposed of."""
    try:
        return _check(engine)
    except SchemaError:
        engine.dispose()
        raise


def _check(engine: Engine) -> Version:
    with schema_transaction(engine) as connection:
        version = version_of(connection)
        _refuse_newer(version, where(engine))
        if version.empty:
            command.upgrade(_config(connection), "head")
            return version_of(connection)
    if not version.current:
        raise SchemaTooOld(
            f"the database {where(engine)} has {version.name}, older than this "
            f"dogfight's schema revision {version.head}: back it up, then run 'dogfight db upgrade "
            f"--db {where(engine)}' (or start with 'dogfight serve --upgrade'); nothing was changed"
        )
    return version


def current(engine: Engine) -> Version:
    """Where the database stands, changing nothing."""
    with engine.connect() as connection:
        return version_of(connection)


def backup(engine: Engine, version: Version) -> Path | None:
    """A copy of an SQLite database file beside it, before upgrading it
    (``games.sqlite.before-0001-20261129T101500.sqlite``), through SQLite's backup API
    (a consistent copy even with the WAL); None for another database (PostgreSQL: the
    operator's ``pg_dump``, docs/web.md) or an empty one."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    if version.empty:
        return None
    source = Path(database)
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    target = source.with_name(f"{source.name}.before-{version.revision}-{stamp}.sqlite")
    with (
        contextlib.closing(sqlite3.connect(source)) as old,
        contextlib.closing(sqlite3.connect(target)) as new,
    ):
        old.backup(new)
    return target


@dataclass(frozen=True)
class Upgraded:
    before: Version
    after: Version
    backup: Path | None


def upgrade(engine: Engine) -> Upgraded:
    """Bring the database to this dogfight's head (an empty one is made there), after a
    backup of an SQLite file (:func:`backup`); refused for one newer than this dogfight
    (:class:`SchemaTooNew`). Nothing happens to a database at the head."""
    before = current(engine)
    _refuse_newer(before, where(engine))
    copy = backup(engine, before) if not before.current else None
    with schema_transaction(engine) as connection:
        found = version_of(connection)  # another process may have upgraded it meanwhile
        _refuse_newer(found, where(engine))
        if not found.current:
            command.upgrade(_config(connection), "head")
        after = version_of(connection)
    return Upgraded(before, after, copy)
