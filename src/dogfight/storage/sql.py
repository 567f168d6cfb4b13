"""What every SQL store of the project shares (games, campaigns, match series): tables
created once, safely, when several processes start on one empty database, and the
columns that list a row (its id, title and creation time)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, Float, MetaData, String, text
from sqlalchemy.orm import Mapped, mapped_column

DDL_LOCK = 0x646F67666967
"""PostgreSQL advisory lock held while a process creates or upgrades the tables."""

FIRST = -10
"""``sort_order`` of the columns that open a table (its key), before the others: a
mixin's columns keep the place they had when each table declared them itself."""


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


class Listed:
    """A row listed by id, title and creation time (a game, a campaign, a match
    series): mixin of a declarative row class, these columns first."""

    id: Mapped[str] = mapped_column(String(40), primary_key=True, sort_order=FIRST)
    title: Mapped[str] = mapped_column(String(200), sort_order=FIRST)
    created: Mapped[float] = mapped_column(Float, sort_order=FIRST)

    if TYPE_CHECKING:  # the declarative base's constructor, keyword arguments by column

        def __init__(self, **fields: Any) -> None: ...
