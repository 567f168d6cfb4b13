"""A game's turn clock (issue 32 item 3): hours a seat has to plan (24 or 48; no row:
no clock), chosen when the game is made; and when the game's current turn began."""

from __future__ import annotations

from typing import cast

from sqlalchemy import ForeignKey, Integer, Table, func, select
from sqlalchemy.orm import Mapped, mapped_column

from dogfight.server.db.store import Store
from dogfight.server.db.tables import GAMES, STEPS, Base


class ClockRow(Base):
    """A game's turn clock: ``hours`` a seat has, from the start of a turn."""

    __tablename__ = "game_clocks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    hours: Mapped[int] = mapped_column(Integer)


CLOCKS = cast(Table, ClockRow.__table__)


def hours_of(store: Store, game_id: str) -> int:
    """The game's clock in hours (0: none)."""
    with store.engine.connect() as connection:
        got = connection.execute(select(CLOCKS.c.hours).where(CLOCKS.c.game_id == game_id))
        return int(got.scalar_one_or_none() or 0)


def turn_began(store: Store, game_id: str) -> float | None:
    """When the game's current turn began: its last resolved step, else its making."""
    with store.engine.connect() as connection:
        step = connection.execute(
            select(func.max(STEPS.c.created)).where(STEPS.c.game_id == game_id)
        ).scalar_one_or_none()
        if step is not None:
            return float(step)
        made = connection.execute(
            select(GAMES.c.created).where(GAMES.c.id == game_id)
        ).scalar_one_or_none()
        return None if made is None else float(made)
