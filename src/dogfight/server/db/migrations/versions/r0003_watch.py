"""Revision 3: spectators (issue 32 item 4): each game's watch token hash and delay
(``game_watch``, :mod:`dogfight.server.db.watch_rows`). A game made before it has no
watch link.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, ForeignKey, Integer, MetaData, String, Table

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def tables() -> MetaData:
    """The tables of revision 3 (written out as they are now, not imported)."""
    meta = MetaData()
    Table("games", meta, Column("id", String(40), primary_key=True))  # referred to only
    Table(
        "game_watch",
        meta,
        Column("game_id", String(40), ForeignKey("games.id"), primary_key=True),
        Column("token_hash", String(64), nullable=False),
        Column("delay", Integer, nullable=False),
    )
    return meta


def upgrade() -> None:
    meta = tables()
    meta.create_all(op.get_bind(), tables=[meta.tables["game_watch"]], checkfirst=True)
