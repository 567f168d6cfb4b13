"""How many spectators each server process holds open on each game (issue 32 item 4):
one row per game and process, with a lease the process renews while it holds any. The
per-game limit counts every process's rows whose lease has not run out, so two processes
behind one proxy admit no more spectators than one; a process killed without a goodbye
stops counting when its lease runs out. Transient: not part of a game's record."""

from __future__ import annotations

from typing import cast

from sqlalchemy import Float, Integer, String, Table, delete, func, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from dogfight.server.db.store import Store
from dogfight.server.db.tables import Base
from dogfight.server.db.watch_rows import WATCH


class SpectatorCountRow(Base):
    """A process's open spectators' sockets on a game, counted until ``expires``."""

    __tablename__ = "spectator_counts"

    game_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    process: Mapped[str] = mapped_column(String(32), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    expires: Mapped[float] = mapped_column(Float)


COUNTS = cast(Table, SpectatorCountRow.__table__)


def admit(store: Store, game_id: str, process: str, most: int, now: float, lease: float) -> bool:
    """Count one more spectator of ``process`` on the game unless the game's spectators
    in every process already number ``most`` (0: no limit); whether it was counted.
    The game's watch row is locked meanwhile (PostgreSQL), so two processes admitting at
    once cannot both take the last place."""
    with store.engine.begin() as connection:
        connection.execute(
            select(WATCH.c.game_id).where(WATCH.c.game_id == game_id).with_for_update()
        )
        connection.execute(
            delete(COUNTS).where(COUNTS.c.game_id == game_id, COUNTS.c.expires < now)
        )
        held = connection.execute(
            select(func.coalesce(func.sum(COUNTS.c.count), 0)).where(COUNTS.c.game_id == game_id)
        ).scalar_one()
        if most and int(held) >= most:
            return False
        mine = (COUNTS.c.game_id == game_id) & (COUNTS.c.process == process)
        done = connection.execute(
            update(COUNTS).where(mine).values(count=COUNTS.c.count + 1, expires=now + lease)
        )
        if not done.rowcount:
            connection.execute(
                insert(COUNTS).values(
                    game_id=game_id, process=process, count=1, expires=now + lease
                )
            )
    return True


def release(store: Store, game_id: str, process: str) -> None:
    """One spectator of ``process`` on the game has gone."""
    mine = (COUNTS.c.game_id == game_id) & (COUNTS.c.process == process)
    with store.engine.begin() as connection:
        connection.execute(update(COUNTS).where(mine).values(count=COUNTS.c.count - 1))
        connection.execute(delete(COUNTS).where(mine, COUNTS.c.count <= 0))


def renew(store: Store, process: str, until: float) -> None:
    """Extend the lease of every count ``process`` holds to ``until``."""
    with store.engine.begin() as connection:
        connection.execute(update(COUNTS).where(COUNTS.c.process == process).values(expires=until))


def forget(store: Store, process: str) -> None:
    """``process`` holds no spectator any more (it is stopping)."""
    with store.engine.begin() as connection:
        connection.execute(delete(COUNTS).where(COUNTS.c.process == process))
