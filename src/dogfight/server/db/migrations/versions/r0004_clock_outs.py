"""Revision 4: each time a seat's turn clock ran out (issue 32 item 3): the turn, the
seat and the computer player handed it (``clock_outs``,
:mod:`dogfight.server.db.clock_rows`), from which the game's log says so. A game played
before it has no such note.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, Float, ForeignKey, Integer, MetaData, String, Table

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def tables() -> MetaData:
    """The tables of revision 4 (written out as they are now, not imported)."""
    meta = MetaData()
    Table("games", meta, Column("id", String(40), primary_key=True))  # referred to only
    Table(
        "clock_outs",
        meta,
        Column("game_id", String(40), ForeignKey("games.id"), primary_key=True),
        Column("turn", Integer, primary_key=True),
        Column("seat", String(40), primary_key=True),
        Column("bot", String(40), nullable=False),
        Column("created", Float, nullable=False),
    )
    return meta


def upgrade() -> None:
    meta = tables()
    meta.create_all(op.get_bind(), tables=[meta.tables["clock_outs"]], checkfirst=True)
