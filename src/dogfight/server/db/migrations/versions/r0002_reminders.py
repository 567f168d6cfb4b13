"""Revision 2: turn-a-day reminders (issue 32 item 3): each seat's e-mail address or
webhook URL (``reminders``) and the reminders sent, one per game, seat and turn
(``reminders_sent``): see :mod:`dogfight.server.db.reminder_rows`; and each game's turn
clock (``game_clocks``, :mod:`dogfight.server.db.clock_rows`).

Each table is made where it is missing (as revision 1 makes its own): a database whose
revision table was lost, but not its tables, is adopted as it is.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, Float, ForeignKey, Integer, MetaData, String, Table

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def tables() -> MetaData:
    """The tables of revision 2 (written out as they are now, not imported)."""
    meta = MetaData()
    Table("games", meta, Column("id", String(40), primary_key=True))  # referred to only
    Table(
        "reminders",
        meta,
        Column("game_id", String(40), ForeignKey("games.id"), primary_key=True),
        Column("seat", String(40), primary_key=True),
        Column("kind", String(10), nullable=False),
        Column("address", String(500), nullable=False),
        Column("token", String(200), nullable=False),
        Column("created", Float, nullable=False),
    )
    Table(
        "reminders_sent",
        meta,
        Column("game_id", String(40), ForeignKey("games.id"), primary_key=True),
        Column("seat", String(40), primary_key=True),
        Column("turn", Integer, primary_key=True),
        Column("created", Float, nullable=False),
    )
    Table(
        "game_clocks",
        meta,
        Column("game_id", String(40), ForeignKey("games.id"), primary_key=True),
        Column("hours", Integer, nullable=False),
    )
    return meta


def upgrade() -> None:
    meta = tables()
    new = [meta.tables[name] for name in ("reminders", "reminders_sent", "game_clocks")]
    meta.create_all(op.get_bind(), tables=new, checkfirst=True)
