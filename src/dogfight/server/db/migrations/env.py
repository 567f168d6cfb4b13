"""Alembic's environment for the game database: run programmatically only
(:mod:`dogfight.server.db.migrations`), on the connection it is handed, inside that
connection's transaction (held under the schema lock): no ``alembic.ini``, no URL here."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
