"""What every SQL store of the project shares (games, campaigns, match series): tables
created once, safely, when several processes start on one empty database."""

from __future__ import annotations

from sqlalchemy import Engine, MetaData, text

DDL_LOCK = 0x646F67666967
"""PostgreSQL advisory lock held while a process creates or upgrades the tables."""


def create_tables(engine: Engine, metadata: MetaData) -> None:
    """Create ``metadata``'s tables if missing: under the advisory lock on PostgreSQL, so
    that processes starting together on an empty database do not race."""
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": DDL_LOCK})
        metadata.create_all(connection)
