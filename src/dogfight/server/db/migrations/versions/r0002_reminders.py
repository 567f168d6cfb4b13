"""Revision 2: turn-a-day reminders (issue 32 item 3): each seat's e-mail address or
webhook URL (``reminders``) and the reminders sent, one per game, seat and turn
(``reminders_sent``): see :mod:`dogfight.server.db.reminder_rows`; and each game's turn
clock (``game_clocks``, :mod:`dogfight.server.db.clock_rows`).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, Float, ForeignKey, Integer, String

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reminders",
        Column("game_id", String(40), ForeignKey("games.id"), primary_key=True),
        Column("seat", String(40), primary_key=True),
        Column("kind", String(10), nullable=False),
        Column("address", String(500), nullable=False),
        Column("token", String(200), nullable=False),
        Column("created", Float, nullable=False),
    )
    op.create_table(
        "reminders_sent",
        Column("game_id", String(40), ForeignKey("games.id"), primary_key=True),
        Column("seat", String(40), primary_key=True),
        Column("turn", Integer, primary_key=True),
        Column("created", Float, nullable=False),
    )
    op.create_table(
        "game_clocks",
        Column("game_id", String(40), ForeignKey("games.id"), primary_key=True),
        Column("hours", Integer, nullable=False),
    )
