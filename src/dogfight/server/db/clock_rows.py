"""A game's turn clock (issue 32 item 3): hours a seat has to plan (24 or 48; no row:
no clock), chosen when the game is made; when the game's current turn began; and each
time a seat's clock ran out (the turn, the seat, the computer player handed it: the
game's log says so, made from these rows)."""

from __future__ import annotations

from typing import cast

from sqlalchemy import Float, ForeignKey, Integer, String, Table, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from dogfight.server.db.store import Store
from dogfight.server.db.tables import GAMES, STEPS, Base


class ClockRow(Base):
    """A game's turn clock: ``hours`` a seat has, from the start of a turn."""

    __tablename__ = "game_clocks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    hours: Mapped[int] = mapped_column(Integer)


CLOCKS = cast(Table, ClockRow.__table__)


class ClockOutRow(Base):
    """A seat's clock ran out in a turn: handed to the computer player ``bot``."""

    __tablename__ = "clock_outs"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    turn: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(40), primary_key=True)
    bot: Mapped[str] = mapped_column(String(40))
    created: Mapped[float] = mapped_column(Float)


OUTS = cast(Table, ClockOutRow.__table__)


def ran_out(store: Store, game_id: str, turn: int, seat: str, bot: str, at: float) -> bool:
    """Store that the seat's clock ran out in ``turn`` and ``bot`` is handed it; False
    when it is stored already (another process handed the seat over first: it wins)."""
    try:
        with store.engine.begin() as connection:
            connection.execute(
                insert(OUTS).values(game_id=game_id, turn=turn, seat=seat, bot=bot, created=at)
            )
    except IntegrityError:
        return False
    return True


def outs_of(store: Store, game_id: str) -> list[tuple[int, str, str]]:
    """Each time a seat's clock ran out in the game: (turn, seat, bot), in turn order."""
    with store.engine.connect() as connection:
        got = connection.execute(
            select(OUTS.c.turn, OUTS.c.seat, OUTS.c.bot)
            .where(OUTS.c.game_id == game_id)
            .order_by(OUTS.c.turn, OUTS.c.created, OUTS.c.seat)
        )
        return [(int(turn), str(seat), str(bot)) for turn, seat, bot in got]


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
