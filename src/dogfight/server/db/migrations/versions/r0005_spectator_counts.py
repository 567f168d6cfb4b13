"""Revision 5: how many spectators each server process holds on each game, with a lease
(``spectator_counts``, :mod:`dogfight.server.db.spectator_rows`), so the per-game limit
counts every process's spectators. Transient: no game's record, never backed up.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, Float, Integer, MetaData, String, Table

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def tables() -> MetaData:
    """The tables of revision 5 (written out as they are now, not imported)."""
    meta = MetaData()
    Table(
        "spectator_counts",
        meta,
        Column("game_id", String(40), primary_key=True),
        Column("process", String(32), primary_key=True),
        Column("count", Integer, nullable=False),
        Column("expires", Float, nullable=False),
    )
    return meta


def upgrade() -> None:
    meta = tables()
    meta.create_all(op.get_bind(), tables=[meta.tables["spectator_counts"]], checkfirst=True)
