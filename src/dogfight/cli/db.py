"""``dogfight db upgrade | current``: the game database's schema version
(:mod:`dogfight.server.db.migrations`; docs/web.md, "Schema versions and upgrades")."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from sqlalchemy import Engine

app = typer.Typer(help="The game database's schema version.", no_args_is_help=True)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Any SQLAlchemy URL or an SQLite file (default: the file `dogfight serve` uses).",
    ),
]


def db_url(db: str | None) -> tuple[str, str]:
    """The database URL and what to print about where the games are."""
    from dogfight.server.db.store import default_db_path, sqlite_url

    if db is not None:
        if "://" not in db:
            path = Path(db)
            path.parent.mkdir(parents=True, exist_ok=True)
            return sqlite_url(path), str(path.resolve())
        return db, db
    path = default_db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return sqlite_url(path), str(path)


def open_engine(db: str | None) -> Engine:
    """An engine on the database ``dogfight serve --db DB`` would use (no tables made)."""
    from dogfight.server.db import store

    url, _ = db_url(db)
    return store.open_engine(url)


def print_upgrade(engine: Engine) -> None:
    """Upgrade the database to this dogfight's schema and say what was done (one line,
    two with a backup copy): ``db upgrade`` and ``serve --upgrade``."""
    from dogfight.server.db import migrations

    done = migrations.upgrade(engine)
    if done.backup is not None:
        print(f"dogfight: copied the database to {done.backup} before upgrading", flush=True)
    if done.before.revision == done.after.revision:
        print(f"dogfight: the database is at {done.after.describe()}", flush=True)
    else:
        before = "an empty database" if done.before.empty else done.before.name
        print(f"dogfight: upgraded {before} to revision {done.after.revision}", flush=True)


@app.command()
def upgrade(db: DbOption = None) -> None:
    """Bring the database to this dogfight's schema (an SQLite file is copied beside
    itself first); refused for a database of a newer dogfight."""
    engine = open_engine(db)
    try:
        print_upgrade(engine)
    finally:
        engine.dispose()


@app.command()
def current(db: DbOption = None) -> None:
    """Print the database's schema revision and whether it is this dogfight's (exit
    status 1 when it is not)."""
    from dogfight.server.db import migrations

    engine = open_engine(db)
    try:
        version = migrations.current(engine)
    finally:
        engine.dispose()
    print(f"{migrations.where(engine)}: {version.describe()}")
    if not (version.current or version.empty):
        raise typer.Exit(1)
