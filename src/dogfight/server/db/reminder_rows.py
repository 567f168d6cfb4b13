"""Where turn-a-day reminders are kept: each seat's address, and the reminders sent.

Two tables (schema revision 2, :mod:`dogfight.server.db.migrations`):

- ``reminders``: a seat's e-mail address or webhook URL, with the seat's token (the
  reminder carries the seat's own link, which is the token: the server otherwise keeps
  only its hash). Deleted when the seat takes its reminder back.
- ``reminders_sent``: one row per game, seat and turn, written *before* the message is
  sent (:func:`claim`): of several processes (or one restarted) that see the game wait
  for the seat, only the one whose insert succeeds sends — at most one message a turn.

Every function here runs one short transaction on a worker thread, never on the loop.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal, cast

from sqlalchemy import Float, ForeignKey, Integer, String, Table, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from dogfight.server.db.store import Store
from dogfight.server.db.tables import Base

Kind = Literal["email", "webhook"]


class ReminderRow(Base):
    """A seat's reminder: ``kind`` (email or webhook), where it goes, the seat's token."""

    __tablename__ = "reminders"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(40), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    address: Mapped[str] = mapped_column(String(500))
    token: Mapped[str] = mapped_column(String(200))
    created: Mapped[float] = mapped_column(Float)


class ReminderSentRow(Base):
    """A reminder claimed for a seat's turn (sent, being sent, or given up on)."""

    __tablename__ = "reminders_sent"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(40), primary_key=True)
    turn: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[float] = mapped_column(Float)


REMINDERS = cast(Table, ReminderRow.__table__)
SENT = cast(Table, ReminderSentRow.__table__)


@dataclass(frozen=True)
class Reminder:
    """A seat's reminder as read back."""

    game_id: str
    seat: str
    kind: Kind
    address: str
    token: str


def _reminder(game_id: str, seat: str, kind: str, address: str, token: str) -> Reminder:
    return Reminder(game_id, seat, "email" if kind == "email" else "webhook", address, token)


def put(store: Store, game_id: str, seat: str, kind: Kind, address: str, token: str) -> None:
    """Set (or replace) the seat's reminder."""
    with store._transaction() as connection:
        connection.execute(
            delete(REMINDERS).where(REMINDERS.c.game_id == game_id, REMINDERS.c.seat == seat)
        )
        connection.execute(
            REMINDERS.insert(),
            {
                "game_id": game_id,
                "seat": seat,
                "kind": kind,
                "address": address,
                "token": token,
                "created": time.time(),
            },
        )


def clear(store: Store, game_id: str, seat: str) -> None:
    """Take the seat's reminder away (its address and token are deleted)."""
    with store._transaction() as connection:
        connection.execute(
            delete(REMINDERS).where(REMINDERS.c.game_id == game_id, REMINDERS.c.seat == seat)
        )


def of_game(store: Store, game_id: str) -> dict[str, Reminder]:
    """The game's reminders by seat."""
    return {seat: found for (_, seat), found in of_games(store, [game_id]).items()}


def of_games(store: Store, game_ids: Collection[str]) -> dict[tuple[str, str], Reminder]:
    """The reminders of several games, by game and seat, in one query: a server that
    resolves a hundred turns a second looks them up once per batch of turns, not once
    per turn (:class:`dogfight.server.play.reminders.Reminders`)."""
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(
                REMINDERS.c.game_id,
                REMINDERS.c.seat,
                REMINDERS.c.kind,
                REMINDERS.c.address,
                REMINDERS.c.token,
            ).where(REMINDERS.c.game_id.in_(list(game_ids)))
        )
        return {(row[0], row[1]): _reminder(*row) for row in rows}


def claim(store: Store, game_id: str, seat: str, turn: int) -> bool:
    """Mark the seat's reminder of ``turn`` as sent; False if some process already did."""
    try:
        with store._transaction() as connection:
            connection.execute(
                SENT.insert(),
                {"game_id": game_id, "seat": seat, "turn": turn, "created": time.time()},
            )
    except IntegrityError:
        return False
    return True
