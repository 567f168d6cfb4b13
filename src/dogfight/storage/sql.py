"""What every SQL store of the project shares (games, campaigns, match series): tables
created once, safely, when several processes start on one empty database."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from sqlalchemy import Connection, Engine, MetaData, text

DDL_LOCK = 0x646F67666967
"""PostgreSQL advisory lock held while a process creates or upgrades the tables."""


@contextlib.contextmanager
def schema_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction for creating or upgrading tables: under the advisory lock on
    PostgreSQL, so that processes starting together on an empty database do not race
    (one creates the tables, the others then find them)."""
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": DDL_LOCK})
        yield connection


def create_tables(engine: Engine, metadata: MetaData) -> None:
    """Create ``metadata``'s tables if missing (see :func:`schema_transaction`)."""
    with schema_transaction(engine) as connection:
        metadata.create_all(connection)
